//! The folded-names file `names.bin`: doc id → folded names.
//!
//! Re-scoring compares the query with every name of each candidate. Reading
//! names from tantivy's doc store would decompress one 16 KB block per
//! candidate (tens of µs each); this file answers in a few nanoseconds from a
//! memory map, with no allocation: the slice it returns borrows the map.
//!
//! Layout (all integers little-endian):
//!
//! ```text
//! magic    b"FSNAMES1"
//! slots    u32                   number of doc id slots = max doc id + 1
//! offsets  [u32; slots + 1]      slot d is data[offsets[d] .. offsets[d + 1]]
//! data     UTF-8                 per slot: the folded names (tokens joined by
//!                                ' ') joined by '\n'; empty = unknown doc id
//! ```
//!
//! Doc ids are dense entity ids, so the offsets table costs 4 bytes per
//! entity. The whole file is validated once at open (offsets monotone and on
//! character boundaries, data UTF-8), so lookups cannot fail.

use std::borrow::Cow;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::index::mmap::Bytes;
use crate::index::scratch::{self, ScratchArray, ScratchChunks};

use super::error::TextError;

/// File name inside the index directory.
pub(crate) const FILE_NAME: &str = "names.bin";

const MAGIC: &[u8; 8] = b"FSNAMES1";
const HEADER_BYTES: usize = MAGIC.len() + 4;

/// Memory the sorter of a [`NamesWriter`] fills before it writes a chunk.
const SORT_BYTES: usize = 32 << 20;

/// Merge function of the names sorter: a doc id given twice is refused
/// (grenad merges every key, a key inserted once too).
struct Distinct;

impl grenad::MergeFunction for Distinct {
    type Error = u32;

    fn merge<'a>(&self, docid: &[u8], names: &[Cow<'a, [u8]>]) -> Result<Cow<'a, [u8]>, u32> {
        match names {
            [one] => Ok(one.clone()),
            _ => Err(docid.try_into().map_or(u32::MAX, u32::from_be_bytes)),
        }
    }
}

/// Collects folded names during a build (doc ids in any order), then
/// writes the file, in bounded memory: the names are sorted by doc id on
/// disk (an external sorter whose chunks are files in the index's
/// folder), and the offsets and data go through two scratch arrays, since
/// the file needs every offset before the data.
pub(crate) struct NamesWriter {
    sorter: grenad::Sorter<Distinct, ScratchChunks>,
    dir: PathBuf,
}

impl NamesWriter {
    /// A writer keeping its scratch files in `dir`.
    pub(crate) fn new_in(dir: &Path) -> NamesWriter {
        let mut builder = grenad::SorterBuilder::new(Distinct);
        builder.dump_threshold(SORT_BYTES);
        NamesWriter {
            sorter: builder.chunk_creator(ScratchChunks::new_in(dir)).build(),
            dir: dir.to_path_buf(),
        }
    }

