//! `/people` by `investor.deals` when the request keeps some rounds (with
//! a size or date range, portfolio keys...) and does not ask for
//! `only_lead_deals`: every candidate's count read from the kept rounds'
//! lists of each person's counted deals (`index::value_lists`: angel,
//! partner or both, as the investment type says), each of those deals
//! tested against D once, instead of a pass over every person's deals of
//! every round (`every_person`).
//!
//! D lies within the deals of the kept rounds (the round clause keeps no
//! other deal), and a deal has one round, so a person's count is the sum
//! of their counts in each kept round's list. A deal in both of a
//! person's lists is in their round list once: it counts once, as
//! [`DealRules::count`] counts it.
//!
//! The lists of both (every investment type) are derived when a server
//! opens an index (see [`start_deriving`]), those of one list the first
//! time a request needs them; requests before they are ready count
//! another way.

use std::sync::Arc;

use roaring::RoaringBitmap;

use crate::index::value_counts::ROUND;
use crate::index::value_lists::{EntryRun, Listed, ValueLists};
use crate::index::{Index, IndexError};

use super::dense::DealSet;
use super::every_person::{Ascending, LISTS};
use super::person_deals::DealRules;
use super::scratch;
use super::supersets::Superset;

/// Measured at M on this machine (2026-12-04, probe, best of 15): the
/// kept rounds' running counts took 1.0–2.6 ms for 0.9–2.4 million edges
/// and 0.27–0.46 million entries (about 1 ns an edge, entries included),
/// the pass over the 243,000 joint sources 0.14–0.28 ms. In the bench's
/// C4 mix the choices came out best with these costs (about 1.3 times
/// the probe's per part, the lists no longer in cache): an edge 1 ns...
const EDGE_PS: u64 = 1_000;

/// ... an entry (a person's list in one round) 2.6 ns...
const ENTRY_PS: u64 = 2_600;

/// ... and each joint source's count, read once at the end, 1.3 ns.
const PERSON_PS: u64 = 1_300;

/// Which lists each set of rules counts, and their names: every
/// participation (both lists, each deal once), angel deals only,
/// institutional deals only. `only_lead_deals` is counted another way.
const LISTED: [(bool, bool, Listed, &str); 3] = [
    (true, true, Listed::Both, "round lists"),
    (true, false, Listed::First, "round lists of angel deals"),
    (false, true, Listed::Second, "round lists of partner deals"),
];

/// Starts deriving the people's deals by round (both lists; those of
/// one list are derived the first time a request needs them).
pub fn start_deriving(index: &Index) -> Result<(), IndexError> {
    lists_if_ready(index, LISTED[0]).map(drop)
}

/// The people's deals by round of `listed`, when derived (else started).
fn lists_if_ready(
    index: &Index,
    (_, _, listed, name): (bool, bool, Listed, &'static str),
) -> Result<Option<Arc<ValueLists>>, IndexError> {
    let people = &index.people;
    let relations = (people.relation(LISTS.0)?, people.relation(LISTS.1)?);
    let joint = people.joint_sources(LISTS.0, LISTS.1)?;
    let named = (name, ROUND.facet);
    index
        .deals
        .value_lists_if_ready(named, (relations, listed), joint)
}

/// Entries counted at a time: their running counts (about 20 KB) are
/// still in cache when the entries' differences read them.
const RUN_ENTRIES: usize = 1024;

/// Adds each entry's hits in `set` to its source's count, from running
/// counts along the run's targets (a pass without a branch, then two
/// reads an entry: see `running`).
fn count_run(run: &EntryRun, set: &impl DealSet, running: &mut Vec<u32>, counts: &mut [u32]) {
    running.clear();
    running.push(0);
    let mut hits = 0u32;
    running.extend(run.targets.iter().map(|&t| {
        hits += set.hit(t);
        hits
    }));
    let base = run.starts[0] as usize;
    let bounds = run.starts.windows(2);
    for (&j, w) in run.sources.iter().zip(bounds) {
        let (lo, hi) = (w[0] as usize - base, w[1] as usize - base);
        counts[j as usize] += running[hi] - running[lo];
    }
}

/// A request's kept rounds, and their lists.
pub struct ByRound {
    lists: Arc<ValueLists>,
    rounds: Vec<String>,
}

impl ByRound {
    /// The kept rounds of `supersets` (the request's), when every
    /// participation counts under `rules` and the lists are ready.
    pub fn of(
        index: &Index,
        rules: &DealRules,
        supersets: &[Superset],
    ) -> Result<Option<ByRound>, IndexError> {
        let listed = LISTED
            .into_iter()
            .find(|l| (l.0, l.1) == (rules.angel, rules.institutional));
        let kept = supersets.iter().find(|s| s.facet == ROUND);
        let (Some(listed), Some(kept), false) = (listed, kept, rules.only_lead) else {
            return Ok(None);
        };
        let rounds = kept.values.clone();
        Ok(lists_if_ready(index, listed)?.map(|lists| ByRound { lists, rounds }))
    }

    /// Estimated cost of [`ByRound::count`].
    pub fn ns(&self, index: &Index) -> Result<u64, IndexError> {
        let joint = index.people.joint_sources(LISTS.0, LISTS.1)?.len() as u64;
        let (mut entries, mut edges) = (0, 0);
        for list in self.rounds.iter().filter_map(|r| self.lists.of(r)) {
            (entries, edges) = (entries + list.len() as u64, edges + list.edges() as u64);
        }
        Ok((edges * EDGE_PS + entries * ENTRY_PS + joint * PERSON_PS) / 1000)
    }

    /// Adds each joint source's count over `set` to `counts`.
    fn add_counts(&self, set: &impl DealSet, counts: &mut [u32]) {
        let mut running = scratch::take(&scratch::COUNTERS);
        for list in self.rounds.iter().filter_map(|r| self.lists.of(r)) {
            for run in list.runs(RUN_ENTRIES) {
                count_run(&run, set, &mut running, counts);
            }
        }
        scratch::give(&scratch::COUNTERS, running);
    }

    /// Each of `candidates`' count over `set` (D), for those with any
    /// deal in it: (person, count), ascending.
    pub fn count(
        &self,
        index: &Index,
        set: &impl DealSet,
        candidates: &RoaringBitmap,
    ) -> Result<Vec<(u32, u32)>, IndexError> {
        let joint = index.people.joint_sources(LISTS.0, LISTS.1)?;
        let mut candidate = Ascending::among(candidates, joint.sources());
        let zeroed = (joint.len(), 0);
        Ok(scratch::with_filled(&scratch::COUNTERS, zeroed, |counts| {
            self.add_counts(set, counts);
            // Written without a branch on the count, as in `every_person`.
            scratch::kept_pairs(counts.len(), |out| {
                let mut end = 0;
                for (p, &n) in joint.each_source().zip(counts.iter()) {
                    out[end] = (p, n);
                    end += usize::from((n > 0) & candidate.contains(p));
                }
                end
            })
        }))
    }
}
