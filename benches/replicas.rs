//! Accounts shared by replicas (issue 19): what a charged request costs
//! with the accounts in PostgreSQL instead of the local journal, and the
//! charged mix's throughput with one and two replicas on the database.
//!
//! `cargo bench --bench replicas` starts the tests' throwaway PostgreSQL
//! (`scripts/test-postgres.sh`), builds the fixture index into a temp
//! directory and runs the real `server` binary:
//!
//! 1. latency per charged request (`POST /v1/companies`, 5 rows), one
//!    client, one request at a time, journal vs PostgreSQL: p50 and p99;
//! 2. throughput of the charged mix (paged searches, a detail, e-mail
//!    unlocks and their repeats) from `CLIENTS` threads, each its own
//!    user, for `SECONDS` s: journal (one server), PostgreSQL with one
//!    server, PostgreSQL with two servers (clients alternate between them).
//!
//! Everything shares this machine's 2 cores (clients, servers and the
//! database), so two replicas show the database's cost under contention,
//! not the scaling of separate machines. Prints figures; asserts only that
//! every answer was a 200.

mod support;
/// Throwaway databases on the tests' PostgreSQL (the library's test support).
#[path = "../src/accounts/pg/testdb.rs"]
mod testdb;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use fundsearch::index::build::{build_index, BuildOptions, DEFAULT_BUILD_MEMORY};
use support::stats::Summary;
use testdb::fresh_database;

