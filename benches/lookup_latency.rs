//! Lookup latency, in process, one thread: p50 / p90 / p99 / max per query
//! class over N deterministic queries, repeated for several rounds; every
//! figure printed is the median over the rounds (the machine is shared and
//! noisy). This produces the "lookup p50 ≤ 0.5 ms in-process" figures.
//!
//! Two layers are timed:
//! - `engine`: `NameIndex::search` (top 10) per kind and variant (exact
//!   name, one typo, 60 % prefix), and domain resolution
//!   (`org_identifier` + `resolve`); the `hit@10` column is the share of
//!   queries whose source document is among the hits;
//! - `api`: `App::handle` for the lookup routes and the detail routes, i.e.
//!   routing, authentication, the handler, the durable usage charge (an
//!   fsync'd journal append on charged routes) and the JSON body; `ok` is
//!   the share of 200 answers; then the charged routes once more without
//!   authentication and charge (route handler + JSON body only).
//!
//! ```text
//! cargo bench --bench lookup_latency -- [--queries 5000] [--rounds 3]
//!     [--seed 42] [--only engine|api]
//! cargo bench --bench lookup_latency -- --write-paths FILE [--paths 20000]
//!     [--mix lookups|domain]
//! ```
//! The index is `FUNDSEARCH_BENCH_INDEX` or the default S index (see
//! `support/dataset.rs`). `--write-paths` writes an HTTP request mix (one
//! `path?query` per line) for `scripts/bench/http_load.sh` and exits:
//! `lookups` is the weighted lookup mix, `domain` only domain lookups (the
//! cheapest route: the HTTP stack's ceiling).
//! Pin it for stable figures: `taskset -c 1 cargo bench ...`.

mod support;

use std::fs;
use std::hint::black_box;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use fundsearch::index::Index;
use fundsearch::query::lookup::MAX_NAME_RESULTS;
use fundsearch::query::resolve::{org_identifier, resolve, IdentifierKind};

use support::app::BenchApp;
use support::dataset::{describe, open_index};
use support::entity::Entity;
use support::queries::{domains, names, Sampled, Variant};
use support::requests::{mix_by_name, mixed, Get, Route};
use support::stats::{fmt_us, Summary};

struct Options {
    queries: usize,
    rounds: usize,
    seed: u64,
    only: Option<String>,
    write_paths: Option<PathBuf>,
    paths: usize,
    mix: String,
}

fn parse_args() -> Result<Options, String> {
    let mut o = Options {
        queries: 5_000,
        rounds: 3,
        seed: 42,
        only: None,
        write_paths: None,
        paths: 20_000,
        mix: "lookups".into(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or_else(|| format!("{name} needs a value"));
        let number = |text: String, name: &str| {
            text.parse::<usize>()
                .map_err(|_| format!("{name}: '{text}' is not a number"))
        };
        match arg.as_str() {
            "--bench" => {}
            "--queries" => o.queries = number(value("--queries")?, "--queries")?.max(1),
            "--rounds" => o.rounds = number(value("--rounds")?, "--rounds")?.max(1),
            "--seed" => o.seed = number(value("--seed")?, "--seed")? as u64,
            "--paths" => o.paths = number(value("--paths")?, "--paths")?.max(1),
            "--only" => o.only = Some(value("--only")?),
            "--mix" => o.mix = value("--mix")?,
            "--write-paths" => o.write_paths = Some(PathBuf::from(value("--write-paths")?)),
            other => return Err(format!("unknown argument '{other}'")),
        }
    }
    match o.only.as_deref() {
        None | Some("engine") | Some("api") => Ok(o),
        Some(other) => Err(format!("--only takes engine or api, not '{other}'")),
    }
}

/// A timed query class: `run(i)` answers query `i` and says whether it
/// went as expected (target found / status 200).
struct Class<'a> {
    label: String,
    n: usize,
    run: Box<dyn Fn(usize) -> bool + 'a>,
}

fn name_class<'a>(
    index: &'a Index,
    entity: Entity,
    variant: Variant,
    qs: Vec<Sampled>,
) -> Class<'a> {
    let label = format!("name {:<8} {}", entity.label(), variant.label());
    let names = entity.names(index);
    let run = move |i: usize| {
        let q = &qs[i];
        let hits = names
            .search(&q.text, MAX_NAME_RESULTS, None)
            .unwrap_or_default();
        hits.iter().any(|h| h.docid == q.target)
    };
    Class {
        label,
        n: 0,
        run: Box::new(run),
    }
}

fn domain_class(index: &Index, qs: Vec<Sampled>) -> Class<'_> {
    let run = move |i: usize| {
        let q = &qs[i];
        org_identifier(IdentifierKind::Domain, &q.text)
            .map(|id| resolve(&index.companies, &id).contains(&q.target))
            .unwrap_or(false)
    };
    Class {
        label: "domain company".into(),
        n: 0,
        run: Box::new(run),
    }
}

fn api_class(app: &BenchApp, route: Route, gets: Vec<Get>) -> Class<'_> {
    let run = move |i: usize| black_box(app.get(&gets[i])).status == 200;
    Class {
        label: route.label(),
        n: 0,
        run: Box::new(run),
    }
}

fn handler_class(app: &BenchApp, route: Route, gets: Vec<Get>) -> Class<'_> {
    let run = move |i: usize| black_box(app.handler_only(&gets[i])).is_ok();
    Class {
        label: route.label(),
        n: 0,
        run: Box::new(run),
    }
}

