//! Scratch files of a bundle's builders: what a builder would otherwise
//! hold in memory until the bundle is written.
//!
//! - [`ScratchArray`]: an append-only array of one element type in an
//!   unlinked temporary file beside the bundle (the operating system removes
//!   it when it is dropped, or when the process dies); its bytes are the
//!   elements' in-memory (little-endian) form, copied into the bundle as one
//!   array when the builder is written. A builder whose arrays are filled in
//!   order (a relation's offsets and targets, a facet's keys) holds a write
//!   buffer of each, not the arrays.
//! - [`ScratchChunks`]: the same kind of file for the chunks of an external
//!   sorter (`grenad::Sorter`), so that they land beside the bundle too
//!   rather than in a `/tmp` that may be small or in memory. [`DocsByKey`]
//!   is such a sorter of (key, doc id) pairs (key maps, UUID maps, name
//!   ranks).

use std::borrow::Cow;
use std::convert::Infallible;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::marker::PhantomData;
use std::path::{Path, PathBuf};

use super::format::{BundleWriter, Element};

/// Write buffer of a scratch array.
const BUFFER_BYTES: usize = 256 << 10;

/// An append-only array of `T` in an unlinked temporary file.
pub struct ScratchArray<T: Element> {
    file: BufWriter<File>,
    len: u64,
    _of: PhantomData<T>,
}

impl<T: Element> ScratchArray<T> {
    /// An empty array whose file is created (unlinked) in `dir`.
    pub fn new_in(dir: &Path) -> io::Result<ScratchArray<T>> {
        Ok(ScratchArray {
            file: BufWriter::with_capacity(BUFFER_BYTES, tempfile::tempfile_in(dir)?),
            len: 0,
            _of: PhantomData,
        })
    }

    pub fn push(&mut self, value: T) -> io::Result<()> {
        self.extend(std::slice::from_ref(&value))
    }

    pub fn extend(&mut self, values: &[T]) -> io::Result<()> {
        self.file.write_all(bytemuck::cast_slice(values))?;
        self.len += values.len() as u64;
        Ok(())
    }

    /// Number of elements pushed.
    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The elements, read back into memory.
    pub fn read_back(self) -> io::Result<Vec<T>> {
        let mut file = self.file.into_inner().map_err(|e| e.into_error())?;
        file.seek(SeekFrom::Start(0))?;
        let len = usize::try_from(self.len).map_err(io::Error::other)?;
        let mut values = vec![T::zeroed(); len];
        file.read_exact(bytemuck::cast_slice_mut(&mut values))?;
        Ok(values)
    }

    /// Copies the elements into `out` as array `name`.
    pub fn copy_into(self, out: &mut BundleWriter, name: &str) -> io::Result<()> {
        let array = out.begin_stream(name)?;
        self.each_block(|block| out.stream(block))?;
        out.end_stream_as::<T>(array)
    }

    /// Writes the elements' bytes to `out`.
    pub fn copy_to(self, out: &mut impl Write) -> io::Result<()> {
        self.each_block(|block| out.write_all(block))
    }

    /// Calls `f` with the elements' bytes, block after block.
    fn each_block(self, mut f: impl FnMut(&[u8]) -> io::Result<()>) -> io::Result<()> {
        let mut file = self.file.into_inner().map_err(|e| e.into_error())?;
        file.seek(SeekFrom::Start(0))?;
        let mut reader = BufReader::with_capacity(BUFFER_BYTES, file);
        let mut buf = vec![0u8; BUFFER_BYTES];
        loop {
            match reader.read(&mut buf)? {
                0 => return Ok(()),
                n => f(&buf[..n])?,
            }
        }
    }
}

/// A byte array is a writer (an FST builder streams into one).
impl Write for ScratchArray<u8> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.extend(buf)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

/// Creates the chunk files of a `grenad::Sorter` (unlinked) in one folder.
#[derive(Debug, Clone)]
pub struct ScratchChunks {
    dir: PathBuf,
}

