//! The [`AccountStore`] contract as one suite: [`check_contract`] runs
//! every case against fresh stores from a factory, so each implementation
//! (the journal store, `store_tests.rs`; the database store, `pg/tests.rs`)
//! runs it unchanged.
//! Stores are opened with the default [`crate::accounts::Allowances`].

use std::sync::Arc;
use std::thread;

use chrono::{TimeZone, Utc};
use uuid::Uuid;

use super::{AccountStore, AlertLimit, AuthFailure, CreditSource, Plan, Principal, MAX_ALERTS};
use crate::schema::alert::{AlertConfig, AlertFilters, Frequency};

/// A fresh, empty store, and whatever must live as long as it does.
pub type Open<'a, G> = &'a dyn Fn() -> (Arc<dyn AccountStore>, G);

/// Every case of the contract, each on a fresh store.
pub fn check_contract<G>(open: Open<'_, G>) {
    keys_authenticate_until_deactivated(open);
    charges_take_monthly_then_purchased_and_refuse_whole(open);
    a_free_charge_reports_the_balance_and_changes_nothing(open);
    unmetered_plans_are_never_refused(open);
    semantic_searches_count_against_the_ceiling(open);
    plans_change_and_unknown_users_are_errors(open);
    concurrent_charges_never_overspend(open);
    pending_charges_decide_at_once(open);
    unlocks_are_paid_once_per_user(open);
    alerts_belong_to_their_user(open);
    alerts_are_limited_per_user(open);
    concurrent_unlocks_charge_once(open);
    requests_are_admitted_up_to_the_limit_per_key(open);
    concurrent_admissions_never_exceed_the_limit(open);
}

/// An alert configuration named `name` with a fresh id.
pub fn alert(name: &str) -> AlertConfig {
    AlertConfig {
        id: Uuid::new_v4(),
        name: name.to_string(),
        description: Some(format!("{name} deals")),
        frequency: Frequency::Weekly,
        filters: AlertFilters {
            financing_types: vec!["Series A".into()],
            deal_size_min: Some(1e6),
            ..AlertFilters::default()
        },
        created_at: "2026-11-25T12:00:00.000Z".into(),
    }
}

fn alerts_belong_to_their_user<G>(open: Open<'_, G>) {
    let (store, _guard) = open();
    principal(&*store, "ada", Plan::ProPlus);
    principal(&*store, "bob", Plan::ProPlus);
    let (first, second) = (alert("first"), alert("second"));
    store.create_alert("ada", first.clone()).unwrap().unwrap();
    store.create_alert("ada", second.clone()).unwrap().unwrap();
    assert_eq!(
        store.alerts_of("ada").unwrap(),
        vec![first.clone(), second.clone()],
        "oldest first, stored whole"
    );
    assert!(store.alerts_of("bob").unwrap().is_empty());
    assert!(store.alerts_of("nobody").unwrap().is_empty());
    assert_eq!(
        store.delete_alert("bob", first.id).unwrap(),
        None,
        "not bob's"
    );
    assert_eq!(
        store.delete_alert("ada", first.id).unwrap(),
        Some(first.clone())
    );
    assert_eq!(
        store.delete_alert("ada", first.id).unwrap(),
        None,
        "already gone"
    );
    assert_eq!(store.alerts_of("ada").unwrap(), vec![second]);
    assert!(
        store.create_alert("nobody", alert("x")).is_err(),
        "unknown users are errors"
    );
}

fn alerts_are_limited_per_user<G>(open: Open<'_, G>) {
    let (store, _guard) = open();
    principal(&*store, "cy", Plan::Enterprise);
    for i in 0..MAX_ALERTS {
        store
            .create_alert("cy", alert(&format!("a{i}")))
            .unwrap()
            .unwrap();
    }
    let refused = store.create_alert("cy", alert("one too many")).unwrap();
    assert_eq!(refused, Err(AlertLimit { limit: MAX_ALERTS }));
    assert_eq!(store.alerts_of("cy").unwrap().len(), MAX_ALERTS);
    let oldest = store.alerts_of("cy").unwrap()[0].id;
    store.delete_alert("cy", oldest).unwrap().unwrap();
    store
        .create_alert("cy", alert("fits again"))
        .unwrap()
        .unwrap();
}

