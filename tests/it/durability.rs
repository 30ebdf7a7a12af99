//! A charged answer is on disk before it is sent, on the real binary with
//! the journal store: a server answering paid searches from a few clients
//! at once is `kill -9`ed, restarted on the same state directory, and the
//! balance it then reports holds every charge an answer acknowledged, plus
//! at most the requests in flight; six times over.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::common::fixture_index_dir;
use crate::common::http::Client;
use crate::common::process::{run_ok, ServerProcess, SERVER};
use crate::common::scratch;

/// A one-row company search: one credit.
const ONE_ROW: &[u8] = br#"{"page_size":1}"#;

fn start(state: &str) -> ServerProcess {
    ServerProcess::start(&[
        "--index",
        fixture_index_dir().to_str().unwrap(),
        "--state",
        state,
        "--listen",
        "127.0.0.1:0",
        "--rate-limit",
        "0",
        "--access-log",
        "false",
        "--semantic-model",
        "none",
    ])
}

/// The monthly credits an answer says remain after its charge.
fn remaining_after(client: Client, key: &str) -> Option<u64> {
    let reply = client
        .try_request("POST", "/v1/companies", Some(key), ONE_ROW)
        .ok()?;
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert_eq!(reply.body["meta"]["credits_used"], 1, "{}", reply.text);
    reply.body["meta"]["monthly_credits_remaining"].as_u64()
}

/// Clients charging concurrently until their server dies; the fewest
/// remaining credits any answer acknowledged.
struct Load {
    answered: Arc<AtomicU64>,
    fewest: Arc<AtomicU64>,
    clients: Vec<std::thread::JoinHandle<()>>,
}

const CLIENTS: u64 = 4;

impl Load {
    fn start(client: Client, key: &str) -> Load {
        let (answered, fewest) = (
            Arc::new(AtomicU64::new(0)),
            Arc::new(AtomicU64::new(u64::MAX)),
        );
        let clients = (0..CLIENTS)
            .map(|_| {
                let (key, answered, fewest) = (key.to_string(), answered.clone(), fewest.clone());
                std::thread::spawn(move || {
                    while let Some(remaining) = remaining_after(client, &key) {
                        fewest.fetch_min(remaining, Ordering::SeqCst);
                        answered.fetch_add(1, Ordering::SeqCst);
                    }
                })
            })
            .collect();
        Load {
            answered,
            fewest,
            clients,
        }
    }

    fn wait_for(&self, answers: u64) {
        let started = Instant::now();
        while self.answered.load(Ordering::SeqCst) < answers {
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "{answers} answers within a minute"
            );
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// The fewest remaining credits acknowledged, once every client stopped.
    fn acknowledged(self) -> u64 {
        self.clients.into_iter().for_each(|c| c.join().unwrap());
        self.fewest.load(Ordering::SeqCst)
    }
}

#[test]
fn kill_9_of_the_server_loses_no_answered_charge() {
    let state = scratch("durability").join("state");
    let state = state.to_str().unwrap();
    let args = [
        "keys",
        "create",
        "--state",
        state,
        "--user",
        "ops",
        "--plan",
        "enterprise",
    ];
    let key = run_ok(SERVER, &args).trim().to_string();
    let mut server = start(state);
    for round in 0..6 {
        let load = Load::start(server.client(), &key);
        load.wait_for(50 + round * 17);
        server.kill9();
        let acknowledged = load.acknowledged();
        server = start(state);
        let now = remaining_after(server.client(), &key).expect("the restarted server answers");
        let before_this_one = now + 1;
        assert!(
            before_this_one <= acknowledged,
            "round {round}: every answered charge survived: {acknowledged} remaining acknowledged, {before_this_one} found"
        );
        assert!(
            before_this_one + CLIENTS >= acknowledged,
            "round {round}: at most the requests in flight were added: {acknowledged} acknowledged, {before_this_one} found"
        );
    }
}
