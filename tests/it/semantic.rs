//! Semantic search end to end: the models against reference values, and
//! every `search_query` of the contract over HTTP against the fixture index
//! (embedded with MiniLM): ranking, the cap, `min_relevance`, combination
//! with filters, the model-mismatch refusal and each error.

use std::sync::Arc;
use std::time::Duration;

use fundsearch::accounts::Plan;
use fundsearch::api::semantic::SemanticService;
use fundsearch::embed::{dot, CachedEmbedder, ModelKind};
use serde_json::{json, Value};

use crate::common::http::{Reply, Setup, TestServer};
use crate::common::*;

fn server_with(name: &str, semantic: fn() -> SemanticService) -> (TestServer, String) {
    let setup = Setup {
        semantic,
        ..Setup::default()
    };
    let s = TestServer::start(fixture_index_dir(), &scratch(name).join("state"), setup);
    let key = s.key("semantic", Plan::Api);
    (s, key)
}

fn server(name: &str) -> (TestServer, String) {
    server_with(name, semantic_service)
}

fn post(s: &TestServer, key: &str, path: &str, body: Value) -> Reply {
    s.request("POST", path, Some(key), body.to_string().as_bytes())
}

fn ok(r: &Reply) -> &Value {
    assert_eq!(r.status, 200, "{}", r.body);
    &r.body
}

