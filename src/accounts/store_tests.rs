//! Tests of [`JournalStore`] against real state directories.

use std::fs::{self, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::TimeZone;
use uuid::Uuid;

use super::*;
use crate::accounts::contract_tests::alert;
use crate::accounts::ledger::CreditSource;
use crate::accounts::testdir::TestDir;

fn at(year: i32, month: u32, day: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(year, month, day, 12, 0, 0).unwrap()
}

fn open(dir: &TestDir) -> JournalStore {
    JournalStore::open(dir.path(), Allowances::default()).unwrap()
}

fn balance(monthly_remaining: u64, purchased_remaining: u64) -> Balance {
    Balance {
        monthly_remaining,
        purchased_remaining,
    }
}

/// Opens a store with one user on `plan` holding `purchased` credits; returns the principal.
fn store_with(dir: &TestDir, plan: Plan, purchased: u64) -> (JournalStore, Principal) {
    let accounts = open(dir);
    let key = accounts.create_key("acme", plan).unwrap();
    if purchased > 0 {
        accounts.add_purchased("acme", purchased).unwrap();
    }
    let principal = accounts.authenticate(&key).unwrap();
    (accounts, principal)
}

fn pay(accounts: &JournalStore, principal: &Principal, credits: u64, now: DateTime<Utc>) -> Charge {
    accounts.charge(principal, credits, now).unwrap().unwrap()
}

/// Charges `credits` `per_thread` times from each of `threads` threads; the
/// sum of the credits the charges reported.
fn charge_from_threads(
    accounts: &Arc<JournalStore>,
    p: &Principal,
    threads: u64,
    per_thread: u64,
    credits: u64,
    now: DateTime<Utc>,
) -> u64 {
    let handles: Vec<_> = (0..threads)
        .map(|_| {
            let (accounts, p) = (Arc::clone(accounts), p.clone());
            std::thread::spawn(move || {
                let charges = (0..per_thread).map(|_| pay(&accounts, &p, credits, now));
                charges.map(|c| c.credits_used).sum::<u64>()
            })
        })
        .collect();
    handles.into_iter().map(|h| h.join().unwrap()).sum()
}

fn state_files_contain(dir: &TestDir, needle: &str) -> bool {
    fs::read_dir(dir.path()).unwrap().any(|entry| {
        let bytes = fs::read(entry.unwrap().path()).unwrap();
        bytes.windows(needle.len()).any(|w| w == needle.as_bytes())
    })
}

#[test]
fn keys_have_the_spec_format_and_only_hashes_are_stored() {
    let dir = TestDir::new("store-hash-only");
    let accounts = open(&dir);
    let key = accounts.create_key("acme", Plan::Pro).unwrap();
    let (key_id, secret) = parse_key(&key).unwrap();
    assert_eq!((key.len(), key_id.len(), secret.len()), (48, 12, 32));
    assert!(key.starts_with("vg_"));
    let check = |dir: &TestDir| {
        assert!(state_files_contain(dir, key_id), "the key id is stored");
        assert!(!state_files_contain(dir, secret));
        assert!(!state_files_contain(dir, &key));
    };
    check(&dir); // in the journal
    accounts.compact().unwrap();
    check(&dir); // in the snapshot
    assert_eq!(
        accounts.keys_of("acme"),
        vec![KeyInfo {
            key_id: key_id.into(),
            active: true
        }]
    );
}

#[test]
fn authenticate_outcomes() {
    let dir = TestDir::new("store-auth");
    let accounts = open(&dir);
    let key = accounts.create_key("acme", Plan::ProPlus).unwrap();
    let (key_id, secret) = parse_key(&key).unwrap();
    let principal = accounts.authenticate(&key).unwrap();
    let expected = Principal {
        user: "acme".into(),
        key_id: key_id.into(),
        plan: Plan::ProPlus,
    };
    assert_eq!(principal, expected);

    assert_eq!(
        accounts.authenticate("vg_nope"),
        Err(AuthFailure::Malformed)
    );
    assert_eq!(accounts.authenticate(""), Err(AuthFailure::Malformed));
    let other_id = if key_id == "000000000000" {
        "000000000001"
    } else {
        "000000000000"
    };
    let other_key = format!("vg_{other_id}_{secret}");
    assert_eq!(accounts.authenticate(&other_key), Err(AuthFailure::Unknown));
    let flipped = if secret.starts_with('A') { 'B' } else { 'A' };
    let wrong_secret = format!("vg_{key_id}_{flipped}{}", &secret[1..]);
    assert_eq!(
        accounts.authenticate(&wrong_secret),
        Err(AuthFailure::Unknown)
    );

    assert!(accounts.deactivate_key(key_id).unwrap());
    assert_eq!(accounts.authenticate(&key), Err(AuthFailure::Inactive));
    assert_eq!(
        accounts.authenticate(&wrong_secret),
        Err(AuthFailure::Unknown)
    );
    assert!(!accounts.deactivate_key(key_id).unwrap());
    assert!(!accounts.deactivate_key("ffffffffffff").unwrap());

    let second = accounts.create_key("acme", Plan::Trial).unwrap();
    assert_eq!(
        accounts.authenticate(&second).unwrap().plan,
        Plan::ProPlus,
        "existing users keep their plan"
    );
    drop(accounts);
    let reopened = open(&dir);
    assert_eq!(reopened.authenticate(&key), Err(AuthFailure::Inactive));
    assert_eq!(reopened.authenticate(&second).unwrap().user, "acme");
}

#[test]
fn monthly_credits_first_then_purchased() {
    let dir = TestDir::new("store-spend");
    let (accounts, p) = store_with(&dir, Plan::Trial, 30);
    let now = at(2026, 8, 10);
    assert_eq!(accounts.balance("acme", now), Some(balance(200, 30)));
    let c = pay(&accounts, &p, 190, now);
    assert_eq!(
        c,
        Charge {
            credits_used: 190,
            source: Some(CreditSource::Monthly),
            balance: Some(balance(10, 30))
        }
    );
    let c = pay(&accounts, &p, 15, now);
    assert_eq!(c.source, Some(CreditSource::Purchased));
    assert_eq!(c.balance, Some(balance(0, 25)));
    let c = pay(&accounts, &p, 0, now);
    assert_eq!(
        c,
        Charge {
            credits_used: 0,
            source: None,
            balance: Some(balance(0, 25))
        }
    );
    assert_eq!(CreditSource::Purchased.as_str(), "purchased");
    assert_eq!(accounts.usage("acme", now), Some(205));
}

#[test]
fn insufficient_credits_charge_nothing() {
    let dir = TestDir::new("store-insufficient");
    let (accounts, p) = store_with(&dir, Plan::Trial, 5);
    let now = at(2026, 8, 10);
    pay(&accounts, &p, 100, now);
    let synced = accounts.stats().records_written;
    assert!(accounts.can_pay(&p, 105, now));
    assert!(!accounts.can_pay(&p, 106, now));
    let refused = accounts.charge(&p, 106, now).unwrap().unwrap_err();
    assert_eq!(
        refused,
        Insufficient {
            credits_needed: 106,
            balance: balance(100, 5)
        }
    );
    assert_eq!(accounts.balance("acme", now), Some(balance(100, 5)));
    assert_eq!(
        accounts.stats().records_written,
        synced,
        "a refusal writes nothing"
    );
    assert_eq!(pay(&accounts, &p, 105, now).balance, Some(balance(0, 0)));
    assert!(accounts.charge(&p, 1, now).unwrap().is_err());
}

#[test]
fn monthly_allowance_resets_without_rollover() {
    let dir = TestDir::new("store-rollover");
    let (accounts, p) = store_with(&dir, Plan::Pro, 50);
    pay(&accounts, &p, 400, at(2026, 8, 31));
    assert_eq!(
        accounts.balance("acme", at(2026, 8, 31)),
        Some(balance(600, 50))
    );
    assert_eq!(
        accounts.balance("acme", at(2026, 9, 1)),
        Some(balance(1_000, 50))
    );
    pay(&accounts, &p, 1_020, at(2026, 9, 1));
    assert_eq!(
        accounts.balance("acme", at(2026, 9, 30)),
        Some(balance(0, 30))
    );
    assert_eq!(accounts.usage("acme", at(2026, 9, 30)), Some(1_020));
    assert_eq!(
        accounts.balance("acme", at(2026, 10, 1)),
        Some(balance(1_000, 30))
    );
    drop(accounts);
    let reopened = open(&dir);
    assert_eq!(
        reopened.balance("acme", at(2026, 9, 2)),
        Some(balance(0, 30))
    );
    assert_eq!(
        reopened.balance("acme", at(2027, 2, 1)),
        Some(balance(1_000, 30))
    );
}

#[test]
fn api_plan_is_unmetered_but_recorded() {
    let dir = TestDir::new("store-api");
    let (accounts, p) = store_with(&dir, Plan::Api, 0);
    let now = at(2026, 8, 10);
    assert_eq!(accounts.balance("acme", now), None);
    assert!(accounts.can_pay(&p, u64::MAX, now));
    let c = pay(&accounts, &p, 1_000_000, now);
    assert_eq!(
        c,
        Charge {
            credits_used: 1_000_000,
            source: None,
            balance: None
        }
    );
    drop(accounts);
    let reopened = open(&dir);
    assert_eq!(reopened.usage("acme", now), Some(1_000_000));
    reopened.set_plan("acme", Plan::Trial).unwrap();
    assert_eq!(reopened.balance("acme", now), Some(balance(200, 0)));
    assert_eq!(reopened.plan_of("acme"), Some(Plan::Trial));
}

#[test]
fn unknown_users_are_errors() {
    let dir = TestDir::new("store-unknown");
    let accounts = open(&dir);
    let ghost = Principal {
        user: "ghost".into(),
        key_id: "000000000000".into(),
        plan: Plan::Pro,
    };
    let now = at(2026, 8, 10);
    assert_eq!(
        accounts.add_purchased("ghost", 5).unwrap_err().kind(),
        io::ErrorKind::NotFound
    );
    assert_eq!(
        accounts.charge(&ghost, 1, now).unwrap_err().kind(),
        io::ErrorKind::NotFound
    );
    assert_eq!(
        accounts.set_plan("ghost", Plan::Pro).unwrap_err().kind(),
        io::ErrorKind::NotFound
    );
    assert_eq!(
        accounts.create_key("", Plan::Pro).unwrap_err().kind(),
        io::ErrorKind::InvalidInput
    );
    assert!(!accounts.can_pay(&ghost, 0, now));
    assert_eq!(accounts.balance("ghost", now), None);
}

#[test]
fn restart_keeps_balances() {
    let dir = TestDir::new("store-restart");
    let (accounts, p) = store_with(&dir, Plan::Trial, 40);
    let now = at(2026, 8, 10);
    pay(&accounts, &p, 210, now);
    drop(accounts);
    let reopened = open(&dir);
    assert_eq!(reopened.balance("acme", now), Some(balance(0, 30)));
    let c = pay(&reopened, &p, 5, now);
    assert_eq!(c.balance, Some(balance(0, 25)));
    drop(reopened);
    assert_eq!(open(&dir).balance("acme", now), Some(balance(0, 25)));
}

#[test]
fn semantic_searches_are_counted_per_month_and_survive_restarts() {
    let dir = TestDir::new("store-semantic");
    let (accounts, p) = store_with(&dir, Plan::Pro, 0);
    let august = at(2026, 8, 10);
    assert_eq!(accounts.semantic_usage(&p, august), Some((0, 1_000)));
    // A semantic request that returned nothing costs nothing but still counts.
    accounts.charge_with(&p, 0, 1, august).unwrap().unwrap();
    accounts.charge_with(&p, 3, 2, august).unwrap().unwrap();
    pay(&accounts, &p, 4, august);
    assert_eq!(accounts.semantic_usage(&p, august), Some((3, 1_000)));
    accounts.compact().unwrap();
    accounts.charge_with(&p, 1, 1, august).unwrap().unwrap();
    drop(accounts);
    let reopened = open(&dir);
    assert_eq!(
        reopened.semantic_usage(&p, august),
        Some((4, 1_000)),
        "snapshot + journal replay"
    );
    assert_eq!(
        reopened.semantic_usage(&p, at(2026, 9, 1)),
        Some((0, 1_000)),
        "a new month starts at 0"
    );
    let mut unlimited = Allowances::default();
    unlimited.set_semantic(Plan::Pro, None);
    drop(reopened);
    let accounts = JournalStore::open(dir.path(), unlimited).unwrap();
    assert_eq!(
        accounts.semantic_usage(&p, august),
        None,
        "no ceiling for the plan"
    );
}

#[test]
fn a_second_open_of_the_same_directory_is_refused() {
    let dir = TestDir::new("store-lock");
    let first = open(&dir);
    let second = JournalStore::open(dir.path(), Allowances::default());
    assert_eq!(
        second.err().map(|e| e.kind()),
        Some(io::ErrorKind::WouldBlock)
    );
    drop(first);
    assert!(JournalStore::open(dir.path(), Allowances::default()).is_ok());
}

#[test]
fn torn_final_journal_line_is_ignored() {
    let dir = TestDir::new("store-torn");
    let (accounts, p) = store_with(&dir, Plan::Trial, 0);
    let now = at(2026, 8, 10);
    pay(&accounts, &p, 7, now);
    drop(accounts);
    let journal_path = dir.path().join(JOURNAL_FILE);
    let mut journal = OpenOptions::new().append(true).open(&journal_path).unwrap();
    journal
        .write_all(b"{\"seq\":99,\"type\":\"charge\",\"user\":\"ac")
        .unwrap();
    drop(journal);
    let reopened = open(&dir);
    assert_eq!(reopened.balance("acme", now), Some(balance(193, 0)));
    pay(&reopened, &p, 3, now);
    drop(reopened);
    // The torn bytes were cut before appending, so the journal is clean again.
    assert_eq!(open(&dir).balance("acme", now), Some(balance(190, 0)));
}

#[test]
fn damage_inside_the_journal_is_reported_not_guessed() {
    let dir = TestDir::new("store-damaged");
    let (accounts, p) = store_with(&dir, Plan::Trial, 0);
    let now = at(2026, 8, 10);
    pay(&accounts, &p, 1, now);
    pay(&accounts, &p, 2, now);
    drop(accounts);
    let path = dir.path().join(JOURNAL_FILE);
    let text = fs::read_to_string(&path).unwrap();
    fs::write(
        &path,
        text.replacen("\"type\":\"charge\"", "\"type\":\"chrge\"", 1),
    )
    .unwrap();
    let err = JournalStore::open(dir.path(), Allowances::default())
        .err()
        .unwrap();
    assert_eq!(err.kind(), io::ErrorKind::InvalidData);
    assert!(err.to_string().contains("line 1"), "{err}");
}

#[test]
fn concurrent_charges_are_each_applied_once() {
    const THREADS: u64 = 8;
    const CHARGES: u64 = 40;
    let dir = TestDir::new("store-concurrent");
    let (accounts, p) = store_with(&dir, Plan::Trial, 1_000);
    let accounts = Arc::new(accounts);
    let now = at(2026, 8, 10);
    let reported = charge_from_threads(&accounts, &p, THREADS, CHARGES, 2, now);
    let spent = THREADS * CHARGES * 2;
    assert_eq!(reported, spent);
    assert_eq!(
        accounts.balance("acme", now).map(Balance::total),
        Some(1_200 - spent)
    );
    assert_eq!(accounts.usage("acme", now), Some(spent));
    assert!(accounts.stats().journal_syncs <= accounts.stats().records_written);
    drop(accounts);
    let reopened = open(&dir);
    assert_eq!(
        reopened.balance("acme", now).map(Balance::total),
        Some(1_200 - spent)
    );
    assert_eq!(reopened.usage("acme", now), Some(spent));
}

#[test]
fn concurrent_charges_across_automatic_compactions() {
    let dir = TestDir::new("store-concurrent-compact");
    let (accounts, p) = store_with(&dir, Plan::Api, 0);
    accounts.set_compact_after(7);
    let accounts = Arc::new(accounts);
    let now = at(2026, 8, 10);
    let reported = charge_from_threads(&accounts, &p, 8, 30, 3, now);
    assert_eq!(reported, 720);
    let stats = accounts.stats();
    assert!(stats.compactions > 0);
    assert_eq!(stats.compaction_error, None);
    assert_eq!(accounts.usage("acme", now), Some(720));
    drop(accounts);
    assert_eq!(open(&dir).usage("acme", now), Some(720));
}

/// A runtime for waiting on [`Durability`] the way the server does.
fn waiter() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
}

