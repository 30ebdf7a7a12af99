//! The one background thread of a [`super::Progress`]: it wakes every tick
//! to draw the bars or print the due lines, and ends when told to stop.

use std::sync::mpsc::{channel, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::Shared;

pub(super) struct Ticker {
    stop: Sender<()>,
    thread: JoinHandle<()>,
}

impl Ticker {
    pub(super) fn spawn(shared: Arc<Shared>, tick: Duration) -> Ticker {
        let (stop, stopped) = channel::<()>();
        let thread = std::thread::spawn(move || {
            while let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(tick) {
                shared.report(Instant::now());
            }
        });
        Ticker { stop, thread }
    }

    /// Stops the thread and waits for it.
    pub(super) fn stop(self) {
        drop(self.stop);
        let _ = self.thread.join();
    }
}
