//! `/people` by `investor.deals` with `only_lead_deals` over a broad set
//! of deals D: every candidate's count of led deals at once, from their
//! led deals alone.
//!
//! When institutional participations count, a person's led deals in D are
//! exactly their `partner_deals` in D flagged as led (a deal they also
//! hold as angel is led only through its partner edge: see
//! `every_person`). Those flagged edges, by person, are derived once
//! ([`FlaggedEdges`]: at M 1.8 of the 2.9 million partner edges, of
//! 134,000 of the 243,000 investors), so the count reads and tests only
//! them, in runs of people whose running hit counts ([`RunningHits`])
//! are still in cache when read.

use roaring::RoaringBitmap;

use crate::index::flagged_edges::FlaggedEdges;
use crate::index::{Index, IndexError};

use super::dense::{DealSet, DenseSet};
use super::running::{RunningHits, EXACT_BELOW};

/// The relation whose flagged edges are a person's led deals.
pub const LED_LIST: &str = "partner_deals";

/// Each of `candidates`' count of led deals in `set`, for those with
/// any: (person, count), ascending.
pub fn count_led(
    index: &Index,
    set: &impl DealSet,
    candidates: &RoaringBitmap,
    run_people: usize,
) -> Result<Vec<(u32, u32)>, IndexError> {
    let led = index.people.flagged_edges(LED_LIST)?;
    let sources = led.source_set();
    if candidates.intersection_len(sources) == sources.len() {
        return Ok(each_led(&led, set, |_| true, run_people));
    }
    let only = DenseSet::of(&(candidates & sources), index.people.docs as u32);
    Ok(each_led(&led, set, |p| only.contains(p), run_people))
}

/// (person, count) of each source of `led` that is a `candidate` and has
/// a flagged edge in `set`, `run_people` at a time (at least 1).
fn each_led(
    led: &FlaggedEdges,
    set: &impl DealSet,
    candidate: impl Fn(u32) -> bool,
    run_people: usize,
) -> Vec<(u32, u32)> {
    let (sources, targets) = (led.sources(), led.all_targets());
    // Written without a branch on the count, as in `every_person`.
    let mut out = vec![(0, 0); sources.len() + 1];
    let mut end = 0;
    for start in (0..sources.len()).step_by(run_people.max(1)) {
        let stop = (start + run_people.max(1)).min(sources.len());
        let base = led.positions(start).start;
        let edges = base..led.positions(stop - 1).end;
        let hits = RunningHits::of(&targets[edges], set);
        for (i, &p) in sources.iter().enumerate().take(stop).skip(start) {
            let at = led.positions(i);
            let n = match at.len() < EXACT_BELOW {
                true => hits.within(at.start - base..at.end - base),
                false => set.count_in(&targets[at]),
            };
            out[end] = (p, n);
            end += usize::from((n > 0) & candidate(p));
        }
    }
    out.truncate(end);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::relation::TestArrays;
    use proptest::prelude::*;

    proptest! {
        /// Each person's count is their flagged edges in the set, for a few
        /// people or all of them at a time, every person a candidate or some.
        #[test]
        fn led_counts_are_the_flagged_edges_in_the_set(
            lists in proptest::collection::vec(
                proptest::collection::btree_map(0u32..200, 0u8..3, 0..12), 0..40),
            set in proptest::collection::btree_set(0u32..200, 0..150),
            run_people in 1usize..8,
            every_other in any::<bool>(),
        ) {
            let arrays = TestArrays::of(lists.iter().map(|l| l.iter().map(|(&t, &b)| (t, b))));
            let edges = arrays.edges();
            let led = FlaggedEdges::derive(&edges, lists.len());
            let set: RoaringBitmap = set.into_iter().collect();
            let dense = DenseSet::of(&set, 200);
            let candidate = |p: u32| !every_other || p.is_multiple_of(2);
            let want: Vec<(u32, u32)> = lists.iter().enumerate().map(|(p, list)| {
                let n = list.iter().filter(|(d, &b)| b != 0 && set.contains(**d)).count();
                (p as u32, n as u32)
            }).filter(|&(p, n)| n > 0 && candidate(p)).collect();
            prop_assert_eq!(each_led(&led, &dense, candidate, run_people), want);
        }
    }
}
