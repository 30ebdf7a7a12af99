//! The real server over HTTP on an ephemeral port, against the fixture
//! index: success bodies against golden JSON, every documented error code
//! of every endpoint, auth, rate limit, credits, 402, durability across a
//! restart, and hostile input.

use std::io::Write;
use std::net::TcpStream;
use std::time::Duration;

use fundsearch::accounts::{Allowances, Plan};
use serde_json::{json, Value};

use crate::common::golden::assert_golden;
use crate::common::http::{Reply, Setup, TestServer};
use crate::common::*;

pub(crate) fn server(name: &str) -> TestServer {
    server_with(name, Setup::default())
}

fn server_with(name: &str, setup: Setup) -> TestServer {
    TestServer::start(fixture_index_dir(), &scratch(name).join("state"), setup)
}

/// A server allowing `limit` requests per minute per key.
fn rate_limited(name: &str, limit: u32) -> TestServer {
    let setup = Setup {
        rate_limit: limit,
        ..Setup::default()
    };
    server_with(name, setup)
}

/// Drops the balance keys, which depend on the order tests ran in.
fn without_balances(mut body: Value) -> Value {
    if let Some(meta) = body.get_mut("meta").and_then(Value::as_object_mut) {
        meta.remove("monthly_credits_remaining");
        meta.remove("purchased_credits_remaining");
    }
    body
}

pub(crate) fn ok(r: &Reply) -> &Value {
    assert_eq!(r.status, 200, "{}", r.body);
    &r.body
}

pub(crate) fn error(r: &Reply, status: u16, code: &str) {
    assert_eq!((r.status, r.code()), (status, code), "{}", r.body);
    assert_eq!(r.body["success"], false);
    assert!(r.body["error"]["message"].is_string());
}

/// A 400 `VALIDATION_ERROR` whose first item has `item_code` on `field`.
fn invalid(r: &Reply, field: &str, item_code: &str) {
    error(r, 400, "VALIDATION_ERROR");
    let item = &r.body["error"]["details"]["errors"][0];
    assert_eq!(
        (item["field"].as_str(), item["code"].as_str()),
        (Some(field), Some(item_code)),
        "{}",
        r.body
    );
}

#[test]
fn health_needs_no_key() {
    let s = server("health");
    let r = s.get("/health", None);
    assert_eq!(ok(&r)["status"], "ok");
    assert_eq!(r.body["index"]["companies"], 25);
    assert_eq!(r.body["generation"]["number"], 1);
    assert_eq!(r.header("x-index-generation"), Some("1"));
}

#[test]
fn authentication_errors() {
    let s = server("auth");
    let missing = s.get("/v1/company/search?name=lumina", None);
    error(&missing, 401, "AUTH_ERROR");
    assert_eq!(
        missing.body["error"]["details"]["help"],
        "Please provide your API key in the Authorization header"
    );
    assert_eq!(
        missing.body["error"]["details"]["format"],
        "Bearer vg_your_api_key_here"
    );
    error(
        &s.get("/v1/company/search?name=lumina", Some("not-a-key")),
        401,
        "INVALID_API_KEY",
    );
    let forged = "vg_0123456789ab_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
    error(
        &s.get("/v1/company/search?name=lumina", Some(forged)),
        401,
        "INVALID_API_KEY",
    );
    let key = s.key("alice", Plan::Pro);
    assert!(
        key.starts_with("vg_") && key.len() == 3 + 12 + 1 + 32,
        "{key}"
    );
    ok(&s.get("/v1/company/search?name=lumina", Some(&key)));
    s.accounts.deactivate_key(&key[3..15]).unwrap();
    error(
        &s.get("/v1/company/search?name=lumina", Some(&key)),
        401,
        "INACTIVE_API_KEY",
    );
    error(&s.get("/v1/no/such/route", None), 401, "AUTH_ERROR");
}

