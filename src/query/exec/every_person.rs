//! `/people` by `investor.deals` over a broad set of deals D: every
//! candidate's exact count at once, from running hit counts along the
//! people's deal lists ([`RunningHits`]) instead of a loop per person.
//!
//! A person's counted deals are their `angel_deals` and their
//! `partner_deals` (see `person_deals`); a deal in both counts once, and
//! is led when its partner edge is. Per person, from the running counts:
//! angel hits `a`, partner hits `p`, partner hits led `l`; and from the
//! people's common edges (derived once: one pair at M), `both`, their
//! deals in D in both lists, and `both_led`, those led.
//!
//! | rules | deals | with `only_lead_deals` |
//! |---|---|---|
//! | angel and institutional | `a + p - both` | `l` |
//! | angel only | `a` | `both_led` |
//! | institutional only | `p` | `l` |
//!
//! Leads are not counted: only a page's rows need them, counted from
//! their lists. A count of `l` alone reads the led partner edges only
//! (`every_led`). A person with [`EXACT_BELOW`] deals or more in a list is
//! counted from their lists too.
//!
//! The candidates' bounds in both lists are read from the people's joint
//! sources ([`JointSources`]: the people with a deal in either list, in
//! order), not from the lists' offsets over every person, and people are
//! counted [`RUN_PEOPLE`] at a time: a run's edges are contiguous in both
//! lists, so its running counts are taken over those edges only and read
//! while still in cache.

use roaring::RoaringBitmap;

use crate::index::common_edges::CommonEdge;
use crate::index::docs::docs;
use crate::index::joint_sources::{JointRun, JointSources, SourceEdges};
use crate::index::relation::Edges;
use crate::index::{Index, IndexError};

use super::dense::DealSet;
use super::every_led::{count_led, LED_LIST};
use super::person_deals::{DealRules, PersonLists};
use super::running::{RunningHits, EXACT_BELOW};
use super::scratch;

/// Measured at M on this machine (4.3 million participations, 243,000
/// investors, all of them candidates): the running counts cost about
/// 0.5 ns an edge (2.1 ms for both lists)...
///
/// In the bench's C4 mix, where the lists are no longer in cache, counts
/// took 1.3–1.6 times that estimate (2026-12-03), so it is taken 1.6
/// times over: 0.8 ns an edge...
const EDGE_PS: u64 = 800;

/// ... and each joint source's count (candidate or not) about 4 ns (6 ns
/// in the bench's mix), their bounds read in order from the joint
/// sources, 2026-12-02.
const PERSON_NS: u64 = 6;

/// The lists a person's counted deals come from, as named relations.
pub(super) const LISTS: (&str, &str) = ("angel_deals", "partner_deals");

/// Estimated cost of [`count_every`] (every person with a deal in either
/// list is counted, candidate or not).
pub fn every_ns(index: &Index, rules: &DealRules) -> Result<u64, IndexError> {
    if counts_led_only(rules) {
        let led = index.people.flagged_edges(LED_LIST)?;
        let (edges, people) = (led.all_targets().len(), led.sources().len());
        return Ok(edges as u64 * EDGE_PS / 1000 + people as u64 * PERSON_NS);
    }
    let lists = PersonLists::open(index)?;
    let (angel, partner) = lists.edges();
    let runs = Runs::of(rules);
    let edges = |run: bool, e: &Edges| if run { e.all_targets().len() as u64 } else { 0 };
    let all = edges(runs.angel, &angel) + edges(runs.partner.is_some(), &partner);
    let joint = index.people.joint_sources(LISTS.0, LISTS.1)?.len() as u64;
    Ok(all * EDGE_PS / 1000 + joint * PERSON_NS)
}

/// Each of `candidates`' count over `set`, for those with any counted
/// deal in it: (person, count), ascending.
pub fn count_every(
    index: &Index,
    rules: &DealRules,
    set: &impl DealSet,
    candidates: &RoaringBitmap,
) -> Result<Vec<(u32, u32)>, IndexError> {
    if counts_led_only(rules) {
        return count_led(index, set, candidates, RUN_PEOPLE);
    }
    let lists = PersonLists::open(index)?;
    let common = index.people.common_edges(LISTS.0, LISTS.1)?;
    let joint = index.people.joint_sources(LISTS.0, LISTS.1)?;
    let lists = (lists.edges(), common.edges());
    Ok(count_lists(
        rules,
        set,
        (lists, &joint),
        candidates,
        RUN_PEOPLE,
    ))
}

/// Whether a person's count is their led partner edges alone (`l`, see
/// the module doc): read from those edges ([`count_led`]).
fn counts_led_only(rules: &DealRules) -> bool {
    rules.only_lead && rules.institutional
}

