//! Throughput of the durable credit ledger: charges per second and charges
//! per journal fsync (group commit) with 1 and 8 charging threads. Prints
//! figures; asserts only that every charge was applied exactly once.
//!
//! `cargo bench --bench charges` (uses a directory under the system temp dir).

use std::sync::Arc;
use std::time::Instant;

use fundsearch::accounts::{Allowances, JournalStore, Plan};

const CHARGES: usize = 8_000;

fn main() {
    for threads in [1usize, 8] {
        let dir = std::env::temp_dir().join(format!(
            "fundsearch-bench-charges-{}-{threads}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        let accounts =
            Arc::new(JournalStore::open(&dir, Allowances::default()).expect("state opens"));
        let key = accounts.create_key("bench", Plan::Api).expect("key");
        let principal = accounts.authenticate(&key).expect("key authenticates");
        let per_thread = CHARGES / threads;
        let now = chrono::Utc::now();
        let started = Instant::now();
        std::thread::scope(|s| {
            for _ in 0..threads {
                s.spawn(|| {
                    for _ in 0..per_thread {
                        accounts
                            .charge(&principal, 1, now)
                            .expect("journal write")
                            .expect("api plan is never refused");
                    }
                });
            }
        });
        let seconds = started.elapsed().as_secs_f64();
        let total = (per_thread * threads) as u64;
        assert_eq!(
            accounts.usage("bench", now),
            Some(total),
            "every charge applied once"
        );
        let stats = accounts.stats();
        println!(
            "{threads} thread(s): {total} charges in {seconds:.2} s = {:.0} charges/s, {} fsyncs ({:.0}/s), {:.1} charges per fsync",
            total as f64 / seconds,
            stats.journal_syncs,
            stats.journal_syncs as f64 / seconds,
            stats.records_written as f64 / stats.journal_syncs.max(1) as f64,
        );
        drop(accounts);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
