//! The snapshot file (`snapshot.json`): the whole ledger as of one sequence
//! number, so the journal can be emptied (compaction).
//!
//! ```text
//! {"format":1,"seq":42,
//!  "users":[{"user":"acme","plan":"pro","month":"2026-08","monthly_used":20,
//!            "month_credits":25,"purchased":495}],
//!  "keys":[{"key_id":"0f3a9c2b1d4e","user":"acme","salt":"<32 hex>",
//!           "digest":"<64 hex>","active":true}]}
//! ```
//!
//! It is replaced atomically: written to `snapshot.json.tmp`, fsynced,
//! renamed over `snapshot.json`, then the directory is fsynced so the rename
//! itself is durable. A crash leaves either the old or the new snapshot,
//! never a mix. Users and keys are sorted so equal states give equal bytes.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::key::hex_encode;
use super::ledger::{is_month, Ledger, StoredKey, User};
use super::plan::Plan;
use super::record::{Entry, Record};
use crate::schema::alert::AlertConfig;

/// File name of the snapshot inside the state directory.
pub const SNAPSHOT_FILE: &str = "snapshot.json";
const TEMP_FILE: &str = "snapshot.json.tmp";
const FORMAT: u32 = 1;

#[derive(Serialize, Deserialize)]
struct SnapshotFile {
    format: u32,
    seq: u64,
    users: Vec<UserRow>,
    keys: Vec<KeyRow>,
}

#[derive(Serialize, Deserialize)]
struct UserRow {
    user: String,
    plan: Plan,
    month: Option<String>,
    monthly_used: u64,
    month_credits: u64,
    /// Absent in snapshots written before semantic search: 0.
    #[serde(default)]
    semantic_used: u64,
    purchased: u64,
    /// People whose e-mail the user unlocked; absent when none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    unlocked: Vec<String>,
    /// Alert configurations, oldest first; absent when none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    alerts: Vec<AlertConfig>,
}

#[derive(Serialize, Deserialize)]
struct KeyRow {
    key_id: String,
    user: String,
    salt: String,
    digest: String,
    active: bool,
}

/// Serialises `ledger` as snapshot bytes.
pub fn encode(ledger: &Ledger) -> io::Result<Vec<u8>> {
    let users = ledger.users.iter().map(user_row).collect();
    let mut keys: Vec<KeyRow> = ledger.keys.iter().map(key_row).collect();
    keys.sort_by(|a, b| a.key_id.cmp(&b.key_id));
    let file = SnapshotFile {
        format: FORMAT,
        seq: ledger.seq,
        users,
        keys,
    };
    let mut bytes = serde_json::to_vec(&file).map_err(io::Error::other)?;
    bytes.push(b'\n');
    Ok(bytes)
}

/// Atomically replaces the snapshot in `dir` with `bytes`.
pub fn write(dir: &Path, bytes: &[u8]) -> io::Result<()> {
    let temp = dir.join(TEMP_FILE);
    let mut file = File::create(&temp)?;
    file.write_all(bytes)?;
    file.sync_all()?;
    drop(file);
    fs::rename(&temp, dir.join(SNAPSHOT_FILE))?;
    File::open(dir)?.sync_all()
}

/// Loads the snapshot in `dir`; an empty ledger if there is none.
pub fn read(dir: &Path) -> io::Result<Ledger> {
    let path = dir.join(SNAPSHOT_FILE);
    let bytes = match fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Ledger::default()),
        Err(e) => return Err(e),
    };
    decode(&bytes).map_err(|reason| {
        let message = format!("accounts snapshot {} is damaged: {reason}", path.display());
        io::Error::new(io::ErrorKind::InvalidData, message)
    })
}

/// Rebuilds a ledger from snapshot bytes, checking it like journal records.
fn decode(bytes: &[u8]) -> Result<Ledger, String> {
    let file: SnapshotFile = serde_json::from_slice(bytes).map_err(|e| e.to_string())?;
    if file.format != FORMAT {
        return Err(format!("unsupported format {}", file.format));
    }
    let mut ledger = Ledger::default();
    for row in file.users {
        insert_user(&mut ledger, row)?;
    }
    for row in file.keys {
        insert_key(&mut ledger, row)?;
    }
    ledger.seq = file.seq;
    Ok(ledger)
}

