//! Record stores: the response JSON of every entity, rendered at index time,
//! compressed one record at a time, returned by doc id without parsing.
//!
//! Each kind has one store file (tag `STOR`) per *variant* (`full`,
//! `card`…), named `KIND.VARIANT.store`. For variant `V`:
//!
//! | array | type | content |
//! |---|---|---|
//! | `store.V.data` | u8 | the records, each one zstd frame of UTF-8 JSON ([`codec`]) |
//! | `store.V.dict` | u8 | the zstd dictionary the frames were made with (empty: none) |
//! | `store.V.spans` | u64 × n | doc `d`'s frame in `store.V.data`: `start << 24 \| len` ([`Span`]; `len` 0: an empty record) |
//! | `store.V.refs` | u8 × 1 | `1 + kind`: the JSON's entity UUIDs are references ([`refs`]), the records those of `kind`'s entities; 0: records as written |
//! | `store.V.codec` | u8 × 1 | [`StoreCodec`]: 0 zstd frames (also when absent), 1 plain records (no dictionary, no references) |
//!
//! Records may be written in any doc order (the indexer renders them in dump
//! order), hence an explicit start per doc; a frame's length (under 16 MiB)
//! shares its word. The frames are streamed into the file while rendering
//! ([`writer`]); the dictionary and spans follow them.
//!
//! A store of JSON records is written with references: before compression
//! each indexed entity's UUID in a record becomes its doc id in 2–6 bytes,
//! the record's own in one ([`refs`]); they are expanded back from the id
//! maps when read. At M that made the full records 24–38 % smaller.
//!
//! Reading decompresses one frame (a few microseconds for a record of a few
//! kilobytes) into a shared buffer; a small cache per store
//! ([`CACHE_BYTES`]) keeps the most recently read records, so the records
//! every first page shows are decompressed once.

mod codec;
pub mod refs;
mod span;
mod writer;

pub use codec::{StoreCodec, DICT_DEFAULT, DICT_MAX, TRAIN_BYTES};

use std::sync::Arc;

use quick_cache::sync::Cache;
use quick_cache::Weighter;

use super::format::{ArrayRef, Bundle};
use super::mmap::touch;
use super::IndexError;
use codec::Decoder;
use refs::{RefKind, Uuids, REF_KINDS};
use span::Span;

pub use writer::StoreWriter;

/// Tag of store files.
pub const STORE_TAG: [u8; 4] = *b"STOR";

/// Decompressed bytes each store keeps cached.
pub const CACHE_BYTES: u64 = 8 << 20;

/// A decompressed record (JSON bytes), shared with the cache.
pub type Record = Arc<Vec<u8>>;

/// Weighs a cached record by its bytes (plus the entry's own).
#[derive(Clone)]
struct RecordBytes;

impl Weighter<u32, Record> for RecordBytes {
    fn weight(&self, _: &u32, record: &Record) -> u64 {
        record.len() as u64 + 48
    }
}

/// One variant of a store, read from a bundle.
pub struct Store {
    bundle: Bundle,
    name: String,
    spans: ArrayRef<u64>,
    data: ArrayRef<u8>,
    decoder: Decoder,
    /// Set when the records hold references: what they resolve against,
    /// and the kind of the records' own entities.
    uuids: Option<(Arc<dyn Uuids>, RefKind)>,
    cache: Cache<u32, Record, RecordBytes>,
}

