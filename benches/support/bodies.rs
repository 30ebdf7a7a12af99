//! `POST /v1/companies` bodies of the bench's typed C1 requests, for the
//! HTTP load test (`scripts/bench/http_load.sh`, `MIX=c1`). Each body is
//! checked to parse back (`api::body::parse_companies`) into exactly the
//! typed request it was written from, so the server answers the very
//! requests the in-process bench times.

use fundsearch::api::body::parse_companies;
use fundsearch::query::request::{CompaniesQuery, CompanyFilter, DealFilter, Range};
use fundsearch::schema::Date;
use serde_json::{json, Map, Value};

/// The wire body of `q`; an error when it would not parse back into `q`.
pub fn companies_body(q: &CompaniesQuery) -> Result<String, String> {
    if q.identifiers.is_some()
        || q.semantic.is_some()
        || q.investors.is_set()
        || q.company.ids.is_some()
    {
        return Err("only company, latest_deal, sort and paging keys are written".into());
    }
    let mut top = Map::new();
    put(&mut top, "company", company(&q.company));
    let mut latest = deal(&q.latest_deal.deal);
    if let Some(ids) = &q.latest_deal.investor_ids {
        latest.insert("investor_ids".into(), json!(ids));
    }
    put(&mut top, "latest_deal", latest);
    top.insert("sort_by".into(), json!(q.sort.as_str()));
    top.insert("page".into(), json!(q.page.page));
    top.insert("page_size".into(), json!(q.page.page_size));
    let body = Value::Object(top).to_string();
    match parse_companies(body.as_bytes()) {
        Ok(parsed) if parsed == *q => Ok(body),
        Ok(parsed) => Err(format!("{body} parses as {parsed:?}, not {q:?}")),
        Err(e) => Err(format!("{body} is refused: {e:?}")),
    }
}

fn put(top: &mut Map<String, Value>, key: &str, block: Map<String, Value>) {
    if !block.is_empty() {
        top.insert(key.into(), Value::Object(block));
    }
}

fn company(f: &CompanyFilter) -> Map<String, Value> {
    let mut m = Map::new();
    opt(&mut m, "locations", &f.locations, |v| json!(v));
    opt(&mut m, "industries", &f.industries, |v| json!(v));
    opt(&mut m, "super_categories", &f.super_categories, |v| {
        json!(v)
    });
    opt(&mut m, "employee_count", &f.employee_count, |v| {
        json!(v.iter().map(|h| h.as_str()).collect::<Vec<_>>())
    });
    opt(&mut m, "ipo_status", &f.ipo_status, |v| {
        json!(v.iter().map(|s| s.as_str()).collect::<Vec<_>>())
    });
    money(
        &mut m,
        &f.total_raised,
        "total_raised_min",
        "total_raised_max",
    );
    m
}

fn deal(f: &DealFilter) -> Map<String, Value> {
    let mut m = Map::new();
    opt(&mut m, "financing_types", &f.financing_types, |v| {
        let keys: Vec<Value> = v
            .iter()
            .map(|k| json!({"type": k.round_type.as_str(), "pre": k.pre, "extension": k.extension}))
            .collect();
        json!(keys)
    });
    money(&mut m, &f.size, "size_min", "size_max");
    dates(&mut m, &f.date, "date_start", "date_end");
    dates(&mut m, &f.created, "created_start", "created_end");
    m
}

fn opt<T>(m: &mut Map<String, Value>, key: &str, v: &Option<T>, f: impl Fn(&T) -> Value) {
    if let Some(v) = v {
        m.insert(key.into(), f(v));
    }
}

fn money(m: &mut Map<String, Value>, r: &Range<f64>, min: &str, max: &str) {
    opt(m, min, &r.min, |v| json!(v));
    opt(m, max, &r.max, |v| json!(v));
}

fn dates(m: &mut Map<String, Value>, r: &Range<Date>, start: &str, end: &str) {
    opt(m, start, &r.min, |d| json!(d.iso()));
    opt(m, end, &r.max, |d| json!(d.iso()));
}
