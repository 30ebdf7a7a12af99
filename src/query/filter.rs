//! Evaluates a [`Plan`] against one kind of an opened index.
//!
//! 1. Facet and doc-set clauses become bitmaps, intersected smallest first
//!    (an empty one ends the evaluation).
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
use crate::index::open::Kind;
use crate::index::IndexError;

/// Doc ids of `kind` matching every clause of `plan`.
pub fn evaluate(kind: &Kind, plan: &Plan) -> Result<RoaringBitmap, IndexError> {
    let mut sets: Vec<Set<'_>> = Vec::new();
    let mut ranges = Vec::new();
    for clause in &plan.clauses {
        match clause {
            Clause::Facet { field, values } => sets.push(Set::Shared(
                kind.facet(field)?
                    .shared_union_of(values.iter().map(String::as_str))?,
            )),
            Clause::Docs(docs) => sets.push(Set::Planned(docs)),
            Clause::Range {
                column,
                width,
                min,
                max,
            } => ranges.push(RangeProbe::locate(kind, column, *width, *min, *max)?),
        }
    }
    sets.sort_by_key(|s| s.get().len());
    let mut candidates = intersect_all(sets);
    ranges.sort_by_key(|r| (!r.is_block(), r.len()));
    for range in ranges {
        if candidates.as_ref().is_some_and(RoaringBitmap::is_empty) {
            break;
        }
        candidates = Some(range.among(candidates.as_ref(), CACHED_COLUMN_BYTES));
    }
    Ok(candidates.unwrap_or_else(|| every_doc(kind.docs)))
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

    #[test]
    fn intersection_stops_at_empty() {
        let a: RoaringBitmap = (0..10).collect();
        let b: RoaringBitmap = (5..20).collect();
        let sets = vec![Set::Shared(Arc::new(a)), Set::Planned(&b)];
        assert_eq!(intersect_all(sets).unwrap(), (5..10).collect());
        assert_eq!(intersect_all(vec![]), None);
    }
}
