//! `/people` by `min_matching_deals` over a broad set of deals D, without
//! every candidate's exact count.
//!
//! Counting each investor's deals in D reads every list whole (4.3 million
//! participations at M, about 10 ms). Whether a person has at least `m`
//! deals in D needs only their lists up to the `m`-th deal in D: when D is
//! broad that is a few deals per person, read a chunk at a time
//! ([`DealSet::reaches`]). The kept people are then exact; exact counts are
//! needed only for the order by filtered deal count, and only for its first
//! `k` people (the page and those before it). Each person's count is at
//! most their `total_deal_count` (or `lead_deal_count` when only led deals
//! count: every deal of the person); the people at the top of that order
//! are counted first, which sets a `k`-th count, and the pass over every
//! candidate counts exactly only those whose bound reaches the `k`-th count
//! found so far (see [`people_reaching`]).

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::Arc;

use roaring::RoaringBitmap;

use crate::index::column::{Column, SortOrder};
use crate::index::docs::docs;
use crate::index::{Index, IndexError};

use super::dense::{DealSet, CHUNK};
use super::person_deals::{DealRules, PersonLists};
use super::tally::Sides;

/// Deciding a person against a block: their lists' bounds, a search at
/// most, and the `m`-th deal from the block's start (at M, about 4.5 ms
/// for 243,000 investors, 2026-11-29).
const BLOCK_PERSON_NS: u64 = 18;

/// Deciding a person against a bitset, besides the deals read: their
/// lists' bounds and a branch per chunk (at M, about 5.5 ms for 243,000
/// investors reading 1.4 million deals, 2026-11-29).
const PERSON_NS: u64 = 10;

/// Ranking the first `k` after the decision, per candidate: the bound's
/// top counted, then every kept person whose bound reaches the `k`-th
/// count (at M, 1.2–2.5 ms over 243,000 investors, 2026-11-29).
const RANKING_PERSON_NS: u64 = 8;

/// Estimated cost of [`people_reaching`] for `candidates` people reading
/// `read` deals in all (see [`reads_estimate`]) over `d` deals (`block`
/// when they form one), the first `k` ranked when `ranked`: a bitset
/// costs its bits too.
pub fn reaching_ns(
    sides: &Sides,
    (d, block): (u64, bool),
    (candidates, ranked): (u64, bool),
    read: u64,
) -> u64 {
    let ranking = if ranked {
        candidates * RANKING_PERSON_NS
    } else {
        0
    };
    ranking
        + match block {
            true => candidates * BLOCK_PERSON_NS,
            false => candidates * PERSON_NS + sides.entity_ns(d, read),
        }
}

/// Candidates whose lists' lengths estimate the deals a decision reads.
const SAMPLE: u64 = 1024;

/// Deals deciding `candidates` at `m` over `d` of the `all` deals reads,
/// estimated from an even sample of them: a person reads about `m` /
/// density of their counted lists' deals, whole chunks, their whole lists
/// at most (most lists are shorter than that).
pub fn reads_estimate(
    index: &Index,
    rules: &DealRules,
    candidates: &RoaringBitmap,
    (m, d, all): (u32, u64, u64),
) -> Result<u64, IndexError> {
    let lists = PersonLists::open(index)?;
    let (angel, partner) = lists.edges();
    let chunk = CHUNK as u64;
    let per_person = (u64::from(m) * all / d.max(1)).div_ceil(chunk).max(1) * chunk;
    let listed = |p| rules.listed(&angel, &partner, p);
    let n = candidates.len();
    let sampled = (0..n).step_by((n / SAMPLE).max(1) as usize);
    let people = sampled.filter_map(|i| candidates.select(i as u32));
    let (read, seen) = people.fold((0, 0), |(r, s), p| (r + listed(p).min(per_person), s + 1));
    Ok(read * n / seen.max(1))
}

/// The candidates decided at `m`, and the first `k` of them by count.
pub struct Reaching {
    /// The candidates with at least `m` counted deals in the set.
    pub people: RoaringBitmap,
    /// When asked: the first `k` of them by count (descending, ties by doc
    /// id), with their counts, in no order.
    pub first: Option<Vec<(u32, u32)>>,
}

