//! Per-entity counts of deals by size bucket, derived in memory (never
//! stored): what a lone size range over deals counts per investor without
//! a pass over every investor's deals.
//!
//! The deals with a size are split, in ascending size, into up to
//! [`BUCKETS`] buckets of about equal numbers of deals; a size never
//! straddles two buckets, so each bucket is a range of sizes
//! ([`SizeBuckets::bounds`]) and the buckets are disjoint and ordered.
//!
//! For the entities with a column entry (doc ids `0..dense`: the people
//! with a dated deal come first), `below` holds, bucket-major, each
//! entity's counted participations in the buckets before each bucket
//! (`below[b * dense + e]`, for `b` in `0..=buckets`): the count over the
//! buckets `lo..hi` is `below(hi)[e] - below(lo)[e]`, two arrays read in
//! order. The entities past `dense` are listed per bucket instead, once
//! per counted participation (`beyond`). Counts are `u16`: an entity with
//! more counted participations fails the derivation, and the queries that
//! would read it count another way.
//!
//! One participation is one deal-side edge (one per entity and deal) whose
//! payload passes the `counted` test the counts were derived with.

use std::ops::Range;

use roaring::RoaringBitmap;

use super::relation::Edges;
use super::IndexError;

/// Most buckets: at M (2.3 million sized deals), about 36,000 deals each,
/// and 64 × 242,000 `u16` (31 MB) per set of counts.
pub const BUCKETS: usize = 64;

pub struct SizeBuckets {
    /// Each bucket's smallest and largest size, ascending.
    bounds: Vec<(i64, i64)>,
    /// Each bucket's deals.
    deals: Vec<RoaringBitmap>,
    /// Entities with a column entry.
    dense: usize,
    /// Bucket-major cumulative counts (see the module doc).
    below: Vec<u16>,
    /// Per bucket, the entities past `dense`, once per counted participation.
    beyond: Vec<Vec<u32>>,
}

/// The buckets a size range covers: those wholly inside it (a run), and
/// those it only partly covers (at most one at each end).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Covered {
    pub whole: Range<usize>,
    pub partial: Vec<usize>,
}

impl SizeBuckets {
    /// Derives the buckets of `by_size` (the deals with a size, ascending
    /// by size; `sizes` is the size column) and the counts of `deal_side`
    /// (each deal's edges to entities) whose payload is `counted`.
    pub fn derive(
        by_size: &[u32],
        sizes: &[i64],
        deal_side: &Edges<'_>,
        (dense, counted): (usize, fn(u8) -> bool),
    ) -> Result<SizeBuckets, IndexError> {
        let size_of = |d: u32| sizes.get(d as usize).copied();
        let cuts = cuts(by_size, size_of)?;
        let mut buckets = SizeBuckets {
            bounds: Vec::new(),
            deals: Vec::new(),
            dense,
            below: vec![0; dense],
            beyond: Vec::new(),
        };
        let mut running = vec![0u32; dense];
        for cut in cuts {
            let deals = &by_size[cut];
            let first_last = (size_of(deals[0]), size_of(deals[deals.len() - 1]));
            let (Some(lo), Some(hi)) = first_last else {
                return Err(not_derived("a deal past the size column"));
            };
            buckets.bounds.push((lo, hi));
            buckets.add_bucket(deals, deal_side, counted, &mut running)?;
        }
        Ok(buckets)
    }

    /// Counts `deals` (one bucket) into `running`, then appends its row.
    fn add_bucket(
        &mut self,
        deals: &[u32],
        deal_side: &Edges<'_>,
        counted: fn(u8) -> bool,
        running: &mut [u32],
    ) -> Result<(), IndexError> {
        let mut beyond = Vec::new();
        for &d in deals {
            let flags = deal_side.payload(d);
            for (i, &e) in deal_side.targets(d).iter().enumerate() {
                if !counted(flags.get(i).copied().unwrap_or(0)) {
                    continue;
                }
                match running.get_mut(e as usize) {
                    Some(n) => *n += 1,
                    None => beyond.push(e),
                }
            }
        }
        let row = running.iter().map(|&n| u16::try_from(n).ok());
        let row: Option<Vec<u16>> = row.collect();
        let row = row.ok_or_else(|| not_derived("an entity with over 65,535 deals"))?;
        self.below.extend(row);
        let mut sorted = deals.to_vec();
        sorted.sort_unstable();
        self.deals
            .push(RoaringBitmap::from_sorted_iter(sorted).unwrap_or_default());
        self.beyond.push(beyond);
        Ok(())
    }

    /// How many buckets there are.
    pub fn len(&self) -> usize {
        self.bounds.len()
    }

    pub fn is_empty(&self) -> bool {
        self.bounds.is_empty()
    }

    /// Each bucket's smallest and largest size.
    pub fn bounds(&self) -> &[(i64, i64)] {
        &self.bounds
    }

    /// Entities with a column entry (doc ids `0..dense`).
    pub fn dense(&self) -> usize {
        self.dense
    }

    /// Each dense entity's counted participations in the buckets before
    /// bucket `b` (`0..=len`).
    pub fn below(&self, b: usize) -> &[u16] {
        &self.below[b * self.dense..(b + 1) * self.dense]
    }

    /// Bucket `b`'s deals.
    pub fn deals(&self, b: usize) -> &RoaringBitmap {
        &self.deals[b]
    }

