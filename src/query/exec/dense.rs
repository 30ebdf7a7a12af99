//! Deal sets for counting from the entities' side: a flat bitset, or one
//! block of doc ids (a lone date range, see `span`), tested by comparison.
//!
//! Counting each firm's or person's deals in a broad set D walks either D
//! (each deal's participants, one random counter update per edge: a cache
//! miss once the entities' counters outgrow the cache) or the entities'
//! own deal lists (each read in order, one membership test per edge). A
//! roaring `contains` costs a container search per test; one bit in a flat
//! array of `deals / 8` bytes (312 KB at 2.5 million deals, within L2) is a
//! load and a mask, so the entity side's edges cost a few nanoseconds each,
//! whatever D is.

use std::ops::Range;

use roaring::RoaringBitmap;

use crate::index::docs::docs;

use super::span::{cut, run_of, span_of};
use super::words::set_bits;

/// Docs tested between two checks of [`DealSet::reaches`]: enough to
/// keep the loads independent, few enough to stop soon after the `m`-th.
pub const CHUNK: usize = 8;

/// A set of deals that the entity side tests its edges against, and the
/// counts every way of testing shares. `span` bounds the set: an entity's
/// deals (ascending) outside it are skipped without a test (see
/// `span::run_of`).
pub trait DealSet {
    fn contains(&self, d: u32) -> bool;

    /// 1 when `d` is in the set, else 0 (for sums without branches).
    #[inline]
    fn hit(&self, d: u32) -> u32 {
        u32::from(self.contains(d))
    }

    /// The doc ids `lo..hi` outside which no deal of the set lies.
    fn span(&self) -> Range<u32>;

    /// How many of `docs` are in the set.
    #[inline]
    fn count_in(&self, docs: &[u32]) -> u32 {
        docs.iter().map(|&d| self.contains(d) as u32).sum()
    }

    /// How many of an entity's deals (ascending) are in the set: only
    /// those within the span are read (see `span::cut`).
    #[inline]
    fn count_sorted(&self, deals: &[u32]) -> u32 {
        self.count_in(cut(deals, &self.span()))
    }

    /// Whether at least `m` of `docs` are in the set: tested a chunk at a
    /// time without branching, stopping after the chunk that reaches `m`
    /// (see `at_least`).
    #[inline]
    fn reaches(&self, docs: &[u32], m: u32) -> bool {
        let mut hits = 0;
        for chunk in docs.chunks(CHUNK) {
            hits += self.count_in(chunk);
            if hits >= m {
                return true;
            }
        }
        false
    }

    /// [`DealSet::reaches`] counting only the docs with a non-zero byte in
    /// `flags` (the edge payload aligned with `docs`).
    #[inline]
    fn reaches_flagged(&self, docs: &[u32], flags: &[u8], m: u32) -> bool {
        let mut hits = 0;
        for (chunk, flags) in docs.chunks(CHUNK).zip(flags.chunks(CHUNK)) {
            hits += self.count_flagged(chunk, flags).1;
            if hits >= m {
                return true;
            }
        }
        false
    }

    /// [`DealSet::reaches`] over the union of two ascending lists, a doc in
    /// both counted once: both read a chunk at a time, and once their hits
    /// add up to `m` the union of what was read is counted exactly (the
    /// lists seldom share a doc).
    fn reaches_union(&self, first: &[u32], second: &[u32], m: u32) -> bool {
        let (mut i, mut j, mut hits) = (0, 0, 0);
        while i < first.len() || j < second.len() {
            let (next_i, next_j) = ((i + CHUNK).min(first.len()), (j + CHUNK).min(second.len()));
            hits += self.count_in(&first[i..next_i]) + self.count_in(&second[j..next_j]);
            (i, j) = (next_i, next_j);
            if hits >= m && self.count_union(&first[..i], &second[..j]) >= m {
                return true;
            }
        }
        false
    }

