//! The collection searches (1 credit per row returned): `POST /companies`,
//! `/deals`, `/investors`, `/people`. The body is parsed and validated
//! (`api::body`), the engine answers with the exact count and one page of
//! doc ids (`query::exec`), and only that page is hydrated from the record
//! stores, with the per-query keys appended.

use serde_json::{json, Value};

use crate::api::body::{parse_companies, parse_deals, parse_investors, parse_people};
use crate::api::envelope::{Data, Meta, Raw};
use crate::api::errors::ApiError;
use crate::api::handler::{Ctx, Reply};
use crate::api::semantic::semantic_error;
use crate::index::build::render::LIST_HISTORY_LIMIT;
use crate::index::open::Kind;
use crate::index::store::Record;
use crate::index::IndexError;
use crate::query::exec::{
    search_companies, search_deals, search_investors, search_people, QueryError,
};
use crate::query::request::{FilteredCounts, PageRequest, ResultPage};
use crate::schema::record::PersonRecord;

use super::support::{internal, semantic_blocks};

/// Message of an empty `/people` result.
pub const NO_PEOPLE: &str = "No people found matching your filters";

pub fn query_error(e: QueryError) -> ApiError {
    match e {
        QueryError::Index(e) => internal(e),
        QueryError::Semantic { block, error } => semantic_error(block, &error),
    }
}

fn list(name: &'static str, result: &ResultPage, page: PageRequest, rows: Vec<Raw>) -> Reply {
    let meta = Meta {
        total_count: result.total_count,
        page: page.page as u64,
        page_size: page.page_size as u64,
    };
    Reply {
        rows: rows.len() as u64,
        data: Data::list(name, rows),
        meta,
        message: None,
        semantic_searches: 0,
        charged: None,
    }
}

/// The stored `variant` records of a page, each passed through `shape`.
fn hydrate(
    kind: &Kind,
    variant: &str,
    docs: &[u32],
    mut shape: impl FnMut(usize, Record) -> Result<Raw, ApiError>,
) -> Result<Vec<Raw>, ApiError> {
    let store = kind.records(variant).map_err(internal)?;
    let records = store.get_many(docs.iter().copied()).map_err(internal)?;
    records
        .into_iter()
        .enumerate()
        .map(|(i, r)| shape(i, r))
        .collect()
}

pub fn companies(ctx: &Ctx) -> Result<Reply, ApiError> {
    let mut q = parse_companies(ctx.body)?;
    let index = ctx.index;
    let searches = semantic_blocks(ctx, [(q.semantic.as_mut(), "company"), (None, "")])?;
    let result = search_companies(index, &q).map_err(query_error)?;
    let rows = hydrate(&index.companies, "full", &result.docs, |i, r| {
        let similarity = result
            .similarity
            .get(i)
            .map_or(Value::Null, |&s| json!(rounded(s)));
        Ok(Raw::with_keys(r, &[("similarity", similarity)]))
    })?;
    Ok(list("companies", &result, q.page, rows).with_semantic(searches))
}

pub fn deals(ctx: &Ctx) -> Result<Reply, ApiError> {
    let q = parse_deals(ctx.body)?;
    let index = ctx.index;
    let result = search_deals(index, &q).map_err(query_error)?;
    let rows = hydrate(&index.deals, "full", &result.docs, |_, r| Ok(Raw::new(r)))?;
    Ok(list("deals", &result, q.page, rows))
}

/// A relevance as sent: four decimals.
fn rounded(relevance: f32) -> f64 {
    (relevance as f64 * 10_000.0).round() / 10_000.0
}

/// `filtered_*` of row `i` (null without per-query counts).
fn filtered(result: &ResultPage, i: usize) -> Option<FilteredCounts> {
    result.filtered.get(i).copied()
}

pub fn investors(ctx: &Ctx) -> Result<Reply, ApiError> {
    let mut q = parse_investors(ctx.body)?;
    let index = ctx.index;
    let portfolio = q.portfolio.as_mut().and_then(|p| p.semantic.as_mut());
    let searches = semantic_blocks(ctx, [(portfolio, "company_investments"), (None, "")])?;
    let result = search_investors(index, &q).map_err(query_error)?;
    let rows = hydrate(&index.firms, "full", &result.docs, |i, r| {
        let f = filtered(&result, i);
        let keys = [
            ("filtered_deal_count", json!(f.map(|f| f.deal_count))),
            ("filtered_lead_count", json!(f.map(|f| f.lead_count))),
        ];
        Ok(Raw::with_keys(r, &keys))
    })?;
    Ok(list("investors", &result, q.page, rows).with_semantic(searches))
}

/// A person list row: histories cut to [`LIST_HISTORY_LIMIT`] entries, `filtered_*` appended.
fn person_row(stored: &[u8], f: Option<FilteredCounts>) -> Result<Raw, ApiError> {
    let mut person: PersonRecord = serde_json::from_slice(stored)
        .map_err(|e| internal(IndexError::corrupt("people.full.store", e.to_string())))?;
    person.employment_history.truncate(LIST_HISTORY_LIMIT);
    person.education_history.truncate(LIST_HISTORY_LIMIT);
    let keys = [
        ("filtered_deal_count", json!(f.map(|f| f.deal_count))),
        ("filtered_lead_count", json!(f.map(|f| f.lead_count))),
        (
            "filtered_most_recent_date",
            json!(f.and_then(|f| f.most_recent_date).map(|d| d.iso())),
        ),
    ];
    let trimmed = serde_json::to_vec(&person)
        .map_err(|e| internal(IndexError::corrupt("people.full.store", e.to_string())))?;
    Ok(Raw::with_keys(trimmed, &keys))
}

pub fn people(ctx: &Ctx) -> Result<Reply, ApiError> {
    let mut q = parse_people(ctx.body)?;
    let index = ctx.index;
    let employer = q.company.as_mut().and_then(|c| c.semantic.as_mut());
    let deals = q.investor.as_mut().and_then(|i| i.deals.as_mut());
    let portfolio = deals.and_then(|d| d.semantic.as_mut());
    let searches = semantic_blocks(ctx, [(employer, "company"), (portfolio, "investor.deals")])?;
    let result = search_people(index, &q).map_err(query_error)?;
    let rows = hydrate(&index.people, "full", &result.docs, |i, r| {
        person_row(&r, filtered(&result, i))
    })?;
    let mut reply = list("people", &result, q.page, rows).with_semantic(searches);
    if result.total_count == 0 {
        reply.message = Some(NO_PEOPLE.to_string());
    }
    Ok(reply)
}
