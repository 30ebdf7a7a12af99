//! A structure derived in memory once, by the first caller or on a thread
//! of its own, then kept for the life of the index (value runs, derived
//! value counts). A failed derivation is logged and leaves the structure
//! absent: the queries that would read it count another way.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

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
        let value = self.value.get_or_init(|| self.kept(derive()));
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
