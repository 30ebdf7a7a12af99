//! The in-memory account state and the credit arithmetic, without any I/O.
//!
//! A [`Ledger`] is what replaying the snapshot plus the journal produces, and
//! every change goes through [`Ledger::apply`], live or during replay, so the
//! two can never disagree. `apply` validates a record completely before it
//! touches anything: a refused record leaves the ledger unchanged.
//!
//! Per user the ledger keeps the plan, the purchased balance (never expires)
//! and the *current month* (`YYYY-MM`, UTC) with the monthly credits used in
//! it. Monthly balances are derived, not stored: in the current month the
//! remainder is `allowance − used`; in any later month nothing has been used
//! yet, so the whole allowance is available and nothing rolls over. Storing
//! the used amount rather than the remainder means a changed allowance applies
//! at once. If the clock goes backwards the ledger stays in its latest month
//! (months never move back), so a clock step cannot grant a second allowance.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use chrono::{DateTime, Datelike, Utc};

use super::key::{hex_decode, KeyDigest, SALT_LEN};
use super::plan::{Allowances, Plan};
use super::record::{Entry, Record};
use crate::schema::alert::AlertConfig;

/// Credits left for a metered user.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Balance {
    pub monthly_remaining: u64,
    pub purchased_remaining: u64,
}

impl Balance {
    /// Monthly plus purchased credits.
    pub fn total(self) -> u64 {
        self.monthly_remaining
            .saturating_add(self.purchased_remaining)
    }
}

/// Which balance paid for a request (`meta.credit_source`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CreditSource {
    Monthly,
    Purchased,
}

impl CreditSource {
    /// `monthly` or `purchased`.
    pub fn as_str(self) -> &'static str {
        match self {
            CreditSource::Monthly => "monthly",
            CreditSource::Purchased => "purchased",
        }
    }
}

/// The outcome of a successful charge.
#[derive(Debug, Clone, PartialEq)]
pub struct Charge {
    pub credits_used: u64,
    /// `Monthly` when the monthly balance paid everything, `Purchased` when
    /// purchased credits paid all or part; `None` for 0 credits or unmetered plans.
    pub source: Option<CreditSource>,
    /// The balance after the charge; `None` for unmetered plans.
    pub balance: Option<Balance>,
}

/// A refused charge: the balance could not pay `credits_needed`.
#[derive(Debug, Clone, PartialEq)]
pub struct Insufficient {
    pub credits_needed: u64,
    pub balance: Balance,
}

/// What the ledger decided for a charge request.
#[derive(Debug, Clone, PartialEq)]
pub enum Decision {
    /// Accepted; `record` is `None` when there is nothing to write (0 credits).
    Pay {
        record: Option<Record>,
        charge: Charge,
    },
    Refuse(Insufficient),
}

/// One account.
#[derive(Debug, Clone, PartialEq)]
pub struct User {
    pub plan: Plan,
    /// The month `monthly_used` and `month_credits` belong to; `None` before the first charge.
    pub month: Option<String>,
    /// Credits taken from the monthly allowance in `month`.
    pub monthly_used: u64,
    /// All credits charged in `month`, whichever balance paid (and for unmetered plans).
    pub month_credits: u64,
    pub purchased: u64,
    /// Semantic searches run in `month`.
    pub semantic_used: u64,
    /// People whose e-mail the user has unlocked (hyphenated UUIDs).
    pub unlocked: BTreeSet<String>,
    /// Alert configurations, oldest first.
    pub alerts: Vec<AlertConfig>,
}

/// The unlock of `person` paid by the charge `record`.
fn as_unlock(record: Record, person: &str) -> Record {
    match record {
        Record::Charge {
            user,
            month,
            credits,
            monthly,
            purchased,
            ..
        } => Record::Unlock {
            user,
            person: person.to_string(),
            month,
            credits,
            monthly,
            purchased,
        },
        other => other,
    }
}

/// One issued key: only the salt and the digest, never the plaintext.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredKey {
    pub user: String,
    pub salt: [u8; SALT_LEN],
    pub digest: KeyDigest,
    pub active: bool,
}

/// All accounts and keys, as of record `seq`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Ledger {
    pub users: BTreeMap<String, User>,
    pub keys: HashMap<String, StoredKey>,
    /// Sequence number of the last applied record (0: none).
    pub seq: u64,
}

/// `YYYY-MM` of `now` (UTC).
pub fn month_of(now: DateTime<Utc>) -> String {
    format!("{:04}-{:02}", now.year(), now.month())
}