    /// The entities past the dense ones in buckets `whole`, once per
    /// counted participation.
    pub fn beyond(&self, whole: Range<usize>) -> impl Iterator<Item = u32> + '_ {
        self.beyond[whole].iter().flatten().copied()
    }

    /// The buckets the sizes `min..=max` cover.
    pub fn covered(&self, min: i64, max: i64) -> Covered {
        let first = self.bounds.partition_point(|&(_, hi)| hi < min);
        let end = self.bounds.partition_point(|&(lo, _)| lo <= max);
        let inside = |b: usize| {
            let (lo, hi) = self.bounds[b];
            min <= lo && hi <= max
        };
        let whole_start = (first..end).find(|&b| inside(b)).unwrap_or(end);
        let whole_end = (whole_start..end).find(|&b| !inside(b)).unwrap_or(end);
        let partial = (first..end).filter(|&b| !inside(b)).collect();
        Covered {
            whole: whole_start..whole_end.max(whole_start),
            partial,
        }
    }

    /// Heap bytes held.
    pub fn heap_bytes(&self) -> usize {
        let deals: usize = self.deals.iter().map(|d| d.serialized_size()).sum();
        let beyond: usize = self.beyond.iter().map(|b| b.len() * 4).sum();
        self.below.len() * 2 + deals + beyond + self.bounds.len() * 16
    }
}

/// The bucket boundaries of `by_size`: runs of positions of about equal
/// length, each cut where the size changes.
fn cuts(
    by_size: &[u32],
    size_of: impl Fn(u32) -> Option<i64>,
) -> Result<Vec<Range<usize>>, IndexError> {
    let target = by_size.len().div_ceil(BUCKETS).max(1);
    let mut cuts = Vec::new();
    let mut start = 0;
    let mut at = target;
    while start < by_size.len() {
        let mut end = at.min(by_size.len());
        while end < by_size.len() && size_of(by_size[end]) == size_of(by_size[end - 1]) {
            end += 1;
        }
        if size_of(by_size[end - 1]).is_none() {
            return Err(not_derived("a deal past the size column"));
        }
        cuts.push(start..end);
        start = end;
        at = end + target;
    }
    Ok(cuts)
}

fn not_derived(why: &str) -> IndexError {
    IndexError::corrupt("size buckets", why)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::relation::TestArrays;
    use proptest::prelude::*;

    fn counted(flags: u8) -> bool {
        flags & 1 != 0
    }

    proptest! {
        /// For every size range, each entity's count over the whole
        /// buckets it covers, plus the covered deals of its partial
        /// buckets walked, equals a walk over the deals in the range; the
        /// buckets are disjoint, ordered, and hold every sized deal.
        #[test]
        fn bucket_counts_agree_with_a_walk(
            sizes in proptest::collection::vec(proptest::option::of(0i64..40), 1..300),
            lists in proptest::collection::vec(
                proptest::collection::btree_map(0u32..12, 0u8..2, 0..5), 1..300),
            dense in 0usize..12,
            range in (0i64..45, 0i64..45),
        ) {
            let deals = sizes.len().min(lists.len());
            let lists: Vec<Vec<(u32, u8)>> = lists[..deals]
                .iter()
                .map(|l| l.iter().map(|(&e, &f)| (e, f)).collect())
                .collect();
            let arrays = TestArrays::of(lists.clone());
            let column: Vec<i64> = sizes[..deals].iter().map(|s| s.unwrap_or(i64::MIN)).collect();
            let mut by_size: Vec<u32> = (0..deals as u32).filter(|&d| sizes[d as usize].is_some()).collect();
            by_size.sort_by_key(|&d| (column[d as usize], d));
            let buckets = SizeBuckets::derive(&by_size, &column, &arrays.edges(), (dense, counted)).unwrap();
            prop_assert!(buckets.bounds().windows(2).all(|w| w[0].1 < w[1].0));
            let held: u64 = (0..buckets.len()).map(|b| buckets.deals(b).len()).sum();
            prop_assert_eq!(held, by_size.len() as u64);
            let (min, max) = (range.0.min(range.1), range.0.max(range.1));
            let covered = buckets.covered(min, max);
            let mut by_buckets = vec![0u32; 12];
            for e in 0..dense.min(12) {
                let (lo, hi) = (buckets.below(covered.whole.start), buckets.below(covered.whole.end));
                by_buckets[e] = u32::from(hi[e] - lo[e]);
            }
            for e in buckets.beyond(covered.whole.clone()) {
                by_buckets[e as usize] += 1;
            }
            let in_range = |d: u32| (min..=max).contains(&column[d as usize]);
            for &b in &covered.partial {
                for d in buckets.deals(b).iter().filter(|&d| in_range(d)) {
                    for &(e, f) in &lists[d as usize] {
                        by_buckets[e as usize] += u32::from(counted(f));
                    }
                }
            }
            let mut walked = vec![0u32; 12];
            for d in (0..deals as u32).filter(|&d| sizes[d as usize].is_some() && in_range(d)) {
                for &(e, f) in &lists[d as usize] {
                    walked[e as usize] += u32::from(counted(f));
                }
            }
            prop_assert_eq!(by_buckets, walked);
            prop_assert!(covered.partial.len() <= 2);
        }
    }
}
