//! Detail endpoints (1 credit each): `GET /company`, `/investor`,
//! `/person`, `/deals/{id}`, `/deals/{id}/investors`.
//!
//! An identifier that matches several entities (a domain shared by two
//! firms) answers with the first match in doc id order, i.e. the one with
//! the most recent activity; the history endpoints return all matches.

use serde_json::{json, Value};

use crate::api::envelope::{Data, Meta, Raw};
use crate::api::errors::{ApiError, Code};
use crate::api::handler::{Ctx, Reply};
use crate::index::open::Kind;
use crate::index::payload::FIRM_LED;
use crate::query::resolve::{
    org_identifier, parse_uuid, person_identifier, resolve, IdentifierKind,
};
use crate::schema::record::{AngelInvestor, DealInvestor, FirmCard, LineupPerson, PersonCard};
use crate::schema::RoundType;

use super::support::{internal, one_of, pick, stored, stored_record, Picked};

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
pub fn detail_of(data: Data) -> Reply {
    Reply {
        data,
        meta: Meta {
            total_count: 1,
            page: 0,
            page_size: 1,
        },
        rows: 1,
        message: None,
        semantic_searches: 0,
        charged: None,
    }
}

fn multiple(given: &[&str], kinds: &[IdentifierKind]) -> ApiError {
    ApiError::with_help(
        Code::MultipleIdentifiers,
        &[],
        format!(
            "You provided: {}. Please use only one of: {}",
            given.join(", "),
            one_of(kinds)
        ),
    )
    .about(given.first().copied().unwrap_or("query"), &given.join(", "))
}

