//! [`JournalStore`]: the durable account store shared by all request handlers.
//!
//! See the module docs of [`crate::accounts`] for the on-disk layout and
//! the durability design; this file is the public API: each mutation decides
//! under the ledger write lock, queues its records with the group commit and
//! waits for them to be durable, except a charge taken with
//! [`AccountStore::charge_pending`], whose caller waits asynchronously
//! (the store's syncer thread flushes it, `commit.rs`).

use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock, RwLockReadGuard, RwLockWriteGuard};
use std::thread::JoinHandle;

use chrono::{DateTime, Utc};
use uuid::Uuid;

use super::account_store::{
    AccountStore, Admission, AlertLimit, ChargeResult, PendingCharge, Unlock, MAX_ALERTS,
};
use super::commit::{run_syncer, Durability, GroupCommit, Leader};
use super::journal::{self, Journal, JOURNAL_FILE};
use super::key::{self, constant_time_eq, hex_encode, parse_key, AuthFailure, Principal};
use super::ledger::{month_of, Balance, Charge, Decision, Insufficient, Ledger};
use super::plan::{Allowances, Plan};
use super::rate_window::SlidingWindows;
use super::record::{Entry, Record};
use super::snapshot;
use crate::schema::alert::AlertConfig;

/// Compact after this many journal records unless told otherwise.
pub const DEFAULT_COMPACT_AFTER: u64 = 10_000;
const LOCK_FILE: &str = "LOCK";

// Handlers share one store across threads.
const _: fn() = || {
    fn shared<T: Send + Sync>() {}
    shared::<JournalStore>();
};

/// JournalStore, API keys and credit balances, durably stored in a state directory.
/// `Send + Sync`: share one `Arc<JournalStore>` between all request handlers.
pub struct JournalStore {
    dir: PathBuf,
    allowances: Allowances,
    ledger: RwLock<Ledger>,
    commit: Arc<GroupCommit>,
    /// Flushes pending charges ([`run_syncer`]); stopped and joined on drop.
    syncer: Option<JoinHandle<()>>,
    compact_after: AtomicU64,
    compactions: AtomicU64,
    compaction_error: Mutex<Option<String>>,
    /// Per-key request admissions (in memory: a restart forgives).
    windows: SlidingWindows,
    /// Holds an exclusive `flock` on `LOCK` for the life of the store.
    _lock: File,
}

/// Counters since [`JournalStore::open`], for monitoring and benchmarks.
#[derive(Debug, Clone, PartialEq)]
pub struct Stats {
    /// Journal `fdatasync` calls (one per committed batch).
    pub journal_syncs: u64,
    /// Records written to the journal.
    pub records_written: u64,
    /// Snapshots written (including the one `open` writes after replay).
    pub compactions: u64,
    /// The last automatic compaction failure, if any (the journal stays valid).
    pub compaction_error: Option<String>,
}

/// One key of a user, as listed by [`JournalStore::keys_of`].
#[derive(Debug, Clone, PartialEq)]
pub struct KeyInfo {
    pub key_id: String,
    pub active: bool,
}

impl JournalStore {
    /// Opens the state in `state_dir` (created if needed): loads the snapshot,
    /// replays the journal, and folds the journal into a fresh snapshot.
    /// Fails if another process has the directory open or the state is damaged.
    pub fn open(state_dir: &Path, allowances: Allowances) -> io::Result<JournalStore> {
        fs::create_dir_all(state_dir)?;
        let lock = lock_dir(state_dir)?;
        let mut ledger = snapshot::read(state_dir)?;
        let replayed = journal::replay(&state_dir.join(JOURNAL_FILE), &mut ledger)?;
        let mut journal = Journal::open(&state_dir.join(JOURNAL_FILE))?;
        let compacted = replayed.file_bytes > 0;
        if compacted {
            snapshot::write(state_dir, &snapshot::encode(&ledger)?)?;
            journal.truncate()?;
        }
        let commit = Arc::new(GroupCommit::new(journal, ledger.seq));
        let syncer = spawn_syncer(&commit)?;
        Ok(JournalStore {
            dir: state_dir.to_path_buf(),
            allowances,
            commit,
            syncer: Some(syncer),
            ledger: RwLock::new(ledger),
            compact_after: AtomicU64::new(DEFAULT_COMPACT_AFTER),
            compactions: AtomicU64::new(u64::from(compacted)),
            compaction_error: Mutex::new(None),
            windows: SlidingWindows::default(),
            _lock: lock,
        })
    }

