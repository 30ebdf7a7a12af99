//! Criterion benchmarks of the lookups, at three layers:
//!
//! - `name_search/{company,investor,person,location,industry}`:
//!   `NameIndex::search` (top 10) rotating through deterministic queries
//!   sampled from the stored cards: `exact` names, one-`typo` variants and
//!   60 % `prefix`es (see `support/queries.rs`);
//! - `identifier/domain`: company domain lookups, `org_identifier`
//!   (normalisation) + `resolve` (key map), and the bare key-map probe;
//! - `app/*`: `App::handle` in process (routing, auth, handler, usage
//!   charge, JSON) for every lookup route and for `GET /v1/company?id=`,
//!   `/v1/company/deals?id=`, `/v1/deals/{id}/investors`; and
//!   `app_handler_only/*`: those three charged routes without
//!   authentication and the durable (fsync'd) charge.
//!
//! The index is `FUNDSEARCH_BENCH_INDEX` or the S index generated once into
//! `target/bench-data/`. Default budget: 1 s warm-up + 3 s measurement per
//! benchmark (≈ 2 minutes in all); override with criterion's flags, e.g.
//! `cargo bench --bench lookups -- --measurement-time 10 name_search`.

mod support;

use std::hint::black_box;
use std::process;
use std::sync::Arc;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};

use fundsearch::index::Index;
use fundsearch::query::lookup::MAX_NAME_RESULTS;
use fundsearch::query::resolve::{org_identifier, resolve, IdentifierKind};
use fundsearch::schema::ids::domain_key;

use support::app::BenchApp;
use support::dataset::{describe, open_index};
use support::entity::Entity;
use support::queries::{domains, names, Variant};
use support::requests::Route;

/// Distinct queries each benchmark rotates through.
const QUERIES: usize = 500;
const SEED: u64 = 42;

fn or_exit<T>(result: Result<T, String>) -> T {
    result.unwrap_or_else(|reason| {
        eprintln!("lookups bench: {reason}");
        process::exit(1)
    })
}

fn name_search(c: &mut Criterion, index: &Index) {
    for entity in Entity::ALL {
        let mut group = c.benchmark_group(format!("name_search/{}", entity.label()));
        let searcher = entity.names(index);
        for variant in Variant::ALL {
            let queries = or_exit(names(index, entity, variant, QUERIES, SEED));
            let mut i = 0usize;
            group.bench_function(variant.label(), |b| {
                b.iter(|| {
                    i += 1;
                    black_box(searcher.search(
                        &queries[i % queries.len()].text,
                        MAX_NAME_RESULTS,
                        None,
                    ))
                })
            });
        }
        group.finish();
    }
}

fn identifier(c: &mut Criterion, index: &Index) {
    let queries = or_exit(domains(index, QUERIES, SEED));
    let keys: Vec<String> = queries.iter().filter_map(|q| domain_key(&q.text)).collect();
    let keymap = or_exit(index.companies.keymap("domain").map_err(|e| e.to_string()));
    let mut group = c.benchmark_group("identifier/domain");
    let mut i = 0usize;
    group.bench_function("normalise+resolve", |b| {
        b.iter(|| {
            i += 1;
            let q = &queries[i % queries.len()];
            black_box(
                org_identifier(IdentifierKind::Domain, &q.text)
                    .map(|id| resolve(&index.companies, &id)),
            )
        })
    });
    let mut j = 0usize;
    group.bench_function("keymap_get", |b| {
        b.iter(|| {
            j += 1;
            black_box(keymap.get(&keys[j % keys.len().max(1)]))
        })
    });
    group.finish();
}

fn app(c: &mut Criterion, index: &Arc<Index>) {
    let app = or_exit(BenchApp::new(index.clone()));
    let mut group = c.benchmark_group("app");
    for route in Route::ALL {
        let gets = or_exit(route.requests(index, QUERIES, SEED));
        let mut i = 0usize;
        group.bench_function(route.slug(), |b| {
            b.iter(|| {
                i += 1;
                black_box(app.get(&gets[i % gets.len()]))
            })
        });
    }
    group.finish();
    let mut group = c.benchmark_group("app_handler_only");
    for route in [Route::Company, Route::CompanyDeals, Route::DealInvestors] {
        let gets = or_exit(route.requests(index, QUERIES, SEED));
        let mut i = 0usize;
        group.bench_function(route.slug(), |b| {
            b.iter(|| {
                i += 1;
                black_box(app.handler_only(&gets[i % gets.len()]))
            })
        });
    }
    group.finish();
}

fn lookups(c: &mut Criterion) {
    let index = or_exit(open_index());
    eprintln!("index: {}", describe(&index));
    name_search(c, &index);
    identifier(c, &index);
    app(c, &index);
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(20)
}

criterion_group! {
    name = benches;
    config = config();
    targets = lookups
}
criterion_main!(benches);
