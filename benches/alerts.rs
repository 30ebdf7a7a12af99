//! `GET /alerts` latency, in process, one thread: `App::handle` for ten
//! alerts over one year (the documented maximum of a request), each alert
//! a realistic configuration drawn from the index's own vocabulary (the
//! most common industries, super categories, places, rounds, headcounts
//! and firms of its deals). Every request runs the ten alerts on the
//! `/deals` engine and renders up to 250 deals per alert with their
//! reasoning. Prints p50 / p90 / p99 / max (median of the rounds) and what
//! the alerts matched.
//!
//! ```text
//! cargo bench --bench alerts -- [--requests 30] [--rounds 3]
//! FUNDSEARCH_BENCH_INDEX=/path/to/m-index cargo bench --bench alerts
//! ```

mod support;

use std::process::ExitCode;
use std::time::{Duration, Instant};

use fundsearch::index::Index;
use fundsearch::schema::alert::{AlertConfig, AlertFilters, Frequency};
use fundsearch::schema::{Date, Headcount};
use serde_json::Value;

use support::app::BenchApp;
use support::cli::{arg, exit_with};
use support::dataset::{describe, open_index};
use support::requests::Get;
use support::stats::{fmt_us, Summary};

/// The `n` values of deal facet `name` with the most deals, most first.
fn top(index: &Index, name: &str, n: usize) -> Result<Vec<String>, String> {
    let facet = index.deals.facet(name).map_err(|e| e.to_string())?;
    let mut counted = Vec::with_capacity(facet.len());
    for i in 0..facet.len() {
        let docs = facet.docids_at(i).map_err(|e| e.to_string())?;
        counted.push((docs.len(), facet.value(i).to_string()));
    }
    counted.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    Ok(counted.into_iter().take(n).map(|(_, v)| v).collect())
}

/// Firms with the most deals (by their deal relation).
fn busy_firms(index: &Index, n: usize) -> Result<Vec<uuid::Uuid>, String> {
    let deals = index.firms.relation("deals").map_err(|e| e.to_string())?;
    let mut counted: Vec<(usize, u32)> = (0..index.firms.docs as u32)
        .map(|d| (deals.targets(d).len(), d))
        .collect();
    counted.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    Ok(counted
        .into_iter()
        .take(n)
        .map(|(_, d)| index.firms.ids.uuid(d))
        .collect())
}

fn config(name: &str, filters: AlertFilters) -> AlertConfig {
    AlertConfig {
        id: uuid::Uuid::new_v4(),
        name: name.into(),
        description: None,
        frequency: Frequency::Weekly,
        filters,
        created_at: "2026-11-01T00:00:00.000Z".into(),
    }
}

/// Ten alerts as users write them.
fn alerts(index: &Index) -> Result<Vec<AlertConfig>, String> {
    let industries = top(index, "company_industry", 6)?;
    let supers = top(index, "company_super_category", 3)?;
    let places = top(index, "company_location", 6)?;
    let firms = busy_firms(index, 3)?;
    let labels = |l: &[&str]| l.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let companies: Vec<uuid::Uuid> = (0..20u32)
        .map(|i| index.companies.ids.uuid(i * 97))
        .collect();
    let f = AlertFilters::default;
    Ok(vec![
        config(
            "seed",
            AlertFilters {
                financing_types: labels(&["Seed", "Pre-Seed"]),
                deal_size_min: Some(5e5),
                industries: industries[..1].to_vec(),
                ..f()
            },
        ),
        config(
            "series a",
            AlertFilters {
                financing_types: labels(&["Series A"]),
                deal_size_min: Some(5e6),
                deal_size_max: Some(3e7),
                locations: places[..1].to_vec(),
                ..f()
            },
        ),
        config(
            "growth",
            AlertFilters {
                financing_types: labels(&["Series B", "Series C"]),
                super_categories: supers[..1].to_vec(),
                ..f()
            },
        ),
        config(
            "firms",
            AlertFilters {
                investors: firms,
                ..f()
            },
        ),
        config(
            "debt",
            AlertFilters {
                financing_types: labels(&["Debt Financing"]),
                ..f()
            },
        ),
        config(
            "small teams",
            AlertFilters {
                industries: industries[1..3].to_vec(),
                num_employees: vec![Headcount::H11To50, Headcount::H51To100],
                ..f()
            },
        ),
        config(
            "place",
            AlertFilters {
                locations: places[2..4].to_vec(),
                ..f()
            },
        ),
        config("watchlist", AlertFilters { companies, ..f() }),
        config(
            "a/b",
            AlertFilters {
                financing_types: labels(&["Series A", "Series B"]),
                locations: places[1..2].to_vec(),
                super_categories: supers[1..3].to_vec(),
                ..f()
            },
        ),
        config(
            "mega rounds",
            AlertFilters {
                deal_size_min: Some(5e7),
                ..f()
            },
        ),
    ])
}

