//! One range clause of a plan (`min ≤ value ≤ max` on a numeric column) and
//! the ways to find the docs it keeps.
//!
//! A range is first located in its column's sort order by binary search:
//! that gives `k`, the number of docs in range, and their ids (a slice of
//! the order, in value order) at no further cost. The docs in range among
//! the candidates so far (or among all docs) are then found by the way with
//! the lowest estimated cost ([`Strategy`]):
//! - **block**: the column never increases with the doc id
//!   ([`SortOrder::descends_with_doc_ids`]: deal dates, companies'
//!   latest-deal dates), so the range is one block of doc ids, found by
//!   binary search on the column: O(log n), applied by trimming the
//!   candidates. Block ranges are applied before any other range, since
//!   they narrow the candidates' span for free;
//! - **probe**: read each candidate's value;
//! - **scan**: read the column sequentially over the candidates' span
//!   into a bit set;
//! - **scatter**: set the bits of the range's doc ids (read from the sort
//!   order) that fall in the candidates' span;
//! - **exclude**: the same with the docs *out* of range (and the nulls),
//!   subtracted from the candidates, when those are fewer;
//! - **sort**: sort the range's few doc ids into a bitmap;
//! - **ranks**: read each doc's one-byte bucket of sort-order position
//!   ([`RankBuckets`]) sequentially over the candidates' span, keeping the
//!   buckets lying wholly in range, and scatter the doc ids of the at most
//!   two buckets the range cuts: a broad range on a large column costs a
//!   byte a doc instead of a random write a doc in range.
//!
//! The costs are rough figures in nanoseconds measured on the development
//! machine (M index, one core); only their ratios matter.

use std::ops::Range;
use std::sync::Arc;

use roaring::RoaringBitmap;

use super::plan::Width;
use crate::index::bits::bits_where;
use crate::index::column::{Column, ColumnValue, SortOrder};
use crate::index::docs::docs;
use crate::index::open::Kind;
use crate::index::IndexError;

/// Columns up to this size are assumed to stay in cache between requests
/// (twice a core's L2 on the machine measured).
pub const CACHED_COLUMN_BYTES: usize = 4 << 20;

/// Reading one candidate's value from a cached column.
const PROBE_CACHED: f64 = 2.0;
/// Reading one candidate's value when that is a cache miss: a miss of
/// the TLB too, once the column outgrows its reach. Measured at M on a
/// people column (3M i64 values, 24 MB): 175 ns a candidate for 33,000
/// of them, 160 ns for 103,000, against 2.6–3.4 ms for scattering the
/// range's 0.9M docs; 123 ns on a company column (8 MB).
const PROBE_MISS: f64 = 120.0;
/// Reading one value of a column sequentially and testing it, per byte of
/// value width.
const SCAN_PER_BYTE: f64 = 0.12;
/// Reading one doc id of a sort order sequentially.
const ORDER_READ: f64 = 0.3;
/// Setting one bit at random in a bit set.
const SCATTER_WRITE: f64 = 1.5;
/// Allocating, clearing and converting a bit set, per doc it covers.
const BIT_SET: f64 = 0.03;
/// Sorting doc ids, per id and per halving (k log k).
const SORT_STEP: f64 = 1.5;
/// Reading one doc's rank bucket sequentially and testing it.
const RANK_SCAN: f64 = 0.2;

/// The estimated cost (ns) of reading a whole column of `docs` values of
/// `width` for a range (its values, or its rank buckets when cheaper):
/// what a range clause on a large column costs at most.
pub fn scan_cost(docs: usize, width: Width) -> f64 {
    let bytes = match width {
        Width::I32 => 4.0,
        Width::I64 => 8.0,
    };
    docs as f64 * (bytes * SCAN_PER_BYTE).min(RANK_SCAN)
}

/// How a range's docs among the candidates are found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    Block,
    Probe,
    Scan,
    Scatter,
    Exclude,
    Sort,
    Ranks,
}

