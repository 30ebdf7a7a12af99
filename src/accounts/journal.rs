//! The append-only journal file (`journal.jsonl`): appending batches durably
//! and replaying them.
//!
//! A batch is written with one `write_all` and made durable with one
//! `fdatasync` (which also persists the grown file length). A crash can
//! therefore only damage the *last* batch, and only by cutting it short: the
//! final line then has no `\n`. Replay ignores such an incomplete final line
//! (its writer was never told it succeeded) and reports it, and the caller
//! truncates it away before appending again. Any other damage (a complete line
//! that is not a valid record, a gap in sequence numbers, a record that does
//! not fit the state) is refused with an `InvalidData` error naming the line,
//! because guessing would lose or invent credits.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::ledger::Ledger;
use super::record::Entry;

/// File name of the journal inside the state directory.
pub const JOURNAL_FILE: &str = "journal.jsonl";

/// The open journal, positioned for appending.
pub struct Journal {
    file: File,
    path: PathBuf,
    /// Records appended since the journal was last emptied.
    records: u64,
}

/// What [`replay`] found.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Replay {
    /// Records applied to the ledger.
    pub applied: u64,
    /// Records skipped because the snapshot already holds them.
    pub skipped: u64,
    /// Bytes of an incomplete final line that were ignored.
    pub torn_bytes: u64,
    /// Total size of the journal file.
    pub file_bytes: u64,
}

impl Journal {
    /// Opens (creating if needed) the journal at `path` for appending.
    /// The directory is synced too, so a newly created file survives a crash.
    pub fn open(path: &Path) -> io::Result<Journal> {
        let file = OpenOptions::new().create(true).append(true).open(path)?;
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            File::open(dir)?.sync_all()?;
        }
        Ok(Journal {
            file,
            path: path.to_path_buf(),
            records: 0,
        })
    }

    /// Appends `batch` (complete lines holding `records` records) and syncs it.
    pub fn append(&mut self, batch: &[u8], records: u64) -> io::Result<()> {
        self.file.write_all(batch)?;
        self.file.sync_data()?;
        self.records += records;
        Ok(())
    }

    /// Empties the journal durably (after its content went into a snapshot).
    pub fn truncate(&mut self) -> io::Result<()> {
        self.file.set_len(0)?;
        self.file.sync_all()?;
        self.records = 0;
        Ok(())
    }

    /// Restarts the count used to trigger compaction (after a failed one).
    pub fn reset_count(&mut self) {
        self.records = 0;
    }

    /// Records appended since the journal was last emptied.
    pub fn records(&self) -> u64 {
        self.records
    }

    /// Where the journal lives.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// Applies the journal at `path` on top of `ledger` (loaded from the snapshot).
/// A missing file is an empty journal.
pub fn replay(path: &Path, ledger: &mut Ledger) -> io::Result<Replay> {
    let data = match fs::read(path) {
        Ok(data) => data,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Replay::default()),
        Err(e) => return Err(e),
    };
    let complete = data.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let mut report = Replay {
        torn_bytes: (data.len() - complete) as u64,
        file_bytes: data.len() as u64,
        ..Replay::default()
    };
    let base = ledger.seq;
    let mut offset = 0;
    for (index, line) in data[..complete]
        .split_inclusive(|&b| b == b'\n')
        .enumerate()
    {
        let damaged = |reason: String| damage(path, index + 1, offset, reason);
        let entry: Entry = serde_json::from_slice(line).map_err(|e| damaged(e.to_string()))?;
        if entry.seq <= base && report.applied == 0 {
            report.skipped += 1;
        } else if entry.seq != ledger.seq + 1 {
            let expected = ledger.seq + 1;
            return Err(damaged(format!(
                "sequence number {} where {expected} was expected",
                entry.seq
            )));
        } else {
            ledger.apply(&entry).map_err(damaged)?;
            report.applied += 1;
        }
        offset += line.len();
    }
    Ok(report)
}

fn damage(path: &Path, line: usize, offset: usize, reason: String) -> io::Error {
    let message = format!(
        "accounts journal {} is damaged at line {line} (byte {offset}): {reason}; \
         refusing to guess balances, restore the state directory from a backup",
        path.display()
    );
    io::Error::new(io::ErrorKind::InvalidData, message)
}

#[cfg(test)]
mod tests {
    use super::super::plan::Plan;
    use super::super::record::Record;
    use super::*;
    use crate::accounts::testdir::TestDir;

