//! Collection-search latency, in process, one thread: p50 / p90 / p99 /
//! max / mean per query class (performance guide §4.3: C1–C5 and the
//! selective Q3 shape) and per selectivity bucket (match fraction < 0.01 %,
//! 0.01–1 %, 1–10 %, > 10 %, §4.1), over N deterministic requests per class
//! repeated for several rounds; every figure printed is the median over the
//! rounds (the machine is shared and noisy).
//!
//! Each request is timed twice over in one pass:
//! - `engine`: the search call alone (`search_companies` & co.: plan, exact
//!   count, page selection);
//! - `+ hydration`: the same call plus the response rows of the page, i.e.
//!   each returned doc's stored `full` record joined with commas into one
//!   buffer, as the server copies them (nothing parsed). This is the figure
//!   the §4.6 goals are checked against.
//!
//! `mean total` is the mean `total_count` (selectivity); `ok` is the share
//! of requests answered without error with a page as long as `total_count`
//! and the paging promise. Requests come from `support/searches.rs`.
//!
//! ```text
//! cargo bench --bench search_latency -- [--queries 2000] [--rounds 3]
//!     [--seed 42] [--only c1,c2,c3,c4,c5,selective] [--slowest N]
//! cargo bench --bench search_latency -- --show 5 [--only c1]
//! cargo bench --bench search_latency -- --write-requests FILE [--queries 200]
//! cargo bench --bench search_latency -- --write-bodies FILE [--queries 2000]
//! ```
//! `--write-requests FILE` also writes every timed request as a JSON line
//! with our `total_count`, page (UUIDs) and per-round latencies
//! (`support/export.rs`), for `scripts/bench/peers.sh` to replay on SQL peers.
//! `--write-bodies FILE` writes the `POST /v1/companies` bodies of
//! `--queries` C1 requests, one per line, each checked to parse back into
//! its typed request, and exits (`scripts/bench/http_load.sh` `MIX=c1`).
//! `--show N` prints the first N requests of each class with their
//! `total_count` and exits (to see what is being timed); `--slowest N`
//! prints, after the tables, the N slowest requests of each class (median
//! over rounds, with hydration), for whoever profiles the engine.
//! The index is `FUNDSEARCH_BENCH_INDEX` or the default S index (see
//! `support/dataset.rs`). Pin it for stable figures: `taskset -c 1 cargo bench ...`.

mod support;

use std::hint::black_box;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use fundsearch::index::Index;

use support::bodies::companies_body;
use support::dataset::{describe, open_index};
use support::export::{write_lines, Answered};
use support::searches::{hydrate, page_is_consistent, requests, Bucket, Class, Request};
use support::stats::{fmt_us, Summary};

struct Options {
    queries: usize,
    rounds: usize,
    seed: u64,
    classes: Vec<Class>,
    show: Option<usize>,
    slowest: usize,
    write_requests: Option<String>,
    write_bodies: Option<String>,
}

fn parse_args() -> Result<Options, String> {
    let mut o = Options {
        queries: 2_000,
        rounds: 3,
        seed: 42,
        classes: Class::ALL.to_vec(),
        show: None,
        slowest: 0,
        write_requests: None,
        write_bodies: None,
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
            "--only" => o.classes = parse_classes(&value("--only")?)?,
            "--show" => o.show = Some(number(value("--show")?, "--show")?),
            "--slowest" => o.slowest = number(value("--slowest")?, "--slowest")?,
            "--write-requests" => o.write_requests = Some(value("--write-requests")?),
            "--write-bodies" => o.write_bodies = Some(value("--write-bodies")?),
            other => return Err(format!("unknown argument '{other}'")),
        }
    }
    Ok(o)
}

fn parse_classes(list: &str) -> Result<Vec<Class>, String> {
    list.split(',')
        .map(|name| {
            Class::parse(name.trim())
                .ok_or_else(|| format!("--only: unknown class '{name}' (c1..c5, selective)"))
        })
        .collect()
}

/// One answered request.
struct Timed {
    engine: Duration,
    hydrated: Duration,
    total_count: u64,
    bytes: usize,
    ok: bool,
}

