//! Charges and e-mail unlocks: one transaction each, under the user's row lock.
//!
//! ```text
//! BEGIN
//! SELECT … FROM users WHERE name = $1 FOR UPDATE       -- waits for any other charge of this user
//! SELECT 1 FROM unlocks WHERE user_name = $1 AND person = $2   -- unlocks only
//! -- the ledger decides and applies the record (users.rs)
//! WITH u AS (UPDATE users SET month = …, monthly_used = …, … WHERE name = $1 RETURNING name)
//! INSERT INTO charges (…) SELECT name, … FROM u        -- what was taken, from which balance
//! INSERT INTO unlocks (user_name, person) VALUES (…)   -- unlocks only
//! COMMIT
//! ```
//!
//! A refused charge, a repeated unlock and a charge of nothing write
//! nothing; a charge of nothing (no credits, no semantic search) does not
//! even lock: it reads the row and reports the balance.

use chrono::{DateTime, Utc};
use uuid::Uuid;

use super::super::account_store::Unlock;
use super::super::ledger::{month_of, Charge, Decision, Insufficient, Ledger};
use super::super::plan::Allowances;
use super::super::record::Record;
use super::pool::Failure;
use super::session::{Session, Sql, Tx};
use super::users::{self, to_i64, unknown_user};

/// Who is charged, through which key, and when.
pub struct Payer {
    pub user: String,
    pub key_id: String,
    pub now: DateTime<Utc>,
}

/// A charge paid, or refused with nothing taken.
pub type Paid = Result<Charge, Insufficient>;

/// Charges `credits` (and `semantic` searches) to the payer's user.
pub fn charge(
    client: &mut Session,
    allowances: &Allowances,
    payer: &Payer,
    credits: u64,
    semantic: u64,
) -> Result<Paid, Failure> {
    let (user, month) = (payer.user.as_str(), month_of(payer.now));
    if credits == 0 && semantic == 0 {
        return free(client, allowances, user, &month);
    }
    let mut tx = client.transaction()?;
    let mut ledger = users::ledger_of(user, users::lock(&mut tx, user)?);
    let decision = ledger.decide_charge(user, credits, semantic, &month, allowances);
    let paid = settle(&mut tx, &mut ledger, decided(decision, user)?, payer)?;
    tx.commit()?;
    Ok(paid)
}

/// Unlocks `person` for the payer's user, charging `credits` the first time.
pub fn unlock(
    client: &mut Session,
    allowances: &Allowances,
    payer: &Payer,
    person: Uuid,
    credits: u64,
) -> Result<Result<Unlock, Insufficient>, Failure> {
    let (user, month) = (payer.user.as_str(), month_of(payer.now));
    let person_id = person.hyphenated().to_string();
    let mut tx = client.transaction()?;
    let mut account = users::lock(&mut tx, user)?;
    if unlocked(&mut tx, user, person)? {
        account.unlocked.insert(person_id.clone());
    }
    let mut ledger = users::ledger_of(user, account);
    let decided = ledger.decide_unlock(user, &person_id, credits, &month, allowances);
    let (decision, already_unlocked) = decided.ok_or_else(|| unknown_user(user))?;
    let paid = settle(&mut tx, &mut ledger, decision, payer)?;
    tx.commit()?;
    Ok(paid.map(|charge| Unlock {
        charge,
        already_unlocked,
    }))
}

/// A charge of nothing: the balance as of now, read without a lock.
fn free(
    client: &mut Session,
    allowances: &Allowances,
    user: &str,
    month: &str,
) -> Result<Paid, Failure> {
    let account = users::read(client, user)?.ok_or_else(|| unknown_user(user))?;
    let ledger = users::ledger_of(user, account);
    match decided(ledger.decide_charge(user, 0, 0, month, allowances), user)? {
        Decision::Pay { charge, .. } => Ok(Ok(charge)),
        Decision::Refuse(refused) => Ok(Err(refused)),
    }
}

fn decided(decision: Option<Decision>, user: &str) -> Result<Decision, Failure> {
    Ok(decision.ok_or_else(|| unknown_user(user))?)
}

