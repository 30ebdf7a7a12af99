//! `/people` by `investor.deals`: every candidate's count over a set of
//! deals D, walked from D's side into one bare counter per investor.
//!
//! A deal's `participants` hold one edge per person, its flags OR'ed
//! (angel, partner, lead: see `index::payload`), so a deal counts once per
//! person whichever of their lists it is in ([`DealRules::counts_participant`]).
//! Unlike the tally of `people` (a slot of deals and leads per person, and
//! the list of people touched, sorted afterwards), a counter here is a
//! bare `u32`: leads are counted for a page's rows only (as
//! `every_person` does), and the people counted are found by one pass
//! over the counters.
//!
//! When every participation counts and D is most of the deals (or of a
//! date range's: a block and the deals around it), the deals *outside* D
//! are walked instead, each counter starting at the investor's total over
//! every deal (`total_deal_count`, or `lead_deal_count` with
//! `only_lead_deals`, the stored totals the tally's complement reads too)
//! and taken down by one per participation counted.
//!
//! Walking D costs each deal's offsets and participants, a cache miss or
//! two when D is sparse; a block of deals (a lone date range: deal doc ids
//! follow the date) has its participants contiguous, read in one pass
//! without D's offsets. Next to the people's side (`every_person`, every
//! edge of every person tested), this is cheaper for a D of up to a few
//! hundred thousand deals, and for a block of up to most of the deals.

use std::ops::Range;

use roaring::RoaringBitmap;

use crate::index::docs::docs;
use crate::index::relation::Edges;
use crate::index::value_counts::Counted;
use crate::index::{Index, IndexError};

use super::person_deals::DealRules;
use super::scratch;
use super::span;

/// Measured at M on this machine in the bench's C4 mix (1,000 requests,
/// each strategy's time against its estimate), 2026-12-04: a deal of D
/// walked costs 15–23 ns where D fills a third or more of the chunks it
/// lies in (a date range's deals; see `span::walk_ns`), and more the more
/// thinly it is spread, as cache lines and pages are read for fewer deals
/// each: 22–41 ns at about a tenth, 29–38 ns at a twentieth, 36–68 ns at
/// a hundredth to a fiftieth (an industry's deals, however many), up to a
/// page walk a deal (70 ns). A least-squares fit of 128 requests,
/// `4.8 + 10.4 ln(1 / density)` ns, was 5.4 ns off on average, in a phase
/// slower than the other ways' calibrations: `4 + 10 ln(1 / density)` is
/// used. Global density alone, which these requests were priced by
/// before, put some at 1.5 times their cost and others at two thirds of
/// it...
const DEAL_DENSE_NS: f64 = 16.0;
const DEAL_SCATTERED_NS: f64 = 70.0;
const DEAL_FIT_NS: (f64, f64) = (4.0, 10.0);

/// ... an edge of a block's participants about 1.2–1.7 ns (read in order;
/// the counters are a random update each; 3.7 million edges of a
/// 2.2-million-deal block took 6.4–7.5 ms, `every_person` 4.7 ms)...
const BLOCK_EDGE_PS: u64 = 1_500;

/// ... and each investor's counter, cleared and read twice, about 0.8 ns
/// (about 0.5 ns more when it starts at the investor's total, read in
/// order from its column).
const COUNTER_PS: u64 = 800;
const TOTAL_PS: u64 = 500;

/// Estimated cost of [`count_walked`] over D (one block of doc ids when
/// `block` is; else read from D's counts per chunk of doc ids, `chunks`,
/// see `span::chunk_counts`) with `dated` counters (see [`count_walked`]).
pub fn walked_ns(
    index: &Index,
    (block, chunks): (Option<&Range<u32>>, &[(u64, u64)]),
    dated: u64,
) -> Result<u64, IndexError> {
    let counters = dated * COUNTER_PS / 1000;
    let walk = match block {
        Some(block) => runs_ns(index, std::slice::from_ref(block))?,
        None => span::walk_ns(chunks.iter().copied(), per_deal_ns),
    };
    Ok(walk + counters)
}