#[test]
fn rate_limit_refuses_past_the_limit_with_retry_after() {
    let s = rate_limited("ratelimit", 5);
    let key = s.key("bob", Plan::Pro);
    for _ in 0..5 {
        ok(&s.get("/v1/location/search?name=san", Some(&key)));
    }
    let r = s.get("/v1/location/search?name=san", Some(&key));
    error(&r, 429, "RATE_LIMIT_EXCEEDED");
    assert_eq!(
        r.body["error"]["details"],
        json!({"limit": 5, "window": "60 seconds", "help": "Please reduce your request frequency and try again."})
    );
    let retry: u64 = r.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=60).contains(&retry));
    let other = s.key("carol", Plan::Pro);
    ok(&s.get("/v1/location/search?name=san", Some(&other)));
}

#[test]
fn name_lookups_tried_on_the_reactor_then_the_pool_answer_and_count_once() {
    let s = rate_limited("reactor-first", 4);
    let key = s.key("dana", Plan::Pro);
    // Five tokens: more than the exact stages take, so the request is
    // deferred from the reactor to the pool, where the main stage answers.
    let deferred = "/v1/company/search?name=lumina+health+systems+infusion+pumps";
    let quick = "/v1/company/search?name=lumina+health+systems";
    for path in [deferred, quick, deferred, quick] {
        let response = s.get(path, Some(&key));
        let r = ok(&response);
        assert_eq!(
            r["data"]["companies"][0]["name"],
            json!("Lumina Health Systems"),
            "{path}"
        );
    }
    error(&s.get(deferred, Some(&key)), 429, "RATE_LIMIT_EXCEEDED");
}

#[test]
fn lookups_match_their_goldens() {
    let s = server("lookups");
    let key = s.key("lookups", Plan::Pro);
    let cases = [
        ("location_search_san", "/v1/location/search?name=san"),
        (
            "location_search_new_york_city",
            "/v1/location/search?name=new+york&type=CITY",
        ),
        (
            "location_search_accents",
            "/v1/location/search?name=zurich&location_type=CITY",
        ),
        (
            "industry_search_ai",
            "/v1/industry/search?name=artificial+intelligence",
        ),
        (
            "industry_search_super",
            "/v1/industry/search?name=health&industry_type=SUPER_CATEGORY",
        ),
        ("company_search_name", "/v1/company/search?name=lumina"),
        (
            "company_search_typo",
            "/v1/company/search?name=lumnia+helth",
        ),
        (
            "company_search_domain",
            "/v1/company/search?domain=https://www.kairo.ai/about",
        ),
        (
            "investor_search_shared_domain",
            "/v1/investor/search?domain=harborpoint.vc",
        ),
        (
            "investor_search_name",
            "/v1/investor/search?name=capital+northwind",
        ),
        ("person_search_name", "/v1/person/search?name=elena"),
        (
            "person_search_linkedin_pool",
            "/v1/person/search?linkedin=https://linkedin.com/in/priyaraman&person_type=company",
        ),
    ];
    for (name, path) in cases {
        let r = s.get(path, Some(&key));
        assert_golden(name, &without_balances(ok(&r).clone()));
    }
}