impl ScratchChunks {
    pub fn new_in(dir: &Path) -> ScratchChunks {
        ScratchChunks {
            dir: dir.to_path_buf(),
        }
    }
}

impl grenad::ChunkCreator for ScratchChunks {
    type Chunk = File;
    type Error = io::Error;

    fn create(&self) -> io::Result<File> {
        tempfile::tempfile_in(&self.dir)
    }
}

/// Merge function of doc ids (u32 LE each) gathered under one key: their
/// concatenation (grenad merges every key, a key inserted once too).
pub struct ConcatDocs;

impl grenad::MergeFunction for ConcatDocs {
    type Error = Infallible;

    fn merge<'a>(&self, _key: &[u8], docs: &[Cow<'a, [u8]>]) -> Result<Cow<'a, [u8]>, Infallible> {
        match docs {
            [one] => Ok(one.clone()),
            _ => Ok(Cow::Owned(docs.concat())),
        }
    }
}

/// An external sorter of (key, doc id) pairs: the doc ids inserted under
/// one key (u32 LE) come out together, with the keys in byte order.
pub type DocsByKey = grenad::Sorter<ConcatDocs, ScratchChunks>;

/// A [`DocsByKey`] filling `memory` bytes before it writes a sorted chunk
/// into `dir`.
pub fn docs_by_key(dir: &Path, memory: usize) -> DocsByKey {
    let mut builder = grenad::SorterBuilder::new(ConcatDocs);
    builder.dump_threshold(memory);
    builder.chunk_creator(ScratchChunks::new_in(dir)).build()
}

/// The doc ids of a [`DocsByKey`] value into `docs`, ascending and distinct.
pub fn sorted_docs(raw: &[u8], docs: &mut Vec<u32>) {
    docs.clear();
    docs.extend(
        raw.chunks_exact(4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
    );
    docs.sort_unstable();
    docs.dedup();
}

/// A grenad error as an I/O error (the merge functions here never fail
/// but on corrupt scratch data).
pub fn io_error<E: std::fmt::Display>(e: grenad::Error<E>) -> io::Error {
    match e {
        grenad::Error::Io(e) => e,
        other => io::Error::other(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::format::Bundle;

    #[test]
    fn arrays_copy_into_a_bundle_whole_and_typed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.bin");
        let mut out = BundleWriter::create(&path, *b"TEST").unwrap();
        let mut wide = ScratchArray::<u64>::new_in(out.dir()).unwrap();
        let mut bytes = ScratchArray::<u8>::new_in(out.dir()).unwrap();
        let many: Vec<u64> = (0..100_000u64).map(|i| i * 31).collect();
        wide.extend(&many).unwrap();
        wide.push(7).unwrap();
        bytes.push(3).unwrap();
        assert_eq!((wide.len(), bytes.len()), (100_001, 1));
        out.put::<u32>("before", &[1, 2, 3]).unwrap();
        let mut back = ScratchArray::<i32>::new_in(out.dir()).unwrap();
        back.extend(&[-1, 5, i32::MIN]).unwrap();
        assert_eq!(back.read_back().unwrap(), [-1, 5, i32::MIN]);
        wide.copy_into(&mut out, "wide").unwrap();
        bytes.copy_into(&mut out, "bytes").unwrap();
        ScratchArray::<u32>::new_in(out.dir())
            .unwrap()
            .copy_into(&mut out, "empty")
            .unwrap();
        out.finish().unwrap();
        let bundle = Bundle::open(&path, *b"TEST", true).unwrap();
        let mut want = many;
        want.push(7);
        assert_eq!(bundle.array::<u64>("wide").unwrap(), &want[..]);
        assert_eq!(bundle.array::<u8>("bytes").unwrap(), &[3]);
        assert_eq!(bundle.array::<u32>("before").unwrap(), &[1, 2, 3]);
        assert!(bundle.array::<u32>("empty").unwrap().is_empty());
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1, "scratch files are unlinked");
    }
}
