//! Deal histories (1 credit per row): `GET /company/deals`,
//! `/investor/deals`, `/person/deals`. Deals come newest first (doc id
//! order); an identifier matching several entities returns the deals of
//! all of them, each deal once.

use serde_json::json;

use crate::api::envelope::{Data, Meta, Raw};
use crate::api::errors::{ApiError, Code};
use crate::api::handler::{Ctx, Reply};
use crate::index::open::Kind;

use super::detail::{org_docs, person_docs, person_not_found, ORG_KINDS, PERSON_KINDS};
use super::support::{internal, one_of};

/// A page of `deals` (ascending doc ids) as a reply.
fn page_of(ctx: &Ctx, deals: Vec<u32>) -> Result<Reply, ApiError> {
    let paging = ctx.query.paging()?;
    let range = paging.range(deals.len());
    let store = ctx.index.deals.records("full").map_err(internal)?;
    let records = store
        .get_many(deals[range].iter().copied())
        .map_err(internal)?;
    let rows: Vec<Raw> = records.into_iter().map(Raw::new).collect();
    let meta = Meta {
        total_count: deals.len() as u64,
        page: paging.page,
        page_size: paging.page_size,
    };
    Ok(Reply {
        rows: rows.len() as u64,
        data: Data::list("deals", rows),
        meta,
        message: None,
        semantic_searches: 0,
        charged: None,
    })
}

/// Union of a relation's targets over several sources, ascending, distinct.
fn union_targets(kind: &Kind, relations: &[&str], sources: &[u32]) -> Result<Vec<u32>, ApiError> {
    let mut all = Vec::new();
    for name in relations {
        let rel = kind.relation(name).map_err(internal)?;
        for &s in sources {
            all.extend_from_slice(rel.targets(s));
        }
    }
    all.sort_unstable();
    all.dedup();
    Ok(all)
}

fn missing_identifier(what: &str, accepted: &str) -> ApiError {
    ApiError::with_help(
        Code::MissingIdentifier,
        &[("what", what)],
        format!("Provide one of: {accepted}. Example: ?domain=stripe.com"),
    )
}

fn org_history(ctx: &Ctx, kind: &Kind, what: &str, subject: &str) -> Result<Reply, ApiError> {
    ctx.query.paging()?;
    let (k, value, docs) = org_docs(ctx, kind, || {
        missing_identifier(subject, &one_of(&ORG_KINDS))
    })?;
    if docs.is_empty() {
        return Err(ApiError::of(
            Code::NotFound,
            &[("what", what), ("target", "the provided identifier")],
            json!({ "identifier_type": k.param(), "identifier_value": value }),
        ));
    }
    page_of(ctx, union_targets(kind, &["deals"], &docs)?)
}

pub fn company_deals(ctx: &Ctx) -> Result<Reply, ApiError> {
    org_history(ctx, &ctx.index.companies, "company", "A company")
}

pub fn investor_deals(ctx: &Ctx) -> Result<Reply, ApiError> {
    org_history(ctx, &ctx.index.firms, "investor", "An investor")
}

pub fn person_deals(ctx: &Ctx) -> Result<Reply, ApiError> {
    ctx.query.paging()?;
    let docs = person_docs(
        ctx,
        || missing_identifier("A person", &one_of(&PERSON_KINDS)),
        |k, v| {
            ApiError::with_help(
                Code::InvalidId,
                &[("param", k.param()), ("value", v)],
                "Provide a UUID, a LinkedIn or Crunchbase URL or slug, or a Twitter URL or handle.",
            )
            .about(k.param(), v)
        },
    )?;
    if docs.is_empty() {
        return Err(person_not_found());
    }
    page_of(
        ctx,
        union_targets(&ctx.index.people, &["angel_deals", "partner_deals"], &docs)?,
    )
}
