//! Progress of the indexer's long commands (`import`, `generate`, `build`
//! and the embedding of company texts), reported on stderr.
//!
//! # Contract
//!
//! The library layers (`ingest`, `index`) never print and never look at
//! the terminal: a long operation takes a [`Progress`] from its caller and
//! opens one [`Counter`] per stage with [`Progress::stage`] (a name, the
//! known total, its [`Unit`]). Hot loops call [`Counter::inc`], a relaxed
//! atomic add, or count through a [`Tally`], which adds locally and
//! publishes every [`TALLY_BATCH`] items: no lock, no syscall, no clock read
//! per row. [`Counter::finish`] ends a stage; a counter dropped unfinished
//! (an error path) disappears silently.
//!
//! Only this module draws. One background thread per [`Progress`] reads the
//! counters:
//! - on a terminal ([`Progress::to_stderr`]), one `indicatif` bar per
//!   running stage (count/total, rate, ETA, elapsed) in a `MultiProgress`,
//!   redrawn ten times a second; a finished stage leaves its "done" line
//!   above the bars;
//! - otherwise (logs, CI), plain lines without escape codes: one per running
//!   stage every [`LINE_EVERY`] ([`line::running`]) and one when a stage
//!   finishes with its count, wall time and rate ([`line::finished`]);
//! - with `--quiet` ([`Progress::silent`]), nothing: no thread, and counters
//!   that count nowhere.
//!
//! A file read as a stream is counted in bytes against its size through a
//! [`CountingRead`].
//!
//! [`Progress::note`] prints a one-off line the same way (the build's step
//! timings). Dropping the [`Progress`] stops its thread.

mod bars;
mod counter;
pub mod line;
pub mod memory;
mod read;
mod ticker;

#[cfg(test)]
mod tests;

use std::io::{IsTerminal, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use indicatif::MultiProgress;

use counter::Stage;
pub use counter::{Counter, Tally, TALLY_BATCH};
pub use read::CountingRead;
use ticker::Ticker;

/// How often a running stage gets a plain line when stderr is not a terminal.
pub const LINE_EVERY: Duration = Duration::from_secs(10);

/// How often the bars are redrawn on a terminal.
const BAR_EVERY: Duration = Duration::from_millis(100);

/// What a stage counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Bytes (of a file being read), shown as kB, MB, GB.
    Bytes,
    /// Things, named in the plural ("rows", "docs", "texts").
    Items(&'static str),
}

/// The reporter handed to long operations; see the module docs.
pub struct Progress {
    shared: Option<Arc<Shared>>,
    ticker: Option<Ticker>,
}

/// What the counters and the ticker thread share.
struct Shared {
    output: Output,
    running: Mutex<Vec<Arc<Stage>>>,
}

enum Output {
    Bars(MultiProgress),
    Lines {
        sink: Mutex<Box<dyn Write + Send>>,
        every: Duration,
    },
}

impl Progress {
    /// Reports nothing.
    pub fn silent() -> Progress {
        Progress {
            shared: None,
            ticker: None,
        }
    }

    /// Bars when stderr is a terminal, plain lines otherwise, nothing when `quiet`.
    pub fn to_stderr(quiet: bool) -> Progress {
        match (quiet, std::io::stderr().is_terminal()) {
            (true, _) => Progress::silent(),
            (false, true) => Progress::start(Output::Bars(MultiProgress::new()), BAR_EVERY),
            (false, false) => Progress::lines(Box::new(std::io::stderr()), LINE_EVERY),
        }
    }

    /// Plain lines into `sink`, one per running stage every `every`.
    pub fn lines(sink: Box<dyn Write + Send>, every: Duration) -> Progress {
        let output = Output::Lines {
            sink: Mutex::new(sink),
            every,
        };
        Progress::start(output, Duration::from_secs(1).min(every))
    }

    fn start(output: Output, tick: Duration) -> Progress {
        let shared = Arc::new(Shared {
            output,
            running: Mutex::new(Vec::new()),
        });
        let ticker = Ticker::spawn(Arc::clone(&shared), tick);
        Progress {
            shared: Some(shared),
            ticker: Some(ticker),
        }
    }

    /// Opens a stage of `total` units; it is shown until finished or dropped.
    pub fn stage(&self, name: impl Into<String>, total: u64, unit: Unit) -> Counter {
        match &self.shared {
            None => Counter::hidden(),
            Some(shared) => shared.open(name.into(), total, unit),
        }
    }

    /// Prints one line (above the bars on a terminal).
    pub fn note(&self, text: &str) {
        if let Some(shared) = &self.shared {
            shared.print(text);
        }
    }

    /// Draws or prints every running stage now, as the ticker does.
    pub fn report(&self, now: Instant) {
        if let Some(shared) = &self.shared {
            shared.report(now);
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Some(ticker) = self.ticker.take() {
            ticker.stop();
        }
    }
}

impl Shared {
    fn open(self: &Arc<Self>, name: String, total: u64, unit: Unit) -> Counter {
        let bar = match &self.output {
            Output::Bars(multi) => Some(multi.add(bars::bar(&name, total, unit))),
            Output::Lines { .. } => None,
        };
        let stage = Arc::new(Stage::new(name, total, unit, bar));
        self.lock_running().push(Arc::clone(&stage));
        Counter::new(stage, Some(Arc::clone(self)))
    }

    fn lock_running(&self) -> std::sync::MutexGuard<'_, Vec<Arc<Stage>>> {
        self.running.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Takes `stage` off the running list; `done` prints its closing line.
    fn close(&self, stage: &Arc<Stage>, done: bool) {
        self.lock_running().retain(|s| !Arc::ptr_eq(s, stage));
        if let Some(bar) = &stage.bar {
            bar.finish_and_clear();
        }
        if done {
            self.print(&stage.finished_line());
        }
    }

    fn print(&self, text: &str) {
        match &self.output {
            Output::Bars(multi) => {
                let _ = multi.println(text);
            }
            Output::Lines { sink, .. } => {
                let mut sink = sink.lock().unwrap_or_else(|p| p.into_inner());
                let _ = writeln!(sink, "{text}");
                let _ = sink.flush();
            }
        }
    }

    /// Bars: copies every counter into its bar. Lines: prints the stages
    /// whose last line is at least `every` old.
    fn report(&self, now: Instant) {
        let running = self.lock_running().clone();
        for stage in running {
            match &self.output {
                Output::Bars(_) => stage.draw(),
                Output::Lines { every, .. } => {
                    if let Some(line) = stage.line_due(now, *every) {
                        self.print(&line);
                    }
                }
            }
        }
    }
}
