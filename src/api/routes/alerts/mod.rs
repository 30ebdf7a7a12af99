//! The alert endpoints (reference §10; free, Pro+ / Enterprise / API plans,
//! gated by their declarations): `GET /alerts` runs each requested alert
//! of the caller's user on the `/deals` engine (`query::alert`) over the
//! range and reports its deals; `GET /alerts/configurations` lists the
//! user's configurations; `POST` and `DELETE /alerts/configurations` (an
//! extension) save and remove them through the account store.

mod request;

use chrono::Utc;
use serde_json::json;
use uuid::Uuid;

use crate::api::body::parse_alert_configuration;
use crate::api::envelope::{Data, Meta, Raw};
use crate::api::errors::{ApiError, Code};
use crate::api::handler::{Ctx, Reply};
use crate::index::{Index, IndexError};
use crate::query::alert::{
    configuration_of, reasoning, run_alert, semantic_of, simplified_deal, AlertMatches, Matched,
    MAX_ALERT_DEALS,
};
use crate::query::exec::QueryError;
use crate::query::request::{Range, Semantic};
use crate::query::resolve::parse_uuid;
use crate::schema::alert::{Alert, AlertConfig, SimplifiedDeal};
use crate::schema::record::{CompanyRecord, DealRecord};
use crate::schema::Date;

use super::collections::query_error;
use super::support::{internal, semantic_blocks};

/// A reply of `items` under `name`, `meta.page_size` being `page_size`.
fn batch(data: Data, page_size: usize) -> Reply {
    Reply {
        data,
        meta: Meta {
            total_count: page_size as u64,
            page: 0,
            page_size: page_size as u64,
        },
        rows: 0,
        message: None,
        semantic_searches: 0,
        charged: None,
    }
}

fn not_found() -> ApiError {
    let help =
        "Check the alert IDs with GET /alerts/configurations; only your own alerts can be read.";
    ApiError::with_help(Code::AlertNotFound, &[], help)
}

/// The caller's configurations with the requested ids, in request order.
fn owned(ctx: &Ctx, ids: &[Uuid]) -> Result<Vec<AlertConfig>, ApiError> {
    let mine = ctx
        .app
        .accounts
        .alerts_of(&ctx.principal.user)
        .map_err(internal)?;
    ids.iter()
        .map(|id| {
            mine.iter()
                .find(|a| a.id == *id)
                .cloned()
                .ok_or_else(not_found)
        })
        .collect()
}

/// One matched deal in the alert shape.
fn report(
    index: &Index,
    config: &AlertConfig,
    matches: &AlertMatches,
    doc: u32,
) -> Result<SimplifiedDeal, IndexError> {
    let deal: DealRecord = index.deals.record("full", doc)?;
    let company_doc =
        index.companies.ids.docid(&deal.company_id).ok_or_else(|| {
            IndexError::corrupt("deals", format!("deal {} has no company", deal.id))
        })?;
    let company: CompanyRecord = index.companies.record("full", company_doc)?;
    let matched = Matched {
        deal: &deal,
        deal_doc: doc,
        company: &company,
        relevance: matches.relevance.get(&company_doc).copied(),
    };
    let why = reasoning(index, &config.filters, &matched)?;
    Ok(simplified_deal(deal, &company, why))
}

/// `config`'s alert over `days`, or `None` when no deal matched.
fn alert_of(
    index: &Index,
    config: &AlertConfig,
    days: Range<Date>,
    semantic: Option<&Semantic>,
) -> Result<Option<Raw>, ApiError> {
    let matches = run_alert(index, &config.filters, days, semantic).map_err(query_error)?;
    if matches.deals.is_empty() {
        return Ok(None);
    }
    let deals = matches
        .newest(MAX_ALERT_DEALS)
        .into_iter()
        .map(|doc| {
            report(index, config, &matches, doc).map_err(|e| query_error(QueryError::Index(e)))
        })
        .collect::<Result<Vec<_>, ApiError>>()?;
    let alert = Alert {
        alert_id: config.id,
        alert_name: config.name.clone(),
        alert_frequency: config.frequency,
        total_deal_count: matches.deals.len(),
        deals,
    };
    Ok(Some(Raw::from_serialize(&alert)))
}

/// `GET /alerts`.
pub fn alerts(ctx: &Ctx) -> Result<Reply, ApiError> {
    let request = request::parse(&ctx.query, Utc::now())?;
    let configs = owned(ctx, &request.ids)?;
    let mut semantics: Vec<Option<Semantic>> =
        configs.iter().map(|c| semantic_of(&c.filters)).collect();
    let searches = semantic_blocks(ctx, semantics.iter_mut().map(|s| (s.as_mut(), "filters")))?;
    let index = ctx.index;
    let mut rows = Vec::new();
    for (config, semantic) in configs.iter().zip(&semantics) {
        rows.extend(alert_of(index, config, request.days(), semantic.as_ref())?);
    }
    Ok(batch(Data::list("alerts", rows), request.ids.len()).with_semantic(searches))
}

fn configuration(ctx: &Ctx, config: &AlertConfig) -> Result<Raw, ApiError> {
    let shown = configuration_of(ctx.index, config).map_err(internal)?;
    Ok(Raw::from_serialize(&shown))
}

/// `GET /alerts/configurations`.
pub fn configurations(ctx: &Ctx) -> Result<Reply, ApiError> {
    let mine = ctx
        .app
        .accounts
        .alerts_of(&ctx.principal.user)
        .map_err(internal)?;
    let rows = mine
        .iter()
        .map(|c| configuration(ctx, c))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(batch(Data::list("configurations", rows), mine.len()))
}

/// `POST /alerts/configurations`.
pub fn create_configuration(ctx: &Ctx) -> Result<Reply, ApiError> {
    let config = parse_alert_configuration(ctx.body)?.into_config(Utc::now());
    let saved = ctx
        .app
        .accounts
        .create_alert(&ctx.principal.user, config.clone())
        .map_err(internal)?;
    saved.map_err(|limit| {
        let details = json!({ "limit": limit.limit, "help": "Delete an alert configuration first (DELETE /v1/alerts/configurations/{id})." });
        ApiError::of(Code::AlertLimitReached, &[("limit", &limit.limit.to_string())], details)
    })?;
    Ok(batch(
        Data::one("configuration", configuration(ctx, &config)?),
        1,
    ))
}

/// `DELETE /alerts/configurations/{id}`.
pub fn delete_configuration(ctx: &Ctx) -> Result<Reply, ApiError> {
    let raw = ctx.params.first().copied().unwrap_or_default();
    let id = parse_uuid(raw).ok_or_else(|| {
        let details = json!({ "provided": raw, "help": "Please provide valid UUID format for all alert IDs" });
        ApiError::of(Code::InvalidAlertId, &[("ids", raw)], details)
    })?;
    let removed = ctx
        .app
        .accounts
        .delete_alert(&ctx.principal.user, id)
        .map_err(internal)?;
    let removed = removed.ok_or_else(not_found)?;
    Ok(batch(
        Data::one("configuration", configuration(ctx, &removed)?),
        1,
    ))
}