    /// How many of `docs` are in the set, and how many of those have a
    /// non-zero byte in `flags` (the edge payload aligned with `docs`).
    #[inline]
    fn count_flagged(&self, docs: &[u32], flags: &[u8]) -> (u32, u32) {
        docs.iter().zip(flags).fold((0, 0), |(n, f), (&d, &b)| {
            let hit = self.contains(d) as u32;
            (n + hit, f + hit * (b != 0) as u32)
        })
    }

    /// How many of `docs` are in the set, and how many of those are in
    /// `marked` with a non-zero byte in `flags` (aligned with `marked`);
    /// both lists ascending.
    fn count_marked(&self, docs: &[u32], marked: &[u32], flags: &[u8]) -> (u32, u32) {
        let (mut j, mut n, mut f) = (0, 0, 0);
        for &d in docs.iter().filter(|&&d| self.contains(d)) {
            n += 1;
            j += marked[j..].partition_point(|&m| m < d);
            let flagged = marked.get(j) == Some(&d) && flags.get(j).is_some_and(|&b| b != 0);
            f += flagged as u32;
        }
        (n, f)
    }

    /// How many docs of the union of two ascending lists are in the set,
    /// a doc in both counted once.
    fn count_union(&self, first: &[u32], second: &[u32]) -> u32 {
        let (mut i, mut j, mut n) = (0, 0, 0);
        while i < first.len() && j < second.len() {
            let (a, b) = (first[i], second[j]);
            n += self.contains(a.min(b)) as u32;
            i += (a <= b) as usize;
            j += (b <= a) as usize;
        }
        n + self.count_in(&first[i..]) + self.count_in(&second[j..])
    }

    /// [`DealSet::count_flagged`] over the union of two ascending lists,
    /// a doc in both counted once (flagged from the second list's flags).
    fn count_merged(&self, first: &[u32], second: &[u32], flags: &[u8]) -> (u32, u32) {
        let (mut i, mut j, mut n, mut f) = (0, 0, 0, 0);
        while i < first.len() && j < second.len() {
            if first[i] < second[j] {
                n += self.contains(first[i]) as u32;
                i += 1;
                continue;
            }
            i += (first[i] == second[j]) as usize;
            let hit = self.contains(second[j]) as u32;
            n += hit;
            f += hit * (flags.get(j).is_some_and(|&b| b != 0)) as u32;
            j += 1;
        }
        let rest = self.count_flagged(&second[j..], flags.get(j..).unwrap_or(&[]));
        (n + self.count_in(&first[i..]) + rest.0, f + rest.1)
    }
}

/// Measured at M on this machine, 2026-12-04 (best of 30, D spread
/// evenly): building a [`DenseSet`] costs about 0.5 ns a word (19 µs for
/// 2.5 million deals), and 1.8–1.9 ns a doc id held in an array container
/// (a chunk with at most [`ARRAY_MAX`] of them: 48 µs for 1 in 100 deals,
/// 138 µs for 3 in 100); a bitmap container is copied whole, for next to
/// nothing (19–21 µs from 1 in 10 deals to all of them).
const WORD_PS: u64 = 500;
const ARRAY_ID_PS: u64 = 1_900;

/// The most doc ids a roaring array container holds.
const ARRAY_MAX: u64 = 4096;

/// A set of doc ids below `limit`, one bit each.
pub struct DenseSet {
    words: Vec<u64>,
    span: Range<u32>,
}

impl DenseSet {
    /// `set` as bits; doc ids at or past `limit` are dropped. The bits are
    /// copied container by container ([`set_bits`]); one doc at a time only
    /// should its serialized form not be read.
    pub fn of(set: &RoaringBitmap, limit: u32) -> DenseSet {
        let mut words = vec![0u64; (limit as usize).div_ceil(64)];
        if set_bits(set, &mut words).is_none() {
            words.fill(0);
            docs(set).take_while(|&d| d < limit).for_each(|d| {
                words[(d / 64) as usize] |= 1 << (d % 64);
            });
        }
        if let (Some(last), 1..) = (words.last_mut(), limit % 64) {
            *last &= (1 << (limit % 64)) - 1;
        }
        let span = span_of(set).map_or(0..0, |s| s.start.min(limit)..s.end.min(limit));
        DenseSet { words, span }
    }