    /// Compacts automatically once the journal holds `records` records (at least 1).
    pub fn set_compact_after(&self, records: u64) {
        self.compact_after.store(records.max(1), Ordering::Relaxed);
    }

    /// Issues a new key for `user`, creating the user with `plan` if new (an
    /// existing user keeps their plan; see [`JournalStore::set_plan`]). Returns the
    /// plaintext key, which is not stored anywhere and cannot be shown again.
    pub fn create_key(&self, user: &str, plan: Plan) -> io::Result<String> {
        if user.is_empty() {
            return Err(invalid_input("user name must not be empty"));
        }
        self.mutate(|ledger| {
            let new = loop {
                let candidate = key::generate()?;
                if !ledger.keys.contains_key(&candidate.key_id) {
                    break candidate;
                }
            };
            let mut records = Vec::with_capacity(2);
            if !ledger.users.contains_key(user) {
                records.push(Record::UserCreated {
                    user: user.to_string(),
                    plan,
                });
            }
            records.push(Record::KeyCreated {
                key_id: new.key_id,
                user: user.to_string(),
                salt: hex_encode(&new.salt),
                digest: hex_encode(&new.digest),
            });
            Ok((records, new.plaintext))
        })
    }

    /// Changes the plan of an existing user; the month's usage carries over.
    pub fn set_plan(&self, user: &str, plan: Plan) -> io::Result<()> {
        self.mutate(|ledger| {
            let current = ledger.users.get(user).ok_or_else(|| unknown_user(user))?;
            let change = (current.plan != plan).then(|| Record::PlanSet {
                user: user.to_string(),
                plan,
            });
            Ok((change.into_iter().collect(), ()))
        })
    }

    /// Adds purchased credits (they never expire) and returns the balance as
    /// of now; `monthly_remaining` is 0 for unmetered plans.
    pub fn add_purchased(&self, user: &str, credits: u64) -> io::Result<Balance> {
        let month = month_of(Utc::now());
        self.mutate(|ledger| {
            let account = ledger.users.get(user).ok_or_else(|| unknown_user(user))?;
            let purchased_remaining = account
                .purchased
                .checked_add(credits)
                .ok_or_else(|| invalid_input("purchased balance would overflow"))?;
            let monthly_remaining = account
                .balance(&month, &self.allowances)
                .map_or(0, |b| b.monthly_remaining);
            let purchase = (credits > 0).then(|| Record::Purchase {
                user: user.to_string(),
                credits,
            });
            let balance = Balance {
                monthly_remaining,
                purchased_remaining,
            };
            Ok((purchase.into_iter().collect(), balance))
        })
    }

    /// Deactivates a key; `false` if it is unknown or already inactive.
    pub fn deactivate_key(&self, key_id: &str) -> io::Result<bool> {
        self.mutate(|ledger| {
            let active = ledger.keys.get(key_id).is_some_and(|k| k.active);
            let change = active.then(|| Record::KeyDeactivated {
                key_id: key_id.to_string(),
            });
            Ok((change.into_iter().collect(), active))
        })
    }

    /// Checks a presented key. A wrong secret for a known id is `Unknown`,
    /// whether or not that key is active.
    pub fn authenticate(&self, key: &str) -> Result<Principal, AuthFailure> {
        let (key_id, _secret) = parse_key(key).ok_or(AuthFailure::Malformed)?;
        let (stored, plan) = {
            let ledger = self.read_ledger();
            let stored = ledger.keys.get(key_id).cloned();
            let stored = stored.ok_or(AuthFailure::Unknown)?;
            let plan = ledger.users.get(&stored.user).map(|u| u.plan);
            (stored, plan.ok_or(AuthFailure::Unknown)?)
        };
        let presented = key::digest(&stored.salt, key);
        if !constant_time_eq(&presented, &stored.digest) {
            return Err(AuthFailure::Unknown);
        }
        if !stored.active {
            return Err(AuthFailure::Inactive);
        }
        Ok(Principal {
            user: stored.user,
            key_id: key_id.to_string(),
            plan,
        })
    }

