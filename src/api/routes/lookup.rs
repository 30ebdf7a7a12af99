//! The lookup endpoints (free): `/location/search`, `/industry/search`,
//! `/company/search`, `/investor/search`, `/person/search`.
//!
//! Name modes are fuzzy (typos, prefixes, word order, case, accents) and
//! scored in (0, 1]; identifier modes normalise the URL or domain and score
//! one. Name lookups return at most 10 rows; location and industry lookups
//! take an optional `limit` (1–50, default 10).

use serde_json::{json, Value};

use crate::api::app::{Ctx, Effort, Reply};
use crate::api::envelope::{Data, Meta, MetaShape, Raw};
use crate::api::errors::ApiError;
use crate::index::open::Kind;
use crate::index::text::{NameHit, NameIndex, Stages};
use crate::query::lookup::{PersonPool, MAX_NAME_RESULTS};
use crate::query::resolve::{
    org_identifier, person_identifier, resolve, Identifier, IdentifierKind,
};
use crate::schema::{IndustryType, LocationType};

use super::support::internal;
use crate::index::build::text::{industry_category, location_category};
use crate::index::store::Store;

const ORG_KINDS: [IdentifierKind; 4] = [
    IdentifierKind::Id,
    IdentifierKind::Domain,
    IdentifierKind::Linkedin,
    IdentifierKind::Crunchbase,
];
const ORG_SEARCH: [&str; 4] = ["name", "domain", "linkedin", "crunchbase"];
const PERSON_SEARCH: [&str; 5] = ["name", "id", "linkedin", "crunchbase", "twitter"];
const MAX_CATALOG_LIMIT: usize = 50;

fn reply(name: &'static str, rows: Vec<Raw>, shape: MetaShape) -> Reply {
    let n = rows.len() as u64;
    Reply {
        data: Data::list(name, rows),
        meta: Meta {
            shape,
            total_count: n,
            page: 0,
            page_size: n,
        },
        rows: n,
        message: None,
        semantic_searches: 0,
    }
}

/// The hits of a name search, through the stages `ctx.effort` allows; a
/// quick attempt the exact stages cannot answer defers the request.
fn name_hits(
    ctx: &Ctx,
    index: &NameIndex,
    name: &str,
    limit: usize,
    category: Option<u8>,
) -> Result<Vec<NameHit>, ApiError> {
    let stages = match ctx.effort {
        Effort::Full => Stages::All,
        Effort::Quick => Stages::Exact,
        Effort::Deferred => Stages::Main,
    };
    let hits = index
        .search_in(name, limit, category, stages)
        .map_err(internal)?;
    hits.ok_or_else(ApiError::deferred)
}

/// `limit` of the catalog lookups.
fn catalog_limit(ctx: &Ctx) -> Result<usize, ApiError> {
    match ctx.query.get("limit") {
        None => Ok(MAX_NAME_RESULTS),
        Some(v) => v
            .trim()
            .parse::<usize>()
            .ok()
            .filter(|l| (1..=MAX_CATALOG_LIMIT).contains(l))
            .ok_or_else(|| {
                ApiError::bad_request(
                    "INVALID_PARAMETER",
                    format!("Invalid limit '{v}'"),
                    format!("limit must be an integer from 1 to {MAX_CATALOG_LIMIT}"),
                )
                .with_status_code()
            }),
    }
}

/// The `type` / alias parameter of the catalog lookups.
fn type_param<'q>(
    ctx: &'q Ctx,
    alias: &str,
    multiple_code: &'static str,
) -> Result<Option<&'q str>, ApiError> {
    match (ctx.query.non_empty("type"), ctx.query.non_empty(alias)) {
        (Some(_), Some(_)) => Err(ApiError::bad_request(
            multiple_code,
            format!("Cannot specify both type and {alias} parameters"),
            format!("Use either type or {alias} parameter, not both"),
        )
        .with_status_code()),
        (t, a) => Ok(t.or(a)),
    }
}

fn required_name<'q>(ctx: &'q Ctx, example: &str) -> Result<&'q str, ApiError> {
    ctx.query.non_empty("name").ok_or_else(|| {
        ApiError::bad_request(
            "MISSING_SEARCH_PARAMS",
            "The \"name\" search parameter is required",
            format!("Provide a name parameter. Example: ?name={example}"),
        )
        .with_status_code()
    })
}

fn catalog_rows(store: &Store, hits: &[NameHit]) -> Vec<Raw> {
    store
        .get_many(hits.iter().map(|h| h.docid))
        .into_iter()
        .map(|record| Raw(record.to_vec()))
        .collect()
}