/// A charge taken with `charge_pending` and awaited asynchronously.
fn pay_pending(
    accounts: &JournalStore,
    runtime: &tokio::runtime::Runtime,
    principal: &Principal,
    credits: u64,
) -> Charge {
    let charged = accounts.charge_pending(principal, credits, 0, at(2026, 8, 10));
    let (charge, pending) = charged.unwrap().unwrap();
    if let Some(pending) = pending {
        runtime.block_on(pending.wait()).unwrap();
    }
    charge
}

#[test]
fn pending_charges_from_threads_across_automatic_compactions() {
    let dir = TestDir::new("store-pending-compact");
    let (accounts, p) = store_with(&dir, Plan::Api, 0);
    accounts.set_compact_after(7);
    let accounts = Arc::new(accounts);
    let threads: Vec<_> = (0..8)
        .map(|_| {
            let (accounts, p) = (Arc::clone(&accounts), p.clone());
            std::thread::spawn(move || {
                let runtime = waiter();
                (0..30)
                    .map(|_| pay_pending(&accounts, &runtime, &p, 3).credits_used)
                    .sum::<u64>()
            })
        })
        .collect();
    let reported: u64 = threads.into_iter().map(|t| t.join().unwrap()).sum();
    assert_eq!(reported, 720);
    let stats = accounts.stats();
    // Deterministic whatever the timing: a charge that finds the journal
    // due leads a compaction even when the syncer already flushed it, and
    // 240 records fill a journal of 7 (plus 8 in flight) many times over.
    assert!(stats.compactions > 1, "compactions ran on the pending path");
    assert_eq!(stats.compaction_error, None);
    let now = at(2026, 8, 10);
    assert_eq!(accounts.usage("acme", now), Some(720));
    drop(accounts);
    assert_eq!(open(&dir).usage("acme", now), Some(720));
}

