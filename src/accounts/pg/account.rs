//! One user's plan and balances: reads, plan changes and purchases.
//!
//! Reads (`balance`, `semantic_usage`, `plan_of`) are single unlocked
//! SELECTs of the user's row. A purchase locks the row like a charge does,
//! so it never races one: the ledger adds the credits (refusing an
//! overflow) and the row is written back in the same transaction.

use chrono::{DateTime, Utc};

use super::super::ledger::{month_of, Balance};
use super::super::plan::{Allowances, Plan};
use super::super::record::Record;
use super::pool::Failure;
use super::session::{Session, Sql};
use super::users::{self, unknown_user};

/// The balance of `user` at `now`; `None` for unknown users and unmetered plans.
pub fn balance(
    client: &mut Session,
    allowances: &Allowances,
    user: &str,
    now: DateTime<Utc>,
) -> Result<Option<Balance>, Failure> {
    let account = users::read(client, user)?;
    Ok(account.and_then(|a| a.balance(&month_of(now), allowances)))
}

/// `(semantic searches in the month of now, ceiling)`; `None` for unknown
/// users and plans without a ceiling.
pub fn semantic_usage(
    client: &mut Session,
    allowances: &Allowances,
    user: &str,
    now: DateTime<Utc>,
) -> Result<Option<(u64, u64)>, Failure> {
    let Some(account) = users::read(client, user)? else {
        return Ok(None);
    };
    let used = account.semantic_in(&month_of(now));
    Ok(allowances.semantic(account.plan).map(|limit| (used, limit)))
}

/// The plan of `user`, if there is such a user.
pub fn plan_of(client: &mut Session, user: &str) -> Result<Option<Plan>, Failure> {
    let row = client.query_opt("SELECT plan FROM users WHERE name = $1", &[&user])?;
    row.map(|row| users::plan(row.get(0))).transpose()
}

/// Changes the plan of an existing user.
pub fn set_plan(client: &mut Session, user: &str, plan: Plan) -> Result<(), Failure> {
    let sql = "UPDATE users SET plan = $2 WHERE name = $1";
    match client.execute(sql, &[&user, &plan.as_str()])? {
        0 => Err(unknown_user(user).into()),
        _ => Ok(()),
    }
}

/// Adds `credits` purchased credits; the balance as of `now`
/// (`monthly_remaining` 0 for unmetered plans).
pub fn add_purchased(
    client: &mut Session,
    allowances: &Allowances,
    user: &str,
    credits: u64,
    now: DateTime<Utc>,
) -> Result<Balance, Failure> {
    let mut tx = client.transaction()?;
    let mut ledger = users::ledger_of(user, users::lock(&mut tx, user)?);
    if credits > 0 {
        let purchase = Record::Purchase {
            user: user.to_string(),
            credits,
        };
        users::apply(&mut ledger, purchase)?;
        users::write(&mut tx, &ledger, user)?;
    }
    tx.commit()?;
    let account = ledger.users.get(user).ok_or_else(|| unknown_user(user))?;
    let monthly = account.balance(&month_of(now), allowances);
    Ok(Balance {
        monthly_remaining: monthly.map_or(0, |b| b.monthly_remaining),
        purchased_remaining: account.purchased,
    })
}