/// [`count_every`] over the people's (angel, partner) lists, their
/// common edges and their joint sources, `run_people` at a time.
fn count_lists(
    rules: &DealRules,
    set: &impl DealSet,
    (((angel, partner), common), joint): (((Edges, Edges), &[CommonEdge]), &JointSources),
    candidates: &RoaringBitmap,
    run_people: usize,
) -> Vec<(u32, u32)> {
    let counts = EveryCount {
        rules,
        run_people,
        runs: Runs::of(rules),
        common: match (rules.angel, rules.institutional, rules.only_lead) {
            (true, true, false) => CommonCount::Subtract,
            (true, false, true) => CommonCount::AddLed,
            _ => CommonCount::Ignore,
        },
        lists: (angel, partner),
    };
    let shared = Shared {
        edges: common,
        next: 0,
    };
    let mut candidate = Ascending::among(candidates, joint.sources());
    counts.each(joint, |p| candidate.contains(p), shared, set)
}

/// Which of the joint sources, asked in ascending order, are candidates:
/// none is looked up in the candidates' bitmap (a lookup each would
/// cost more than the count).
pub(super) struct Ascending {
    /// The candidates among the sources, ascending (`None`: all are).
    only: Option<Vec<u32>>,
    next: usize,
}

impl Ascending {
    pub fn among(candidates: &RoaringBitmap, sources: &RoaringBitmap) -> Ascending {
        let all = candidates.intersection_len(sources) == sources.len();
        Ascending {
            only: (!all).then(|| docs(&(candidates & sources)).collect()),
            next: 0,
        }
    }

    /// Whether `p` is a candidate (`p` ascending between calls).
    #[inline]
    pub fn contains(&mut self, p: u32) -> bool {
        let Some(only) = &self.only else {
            return true;
        };
        while only.get(self.next).is_some_and(|&c| c < p) {
            self.next += 1;
        }
        only.get(self.next) == Some(&p)
    }
}

/// Which lists' running counts a rule needs: the angel list's, and the
/// partner list's (all hits, or only those led: `Some(true)`).
struct Runs {
    angel: bool,
    partner: Option<bool>,
}

impl Runs {
    fn of(rules: &DealRules) -> Runs {
        Runs {
            angel: rules.angel && !rules.only_lead,
            partner: rules.institutional.then_some(rules.only_lead),
        }
    }
}

/// What a person's common deal in D does to their count.
enum CommonCount {
    /// Counted in both lists: once too many.
    Subtract,
    /// An angel deal led as partner, counted by no running count.
    AddLed,
    Ignore,
}

/// How many people's running counts are taken at a time: their entries
/// (about 37 KB a list at M) are still in the core's cache when the
/// people's differences read them. Counting all edges, then all people,
/// took 3.6–4.0 ms against 2.8–3.3 ms at M (2026-12-02).
const RUN_PEOPLE: usize = 1024;

/// What a query counts in the lists.
struct EveryCount<'a> {
    rules: &'a DealRules,
    /// People counted at a time ([`RUN_PEOPLE`]).
    run_people: usize,
    runs: Runs,
    common: CommonCount,
    lists: (Edges<'a>, Edges<'a>),
}

/// A run of people's running counts in the lists a query counts.
type RunHits = (Option<RunningHits>, Option<RunningHits>);

impl EveryCount<'_> {
    /// (person, count) of each joint source that is a `candidate` and has
    /// a counted deal in `set`.
    fn each(
        &self,
        joint: &JointSources,
        mut candidate: impl FnMut(u32) -> bool,
        mut shared: Shared,
        set: &impl DealSet,
    ) -> Vec<(u32, u32)> {
        // Written without a branch on the count (kept or not is a coin
        // toss for the predictor over a broad D): each person is written
        // at the end, which moves on past those counted.
        scratch::kept_pairs(joint.len(), |out| {
            let mut end = 0;
            for run in joint.runs(self.run_people) {
                let hits = self.hits(&run, set);
                for person in run.each() {
                    let p = person.0;
                    let n = self.of(&hits, person, shared.of(p, set), set);
                    out[end] = (p, n);
                    end += usize::from((n > 0) & candidate(p));
                }
            }
            end
        })
    }

    /// The running counts of `run`'s edges in the lists counted.
    fn hits(&self, run: &JointRun, set: &impl DealSet) -> RunHits {
        let ((a, b), (angel, partner)) = (run.edges(), &self.lists);
        let angel = (self.runs.angel).then(|| RunningHits::of(&angel.all_targets()[a], set));
        let targets = &partner.all_targets()[b.clone()];
        let partner = self.runs.partner.map(|led| match led {
            true => RunningHits::led(targets, partner.all_payload().get(b).unwrap_or(&[]), set),
            false => RunningHits::of(targets, set),
        });
        (angel, partner)
    }

    /// A person's count from their lists' positions, given `both` (their
    /// deals in the set in both lists, and how many of those they led as
    /// partner).
    #[inline]
    fn of(
        &self,
        hits: &RunHits,
        (p, a, b): SourceEdges,
        both: (u32, u32),
        set: &impl DealSet,
    ) -> u32 {
        let (angel, partner) = &self.lists;
        if a.len().max(b.len()) >= EXACT_BELOW {
            return self.rules.count(set, angel, partner, p).deals;
        }
        let a = hits.0.as_ref().map_or(0, |h| h.within(a));
        let b = hits.1.as_ref().map_or(0, |h| h.within(b));
        match self.common {
            CommonCount::Subtract => (a + b).saturating_sub(both.0),
            CommonCount::AddLed => a + b + both.1,
            CommonCount::Ignore => a + b,
        }
    }
}

