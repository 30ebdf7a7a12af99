//! Progress of a long build: a redrawn bar on a terminal, plain lines
//! otherwise (logs, CI).

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

pub struct Progress {
    total: usize,
    done: usize,
    started: Instant,
    step_started: Instant,
    terminal: bool,
    quiet: bool,
    /// (step, wall time) of every finished step.
    pub timings: Vec<(String, Duration)>,
}

impl Progress {
    pub fn new(total: usize, quiet: bool) -> Progress {
        let now = Instant::now();
        Progress {
            total,
            done: 0,
            started: now,
            step_started: now,
            terminal: std::io::stderr().is_terminal(),
            quiet,
            timings: Vec::new(),
        }
    }

    /// Announces the step that starts now.
    pub fn start(&mut self, step: &str) {
        self.step_started = Instant::now();
        if self.quiet {
            return;
        }
        if self.terminal {
            let width = 30;
            let filled = width * self.done / self.total.max(1);
            eprint!(
                "\r\x1b[2K[{}{}] {}/{} {step} ({:.1}s)",
                "#".repeat(filled),
                "-".repeat(width - filled),
                self.done,
                self.total,
                self.started.elapsed().as_secs_f64()
            );
            let _ = std::io::stderr().flush();
        }
    }

    /// Marks the current step finished.
    pub fn finish(&mut self, step: &str) {
        let took = self.step_started.elapsed();
        self.done += 1;
        self.timings.push((step.to_string(), took));
        if !self.quiet && !self.terminal {
            eprintln!(
                "[{}/{}] {step}: {:.2}s",
                self.done,
                self.total,
                took.as_secs_f64()
            );
        }
    }

    /// Ends the bar.
    pub fn close(&mut self) {
        if !self.quiet && self.terminal {
            eprintln!(
                "\r\x1b[2K[{}] done in {:.1}s",
                "#".repeat(30),
                self.started.elapsed().as_secs_f64()
            );
        }
    }

    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }
}
