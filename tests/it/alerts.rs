//! The alert endpoints over HTTP against the fixture index: configurations
//! saved, listed and deleted per user; `GET /alerts` with goldens for its
//! answer and each documented error; a property test that an alert reports
//! exactly what `POST /deals` finds with the same filters over the same
//! days; and an alert with a semantic description.

use fundsearch::accounts::Plan;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde_json::{json, Value};

use crate::api::{error, ok, server};
use crate::common::fixture_id;
use crate::common::golden::assert_golden;
use crate::common::http::{Reply, TestServer};

const YEAR_2019: &str = "start_date=2019-01-01T00:00:00.000Z&end_date=2019-12-31T23:59:59.999Z";

fn create(s: &TestServer, key: &str, body: &Value) -> Reply {
    s.request(
        "POST",
        "/v1/alerts/configurations",
        Some(key),
        body.to_string().as_bytes(),
    )
}

/// Saves `body` and returns the new configuration's id.
fn saved(s: &TestServer, key: &str, body: &Value) -> String {
    let r = create(s, key, body);
    ok(&r)["data"]["configuration"]["configuration_id"]
        .as_str()
        .unwrap()
        .to_string()
}

/// Ids and creation times replaced by placeholders, for goldens.
fn stable(mut v: Value) -> Value {
    match &mut v {
        Value::Object(map) => {
            for (k, x) in map.iter_mut() {
                if matches!(k.as_str(), "configuration_id" | "alertId" | "created_at") {
                    *x = json!("<generated>");
                } else {
                    *x = stable(x.take());
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|x| *x = stable(x.take())),
        _ => {}
    }
    v
}

fn seed_config() -> Value {
    json!({
        "configuration_name": "Seed rounds 2019", "frequency": "MONTHLY",
        "description": "Seed and pre-seed rounds of at least $500K",
        "filters": { "financing_types": ["seed", "Pre-Seed"], "deal_size_min": 500000,
                     "investors": [fixture_id("firm", "harbor-point-ventures"), fixture_id("firm", "seedling-fund")] }
    })
}

#[test]
fn configurations_are_saved_listed_and_deleted_per_user() {
    let s = server("alert-configurations");
    let ann = s.key("ann", Plan::ProPlus);
    let ann2 = s.key("ann", Plan::ProPlus);
    let bob = s.key("bob", Plan::Enterprise);
    let empty = s.get("/v1/alerts/configurations", Some(&ann));
    assert_eq!(ok(&empty)["data"]["configurations"], json!([]));
    assert_eq!(
        empty.body["meta"],
        json!({"page": 0, "page_size": 0, "credits_used": 0})
    );
    let first = saved(&s, &ann, &seed_config());
    let second = saved(
        &s,
        &ann2,
        &json!({"configuration_name": "Zurich", "filters": {"locations": ["zurich"], "num_employees": ["51-100"], "companies": [fixture_id("company", "zurich-robotics")], "search_query": "robots"}}),
    );
    let listed = s.get("/v1/alerts/configurations", Some(&ann2));
    assert_eq!(listed.body["meta"]["page_size"], 2);
    assert_golden("alert_configurations", &stable(ok(&listed).clone()));
    assert_eq!(
        ok(&s.get("/v1/alerts/configurations", Some(&bob)))["data"]["configurations"],
        json!([]),
        "per user"
    );
    let theirs = s.request(
        "DELETE",
        &format!("/v1/alerts/configurations/{first}"),
        Some(&bob),
        b"",
    );
    error(&theirs, 404, "ALERT_NOT_FOUND");
    let gone = s.request(
        "DELETE",
        &format!("/v1/alerts/configurations/{first}"),
        Some(&ann),
        b"",
    );
    assert_eq!(
        ok(&gone)["data"]["configuration"]["configuration_name"],
        "Seed rounds 2019"
    );
    let left = s.get("/v1/alerts/configurations", Some(&ann));
    assert_eq!(
        ok(&left)["data"]["configurations"][0]["configuration_id"],
        second.as_str()
    );
    error(
        &s.request("DELETE", "/v1/alerts/configurations/nope", Some(&ann), b""),
        400,
        "INVALID_ALERT_ID",
    );
}

#[test]
fn bad_configurations_get_the_deals_body_errors() {
    let s = server("alert-configuration-errors");
    let key = s.key("cy", Plan::Api);
    let bad = create(
        &s,
        &key,
        &json!({"frequency": "HOURLY", "filters": {"financing_types": ["Series Z"], "deal_size_min": "big", "region": "x"}}),
    );
    error(&bad, 422, "UNKNOWN_PARAMETER");
    assert_eq!(bad.body["statusCode"], 422);
    assert_golden("alert_configuration_invalid", &bad.body);
    error(
        &s.request("POST", "/v1/alerts/configurations", Some(&key), b"{"),
        400,
        "VALIDATION_ERROR",
    );
    let pro = s.key("dee", Plan::Pro);
    let gated = create(&s, &pro, &seed_config());
    error(&gated, 403, "API_TIER_REQUIRED");
    assert_eq!(gated.body["error"]["details"]["current_tier"], "Pro");
}

#[test]
fn alerts_report_the_matching_deals_newest_first_with_reasoning() {
    let s = server("alerts-report");
    let key = s.key("eve", Plan::Enterprise);
    let seed = saved(&s, &key, &seed_config());
    let nothing = saved(
        &s,
        &key,
        &json!({"configuration_name": "Nothing", "filters": {"financing_types": ["Series M"]}}),
    );
    let r = s.get(
        &format!("/v1/alerts?alert_ids={seed},{nothing}&{YEAR_2019}"),
        Some(&key),
    );
    let body = ok(&r);
    assert_eq!(
        body["meta"],
        json!({"page": 0, "page_size": 2, "credits_used": 0})
    );
    let alerts = body["data"]["alerts"].as_array().unwrap();
    assert_eq!(
        alerts.len(),
        1,
        "an alert without deals in the range is left out"
    );
    let deals = alerts[0]["deals"].as_array().unwrap();
    assert!(!deals.is_empty() && alerts[0]["totalDealCount"] == deals.len());
    let dates: Vec<&str> = deals.iter().map(|d| d["date"].as_str().unwrap()).collect();
    assert!(
        dates.windows(2).all(|w| w[0] >= w[1]),
        "newest first: {dates:?}"
    );
    for d in deals {
        let why = d["reasoning"].as_str().unwrap();
        assert!(
            why.contains("round type (")
                && why.contains("deal size (")
                && why.contains("took part"),
            "{why}"
        );
    }
    assert_golden("alerts_seed_2019", &stable(body.clone()));
    let none = s.get(
        &format!("/v1/alerts?alert_ids={nothing}&{YEAR_2019}"),
        Some(&key),
    );
    assert_eq!(ok(&none)["data"]["alerts"], json!([]));
    assert_eq!(none.body["meta"]["page_size"], 1);
}

#[test]
fn alerts_errors() {
    let s = server("alerts-errors");
    let key = s.key("fay", Plan::ProPlus);
    let mine = saved(&s, &key, &seed_config());
    let other = s.key("gus", Plan::ProPlus);
    let theirs = saved(&s, &other, &seed_config());
    let cases = [
        ("alerts_missing_parameters", "start_date=2024-01-01T00:00:00.000Z".to_string(), 400, "MISSING_PARAMETERS"),
        ("alerts_invalid_id", format!("alert_ids=not-a-uuid,invalid-id&{YEAR_2019}"), 400, "INVALID_ALERT_ID"),
        ("alerts_invalid_date", format!("alert_ids={mine}&start_date=2024-01-01&end_date=2024-02-01T00:00:00.000Z"), 400, "INVALID_DATE_FORMAT"),
        ("alerts_range_too_large", format!("alert_ids={mine}&start_date=2023-01-01T00:00:00.000Z&end_date=2024-02-05T00:00:00.000Z"), 400, "DATE_RANGE_TOO_LARGE"),
        ("alerts_start_after_end", format!("alert_ids={mine}&start_date=2024-02-01T00:00:00.000Z&end_date=2024-01-01T00:00:00.000Z"), 400, "INVALID_DATE_RANGE"),
        ("alerts_future", format!("alert_ids={mine}&start_date=2999-12-01T00:00:00.000Z&end_date=2999-12-02T00:00:00.000Z"), 400, "FUTURE_DATE"),
        ("alerts_not_yours", format!("alert_ids={mine},{theirs}&{YEAR_2019}"), 404, "ALERT_NOT_FOUND"),
        ("alerts_unknown_parameter", format!("alert_ids={mine}&{YEAR_2019}&invalidParam=someValue"), 422, "UNKNOWN_PARAMETER"),
    ];
    for (golden, query, status, code) in cases {
        let r = s.get(&format!("/v1/alerts?{query}"), Some(&key));
        error(&r, status, code);
        assert_eq!(r.body["statusCode"], status, "{query}");
        assert_golden(
            golden,
            &stable(r.body.clone())
                .to_string()
                .replace(&mine, "<mine>")
                .replace(&theirs, "<theirs>")
                .parse::<Value>()
                .unwrap(),
        );
    }
    let eleven: Vec<String> = (0..11)
        .map(|i| format!("00000000-0000-0000-0000-0000000000{i:02}"))
        .collect();
    error(
        &s.get(
            &format!("/v1/alerts?alert_ids={}&{YEAR_2019}", eleven.join(",")),
            Some(&key),
        ),
        400,
        "TOO_MANY_ALERT_IDS",
    );
    let pro = s.key("hal", Plan::Pro);
    let gated = s.get(
        &format!("/v1/alerts?alert_ids={mine}&{YEAR_2019}"),
        Some(&pro),
    );
    error(&gated, 403, "API_TIER_REQUIRED");
    assert_golden("alerts_tier_required", &gated.body);
    error(
        &s.get("/v1/alerts/configurations?x=1", Some(&key)),
        422,
        "UNKNOWN_PARAMETER",
    );
}

#[test]
fn a_semantic_description_keeps_the_companies_it_describes() {
    let s = server("alerts-semantic");
    let key = s.key("ida", Plan::Api);
    let all = json!({"configuration_name": "All of 2020"});
    let robots = json!({"configuration_name": "Robots", "filters": {"search_query": "robots and industrial automation", "min_relevance": 0.3}});
    let range = "start_date=2020-01-01T00:00:00.000Z&end_date=2020-12-31T23:59:59.999Z";
    let (all, robots) = (saved(&s, &key, &all), saved(&s, &key, &robots));
    let r = s.get(
        &format!("/v1/alerts?alert_ids={all},{robots}&{range}"),
        Some(&key),
    );
    let alerts = ok(&r)["data"]["alerts"].as_array().unwrap().clone();
    assert_eq!(alerts.len(), 2, "{}", r.body);
    let count = |a: &Value| a["totalDealCount"].as_u64().unwrap();
    assert!(
        count(&alerts[1]) < count(&alerts[0]),
        "the description narrows"
    );
    for d in alerts[1]["deals"].as_array().unwrap() {
        assert!(
            d["reasoning"]
                .as_str()
                .unwrap()
                .contains("to “robots and industrial automation”"),
            "{d}"
        );
    }
    assert!(
        alerts[1]["deals"].to_string().contains("Zürich Robotics"),
        "{}",
        alerts[1]
    );
    assert!(alerts[0]["deals"][0]["reasoning"]
        .as_str()
        .unwrap()
        .ends_with("The alert has no filters, so every deal of the range matches."));
}

/// Filters drawn from the fixture's vocabulary.
fn filters() -> impl Strategy<Value = Value> {
    let labels = prop::sample::subsequence(
        vec![
            "Seed",
            "Pre-Seed",
            "Series A",
            "Series B",
            "Series C",
            "Debt Financing",
            "Grant",
        ],
        0..3,
    );
    let industries = prop::sample::subsequence(
        vec![
            "robotics",
            "fintech",
            "payments",
            "biotechnology",
            "artificial-intelligence",
            "insurance",
        ],
        0..3,
    );
    let supers = prop::sample::subsequence(
        vec![
            "health-care-9c4d",
            "financial-services-3f2a",
            "artificial-intelligence-e551",
        ],
        0..2,
    );
    let places = prop::sample::subsequence(
        vec![
            "united-states",
            "california",
            "london",
            "zurich",
            "brazil",
            "new-york",
        ],
        0..3,
    );
    let heads =
        prop::sample::subsequence(vec!["1-10", "11-50", "51-100", "101-250", "251-500"], 0..3);
    let firms = prop::sample::subsequence(
        vec![
            "harbor-point-ventures",
            "northwind-capital",
            "seedling-fund",
            "alpine-partners",
        ],
        0..2,
    );
    let size = (prop::option::of(0u64..20), prop::option::of(0u64..80));
    (labels, industries, supers, places, heads, firms, size).prop_map(
        |(l, i, sc, p, h, f, (lo, hi))| {
            let mut m = serde_json::Map::new();
            let mut put = |k: &str, v: Value, empty: bool| {
                if !empty {
                    m.insert(k.into(), v);
                }
            };
            put("financing_types", json!(l), l.is_empty());
            put("industries", json!(i), i.is_empty());
            put("super_categories", json!(sc), sc.is_empty());
            put("locations", json!(p), p.is_empty());
            put("num_employees", json!(h), h.is_empty());
            let f: Vec<_> = f.iter().map(|k| fixture_id("firm", k)).collect();
            put("investors", json!(f), f.is_empty());
            let (lo, hi) = (lo.map(|x| x * 500_000), hi.map(|x| x * 1_000_000));
            let ordered = lo.zip(hi).is_none_or(|(a, b)| a <= b);
            if ordered {
                put("deal_size_min", json!(lo), lo.is_none());
                put("deal_size_max", json!(hi), hi.is_none());
            }
            Value::Object(m)
        },
    )
}

/// The `/deals` body with the same filters as the alert `filters` over days `from..=to`.
fn deals_body(filters: &Value, from: &str, to: &str) -> Value {
    let f = |k: &str| filters.get(k).cloned();
    let rounds: Option<Vec<Value>> = f("financing_types").map(|l| {
        l.as_array()
            .unwrap()
            .iter()
            .map(|l| match l.as_str().unwrap() {
                "Pre-Seed" => json!({"type": "SEED", "pre": true}),
                other => json!({"type": other.to_uppercase().replace(' ', "_")}),
            })
            .collect()
    });
    let mut deal = json!({"date_start": from, "date_end": to});
    let mut company = json!({});
    if let Some(rounds) = rounds {
        deal["financing_types"] = json!(rounds);
    }
    for (key, name) in [("deal_size_min", "size_min"), ("deal_size_max", "size_max")] {
        if let Some(v) = f(key) {
            deal[name] = v;
        }
    }
    for (key, name) in [
        ("industries", "industries"),
        ("super_categories", "super_categories"),
        ("locations", "locations"),
        ("num_employees", "employee_count"),
    ] {
        if let Some(v) = f(key) {
            company[name] = v;
        }
    }
    let mut body = json!({"deal": deal, "company": company, "page_size": 500});
    if let Some(v) = f("investors") {
        body["investors"] = json!({"investor_ids": v});
    }
    body
}

#[test]
fn an_alert_reports_what_deals_finds_with_the_same_filters() {
    let s = server("alerts-vs-deals");
    let key = s.key("jay", Plan::Api);
    let years = prop::sample::select(vec![2019, 2020, 2021, 2022, 2024, 2026]);
    let mut runner = TestRunner::new(Config {
        cases: 48,
        ..Config::default()
    });
    runner
        .run(&(filters(), years), |(filters, year)| {
            let id = saved(
                &s,
                &key,
                &json!({"configuration_name": "p", "filters": filters}),
            );
            let (from, to) = (format!("{year}-01-01"), format!("{year}-10-31"));
            let range = format!("start_date={from}T00:00:00.000Z&end_date={to}T12:00:00.000Z");
            let alert = s.get(&format!("/v1/alerts?alert_ids={id}&{range}"), Some(&key));
            let listed = ok(&alert)["data"]["alerts"]
                .get(0)
                .map_or(vec![], |a| a["deals"].as_array().unwrap().clone());
            let deals = s.request(
                "POST",
                "/v1/deals",
                Some(&key),
                deals_body(&filters, &from, &to).to_string().as_bytes(),
            );
            let expected = ok(&deals)["data"]["deals"].as_array().unwrap().clone();
            let ids = |rows: &[Value]| {
                rows.iter()
                    .map(|d| d["id"].as_str().unwrap().to_string())
                    .collect::<Vec<_>>()
            };
            prop_assert_eq!(ids(&listed), ids(&expected), "{} {}", filters, year);
            s.request(
                "DELETE",
                &format!("/v1/alerts/configurations/{id}"),
                Some(&key),
                b"",
            );
            Ok(())
        })
        .unwrap();
}
