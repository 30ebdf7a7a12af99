//! The references the indexer makes in stored records
//! ([`crate::index::store::refs`]): every entity found by its UUID, with its
//! kind and doc id (by binary search while records are written), and the
//! UUID of each doc (for records read back while building: a company embeds
//! its latest deal).
//!
//! It holds no UUID of its own: the facts' id columns and the doc orders are
//! shared with it, and it keeps every entity once as `kind << 30 | doc`,
//! sorted by UUID (4 bytes an entity), with the start of each bucket of
//! UUIDs sharing their top bits (about half a byte an entity). Sorting is a
//! counting sort into the buckets, then a sort of each small bucket. A
//! lookup reads one bucket: a few probes for random (v4) UUIDs, a binary
//! search over all entities at worst.

use std::sync::Arc;

use rayon::prelude::*;
use uuid::Uuid;

use super::order::{ByDocId, Orders};
use crate::index::store::refs::{RefKind, References, Uuids, REF_KINDS};
use crate::ingest::facts::Facts;

/// Every entity by UUID, and each doc's UUID; see the module docs.
pub struct EntityRefs {
    /// Per kind, in [`REF_KINDS`] order: its id column (by row) and doc order.
    kinds: [(Arc<Vec<Uuid>>, Arc<ByDocId>); 4],
    /// Every entity as `kind << 30 | doc`, by UUID.
    sorted: Vec<u32>,
    /// `sorted[starts[b]..starts[b + 1]]`: the UUIDs whose top bits are `b`.
    starts: Vec<u32>,
    /// `uuid >> shift` is a UUID's bucket.
    shift: u32,
}

const KIND_SHIFT: u32 = 30;
const DOC_MASK: u32 = (1 << KIND_SHIFT) - 1;
/// Entities per bucket, on average.
const BUCKET_ENTITIES: usize = 8;
/// Buckets sorted by one parallel task.
const GROUP_BUCKETS: usize = 4096;

impl EntityRefs {
    pub fn new(facts: &Facts, orders: &Orders) -> EntityRefs {
        let kinds = [
            (facts.companies.shared_ids(), orders.companies.clone()),
            (facts.deals.shared_ids(), orders.deals.clone()),
            (facts.firms.shared_ids(), orders.firms.clone()),
            (facts.people.shared_ids(), orders.people.clone()),
        ];
        let entities: usize = kinds.iter().map(|(ids, _)| ids.len()).sum();
        let bits = (entities / BUCKET_ENTITIES).max(2).ilog2().min(28) + 1;
        let mut refs = EntityRefs {
            kinds,
            sorted: Vec::new(),
            starts: Vec::new(),
            shift: 128 - bits,
        };
        refs.sort_into_buckets(1 << bits);
        refs
    }

    /// Every entity as `kind << 30 | doc` with its UUID, by row.
    fn entities(&self) -> impl Iterator<Item = (u32, u128)> + '_ {
        self.kinds
            .iter()
            .enumerate()
            .flat_map(|(kind, (ids, order))| {
                let kind = (kind as u32) << KIND_SHIFT;
                ids.iter().enumerate().filter_map(move |(row, id)| {
                    let doc = order.doc(row as u32);
                    (doc <= DOC_MASK).then_some((kind | doc, id.as_u128()))
                })
            })
    }

    fn sort_into_buckets(&mut self, buckets: usize) {
        let mut next = vec![0u32; buckets + 1];
        for (_, uuid) in self.entities() {
            next[self.bucket(uuid) + 1] += 1;
        }
        for b in 1..next.len() {
            next[b] += next[b - 1];
        }
        self.starts = next.clone();
        let mut sorted = vec![0u32; next[buckets] as usize];
        for (entity, uuid) in self.entities() {
            let at = &mut next[self.bucket(uuid)];
            sorted[*at as usize] = entity;
            *at += 1;
        }
        drop(next);
        let uuid = |e: &u32| self.uuid_of(*e);
        self.groups_of_buckets(&mut sorted)
            .into_par_iter()
            .for_each(|(starts, group)| {
                let from = starts[0];
                for w in starts.windows(2) {
                    group[(w[0] - from) as usize..(w[1] - from) as usize]
                        .sort_unstable_by_key(uuid);
                }
            });
        self.sorted = sorted;
    }

    /// `sorted` split at bucket starts into groups of [`GROUP_BUCKETS`]
    /// buckets, each with its buckets' starts (the next group's first too).
    fn groups_of_buckets<'a>(&'a self, sorted: &'a mut [u32]) -> Vec<(&'a [u32], &'a mut [u32])> {
        let mut rest = sorted;
        let last = self.starts.len() - 1;
        (0..last)
            .step_by(GROUP_BUCKETS)
            .map(|b| {
                let starts = &self.starts[b..=(b + GROUP_BUCKETS).min(last)];
                let len = starts[starts.len() - 1] - starts[0];
                let (group, tail) = std::mem::take(&mut rest).split_at_mut(len as usize);
                rest = tail;
                (starts, group)
            })
            .collect()
    }

    fn bucket(&self, uuid: u128) -> usize {
        (uuid >> self.shift) as usize
    }

    /// The UUID of `kind << 30 | doc`.
    fn uuid_of(&self, entity: u32) -> u128 {
        let (ids, order) = &self.kinds[(entity >> KIND_SHIFT) as usize];
        ids[order.row(entity & DOC_MASK) as usize].as_u128()
    }
}