fn invalid_org_value(kind: IdentifierKind, value: &str) -> ApiError {
    let (code, what) = match kind {
        IdentifierKind::Domain => (
            Code::InvalidDomain,
            "a domain or website URL, e.g. stripe.com",
        ),
        IdentifierKind::Linkedin => (
            Code::InvalidLinkedinUrl,
            "a LinkedIn company URL, e.g. https://linkedin.com/company/stripe",
        ),
        IdentifierKind::Crunchbase => (
            Code::InvalidCrunchbaseUrl,
            "a Crunchbase organization URL, e.g. https://crunchbase.com/organization/stripe",
        ),
        _ => (
            Code::InvalidId,
            "a UUID, e.g. 550e8400-e29b-41d4-a716-446655440000",
        ),
    };
    ApiError::with_help(
        code,
        &[("param", kind.param()), ("value", value)],
        format!("Provide {what}"),
    )
    .about(kind.param(), value)
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
    let missing = || {
        ApiError::of(
            Code::MissingIdentifier,
            &[("what", "Company")],
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
    let companies = &ctx.index.companies;
    let (_, _, docs) = org_docs(ctx, companies, missing)?;
    let doc = *docs.first().ok_or_else(|| {
        ApiError::with_help(
            Code::CompanyNotFound,
            &[],
            "Please check the company identifier (ID, domain, LinkedIn URL, or Crunchbase URL) and try again",
        )
    })?;
    let record = companies.records("full").map_err(internal)?;
    Ok(detail(
        "company",
        Raw::with_keys(
            record.get(doc).map_err(internal)?,
            &[("similarity", Value::Null)],
        ),
    ))
}

pub fn investor(ctx: &Ctx) -> Result<Reply, ApiError> {
    let missing = || {
        ApiError::with_help(
            Code::MissingIdentifier,
            &[("what", "Investor")],
            format!("Provide one of: {}", one_of(&ORG_KINDS)),
        )
        .about("id", "")
    };
    let firms = &ctx.index.firms;
    let (_, _, docs) = org_docs(ctx, firms, missing)?;
    let doc = *docs.first().ok_or_else(|| {
        ApiError::with_help(
            Code::InvestorNotFound,
            &[],
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
            Ok(resolve(&ctx.index.people, &id))
        }
    }
}

pub fn person_not_found() -> ApiError {
    ApiError::with_help(
        Code::PersonNotFound,
        &[],
        "Please check the person identifier and try again",
    )
}

pub fn person(ctx: &Ctx) -> Result<Reply, ApiError> {
    let help = "Provide exactly one of: id (UUID), linkedin (URL or slug), crunchbase (URL or slug), or twitter (URL or handle)";
    let docs = person_docs(
        ctx,
        || ApiError::with_help(Code::MissingIdentifier, &[("what", "Person")], help),
        |k, v| {
            ApiError::with_help(
                Code::InvalidIdentifier,
                &[("param", k.param()), ("value", v)],
                help,
            )
        },
    )?;
    let doc = *docs.first().ok_or_else(person_not_found)?;
    let people = &ctx.index.people;
    let record = people.records("full").map_err(internal)?;
    let nulls = [
        ("filtered_deal_count", Value::Null),
        ("filtered_lead_count", Value::Null),
        ("filtered_most_recent_date", Value::Null),
    ];
    Ok(detail(
        "person",
        Raw::with_keys(record.get(doc).map_err(internal)?, &nulls),
    ))
}

/// The deal of a `/deals/{id}` path.
fn deal_doc(ctx: &Ctx, invalid: impl Fn() -> ApiError) -> Result<u32, ApiError> {
    let raw = ctx.params.first().copied().unwrap_or("");
    let id = parse_uuid(raw).ok_or_else(invalid)?;
    ctx.index.deals.ids.docid(&id).ok_or_else(|| {
        ApiError::with_help(
            Code::DealNotFound,
            &[],
            "Please check the deal ID and try again",
        )
    })
}

pub fn deal(ctx: &Ctx) -> Result<Reply, ApiError> {
    let doc = deal_doc(ctx, || {
        ApiError::with_help(
            Code::InvalidDealId,
            &[],
            "Please provide a valid UUID format for the deal ID",
        )
    })?;
    Ok(detail("deal", stored(&ctx.index.deals, "full", doc)?))
}

pub fn deal_investors(ctx: &Ctx) -> Result<Reply, ApiError> {
    let doc = deal_doc(ctx, || {
        let value = ctx.params.first().copied().unwrap_or("");
        ApiError::of(
            Code::InvalidUuid,
            &[("field", "id"), ("value", value)],
            Value::Null,
        )
        .about("id", value)
    })?;
    let (investors, angels) = lineup(ctx, doc)?;
    Ok(detail_of(
        Data::list("investors", investors).and_list("angel_investors", angels),
    ))
}

fn financing_name(code: u8) -> Option<String> {
    let t = (code as usize)
        .checked_sub(1)
        .and_then(|i| RoundType::ALL.get(i));
    t.map(|t| t.as_str().to_string())
}

fn lineup_person(ctx: &Ctx, doc: u32) -> Result<LineupPerson, ApiError> {
    let c: PersonCard = stored_record(&ctx.index.people, "card", doc)?;
    Ok(LineupPerson {
        id: c.id,
        name: c.name,
        linkedin: c.linkedin_url,
        crunchbase: c.crunchbase_url,
        twitter: c.twitter_url,
    })
}

/// The firms (lead first) with their partners on the deal, and the angels.
fn lineup(ctx: &Ctx, deal: u32) -> Result<(Vec<Raw>, Vec<Raw>), ApiError> {
    let deals = &ctx.index.deals;
    let firms = deals.relation("firms").map_err(internal)?;
    let partners = deals.relation("partners").map_err(internal)?;
    let angels = deals.relation("angels").map_err(internal)?;
    let mut rows: Vec<(u32, DealInvestor)> = Vec::new();
    for (slot, (&firm, &payload)) in firms
        .targets(deal)
        .iter()
        .zip(firms.payload(deal))
        .enumerate()
    {
        let c: FirmCard = stored_record(&ctx.index.firms, "card", firm)?;
        let mut personnel = Vec::new();
        for (&p, &s) in partners.targets(deal).iter().zip(partners.payload(deal)) {
            if s as usize == slot {
                personnel.push(lineup_person(ctx, p)?);
            }
        }
        let investor = DealInvestor {
            id: c.id,
            name: c.name,
            lead_investor: payload & FIRM_LED != 0,
            personnel,
            financing_type: financing_name(payload & !FIRM_LED),
            domain: c.domain,
            linkedin: c.linkedin,
            crunchbase: c.crunchbase,
        };
        rows.push((firm, investor));
    }
    rows.sort_by_key(|(firm, i)| (!i.lead_investor, *firm));
    let mut angel_rows = Vec::new();
    for (&p, &code) in angels.targets(deal).iter().zip(angels.payload(deal)) {
        let person = lineup_person(ctx, p)?;
        angel_rows.push(Raw::from_serialize(&AngelInvestor {
            id: person.id,
            name: person.name,
            linkedin: person.linkedin,
            crunchbase: person.crunchbase,
            twitter: person.twitter,
            financing_type: financing_name(code),
        }));
    }
    Ok((
        rows.iter().map(|(_, i)| Raw::from_serialize(i)).collect(),
        angel_rows,
    ))
}
