//! Criterion benchmarks of the collection searches: `search/<class>` for
//! each query class of the performance guide §4.3 (C1 `/companies`, C2
//! `/deals`, C3 `/investors`, C4 `/people` investor mode, C5 `/people`
//! company mode) and the selective Q3 shape, each rotating through a fixed
//! set of deterministic requests (`support/searches.rs`). One iteration is
//! the engine call (exact count + page) plus the hydration of the page (the
//! stored `full` records joined into one buffer, as the server does).
//!
//! The index is `FUNDSEARCH_BENCH_INDEX` or the S index generated once into
//! `target/bench-data/`. Default budget: 1 s warm-up + 3 s measurement per
//! benchmark; e.g. `cargo bench --bench searches -- search/c1`.

mod support;

use std::hint::black_box;
use std::process;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};

use support::dataset::{describe, open_index};
use support::searches::{hydrate, requests, Class};

/// Distinct requests each benchmark rotates through.
const REQUESTS: usize = 64;
const SEED: u64 = 42;

fn or_exit<T>(result: Result<T, String>) -> T {
    result.unwrap_or_else(|reason| {
        eprintln!("searches bench: {reason}");
        process::exit(1)
    })
}

fn searches(c: &mut Criterion) {
    let index = or_exit(open_index());
    eprintln!("index: {}", describe(&index));
    let mut group = c.benchmark_group("search");
    for class in Class::ALL {
        let list = or_exit(requests(&index, class, REQUESTS, SEED));
        let mut i = 0usize;
        group.bench_function(class.slug(), |b| {
            b.iter(|| {
                i += 1;
                let request = &list[i % list.len()];
                let page = request.execute(&index);
                black_box(page.map(|p| hydrate(&index, request, &p)))
            })
        });
    }
    group.finish();
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
    targets = searches
}
criterion_main!(benches);
