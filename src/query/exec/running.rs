//! Running hit counts along a relation's edges. For a deal set D, entry
//! `i` is how many of the edges at positions `0..i` (every source's, in
//! source order) have their target in D, modulo 2^16. A source's count in
//! D is then the difference of the entries at its edges' bounds: every
//! candidate's count over a broad D costs one sequential pass over all
//! edges (a test each, 0.25 ns at M) and two reads per candidate, instead
//! of a loop per candidate whose length the branch predictor cannot guess
//! (about 25 ns a person at M). A difference is exact for sources with
//! fewer than [`EXACT_BELOW`] edges; the caller counts longer lists
//! another way.
//!
//! The entries live in buffers kept per thread between queries, so that a
//! query never faults in fresh pages for them. A caller may take them over
//! part of a relation's edges at a time (`every_person` takes a run of
//! 1,024 people's edges, about 37 KB of entries a list at M), so that they
//! are still in cache when read.

use std::cell::RefCell;
use std::ops::Range;

use super::dense::DealSet;
use super::scratch;

thread_local! {
    /// Entry buffers kept between the queries of one thread.
    static SCRATCH: RefCell<Vec<Vec<u16>>> = const { RefCell::new(Vec::new()) };
}

/// Sources with at least this many edges may have more hits than an
/// entry's difference can tell.
pub const EXACT_BELOW: usize = 1 << 16;

/// Running hit counts over one relation's edges (see the module doc).
pub struct RunningHits {
    at: Vec<u16>,
}

impl RunningHits {
    /// The running count of `targets` in `set`.
    pub fn of(targets: &[u32], set: &impl DealSet) -> RunningHits {
        let mut at = buffer(targets.len() + 1);
        let mut hits = 0u16;
        for (entry, &t) in at[1..].iter_mut().zip(targets) {
            hits = hits.wrapping_add(set.hit(t) as u16);
            *entry = hits;
        }
        RunningHits { at }
    }

    /// The running count of `targets` in `set` with a non-zero byte in
    /// `payload` (parallel to `targets`; none are flagged when it is not).
    pub fn led(targets: &[u32], payload: &[u8], set: &impl DealSet) -> RunningHits {
        let mut at = buffer(targets.len() + 1);
        if payload.len() != targets.len() {
            at.fill(0);
            return RunningHits { at };
        }
        let mut hits = 0u16;
        for (entry, (&t, &b)) in at[1..].iter_mut().zip(targets.iter().zip(payload)) {
            hits = hits.wrapping_add((set.hit(t) & u32::from(b != 0)) as u16);
            *entry = hits;
        }
        RunningHits { at }
    }

    /// How many edges at `positions` hit (exact when fewer than
    /// [`EXACT_BELOW`]); none for positions past the counted edges.
    #[inline]
    pub fn within(&self, positions: Range<usize>) -> u32 {
        match (self.at.get(positions.start), self.at.get(positions.end)) {
            (Some(&lo), Some(&hi)) => u32::from(hi.wrapping_sub(lo)),
            _ => 0,
        }
    }
}

impl Drop for RunningHits {
    fn drop(&mut self) {
        scratch::give(&SCRATCH, std::mem::take(&mut self.at));
    }
}

/// A buffer of `len` entries, entry 0 zero (the others are overwritten).
fn buffer(len: usize) -> Vec<u16> {
    let mut at = scratch::take(&SCRATCH);
    at.resize(len, 0);
    at[0] = 0;
    at
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::exec::dense::DenseSet;
    use proptest::prelude::*;
    use roaring::RoaringBitmap;

    proptest! {
        #[test]
        fn differences_count_the_hits_between(
            targets in proptest::collection::vec(0u32..3_000, 0..400),
            flags in proptest::collection::vec(0u8..3, 400),
            set in proptest::collection::btree_set(0u32..3_000, 0..1_500),
            cuts in proptest::collection::vec((0usize..401, 0usize..401), 1..20),
        ) {
            let set: RoaringBitmap = set.into_iter().collect();
            let dense = DenseSet::of(&set, 3_000);
            let payload = &flags[..targets.len()];
            let hits = RunningHits::of(&targets, &dense);
            let flagged = RunningHits::led(&targets, payload, &dense);
            for (a, b) in cuts {
                let (lo, hi) = (a.min(b).min(targets.len()), a.max(b).min(targets.len()));
                let within = (lo..hi).filter(|&i| set.contains(targets[i]));
                let expect = within.clone().count() as u32;
                let led = within.filter(|&i| payload[i] != 0).count() as u32;
                prop_assert_eq!(hits.within(lo..hi), expect);
                prop_assert_eq!(flagged.within(lo..hi), led);
            }
        }
    }

    #[test]
    fn counts_wrap_but_differences_below_the_limit_stay_exact() {
        let targets = vec![7u32; EXACT_BELOW + 10];
        let set: RoaringBitmap = [7u32].into_iter().collect();
        let hits = RunningHits::of(&targets, &DenseSet::of(&set, 8));
        assert_eq!(hits.within(5..EXACT_BELOW + 4), EXACT_BELOW as u32 - 1);
        assert_eq!(hits.within(0..EXACT_BELOW), 0, "a wrapped difference");
        assert_eq!(hits.within(3..(EXACT_BELOW + 11)), 0, "past the end");
    }

    #[test]
    fn a_payload_of_another_length_flags_nothing() {
        let set: RoaringBitmap = (0u32..10).collect();
        let dense = DenseSet::of(&set, 10);
        let flagged = RunningHits::led(&[1, 2, 3], &[], &dense);
        assert_eq!(flagged.within(0..3), 0);
    }
}