/// The common edges, read along ascending people.
struct Shared<'a> {
    edges: &'a [CommonEdge],
    next: usize,
}

impl Shared<'_> {
    /// `p`'s common deals in `set`, and those led (`p` ascending between
    /// calls).
    #[inline]
    fn of(&mut self, p: u32, set: &impl DealSet) -> (u32, u32) {
        let mut both = (0, 0);
        while let Some(e) = self.edges.get(self.next).filter(|e| e.source <= p) {
            if e.source == p && set.contains(e.target) {
                both = (both.0 + 1, both.1 + u32::from(e.payload != 0));
            }
            self.next += 1;
        }
        both
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::common_edges::CommonEdges;
    use crate::index::relation::TestArrays;
    use crate::query::exec::dense::{Block, DenseSet};
    use crate::query::request::{InvestmentType, PersonDealsFilter};
    use proptest::prelude::*;

    /// Relation arrays of per-person ascending, distinct lists.
    fn arrays(lists: &[Vec<(u32, u8)>]) -> TestArrays {
        TestArrays::of(lists.iter().map(|list| {
            let mut list = list.clone();
            list.sort_unstable();
            list.dedup_by_key(|e| e.0);
            list
        }))
    }

    fn lists() -> impl Strategy<Value = Vec<Vec<(u32, u8)>>> {
        proptest::collection::vec(proptest::collection::vec((0u32..200, 0u8..2), 0..12), 0..40)
    }

    proptest! {
        /// Every person's count from the running counts equals their
        /// count from their own lists ([`DealRules::count`]), for every
        /// investment type, with and without `only_lead_deals`, over a
        /// bitset and a block, the lists sharing deals, a few people or
        /// all of them at a time.
        #[test]
        fn every_count_agrees_with_each_list(
            angel in lists(),
            partner in lists(),
            set in proptest::collection::btree_set(0u32..200, 0..150),
            block in (0u32..200, 0u32..200),
            shared in proptest::collection::vec(0usize..40, 0..20),
            run_people in 1usize..8,
        ) {
            let mut angel = angel;
            angel.resize(partner.len().max(angel.len()), Vec::new());
            let mut partner = partner;
            partner.resize(angel.len(), Vec::new());
            let n = angel.len();
            for &p in shared.iter().filter(|&&p| p < n) {
                let common: Vec<(u32, u8)> = partner[p].iter().take(3).copied().collect();
                angel[p].extend(common.iter().map(|&(d, _)| (d, 0)));
            }
            let people = angel.len();
            let (angel, partner) = (arrays(&angel), arrays(&partner));
            let (angel, partner) = (angel.bare_edges(), partner.edges());
            let common = CommonEdges::derive(&angel, &partner, people);
            let joint = JointSources::derive(&angel, &partner, people);
            let some: RoaringBitmap = (0..people as u32).filter(|p| p % 5 != 3).collect();
            // Every person and more: the joint sources are all candidates.
            let all: RoaringBitmap = (0..people as u32 + 3).collect();
            let set: RoaringBitmap = set.into_iter().collect();
            let dense = DenseSet::of(&set, 200);
            let block = Block(block.0.min(block.1)..block.0.max(block.1));
            for investment_type in [InvestmentType::All, InvestmentType::Angel, InvestmentType::Institutional] {
                for (only_lead_deals, candidates) in [false, true].into_iter().flat_map(|l| [(l, &some), (l, &all)]) {
                    let rules = DealRules::of(&PersonDealsFilter { investment_type, only_lead_deals, ..Default::default() });
                    let lists = (((angel, partner), common.edges()), &joint);
                    let by_set = count_lists(&rules, &dense, lists, candidates, run_people);
                    let by_block = count_lists(&rules, &block, lists, candidates, RUN_PEOPLE);
                    let listed = |s: &dyn DealSet| -> Vec<(u32, u32)> {
                        let people = docs(candidates).filter(|&p| (p as usize) < people);
                        let counts = people.map(|p| (p, rules.count(s, &angel, &partner, p).deals));
                        counts.filter(|&(_, n)| n > 0).collect()
                    };
                    prop_assert_eq!(&by_set, &listed(&dense));
                    prop_assert_eq!(&by_block, &listed(&block));
                }
            }
        }
    }
}
