//! Value counts: for each value of a deal facet, the entities (firms or
//! people) with deals of that value and how many, led or not. An entity's
//! deals among the deals of a value are then read, not counted: counting
//! a broad set of deals reads a few entries per entity instead of every
//! deal (`query::exec::supersets`). Two facets are counted this way:
//! `round`, which each deal has exactly one value of (an entity's deals
//! among several rounds are the sum of its counts for each), and
//! `company_super_category`, which a deal may have several values of
//! (only one value's counts are used at a time). A third, the counts of
//! `company_industry` ([`INDUSTRY`]), is not stored but derived in memory
//! ([`ValueCounts::derive`]; at M, 2.6 million entries, 31 MB, in 0.27 s
//! for firms; 4.6 million, 55 MB, in 0.88 s for people), and so are the
//! counts of `company_location` ([`LOCATION`]).
//!
//! Arrays of counts `C` in a bundle (entries of value `i` are
//! `offsets[i]..offsets[i+1]`, entities ascending within a value):
//!
//! | array | type | content |
//! |---|---|---|
//! | `counts.C.keys` | u8 | the values, UTF-8, concatenated in sorted order |
//! | `counts.C.key_offsets` | u64 × (v+1) | value `i` is `keys[off[i]..off[i+1]]` |
//! | `counts.C.offsets` | u32 × (v+1) | value `i`'s entries |
//! | `counts.C.docs` | u32 × entries | entity doc ids |
//! | `counts.C.deals` | u32 × entries | the entity's deals of the value (≥ 1) |
//! | `counts.C.leads` | u32 × entries | how many of them it led (≤ deals) |
//!
//! The deals counted are exactly those of the deal-side relation the query
//! would otherwise walk (`deals.firms`, `deals.participants`), one per
//! (deal, entity) edge: the counts and the walk agree by construction, and
//! the oracle tests hold them to it.

use std::collections::HashMap;
use std::io;
use std::sync::Arc;

use rayon::prelude::*;
use roaring::RoaringBitmap;

use super::facet::{offsets_valid, Facet};
use super::format::{ArrayRef, Bundle, BundleWriter};
use super::relation::Edges;
use super::IndexError;

/// A deal facet whose values are counted, and the names of its counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CountedFacet {
    /// The facet on deals.
    pub facet: &'static str,
    /// Counts of firms (`deals.firms` edges) and of people
    /// (`deals.participants` edges).
    pub firms: &'static str,
    pub people: &'static str,
}

/// Each deal has exactly one value: any number of values add up.
pub const ROUND: CountedFacet = CountedFacet {
    facet: "round",
    firms: "round_firms",
    people: "round_people",
};

/// A deal has its company's super categories: one value at a time.
pub const SUPER_CATEGORY: CountedFacet = CountedFacet {
    facet: "company_super_category",
    firms: "super_firms",
    people: "super_people",
};

/// Every facet counted, and so every counts name an index holds.
pub const COUNTED: [CountedFacet; 2] = [ROUND, SUPER_CATEGORY];

/// Counts deals per (value, entity) while building: memory grows with
/// the entries written (about 16 bytes each), not with the edges added.
#[derive(Debug, Default)]
pub struct ValueCountsBuilder {
    /// Per value: entity → (deals, leads).
    entries: HashMap<String, HashMap<u32, (u32, u32)>>,
}

/// One value's entries: parallel slices.
#[derive(Debug, Clone, Copy, Default)]
pub struct Counted<'a> {
    pub docs: &'a [u32],
    pub deals: &'a [u32],
    pub leads: &'a [u32],
}

impl ValueCountsBuilder {
    /// One deal of `value` for `entity`, led or not.
    pub fn add(&mut self, value: &str, entity: u32, led: bool) {
        let entities = match self.entries.get_mut(value) {
            Some(entities) => entities,
            None => self.entries.entry(value.to_string()).or_default(),
        };
        let slot = entities.entry(entity).or_default();
        slot.0 += 1;
        slot.1 += u32::from(led);
    }

    /// Writes counts `name` into `out`.
    pub fn write(self, out: &mut BundleWriter, name: &str) -> io::Result<()> {
        let mut values: Vec<_> = self.entries.into_iter().collect();
        values.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        let (mut keys, mut key_offsets) = (Vec::new(), vec![0u64]);
        let (mut offsets, mut docs) = (vec![0u32], Vec::new());
        let (mut deals, mut leads) = (Vec::new(), Vec::new());
        for (value, entities) in values {
            keys.extend_from_slice(value.as_bytes());
            key_offsets.push(keys.len() as u64);
            let mut entities: Vec<(u32, (u32, u32))> = entities.into_iter().collect();
            entities.par_sort_unstable_by_key(|e| e.0);
            for (doc, (d, l)) in entities {
                docs.push(doc);
                deals.push(d);
                leads.push(l);
            }
            offsets.push(u32::try_from(docs.len()).map_err(io::Error::other)?);
        }
        out.put_bytes(&format!("counts.{name}.keys"), &keys)?;
        out.put(&format!("counts.{name}.key_offsets"), &key_offsets)?;
        out.put(&format!("counts.{name}.offsets"), &offsets)?;
        out.put(&format!("counts.{name}.docs"), &docs)?;
        out.put(&format!("counts.{name}.deals"), &deals)?;
        out.put(&format!("counts.{name}.leads"), &leads)
    }
}

