//! Journal records: one JSON object per line.
//!
//! Every line carries a sequence number `seq` (1, 2, 3, … with no gaps over
//! the life of the state directory) and a `type`:
//!
//! ```text
//! {"seq":1,"type":"user_created","user":"acme","plan":"pro"}
//! {"seq":2,"type":"key_created","key_id":"0f3a9c2b1d4e","user":"acme","salt":"<32 hex>","digest":"<64 hex>"}
//! {"seq":3,"type":"purchase","user":"acme","credits":500}
//! {"seq":4,"type":"charge","user":"acme","month":"2026-08","credits":25,"monthly":20,"purchased":5}
//! {"seq":5,"type":"charge","user":"acme","month":"2026-08","credits":3,"monthly":3,"purchased":0,"semantic":1}
//! {"seq":6,"type":"plan_set","user":"acme","plan":"pro_plus"}
//! {"seq":7,"type":"key_deactivated","key_id":"0f3a9c2b1d4e"}
//! {"seq":8,"type":"unlock","user":"acme","person":"<uuid>","month":"2026-08","credits":5,"monthly":5,"purchased":0}
//! {"seq":9,"type":"alert_created","user":"acme","alert":{"id":"<uuid>","name":"AI seed","frequency":"WEEKLY","filters":{…},"created_at":"…"}}
//! {"seq":10,"type":"alert_deleted","user":"acme","id":"<uuid>"}
//! ```
//!
//! An alert configuration is stored whole, in the shape of
//! [`crate::schema::alert::AlertConfig`].
//!
//! An e-mail unlock is one record carrying both the unlock and its charge,
//! so a crash leaves both or neither.
//!
//! A charge records the amounts taken from each balance, not the balances
//! left, so replay recomputes balances and can check them (a charge can never
//! take more purchased credits than there are). Charges of unmetered plans are
//! recorded with `monthly` and `purchased` 0 so usage is still counted. A
//! charge also counts the request's semantic searches (`semantic`, omitted
//! when 0; a request with a semantic search is recorded even when it costs
//! no credits).
//! The snapshot stores the `seq` it includes, so replay skips older lines and
//! never applies a record twice.

use serde::{Deserialize, Serialize};

use super::plan::Plan;
use crate::schema::alert::AlertConfig;

/// One change to the account state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Record {
    UserCreated {
        user: String,
        plan: Plan,
    },
    PlanSet {
        user: String,
        plan: Plan,
    },
    KeyCreated {
        key_id: String,
        user: String,
        /// Hex of the per-key salt.
        salt: String,
        /// Hex of `SHA-256(salt ‖ key)`.
        digest: String,
    },
    KeyDeactivated {
        key_id: String,
    },
    Purchase {
        user: String,
        credits: u64,
    },
    Charge {
        user: String,
        /// `YYYY-MM` (UTC) the charge is booked in.
        month: String,
        credits: u64,
        /// Taken from the monthly allowance.
        monthly: u64,
        /// Taken from purchased credits.
        purchased: u64,
        /// Semantic searches the request ran (counted against the monthly
        /// ceiling); absent when 0.
        #[serde(default, skip_serializing_if = "is_zero")]
        semantic: u64,
    },
    /// An e-mail unlock with its charge (amounts as in `Charge`).
    Unlock {
        user: String,
        /// The person (hyphenated UUID) whose e-mail the user may now see.
        person: String,
        month: String,
        credits: u64,
        monthly: u64,
        purchased: u64,
    },
    /// An alert configuration saved for `user` (its `id` is new).
    AlertCreated {
        user: String,
        alert: Box<AlertConfig>,
    },
    /// One of `user`'s alert configurations removed.
    AlertDeleted {
        user: String,
        id: uuid::Uuid,
    },
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// A record with its sequence number: one journal line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    pub seq: u64,
    #[serde(flatten)]
    pub record: Record,
}

impl Entry {
    /// Appends this entry as one JSON line (with its `\n`) to `out`.
    pub fn write_line(&self, out: &mut Vec<u8>) -> serde_json::Result<()> {
        serde_json::to_writer(&mut *out, self)?;
        out.push(b'\n');
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_have_the_documented_shape_and_round_trip() {
        let entry = Entry {
            seq: 4,
            record: Record::Charge {
                user: "acme".into(),
                month: "2026-08".into(),
                credits: 25,
                monthly: 20,
                purchased: 5,
                semantic: 0,
            },
        };
        let mut line = Vec::new();
        entry.write_line(&mut line).unwrap();
        let text = String::from_utf8(line).unwrap();
        assert_eq!(
            text,
            "{\"seq\":4,\"type\":\"charge\",\"user\":\"acme\",\"month\":\"2026-08\",\
             \"credits\":25,\"monthly\":20,\"purchased\":5}\n"
        );
        assert_eq!(serde_json::from_str::<Entry>(&text).unwrap(), entry);
    }

    #[test]
    fn every_variant_round_trips() {
        let records = [
            Record::UserCreated {
                user: "u\"\n".into(),
                plan: Plan::ProPlus,
            },
            Record::PlanSet {
                user: "u".into(),
                plan: Plan::Api,
            },
            Record::KeyCreated {
                key_id: "0123456789ab".into(),
                user: "u".into(),
                salt: "00".repeat(16),
                digest: "ff".repeat(32),
            },
            Record::KeyDeactivated {
                key_id: "0123456789ab".into(),
            },
            Record::Purchase {
                user: "u".into(),
                credits: u64::MAX,
            },
        ];
        for (i, record) in records.into_iter().enumerate() {
            let entry = Entry {
                seq: i as u64 + 1,
                record,
            };
            let mut line = Vec::new();
            entry.write_line(&mut line).unwrap();
            assert_eq!(line.iter().filter(|&&b| b == b'\n').count(), 1);
            let back: Entry = serde_json::from_slice(&line).unwrap();
            assert_eq!(back, entry);
        }
    }

    #[test]
    fn malformed_lines_are_errors() {
        let bad = [
            "{\"seq\":1,\"type\":\"refund\",\"user\":\"u\"}",
            "{\"seq\":1,\"type\":\"purchase\",\"user\":\"u\"}",
            "{\"seq\":-1,\"type\":\"purchase\",\"user\":\"u\",\"credits\":1}",
            "{\"type\":\"purchase\",\"user\":\"u\",\"credits\":1}",
            "{\"seq\":1,\"type\":\"purchase\",\"user\":\"u\",\"credits\":1",
            "\u{0}\u{0}\u{0}",
        ];
        for line in bad {
            assert!(serde_json::from_str::<Entry>(line).is_err(), "{line:?}");
        }
    }
}
