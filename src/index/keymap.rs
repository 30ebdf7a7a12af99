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
use std::path::{Path, PathBuf};

use fst::{Map, MapBuilder, Streamer};

use uuid::Uuid;

use super::format::{ArrayRef, Bundle, BundleWriter};
use super::scratch::{self, DocsByKey, ScratchArray};
use super::IndexError;

/// Marks a value that is an offset in `shared`, not a doc id.
pub const SHARED: u64 = 1 << 63;

/// The longest key kept: a key is cut at 16 MiB.
const MAX_KEY: usize = (1 << 24) - 1;

/// Memory the sorter of a [`KeyPairs`] fills before it writes a sorted
/// chunk beside the bundle.
const KEY_SORT_BYTES: usize = 32 << 20;

/// (key, doc id) pairs collected for one key map, in any order, in bounded
/// memory: an external sorter (`grenad`) keyed by the key, whose chunks
/// are files beside the bundle, and whose merged stream feeds the FST.
pub struct KeyPairs {
    sorter: DocsByKey,
    dir: PathBuf,
    /// The first failure to write a chunk, reported by [`write_keymap`].
    failure: Option<io::Error>,
}

impl KeyPairs {
    /// Pairs sorted through files in `dir`.
    pub fn new_in(dir: &Path) -> KeyPairs {
        KeyPairs {
            sorter: scratch::docs_by_key(dir, KEY_SORT_BYTES),
            dir: dir.to_path_buf(),
            failure: None,
        }
    }

    /// `pairs`, sorted through files in `dir`.
    pub fn from_pairs<K: AsRef<str>>(
        dir: &Path,
        pairs: impl IntoIterator<Item = (K, u32)>,
    ) -> KeyPairs {
        let mut out = KeyPairs::new_in(dir);
        pairs.into_iter().for_each(|(k, d)| out.push(k.as_ref(), d));
        out
    }

    pub fn push(&mut self, key: &str, docid: u32) {
        if self.failure.is_some() {
            return;
        }
        let key = &key.as_bytes()[..key.len().min(MAX_KEY)];
        if let Err(e) = self.sorter.insert(key, docid.to_le_bytes()) {
            self.failure = Some(scratch::io_error(e));
        }
    }
}

/// Writes key map `name` from its pairs (a repeated pair is kept once;
/// the docs sharing a key ascending).
pub fn write_keymap(out: &mut BundleWriter, name: &str, pairs: KeyPairs) -> io::Result<()> {
    if let Some(e) = pairs.failure {
        return Err(e);
    }
    let mut fst = ScratchArray::<u8>::new_in(&pairs.dir)?;
    let mut shared = ScratchArray::<u32>::new_in(&pairs.dir)?;
    let mut map = MapBuilder::new(&mut fst).map_err(io::Error::other)?;
    let mut merged = pairs
        .sorter
        .into_stream_merger_iter()
        .map_err(scratch::io_error)?;
    let mut docs = Vec::new();
    while let Some((key, raw)) = merged.next().map_err(scratch::io_error)? {
        scratch::sorted_docs(raw, &mut docs);
        let value = match docs[..] {
            [doc] => u64::from(doc),
            _ => {
                let at = SHARED | shared.len();
                shared.push(docs.len() as u32)?;
                shared.extend(&docs)?;
                at
            }
        };
        map.insert(key, value).map_err(io::Error::other)?;
    }
    map.finish().map_err(io::Error::other)?;
    fst.copy_into(out, &format!("keymap.{name}.fst"))?;
    shared.copy_into(out, &format!("keymap.{name}.shared"))
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
/// `ids`: the UUIDs in doc order, streamed into a scratch array, and the
/// doc ids in UUID order, sorted on disk (a [`DocsByKey`] keyed by the
/// UUID's big-endian bytes, whose byte order is the UUIDs' order): a few
/// buffers whatever the number of docs.
pub fn write_ids(out: &mut BundleWriter, ids: impl Iterator<Item = Uuid>) -> io::Result<()> {
    let dir = out.dir().to_path_buf();
    let mut by_docid = ScratchArray::<u128>::new_in(&dir)?;
    let mut by_uuid = scratch::docs_by_key(&dir, KEY_SORT_BYTES);
    for (doc, id) in (0u32..).zip(ids) {
        by_docid.push(id.as_u128())?;
        by_uuid
            .insert(id.as_bytes(), doc.to_le_bytes())
            .map_err(scratch::io_error)?;
    }
    let mut sorted = ScratchArray::<u32>::new_in(&dir)?;
    let mut merged = by_uuid
        .into_stream_merger_iter()
        .map_err(scratch::io_error)?;
    let mut docs = Vec::new();
    while let Some((_, raw)) = merged.next().map_err(scratch::io_error)? {
        scratch::sorted_docs(raw, &mut docs);
        sorted.extend(&docs)?;
    }
    by_docid.copy_into(out, "ids.by_docid")?;
    sorted.copy_into(out, "ids.sorted_docids")
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