impl References for EntityRefs {
    fn find(&self, uuid: u128) -> Option<(RefKind, u32)> {
        let b = self.bucket(uuid);
        let (from, to) = (*self.starts.get(b)?, *self.starts.get(b + 1)?);
        let bucket = &self.sorted[from as usize..to as usize];
        let i = bucket
            .binary_search_by(|&e| self.uuid_of(e).cmp(&uuid))
            .ok()?;
        let e = bucket[i];
        Some((REF_KINDS[(e >> KIND_SHIFT) as usize], e & DOC_MASK))
    }
}

impl Uuids for EntityRefs {
    fn uuid(&self, kind: RefKind, doc: u32) -> Option<u128> {
        let (ids, order) = &self.kinds[kind as usize];
        let row = *order.row_of_doc.get(doc as usize)?;
        ids.get(row as usize).map(|id| id.as_u128())
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;
    use crate::ingest::generate::{generate, GenerateOptions};
    use crate::ingest::{derive::derive, load_dump};
    use crate::schema::Date;

    /// Every entity of a generated dump is found by its UUID as its kind and
    /// doc, each doc's UUID is its row's id, and nothing else is found.
    #[test]
    fn every_entity_is_found_by_uuid_and_each_doc_names_its_uuid() {
        let dir = std::env::temp_dir().join(format!("fundsearch-refs-{}", std::process::id()));
        let as_of = Date::parse("2026-11-01").unwrap();
        let opts = GenerateOptions {
            companies: 300,
            seed: 3,
            out: dir.clone(),
            as_of,
            compress: false,
        };
        generate(&opts).unwrap();
        let facts = load_dump(&dir, true).unwrap().facts;
        let orders = crate::index::build::order::assign_doc_ids(&facts, &mut derive(&facts, as_of));
        let refs = EntityRefs::new(&facts, &orders);
        let kinds = [
            (facts.companies.ids(), &orders.companies),
            (facts.deals.ids(), &orders.deals),
            (facts.firms.ids(), &orders.firms),
            (facts.people.ids(), &orders.people),
        ];
        let mut naive = HashMap::new();
        for (kind, (ids, order)) in REF_KINDS.into_iter().zip(kinds) {
            for (row, id) in ids.iter().enumerate() {
                naive.insert(id.as_u128(), (kind, order.doc(row as u32)));
            }
        }
        assert!(naive.len() > 1_000);
        for (&uuid, &(kind, doc)) in &naive {
            assert_eq!(refs.find(uuid), Some((kind, doc)));
            assert_eq!(refs.uuid(kind, doc), Some(uuid));
        }
        for probe in [0, 1, u128::MAX, 0x1234_5678_9abc_def0_1234_5678_9abc_def0] {
            assert_eq!(refs.find(probe), naive.get(&probe).copied());
        }
        assert_eq!(refs.uuid(RefKind::Deal, facts.deals.len() as u32), None);
        std::fs::remove_dir_all(dir).unwrap();
    }
}
