//! Per-entity counters filled while walking a set of deals. Doc ids below
//! `dense` get a slot in an array (for people: those with a dated deal,
//! which doc ids put first; for firms: all), the others a hash map; the
//! touched doc ids are listed as they come, so reading the result never
//! scans the array. The array is borrowed from a per-thread pool of
//! scratch buffers (a query may hold two tallies) and handed back clean
//! (only touched slots are reset), so a query never pays for allocating
//! and clearing a slot per doc.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

use roaring::RoaringBitmap;

use crate::index::column::Column;
use crate::index::open::Kind;
use crate::index::value_counts::ValueCounts;
use crate::index::{Index, IndexError};

use super::scratch;
use super::span::walk_ns;

thread_local! {
    /// Slot buffers kept between the queries of one thread, all `Slot::EMPTY`.
    static SCRATCH: RefCell<Vec<Vec<Slot>>> = const { RefCell::new(Vec::new()) };
}

/// Counts of one entity over the qualifying deals.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Acc {
    pub deals: u32,
    pub leads: u32,
}

impl Acc {
    const EMPTY: Acc = Acc { deals: 0, leads: 0 };
}

/// An array slot: 4 bytes, so that a slot per doc of the dense part stays
/// in cache for as many docs as possible (243,000 dated investors at M:
/// 1 MB, within a core's L2; C4 at M 4 % faster in sum than with 8-byte
/// slots, 2026-11-28). An entity whose deals reach [`SPILLED`] moves to
/// the map.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Slot {
    deals: u16,
    leads: u16,
}

/// `Slot::deals` of an entity counted in the map instead.
const SPILLED: u16 = u16::MAX;

impl Slot {
    const EMPTY: Slot = Slot { deals: 0, leads: 0 };
}

pub struct Tally {
    /// Slots for doc ids below `limit` (the buffer may be longer).
    dense: Vec<Slot>,
    limit: usize,
    /// Doc ids from `limit` on, and spilled ones.
    sparse: HashMap<u32, Acc>,
    touched: Vec<u32>,
}

impl Tally {
    /// A tally with array slots for doc ids below `dense`.
    pub fn new(dense: usize) -> Tally {
        let mut slots = scratch::take(&SCRATCH);
        slots.resize(slots.len().max(dense), Slot::EMPTY);
        Tally {
            dense: slots,
            limit: dense,
            sparse: HashMap::new(),
            touched: Vec::new(),
        }
    }

    /// Counts one deal of `doc`.
    #[inline]
    pub fn add(&mut self, doc: u32, lead: bool) {
        let leads = u32::from(lead);
        self.add_counts(doc, Acc { deals: 1, leads });
    }

    /// Counts `acc` (several deals at once, `leads <= deals`) for `doc`.
    /// The slot update is all that is inlined into a walk's loop; a doc
    /// past the dense part or a count past 16 bits goes the cold way.
    #[inline(always)]
    pub fn add_counts(&mut self, doc: u32, acc: Acc) {
        if acc.deals == 0 {
            return;
        }
        if let Some(slot) = self.dense[..self.limit].get_mut(doc as usize) {
            let deals = u32::from(slot.deals) + acc.deals;
            if deals < u32::from(SPILLED) {
                if slot.deals == 0 {
                    self.touched.push(doc);
                }
                // leads ≤ deals < SPILLED.
                *slot = Slot {
                    deals: deals as u16,
                    leads: (u32::from(slot.leads) + acc.leads) as u16,
                };
                return;
            }
        }
        self.add_to_map(doc, acc);
    }

    /// Counts `acc` for `doc` in the map: a doc past the dense part, or
    /// one whose slot is (or is now) spilled.
    #[cold]
    #[inline(never)]
    fn add_to_map(&mut self, doc: u32, acc: Acc) {
        if (doc as usize) < self.limit {
            if self.dense[doc as usize].deals != SPILLED {
                self.spill(doc);
            }
        } else if !self.sparse.contains_key(&doc) {
            self.touched.push(doc);
        }
        let counted = self.sparse.entry(doc).or_insert(Acc::EMPTY);
        counted.deals += acc.deals;
        counted.leads += acc.leads;
    }

