//! `/people` by `min_matching_deals` over a broad set of deals D, without
//! every candidate's exact count.
//!
//! Counting each investor's deals in D reads every list whole (4.3 million
//! participations at M, about 10 ms). Whether a person has at least `m`
//! deals in D needs only their lists up to the `m`-th deal in D: when D is
//! broad that is a few deals per person, read a chunk at a time
//! ([`DealSet::reaches`]). The kept people are then exact; exact counts are
//! needed only for the order by filtered deal count, and only for its first
//! `k` people (the page and those before it). Those are found along the
//! sort order of an upper bound of the count (`total_deal_count`, or
//! `lead_deal_count` when only led deals count: every deal of a person, so
//! no count in D exceeds it), counting people until the bound falls below
//! the `k`-th count found; the people left cannot overtake it.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use roaring::RoaringBitmap;

use crate::index::docs::docs;
use crate::index::{Index, IndexError};

use super::dense::{DealSet, CHUNK};
use super::person_deals::DealRules;
use super::tally::Sides;

/// Deciding a person against a block: their lists' bounds, a search at
/// most, and the `m`-th deal from the block's start (at M, about 4.5 ms
/// for 243,000 investors, 2026-11-29).
const BLOCK_PERSON_NS: u64 = 18;

/// Deciding a person against a bitset, besides the deals read: their
/// lists' bounds and a branch per chunk (at M, about 5.5 ms for 243,000
/// investors reading 1.4 million deals, 2026-11-29).
const PERSON_NS: u64 = 10;

/// Estimated cost of [`people_reaching`] for `candidates` people with
/// `edges` deals in all, over `d` of the `all` deals (`block` when they
/// form one): a person reads about `m` / density of their deals, a chunk
/// at least, their whole lists at most; a bitset costs its bits too.
pub fn reaching_ns(
    sides: &Sides,
    (d, all, block): (u64, u64, bool),
    m: u32,
    (candidates, edges): (u64, u64),
) -> u64 {
    if block {
        return candidates * BLOCK_PERSON_NS;
    }
    let per_person = (u64::from(m) * all / d.max(1)).max(CHUNK as u64);
    let read = edges.min(candidates.saturating_mul(per_person));
    candidates * PERSON_NS + sides.entity_ns(d, read)
}

/// The `candidates` with at least `m` counted deals in `set`.
pub fn people_reaching(
    index: &Index,
    rules: &DealRules,
    set: &(impl DealSet + ?Sized),
    candidates: &RoaringBitmap,
    m: u32,
) -> Result<RoaringBitmap, IndexError> {
    let (angel_rel, partner_rel) = (
        index.people.relation("angel_deals")?,
        index.people.relation("partner_deals")?,
    );
    let (angel, partner) = (angel_rel.edges(), partner_rel.edges());
    let keep = docs(candidates).filter(|&p| rules.reaches(set, &angel, &partner, p, m));
    Ok(RoaringBitmap::from_sorted_iter(keep).unwrap_or_default())
}

/// Ranking entries: more deals first, then the lower doc id (the order of
/// `sort::page_by_keys`); the heap's top is the worst kept.
type Ranked = (Reverse<u32>, u32);

/// The first `k` of `people` by counted deals in `set` (descending, ties
/// by doc id), with their counts; `None` when the bound's order was read
/// past `budget` positions without the bound falling below the `k`-th
/// count (the counts are then small and spread: count every person).
pub fn first_by_count(
    index: &Index,
    rules: &DealRules,
    set: &(impl DealSet + ?Sized),
    people: &RoaringBitmap,
    (k, budget): (usize, usize),
) -> Result<Option<Vec<(u32, u32)>>, IndexError> {
    if k == 0 {
        return Ok(Some(Vec::new()));
    }
    let bound_name = if rules.only_lead {
        "lead_deal_count"
    } else {
        "total_deal_count"
    };
    let (bound, order) = (
        index.people.column_i32(bound_name)?,
        index.people.sort_order(bound_name)?,
    );
    let (angel_rel, partner_rel) = (
        index.people.relation("angel_deals")?,
        index.people.relation("partner_deals")?,
    );
    let (angel, partner) = (angel_rel.edges(), partner_rel.edges());
    let mut best: BinaryHeap<Ranked> = BinaryHeap::with_capacity(k + 1);
    let mut seen = 0;
    for (read, &p) in order.non_null().iter().rev().enumerate() {
        let most = bound.get(p).unwrap_or(0).max(0) as u32;
        if best.len() == k && best.peek().is_some_and(|&(Reverse(n), _)| most < n) {
            return Ok(Some(ranked(best)));
        }
        if read >= budget {
            return Ok(None);
        }
        if people.contains(p) {
            seen += 1;
            let n = rules.count(set, &angel, &partner, p).deals;
            best.push((Reverse(n), p));
            if best.len() > k {
                best.pop();
            }
        }
    }
    // Every person with a bound was read: the others have no deal.
    Ok((seen == people.len()).then(|| ranked(best)))
}

fn ranked(best: BinaryHeap<Ranked>) -> Vec<(u32, u32)> {
    best.into_iter().map(|(Reverse(n), p)| (p, n)).collect()
}
