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
        let mut doc_of_row = vec![0u32; rows];
        for (doc, &row) in row_of_doc.iter().enumerate() {
            doc_of_row[row as usize] = doc as u32;
        }
        ByDocId {
            row_of_doc,
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

/// Doc id orders of every kind.
#[derive(Debug, Clone)]
pub struct Orders {
    pub companies: ByDocId,
    pub deals: ByDocId,
    pub firms: ByDocId,
    pub people: ByDocId,
}

pub fn assign_doc_ids(facts: &Facts, derived: &Derived) -> Orders {
    let rank = &derived.deal_rank;
    let deals = ByDocId::sorted_by(facts.deals.len(), |a, b| {
        rank[a as usize].cmp(&rank[b as usize])
    });
    let latest: Vec<Option<u32>> = (0..facts.companies.len() as u32)
        .into_par_iter()
        .map(|c| {
            derived
                .companies
                .get(c)
                .latest_deal()
                .map(|d| rank[d as usize])
        })
        .collect();
    let latest = |c: u32| latest[c as usize];
    let companies = ByDocId::sorted_by(facts.companies.len(), |a, b| {
        asc_nulls_last(latest(a), latest(b))
            .then_with(|| id_cmp(facts.companies.id(a), facts.companies.id(b)))
    });
    let firm_dates: Vec<Option<Date>> = (0..facts.firms.len() as u32)
        .into_par_iter()
        .map(|f| derived.firms.get(f).stats.most_recent_deal_date)
        .collect();
    let firm_date = |f: u32| firm_dates[f as usize];
    let firms = ByDocId::sorted_by(facts.firms.len(), |a, b| {
        desc_nulls_last(firm_date(a), firm_date(b))
            .then_with(|| id_cmp(facts.firms.id(a), facts.firms.id(b)))
    });
    let person_dates: Vec<Option<Date>> = (0..facts.people.len() as u32)
        .into_par_iter()
        .map(|p| match derived.people.holds(p) {
            true => derived.people.get(p).stats.most_recent_deal_date,
            false => None,
        })
        .collect();
    let person_date = |p: u32| person_dates[p as usize];
    let people = ByDocId::sorted_by(facts.people.len(), |a, b| {
        desc_nulls_last(person_date(a), person_date(b))
            .then_with(|| id_cmp(facts.people.id(a), facts.people.id(b)))
    });
    Orders {
        companies,
        deals,
        firms,
        people,
    }
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
