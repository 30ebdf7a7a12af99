//! Exact-key maps: normalised identifier → doc ids (`domain_docids`,
//! `linkedin_docids`…), and the UUID ↔ doc id maps of every kind.
//!
//! Key map `K` (one key may belong to several docs: one domain may belong
//! to several firms, and a lookup returns all of them):
//!
//! | array | type | content |
//! |---|---|---|
//! | `keymap.K.fst` | u8 | an [`fst::Map`] from each distinct key (UTF-8) to its value |
//! | `keymap.K.shared` | u32 | for each key several docs share: their count, then their doc ids ascending |
//!
//! A value is the key's doc id when one doc has it, else [`SHARED`] plus the
//! offset of its entry in `shared`. The FST shares the keys' prefixes and
//! suffixes (`linkedin.com/in/…`), so a map takes under half of sorted keys with
//! offsets, and a lookup walks one key's bytes (about a microsecond).
//!
//! UUID map: `ids.by_docid` (u128 × docs, doc id → UUID) and
//! `ids.sorted_docids` (u32 × docs, the doc ids in ascending UUID order) for
//! UUID → doc id: a binary search whose probes read `by_docid` through
//! `sorted_docids` (two reads a probe, about 4 µs at 3 million docs, instead
//! of a second 16-byte copy of every UUID).

use std::io;

use fst::{Map, MapBuilder, Streamer};
use rayon::prelude::*;

use uuid::Uuid;

use super::format::{ArrayRef, Bundle, BundleWriter};
use super::IndexError;

/// Marks a value that is an offset in `shared`, not a doc id.
pub const SHARED: u64 = 1 << 63;

/// (key, doc id) pairs collected for one key map, in any order: the keys in
/// one arena and 12 bytes per pair, not a `String` each (people have about
/// three keys apiece).
const MAX_KEY: usize = (1 << 24) - 1;

#[derive(Debug, Clone, Default)]
pub struct KeyPairs {
    bytes: Vec<u8>,
    /// (`start << 24 | len` in `bytes`, doc id); a key is cut at 16 MiB.
    pairs: Vec<(u64, u32)>,
}

impl KeyPairs {
    pub fn push(&mut self, key: &str, docid: u32) {
        let len = key.len().min(MAX_KEY);
        let start = self.bytes.len() as u64;
        self.bytes.extend_from_slice(&key.as_bytes()[..len]);
        self.pairs.push((start << 24 | len as u64, docid));
    }

    fn key(&self, packed: u64) -> &[u8] {
        let start = (packed >> 24) as usize;
        &self.bytes[start..start + (packed as usize & MAX_KEY)]
    }
}

impl<K: AsRef<str>> FromIterator<(K, u32)> for KeyPairs {
    fn from_iter<I: IntoIterator<Item = (K, u32)>>(pairs: I) -> KeyPairs {
        let mut out = KeyPairs::default();
        pairs.into_iter().for_each(|(k, d)| out.push(k.as_ref(), d));
        out
    }
}

/// Writes key map `name` from its pairs (sorted by key, then doc id; a
/// repeated pair is kept once).
pub fn write_keymap(out: &mut BundleWriter, name: &str, pairs: KeyPairs) -> io::Result<()> {
    let mut order = pairs.pairs.clone();
    order.par_sort_unstable_by(|a, b| pairs.key(a.0).cmp(pairs.key(b.0)).then(a.1.cmp(&b.1)));
    order.dedup_by(|a, b| a.1 == b.1 && pairs.key(a.0) == pairs.key(b.0));
    let mut map = MapBuilder::memory();
    let mut shared = Vec::new();
    for group in order.chunk_by(|a, b| pairs.key(a.0) == pairs.key(b.0)) {
        let value = match group {
            [(_, doc)] => u64::from(*doc),
            _ => {
                let at = SHARED | shared.len() as u64;
                shared.push(group.len() as u32);
                shared.extend(group.iter().map(|p| p.1));
                at
            }
        };
        map.insert(pairs.key(group[0].0), value)
            .map_err(io::Error::other)?;
    }
    let fst = map.into_inner().map_err(io::Error::other)?;
    out.put_bytes(&format!("keymap.{name}.fst"), &fst)?;
    out.put(&format!("keymap.{name}.shared"), &shared)
}

/// An FST's bytes, read in place from the bundle's mapping.
#[derive(Clone)]
struct Mapped {
    bundle: Bundle,
    bytes: ArrayRef<u8>,
}

impl AsRef<[u8]> for Mapped {
    fn as_ref(&self) -> &[u8] {
        self.bundle.get(self.bytes)
    }
}

