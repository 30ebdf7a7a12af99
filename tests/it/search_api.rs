//! The four collection searches over HTTP against the fixture index:
//! golden bodies per endpoint, every validation error shape, paging
//! consistency for every sort, credits per row and identifier batches
//! (semantic search: `semantic.rs`).

use fundsearch::accounts::Plan;
use serde_json::{json, Value};

use crate::common::golden::assert_golden;
use crate::common::http::{Reply, Setup, TestServer};
use crate::common::*;

fn server(name: &str) -> (TestServer, String) {
    let s = TestServer::start(
        fixture_index_dir(),
        &scratch(name).join("state"),
        Setup::default(),
    );
    let key = s.key("searcher", Plan::Api);
    (s, key)
}

fn post(s: &TestServer, key: &str, path: &str, body: Value) -> Reply {
    s.request("POST", path, Some(key), body.to_string().as_bytes())
}

fn ok(r: &Reply) -> &Value {
    assert_eq!(r.status, 200, "{}", r.body);
    &r.body
}

fn ids(body: &Value, member: &str) -> Vec<String> {
    body["data"][member]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap().to_string())
        .collect()
}

fn id(kind: &str, key: &str) -> String {
    fixture_id(kind, key).to_string()
}

#[test]
fn companies_golden() {
    let (s, key) = server("search-companies");
    let body = json!({
        "company": {"locations": ["united-states"], "industries": ["artificial-intelligence"]},
        "latest_deal": {"date_start": "2026-01-01"},
        "sort_by": "largest_total_raise", "page_size": 2
    });
    assert_golden(
        "search_companies",
        ok(&post(&s, &key, "/v1/companies", body)),
    );
}

#[test]
fn deals_golden() {
    let (s, key) = server("search-deals");
    let body = json!({
        "company": {"locations": ["california"], "super_categories": ["health-care-9c4d"]},
        "deal": {"financing_types": [{"type": "SERIES_A"}, {"type": "SERIES_B"}], "size_min": 10000000},
        "page_size": 3
    });
    assert_golden("search_deals", ok(&post(&s, &key, "/v1/deals", body)));
}

#[test]
fn investors_golden() {
    let (s, key) = server("search-investors");
    let body = json!({
        "company_investments": {"super_categories": ["health-care-9c4d"], "deal_start_date": "2020-01-01"},
        "sort_by": "matching_deals", "page_size": 3
    });
    assert_golden(
        "search_investors",
        ok(&post(&s, &key, "/v1/investors", body)),
    );
}

#[test]
fn people_golden_investor_and_company_mode() {
    let (s, key) = server("search-people");
    let investors = json!({
        "investor": {"deals": {"min_matching_deals": 3, "date_start": "2020-01-01"}},
        "sort_by": "filtered_deal_count", "page_size": 2
    });
    assert_golden(
        "search_people_investor_mode",
        ok(&post(&s, &key, "/v1/people", investors)),
    );
    let founders = json!({
        "person": {"roles": ["founder"]},
        "company": {"locations": ["switzerland"]},
        "page_size": 1
    });
    let body = ok(&post(&s, &key, "/v1/people", founders)).clone();
    assert_golden("search_people_company_mode", &body);
    let lena = &body["data"]["people"][0];
    assert_eq!(
        lena["employment_history"].as_array().unwrap().len(),
        3,
        "list rows carry at most 3 jobs"
    );
    assert_eq!(
        lena["education_history"].as_array().unwrap().len(),
        3,
        "and at most 3 schools"
    );
    assert_eq!(lena["filtered_deal_count"], Value::Null);
}

#[test]
fn empty_people_result_has_a_message_and_costs_nothing() {
    let (s, key) = server("search-people-empty");
    let r = post(
        &s,
        &key,
        "/v1/people",
        json!({"company": {"locations": ["no-such-place"]}}),
    );
    let body = ok(&r);
    assert_eq!(body["message"], "No people found matching your filters");
    assert_eq!(body["data"]["people"], json!([]));
    assert_eq!(body["meta"]["total_count"], 0);
    assert_eq!(body["meta"]["credits_used"], 0);
}

#[test]
fn credits_are_one_per_row_returned() {
    let s = TestServer::start(
        fixture_index_dir(),
        &scratch("search-credits").join("state"),
        Setup::default(),
    );
    let key = s.key("payer", Plan::Pro);
    let r = post(&s, &key, "/v1/deals", json!({"page_size": 7}));
    assert_eq!(ok(&r)["meta"]["credits_used"], 7);
    assert_eq!(r.body["meta"]["total_count"], 56);
    assert_eq!(r.body["meta"]["credit_source"], "monthly");
}

