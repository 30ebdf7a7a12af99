//! Evaluates a [`Plan`] against one kind of an opened index.
//!
//! 1. Facet and doc-set clauses become bitmaps, intersected smallest first
//!    (an empty one ends the evaluation). A facet clause of several values
//!    is united last, within the docs the others left when those are
//!    sparse (each value intersected with them; [`SPARSE_WITHIN`]), else
//!    whole and intersected; with no other clause, the clause of the
//!    fewest docs starts.
//! 2. Each range clause is located in its column's sort order by binary
//!    search ([`RangeProbe`]), which gives the number of docs in range
//!    for free. Ranges that are one block of doc ids go first (they only
//!    trim the candidates), then the others, narrowest first, each by the
//!    cheapest way for the candidates at hand (probe, scan, scatter…; see
//!    [`super::range`]). Without any bitmap clause the first range seeds
//!    the candidates.
//! 3. No clause at all means every doc.

use std::sync::Arc;

use roaring::RoaringBitmap;

use super::plan::{Clause, Plan};
use super::range::{RangeProbe, CACHED_COLUMN_BYTES};
use crate::index::facet::{shared_union, Facet};
use crate::index::open::Kind;
use crate::index::IndexError;

/// Doc ids of `kind` matching every clause of `plan`.
pub fn evaluate(kind: &Kind, plan: &Plan) -> Result<RoaringBitmap, IndexError> {
    let mut ranges = Vec::new();
    for clause in &plan.clauses {
        if let Clause::Range {
            column,
            width,
            min,
            max,
        } = clause
        {
            ranges.push(RangeProbe::locate(kind, column, *width, *min, *max)?);
        }
    }
    let unions = plan
        .clauses
        .iter()
        .any(|clause| matches!(clause, Clause::Facet { values, .. } if values.len() > 1));
    let block = if unions { block_of_all(&ranges) } else { None };
    let mut sets: Vec<Set<'_>> = Vec::new();
    let mut deferred = Vec::new();
    for clause in &plan.clauses {
        match clause {
            Clause::Facet { field, values } => {
                let facet = kind.facet(field)?;
                match &block {
                    Some(block) if values.len() > 1 => {
                        let within = facet.union_within(strs(values), block)?;
                        sets.push(Set::Shared(Arc::new(within)));
                    }
                    _ if values.len() > 1 => deferred.push((facet, &values[..])),
                    _ => sets.push(Set::Shared(facet.shared_union_of(strs(values))?)),
                }
            }
            Clause::Docs(docs) => sets.push(Set::Planned(docs)),
            Clause::Range { .. } => {}
        }
    }
    if sets.is_empty() {
        if let Some(smallest) = take_smallest(&mut deferred)? {
            sets.push(Set::Shared(smallest));
        }
    }
    sets.sort_by_key(|s| s.get().len());
    let mut candidates = intersect_all(sets);
    for (facet, values) in deferred {
        candidates = match candidates {
            Some(c) if !c.is_empty() && c.len() < kind.docs as u64 / SPARSE_WITHIN => {
                Some(facet.union_within(strs(values), &c)?)
            }
            Some(mut c) if !c.is_empty() => {
                c &= facet.shared_union_of(strs(values))?.as_ref();
                Some(c)
            }
            other => other,
        };
    }
    ranges.sort_by_key(|r| (!r.is_block(), r.len()));
    for range in ranges {
        if candidates.as_ref().is_some_and(RoaringBitmap::is_empty) {
            break;
        }
        candidates = Some(range.among(candidates.as_ref(), CACHED_COLUMN_BYTES));
    }
    Ok(candidates.unwrap_or_else(|| every_doc(kind.docs)))
}

/// A union of several values is taken within the other clauses' docs
/// when those are fewer than one doc in this many (each value intersected
/// with them, then united); past that, united whole and intersected.
const SPARSE_WITHIN: u64 = 16;

