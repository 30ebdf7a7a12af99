//! The command-line contracts that deployment and benchmark scripts rely
//! on: exact forms, exit status, one-line failure reasons, the key printed
//! by `server keys create`, a clean exit on SIGTERM, and the indexer's
//! progress as plain lines when stderr is not a terminal (silent with
//! `--quiet`).

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::http;
use crate::common::*;

const INDEXER: &str = env!("CARGO_BIN_EXE_indexer");
const SERVER: &str = env!("CARGO_BIN_EXE_server");

fn run(bin: &str, args: &[&str]) -> (bool, String, String) {
    let out = Command::new(bin).args(args).output().expect("binary runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn indexer_build_verify_inspect_and_failures() {
    let dir = scratch("cli-indexer");
    let (index, dump) = (dir.join("index"), repo().join("fixtures/dump"));
    let (ok, out, err) = build_fixture(&index, &["--quiet"]);
    assert!(ok && out.contains("built"), "{out}");
    assert_eq!(err, "", "--quiet prints no progress");
    let (ok, out, _) = run(INDEXER, &["verify", index.to_str().unwrap()]);
    assert!(ok && out.starts_with("ok:"), "{out}");
    let (ok, out, _) = run(INDEXER, &["inspect", index.to_str().unwrap()]);
    assert!(ok && out.contains("25 companies"), "{out}");

    for args in [
        vec!["verify", dir.to_str().unwrap()],
        vec![
            "build",
            "--dump",
            "/nonexistent/dump",
            "--out",
            dir.join("x").to_str().unwrap(),
        ],
        vec![
            "build",
            "--dump",
            dump.to_str().unwrap(),
            "--out",
            dir.join("y").to_str().unwrap(),
            "--as-of",
            "2026-13-01",
        ],
    ] {
        let (ok, _, err) = run(INDEXER, &args);
        assert!(!ok, "{args:?} must fail");
        assert_eq!(
            err.trim().lines().count(),
            1,
            "one-line reason for {args:?}: {err}"
        );
    }
    std::fs::remove_dir_all(dir).unwrap();
}

/// Every line of `err` is plain text (no escape code, no carriage return).
/// `indexer build` of the fixture dump into `index` (as of 2026-11-01)
/// with `extra` flags.
fn build_fixture(index: &std::path::Path, extra: &[&str]) -> (bool, String, String) {
    let dump = repo().join("fixtures/dump");
    let mut args = vec!["build", "--dump", dump.to_str().unwrap()];
    args.extend_from_slice(&["--out", index.to_str().unwrap(), "--as-of", "2026-11-01"]);
    args.extend_from_slice(extra);
    run(INDEXER, &args)
}

fn assert_plain(err: &str) {
    assert!(
        !err.contains('\x1b') && !err.contains('\r'),
        "escape codes in {err:?}"
    );
}

#[test]
fn indexer_build_reports_progress_as_plain_lines_when_stderr_is_piped() {
    let dir = scratch("cli-progress");
    let index = dir.join("index");
    let (ok, out, err) = build_fixture(&index, &["--semantic-model", "none"]);
    assert!(ok && out.contains("built"), "{out}{err}");
    assert!(!out.contains("done,"), "progress stays off stdout: {out}");
    assert_plain(&err);
    for finished in [
        "  read companies.jsonl: done, ",
        "  derive aggregates: done, 121 rows in ",
        "  companies.idx: done, 25 docs in ",
        "  deals.idx: done, 56 docs in ",
        "  text/people: done, 32 names in ",
        "  person stores: done, 32 records in ",
        "  deal and company stores: done, 81 records in ",
        "[1/4] read dump: ",
        "[4/4] manifest: ",
    ] {
        assert!(
            err.lines().any(|l| l.starts_with(finished)),
            "no line starting {finished:?} in:\n{err}"
        );
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn indexer_generate_reports_each_pass_with_its_known_total() {
    let dir = scratch("cli-generate-progress");
    let out_dir = dir.join("dump");
    let args = [
        "generate",
        "--companies",
        "60",
        "--out",
        out_dir.to_str().unwrap(),
    ];
    let (ok, _, err) = run(INDEXER, &args);
    assert!(ok, "{err}");
    assert_plain(&err);
    for finished in [
        "  company permalinks: done, 60 names in ",
        "  companies: done, 60 companies in ",
        "  investors: done, 5 firms in ",
        "  people of companies: done, 60 companies in ",
        "  deals of companies: done, 60 companies in ",
    ] {
        assert!(
            err.lines().any(|l| l.starts_with(finished)),
            "no line starting {finished:?} in:\n{err}"
        );
    }
    let (ok, _, err) = run(INDEXER, &[&args[..], &["--quiet"]].concat());
    assert!(ok && err.is_empty(), "--quiet: {err}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn indexer_generate_is_deterministic() {
    let dir = scratch("cli-generate");
    for out in ["a", "b"] {
        let (ok, _, err) = run(
            INDEXER,
            &[
                "generate",
                "--companies",
                "60",
                "--seed",
                "3",
                "--out",
                dir.join(out).to_str().unwrap(),
            ],
        );
        assert!(ok, "{err}");
    }
    for file in [
        "companies.jsonl",
        "deals.jsonl",
        "people.jsonl",
        "investors.jsonl",
        "dump.json",
    ] {
        assert_eq!(
            std::fs::read(dir.join("a").join(file)).unwrap(),
            std::fs::read(dir.join("b").join(file)).unwrap(),
            "{file}"
        );
    }
    std::fs::remove_dir_all(dir).unwrap();
}

/// `generate --compress` writes `*.jsonl.zst` holding the plain bytes, and
/// `build` reads that dump.
#[test]
fn indexer_builds_a_compressed_dump() {
    let dir = scratch("cli-compressed");
    let (plain, zst) = (dir.join("plain"), dir.join("zst"));
    for (out, extra) in [(&plain, None), (&zst, Some("--compress"))] {
        let mut args = vec!["generate", "--companies", "60", "--seed", "3"];
        args.extend(["--out", out.to_str().unwrap()].into_iter().chain(extra));
        let (ok, _, err) = run(INDEXER, &args);
        assert!(ok, "{err}");
    }
    for file in ["companies.jsonl", "deals.jsonl", "people.jsonl"] {
        let packed = std::fs::read(zst.join(format!("{file}.zst"))).unwrap();
        let unpacked = zstd::decode_all(&packed[..]).unwrap();
        assert!(
            unpacked == std::fs::read(plain.join(file)).unwrap(),
            "{file}"
        );
        assert!(!zst.join(file).exists(), "{file} is written in one form");
    }
    let index = dir.join("index");
    let mut args = vec!["build", "--dump", zst.to_str().unwrap()];
    args.extend(["--out", index.to_str().unwrap(), "--semantic-model", "none"]);
    let (ok, out, err) = run(INDEXER, &args);
    assert!(ok && out.contains("built"), "{out}{err}");
    assert!(err.contains("  read deals.jsonl: done, "), "{err}");
    std::fs::remove_dir_all(dir).unwrap();
}

/// Starts the server binary on the fixture index and `state` with `extra`
/// flags; returns it, its stderr (read up to the ready event) and its address.
fn start_server(
    state: &std::path::Path,
    extra: &[&str],
) -> (
    std::process::Child,
    BufReader<std::process::ChildStderr>,
    String,
) {
    let index = fixture_index_dir();
    let mut args = vec![
        "--index",
        index.to_str().unwrap(),
        "--listen",
        "127.0.0.1:0",
    ];
    args.extend_from_slice(&["--state", state.to_str().unwrap()]);
    args.extend_from_slice(extra);
    let mut child = Command::new(SERVER)
        .args(&args)
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    while !line.contains("ready on http://") {
        line.clear();
        assert!(
            stderr.read_line(&mut line).unwrap() > 0,
            "the server exited before it was ready"
        );
    }
    let addr: String = line
        .split("http://")
        .nth(1)
        .unwrap_or_else(|| panic!("{line}"))
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.' || *c == ':')
        .collect();
    (child, stderr, addr)
}

/// `server keys create` for user `ops` on the pro plan; the key printed.
fn create_key(state: &std::path::Path) -> String {
    let state = state.to_str().unwrap();
    let args = [
        "keys", "create", "--state", state, "--user", "ops", "--plan", "pro",
    ];
    let (ok, key, err) = run(SERVER, &args);
    assert!(ok, "{err}");
    key.trim().to_string()
}

/// Sends SIGTERM and waits (at most 15 s) for a clean exit.
fn stop_server(child: &mut std::process::Child) {
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let started = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(
            started.elapsed() < Duration::from_secs(15),
            "server did not stop on SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "{status}");
}

#[test]
fn server_logs_json_events_in_request_spans_and_serves_metrics() {
    let state = scratch("cli-server-json").join("state");
    let key = create_key(&state);
    let (mut child, mut stderr, addr) =
        start_server(&state, &["--log-format", "json", "--metrics", "true"]);
    let server = http::Client(addr.parse().unwrap());
    let raw = format!("GET /v1/company/search?name=helix HTTP/1.1\r\nHost: t\r\nConnection: close\r\nX-Request-Id: trace-42\r\nAuthorization: Bearer {key}\r\n\r\n");
    let r = server.send_raw(raw.as_bytes());
    assert_eq!(
        (r.status, r.header("x-request-id")),
        (200, Some("trace-42")),
        "{}",
        r.body
    );
    let id = r.body["data"]["companies"][0]["id"]
        .as_str()
        .unwrap_or_else(|| panic!("{}", r.body));
    let detail = server.get(&format!("/v1/company?id={id}"), Some(&key));
    assert_eq!(detail.status, 200, "{}", detail.body);
    let unauthorised = server.get("/v1/company/search?name=helix", None);
    assert_eq!(unauthorised.status, 401);
    let metrics = server.get("/metrics", None);
    assert_eq!(metrics.status, 200);
    assert!(metrics
        .header("content-type")
        .unwrap()
        .starts_with("application/openmetrics-text"));
    assert!(
        metrics.text.contains(
            r#"fundsearch_http_requests_total{route="/v1/company/search",status="200"} 1"#
        ),
        "{}",
        metrics.text
    );
    assert!(metrics
        .text
        .contains(r#"fundsearch_http_requests_total{route="/v1/company/search",status="401"} 1"#));
    assert!(metrics
        .text
        .contains(r#"fundsearch_credits_charged_total{route="/v1/company"} 1"#));
    assert!(metrics
        .text
        .contains(r#"fundsearch_index_documents{kind="companies"}"#));
    stop_server(&mut child);
    let mut rest = String::new();
    let _ = std::io::Read::read_to_string(&mut stderr, &mut rest);
    let events: Vec<serde_json::Value> = rest
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    let access: Vec<&serde_json::Value> =
        events.iter().filter(|e| e["target"] == "access").collect();
    let traced = access
        .iter()
        .find(|e| e["span"]["id"] == "trace-42")
        .expect("the access event of trace-42");
    assert_eq!(
        (
            traced["level"].as_str(),
            traced["fields"]["status"].as_u64()
        ),
        (Some("INFO"), Some(200))
    );
    assert_eq!(traced["span"]["path"], "/v1/company/search");
    assert_eq!(traced["fields"]["credits"], 0);
    let charged = access.iter().find(|e| e["span"]["path"] == "/v1/company");
    assert_eq!(
        charged.expect("the detail's access event")["fields"]["credits"],
        1
    );
    let refused = access
        .iter()
        .find(|e| e["fields"]["status"] == 401)
        .expect("the 401's access event");
    assert_eq!(refused["fields"]["code"], "AUTH_ERROR", "{refused}");
    assert!(events
        .iter()
        .any(|e| e["fields"]["message"] == "shutting down" && e["fields"]["signal"] == "SIGTERM"));
}

#[test]
fn server_keys_create_then_serve_then_sigterm() {
    let state = scratch("cli-server").join("state");
    let key = create_key(&state);
    assert!(key.starts_with("vg_") && key.len() == 48, "{key}");

    let (mut child, mut stderr, addr) = start_server(&state, &["--access-log", "false"]);
    let server = http::Client(addr.parse().unwrap());
    let r = server.get("/v1/company/search?name=helix", Some(&key));
    assert_eq!(r.status, 200, "{}", r.body);
    keys_change_while_the_server_runs(&server, state.to_str().unwrap());
    let alert_id = alerts_change_while_the_server_runs(&server, state.to_str().unwrap());

    stop_server(&mut child);
    let mut rest = String::new();
    let _ = std::io::Read::read_to_string(&mut stderr, &mut rest);
    assert!(rest.contains("stopped"), "{rest}");
    assert!(
        rest.contains("admin command done op=add_credits user=\"ops\" credits=7"),
        "{rest}"
    );

    // Alerts saved through the running server are durable; the CLI edits them offline too.
    let alerts = |args: &[&str]| {
        let mut all = vec!["alerts"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["--state", state.to_str().unwrap(), "--user", "watcher"]);
        run(SERVER, &all)
    };
    let (ok, out, err) = alerts(&["list"]);
    assert!(ok && out.contains(&alert_id), "{out} {err}");
    let (ok, out, err) = alerts(&["delete", "--id", &alert_id]);
    assert!(ok && out.contains("deleted alert"), "{out} {err}");
    let (ok, out, _) = alerts(&["list"]);
    assert!(ok && out.trim() == "[]", "{out}");

    // What the running server applied is durable: 7 + 1 purchased credits.
    let (ok, out, err) = run(
        SERVER,
        &[
            "keys",
            "add-credits",
            "--state",
            state.to_str().unwrap(),
            "--user",
            "ops",
            "--credits",
            "1",
        ],
    );
    assert!(ok, "{err}");
    assert!(out.contains("+ 8 purchased"), "{out}");
}

/// `server alerts …` while a server holds the state: a configuration saved
/// by the CLI is served at once; a bad one is refused with its problems.
fn alerts_change_while_the_server_runs(server: &http::Client, state: &str) -> String {
    let cli = |args: &[&str]| {
        let mut all = args.to_vec();
        all.extend_from_slice(&["--state", state]);
        run(SERVER, &all)
    };
    let (ok, key, err) = cli(&["keys", "create", "--user", "watcher", "--plan", "pro_plus"]);
    assert!(ok, "{err}");
    let config = r#"{"configuration_name":"Seed","filters":{"financing_types":["Seed"]}}"#;
    let (ok, out, err) = cli(&["alerts", "create", "--user", "watcher", "--config", config]);
    assert!(ok, "{err}");
    let saved: serde_json::Value = serde_json::from_str(&out).unwrap();
    let id = saved["id"].as_str().unwrap().to_string();
    let listed = server.get("/v1/alerts/configurations", Some(key.trim()));
    assert_eq!(
        listed.body["data"]["configurations"][0]["configuration_id"],
        id.as_str(),
        "{}",
        listed.body
    );
    let (ok, _, err) = cli(&[
        "alerts",
        "create",
        "--user",
        "watcher",
        "--config",
        r#"{"filters":{"financing_types":["Series Z"]}}"#,
    ]);
    assert!(
        !ok && err.contains("configuration_name") && err.contains("Series Z"),
        "{err}"
    );
    id
}

/// `server keys …` on a state directory a server holds goes through the
/// server's admin socket: the new key works at once, a deactivated one is
/// refused at once, and refusals come back as one-line reasons.
fn keys_change_while_the_server_runs(server: &http::Client, state: &str) {
    let keys = |args: &[&str]| {
        let mut all = vec!["keys"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["--state", state]);
        run(SERVER, &all)
    };
    let (ok, key, err) = keys(&["create", "--user", "live", "--plan", "pro"]);
    assert!(ok, "{err}");
    let key = key.trim().to_string();
    assert!(key.starts_with("vg_") && key.len() == 48, "{key}");
    assert_eq!(
        server
            .get("/v1/company/search?domain=helix.example", Some(&key))
            .status,
        200
    );

    let (ok, out, err) = keys(&["add-credits", "--user", "ops", "--credits", "7"]);
    assert!(ok, "{err}");
    assert!(
        out.starts_with("ops: ") && out.contains("+ 7 purchased"),
        "{out}"
    );
    let (ok, _, err) = keys(&["add-credits", "--user", "nobody", "--credits", "7"]);
    assert!(
        !ok && err.contains("unknown user") && err.lines().count() == 1,
        "{err}"
    );

    let key_id = &key[3..15];
    let (ok, out, err) = keys(&["deactivate", "--key-id", key_id]);
    assert!(
        ok && out.trim() == format!("deactivated {key_id}"),
        "{out}{err}"
    );
    assert_eq!(
        server
            .get("/v1/company/search?domain=helix.example", Some(&key))
            .status,
        401
    );
    let (ok, _, err) = keys(&["deactivate", "--key-id", key_id]);
    assert!(!ok && err.contains("no key with id"), "{err}");
}