fn concurrent_unlocks_charge_once<G>(open: Open<'_, G>) {
    let (store, _guard) = open();
    let p = principal(&*store, "kim", Plan::Pro);
    let person = Uuid::from_u128(7);
    let first: Vec<bool> = (0..4)
        .map(|_| {
            let (store, p) = (Arc::clone(&store), p.clone());
            thread::spawn(move || {
                let unlock = store.unlock_email(&p, person, 5, now()).unwrap();
                !unlock.unwrap().already_unlocked
            })
        })
        .collect::<Vec<_>>()
        .into_iter()
        .map(|t| t.join().unwrap())
        .collect();
    assert_eq!(first.iter().filter(|&&f| f).count(), 1, "one first unlock");
    let left = store.balance("kim", now()).unwrap().unwrap();
    assert_eq!(left.monthly_remaining, 995, "paid once");
}

fn requests_are_admitted_up_to_the_limit_per_key<G>(open: Open<'_, G>) {
    let (store, _guard) = open();
    let t0 = now();
    let admitted = (0..5)
        .filter(|_| store.admit("k1", 3, t0).unwrap().is_ok())
        .count();
    assert_eq!(admitted, 3, "a burst admits exactly the limit");
    let wait = store.admit("k1", 3, t0).unwrap().unwrap_err();
    // An exact log waits at most a window; the database store's estimate
    // (fixed windows, the previous one weighted) can reach into the next.
    assert!((1..=120).contains(&wait), "wait {wait} s");
    assert!(
        store.admit("k2", 3, t0).unwrap().is_ok(),
        "keys are separate"
    );
    assert!(
        (0..100).all(|_| store.admit("k3", 0, t0).unwrap().is_ok()),
        "0 is no limit"
    );
    let later = t0 + chrono::TimeDelta::seconds(120);
    let again = (0..5)
        .filter(|_| store.admit("k1", 3, later).unwrap().is_ok())
        .count();
    assert_eq!(again, 3, "two windows later the key starts afresh");
}

fn concurrent_admissions_never_exceed_the_limit<G>(open: Open<'_, G>) {
    let (store, _guard) = open();
    let admitted: usize = (0..4)
        .map(|_| {
            let store = Arc::clone(&store);
            thread::spawn(move || {
                (0..30)
                    .filter(|_| store.admit("hot", 50, now()).unwrap().is_ok())
                    .count()
            })
        })
        .collect::<Vec<_>>()
        .into_iter()
        .map(|t| t.join().unwrap())
        .sum();
    assert_eq!(admitted, 50);
}

fn now() -> chrono::DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 25, 12, 0, 0).unwrap()
}

fn principal(store: &dyn AccountStore, user: &str, plan: Plan) -> Principal {
    let key = store.create_key(user, plan).unwrap();
    store.authenticate(&key).unwrap()
}

fn keys_authenticate_until_deactivated<G>(open: Open<'_, G>) {
    let (store, _guard) = open();
    let key = store.create_key("ann", Plan::Pro).unwrap();
    let p = store.authenticate(&key).unwrap();
    assert_eq!((p.user.as_str(), p.plan), ("ann", Plan::Pro));
    let mut wrong = key.clone();
    wrong.pop();
    wrong.push(if key.ends_with('A') { 'B' } else { 'A' });
    assert_eq!(store.authenticate(&wrong), Err(AuthFailure::Unknown));
    assert_eq!(store.authenticate("not a key"), Err(AuthFailure::Malformed));
    let second = store.create_key("ann", Plan::Trial).unwrap();
    assert_eq!(
        store.plan_of("ann").unwrap(),
        Some(Plan::Pro),
        "an existing user keeps their plan"
    );
    assert_eq!(store.keys_of("ann").unwrap().len(), 2);
    assert!(store.deactivate_key(&p.key_id).unwrap());
    assert!(!store.deactivate_key(&p.key_id).unwrap());
    assert_eq!(store.authenticate(&key), Err(AuthFailure::Inactive));
    assert!(store.authenticate(&second).is_ok());
    assert!(!store.deactivate_key("000000000000").unwrap());
}

