//! Picks one page of the matching doc ids in sort order, without sorting
//! every match.
//!
//! Every order is (key, direction), nulls last, then doc id ascending (doc
//! ids follow each kind's default order). Three ways to get the first
//! `offset + size` docs:
//!
//! - **doc order**: the candidate bitmap's own iteration order;
//! - **walk** the column's sort order (ascending, or descending run by run,
//!   each run of equal values read forwards so ties stay doc-id ascending),
//!   keeping candidates, until enough are found; expected cost
//!   `need × docs / candidates` membership tests (in the roaring set
//!   when few, else in a flat bitset of the candidates made for the walk:
//!   a load and a mask instead of a container search). When the plan bounds the
//!   column's values (a range clause on the sort column), only the part of
//!   the order within those bounds is walked, and no nulls: every
//!   candidate lies there, so `docs` becomes that part's length;
//! - **gather** `(value, doc)` of every candidate and select the top
//!   `need` (cost `candidates`), used when that is cheaper than walking and
//!   for per-query computed keys.

use std::cmp::Ordering;

use roaring::RoaringBitmap;

use super::exec::{DealSet, DenseSet};
use super::range::value_range;
use super::request::PageRequest;
use crate::index::column::{Column, ColumnValue, SortOrder};
use crate::index::docs::docs;

/// Direction of a sort key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Ascending,
    Descending,
}

/// The range of sorted positions a page covers.
fn page_bounds(page: PageRequest) -> (usize, usize) {
    let offset = page.page.saturating_mul(page.page_size);
    (offset, offset.saturating_add(page.page_size))
}

/// How many docs in order a page needs: its own and those before it.
pub fn page_end(page: PageRequest) -> usize {
    page_bounds(page).1
}

/// A page in doc id order.
pub fn page_in_doc_order(candidates: &RoaringBitmap, page: PageRequest) -> Vec<u32> {
    let (offset, end) = page_bounds(page);
    if offset as u64 >= candidates.len() {
        return Vec::new();
    }
    let first = candidates.select(offset as u32).unwrap_or(u32::MAX);
    candidates.range(first..).take(end - offset).collect()
}

/// A page ordered by a stored column; `within`, when given, holds every
/// candidate's value (`[min, max]`, from the plan's ranges on the column).
pub fn page_by_column<T: ColumnValue>(
    candidates: &RoaringBitmap,
    column: &Column<T>,
    order: &SortOrder,
    direction: Direction,
    page: PageRequest,
    within: Option<(i64, i64)>,
) -> Vec<u32> {
    let (offset, need) = page_bounds(page);
    let count = candidates.len() as usize;
    if offset >= count {
        return Vec::new();
    }
    let need = need.min(count);
    let (sorted, nulls) = match within {
        Some((min, max)) => {
            let window = value_range(column.values(), order.non_null(), min, max);
            (&order.non_null()[window], &[][..])
        }
        None => (order.non_null(), order.nulls()),
    };
    let span = (sorted.len() + nulls.len()).max(1);
    let expected_walk = need.saturating_mul(span) / count.max(1);
    let values = column.values();
    let along = (sorted, nulls);
    let walked = if expected_walk < DENSE_WALK {
        walk(
            |d| candidates.contains(d),
            values,
            along,
            direction,
            need,
            count,
        )
    } else if expected_walk < count {
        let dense = DenseSet::of(candidates, values.len() as u32);
        walk(|d| dense.contains(d), values, along, direction, need, count)
    } else {
        None
    };
    let top = walked.unwrap_or_else(|| {
        let keyed = docs(candidates)
            .map(|d| (column.get(d).map(ColumnValue::to_i64), d))
            .collect();
        gather(keyed, direction, need)
    });
    top.into_iter().skip(offset).collect()
}

/// Expected walks of this many positions or more test membership in a
/// flat bitset of the candidates: making it (a copy of their containers'
/// words, 125 KB at a million docs) takes about as long as this many
/// roaring `contains`.
const DENSE_WALK: usize = 1_024;

/// A page ordered by per-query keys (`(key, doc)` for every candidate).
pub fn page_by_keys(
    keyed: Vec<(Option<i64>, u32)>,
    direction: Direction,
    page: PageRequest,
) -> Vec<u32> {
    let (offset, need) = page_bounds(page);
    if offset >= keyed.len() {
        return Vec::new();
    }
    let need = need.min(keyed.len());
    gather(keyed, direction, need)
        .into_iter()
        .skip(offset)
        .collect()
}