#[test]
fn lookup_errors() {
    let s = server("lookup-errors");
    let key = Some(s.key("errs", Plan::Pro));
    let k = key.as_deref();
    let r = s.get("/v1/location/search", k);
    error(&r, 400, "MISSING_SEARCH_PARAMS");
    assert_eq!(r.body["statusCode"], 400);
    assert_eq!(
        r.body["error"]["message"],
        "At least one search parameter is required: name"
    );
    let limit = s.get("/v1/location/search?name=x&limit=51", k);
    invalid(&limit, "limit", "OUT_OF_RANGE");
    assert_eq!(limit.body["statusCode"], 400);
    invalid(
        &s.get("/v1/industry/search?name=x&page=1", k),
        "page",
        "UNKNOWN_PARAMETER",
    );
    error(
        &s.get("/v1/location/search?name=x&type=INVALID", k),
        400,
        "INVALID_LOCATION_TYPE",
    );
    error(
        &s.get("/v1/location/search?name=x&type=CITY&location_type=CITY", k),
        400,
        "MULTIPLE_LOCATION_TYPE_PARAMS",
    );
    error(
        &s.get("/v1/industry/search?name=x&type=SECTOR", k),
        400,
        "INVALID_INDUSTRY_TYPE",
    );
    error(
        &s.get(
            "/v1/industry/search?name=x&type=INDUSTRY&industry_type=INDUSTRY",
            k,
        ),
        400,
        "MULTIPLE_INDUSTRY_TYPE_PARAMS",
    );
    let multi = s.get("/v1/company/search?name=stripe&domain=stripe.com", k);
    error(&multi, 400, "MULTIPLE_SEARCH_PARAMS");
    assert_eq!(
        multi.body["error"]["details"]["help"],
        "You provided: name, domain. Please use only one of: name, domain, linkedin, crunchbase"
    );
    let missing = s.get("/v1/investor/search", k);
    error(&missing, 400, "MISSING_SEARCH_PARAMS");
    assert!(missing.body["error"]["details"]["examples"]["valid"].is_array());
    error(
        &s.get("/v1/company/search?name=", k),
        400,
        "EMPTY_SEARCH_TERM",
    );
    error(
        &s.get("/v1/company/search?domain=not%20a%20domain", k),
        400,
        "INVALID_DOMAIN",
    );
    error(
        &s.get("/v1/investor/search?linkedin=https://example.com/x", k),
        400,
        "INVALID_LINKEDIN_URL",
    );
    error(
        &s.get(
            "/v1/company/search?crunchbase=https://example.com/organization/x",
            k,
        ),
        400,
        "INVALID_CRUNCHBASE_URL",
    );
    error(&s.get("/v1/person/search?id=123", k), 400, "INVALID_ID");
    error(
        &s.get("/v1/person/search?twitter=%40", k),
        400,
        "INVALID_ID",
    );
    invalid(
        &s.get("/v1/person/search?name=", k),
        "name",
        "EMPTY_SEARCH_TERM",
    );
    invalid(
        &s.get("/v1/person/search?name=x&person_type=robot", k),
        "person_type",
        "INVALID_ENUM_VALUE",
    );
    invalid(
        &s.get("/v1/company/search?nmae=stripe", k),
        "nmae",
        "UNKNOWN_PARAMETER",
    );
}

#[test]
fn details_match_their_goldens() {
    let s = server("details");
    let key = s.key("details", Plan::Enterprise);
    let deal = fixture_id("deal", "lumina-health:4");
    let cases = [
        (
            "company_by_domain",
            "/v1/company?domain=luminahealth.com".to_string(),
        ),
        (
            "company_by_id",
            format!("/v1/company?id={}", fixture_id("company", "helix-bio")),
        ),
        (
            "investor_by_id",
            format!(
                "/v1/investor?id={}",
                fixture_id("firm", "northwind-capital")
            ),
        ),
        (
            "person_by_linkedin",
            "/v1/person?linkedin=https://www.linkedin.com/in/lena-huber/".to_string(),
        ),
        (
            "person_angel_by_twitter",
            "/v1/person?twitter=@priyaraman".to_string(),
        ),
        ("deal_by_id", format!("/v1/deals/{deal}")),
        ("deal_investors", format!("/v1/deals/{deal}/investors")),
        (
            "deal_investors_angels",
            format!("/v1/deals/{}/investors", fixture_id("deal", "nandu-labs:1")),
        ),
        (
            "company_deals_page",
            format!(
                "/v1/company/deals?id={}&page=1&page_size=2",
                fixture_id("company", "helix-bio")
            ),
        ),
        (
            "investor_deals_shared_domain",
            "/v1/investor/deals?domain=harborpoint.vc&page_size=3".to_string(),
        ),
        (
            "person_deals",
            format!(
                "/v1/person/deals?id={}&page_size=50",
                fixture_id("person", "elena-petrova")
            ),
        ),
    ];
    for (name, path) in &cases {
        let r = s.get(path, Some(&key));
        assert_golden(name, &without_balances(ok(&r).clone()));
    }
}