fn charges_take_monthly_then_purchased_and_refuse_whole<G>(open: Open<'_, G>) {
    let (store, _guard) = open();
    let p = principal(&*store, "bo", Plan::Pro);
    let first = store.charge(&p, 400, 0, now()).unwrap().unwrap();
    assert_eq!(first.source, Some(CreditSource::Monthly));
    assert_eq!(first.balance.map(|b| b.monthly_remaining), Some(600));
    assert_eq!(
        store.add_purchased("bo", 100).unwrap().purchased_remaining,
        100
    );
    let second = store.charge(&p, 650, 0, now()).unwrap().unwrap();
    assert_eq!(second.source, Some(CreditSource::Purchased));
    let after = second.balance.unwrap();
    assert_eq!(
        (after.monthly_remaining, after.purchased_remaining),
        (0, 50)
    );
    let refused = store.charge(&p, 51, 0, now()).unwrap().unwrap_err();
    assert_eq!((refused.credits_needed, refused.balance), (51, after));
    assert_eq!(
        store.balance("bo", now()).unwrap(),
        Some(after),
        "a refused charge takes nothing"
    );
    let next_month = Utc.with_ymd_and_hms(2026, 12, 1, 0, 0, 0).unwrap();
    let renewed = store.balance("bo", next_month).unwrap().unwrap();
    assert_eq!(
        (renewed.monthly_remaining, renewed.purchased_remaining),
        (1_000, 50)
    );
}

fn a_free_charge_reports_the_balance_and_changes_nothing<G>(open: Open<'_, G>) {
    let (store, _guard) = open();
    let p = principal(&*store, "cy", Plan::Trial);
    let before = store.balance("cy", now()).unwrap();
    let free = store.charge(&p, 0, 0, now()).unwrap().unwrap();
    assert_eq!(
        (free.credits_used, free.source, free.balance),
        (0, None, before)
    );
    assert_eq!(store.balance("cy", now()).unwrap(), before);
}

fn unmetered_plans_are_never_refused<G>(open: Open<'_, G>) {
    let (store, _guard) = open();
    let p = principal(&*store, "dee", Plan::Api);
    let charge = store.charge(&p, 1_000_000, 0, now()).unwrap().unwrap();
    assert_eq!((charge.credits_used, charge.balance), (1_000_000, None));
    assert_eq!(store.balance("dee", now()).unwrap(), None);
    assert_eq!(store.semantic_usage(&p, now()).unwrap(), None);
}

fn semantic_searches_count_against_the_ceiling<G>(open: Open<'_, G>) {
    let (store, _guard) = open();
    let p = principal(&*store, "eve", Plan::Trial);
    assert_eq!(store.semantic_usage(&p, now()).unwrap(), Some((0, 100)));
    store.charge(&p, 0, 2, now()).unwrap().unwrap();
    store.charge(&p, 5, 1, now()).unwrap().unwrap();
    assert_eq!(store.semantic_usage(&p, now()).unwrap(), Some((3, 100)));
}

fn plans_change_and_unknown_users_are_errors<G>(open: Open<'_, G>) {
    let (store, _guard) = open();
    let p = principal(&*store, "fay", Plan::Trial);
    store.set_plan("fay", Plan::Enterprise).unwrap();
    assert_eq!(store.plan_of("fay").unwrap(), Some(Plan::Enterprise));
    let charge = store.charge(&p, 300, 0, now()).unwrap().unwrap();
    assert_eq!(
        charge.balance.map(|b| b.monthly_remaining),
        Some(24_700),
        "the current plan decides"
    );
    assert!(store.set_plan("nobody", Plan::Pro).is_err());
    assert!(store.add_purchased("nobody", 5).is_err());
    assert_eq!(store.plan_of("nobody").unwrap(), None);
    let ghost = Principal {
        user: "nobody".into(),
        key_id: "000000000000".into(),
        plan: Plan::Pro,
    };
    assert!(store.charge(&ghost, 1, 0, now()).is_err());
}

