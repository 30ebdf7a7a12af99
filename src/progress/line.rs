//! The plain lines written when stderr is not a terminal: no escape codes,
//! one stage per line, counts with thousands separators.
//!
//! ```text
//!   people.idx: 1,228,800/3,000,000 docs (40%), 122,880 docs/s, 10s elapsed, ETA 14s
//!   people.idx: done, 3,000,000 docs in 24.31s (123,406 docs/s)
//!   read deals.jsonl: 512.0 MB/1.4 GB (36%), 51.2 MB/s, 10s elapsed, ETA 17s
//! ```

use std::time::Duration;

use super::Unit;

/// The periodic line of a running stage.
pub fn running(name: &str, unit: Unit, done: u64, total: u64, elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64();
    let rate = per_second(done, secs);
    let left = total.saturating_sub(done);
    let eta = match (left, rate > 0.0) {
        (0, _) => "0s".to_string(),
        (_, true) => duration(left as f64 / rate),
        (_, false) => "?".to_string(),
    };
    format!(
        "  {name}: {} ({}%), {}, {} elapsed, ETA {eta}",
        of_total(unit, done, total),
        percent(done, total),
        rate_of(unit, rate),
        duration(secs)
    )
}

/// The closing line of a finished stage.
pub fn finished(name: &str, unit: Unit, done: u64, took: Duration) -> String {
    let secs = took.as_secs_f64();
    format!(
        "  {name}: done, {} in {secs:.2}s ({})",
        amount(unit, done),
        rate_of(unit, per_second(done, secs))
    )
}

fn per_second(done: u64, secs: f64) -> f64 {
    if secs > 0.0 {
        done as f64 / secs
    } else {
        0.0
    }
}

fn percent(done: u64, total: u64) -> u64 {
    match total {
        0 => 100,
        _ => (done.min(total) * 100) / total,
    }
}

/// `1,234/5,000 rows` or `1.2 MB/5.0 MB`.
fn of_total(unit: Unit, done: u64, total: u64) -> String {
    match unit {
        Unit::Items(what) => format!("{}/{} {what}", count(done), count(total)),
        Unit::Bytes => format!("{}/{}", bytes(done), bytes(total)),
    }
}

/// `1,234 rows` or `1.2 MB`.
fn amount(unit: Unit, n: u64) -> String {
    match unit {
        Unit::Items(what) => format!("{} {what}", count(n)),
        Unit::Bytes => bytes(n),
    }
}

/// `1,234 rows/s` or `1.2 MB/s`.
fn rate_of(unit: Unit, per_sec: f64) -> String {
    format!("{}/s", amount(unit, per_sec.round() as u64))
}

/// `1234567` → `1,234,567`.
pub fn count(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Decimal units, one decimal: `512 B`, `1.5 kB`, `12.3 MB`, `6.2 GB`.
pub fn bytes(n: u64) -> String {
    const UNITS: [&str; 4] = ["kB", "MB", "GB", "TB"];
    if n < 1000 {
        return format!("{n} B");
    }
    let mut value = n as f64 / 1000.0;
    let mut unit = 0;
    while value >= 1000.0 && unit + 1 < UNITS.len() {
        value /= 1000.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS[unit])
}

/// `42s`, `3m 07s`, `1h 02m`.
pub fn duration(secs: f64) -> String {
    let s = secs.max(0.0).round() as u64;
    match s {
        0..=59 => format!("{s}s"),
        60..=3599 => format!("{}m {:02}s", s / 60, s % 60),
        _ => format!("{}h {:02}m", s / 3600, (s % 3600) / 60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_running_line_has_count_total_percent_rate_elapsed_and_eta() {
        let line = running(
            "people.idx",
            Unit::Items("docs"),
            1_228_800,
            3_000_000,
            Duration::from_secs(10),
        );
        assert_eq!(
            line,
            "  people.idx: 1,228,800/3,000,000 docs (40%), 122,880 docs/s, 10s elapsed, ETA 14s"
        );
    }

    #[test]
    fn a_byte_stage_shows_decimal_sizes() {
        let line = running(
            "read deals.jsonl",
            Unit::Bytes,
            512_000_000,
            1_400_000_000,
            Duration::from_secs(10),
        );
        assert_eq!(
            line,
            "  read deals.jsonl: 512.0 MB/1.4 GB (36%), 51.2 MB/s, 10s elapsed, ETA 17s"
        );
    }

    #[test]
    fn a_stage_without_progress_has_no_eta_and_an_empty_one_is_complete() {
        let stalled = running("x", Unit::Items("rows"), 0, 10, Duration::from_secs(3));
        assert!(
            stalled.ends_with("0/10 rows (0%), 0 rows/s, 3s elapsed, ETA ?"),
            "{stalled}"
        );
        let empty = running("x", Unit::Items("rows"), 0, 0, Duration::ZERO);
        assert!(
            empty.contains("(100%)") && empty.ends_with("ETA 0s"),
            "{empty}"
        );
    }

    #[test]
    fn a_finished_line_has_count_wall_time_and_rate() {
        let line = finished(
            "people.idx",
            Unit::Items("docs"),
            3_000_000,
            Duration::from_millis(24_310),
        );
        assert_eq!(
            line,
            "  people.idx: done, 3,000,000 docs in 24.31s (123,406 docs/s)"
        );
    }

    #[test]
    fn numbers_sizes_and_durations_read_naturally() {
        assert_eq!(count(0), "0");
        assert_eq!(count(999), "999");
        assert_eq!(count(1000), "1,000");
        assert_eq!(count(12_345_678), "12,345,678");
        assert_eq!(bytes(999), "999 B");
        assert_eq!(bytes(1_500), "1.5 kB");
        assert_eq!(bytes(6_200_000_000), "6.2 GB");
        assert_eq!(duration(59.4), "59s");
        assert_eq!(duration(187.0), "3m 07s");
        assert_eq!(duration(3720.0), "1h 02m");
    }
}
