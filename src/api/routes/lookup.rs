//! The lookup endpoints (free): `/location/search`, `/industry/search`,
//! `/company/search`, `/investor/search`, `/person/search`.
//!
//! Name modes are fuzzy (typos, prefixes, word order, case, accents) and
//! scored in (0, 1]; identifier modes normalise the URL or domain and score
//! one. Name lookups return at most 10 rows; location and industry lookups
//! take an optional `limit` (1–50, default 10).

use serde_json::{json, Value};

use crate::api::declare::endpoints::MAX_LOOKUP_LIMIT;
use crate::api::envelope::{Data, Meta, Raw};
use crate::api::errors::{ApiError, Code};
use crate::api::handler::{Ctx, Effort, Reply};
use crate::index::build::text::{industry_category, location_category};
use crate::index::open::Kind;
use crate::index::store::Store;
use crate::index::text::{NameIndex, Stages};
use crate::query::lookup::{
    lookup_names, lookup_orgs, lookup_people, LookupBy, LookupError, PersonPool, MAX_NAME_RESULTS,
};
use crate::query::resolve::IdentifierKind;
use crate::schema::{IndustryType, LocationType};

use super::support::internal;

const ORG_SEARCH: [&str; 4] = ["name", "domain", "linkedin", "crunchbase"];
const PERSON_SEARCH: [&str; 5] = ["name", "id", "linkedin", "crunchbase", "twitter"];
const MAX_CATALOG_LIMIT: usize = MAX_LOOKUP_LIMIT as usize;

fn reply(name: &'static str, rows: Vec<Raw>) -> Reply {
    let n = rows.len() as u64;
    Reply {
        data: Data::list(name, rows),
        meta: Meta {
            total_count: n,
            page: 0,
            page_size: n,
        },
        rows: n,
        message: None,
        semantic_searches: 0,
        charged: None,
    }
}

/// The name-search stages `ctx.effort` allows.
fn stages(ctx: &Ctx) -> Stages {
    match ctx.effort {
        Effort::Full => Stages::All,
        Effort::Quick => Stages::Exact,
        Effort::Deferred => Stages::Main,
    }
}

/// A lookup's answer: a quick attempt its stages cannot answer defers the
/// request; an identifier that does not parse is `invalid`.
fn answer<T>(
    found: Result<Option<T>, LookupError>,
    invalid: impl FnOnce() -> ApiError,
) -> Result<T, ApiError> {
    match found {
        Ok(Some(found)) => Ok(found),
        Ok(None) => Err(ApiError::deferred()),
        Err(LookupError::InvalidIdentifier) => Err(invalid()),
        Err(e) => Err(internal(e)),
    }
}

/// What `param=value` searches by (`name`, or an identifier parameter).
fn lookup_by<'q>(param: &str, value: &'q str) -> LookupBy<'q> {
    match IdentifierKind::from_param(param) {
        Some(kind) => LookupBy::Identifier(kind, value),
        None => LookupBy::Name(value),
    }
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
                ApiError::of(
                    Code::OutOfRange,
                    &[
                        ("field", "limit"),
                        (
                            "bounds",
                            &format!("an integer from 1 to {MAX_CATALOG_LIMIT}"),
                        ),
                    ],
                    Value::Null,
                )
                .about("limit", v)
            }),
    }
}

/// The `type` / alias parameter of the catalog lookups.
fn type_param<'q>(
    ctx: &'q Ctx,
    alias: &str,
    multiple_code: Code,
) -> Result<Option<&'q str>, ApiError> {
    match (ctx.query.non_empty("type"), ctx.query.non_empty(alias)) {
        (Some(_), Some(_)) => Err(ApiError::with_help(
            multiple_code,
            &[],
            format!("Use either type or {alias} parameter, not both"),
        )),
        (t, a) => Ok(t.or(a)),
    }
}

fn required_name<'q>(ctx: &'q Ctx, example: &str) -> Result<&'q str, ApiError> {
    ctx.query.non_empty("name").ok_or_else(|| {
        ApiError::with_help(
            Code::MissingSearchParams,
            &[("names", "name")],
            format!("Provide a name parameter. Example: ?name={example}"),
        )
    })
}

fn catalog_rows(store: &Store, hits: &[(u32, f32)]) -> Result<Vec<Raw>, ApiError> {
    let records = store
        .get_many(hits.iter().map(|&(d, _)| d))
        .map_err(internal)?;
    Ok(records.into_iter().map(Raw::new).collect())
}

/// What differs between the two catalog lookups.
struct CatalogLookup<'a> {
    array: &'static str,
    /// The alias of `type`, and the code for giving both.
    alias: &'static str,
    multiple_code: Code,
    invalid_code: Code,
    /// `CITY, STATE, REGION, COUNTRY`
    valid: String,
    example: &'static str,
    /// The type's category in the name index, if the value is a type.
    category: fn(&str) -> Option<u8>,
    names: &'a NameIndex,
    cards: &'a Store,
}

fn catalog_lookup(ctx: &Ctx, c: CatalogLookup) -> Result<Reply, ApiError> {
    let kind = type_param(ctx, c.alias, c.multiple_code)?;
    let name = required_name(ctx, c.example)?;
    let category = match kind {
        None => None,
        Some(t) => Some((c.category)(t).ok_or_else(|| {
            ApiError::with_help(
                c.invalid_code,
                &[("options", &c.valid)],
                format!("Provided type: '{t}'. Valid types are: {}", c.valid),
            )
        })?),
    };
    let limit = catalog_limit(ctx)?;
    let hits = lookup_names(c.names, name, limit, category, stages(ctx))
        .map_err(internal)?
        .ok_or_else(ApiError::deferred)?;
    let mut reply = reply(c.array, catalog_rows(c.cards, &hits)?);
    reply.meta.page_size = limit as u64;
    Ok(reply)
}

