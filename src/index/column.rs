//! Fixed-width numeric columns: one value per doc id, for range filters and
//! sort keys (`deal_size`, `latest_deal_date`, `total_deal_count`…).
//!
//! Array `column.NAME` is `i64 × n` (money in whole USD, instants in ms) or
//! `i32 × n` (days since 1970-01-01, counts). The type's minimum value is
//! the null marker, so "no amount" never equals a real amount.

use std::io;
use std::path::Path;

use rayon::prelude::*;

use super::format::{ArrayRef, Bundle, BundleWriter, Element};
use super::rank_buckets::RankBuckets;
use super::scratch::ScratchArray;
use super::IndexError;

/// Null marker of `i64` columns.
pub const NULL_I64: i64 = i64::MIN;
/// Null marker of `i32` columns.
pub const NULL_I32: i32 = i32::MIN;

/// Values a column can hold.
pub trait ColumnValue: Element + Ord + Copy + Send + Sync {
    const NULL: Self;
    fn to_i64(self) -> i64;
}

impl ColumnValue for i64 {
    const NULL: i64 = NULL_I64;
    fn to_i64(self) -> i64 {
        self
    }
}

impl ColumnValue for i32 {
    const NULL: i32 = NULL_I32;
    fn to_i64(self) -> i64 {
        self as i64
    }
}

/// Writes column `name` (values indexed by doc id).
pub fn write_column<T: ColumnValue>(
    out: &mut BundleWriter,
    name: &str,
    values: &[T],
) -> io::Result<()> {
    out.put(&format!("column.{name}"), values)
}

/// A column filled in doc order (one value a doc, nulls included) in
/// bounded memory: the values go to a scratch array beside the bundle as
/// they come, and are read back, one column at a time, when written with
/// their sort order (12 bytes a doc for an `i64` column while it is
/// sorted). A bundle writer collecting ten columns in one loop over its
/// docs holds their write buffers, not ten arrays of every doc.
pub struct ColumnBuilder<T: ColumnValue> {
    values: ScratchArray<T>,
    /// The first failure to write the scratch file, reported at write.
    failure: Option<io::Error>,
}

impl<T: ColumnValue> ColumnBuilder<T> {
    /// An empty column whose scratch file is in `dir`.
    pub fn new_in(dir: &Path) -> io::Result<ColumnBuilder<T>> {
        Ok(ColumnBuilder {
            values: ScratchArray::new_in(dir)?,
            failure: None,
        })
    }

    /// The next doc's value ([`ColumnValue::NULL`] for none).
    pub fn push(&mut self, value: T) {
        if self.failure.is_none() {
            if let Err(e) = self.values.push(value) {
                self.failure = Some(e);
            }
        }
    }

    /// Writes column `name` alone ([`write_column`]).
    pub fn write(self, out: &mut BundleWriter, name: &str) -> io::Result<()> {
        match self.failure {
            Some(e) => Err(e),
            None => self.values.copy_into(out, &format!("column.{name}")),
        }
    }

    /// Writes column `name` and its sort order ([`write_sorted_column`]).
    pub fn write_sorted(self, out: &mut BundleWriter, name: &str) -> io::Result<()> {
        match self.failure {
            Some(e) => Err(e),
            None => write_sorted_column(out, name, &self.values.read_back()?),
        }
    }
}

/// A column read from a bundle.
#[derive(Clone)]
pub struct Column<T: ColumnValue> {
    bundle: Bundle,
    values: ArrayRef<T>,
}

impl<T: ColumnValue> Column<T> {
    /// Opens column `name`, which must have exactly `docs` values.
    pub fn open(bundle: &Bundle, name: &str, docs: usize) -> Result<Column<T>, IndexError> {
        let values = bundle.array_ref::<T>(&format!("column.{name}"))?;
        if values.len() != docs {
            return Err(IndexError::corrupt(
                bundle.name(),
                format!("column {name}: {} values for {docs} docs", values.len()),
            ));
        }
        Ok(Column {
            bundle: bundle.clone(),
            values,
        })
    }

    pub fn values(&self) -> &[T] {
        self.bundle.get(self.values)
    }

    /// The value of `docid`, `None` when null.
    pub fn get(&self, docid: u32) -> Option<T> {
        let v = self.values()[docid as usize];
        (v != T::NULL).then_some(v)
    }