impl Store {
    /// Opens variant `variant` of `docs` records; references, if the store
    /// has them, resolve against `uuids`.
    pub fn open(
        bundle: &Bundle,
        variant: &str,
        docs: usize,
        uuids: Arc<dyn Uuids>,
    ) -> Result<Store, IndexError> {
        let array = |part: &str| format!("store.{variant}.{part}");
        let spans = bundle.array_ref::<u64>(&array("spans"))?;
        let data = bundle.array_ref::<u8>(&array("data"))?;
        let dict = bundle.array_ref::<u8>(&array("dict"))?;
        let own_kind = match bundle.array::<u8>(&array("refs"))? {
            [k @ 1..=4] => Some(REF_KINDS[*k as usize - 1]),
            _ => None,
        };
        let name = format!("{} store {variant}", bundle.name());
        let codec = codec_of(bundle, &array("codec")).map_err(|e| IndexError::corrupt(&name, e))?;
        let decoder =
            Decoder::new(codec, bundle.get(dict)).map_err(|e| IndexError::corrupt(&name, e))?;
        let ok = spans.len() == docs
            && bundle
                .get(spans)
                .iter()
                .all(|&s| Span(s).end() <= data.len() as u64);
        if !ok {
            return Err(IndexError::corrupt(&name, "inconsistent offsets"));
        }
        Ok(Store {
            bundle: bundle.clone(),
            name,
            spans,
            data,
            decoder,
            uuids: own_kind.map(|kind| (uuids, kind)),
            cache: Cache::with_weighter(1024, CACHE_BYTES, RecordBytes),
        })
    }

    /// How the store keeps its records.
    pub fn codec(&self) -> StoreCodec {
        match self.decoder {
            Decoder::Plain => StoreCodec::Plain,
            Decoder::Zstd(_) => StoreCodec::Zstd,
        }
    }

    /// The compressed frame of `docid`.
    fn frame(&self, docid: u32) -> &[u8] {
        let span = Span(self.bundle.get(self.spans)[docid as usize]);
        &self.bundle.get(self.data)[span.start() as usize..span.end() as usize]
    }

    /// The record of `docid` as written: decompressed, references expanded.
    fn decompress(&self, docid: u32) -> Result<Vec<u8>, IndexError> {
        let corrupt = |e: String| IndexError::corrupt(&self.name, format!("doc {docid}: {e}"));
        let stored = self
            .decoder
            .decompress(self.frame(docid))
            .map_err(|e| corrupt(e.to_string()))?;
        match &self.uuids {
            Some((uuids, kind)) => {
                refs::expand(&stored, uuids.as_ref(), (*kind, docid)).map_err(corrupt)
            }
            None => Ok(stored),
        }
    }

    /// The record of `docid` (JSON bytes).
    pub fn get(&self, docid: u32) -> Result<Record, IndexError> {
        if let Some(record) = self.cache.get(&docid) {
            return Ok(record);
        }
        let record: Record = self.decompress(docid)?.into();
        self.cache.insert(docid, record.clone());
        Ok(record)
    }

    /// The records of `docids`, in order (a page of hits); their frames are
    /// all touched ([`touch`]) before the first is decompressed.
    pub fn get_many(
        &self,
        docids: impl IntoIterator<Item = u32>,
    ) -> Result<Vec<Record>, IndexError> {
        let docids: Vec<u32> = docids.into_iter().collect();
        touch(docids.iter().map(|&d| self.frame(d)));
        docids.into_iter().map(|d| self.get(d)).collect()
    }

    /// Decompresses every record once (for `verify`), bypassing the cache.
    pub fn check_all(&self) -> Result<(), IndexError> {
        (0..self.len() as u32).try_for_each(|d| self.decompress(d).map(drop))
    }

    /// Drops the store's mapped pages from the resident set
    /// ([`Bundle::release_pages`]); they are read back on the next access.
    pub fn release_pages(&self) -> std::io::Result<()> {
        self.bundle.release_pages()
    }

    pub fn len(&self) -> usize {
        self.spans.len()
    }

    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }
}

/// The codec of the store whose codec array is `name` (zstd without one).
fn codec_of(bundle: &Bundle, name: &str) -> Result<StoreCodec, String> {
    if !bundle.has(name) {
        return Ok(StoreCodec::Zstd);
    }
    match bundle.array::<u8>(name).map_err(|e| e.to_string())? {
        [tag] => StoreCodec::from_tag(*tag).ok_or_else(|| format!("unknown codec {tag}")),
        other => Err(format!("codec array of {} bytes", other.len())),
    }
}
