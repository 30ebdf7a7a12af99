//! Per-user state: accounts, API keys and credit balances, the server's small mutable state.
//!
//! Everything else the server serves is the read-only index; this module is
//! the only state that changes while it runs. Callers reach it through one
//! trait, [`AccountStore`] (its contract is in `account_store.rs`, checked
//! for every implementation by `contract_tests`); [`JournalStore`] is the
//! implementation for one server: small, in memory, and made durable with a
//! journal and a snapshot in a *state directory*. [`PgStore`] (`pg/`) keeps
//! the same state in PostgreSQL for replicas that share it: the same key
//! format and credit arithmetic (it loads one user into a `Ledger` per
//! decision), each change one transaction under that user's row lock, and
//! the rate limit counted in the database. The sections below describe the
//! journal store. Nothing here knows HTTP.
//!
//! # Model
//!
//! A user has a [`Plan`], any number of API keys, a purchased balance that
//! never expires and a monthly allowance ([`Allowances`]) that resets at each
//! calendar month (UTC) without rollover, and a set of people whose e-mail
//! it unlocked (each unlock is one journal record with its charge). Charges
//! take monthly credits first,
//! then purchased ones; a charge the balance cannot pay is refused whole
//! ([`Insufficient`]) and nothing is taken. Plans without an allowance (by
//! default only `api`) are unmetered: never refused, usage still recorded.
//!
//! Keys are `vg_<12 hex id>_<32 base64url secret>`; only `SHA-256(salt ‖ key)`
//! is stored. The plaintext is returned once by
//! [`JournalStore::create_key`].
//!
//! # State directory
//!
//! ```text
//! <state_dir>/LOCK            flock'd while a store is open (one server per directory)
//! <state_dir>/admin.sock      the running server's admin socket (see `api::admin`)
//! <state_dir>/snapshot.json   the whole state as of sequence number S (see `snapshot`)
//! <state_dir>/journal.jsonl   records after S, one JSON object per line (see `record`)
//! ```
//!
//! [`JournalStore::open`] loads the snapshot, replays the journal (skipping
//! records the snapshot already holds, ignoring a torn final line, refusing
//! any other damage with an `InvalidData` error), then writes a fresh
//! snapshot and empties the journal. While running, the journal is compacted
//! the same way every [`DEFAULT_COMPACT_AFTER`] records: flush, snapshot to a
//! temp file, fsync, rename, fsync the directory, then truncate the journal.
//! A crash between the rename and the truncation leaves records the snapshot
//! already holds; their sequence numbers make replay skip them, so no record
//! is ever applied twice.
//!
//! # Durability and group commit
//!
//! Every mutating call returns only once its records are on disk. The state
//! is an in-memory ledger behind an `RwLock`; a mutation takes the write lock
//! just long enough to decide (e.g. "can this charge be paid?"), apply the
//! records, give them the next sequence numbers and append their JSON lines
//! to an in-memory queue. No I/O happens under that lock. The caller then
//! waits for its sequence number to become durable (see `commit.rs`):
//!
//! 1. if it already is (another thread's sync covered it), return;
//! 2. if no thread is currently the *leader*, become it: take the whole queue
//!    (my record and everything queued since), write it with one
//!    `write_all`, `fdatasync` once, publish the durable sequence number,
//!    step down and wake all waiters (`Condvar::notify_all`);
//! 3. otherwise sleep until the leader steps down, then go to 1.
//!
//! A request's charge does not make its handler thread wait: it is queued,
//! the store's *syncer* thread flushes it like any leader, and the answer
//! waits asynchronously for the sync ([`Durability`], `commit.rs`); only a
//! charge that finds a compaction due leads it there and then.
//!
//! While a leader syncs, other charging threads keep deciding and queueing,
//! so the next leader flushes all of them with a single sync and the rest
//! find their records already durable. No thread is dedicated to writing, a
//! lone caller pays exactly one sync, and N concurrent callers share syncs
//! (measured on this machine's ext4 disk: about 7 000 charges/s from one
//! thread, one sync each; 25 000–40 000 charges/s from 8 threads with 4–7
//! charges per sync). One leader at a time drains the queue in sequence order,
//! so the file is always in sequence order.
//!
//! Decisions see records that are applied but not yet durable. That is safe:
//! such a record is either made durable shortly, or the process dies and its
//! caller never got an answer. If a write or sync fails, the file's content
//! is unknown, so the store refuses all further changes (reads keep working)
//! until it is reopened, which recovers exactly the durable state.

mod account_store;
mod commit;
#[cfg(test)]
pub mod contract_tests;
mod journal;
mod key;
mod ledger;
pub mod pg;
mod plan;
mod rate_window;
mod record;
mod snapshot;
mod store;
#[cfg(test)]
mod testdir;

pub use account_store::{
    AccountStore, Admission, AlertLimit, ChargeResult, Durability, PendingCharge, Unlock,
    MAX_ALERTS,
};
pub use key::{parse_key, AuthFailure, Principal};
pub use ledger::{Balance, Charge, CreditSource, Insufficient};
pub use pg::PgStore;
pub use plan::{Allowances, Plan};
pub use rate_window::{wait_seconds, SlidingWindows, RATE_WINDOW_MS};
pub use store::{lock_state_dir, JournalStore, KeyInfo, Stats, DEFAULT_COMPACT_AFTER};
