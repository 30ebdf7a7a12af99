//! Two replicas, one database (issue 19 §3), on the real binaries: a
//! throwaway PostgreSQL (`scripts/test-postgres.sh`), accounts created
//! with `server keys … --accounts postgres://…`, and two servers on the
//! fixture index sharing that database. Checked:
//!
//! - the rate limit holds across both: a burst through both admits the
//!   limit once, not once per replica;
//! - a mixed charged load through both (paged searches, a detail, free
//!   lookups, e-mail unlocks of a few people repeated by every client),
//!   with one replica `kill -9`ed mid-load, charges exactly what the
//!   answered responses say, give or take only the requests that were in
//!   flight on the killed replica, each by at most its cost;
//! - no e-mail unlock is charged twice, whichever replica answered.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use chrono::{Timelike, Utc};
use serde_json::Value;

use crate::common::fixture_index_dir;
use crate::common::http::{Client, Unanswered};
use crate::common::process::{run_ok, ServerProcess, SERVER};
use crate::common::scratch;
use crate::common::testdb::fresh_database;

const RATE_LIMIT: u64 = 150;
const USERS: usize = 12;
const REQUESTS_PER_USER: usize = 90;
const UNLOCK_COST: u64 = 5;

/// A request of the mixed load and the most it can cost.
struct Ask {
    method: &'static str,
    path: String,
    body: &'static str,
    most: u64,
}

/// `server keys create` against the database; the key.
fn create_key(url: &str, user: &str) -> String {
    let args = [
        "keys",
        "create",
        "--accounts",
        url,
        "--user",
        user,
        "--plan",
        "enterprise",
    ];
    run_ok(SERVER, &args).trim().to_string()
}

fn replica(url: &str, state: &std::path::Path) -> ServerProcess {
    ServerProcess::start(&[
        "--index",
        fixture_index_dir().to_str().unwrap(),
        "--state",
        state.to_str().unwrap(),
        "--accounts",
        url,
        "--listen",
        "127.0.0.1:0",
        "--rate-limit",
        &RATE_LIMIT.to_string(),
        "--access-log",
        "false",
        "--semantic-model",
        "none",
    ])
}

/// Credits left to a key's user (a free lookup reports the balance).
fn balance(client: Client, key: &str) -> u64 {
    let meta = client.get("/v1/company/search?name=lumina", Some(key)).body["meta"].clone();
    let part = |name: &str| {
        meta[name]
            .as_u64()
            .unwrap_or_else(|| panic!("{name} in {meta}"))
    };
    part("monthly_credits_remaining") + part("purchased_credits_remaining")
}

/// The mixed load's requests, over `people` whose e-mails get unlocked.
fn mix(people: &[String], company: &str) -> Vec<Ask> {
    let mut asks = vec![
        Ask {
            method: "POST",
            path: "/v1/companies".into(),
            body: r#"{"page_size": 4}"#,
            most: 4,
        },
        Ask {
            method: "POST",
            path: "/v1/deals".into(),
            body: r#"{"page_size": 6}"#,
            most: 6,
        },
        Ask {
            method: "GET",
            path: format!("/v1/company?id={company}"),
            body: "",
            most: 1,
        },
        Ask {
            method: "GET",
            path: "/v1/company/search?name=helix".into(),
            body: "",
            most: 0,
        },
    ];
    for person in people {
        let path = format!("/v1/person/email?id={person}");
        asks.push(Ask {
            method: "GET",
            path,
            body: "",
            most: UNLOCK_COST,
        });
    }
    asks
}