/// A range clause located in its column's sort order.
pub struct RangeProbe {
    column: RangeColumn,
    order: Arc<SortOrder>,
    /// Positions in the order (ascending by value) of the docs in range.
    slice: Range<usize>,
    /// The docs in range as one block of doc ids, when the column descends
    /// with the doc id.
    block: Option<Range<u32>>,
    min: i64,
    max: i64,
}

enum RangeColumn {
    I32(Arc<Column<i32>>),
    I64(Arc<Column<i64>>),
}

impl RangeProbe {
    pub fn locate(
        kind: &Kind,
        name: &str,
        width: Width,
        min: i64,
        max: i64,
    ) -> Result<RangeProbe, IndexError> {
        let order = kind.sort_order(name)?;
        let column = match width {
            Width::I32 => RangeColumn::I32(kind.column_i32(name)?),
            Width::I64 => RangeColumn::I64(kind.column_i64(name)?),
        };
        Ok(RangeProbe::new(column, order, min, max))
    }

    fn new(column: RangeColumn, order: Arc<SortOrder>, min: i64, max: i64) -> RangeProbe {
        let (slice, block) = match &column {
            RangeColumn::I32(c) => locate_in(c.values(), &order, min, max),
            RangeColumn::I64(c) => locate_in(c.values(), &order, min, max),
        };
        RangeProbe {
            column,
            order,
            slice,
            block,
            min,
            max,
        }
    }

    /// Number of docs in range.
    pub fn len(&self) -> usize {
        self.slice.len()
    }

    pub fn is_empty(&self) -> bool {
        self.slice.is_empty()
    }

    /// Whether the docs in range are one block of doc ids.
    pub fn is_block(&self) -> bool {
        self.block.is_some()
    }

    /// The docs in range as one block of doc ids, when they are one.
    pub fn block(&self) -> Option<Range<u32>> {
        self.block.clone()
    }

    /// The docs in range among `candidates`, or among all docs when `None`.
    pub fn among(&self, candidates: Option<&RoaringBitmap>, cached_bytes: usize) -> RoaringBitmap {
        let strategy = self.strategy(candidates, cached_bytes);
        self.apply(strategy, candidates)
    }

    /// The cheapest way to find the docs in range among `candidates`.
    pub fn strategy(&self, candidates: Option<&RoaringBitmap>, cached_bytes: usize) -> Strategy {
        if self.block.is_some() {
            return Strategy::Block;
        }
        let docs = self.docs() as f64;
        let (count, span) = match candidates {
            Some(c) => match (c.min(), c.max()) {
                (Some(lo), Some(hi)) => (c.len() as f64, (hi - lo) as f64 + 1.0),
                _ => return Strategy::Probe,
            },
            None => (docs, docs),
        };
        let width = self.width() as f64;
        let cached = self.docs() * self.width() <= cached_bytes;
        let inside = self.len() as f64;
        let outside = docs - inside;
        let share = span / docs.max(1.0);
        let scan = span * width * SCAN_PER_BYTE;
        let probe = match (candidates, cached) {
            (None, _) => f64::INFINITY,
            (Some(_), true) => count * PROBE_CACHED,
            (Some(_), false) => count * PROBE_CACHED + (count * PROBE_MISS).min(scan),
        };
        let scatter = |ids: f64| ids * ORDER_READ + ids * share * SCATTER_WRITE + span * BIT_SET;
        let sort = inside * SORT_STEP * inside.max(2.0).log2();
        let cut = (2 * self.order.rank_width()).min(self.len()) as f64;
        [
            (Strategy::Probe, probe),
            (Strategy::Scan, scan + span * BIT_SET),
            (Strategy::Scatter, scatter(inside)),
            (Strategy::Exclude, scatter(outside)),
            (Strategy::Sort, sort),
            (Strategy::Ranks, span * RANK_SCAN + scatter(cut)),
        ]
        .into_iter()
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map_or(Strategy::Probe, |(s, _)| s)
    }