#[test]
fn detail_errors() {
    let s = server("detail-errors");
    let key = Some(s.key("errs", Plan::Enterprise));
    let k = key.as_deref();
    let r = s.get("/v1/company", k);
    error(&r, 400, "MISSING_IDENTIFIER");
    assert_eq!(r.body["error"]["message"], "Company identifier is required");
    assert!(r.body["error"]["details"]["examples"]["byDomain"].is_string());
    error(
        &s.get("/v1/company?id=00000000-0000-0000-0000-000000000000", k),
        404,
        "COMPANY_NOT_FOUND",
    );
    invalid(
        &s.get("/v1/company?id=x&domain=a.com", k),
        "id",
        "MULTIPLE_IDENTIFIERS",
    );
    invalid(&s.get("/v1/company?id=not-a-uuid", k), "id", "INVALID_ID");
    invalid(
        &s.get("/v1/company?id=x&bogus=1", k),
        "bogus",
        "UNKNOWN_PARAMETER",
    );
    invalid(&s.get("/v1/investor", k), "id", "MISSING_IDENTIFIER");
    error(
        &s.get("/v1/investor?domain=nonexistent.com", k),
        404,
        "INVESTOR_NOT_FOUND",
    );
    error(&s.get("/v1/person", k), 400, "MISSING_IDENTIFIER");
    error(&s.get("/v1/person?id=bad", k), 400, "INVALID_IDENTIFIER");
    error(
        &s.get("/v1/person?id=bad&twitter=x", k),
        400,
        "INVALID_IDENTIFIER",
    );
    let nf = s.get("/v1/person?linkedin=nobody-here", k);
    error(&nf, 404, "PERSON_NOT_FOUND");
    assert_eq!(nf.body["error"]["message"], "Person not found");
    let bad = s.get("/v1/deals/not-a-uuid", k);
    error(&bad, 400, "INVALID_DEAL_ID");
    assert_eq!(bad.body["statusCode"], 400);
    let params = s.get(
        &format!(
            "/v1/deals/{}?page=1&sort_by=x",
            fixture_id("deal", "helix-bio:1")
        ),
        k,
    );
    error(&params, 400, "INVALID_PARAMETERS");
    assert_eq!(
        params.body["error"]["details"]["providedParameters"],
        json!(["page", "sort_by"])
    );
    let missing = s.get("/v1/deals/00000000-0000-0000-0000-000000000000", k);
    error(&missing, 404, "DEAL_NOT_FOUND");
    assert_eq!(missing.body["statusCode"], 404);
    invalid(&s.get("/v1/deals/xyz/investors", k), "id", "INVALID_UUID");
    invalid(
        &s.get("/v1/deals/xyz/investors?page=1", k),
        "page",
        "UNKNOWN_PARAMETER",
    );
    error(
        &s.get(
            "/v1/deals/00000000-0000-0000-0000-000000000000/investors",
            k,
        ),
        404,
        "DEAL_NOT_FOUND",
    );
    error(&s.get("/v1/company/deals", k), 400, "MISSING_IDENTIFIER");
    let nf = s.get("/v1/company/deals?domain=nonexistent.com", k);
    error(&nf, 404, "NOT_FOUND");
    assert_eq!(
        nf.body["error"]["details"],
        json!({"identifier_type": "domain", "identifier_value": "nonexistent.com"})
    );
    error(
        &s.get("/v1/investor/deals?domain=nonexistent.com", k),
        404,
        "NOT_FOUND",
    );
    error(
        &s.get("/v1/company/deals?domain=luminahealth.com&page=-1", k),
        400,
        "INVALID_PAGE",
    );
    error(
        &s.get("/v1/company/deals?domain=luminahealth.com&page_size=501", k),
        400,
        "INVALID_PAGE_SIZE",
    );
    error(
        &s.get("/v1/company/deals?domain=luminahealth.com&page_size=0", k),
        400,
        "INVALID_PAGE_SIZE",
    );
    error(
        &s.get("/v1/company/deals?linkedin=https://example.com/", k),
        400,
        "INVALID_LINKEDIN_URL",
    );
    error(
        &s.get("/v1/company/deals?id=nope", k),
        400,
        "INVALID_PARAMETER",
    );
    let unknown = s.get("/v1/investor/deals?domain=a.com&sort=x", k);
    error(&unknown, 400, "INVALID_PARAMETER");
    assert_eq!(
        unknown.body["error"]["details"]["unknownParameters"],
        json!(["sort"])
    );
    error(&s.get("/v1/person/deals", k), 400, "MISSING_IDENTIFIER");
    error(&s.get("/v1/person/deals?id=nope", k), 400, "INVALID_ID");
    invalid(
        &s.get("/v1/person/deals?id=x&twitter=y", k),
        "id",
        "MULTIPLE_IDENTIFIERS",
    );
    invalid(
        &s.get("/v1/person/deals?twitter=y&page_size=0", k),
        "page_size",
        "INVALID_PAGE_SIZE",
    );
    invalid(
        &s.get("/v1/person/deals?twitter=y&domain=a.com", k),
        "domain",
        "UNKNOWN_PARAMETER",
    );
    error(
        &s.get(
            "/v1/person/deals?id=00000000-0000-0000-0000-000000000000",
            k,
        ),
        404,
        "PERSON_NOT_FOUND",
    );
    error(&s.get("/v1/nope", k), 404, "NOT_FOUND");
    error(
        &s.request("DELETE", "/v1/company?id=x", k, b""),
        405,
        "METHOD_NOT_ALLOWED",
    );
    let post = s.request("POST", "/health", None, b"");
    error(&post, 405, "METHOD_NOT_ALLOWED");
    assert_eq!(post.header("allow"), Some("GET, HEAD"));
    let delete = s.request("DELETE", "/v1/company?id=x", k, b"");
    assert_eq!(delete.header("allow"), Some("GET, HEAD"));
}

