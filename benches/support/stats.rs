//! Latency summaries: nearest-rank percentiles over one run of a class, and
//! the median of several runs (the machine is shared and noisy, so every
//! figure reported is a median of rounds).

use std::time::Duration;

/// Percentiles of one run, in microseconds.
#[derive(Clone, Copy, Debug)]
pub struct Summary {
    pub n: usize,
    pub p50: f64,
    pub p90: f64,
    pub p99: f64,
    pub max: f64,
    pub mean: f64,
}

impl Summary {
    /// Summarises `samples` (sorted in place). `None` when empty.
    pub fn of(samples: &mut [Duration]) -> Option<Summary> {
        if samples.is_empty() {
            return None;
        }
        samples.sort_unstable();
        let us = |d: Duration| d.as_secs_f64() * 1e6;
        let rank = |p: f64| {
            let r = ((p * samples.len() as f64).ceil() as usize).clamp(1, samples.len());
            us(samples[r - 1])
        };
        let total: f64 = samples.iter().map(|&d| us(d)).sum();
        Some(Summary {
            n: samples.len(),
            p50: rank(0.50),
            p90: rank(0.90),
            p99: rank(0.99),
            max: us(samples[samples.len() - 1]),
            mean: total / samples.len() as f64,
        })
    }

    /// Field-wise median of several runs of the same class.
    pub fn median(runs: &[Summary]) -> Option<Summary> {
        let first = runs.first()?;
        let med = |f: fn(&Summary) -> f64| {
            let mut v: Vec<f64> = runs.iter().map(f).collect();
            v.sort_unstable_by(f64::total_cmp);
            v[v.len() / 2]
        };
        Some(Summary {
            n: first.n,
            p50: med(|s| s.p50),
            p90: med(|s| s.p90),
            p99: med(|s| s.p99),
            max: med(|s| s.max),
            mean: med(|s| s.mean),
        })
    }
}

/// Microseconds as a short human figure (`87 µs`, `1.23 ms`).
pub fn fmt_us(us: f64) -> String {
    if us < 1000.0 {
        format!("{us:.0} µs")
    } else {
        format!("{:.2} ms", us / 1000.0)
    }
}
