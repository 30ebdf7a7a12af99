//! [`PgStore`]: the [`AccountStore`] kept in PostgreSQL, so several server
//! replicas can share one set of accounts, keys, balances and rate limits.
//!
//! It keeps the contract of `account_store.rs` (checked by the same
//! `contract_tests` suite as the journal store) and reuses the journal
//! store's pieces: key format, digests and constant-time comparison
//! (`key.rs`), and the credit arithmetic (`ledger.rs`: a paying operation
//! loads the one user it concerns into a `Ledger`, which decides and
//! applies, see `users.rs`). Opened with [`PgStore::open`]`(url, allowances)`;
//! the URL is anything `postgres::Config` parses:
//! `postgres://user@127.0.0.1:5432/db`, `postgresql://…`, or
//! `host=/run/postgresql dbname=fundsearch user=fundsearch`.
//!
//! # Tables (schema version 1, `schema.rs`)
//!
//! ```text
//! fundsearch_schema(version, applied_at)   one row per applied migration
//! users(name, plan, month, monthly_used, month_credits, purchased, semantic_used, created_at)
//!     name           the user (primary key, not empty)
//!     plan           trial | pro | pro_plus | enterprise | api
//!     month          YYYY-MM (UTC) the counters below belong to; NULL before the first charge
//!     monthly_used   credits taken from the monthly allowance in `month`
//!     month_credits  all credits charged in `month`, whichever balance paid (unmetered too)
//!     purchased      purchased credits left (never expire)
//!     semantic_used  semantic searches run in `month`
//! api_keys(key_id, user_name, salt, digest, active, created_at)
//!     key_id         the 12 public hex characters of `vg_<id>_<secret>`
//!     salt, digest   16 random bytes and SHA-256(salt ‖ key): never the key itself
//!     active         false once deactivated (kept: its id is never reissued)
//! charges(id, user_name, key_id, kind, person, month, credits, monthly, purchased, semantic, at)
//!     append-only: one row per paying charge or e-mail unlock, written in the
//!     transaction that changed the balance. kind is `charge` or `unlock`
//!     (`person` the unlocked person's id); credits = monthly + purchased
//!     (both 0 for unmetered plans); semantic = searches run; at = the
//!     request's time. The sum of `credits` is what the balances paid.
//! unlocks(user_name, person)        people whose e-mail the user unlocked (primary key: once each)
//! alerts(position, id, user_name, config)
//!     position       a sequence: oldest first; id the alert's UUID (unique)
//!     config         the alert configuration as JSON (serde of `AlertConfig`)
//! rate_windows(key_id, window_start, n)   UNLOGGED: admitted requests per key per minute
//! ```
//!
//! # One transaction per operation
//!
//! Every decision that reads and then writes is made inside the transaction
//! that writes, on a row it has locked: charges, unlocks, purchases and
//! alert saves start with `SELECT … FROM users WHERE name = $1 FOR UPDATE`,
//! so operations on one user run one at a time across all replicas while
//! different users never wait for each other. READ COMMITTED is enough:
//! each statement after the lock sees everything committed before it
//! (the previous holder's unlock, for instance). A charge writes the new
//! counters and its `charges` row (and an unlock its `unlocks` row) in the
//! same transaction, so a crash leaves all or nothing. A charge of nothing
//! and all reads (`balance`, `plan_of`, `keys_of`, `alerts_of`,
//! `semantic_usage`, `authenticate`) are single SELECTs without locks.
//! Key creation, plan changes and deactivation are single statements (or
//! `INSERT … ON CONFLICT DO NOTHING` pairs) that need no lock. An `Ok`
//! means committed, and PostgreSQL's commit is durable (with its default
//! `synchronous_commit`). An error leaves the database as before with one
//! exception no client can close: if the connection is lost while COMMIT
//! is in flight the change may or may not have been made.
//!
//! # Threads
//!
//! The trait is called from the server's tokio threads, and the synchronous
//! `postgres::Client` runs a runtime of its own that may not be entered from
//! inside another one; so each connection lives on a dedicated OS thread
//! ([`DEFAULT_CONNECTIONS`] of them unless [`PgStore::open_with`] says
//! otherwise) and a call hands its work to a free thread and blocks for the
//! answer (`pool.rs`). A job gets the thread's [`session::Session`]: its
//! client and the statements already prepared on that connection, so each
//! SQL string is prepared once per connection and every later use costs one
//! round trip, not two (`session.rs`). Before a job a thread checks its
//! connection (with an empty query only once it has been idle for a
//! second, so no extra round trip under load) and reconnects if it is gone:
//! a connection lost while idle for a second or more fails no call; the
//! call whose connection breaks under it, or broke less than a second after
//! its previous job, fails with an `io::Error` (kind `Other`, naming the
//! operation). No database error panics. While the database is down every
//! call fails: `authenticate`, which cannot return an I/O error, then
//! answers [`AuthFailure::Unavailable`] and logs the error.
//!
//! # Rate limit (`admit`) and its tolerance
//!
//! The limit is per key and shared by all replicas in `rate_windows`
//! (`rate.rs`): fixed one-minute windows, the estimate "previous window's
//! count × the fraction of it still inside the sliding minute + current
//! window's count", and one atomic statement that counts the request only
//! if the estimate stays within the limit. So a burst is exact (a limit of
//! 200 admits 200, however many threads and replicas), and otherwise the
//! estimate assumes the previous window's requests were spread evenly: it
//! may admit a little more or less than an exact sliding log would. The
//! wait a refusal reports is the estimate's: when the current window is
//! full it reaches into the next one, until enough of this window's weight
//! has slid out (a burst of the whole limit at a window's start waits a
//! window and a third for a limit of 3, two windows for a limit of 1),
//! where an exact log would wait at most one window.
//! Each replica decides the window from its own clock: a skew of δ between
//! replicas shifts their windows by δ. The count lives in the database
//! because a per-replica share of the limit (limit ÷ replicas, kept in
//! memory) is wrong as soon as load balancing is sticky or uneven: a client
//! pinned to one replica would get only its share. A limit of 0 never
//! touches the database; rows older than the previous window are deleted
//! every [`PRUNE_EVERY`] admissions.
//!
//! # Allowances and transport
//!
//! Monthly allowances and semantic ceilings are not stored: each replica
//! applies the [`Allowances`] it was started with to the stored usage, so
//! every replica must run with the same allowance flags, or users would see
//! their balance change with the replica that answers. Connections are
//! made without TLS (`NoTls`): the database must be on loopback or a
//! private network; TLS is future work.