    /// Balance of `user` at `now`; `None` for unknown users and unmetered plans.
    pub fn balance(&self, user: &str, now: DateTime<Utc>) -> Option<Balance> {
        let month = month_of(now);
        self.read_ledger().balance(user, &month, &self.allowances)
    }

    /// Credits charged to `user` in the month of `now`, whichever balance paid
    /// (for unmetered plans too); `None` for unknown users.
    pub fn usage(&self, user: &str, now: DateTime<Utc>) -> Option<u64> {
        let month = month_of(now);
        let ledger = self.read_ledger();
        ledger.users.get(user).map(|u| u.credits_in(&month))
    }

    /// The current plan of `user`.
    pub fn plan_of(&self, user: &str) -> Option<Plan> {
        self.read_ledger().users.get(user).map(|u| u.plan)
    }

    /// The keys of `user`, sorted by id.
    pub fn keys_of(&self, user: &str) -> Vec<KeyInfo> {
        let ledger = self.read_ledger();
        let mut keys: Vec<KeyInfo> = (ledger.keys.iter())
            .filter(|(_, key)| key.user == user)
            .map(|(key_id, key)| KeyInfo {
                key_id: key_id.clone(),
                active: key.active,
            })
            .collect();
        keys.sort_by(|a, b| a.key_id.cmp(&b.key_id));
        keys
    }

    /// Charges `credits` to the principal's user: monthly credits first, then
    /// purchased. The user's current plan decides (not the one in `principal`).
    /// `Ok(Ok(_))` is durable when returned; `Ok(Err(_))` charged nothing.
    /// Unmetered plans are never refused but their usage is recorded.
    pub fn charge(
        &self,
        principal: &Principal,
        credits: u64,
        now: DateTime<Utc>,
    ) -> io::Result<Result<Charge, Insufficient>> {
        self.charge_with(principal, credits, 0, now)
    }

    /// [`JournalStore::charge`], also recording `semantic` searches run.
    pub fn charge_with(
        &self,
        principal: &Principal,
        credits: u64,
        semantic: u64,
        now: DateTime<Utc>,
    ) -> io::Result<Result<Charge, Insufficient>> {
        let (charge, seq) = self.charge_applied(principal, (credits, semantic), now)?;
        if let Some(seq) = seq {
            self.wait_durable(seq)?;
        }
        Ok(charge)
    }

    /// A charge of `(credits, semantic searches)` decided, applied and
    /// queued; the sequence number to wait for (`None`: nothing written).
    fn charge_applied(
        &self,
        principal: &Principal,
        (credits, semantic): (u64, u64),
        now: DateTime<Utc>,
    ) -> io::Result<(Result<Charge, Insufficient>, Option<u64>)> {
        let month = month_of(now);
        let user = principal.user.as_str();
        if credits == 0 && semantic == 0 {
            return Ok((self.free_charge(user, &month)?, None));
        }
        let (seq, charge) = self.apply(|ledger| {
            let decision = ledger.decide_charge(user, credits, semantic, &month, &self.allowances);
            match decision.ok_or_else(|| unknown_user(user))? {
                Decision::Pay { record, charge } => Ok((record.into_iter().collect(), Ok(charge))),
                Decision::Refuse(refused) => Ok((Vec::new(), Err(refused))),
            }
        })?;
        Ok((charge, seq))
    }

    /// What a caller that must not block waits for until record `seq` is
    /// durable: the syncer's flush, woken now; or nothing when a compaction
    /// is due, which this thread then leads (flush and snapshot) itself.
    fn pending(&self, seq: u64) -> io::Result<Option<Durability>> {
        if self.compaction_due() {
            self.wait_durable(seq)?;
            return Ok(None);
        }
        self.commit.wake_syncer();
        Ok(Some(self.commit.durability(seq)))
    }

