//! Detail endpoints (1 credit each): `GET /company`, `/investor`,
//! `/person`, `/deals/{id}`, `/deals/{id}/investors`.
//!
//! An identifier that matches several entities (a domain shared by two
//! firms) answers with the first match in doc id order, i.e. the one with
//! the most recent activity; the history endpoints return all matches.

use serde_json::{json, Value};

use crate::api::app::{Ctx, Reply};
use crate::api::envelope::{Data, Meta, MetaShape, Raw};
use crate::api::errors::ApiError;
use crate::index::open::Kind;
use crate::index::payload::FIRM_LED;
use crate::query::resolve::{
    org_identifier, parse_uuid, person_identifier, resolve, IdentifierKind,
};
use crate::schema::RoundType;

use super::support::{internal, one_of, pick, stored, stored_value, Picked};

pub const ORG_KINDS: [IdentifierKind; 4] = [
    IdentifierKind::Id,
    IdentifierKind::Domain,
    IdentifierKind::Linkedin,
    IdentifierKind::Crunchbase,
];
pub const PERSON_KINDS: [IdentifierKind; 4] = [
    IdentifierKind::Id,
    IdentifierKind::Linkedin,
    IdentifierKind::Crunchbase,
    IdentifierKind::Twitter,
];

fn detail(name: &'static str, record: Raw) -> Reply {
    detail_of(Data::one(name, record))
}

/// The reply of a detail endpoint: one record, one credit.
fn detail_of(data: Data) -> Reply {
    Reply {
        data,
        meta: Meta {
            shape: MetaShape::Detail,
            total_count: 1,
            page: 0,
            page_size: 1,
        },
        rows: 1,
        message: None,
        semantic_searches: 0,
    }
}

fn param_names(kinds: &[IdentifierKind]) -> Vec<&'static str> {
    kinds.iter().map(|k| k.param()).collect()
}

fn multiple(given: &[&str], kinds: &[IdentifierKind]) -> ApiError {
    ApiError::bad_request(
        "MULTIPLE_IDENTIFIERS",
        "Only one identifier parameter is allowed",
        format!(
            "You provided: {}. Please use only one of: {}",
            given.join(", "),
            one_of(kinds)
        ),
    )
}

fn invalid_org_value(kind: IdentifierKind, value: &str) -> ApiError {
    let (code, what) = match kind {
        IdentifierKind::Domain => ("INVALID_DOMAIN", "a domain or website URL, e.g. stripe.com"),
        IdentifierKind::Linkedin => (
            "INVALID_LINKEDIN_URL",
            "a LinkedIn company URL, e.g. https://linkedin.com/company/stripe",
        ),
        IdentifierKind::Crunchbase => (
            "INVALID_CRUNCHBASE_URL",
            "a Crunchbase organization URL, e.g. https://crunchbase.com/organization/stripe",
        ),
        _ => (
            "INVALID_ID",
            "a UUID, e.g. 550e8400-e29b-41d4-a716-446655440000",
        ),
    };
    ApiError::new(
        400,
        code,
        format!("Invalid {}: '{value}'", kind.param()),
        json!({ "help": format!("Provide {what}") }),
    )
}

/// Resolves the organisation identifier of a detail or history request.
/// `missing` builds the endpoint's own "no identifier" error.
pub fn org_docs(
    ctx: &Ctx,
    kind: &Kind,
    missing: impl Fn() -> ApiError,
) -> Result<(IdentifierKind, String, Vec<u32>), ApiError> {
    match pick(&ctx.query, &ORG_KINDS) {
        Picked::None => Err(missing()),
        Picked::Many(given) => Err(multiple(&given, &ORG_KINDS)),
        Picked::One(k, value) => {
            let id = org_identifier(k, value).map_err(|_| invalid_org_value(k, value))?;
            Ok((k, value.to_string(), resolve(kind, &id)))
        }
    }
}

