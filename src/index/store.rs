//! Record stores: the response JSON of every entity, rendered at index time,
//! returned by doc id without parsing.
//!
//! Each kind has one store file (tag `STOR`) per *variant* (`full`,
//! `card`…), named `KIND.VARIANT.store`. For variant `V`:
//!
//! | array | type | content |
//! |---|---|---|
//! | `store.V.starts` | u64 × n | first byte of doc `d`'s record in `store.V.data` |
//! | `store.V.ends` | u64 × n | one past its last byte |
//! | `store.V.data` | u8 | the records, UTF-8 JSON objects |
//!
//! Records may be written in any doc order (the indexer renders them in dump
//! order), hence explicit start/end pairs. The data is streamed straight
//! into the file while rendering; the offsets follow it.

use std::io;
use std::path::Path;

use super::format::{ArrayRef, Bundle, BundleWriter, StreamedArray, WrittenFile};
use super::mmap::touch;
use super::IndexError;

/// Tag of store files.
pub const STORE_TAG: [u8; 4] = *b"STOR";

/// Streams one variant's records straight into its store file; memory
/// holds only the offsets.
pub struct StoreWriter {
    out: BundleWriter,
    data: Option<StreamedArray>,
    variant: String,
    starts: Vec<u64>,
    ends: Vec<u64>,
    len: u64,
}

impl StoreWriter {
    /// A store of variant `variant` at `path` with `docs` records.
    pub fn create(path: &Path, variant: &str, docs: usize) -> io::Result<StoreWriter> {
        let mut out = BundleWriter::create(path, STORE_TAG)?;
        let data = Some(out.begin_stream(&format!("store.{variant}.data"))?);
        Ok(StoreWriter {
            out,
            data,
            variant: variant.to_string(),
            starts: vec![0; docs],
            ends: vec![0; docs],
            len: 0,
        })
    }

    /// Sets the record of `docid` (each doc at most once).
    pub fn set(&mut self, docid: u32, record: &[u8]) -> io::Result<()> {
        self.out.stream(record)?;
        self.starts[docid as usize] = self.len;
        self.len += record.len() as u64;
        self.ends[docid as usize] = self.len;
        Ok(())
    }

    /// Writes the offsets and the footer.
    pub fn finish(mut self) -> io::Result<WrittenFile> {
        if let Some(data) = self.data.take() {
            self.out.end_stream(data)?;
        }
        self.out
            .put(&format!("store.{}.starts", self.variant), &self.starts)?;
        self.out
            .put(&format!("store.{}.ends", self.variant), &self.ends)?;
        self.out.finish()
    }
}

/// One variant of a store, read from a bundle.
#[derive(Clone)]
pub struct Store {
    bundle: Bundle,
    starts: ArrayRef<u64>,
    ends: ArrayRef<u64>,
    data: ArrayRef<u8>,
}

impl Store {
    pub fn open(bundle: &Bundle, variant: &str, docs: usize) -> Result<Store, IndexError> {
        let starts = bundle.array_ref::<u64>(&format!("store.{variant}.starts"))?;
        let ends = bundle.array_ref::<u64>(&format!("store.{variant}.ends"))?;
        let data = bundle.array_ref::<u8>(&format!("store.{variant}.data"))?;
        let store = Store {
            bundle: bundle.clone(),
            starts,
            ends,
            data,
        };
        let (s, e) = (store.bundle.get(starts), store.bundle.get(ends));
        let ok = s.len() == docs
            && e.len() == docs
            && s.iter()
                .zip(e)
                .all(|(&a, &b)| a <= b && b <= data.len() as u64);
        if !ok {
            return Err(IndexError::corrupt(
                bundle.name(),
                format!("store {variant}: inconsistent offsets"),
            ));
        }
        Ok(store)
    }

    /// The record of `docid` (JSON bytes).
    pub fn get(&self, docid: u32) -> &[u8] {
        let (s, e) = (self.bundle.get(self.starts), self.bundle.get(self.ends));
        &self.bundle.get(self.data)[s[docid as usize] as usize..e[docid as usize] as usize]
    }

    /// The records of `docids`, in order (a page of lookup hits), all
    /// located and touched ([`touch`]) before any is returned.
    pub fn get_many(&self, docids: impl IntoIterator<Item = u32>) -> Vec<&[u8]> {
        let records: Vec<&[u8]> = docids.into_iter().map(|d| self.get(d)).collect();
        touch(records.iter().copied());
        records
    }

    pub fn len(&self) -> usize {
        self.starts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }
}
