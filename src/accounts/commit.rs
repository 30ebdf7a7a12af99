//! Group commit: many threads' journal records made durable by shared syncs.
//!
//! Mutations queue their serialised records with [`GroupCommit::enqueue`]
//! (in sequence order: the caller holds the ledger write lock) and then call
//! [`GroupCommit::leader_for`] with their sequence number. At most one thread
//! at a time is the *leader*; it takes the whole queue, writes it with one
//! `write_all` and one `fdatasync`, publishes the durable sequence number and
//! wakes every waiter at once (condition variable, `notify_all`). A waiter
//! whose record is now durable returns; the others elect the next leader,
//! which flushes everything queued meanwhile with again a single sync.
//!
//! Waiting on a condition variable rather than on the journal mutex matters:
//! with a plain mutex, waiters are released one at a time and a thread that
//! just returned can barge in and sync a one-record batch, so syncs are
//! barely shared. Here a lone writer pays one sync per call and N concurrent
//! writers share syncs among themselves.
//!
//! A failed write or sync leaves the journal's content unknown; the first
//! failure is kept and every later attempt to write is refused.

use std::io;
use std::mem;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, OnceLock};

use super::journal::Journal;

/// The journal writer shared by all threads.
pub struct GroupCommit {
    queue: Mutex<Queue>,
    /// Only the leader locks it, so it is never contended.
    journal: Mutex<Journal>,
    /// Whether some thread is the leader.
    leading: Mutex<bool>,
    /// Signalled whenever a leader steps down.
    stepped_down: Condvar,
    /// Every record with `seq <= durable` is on disk.
    durable: AtomicU64,
    failure: OnceLock<String>,
    syncs: AtomicU64,
    records: AtomicU64,
}

#[derive(Default)]
struct Queue {
    bytes: Vec<u8>,
    records: u64,
    last_seq: u64,
}

/// Exclusive access to the journal; leadership ends when it is dropped.
pub struct Leader<'a> {
    commit: &'a GroupCommit,
    journal: MutexGuard<'a, Journal>,
}

impl GroupCommit {
    /// Wraps `journal`, which already holds every record up to `durable`.
    pub fn new(journal: Journal, durable: u64) -> GroupCommit {
        GroupCommit {
            queue: Mutex::new(Queue::default()),
            journal: Mutex::new(journal),
            leading: Mutex::new(false),
            stepped_down: Condvar::new(),
            durable: AtomicU64::new(durable),
            failure: OnceLock::new(),
            syncs: AtomicU64::new(0),
            records: AtomicU64::new(0),
        }
    }

    /// Queues one journal line for record `seq`. Callers must enqueue in
    /// increasing `seq` order (hold the ledger lock while assigning and queueing).
    pub fn enqueue(&self, line: &[u8], seq: u64) {
        let mut queue = lock(&self.queue);
        queue.bytes.extend_from_slice(line);
        queue.records += 1;
        queue.last_seq = seq;
    }

    /// Waits until record `seq` is durable (`None`) or this thread must make
    /// it so (`Some(leader)`; call [`Leader::flush`]).
    pub fn leader_for(&self, seq: u64) -> io::Result<Option<Leader<'_>>> {
        self.elect(Some(seq))
    }

    /// Waits for any current leader to finish, then leads.
    pub fn leader(&self) -> io::Result<Leader<'_>> {
        self.elect(None)?
            .ok_or_else(|| io::Error::other("group commit: no leadership granted"))
    }

    /// Fails if an earlier write failed.
    pub fn check_healthy(&self) -> io::Result<()> {
        match self.failure.get() {
            None => Ok(()),
            Some(failure) => Err(io::Error::other(format!(
                "accounts store refuses changes after a write failure ({failure}); \
                 restart to recover the durable state"
            ))),
        }
    }

    /// Journal syncs so far.
    pub fn syncs(&self) -> u64 {
        self.syncs.load(Ordering::Relaxed)
    }

    /// Records written so far.
    pub fn records(&self) -> u64 {
        self.records.load(Ordering::Relaxed)
    }

    fn elect(&self, seq: Option<u64>) -> io::Result<Option<Leader<'_>>> {
        let is_durable =
            |seq: Option<u64>| seq.is_some_and(|s| self.durable.load(Ordering::Acquire) >= s);
        let mut leading = lock(&self.leading);
        loop {
            if is_durable(seq) {
                return Ok(None);
            }
            self.check_healthy()?;
            if !*leading {
                break;
            }
            leading = self
                .stepped_down
                .wait(leading)
                .unwrap_or_else(|e| e.into_inner());
        }
        *leading = true;
        drop(leading);
        let journal = lock(&self.journal);
        Ok(Some(Leader {
            commit: self,
            journal,
        }))
    }
}

