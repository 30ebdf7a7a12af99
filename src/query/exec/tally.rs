//! Per-entity counters filled while walking a set of deals. Doc ids below
//! `dense` get a slot in an array (for people: those with a dated deal,
//! which doc ids put first; for firms: all), the others a hash map; the
//! touched doc ids are listed as they come, so reading the result never
//! scans the array. The array is borrowed from a per-thread scratch buffer
//! and handed back clean (only touched slots are reset), so a query never
//! pays for allocating and clearing a slot per doc.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

use roaring::RoaringBitmap;

use crate::index::column::Column;
use crate::index::open::Kind;
use crate::index::{Index, IndexError};

thread_local! {
    /// Slots kept between the queries of one thread, all `Acc::EMPTY`.
    static SCRATCH: RefCell<Vec<Acc>> = const { RefCell::new(Vec::new()) };
}

/// Counts of one entity over the qualifying deals.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Acc {
    pub deals: u32,
    pub leads: u32,
    /// Latest deal date (days), `i32::MIN` when none.
    pub latest: i32,
}

impl Acc {
    const EMPTY: Acc = Acc {
        deals: 0,
        leads: 0,
        latest: i32::MIN,
    };

    fn add(&mut self, lead: bool, date: Option<i32>) {
        self.deals += 1;
        self.leads += lead as u32;
        if let Some(d) = date {
            self.latest = self.latest.max(d);
        }
    }
}

pub struct Tally {
    /// Slots for doc ids below `limit` (the buffer may be longer).
    dense: Vec<Acc>,
    limit: usize,
    sparse: HashMap<u32, Acc>,
    touched: Vec<u32>,
}

impl Tally {
    /// A tally with array slots for doc ids below `dense`.
    pub fn new(dense: usize) -> Tally {
        let mut slots = SCRATCH.with(|s| std::mem::take(&mut *s.borrow_mut()));
        slots.resize(slots.len().max(dense), Acc::EMPTY);
        Tally {
            dense: slots,
            limit: dense,
            sparse: HashMap::new(),
            touched: Vec::new(),
        }
    }

    /// Counts one deal of `doc`.
    pub fn add(&mut self, doc: u32, lead: bool, date: Option<i32>) {
        let acc = match (doc as usize) < self.limit {
            true => &mut self.dense[doc as usize],
            false => self.sparse.entry(doc).or_insert(Acc::EMPTY),
        };
        if acc.deals == 0 {
            self.touched.push(doc);
        }
        acc.add(lead, date);
    }

    pub fn get(&self, doc: u32) -> Acc {
        match (doc as usize) < self.limit {
            true => self.dense[doc as usize],
            false => self.sparse.get(&doc).copied().unwrap_or(Acc::EMPTY),
        }
    }

    /// Doc ids with at least one counted deal, ascending.
    pub fn touched(&self) -> Vec<u32> {
        let mut docs = self.touched.clone();
        docs.sort_unstable();
        docs
    }
}

impl Drop for Tally {
    fn drop(&mut self) {
        let mut slots = std::mem::take(&mut self.dense);
        for &doc in &self.touched {
            if (doc as usize) < self.limit {
                slots[doc as usize] = Acc::EMPTY;
            }
        }
        SCRATCH.with(|s| {
            let mut kept = s.borrow_mut();
            if slots.len() >= kept.len() {
                *kept = slots;
            }
        });
    }
}

/// Counts over a deal set D taken from the other side: an entity's stored
/// totals over every deal (`total_deal_count`, `lead_deal_count`) minus a
/// tally over the deals *not* in D ([`other_deals`]). When D holds most
/// deals, that tally walks fewer of them than D would.
pub struct Totals {
    deals: Arc<Column<i32>>,
    leads: Arc<Column<i32>>,
    rest: Tally,
}

impl Totals {
    /// `kind`'s totals less `rest`, its tally over the other deals.
    pub fn of(kind: &Kind, rest: Tally) -> Result<Totals, IndexError> {
        Ok(Totals {
            deals: kind.column_i32("total_deal_count")?,
            leads: kind.column_i32("lead_deal_count")?,
            rest,
        })
    }

    /// `doc`'s (deals, leads) over D.
    pub fn get(&self, doc: u32) -> (u32, u32) {
        let total = |c: &Column<i32>| c.get(doc).unwrap_or(0).max(0) as u32;
        let other = self.rest.get(doc);
        (
            total(&self.deals).saturating_sub(other.deals),
            total(&self.leads).saturating_sub(other.leads),
        )
    }
}

/// The deals not in `d`.
pub fn other_deals(index: &Index, d: &RoaringBitmap) -> RoaringBitmap {
    let mut rest = RoaringBitmap::new();
    rest.insert_range(0..index.deals.docs as u32);
    rest -= d;
    rest
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dense_and_sparse_slots_agree() {
        for dense in [0, 5, 10] {
            let mut t = Tally::new(dense);
            t.add(7, false, None);
            t.add(3, true, Some(5));
            t.add(3, false, Some(2));
            assert_eq!(
                t.get(3),
                Acc {
                    deals: 2,
                    leads: 1,
                    latest: 5
                }
            );
            assert_eq!(t.get(7).latest, i32::MIN);
            assert_eq!(t.get(4).deals, 0);
            assert_eq!(t.touched(), vec![3, 7]);
        }
    }

    #[test]
    fn scratch_slots_come_back_clean() {
        {
            let mut t = Tally::new(8);
            t.add(2, true, Some(9));
        }
        let t = Tally::new(4);
        assert_eq!(t.get(2), Acc::EMPTY);
        assert_eq!(t.limit, 4);
        assert!(t.dense.len() >= 8, "the longer buffer is kept");
    }
}