    /// The docs in range among `candidates` (all docs when `None`), found by `strategy`.
    pub fn apply(&self, strategy: Strategy, candidates: Option<&RoaringBitmap>) -> RoaringBitmap {
        let Some(c) = candidates else {
            return self.everywhere(strategy);
        };
        let (Some(lo), Some(hi)) = (c.min(), c.max()) else {
            return RoaringBitmap::new();
        };
        match strategy {
            Strategy::Block => {
                let block = self.block.clone().unwrap_or(0..0);
                let mut kept = c.clone();
                kept.remove_range(..block.start);
                kept.remove_range(block.end..);
                kept
            }
            Strategy::Probe => self.probe(c),
            Strategy::Scan => c & self.scan(lo, hi),
            Strategy::Scatter => c & scatter(&[self.inside()], lo, hi),
            Strategy::Exclude => c - self.excluded(lo, hi),
            Strategy::Sort => c & sorted(self.inside()),
            Strategy::Ranks => c & self.ranked(lo, hi),
        }
    }

    /// All docs in range, found by `strategy` (probing means scanning here).
    fn everywhere(&self, strategy: Strategy) -> RoaringBitmap {
        let docs = self.docs() as u32;
        let Some(last) = docs.checked_sub(1) else {
            return RoaringBitmap::new();
        };
        match strategy {
            Strategy::Block => {
                let mut block = RoaringBitmap::new();
                block.insert_range(self.block.clone().unwrap_or(0..0));
                block
            }
            Strategy::Probe | Strategy::Scan => self.scan(0, last),
            Strategy::Scatter => scatter(&[self.inside()], 0, last),
            Strategy::Exclude => super::filter::every_doc(docs as usize) - self.excluded(0, last),
            Strategy::Sort => sorted(self.inside()),
            Strategy::Ranks => self.ranked(0, last),
        }
    }

    /// Doc ids in range, in value order.
    fn inside(&self) -> &[u32] {
        &self.order.non_null()[self.slice.clone()]
    }

    /// Docs out of range or without a value, among `lo..=hi`.
    fn excluded(&self, lo: u32, hi: u32) -> RoaringBitmap {
        let non_null = self.order.non_null();
        let below_and_above = [
            &non_null[..self.slice.start],
            &non_null[self.slice.end..],
            self.order.nulls(),
        ];
        scatter(&below_and_above, lo, hi)
    }

    /// The docs in range among `lo..=hi`, by reading the column there into
    /// a bit set (no per-doc insertion).
    fn scan(&self, lo: u32, hi: u32) -> RoaringBitmap {
        let from = (lo & !7) as usize;
        let to = hi as usize + 1;
        let bits = match &self.column {
            RangeColumn::I32(c) => in_range_bits(&c.values()[from..to], self.min, self.max),
            RangeColumn::I64(c) => in_range_bits(&c.values()[from..to], self.min, self.max),
        };
        RoaringBitmap::from_lsb0_bytes(from as u32, &bits)
    }

    /// The docs in range among `lo..=hi`, by their rank buckets: those of
    /// the buckets wholly in range, then the doc ids of the cut ones.
    fn ranked(&self, lo: u32, hi: u32) -> RoaringBitmap {
        let buckets = self.order.rank_buckets();
        let split = buckets.split(self.slice.clone());
        let from = lo & !7;
        let mut bytes = buckets.bits(split.whole, from as usize, hi as usize);
        let order = self.order.non_null();
        set_bits(&mut bytes, from, [&order[split.head], &order[split.tail]]);
        keep_span(&mut bytes, lo, hi, from);
        RoaringBitmap::from_lsb0_bytes(from, &bytes)
    }

    fn probe(&self, candidates: &RoaringBitmap) -> RoaringBitmap {
        match &self.column {
            RangeColumn::I32(c) => probe_values(c.values(), candidates, self.min, self.max),
            RangeColumn::I64(c) => probe_values(c.values(), candidates, self.min, self.max),
        }
    }

    fn docs(&self) -> usize {
        match &self.column {
            RangeColumn::I32(c) => c.values().len(),
            RangeColumn::I64(c) => c.values().len(),
        }
    }