/// A pending charge is decided and applied when taken: the balance and the
/// next decision see it before it is durable.
fn pending_charges_decide_at_once<G>(open: Open<'_, G>) {
    let (store, _guard) = open();
    let p = principal(&*store, "hal", Plan::Trial);
    let (charge, pending) = store.charge_pending(&p, 150, 0, now()).unwrap().unwrap();
    assert_eq!(charge.balance.map(|b| b.total()), Some(50));
    assert_eq!(
        store.balance("hal", now()).unwrap().map(|b| b.total()),
        Some(50)
    );
    let refused = store.charge_pending(&p, 51, 0, now()).unwrap().unwrap_err();
    assert_eq!(refused.credits_needed, 51);
    if let Some(pending) = pending {
        pending.wait_blocking().unwrap();
    }
    let (free, nothing) = store.charge_pending(&p, 0, 0, now()).unwrap().unwrap();
    assert!(nothing.is_none(), "a free charge writes nothing");
    assert_eq!(free.balance.map(|b| b.total()), Some(50));
}

fn concurrent_charges_never_overspend<G>(open: Open<'_, G>) {
    let (store, _guard) = open();
    let p = principal(&*store, "gus", Plan::Trial);
    let paid: usize = (0..4)
        .map(|_| {
            let (store, p) = (Arc::clone(&store), p.clone());
            thread::spawn(move || {
                (0..80)
                    .filter(|_| store.charge(&p, 1, 0, now()).unwrap().is_ok())
                    .count()
            })
        })
        .collect::<Vec<_>>()
        .into_iter()
        .map(|t| t.join().unwrap())
        .sum();
    assert_eq!(paid, 200, "exactly the trial allowance is paid");
    assert_eq!(
        store.balance("gus", now()).unwrap().map(|b| b.total()),
        Some(0)
    );
}

fn unlocks_are_paid_once_per_user<G>(open: Open<'_, G>) {
    let (store, _guard) = open();
    let first_key = principal(&*store, "hal", Plan::ProPlus);
    let second_key = principal(&*store, "hal", Plan::ProPlus);
    let other_user = principal(&*store, "ivy", Plan::ProPlus);
    let person = Uuid::from_u128(42);
    let first = store
        .unlock_email(&first_key, person, 5, now())
        .unwrap()
        .unwrap();
    assert!(!first.already_unlocked);
    assert_eq!(first.charge.credits_used, 5);
    assert_eq!(
        first.charge.balance.map(|b| b.monthly_remaining),
        Some(4_995)
    );
    let again = store
        .unlock_email(&second_key, person, 5, now())
        .unwrap()
        .unwrap();
    assert!(
        again.already_unlocked,
        "an unlock belongs to the user, not the key"
    );
    assert_eq!((again.charge.credits_used, again.charge.source), (0, None));
    assert_eq!(
        again.charge.balance.map(|b| b.monthly_remaining),
        Some(4_995)
    );
    let theirs = store
        .unlock_email(&other_user, person, 5, now())
        .unwrap()
        .unwrap();
    assert!(!theirs.already_unlocked);
    let poor = principal(&*store, "jo", Plan::Trial);
    store.charge(&poor, 197, 0, now()).unwrap().unwrap();
    let refused = store
        .unlock_email(&poor, person, 5, now())
        .unwrap()
        .unwrap_err();
    assert_eq!(refused.credits_needed, 5);
    store.add_purchased("jo", 10).unwrap();
    let paid = store
        .unlock_email(&poor, person, 5, now())
        .unwrap()
        .unwrap();
    assert!(!paid.already_unlocked, "a refused unlock unlocked nothing");
    assert_eq!(paid.charge.source, Some(CreditSource::Purchased));
    assert_eq!(
        store.balance("jo", now()).unwrap().map(|b| b.total()),
        Some(8)
    );
}
