//! The bench's typed requests as JSON, with our answers and timings, for
//! the side-by-side run against SQL peers (`scripts/bench/peers.sh`).
//!
//! One JSON line per request:
//! `{"class", "request": {...}, "total_count", "page": [uuid, ...],
//! "engine_us": [per round], "hydrated_us": [per round]}`.
//!
//! `request` states every field of the typed request (`query::request`),
//! unset ones as `null`, so that a translator can refuse a key it does not
//! handle instead of silently dropping it. Shapes: ranges `{min, max}`
//! (money in USD as sent, dates `YYYY-MM-DD`), round keys `{type, pre,
//! extension}`, enums in their wire spelling, `page` and `page_size`.

use std::io::Write;

use fundsearch::index::Index;
use fundsearch::query::request::{
    CompaniesQuery, CompanyFilter, DealFilter, DealsQuery, EmployerFilter, InvestorPersonFilter,
    InvestorsFilter, InvestorsQuery, LatestDealFilter, OrgIdentifiers, PageRequest, PeopleQuery,
    PersonDealsFilter, PersonFilter, PersonIdentifiers, PortfolioFilter, Range, Semantic,
};
use fundsearch::schema::{Date, RoundKey};
use serde_json::{json, Value};
use uuid::Uuid;

use super::searches::{Class, Request};

/// One exported request with our answer and per-round latencies (µs).
pub struct Answered<'a> {
    pub class: Class,
    pub request: &'a Request,
    pub engine_us: Vec<f64>,
    pub hydrated_us: Vec<f64>,
}