/// The `candidates` with at least `m` counted deals in `set`, and the
/// first `first` of them by count when asked.
///
/// The candidates are decided first. The first are then counted exactly:
/// the kept people at the top of the bound's order ([`seed`]), until the
/// bound falls below the `k`-th count found; if it does not soon, then the
/// other kept people in doc order, each one whose bound reaches the `k`-th
/// count found so far. Those skipped had a bound below the `k`-th count at
/// the time, which only grows, so they cannot be among the first.
pub fn people_reaching(
    index: &Index,
    rules: &DealRules,
    set: &(impl DealSet + ?Sized),
    (candidates, m): (&RoaringBitmap, u32),
    first: Option<usize>,
) -> Result<Reaching, IndexError> {
    let lists = PersonLists::open(index)?;
    let (angel, partner) = lists.edges();
    let keep = docs(candidates).filter(|&p| rules.reaches(set, &angel, &partner, p, m));
    let people = RoaringBitmap::from_sorted_iter(keep).unwrap_or_default();
    let Some(k) = first else {
        return Ok(Reaching {
            people,
            first: None,
        });
    };
    let count = |p| rules.count(set, &angel, &partner, p).deals;
    let bound = Bound::of(index, rules)?;
    let mut ranking = Ranking::new(k);
    if let Some(seeded) = seed(&mut ranking, &bound, &people, count) {
        for p in docs(&people) {
            if ranking.may_take(bound.at(p)) && seeded.binary_search(&p).is_err() {
                ranking.offer(p, count(p));
            }
        }
    }
    Ok(Reaching {
        people,
        first: Some(ranking.into_first()),
    })
}

/// People at the top of the bound's order counted before any other: this
/// many per first person, at least...
const SEED_PER_FIRST: usize = 4;

/// ... and one per this many kept people (a broad D's first 25 at M are
/// found within 200–900 people).
const SEED_SHARE: usize = 16;

/// Counts the `people` among the first positions of the bound's order into
/// `ranking` (`SEED_PER_FIRST` per first person or one per `SEED_SHARE`
/// people, whichever is more; fewer once the bound falls below the `k`-th
/// count). `None` when it fell: the first are then known; otherwise the
/// people counted, ascending.
fn seed(
    ranking: &mut Ranking,
    bound: &Bound,
    people: &RoaringBitmap,
    count: impl Fn(u32) -> u32,
) -> Option<Vec<u32>> {
    let order = bound.order.non_null().iter().rev();
    let mut seeded = Vec::new();
    let reads = (SEED_PER_FIRST * ranking.k).max(people.len() as usize / SEED_SHARE);
    for &p in order.take(reads) {
        if !ranking.may_take(bound.at(p)) {
            return None;
        }
        if people.contains(p) {
            ranking.offer(p, count(p));
            seeded.push(p);
        }
    }
    seeded.sort_unstable();
    Some(seeded)
}

/// An upper bound of any person's count in D, with its sort order:
/// `total_deal_count`, or `lead_deal_count` when only led deals count
/// (every deal of the person, so no count in D exceeds it).
struct Bound {
    column: Arc<Column<i32>>,
    order: Arc<SortOrder>,
}

impl Bound {
    fn of(index: &Index, rules: &DealRules) -> Result<Bound, IndexError> {
        let name = match rules.only_lead {
            true => "lead_deal_count",
            false => "total_deal_count",
        };
        Ok(Bound {
            column: index.people.column_i32(name)?,
            order: index.people.sort_order(name)?,
        })
    }

    /// `p`'s bound; none known (no value) bounds nothing.
    fn at(&self, p: u32) -> u32 {
        self.column.get(p).map_or(u32::MAX, |v| v.max(0) as u32)
    }
}

/// Counts a block of [`ranked_first_of`] holds.
const RANKED_BLOCK: usize = 128;

/// The first `k` by count of the people of `counts` (people ascending)
/// with at least `min` (≥ 1), in no order, and how many have at least
/// `min`: all a page ranked by count needs, in one pass.
///
/// A block of counts is summed first (how many reach `min`, the most) in
/// one vectorised pass, and its people are offered only when its most
/// could enter the ranking. Once the first `k` are ranked, the heaviest
/// people's counts bar almost every block (one count at a time, the pass
/// over a broad D's 243,000 counts took 65 µs around C4's median).
pub fn ranked_first_of(counts: &[(u32, u32)], min: u32, k: usize) -> (Vec<(u32, u32)>, u64) {
    ranked_blocks(counts, (min, k), |_, (p, _)| p)
}