/// Whether `s` looks like `YYYY-MM`.
pub fn is_month(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 7
        && b[4] == b'-'
        && b[..4].iter().chain(&b[5..]).all(u8::is_ascii_digit)
        && matches!(
            &s[5..],
            "01" | "02" | "03" | "04" | "05" | "06" | "07" | "08" | "09" | "10" | "11" | "12"
        )
}

impl User {
    fn new(plan: Plan) -> User {
        User {
            plan,
            month: None,
            monthly_used: 0,
            month_credits: 0,
            purchased: 0,
            semantic_used: 0,
            unlocked: BTreeSet::new(),
            alerts: Vec::new(),
        }
    }

    /// The month a charge at `month` is booked in: never earlier than the current one.
    fn effective_month(&self, month: &str) -> String {
        match &self.month {
            Some(current) if current.as_str() > month => current.clone(),
            _ => month.to_string(),
        }
    }

    /// Monthly credits used as seen from `month`.
    fn used_in(&self, month: &str) -> u64 {
        match &self.month {
            Some(current) if current.as_str() >= month => self.monthly_used,
            _ => 0,
        }
    }

    /// Balance as seen from `month`; `None` when the plan is unmetered.
    pub fn balance(&self, month: &str, allowances: &Allowances) -> Option<Balance> {
        let allowance = allowances.get(self.plan)?;
        Some(Balance {
            monthly_remaining: allowance.saturating_sub(self.used_in(month)),
            purchased_remaining: self.purchased,
        })
    }

    /// Semantic searches run in `month`.
    pub fn semantic_in(&self, month: &str) -> u64 {
        match &self.month {
            Some(current) if current.as_str() >= month => self.semantic_used,
            _ => 0,
        }
    }

    /// Credits charged in `month`, whichever balance paid.
    pub fn credits_in(&self, month: &str) -> u64 {
        match &self.month {
            Some(current) if current.as_str() >= month => self.month_credits,
            _ => 0,
        }
    }
}

impl Ledger {
    /// Balance of `user` at `month`; `None` for unknown users and unmetered plans.
    pub fn balance(&self, user: &str, month: &str, allowances: &Allowances) -> Option<Balance> {
        self.users.get(user)?.balance(month, allowances)
    }

    /// Decides a charge of `credits` (and `semantic` searches) to `user`
    /// at `month`; `None` if the user is unknown. The semantic ceiling is
    /// checked before a search runs (`JournalStore::semantic_usage`), not here:
    /// the searches already ran, so they are recorded.
    pub fn decide_charge(
        &self,
        user: &str,
        credits: u64,
        semantic: u64,
        month: &str,
        allowances: &Allowances,
    ) -> Option<Decision> {
        let account = self.users.get(user)?;
        let record = |monthly, purchased| Record::Charge {
            user: user.to_string(),
            month: account.effective_month(month),
            credits,
            monthly,
            purchased,
            semantic,
        };
        let Some(before) = account.balance(month, allowances) else {
            let charge = Charge {
                credits_used: credits,
                source: None,
                balance: None,
            };
            let record = (credits > 0 || semantic > 0).then(|| record(0, 0));
            return Some(Decision::Pay { record, charge });
        };
        if credits == 0 {
            let charge = Charge {
                credits_used: 0,
                source: None,
                balance: Some(before),
            };
            return Some(Decision::Pay {
                record: (semantic > 0).then(|| record(0, 0)),
                charge,
            });
        }
        if before.total() < credits {
            let refused = Insufficient {
                credits_needed: credits,
                balance: before,
            };
            return Some(Decision::Refuse(refused));
        }
        let monthly = credits.min(before.monthly_remaining);
        let purchased = credits - monthly;
        let after = Balance {
            monthly_remaining: before.monthly_remaining - monthly,
            purchased_remaining: before.purchased_remaining - purchased,
        };
        let source = if purchased > 0 {
            CreditSource::Purchased
        } else {
            CreditSource::Monthly
        };
        let charge = Charge {
            credits_used: credits,
            source: Some(source),
            balance: Some(after),
        };
        let record = Some(record(monthly, purchased));
        Some(Decision::Pay { record, charge })
    }

    /// Validates `entry` against the current state and applies it; on error nothing changes.
    pub fn apply(&mut self, entry: &Entry) -> Result<(), String> {
        if entry.seq <= self.seq {
            return Err(format!(
                "sequence number {} does not follow {}",
                entry.seq, self.seq
            ));
        }
        self.apply_record(&entry.record)?;
        self.seq = entry.seq;
        Ok(())
    }