mod account;
mod alerts;
mod charges;
mod keys;
mod pool;
mod rate;
mod schema;
mod session;
mod users;

/// Test support; the integration tests and the `replicas` bench include
/// the same file (`#[path]`), so it never ships in the library.
#[cfg(test)]
pub mod testdb;
#[cfg(test)]
mod tests;

use std::io;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use postgres::Config;
use uuid::Uuid;

use super::account_store::{AccountStore, Admission, AlertLimit, ChargeResult, Unlock};
use super::key::{parse_key, AuthFailure, Principal};
use super::ledger::{Balance, Insufficient};
use super::plan::{Allowances, Plan};
use super::rate_window::wait_seconds;
use super::store::KeyInfo;
use crate::schema::alert::AlertConfig;
use charges::Payer;
use pool::{Failure, Pool};
use session::Session;

/// Connections (and database threads) unless told otherwise.
pub const DEFAULT_CONNECTIONS: usize = 8;
/// Rate windows that can no longer count are deleted once per this many admissions.
pub const PRUNE_EVERY: u64 = 1024;
/// The `application_name` of the store's connections unless the URL sets one.
pub const APPLICATION_NAME: &str = "fundsearch";
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// Accounts, keys, balances, alerts and rate limits in PostgreSQL.
/// `Send + Sync`: one store serves every request thread.
pub struct PgStore {
    pool: Pool,
    allowances: Arc<Allowances>,
    admissions: AtomicU64,
}

impl PgStore {
    /// Connects [`DEFAULT_CONNECTIONS`] times to `url` and brings the schema
    /// up to date (see [`PgStore::open_with`]).
    pub fn open(url: &str, allowances: Allowances) -> io::Result<PgStore> {
        PgStore::open_with(url, allowances, DEFAULT_CONNECTIONS)
    }

    /// Connects `connections` times (at least once) to `url`, each
    /// connection on its own thread, and migrates the schema (refusing a
    /// database migrated by a newer server). May be called from anywhere,
    /// a tokio runtime included.
    pub fn open_with(url: &str, allowances: Allowances, connections: usize) -> io::Result<PgStore> {
        let pool = Pool::start(&config(url)?, connections)?;
        pool.run("migrating the accounts schema", |s| {
            schema::migrate(&mut s.client)
        })?;
        Ok(PgStore {
            pool,
            allowances: Arc::new(allowances),
            admissions: AtomicU64::new(0),
        })
    }

