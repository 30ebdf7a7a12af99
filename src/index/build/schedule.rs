//! Runs the build's writer tasks within a memory budget.
//!
//! Each task states what it will hold at its peak (an estimate from its
//! input sizes, see `tasks`). The scheduler starts a task only while the
//! estimates of the running tasks and its own fit the budget, and at most
//! one task per lane (`lanes`, the rayon pool's threads): a heavy writer
//! waits for another heavy writer to finish instead of running beside it.
//! A task larger than the whole budget still runs, alone. Tasks start in
//! the order given, skipping those that do not fit yet: the caller lists
//! the longest first, so that they do not end the step alone.
//!
//! Tasks run on their own threads (scoped), not on rayon's: a rayon worker
//! waiting inside a task's parallel iterator may steal another spawned
//! task, which would put more writers in memory at once than the lanes.
//! Their parallel iterators still run on the rayon pool.

use std::sync::{Condvar, Mutex, MutexGuard};

/// One unit of work and the bytes it holds at its peak.
pub struct Sized<T> {
    pub bytes: u64,
    pub item: T,
}

struct State<T> {
    /// Waiting tasks, in the order given.
    queue: Vec<Sized<T>>,
    /// Sum of the running tasks' estimates.
    in_use: u64,
    running: usize,
}

/// Runs `run` on every item, in order as they fit, at most `lanes` at once, and never more at
/// once than `budget` bytes of estimates unless a single item exceeds it
/// (then that item runs alone). Returns when every item has run.
pub fn run_within<T: Send>(
    items: Vec<Sized<T>>,
    budget: u64,
    lanes: usize,
    run: impl Fn(T) + Sync,
) {
    let lanes = lanes.clamp(1, items.len().max(1));
    let state = Mutex::new(State {
        queue: items,
        in_use: 0,
        running: 0,
    });
    let freed = Condvar::new();
    std::thread::scope(|scope| {
        for _ in 0..lanes {
            scope.spawn(|| lane(&state, &freed, budget, &run));
        }
    });
}

/// One lane: takes the next task that fits until none is left.
fn lane<T>(state: &Mutex<State<T>>, freed: &Condvar, budget: u64, run: &impl Fn(T)) {
    while let Some(task) = next_fitting(state, freed, budget) {
        let _running = Running {
            state,
            freed,
            bytes: task.bytes,
        };
        run(task.item);
    }
}

/// A started task's share of the budget, given back when it ends (also
/// when it panics, so the other lanes do not wait for it forever).
struct Running<'s, T> {
    state: &'s Mutex<State<T>>,
    freed: &'s Condvar,
    bytes: u64,
}

impl<T> Drop for Running<'_, T> {
    fn drop(&mut self) {
        let mut s = lock(self.state);
        s.in_use -= self.bytes;
        s.running -= 1;
        self.freed.notify_all();
    }
}

/// The first waiting task that fits beside the running ones (the first
/// when none runs), waiting for running tasks to end until one fits;
/// `None` when no task is left.
fn next_fitting<T>(state: &Mutex<State<T>>, freed: &Condvar, budget: u64) -> Option<Sized<T>> {
    let mut s = lock(state);
    loop {
        if s.queue.is_empty() {
            return None;
        }
        let room = budget.saturating_sub(s.in_use);
        let fits = match s.running {
            0 => Some(0),
            _ => s.queue.iter().position(|t| t.bytes <= room),
        };
        if let Some(i) = fits {
            let task = s.queue.remove(i);
            s.in_use += task.bytes;
            s.running += 1;
            return Some(task);
        }
        s = freed.wait(s).unwrap_or_else(|p| p.into_inner());
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::SeqCst};
    use std::time::Duration;

    /// Runs tasks of `sizes` (each sleeping a little) and returns the most
    /// bytes and the most tasks that were running at once, and the order
    /// in which they started.
    fn trace(sizes: &[u64], budget: u64, lanes: usize) -> (u64, usize, Vec<u64>) {
        let (bytes, tasks) = (AtomicU64::new(0), AtomicUsize::new(0));
        let (max_bytes, max_tasks) = (AtomicU64::new(0), AtomicUsize::new(0));
        let started = Mutex::new(Vec::new());
        let items = sizes.iter().map(|&b| Sized { bytes: b, item: b }).collect();
        run_within(items, budget, lanes, |b| {
            started.lock().unwrap().push(b);
            max_bytes.fetch_max(bytes.fetch_add(b, SeqCst) + b, SeqCst);
            max_tasks.fetch_max(tasks.fetch_add(1, SeqCst) + 1, SeqCst);
            std::thread::sleep(Duration::from_millis(15));
            bytes.fetch_sub(b, SeqCst);
            tasks.fetch_sub(1, SeqCst);
        });
        let started = started.into_inner().unwrap();
        (max_bytes.into_inner(), max_tasks.into_inner(), started)
    }

    #[test]
    fn every_task_runs_once() {
        let sizes = [5, 1, 9, 3, 3, 7, 2];
        let (_, _, mut started) = trace(&sizes, 10, 3);
        started.sort();
        let mut want = sizes.to_vec();
        want.sort();
        assert_eq!(started, want);
    }

    #[test]
    fn running_tasks_stay_within_the_budget() {
        let (max_bytes, max_tasks, _) = trace(&[6, 5, 4, 3, 2, 1, 1], 8, 4);
        assert!(max_bytes <= 8, "{max_bytes} bytes at once");
        assert!(max_tasks >= 2, "small tasks share the budget");
    }

    #[test]
    fn a_task_larger_than_the_budget_runs_alone() {
        let (max_bytes, max_tasks, started) = trace(&[50, 2, 2], 10, 3);
        assert_eq!(started[0], 50, "in the order given");
        assert!(max_bytes <= 50, "nothing ran beside the large task");
        assert!(max_tasks <= 2);
    }

    #[test]
    fn one_lane_runs_the_tasks_in_the_order_given() {
        let (_, _, started) = trace(&[3, 9, 1, 4], u64::MAX, 1);
        assert_eq!(started, vec![3, 9, 1, 4]);
    }

    #[test]
    fn lanes_bound_the_tasks_at_once() {
        let (_, max_tasks, _) = trace(&[1; 12], u64::MAX, 3);
        assert_eq!(max_tasks, 3);
        let (_, one, _) = trace(&[1; 5], u64::MAX, 1);
        assert_eq!(one, 1);
    }

    #[test]
    fn no_tasks_return_at_once() {
        run_within(Vec::<Sized<()>>::new(), 0, 2, |_| panic!("nothing to run"));
    }
}
