//! A structure derived in memory once, by the first caller or in the
//! background, then kept for the life of the index (value runs, derived
//! value counts, size buckets). A failed (or panicking) derivation is
//! logged and leaves the structure absent: the queries that would read it
//! count another way.
//!
//! Background derivations run one at a time, in the order asked, on one
//! thread ([`in_background`]): those started together when a server
//! starts take one core, not every core, while the server answers on the
//! other, and their working buffers are held one at a time.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, SendError, Sender};
use std::sync::{Arc, Mutex, OnceLock};

use super::IndexError;

pub struct Derived<T> {
    /// What was derived (`Some(None)`: the derivation failed).
    value: OnceLock<Option<Arc<T>>>,
    started: AtomicBool,
    /// What is derived, for the log and errors.
    what: &'static str,
}

impl<T> Derived<T> {
    pub fn new(what: &'static str) -> Derived<T> {
        Derived {
            value: OnceLock::new(),
            started: AtomicBool::new(false),
            what,
        }
    }

    /// The structure, once derived (`Some(None)`: its derivation failed).
    pub fn ready(&self) -> Option<Option<Arc<T>>> {
        self.value.get().cloned()
    }

    /// Whether the caller is the one to derive it (the first to ask).
    pub fn start(&self) -> bool {
        !self.started.swap(true, Ordering::AcqRel)
    }

    /// Blocks until it is derived, when its derivation has started.
    pub fn wait_if_started(&self) {
        if self.started.load(Ordering::Acquire) {
            self.value.wait();
        }
    }

    /// The structure, derived by `derive` unless it already is (or is
    /// being: then this waits for it, and `derive` is not called).
    pub fn get_or_derive(
        &self,
        derive: impl FnOnce() -> Result<T, IndexError>,
    ) -> Result<Arc<T>, IndexError> {
        let value = self.value.get_or_init(|| {
            let derived = catch_unwind(AssertUnwindSafe(derive));
            self.kept(derived.unwrap_or_else(|_| Err(IndexError::corrupt(self.what, "panicked"))))
        });
        value
            .clone()
            .ok_or_else(|| IndexError::corrupt(self.what, "its derivation failed"))
    }

    fn kept(&self, derived: Result<T, IndexError>) -> Option<Arc<T>> {
        match derived {
            Ok(value) => Some(Arc::new(value)),
            Err(e) => {
                tracing::error!(error = %e, what = self.what, "not derived");
                None
            }
        }
    }
}

/// A derivation to run in the background.
pub type Job = Box<dyn FnOnce() + Send>;

/// The background thread's queue, once started.
static QUEUE: Mutex<Option<Sender<Job>>> = Mutex::new(None);

/// Queues `job` on the one background derivation thread, starting the
/// thread on first use (or again, should it have gone).
pub fn in_background(job: Job) -> std::io::Result<()> {
    let mut queue = QUEUE.lock().unwrap_or_else(|p| p.into_inner());
    let job = match queue.as_ref() {
        Some(q) => match q.send(job) {
            Ok(()) => return Ok(()),
            Err(SendError(job)) => job,
        },
        None => job,
    };
    let (sender, jobs) = channel::<Job>();
    std::thread::Builder::new()
        .name("derive".into())
        .spawn(move || jobs.into_iter().for_each(|job| job()))?;
    // The thread holds the receiving end: this send cannot fail.
    let _ = sender.send(job);
    *queue = Some(sender);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panicking_derivation_leaves_the_structure_absent() {
        let slot: Derived<u32> = Derived::new("test structure");
        assert!(slot.start());
        assert!(slot.get_or_derive(|| panic!("broken")).is_err());
        assert_eq!(slot.ready(), Some(None));
        slot.wait_if_started();
    }

    #[test]
    fn background_jobs_run_in_the_order_queued() {
        let (done, order) = channel();
        for i in 0..5 {
            let done = done.clone();
            in_background(Box::new(move || done.send(i).unwrap())).unwrap();
        }
        let ran: Vec<i32> = order.iter().take(5).collect();
        assert_eq!(ran, vec![0, 1, 2, 3, 4]);
    }
}