    /// `(searches used this month, ceiling)` of the principal's semantic
    /// searches; `None` when the plan has no ceiling. A read: no lock is
    /// held beyond the ledger's read lock, nothing is written.
    pub fn semantic_usage(&self, principal: &Principal, now: DateTime<Utc>) -> Option<(u64, u64)> {
        let ledger = self.read_ledger();
        let user = ledger.users.get(&principal.user)?;
        let limit = self.allowances.semantic(user.plan)?;
        Some((user.semantic_in(&month_of(now)), limit))
    }

    /// Whether `credits` could be charged now (a pre-check; nothing is charged).
    pub fn can_pay(&self, principal: &Principal, credits: u64, now: DateTime<Utc>) -> bool {
        let month = month_of(now);
        let ledger = self.read_ledger();
        let Some(user) = ledger.users.get(&principal.user) else {
            return false;
        };
        user.balance(&month, &self.allowances)
            .is_none_or(|balance| balance.total() >= credits)
    }

    /// Writes a snapshot of the current state and empties the journal.
    pub fn compact(&self) -> io::Result<()> {
        let mut leader = self.commit.leader()?;
        self.compact_with(&mut leader)
    }

    /// Counters since `open`.
    pub fn stats(&self) -> Stats {
        let error = self
            .compaction_error
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        Stats {
            journal_syncs: self.commit.syncs(),
            records_written: self.commit.records(),
            compactions: self.compactions.load(Ordering::Relaxed),
            compaction_error: error.clone(),
        }
    }

    /// The state directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Runs `decide` on the ledger under the write lock, applies and queues the
    /// records it returns, then waits until they are durable.
    fn mutate<T>(
        &self,
        decide: impl FnOnce(&Ledger) -> io::Result<(Vec<Record>, T)>,
    ) -> io::Result<T> {
        let (seq, out) = self.apply(decide)?;
        if let Some(seq) = seq {
            self.wait_durable(seq)?;
        }
        Ok(out)
    }

    /// Runs `decide` on the ledger under the write lock, applies and queues
    /// the records it returns; the last one's sequence number (`None`: no
    /// record).
    fn apply<T>(
        &self,
        decide: impl FnOnce(&Ledger) -> io::Result<(Vec<Record>, T)>,
    ) -> io::Result<(Option<u64>, T)> {
        self.commit.check_healthy()?;
        let mut ledger = self.write_ledger();
        let (records, out) = decide(&ledger)?;
        if records.is_empty() {
            return Ok((None, out));
        }
        for record in records {
            self.push(&mut ledger, record)?;
        }
        Ok((Some(ledger.seq), out))
    }

    /// Applies `record` as the next sequence number and queues its journal line.
    fn push(&self, ledger: &mut Ledger, record: Record) -> io::Result<()> {
        let entry = Entry {
            seq: ledger.seq + 1,
            record,
        };
        let mut line = Vec::new();
        entry.write_line(&mut line).map_err(io::Error::other)?;
        let applied = ledger.apply(&entry);
        applied.map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
        self.commit.enqueue(&line, entry.seq);
        Ok(())
    }

    /// Whether the journal holds enough records to be compacted.
    fn compaction_due(&self) -> bool {
        self.commit.in_journal() >= self.compact_after.load(Ordering::Relaxed)
    }

    /// Returns once record `seq` is durable, flushing (and compacting when
    /// due) if this thread is elected leader. When a compaction is due the
    /// caller leads even if the syncer already made `seq` durable: a busy
    /// syncer flushes every record as it comes and never compacts, so a due
    /// compaction is done (by this caller or the leader before it) before
    /// the caller returns.
    fn wait_durable(&self, seq: u64) -> io::Result<()> {
        let leader = if self.compaction_due() {
            Some(self.commit.leader()?)
        } else {
            self.commit.leader_for(seq)?
        };
        let Some(mut leader) = leader else {
            return Ok(());
        };
        leader.flush()?;
        if leader.journal_records() >= self.compact_after.load(Ordering::Relaxed) {
            let result = self.compact_with(&mut leader);
            let mut error = self
                .compaction_error
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            *error = result.err().map(|e| e.to_string());
        }
        Ok(())
    }