#[test]
fn two_replicas_on_one_database_charge_exactly_and_share_the_rate_limit() {
    let (url, _db) = fresh_database("replicas");
    let root = scratch("replicas");
    let (a, b) = (
        replica(&url, &root.join("a")),
        replica(&url, &root.join("b")),
    );
    rate_limit_holds_across_replicas(&url, [a.client(), b.client()]);

    let probe = create_key(&url, "probe");
    let people = people_with_email(a.client(), &probe, 4);
    let company = ids(a.client(), &probe, "/v1/companies", "companies", 1).remove(0);
    let keys: Vec<String> = (0..USERS)
        .map(|u| create_key(&url, &format!("load{u}")))
        .collect();
    let before: Vec<u64> = keys.iter().map(|k| balance(a.client(), k)).collect();
    let asks = Arc::new(mix(&people, &company));

    let outcome = Outcome::default();
    let (done, clients) = (Arc::new(AtomicUsize::new(0)), [a.client(), b.client()]);
    let threads: Vec<_> = keys
        .iter()
        .enumerate()
        .map(|(u, key)| {
            spawn_user(
                u,
                key.clone(),
                clients,
                asks.clone(),
                done.clone(),
                outcome.clone(),
            )
        })
        .collect();
    while done.load(Ordering::Relaxed) < USERS * REQUESTS_PER_USER * 2 / 5 {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    b.kill9();
    threads.into_iter().for_each(|t| t.join().unwrap());
    check(&outcome, &keys, &before, a.client());
}

/// `n` people who have an e-mail to unlock (unlocked once by `probe`).
fn people_with_email(client: Client, probe: &str, n: usize) -> Vec<String> {
    let people = ids(client, probe, "/v1/people", "people", 25);
    let has_email = |id: &&String| {
        let path = format!("/v1/person/email?id={id}");
        client.get(&path, Some(probe)).status == 200
    };
    let chosen: Vec<String> = people.iter().filter(has_email).take(n).cloned().collect();
    assert_eq!(chosen.len(), n, "the fixture has {n} people with e-mails");
    chosen
}

/// The first `n` ids of a collection search.
fn ids(client: Client, key: &str, path: &str, member: &str, n: usize) -> Vec<String> {
    let body = format!(r#"{{"page_size": {n}}}"#);
    let reply = client.request("POST", path, Some(key), body.as_bytes());
    assert_eq!(reply.status, 200, "{}", reply.body);
    let rows = reply.body["data"][member].as_array().unwrap().clone();
    let ids: Vec<String> = rows
        .iter()
        .map(|r| r["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(ids.len(), n);
    ids
}

/// What the clients saw, per user.
#[derive(Default, Clone)]
struct Outcome(Arc<Mutex<Seen>>);

#[derive(Default)]
struct Seen {
    /// Credits the answered responses say they charged, per user.
    charged: HashMap<usize, u64>,
    /// The most the requests lost in flight (sent to the replica killed
    /// before it answered) can have cost, per user.
    in_flight: HashMap<usize, u64>,
    lost: usize,
    /// First unlocks answered, per (user, person path).
    first_unlocks: HashMap<(usize, String), usize>,
    statuses: HashMap<u16, usize>,
}

fn spawn_user(
    user: usize,
    key: String,
    clients: [Client; 2],
    asks: Arc<Vec<Ask>>,
    done: Arc<AtomicUsize>,
    outcome: Outcome,
) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        for i in 0..REQUESTS_PER_USER {
            let ask = &asks[(i * 7 + user) % asks.len()];
            let client = clients[(i + user) % 2];
            let answer = send(client, &key, ask);
            outcome.record(user, ask, answer);
            done.fetch_add(1, Ordering::Relaxed);
        }
    })
}

/// The response, or `None` when the connection failed (the replica is gone).
fn send(client: Client, key: &str, ask: &Ask) -> Result<(u16, Value), Unanswered> {
    let reply = client.try_request(ask.method, &ask.path, Some(key), ask.body.as_bytes())?;
    Ok((reply.status, reply.body))
}

impl Outcome {
    fn record(&self, user: usize, ask: &Ask, answer: Result<(u16, Value), Unanswered>) {
        let mut seen = self.0.lock().unwrap();
        let (status, body) = match answer {
            Ok(answer) => answer,
            Err(Unanswered::Unreachable) => return,
            Err(Unanswered::Lost) => {
                *seen.in_flight.entry(user).or_default() += ask.most;
                return seen.lost += 1;
            }
        };
        *seen.statuses.entry(status).or_default() += 1;
        let credits = body["meta"]["credits_used"].as_u64().unwrap_or(0);
        *seen.charged.entry(user).or_default() += credits;
        if body["data"]["already_unlocked"] == Value::Bool(false) {
            *seen
                .first_unlocks
                .entry((user, ask.path.clone()))
                .or_default() += 1;
        }
    }
}

fn check(outcome: &Outcome, keys: &[String], before: &[u64], survivor: Client) {
    let seen = outcome.0.lock().unwrap();
    assert_eq!(
        seen.statuses.keys().copied().collect::<Vec<_>>(),
        vec![200],
        "{:?}",
        seen.statuses
    );
    for (u, key) in keys.iter().enumerate() {
        let taken = before[u] - balance(survivor, key);
        let answered = seen.charged.get(&u).copied().unwrap_or(0);
        let in_flight = seen.in_flight.get(&u).copied().unwrap_or(0);
        assert!(
            answered <= taken && taken <= answered + in_flight,
            "user {u}: the database took {taken}, the answers say {answered}, at most {in_flight} more was in flight"
        );
    }
    let twice: Vec<_> = seen.first_unlocks.iter().filter(|(_, &n)| n > 1).collect();
    assert!(twice.is_empty(), "unlocks charged twice: {twice:?}");
    let unlocked: HashSet<_> = seen.first_unlocks.keys().collect();
    assert!(!unlocked.is_empty(), "the load unlocked e-mails");
    let answered: usize = seen.statuses.values().sum();
    println!(
        "{answered} answers through two replicas, {} lost in flight when one was killed; \
         per user, the database took exactly what the answers say, give or take those",
        seen.lost
    );
}

/// A burst through both replicas from several clients admits `RATE_LIMIT`
/// requests of one key, not `RATE_LIMIT` per replica.
fn rate_limit_holds_across_replicas(url: &str, clients: [Client; 2]) {
    let key = create_key(url, "burst");
    let started = Utc::now();
    let statuses: Vec<(u16, Option<String>)> = (0..4)
        .map(|t| {
            let key = key.clone();
            std::thread::spawn(move || {
                (0..RATE_LIMIT as usize / 2)
                    .map(|i| {
                        let r =
                            clients[(i + t) % 2].get("/v1/company/search?name=helix", Some(&key));
                        (r.status, r.header("retry-after").map(str::to_string))
                    })
                    .collect::<Vec<_>>()
            })
        })
        .collect::<Vec<_>>()
        .into_iter()
        .flat_map(|t| t.join().unwrap())
        .collect();
    let admitted = statuses.iter().filter(|(s, _)| *s == 200).count() as u64;
    let refused: Vec<_> = statuses.iter().filter(|(s, _)| *s != 200).collect();
    assert!(
        refused.iter().all(|(s, wait)| *s == 429 && wait.is_some()),
        "{refused:?}"
    );
    let one_window = started.minute() == Utc::now().minute();
    if one_window {
        assert_eq!(
            admitted, RATE_LIMIT,
            "a burst within one window admits the limit exactly"
        );
    } else {
        // Across a window boundary the previous window counts for what is left of it.
        assert!(
            (RATE_LIMIT - 1..=RATE_LIMIT + 2).contains(&admitted),
            "{admitted}"
        );
    }
}