/// A key map read from a bundle.
#[derive(Clone)]
pub struct KeyMap {
    fst: Map<Mapped>,
    bundle: Bundle,
    shared: ArrayRef<u32>,
}

impl KeyMap {
    pub fn open(bundle: &Bundle, name: &str) -> Result<KeyMap, IndexError> {
        let corrupt =
            |why: String| IndexError::corrupt(bundle.name(), format!("keymap {name}: {why}"));
        let bytes = bundle.array_ref(&format!("keymap.{name}.fst"))?;
        let mapped = Mapped {
            bundle: bundle.clone(),
            bytes,
        };
        let fst = Map::new(mapped).map_err(|e| corrupt(e.to_string()))?;
        let shared = bundle.array_ref(&format!("keymap.{name}.shared"))?;
        let map = KeyMap {
            fst,
            bundle: bundle.clone(),
            shared,
        };
        Ok(map)
    }

    /// Every doc id stored under `key`, ascending.
    pub fn get(&self, key: &str) -> Vec<u32> {
        self.fst.get(key).map_or_else(Vec::new, |v| self.docs_of(v))
    }

    /// The doc ids a value stands for: itself, or its entry in `shared`
    /// (empty when that entry is out of bounds: a corrupt map misses).
    fn docs_of(&self, value: u64) -> Vec<u32> {
        if value & SHARED == 0 {
            return vec![value as u32];
        }
        let shared = self.bundle.get(self.shared);
        let at = (value & !SHARED) as usize;
        let n = shared.get(at).map_or(0, |&n| n as usize);
        shared.get(at + 1..at + 1 + n).unwrap_or(&[]).to_vec()
    }

    /// Distinct keys.
    pub fn len(&self) -> usize {
        self.fst.len()
    }

    pub fn is_empty(&self) -> bool {
        self.fst.is_empty()
    }

    /// Checks every stored doc id is below `docs` (for `verify`).
    pub fn check(&self, docs: usize) -> Result<(), String> {
        let mut stream = self.fst.stream();
        while let Some((key, v)) = stream.next() {
            let found = self.docs_of(v);
            if found.is_empty() || found.iter().any(|&d| d as usize >= docs) {
                return Err(format!(
                    "key {:?} points past the docs",
                    String::from_utf8_lossy(key)
                ));
            }
        }
        Ok(())
    }
}

/// Writes the UUID maps of a kind whose doc `d` has the `d`-th UUID of
/// `ids`: the UUIDs in doc order, and the doc ids in UUID order (20 bytes
/// a doc while writing).
pub fn write_ids(out: &mut BundleWriter, ids: impl Iterator<Item = Uuid>) -> io::Result<()> {
    let by_docid: Vec<u128> = ids.map(|id| id.as_u128()).collect();
    let mut sorted: Vec<u32> = (0..by_docid.len() as u32).collect();
    sorted.par_sort_unstable_by_key(|&d| (by_docid[d as usize], d));
    out.put("ids.by_docid", &by_docid)?;
    out.put("ids.sorted_docids", &sorted)
}

/// UUID ↔ doc id of one kind.
#[derive(Clone)]
pub struct IdMap {
    bundle: Bundle,
    by_docid: ArrayRef<u128>,
    sorted_docids: ArrayRef<u32>,
}

impl IdMap {
    pub fn open(bundle: &Bundle, docs: usize) -> Result<IdMap, IndexError> {
        let map = IdMap {
            bundle: bundle.clone(),
            by_docid: bundle.array_ref("ids.by_docid")?,
            sorted_docids: bundle.array_ref("ids.sorted_docids")?,
        };
        let (ids, order) = (
            map.bundle.get(map.by_docid),
            map.bundle.get(map.sorted_docids),
        );
        // In bounds is what reading needs (the checksum vouches for the
        // order; a misordered map would only miss, never read out of bounds).
        let ok =
            ids.len() == docs && order.len() == docs && order.iter().all(|&d| (d as usize) < docs);
        if !ok {
            return Err(IndexError::corrupt(
                bundle.name(),
                "id map: inconsistent arrays",
            ));
        }
        Ok(map)
    }

    pub fn uuid(&self, docid: u32) -> Uuid {
        Uuid::from_u128(self.bundle.get(self.by_docid)[docid as usize])
    }

    pub fn docid(&self, id: &Uuid) -> Option<u32> {
        let (ids, order) = (
            self.bundle.get(self.by_docid),
            self.bundle.get(self.sorted_docids),
        );
        let i = order
            .binary_search_by_key(&id.as_u128(), |&d| ids[d as usize])
            .ok()?;
        Some(order[i])
    }

    pub fn len(&self) -> usize {
        self.by_docid.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_docid.is_empty()
    }
}
