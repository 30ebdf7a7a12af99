//! A dump's JSONL files, each stored plain (`deals.jsonl`) or compressed
//! with zstd (`deals.jsonl.zst`, one or more frames).
//!
//! A dump of 1e7 companies is about 64 GB of JSONL and about 13 GB
//! compressed (zstd level 3: people rows about 6×, deals 4×), so that a
//! compressed dump and its index fit on a disk where the plain one does
//! not. Both forms read the same lines in the same order; the indexer
//! takes whichever form is present and refuses a directory holding both
//! (which one is meant would be a guess). Reading counts the bytes taken
//! from disk, so that progress runs against the file's size either way.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// The suffix of a compressed dump file.
pub const COMPRESSED_SUFFIX: &str = ".zst";

/// One dump file as found on disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DumpFile {
    pub path: PathBuf,
    pub compressed: bool,
}

/// The file `name` (such as `deals.jsonl`) of the dump in `dir`: plain or
/// compressed. `NotFound` when neither exists; `InvalidInput` when both do.
pub fn locate(dir: &Path, name: &str) -> io::Result<DumpFile> {
    let plain = dir.join(name);
    let compressed = dir.join(format!("{name}{COMPRESSED_SUFFIX}"));
    let found = |path, compressed| Ok(DumpFile { path, compressed });
    match (plain.is_file(), compressed.is_file()) {
        (true, false) => found(plain, false),
        (false, true) => found(compressed, true),
        (true, true) => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "both {} and {} exist: remove the one not meant",
                plain.display(),
                compressed.display()
            ),
        )),
        (false, false) => Err(io::Error::new(
            io::ErrorKind::NotFound,
            format!("missing dump file {}", plain.display()),
        )),
    }
}

impl DumpFile {
    /// Bytes on disk.
    pub fn size(&self) -> u64 {
        self.path.metadata().map_or(0, |m| m.len())
    }

    /// The file's lines (decompressed), and a count of the bytes read from
    /// disk so far.
    pub fn open(&self) -> io::Result<(Box<dyn BufRead>, Arc<AtomicU64>)> {
        let consumed = Arc::new(AtomicU64::new(0));
        let file = Counted {
            inner: File::open(&self.path)?,
            consumed: Arc::clone(&consumed),
        };
        let lines: Box<dyn BufRead> = match self.compressed {
            true => Box::new(BufReader::with_capacity(
                1 << 20,
                zstd::stream::read::Decoder::new(file)?,
            )),
            false => Box::new(BufReader::with_capacity(1 << 20, file)),
        };
        Ok((lines, consumed))
    }

    /// The whole file, decompressed.
    pub fn read_to_string(&self) -> io::Result<String> {
        let mut text = String::new();
        self.open()?.0.read_to_string(&mut text)?;
        Ok(text)
    }
}

/// A reader that counts the bytes it hands out.
struct Counted<R> {
    inner: R,
    consumed: Arc<AtomicU64>,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.consumed.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn write_zst(path: &Path, frames: &[&str]) {
        let mut out = File::create(path).unwrap();
        for frame in frames {
            out.write_all(&zstd::encode_all(frame.as_bytes(), 3).unwrap())
                .unwrap();
        }
    }

    /// A plain and a compressed file (of several frames) read the same
    /// text; the bytes counted are the bytes on disk.
    #[test]
    fn both_forms_read_the_same_lines() {
        let dir = tempfile::tempdir().unwrap();
        let text = "{\"a\":1}\n\n{\"b\":2}\n";
        std::fs::write(dir.path().join("x.jsonl"), text).unwrap();
        write_zst(
            &dir.path().join("y.jsonl.zst"),
            &["{\"a\":1}\n\n", "{\"b\":2}\n"],
        );
        for name in ["x.jsonl", "y.jsonl"] {
            let file = locate(dir.path(), name).unwrap();
            assert_eq!(file.compressed, name == "y.jsonl");
            let (mut lines, consumed) = file.open().unwrap();
            let mut read = String::new();
            lines.read_to_string(&mut read).unwrap();
            assert_eq!(read, text);
            assert_eq!(consumed.load(Ordering::Relaxed), file.size());
            assert_eq!(file.read_to_string().unwrap(), text);
        }
    }

    #[test]
    fn missing_and_ambiguous_files_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let e = locate(dir.path(), "deals.jsonl").unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::NotFound);
        std::fs::write(dir.path().join("deals.jsonl"), "").unwrap();
        write_zst(&dir.path().join("deals.jsonl.zst"), &[""]);
        let e = locate(dir.path(), "deals.jsonl").unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
        assert!(e.to_string().contains("both"), "{e}");
    }

    /// A corrupt compressed file is an error, not a panic or a short read.
    #[test]
    fn corrupt_frames_are_errors() {
        let dir = tempfile::tempdir().unwrap();
        let mut bytes = zstd::encode_all(&b"{\"a\":1}\n".repeat(1000)[..], 3).unwrap();
        let mid = bytes.len() / 2;
        bytes.truncate(mid);
        std::fs::write(dir.path().join("d.jsonl.zst"), bytes).unwrap();
        let text = locate(dir.path(), "d.jsonl").unwrap().read_to_string();
        assert!(text.is_err());
    }
}