/// Writes `answered` as JSON lines to `out`, answering each request once
/// more (untimed) for its `total_count` and page of UUIDs.
pub fn write_lines(
    index: &Index,
    answered: &[Answered],
    out: &mut impl Write,
) -> Result<(), String> {
    for a in answered {
        let page = a
            .request
            .execute(index)
            .map_err(|e| format!("{}: {e}", a.class.slug()))?;
        let ids = &a.request.kind(index).ids;
        let uuids: Vec<String> = page.docs.iter().map(|&d| ids.uuid(d).to_string()).collect();
        let line = json!({
            "class": a.class.slug(),
            "request": request_json(a.request),
            "total_count": page.total_count,
            "page": uuids,
            "engine_us": a.engine_us,
            "hydrated_us": a.hydrated_us,
        });
        writeln!(out, "{line}").map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// The JSON form of a typed request.
pub fn request_json(request: &Request) -> Value {
    match request {
        Request::Companies(q) => companies(q),
        Request::Deals(q) => deals(q),
        Request::Investors(q) => investors(q),
        Request::People(q) => people(q),
    }
}

fn companies(q: &CompaniesQuery) -> Value {
    with_page(
        json!({
            "endpoint": "companies",
            "identifiers": q.identifiers.as_ref().map(org_ids),
            "company": company(&q.company),
            "semantic": q.semantic.as_ref().map(semantic),
            "latest_deal": latest_deal(&q.latest_deal),
            "investors": investors_filter(&q.investors),
            "sort": q.sort.as_str(),
        }),
        q.page,
    )
}

fn deals(q: &DealsQuery) -> Value {
    with_page(
        json!({
            "endpoint": "deals",
            "deal_ids": q.deal_ids.as_ref().map(|ids| uuids(ids)),
            "deal": deal(&q.deal),
            "company": company(&q.company),
            "investors": investors_filter(&q.investors),
            "sort": q.sort.as_str(),
        }),
        q.page,
    )
}

fn investors(q: &InvestorsQuery) -> Value {
    with_page(
        json!({
            "endpoint": "investors",
            "identifiers": q.identifiers.as_ref().map(org_ids),
            "locations": q.locations,
            "employee_count": q.employee_count.as_ref().map(|v| strs(v, |h| h.as_str())),
            "portfolio": q.portfolio.as_ref().map(portfolio),
            "sort": q.sort.as_str(),
        }),
        q.page,
    )
}

fn people(q: &PeopleQuery) -> Value {
    with_page(
        json!({
            "endpoint": "people",
            "person_type": q.person_type.as_str(),
            "identifiers": q.identifiers.as_ref().map(person_ids),
            "person": person(&q.person),
            "company": q.company.as_ref().map(employer),
            "investor": q.investor.as_ref().map(investor_person),
            "sort": q.sort.as_str(),
        }),
        q.page,
    )
}

fn with_page(mut v: Value, page: PageRequest) -> Value {
    v["page"] = json!(page.page);
    v["page_size"] = json!(page.page_size);
    v
}

// ---------------------------------------------------------------- blocks

fn company(f: &CompanyFilter) -> Value {
    json!({
        "ids": f.ids.as_ref().map(|ids| uuids(ids)),
        "locations": f.locations,
        "industries": f.industries,
        "super_categories": f.super_categories,
        "employee_count": f.employee_count.as_ref().map(|v| strs(v, |h| h.as_str())),
        "ipo_status": f.ipo_status.as_ref().map(|v| strs(v, |s| s.as_str())),
        "total_raised": money(&f.total_raised),
    })
}

fn deal(f: &DealFilter) -> Value {
    json!({
        "financing_types": f.financing_types.as_ref().map(|v| v.iter().map(round_key).collect::<Vec<_>>()),
        "size": money(&f.size),
        "date": dates(&f.date),
        "created": dates(&f.created),
    })
}

fn latest_deal(f: &LatestDealFilter) -> Value {
    json!({
        "deal": deal(&f.deal),
        "investor_ids": f.investor_ids.as_ref().map(|ids| uuids(ids)),
        "investor_locations": f.investor_locations,
    })
}

fn investors_filter(f: &InvestorsFilter) -> Value {
    json!({
        "investor_ids": f.investor_ids.as_ref().map(|ids| uuids(ids)),
        "people_ids": f.people_ids.as_ref().map(|ids| uuids(ids)),
    })
}

fn portfolio(f: &PortfolioFilter) -> Value {
    json!({
        "company": company(&f.company),
        "deal": deal(&f.deal),
        "semantic": f.semantic.as_ref().map(semantic),
        "only_lead_deals": f.only_lead_deals,
        "min_matching_deals": f.min_matching_deals,
    })
}

fn person(f: &PersonFilter) -> Value {
    json!({
        "roles": f.roles.as_ref().map(|v| strs(v, |r| r.as_str())),
        "contact_types": f.contact_types,
        "job_titles": f.job_titles,
        "education_schools": f.education_schools,
        "linkedin_companies": f.linkedin_companies,
    })
}

fn employer(f: &EmployerFilter) -> Value {
    json!({
        "company": company(&f.company),
        "semantic": f.semantic.as_ref().map(semantic),
        "investor_people_ids": f.investor_people_ids.as_ref().map(|ids| uuids(ids)),
        "latest_deal": latest_deal(&f.latest_deal),
    })
}

fn investor_person(f: &InvestorPersonFilter) -> Value {
    json!({
        "firms": f.firms.as_ref().map(org_ids),
        "locations": f.locations,
        "employee_count": f.employee_count.as_ref().map(|v| strs(v, |h| h.as_str())),
        "deals": f.deals.as_ref().map(person_deals),
    })
}

fn person_deals(f: &PersonDealsFilter) -> Value {
    json!({
        "semantic": f.semantic.as_ref().map(semantic),
        "investment_type": f.investment_type.as_str(),
        "only_lead_deals": f.only_lead_deals,
        "min_matching_deals": f.min_matching_deals,
        "deal": deal(&f.deal),
        "portfolio": company(&f.portfolio),
    })
}

fn org_ids(ids: &OrgIdentifiers) -> Value {
    json!({
        "ids": uuids(&ids.ids),
        "domains": ids.domains,
        "linkedin": ids.linkedin,
        "crunchbase": ids.crunchbase,
        "permalinks": ids.permalinks,
    })
}

fn person_ids(ids: &PersonIdentifiers) -> Value {
    json!({
        "ids": uuids(&ids.ids),
        "linkedin": ids.linkedin,
        "crunchbase": ids.crunchbase,
        "twitter": ids.twitter,
    })
}

fn semantic(s: &Semantic) -> Value {
    json!({"query": s.query, "min_relevance": s.min_relevance})
}

// ---------------------------------------------------------------- values

fn round_key(k: &RoundKey) -> Value {
    json!({"type": k.round_type.as_str(), "pre": k.pre, "extension": k.extension})
}

fn money(r: &Range<f64>) -> Value {
    if !r.is_set() {
        return Value::Null;
    }
    json!({"min": r.min, "max": r.max})
}

fn dates(r: &Range<Date>) -> Value {
    if !r.is_set() {
        return Value::Null;
    }
    json!({"min": r.min.map(Date::iso), "max": r.max.map(Date::iso)})
}

fn uuids(ids: &[Uuid]) -> Vec<String> {
    ids.iter().map(Uuid::to_string).collect()
}

fn strs<T: Copy>(items: &[T], name: fn(T) -> &'static str) -> Vec<&'static str> {
    items.iter().map(|&t| name(t)).collect()
}