    fn width(&self) -> usize {
        match self.column {
            RangeColumn::I32(_) => 4,
            RangeColumn::I64(_) => 8,
        }
    }
}

/// The range's positions in the sort order, and its block of doc ids when
/// the column descends with the doc id.
fn locate_in<T: ColumnValue>(
    values: &[T],
    order: &SortOrder,
    min: i64,
    max: i64,
) -> (Range<usize>, Option<Range<u32>>) {
    let slice = value_range(values, order.non_null(), min, max);
    let block = order.descends_with_doc_ids(values).then(|| {
        let with_value = &values[..order.non_null().len()];
        let start = with_value.partition_point(|v| v.to_i64() > max);
        let end = with_value.partition_point(|v| v.to_i64() >= min).max(start);
        debug_assert_eq!(end - start, slice.len());
        start as u32..end as u32
    });
    (slice, block)
}

/// Positions in `order` (ascending by value) of the docs with a value in `[min, max]`.
pub fn value_range<T: ColumnValue>(
    values: &[T],
    order: &[u32],
    min: i64,
    max: i64,
) -> Range<usize> {
    let start = order.partition_point(|&d| values[d as usize].to_i64() < min);
    let end = order.partition_point(|&d| values[d as usize].to_i64() <= max);
    start..end.max(start)
}

/// The candidates whose value (read from the resolved column slice) lies in `[min, max]`.
fn probe_values<T: ColumnValue>(
    values: &[T],
    candidates: &RoaringBitmap,
    min: i64,
    max: i64,
) -> RoaringBitmap {
    let inside = docs(candidates).filter(|&d| {
        let v = values[d as usize];
        v != T::NULL && (min..=max).contains(&v.to_i64())
    });
    RoaringBitmap::from_sorted_iter(inside).unwrap_or_default()
}

/// One bit per value (least significant first): whether it lies in `[min, max]`.
fn in_range_bits<T: ColumnValue>(values: &[T], min: i64, max: i64) -> Vec<u8> {
    bits_where(values, |v| {
        let x = v.to_i64();
        (v != T::NULL) & (x >= min) & (x <= max)
    })
}

/// The doc ids of `parts` that lie in `lo..=hi`, through one bit set over that span.
fn scatter(parts: &[&[u32]], lo: u32, hi: u32) -> RoaringBitmap {
    if lo > hi {
        return RoaringBitmap::new();
    }
    let from = lo & !7;
    let mut bytes = vec![0u8; ((hi - from) >> 3) as usize + 1];
    set_bits(&mut bytes, from, parts.iter().copied());
    keep_span(&mut bytes, lo, hi, from);
    RoaringBitmap::from_lsb0_bytes(from, &bytes)
}

/// Sets the bits (from doc `from` on) of the doc ids of `parts` that fall
/// within `bytes`: one bounds test a doc, a fifth faster than testing the
/// span first (see [`keep_span`]).
fn set_bits<'a>(bytes: &mut [u8], from: u32, parts: impl IntoIterator<Item = &'a [u32]>) {
    for &d in parts.into_iter().flatten() {
        let offset = d.wrapping_sub(from);
        if let Some(byte) = bytes.get_mut(offset as usize >> 3) {
            *byte |= 1 << (offset & 7);
        }
    }
}

/// Clears the bits of the first and last bytes (from doc `from` on) that
/// lie outside `lo..=hi`.
fn keep_span(bytes: &mut [u8], lo: u32, hi: u32, from: u32) {
    bytes[0] &= 0xFF << (lo - from);
    let last = bytes.len() - 1;
    bytes[last] &= 0xFF >> (7 - ((hi - from) & 7));
}