/// What differs between the two catalog lookups.
struct CatalogLookup<'a> {
    array: &'static str,
    /// The alias of `type`, and the code for giving both.
    alias: &'static str,
    multiple_code: &'static str,
    invalid_code: &'static str,
    /// `CITY, STATE, REGION, COUNTRY`
    valid: String,
    what: &'static str,
    example: &'static str,
    /// The type's category in the name index, if the value is a type.
    category: fn(&str) -> Option<u8>,
    names: &'a NameIndex,
    cards: &'a Store,
}

fn catalog_lookup(ctx: &Ctx, c: CatalogLookup) -> Result<Reply, ApiError> {
    ctx.query
        .only(&["name", "type", c.alias, "limit"])
        .map_err(ApiError::with_status_code)?;
    let kind = type_param(ctx, c.alias, c.multiple_code)?;
    let name = required_name(ctx, c.example)?;
    let category = match kind {
        None => None,
        Some(t) => Some((c.category)(t).ok_or_else(|| {
            ApiError::bad_request(
                c.invalid_code,
                format!("Invalid {} type. Must be one of: {}", c.what, c.valid),
                format!("Provided type: '{t}'. Valid types are: {}", c.valid),
            )
            .with_status_code()
        })?),
    };
    let limit = catalog_limit(ctx)?;
    let hits = name_hits(ctx, c.names, name, limit, category)?;
    let mut reply = reply(c.array, catalog_rows(c.cards, &hits), MetaShape::Paged);
    reply.meta.page_size = limit as u64;
    Ok(reply)
}

pub fn locations(ctx: &Ctx) -> Result<Reply, ApiError> {
    let index = &ctx.app.index;
    catalog_lookup(
        ctx,
        CatalogLookup {
            array: "locations",
            alias: "location_type",
            multiple_code: "MULTIPLE_LOCATION_TYPE_PARAMS",
            invalid_code: "INVALID_LOCATION_TYPE",
            valid: LocationType::options().join(", "),
            what: "location",
            example: "san+francisco",
            category: |t| LocationType::parse(t).map(location_category),
            names: &index.location_names,
            cards: &index.catalog.location_cards,
        },
    )
}

pub fn industries(ctx: &Ctx) -> Result<Reply, ApiError> {
    let index = &ctx.app.index;
    catalog_lookup(
        ctx,
        CatalogLookup {
            array: "industries",
            alias: "industry_type",
            multiple_code: "MULTIPLE_INDUSTRY_TYPE_PARAMS",
            invalid_code: "INVALID_INDUSTRY_TYPE",
            valid: IndustryType::options().join(", "),
            what: "industry",
            example: "artificial+intelligence",
            category: |t| IndustryType::parse(t).map(industry_category),
            names: &index.industry_names,
            cards: &index.catalog.industry_cards,
        },
    )
}

/// Exactly one search parameter among `allowed`; 400s otherwise.
fn one_search_param<'q>(
    ctx: &'q Ctx,
    allowed: &[&'static str],
    example: &str,
) -> Result<(&'static str, &'q str), ApiError> {
    let present: Vec<&'static str> = allowed
        .iter()
        .copied()
        .filter(|p| ctx.query.has(p))
        .collect();
    let listing = allowed.join(", ");
    match present.as_slice() {
        [] => Err(ApiError::new(
            400,
            "MISSING_SEARCH_PARAMS",
            "At least one search parameter is required",
            json!({
                "help": format!("Provide one of: {listing}. Example: {example}"),
                "provided": Value::Null,
                "examples": { "valid": [example], "invalid": ["?", "?name="] },
            }),
        )),
        [one] => {
            let value = ctx.query.non_empty(one).ok_or_else(|| {
                ApiError::bad_request(
                    "EMPTY_SEARCH_TERM",
                    format!("The {one} parameter is empty"),
                    format!("Provide a value for {one}"),
                )
            })?;
            Ok((one, value))
        }
        many => Err(ApiError::bad_request(
            "MULTIPLE_SEARCH_PARAMS",
            "Only one search parameter is allowed at a time",
            format!(
                "You provided: {}. Please use only one of: {listing}",
                many.join(", ")
            ),
        )),
    }
}

fn invalid_identifier(param: &str, value: &str) -> ApiError {
    let (code, what) = match param {
        "domain" => ("INVALID_DOMAIN", "a domain or website URL, e.g. stripe.com"),
        "linkedin" => (
            "INVALID_LINKEDIN_URL",
            "a LinkedIn URL, e.g. https://linkedin.com/company/stripe",
        ),
        "crunchbase" => (
            "INVALID_CRUNCHBASE_URL",
            "a Crunchbase URL, e.g. https://crunchbase.com/organization/stripe",
        ),
        "twitter" => ("INVALID_TWITTER_URL", "a Twitter/X URL or @handle"),
        _ => (
            "INVALID_ID",
            "a UUID, e.g. 550e8400-e29b-41d4-a716-446655440000",
        ),
    };
    ApiError::new(
        400,
        code,
        format!("Invalid {param}: '{value}'"),
        json!({ "help": format!("Provide {what}"), "provided": value }),
    )
}