#[test]
fn the_openapi_document_is_served_without_a_key() {
    let s = server("openapi");
    let root = s.get("/openapi.json", None);
    let v1 = s.get("/v1/openapi.json", None);
    assert_eq!((root.status, v1.status), (200, 200));
    assert_eq!(root.body, v1.body);
    assert!(root.body["openapi"].as_str().unwrap().starts_with("3.1"));
    assert!(root.body["paths"]["/v1/companies"]["post"]["requestBody"].is_object());
    error(
        &s.request("PUT", "/openapi.json", None, b"{}"),
        405,
        "METHOD_NOT_ALLOWED",
    );
}

#[test]
fn credits_are_metered_and_402_charges_nothing() {
    let mut allowances = Allowances::default();
    allowances.set(Plan::Trial, Some(12));
    let state = scratch("credits").join("state");
    let setup = Setup {
        allowances: allowances.clone(),
        ..Setup::default()
    };
    let s = TestServer::start(fixture_index_dir(), &state, setup);
    let key = s.key("trial-user", Plan::Trial);
    let helix = fixture_id("company", "helix-bio");

    let free = s.get("/v1/company/search?name=helix", Some(&key));
    assert_eq!(ok(&free)["meta"]["credits_used"], 0);
    assert_eq!(free.body["meta"]["monthly_credits_remaining"], 12);

    let detail = s.get(&format!("/v1/company?id={helix}"), Some(&key));
    let meta = &ok(&detail)["meta"];
    assert_eq!(
        (
            meta["page"].clone(),
            meta["page_size"].clone(),
            meta["credits_used"].clone()
        ),
        (json!(0), json!(1), json!(1))
    );
    assert_eq!(
        (
            meta["credit_source"].clone(),
            meta["monthly_credits_remaining"].clone()
        ),
        (json!("monthly"), json!(11))
    );

    let history = s.get(
        &format!("/v1/company/deals?id={helix}&page_size=5"),
        Some(&key),
    );
    let meta = &ok(&history)["meta"];
    assert_eq!(
        (
            meta["total_count"].clone(),
            meta["credits_used"].clone(),
            meta["monthly_credits_remaining"].clone()
        ),
        (json!(6), json!(5), json!(6))
    );

    let beyond = s.get(&format!("/v1/company/deals?id={helix}&page=9"), Some(&key));
    assert_eq!(
        ok(&beyond)["meta"]["credits_used"],
        0,
        "an empty page costs nothing"
    );
    ok(&s.get(&format!("/v1/company?id={helix}"), Some(&key)));

    // 5 monthly credits left; six rows cost 6: refused, nothing charged.
    let refused = s.get(
        &format!("/v1/company/deals?id={helix}&page_size=10"),
        Some(&key),
    );
    error(&refused, 402, "INSUFFICIENT_CREDITS");
    assert_eq!(refused.body["error"]["details"]["credits_needed"], 6);
    assert_eq!(
        refused.body["error"]["details"]["monthly_credits_remaining"],
        5
    );
    s.accounts.add_purchased("trial-user", 3).unwrap();
    let mixed = s.get(
        &format!("/v1/company/deals?id={helix}&page_size=6"),
        Some(&key),
    );
    let meta = &ok(&mixed)["meta"];
    assert_eq!(
        meta["credit_source"], "purchased",
        "monthly ran out during this charge"
    );
    assert_eq!(
        (
            meta["monthly_credits_remaining"].clone(),
            meta["purchased_credits_remaining"].clone()
        ),
        (json!(0), json!(2))
    );
    s.stop();

    // A restart keeps every balance.
    let s = TestServer::start(
        fixture_index_dir(),
        &state,
        Setup {
            allowances,
            ..Setup::default()
        },
    );
    let again = s.get(&format!("/v1/company?id={helix}"), Some(&key));
    let meta = &ok(&again)["meta"];
    assert_eq!(
        (
            meta["credit_source"].clone(),
            meta["purchased_credits_remaining"].clone()
        ),
        (json!("purchased"), json!(1))
    );

    let api = s.key("api-user", Plan::Api);
    let unmetered = s.get(&format!("/v1/company?id={helix}"), Some(&api));
    let meta = ok(&unmetered)["meta"].as_object().unwrap().clone();
    assert_eq!(meta.get("credits_used"), Some(&json!(1)));
    assert!(
        !meta.contains_key("credit_source") && !meta.contains_key("monthly_credits_remaining"),
        "{meta:?}"
    );
}