    /// Flushes the queue, snapshots the ledger and empties the journal. If the
    /// snapshot cannot be written the journal still holds everything and the
    /// next attempt waits for another batch of records; only a failure to
    /// empty the journal is fatal.
    fn compact_with(&self, leader: &mut Leader<'_>) -> io::Result<()> {
        self.commit.check_healthy()?;
        leader.flush()?;
        let bytes = snapshot::encode(&self.read_ledger())?;
        if let Err(e) = snapshot::write(&self.dir, &bytes) {
            leader.reset_count();
            return Err(e);
        }
        leader.truncate()?;
        self.compactions.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }

    // The ledger is never left half-updated (`Ledger::apply` validates before
    // it mutates), so a lock poisoned by an unrelated panic is safe to reuse.
    /// Whether `user` has unlocked `person` (a hyphenated UUID).
    pub fn is_unlocked(&self, user: &str, person: &str) -> bool {
        let ledger = self.read_ledger();
        ledger
            .users
            .get(user)
            .is_some_and(|u| u.unlocked.contains(person))
    }

    /// A charge of nothing: the balance as of now, under the read lock
    /// only (nothing is written, no paying charge waits for it).
    fn free_charge(&self, user: &str, month: &str) -> ChargeResult {
        let ledger = self.read_ledger();
        match ledger.decide_charge(user, 0, 0, month, &self.allowances) {
            Some(Decision::Pay { charge, .. }) => Ok(Ok(charge)),
            Some(Decision::Refuse(refused)) => Ok(Err(refused)),
            None => Err(unknown_user(user)),
        }
    }

    fn read_ledger(&self) -> RwLockReadGuard<'_, Ledger> {
        self.ledger.read().unwrap_or_else(|e| e.into_inner())
    }

    fn write_ledger(&self) -> RwLockWriteGuard<'_, Ledger> {
        self.ledger.write().unwrap_or_else(|e| e.into_inner())
    }
}

impl Drop for JournalStore {
    /// Stops the syncer once it flushed what is queued.
    fn drop(&mut self) {
        self.commit.stop_syncer();
        if let Some(syncer) = self.syncer.take() {
            let _ = syncer.join();
        }
    }
}

fn spawn_syncer(commit: &Arc<GroupCommit>) -> io::Result<JoinHandle<()>> {
    let commit = Arc::clone(commit);
    std::thread::Builder::new()
        .name("accounts-syncer".into())
        .spawn(move || run_syncer(&commit))
}

impl AccountStore for JournalStore {
    fn authenticate(&self, key: &str) -> Result<Principal, AuthFailure> {
        JournalStore::authenticate(self, key)
    }

    fn admit(&self, key_id: &str, limit: u32, now: DateTime<Utc>) -> Admission {
        Ok(self.windows.admit(key_id, limit, now))
    }

    fn charge(
        &self,
        principal: &Principal,
        credits: u64,
        semantic: u64,
        now: DateTime<Utc>,
    ) -> ChargeResult {
        self.charge_with(principal, credits, semantic, now)
    }

    fn charge_pending(
        &self,
        principal: &Principal,
        credits: u64,
        semantic: u64,
        now: DateTime<Utc>,
    ) -> PendingCharge {
        let (charge, seq) = self.charge_applied(principal, (credits, semantic), now)?;
        let pending = match seq {
            Some(seq) => self.pending(seq)?,
            None => None,
        };
        Ok(charge.map(|charge| (charge, pending)))
    }

    /// A repeat is answered under the read lock; a new unlock decides and
    /// queues its one record under the write lock and returns once it is
    /// durable.
    fn unlock_email(
        &self,
        principal: &Principal,
        person: Uuid,
        credits: u64,
        now: DateTime<Utc>,
    ) -> io::Result<Result<Unlock, Insufficient>> {
        let (month, person) = (month_of(now), person.hyphenated().to_string());
        let user = principal.user.as_str();
        if self.is_unlocked(user, &person) {
            let charge = self.free_charge(user, &month)?;
            return Ok(charge.map(|charge| Unlock {
                charge,
                already_unlocked: true,
            }));
        }
        self.mutate(|ledger| {
            let decided = ledger.decide_unlock(user, &person, credits, &month, &self.allowances);
            match decided.ok_or_else(|| unknown_user(user))? {
                (Decision::Pay { record, charge }, already_unlocked) => Ok((
                    record.into_iter().collect(),
                    Ok(Unlock {
                        charge,
                        already_unlocked,
                    }),
                )),
                (Decision::Refuse(refused), _) => Ok((Vec::new(), Err(refused))),
            }
        })
    }