/// Latency of each request; the alerts' deal counts of the last answer.
fn timed(bench: &BenchApp, get: &Get, n: usize) -> Result<(Summary, Vec<(u64, usize)>), String> {
    let mut samples: Vec<Duration> = Vec::with_capacity(n);
    let mut counts = Vec::new();
    for _ in 0..n {
        let started = Instant::now();
        let response = bench.get(get);
        samples.push(started.elapsed());
        let body: Value = serde_json::from_slice(&response.body).map_err(|e| e.to_string())?;
        if response.status != 200 {
            return Err(format!("{} → {} {body}", get.line(), response.status));
        }
        counts = body["data"]["alerts"].as_array().map_or(Vec::new(), |a| {
            a.iter()
                .map(|x| {
                    (
                        x["totalDealCount"].as_u64().unwrap_or(0),
                        x["deals"].as_array().map_or(0, Vec::len),
                    )
                })
                .collect()
        });
    }
    Ok((Summary::of(&mut samples).ok_or("no requests")?, counts))
}

fn run() -> Result<(), String> {
    let (requests, rounds) = (arg("--requests", 30), arg("--rounds", 3));
    let index = open_index()?;
    println!("index: {}", describe(&index));
    let bench = BenchApp::new(index.clone())?;
    let configs = alerts(&index)?;
    for c in &configs {
        bench
            .app
            .accounts
            .create_alert("bench", c.clone())
            .map_err(|e| e.to_string())?
            .map_err(|_| "alert limit")?;
    }
    let end = Date::parse(&index.manifest.as_of).ok_or("as-of")?;
    let start = end.one_year_before();
    let ids: Vec<String> = configs.iter().map(|c| c.id.to_string()).collect();
    let get = Get {
        path: "/v1/alerts".into(),
        query: Some(format!(
            "alert_ids={}&start_date={}T00:00:00.000Z&end_date={}T00:00:00.000Z",
            ids.join(","),
            start.iso(),
            end.iso()
        )),
    };
    let mut runs = Vec::new();
    let mut counts = Vec::new();
    for _ in 0..rounds {
        let (summary, c) = timed(&bench, &get, requests)?;
        runs.push(summary);
        counts = c;
    }
    let s = Summary::median(&runs).ok_or("no rounds")?;
    let matched: u64 = counts.iter().map(|c| c.0).sum();
    let listed: usize = counts.iter().map(|c| c.1).sum();
    println!(
        "range {} .. {}; {} alerts with deals, {matched} matching deals, {listed} listed",
        start.iso(),
        end.iso(),
        counts.len()
    );
    println!(
        "/alerts 10 alerts × 1 year   n={:<5} p50 {:>9}  p90 {:>9}  p99 {:>9}  max {:>9}",
        s.n,
        fmt_us(s.p50),
        fmt_us(s.p90),
        fmt_us(s.p99),
        fmt_us(s.max)
    );
    Ok(())
}

fn main() -> ExitCode {
    exit_with("alerts", run())
}