#[test]
fn hostile_input_gets_clean_errors() {
    let s = server("hostile");
    let key = s.key("h", Plan::Pro);
    invalid(
        &s.get("/v1/company/search?name=%zz", Some(&key)),
        "query",
        "INVALID_PARAMETER",
    );
    invalid(
        &s.get("/v1/company/search?name=%C3%28", Some(&key)),
        "query",
        "INVALID_PARAMETER",
    );
    error(
        &s.get("/v1/company/deals?domain=%zz", Some(&key)),
        400,
        "INVALID_PARAMETER",
    );
    let weird = s.get(
        "/v1/company/search?name=%F0%9F%98%80%E2%80%8B%00!!",
        Some(&key),
    );
    assert_eq!(weird.status, 200, "{}", weird.body);
    let long = "a".repeat(5000);
    assert_eq!(
        s.get(&format!("/v1/company/search?name={long}"), Some(&key))
            .status,
        200
    );
    let big = vec![b'x'; (1 << 20) + 1];
    error(
        &s.request("POST", "/v1/company/search", Some(&key), &big),
        413,
        "PAYLOAD_TOO_LARGE",
    );

    // A client that never finishes its headers is disconnected.
    let mut slow = TcpStream::connect(s.addr).unwrap();
    slow.write_all(b"GET /health HTTP/1.1\r\nHost: x\r\n")
        .unwrap();
    slow.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let mut buf = [0u8; 64];
    let started = std::time::Instant::now();
    let n = std::io::Read::read(&mut slow, &mut buf).unwrap_or(0);
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "slow client was not cut off"
    );
    let _ = n;
    // The server still answers afterwards.
    ok(&s.get("/health", None));
}