/// Estimated cost of [`count_walked_outside`]: the deals outside D walked
/// (the runs around a block, or D's chunks' other ids), each counter
/// starting at a total.
pub fn walked_outside_ns(
    index: &Index,
    (block, chunks): (Option<&Range<u32>>, &[(u64, u64)]),
    dated: u64,
) -> Result<u64, IndexError> {
    let counters = dated * (COUNTER_PS + TOTAL_PS) / 1000;
    let all = index.deals.docs as u64;
    let walk = match block {
        Some(block) => runs_ns(index, &around(block, all as u32))?,
        None => {
            let outside = chunks.iter().map(|&(len, n)| (len, len - n));
            span::walk_ns(outside, per_deal_ns)
        }
    };
    Ok(walk + counters)
}

/// Walking `runs` of deals, each one's participants read in one pass.
fn runs_ns(index: &Index, runs: &[Range<u32>]) -> Result<u64, IndexError> {
    let relation = index.deals.relation("participants")?;
    let edges = relation.edges();
    let run_edges = runs.iter().map(|r| edges.positions_of_run(r.clone()).len());
    Ok(run_edges.sum::<usize>() as u64 * BLOCK_EDGE_PS / 1000)
}

/// The runs of the `all` deal doc ids before and after `block`.
fn around(block: &Range<u32>, all: u32) -> [Range<u32>; 2] {
    [0..block.start.min(all), block.end.min(all)..all]
}

/// A deal's cost when the deals walked fill `density` of the chunk they
/// lie in.
pub fn per_deal_ns(density: f64) -> u64 {
    let (base, slope) = DEAL_FIT_NS;
    let fit = base - slope * density.max(f64::MIN_POSITIVE).ln();
    fit.clamp(DEAL_DENSE_NS, DEAL_SCATTERED_NS).round() as u64
}

/// (person, count) of each investor (or of `only`, a subset of them, when
/// given) with a counted deal in `deals` (one block of doc ids when
/// `block` is), ascending. `dated` investors (doc ids `0..dated`: those
/// with a dated deal come first) have a counter each; the few others are
/// counted aside.
pub fn count_walked(
    index: &Index,
    rules: &DealRules,
    (deals, block): (&RoaringBitmap, Option<Range<u32>>),
    dated: usize,
    only: Option<&RoaringBitmap>,
) -> Result<Vec<(u32, u32)>, IndexError> {
    let relation = index.deals.relation("participants")?;
    let participants = relation.edges();
    Ok(with_counters(dated, |mut counters| {
        match block {
            Some(block) => counters.add_run::<ADD>(participants, block, rules),
            None => participants.each_of(deals, |_, people, flags| {
                counters.add::<ADD>(people, flags, rules);
            }),
        }
        counters.counted(only)
    }))
}

/// What [`count_walked`] finds, from the deals outside `deals` (see the
/// module doc): every participation must count (`rules` may keep only
/// led deals). `investors` are every investor, of whom those from
/// `dated` on are counted aside from their totals.
pub fn count_walked_outside(
    index: &Index,
    rules: &DealRules,
    (deals, block): (&RoaringBitmap, Option<Range<u32>>),
    (dated, investors): (usize, &RoaringBitmap),
    only: Option<&RoaringBitmap>,
) -> Result<Vec<(u32, u32)>, IndexError> {
    let relation = index.deals.relation("participants")?;
    let participants = relation.edges();
    let total = match rules.only_lead {
        true => "lead_deal_count",
        false => "total_deal_count",
    };
    let totals = index.people.column_i32(total)?;
    let totals = totals.values();
    let all = index.deals.docs as u32;
    Ok(with_counters(dated, |mut counters| {
        counters.start_at(totals);
        match block {
            Some(block) => {
                for run in around(&block, all) {
                    counters.add_run::<TAKE>(participants, run, rules);
                }
            }
            None => participants.each_of(&(every_deal(all) - deals), |_, people, flags| {
                counters.add::<TAKE>(people, flags, rules);
            }),
        }
        let undated = investors.range(dated as u32..);
        counters.counted_from(only, undated.map(|p| (p, total_of(totals, p))))
    }))
}