/// A facet clause of several values: the facet and its values.
type Union<'p> = (Arc<Facet>, &'p [String]);

/// A clause's values as `&str`.
fn strs(values: &[String]) -> impl ExactSizeIterator<Item = &str> {
    values.iter().map(String::as_str)
}

/// Takes out of `unions` (facet clauses of several values, left to be
/// taken within the other clauses' docs, at the cost of the containers
/// those docs have rather than of every doc of each value) the one whose
/// values hold the fewest docs, united, for a plan with no other set to
/// start from. Each value's doc ids are read once: those sized are those
/// united.
fn take_smallest(unions: &mut Vec<Union<'_>>) -> Result<Option<Arc<RoaringBitmap>>, IndexError> {
    let mut smallest: Option<(u64, usize, Vec<Arc<RoaringBitmap>>)> = None;
    for (i, (facet, values)) in unions.iter().enumerate() {
        let sets = facet.value_docids(strs(values))?;
        let docs = sets.iter().map(|s| s.len()).sum();
        if smallest.as_ref().is_none_or(|(fewest, ..)| docs < *fewest) {
            smallest = Some((docs, i, sets));
        }
    }
    Ok(smallest.map(|(_, i, sets)| {
        unions.swap_remove(i);
        shared_union(sets)
    }))
}

/// The block of doc ids every match lies in, when a range is one block
/// (the intersection of those blocks), as a bitmap: a union of several
/// facet values is then taken within it, at the cost of the containers
/// it covers rather than of every doc of each value. Built only for a
/// plan with such a union.
fn block_of_all(ranges: &[RangeProbe]) -> Option<RoaringBitmap> {
    let block = ranges
        .iter()
        .filter_map(RangeProbe::block)
        .reduce(|a, b| a.start.max(b.start)..a.end.min(b.end))?;
    let mut docs = RoaringBitmap::new();
    docs.insert_range(block);
    Some(docs)
}

/// All doc ids `0..docs`.
pub fn every_doc(docs: usize) -> RoaringBitmap {
    let mut all = RoaringBitmap::new();
    all.insert_range(0..docs as u32);
    all
}

/// A clause's set: shared with the facet cache, or the plan's own.
enum Set<'p> {
    Shared(Arc<RoaringBitmap>),
    Planned(&'p RoaringBitmap),
}

impl Set<'_> {
    fn get(&self) -> &RoaringBitmap {
        match self {
            Set::Shared(set) => set,
            Set::Planned(set) => set,
        }
    }

    /// The set itself when nothing else holds it, else a copy.
    fn into_owned(self) -> RoaringBitmap {
        match self {
            Set::Shared(set) => Arc::unwrap_or_clone(set),
            Set::Planned(set) => set.clone(),
        }
    }
}