#[test]
fn person_email_unlocks_once_per_user() {
    let s = server("person-email");
    let first = s.key("ivy", Plan::Enterprise);
    let second = s.key("ivy", Plan::Enterprise);
    let path = "/v1/person/email?linkedin=https://www.linkedin.com/in/lena-huber/";
    let new = s.get(path, Some(&first));
    assert_golden("person_email_new", &without_balances(ok(&new).clone()));
    assert_eq!(new.body["meta"]["credits_used"], 5);
    assert_eq!(new.body["meta"]["monthly_credits_remaining"], 24_995);
    // The same user through another key, and by another identifier: free.
    let repeat = s.get("/v1/person/email?twitter=@lenahuber", Some(&second));
    assert_eq!(
        repeat.body["data"]["already_unlocked"], true,
        "{}",
        repeat.body
    );
    assert_eq!(repeat.body["meta"]["credits_used"], 0);
    assert_eq!(repeat.body["meta"]["monthly_credits_remaining"], 24_995);
    // Precedence: id over linkedin.
    let lena = fixture_id("person", "lena-huber");
    let both = s.get(
        &format!("/v1/person/email?linkedin=nobody&id={lena}"),
        Some(&first),
    );
    assert_eq!(ok(&both)["data"]["person_id"], lena.to_string());
    // The e-mail is in no other response.
    let detail = s.get(&format!("/v1/person?id={lena}"), Some(&first));
    assert!(!ok(&detail).to_string().contains("lena@zurichrobotics.ch"));
    let card = s.get("/v1/person/search?name=lena+huber", Some(&first));
    assert!(!ok(&card).to_string().contains("lena@"));
}

#[test]
fn person_email_errors() {
    let s = server("person-email-errors");
    let key = s.key("jo", Plan::ProPlus);
    let k = Some(key.as_str());
    let cases = [
        (
            "person_email_missing",
            "/v1/person/email",
            400,
            "MISSING_IDENTIFIER",
        ),
        (
            "person_email_bad_id",
            "/v1/person/email?id=nope",
            400,
            "INVALID_ID",
        ),
        (
            "person_email_bad_twitter",
            "/v1/person/email?twitter=%40",
            400,
            "INVALID_IDENTIFIER",
        ),
        (
            "person_email_unknown_param",
            "/v1/person/email?id=x&email=y",
            400,
            "INVALID_IDENTIFIER",
        ),
        (
            "person_email_no_person",
            "/v1/person/email?linkedin=https://linkedin.com/in/nobody-here",
            404,
            "PERSON_NOT_FOUND",
        ),
        (
            "person_email_no_email",
            "/v1/person/email?linkedin=https://linkedin.com/in/marcorossi",
            404,
            "EMAIL_NOT_FOUND",
        ),
    ];
    for (golden, path, status, code) in cases {
        let r = s.get(path, k);
        error(&r, status, code);
        assert_eq!(r.body["statusCode"], status, "{path}");
        assert_golden(golden, &r.body);
    }
    let pro = s.key("kim", Plan::Pro);
    let gated = s.get("/v1/person/email?linkedin=lena-huber", Some(&pro));
    error(&gated, 403, "UPGRADE_REQUIRED");
    assert_eq!(gated.body["error"]["details"]["current_tier"], "Pro");
    assert_golden("person_email_upgrade_required", &gated.body);
    let trial = s.key("tim", Plan::Trial);
    error(
        &s.get("/v1/person/email?linkedin=lena-huber", Some(&trial)),
        403,
        "UPGRADE_REQUIRED",
    );
    // Short of credits: refused whole, nothing unlocked.
    let poor = s.key("max", Plan::ProPlus);
    let principal = s.accounts.authenticate(&poor).unwrap();
    s.accounts
        .charge_with(&principal, 4_997, 0, chrono::Utc::now())
        .unwrap()
        .unwrap();
    let short = s.get("/v1/person/email?linkedin=lena-huber", Some(&poor));
    error(&short, 402, "INSUFFICIENT_CREDITS");
    assert_eq!(
        short.body["error"]["message"]
            .as_str()
            .unwrap()
            .split('.')
            .next(),
        Some("Not enough credits to unlock this email")
    );
    assert_eq!(short.body["error"]["details"]["credits_needed"], 5);
    s.accounts.add_purchased("max", 2).unwrap();
    let paid = s.get("/v1/person/email?linkedin=lena-huber", Some(&poor));
    assert_eq!(ok(&paid)["data"]["already_unlocked"], false);
}
