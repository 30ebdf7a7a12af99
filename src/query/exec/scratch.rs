//! Buffers kept per thread between queries. A pass over every person (or
//! every investor) needs a buffer of about a megabyte at M; allocated per
//! query, it is fresh pages, each faulted in on first write, and given
//! back to the system when freed. A [`Pool`] keeps up to [`KEPT`] buffers
//! of one element type per thread instead: a query takes one, and gives
//! it back when done (its capacity stays, its contents do not matter).
//!
//! A query that takes more buffers than a pool keeps simply allocates the
//! others; a nested take (a pass that runs another) is never an error.

use std::cell::RefCell;
use std::thread::LocalKey;

/// A thread's kept buffers of `T` (declared with `thread_local!`).
pub type Pool<T> = LocalKey<RefCell<Vec<Vec<T>>>>;

/// How many buffers a pool keeps per thread.
pub const KEPT: usize = 2;

thread_local! {
    /// Counters: one `u32` per person or investor.
    pub static COUNTERS: RefCell<Vec<Vec<u32>>> = const { RefCell::new(Vec::new()) };
    /// (person, count) pairs written past the ones kept.
    pub static PAIRS: RefCell<Vec<Vec<(u32, u32)>>> = const { RefCell::new(Vec::new()) };
}

/// One of the thread's kept buffers as it was given back (empty when
/// none is left): the caller clears or overwrites what it reads.
pub fn take<T: 'static>(pool: &'static Pool<T>) -> Vec<T> {
    pool.with(|p| p.borrow_mut().pop()).unwrap_or_default()
}

/// Gives `buffer` back to the thread's pool (dropped when it is full).
pub fn give<T: 'static>(pool: &'static Pool<T>, buffer: Vec<T>) {
    pool.with(|p| {
        let mut kept = p.borrow_mut();
        if kept.len() < KEPT {
            kept.push(buffer);
        }
    });
}

/// Runs `f` over `len` copies of `fill` in a kept buffer of `pool`.
pub fn with_filled<T: Copy + 'static, R>(
    pool: &'static Pool<T>,
    (len, fill): (usize, T),
    f: impl FnOnce(&mut Vec<T>) -> R,
) -> R {
    let mut buffer = take(pool);
    buffer.clear();
    buffer.resize(len, fill);
    let out = f(&mut buffer);
    give(pool, buffer);
    out
}

/// The (person, count) pairs `write` keeps, in the order written. `write`
/// gets `len + 1` slots (the last one written past the end is never
/// kept) and returns how many it kept; the kept ones are copied out, so
/// that the caller holds only those.
pub fn kept_pairs(len: usize, write: impl FnOnce(&mut [(u32, u32)]) -> usize) -> Vec<(u32, u32)> {
    with_filled(&PAIRS, (len + 1, (0, 0)), |slots| {
        let end = write(slots);
        slots[..end].to_vec()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_taken_buffer_is_filled_whatever_was_given_back() {
        give(&COUNTERS, vec![7; 10]);
        let sum = with_filled(&COUNTERS, (4, 0), |c| {
            c[1] = 3;
            c.iter().sum::<u32>()
        });
        assert_eq!(sum, 3);
        assert_eq!(with_filled(&COUNTERS, (12, 1), |c| c.clone()), vec![1; 12]);
    }

    #[test]
    fn a_pool_keeps_at_most_its_share_and_nesting_allocates() {
        for _ in 0..KEPT + 3 {
            give(&PAIRS, Vec::with_capacity(8));
        }
        assert_eq!(PAIRS.with(|p| p.borrow().len()), KEPT);
        let nested = with_filled(&COUNTERS, (2, 5), |outer| {
            with_filled(&COUNTERS, (3, 6), |inner| inner.len()) + outer.len()
        });
        assert_eq!(nested, 5);
    }

    #[test]
    fn kept_pairs_copies_out_the_ones_kept_only() {
        let kept = kept_pairs(3, |slots| {
            assert_eq!(slots.len(), 4);
            let mut end = 0;
            for p in 0..3u32 {
                slots[end] = (p, p * 2);
                end += usize::from(p != 1);
            }
            end
        });
        assert_eq!(kept, vec![(0, 0), (2, 4)]);
    }
}