#[test]
fn alerts_survive_restarts_and_compaction() {
    let dir = TestDir::new("store-alerts");
    let (accounts, _) = store_with(&dir, Plan::ProPlus, 0);
    let (kept, dropped) = (alert("kept"), alert("dropped"));
    accounts
        .create_alert("acme", kept.clone())
        .unwrap()
        .unwrap();
    accounts
        .create_alert("acme", dropped.clone())
        .unwrap()
        .unwrap();
    accounts.delete_alert("acme", dropped.id).unwrap().unwrap();
    drop(accounts);
    let reopened = open(&dir);
    assert_eq!(
        reopened.alerts_of("acme").unwrap(),
        vec![kept.clone()],
        "replayed from the journal"
    );
    reopened.compact().unwrap();
    let later = alert("later");
    reopened
        .create_alert("acme", later.clone())
        .unwrap()
        .unwrap();
    drop(reopened);
    assert_eq!(
        open(&dir).alerts_of("acme").unwrap(),
        vec![kept, later],
        "from the snapshot and the journal"
    );
}

#[test]
fn compaction_preserves_state() {
    let dir = TestDir::new("store-compact");
    let (accounts, p) = store_with(&dir, Plan::Pro, 100);
    let now = at(2026, 8, 10);
    pay(&accounts, &p, 1_050, now);
    accounts.compact().unwrap();
    assert_eq!(
        fs::metadata(dir.path().join(JOURNAL_FILE)).unwrap().len(),
        0
    );
    assert!(dir.path().join(snapshot::SNAPSHOT_FILE).exists());
    assert_eq!(accounts.balance("acme", now), Some(balance(0, 50)));
    pay(&accounts, &p, 5, now);
    accounts.set_compact_after(3);
    for _ in 0..4 {
        pay(&accounts, &p, 1, now);
    }
    assert!(accounts.stats().compactions >= 2);
    assert_eq!(accounts.stats().compaction_error, None);
    drop(accounts);
    let reopened = open(&dir);
    assert_eq!(reopened.balance("acme", now), Some(balance(0, 41)));
    assert_eq!(reopened.plan_of(&p.user), Some(Plan::Pro));
}