/// Value counts read from a bundle, or derived in memory.
#[derive(Clone)]
pub struct ValueCounts {
    /// Value → its position (the values are few: decoded once, at open).
    positions: HashMap<String, usize>,
    arrays: Arrays,
}

/// Where the four arrays of counts live.
#[derive(Clone)]
enum Arrays {
    Stored {
        bundle: Bundle,
        offsets: ArrayRef<u32>,
        docs: ArrayRef<u32>,
        deals: ArrayRef<u32>,
        leads: ArrayRef<u32>,
    },
    Derived(Arc<DerivedArrays>),
}

#[derive(Default)]
struct DerivedArrays {
    offsets: Vec<u32>,
    docs: Vec<u32>,
    deals: Vec<u32>,
    leads: Vec<u32>,
}

/// A counted facet whose counts the index does not store: derived in
/// memory when first asked for (`Kind::derived_counts_if_ready`). A deal
/// has its company's industries, several as often as not: the counts of
/// several industries add up to more than their union's, by each deal's
/// extra industries (`query::exec::supersets` takes those off).
pub const INDUSTRY: CountedFacet = CountedFacet {
    facet: "company_industry",
    firms: "industry_firms",
    people: "industry_people",
};

/// A deal has its company's location at each level (country, state,
/// metro, city): nested values, derived in memory like [`INDUSTRY`]'s.
pub const LOCATION: CountedFacet = CountedFacet {
    facet: "company_location",
    firms: "location_firms",
    people: "location_people",
};

/// The counted facets whose counts are derived, not stored: a deal may
/// have several of their values.
pub const DERIVED: [CountedFacet; 2] = [INDUSTRY, LOCATION];

impl CountedFacet {
    /// Whether the counts are derived in memory ([`DERIVED`]).
    pub fn is_derived(&self) -> bool {
        DERIVED.contains(self)
    }
}

impl ValueCounts {
    pub fn open(bundle: &Bundle, name: &str) -> Result<ValueCounts, IndexError> {
        let array = |part: &str| bundle.array_ref::<u32>(&format!("counts.{name}.{part}"));
        let bad = |why: &str| IndexError::corrupt(bundle.name(), format!("counts {name}: {why}"));
        let keys = bundle.array::<u8>(&format!("counts.{name}.keys"))?;
        let key_offsets = bundle.array::<u64>(&format!("counts.{name}.key_offsets"))?;
        if !offsets_valid(key_offsets, keys.len()) {
            return Err(bad("inconsistent keys"));
        }
        let mut positions = HashMap::new();
        for (i, w) in key_offsets.windows(2).enumerate() {
            let key = std::str::from_utf8(&keys[w[0] as usize..w[1] as usize])
                .map_err(|_| bad("a value is not UTF-8"))?;
            positions.insert(key.to_string(), i);
        }
        let counts = ValueCounts {
            positions,
            arrays: Arrays::Stored {
                bundle: bundle.clone(),
                offsets: array("offsets")?,
                docs: array("docs")?,
                deals: array("deals")?,
                leads: array("leads")?,
            },
        };
        let n = counts.entry_docs().len();
        let wide: Vec<u64> = counts.offsets().iter().map(|&o| o as u64).collect();
        let ok = counts.offsets().len() == key_offsets.len()
            && offsets_valid(&wide, n)
            && counts.entry_deals().len() == n
            && counts.entry_leads().len() == n;
        if !ok {
            return Err(bad("inconsistent arrays"));
        }
        Ok(counts)
    }

    /// The counts of every value of `facet` (a deal facet), from
    /// `deal_side`: each deal's edges to `entities` entities, the payload
    /// of a led one satisfying `led`. One edge counts one deal, as the
    /// stored counts do (see the module doc).
    pub fn derive(
        facet: &Facet,
        deal_side: &Edges<'_>,
        (entities, led): (usize, fn(u8) -> bool),
    ) -> Result<ValueCounts, IndexError> {
        let mut arrays = DerivedArrays::default();
        let mut positions = HashMap::new();
        let mut slots = vec![(0u32, 0u32); entities];
        arrays.offsets.push(0);
        for i in 0..facet.len() {
            let deals = facet.docids_at(i)?;
            count_edges(deal_side, &deals, led, &mut slots);
            arrays.take_nonzero(&mut slots);
            positions.insert(facet.value(i).to_string(), i);
        }
        Ok(ValueCounts {
            positions,
            arrays: Arrays::Derived(Arc::new(arrays)),
        })
    }

    fn offsets(&self) -> &[u32] {
        match &self.arrays {
            Arrays::Stored {
                bundle, offsets, ..
            } => bundle.get(*offsets),
            Arrays::Derived(a) => &a.offsets,
        }
    }

    fn entry_leads(&self) -> &[u32] {
        match &self.arrays {
            Arrays::Stored { bundle, leads, .. } => bundle.get(*leads),
            Arrays::Derived(a) => &a.leads,
        }
    }