/// `ids` as a bitmap, by sorting them.
fn sorted(ids: &[u32]) -> RoaringBitmap {
    let mut sorted = ids.to_vec();
    sorted.sort_unstable();
    RoaringBitmap::from_sorted_iter(sorted).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::column::{write_sorted_column, NULL_I64};
    use crate::index::format::{Bundle, BundleWriter};

    /// Scattering keeps exactly the docs within `lo..=hi`, whatever
    /// their bytes' alignment.
    #[test]
    fn scatter_keeps_exactly_the_span() {
        let ids: Vec<u32> = (0..200).rev().filter(|d| d % 3 != 1).collect();
        let (evens, odds): (Vec<u32>, Vec<u32>) = ids.iter().partition(|&&d| d % 2 == 0);
        for (lo, hi) in [
            (0, 199),
            (5, 5),
            (13, 14),
            (7, 8),
            (9, 150),
            (16, 23),
            (60, 1000),
        ] {
            let expected: RoaringBitmap = ids
                .iter()
                .copied()
                .filter(|d| (lo..=hi).contains(d))
                .collect();
            assert_eq!(scatter(&[&ids], lo, hi), expected, "{lo}..={hi}");
            assert_eq!(
                scatter(&[&evens, &odds], lo, hi),
                expected,
                "{lo}..={hi}, two parts"
            );
        }
        assert!(scatter(&[&ids], 9, 8).is_empty());
    }

    #[test]
    fn value_range_is_inclusive() {
        let values = [5i64, 1, 3, 3, 9];
        let order = [1u32, 2, 3, 0, 4];
        assert_eq!(value_range(&values, &order, 3, 5), 1..4);
        assert_eq!(value_range(&values, &order, 10, 20), 5..5);
        assert_eq!(value_range(&values, &order, 6, 2), 4..4);
    }

    #[test]
    fn in_range_bits_are_least_significant_first() {
        let values = [1i64, 5, NULL_I64, 3, 9, 4, 0, 2, 3];
        assert_eq!(in_range_bits(&values, 2, 4), vec![0b1010_1000, 0b0000_0001]);
        let long: Vec<i64> = (0..70).collect();
        let bits = in_range_bits(&long, 63, 65);
        assert_eq!(bits.len(), 9);
        assert_eq!((bits[7], bits[8]), (0b1000_0000, 0b0000_0011));
    }

    #[test]
    fn scatter_keeps_the_span() {
        let ids = [40u32, 3, 17, 9, 100];
        assert_eq!(
            scatter(&[&ids], 5, 40),
            [9u32, 17, 40].into_iter().collect()
        );
        assert_eq!(
            scatter(&[&ids[..2], &ids[2..]], 5, 40),
            [9u32, 17, 40].into_iter().collect()
        );
        assert_eq!(scatter(&[&ids], 41, 40), RoaringBitmap::new());
    }

    /// A column written to a temporary bundle, with its sort order.
    fn probes(values: &[i64], tag: &str, ranges: &[(i64, i64)]) -> Vec<RangeProbe> {
        let path =
            std::env::temp_dir().join(format!("fundsearch-range-{tag}-{}.bin", std::process::id()));
        let mut w = BundleWriter::create(&path, *b"PROP").unwrap();
        write_sorted_column(&mut w, "c", values).unwrap();
        w.finish().unwrap();
        let bundle = Bundle::open(&path, *b"PROP", true).unwrap();
        let column = Arc::new(Column::<i64>::open(&bundle, "c", values.len()).unwrap());
        let order = Arc::new(SortOrder::open(&bundle, "c", values.len()).unwrap());
        std::fs::remove_file(path).unwrap();
        ranges
            .iter()
            .map(|&(min, max)| {
                RangeProbe::new(RangeColumn::I64(column.clone()), order.clone(), min, max)
            })
            .collect()
    }

    /// Every strategy keeps the same docs, among candidates and among all
    /// docs, whichever the cost model picks.
    fn strategies_agree(values: &[i64], tag: &str, ranges: &[(i64, i64)]) {
        let all = [
            Strategy::Probe,
            Strategy::Scan,
            Strategy::Scatter,
            Strategy::Exclude,
            Strategy::Sort,
            Strategy::Ranks,
        ];
        for range in probes(values, tag, ranges) {
            let (min, max) = (range.min, range.max);
            let keeps = |d: u32| {
                values[d as usize] != NULL_I64 && (min..=max).contains(&values[d as usize])
            };
            let everything: RoaringBitmap =
                (0..values.len() as u32).filter(|&d| keeps(d)).collect();
            let strategies = if range.is_block() {
                vec![Strategy::Block]
            } else {
                all.to_vec()
            };
            for &s in &strategies {
                assert_eq!(
                    range.apply(s, None),
                    everything,
                    "{s:?} everywhere {min}..={max}"
                );
            }
            assert_eq!(range.among(None, 0), everything);
            for step in [1u32, 3, 40] {
                let candidates: RoaringBitmap = (13..values.len() as u32 - 7)
                    .step_by(step as usize)
                    .collect();
                let expected: RoaringBitmap = candidates.iter().filter(|&d| keeps(d)).collect();
                for &s in &strategies {
                    assert_eq!(
                        range.apply(s, Some(&candidates)),
                        expected,
                        "{s:?} {min}..={max} step {step}"
                    );
                }
                assert_eq!(range.among(Some(&candidates), 0), expected);
                assert_eq!(range.among(Some(&candidates), usize::MAX), expected);
            }
            assert_eq!(
                range.among(Some(&RoaringBitmap::new()), 0),
                RoaringBitmap::new()
            );
        }
    }

    #[test]
    fn strategies_agree_on_a_shuffled_column() {
        let values: Vec<i64> = (0..5000i64)
            .map(|d| {
                if d % 17 == 0 {
                    NULL_I64
                } else {
                    (d * 7919) % 1000
                }
            })
            .collect();
        strategies_agree(
            &values,
            "shuffled",
            &[(0, 999), (100, 120), (500, 499), (-5, 3), (2, 998)],
        );
    }

    /// A broad range on a large shuffled column is read from its rank
    /// buckets (a byte a doc, not a random write a doc in range); a
    /// narrow one is still scattered or sorted from the order.
    #[test]
    fn broad_ranges_on_large_columns_use_the_rank_buckets() {
        let values: Vec<i64> = (0..1_000_000i64).map(|d| (d * 7919) % 1_000_003).collect();
        let [broad, narrow] = <[RangeProbe; 2]>::try_from(probes(
            &values,
            "ranks",
            &[(100_000, 500_000), (1_000, 1_200)],
        ))
        .ok()
        .unwrap();
        assert_eq!(broad.strategy(None, 0), Strategy::Ranks);
        assert!(matches!(
            narrow.strategy(None, 0),
            Strategy::Scatter | Strategy::Sort
        ));
        let expected = values
            .iter()
            .filter(|v| (100_000..=500_000).contains(*v))
            .count();
        assert_eq!(broad.among(None, 0).len(), expected as u64);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]
        /// Every strategy, the rank buckets' included (buckets of 1–8
        /// positions here, so ranges cut them anywhere), keeps exactly the
        /// docs whose value lies in range, on columns with ties and nulls.
        #[test]
        fn every_strategy_keeps_the_docs_in_range(
            values in proptest::collection::vec(proptest::option::of(-50i64..50), 40..2000),
            min in -60i64..60,
            len in -2i64..120,
        ) {
            let raw: Vec<i64> = values.iter().map(|v| v.unwrap_or(NULL_I64)).collect();
            strategies_agree(&raw, "prop", &[(min, min + len)]);
        }
    }

    #[test]
    fn a_column_descending_with_doc_ids_gives_blocks() {
        let values: Vec<i64> = (0..5000i64)
            .map(|d| if d >= 4900 { NULL_I64 } else { 2000 - d / 3 })
            .collect();
        let ranges = [(0, 3000), (400, 420), (2000, 1999), (-5, 400), (1990, 5000)];
        assert!(probes(&values, "blocks", &ranges)
            .iter()
            .all(RangeProbe::is_block));
        strategies_agree(&values, "descending", &ranges);
        let mut bumped = values.clone();
        bumped[10] = 5000;
        assert!(!probes(&bumped, "bumped", &[(0, 1)])[0].is_block());
    }
}
