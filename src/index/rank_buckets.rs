//! [`RankBuckets`]: each doc's position in its column's sort order, cut to
//! one byte. Derived in memory from the sort order (one pass), never
//! written: the index format does not change.
//!
//! The non-null part of a sort order (positions `0..m`, ascending by value)
//! is cut into [`BUCKETS`] buckets of `width = ⌈m / BUCKETS⌉` consecutive
//! positions; `of_doc[d]` is the bucket of doc `d`'s position, or
//! [`NO_BUCKET`] when `d` has no value. A range located in the order as
//! positions `s..e` is then the docs of the buckets lying wholly inside
//! `s..e` (one byte compared per doc, sequentially: a sixteenth of an i64
//! column's bytes read) plus the positions of the at most two buckets it
//! cuts (at most `2 × width` doc ids read from the order). Buckets are cut
//! by position, not by value, so equal values on both sides of a cut are
//! still split exactly.
//!
//! Cost: one byte a doc of memory per column used this way (25 MB for a
//! column of 25 million deals).

use std::ops::Range;

use super::bits::bits_where;

/// Buckets of positions; one byte value is left for docs without a value.
pub const BUCKETS: usize = 255;
/// The bucket of docs without a value.
pub const NO_BUCKET: u8 = u8::MAX;

/// Each doc's bucket of sort-order position (see the module docs).
#[derive(Clone)]
pub struct RankBuckets {
    width: usize,
    of_doc: Box<[u8]>,
}

/// A slice of sort-order positions, as whole buckets and the positions of
/// the buckets it cuts.
#[derive(Debug, PartialEq, Eq)]
pub struct Split {
    /// Buckets lying wholly inside the slice (empty when none does).
    pub whole: Range<u8>,
    /// Positions before the first whole bucket.
    pub head: Range<usize>,
    /// Positions after the last whole bucket.
    pub tail: Range<usize>,
}

impl RankBuckets {
    /// Buckets of `docs` docs whose non-null sort order is `non_null`.
    pub fn derive(non_null: &[u32], docs: usize) -> RankBuckets {
        let width = RankBuckets::width_for(non_null.len());
        let mut of_doc = vec![NO_BUCKET; docs].into_boxed_slice();
        for (bucket, ids) in non_null.chunks(width).enumerate() {
            ids.iter().for_each(|&d| of_doc[d as usize] = bucket as u8);
        }
        RankBuckets { width, of_doc }
    }

    /// Positions per bucket of an order of `non_null` docs with a value.
    pub fn width_for(non_null: usize) -> usize {
        non_null.div_ceil(BUCKETS).max(1)
    }

    /// Positions per bucket.
    pub fn width(&self) -> usize {
        self.width
    }

    /// `positions` as the whole buckets inside it and the cut positions.
    pub fn split(&self, positions: Range<usize>) -> Split {
        let first = positions.start.div_ceil(self.width);
        let end = (positions.end / self.width).max(first);
        if first == end {
            return Split {
                whole: 0..0,
                head: positions.clone(),
                tail: positions.end..positions.end,
            };
        }
        Split {
            whole: first as u8..end as u8,
            head: positions.start..first * self.width,
            tail: end * self.width..positions.end,
        }
    }

    /// One bit per doc of `from..=to` (least significant first, starting
    /// at `from`): whether its bucket lies in `whole`.
    pub fn bits(&self, whole: Range<u8>, from: usize, to: usize) -> Vec<u8> {
        let (first, count) = (whole.start, whole.end.wrapping_sub(whole.start));
        bits_where(&self.of_doc[from..=to], |b| b.wrapping_sub(first) < count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An order over `docs` docs where every third doc has no value.
    fn order(docs: u32) -> Vec<u32> {
        (0..docs).rev().filter(|d| d % 3 != 0).collect()
    }

    #[test]
    fn buckets_follow_positions_and_nulls_have_none() {
        let order = order(3000);
        let b = RankBuckets::derive(&order, 3000);
        assert_eq!(b.width(), 2000usize.div_ceil(BUCKETS));
        for (p, &d) in order.iter().enumerate() {
            assert_eq!(b.of_doc[d as usize] as usize, p / b.width());
        }
        assert!((0..3000).step_by(3).all(|d| b.of_doc[d] == NO_BUCKET));
        let small = RankBuckets::derive(&[2, 0], 4);
        assert_eq!(
            (small.width(), &small.of_doc[..]),
            (1, &[1, NO_BUCKET, 0, NO_BUCKET][..])
        );
    }

    /// The whole buckets and the cut positions partition the slice.
    #[test]
    fn a_split_covers_the_slice_exactly() {
        let b = RankBuckets::derive(&order(3000), 3000);
        let w = b.width();
        for slice in [
            0..2000,
            0..0,
            5..6,
            w..2 * w,
            w - 1..3 * w + 1,
            3..2000,
            7..w + 3,
        ] {
            let s = b.split(slice.clone());
            let wholes = (s.whole.start as usize * w)..(s.whole.end as usize * w);
            let mut covered: Vec<usize> = s.head.clone().chain(s.tail.clone()).collect();
            if !s.whole.is_empty() {
                assert_eq!((s.head.end, s.tail.start), (wholes.start, wholes.end));
                covered.extend(wholes);
            }
            covered.sort_unstable();
            assert_eq!(covered, slice.clone().collect::<Vec<_>>(), "{slice:?}");
            assert!(s.head.len() < w && s.tail.len() < w || s.whole.is_empty());
        }
    }

    #[test]
    fn bits_mark_the_docs_of_whole_buckets() {
        let order = order(3000);
        let b = RankBuckets::derive(&order, 3000);
        for (whole, from, to) in [
            (2u8..9, 0, 2999),
            (0..1, 8, 100),
            (3..3, 0, 70),
            (0..254, 16, 2999),
        ] {
            let bits = b.bits(whole.clone(), from, to);
            assert_eq!(bits.len(), (to - from + 1).div_ceil(8));
            for d in from..=to {
                let set = bits[(d - from) / 8] >> ((d - from) % 8) & 1 == 1;
                assert_eq!(set, whole.contains(&b.of_doc[d]), "doc {d} of {whole:?}");
            }
        }
    }
}