    /// The entries of `value` (none when no deal has it).
    pub fn of(&self, value: &str) -> Counted<'_> {
        let Some(&i) = self.positions.get(value) else {
            return Counted::default();
        };
        let range = self.offsets()[i] as usize..self.offsets()[i + 1] as usize;
        Counted {
            docs: &self.entry_docs()[range.clone()],
            deals: &self.entry_deals()[range.clone()],
            leads: &self.entry_leads()[range],
        }
    }

    /// The position of `value` among the values, when a deal has it.
    pub fn position(&self, value: &str) -> Option<usize> {
        self.positions.get(value).copied()
    }

    /// How many values are counted.
    pub fn values(&self) -> usize {
        self.offsets().len() - 1
    }

    /// The entries of the value at `position`, as indices into
    /// [`ValueCounts::entry_docs`] and [`ValueCounts::entry_deals`].
    pub fn entries_at(&self, position: usize) -> std::ops::Range<usize> {
        self.offsets()[position] as usize..self.offsets()[position + 1] as usize
    }

    /// The entries of `value` (empty when no deal has it).
    pub fn entry_range(&self, value: &str) -> std::ops::Range<usize> {
        self.position(value).map_or(0..0, |i| self.entries_at(i))
    }

    /// Every entry's entity doc id, value after value.
    pub fn entry_docs(&self) -> &[u32] {
        match &self.arrays {
            Arrays::Stored { bundle, docs, .. } => bundle.get(*docs),
            Arrays::Derived(a) => &a.docs,
        }
    }

    /// Every entry's deals, value after value.
    pub fn entry_deals(&self) -> &[u32] {
        match &self.arrays {
            Arrays::Stored { bundle, deals, .. } => bundle.get(*deals),
            Arrays::Derived(a) => &a.deals,
        }
    }

    /// How many entries `values` have together (the cost of reading them).
    pub fn entries(&self, values: &[String]) -> usize {
        values.iter().map(|v| self.of(v).docs.len()).sum()
    }

    /// Every value's entities are strictly ascending and below `limit`,
    /// each with at least one deal and no more leads than deals.
    pub fn check(&self, limit: usize) -> Result<(), String> {
        for value in self.positions.keys() {
            let c = self.of(value);
            let ascending = c.docs.windows(2).all(|w| w[0] < w[1]);
            let within = c.docs.last().is_none_or(|&d| (d as usize) < limit);
            let counts = c.deals.iter().zip(c.leads).all(|(&d, &l)| d >= 1 && l <= d);
            if !(ascending && within && counts) {
                return Err(format!("bad entries of value {value}"));
            }
        }
        Ok(())
    }
}

impl DerivedArrays {
    /// Appends the entities of `slots` with a deal, ascending, as one
    /// value's entries, and zeroes their slots.
    fn take_nonzero(&mut self, slots: &mut [(u32, u32)]) {
        for (entity, slot) in slots.iter_mut().enumerate().filter(|(_, s)| s.0 > 0) {
            self.docs.push(entity as u32);
            self.deals.push(slot.0);
            self.leads.push(slot.1);
            *slot = (0, 0);
        }
        self.offsets.push(self.docs.len() as u32);
    }
}

/// Adds each of `deals`' edges to its entity's slot: one deal, and one
/// lead when `led` holds of its payload.
fn count_edges(
    edges: &Edges<'_>,
    deals: &RoaringBitmap,
    led: fn(u8) -> bool,
    slots: &mut [(u32, u32)],
) {
    edges.each_of(deals, |_, targets, payload| {
        for (i, &entity) in targets.iter().enumerate() {
            let lead = u32::from(payload.get(i).is_some_and(|&p| led(p)));
            if let Some(slot) = slots.get_mut(entity as usize) {
                *slot = (slot.0 + 1, slot.1 + lead);
            }
        }
    });
}

#[cfg(test)]
mod derived_tests {
    use super::*;
    use crate::index::build::build_fixture;
    use crate::index::payload::FIRM_LED;
    use crate::index::Index;

    /// Counts derived in memory from the deals' firm edges are the counts
    /// the indexer stored, value by value, for every facet it counts.
    #[test]
    fn derived_counts_are_the_stored_ones() {
        let index = Index::open(&build_fixture("derived-counts", "2026-11-01")).unwrap();
        let edges = index.deals.relation("firms").unwrap();
        let led: fn(u8) -> bool = |p| p & FIRM_LED != 0;
        for counted in COUNTED {
            let facet = index.deals.facet(counted.facet).unwrap();
            let stored = index.deals.value_counts(counted.firms).unwrap();
            let derived =
                ValueCounts::derive(&facet, &edges.edges(), (index.firms.docs, led)).unwrap();
            derived.check(index.firms.docs).unwrap();
            for i in 0..facet.len() {
                let (a, b) = (derived.of(facet.value(i)), stored.of(facet.value(i)));
                assert_eq!((a.docs, a.deals, a.leads), (b.docs, b.deals, b.leads));
            }
            assert!(
                !derived.entry_docs().is_empty(),
                "{counted:?} counts nothing"
            );
        }
    }
}
