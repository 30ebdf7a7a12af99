//! Exact-key maps: normalised identifier → doc ids (`domain_docids`,
//! `linkedin_docids`…), and the UUID ↔ doc id maps of every kind.
//!
//! Key map `K` (keys sorted, duplicates allowed: one domain may belong to
//! several firms, and a lookup returns all of them):
//!
//! | array | type | content |
//! |---|---|---|
//! | `keymap.K.keys` | u8 | keys, UTF-8, concatenated in sorted order |
//! | `keymap.K.offsets` | u64 × (n+1) | key `i` is `keys[off[i]..off[i+1]]` |
//! | `keymap.K.docids` | u32 × n | the doc id of entry `i` |
//!
//! UUID map: `ids.by_docid` (u128 × docs, doc id → UUID) and `ids.sorted`
//! (u128, ascending) with `ids.sorted_docids` (u32) for UUID → doc id.

use std::io;

use rayon::prelude::*;

use uuid::Uuid;

use super::facet::offsets_valid;
use super::format::{ArrayRef, Bundle, BundleWriter};
use super::IndexError;

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
    let mut keys = Vec::with_capacity(pairs.bytes.len());
    let mut offsets = Vec::with_capacity(order.len() + 1);
    offsets.push(0u64);
    for &(key, _) in &order {
        keys.extend_from_slice(pairs.key(key));
        offsets.push(keys.len() as u64);
    }
    drop(pairs);
    out.put_bytes(&format!("keymap.{name}.keys"), &keys)?;
    out.put(&format!("keymap.{name}.offsets"), &offsets)?;
    let docids: Vec<u32> = order.iter().map(|p| p.1).collect();
    out.put(&format!("keymap.{name}.docids"), &docids)
}

/// A key map read from a bundle.
#[derive(Clone)]
pub struct KeyMap {
    bundle: Bundle,
    keys: ArrayRef<u8>,
    offsets: ArrayRef<u64>,
    docids: ArrayRef<u32>,
}

impl KeyMap {
    pub fn open(bundle: &Bundle, name: &str) -> Result<KeyMap, IndexError> {
        let map = KeyMap {
            bundle: bundle.clone(),
            keys: bundle.array_ref(&format!("keymap.{name}.keys"))?,
            offsets: bundle.array_ref(&format!("keymap.{name}.offsets"))?,
            docids: bundle.array_ref(&format!("keymap.{name}.docids"))?,
        };
        let ok = map.offsets.len() == map.docids.len() + 1
            && offsets_valid(map.offsets(), map.keys.len());
        if !ok {
            return Err(IndexError::corrupt(
                bundle.name(),
                format!("keymap {name}: inconsistent arrays"),
            ));
        }
        Ok(map)
    }

    /// Every doc id stored under `key`, ascending.
    pub fn get(&self, key: &str) -> Vec<u32> {
        let first = self.lower_bound(key);
        let docids = self.bundle.get(self.docids);
        (first..docids.len())
            .take_while(|&i| self.key(i) == key)
            .map(|i| docids[i])
            .collect()
    }

    pub fn len(&self) -> usize {
        self.docids.len()
    }

    pub fn is_empty(&self) -> bool {
        self.docids.is_empty()
    }

    fn lower_bound(&self, key: &str) -> usize {
        let (mut lo, mut hi) = (0, self.docids.len());
        while lo < hi {
            let mid = (lo + hi) / 2;
            if self.key(mid) < key {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    }

    fn key(&self, i: usize) -> &str {
        let off = self.offsets();
        std::str::from_utf8(&self.bundle.get(self.keys)[off[i] as usize..off[i + 1] as usize])
            .unwrap_or("")
    }

    fn offsets(&self) -> &[u64] {
        self.bundle.get(self.offsets)
    }
}

/// Writes the UUID maps of a kind whose doc `d` has UUID `ids[d]`.
pub fn write_ids(out: &mut BundleWriter, ids: &[Uuid]) -> io::Result<()> {
    let by_docid: Vec<u128> = ids.iter().map(|id| id.as_u128()).collect();
    let mut sorted: Vec<(u128, u32)> = by_docid
        .iter()
        .enumerate()
        .map(|(d, &u)| (u, d as u32))
        .collect();
    sorted.par_sort_unstable();
    out.put("ids.by_docid", &by_docid)?;
    out.put(
        "ids.sorted",
        &sorted.iter().map(|p| p.0).collect::<Vec<_>>(),
    )?;
    out.put(
        "ids.sorted_docids",
        &sorted.iter().map(|p| p.1).collect::<Vec<_>>(),
    )
}

/// UUID ↔ doc id of one kind.
#[derive(Clone)]
pub struct IdMap {
    bundle: Bundle,
    by_docid: ArrayRef<u128>,
    sorted: ArrayRef<u128>,
    sorted_docids: ArrayRef<u32>,
}

impl IdMap {
    pub fn open(bundle: &Bundle, docs: usize) -> Result<IdMap, IndexError> {
        let map = IdMap {
            bundle: bundle.clone(),
            by_docid: bundle.array_ref("ids.by_docid")?,
            sorted: bundle.array_ref("ids.sorted")?,
            sorted_docids: bundle.array_ref("ids.sorted_docids")?,
        };
        let sorted = map.bundle.get(map.sorted);
        let ok = map.by_docid.len() == docs
            && sorted.len() == docs
            && map.sorted_docids.len() == docs
            && sorted.windows(2).all(|w| w[0] < w[1]);
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
        let sorted = self.bundle.get(self.sorted);
        let i = sorted.binary_search(&id.as_u128()).ok()?;
        Some(self.bundle.get(self.sorted_docids)[i])
    }

    pub fn len(&self) -> usize {
        self.by_docid.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_docid.is_empty()
    }
}