    /// Moves `doc`'s counts (below `limit`) from its slot to the map.
    #[cold]
    fn spill(&mut self, doc: u32) {
        let slot = &mut self.dense[doc as usize];
        if slot.deals == 0 {
            self.touched.push(doc);
        }
        let (deals, leads) = (u32::from(slot.deals), u32::from(slot.leads));
        slot.deals = SPILLED;
        self.sparse.insert(doc, Acc { deals, leads });
    }

    #[inline]
    pub fn get(&self, doc: u32) -> Acc {
        if let Some(slot) = self.dense[..self.limit].get(doc as usize) {
            if slot.deals != SPILLED {
                let (deals, leads) = (u32::from(slot.deals), u32::from(slot.leads));
                return Acc { deals, leads };
            }
        }
        self.sparse.get(&doc).copied().unwrap_or(Acc::EMPTY)
    }

    /// `(doc, pick(doc, counts))` of each doc with a counted deal,
    /// ascending, in one pass: the touched list sorted, or, when it covers
    /// much of the dense part, the slots read in order and written without
    /// a branch on the count (counted or not is a coin toss for the
    /// predictor), then the docs past them sorted. At M, over the 211,000
    /// people of two rounds, this took a fifth of the time of listing the
    /// docs ([`Tally::touched`]) then reading each one's counts.
    pub fn counted(&self, pick: impl Fn(u32, Acc) -> u32) -> Vec<(u32, u32)> {
        if self.touched.len() < self.limit / 16 {
            let docs = self.touched().into_iter();
            return docs.map(|d| (d, pick(d, self.get(d)))).collect();
        }
        let mut out = vec![(0, 0); self.touched.len() + 1];
        let mut end = 0;
        for (d, slot) in self.dense[..self.limit].iter().enumerate() {
            let d = d as u32;
            let acc = match slot.deals {
                SPILLED => self.sparse[&d],
                _ => Acc {
                    deals: u32::from(slot.deals),
                    leads: u32::from(slot.leads),
                },
            };
            out[end] = (d, pick(d, acc));
            end += usize::from(slot.deals > 0);
        }
        out.truncate(end);
        let mut beyond: Vec<u32> = self.sparse_beyond().collect();
        beyond.sort_unstable();
        out.extend(beyond.into_iter().map(|d| (d, pick(d, self.sparse[&d]))));
        out
    }

    /// The docs counted in the map past the dense part, in no order.
    fn sparse_beyond(&self) -> impl Iterator<Item = u32> + '_ {
        let limit = self.limit;
        self.sparse
            .keys()
            .copied()
            .filter(move |&d| d as usize >= limit)
    }

    /// Whether no deal was counted.
    pub fn is_empty(&self) -> bool {
        self.touched.is_empty()
    }

    /// Doc ids with at least one counted deal, ascending: the touched list
    /// sorted, or, when it covers much of the dense part, a scan of the
    /// slots (sequential, cheaper than sorting) and the sparse ones sorted.
    pub fn touched(&self) -> Vec<u32> {
        if self.touched.len() < self.limit / 16 {
            let mut docs = self.touched.clone();
            docs.sort_unstable();
            return docs;
        }
        let dense = self.dense[..self.limit].iter().enumerate();
        let mut docs: Vec<u32> = dense
            .filter(|(_, a)| a.deals > 0)
            .map(|(d, _)| d as u32)
            .collect();
        let mut sparse: Vec<u32> = self.sparse_beyond().collect();
        sparse.sort_unstable();
        docs.extend(sparse);
        docs
    }
}

impl Drop for Tally {
    fn drop(&mut self) {
        let mut slots = std::mem::take(&mut self.dense);
        for &doc in &self.touched {
            if (doc as usize) < self.limit {
                slots[doc as usize] = Slot::EMPTY;
            }
        }
        scratch::give(&SCRATCH, slots);
    }
}

/// Counts over a deal set D taken from a superset B of it: each entity's
/// counts over B minus a tally over the deals of B *not* in D. B is every
/// deal (the stored totals, `total_deal_count` and `lead_deal_count`) or
/// a superset with value counts (`supersets`); when D holds most of B,
/// the tally walks fewer deals than D would.
pub struct Totals {
    base: Base,
    rest: Tally,
}

/// An entity's counts over the superset B.
enum Base {
    Columns {
        deals: Arc<Column<i32>>,
        leads: Arc<Column<i32>>,
    },
    Counted(Tally),
}

