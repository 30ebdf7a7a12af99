//! Per-key request rate limit: at most `limit` requests in any sliding
//! 60-second window (reference §1.10: 200 per minute). A refused request is
//! not counted. `Retry-After` is the time until the oldest counted request
//! leaves the window. State is in memory only: a restart forgives.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::{Duration, Instant};

const SHARDS: usize = 16;

pub struct RateLimiter {
    limit: u32,
    window: Duration,
    shards: Vec<Mutex<HashMap<String, VecDeque<Instant>>>>,
}

impl RateLimiter {
    /// `limit` requests per minute per key; 0 disables the limit.
    pub fn new(limit: u32) -> RateLimiter {
        RateLimiter::with_window(limit, Duration::from_secs(60))
    }

    pub fn with_window(limit: u32, window: Duration) -> RateLimiter {
        RateLimiter {
            limit,
            window,
            shards: (0..SHARDS).map(|_| Mutex::new(HashMap::new())).collect(),
        }
    }

    pub fn limit(&self) -> u32 {
        self.limit
    }

    /// Counts a request of `key` at `now`, or returns the seconds to wait.
    pub fn check(&self, key: &str, now: Instant) -> Result<(), u64> {
        if self.limit == 0 {
            return Ok(());
        }
        let shard = &self.shards[shard_of(key)];
        let mut map = shard.lock().unwrap_or_else(|p| p.into_inner());
        let times = map.entry(key.to_string()).or_default();
        while times
            .front()
            .is_some_and(|&t| now.saturating_duration_since(t) >= self.window)
        {
            times.pop_front();
        }
        if times.len() >= self.limit as usize {
            let oldest = *times.front().unwrap_or(&now);
            let wait = self
                .window
                .saturating_sub(now.saturating_duration_since(oldest));
            return Err(wait.as_secs_f64().ceil() as u64);
        }
        times.push_back(now);
        Ok(())
    }
}

fn shard_of(key: &str) -> usize {
    key.bytes()
        .fold(0usize, |h, b| h.wrapping_mul(31).wrapping_add(b as usize))
        % SHARDS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allows_the_limit_then_refuses_until_the_window_slides() {
        let rl = RateLimiter::new(3);
        let t0 = Instant::now();
        for i in 0..3 {
            assert!(rl.check("k", t0 + Duration::from_secs(i)).is_ok());
        }
        assert_eq!(rl.check("k", t0 + Duration::from_secs(10)), Err(50));
        assert!(
            rl.check("other", t0 + Duration::from_secs(10)).is_ok(),
            "keys are independent"
        );
        assert!(
            rl.check("k", t0 + Duration::from_secs(60)).is_ok(),
            "the first request left the window"
        );
        assert!(rl.check("k", t0 + Duration::from_secs(60)).is_err());
    }

    #[test]
    fn zero_disables() {
        let rl = RateLimiter::new(0);
        let t0 = Instant::now();
        assert!((0..10_000).all(|_| rl.check("k", t0).is_ok()));
    }
}
