//! Checkpoints: where each source's ascending target list crosses fixed
//! target boundaries, so that its run within a block of targets (deals of
//! a date range: deal doc ids follow the date) is found with two reads of
//! a table and a short search between neighbouring checkpoints, instead
//! of two binary searches over the whole list. A binary search is a
//! chain of dependent loads; the table's rows are read in source order,
//! so counting every firm's deals in a block streams through them.
//!
//! | field | content |
//! |---|---|
//! | `shift` | boundary `k` is target `k << shift` |
//! | `positions[k * sources + s]` | how many of source `s`'s targets lie below boundary `k`, `k` in `0..rows` |
//!
//! `rows << shift` exceeds every target, so a target past the last
//! boundary is past every target. The step is chosen so that there are
//! about [`ROWS`] boundaries: memory is four bytes per source per row
//! (the 50,000 firms of M: 20 rows, 4 MB, derived in 26 ms; about 48 MB
//! for the 500,000 firms of 1e7).
//!
//! Derived in memory on first use (one pass over the relation's targets),
//! then kept; the index format does not change.

use std::ops::Range;

use super::relation::Edges;

/// About how many boundaries split the targets (between half and all of it).
const ROWS: u32 = 32;

/// The checkpoints of one relation (see the module doc).
#[derive(Debug)]
pub struct Checkpoints {
    shift: u32,
    rows: usize,
    sources: usize,
    positions: Vec<u32>,
}

impl Checkpoints {
    /// The checkpoints of `edges` over `sources` sources.
    pub fn derive(edges: &Edges, sources: usize) -> Checkpoints {
        let ends = (0..sources as u32).map(|s| edges.targets(s).last().map_or(0, |&t| t + 1));
        let universe = ends.max().unwrap_or(0);
        let shift = (universe / ROWS)
            .max(1)
            .next_power_of_two()
            .trailing_zeros();
        let rows = (universe >> shift) as usize + 1;
        let mut positions = vec![0u32; rows * sources];
        for s in 0..sources {
            let targets = edges.targets(s as u32);
            for (k, slot) in positions.iter_mut().skip(s).step_by(sources).enumerate() {
                *slot = targets.partition_point(|&t| t < (k as u32) << shift) as u32;
            }
        }
        Checkpoints {
            shift,
            rows,
            sources,
            positions,
        }
    }

    /// How many of `targets` (source `source`'s, ascending) lie below `x`.
    #[inline]
    pub fn rank(&self, source: u32, targets: &[u32], x: u32) -> usize {
        let k = (x >> self.shift) as usize;
        if k >= self.rows {
            return targets.len();
        }
        let at = |k: usize| self.positions[k * self.sources + source as usize] as usize;
        let lo = at(k);
        let hi = if k + 1 < self.rows {
            at(k + 1)
        } else {
            targets.len()
        };
        lo + targets[lo..hi].partition_point(|&t| t < x)
    }

    /// The positions of `targets` (source `source`'s, ascending) within `block`.
    #[inline]
    pub fn run(&self, source: u32, targets: &[u32], block: &Range<u32>) -> Range<usize> {
        let start = self.rank(source, targets, block.start);
        start..self.rank(source, targets, block.end).max(start)
    }

    pub fn heap_bytes(&self) -> usize {
        self.positions.capacity() * 4
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::relation::TestArrays;
    use proptest::prelude::*;

    proptest! {
        /// A source's run within any block holds exactly its targets in
        /// the block, whatever the spread of the targets.
        #[test]
        fn runs_hold_the_targets_within(
            lists in proptest::collection::vec(
                proptest::collection::btree_set(0u32..5_000, 0..80), 0..12),
            blocks in proptest::collection::vec((0u32..5_200, 0u32..5_200), 1..8),
        ) {
            let arrays = TestArrays::of(lists.iter().map(|l| l.iter().map(|&t| (t, 0))));
            let edges = arrays.bare_edges();
            let checkpoints = Checkpoints::derive(&edges, lists.len());
            for (s, list) in lists.iter().enumerate() {
                let list: Vec<u32> = list.iter().copied().collect();
                for &(lo, len) in &blocks {
                    let block = lo..lo.saturating_add(len);
                    let want: Vec<u32> = list.iter().copied().filter(|t| block.contains(t)).collect();
                    let run = checkpoints.run(s as u32, &list, &block);
                    prop_assert_eq!(&list[run], &want[..]);
                }
            }
        }
    }
}