    fn apply_record(&mut self, record: &Record) -> Result<(), String> {
        match record {
            Record::UserCreated { user, plan } => self.create_user(user, *plan),
            Record::PlanSet { user, plan } => {
                self.user_mut(user)?.plan = *plan;
                Ok(())
            }
            Record::KeyCreated {
                key_id,
                user,
                salt,
                digest,
            } => self.create_key(key_id, user, salt, digest),
            Record::KeyDeactivated { key_id } => {
                let key = self.keys.get_mut(key_id);
                key.ok_or_else(|| format!("unknown key id {key_id:?}"))?
                    .active = false;
                Ok(())
            }
            Record::Purchase { user, credits } => {
                let account = self.user_mut(user)?;
                account.purchased = account
                    .purchased
                    .checked_add(*credits)
                    .ok_or("purchased balance overflows")?;
                Ok(())
            }
            Record::Charge {
                user,
                month,
                credits,
                monthly,
                purchased,
                semantic,
            } => {
                let paid = (*monthly, *purchased);
                self.apply_charge(user, month, *credits, paid, *semantic)
            }
            Record::Unlock {
                user,
                person,
                month,
                credits,
                monthly,
                purchased,
            } => {
                self.apply_charge(user, month, *credits, (*monthly, *purchased), 0)?;
                if !self.user_mut(user)?.unlocked.insert(person.clone()) {
                    return Err(format!("{person} unlocked twice by {user:?}"));
                }
                Ok(())
            }
            Record::AlertCreated { user, alert } => self.add_alert(user, alert),
            Record::AlertDeleted { user, id } => {
                let alerts = &mut self.user_mut(user)?.alerts;
                let at = alerts.iter().position(|a| a.id == *id);
                alerts.remove(at.ok_or_else(|| format!("{user:?} has no alert {id}"))?);
                Ok(())
            }
        }
    }

    fn add_alert(&mut self, user: &str, alert: &AlertConfig) -> Result<(), String> {
        if self.alert_owner(alert.id).is_some() {
            return Err(format!("alert {} created twice", alert.id));
        }
        self.user_mut(user)?.alerts.push(alert.clone());
        Ok(())
    }

    /// The user holding alert `id`.
    pub fn alert_owner(&self, id: uuid::Uuid) -> Option<&str> {
        self.users
            .iter()
            .find(|(_, u)| u.alerts.iter().any(|a| a.id == id))
            .map(|(name, _)| name.as_str())
    }

    /// Decides an e-mail unlock of `person` for `credits`: `(decision,
    /// already unlocked)`. A repeat costs nothing and writes nothing; a new
    /// unlock's record carries its charge. `None` if the user is unknown.
    pub fn decide_unlock(
        &self,
        user: &str,
        person: &str,
        credits: u64,
        month: &str,
        allowances: &Allowances,
    ) -> Option<(Decision, bool)> {
        if self.users.get(user)?.unlocked.contains(person) {
            return Some((self.decide_charge(user, 0, 0, month, allowances)?, true));
        }
        let decision = match self.decide_charge(user, credits, 0, month, allowances)? {
            Decision::Pay { record, charge } => Decision::Pay {
                record: record.map(|r| as_unlock(r, person)),
                charge,
            },
            refused => refused,
        };
        Some((decision, false))
    }

    fn user_mut(&mut self, user: &str) -> Result<&mut User, String> {
        self.users
            .get_mut(user)
            .ok_or_else(|| format!("unknown user {user:?}"))
    }

    fn create_user(&mut self, user: &str, plan: Plan) -> Result<(), String> {
        if user.is_empty() {
            return Err("empty user name".to_string());
        }
        if self.users.contains_key(user) {
            return Err(format!("user {user:?} already exists"));
        }
        self.users.insert(user.to_string(), User::new(plan));
        Ok(())
    }

    fn create_key(
        &mut self,
        key_id: &str,
        user: &str,
        salt: &str,
        digest: &str,
    ) -> Result<(), String> {
        if !self.users.contains_key(user) {
            return Err(format!("key {key_id:?} names unknown user {user:?}"));
        }
        if self.keys.contains_key(key_id) {
            return Err(format!("key id {key_id:?} issued twice"));
        }
        let salt = hex_decode(salt).ok_or_else(|| format!("bad salt for key {key_id:?}"))?;
        let digest = hex_decode(digest).ok_or_else(|| format!("bad digest for key {key_id:?}"))?;
        let key = StoredKey {
            user: user.to_string(),
            salt,
            digest,
            active: true,
        };
        self.keys.insert(key_id.to_string(), key);
        Ok(())
    }