/// [`ranked_first_of`] over every doc's count (`counts[d]` is doc `d`'s).
pub fn ranked_first_by_doc(counts: &[u32], min: u32, k: usize) -> (Vec<(u32, u32)>, u64) {
    ranked_blocks(counts, (min, k), |d, _| d as u32)
}

/// A count ranked by [`ranked_blocks`].
trait Counted: Copy {
    fn count(self) -> u32;
}

impl Counted for (u32, u32) {
    fn count(self) -> u32 {
        self.1
    }
}

impl Counted for u32 {
    fn count(self) -> u32 {
        self
    }
}

/// The first `k` of `counts` with at least `min` (≥ 1) and how many
/// reach it, block by block; `holder` names the doc of the count at an
/// index.
fn ranked_blocks<C: Counted>(
    counts: &[C],
    (min, k): (u32, usize),
    holder: impl Fn(usize, C) -> u32,
) -> (Vec<(u32, u32)>, u64) {
    let min = min.max(1);
    let mut ranking = Ranking::new(k);
    let mut reaching = 0u64;
    for (b, block) in counts.chunks(RANKED_BLOCK).enumerate() {
        let (reached, most) = reached_and_most(block, min);
        reaching += u64::from(reached);
        if reached == 0 || !ranking.may_take(most - 1) {
            continue;
        }
        for (i, &c) in block.iter().enumerate() {
            let n = c.count();
            // People come in doc order: a tie with the k-th loses on the
            // doc id.
            if n >= min && ranking.may_take(n - 1) {
                ranking.offer(holder(b * RANKED_BLOCK + i, c), n);
            }
        }
    }
    (ranking.into_first(), reaching)
}

/// How many counts of `block` reach `min`, and the largest count.
fn reached_and_most<C: Counted>(block: &[C], min: u32) -> (u32, u32) {
    let (mut reached, mut most) = (0u32, 0u32);
    for &c in block {
        reached += u32::from(c.count() >= min);
        most = most.max(c.count());
    }
    (reached, most)
}

/// Ranking entries: more deals first, then the lower doc id (the order of
/// `sort::page_by_keys`); the heap's top is the worst kept.
type Ranked = (Reverse<u32>, u32);

/// The first `k` people by count found so far.
struct Ranking {
    k: usize,
    best: BinaryHeap<Ranked>,
}

impl Ranking {
    fn new(k: usize) -> Ranking {
        Ranking {
            k,
            // A far page asks for more than there are: the heap grows
            // with what is offered, not with `k`.
            best: BinaryHeap::with_capacity(k.min(1 << 12) + 1),
        }
    }

    /// Whether a person whose count is at most `bound` may be among the
    /// first (a tie with the `k`-th count may win on the doc id).
    fn may_take(&self, bound: u32) -> bool {
        match self.best.peek() {
            _ if self.best.len() < self.k => true,
            Some(&(Reverse(kth), _)) => bound >= kth,
            None => false,
        }
    }

    /// Offers `p` with `n` deals.
    fn offer(&mut self, p: u32, n: u32) {
        if self.k > 0 {
            self.best.push((Reverse(n), p));
            if self.best.len() > self.k {
                self.best.pop();
            }
        }
    }