#[test]
fn crash_between_snapshot_and_truncation_applies_nothing_twice() {
    let dir = TestDir::new("store-crash-compact");
    let (accounts, p) = store_with(&dir, Plan::Trial, 10);
    let now = at(2026, 8, 10);
    pay(&accounts, &p, 205, now);
    drop(accounts);
    let journal_path = dir.path().join(JOURNAL_FILE);
    let stale_journal = fs::read(&journal_path).unwrap();
    // Reopening folds the journal into the snapshot and empties it ...
    drop(open(&dir));
    assert_eq!(fs::metadata(&journal_path).unwrap().len(), 0);
    // ... so restoring the old journal is exactly a crash before the truncation.
    fs::write(&journal_path, &stale_journal).unwrap();
    let reopened = open(&dir);
    assert_eq!(reopened.balance("acme", now), Some(balance(0, 5)));
    pay(&reopened, &p, 5, now);
    drop(reopened);
    assert_eq!(open(&dir).balance("acme", now), Some(balance(0, 0)));
}

const CRASH_DIR_VAR: &str = "FUNDSEARCH_ACCOUNTS_CRASH_DIR";

/// Runs the ignored test `child` on `dir` in a child process, SIGKILLs it
/// once it has acknowledged `at_least` operations (`acked N` lines), and
/// returns the last number it acknowledged.
fn kill_child_after(dir: &TestDir, child: &str, at_least: u128) -> u128 {
    let module = module_path!().split_once("::").map_or("", |(_, rest)| rest);
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            &format!("{module}::{child}"),
            "--ignored",
            "--nocapture",
        ])
        .env(CRASH_DIR_VAR, dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut acked = 0u128;
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    for line in lines.by_ref() {
        if let Some(n) = line.unwrap().strip_prefix("acked ") {
            acked = n.parse().unwrap();
            if acked == at_least {
                break;
            }
        }
    }
    child.kill().unwrap();
    child.wait().unwrap();
    for line in lines {
        if let Some(n) = line.unwrap().strip_prefix("acked ") {
            acked = n.parse().unwrap();
        }
    }
    assert!(acked >= at_least, "the child stopped early");
    acked
}

