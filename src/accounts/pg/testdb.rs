//! Throwaway databases for the tests: [`fresh_database`] creates an empty
//! database on the test cluster and drops it when its guard drops.
//!
//! The cluster is `scripts/test-postgres.sh`'s (started once per process,
//! idempotently; run the script with `--install` first on a machine
//! without PostgreSQL), or the server `FUNDSEARCH_TEST_PG_URL` names (a
//! maintenance URL such as `postgres://postgres@127.0.0.1:5432/postgres`
//! of a superuser, ending in the database name).

use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

use postgres::{Client, NoTls};

/// The maintenance URL of the test cluster, started if need be.
pub fn server_url() -> &'static str {
    static URL: OnceLock<String> = OnceLock::new();
    URL.get_or_init(|| std::env::var("FUNDSEARCH_TEST_PG_URL").unwrap_or_else(|_| start_server()))
}

/// Runs `scripts/test-postgres.sh` and returns the URL it prints.
fn start_server() -> String {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/test-postgres.sh");
    let out = Command::new("bash")
        .arg(script)
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .output()
        .expect("running scripts/test-postgres.sh");
    assert!(
        out.status.success(),
        "scripts/test-postgres.sh failed ({}); is PostgreSQL installed (--install)?",
        out.status
    );
    let stdout = String::from_utf8(out.stdout).expect("the script prints UTF-8");
    stdout
        .lines()
        .last()
        .expect("the script prints a URL")
        .trim()
        .to_string()
}

/// A client of `url` (tests run outside any tokio runtime, so directly).
pub fn connect(url: &str) -> Client {
    Client::connect(url, NoTls).unwrap_or_else(|e| panic!("connecting to the test database: {e}"))
}

/// An empty database, dropped (`WITH (FORCE)`, its connections closed) on drop.
pub struct TestDatabase {
    name: String,
}

/// Creates `fs_<name>_<pid>_<n>` and returns its URL and its guard.
pub fn fresh_database(name: &str) -> (String, TestDatabase) {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let db = format!("fs_{name}_{}_{n}", std::process::id());
    let create = format!("CREATE DATABASE \"{db}\"");
    connect(server_url()).batch_execute(&create).expect(&create);
    (with_database(server_url(), &db), TestDatabase { name: db })
}

/// `url` with its database name replaced by `db`.
fn with_database(url: &str, db: &str) -> String {
    let (base, query) = url
        .split_once('?')
        .map_or((url, None), |(b, q)| (b, Some(q)));
    let server = base.rsplit_once('/').map_or(base, |(server, _)| server);
    match query {
        Some(query) => format!("{server}/{db}?{query}"),
        None => format!("{server}/{db}"),
    }
}

impl Drop for TestDatabase {
    fn drop(&mut self) {
        let drop = format!("DROP DATABASE IF EXISTS \"{}\" WITH (FORCE)", self.name);
        let dropped = Client::connect(server_url(), NoTls).and_then(|mut c| c.batch_execute(&drop));
        if let Err(e) = dropped {
            eprintln!("{drop}: {e}");
        }
    }
}

#[test]
fn urls_name_the_fresh_database() {
    let url = "postgres://postgres@127.0.0.1:55432/postgres";
    assert_eq!(
        with_database(url, "x"),
        "postgres://postgres@127.0.0.1:55432/x"
    );
    let with_query = "postgresql://u@h/postgres?sslmode=disable";
    assert_eq!(
        with_database(with_query, "y"),
        "postgresql://u@h/y?sslmode=disable"
    );
}
