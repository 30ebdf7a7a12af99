//! `GET /person/email` latency, in process, one thread: `App::handle`
//! (authentication, plan gating, resolution, the unlock with its charge as
//! one fsync'd journal record, the JSON body) for new unlocks and for
//! repeats of the same people (answered from the ledger, nothing written).
//! Prints p50 / p90 / p99 / max per class, each the median of the rounds;
//! every round unlocks people not unlocked before.
//!
//! ```text
//! cargo bench --bench email -- [--people 1000] [--rounds 3]
//! ```
//! The index is `FUNDSEARCH_BENCH_INDEX` or the default S index (see
//! `support/dataset.rs`); its synthetic people have e-mails for about a third.

mod support;

use std::process::ExitCode;
use std::time::{Duration, Instant};

use fundsearch::index::Index;

use support::app::BenchApp;
use support::cli::{arg, exit_with};
use support::dataset::{describe, open_index};
use support::requests::Get;
use support::stats::{fmt_us, Summary};

/// `/person/email?id=…` for the first `n` people that have an e-mail.
fn unlock_requests(index: &Index, n: usize) -> Result<Vec<Get>, String> {
    let people = &index.people;
    let emails = people.records("email").map_err(|e| e.to_string())?;
    let mut out = Vec::with_capacity(n);
    for doc in 0..index.manifest.counts.people as u32 {
        if out.len() == n {
            break;
        }
        if emails.get(doc).map_err(|e| e.to_string())?.is_empty() {
            continue;
        }
        out.push(Get {
            path: "/v1/person/email".into(),
            query: Some(format!("id={}", people.ids.uuid(doc))),
        });
    }
    Ok(out)
}

/// Latency of each request, checking the answer.
fn timed(bench: &BenchApp, requests: &[Get], already: bool) -> Result<Summary, String> {
    let mut samples: Vec<Duration> = Vec::with_capacity(requests.len());
    for get in requests {
        let started = Instant::now();
        let response = bench.get(get);
        samples.push(started.elapsed());
        let body: serde_json::Value =
            serde_json::from_slice(&response.body).map_err(|e| e.to_string())?;
        if response.status != 200 || body["data"]["already_unlocked"] != already {
            return Err(format!("{} → {} {body}", get.line(), response.status));
        }
    }
    Summary::of(&mut samples).ok_or_else(|| "no requests".to_string())
}

fn print(label: &str, s: &Summary) {
    println!(
        "{label:<28} n={:<6} p50 {:>9}  p90 {:>9}  p99 {:>9}  max {:>9}",
        s.n,
        fmt_us(s.p50),
        fmt_us(s.p90),
        fmt_us(s.p99),
        fmt_us(s.max)
    );
}

fn run() -> Result<(), String> {
    let (per_round, rounds) = (arg("--people", 1_000), arg("--rounds", 3));
    let index = open_index()?;
    println!("index: {}", describe(&index));
    let bench = BenchApp::new(index.clone())?;
    let all = unlock_requests(&index, per_round * rounds)?;
    if all.len() < per_round * rounds {
        return Err(format!("only {} people have an e-mail", all.len()));
    }
    let (mut new, mut repeat) = (Vec::new(), Vec::new());
    for round in all.chunks(per_round) {
        new.push(timed(&bench, round, false)?);
        repeat.push(timed(&bench, round, true)?);
    }
    let median = |runs: &[Summary]| Summary::median(runs).ok_or("no rounds");
    print("/person/email new unlock", &median(&new)?);
    print("/person/email repeat", &median(&repeat)?);
    Ok(())
}

fn main() -> ExitCode {
    exit_with("email", run())
}