    /// Estimated cost of [`DenseSet::of`] for a set whose counts per chunk
    /// of doc ids below `limit` are `chunks` ([`chunk_counts`]).
    pub fn of_ns(chunks: &[(u64, u64)], limit: u32) -> u64 {
        let in_arrays: u64 = chunks.iter().map(|c| c.1).filter(|&n| n <= ARRAY_MAX).sum();
        (u64::from(limit).div_ceil(64) * WORD_PS + in_arrays * ARRAY_ID_PS) / 1000
    }
}

impl DealSet for DenseSet {
    #[inline]
    fn contains(&self, d: u32) -> bool {
        self.words
            .get((d / 64) as usize)
            .is_some_and(|w| w & (1 << (d % 64)) != 0)
    }

    #[inline]
    fn hit(&self, d: u32) -> u32 {
        let word = self.words.get((d / 64) as usize).copied().unwrap_or(0);
        ((word >> (d % 64)) & 1) as u32
    }

    fn span(&self) -> Range<u32> {
        self.span.clone()
    }
}

/// One block of deal doc ids as a [`DealSet`]: membership is a comparison.
pub struct Block(pub Range<u32>);

impl DealSet for Block {
    #[inline]
    fn contains(&self, d: u32) -> bool {
        self.0.contains(&d)
    }

    /// The run within the block, found by binary search: nothing tested.
    #[inline]
    fn count_sorted(&self, deals: &[u32]) -> u32 {
        run_of(deals, &self.0).len() as u32
    }

    /// The first doc at or past the block's start, and the `m`-th from it
    /// before its end: no search when the list starts within the block,
    /// one otherwise.
    #[inline]
    fn reaches(&self, docs: &[u32], m: u32) -> bool {
        let Some(last) = (m as usize).checked_sub(1) else {
            return true;
        };
        let first = match docs.first() {
            Some(&d) if d < self.0.start => docs.partition_point(|&d| d < self.0.start),
            _ => 0,
        };
        docs.get(first + last).is_some_and(|&d| d < self.0.end)
    }

    /// Each list's run within the block: either run alone may reach `m`;
    /// otherwise the two short runs are merged.
    fn reaches_union(&self, first: &[u32], second: &[u32], m: u32) -> bool {
        let (first, second) = (
            &first[run_of(first, &self.0)],
            &second[run_of(second, &self.0)],
        );
        let m = m as usize;
        match (
            first.len().max(second.len()) >= m,
            first.len() + second.len() >= m,
        ) {
            (true, _) => true,
            (_, false) => false,
            _ => self.count_union(first, second) as usize >= m,
        }
    }