/// Organisation lookup: name or identifier → cards with `relevance_score`.
fn org_search(
    ctx: &Ctx,
    kind: &Kind,
    names: &NameIndex,
    array: &'static str,
    example: &str,
) -> Result<Reply, ApiError> {
    ctx.query.only(&ORG_SEARCH)?;
    let (param, value) = one_search_param(ctx, &ORG_SEARCH, example)?;
    let scored: Vec<(u32, f32)> = if param == "name" {
        name_hits(ctx, names, value, MAX_NAME_RESULTS, None)?
            .into_iter()
            .map(|h| (h.docid, h.score))
            .collect()
    } else {
        let k = ORG_KINDS
            .iter()
            .copied()
            .find(|k| k.param() == param)
            .unwrap_or(IdentifierKind::Domain);
        let id = org_identifier(k, value).map_err(|_| invalid_identifier(param, value))?;
        resolve(kind, &id)
            .into_iter()
            .take(MAX_NAME_RESULTS)
            .map(|d| (d, 1.0))
            .collect()
    };
    let store = kind.records("card").map_err(internal)?;
    let records = store.get_many(scored.iter().map(|&(d, _)| d));
    let rows = records
        .iter()
        .zip(&scored)
        .map(|(record, &(_, s))| Raw::with_keys(record, &[("relevance_score", score_json(s))]))
        .collect();
    Ok(reply(array, rows, MetaShape::List))
}

fn score_json(score: f32) -> Value {
    json!((score as f64 * 1000.0).round() / 1000.0)
}

pub fn companies(ctx: &Ctx) -> Result<Reply, ApiError> {
    let index = &ctx.app.index;
    org_search(
        ctx,
        &index.companies,
        &index.company_names,
        "companies",
        "?name=stripe or ?domain=stripe.com",
    )
}

pub fn investors(ctx: &Ctx) -> Result<Reply, ApiError> {
    let index = &ctx.app.index;
    org_search(
        ctx,
        &index.firms,
        &index.firm_names,
        "investors",
        "?name=sequoia or ?domain=sequoiacap.com",
    )
}

pub fn people(ctx: &Ctx) -> Result<Reply, ApiError> {
    let mut allowed = PERSON_SEARCH.to_vec();
    allowed.push("person_type");
    ctx.query.only(&allowed)?;
    let pool = match ctx.query.non_empty("person_type") {
        None => None,
        Some(t) => Some(PersonPool::parse(t).ok_or_else(|| {
            ApiError::bad_request(
                "INVALID_PERSON_TYPE",
                format!("Invalid person_type '{t}'"),
                "person_type must be investor or company",
            )
        })?),
    };
    let (param, value) = one_search_param(
        ctx,
        &PERSON_SEARCH,
        "?name=jane+angel or ?linkedin=https://linkedin.com/in/janeangel",
    )?;
    let index = &ctx.app.index;
    let docs: Vec<u32> = if param == "name" {
        name_hits(
            ctx,
            &index.person_names,
            value,
            MAX_NAME_RESULTS,
            pool.map(PersonPool::category),
        )?
        .into_iter()
        .map(|h| h.docid)
        .collect()
    } else {
        let kinds = [
            IdentifierKind::Id,
            IdentifierKind::Linkedin,
            IdentifierKind::Crunchbase,
            IdentifierKind::Twitter,
        ];
        let k = kinds
            .iter()
            .copied()
            .find(|k| k.param() == param)
            .unwrap_or(IdentifierKind::Id);
        let id: Identifier =
            person_identifier(k, value).map_err(|_| invalid_identifier(param, value))?;
        let pool_facet = index.people.facet("person_type").map_err(internal)?;
        let keep = match pool {
            None => None,
            Some(p) => pool_facet
                .docids(if p == PersonPool::Investor {
                    "investor"
                } else {
                    "company"
                })
                .map_err(internal)?,
        };
        resolve(&index.people, &id)
            .into_iter()
            .filter(|d| pool.is_none() || keep.as_ref().is_some_and(|b| b.contains(*d)))
            .take(MAX_NAME_RESULTS)
            .collect()
    };
    let store = index.people.records("card").map_err(internal)?;
    let rows = store
        .get_many(docs.iter().copied())
        .into_iter()
        .map(|record| Raw(record.to_vec()))
        .collect();
    Ok(reply("people", rows, MetaShape::CountOnly))
}