    fn into_first(self) -> Vec<(u32, u32)> {
        self.best
            .into_iter()
            .map(|(Reverse(n), p)| (p, n))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::build::build_fixture;
    use crate::query::request::{InvestmentType, PersonDealsFilter};

    /// With no more candidates than the sample, the estimate is each one's
    /// reads summed exactly: whole chunks up to `m` / density, capped by
    /// the lists the rules read.
    #[test]
    fn a_small_candidate_set_is_estimated_exactly() {
        let index = Index::open(&build_fixture("at-least-reads", "2026-11-01")).unwrap();
        let investors = index.people.facet("is_investor").unwrap();
        let investors = investors.docids("true").unwrap().unwrap();
        assert!(investors.len() <= SAMPLE && investors.len() > 5);
        let lists = PersonLists::open(&index).unwrap();
        let (angel, partner) = lists.edges();
        let all = index.deals.docs as u64;
        for investment_type in [InvestmentType::All, InvestmentType::Angel] {
            let filter = PersonDealsFilter {
                investment_type,
                ..Default::default()
            };
            let rules = DealRules::of(&filter);
            for (m, d) in [(1, all), (2, all / 4), (4, all / 100)] {
                let d = d.max(1);
                let per = (u64::from(m) * all / d).div_ceil(8).max(1) * 8;
                let listed = |p| match investment_type {
                    InvestmentType::Angel => angel.degree(p),
                    _ => angel.degree(p) + partner.degree(p),
                };
                let want: u64 = investors.iter().map(|p| (listed(p) as u64).min(per)).sum();
                let got = reads_estimate(&index, &rules, &investors, (m, d, all)).unwrap();
                assert_eq!(got, want, "m {m}, d {d}, {investment_type:?}");
            }
        }
    }

    /// The first by count, more first and ties on the lower doc, counts
    /// below `min` left out; a far page's `k` ranks what there is.
    #[test]
    fn the_first_by_count_are_kept() {
        let counts = [(0, 2), (1, 5), (2, 1), (3, 5), (4, 3)];
        assert_eq!(
            by_rank(ranked_first_of(&counts, 2, 3).0),
            [(1, 5), (3, 5), (4, 3)]
        );
        let mut all = ranked_first_of(&counts, 2, 5_000_000_000).0;
        all.sort_unstable();
        assert_eq!(all, [(0, 2), (1, 5), (3, 5), (4, 3)]);
        assert_eq!(ranked_first_of(&counts, 2, 1).1, 4);
        assert_eq!(ranked_first_of(&counts, 0, 1).1, 5, "min 0 is 1");
        assert_eq!(ranked_first_of(&counts, 6, 3), (vec![], 0));
        let by_doc = [2, 5, 1, 5, 3];
        assert_eq!(ranked_first_by_doc(&by_doc, 2, 3).0.len(), 3);
        assert_eq!(
            by_rank(ranked_first_by_doc(&by_doc, 2, 3).0),
            [(1, 5), (3, 5), (4, 3)]
        );
    }

    fn by_rank(mut first: Vec<(u32, u32)>) -> Vec<(u32, u32)> {
        first.sort_by_key(|&(p, n)| (std::cmp::Reverse(n), p));
        first
    }

    /// The naive ranking: every count reaching `min` (≥ 1) sorted, the
    /// first `k` taken.
    fn ranked_naively(counts: &[(u32, u32)], min: u32, k: usize) -> (Vec<(u32, u32)>, u64) {
        let reaching: Vec<(u32, u32)> = counts
            .iter()
            .copied()
            .filter(|&(_, n)| n >= min.max(1))
            .collect();
        let n = reaching.len() as u64;
        (by_rank(reaching).into_iter().take(k).collect(), n)
    }

    proptest::proptest! {
        /// Ranked a block at a time, counts rank as a sort of them all
        /// does: the same first `k` (ties on the lower doc) and the same
        /// number reaching `min`, over blocks skipped, partly and wholly
        /// taken; by doc, the same as pairs of every doc.
        #[test]
        fn ranking_by_blocks_is_sorting_them_all(
            raw in proptest::collection::vec((1u32..4, 0u32..40), 0..1200),
            min in 0u32..12,
            k in 0usize..60,
        ) {
            let mut p = 0;
            let counts: Vec<(u32, u32)> = raw
                .iter()
                .map(|&(gap, n)| {
                    p += gap;
                    (p, n)
                })
                .collect();
            let (first, reaching) = ranked_first_of(&counts, min, k);
            let (want, want_reaching) = ranked_naively(&counts, min, k);
            proptest::prop_assert_eq!(reaching, want_reaching);
            proptest::prop_assert_eq!(by_rank(first), want);
            let by_doc: Vec<u32> = raw.iter().map(|&(_, n)| n).collect();
            let every: Vec<(u32, u32)> = (0..).zip(by_doc.iter().copied()).collect();
            let (first, reaching) = ranked_first_by_doc(&by_doc, min, k);
            let (want, want_reaching) = ranked_naively(&every, min, k);
            proptest::prop_assert_eq!(reaching, want_reaching);
            proptest::prop_assert_eq!(by_rank(first), want);
        }
    }
}