    fn span(&self) -> Range<u32> {
        self.0.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Membership and counts equal the roaring set's, below `limit`.
        #[test]
        fn agrees_with_the_roaring_set(
            docs in proptest::collection::btree_set(0u32..5_000, 0..600),
            probe in proptest::collection::vec(0u32..5_200, 0..200),
            limit in 0u32..5_100,
        ) {
            let set: RoaringBitmap = docs.iter().copied().collect();
            let dense = DenseSet::of(&set, limit);
            let expect = |d: &u32| *d < limit && set.contains(*d);
            for d in &probe {
                prop_assert_eq!(dense.contains(*d), expect(d));
            }
            let flags: Vec<u8> = probe.iter().map(|d| (d % 3 == 0) as u8).collect();
            let hits = probe.iter().filter(|d| expect(d)).count() as u32;
            let flagged = probe.iter().filter(|d| expect(d) && *d % 3 == 0).count() as u32;
            prop_assert_eq!(dense.count_in(&probe), hits);
            let block = Block(limit / 2..limit);
            let in_block = probe.iter().filter(|d| (limit / 2..limit).contains(*d)).count();
            prop_assert_eq!(block.count_in(&probe), in_block as u32);
            let mut sorted = probe.clone();
            sorted.sort_unstable();
            sorted.dedup();
            let in_dense = sorted.iter().filter(|d| expect(d)).count() as u32;
            prop_assert_eq!(dense.count_sorted(&sorted), in_dense);
            let in_block = sorted.iter().filter(|d| (limit / 2..limit).contains(*d)).count();
            prop_assert_eq!(block.count_sorted(&sorted), in_block as u32);
            prop_assert_eq!(dense.count_flagged(&probe, &flags), (hits, flagged));
        }

        /// A merged count equals counting the distinct union, a doc flagged
        /// when the second list flags it; a marked count counts the first
        /// list, a doc flagged when the second list flags it.
        #[test]
        fn merged_counts_count_the_union_once(
            docs in proptest::collection::btree_set(0u32..400, 0..200),
            first in proptest::collection::btree_set(0u32..400, 0..80),
            second in proptest::collection::btree_map(0u32..400, any::<bool>(), 0..80),
        ) {
            let set: RoaringBitmap = docs.iter().copied().collect();
            let dense = DenseSet::of(&set, 400);
            let first: Vec<u32> = first.into_iter().collect();
            let (ids, flags): (Vec<u32>, Vec<u8>) =
                second.iter().map(|(&d, &f)| (d, f as u8)).unzip();
            let union: std::collections::BTreeSet<u32> =
                first.iter().chain(&ids).copied().filter(|d| set.contains(*d)).collect();
            let flagged = second.iter().filter(|(d, f)| **f && set.contains(**d)).count();
            prop_assert_eq!(dense.count_union(&first, &ids), union.len() as u32);
            prop_assert_eq!(
                dense.count_merged(&first, &ids, &flags),
                (union.len() as u32, flagged as u32)
            );
            let in_first: Vec<&u32> = first.iter().filter(|d| set.contains(**d)).collect();
            let marked = in_first.iter().filter(|d| second.get(d) == Some(&true)).count();
            prop_assert_eq!(
                dense.count_marked(&first, &ids, &flags),
                (in_first.len() as u32, marked as u32)
            );
        }

        /// Reaching `m` agrees with counting, for a bitset and a block: over
        /// one list, its flagged docs, and the union of two lists sharing
        /// some docs (a shared doc counted once).
        #[test]
        fn reaching_agrees_with_counting(
            docs in proptest::collection::btree_set(0u32..400, 0..300),
            first in proptest::collection::btree_set(0u32..400, 0..80),
            second in proptest::collection::btree_map(0u32..400, any::<bool>(), 0..80),
            m in 1u32..40,
        ) {
            let set: RoaringBitmap = docs.iter().copied().collect();
            let first: Vec<u32> = first.into_iter().collect();
            let (ids, flags): (Vec<u32>, Vec<u8>) =
                second.iter().map(|(&d, &f)| (d, f as u8)).unzip();
            let dense = DenseSet::of(&set, 400);
            prop_assert_eq!(dense.reaches(&first, m), dense.count_sorted(&first) >= m);
            let flagged = dense.count_flagged(&ids, &flags).1;
            prop_assert_eq!(dense.reaches_flagged(&ids, &flags, m), flagged >= m);
            let union = dense.count_union(&first, &ids);
            prop_assert_eq!(dense.reaches_union(&first, &ids, m), union >= m);
            let block = Block(100..300);
            prop_assert_eq!(block.reaches(&first, m), block.count_in(&first) >= m);
            let union = block.count_union(&first, &ids);
            prop_assert_eq!(block.reaches_union(&first, &ids, m), union >= m);
        }
    }
}