    fn apply_charge(
        &mut self,
        user: &str,
        month: &str,
        credits: u64,
        (monthly, purchased): (u64, u64),
        semantic: u64,
    ) -> Result<(), String> {
        if !is_month(month) {
            return Err(format!("bad month {month:?}"));
        }
        let paid = monthly.checked_add(purchased).ok_or("charge overflows")?;
        if paid != credits && paid != 0 {
            return Err(format!(
                "charge of {credits} paid with {monthly} + {purchased}"
            ));
        }
        let account = self.user_mut(user)?;
        if account
            .month
            .as_deref()
            .is_some_and(|current| current > month)
        {
            return Err(format!(
                "charge for {month} after a charge in a later month"
            ));
        }
        let (used, credited, searches) = if account.month.as_deref() == Some(month) {
            (
                account.monthly_used,
                account.month_credits,
                account.semantic_used,
            )
        } else {
            (0, 0, 0)
        };
        let used = used.checked_add(monthly).ok_or("monthly usage overflows")?;
        let credited = credited.saturating_add(credits);
        let left = account.purchased.checked_sub(purchased).ok_or_else(|| {
            format!(
                "charge takes {purchased} purchased credits, only {} left",
                account.purchased
            )
        })?;
        account.month = Some(month.to_string());
        account.monthly_used = used;
        account.month_credits = credited;
        account.purchased = left;
        account.semantic_used = searches.saturating_add(semantic);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn at(year: i32, month: u32, day: u32) -> String {
        month_of(Utc.with_ymd_and_hms(year, month, day, 12, 0, 0).unwrap())
    }

    fn ledger_with(user: &str, plan: Plan, purchased: u64) -> Ledger {
        let mut ledger = Ledger::default();
        let records = [
            Record::UserCreated {
                user: user.into(),
                plan,
            },
            Record::Purchase {
                user: user.into(),
                credits: purchased,
            },
        ];
        for record in records {
            let seq = ledger.seq + 1;
            ledger.apply(&Entry { seq, record }).unwrap();
        }
        ledger
    }

    fn pay(
        ledger: &mut Ledger,
        user: &str,
        credits: u64,
        month: &str,
    ) -> Result<Charge, Insufficient> {
        let allowances = Allowances::default();
        match ledger
            .decide_charge(user, credits, 0, month, &allowances)
            .unwrap()
        {
            Decision::Pay { record, charge } => {
                if let Some(record) = record {
                    let seq = ledger.seq + 1;
                    ledger.apply(&Entry { seq, record }).unwrap();
                }
                Ok(charge)
            }
            Decision::Refuse(refused) => Err(refused),
        }
    }

    #[test]
    fn month_format() {
        assert_eq!(at(2026, 8, 31), "2026-08");
        assert!(is_month("2026-12"));
        assert!(!is_month("2026-13"));
        assert!(!is_month("2026-8"));
        assert!(!is_month("2026_08"));
        assert!(!is_month("２０２6-08"));
    }

    #[test]
    fn monthly_first_then_purchased() {
        let aug = at(2026, 8, 1);
        let mut l = ledger_with("u", Plan::Trial, 50);
        let c = pay(&mut l, "u", 150, &aug).unwrap();
        assert_eq!(c.source, Some(CreditSource::Monthly));
        assert_eq!(
            c.balance,
            Some(Balance {
                monthly_remaining: 50,
                purchased_remaining: 50
            })
        );
        let c = pay(&mut l, "u", 70, &aug).unwrap();
        assert_eq!(c.source, Some(CreditSource::Purchased));
        assert_eq!(
            c.balance,
            Some(Balance {
                monthly_remaining: 0,
                purchased_remaining: 30
            })
        );
        let c = pay(&mut l, "u", 30, &aug).unwrap();
        assert_eq!(c.source, Some(CreditSource::Purchased));
        assert_eq!(c.balance.map(Balance::total), Some(0));
        assert_eq!(l.users["u"].credits_in(&aug), 250);
    }

    #[test]
    fn refusal_changes_nothing_and_zero_is_free() {
        let aug = at(2026, 8, 1);
        let mut l = ledger_with("u", Plan::Trial, 5);
        let before = l.clone();
        let refused = pay(&mut l, "u", 206, &aug).unwrap_err();
        assert_eq!(refused.credits_needed, 206);
        assert_eq!(
            refused.balance,
            Balance {
                monthly_remaining: 200,
                purchased_remaining: 5
            }
        );
        assert_eq!(l, before);
        let free = pay(&mut l, "u", 0, &aug).unwrap();
        assert_eq!(free.source, None);
        assert_eq!(free.balance.map(Balance::total), Some(205));
        assert_eq!(l, before);
    }

    #[test]
    fn allowance_resets_each_month_and_purchases_stay() {
        let mut l = ledger_with("u", Plan::Trial, 10);
        pay(&mut l, "u", 205, &at(2026, 8, 31)).unwrap();
        let allowances = Allowances::default();
        let aug = l.balance("u", &at(2026, 8, 31), &allowances).unwrap();
        assert_eq!(
            aug,
            Balance {
                monthly_remaining: 0,
                purchased_remaining: 5
            }
        );
        let sep = l.balance("u", &at(2026, 9, 1), &allowances).unwrap();
        assert_eq!(
            sep,
            Balance {
                monthly_remaining: 200,
                purchased_remaining: 5
            }
        );
        let c = pay(&mut l, "u", 10, &at(2027, 1, 1)).unwrap();
        assert_eq!(
            c.balance,
            Some(Balance {
                monthly_remaining: 190,
                purchased_remaining: 5
            })
        );
        // A clock that steps back stays in the latest month.
        let c = pay(&mut l, "u", 10, &at(2026, 12, 1)).unwrap();
        assert_eq!(
            c.balance,
            Some(Balance {
                monthly_remaining: 180,
                purchased_remaining: 5
            })
        );
        assert_eq!(l.users["u"].month.as_deref(), Some("2027-01"));
    }

    #[test]
    fn unmetered_plans_are_never_refused_but_recorded() {
        let aug = at(2026, 8, 1);
        let mut l = ledger_with("a", Plan::Api, 0);
        let c = pay(&mut l, "a", 1_000_000, &aug).unwrap();
        assert_eq!(
            c,
            Charge {
                credits_used: 1_000_000,
                source: None,
                balance: None
            }
        );
        assert_eq!(l.users["a"].credits_in(&aug), 1_000_000);
        assert_eq!(l.balance("a", &aug, &Allowances::default()), None);
    }

    #[test]
    fn inconsistent_records_are_refused_without_effect() {
        let mut l = ledger_with("u", Plan::Pro, 3);
        let before = l.clone();
        let bad = [
            Record::UserCreated {
                user: "u".into(),
                plan: Plan::Pro,
            },
            Record::UserCreated {
                user: "".into(),
                plan: Plan::Pro,
            },
            Record::PlanSet {
                user: "x".into(),
                plan: Plan::Pro,
            },
            Record::Purchase {
                user: "u".into(),
                credits: u64::MAX,
            },
            Record::KeyDeactivated {
                key_id: "000000000000".into(),
            },
            Record::KeyCreated {
                key_id: "000000000000".into(),
                user: "u".into(),
                salt: "zz".into(),
                digest: "00".into(),
            },
            Record::Charge {
                user: "u".into(),
                month: "2026-08".into(),
                credits: 5,
                monthly: 1,
                purchased: 4,
                semantic: 0,
            },
            Record::Charge {
                user: "u".into(),
                month: "2026-8".into(),
                credits: 1,
                monthly: 1,
                purchased: 0,
                semantic: 0,
            },
            Record::Charge {
                user: "u".into(),
                month: "2026-08".into(),
                credits: 2,
                monthly: 1,
                purchased: 0,
                semantic: 0,
            },
        ];
        for record in bad {
            let entry = Entry {
                seq: l.seq + 1,
                record,
            };
            assert!(l.apply(&entry).is_err(), "{entry:?}");
            assert_eq!(l, before);
        }
        let stale = Entry {
            seq: l.seq,
            record: Record::PlanSet {
                user: "u".into(),
                plan: Plan::Api,
            },
        };
        assert!(l.apply(&stale).is_err());
        let later = Record::Charge {
            user: "u".into(),
            month: "2026-09".into(),
            credits: 1,
            monthly: 1,
            purchased: 0,
            semantic: 0,
        };
        l.apply(&Entry {
            seq: l.seq + 1,
            record: later,
        })
        .unwrap();
        let earlier = Record::Charge {
            user: "u".into(),
            month: "2026-08".into(),
            credits: 1,
            monthly: 1,
            purchased: 0,
            semantic: 0,
        };
        assert!(l
            .apply(&Entry {
                seq: l.seq + 1,
                record: earlier
            })
            .is_err());
    }
}
