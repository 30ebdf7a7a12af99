//! Index generations swapped while serving (issue 19 §1), on the real
//! binaries: two generations built by `indexer generate` + `indexer build`
//! from different seeds, a server on a symlink to one of them with
//! `--watch true`, a mixed load from several clients during ten swaps of
//! the symlink, then a swap by SIGHUP, one by `server reload`, and a
//! damaged generation that must be refused while the old one serves on.
//! Every answer must be a 200 equal to what its generation (named by
//! `X-Index-Generation`) answers alone.

use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::http::Client;
use crate::common::process::{run_ok, ServerProcess, INDEXER, SERVER};
use crate::common::scratch;

/// The mixed load: the four collection searches, each paged and sorted its default way.
const REQUESTS: [(&str, &str); 4] = [
    ("/v1/companies", r#"{"page_size": 10}"#),
    ("/v1/deals", r#"{"page_size": 7}"#),
    ("/v1/investors", r#"{"page_size": 5}"#),
    ("/v1/people", r#"{"page_size": 5}"#),
];

/// A generation: `indexer generate` (150 companies, `seed`) then `indexer build`.
fn generation(root: &Path, name: &str, seed: u64) -> PathBuf {
    let (dump, index) = (root.join(format!("{name}-dump")), root.join(name));
    let seed = seed.to_string();
    let dump_arg = dump.to_str().unwrap();
    run_ok(
        INDEXER,
        &[
            "generate",
            "--companies",
            "150",
            "--seed",
            &seed,
            "--out",
            dump_arg,
            "--quiet",
        ],
    );
    let build = [
        "build",
        "--dump",
        dump_arg,
        "--out",
        index.to_str().unwrap(),
    ];
    let options = [
        "--as-of",
        "2026-11-01",
        "--semantic-model",
        "none",
        "--quiet",
    ];
    run_ok(INDEXER, &[&build[..], &options[..]].concat());
    index
}

/// Points `link` at `target` with one atomic rename, as a deployment does.
fn point(link: &Path, target: &Path) {
    let next = link.with_extension("next");
    let _ = std::fs::remove_file(&next);
    symlink(target, &next).unwrap();
    std::fs::rename(&next, link).unwrap();
}

/// One answer: the generation that made it, its status and its `data`.
fn ask(client: Client, key: &str, (path, body): (&str, &str)) -> (u64, u16, Value) {
    let reply = client.request("POST", path, Some(key), body.as_bytes());
    let generation = reply
        .header("x-index-generation")
        .and_then(|g| g.parse().ok());
    (
        generation.unwrap_or(0),
        reply.status,
        reply.body["data"].clone(),
    )
}

fn serving(client: Client) -> u64 {
    client.get("/health", None).body["generation"]["number"]
        .as_u64()
        .unwrap_or(0)
}

/// Waits (at most 30 s) until the server reports generation `n`.
fn wait_for(client: Client, n: u64) {
    let started = Instant::now();
    while serving(client) != n {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "generation {n} never came"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// What generation `dir` answers to every request, alone.
fn answers(client: Client, key: &str, generation: u64) -> Vec<Value> {
    REQUESTS
        .iter()
        .map(|&r| {
            let (g, status, data) = ask(client, key, r);
            assert_eq!((g, status), (generation, 200), "{r:?}");
            data
        })
        .collect()
}

type Seen = Arc<Mutex<Vec<(u64, u16, usize, Value)>>>;

/// Clients asking the mixed load until `stop`; every answer is kept.
fn load(
    client: Client,
    key: &str,
    stop: &Arc<AtomicBool>,
    seen: &Seen,
) -> Vec<std::thread::JoinHandle<()>> {
    (0..4)
        .map(|t| {
            let (key, stop, seen) = (key.to_string(), stop.clone(), seen.clone());
            std::thread::spawn(move || {
                let mut i = t;
                while !stop.load(Ordering::Relaxed) {
                    let which = i % REQUESTS.len();
                    let (g, status, data) = ask(client, &key, REQUESTS[which]);
                    seen.lock().unwrap().push((g, status, which, data));
                    i += 1;
                }
            })
        })
        .collect()
}

#[test]
fn ten_swaps_under_load_lose_no_request_and_never_mix_generations() {
    let root = scratch("generations");
    let (a, b) = (generation(&root, "a", 11), generation(&root, "b", 12));
    let (link, state) = (root.join("current"), root.join("state"));
    point(&link, &a);
    let state_arg = state.to_str().unwrap();
    let key = run_ok(
        SERVER,
        &[
            "keys", "create", "--state", state_arg, "--user", "ops", "--plan", "api",
        ],
    );
    let key = key.trim().to_string();
    let server = ServerProcess::start(&[
        "--index",
        link.to_str().unwrap(),
        "--state",
        state_arg,
        "--listen",
        "127.0.0.1:0",
        "--watch",
        "true",
        "--watch-interval-ms",
        "20",
        "--rate-limit",
        "0",
        "--access-log",
        "false",
        "--metrics",
        "true",
        "--semantic-model",
        "none",
    ]);
    let client = server.client();
    let of_a = answers(client, &key, 1);
    point(&link, &b);
    wait_for(client, 2);
    let of_b = answers(client, &key, 2);
    assert!(
        of_a.iter().zip(&of_b).all(|(x, y)| x != y),
        "the generations must differ"
    );

    let (stop, seen): (Arc<AtomicBool>, Seen) = Default::default();
    let clients = load(client, &key, &stop, &seen);
    for swap in 0..10u64 {
        std::thread::sleep(Duration::from_millis(60));
        point(&link, if swap % 2 == 0 { &a } else { &b });
        wait_for(client, 3 + swap);
    }
    std::thread::sleep(Duration::from_millis(60));
    stop.store(true, Ordering::Relaxed);
    clients.into_iter().for_each(|c| c.join().unwrap());

    let seen = seen.lock().unwrap();
    let mut generations: Vec<u64> = seen.iter().map(|s| s.0).collect();
    generations.sort_unstable();
    generations.dedup();
    for (g, status, which, data) in seen.iter() {
        assert_eq!(*status, 200, "generation {g}, request {which}: {data}");
        let expected = if g % 2 == 1 { &of_a } else { &of_b };
        assert!((2..=12).contains(g), "answered by generation {g}");
        assert_eq!(data, &expected[*which], "generation {g}, request {which}");
    }
    assert!(
        seen.len() >= 100 && generations.len() >= 8,
        "{} answers over generations {generations:?}",
        seen.len()
    );
    println!(
        "{} answers, every one a 200 from exactly one of generations {generations:?}",
        seen.len()
    );
    drop(seen);
    explicit_reloads_and_refusals(&server, &key, &link, &state, &a);
    std::fs::remove_dir_all(root).unwrap();
}

/// SIGHUP and `server reload` swap too; a damaged or missing generation is
/// refused and the current one serves on; the old generations are unmapped.
fn explicit_reloads_and_refusals(
    server: &ServerProcess,
    key: &str,
    link: &Path,
    state: &Path,
    good: &Path,
) {
    let client = server.client();
    server.signal("-HUP");
    wait_for(client, 13);
    let said = run_ok(SERVER, &["reload", "--state", state.to_str().unwrap()]);
    assert!(said.starts_with("serving generation 14 from "), "{said}");
    let broken = link.with_file_name("broken");
    copy_damaged(good, &broken);
    point(link, &broken);
    let refused = Instant::now();
    while !server
        .log_lines()
        .iter()
        .any(|l| l.contains("index generation refused"))
    {
        assert!(
            refused.elapsed() < Duration::from_secs(30),
            "no refusal logged"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = std::process::Command::new(SERVER)
        .args(["reload", "--state", state.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        !out.status.success(),
        "an explicit reload of a damaged generation fails"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("refused"));
    assert_eq!(serving(client), 14, "the old generation serves on");
    assert_eq!(ask(client, key, REQUESTS[0]).1, 200);
    let metrics = client.get("/metrics", None).text;
    assert!(
        metrics.contains("fundsearch_index_generation 14"),
        "{metrics}"
    );
    assert!(
        metrics.contains(r#"fundsearch_index_reloads_total{outcome="refused"} 2"#),
        "{metrics}"
    );
    let unmapped = Instant::now();
    while count(server, "generation unmapped") < 13 {
        assert!(
            unmapped.elapsed() < Duration::from_secs(30),
            "old generations stay mapped"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn count(server: &ServerProcess, text: &str) -> usize {
    server
        .log_lines()
        .iter()
        .filter(|l| l.contains(text))
        .count()
}

/// A copy of `good` with one byte of its largest file flipped.
fn copy_damaged(good: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    let mut largest: Option<(u64, PathBuf)> = None;
    for entry in std::fs::read_dir(good).unwrap().map(Result::unwrap) {
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            run_ok(
                "cp",
                &[
                    "-r",
                    entry.path().to_str().unwrap(),
                    target.to_str().unwrap(),
                ],
            );
            continue;
        }
        let len = std::fs::copy(entry.path(), &target).unwrap();
        if largest.as_ref().is_none_or(|(l, _)| len > *l) {
            largest = Some((len, target));
        }
    }
    let path = largest.unwrap().1;
    let mut bytes = std::fs::read(&path).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0xff;
    std::fs::write(path, bytes).unwrap();
}
