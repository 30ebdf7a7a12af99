//! One `users` row as a one-user [`Ledger`], and back.
//!
//! The database store does not re-implement the credit arithmetic: a paying
//! operation locks the user's row, loads it into a [`Ledger`] holding just
//! that user, lets the ledger decide (`decide_charge`, `decide_unlock`) and
//! apply the resulting record exactly as the journal store does, and writes
//! the user's new counters back. The ledger's own validation (no negative
//! purchased balance, months never move back…) so guards both stores.
//! Counters are `bigint`: amounts past `i64::MAX` are refused, not wrapped.

use std::collections::{BTreeMap, BTreeSet};
use std::io;

use postgres::Row;

use super::super::ledger::{Ledger, User};
use super::super::plan::Plan;
use super::super::record::{Entry, Record};
use super::pool::Failure;
use super::session::{Sql, Tx};

/// The columns `from_row` reads, as a literal macro so that `lock` can
/// `concat!` its `FOR UPDATE` and both stay `&'static str` for the
/// statement cache (`session.rs`).
macro_rules! select {
    () => {
        "SELECT plan, month, monthly_used, month_credits, purchased, semantic_used \
         FROM users WHERE name = $1"
    };
}

/// `user`'s row, unlocked (a read); `None` if there is no such user.
pub fn read(client: &mut impl Sql, user: &str) -> Result<Option<User>, Failure> {
    let row = client.query_opt(select!(), &[&user])?;
    row.map(|row| from_row(&row)).transpose()
}

/// `user`'s row, locked until `tx` ends; an error if there is no such user.
pub fn lock(tx: &mut Tx<'_>, user: &str) -> Result<User, Failure> {
    let row = tx.query_opt(concat!(select!(), " FOR UPDATE"), &[&user])?;
    from_row(&row.ok_or_else(|| unknown_user(user))?)
}

/// A ledger holding only `user`.
pub fn ledger_of(name: &str, user: User) -> Ledger {
    Ledger {
        users: BTreeMap::from([(name.to_string(), user)]),
        ..Ledger::default()
    }
}

/// Applies `record` to `ledger` as its next entry (validated by the ledger).
pub fn apply(ledger: &mut Ledger, record: Record) -> Result<(), Failure> {
    let entry = Entry {
        seq: ledger.seq + 1,
        record,
    };
    let applied = ledger.apply(&entry);
    Ok(applied.map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?)
}

/// `ledger`'s month of `name` and its counters as stored: monthly_used,
/// month_credits, purchased, semantic_used.
pub fn counters<'a>(
    ledger: &'a Ledger,
    name: &str,
) -> Result<(&'a Option<String>, [i64; 4]), Failure> {
    let user = ledger.users.get(name).ok_or_else(|| unknown_user(name))?;
    let counters = [
        to_i64(user.monthly_used)?,
        to_i64(user.month_credits)?,
        to_i64(user.purchased)?,
        to_i64(user.semantic_used)?,
    ];
    Ok((&user.month, counters))
}

/// Writes `ledger`'s counters of `name` back to its row.
pub fn write(tx: &mut Tx<'_>, ledger: &Ledger, name: &str) -> Result<(), Failure> {
    let (month, counters) = counters(ledger, name)?;
    tx.execute(
        "UPDATE users SET month = $2, monthly_used = $3, month_credits = $4, \
         purchased = $5, semantic_used = $6 WHERE name = $1",
        &[
            &name,
            month,
            &counters[0],
            &counters[1],
            &counters[2],
            &counters[3],
        ],
    )?;
    Ok(())
}

fn from_row(row: &Row) -> Result<User, Failure> {
    Ok(User {
        plan: plan(row.get(0))?,
        month: row.get(1),
        monthly_used: to_u64(row.get(2))?,
        month_credits: to_u64(row.get(3))?,
        purchased: to_u64(row.get(4))?,
        semantic_used: to_u64(row.get(5))?,
        unlocked: BTreeSet::new(),
        alerts: Vec::new(),
    })
}

/// A stored plan name.
pub fn plan(name: &str) -> Result<Plan, Failure> {
    Plan::parse(name).ok_or_else(|| invalid_data(format!("unknown plan {name:?} in the database")))
}

/// A counter for a `bigint` column.
pub fn to_i64(n: u64) -> Result<i64, Failure> {
    i64::try_from(n).map_err(|_| {
        let message = format!("{n} exceeds the database's largest amount ({})", i64::MAX);
        Failure::Io(io::Error::new(io::ErrorKind::InvalidInput, message))
    })
}

fn to_u64(n: i64) -> Result<u64, Failure> {
    u64::try_from(n).map_err(|_| invalid_data(format!("negative amount {n} in the database")))
}

fn invalid_data(message: String) -> Failure {
    Failure::Io(io::Error::new(io::ErrorKind::InvalidData, message))
}

/// The error for a user that does not exist.
pub fn unknown_user(user: &str) -> io::Error {
    io::Error::new(io::ErrorKind::NotFound, format!("unknown user {user:?}"))
}