fn engine_classes(index: &Index, n: usize, seed: u64) -> Result<Vec<Class<'_>>, String> {
    let mut classes = Vec::new();
    for entity in Entity::ALL {
        for variant in Variant::ALL {
            let skip = matches!(
                (entity, variant),
                (Entity::Location, Variant::Typo) | (Entity::Industry, Variant::Prefix)
            );
            if !skip {
                classes.push(with_n(
                    name_class(
                        index,
                        entity,
                        variant,
                        names(index, entity, variant, n, seed)?,
                    ),
                    n,
                ));
            }
        }
    }
    classes.push(with_n(domain_class(index, domains(index, n, seed)?), n));
    Ok(classes)
}

fn api_classes<'a>(
    index: &Index,
    app: &'a BenchApp,
    n: usize,
    seed: u64,
) -> Result<Vec<Class<'a>>, String> {
    Route::ALL
        .iter()
        .map(|&r| Ok(with_n(api_class(app, r, r.requests(index, n, seed)?), n)))
        .collect()
}

/// The charged routes, handler only (no auth, no durable charge).
fn handler_classes<'a>(
    index: &Index,
    app: &'a BenchApp,
    n: usize,
    seed: u64,
) -> Result<Vec<Class<'a>>, String> {
    [Route::Company, Route::CompanyDeals, Route::DealInvestors]
        .iter()
        .map(|&r| {
            Ok(with_n(
                handler_class(app, r, r.requests(index, n, seed)?),
                n,
            ))
        })
        .collect()
}

fn with_n(mut class: Class<'_>, n: usize) -> Class<'_> {
    class.n = n;
    class
}

/// Runs every query of `class` once; returns the latencies and the share of
/// queries that went as expected.
fn run_class(class: &Class) -> (Vec<Duration>, f64) {
    let mut samples = Vec::with_capacity(class.n);
    let mut ok = 0usize;
    for i in 0..class.n {
        let started = Instant::now();
        let good = (class.run)(i);
        samples.push(started.elapsed());
        ok += usize::from(good);
    }
    (samples, ok as f64 / class.n.max(1) as f64)
}

fn measure(title: &str, warmup: &[Class], classes: &[Class], rounds: usize) {
    for class in warmup {
        run_class(class);
    }
    let mut runs: Vec<Vec<Summary>> = vec![Vec::new(); classes.len()];
    let mut ok = vec![0.0; classes.len()];
    for _ in 0..rounds {
        for (c, class) in classes.iter().enumerate() {
            let (mut samples, share) = run_class(class);
            runs[c].extend(Summary::of(&mut samples));
            ok[c] = share;
        }
    }
    println!("\n{title}");
    println!(
        "{:<36} {:>6} {:>9} {:>9} {:>9} {:>9} {:>9} {:>7}  p50 per round",
        "class", "n", "p50", "p90", "p99", "max", "mean", "ok"
    );
    for (c, class) in classes.iter().enumerate() {
        let Some(m) = Summary::median(&runs[c]) else {
            continue;
        };
        let per_round: Vec<String> = runs[c].iter().map(|s| fmt_us(s.p50)).collect();
        println!(
            "{:<36} {:>6} {:>9} {:>9} {:>9} {:>9} {:>9} {:>6.1}%  {}",
            class.label,
            m.n,
            fmt_us(m.p50),
            fmt_us(m.p90),
            fmt_us(m.p99),
            fmt_us(m.max),
            fmt_us(m.mean),
            ok[c] * 100.0,
            per_round.join(" / ")
        );
    }
}

fn write_paths(index: &Index, o: &Options, path: &PathBuf) -> Result<(), String> {
    let mix = mix_by_name(&o.mix)
        .ok_or_else(|| format!("--mix takes lookups or domain, not '{}'", o.mix))?;
    let lines: Vec<String> = mixed(index, mix, o.paths, o.seed)?
        .iter()
        .map(Get::line)
        .collect();
    let mut file = fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
    file.write_all((lines.join("\n") + "\n").as_bytes())
        .map_err(|e| format!("{}: {e}", path.display()))?;
    eprintln!("wrote {} lookup paths to {}", lines.len(), path.display());
    Ok(())
}

fn run(o: &Options) -> Result<(), String> {
    let index: Arc<Index> = open_index()?;
    if let Some(path) = &o.write_paths {
        return write_paths(&index, o, path);
    }
    println!("index: {}", describe(&index));
    println!(
        "{} queries per class, {} rounds (figures = median over rounds), one thread, in process; warm-up: 500 other queries per class",
        o.queries, o.rounds
    );
    let warm_n = o.queries.min(500);
    if o.only.as_deref() != Some("api") {
        let warmup = engine_classes(&index, warm_n, o.seed + 1)?;
        let classes = engine_classes(&index, o.queries, o.seed)?;
        measure(
            "engine (NameIndex::search top 10, domain resolve); ok = source document in the hits",
            &warmup,
            &classes,
            o.rounds,
        );
    }
    if o.only.as_deref() != Some("engine") {
        let app = BenchApp::new(index.clone())?;
        let warmup = api_classes(&index, &app, warm_n, o.seed + 1)?;
        let classes = api_classes(&index, &app, o.queries, o.seed)?;
        measure(
            "api (App::handle, api-plan key, rate limit off); ok = HTTP 200",
            &warmup,
            &classes,
            o.rounds,
        );
        let warmup = handler_classes(&index, &app, warm_n, o.seed + 1)?;
        let classes = handler_classes(&index, &app, o.queries, o.seed)?;
        measure("charged routes, handler + JSON only (no auth, no durable charge); ok = handler succeeded", &warmup, &classes, o.rounds);
    }
    Ok(())
}

fn main() -> ExitCode {
    match parse_args().and_then(|o| run(&o)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(reason) => {
            eprintln!("lookup_latency: {reason}");
            ExitCode::FAILURE
        }
    }
}