fn permalinks(body: &Value, member: &str, key: &str) -> Vec<String> {
    body["data"][member]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r[key].as_str().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn minilm_matches_sentence_transformers() {
    let m = model(ModelKind::MiniLm);
    assert_eq!(
        (m.info().id.as_str(), m.info().dim),
        ("all-minilm-l6-v2", 384)
    );
    let v = m
        .embed(&[
            "The weather is lovely today.",
            "It's so sunny outside!",
            "He drove to the stadium.",
        ])
        .unwrap();
    // The similarity matrix printed in the sentence-transformers model card.
    for ((a, b), want) in [((0, 1), 0.6660), ((0, 2), 0.1046), ((1, 2), 0.1411)] {
        let got = dot(&v[a], &v[b]);
        assert!(
            (got - want).abs() < 1e-3,
            "cos({a},{b}) = {got}, reference {want}"
        );
    }
    for x in &v {
        assert!((dot(x, x) - 1.0).abs() < 1e-4);
    }
    // A batch gives what single texts give (padding is masked out).
    let single = m.embed(&["He drove to the stadium."]).unwrap();
    assert!((dot(&single[0], &v[2]) - 1.0).abs() < 1e-4);
}

#[test]
fn both_models_rank_the_relevant_description_first() {
    let stripe = "Stripe builds payments infrastructure for the internet: online businesses use its APIs to accept payments and manage their revenue.";
    for kind in ModelKind::ALL {
        let m = model(kind);
        let v = m
            .embed(&[
                "payments infrastructure for online businesses",
                stripe,
                "organic dog food delivery",
            ])
            .unwrap();
        let (near, far) = (dot(&v[0], &v[1]), dot(&v[0], &v[2]));
        assert!(near > 0.45 && far < 0.2, "{kind:?}: {near} vs {far}");
    }
    let wl = model(ModelKind::WordLlama);
    assert_eq!(wl.info().dim, 256);
    assert_eq!(
        wl.embed(&[""]).unwrap()[0],
        vec![0.0; 256],
        "no tokens: the zero vector"
    );
}

#[test]
fn companies_are_ranked_by_relevance_with_similarity() {
    let (s, key) = server("semantic-companies");
    let body = ok(&post(
        &s,
        &key,
        "/v1/companies",
        json!({
            "company": {"search_query": "robots that pick items in warehouses"},
            "sort_by": "oldest_founded", "page_size": 5
        }),
    ))
    .clone();
    let rows = permalinks(&body, "companies", "guru_permalink");
    assert_eq!(rows[0], "zurich-robotics", "{rows:?}");
    let sims: Vec<f64> = body["data"]["companies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["similarity"].as_f64().unwrap())
        .collect();
    assert!(
        sims.windows(2).all(|w| w[0] >= w[1]),
        "relevance order, sort_by ignored: {sims:?}"
    );
    assert!(sims.iter().all(|s| (0.0..=1.0).contains(s)));
    // Every company with text is in the set (fewer than 150), none without.
    assert_eq!(body["meta"]["total_count"], 24, "tiny-seeds-co has no text");
    let plain = ok(&post(&s, &key, "/v1/companies", json!({"page_size": 1}))).clone();
    assert_eq!(plain["data"]["companies"][0]["similarity"], Value::Null);
}

#[test]
fn min_relevance_and_filters_compose() {
    let (s, key) = server("semantic-filters");
    let query = "hospital and patient health technology";
    let all = ok(&post(
        &s,
        &key,
        "/v1/companies",
        json!({
            "company": {"search_query": query}, "page_size": 50
        }),
    ))
    .clone();
    let strict = ok(&post(
        &s,
        &key,
        "/v1/companies",
        json!({
            "company": {"search_query": query, "min_relevance": 0.3}, "page_size": 50
        }),
    ))
    .clone();
    let n = strict["meta"]["total_count"].as_u64().unwrap();
    assert!(n > 0 && n < 24, "min_relevance drops weak matches: {n}");
    let sims = |b: &Value| -> Vec<f64> {
        b["data"]["companies"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["similarity"].as_f64().unwrap())
            .collect()
    };
    assert!(sims(&strict).iter().all(|&x| x >= 0.3 - 1e-4));
    assert_eq!(
        sims(&strict),
        sims(&all)
            .into_iter()
            .filter(|&x| x >= 0.3 - 1e-4)
            .collect::<Vec<_>>(),
        "the cut keeps the order and scores of the unfiltered ranking"
    );
    let in_ny = ok(&post(
        &s,
        &key,
        "/v1/companies",
        json!({
            "company": {"search_query": query, "locations": ["new-york"]}, "page_size": 50
        }),
    ))
    .clone();
    let ny = permalinks(&in_ny, "companies", "guru_permalink");
    let expected: Vec<String> = permalinks(&all, "companies", "guru_permalink")
        .into_iter()
        .filter(|p| {
            [
                "lumina-health-systems",
                "kairos-insurance",
                "synapse-health",
                "crowdly",
                "atlas-insurance-group",
            ]
            .contains(&p.as_str())
        })
        .collect();
    assert_eq!(
        ny, expected,
        "a filter keeps the relevance order of what it leaves"
    );
    // Paging walks the same order.
    let page1 = ok(&post(
        &s,
        &key,
        "/v1/companies",
        json!({
            "company": {"search_query": query}, "page": 1, "page_size": 10
        }),
    ))
    .clone();
    assert_eq!(
        permalinks(&page1, "companies", "guru_permalink"),
        permalinks(&all, "companies", "guru_permalink")[10..20].to_vec()
    );
    assert_eq!(page1["meta"]["credits_used"], 10);
}

#[test]
fn investors_are_ranked_by_their_portfolio() {
    let (s, key) = server("semantic-investors");
    let body = ok(&post(
        &s,
        &key,
        "/v1/investors",
        json!({
            "company_investments": {"search_query": "robotics and computer vision for factories"},
            "sort_by": "total_deals", "page_size": 20
        }),
    ))
    .clone();
    let firms = body["data"]["investors"].as_array().unwrap();
    assert!(!firms.is_empty());
    assert!(firms
        .iter()
        .all(|f| f["filtered_deal_count"].as_u64().unwrap() >= 1));
    // Without the query the same request counts more deals in total.
    let plain = ok(&post(
        &s,
        &key,
        "/v1/investors",
        json!({
            "company_investments": {"min_matching_deals": 1}, "page_size": 20
        }),
    ))
    .clone();
    assert!(plain["meta"]["total_count"].as_u64() >= body["meta"]["total_count"].as_u64());
    let narrowed = ok(&post(&s, &key, "/v1/investors", json!({
        "company_investments": {"search_query": "robotics and computer vision for factories", "min_relevance": 0.99},
        "page_size": 20
    })))
    .clone();
    assert_eq!(
        narrowed["meta"]["total_count"], 0,
        "nothing is that relevant: {narrowed}"
    );
}

#[test]
fn people_take_both_semantic_blocks() {
    let (s, key) = server("semantic-people");
    let employer = ok(&post(&s, &key, "/v1/people", json!({
        "company": {"search_query": "voice agents answering customer support calls"}, "page_size": 5
    })))
    .clone();
    let first = &employer["data"]["people"][0];
    assert!(first.is_object(), "{employer}");
    let investors = ok(&post(
        &s,
        &key,
        "/v1/people",
        json!({
            "investor": {"deals": {"search_query": "banking for small businesses"}}, "page_size": 50
        }),
    ))
    .clone();
    let n = investors["meta"]["total_count"].as_u64().unwrap();
    assert!(n > 0);
    let both = ok(&post(
        &s,
        &key,
        "/v1/people",
        json!({
            "company": {"search_query": "venture capital"},
            "investor": {"deals": {"search_query": "banking for small businesses"}}, "page_size": 50
        }),
    ))
    .clone();
    assert!(both["meta"]["total_count"].as_u64().unwrap() <= n);
}

#[test]
fn errors_of_the_semantic_blocks() {
    let (s, key) = server("semantic-errors");
    let blank = post(
        &s,
        &key,
        "/v1/companies",
        json!({"company": {"search_query": "  "}}),
    );
    assert_eq!(blank.status, 400, "{}", blank.body);
    let range = post(
        &s,
        &key,
        "/v1/companies",
        json!({"company": {"search_query": "x", "min_relevance": 1.5}}),
    );
    assert_eq!(range.status, 400, "{}", range.body);
    let deals = post(
        &s,
        &key,
        "/v1/deals",
        json!({"company": {"search_query": "robots"}}),
    );
    assert_eq!(
        deals.status, 422,
        "/deals has no semantic search: {}",
        deals.body
    );
}

fn wordllama_service() -> SemanticService {
    let cached = CachedEmbedder::new(ModelKind::WordLlama.load(models_dir()).unwrap(), 4);
    SemanticService::new(Arc::new(cached), Duration::from_secs(5))
}

fn no_model() -> SemanticService {
    SemanticService::none("the server has no semantic model (test)")
}

fn no_time() -> SemanticService {
    SemanticService::new(query_embedder(), Duration::ZERO)
}

#[test]
fn a_server_with_another_model_refuses() {
    let (s, key) = server_with("semantic-mismatch", wordllama_service);
    let r = post(
        &s,
        &key,
        "/v1/companies",
        json!({"company": {"search_query": "robots"}}),
    );
    assert_eq!(
        (r.status, r.code()),
        (501, "SEMANTIC_SEARCH_UNAVAILABLE"),
        "{}",
        r.body
    );
    let d = &r.body["error"]["details"];
    assert_eq!(
        (d["index_model"].as_str(), d["server_model"].as_str()),
        (Some("all-minilm-l6-v2"), Some("wordllama-l2-256"))
    );
    let plain = post(&s, &key, "/v1/companies", json!({"page_size": 1}));
    assert_eq!(plain.status, 200, "everything else is served");
}

#[test]
fn a_server_without_a_model_refuses() {
    let (s, key) = server_with("semantic-none", no_model);
    let r = post(
        &s,
        &key,
        "/v1/people",
        json!({"investor": {"deals": {"search_query": "gtm tooling", "min_relevance": 0.6}}}),
    );
    assert_eq!(
        (r.status, r.code()),
        (501, "SEMANTIC_SEARCH_UNAVAILABLE"),
        "{}",
        r.body
    );
    assert_eq!(r.body["error"]["details"]["failed_block"], "investor.deals");
}

#[test]
fn a_search_out_of_time_answers_504() {
    let (s, key) = server_with("semantic-timeout", no_time);
    let r = post(
        &s,
        &key,
        "/v1/investors",
        json!({"company_investments": {"search_query": "robots"}}),
    );
    assert_eq!((r.status, r.code()), (504, "TIMEOUT"), "{}", r.body);
    assert_eq!(
        r.body["error"]["details"]["failed_block"],
        "company_investments"
    );
}

#[test]
fn the_monthly_semantic_ceiling_answers_429() {
    let mut setup = Setup::default();
    setup.allowances.set_semantic(Plan::Pro, Some(3));
    let s = TestServer::start(
        fixture_index_dir(),
        &scratch("semantic-ceiling").join("state"),
        setup,
    );
    let key = s.key("ceiling", Plan::Pro);
    let people = json!({
        "company": {"search_query": "robots"},
        "investor": {"deals": {"search_query": "banking"}}, "page_size": 1
    });
    assert_eq!(
        post(&s, &key, "/v1/people", people.clone()).status,
        200,
        "two searches: 2 of 3"
    );
    let one = json!({"company": {"search_query": "payments for merchants"}, "page_size": 1});
    assert_eq!(
        post(&s, &key, "/v1/companies", one.clone()).status,
        200,
        "3 of 3"
    );
    let r = post(&s, &key, "/v1/companies", one);
    assert_eq!(
        (r.status, r.code()),
        (429, "USAGE_LIMIT_EXCEEDED"),
        "{}",
        r.body
    );
    assert_eq!(r.body["error"]["message"], "Search limit exceeded");
    let d = &r.body["error"]["details"];
    assert_eq!(
        (
            d["failed_block"].as_str(),
            d["currentUsage"].as_u64(),
            d["limit"].as_u64()
        ),
        (Some("company"), Some(3), Some(3))
    );
    assert!(r.header("retry-after").is_none());
    assert_eq!(
        r.body["error"]["details"]["help"]
            .as_str()
            .map(|h| h.contains("calendar month")),
        Some(true)
    );
    let plain = post(&s, &key, "/v1/companies", json!({"page_size": 1}));
    assert_eq!(plain.status, 200, "searches without search_query go on");
    let r = post(&s, &key, "/v1/people", people);
    assert_eq!(
        (
            r.status,
            r.body["error"]["details"]["failed_block"].as_str()
        ),
        (429, Some("company"))
    );
}
