//! The references the indexer makes in stored records
//! ([`crate::index::store::refs`]): every entity's UUID with its kind and
//! doc id, sorted by UUID (found by binary search while records are
//! written), and each doc's place in that order (the UUID of a doc, for
//! records read back while building: a company embeds its latest deal).
//! 24 bytes an entity, dropped when the stores are written.

use rayon::prelude::*;

use super::order::{ByDocId, Orders};
use crate::index::store::refs::{RefKind, References, Uuids, REF_KINDS};
use crate::ingest::facts::Facts;

/// Every entity's UUID, sorted, and where each doc's UUID is.
pub struct EntityRefs {
    uuids: Vec<u128>,
    /// `kind << 30 | doc` of `uuids[i]`.
    refs: Vec<u32>,
    /// Per kind, by doc: the index of its UUID in `uuids`.
    places: [Vec<u32>; 4],
}

const KIND_SHIFT: u32 = 30;

impl EntityRefs {
    pub fn new(facts: &Facts, orders: &Orders) -> EntityRefs {
        let tables: [(&[uuid::Uuid], &ByDocId); 4] = [
            (facts.companies.ids(), &orders.companies),
            (facts.deals.ids(), &orders.deals),
            (facts.firms.ids(), &orders.firms),
            (facts.people.ids(), &orders.people),
        ];
        let mut pairs: Vec<(u128, u32)> = Vec::new();
        for (kind, (ids, order)) in REF_KINDS.iter().zip(tables) {
            let k = (*kind as u32) << KIND_SHIFT;
            let docs = (0..order.len() as u32).filter(|&doc| doc <= DOC_MASK);
            pairs.extend(docs.filter_map(|doc| {
                let id = ids.get(order.row(doc) as usize)?;
                Some((id.as_u128(), k | doc))
            }));
        }
        pairs.par_sort_unstable();
        let (uuids, refs): (Vec<u128>, Vec<u32>) = pairs.into_iter().unzip();
        let mut places = tables.map(|(_, order)| vec![u32::MAX; order.len()]);
        for (i, &r) in refs.iter().enumerate() {
            places[(r >> KIND_SHIFT) as usize][(r & DOC_MASK) as usize] = i as u32;
        }
        EntityRefs {
            uuids,
            refs,
            places,
        }
    }
}

const DOC_MASK: u32 = (1 << KIND_SHIFT) - 1;

impl References for EntityRefs {
    fn find(&self, uuid: u128) -> Option<(RefKind, u32)> {
        let i = self.uuids.binary_search(&uuid).ok()?;
        let r = self.refs[i];
        Some((REF_KINDS[(r >> KIND_SHIFT) as usize], r & DOC_MASK))
    }
}

impl Uuids for EntityRefs {
    fn uuid(&self, kind: RefKind, doc: u32) -> Option<u128> {
        let i = *self.places[kind as usize].get(doc as usize)?;
        self.uuids.get(i as usize).copied()
    }
}