    /// Records the names of `docid`; `names` are already folded.
    pub(crate) fn push<'n>(
        &mut self,
        docid: u32,
        names: impl Iterator<Item = &'n str>,
    ) -> Result<(), TextError> {
        let joined = names.collect::<Vec<_>>().join("\n");
        self.sorter
            .insert(docid.to_be_bytes(), joined)
            .map_err(|e| self.error(e))
    }

    /// Writes the file; returns its size in bytes.
    pub(crate) fn write(self, path: &Path) -> Result<u64, TextError> {
        let (dir, io) = (self.dir.clone(), |e| TextError::io(path, e));
        let mut offsets = ScratchArray::<u32>::new_in(&dir).map_err(io)?;
        let mut data = ScratchArray::<u8>::new_in(&dir).map_err(io)?;
        let mut merged =
            (self.sorter.into_stream_merger_iter()).map_err(|e| names_error(&dir, e))?;
        let mut slots = 0u64;
        while let Some((key, names)) = merged.next().map_err(|e| names_error(&dir, e))? {
            let docid = key.try_into().map_or(u32::MAX, u32::from_be_bytes);
            if docid == u32::MAX {
                return Err(TextError::Capacity("doc id u32::MAX"));
            }
            let at = u32::try_from(data.len())
                .map_err(|_| TextError::Capacity("folded names exceed 4 GiB"))?;
            for _ in slots..=u64::from(docid) {
                offsets.push(at).map_err(io)?;
            }
            data.extend(names).map_err(io)?;
            slots = u64::from(docid) + 1;
        }
        let end = u32::try_from(data.len())
            .map_err(|_| TextError::Capacity("folded names exceed 4 GiB"))?;
        offsets.push(end).map_err(io)?;
        let bytes = HEADER_BYTES as u64 + 4 * (slots + 1) + data.len();
        let file = File::create(path).map_err(io)?;
        let mut out = BufWriter::new(file);
        out.write_all(MAGIC).map_err(io)?;
        out.write_all(&(slots as u32).to_le_bytes()).map_err(io)?;
        offsets.copy_to(&mut out).map_err(io)?;
        data.copy_to(&mut out).map_err(io)?;
        let out = out
            .into_inner()
            .map_err(|e| TextError::io(path, e.into_error()))?;
        out.sync_all().map_err(io)?;
        Ok(bytes)
    }

    fn error(&self, e: grenad::Error<u32>) -> TextError {
        names_error(&self.dir, e)
    }
}

/// A sorter error: a doc id given twice, or a scratch file failing.
fn names_error(dir: &Path, e: grenad::Error<u32>) -> TextError {
    match e {
        grenad::Error::Merge(docid) => TextError::DuplicateDocid(docid),
        other => TextError::io(dir, scratch::io_error(other)),
    }
}

/// The memory-mapped, validated file.
pub(crate) struct NamesStore {
    map: Bytes,
    slots: usize,
}

impl NamesStore {
    /// Maps and validates `path`.
    pub(crate) fn open(path: &Path) -> Result<NamesStore, TextError> {
        let map = Bytes::map_file(path).map_err(|e| TextError::io(path, e))?;
        let slots =
            validate(&map).map_err(|reason| TextError::corrupt(PathBuf::from(path), reason))?;
        Ok(NamesStore { map, slots })
    }

    /// The folded names of `docid` joined by '\n' (empty for an unknown doc
    /// id), as bytes: a cheap key for callers that look the same names up
    /// many times.
    pub(crate) fn get_bytes(&self, docid: u32) -> &[u8] {
        let slot = docid as usize;
        if slot >= self.slots {
            return b"";
        }
        let start = offset(&self.map, slot) as usize;
        let end = offset(&self.map, slot + 1) as usize;
        let data = &self.map[data_start(self.slots)..];
        &data[start..end]
    }

    /// Number of doc id slots (the largest doc id + 1).
    pub(crate) fn slots(&self) -> usize {
        self.slots
    }

    /// The folded names of `docid`, one `&str` per name.
    pub(crate) fn names(&self, docid: u32) -> impl Iterator<Item = &str> {
        NamesStore::split(self.get_bytes(docid))
    }

    /// The names of one slot's bytes ([`NamesStore::get_bytes`]), one
    /// `&str` per name.
    pub(crate) fn split(bytes: &[u8]) -> impl Iterator<Item = &str> {
        std::str::from_utf8(bytes)
            .unwrap_or_default()
            .split('\n')
            .filter(|name| !name.is_empty())
    }
}

fn data_start(slots: usize) -> usize {
    HEADER_BYTES + 4 * (slots + 1)
}

fn read_u32(bytes: &[u8], at: usize) -> u32 {
    let mut word = [0u8; 4];
    word.copy_from_slice(&bytes[at..at + 4]);
    u32::from_le_bytes(word)
}

/// Offset number `i`; the caller has checked that the table holds it.
fn offset(bytes: &[u8], i: usize) -> u32 {
    read_u32(bytes, HEADER_BYTES + 4 * i)
}