impl Totals {
    /// `kind`'s totals less `rest`, its tally over the other deals.
    pub fn of(kind: &Kind, rest: Tally) -> Result<Totals, IndexError> {
        let base = Base::Columns {
            deals: kind.column_i32("total_deal_count")?,
            leads: kind.column_i32("lead_deal_count")?,
        };
        Ok(Totals { base, rest })
    }

    /// The sum of `values`' counts less `rest`, the tally over the deals
    /// of those values not in D; `dense` as in [`Tally::new`].
    pub fn of_values(counts: &ValueCounts, values: &[String], rest: Tally, dense: usize) -> Totals {
        let mut base = Tally::new(dense);
        for value in values {
            let c = counts.of(value);
            for ((&doc, &deals), &leads) in c.docs.iter().zip(c.deals).zip(c.leads) {
                base.add_counts(doc, Acc { deals, leads });
            }
        }
        Totals {
            base: Base::Counted(base),
            rest,
        }
    }

    /// `doc`'s (deals, leads) over D.
    #[inline]
    pub fn get(&self, doc: u32) -> (u32, u32) {
        let total = |c: &Column<i32>| c.get(doc).unwrap_or(0).max(0) as u32;
        let base = match &self.base {
            Base::Columns { deals, leads } => Acc {
                deals: total(deals),
                leads: total(leads),
            },
            Base::Counted(tally) => tally.get(doc),
        };
        let other = self.rest.get(doc);
        (
            base.deals.saturating_sub(other.deals),
            base.leads.saturating_sub(other.leads),
        )
    }

    /// `(doc, deals over D)` (leads, when `leads`) of each doc with a deal
    /// in B, ascending, read in one pass ([`Tally::counted`]); `None` when
    /// B is every deal.
    pub fn based_counts(&self, leads: bool) -> Option<Vec<(u32, u32)>> {
        let Base::Counted(base) = &self.base else {
            return None;
        };
        let pick = |b: Acc, r: Acc| match leads {
            true => b.leads.saturating_sub(r.leads),
            false => b.deals.saturating_sub(r.deals),
        };
        Some(match self.rest.is_empty() {
            true => base.counted(|_, b| pick(b, Acc::EMPTY)),
            false => base.counted(|d, b| pick(b, self.rest.get(d))),
        })
    }
}

/// The costs, in nanoseconds, of the ways of counting each entity's deals
/// in a set D: walking D's deals (each one's edges into per-entity
/// counters; a deal costs more when D is sparse, since consecutive deals
/// then share no cache line), reading every entity's own deals and testing
/// each against D as a bitset (see `dense`), or adding up value counts
/// (an entry a counter update, see `supersets`).
pub struct Sides {
    /// A deal's cost when the deals walked are this share of those around
    /// them (all deals, or a chunk's: see `span::walk_ns`).
    pub deal_ns: fn(f64) -> u64,
    /// In picoseconds: an edge tested costs well under a nanosecond.
    pub entity_edge_ps: u64,
    pub entry_ns: u64,
}

/// Deals walked are sparse below 1 in 20 of those around them (consecutive
/// deals then share no cache line), dense from there.
pub const SPARSE_BELOW: f64 = 0.05;

impl Sides {
    /// Walking `walked` of the `all` deals, spread evenly.
    pub fn walk_ns(&self, walked: u64, all: u64) -> u64 {
        walked * (self.deal_ns)(walked as f64 / all.max(1) as f64)
    }

    /// Walking the deals counted in `chunks` (see `span::chunk_counts`).
    pub fn walk_chunks_ns(&self, chunks: impl Iterator<Item = (u64, u64)>) -> u64 {
        walk_ns(chunks, self.deal_ns)
    }

    /// Reading `edges` entity edges, plus a bit set per deal of D (`d`
    /// deals; about 2.5 ns each, 0.5 ms for 207,000 deals at M).
    pub fn entity_ns(&self, d: u64, edges: u64) -> u64 {
        edges.saturating_mul(self.entity_edge_ps) / 1000 + d * 5 / 2
    }