impl Leader<'_> {
    /// Writes and syncs everything queued, then publishes it as durable.
    pub fn flush(&mut self) -> io::Result<()> {
        let commit = self.commit;
        let queue = mem::take(&mut *lock(&commit.queue));
        if queue.records == 0 {
            return Ok(());
        }
        let written = self.journal.append(&queue.bytes, queue.records);
        written.map_err(|e| self.fail(e))?;
        commit.syncs.fetch_add(1, Ordering::Relaxed);
        commit.records.fetch_add(queue.records, Ordering::Relaxed);
        commit.durable.store(queue.last_seq, Ordering::Release);
        Ok(())
    }

    /// Empties the journal (its content is in a durable snapshot).
    pub fn truncate(&mut self) -> io::Result<()> {
        let truncated = self.journal.truncate();
        truncated.map_err(|e| self.fail(e))
    }

    /// The journal, for its counters.
    pub fn journal(&mut self) -> &mut Journal {
        &mut self.journal
    }

    /// Records a fatal failure and returns the error for the caller.
    fn fail(&self, error: io::Error) -> io::Error {
        let message = format!(
            "accounts journal {}: {error}",
            self.journal.path().display()
        );
        let _ = self.commit.failure.set(message.clone());
        io::Error::new(error.kind(), message)
    }
}

impl Drop for Leader<'_> {
    fn drop(&mut self) {
        *lock(&self.commit.leading) = false;
        self.commit.stepped_down.notify_all();
    }
}

/// Locks `mutex`, ignoring poisoning: every critical section here leaves its
/// data consistent (plain stores and whole-value takes).
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::super::journal::JOURNAL_FILE;
    use super::*;
    use crate::accounts::testdir::TestDir;
    use std::sync::Arc;

    fn open(dir: &TestDir) -> GroupCommit {
        GroupCommit::new(Journal::open(&dir.path().join(JOURNAL_FILE)).unwrap(), 0)
    }

    #[test]
    fn a_leader_flushes_everything_queued_with_one_sync() {
        let dir = TestDir::new("commit-batch");
        let commit = open(&dir);
        commit.enqueue(b"one\n", 1);
        commit.enqueue(b"two\n", 2);
        let mut leader = commit.leader_for(1).unwrap().unwrap();
        leader.flush().unwrap();
        drop(leader);
        assert!(
            commit.leader_for(2).unwrap().is_none(),
            "record 2 went with record 1"
        );
        assert_eq!((commit.syncs(), commit.records()), (1, 2));
        let text = std::fs::read_to_string(dir.path().join(JOURNAL_FILE)).unwrap();
        assert_eq!(text, "one\ntwo\n");
    }

    #[test]
    fn concurrent_waiters_all_return_and_share_syncs() {
        let dir = TestDir::new("commit-threads");
        let commit = Arc::new(open(&dir));
        let seq = Arc::new(Mutex::new(0u64));
        let threads: Vec<_> = (0..4)
            .map(|_| {
                let (commit, seq) = (Arc::clone(&commit), Arc::clone(&seq));
                std::thread::spawn(move || {
                    for _ in 0..50 {
                        let mine = {
                            let mut seq = seq.lock().unwrap();
                            *seq += 1;
                            commit.enqueue(format!("{}\n", *seq).as_bytes(), *seq);
                            *seq
                        };
                        if let Some(mut leader) = commit.leader_for(mine).unwrap() {
                            leader.flush().unwrap();
                        }
                    }
                })
            })
            .collect();
        for thread in threads {
            thread.join().unwrap();
        }
        assert_eq!(commit.records(), 200);
        assert!(commit.syncs() <= 200);
        let text = std::fs::read_to_string(dir.path().join(JOURNAL_FILE)).unwrap();
        let numbers: Vec<u64> = text.lines().map(|l| l.parse().unwrap()).collect();
        assert_eq!(
            numbers,
            (1..=200).collect::<Vec<_>>(),
            "lines are in sequence order"
        );
    }
}