#[test]
fn identifier_batches_drop_unknowns_and_keep_exact_counts() {
    let (s, key) = server("search-batches");
    let body = json!({
        "identifiers": {"domains": ["luminahealth.com", "https://helixbio.com/about", "unknown-domain.io"],
                        "ids": [id("company", "kairo-ai"), "550e8400-e29b-41d4-a716-446655440000"]},
        "page_size": 2
    });
    let r = post(&s, &key, "/v1/companies", body);
    assert_eq!(ok(&r)["meta"]["total_count"], 3, "{}", r.body);
    assert_eq!(ids(&r.body, "companies").len(), 2);
    let www = post(
        &s,
        &key,
        "/v1/companies",
        json!({"identifiers": {"domains": ["www.luminahealth.com"]}}),
    );
    assert_eq!(
        ok(&www)["meta"]["total_count"],
        0,
        "a www. domain matches nothing, as observed on the hosted API"
    );
    let firms =
        json!({"identifiers": {"domains": ["harborpoint.vc"], "permalinks": ["alpine-partners"]}});
    assert_eq!(
        ok(&post(&s, &key, "/v1/investors", firms))["meta"]["total_count"],
        3
    );
}

/// Every page of `body` at page_size 3, concatenated, equals one big page.
fn assert_paging_consistent(s: &TestServer, key: &str, path: &str, member: &str, body: Value) {
    let mut all = body.clone();
    all["page_size"] = json!(500);
    let everything = ids(ok(&post(s, key, path, all)), member);
    let mut paged = Vec::new();
    for page in 0.. {
        let mut b = body.clone();
        b["page"] = json!(page);
        b["page_size"] = json!(3);
        let r = post(s, key, path, b);
        assert_eq!(
            ok(&r)["meta"]["total_count"],
            everything.len(),
            "{path} {body}"
        );
        let rows = ids(&r.body, member);
        if rows.is_empty() {
            break;
        }
        paged.extend(rows);
    }
    assert_eq!(paged, everything, "{path} {body}");
    let mut distinct = everything.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(
        distinct.len(),
        everything.len(),
        "{path} {body}: a row repeats"
    );
}

#[test]
fn paging_never_repeats_or_skips_for_any_sort() {
    let (s, key) = server("search-paging");
    let company_sorts = [
        "most_recent_raise",
        "oldest_raise",
        "most_recent_founded",
        "oldest_founded",
        "largest_valuation",
        "smallest_valuation",
        "largest_total_raise",
        "smallest_total_raise",
        "most_funding_rounds",
        "most_investors",
    ];
    for sort in company_sorts {
        assert_paging_consistent(
            &s,
            &key,
            "/v1/companies",
            "companies",
            json!({"sort_by": sort}),
        );
    }
    for sort in [
        "most_recent_deal",
        "oldest_deal",
        "largest_raise",
        "smallest_raise",
    ] {
        assert_paging_consistent(&s, &key, "/v1/deals", "deals", json!({"sort_by": sort}));
    }
    for sort in [
        "most_recent_deal",
        "recent_deals",
        "deals_led_ltm",
        "total_deals",
        "matching_deals",
    ] {
        let body =
            json!({"sort_by": sort, "company_investments": {"deal_start_date": "2019-06-01"}});
        assert_paging_consistent(&s, &key, "/v1/investors", "investors", body);
    }
    let person_sorts = [
        "most_recent_deal_date",
        "total_raised",
        "latest_deal_size",
        "name",
        "total_deal_count",
        "deal_count_last_12_months",
        "lead_deal_count",
        "lead_deal_count_last_12_months",
        "filtered_deal_count",
    ];
    for sort in person_sorts {
        assert_paging_consistent(&s, &key, "/v1/people", "people", json!({"sort_by": sort}));
    }
}

fn validation(r: &Reply, status: u16, code: &str) -> Vec<Value> {
    assert_eq!((r.status, r.code()), (status, code), "{}", r.body);
    assert_eq!(r.body["success"], false);
    assert_eq!(
        r.body["error"]["details"]["help"],
        "Please check your request parameters and ensure they meet the required format and constraints."
    );
    r.body["error"]["details"]["errors"]
        .as_array()
        .unwrap()
        .clone()
}

