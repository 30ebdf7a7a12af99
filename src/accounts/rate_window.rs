//! [`SlidingWindows`]: the per-key request limit of one process, at most
//! `limit` requests in any sliding [`RATE_WINDOW`] (reference §1.10: 200 per
//! minute), exact (a log of admission times per key). A refused request is
//! not counted; the wait is the time until the oldest counted request leaves
//! the window. In memory only: a restart forgives. The journal store admits
//! with it; a store shared by replicas admits in its database instead.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

use chrono::{DateTime, Utc};

/// The window a per-minute limit counts in.
pub const RATE_WINDOW_MS: i64 = 60_000;
const SHARDS: usize = 16;

/// Admission times per key, in shards to keep lock contention low.
pub struct SlidingWindows {
    shards: Vec<Mutex<HashMap<String, VecDeque<i64>>>>,
}

impl Default for SlidingWindows {
    fn default() -> SlidingWindows {
        SlidingWindows {
            shards: (0..SHARDS).map(|_| Mutex::new(HashMap::new())).collect(),
        }
    }
}

impl SlidingWindows {
    /// Counts a request of `key` at `now` if fewer than `limit` were counted
    /// in the window before it, else returns the seconds to wait. A `limit`
    /// of 0 admits everything.
    pub fn admit(&self, key: &str, limit: u32, now: DateTime<Utc>) -> Result<(), u64> {
        if limit == 0 {
            return Ok(());
        }
        let now = now.timestamp_millis();
        let shard = &self.shards[shard_of(key)];
        let mut map = shard.lock().unwrap_or_else(|p| p.into_inner());
        let times = map.entry(key.to_string()).or_default();
        while times.front().is_some_and(|&t| now - t >= RATE_WINDOW_MS) {
            times.pop_front();
        }
        if times.len() >= limit as usize {
            let oldest = *times.front().unwrap_or(&now);
            return Err(wait_seconds(RATE_WINDOW_MS - (now - oldest)));
        }
        times.push_back(now);
        Ok(())
    }
}

/// Whole seconds covering `ms`, at least 1.
pub fn wait_seconds(ms: i64) -> u64 {
    (ms.max(1) as u64).div_ceil(1000)
}

fn shard_of(key: &str) -> usize {
    key.bytes()
        .fold(0usize, |h, b| h.wrapping_mul(31).wrapping_add(b as usize))
        % SHARDS
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeDelta;

    #[test]
    fn allows_the_limit_then_refuses_until_the_window_slides() {
        let rl = SlidingWindows::default();
        let t0 = Utc::now();
        let at = |s: i64| t0 + TimeDelta::seconds(s);
        for i in 0..3 {
            assert!(rl.admit("k", 3, at(i)).is_ok());
        }
        assert_eq!(rl.admit("k", 3, at(10)), Err(50));
        assert!(rl.admit("other", 3, at(10)).is_ok(), "keys are independent");
        assert!(
            rl.admit("k", 3, at(60)).is_ok(),
            "the first request left the window"
        );
        assert!(rl.admit("k", 3, at(60)).is_err());
    }

    #[test]
    fn zero_disables() {
        let rl = SlidingWindows::default();
        let t0 = Utc::now();
        assert!((0..10_000).all(|_| rl.admit("k", 0, t0).is_ok()));
    }
}