pub fn company(ctx: &Ctx) -> Result<Reply, ApiError> {
    ctx.query.only(&param_names(&ORG_KINDS))?;
    let missing = || {
        ApiError::new(
            400,
            "MISSING_IDENTIFIER",
            "Company identifier is required",
            json!({
                "help": "Provide an identifier using one of the query parameters: id, domain, linkedin, or crunchbase",
                "examples": {
                    "byDomain": "/v1/company?domain=stripe.com",
                    "byLinkedIn": "/v1/company?linkedin=https://linkedin.com/company/stripe",
                    "byCrunchbase": "/v1/company?crunchbase=https://crunchbase.com/organization/stripe",
                    "byId": "/v1/company?id=550e8400-e29b-41d4-a716-446655440000",
                },
            }),
        )
    };
    let companies = &ctx.app.index.companies;
    let (_, _, docs) = org_docs(ctx, companies, missing)?;
    let doc = *docs.first().ok_or_else(|| {
        ApiError::not_found(
            "COMPANY_NOT_FOUND",
            "Company not found",
            "Please check the company identifier (ID, domain, LinkedIn URL, or Crunchbase URL) and try again",
        )
    })?;
    let record = companies.records("full").map_err(internal)?;
    Ok(detail(
        "company",
        Raw::with_keys(record.get(doc), &[("similarity", Value::Null)]),
    ))
}

pub fn investor(ctx: &Ctx) -> Result<Reply, ApiError> {
    ctx.query.only(&param_names(&ORG_KINDS))?;
    let missing = || {
        ApiError::new(
            400,
            "VALIDATION_ERROR",
            "Invalid request parameters",
            json!({
                "errors": [{ "field": "id", "value": Value::Null, "message": "Provide one of: id, domain, linkedin, or crunchbase",
                             "code": "MISSING_IDENTIFIER", "validOptions": param_names(&ORG_KINDS) }],
                "help": "Please check your request parameters and ensure they meet the required format and constraints.",
            }),
        )
    };
    let firms = &ctx.app.index.firms;
    let (_, _, docs) = org_docs(ctx, firms, missing)?;
    let doc = *docs.first().ok_or_else(|| {
        ApiError::not_found(
            "INVESTOR_NOT_FOUND",
            "Investor not found",
            "Please check the investor identifier (ID, domain, LinkedIn URL, or Crunchbase URL) and try again",
        )
    })?;
    Ok(detail("investor", stored(firms, "full", doc)?))
}

/// Resolves the person identifier of `/person` and `/person/deals`.
pub fn person_docs(
    ctx: &Ctx,
    missing: impl Fn() -> ApiError,
    invalid: impl Fn(IdentifierKind, &str) -> ApiError,
) -> Result<Vec<u32>, ApiError> {
    match pick(&ctx.query, &PERSON_KINDS) {
        Picked::None => Err(missing()),
        Picked::Many(given) => Err(multiple(&given, &PERSON_KINDS)),
        Picked::One(k, value) => {
            let id = person_identifier(k, value).map_err(|_| invalid(k, value))?;
            Ok(resolve(&ctx.app.index.people, &id))
        }
    }
}

pub fn person_not_found() -> ApiError {
    ApiError::not_found(
        "PERSON_NOT_FOUND",
        "Person not found",
        "Please check the person identifier and try again",
    )
}

pub fn person(ctx: &Ctx) -> Result<Reply, ApiError> {
    ctx.query.only(&param_names(&PERSON_KINDS))?;
    let invalid_identifier = |message: String| {
        ApiError::bad_request("INVALID_IDENTIFIER", message, "Provide exactly one of: id (UUID), linkedin (URL or slug), crunchbase (URL or slug), or twitter (URL or handle)")
    };
    let docs = person_docs(
        ctx,
        || invalid_identifier("A person identifier is required".into()),
        |k, v| invalid_identifier(format!("Invalid {}: '{v}'", k.param())),
    )?;
    let doc = *docs.first().ok_or_else(person_not_found)?;
    let people = &ctx.app.index.people;
    let record = people.records("full").map_err(internal)?;
    let nulls = [
        ("filtered_deal_count", Value::Null),
        ("filtered_lead_count", Value::Null),
        ("filtered_most_recent_date", Value::Null),
    ];
    Ok(detail("person", Raw::with_keys(record.get(doc), &nulls)))
}

