//! The reporter's contract without a terminal and without waiting: counts
//! add up across threads, a finished stage prints its total, a due stage
//! prints its running line, and nothing carries an escape code.

use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::*;

/// A sink the test can read back.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Captured {
    fn text(&self) -> String {
        String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
    }
}

const HOUR: Duration = Duration::from_secs(3600);

fn lines_every_hour() -> (Progress, Captured) {
    let captured = Captured::default();
    (Progress::lines(Box::new(captured.clone()), HOUR), captured)
}

#[test]
fn counts_from_many_threads_add_up_and_the_finished_line_reports_them() {
    let (progress, out) = lines_every_hour();
    let counter = progress.stage("people.idx", 8 * 3_000, Unit::Items("docs"));
    std::thread::scope(|s| {
        for _ in 0..8 {
            s.spawn(|| {
                let mut tally = counter.tally();
                (0..2_999).for_each(|_| tally.inc());
                counter.inc(1);
            });
        }
    });
    assert_eq!(counter.count(), 24_000);
    counter.finish();
    let text = out.text();
    assert!(
        text.starts_with("  people.idx: done, 24,000 docs in "),
        "{text}"
    );
    assert_eq!(text.lines().count(), 1, "{text}");
}

#[test]
fn a_running_stage_gets_a_line_once_it_is_due() {
    let (progress, out) = lines_every_hour();
    let counter = progress.stage("read deals.jsonl", 2_000_000, Unit::Bytes);
    counter.inc(500_000);
    progress.report(Instant::now());
    assert_eq!(out.text(), "", "not due yet");
    progress.report(Instant::now() + HOUR);
    let text = out.text();
    assert!(
        text.starts_with("  read deals.jsonl: 500.0 kB/2.0 MB (25%), "),
        "{text}"
    );
    progress.report(Instant::now() + HOUR);
    assert_eq!(out.text().lines().count(), 1, "one line per period");
    drop(counter);
}

#[test]
fn an_abandoned_stage_and_a_note_print_plain_text_only() {
    let (progress, out) = lines_every_hour();
    let counter = progress.stage("text/people", 10, Unit::Items("names"));
    counter.inc(3);
    drop(counter);
    progress.report(Instant::now() + 2 * HOUR);
    progress.note("[1/4] read dump: 0.01s");
    let text = out.text();
    assert_eq!(text, "[1/4] read dump: 0.01s\n");
    assert!(!text.contains('\x1b'));
}

#[test]
fn a_silent_reporters_counters_still_count() {
    let progress = Progress::silent();
    let counter = progress.stage("anything", 5, Unit::Items("rows"));
    counter.inc(2);
    counter.tally().inc();
    assert_eq!(counter.count(), 3);
    progress.note("never shown");
    counter.finish();
}
