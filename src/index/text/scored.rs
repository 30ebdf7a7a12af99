//! What one search has scored so far, shared by the pair and word stages:
//! the best `limit` documents, the doc ids already offered (each is scored
//! once, whichever list holds it first) and the similarity of each distinct
//! folded-names string (many people share a name, and scoring one is most
//! of the work).

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

use super::collector::{Candidate, TopK};
use super::names::NamesStore;
use super::similarity::{ScoringQuery, MIN_SCORE};
use crate::index::mmap::touch;

/// The documents a search has scored.
pub(crate) struct Scored<'n> {
    top: TopK,
    seen: HashSet<u32, FastHash>,
    similarities: HashMap<&'n [u8], f32, FastHash>,
}

impl<'n> Scored<'n> {
    pub(crate) fn new(limit: usize) -> Scored<'n> {
        Scored {
            top: TopK::new(limit),
            seen: HashSet::default(),
            similarities: HashMap::default(),
        }
    }

    /// Whether `limit` documents are kept.
    pub(crate) fn is_full(&self) -> bool {
        self.top.worst().is_some()
    }

    /// Whether `limit` kept documents score above `bound`.
    pub(crate) fn beats(&self, bound: f32) -> bool {
        self.top.floor().is_some_and(|worst| worst > bound)
    }

    /// Whether a document `docid` scoring `bound` at most cannot be kept:
    /// `limit` documents score above it, or tie with it and have a lower
    /// doc id.
    pub(crate) fn excludes(&self, bound: f32, docid: u32) -> bool {
        self.top
            .worst()
            .is_some_and(|w| w.score > bound || (w.score == bound && w.docid < docid))
    }

    /// Scores each doc id of `batch`, which it empties, against its names
    /// (once per distinct names string), and keeps it if it is among the
    /// best `limit`; returns how many were new (a doc id already offered is
    /// skipped). The names of the whole batch are located and touched
    /// ([`touch`]) before any is scored.
    pub(crate) fn offer_batch(
        &mut self,
        names: &'n NamesStore,
        query: &ScoringQuery,
        batch: &mut Batch,
    ) -> usize {
        let mut fresh: [(u32, &'n [u8]); BATCH] = [(0, b""); BATCH];
        let mut len = 0;
        for &docid in batch.docids() {
            if self.seen.insert(docid) {
                fresh[len] = (docid, b"");
                len += 1;
            }
        }
        batch.clear();
        let fresh = &mut fresh[..len];
        for (docid, key) in fresh.iter_mut() {
            *key = names.get_bytes(*docid);
        }
        touch(fresh.iter().map(|&(_, key)| key));
        for &(docid, key) in fresh.iter() {
            let score = *self
                .similarities
                .entry(key)
                .or_insert_with(|| query.best(NamesStore::split(key)));
            if score > MIN_SCORE {
                self.top.offer(Candidate { score, docid });
            }
        }
        len
    }

    /// The kept documents, best first.
    pub(crate) fn into_best(self) -> Vec<Candidate> {
        self.top.into_best()
    }
}

/// Doc ids offered together at most (see [`Scored::offer_batch`]).
pub(crate) const BATCH: usize = 16;

/// Doc ids waiting to be offered together.
#[derive(Default)]
pub(crate) struct Batch {
    docids: [u32; BATCH],
    len: usize,
}

impl Batch {
    /// Adds `docid`; `true` when the batch is now full.
    pub(crate) fn push(&mut self, docid: u32) -> bool {
        self.docids[self.len] = docid;
        self.len += 1;
        self.len == BATCH
    }

    fn docids(&self) -> &[u32] {
        &self.docids[..self.len]
    }

    fn clear(&mut self) {
        self.len = 0;
    }
}

/// FxHash (rustc's hasher): a multiply and a rotate per word. The keys are
/// doc ids and names from our own index, so flooding is not a concern,
/// and SipHash cost more than the lookups it guarded.
#[derive(Clone, Copy, Default)]
pub(crate) struct FxHasher(u64);

type FastHash = BuildHasherDefault<FxHasher>;

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FxHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(word));
        }
    }

    fn write_u32(&mut self, n: u32) {
        self.add(u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::BuildHasher;

    #[test]
    fn fx_hash_separates_nearby_keys() {
        let build = FastHash::default();
        let hashes: HashSet<u64> = (0u32..10_000).map(|n| build.hash_one(n)).collect();
        assert_eq!(hashes.len(), 10_000);
        let a = build.hash_one(b"john smith".as_slice());
        let b = build.hash_one(b"john smyth".as_slice());
        assert_ne!(a, b);
        assert_eq!(a, build.hash_one(b"john smith".as_slice()));
    }
}