/// What [`count_walked`] finds, from the counts of a value base B
/// (`base`: each value's entries, their leads with `only_lead_deals`)
/// less the participations counted in each set of `less` (B's deals
/// outside D, then its overlaps: see `supersets`). Every participation
/// must count (as [`count_walked_outside`]).
pub fn count_walked_less<'a>(
    index: &Index,
    rules: &DealRules,
    (base, less): (
        impl IntoIterator<Item = Counted<'a>>,
        impl IntoIterator<Item = &'a RoaringBitmap>,
    ),
    dated: usize,
    only: Option<&RoaringBitmap>,
) -> Result<Vec<(u32, u32)>, IndexError> {
    let relation = index.deals.relation("participants")?;
    let participants = relation.edges();
    Ok(with_counters(dated, |mut counters| {
        let mut undated = Vec::new();
        for value in base {
            let counts = if rules.only_lead {
                value.leads
            } else {
                value.deals
            };
            for (&p, &n) in value.docs.iter().zip(counts) {
                match counters.dense.get_mut(p as usize) {
                    Some(c) => *c += n,
                    None => undated.push((p, n)),
                }
            }
        }
        for deals in less {
            participants.each_of(deals, |_, people, flags| {
                counters.add::<TAKE>(people, flags, rules);
            });
        }
        counters.counted_from(only, summed(undated))
    }))
}

/// Each dated investor's counter read from two cumulative counts
/// (`high - low`) and stored in order, about 0.5 ns more than a cleared
/// counter (see [`count_walked_between`]).
const BETWEEN_PS: u64 = 500;

/// Estimated cost of [`count_walked_between`]: `dated` counters from two
/// cumulative counts, and `walked` deals (of `all`) walked.
pub fn walked_between_ns(walked: u64, all: u64, dated: u64) -> u64 {
    // The deals of partly covered size buckets are spread like the bucket.
    let spread = walked as f64 / all.max(1) as f64;
    dated * (COUNTER_PS + BETWEEN_PS) / 1000 + walked * per_deal_ns(spread)
}

/// What [`count_walked`] finds, from cumulative counts (a dated
/// investor's count is `high - low`; `beyond`, the others, once per
/// counted participation) plus the participations counted in each set of
/// `more`, less those in each set of `less` (walked).
pub fn count_walked_between(
    index: &Index,
    rules: &DealRules,
    ((low, high), beyond): ((&[u16], &[u16]), impl Iterator<Item = u32>),
    (more, less): (&[RoaringBitmap], &[RoaringBitmap]),
    only: Option<&RoaringBitmap>,
) -> Result<Vec<(u32, u32)>, IndexError> {
    let relation = index.deals.relation("participants")?;
    let participants = relation.edges();
    Ok(with_counters(low.len().min(high.len()), |mut counters| {
        for ((c, &lo), &hi) in counters.dense.iter_mut().zip(low).zip(high) {
            *c = u32::from(hi.wrapping_sub(lo));
        }
        let mut beyond: Vec<u32> = beyond.collect();
        for deals in more {
            participants.each_of(deals, |_, people, flags| {
                counters.add_listing_beyond(people, flags, rules, &mut beyond);
            });
        }
        for deals in less {
            participants.each_of(deals, |_, people, flags| {
                counters.add::<TAKE>(people, flags, rules);
            });
        }
        beyond.sort_unstable();
        let beyond = beyond
            .chunk_by(|a, b| a == b)
            .map(|r| (r[0], r.len() as u32));
        counters.counted_from(only, beyond.collect::<Vec<_>>().into_iter())
    }))
}

/// (person, count) pairs, a person's counts summed: ascending, once each.
fn summed(mut counts: Vec<(u32, u32)>) -> impl Iterator<Item = (u32, u32)> {
    counts.sort_unstable();
    let mut out: Vec<(u32, u32)> = Vec::with_capacity(counts.len());
    for (p, n) in counts {
        match out.last_mut() {
            Some(last) if last.0 == p => last.1 += n,
            _ => out.push((p, n)),
        }
    }
    out.into_iter()
}

