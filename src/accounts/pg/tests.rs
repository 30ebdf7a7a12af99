//! The database store against a real PostgreSQL (`testdb`): the shared
//! contract suite, then what only a database store has to get right —
//! migrations, replicas sharing one database, lost connections, being
//! called from inside a tokio runtime.

use std::io;
use std::sync::{Arc, Barrier};
use std::thread;
use std::time::{Duration, Instant};

use chrono::{TimeZone, Utc};
use uuid::Uuid;

use super::pool::PING_AFTER_IDLE;
use super::session::{Session, Sql};
use super::testdb::{connect, fresh_database};
use super::{rate, schema, PgStore, APPLICATION_NAME};
use crate::accounts::{AccountStore, Allowances, Plan, Principal, RATE_WINDOW_MS};

fn now() -> chrono::DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 25, 12, 0, 0).unwrap()
}

fn open(url: &str, connections: usize) -> PgStore {
    PgStore::open_with(url, Allowances::default(), connections).unwrap()
}

fn principal(store: &dyn AccountStore, user: &str, plan: Plan) -> Principal {
    let key = store.create_key(user, plan).unwrap();
    store.authenticate(&key).unwrap()
}

/// Runs `f` on `threads` threads at once and collects what they return.
fn at_once<T: Send + 'static>(
    threads: usize,
    f: impl Fn(usize) -> T + Send + Sync + 'static,
) -> Vec<T> {
    let (f, start) = (Arc::new(f), Arc::new(Barrier::new(threads)));
    let handles: Vec<_> = (0..threads)
        .map(|i| {
            let (f, start) = (Arc::clone(&f), Arc::clone(&start));
            thread::spawn(move || {
                start.wait();
                f(i)
            })
        })
        .collect();
    handles.into_iter().map(|h| h.join().unwrap()).collect()
}