/// Kills a process that is charging (SIGKILL) and checks that every charge
/// it reported as done survived, and at most the one in flight was added.
#[test]
fn kill_9_loses_no_acknowledged_charge() {
    charges_survive_kill_9("store-kill", "crash_child");
}

/// The same for charges taken the way the server takes them: pending, the
/// acknowledgement awaiting the syncer's flush.
#[test]
fn kill_9_loses_no_acknowledged_pending_charge() {
    charges_survive_kill_9("store-kill-pending", "pending_crash_child");
}

/// Runs `child` on a fresh store, kills it after 300 acknowledged charges,
/// and checks what the reopened store recorded.
fn charges_survive_kill_9(name: &str, child: &str) {
    let dir = TestDir::new(name);
    let (accounts, _) = store_with(&dir, Plan::Api, 0);
    drop(accounts);
    let acked = kill_child_after(&dir, child, 300) as u64;
    let usage = open(&dir).usage("acme", at(2026, 8, 10)).unwrap();
    assert!(
        usage == acked || usage == acked + 1,
        "{acked} acknowledged, {usage} recorded"
    );
}

/// The charging process of [`kill_9_loses_no_acknowledged_charge`]; does
/// nothing unless started by it.
#[test]
#[ignore]
fn crash_child() {
    charge_until_killed(|accounts, principal| pay(accounts, principal, 1, at(2026, 8, 10)));
}