/// Deal doc ids `0..all`.
fn every_deal(all: u32) -> RoaringBitmap {
    let mut every = RoaringBitmap::new();
    every.insert_range(0..all);
    every
}

/// Whether a participation counted adds one to its person's counter, or
/// takes one off (wrapping: a counter started at a total).
const ADD: bool = false;
const TAKE: bool = true;

/// A person's total from a totals column (`NULL_I32` or a negative is none).
fn total_of(totals: &[i32], p: u32) -> u32 {
    totals.get(p as usize).map_or(0, |&t| t.max(0) as u32)
}

/// Runs `f` over `dense` cleared counters kept by this thread.
fn with_counters<T>(dense: usize, f: impl FnOnce(Counters) -> T) -> T {
    scratch::with_filled(&scratch::COUNTERS, (dense, 0), |kept| {
        f(Counters {
            dense: kept,
            beyond: Vec::new(),
        })
    })
}

/// A counter per person below `dense.len()`; the people past them, once
/// per participation counted.
struct Counters<'a> {
    dense: &'a mut [u32],
    beyond: Vec<u32>,
}

impl Counters<'_> {
    /// Counts the participations of `people` (with their `flags`) that
    /// count: one more each, or one less ([`TAKE`]).
    #[inline]
    fn add<const STEP: bool>(&mut self, people: &[u32], flags: &[u8], rules: &DealRules) {
        for (&p, &f) in people.iter().zip(flags) {
            let n = u32::from(rules.counts_participant(f));
            match self.dense.get_mut(p as usize) {
                Some(c) if STEP == TAKE => *c = c.wrapping_sub(n),
                Some(c) => *c += n,
                None => self.add_beyond(p, n),
            }
        }
    }

    /// Counts the participations of `people` (with their `flags`) that
    /// count, one more each; those of the people past the counters are
    /// appended to `beyond` instead (starting counts, see
    /// [`Counters::counted_from`]).
    fn add_listing_beyond(
        &mut self,
        people: &[u32],
        flags: &[u8],
        rules: &DealRules,
        beyond: &mut Vec<u32>,
    ) {
        for (&p, &f) in people.iter().zip(flags) {
            let n = u32::from(rules.counts_participant(f));
            match self.dense.get_mut(p as usize) {
                Some(c) => *c += n,
                None if n > 0 => beyond.push(p),
                None => {}
            }
        }
    }

    /// Sets each counter to its person's total.
    fn start_at(&mut self, totals: &[i32]) {
        for (p, c) in self.dense.iter_mut().enumerate() {
            *c = total_of(totals, p as u32);
        }
    }

    /// What [`Counters::counted`] finds when the counters started at
    /// some counts and were taken down: the people counted aside
    /// (`undated`, the people past the counters with their starting
    /// counts, ascending, once each) have those counts less their
    /// participations walked.
    fn counted_from(
        mut self,
        only: Option<&RoaringBitmap>,
        undated: impl Iterator<Item = (u32, u32)>,
    ) -> Vec<(u32, u32)> {
        self.beyond.sort_unstable();
        let taken = |p: u32| {
            let from = self.beyond.partition_point(|&b| b < p);
            self.beyond[from..].partition_point(|&b| b == p) as u32
        };
        let beyond: Vec<(u32, u32)> = undated
            .filter(|&(p, _)| only.is_none_or(|o| o.contains(p)))
            .map(|(p, n)| (p, n.saturating_sub(taken(p))))
            .filter(|&(_, n)| n > 0)
            .collect();
        let mut out = self.counted_dense(only);
        out.extend(beyond);
        out
    }

    /// (person, count) of the counters' people counted (of `only`).
    fn counted_dense(&self, only: Option<&RoaringBitmap>) -> Vec<(u32, u32)> {
        match only {
            Some(only) => counted_of(self.dense, only),
            None => counted(self.dense),
        }
    }

    #[cold]
    #[inline(never)]
    fn add_beyond(&mut self, p: u32, n: u32) {
        if n > 0 {
            self.beyond.push(p);
        }
    }

    /// Counts the participations of every deal of `block`, read in one pass.
    fn add_run<const STEP: bool>(
        &mut self,
        participants: Edges,
        block: Range<u32>,
        rules: &DealRules,
    ) {
        let run = participants.positions_of_run(block);
        let people = &participants.all_targets()[run.clone()];
        let flags = participants.all_payload().get(run).unwrap_or(&[]);
        self.add::<STEP>(people, flags, rules);
    }

    /// (person, count) of every person counted (of `only`, when given).
    fn counted(mut self, only: Option<&RoaringBitmap>) -> Vec<(u32, u32)> {
        self.beyond.sort_unstable();
        let beyond = self.beyond.chunk_by(|a, b| a == b);
        let beyond = beyond.map(|run| (run[0], run.len() as u32));
        let beyond = beyond.filter(|&(p, _)| only.is_none_or(|o| o.contains(p)));
        let mut out = self.counted_dense(only);
        out.extend(beyond);
        out
    }
}