    /// Runs `job` on a database thread with the store's allowances.
    fn run<R, F>(&self, op: &'static str, job: F) -> io::Result<R>
    where
        R: Send + 'static,
        F: FnOnce(&mut Session, &Allowances) -> Result<R, Failure> + Send + 'static,
    {
        let allowances = Arc::clone(&self.allowances);
        self.pool.run(op, move |client| job(client, &allowances))
    }
}

/// The connection settings of `url`, with our defaults where it has none.
fn config(url: &str) -> io::Result<Config> {
    let mut config: Config = url.parse().map_err(|e| {
        let message = format!("the accounts database URL: {}", pool::describe(&e));
        io::Error::new(io::ErrorKind::InvalidInput, message)
    })?;
    if config.get_application_name().is_none() {
        config.application_name(APPLICATION_NAME);
    }
    if config.get_connect_timeout().is_none() {
        config.connect_timeout(CONNECT_TIMEOUT);
    }
    Ok(config)
}

fn payer(principal: &Principal, now: DateTime<Utc>) -> Payer {
    Payer {
        user: principal.user.clone(),
        key_id: principal.key_id.clone(),
        now,
    }
}

impl AccountStore for PgStore {
    fn authenticate(&self, key: &str) -> Result<Principal, AuthFailure> {
        let (key_id, _secret) = parse_key(key).ok_or(AuthFailure::Malformed)?;
        let id = key_id.to_string();
        match self.run("checking a key", move |c, _| keys::find(c, &id)) {
            Ok(Some(stored)) => keys::verify(key, key_id, stored),
            Ok(None) => Err(AuthFailure::Unknown),
            Err(e) => {
                tracing::error!(error = %e, "the accounts database could not check a key");
                Err(AuthFailure::Unavailable)
            }
        }
    }

    fn admit(&self, key_id: &str, limit: u32, now: DateTime<Utc>) -> Admission {
        if limit == 0 {
            return Ok(Ok(()));
        }
        let (key_id, now) = (key_id.to_string(), now.timestamp_millis());
        let prune = self
            .admissions
            .fetch_add(1, Ordering::Relaxed)
            .is_multiple_of(PRUNE_EVERY);
        let admitted = self.run("admitting a request", move |c, _| {
            let admitted = rate::admit(c, &key_id, limit, now)?;
            if prune {
                if let Err(e) = rate::prune(c, now) {
                    tracing::warn!(error = ?e, "pruning old rate windows");
                }
            }
            Ok(admitted)
        })?;
        Ok(admitted.map_err(wait_seconds))
    }

    fn charge(
        &self,
        principal: &Principal,
        credits: u64,
        semantic: u64,
        now: DateTime<Utc>,
    ) -> ChargeResult {
        let payer = payer(principal, now);
        self.run("charging credits", move |c, allowances| {
            charges::charge(c, allowances, &payer, credits, semantic)
        })
    }

    fn unlock_email(
        &self,
        principal: &Principal,
        person: Uuid,
        credits: u64,
        now: DateTime<Utc>,
    ) -> io::Result<Result<Unlock, Insufficient>> {
        let payer = payer(principal, now);
        self.run("unlocking an e-mail", move |c, allowances| {
            charges::unlock(c, allowances, &payer, person, credits)
        })
    }

    fn semantic_usage(
        &self,
        principal: &Principal,
        now: DateTime<Utc>,
    ) -> io::Result<Option<(u64, u64)>> {
        let user = principal.user.clone();
        self.run("reading semantic usage", move |c, allowances| {
            account::semantic_usage(c, allowances, &user, now)
        })
    }

    fn balance(&self, user: &str, now: DateTime<Utc>) -> io::Result<Option<Balance>> {
        let user = user.to_string();
        self.run("reading a balance", move |c, allowances| {
            account::balance(c, allowances, &user, now)
        })
    }

    fn plan_of(&self, user: &str) -> io::Result<Option<Plan>> {
        let user = user.to_string();
        self.run("reading a plan", move |c, _| account::plan_of(c, &user))
    }

    fn create_key(&self, user: &str, plan: Plan) -> io::Result<String> {
        let user = user.to_string();
        self.run("creating a key", move |c, _| keys::create(c, &user, plan))
    }

    fn set_plan(&self, user: &str, plan: Plan) -> io::Result<()> {
        let user = user.to_string();
        self.run("changing a plan", move |c, _| {
            account::set_plan(c, &user, plan)
        })
    }

    fn add_purchased(&self, user: &str, credits: u64) -> io::Result<Balance> {
        let user = user.to_string();
        self.run("adding purchased credits", move |c, allowances| {
            account::add_purchased(c, allowances, &user, credits, Utc::now())
        })
    }

    fn deactivate_key(&self, key_id: &str) -> io::Result<bool> {
        let key_id = key_id.to_string();
        self.run("deactivating a key", move |c, _| {
            keys::deactivate(c, &key_id)
        })
    }

    fn keys_of(&self, user: &str) -> io::Result<Vec<KeyInfo>> {
        let user = user.to_string();
        self.run("listing keys", move |c, _| keys::of_user(c, &user))
    }

    fn create_alert(&self, user: &str, alert: AlertConfig) -> io::Result<Result<(), AlertLimit>> {
        let user = user.to_string();
        self.run("saving an alert", move |c, _| {
            alerts::create(c, &user, &alert)
        })
    }

    fn delete_alert(&self, user: &str, id: Uuid) -> io::Result<Option<AlertConfig>> {
        let user = user.to_string();
        self.run("deleting an alert", move |c, _| {
            alerts::delete(c, &user, id)
        })
    }

    fn alerts_of(&self, user: &str) -> io::Result<Vec<AlertConfig>> {
        let user = user.to_string();
        self.run("listing alerts", move |c, _| alerts::of_user(c, &user))
    }
}