/// Polls `condition` every few milliseconds until it holds (panics after 30 s).
fn wait_until(what: &str, mut condition: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !condition() {
        assert!(Instant::now() < deadline, "timed out waiting until {what}");
        thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn the_database_store_meets_the_account_store_contract() {
    let open = || {
        let (url, db) = fresh_database("contract");
        (Arc::new(open(&url, 4)) as Arc<dyn AccountStore>, db)
    };
    crate::accounts::contract_tests::check_contract(&open);
}

#[test]
fn migrations_are_idempotent_and_concurrent_opens_agree() {
    let (url, _db) = fresh_database("migrate");
    let url = Arc::new(url);
    let opened = at_once(3, {
        let url = Arc::clone(&url);
        move |_| PgStore::open_with(&url, Allowances::default(), 1).map(|_| ())
    });
    assert!(opened.iter().all(Result::is_ok), "{opened:?}");
    let store = open(&url, 1);
    let key = store.create_key("ann", Plan::Pro).unwrap();
    drop(store);
    let reopened = open(&url, 1);
    assert_eq!(
        reopened.authenticate(&key).unwrap().user,
        "ann",
        "the data stays"
    );
    let versions: Vec<i32> = connect(&url)
        .query(
            "SELECT version FROM fundsearch_schema ORDER BY version",
            &[],
        )
        .unwrap()
        .iter()
        .map(|row| row.get(0))
        .collect();
    let expected: Vec<i32> = (1..=schema::MIGRATIONS.len() as i32).collect();
    assert_eq!(versions, expected, "each migration applied once");
}

#[test]
fn a_database_migrated_by_a_newer_server_is_refused() {
    let (url, _db) = fresh_database("newer");
    drop(open(&url, 1));
    let newer = schema::MIGRATIONS.len() as i32 + 1;
    let insert = "INSERT INTO fundsearch_schema (version) VALUES ($1)";
    connect(&url).execute(insert, &[&newer]).unwrap();
    let refused = PgStore::open_with(&url, Allowances::default(), 1)
        .err()
        .unwrap();
    assert_eq!(refused.kind(), io::ErrorKind::InvalidData);
    let message = refused.to_string();
    assert!(
        message.contains(&format!("schema version {newer}")),
        "{message}"
    );
}

#[test]
fn bad_urls_and_unreachable_databases_are_errors() {
    let bad = PgStore::open("postgres://u@h:notaport/db", Allowances::default());
    assert_eq!(bad.err().unwrap().kind(), io::ErrorKind::InvalidInput);
    let closed_port = "postgres://postgres@127.0.0.1:1/postgres?connect_timeout=2";
    let unreachable = PgStore::open_with(closed_port, Allowances::default(), 2);
    let message = unreachable.err().unwrap().to_string();
    assert!(message.contains("connecting to the database"), "{message}");
}

/// Two stores on one database, as two replicas: 6 threads charge one user
/// until the balance is gone. Exactly the balance is paid, and the charges
/// table adds up to what the callers were told they paid.
#[test]
fn replicas_never_overspend_and_their_charges_add_up() {
    let (url, _db) = fresh_database("replicas");
    let replicas = [Arc::new(open(&url, 3)), Arc::new(open(&url, 3))];
    let p = principal(&*replicas[0], "gus", Plan::Trial);
    replicas[1].add_purchased("gus", 100).unwrap();
    let paid: Vec<(u64, usize)> = at_once(6, move |i| {
        let store = &replicas[i % 2];
        let mut spent = (0, 0);
        for credits in [3, 1] {
            while let Ok(charge) = store.charge(&p, credits, 0, now()).unwrap() {
                spent = (spent.0 + charge.credits_used, spent.1 + 1);
            }
        }
        spent
    });
    let told: u64 = paid.iter().map(|p| p.0).sum();
    let calls: usize = paid.iter().map(|p| p.1).sum();
    assert_eq!(told, 300, "200 monthly + 100 purchased, no more");
    let sums = connect(&url)
        .query_one(
            "SELECT sum(credits)::bigint, sum(monthly)::bigint, sum(purchased)::bigint, count(*), \
             count(*) FILTER (WHERE credits <> monthly + purchased) FROM charges",
            &[],
        )
        .unwrap();
    let sums: (i64, i64, i64, i64, i64) = (
        sums.get(0),
        sums.get(1),
        sums.get(2),
        sums.get(3),
        sums.get(4),
    );
    assert_eq!(sums, (300, 200, 100, calls as i64, 0));
    let store = open(&url, 1);
    assert_eq!(
        store.balance("gus", now()).unwrap().map(|b| b.total()),
        Some(0)
    );
}

#[test]
fn replicas_unlock_a_person_once_and_share_the_rate_limit() {
    let (url, _db) = fresh_database("replica_unlocks");
    let replicas = [Arc::new(open(&url, 2)), Arc::new(open(&url, 2))];
    let p = principal(&*replicas[0], "kim", Plan::Pro);
    let person = Uuid::from_u128(7);
    let shared = replicas.clone();
    let firsts = at_once(4, move |i| {
        let unlock = shared[i % 2].unlock_email(&p, person, 5, now()).unwrap();
        !unlock.unwrap().already_unlocked
    });
    assert_eq!(firsts.iter().filter(|&&first| first).count(), 1);
    let left = replicas[1].balance("kim", now()).unwrap().unwrap();
    assert_eq!(left.monthly_remaining, 995, "paid once");
    let admitted: usize = at_once(4, move |i| {
        let store = &replicas[i % 2];
        (0..30)
            .filter(|_| store.admit("hot", 50, now()).unwrap().is_ok())
            .count()
    })
    .into_iter()
    .sum();
    assert_eq!(admitted, 50, "one limit for both replicas");
}

#[test]
fn old_rate_windows_are_pruned() {
    let (url, _db) = fresh_database("prune");
    drop(open(&url, 1));
    let mut client = Session::new(connect(&url));
    let t0 = now().timestamp_millis();
    for (key, at) in [
        ("old", t0),
        ("recent", t0 + RATE_WINDOW_MS),
        ("current", t0 + 2 * RATE_WINDOW_MS),
    ] {
        assert_eq!(rate::admit(&mut client, key, 10, at).unwrap(), Ok(()));
    }
    let pruned = rate::prune(&mut client, t0 + 2 * RATE_WINDOW_MS).unwrap();
    assert_eq!(pruned, 1);
    let left: Vec<String> = client
        .query("SELECT key_id FROM rate_windows ORDER BY window_start", &[])
        .unwrap()
        .iter()
        .map(|row| row.get(0))
        .collect();
    assert_eq!(
        left,
        ["recent", "current"],
        "the previous window still counts"
    );
}

/// The store's backends (by `application_name`) in the current database.
fn store_backends(client: &mut postgres::Client, waiting_on_a_lock: bool) -> Vec<i32> {
    let sql = "SELECT pid FROM pg_stat_activity WHERE datname = current_database() \
               AND application_name = $1 AND (NOT $2 OR wait_event_type = 'Lock')";
    let rows = client
        .query(sql, &[&APPLICATION_NAME, &waiting_on_a_lock])
        .unwrap();
    rows.iter().map(|row| row.get(0)).collect()
}

/// Every connection of the store is terminated while one call waits on a
/// row lock: that call fails (an error, not a panic) and takes nothing;
/// once the others have been idle for [`PING_AFTER_IDLE`] (their pool
/// threads ping them before the next job only then), every later call
/// succeeds on fresh connections.
#[test]
fn a_broken_connection_fails_only_the_call_in_flight() {
    let (url, _db) = fresh_database("broken");
    let store = Arc::new(open(&url, 3));
    let p = principal(&*store, "ann", Plan::Pro);
    let (mut holder, mut watcher) = (connect(&url), connect(&url));
    let mut lock = holder.transaction().unwrap();
    lock.query("SELECT 1 FROM users WHERE name = 'ann' FOR UPDATE", &[])
        .unwrap();
    let in_flight = thread::spawn({
        let (store, p) = (Arc::clone(&store), p.clone());
        move || store.charge(&p, 10, 0, now())
    });
    wait_until("the charge waits for the row lock", || {
        !store_backends(&mut watcher, true).is_empty()
    });
    let pids = store_backends(&mut watcher, false);
    let terminate = "SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid";
    watcher.execute(terminate, &[&pids]).unwrap();
    let failed = in_flight
        .join()
        .expect("no panic")
        .expect_err("its connection was terminated");
    assert!(
        failed.to_string().starts_with("charging credits: "),
        "{failed}"
    );
    lock.rollback().unwrap();
    let gone = "SELECT count(*) FROM pg_stat_activity WHERE pid = ANY($1)";
    wait_until("the terminated backends are gone", || {
        watcher.query_one(gone, &[&pids]).unwrap().get::<_, i64>(0) == 0
    });
    thread::sleep(PING_AFTER_IDLE);
    for _ in 0..6 {
        let charge = store.charge(&p, 1, 0, now()).expect("a fresh connection");
        assert!(charge.is_ok());
    }
    let left = store.balance("ann", now()).unwrap().unwrap();
    assert_eq!(
        left.monthly_remaining, 994,
        "the failed charge took nothing"
    );
}

/// The server calls the store from its tokio threads, where the synchronous
/// client would panic if it ran on the caller's thread.
#[test]
fn the_store_works_from_inside_a_tokio_runtime() {
    let (url, _db) = fresh_database("tokio");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .build()
        .unwrap();
    let left = runtime.block_on(async move {
        let store = Arc::new(open(&url, 2));
        let p = principal(&*store, "tia", Plan::Trial);
        store.charge(&p, 5, 0, now()).unwrap().unwrap();
        let blocking = Arc::clone(&store);
        tokio::task::spawn_blocking(move || blocking.charge(&p, 5, 0, now()).unwrap().unwrap())
            .await
            .unwrap();
        store.balance("tia", now()).unwrap().unwrap()
    });
    assert_eq!(left.monthly_remaining, 190);
}