/// (person, count) of every non-zero counter. Read [`SCAN`] counters at
/// a time, a run of zeros skipped at once (a narrow D leaves most of them
/// zero); within a run, written without a branch on the count (kept or
/// not is a coin toss for the predictor). The output is sized by a first
/// pass: a vector the size of every counter would be fresh pages to fault
/// in, each query.
fn counted(counters: &[u32]) -> Vec<(u32, u32)> {
    let kept = counters.iter().filter(|&&n| n > 0).count();
    let mut out = vec![(0, 0); kept + SCAN];
    let mut end = 0;
    for (c, run) in counters.chunks(SCAN).enumerate() {
        if run.iter().fold(0, |any, &n| any | n) == 0 {
            continue;
        }
        for (i, &n) in run.iter().enumerate() {
            out[end] = ((c * SCAN + i) as u32, n);
            end += usize::from(n > 0);
        }
    }
    out.truncate(end);
    out
}

/// Counters read at a time by [`counted`].
const SCAN: usize = 16;

/// (person, count) of each of `only` with a non-zero counter.
fn counted_of(counters: &[u32], only: &RoaringBitmap) -> Vec<(u32, u32)> {
    let of = |p: u32| {
        counters
            .get(p as usize)
            .filter(|&&n| n > 0)
            .map(|&n| (p, n))
    };
    docs(only).filter_map(of).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::payload::{PARTICIPANT_ANGEL, PARTICIPANT_LEAD, PARTICIPANT_PARTNER};
    use crate::index::relation::TestArrays;
    use crate::query::request::{InvestmentType, PersonDealsFilter};
    use proptest::prelude::*;

    #[test]
    fn a_deal_costs_more_the_thinner_the_walk_is_spread() {
        let costs: Vec<u64> = [1.0, 0.3, 0.1, 0.05, 0.01, 1e-4, 0.0]
            .into_iter()
            .map(per_deal_ns)
            .collect();
        assert_eq!(costs, vec![16, 16, 27, 34, 50, 70, 70]);
    }

    fn flags() -> impl Strategy<Value = u8> {
        let kinds = [PARTICIPANT_ANGEL, PARTICIPANT_PARTNER];
        (0usize..3, any::<bool>()).prop_map(move |(k, lead)| {
            let kind = kinds
                .get(k)
                .copied()
                .unwrap_or(PARTICIPANT_ANGEL | PARTICIPANT_PARTNER);
            kind | if lead { PARTICIPANT_LEAD } else { 0 }
        })
    }

    proptest! {
        /// Walking D deal by deal, or a block of D in one pass, counts what
        /// a scan of every deal's participants against the rules counts,
        /// for every investment type, with and without `only_lead_deals`;
        /// so does walking the deals outside D (or around the block) off
        /// the totals, when every participation counts.
        #[test]
        fn walked_counts_agree_with_a_scan(
            deals in proptest::collection::vec(proptest::collection::vec((0u32..30, flags()), 0..4), 1..60),
            d in proptest::collection::btree_set(0u32..60, 0..60),
            block in (0u32..60, 0u32..60),
            only in proptest::collection::btree_set(0u32..30, 0..30),
            dense in 0usize..32,
        ) {
            let arrays = TestArrays::of(deals.iter().map(|d| d.iter().copied()));
            let edges = arrays.edges();
            let n = deals.len() as u32;
            let d: RoaringBitmap = d.into_iter().filter(|&x| x < n).collect();
            let block = block.0.min(block.1).min(n)..block.0.max(block.1).min(n);
            let only: RoaringBitmap = only.into_iter().collect();
            for (investment_type, only_lead_deals) in [InvestmentType::All, InvestmentType::Angel, InvestmentType::Institutional].into_iter().flat_map(|t| [(t, false), (t, true)]) {
                let rules = DealRules::of(&PersonDealsFilter { investment_type, only_lead_deals, ..Default::default() });
                let scan = |set: &dyn Fn(u32) -> bool| -> Vec<u32> {
                    let mut c = vec![0u32; 30];
                    for deal in (0..n).filter(|&x| set(x)) {
                        for &(p, f) in &deals[deal as usize] {
                            c[p as usize] += u32::from(rules.counts_participant(f));
                        }
                    }
                    c
                };
                let of = |c: Vec<u32>| -> Vec<(u32, u32)> { c.into_iter().enumerate().filter(|e| e.1 > 0).map(|(p, n)| (p as u32, n)).collect() };
                // People from `dense` on are counted aside.
                let by_deal = with_counters(dense, |mut c| {
                    edges.each_of(&d, |_, people, flags| c.add::<ADD>(people, flags, &rules));
                    c.counted(None)
                });
                prop_assert_eq!(&by_deal, &of(scan(&|x| d.contains(x))));
                let by_block = with_counters(dense, |mut c| {
                    c.add_run::<ADD>(edges, block.clone(), &rules);
                    c.counted(Some(&only))
                });
                let expected = of(scan(&|x| block.contains(&x)));
                let expected: Vec<(u32, u32)> = expected.into_iter().filter(|e| only.contains(e.0)).collect();
                prop_assert_eq!(&by_block, &expected);
                if !(rules.angel && rules.institutional) {
                    continue;
                }
                // From the totals, the deals outside D taken off.
                let totals: Vec<i32> = scan(&|_| true).into_iter().map(|t| t as i32).collect();
                let from_totals = |c: Counters, only: Option<&RoaringBitmap>| {
                    let undated = (dense as u32..30).map(|p| (p, total_of(&totals, p)));
                    c.counted_from(only, undated)
                };
                let outside_deals = with_counters(dense, |mut c| {
                    c.start_at(&totals);
                    edges.each_of(&(every_deal(n) - &d), |_, people, flags| c.add::<TAKE>(people, flags, &rules));
                    from_totals(c, None)
                });
                prop_assert_eq!(&outside_deals, &by_deal);
                let around_block = with_counters(dense, |mut c| {
                    c.start_at(&totals);
                    around(&block, n).into_iter().for_each(|run| c.add_run::<TAKE>(edges, run, &rules));
                    from_totals(c, Some(&only))
                });
                prop_assert_eq!(around_block, expected);
            }
        }
    }

    #[test]
    fn the_rules_count_participations_by_their_flags() {
        let rules = |investment_type, only_lead_deals| {
            DealRules::of(&PersonDealsFilter {
                investment_type,
                only_lead_deals,
                ..Default::default()
            })
        };
        let (a, p, l) = (PARTICIPANT_ANGEL, PARTICIPANT_PARTNER, PARTICIPANT_LEAD);
        let all = rules(InvestmentType::All, false);
        assert!(all.counts_participant(a) && all.counts_participant(p | l));
        assert!(!all.counts_participant(l) && !all.counts_participant(0));
        let angel_led = rules(InvestmentType::Angel, true);
        assert!(angel_led.counts_participant(a | p | l) && !angel_led.counts_participant(a));
        assert!(
            !angel_led.counts_participant(p | l),
            "led as partner, not angel"
        );
        let institutional = rules(InvestmentType::Institutional, false);
        assert!(institutional.counts_participant(p) && !institutional.counts_participant(a | l));
    }
}