    /// Whether reading `edges` entity edges is cheaper than walking
    /// `walked` of the `all` deals.
    pub fn entity_side(&self, d: u64, walked: u64, all: u64, edges: u64) -> bool {
        self.entity_ns(d, edges) < self.walk_ns(walked, all)
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
        for dense in [0, 5, 10, 1000] {
            let mut t = Tally::new(dense);
            t.add(7, false);
            t.add(3, true);
            t.add(3, false);
            assert_eq!(t.get(3), Acc { deals: 2, leads: 1 });
            assert_eq!(t.get(7), Acc { deals: 1, leads: 0 });
            assert_eq!(t.get(4).deals, 0);
            assert_eq!(t.touched(), vec![3, 7]);
            (0..dense as u32).rev().for_each(|d| t.add(d, false));
            t.add(12, false);
            let mut all: Vec<u32> = (0..dense as u32).chain([3, 7, 12]).collect();
            all.sort_unstable();
            all.dedup();
            assert_eq!(t.touched(), all, "scanned or sorted, ascending and once");
            t.add_counts(3, Acc { deals: 4, leads: 2 });
            t.add_counts(20, Acc { deals: 0, leads: 0 });
            assert_eq!(t.get(3).deals, 6 + u32::from(dense > 3));
            assert_eq!(t.touched(), all, "nothing counted for 20");
        }
    }

    /// Counts past a slot's 16 bits move to the map, exactly, and the doc
    /// is still touched once; its slot comes back clean.
    #[test]
    fn large_counts_spill_exactly() {
        for dense in [0, 10] {
            let mut t = Tally::new(dense);
            t.add_counts(
                3,
                Acc {
                    deals: 65_000,
                    leads: 10,
                },
            );
            (0..600).for_each(|i| t.add(3, i % 2 == 0));
            t.add_counts(
                4,
                Acc {
                    deals: 70_000,
                    leads: 70_000,
                },
            );
            t.add(5, true);
            assert_eq!(
                t.get(3),
                Acc {
                    deals: 65_600,
                    leads: 310
                }
            );
            assert_eq!(
                t.get(4),
                Acc {
                    deals: 70_000,
                    leads: 70_000
                }
            );
            assert_eq!(t.get(5), Acc { deals: 1, leads: 1 });
            assert_eq!(t.touched(), vec![3, 4, 5]);
            (0..dense as u32).for_each(|d| t.add(d, false));
            let all: Vec<u32> = (0..dense as u32)
                .chain([3, 4, 5])
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect();
            assert_eq!(t.touched(), all, "scanned: spilled docs once");
            assert_eq!(t.get(3).deals, 65_600 + u32::from(dense > 3));
        }
        let t = Tally::new(10);
        assert!((0..10).all(|d| t.get(d) == Acc::EMPTY));
    }

    /// One pass over the slots or the touched list sorted, spilled and
    /// sparse docs included: each counted doc once, ascending, with its
    /// counts.
    #[test]
    fn counted_lists_each_doc_with_its_counts() {
        for (dense, docs) in [(0, 40), (100, 3), (100, 90), (1000, 1000)] {
            let mut t = Tally::new(dense);
            for d in (0..docs as u32).rev().step_by(3).chain([5, 5, 2_000]) {
                t.add(d, d % 2 == 0);
            }
            t.add_counts(
                4,
                Acc {
                    deals: 70_000,
                    leads: 1,
                },
            );
            let want: Vec<(u32, u32)> = t.touched().iter().map(|&d| (d, t.get(d).deals)).collect();
            assert_eq!(t.counted(|_, acc| acc.deals), want, "dense {dense}");
            let leads: Vec<(u32, u32)> =
                want.iter().map(|&(d, _)| (d, t.get(d).leads + d)).collect();
            assert_eq!(t.counted(|d, acc| acc.leads + d), leads);
        }
    }

    #[test]
    fn scratch_slots_come_back_clean() {
        {
            let mut t = Tally::new(8);
            t.add(2, true);
        }
        let t = Tally::new(4);
        assert_eq!(t.get(2), Acc::EMPTY);
        assert_eq!(t.limit, 4);
        assert!(t.dense.len() >= 8, "the kept buffer is reused");
        let mut second = Tally::new(8);
        second.add(5, false);
        drop((t, second));
        let (a, b) = (Tally::new(8), Tally::new(8));
        assert!((0..8).all(|d| a.get(d) == Acc::EMPTY && b.get(d) == Acc::EMPTY));
    }
}
