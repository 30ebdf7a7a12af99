//! Where a deal set lies in doc-id order. Deal doc ids follow the date, so
//! a deal set with a date range lies within one stretch of doc ids (its
//! span), and a lone date range is that whole stretch (a block). An
//! entity's deals are stored ascending, so those within a span are one
//! run, found by at most two binary searches: the entity side reads only
//! that run, and tests nothing at all against a block (every deal of the
//! run is in it; `dense::Block`).
//!
//! How densely a set fills the stretches it lies in sets the cost of
//! walking it: each chunk of 65,536 doc ids (a roaring container's share
//! of the id space) is counted (`chunk_counts`), and a walk is priced
//! chunk by chunk, at a cost per doc id that grows as its share of the
//! chunk shrinks (`walk_ns`): a date range's deals fill their chunks, an
//! industry's are spread thinly over all of them.

use std::ops::Range;

use roaring::RoaringBitmap;

/// The doc ids `min..max + 1` of `d`; `None` when it is empty.
pub fn span_of(d: &RoaringBitmap) -> Option<Range<u32>> {
    Some(d.min()?..d.max()? + 1)
}

/// Doc ids in a chunk: the share of the id space one roaring container
/// holds.
pub const CHUNK: u64 = 1 << 16;

/// (length, how many of `d`'s doc ids) of each chunk of `0..limit`.
pub fn chunk_counts(d: &RoaringBitmap, limit: u32) -> impl Iterator<Item = (u64, u64)> + '_ {
    let limit = u64::from(limit);
    (0..limit.div_ceil(CHUNK)).map(move |i| {
        let (start, end) = (i * CHUNK, ((i + 1) * CHUNK).min(limit));
        // Counted up to the next chunk's first id, then that id taken off:
        // a whole container is then counted by its length, not ranked (a
        // bitmap container's rank adds up its 1,024 words).
        let (start, end) = (start as u32, end as u32);
        let n = d.range_cardinality(start..=end) - u64::from(d.contains(end));
        (u64::from(end - start), n)
    })
}

/// The cost of walking the doc ids counted in `chunks` ((length, how
/// many), as [`chunk_counts`] gives), each at `per_id` of the share of
/// its chunk walked: a walk reads fewer ids per cache line and per page
/// the more thinly they are spread.
pub fn walk_ns(chunks: impl Iterator<Item = (u64, u64)>, per_id: fn(f64) -> u64) -> u64 {
    let chunk_ns = |(len, n): (u64, u64)| n * per_id(n as f64 / len.max(1) as f64);
    chunks.map(chunk_ns).sum()
}

/// `d` as one block of doc ids `lo..hi`, when it is one (a lone date
/// range: deal doc ids follow the date; or every deal).
pub fn block_of(d: &RoaringBitmap) -> Option<Range<u32>> {
    span_of(d).filter(|s| s.len() as u64 == d.len())
}

/// The positions of `deals` (ascending) within `block`: a binary search
/// for each end, skipped when every deal is on that side of it (a
/// half-open date range is a block from the first or to the last deal).
pub fn run_of(deals: &[u32], block: &Range<u32>) -> Range<usize> {
    let start = match deals.first() {
        Some(&first) if first < block.start => deals.partition_point(|&d| d < block.start),
        _ => 0,
    };
    let end = match deals.last() {
        Some(&last) if last >= block.end => deals.partition_point(|&d| d < block.end),
        _ => deals.len(),
    };
    start..end.max(start)
}

/// Lists shorter than this are read whole, not searched for a span: a
/// binary search is a chain of dependent loads, and testing each of a few
/// deals against the set (which holds none outside its span) costs less.
const SEARCHED_FROM: usize = 32;

/// An entity's deals (ascending) within `span`, or all of them when they
/// are few (see [`SEARCHED_FROM`]).
pub fn cut<'a>(deals: &'a [u32], span: &Range<u32>) -> &'a [u32] {
    within(deals, &[], span).0
}

/// An entity's deals (ascending) and their payload, cut to `span` (see [`cut`]).
pub fn within<'a>(deals: &'a [u32], payload: &'a [u8], span: &Range<u32>) -> (&'a [u32], &'a [u8]) {
    if deals.len() < SEARCHED_FROM {
        return (deals, payload);
    }
    let run = run_of(deals, span);
    (&deals[run.clone()], payload.get(run).unwrap_or(&[]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// A run holds exactly the deals within the block, and a block is
        /// found exactly when the set is one.
        #[test]
        fn runs_hold_the_deals_within(
            deals in proptest::collection::btree_set(0u32..500, 0..60),
            lo in 0u32..520,
            len in 0u32..300,
        ) {
            let deals: Vec<u32> = deals.into_iter().collect();
            let block = lo..lo + len;
            let run = run_of(&deals, &block);
            let inside: Vec<u32> = deals.iter().copied().filter(|d| block.contains(d)).collect();
            prop_assert_eq!(&deals[run.clone()], &inside[..]);
            let payload: Vec<u8> = deals.iter().map(|&d| (d % 2) as u8).collect();
            let (kept, flags) = within(&deals, &payload, &block);
            let whole = deals.len() < SEARCHED_FROM;
            prop_assert_eq!(kept, if whole { &deals[..] } else { &inside[..] });
            prop_assert_eq!(flags, if whole { &payload[..] } else { &payload[run] });
            prop_assert_eq!(cut(&deals, &block), kept);
            let set: RoaringBitmap = deals.iter().copied().collect();
            let contiguous = deals.windows(2).all(|w| w[1] == w[0] + 1);
            prop_assert_eq!(block_of(&set).is_some(), !deals.is_empty() && contiguous);
        }
    }
    proptest! {
        /// Each chunk's count is the set's doc ids in it, whatever lies
        /// at or past the limit.
        #[test]
        fn chunk_counts_agree_with_a_scan(
            ids in proptest::collection::btree_set(0u32..300_000, 0..300),
            limit in 0u32..300_000,
        ) {
            let set: RoaringBitmap = ids.iter().copied().collect();
            let counts: Vec<(u64, u64)> = chunk_counts(&set, limit).collect();
            prop_assert_eq!(counts.len() as u64, u64::from(limit).div_ceil(CHUNK));
            for (i, &(len, n)) in counts.iter().enumerate() {
                let chunk = i as u64 * CHUNK..((i as u64 + 1) * CHUNK).min(u64::from(limit));
                prop_assert_eq!(len, chunk.end - chunk.start);
                let scanned = ids.iter().filter(|&&d| chunk.contains(&u64::from(d))).count();
                prop_assert_eq!(n, scanned as u64);
            }
        }
    }

    #[test]
    fn a_walk_is_priced_by_the_share_of_each_chunk_walked() {
        let limit = 10 * CHUNK as u32 + 100;
        let counts: Vec<(u64, u64)> = chunk_counts(&RoaringBitmap::new(), limit).collect();
        assert_eq!((counts.len(), counts[10]), (11, (100, 0)));
        let per_id = |share: f64| if share < 0.5 { 10 } else { 1 };
        let block: RoaringBitmap = (CHUNK as u32..3 * CHUNK as u32).collect();
        assert_eq!(walk_ns(chunk_counts(&block, limit), per_id), 2 * CHUNK);
        let every_tenth: RoaringBitmap = (0..limit).step_by(10).collect();
        let spread = walk_ns(chunk_counts(&every_tenth, limit), per_id);
        assert_eq!(spread, every_tenth.len() * 10);
        assert_eq!(
            walk_ns(chunk_counts(&RoaringBitmap::new(), limit), per_id),
            0
        );
    }
}
