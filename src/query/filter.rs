//! Evaluates a [`Plan`] against one kind of an opened index.
//!
//! 1. Facet and doc-set clauses become bitmaps, intersected smallest first
//!    (an empty one ends the evaluation).
//! 2. Each range clause is located in its column's sort order by binary
//!    search, which gives the number of docs in range, `k`, for free. With
//!    `c` candidates so far, a range is *probed* (one column read per
//!    candidate) when `c` is well below `k`, otherwise the range becomes a
//!    bitmap and is intersected. Without any bitmap clause the narrowest
//!    range seeds the candidates. A range's bitmap is built the cheapest
//!    way: one `insert_range` when its doc ids are one contiguous block
//!    (dates of deals and latest-deal dates of companies, since doc ids
//!    follow recency), a sequential scan of the column when it covers a
//!    large share of the docs, else its doc ids sorted.
//! 3. No clause at all means every doc.

use roaring::RoaringBitmap;

use super::plan::{Clause, Plan, Width};
use crate::index::column::{Column, ColumnValue, SortOrder};
use crate::index::open::Kind;
use crate::index::IndexError;

/// Probe a range per candidate when the candidates are this many times
/// fewer than the docs in range.
const PROBE_FACTOR: u64 = 4;

/// Doc ids of `kind` matching every clause of `plan`.
pub fn evaluate(kind: &Kind, plan: &Plan) -> Result<RoaringBitmap, IndexError> {
    let mut sets = Vec::new();
    let mut ranges = Vec::new();
    for clause in &plan.clauses {
        match clause {
            Clause::Facet { field, values } => sets.push(kind.facet(field)?.union_of(values.iter().map(String::as_str))?),
            Clause::Docs(docs) => sets.push(docs.clone()),
            Clause::Range { column, width, min, max } => ranges.push(RangeProbe::locate(kind, column, *width, *min, *max)?),
        }
    }
    sets.sort_by_key(|s| s.len());
    let mut candidates = intersect_all(sets);
    ranges.sort_by_key(|r| r.len());
    for range in ranges {
        candidates = Some(match candidates {
            None => range.bitmap(),
            Some(c) if c.is_empty() => return Ok(c),
            Some(c) if c.len().saturating_mul(PROBE_FACTOR) <= range.len() as u64 => range.probe_or_scan(&c, CACHED_COLUMN_BYTES),
            Some(c) => c & range.bitmap(),
        });
    }
    Ok(candidates.unwrap_or_else(|| every_doc(kind.docs)))
}

/// All doc ids `0..docs`.
pub fn every_doc(docs: usize) -> RoaringBitmap {
    let mut all = RoaringBitmap::new();
    all.insert_range(0..docs as u32);
    all
}

fn intersect_all(sets: Vec<RoaringBitmap>) -> Option<RoaringBitmap> {
    let mut it = sets.into_iter();
    let mut acc = it.next()?;
    for s in it {
        if acc.is_empty() {
            break;
        }
        acc &= s;
    }
    Some(acc)
}

/// Columns up to this size are assumed to stay in cache between requests
/// (twice a core's L2 on the machine measured).
const CACHED_COLUMN_BYTES: usize = 4 << 20;
/// Cost of one random read (a cache miss) in an uncached column, in
/// values read sequentially.
const UNCACHED_READ_COST: u64 = 32;

/// Scan the column instead of sorting a range's doc ids when the range
/// holds at least one doc in this many.
const SCAN_SHARE: usize = 8;

/// A range clause located in its column's sort order.
struct RangeProbe {
    column: RangeColumn,
    /// Doc ids in range (in value order).
    slice: std::ops::Range<usize>,
    order: std::sync::Arc<SortOrder>,
    min: i64,
    max: i64,
}

enum RangeColumn {
    I32(std::sync::Arc<Column<i32>>),
    I64(std::sync::Arc<Column<i64>>),
}

impl RangeProbe {
    fn locate(kind: &Kind, name: &str, width: Width, min: i64, max: i64) -> Result<RangeProbe, IndexError> {
        let order = kind.sort_order(name)?;
        let (column, slice) = match width {
            Width::I32 => {
                let col = kind.column_i32(name)?;
                let slice = value_range(col.values(), order.non_null(), min, max);
                (RangeColumn::I32(col), slice)
            }
            Width::I64 => {
                let col = kind.column_i64(name)?;
                let slice = value_range(col.values(), order.non_null(), min, max);
                (RangeColumn::I64(col), slice)
            }
        };
        Ok(RangeProbe { column, slice, order, min, max })
    }

    fn len(&self) -> usize {
        self.slice.len()
    }