/// Carries out `decision`: books its record, if any, and returns the outcome.
fn settle(
    tx: &mut Tx<'_>,
    ledger: &mut Ledger,
    decision: Decision,
    payer: &Payer,
) -> Result<Paid, Failure> {
    match decision {
        Decision::Refuse(refused) => Ok(Err(refused)),
        Decision::Pay { record, charge } => {
            if let Some(record) = record {
                book(tx, ledger, record, payer)?;
            }
            Ok(Ok(charge))
        }
    }
}

/// Applies `record` to the ledger, writes the user's counters back and
/// appends the record to `charges` (and `unlocks`).
fn book(
    tx: &mut Tx<'_>,
    ledger: &mut Ledger,
    record: Record,
    payer: &Payer,
) -> Result<(), Failure> {
    let row = ChargeRow::of(&record)?;
    users::apply(ledger, record.clone())?;
    row.insert(tx, ledger, payer)
}

fn unlocked(tx: &mut Tx<'_>, user: &str, person: Uuid) -> Result<bool, Failure> {
    let sql = "SELECT 1 FROM unlocks WHERE user_name = $1 AND person = $2";
    Ok(tx.query_opt(sql, &[&user, &person])?.is_some())
}

/// One row of `charges`, from a charge or unlock record.
struct ChargeRow<'a> {
    kind: &'static str,
    person: Option<Uuid>,
    month: &'a str,
    /// credits, monthly, purchased, semantic
    amounts: [i64; 4],
}

impl<'a> ChargeRow<'a> {
    fn of(record: &'a Record) -> Result<ChargeRow<'a>, Failure> {
        let amounts =
            |c, m, p, s| Ok::<_, Failure>([to_i64(c)?, to_i64(m)?, to_i64(p)?, to_i64(s)?]);
        match record {
            Record::Charge {
                month,
                credits,
                monthly,
                purchased,
                semantic,
                ..
            } => Ok(ChargeRow {
                kind: "charge",
                person: None,
                month,
                amounts: amounts(*credits, *monthly, *purchased, *semantic)?,
            }),
            Record::Unlock {
                person,
                month,
                credits,
                monthly,
                purchased,
                ..
            } => Ok(ChargeRow {
                kind: "unlock",
                person: Some(person_id(person)?),
                month,
                amounts: amounts(*credits, *monthly, *purchased, 0)?,
            }),
            other => Err(invalid(format!("not a charge: {other:?}"))),
        }
    }

    /// Writes the user's counters from `ledger` and inserts the row: one
    /// statement (a data-modifying CTE), so one round trip.
    fn insert(&self, tx: &mut Tx<'_>, ledger: &Ledger, payer: &Payer) -> Result<(), Failure> {
        let [credits, monthly, purchased, semantic] = &self.amounts;
        let (user_month, counters) = users::counters(ledger, &payer.user)?;
        let inserted = tx.execute(
            "WITH u AS (UPDATE users SET month = $11, monthly_used = $12, month_credits = $13, \
                        purchased = $14, semantic_used = $15 WHERE name = $1 RETURNING name) \
             INSERT INTO charges (user_name, key_id, kind, person, month, credits, monthly, \
                                  purchased, semantic, at) \
             SELECT u.name, $2::text, $3::text, $4::uuid, $5::text, $6::bigint, $7::bigint, \
                    $8::bigint, $9::bigint, $10::timestamptz FROM u",
            &[
                &payer.user,
                &payer.key_id,
                &self.kind,
                &self.person,
                &self.month,
                credits,
                monthly,
                purchased,
                semantic,
                &payer.now,
                user_month,
                &counters[0],
                &counters[1],
                &counters[2],
                &counters[3],
            ],
        )?;
        if inserted != 1 {
            return Err(unknown_user(&payer.user).into());
        }
        if let Some(person) = self.person {
            let sql = "INSERT INTO unlocks (user_name, person) VALUES ($1, $2)";
            tx.execute(sql, &[&payer.user, &person])?;
        }
        Ok(())
    }
}

fn person_id(text: &str) -> Result<Uuid, Failure> {
    Uuid::parse_str(text).map_err(|e| invalid(format!("person {text:?}: {e}")))
}

fn invalid(message: String) -> Failure {
    Failure::Io(std::io::Error::new(
        std::io::ErrorKind::InvalidData,
        message,
    ))
}