    fn entries() -> Vec<Entry> {
        let records = [
            Record::UserCreated {
                user: "u".into(),
                plan: Plan::Pro,
            },
            Record::Purchase {
                user: "u".into(),
                credits: 10,
            },
            Record::Charge {
                user: "u".into(),
                month: "2026-08".into(),
                credits: 3,
                monthly: 3,
                purchased: 0,
                semantic: 0,
            },
        ];
        let numbered = records.into_iter().enumerate();
        numbered
            .map(|(i, record)| Entry {
                seq: i as u64 + 1,
                record,
            })
            .collect()
    }

    fn lines(entries: &[Entry]) -> Vec<u8> {
        let mut out = Vec::new();
        for entry in entries {
            entry.write_line(&mut out).unwrap();
        }
        out
    }

    #[test]
    fn append_then_replay() {
        let dir = TestDir::new("journal-append");
        let path = dir.path().join(JOURNAL_FILE);
        let mut journal = Journal::open(&path).unwrap();
        let all = entries();
        journal.append(&lines(&all[..2]), 2).unwrap();
        journal.append(&lines(&all[2..]), 1).unwrap();
        assert_eq!(journal.records(), 3);
        let mut ledger = Ledger::default();
        let report = replay(&path, &mut ledger).unwrap();
        assert_eq!(
            (report.applied, report.skipped, report.torn_bytes),
            (3, 0, 0)
        );
        assert_eq!(ledger.seq, 3);
        assert_eq!(ledger.users["u"].purchased, 10);
        assert_eq!(ledger.users["u"].monthly_used, 3);
        journal.truncate().unwrap();
        assert_eq!(fs::metadata(&path).unwrap().len(), 0);
    }

    #[test]
    fn missing_journal_is_empty() {
        let dir = TestDir::new("journal-missing");
        let mut ledger = Ledger::default();
        let report = replay(&dir.path().join(JOURNAL_FILE), &mut ledger).unwrap();
        assert_eq!(report, Replay::default());
    }

    #[test]
    fn torn_final_line_is_ignored() {
        let dir = TestDir::new("journal-torn");
        let path = dir.path().join(JOURNAL_FILE);
        let mut data = lines(&entries());
        let full = data.len();
        data.truncate(full - 10);
        fs::write(&path, &data).unwrap();
        let mut ledger = Ledger::default();
        let report = replay(&path, &mut ledger).unwrap();
        assert_eq!(report.applied, 2);
        assert!(report.torn_bytes > 0);
        assert_eq!(ledger.users["u"].monthly_used, 0);
    }

    #[test]
    fn records_in_the_snapshot_are_skipped() {
        let dir = TestDir::new("journal-skip");
        let path = dir.path().join(JOURNAL_FILE);
        let all = entries();
        fs::write(&path, lines(&all)).unwrap();
        let mut ledger = Ledger::default();
        for entry in &all[..2] {
            ledger.apply(entry).unwrap();
        }
        let report = replay(&path, &mut ledger).unwrap();
        assert_eq!((report.applied, report.skipped), (1, 2));
        assert_eq!(ledger.users["u"].monthly_used, 3);
    }

    #[test]
    fn damage_before_the_end_is_an_error() {
        let dir = TestDir::new("journal-damage");
        let path = dir.path().join(JOURNAL_FILE);
        let all = entries();
        let mut bad_middle = lines(&all[..1]);
        bad_middle.extend_from_slice(b"{\"seq\":2,\"type\":\"purch\n");
        bad_middle.extend_from_slice(&lines(&all[2..]));
        let gap = lines(&[all[0].clone(), all[2].clone()]);
        let mut overdraft = lines(&all[..1]);
        overdraft.extend_from_slice(&overdrawing_charge(lines(&all[2..])));
        for data in [bad_middle, gap, overdraft, b"\n".to_vec()] {
            fs::write(&path, &data).unwrap();
            let err = replay(&path, &mut Ledger::default()).unwrap_err();
            assert_eq!(err.kind(), io::ErrorKind::InvalidData);
            assert!(err.to_string().contains("damaged at line"), "{err}");
        }
    }

    /// Renumbers the charge line to seq 2 and makes it take purchased credits that do not exist.
    fn overdrawing_charge(charge: Vec<u8>) -> Vec<u8> {
        let text = String::from_utf8(charge).unwrap();
        let text = text.replace("\"seq\":3", "\"seq\":2");
        let paid = "\"monthly\":3,\"purchased\":0";
        text.replace(paid, "\"monthly\":0,\"purchased\":3")
            .into_bytes()
    }
}