/// The intersection of `sets`, sorted smallest first: the smallest is
/// copied (unless it is already owned), the others are read in place.
fn intersect_all(sets: Vec<Set<'_>>) -> Option<RoaringBitmap> {
    let mut it = sets.into_iter();
    let mut acc = it.next()?.into_owned();
    for s in it {
        if acc.is_empty() {
            break;
        }
        acc &= s.get();
    }
    Some(acc)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Unions of several values, taken within the other clauses' docs or
    /// one of them first when nothing else narrows, keep the docs of the
    /// unions intersected.
    #[test]
    fn deferred_unions_keep_the_same_docs() {
        use crate::index::build::build_fixture;
        use crate::index::Index;
        let index = Index::open(&build_fixture("unions-deferred", "2026-11-01")).unwrap();
        let deals = &index.deals;
        // Values `from..from + n` by size, largest first.
        let values = |field: &str, from: usize, n: usize| -> Vec<String> {
            let facet = deals.facet(field).unwrap();
            let mut all: Vec<usize> = (0..facet.len()).collect();
            all.sort_by_key(|&i| std::cmp::Reverse(facet.docids_at(i).unwrap().len()));
            let picked = all.iter().skip(from).take(n);
            picked.map(|&i| facet.value(i).to_string()).collect()
        };
        let union = |field: &str, pick: &[String]| {
            let facet = deals.facet(field).unwrap();
            facet.union_of(pick.iter().map(String::as_str)).unwrap()
        };
        let n_rounds = deals.facet("round").unwrap().len();
        let rare = values("round", n_rounds / 2, 1);
        let rounds = [
            values("round", 0, 3),
            values("round", 2, 2),
            values("round", 0, 1),
            rare,
        ];
        let industries = [
            values("company_industry", 0, 4),
            values("company_industry", 3, 1),
        ];
        let mut checked = 0;
        for r in &rounds {
            for i in &industries {
                let mut plan = Plan::default();
                plan.facet("round", Some(r));
                plan.facet("company_industry", Some(i));
                let expected = &union("round", r) & &union("company_industry", i);
                assert_eq!(evaluate(deals, &plan).unwrap(), expected, "{r:?} {i:?}");
                checked += usize::from(!expected.is_empty());
            }
        }
        assert!(checked > 4, "{checked} non-empty");
    }

    /// A union of several facet values taken within a block range keeps
    /// the same deals as the whole union intersected with the range, for
    /// blocks across the doc ids, empty ones too.
    #[test]
    fn unions_within_a_block_keep_the_same_docs() {
        use crate::index::build::build_fixture;
        use crate::index::column::NULL_I32;
        use crate::index::Index;
        use crate::query::plan::Width;
        use crate::query::request::Range;
        use crate::schema::Date;
        let index = Index::open(&build_fixture("union-within", "2026-11-01")).unwrap();
        let deals = &index.deals;
        let facet = deals.facet("round").unwrap();
        let values: Vec<String> = (0..facet.len().min(4))
            .map(|i| facet.value(i).to_string())
            .collect();
        assert!(values.len() > 2, "{values:?}");
        let dates = deals.column_i32("date").unwrap();
        let mut known: Vec<i32> = dates
            .values()
            .iter()
            .copied()
            .filter(|&d| d != NULL_I32)
            .collect();
        known.sort_unstable();
        let cuts = [
            known[0],
            known[known.len() / 3],
            known[known.len() / 2],
            known[known.len() - 1],
        ];
        let date = |min, max| RangeProbe::locate(deals, "date", Width::I32, min, max).unwrap();
        assert!(
            date(cuts[1] as i64, cuts[2] as i64).is_block(),
            "deal dates are blocks"
        );
        let mut checked = 0;
        for (i, &min) in cuts.iter().enumerate() {
            for &max in &cuts[i..] {
                for pick in [&values[..2], &values[1..], &values[..]] {
                    let mut plan = Plan::default();
                    plan.facet("round", Some(pick));
                    plan.days(
                        "date",
                        &Range {
                            min: Some(Date(min)),
                            max: Some(Date(max)),
                        },
                    );
                    let in_range = (0..deals.docs as u32).filter(|&d| {
                        dates
                            .get(d)
                            .is_some_and(|v| v != NULL_I32 && (min..=max).contains(&v))
                    });
                    let union = facet.union_of(pick.iter().map(String::as_str)).unwrap();
                    let expected = &union & &in_range.collect::<RoaringBitmap>();
                    assert_eq!(
                        evaluate(deals, &plan).unwrap(),
                        expected,
                        "{pick:?} {min}..={max}"
                    );
                    checked += usize::from(!expected.is_empty());
                }
            }
        }
        assert!(checked > 5, "{checked} non-empty");
    }

    #[test]
    fn intersection_stops_at_empty() {
        let a: RoaringBitmap = (0..10).collect();
        let b: RoaringBitmap = (5..20).collect();
        let sets = vec![Set::Shared(Arc::new(a)), Set::Planned(&b)];
        assert_eq!(intersect_all(sets).unwrap(), (5..10).collect());
        assert_eq!(intersect_all(vec![]), None);
    }
}