/// The charging process of [`kill_9_loses_no_acknowledged_pending_charge`];
/// does nothing unless started by it.
#[test]
#[ignore]
fn pending_crash_child() {
    let runtime = waiter();
    charge_until_killed(|accounts, principal| pay_pending(accounts, &runtime, principal, 1));
}

/// Charges one credit at a time with `pay_one` on the store in
/// [`CRASH_DIR_VAR`], printing `acked N` after each, for at most a minute.
fn charge_until_killed(pay_one: impl Fn(&JournalStore, &Principal) -> Charge) {
    let Some(dir) = std::env::var_os(CRASH_DIR_VAR) else {
        return;
    };
    let accounts = JournalStore::open(std::path::Path::new(&dir), Allowances::default()).unwrap();
    let principal = Principal {
        user: "acme".into(),
        key_id: String::new(),
        plan: Plan::Api,
    };
    let deadline = Instant::now() + Duration::from_secs(60);
    for n in 1.. {
        assert_eq!(pay_one(&accounts, &principal).credits_used, 1);
        println!("acked {n}");
        if Instant::now() > deadline {
            break;
        }
    }
}

/// Kills a process that is unlocking e-mails (SIGKILL): every unlock it
/// reported is there, and each unlock and its charge survived together
/// (the credits used are exactly 5 per unlocked person).
#[test]
fn kill_9_keeps_each_unlock_and_its_charge_together() {
    let dir = TestDir::new("store-kill-unlock");
    let (accounts, _) = store_with(&dir, Plan::Api, 0);
    drop(accounts);
    let acked = kill_child_after(&dir, "unlock_crash_child", 200);
    let store = open(&dir);
    let unlocked = (1..=acked + 1)
        .filter(|&n| store.is_unlocked("acme", &Uuid::from_u128(n).hyphenated().to_string()))
        .count() as u64;
    assert!((1..=acked)
        .all(|n| store.is_unlocked("acme", &Uuid::from_u128(n).hyphenated().to_string())));
    assert!(unlocked == acked as u64 || unlocked == acked as u64 + 1);
    assert_eq!(
        store.usage("acme", at(2026, 8, 10)),
        Some(5 * unlocked),
        "an unlock without its charge, or the reverse"
    );
}

/// The unlocking process of [`kill_9_keeps_each_unlock_and_its_charge_together`];
/// does nothing unless started by it.
#[test]
#[ignore]
fn unlock_crash_child() {
    let Some(dir) = std::env::var_os(CRASH_DIR_VAR) else {
        return;
    };
    let accounts = JournalStore::open(std::path::Path::new(&dir), Allowances::default()).unwrap();
    let principal = Principal {
        user: "acme".into(),
        key_id: String::new(),
        plan: Plan::Api,
    };
    let deadline = Instant::now() + Duration::from_secs(60);
    for n in 1u128.. {
        let unlock = accounts
            .unlock_email(&principal, Uuid::from_u128(n), 5, at(2026, 8, 10))
            .unwrap()
            .unwrap();
        assert!(!unlock.already_unlocked);
        println!("acked {n}");
        if Instant::now() > deadline {
            break;
        }
    }
}

#[test]
fn the_journal_store_meets_the_account_store_contract() {
    let open = || {
        let dir = TestDir::new("contract");
        let store = JournalStore::open(dir.path(), Allowances::default()).unwrap();
        (Arc::new(store) as Arc<dyn AccountStore>, dir)
    };
    crate::accounts::contract_tests::check_contract(&open);
}