/// Checks the whole layout; returns the number of slots.
fn validate(bytes: &[u8]) -> Result<usize, String> {
    if bytes.len() < HEADER_BYTES || &bytes[..MAGIC.len()] != MAGIC {
        return Err("bad magic".into());
    }
    let slots = read_u32(bytes, MAGIC.len()) as usize;
    let data_at = data_start(slots);
    if bytes.len() < data_at {
        return Err(format!("offset table of {slots} slots is truncated"));
    }
    let data = std::str::from_utf8(&bytes[data_at..]).map_err(|e| format!("data: {e}"))?;
    let mut previous = 0;
    for i in 0..=slots {
        let at = offset(bytes, i) as usize;
        if (i == 0 && at != 0) || at < previous || !data.is_char_boundary(at) {
            return Err(format!(
                "offset {i} ({at}) is out of order or out of bounds"
            ));
        }
        previous = at;
    }
    if previous != data.len() {
        return Err(format!(
            "last offset {previous} but {} data bytes",
            data.len()
        ));
    }
    Ok(slots)
}

#[cfg(test)]
mod tests {
    use super::super::tests_support::TempDir;
    use super::*;

    fn write(entries: &[(u32, &[&str])]) -> (TempDir, Result<u64, TextError>) {
        let dir = TempDir::new("names");
        let mut writer = NamesWriter::new_in(dir.path());
        let pushed: Result<(), TextError> = entries
            .iter()
            .try_for_each(|(docid, names)| writer.push(*docid, names.iter().copied()));
        let written = pushed.and_then(|()| writer.write(&dir.path().join(FILE_NAME)));
        (dir, written)
    }

    #[test]
    fn round_trips_sparse_unordered_doc_ids() {
        let (dir, written) = write(&[(3, &["zurich", "zuerich"]), (0, &["stripe"]), (5, &[])]);
        let path = dir.path().join(FILE_NAME);
        assert_eq!(
            written.ok(),
            Some(std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0))
        );
        let store = NamesStore::open(&path).expect("valid file");
        assert_eq!(store.names(0).collect::<Vec<_>>(), ["stripe"]);
        assert_eq!(store.names(3).collect::<Vec<_>>(), ["zurich", "zuerich"]);
        assert_eq!(store.get_bytes(1), b"");
        assert_eq!(store.get_bytes(5), b"");
        assert_eq!(store.get_bytes(6), b"");
        assert_eq!(store.get_bytes(u32::MAX), b"");
        assert_eq!(store.get_bytes(3), "zurich\nzuerich".as_bytes());
        assert_eq!(store.get_bytes(7), b"");
    }

    #[test]
    fn rejects_duplicate_doc_ids() {
        let (_dir, written) = write(&[(1, &["a"]), (1, &["b"])]);
        assert!(matches!(written, Err(TextError::DuplicateDocid(1))));
    }

    #[test]
    fn rejects_the_doc_id_without_a_slot() {
        let (_dir, written) = write(&[(u32::MAX, &["a"])]);
        assert!(matches!(written, Err(TextError::Capacity(_))));
    }

    #[test]
    fn rejects_corrupt_files() {
        let (dir, written) = write(&[(0, &["stripe"]), (1, &["北京"])]);
        assert!(written.is_ok());
        let path = dir.path().join(FILE_NAME);
        let good = std::fs::read(&path).expect("written file");
        let cases: Vec<Vec<u8>> = vec![
            Vec::new(),
            b"NOTNAMES\0\0\0\0".to_vec(),
            good[..good.len() - 1].to_vec(),
            good[..HEADER_BYTES + 4].to_vec(),
            {
                let mut b = good.clone();
                b[8] = 0xff;
                b[9] = 0xff;
                b[10] = 0xff;
                b[11] = 0xff;
                b
            },
            {
                let mut b = good.clone();
                b[HEADER_BYTES + 4] = 7;
                b
            },
            {
                let mut b = good.clone();
                let n = b.len();
                b[n - 2] = 0xff;
                b
            },
        ];
        for (i, bytes) in cases.iter().enumerate() {
            let bad = dir.path().join(format!("bad{i}.bin"));
            std::fs::write(&bad, bytes).expect("write test file");
            assert!(
                matches!(NamesStore::open(&bad), Err(TextError::Corrupt { .. })),
                "case {i} should be rejected"
            );
        }
    }
}