#[test]
fn validation_errors_list_every_problem_with_dotted_paths() {
    let (s, key) = server("search-validation");
    for path in ["/v1/deals", "/v1/companies", "/v1/investors", "/v1/people"] {
        let r = s.request("POST", path, Some(&key), b"{\"page\": ");
        let errors = validation(&r, 400, "VALIDATION_ERROR");
        assert_eq!(
            (errors[0]["field"].as_str(), errors[0]["code"].as_str()),
            (Some("body"), Some("INVALID_JSON")),
            "{path}"
        );
        let r = s.request("POST", &format!("{path}?page=2"), Some(&key), b"{}");
        let errors = validation(&r, 400, "VALIDATION_ERROR");
        assert_eq!(errors[0]["code"], "UNKNOWN_PARAMETER", "{path}");
    }
    let r = post(
        &s,
        &key,
        "/v1/deals",
        json!({"company_ids": [id("company", "helix-bio")]}),
    );
    let errors = validation(&r, 422, "UNKNOWN_PARAMETER");
    assert_eq!(errors[0]["field"], "company_ids");
    assert_eq!(errors[0]["code"], "UNKNOWN_PARAMETER");

    let r = post(
        &s,
        &key,
        "/v1/deals",
        json!({"deal": {"financing_types": ["series-a"]}}),
    );
    let errors = validation(&r, 422, "VALIDATION_ERROR");
    assert_eq!(errors[0]["field"], "deal.financing_types");
    assert_eq!(errors[0]["code"], "INVALID_FINANCING_TYPE");
    assert!(errors[0]["message"]
        .as_str()
        .unwrap()
        .starts_with("Invalid financing type(s): series-a. Valid options are: SERIES_A"));
    assert!(errors[0]["validOptions"]
        .as_array()
        .unwrap()
        .contains(&json!("SEED")));

    let r = post(
        &s,
        &key,
        "/v1/companies",
        json!({"identifiers": {"ids": []}}),
    );
    assert_eq!(
        validation(&r, 422, "VALIDATION_ERROR")[0]["code"],
        "EMPTY_ARRAY_PARAMETER"
    );

    let body = json!({"page_size": 501, "company": {"employee_count": ["5-10"], "total_raised_min": "100"}, "latest_deal": {"bogus": 1}});
    let r = post(&s, &key, "/v1/companies", body);
    let errors = validation(&r, 422, "UNKNOWN_PARAMETER");
    let fields: Vec<&str> = errors
        .iter()
        .map(|e| e["field"].as_str().unwrap())
        .collect();
    for f in [
        "page_size",
        "company.employee_count",
        "company.total_raised_min",
        "latest_deal.bogus",
    ] {
        assert!(fields.contains(&f), "{f} missing from {fields:?}");
    }

    let r = post(&s, &key, "/v1/investors", json!({"page": -1}));
    assert_eq!(validation(&r, 400, "VALIDATION_ERROR")[0]["field"], "page");
    assert_golden(
        "search_error_financing_type",
        &post(
            &s,
            &key,
            "/v1/deals",
            json!({"deal": {"financing_types": [{"type": "Series A"}]}}),
        )
        .body,
    );
}

#[test]
fn people_unknown_parameters_use_their_own_shape() {
    let (s, key) = server("search-people-unknown");
    let r = post(
        &s,
        &key,
        "/v1/people",
        json!({"person": {"bogus": true, "roles": ["founder"]}}),
    );
    assert_eq!(
        (r.status, r.code()),
        (422, "UNKNOWN_PARAMETER"),
        "{}",
        r.body
    );
    assert_eq!(
        r.body["error"]["details"]["unknownParameters"],
        json!(["person.bogus"])
    );
    let allowed = r.body["error"]["details"]["allowedParameters"]
        .as_array()
        .unwrap();
    assert!(allowed.contains(&json!("roles")) && allowed.contains(&json!("linkedin_companies")));
}

#[test]
fn malformed_bodies_are_400() {
    let (s, key) = server("search-malformed");
    for path in ["/v1/companies", "/v1/deals", "/v1/investors", "/v1/people"] {
        let r = s.request("POST", path, Some(&key), b"{\"page\": ");
        assert_eq!(r.status, 400, "{path}: {}", r.body);
        assert_eq!(r.body["success"], false);
        let r = s.request("POST", path, Some(&key), b"[1, 2]");
        assert_eq!(r.status, 400, "{path}: {}", r.body);
        let empty = s.request("POST", path, Some(&key), b"");
        assert_eq!(
            empty.status, 200,
            "{path}: an empty body is the same as {{}}: {}",
            empty.body
        );
    }
}