    fn semantic_usage(
        &self,
        principal: &Principal,
        now: DateTime<Utc>,
    ) -> io::Result<Option<(u64, u64)>> {
        Ok(JournalStore::semantic_usage(self, principal, now))
    }

    fn balance(&self, user: &str, now: DateTime<Utc>) -> io::Result<Option<Balance>> {
        Ok(JournalStore::balance(self, user, now))
    }

    fn plan_of(&self, user: &str) -> io::Result<Option<Plan>> {
        Ok(JournalStore::plan_of(self, user))
    }

    fn create_key(&self, user: &str, plan: Plan) -> io::Result<String> {
        JournalStore::create_key(self, user, plan)
    }

    fn set_plan(&self, user: &str, plan: Plan) -> io::Result<()> {
        JournalStore::set_plan(self, user, plan)
    }

    fn add_purchased(&self, user: &str, credits: u64) -> io::Result<Balance> {
        JournalStore::add_purchased(self, user, credits)
    }

    fn deactivate_key(&self, key_id: &str) -> io::Result<bool> {
        JournalStore::deactivate_key(self, key_id)
    }

    fn create_alert(&self, user: &str, alert: AlertConfig) -> io::Result<Result<(), AlertLimit>> {
        self.mutate(|ledger| {
            let account = ledger.users.get(user).ok_or_else(|| unknown_user(user))?;
            if account.alerts.len() >= MAX_ALERTS {
                return Ok((Vec::new(), Err(AlertLimit { limit: MAX_ALERTS })));
            }
            let record = Record::AlertCreated {
                user: user.to_string(),
                alert: Box::new(alert),
            };
            Ok((vec![record], Ok(())))
        })
    }

    fn delete_alert(&self, user: &str, id: Uuid) -> io::Result<Option<AlertConfig>> {
        self.mutate(|ledger| {
            let alerts = ledger
                .users
                .get(user)
                .map_or(&[][..], |u| u.alerts.as_slice());
            let Some(found) = alerts.iter().find(|a| a.id == id) else {
                return Ok((Vec::new(), None));
            };
            let record = Record::AlertDeleted {
                user: user.to_string(),
                id,
            };
            Ok((vec![record], Some(found.clone())))
        })
    }

    fn alerts_of(&self, user: &str) -> io::Result<Vec<AlertConfig>> {
        let ledger = self.read_ledger();
        Ok(ledger
            .users
            .get(user)
            .map(|u| u.alerts.clone())
            .unwrap_or_default())
    }

    fn keys_of(&self, user: &str) -> io::Result<Vec<KeyInfo>> {
        Ok(JournalStore::keys_of(self, user))
    }
}

/// Takes a state directory (created if missing) for this process alone,
/// as [`JournalStore::open`] does, for a server whose accounts live
/// elsewhere but whose admin socket lives there; held while the file lives.
pub fn lock_state_dir(dir: &Path) -> io::Result<File> {
    fs::create_dir_all(dir)?;
    lock_dir(dir)
}

/// Takes an exclusive lock so two servers never share one state directory.
fn lock_dir(dir: &Path) -> io::Result<File> {
    let path = dir.join(LOCK_FILE);
    let file = File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)?;
    file.try_lock().map_err(|e| {
        let message = format!("accounts state {} is in use ({e})", dir.display());
        io::Error::new(io::ErrorKind::WouldBlock, message)
    })?;
    Ok(file)
}

fn unknown_user(user: &str) -> io::Error {
    io::Error::new(io::ErrorKind::NotFound, format!("unknown user {user:?}"))
}

fn invalid_input(message: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, message.to_string())
}

#[cfg(test)]
#[path = "store_tests.rs"]
mod tests;