const SERVER: &str = env!("CARGO_BIN_EXE_server");
const CLIENTS: usize = 8;
const SECONDS: u64 = 10;
const LATENCY_REQUESTS: usize = 2_000;
const COMPANIES: (&str, &str) = ("/v1/companies", r#"{"page_size": 5}"#);

fn main() {
    let root =
        std::env::temp_dir().join(format!("fundsearch-bench-replicas-{}", std::process::id()));
    let index = fixture_index(&root);
    let (url, _db) = fresh_database("bench_replicas");
    let journal = Server::start(&index, &root.join("journal"), None);
    let pg = Server::start(&index, &root.join("pg-a"), Some(&url));
    let latency = |server: &Server| {
        let key = server.key("latency");
        let mut samples: Vec<Duration> = (0..LATENCY_REQUESTS)
            .map(|_| timed(server.addr, &key, COMPANIES))
            .collect();
        Summary::of(&mut samples).expect("samples")
    };
    let (j, p) = (latency(&journal), latency(&pg));
    println!("charged request, one at a time ({LATENCY_REQUESTS} × POST /v1/companies, 5 rows):");
    println!("  journal     p50 {:>7.0} µs  p99 {:>7.0} µs", j.p50, j.p99);
    println!("  PostgreSQL  p50 {:>7.0} µs  p99 {:>7.0} µs", p.p50, p.p99);
    println!(
        "  extra per charged request: p50 {:+.0} µs, p99 {:+.0} µs",
        p.p50 - j.p50,
        p.p99 - j.p99
    );
    let ids = Ids::of(journal.addr, &journal.key("ids"));
    println!("charged mix, {CLIENTS} clients, {SECONDS} s each:");
    let one_journal = throughput(&[&journal], &ids);
    println!("  journal, one server:          {one_journal:>7.0} req/s");
    let one_pg = throughput(&[&pg], &ids);
    println!("  PostgreSQL, one server:       {one_pg:>7.0} req/s");
    let second = Server::start(&index, &root.join("pg-b"), Some(&url));
    let two_pg = throughput(&[&pg, &second], &ids);
    println!(
        "  PostgreSQL, two servers:      {two_pg:>7.0} req/s ({:.2}× one)",
        two_pg / one_pg
    );
    drop((journal, pg, second));
    let _ = std::fs::remove_dir_all(root);
}

/// The fixture dump indexed into `root/index`.
fn fixture_index(root: &Path) -> PathBuf {
    let out = root.join("index");
    let _ = std::fs::remove_dir_all(root);
    std::fs::create_dir_all(root).expect("temp dir");
    build_index(&BuildOptions {
        dump: Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/dump"),
        out: out.clone(),
        as_of: fundsearch::schema::Date::parse("2026-11-01"),
        strict: true,
        quiet: true,
        memory: DEFAULT_BUILD_MEMORY,
        store_codec: Default::default(),
        semantic: None,
    })
    .expect("the fixture index builds");
    out
}

/// A `server` process.
struct Server {
    child: Child,
    addr: SocketAddr,
    state: PathBuf,
    accounts: Option<String>,
}

impl Server {
    fn start(index: &Path, state: &Path, accounts: Option<&str>) -> Server {
        let mut args: Vec<String> = [
            "--index",
            path(index),
            "--state",
            path(state),
            "--listen",
            "127.0.0.1:0",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        args.extend(
            [
                "--rate-limit",
                "0",
                "--access-log",
                "false",
                "--semantic-model",
                "none",
            ]
            .map(String::from),
        );
        if let Some(url) = accounts {
            args.extend(["--accounts".to_string(), url.to_string()]);
        }
        let mut child = Command::new(SERVER)
            .args(&args)
            .stderr(Stdio::piped())
            .stdout(Stdio::null())
            .spawn()
            .expect("server");
        let addr = ready_addr(&mut child);
        Server {
            child,
            addr,
            state: state.to_path_buf(),
            accounts: accounts.map(String::from),
        }
    }

    /// A fresh api-plan (unmetered) key of user `user`.
    fn key(&self, user: &str) -> String {
        let mut args = vec![
            "keys",
            "create",
            "--user",
            user,
            "--plan",
            "api",
            "--state",
            path(&self.state),
        ];
        if let Some(url) = &self.accounts {
            args.extend(["--accounts", url]);
        }
        let out = Command::new(SERVER)
            .args(&args)
            .output()
            .expect("keys create");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn path(p: &Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

/// Reads the server's stderr up to its ready line, then drains it in the background.
fn ready_addr(child: &mut Child) -> SocketAddr {
    let mut lines = BufReader::new(child.stderr.take().expect("stderr")).lines();
    let addr = loop {
        let line = lines
            .next()
            .expect("the server exited before it was ready")
            .expect("stderr");
        if let Some(rest) = line.split("ready on http://").nth(1) {
            let addr: String = rest
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == '.' || *c == ':')
                .collect();
            break addr.parse().expect("address");
        }
    };
    std::thread::spawn(move || lines.for_each(drop));
    addr
}

/// One request on its own connection; the status.
fn request(addr: SocketAddr, key: &str, method: &str, (path, body): (&str, &str)) -> u16 {
    let mut stream = TcpStream::connect(addr).expect("connect");
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: b\r\nConnection: close\r\nAuthorization: Bearer {key}\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(head.as_bytes()).expect("send");
    let mut out = Vec::new();
    stream.read_to_end(&mut out).expect("answer");
    let status = String::from_utf8_lossy(&out[..out.len().min(12)])
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok());
    status.unwrap_or(0)
}

fn timed(addr: SocketAddr, key: &str, ask: (&str, &str)) -> Duration {
    let started = Instant::now();
    assert_eq!(request(addr, key, "POST", ask), 200);
    started.elapsed()
}

/// Ids the mix's detail and unlock requests name.
struct Ids {
    company: String,
    people: Vec<String>,
}

impl Ids {
    fn of(addr: SocketAddr, key: &str) -> Ids {
        let page = |path: &str, member: &str| -> Vec<String> {
            let mut stream = TcpStream::connect(addr).expect("connect");
            let body = r#"{"page_size": 25}"#;
            let head = format!("POST {path} HTTP/1.1\r\nHost: b\r\nConnection: close\r\nAuthorization: Bearer {key}\r\nContent-Length: {}\r\n\r\n{body}", body.len());
            stream.write_all(head.as_bytes()).expect("send");
            let mut text = String::new();
            stream.read_to_string(&mut text).expect("answer");
            let json: serde_json::Value =
                serde_json::from_str(text.split("\r\n\r\n").nth(1).unwrap_or("")).expect("JSON");
            json["data"][member]
                .as_array()
                .expect(member)
                .iter()
                .map(|r| r["id"].as_str().unwrap().to_string())
                .collect()
        };
        let people = page("/v1/people", "people")
            .into_iter()
            .filter(|id| {
                request(addr, key, "GET", (&format!("/v1/person/email?id={id}"), "")) == 200
            })
            .take(6)
            .collect();
        Ids {
            company: page("/v1/companies", "companies").remove(0),
            people,
        }
    }

    /// The mix: searches, a detail, unlocks (new for each user at first, repeats later).
    fn mix(&self) -> Vec<(&'static str, String, &'static str)> {
        let mut mix = vec![
            ("POST", "/v1/companies".to_string(), r#"{"page_size": 5}"#),
            ("POST", "/v1/deals".to_string(), r#"{"page_size": 5}"#),
            ("GET", format!("/v1/company?id={}", self.company), ""),
        ];
        mix.extend(
            self.people
                .iter()
                .map(|p| ("GET", format!("/v1/person/email?id={p}"), "")),
        );
        mix
    }
}

/// Requests per second of the mix through `servers`, clients alternating.
fn throughput(servers: &[&Server], ids: &Ids) -> f64 {
    static USERS: AtomicU64 = AtomicU64::new(0);
    let keys: Vec<String> = (0..CLIENTS)
        .map(|_| servers[0].key(&format!("mix{}", USERS.fetch_add(1, Ordering::Relaxed))))
        .collect();
    let addrs: Vec<SocketAddr> = servers.iter().map(|s| s.addr).collect();
    let (stop, done) = (
        Arc::new(AtomicBool::new(false)),
        Arc::new(AtomicU64::new(0)),
    );
    let mix = Arc::new(ids.mix());
    let started = Instant::now();
    let clients: Vec<_> = keys
        .into_iter()
        .enumerate()
        .map(|(c, key)| {
            let (addrs, stop, done, mix) = (addrs.clone(), stop.clone(), done.clone(), mix.clone());
            std::thread::spawn(move || {
                let mut i = c;
                while !stop.load(Ordering::Relaxed) {
                    let (method, path, body) = &mix[i % mix.len()];
                    assert_eq!(
                        request(addrs[i % addrs.len()], &key, method, (path, body)),
                        200,
                        "{path}"
                    );
                    done.fetch_add(1, Ordering::Relaxed);
                    i += 1;
                }
            })
        })
        .collect();
    std::thread::sleep(Duration::from_secs(SECONDS));
    stop.store(true, Ordering::Relaxed);
    clients.into_iter().for_each(|c| c.join().expect("client"));
    done.load(Ordering::Relaxed) as f64 / started.elapsed().as_secs_f64()
}