pub fn locations(ctx: &Ctx) -> Result<Reply, ApiError> {
    let index = ctx.index;
    catalog_lookup(
        ctx,
        CatalogLookup {
            array: "locations",
            alias: "location_type",
            multiple_code: Code::MultipleLocationTypeParams,
            invalid_code: Code::InvalidLocationType,
            valid: LocationType::options().join(", "),
            example: "san+francisco",
            category: |t| LocationType::parse(t).map(location_category),
            names: &index.location_names,
            cards: &index.catalog.location_cards,
        },
    )
}

pub fn industries(ctx: &Ctx) -> Result<Reply, ApiError> {
    let index = ctx.index;
    catalog_lookup(
        ctx,
        CatalogLookup {
            array: "industries",
            alias: "industry_type",
            multiple_code: Code::MultipleIndustryTypeParams,
            invalid_code: Code::InvalidIndustryType,
            valid: IndustryType::options().join(", "),
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
        [] => Err(ApiError::of(
            Code::MissingSearchParams,
            &[("names", &listing)],
            json!({
                "help": format!("Provide one of: {listing}. Example: {example}"),
                "provided": Value::Null,
                "examples": { "valid": [example], "invalid": ["?", "?name="] },
            }),
        )),
        [one] => {
            let value = ctx.query.non_empty(one).ok_or_else(|| {
                ApiError::with_help(
                    Code::EmptySearchTerm,
                    &[("param", one)],
                    format!("Provide a value for {one}"),
                )
                .about(one, "")
            })?;
            Ok((one, value))
        }
        many => Err(ApiError::with_help(
            Code::MultipleSearchParams,
            &[],
            format!(
                "You provided: {}. Please use only one of: {listing}",
                many.join(", ")
            ),
        )),
    }
}

fn invalid_identifier(param: &str, value: &str) -> ApiError {
    let (code, what) = match param {
        "domain" => (
            Code::InvalidDomain,
            "a domain or website URL, e.g. stripe.com",
        ),
        "linkedin" => (
            Code::InvalidLinkedinUrl,
            "a LinkedIn URL, e.g. https://linkedin.com/company/stripe",
        ),
        "crunchbase" => (
            Code::InvalidCrunchbaseUrl,
            "a Crunchbase URL, e.g. https://crunchbase.com/organization/stripe",
        ),
        "twitter" => (Code::InvalidId, "a Twitter/X URL or @handle"),
        _ => (
            Code::InvalidId,
            "a UUID, e.g. 550e8400-e29b-41d4-a716-446655440000",
        ),
    };
    ApiError::of(
        code,
        &[("param", param), ("value", value)],
        json!({ "help": format!("Provide {what}"), "provided": value }),
    )
    .about(param, value)
}

/// Organisation lookup: name or identifier → cards with `relevance_score`.
fn org_search(
    ctx: &Ctx,
    kind: &Kind,
    names: &NameIndex,
    array: &'static str,
    example: &str,
) -> Result<Reply, ApiError> {
    let (param, value) = one_search_param(ctx, &ORG_SEARCH, example)?;
    let found = lookup_orgs(kind, names, lookup_by(param, value), stages(ctx));
    let scored = answer(found, || invalid_identifier(param, value))?;
    let store = kind.records("card").map_err(internal)?;
    let records = store
        .get_many(scored.iter().map(|&(d, _)| d))
        .map_err(internal)?;
    let rows = records
        .into_iter()
        .zip(&scored)
        .map(|(record, &(_, s))| Raw::with_keys(record, &[("relevance_score", score_json(s))]))
        .collect();
    Ok(reply(array, rows))
}

fn score_json(score: f32) -> Value {
    json!((score as f64 * 1000.0).round() / 1000.0)
}

pub fn companies(ctx: &Ctx) -> Result<Reply, ApiError> {
    let index = ctx.index;
    org_search(
        ctx,
        &index.companies,
        &index.company_names,
        "companies",
        "?name=stripe or ?domain=stripe.com",
    )
}

pub fn investors(ctx: &Ctx) -> Result<Reply, ApiError> {
    let index = ctx.index;
    org_search(
        ctx,
        &index.firms,
        &index.firm_names,
        "investors",
        "?name=sequoia or ?domain=sequoiacap.com",
    )
}

pub fn people(ctx: &Ctx) -> Result<Reply, ApiError> {
    let pool = match ctx.query.non_empty("person_type") {
        None => None,
        Some(t) => Some(PersonPool::parse(t).ok_or_else(|| {
            ApiError::of(
                Code::InvalidEnumValue,
                &[
                    ("field", "person_type"),
                    ("value", t),
                    ("options", "investor, company"),
                ],
                Value::Null,
            )
            .about("person_type", t)
        })?),
    };
    let (param, value) = one_search_param(
        ctx,
        &PERSON_SEARCH,
        "?name=jane+angel or ?linkedin=https://linkedin.com/in/janeangel",
    )?;
    let index = ctx.index;
    let found = lookup_people(index, lookup_by(param, value), pool, stages(ctx));
    let docs = answer(found, || invalid_identifier(param, value))?;
    let store = index.people.records("card").map_err(internal)?;
    let rows = store
        .get_many(docs.iter().copied())
        .map_err(internal)?
        .into_iter()
        .map(Raw::new)
        .collect();
    Ok(reply("people", rows))
}