fn insert_user(ledger: &mut Ledger, row: UserRow) -> Result<(), String> {
    if row.month.as_deref().is_some_and(|m| !is_month(m)) {
        return Err(format!("user {:?} has a bad month", row.user));
    }
    let user = User {
        plan: row.plan,
        month: row.month,
        monthly_used: row.monthly_used,
        month_credits: row.month_credits,
        semantic_used: row.semantic_used,
        purchased: row.purchased,
        unlocked: row.unlocked.into_iter().collect(),
        alerts: Vec::new(),
    };
    if row.user.is_empty() || ledger.users.insert(row.user.clone(), user).is_some() {
        return Err(format!("user {:?} is empty or listed twice", row.user));
    }
    for alert in row.alerts {
        let created = Record::AlertCreated {
            user: row.user.clone(),
            alert: Box::new(alert),
        };
        ledger.apply(&Entry {
            seq: ledger.seq + 1,
            record: created,
        })?;
    }
    Ok(())
}

/// Goes through [`Ledger::apply`] so key rows get the same checks as journal lines.
fn insert_key(ledger: &mut Ledger, row: KeyRow) -> Result<(), String> {
    let created = Record::KeyCreated {
        key_id: row.key_id.clone(),
        user: row.user,
        salt: row.salt,
        digest: row.digest,
    };
    ledger.apply(&Entry {
        seq: ledger.seq + 1,
        record: created,
    })?;
    if !row.active {
        let deactivated = Record::KeyDeactivated { key_id: row.key_id };
        ledger.apply(&Entry {
            seq: ledger.seq + 1,
            record: deactivated,
        })?;
    }
    Ok(())
}

fn user_row((name, user): (&String, &User)) -> UserRow {
    UserRow {
        user: name.clone(),
        plan: user.plan,
        month: user.month.clone(),
        monthly_used: user.monthly_used,
        month_credits: user.month_credits,
        semantic_used: user.semantic_used,
        purchased: user.purchased,
        unlocked: user.unlocked.iter().cloned().collect(),
        alerts: user.alerts.clone(),
    }
}

fn key_row((key_id, key): (&String, &StoredKey)) -> KeyRow {
    KeyRow {
        key_id: key_id.clone(),
        user: key.user.clone(),
        salt: hex_encode(&key.salt),
        digest: hex_encode(&key.digest),
        active: key.active,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accounts::testdir::TestDir;

    fn sample() -> Ledger {
        let records = [
            Record::UserCreated {
                user: "a".into(),
                plan: Plan::Trial,
            },
            Record::UserCreated {
                user: "b".into(),
                plan: Plan::Api,
            },
            Record::KeyCreated {
                key_id: "00000000000a".into(),
                user: "a".into(),
                salt: "01".repeat(16),
                digest: "02".repeat(32),
            },
            Record::KeyCreated {
                key_id: "00000000000b".into(),
                user: "b".into(),
                salt: "03".repeat(16),
                digest: "04".repeat(32),
            },
            Record::KeyDeactivated {
                key_id: "00000000000b".into(),
            },
            Record::Purchase {
                user: "a".into(),
                credits: 9,
            },
            Record::Charge {
                user: "a".into(),
                month: "2026-08".into(),
                credits: 12,
                monthly: 12,
                purchased: 0,
                semantic: 0,
            },
        ];
        let mut ledger = Ledger::default();
        for record in records {
            ledger
                .apply(&Entry {
                    seq: ledger.seq + 1,
                    record,
                })
                .unwrap();
        }
        ledger
    }

    #[test]
    fn write_then_read_gives_the_same_ledger() {
        let dir = TestDir::new("snapshot-roundtrip");
        assert_eq!(read(dir.path()).unwrap(), Ledger::default());
        let ledger = sample();
        write(dir.path(), &encode(&ledger).unwrap()).unwrap();
        assert_eq!(read(dir.path()).unwrap(), ledger);
        assert!(!dir.path().join(TEMP_FILE).exists());
        assert_eq!(
            encode(&ledger).unwrap(),
            encode(&read(dir.path()).unwrap()).unwrap()
        );
    }

    #[test]
    fn damaged_snapshots_are_refused() {
        let dir = TestDir::new("snapshot-damaged");
        let good = String::from_utf8(encode(&sample()).unwrap()).unwrap();
        let bad = [
            good[..good.len() / 2].to_string(),
            good.replace("\"format\":1", "\"format\":2"),
            good.replace("\"user\":\"b\"", "\"user\":\"a\""),
            good.replace("\"2026-08\"", "\"2026-8\""),
            good.replace(&"02".repeat(32), "zz"),
        ];
        for text in bad {
            fs::write(dir.path().join(SNAPSHOT_FILE), &text).unwrap();
            let err = read(dir.path()).unwrap_err();
            assert_eq!(err.kind(), io::ErrorKind::InvalidData, "{text}");
        }
    }
}