    /// Whether `docid` has a value within `[min, max]` (bounds inclusive, `None` = open).
    pub fn in_range(&self, docid: u32, min: Option<T>, max: Option<T>) -> bool {
        let v = self.values()[docid as usize];
        v != T::NULL && min.is_none_or(|m| v >= m) && max.is_none_or(|m| v <= m)
    }
}

/// Writes the sort order of column `name`: `sort.NAME.order` (u32 × n) lists
/// the doc ids with a value ascending by (value, doc id), then the doc ids
/// without a value ascending; `sort.NAME.non_null` (u64 × 1) says where the
/// nulls start. Walking it forwards gives ascending order, walking the
/// non-null part backwards gives descending order (ties by doc id
/// descending); nulls come last either way.
pub fn write_sort_order<T: ColumnValue>(
    out: &mut BundleWriter,
    name: &str,
    values: &[T],
) -> io::Result<()> {
    let mut order: Vec<u32> = (0..values.len() as u32)
        .filter(|&d| values[d as usize] != T::NULL)
        .collect();
    order.par_sort_unstable_by_key(|&d| (values[d as usize], d));
    let non_null = order.len() as u64;
    order.extend((0..values.len() as u32).filter(|&d| values[d as usize] == T::NULL));
    out.put(&format!("sort.{name}.order"), &order)?;
    out.put(&format!("sort.{name}.non_null"), &[non_null])
}

/// Writes a column together with its sort order.
pub fn write_sorted_column<T: ColumnValue>(
    out: &mut BundleWriter,
    name: &str,
    values: &[T],
) -> io::Result<()> {
    write_column(out, name, values)?;
    write_sort_order(out, name, values)
}

/// A sort order read from a bundle.
#[derive(Clone)]
pub struct SortOrder {
    bundle: Bundle,
    order: ArrayRef<u32>,
    non_null: usize,
    /// Memo of [`SortOrder::descends_with_doc_ids`].
    descending: std::sync::OnceLock<bool>,
    /// Memo of [`SortOrder::rank_buckets`].
    buckets: std::sync::OnceLock<RankBuckets>,
}

impl SortOrder {
    pub fn open(bundle: &Bundle, name: &str, docs: usize) -> Result<SortOrder, IndexError> {
        let order = bundle.array_ref::<u32>(&format!("sort.{name}.order"))?;
        let non_null = bundle
            .array::<u64>(&format!("sort.{name}.non_null"))?
            .first()
            .copied()
            .unwrap_or(u64::MAX);
        if order.len() != docs || non_null > docs as u64 {
            return Err(IndexError::corrupt(
                bundle.name(),
                format!("sort order {name}: inconsistent arrays"),
            ));
        }
        Ok(SortOrder {
            bundle: bundle.clone(),
            order,
            non_null: non_null as usize,
            descending: Default::default(),
            buckets: Default::default(),
        })
    }

    /// Doc ids with a value, ascending by (value, doc id).
    pub fn non_null(&self) -> &[u32] {
        &self.bundle.get(self.order)[..self.non_null]
    }

    /// Doc ids without a value, ascending.
    pub fn nulls(&self) -> &[u32] {
        &self.bundle.get(self.order)[self.non_null..]
    }

    /// Whether `values` (the column of this order) never increase with the
    /// doc id and its nulls are the last docs. Then the docs of any value
    /// range form one block of doc ids (deal dates and companies' latest-deal
    /// dates, since doc ids follow recency). Checked by one pass over the
    /// column on first use, then remembered.
    pub fn descends_with_doc_ids<T: ColumnValue>(&self, values: &[T]) -> bool {
        *self.descending.get_or_init(|| {
            let (with, without) = values.split_at(self.non_null.min(values.len()));
            with.windows(2).all(|w| w[0] >= w[1]) && without.iter().all(|&v| v == T::NULL)
        })
    }

    /// Positions per rank bucket (see [`SortOrder::rank_buckets`]), known
    /// without deriving them.
    pub fn rank_width(&self) -> usize {
        RankBuckets::width_for(self.non_null)
    }

    /// Each doc's bucket of position in this order, derived by one pass
    /// over the order on first use, then remembered (one byte a doc).
    pub fn rank_buckets(&self) -> &RankBuckets {
        self.buckets.get_or_init(|| {
            let order = self.bundle.get(self.order);
            RankBuckets::derive(&order[..self.non_null], order.len())
        })
    }
}
