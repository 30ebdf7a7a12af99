//! Doc id assignment. Each kind's doc ids follow its default sort, so the
//! first page of a default-sorted query is simply the smallest doc ids of the
//! candidate bitmap:
//!
//! | kind | doc id order (ties: UUID ascending) |
//! |---|---|
//! | deals | recency: date desc, created_at desc (undated last) |
//! | companies | recency of the latest deal (companies without deals last) |
//! | firms | most recent deal date desc (no deals last) |
//! | people | most recent deal date desc (non-investors last) |

use std::cmp::Ordering;
use std::sync::Arc;

use rayon::prelude::*;
use uuid::Uuid;

use crate::ingest::derive::{desc_nulls_last, Derived};
use crate::ingest::Facts;
use crate::schema::Date;

/// A permutation between rows (dump order) and doc ids.
#[derive(Debug, Clone, PartialEq)]
pub struct ByDocId {
    /// `row_of_doc[docid]` is the row of that doc id.
    pub row_of_doc: Vec<u32>,
    /// `doc_of_row[row]` is the doc id of that row.
    pub doc_of_row: Vec<u32>,
}

impl ByDocId {
    /// Doc ids ascending in the order `cmp` sorts rows.
    pub fn sorted_by(rows: usize, cmp: impl Fn(u32, u32) -> Ordering + Sync) -> ByDocId {
        let mut row_of_doc: Vec<u32> = (0..rows as u32).collect();
        row_of_doc.par_sort_by(|&a, &b| cmp(a, b));
        let doc_of_row = inverse(&row_of_doc);
        ByDocId {
            row_of_doc,
            doc_of_row,
        }
    }

    /// The permutation whose doc ids by row are `doc_of_row` (derivation's
    /// deal ranks: it needs the ranks, not the order, so the order is
    /// rebuilt here rather than both being held through derivation).
    pub fn from_doc_of_row(doc_of_row: Vec<u32>) -> ByDocId {
        ByDocId {
            row_of_doc: inverse(&doc_of_row),
            doc_of_row,
        }
    }

    pub fn doc(&self, row: u32) -> u32 {
        self.doc_of_row[row as usize]
    }

    pub fn row(&self, doc: u32) -> u32 {
        self.row_of_doc[doc as usize]
    }

    pub fn len(&self) -> usize {
        self.row_of_doc.len()
    }

    pub fn is_empty(&self) -> bool {
        self.row_of_doc.is_empty()
    }
}

/// The inverse of the permutation `perm` of `0..perm.len()`.
fn inverse(perm: &[u32]) -> Vec<u32> {
    let mut inverse = vec![0u32; perm.len()];
    for (i, &p) in perm.iter().enumerate() {
        inverse[p as usize] = i as u32;
    }
    inverse
}

/// Doc id orders of every kind (shared with the build's references).
#[derive(Debug, Clone)]
pub struct Orders {
    pub companies: Arc<ByDocId>,
    pub deals: Arc<ByDocId>,
    pub firms: Arc<ByDocId>,
    pub people: Arc<ByDocId>,
}

/// The doc ids of every kind; the deals' are their recency ranks, which
/// move out of `derived`.
pub fn assign_doc_ids(facts: &Facts, derived: &mut Derived) -> Orders {
    let deals = ByDocId::from_doc_of_row(std::mem::take(&mut derived.deal_rank));
    let rank = &deals.doc_of_row;
    let latest = keyed(facts.companies.len(), |c| {
        let latest = derived.companies.get(c).latest_deal();
        latest.map(|d| rank[d as usize])
    });
    let companies = ByDocId::sorted_by(facts.companies.len(), |a, b| {
        asc_nulls_last(latest[a as usize], latest[b as usize])
            .then_with(|| id_cmp(facts.companies.id(a), facts.companies.id(b)))
    });
    let firm_dates = keyed(facts.firms.len(), |f| {
        derived.firms.get(f).stats.most_recent_deal_date
    });
    let person_dates = keyed(facts.people.len(), |p| {
        let investor = derived.people.holds(p);
        investor.then(|| derived.people.get(p).stats.most_recent_deal_date)?
    });
    Orders {
        companies: Arc::new(companies),
        deals: Arc::new(deals),
        firms: Arc::new(by_recent_date(facts.firms.ids(), &firm_dates)),
        people: Arc::new(by_recent_date(facts.people.ids(), &person_dates)),
    }
}

/// `key` of every row `0..rows`, computed in parallel: each aggregate is
/// decoded once, not at every comparison of the sort.
fn keyed<K: Send>(rows: usize, key: impl Fn(u32) -> K + Sync + Send) -> Vec<K> {
    (0..rows as u32).into_par_iter().map(key).collect()
}

/// Most recent deal date first (undated last), ties by id.
fn by_recent_date(ids: &[Uuid], dates: &[Option<Date>]) -> ByDocId {
    ByDocId::sorted_by(ids.len(), |a, b| {
        desc_nulls_last(dates[a as usize], dates[b as usize])
            .then_with(|| id_cmp(ids[a as usize], ids[b as usize]))
    })
}

fn asc_nulls_last<T: Ord>(a: Option<T>, b: Option<T>) -> Ordering {
    match (a, b) {
        (Some(x), Some(y)) => x.cmp(&y),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    }
}

fn id_cmp(a: Uuid, b: Uuid) -> Ordering {
    a.cmp(&b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_directions_of_a_permutation_agree() {
        let keys = [5u32, 1, 4, 1, 9, 2, 6];
        let sorted = ByDocId::sorted_by(keys.len(), |a, b| {
            keys[a as usize].cmp(&keys[b as usize]).then(a.cmp(&b))
        });
        assert_eq!(sorted.row_of_doc, vec![1, 3, 5, 2, 0, 6, 4]);
        for row in 0..keys.len() as u32 {
            assert_eq!(sorted.row(sorted.doc(row)), row);
        }
        assert_eq!(ByDocId::from_doc_of_row(sorted.doc_of_row.clone()), sorted);
    }
}
