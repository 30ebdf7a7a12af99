//! [`AccountStore`]: the one narrow interface to per-user state. The
//! dispatcher, the routes, the admin socket and `server keys` call it and
//! nothing else; [`crate::accounts::JournalStore`] (journal + snapshot in a
//! state directory) is the default implementation, for one server, and
//! [`crate::accounts::PgStore`] (PostgreSQL) the one several replicas
//! share; callers do not know which they have.
//!
//! # Contract (checked for every implementation by `contract_tests`)
//!
//! - No method assumes its process owns the state: every decision that
//!   reads and then writes (can this charge be paid?) is made inside the
//!   one call that writes, atomically; callers never pre-check.
//! - A mutation is durable when it returns `Ok`; an `Err` leaves the state
//!   as if it had not been called, or refuses further writes (a database
//!   store cannot promise this when its connection is lost during COMMIT:
//!   the change may then have been made). The one exception is
//!   `charge_pending`: its charge is applied (later decisions see it) and
//!   durable once its [`Durability`], if any, resolved; the caller must not
//!   report the charge before then, and a failed `Durability` means the
//!   store refuses further writes (its durable state lacks the charge).
//! - `charge` of 0 credits and no semantic search writes nothing and takes
//!   no lock that a paying charge needs: it reports the balance as of now.
//! - A charge the balance cannot pay takes nothing (`Insufficient`).
//! - Unmetered plans are never refused; their usage is recorded.
//! - An e-mail unlock belongs to the user (all of their keys) and is paid
//!   once, in the same durable change that records it.
//! - Alert configurations belong to a user: listed oldest first, at most
//!   [`MAX_ALERTS`] each (the limit is checked inside the saving call),
//!   and a user can neither see nor delete another user's.
//! - Requests are admitted per key: a burst at one instant admits exactly
//!   `limit`, from any number of threads (and, for a shared store, of
//!   servers); a refused request is not counted and is told a wait of at
//!   least a second and at most two windows; once two windows have passed
//!   without requests the key starts afresh. Within that, how the window
//!   slides is the implementation's (exact for the journal store, which
//!   waits at most one window; see the database store's docs for its
//!   tolerance).

use std::io;

use chrono::{DateTime, Utc};
use uuid::Uuid;

pub use super::commit::Durability;
use super::key::{AuthFailure, Principal};
use super::ledger::{Balance, Charge, Insufficient};
use super::plan::Plan;
use super::store::KeyInfo;
use crate::schema::alert::AlertConfig;

/// Most alert configurations one user may keep.
pub const MAX_ALERTS: usize = 100;

/// An alert configuration refused because the user already has [`MAX_ALERTS`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AlertLimit {
    pub limit: usize,
}

/// A request admitted, or refused with the seconds to wait (`Retry-After`).
pub type Admission = io::Result<Result<(), u64>>;

/// The outcome of a charge: paid (durable) or refused (nothing taken).
pub type ChargeResult = io::Result<Result<Charge, Insufficient>>;

/// The outcome of [`AccountStore::charge_pending`]: paid (durable once the
/// [`Durability`], if any, resolved) or refused (nothing taken).
pub type PendingCharge = io::Result<Result<(Charge, Option<Durability>), Insufficient>>;

/// An e-mail unlock that went through.
#[derive(Debug, Clone, PartialEq)]
pub struct Unlock {
    /// What it cost: the unlock price the first time, 0 for a repeat.
    pub charge: Charge,
    /// The user had unlocked this person before (with any of their keys).
    pub already_unlocked: bool,
}

/// Per-user state. `Send + Sync`: one store serves every request thread.
pub trait AccountStore: Send + Sync {
    /// Checks a presented key.
    fn authenticate(&self, key: &str) -> Result<Principal, AuthFailure>;

    /// Counts a request of key `key_id` at `now` against at most `limit`
    /// requests per [`crate::accounts::RATE_WINDOW_MS`] (0: no limit).
    fn admit(&self, key_id: &str, limit: u32, now: DateTime<Utc>) -> Admission;

    /// Charges `credits` to the principal's user (monthly allowance first,
    /// then purchased credits) and records `semantic` searches run. The
    /// user's current plan decides, not the one in `principal`.
    fn charge(
        &self,
        principal: &Principal,
        credits: u64,
        semantic: u64,
        now: DateTime<Utc>,
    ) -> ChargeResult;

    /// [`AccountStore::charge`] without waiting for the disk, for a caller
    /// that waits asynchronously: the charge is decided and applied, and
    /// durable once the returned [`Durability`] (if any) resolved. By
    /// default the charge is durable on return.
    fn charge_pending(
        &self,
        principal: &Principal,
        credits: u64,
        semantic: u64,
        now: DateTime<Utc>,
    ) -> PendingCharge {
        Ok(self
            .charge(principal, credits, semantic, now)?
            .map(|c| (c, None)))
    }

    /// Unlocks `person`'s e-mail for the principal's user, charging
    /// `credits` unless the user unlocked it before (then 0). The unlock and
    /// its charge are one durable change: both happen or neither does, and
    /// a retry never charges twice. Refused whole when the balance is short.
    fn unlock_email(
        &self,
        principal: &Principal,
        person: Uuid,
        credits: u64,
        now: DateTime<Utc>,
    ) -> io::Result<Result<Unlock, Insufficient>>;

    /// `(searches used this month, ceiling)`; `None` when the plan has none.
    fn semantic_usage(
        &self,
        principal: &Principal,
        now: DateTime<Utc>,
    ) -> io::Result<Option<(u64, u64)>>;

    /// The balance of `user` at `now`; `None` for unknown users and
    /// unmetered plans.
    fn balance(&self, user: &str, now: DateTime<Utc>) -> io::Result<Option<Balance>>;

    /// The current plan of `user`.
    fn plan_of(&self, user: &str) -> io::Result<Option<Plan>>;

    /// Issues a new key for `user`, creating the user with `plan` if new;
    /// returns the plaintext key (never stored).
    fn create_key(&self, user: &str, plan: Plan) -> io::Result<String>;

    /// Changes the plan of an existing user.
    fn set_plan(&self, user: &str, plan: Plan) -> io::Result<()>;

    /// Adds purchased credits; returns the balance as of now.
    fn add_purchased(&self, user: &str, credits: u64) -> io::Result<Balance>;

    /// Deactivates a key; `false` if it is unknown or already inactive.
    fn deactivate_key(&self, key_id: &str) -> io::Result<bool>;

    /// The keys of `user`, sorted by id.
    fn keys_of(&self, user: &str) -> io::Result<Vec<KeyInfo>>;

    /// Saves `alert` (whose id is new) for an existing `user`, durably;
    /// refused when the user already has [`MAX_ALERTS`].
    fn create_alert(&self, user: &str, alert: AlertConfig) -> io::Result<Result<(), AlertLimit>>;

    /// Removes `user`'s alert `id`, durably; `None` when the user has no
    /// such alert (another user's included).
    fn delete_alert(&self, user: &str, id: uuid::Uuid) -> io::Result<Option<AlertConfig>>;

    /// `user`'s alert configurations, oldest first (none for an unknown user).
    fn alerts_of(&self, user: &str) -> io::Result<Vec<AlertConfig>>;
}