/// Answers `request` (search, then hydration of its page), timing both.
fn answer(index: &Index, request: &Request) -> Timed {
    let started = Instant::now();
    let page = black_box(request.execute(index));
    let engine = started.elapsed();
    let body = page
        .as_ref()
        .ok()
        .map(|p| black_box(hydrate(index, request, p)));
    let hydrated = started.elapsed();
    match (page, body) {
        (Ok(page), Some(Ok(body))) => Timed {
            engine,
            hydrated,
            total_count: page.total_count,
            bytes: body.len(),
            ok: page_is_consistent(request, &page),
        },
        _ => Timed {
            engine,
            hydrated,
            total_count: 0,
            bytes: 0,
            ok: false,
        },
    }
}

/// The requests of one class and their latencies per round.
struct ClassRun {
    class: Class,
    docs: usize,
    requests: Vec<Request>,
    rounds: Vec<Vec<Timed>>,
}

impl ClassRun {
    fn round(&mut self, index: &Index) {
        self.rounds
            .push(self.requests.iter().map(|r| answer(index, r)).collect());
    }

    /// Bucket of each request (total counts are the same every round).
    fn buckets(&self) -> Vec<Bucket> {
        self.rounds
            .first()
            .map(|r| {
                r.iter()
                    .map(|t| Bucket::of(t.total_count, self.docs))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Per-round summaries of the requests `keep` selects, by `pick`.
    fn summaries(
        &self,
        keep: &dyn Fn(usize) -> bool,
        pick: fn(&Timed) -> Duration,
    ) -> Vec<Summary> {
        let per_round = self.rounds.iter().map(|round| {
            let mut samples: Vec<Duration> = round
                .iter()
                .enumerate()
                .filter(|&(i, _)| keep(i))
                .map(|(_, t)| pick(t))
                .collect();
            Summary::of(&mut samples)
        });
        per_round.flatten().collect()
    }
}

/// One printed row: a class, or a class × bucket.
struct Row {
    label: String,
    engine: Vec<Summary>,
    hydrated: Vec<Summary>,
    mean_total: f64,
    mean_bytes: f64,
    ok: f64,
}

fn rows_of(run: &ClassRun) -> Vec<Row> {
    let buckets = run.buckets();
    let first = run.rounds.first().map(Vec::as_slice).unwrap_or_default();
    let row = |label: String, keep: &dyn Fn(usize) -> bool| {
        let chosen: Vec<&Timed> = first
            .iter()
            .enumerate()
            .filter(|&(i, _)| keep(i))
            .map(|(_, t)| t)
            .collect();
        let n = chosen.len().max(1) as f64;
        Row {
            label,
            engine: run.summaries(keep, |t| t.engine),
            hydrated: run.summaries(keep, |t| t.hydrated),
            mean_total: chosen.iter().map(|t| t.total_count as f64).sum::<f64>() / n,
            mean_bytes: chosen.iter().map(|t| t.bytes as f64).sum::<f64>() / n,
            ok: chosen.iter().filter(|t| t.ok).count() as f64 / n,
        }
    };
    let mut rows = vec![row(format!("{} (all)", run.class.label()), &|_| true)];
    for bucket in Bucket::ALL {
        if buckets.contains(&bucket) {
            rows.push(row(format!("  {}", bucket.label()), &|i| {
                buckets[i] == bucket
            }));
        }
    }
    rows
}

fn print_table(title: &str, rows: &[&Row], hydrated: bool) {
    println!("\n{title}");
    let extra = if hydrated { "mean bytes" } else { "mean total" };
    println!(
        "{:<28} {:>6} {:>9} {:>9} {:>9} {:>9} {:>9} {:>11} {:>7}  p50 per round",
        "class / bucket", "n", "p50", "p90", "p99", "max", "mean", extra, "ok"
    );
    for row in rows {
        let runs = if hydrated { &row.hydrated } else { &row.engine };
        let Some(m) = Summary::median(runs) else {
            continue;
        };
        let per_round: Vec<String> = runs.iter().map(|s| fmt_us(s.p50)).collect();
        println!(
            "{:<28} {:>6} {:>9} {:>9} {:>9} {:>9} {:>9} {:>11.0} {:>6.1}%  {}",
            row.label,
            m.n,
            fmt_us(m.p50),
            fmt_us(m.p90),
            fmt_us(m.p99),
            fmt_us(m.max),
            fmt_us(m.mean),
            if hydrated {
                row.mean_bytes
            } else {
                row.mean_total
            },
            row.ok * 100.0,
            per_round.join(" / ")
        );
    }
}

/// The M targets per class, (p50, p99) in µs: issue 17 asks p50 ≤ 1 ms
/// and p99 ≤ 5 ms of every collection class; the selective shape keeps
/// the guide's p50 ≤ 0.3 ms (§4.6).
fn goal(class: Class) -> (f64, f64) {
    match class {
        Class::Selective => (300.0, 5_000.0),
        _ => (1_000.0, 5_000.0),
    }
}

/// The bucket (of those after the first row, which is "all") with the
/// highest p99, with that p99.
fn worst_bucket(rows: &[Row]) -> Option<(&Row, f64)> {
    rows[1..]
        .iter()
        .filter_map(|r| Summary::median(&r.hydrated).map(|s| (r, s.p99)))
        .max_by(|a, b| a.1.total_cmp(&b.1))
}

fn print_goals(runs: &[ClassRun], rows: &[Vec<Row>]) {
    println!("
targets (issue 17 at M, in process, on the `+ hydration` figures; the worst selectivity bucket against the guide's 10 ms)");
    for (run, rows) in runs.iter().zip(rows) {
        let (p50_goal, p99_goal) = goal(run.class);
        let Some(all) = rows.first().and_then(|r| Summary::median(&r.hydrated)) else {
            continue;
        };
        let mut checks = vec![
            (
                format!("p50 {} ≤ {}", fmt_us(all.p50), fmt_us(p50_goal)),
                all.p50 <= p50_goal,
            ),
            (
                format!("p99 {} ≤ {}", fmt_us(all.p99), fmt_us(p99_goal)),
                all.p99 <= p99_goal,
            ),
        ];
        if let Some((row, p99)) = worst_bucket(rows) {
            checks.push((
                format!(
                    "worst bucket ({}) p99 {} ≤ 10.00 ms",
                    row.label,
                    fmt_us(p99)
                ),
                p99 <= 10_000.0,
            ));
        }
        let text: Vec<String> = checks
            .iter()
            .map(|(t, pass)| format!("{t} {}", if *pass { "holds" } else { "MISSED" }))
            .collect();
        println!("{:<28} {}", run.class.label(), text.join("; "));
    }
}

/// The `n` slowest requests of `run` (median over rounds, with hydration).
fn print_slowest(run: &ClassRun, n: usize) {
    println!(
        "\nslowest {} (median over rounds, with hydration)",
        run.class.label()
    );
    let median = |i: usize| {
        let mut times: Vec<Duration> = run.rounds.iter().map(|r| r[i].hydrated).collect();
        times.sort_unstable();
        times[times.len() / 2]
    };
    let mut by_time: Vec<(Duration, usize)> =
        (0..run.requests.len()).map(|i| (median(i), i)).collect();
    by_time.sort_unstable_by(|a, b| b.cmp(a));
    for &(time, i) in by_time.iter().take(n) {
        let total = run.rounds[0][i].total_count;
        println!(
            "{} total_count {total}: {:?}",
            fmt_us(time.as_secs_f64() * 1e6),
            run.requests[i]
        );
    }
}

fn class_run(index: &Index, class: Class, n: usize, seed: u64) -> Result<ClassRun, String> {
    let docs = match class {
        Class::C1 => index.companies.docs,
        Class::C2 => index.deals.docs,
        Class::C3 => index.firms.docs,
        Class::C4 | Class::C5 => index.people.docs,
        // Mostly company requests; bucketed against companies.
        Class::Selective => index.companies.docs,
    };
    Ok(ClassRun {
        class,
        docs,
        requests: requests(index, class, n, seed)?,
        rounds: Vec::new(),
    })
}

/// Prints the first `n` requests of each class with their `total_count`.
fn show(index: &Index, o: &Options, n: usize) -> Result<(), String> {
    for &class in &o.classes {
        println!("\n{}", class.label());
        for request in requests(index, class, n, o.seed)? {
            let total = request
                .execute(index)
                .map(|p| p.total_count.to_string())
                .unwrap_or_else(|e| e.to_string());
            println!("total_count {total}: {request:?}");
        }
    }
    Ok(())
}

fn run(o: &Options) -> Result<(), String> {
    let index = open_index()?;
    println!("index: {}", describe(&index));
    if let Some(n) = o.show {
        return show(&index, o, n);
    }
    if let Some(path) = &o.write_bodies {
        return write_bodies(&index, o, path);
    }
    println!(
        "{} requests per class, {} rounds (figures = median over rounds), one thread, in process; warm-up: what the server derives at start, 200 other requests per class, then what they derive in the background",
        o.queries, o.rounds
    );
    fundsearch::query::exec::start_derivations(&index).map_err(|e| e.to_string())?;
    let mut runs = Vec::new();
    for &class in &o.classes {
        let mut warmup = class_run(&index, class, o.queries.min(200), o.seed + 1)?;
        warmup.round(&index);
        runs.push(class_run(&index, class, o.queries, o.seed)?);
    }
    // Structures the warm-up started deriving in the background are
    // waited for: the figures are those of a server that has run a while.
    index.wait_for_derived();
    for _ in 0..o.rounds {
        runs.iter_mut().for_each(|run| run.round(&index));
    }
    let rows: Vec<Vec<Row>> = runs.iter().map(rows_of).collect();
    let flat: Vec<&Row> = rows.iter().flatten().collect();
    print_table(
        "engine only (search call: plan, exact count, page); mean total = mean total_count",
        &flat,
        false,
    );
    print_table(
        "+ hydration (search call + the page's full records joined into one buffer)",
        &flat,
        true,
    );
    print_goals(&runs, &rows);
    if o.slowest > 0 {
        runs.iter().for_each(|run| print_slowest(run, o.slowest));
    }
    if let Some(path) = &o.write_requests {
        write_requests(&index, &runs, path)?;
    }
    Ok(())
}

/// Writes the `POST /v1/companies` bodies of `--queries` C1 requests.
fn write_bodies(index: &Index, o: &Options, path: &str) -> Result<(), String> {
    let mut text = String::new();
    for request in requests(index, Class::C1, o.queries, o.seed)? {
        let Request::Companies(q) = &request else {
            return Err("a C1 request that is not /companies".into());
        };
        text.push_str(&companies_body(q)?);
        text.push('\n');
    }
    std::fs::write(path, text).map_err(|e| format!("{path}: {e}"))?;
    println!("wrote {} C1 bodies to {path}", o.queries);
    Ok(())
}

/// Writes every timed request with our answer and its latencies per round.
fn write_requests(index: &Index, runs: &[ClassRun], path: &str) -> Result<(), String> {
    let us = |d: Duration| (d.as_secs_f64() * 1e7).round() / 10.0;
    let answered: Vec<Answered> = runs
        .iter()
        .flat_map(|run| {
            run.requests
                .iter()
                .enumerate()
                .map(|(i, request)| Answered {
                    class: run.class,
                    request,
                    engine_us: run.rounds.iter().map(|r| us(r[i].engine)).collect(),
                    hydrated_us: run.rounds.iter().map(|r| us(r[i].hydrated)).collect(),
                })
        })
        .collect();
    let file = std::fs::File::create(path).map_err(|e| format!("{path}: {e}"))?;
    let mut out = std::io::BufWriter::new(file);
    write_lines(index, &answered, &mut out)?;
    println!("\nwrote {} requests to {path}", answered.len());
    Ok(())
}

fn main() -> ExitCode {
    match parse_args().and_then(|o| run(&o)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(reason) => {
            eprintln!("search_latency: {reason}");
            ExitCode::FAILURE
        }
    }
}
