//! Record stores: the response JSON of every entity, rendered at index time,
//! returned by doc id without parsing.
//!
//! A store file (tag `STOR`) holds one or more *variants* per kind (`full`,
//! `card`…). For variant `V`:
//!
//! | array | type | content |
//! |---|---|---|
//! | `store.V.starts` | u64 × n | first byte of doc `d`'s record in `store.V.data` |
//! | `store.V.ends` | u64 × n | one past its last byte |
//! | `store.V.data` | u8 | the records, UTF-8 JSON objects |
//!
//! Records may be written in any doc order (the indexer renders them in dump
//! order), hence explicit start/end pairs.

use std::fs::{self, File};
use std::io::{self, BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use super::format::{ArrayRef, Bundle, BundleWriter, WrittenFile};
use super::IndexError;

/// Tag of store files.
pub const STORE_TAG: [u8; 4] = *b"STOR";

/// Streams the records of several variants to disk, then assembles one
/// store file. Record bytes go to a temporary file per variant, so memory
/// holds only the offsets.
pub struct StoreWriter {
    path: PathBuf,
    variants: Vec<StagedVariant>,
}

struct StagedVariant {
    name: String,
    starts: Vec<u64>,
    ends: Vec<u64>,
    staging: PathBuf,
    data: BufWriter<File>,
    len: u64,
}

impl StoreWriter {
    /// A store at `path` with `docs` records in each of `variants`.
    pub fn create(path: &Path, docs: usize, variants: &[&str]) -> io::Result<StoreWriter> {
        let mut staged = Vec::with_capacity(variants.len());
        for v in variants {
            let staging = path.with_extension(format!("{v}.staging"));
            staged.push(StagedVariant {
                name: v.to_string(),
                starts: vec![0; docs],
                ends: vec![0; docs],
                data: BufWriter::with_capacity(1 << 20, File::create(&staging)?),
                staging,
                len: 0,
            });
        }
        Ok(StoreWriter { path: path.to_path_buf(), variants: staged })
    }

    /// Sets the record of `docid` in variant number `variant`.
    pub fn set(&mut self, variant: usize, docid: u32, record: &[u8]) -> io::Result<()> {
        let v = &mut self.variants[variant];
        v.data.write_all(record)?;
        v.starts[docid as usize] = v.len;
        v.len += record.len() as u64;
        v.ends[docid as usize] = v.len;
        Ok(())
    }

    /// Writes the store file and removes the staging files.
    pub fn finish(self) -> io::Result<WrittenFile> {
        let mut out = BundleWriter::create(&self.path, STORE_TAG)?;
        for v in self.variants {
            out.put(&format!("store.{}.starts", v.name), &v.starts)?;
            out.put(&format!("store.{}.ends", v.name), &v.ends)?;
            let mut file = v.data.into_inner().map_err(|e| e.into_error())?;
            file.seek(SeekFrom::Start(0))?;
            let mut reader = File::open(&v.staging)?;
            out.put_bytes_from(&format!("store.{}.data", v.name), &mut reader, v.len)?;
            drop(file);
            fs::remove_file(&v.staging)?;
        }
        out.finish()
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
        let store = Store { bundle: bundle.clone(), starts, ends, data };
        let (s, e) = (store.bundle.get(starts), store.bundle.get(ends));
        let ok = s.len() == docs
            && e.len() == docs
            && s.iter().zip(e).all(|(&a, &b)| a <= b && b <= data.len() as u64);
        if !ok {
            return Err(IndexError::corrupt(bundle.name(), format!("store {variant}: inconsistent offsets")));
        }
        Ok(store)
    }

    /// The record of `docid` (JSON bytes).
    pub fn get(&self, docid: u32) -> &[u8] {
        let (s, e) = (self.bundle.get(self.starts), self.bundle.get(self.ends));
        &self.bundle.get(self.data)[s[docid as usize] as usize..e[docid as usize] as usize]
    }

    pub fn len(&self) -> usize {
        self.starts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }
}