fn compare(a: &(Option<i64>, u32), b: &(Option<i64>, u32), direction: Direction) -> Ordering {
    let by_key = match (a.0, b.0) {
        (Some(x), Some(y)) if direction == Direction::Ascending => x.cmp(&y),
        (Some(x), Some(y)) => y.cmp(&x),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    };
    by_key.then(a.1.cmp(&b.1))
}

/// The first `need` docs of `keyed` in order.
fn gather(mut keyed: Vec<(Option<i64>, u32)>, direction: Direction, need: usize) -> Vec<u32> {
    let cmp = |a: &(Option<i64>, u32), b: &(Option<i64>, u32)| compare(a, b, direction);
    if need < keyed.len() {
        keyed.select_nth_unstable_by(need, cmp);
        keyed.truncate(need);
    }
    keyed.sort_unstable_by(cmp);
    keyed.into_iter().map(|(_, d)| d).collect()
}

/// The first `need` candidates along a sort order (`sorted`: docs with a
/// value, ascending by value; then `nulls`), or `None` once more than
/// `budget` positions were read without finding them (the matches cluster
/// far along the order: gathering is then cheaper). `sorted` starts and
/// ends at changes of value.
fn walk<T: ColumnValue>(
    is_candidate: impl Fn(u32) -> bool,
    values: &[T],
    (sorted, nulls): (&[u32], &[u32]),
    direction: Direction,
    need: usize,
    budget: usize,
) -> Option<Vec<u32>> {
    let mut out = Vec::with_capacity(need);
    let mut read = 0usize;
    let mut take = |docs: &[u32], out: &mut Vec<u32>| -> bool {
        for &d in docs {
            if out.len() == need {
                return true;
            }
            read += 1;
            if read > budget {
                return false;
            }
            if is_candidate(d) {
                out.push(d);
            }
        }
        true
    };
    match direction {
        Direction::Ascending => {
            if !take(sorted, &mut out) {
                return None;
            }
        }
        Direction::Descending => {
            // Runs of equal values, last run first, each read forwards so
            // ties stay in doc id order.
            let mut end = sorted.len();
            while end > 0 && out.len() < need {
                let v = values[sorted[end - 1] as usize];
                let start = run_start(values, sorted, end - 1, v);
                if !take(&sorted[start..end], &mut out) {
                    return None;
                }
                end = start;
            }
        }
    }
    if !take(nulls, &mut out) {
        return None;
    }
    Some(out)
}