    fn bitmap(&self) -> RoaringBitmap {
        let slice = &self.order.non_null()[self.slice.clone()];
        let (Some(&lo), Some(&hi)) = (slice.iter().min(), slice.iter().max()) else {
            return RoaringBitmap::new();
        };
        if (hi - lo) as usize + 1 == slice.len() {
            let mut block = RoaringBitmap::new();
            block.insert_range(lo..=hi);
            return block;
        }
        if slice.len().saturating_mul(SCAN_SHARE) >= self.docs() {
            return self.scan(lo, hi);
        }
        let mut sorted = slice.to_vec();
        sorted.sort_unstable();
        RoaringBitmap::from_sorted_iter(sorted).unwrap_or_default()
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

    fn docs(&self) -> usize {
        match &self.column {
            RangeColumn::I32(c) => c.values().len(),
            RangeColumn::I64(c) => c.values().len(),
        }
    }

    /// The candidates in range: probed one by one, or, when one random
    /// read per candidate in a column too large to stay cached would cost
    /// more than reading the column sequentially over the candidates' span,
    /// by a bit-set scan of that span.
    fn probe_or_scan(&self, candidates: &RoaringBitmap, cached_bytes: usize) -> RoaringBitmap {
        let (Some(lo), Some(hi)) = (candidates.min(), candidates.max()) else {
            return RoaringBitmap::new();
        };
        let width = match self.column {
            RangeColumn::I32(_) => 4,
            RangeColumn::I64(_) => 8,
        };
        let cached = self.docs() * width <= cached_bytes;
        if cached || candidates.len() * UNCACHED_READ_COST <= (hi - lo) as u64 + 1 {
            self.probe(candidates)
        } else {
            candidates & self.scan(lo, hi)
        }
    }

    fn probe(&self, candidates: &RoaringBitmap) -> RoaringBitmap {
        match &self.column {
            RangeColumn::I32(c) => probe_values(c.values(), candidates, self.min, self.max),
            RangeColumn::I64(c) => probe_values(c.values(), candidates, self.min, self.max),
        }
    }
}

/// The candidates whose value (read from the resolved column slice) lies in `[min, max]`.
fn probe_values<T: ColumnValue>(values: &[T], candidates: &RoaringBitmap, min: i64, max: i64) -> RoaringBitmap {
    let inside = candidates.iter().filter(|&d| {
        let v = values[d as usize];
        v != T::NULL && (min..=max).contains(&v.to_i64())
    });
    RoaringBitmap::from_sorted_iter(inside).unwrap_or_default()
}

/// One bit per value (least significant first): whether it lies in `[min, max]`.
fn in_range_bits<T: ColumnValue>(values: &[T], min: i64, max: i64) -> Vec<u8> {
    values
        .chunks(8)
        .map(|chunk| {
            chunk.iter().enumerate().fold(0u8, |byte, (i, &v)| {
                let x = v.to_i64();
                byte | (((v != T::NULL) & (x >= min) & (x <= max)) as u8) << i
            })
        })
        .collect()
}

/// Positions in `order` (ascending by value) of the docs with a value in `[min, max]`.
fn value_range<T: ColumnValue>(values: &[T], order: &[u32], min: i64, max: i64) -> std::ops::Range<usize> {
    let start = order.partition_point(|&d| values[d as usize].to_i64() < min);
    let end = order.partition_point(|&d| values[d as usize].to_i64() <= max);
    start..end.max(start)
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let values = [1i64, 5, crate::index::column::NULL_I64, 3, 9, 4, 0, 2, 3];
        assert_eq!(in_range_bits(&values, 2, 4), vec![0b1010_1000, 0b0000_0001]);
    }

    /// Probing and scanning agree on which candidates lie in a range,
    /// whichever way `probe_or_scan` decides.
    #[test]
    fn probe_and_scan_agree() {
        use crate::index::column::{write_sorted_column, NULL_I64};
        use crate::index::format::{Bundle, BundleWriter};
        let values: Vec<i64> = (0..5000i64).map(|d| if d % 17 == 0 { NULL_I64 } else { (d * 7919) % 1000 }).collect();
        let path = std::env::temp_dir().join(format!("fundsearch-filter-{}.bin", std::process::id()));
        let mut w = BundleWriter::create(&path, *b"PROP").unwrap();
        write_sorted_column(&mut w, "c", &values).unwrap();
        w.finish().unwrap();
        let bundle = Bundle::open(&path, *b"PROP", true).unwrap();
        let column = std::sync::Arc::new(Column::<i64>::open(&bundle, "c", values.len()).unwrap());
        let order = std::sync::Arc::new(SortOrder::open(&bundle, "c", values.len()).unwrap());
        for (min, max) in [(0, 999), (100, 120), (500, 499), (-5, 3)] {
            let slice = value_range(column.values(), order.non_null(), min, max);
            let range = RangeProbe { column: RangeColumn::I64(column.clone()), slice, order: order.clone(), min, max };
            for step in [1u32, 3, 40] {
                let candidates: RoaringBitmap = (13..4900).step_by(step as usize).collect();
                let expected: RoaringBitmap = candidates
                    .iter()
                    .filter(|&d| values[d as usize] != NULL_I64 && (min..=max).contains(&values[d as usize]))
                    .collect();
                assert_eq!(range.probe_or_scan(&candidates, usize::MAX), expected, "probed {min}..={max} step {step}");
                assert_eq!(range.probe_or_scan(&candidates, 0), expected, "scanned {min}..={max} step {step}");
                assert_eq!(range.bitmap() & &candidates, expected, "bitmap {min}..={max}");
            }
        }
        std::fs::remove_file(path).unwrap();
    }

    #[test]
    fn intersection_stops_at_empty() {
        let a: RoaringBitmap = (0..10).collect();
        let b: RoaringBitmap = (5..20).collect();
        assert_eq!(intersect_all(vec![a, b]).unwrap(), (5..10).collect());
        assert_eq!(intersect_all(vec![]), None);
    }
}
