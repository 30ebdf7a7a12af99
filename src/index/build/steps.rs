//! The build's steps (read dump, derive, writers, vectors, manifest): each
//! one's wall time, kept for the build report, and a `[k/n] step: 1.23s`
//! line on the progress output when it ends, with the process's resident
//! memory then and its peak so far. The stages inside a step are
//! reported by the step itself (see [`crate::progress`]).

use std::time::{Duration, Instant};

use crate::progress::memory::resident_note;
use crate::progress::Progress;

pub struct Steps<'p> {
    progress: &'p Progress,
    total: usize,
    started: Instant,
    step_started: Instant,
    /// (step, wall time) of every finished step.
    pub timings: Vec<(String, Duration)>,
}

impl<'p> Steps<'p> {
    pub fn new(total: usize, progress: &'p Progress) -> Steps<'p> {
        let now = Instant::now();
        Steps {
            progress,
            total,
            started: now,
            step_started: now,
            timings: Vec::new(),
        }
    }

    /// A step starts now.
    pub fn start(&mut self) {
        self.step_started = Instant::now();
    }

    /// The current step, `step`, is finished.
    pub fn finish(&mut self, step: &str) {
        let took = self.step_started.elapsed();
        self.timings.push((step.to_string(), took));
        self.progress.note(&format!(
            "[{}/{}] {step}: {:.2}s{}",
            self.timings.len(),
            self.total,
            took.as_secs_f64(),
            resident_note()
        ));
    }

    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }
}
