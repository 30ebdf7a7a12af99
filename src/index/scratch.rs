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
//!   rather than in a `/tmp` that may be small or in memory.

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

    /// Copies the elements into `out` as array `name`.
    pub fn copy_into(self, out: &mut BundleWriter, name: &str) -> io::Result<()> {
        let mut file = self.file.into_inner().map_err(|e| e.into_error())?;
        file.seek(SeekFrom::Start(0))?;
        let mut reader = BufReader::with_capacity(BUFFER_BYTES, file);
        let array = out.begin_stream(name)?;
        let mut buf = vec![0u8; BUFFER_BYTES];
        loop {
            let n = reader.read(&mut buf)?;
            if n == 0 {
                break;
            }
            out.stream(&buf[..n])?;
        }
        out.end_stream_as::<T>(array)
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
