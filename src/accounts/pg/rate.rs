//! The per-key request limit, shared by every replica through `rate_windows`.
//!
//! Time is cut into fixed windows of [`RATE_WINDOW_MS`]; a row counts the
//! requests a key was admitted in one window. The number of requests in the
//! sliding window ending now is estimated as
//!
//! ```text
//! estimate = previous window's count × (1 − fraction of the current window elapsed)
//!          + current window's count
//! ```
//!
//! and a request is admitted iff `estimate + 1 ≤ limit`. The check and the
//! count are one statement ([`ADMIT`]): an `INSERT … ON CONFLICT DO UPDATE
//! … WHERE` that locks the key's current row, so concurrent requests from
//! any number of threads and servers are counted one at a time and a burst
//! admits exactly `limit`. No row returned means refused, and nothing was
//! counted; the wait is then computed from the two counts ([`Window::wait_ms`]).
//! Rows older than the previous window are deleted now and then
//! ([`prune`]); the table is UNLOGGED (a database crash forgives, as a
//! journal-store restart does).

use super::super::rate_window::RATE_WINDOW_MS;
use super::pool::Failure;
use super::session::{Session, Sql};

/// Counts the request if the estimate allows it; `$1` key, `$2` current
/// window start, `$3` previous window start, `$4` weight of the previous
/// window, `$5` limit.
const ADMIT: &str = "
INSERT INTO rate_windows AS w (key_id, window_start, n)
SELECT $1, $2::bigint, 1
 WHERE 1 + $4::float8 * coalesce((SELECT p.n FROM rate_windows p
                                   WHERE p.key_id = $1 AND p.window_start = $3::bigint), 0)
       <= $5::float8
ON CONFLICT (key_id, window_start) DO UPDATE SET n = w.n + 1
 WHERE w.n + 1 + $4::float8 * coalesce((SELECT p.n FROM rate_windows p
                                         WHERE p.key_id = $1 AND p.window_start = $3::bigint), 0)
       <= $5::float8
RETURNING w.n";

/// The fixed window a moment falls in.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Window {
    /// Start of the current window, ms since the epoch.
    pub start: i64,
    /// The moment, ms since the epoch.
    pub now: i64,
}

impl Window {
    pub fn at(now: i64) -> Window {
        Window {
            start: now.div_euclid(RATE_WINDOW_MS) * RATE_WINDOW_MS,
            now,
        }
    }

    pub fn previous(self) -> i64 {
        self.start - RATE_WINDOW_MS
    }

    /// How much of the previous window still counts: 1 − elapsed fraction.
    pub fn previous_weight(self) -> f64 {
        1.0 - (self.now - self.start) as f64 / RATE_WINDOW_MS as f64
    }

    /// Milliseconds until a request would be admitted, given the counts of
    /// the previous and current windows (at least 1).
    pub fn wait_ms(self, previous: i64, current: i64, limit: u32) -> i64 {
        let window = RATE_WINDOW_MS as f64;
        let room = f64::from(limit) - 1.0 - current as f64;
        // Into a window, previous × (1 − f) ≤ room once f·W ≥ W − W·room/previous.
        let admits_at = if room >= 0.0 {
            // This window, as the previous one slides out.
            let into = window - window * room / (previous.max(1) as f64);
            self.start as f64 + into.ceil()
        } else {
            // The next window, where this one becomes the previous.
            let into = window - window * (f64::from(limit) - 1.0) / (current as f64);
            (self.start + RATE_WINDOW_MS) as f64 + into.ceil()
        };
        (admits_at as i64 - self.now).max(1)
    }
}

/// Admits a request of `key_id` at `now_ms` under `limit` (> 0), or
/// returns the milliseconds to wait.
pub fn admit(
    client: &mut Session,
    key_id: &str,
    limit: u32,
    now_ms: i64,
) -> Result<Result<(), i64>, Failure> {
    let w = Window::at(now_ms);
    let params: [&(dyn postgres::types::ToSql + Sync); 5] = [
        &key_id,
        &w.start,
        &w.previous(),
        &w.previous_weight(),
        &f64::from(limit),
    ];
    if client.query_opt(ADMIT, &params)?.is_some() {
        return Ok(Ok(()));
    }
    let (previous, current) = counts(client, key_id, w)?;
    Ok(Err(w.wait_ms(previous, current, limit)))
}

/// The counts of `key_id` in the previous and current windows.
fn counts(client: &mut Session, key_id: &str, w: Window) -> Result<(i64, i64), Failure> {
    let row = client.query_one(
        "SELECT coalesce(sum(n) FILTER (WHERE window_start = $2), 0)::bigint, \
                coalesce(sum(n) FILTER (WHERE window_start = $3), 0)::bigint \
         FROM rate_windows WHERE key_id = $1 AND window_start IN ($2, $3)",
        &[&key_id, &w.previous(), &w.start],
    )?;
    Ok((row.get(0), row.get(1)))
}

/// Deletes the windows that can no longer count (older than the previous one).
pub fn prune(client: &mut Session, now_ms: i64) -> Result<u64, Failure> {
    let sql = "DELETE FROM rate_windows WHERE window_start < $1";
    Ok(client.execute(sql, &[&Window::at(now_ms).previous()])?)
}

#[cfg(test)]
mod tests {
    use super::*;

    const W: i64 = RATE_WINDOW_MS;

    #[test]
    fn windows_are_fixed_and_weighted_by_time_left() {
        let w = Window::at(10 * W + W / 4);
        assert_eq!((w.start, w.previous()), (10 * W, 9 * W));
        assert_eq!(w.previous_weight(), 0.75);
        assert_eq!(Window::at(10 * W).previous_weight(), 1.0);
        assert_eq!(Window::at(-1).start, -W);
    }

    #[test]
    fn a_full_current_window_waits_into_the_next() {
        // 3 of 3 at the start of a window: in the next one the estimate is
        // 3 × (1 − f) and admits once that is ≤ 2, a third of the way in.
        let w = Window::at(10 * W);
        assert_eq!(w.wait_ms(0, 3, 3), W + W / 3);
        let later = Window::at(10 * W + W / 2);
        assert_eq!(later.wait_ms(0, 3, 3), W / 2 + W / 3);
        // A limit of 1 waits until the window after next starts.
        assert_eq!(w.wait_ms(0, 1, 1), 2 * W);
    }

    #[test]
    fn a_full_previous_window_waits_until_enough_of_it_has_slid_out() {
        // 10 last window, 0 now, limit 10: admits once 10 × (1 − f) ≤ 9.
        let w = Window::at(10 * W);
        assert_eq!(w.wait_ms(10, 0, 10), W / 10);
        assert_eq!(Window::at(10 * W + W / 20).wait_ms(10, 0, 10), W / 20);
        // Never less than a millisecond, even when the counts moved since.
        assert_eq!(Window::at(10 * W + W / 2).wait_ms(10, 0, 10), 1);
    }
}