/// Where the run of value `v` ending at `last` starts: a few steps back
/// (distinct values), else a binary search (long runs of ties).
fn run_start<T: ColumnValue>(values: &[T], sorted: &[u32], last: usize, v: T) -> usize {
    let mut start = last;
    for _ in 0..16 {
        if start == 0 || values[sorted[start - 1] as usize] != v {
            return start;
        }
        start -= 1;
    }
    sorted[..start].partition_point(|&d| values[d as usize] < v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::column::{write_sorted_column, NULL_I64};
    use crate::index::format::{Bundle, BundleWriter};
    use proptest::prelude::*;

    /// The first `need` of `candidates` by (value in `direction`, nulls last, doc).
    fn naive(
        values: &[Option<i64>],
        candidates: &RoaringBitmap,
        direction: Direction,
        need: usize,
    ) -> Vec<u32> {
        let keyed: Vec<(Option<i64>, u32)> =
            candidates.iter().map(|d| (values[d as usize], d)).collect();
        let mut all = keyed;
        all.sort_by(|a, b| compare(a, b, direction));
        all.into_iter().take(need).map(|(_, d)| d).collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Walking the stored sort order (both directions, long runs of
        /// ties, nulls) gives exactly the naive order; so does gathering,
        /// and so does walking only the part of the order within bounds
        /// that hold every candidate.
        #[test]
        fn walk_and_gather_match_a_full_sort(
            values in prop::collection::vec(prop::option::of(0i64..6), 1..200),
            picks in prop::collection::vec(any::<bool>(), 200),
            need in 1usize..40,
            descending in any::<bool>(),
            bounds in (0i64..6, 0i64..6),
        ) {
            let direction = if descending { Direction::Descending } else { Direction::Ascending };
            let candidates: RoaringBitmap = (0..values.len() as u32).filter(|&d| picks[d as usize]).collect();
            let raw: Vec<i64> = values.iter().map(|v| v.unwrap_or(NULL_I64)).collect();
            let path = std::env::temp_dir().join(format!("fundsearch-sort-{}-{}.bin", std::process::id(), rand_suffix()));
            let mut w = BundleWriter::create(&path, *b"PROP").unwrap();
            write_sorted_column(&mut w, "c", &raw).unwrap();
            w.finish().unwrap();
            let bundle = Bundle::open(&path, *b"PROP", true).unwrap();
            let column = Column::<i64>::open(&bundle, "c", raw.len()).unwrap();
            let order = SortOrder::open(&bundle, "c", raw.len()).unwrap();
            let expected = naive(&values, &candidates, direction, need);
            let along = (order.non_null(), order.nulls());
            let unbounded = walk(|d| candidates.contains(d), column.values(), along, direction, need, usize::MAX);
            prop_assert_eq!(unbounded.as_ref(), Some(&expected));
            let dense = DenseSet::of(&candidates, raw.len() as u32);
            let flat = walk(|d| dense.contains(d), column.values(), along, direction, need, usize::MAX);
            prop_assert_eq!(flat.as_ref(), Some(&expected));
            let budget = candidates.len() as usize;
            let bounded = walk(|d| candidates.contains(d), column.values(), along, direction, need, budget);
            prop_assert!(bounded.is_none() || bounded.as_ref() == Some(&expected));
            let keyed = candidates.iter().map(|d| (values[d as usize], d)).collect();
            prop_assert_eq!(&gather(keyed, direction, need.min(candidates.len() as usize)), &expected);
            let page = PageRequest { page: 1, page_size: need };
            let second: Vec<u32> = naive(&values, &candidates, direction, 2 * need).into_iter().skip(need).collect();
            prop_assert_eq!(page_by_column(&candidates, &column, &order, direction, page, None), second);
            // Candidates within bounds, paged along that part of the order only.
            let (lo, hi) = (bounds.0.min(bounds.1), bounds.0.max(bounds.1));
            let inside = |d: &u32| values[*d as usize].is_some_and(|v| (lo..=hi).contains(&v));
            let kept: RoaringBitmap = candidates.iter().filter(inside).collect();
            let first = PageRequest { page: 0, page_size: need };
            let paged = page_by_column(&kept, &column, &order, direction, first, Some((lo, hi)));
            prop_assert_eq!(paged, naive(&values, &kept, direction, need));
            std::fs::remove_file(path).unwrap();
        }
    }

    fn rand_suffix() -> u64 {
        use std::sync::atomic::{AtomicU64, Ordering};
        static NEXT: AtomicU64 = AtomicU64::new(0);
        NEXT.fetch_add(1, Ordering::Relaxed)
    }

    #[test]
    fn gather_orders_nulls_last_and_ties_by_doc() {
        let keyed = vec![
            (Some(5), 3),
            (None, 0),
            (Some(7), 4),
            (Some(5), 1),
            (Some(1), 2),
        ];
        assert_eq!(
            gather(keyed.clone(), Direction::Descending, 5),
            vec![4, 1, 3, 2, 0]
        );
        assert_eq!(
            gather(keyed.clone(), Direction::Ascending, 5),
            vec![2, 1, 3, 4, 0]
        );
        assert_eq!(gather(keyed, Direction::Descending, 2), vec![4, 1]);
    }

    #[test]
    fn doc_order_pages() {
        let c: RoaringBitmap = [2u32, 4, 6, 8, 10].into_iter().collect();
        assert_eq!(
            page_in_doc_order(
                &c,
                PageRequest {
                    page: 1,
                    page_size: 2
                }
            ),
            vec![6, 8]
        );
        assert_eq!(
            page_in_doc_order(
                &c,
                PageRequest {
                    page: 2,
                    page_size: 2
                }
            ),
            vec![10]
        );
        assert!(page_in_doc_order(
            &c,
            PageRequest {
                page: 3,
                page_size: 2
            }
        )
        .is_empty());
    }
}