/// The deal of a `/deals/{id}` path.
fn deal_doc(ctx: &Ctx, invalid: impl Fn() -> ApiError) -> Result<u32, ApiError> {
    let raw = ctx.params.first().copied().unwrap_or("");
    let id = parse_uuid(raw).ok_or_else(invalid)?;
    ctx.app.index.deals.ids.docid(&id).ok_or_else(|| {
        ApiError::not_found(
            "DEAL_NOT_FOUND",
            "Deal not found",
            "Please check the deal ID and try again",
        )
        .with_status_code()
    })
}

pub fn deal(ctx: &Ctx) -> Result<Reply, ApiError> {
    let given = ctx.query.names();
    if !given.is_empty() {
        return Err(ApiError::new(
            400,
            "INVALID_PARAMETERS",
            "Query parameters are not supported for this endpoint",
            json!({ "providedParameters": given, "help": "This endpoint only accepts a deal ID in the path. Remove all query parameters." }),
        )
        .with_status_code());
    }
    let doc = deal_doc(ctx, || {
        ApiError::bad_request(
            "INVALID_DEAL_ID",
            "Deal ID must be a valid UUID",
            "Please provide a valid UUID format for the deal ID",
        )
        .with_status_code()
    })?;
    Ok(detail("deal", stored(&ctx.app.index.deals, "full", doc)?))
}

pub fn deal_investors(ctx: &Ctx) -> Result<Reply, ApiError> {
    ctx.query.only(&[])?;
    let doc = deal_doc(ctx, || {
        let value = ctx.params.first().copied().unwrap_or("");
        ApiError::new(
            400,
            "VALIDATION_ERROR",
            "Invalid request parameters",
            json!({
                "errors": [{ "field": "id", "value": value, "message": "Deal ID must be a valid UUID", "code": "INVALID_UUID", "validOptions": [] }],
                "help": "Please check your request parameters and ensure they meet the required format and constraints.",
            }),
        )
    })?;
    let (investors, angels) = lineup(ctx, doc)?;
    Ok(detail_of(
        Data::list("investors", investors).and_list("angel_investors", angels),
    ))
}

fn financing_name(code: u8) -> Value {
    let t = (code as usize)
        .checked_sub(1)
        .and_then(|i| RoundType::ALL.get(i));
    t.map_or(Value::Null, |t| json!(t.as_str()))
}

/// The firms (lead first) with their partners on the deal, and the angels.
fn lineup(ctx: &Ctx, deal: u32) -> Result<(Vec<Raw>, Vec<Raw>), ApiError> {
    let index = &ctx.app.index;
    let deals = &index.deals;
    let firms = deals.relation("firms").map_err(internal)?;
    let partners = deals.relation("partners").map_err(internal)?;
    let angels = deals.relation("angels").map_err(internal)?;
    let person = |doc: u32| -> Result<Value, ApiError> {
        let card = stored_value(&index.people, "card", doc)?;
        Ok(
            json!({ "id": card["id"], "name": card["name"], "linkedin": card["linkedin_url"], "crunchbase": card["crunchbase_url"], "twitter": card["twitter_url"] }),
        )
    };
    let mut rows: Vec<(bool, u32, Value)> = Vec::new();
    for (slot, (&firm, &payload)) in firms
        .targets(deal)
        .iter()
        .zip(firms.payload(deal))
        .enumerate()
    {
        let card = stored_value(&index.firms, "card", firm)?;
        let mut personnel = Vec::new();
        for (&p, &s) in partners.targets(deal).iter().zip(partners.payload(deal)) {
            if s as usize == slot {
                personnel.push(person(p)?);
            }
        }
        let lead = payload & FIRM_LED != 0;
        rows.push((lead, firm, json!({
            "id": card["id"], "name": card["name"], "lead_investor": lead, "personnel": personnel,
            "financing_type": financing_name(payload & !FIRM_LED), "domain": card["domain"],
            "linkedin": card["linkedin"], "crunchbase": card["crunchbase"],
        })));
    }
    rows.sort_by_key(|(lead, firm, _)| (!lead, *firm));
    let mut angel_rows = Vec::new();
    for (&p, &code) in angels.targets(deal).iter().zip(angels.payload(deal)) {
        let mut a = person(p)?;
        a["financing_type"] = financing_name(code);
        angel_rows.push(Raw::from_value(&a));
    }
    Ok((
        rows.iter().map(|(_, _, v)| Raw::from_value(v)).collect(),
        angel_rows,
    ))
}
