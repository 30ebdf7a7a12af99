//! The count of one stage: what hot loops touch. [`Counter::inc`] is one
//! relaxed atomic add; a [`Tally`] batches even those. A stage ends at the
//! first [`Counter::finish`]; a counter dropped before it ends silently.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use indicatif::ProgressBar;

use super::{line, Shared, Unit};

/// Items a [`Tally`] counts before publishing them to its counter.
pub const TALLY_BATCH: u64 = 1024;

/// One running stage as the reporter sees it.
pub(super) struct Stage {
    name: String,
    unit: Unit,
    total: u64,
    done: AtomicU64,
    started: Instant,
    /// When this stage last had a plain line (or started).
    last_line: Mutex<Instant>,
    pub(super) bar: Option<ProgressBar>,
}

impl Stage {
    pub(super) fn new(name: String, total: u64, unit: Unit, bar: Option<ProgressBar>) -> Stage {
        let now = Instant::now();
        Stage {
            name,
            unit,
            total,
            done: AtomicU64::new(0),
            started: now,
            last_line: Mutex::new(now),
            bar,
        }
    }

    fn count(&self) -> u64 {
        self.done.load(Ordering::Relaxed)
    }

    /// Copies the count into the bar (which redraws at its own pace).
    pub(super) fn draw(&self) {
        if let Some(bar) = &self.bar {
            bar.set_position(self.count());
        }
    }

    /// The stage's running line, when its last one is `every` old at `now`.
    pub(super) fn line_due(&self, now: Instant, every: Duration) -> Option<String> {
        let mut last = self.last_line.lock().unwrap_or_else(|p| p.into_inner());
        if now.saturating_duration_since(*last) < every {
            return None;
        }
        *last = now;
        let elapsed = now.saturating_duration_since(self.started);
        Some(line::running(
            &self.name,
            self.unit,
            self.count(),
            self.total,
            elapsed,
        ))
    }

    pub(super) fn finished_line(&self) -> String {
        line::finished(&self.name, self.unit, self.count(), self.started.elapsed())
    }
}

/// The handle of one stage; shared by reference between threads.
pub struct Counter {
    stage: Arc<Stage>,
    shared: Option<Arc<Shared>>,
    closed: AtomicBool,
}

impl Counter {
    pub(super) fn new(stage: Arc<Stage>, shared: Option<Arc<Shared>>) -> Counter {
        Counter {
            stage,
            shared,
            closed: AtomicBool::new(false),
        }
    }

    /// A counter that reports nowhere (but still counts: [`Counter::count`]).
    pub fn hidden() -> Counter {
        let stage = Stage::new(String::new(), 0, Unit::Items(""), None);
        Counter::new(Arc::new(stage), None)
    }

    /// Adds `n` done units.
    pub fn inc(&self, n: u64) {
        self.stage.done.fetch_add(n, Ordering::Relaxed);
    }

    /// Units done so far.
    pub fn count(&self) -> u64 {
        self.stage.count()
    }

    /// A local count for one thread's loop, published in batches.
    pub fn tally(&self) -> Tally<'_> {
        Tally {
            counter: self,
            pending: 0,
        }
    }

    /// Ends the stage: its closing line says how many units, how long, how
    /// fast. Only the first call counts.
    pub fn finish(&self) {
        self.close(true);
    }

    fn close(&self, done: bool) {
        if self.closed.swap(true, Ordering::Relaxed) {
            return;
        }
        self.stage.draw();
        if let Some(shared) = &self.shared {
            shared.close(&self.stage, done);
        }
    }
}

impl Drop for Counter {
    fn drop(&mut self) {
        self.close(false);
    }
}

/// Counts one at a time without touching the shared counter but every
/// [`TALLY_BATCH`] items, and once more when dropped.
pub struct Tally<'c> {
    counter: &'c Counter,
    pending: u64,
}

impl Tally<'_> {
    /// One more item done.
    pub fn inc(&mut self) {
        self.pending += 1;
        if self.pending >= TALLY_BATCH {
            self.flush();
        }
    }

    fn flush(&mut self) {
        self.counter.inc(self.pending);
        self.pending = 0;
    }
}

impl Drop for Tally<'_> {
    fn drop(&mut self) {
        self.flush();
    }
}
