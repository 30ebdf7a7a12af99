//! The tantivy directory a name index is built in: tantivy's
//! `MmapDirectory` for everything but reads, which map each file through
//! [`Bytes`]; each time [`RELEASE_BYTES`] more have been read from the
//! directory, the pages of every file still open are dropped from the
//! resident set.
//!
//! A build reads every segment file once: the final merge reads the
//! segments in term order, the ranked postings (`ranked.rs`) the merged
//! segment. Through tantivy's own maps those pages stayed resident until
//! the segments were deleted: 0.93 GB of file pages at the end of the
//! people's index of a 4e6 build (12 million people), about 2.3 GB at 1e7,
//! counted in the build's peak resident size. Released pages stay in the
//! page cache; a later read faults them back in, from the same immutable
//! file (tantivy never writes a file it has finished).
//!
//! The server opens the built index with tantivy's `MmapDirectory`
//! (`name_index.rs`): only the build reads through this one.

use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};

use tantivy::directory::error::{DeleteError, LockError, OpenReadError, OpenWriteError};
use tantivy::directory::{
    Directory, DirectoryLock, FileHandle, Lock, MmapDirectory, OwnedBytes, WatchCallback,
    WatchHandle, WritePtr,
};
use tantivy::HasLen;

use crate::index::mmap::Bytes;

/// Bytes read from the directory's files between two releases of their
/// pages: a merge reads many segments of a few tens of MB each, so the
/// count is the directory's, not a file's.
const RELEASE_BYTES: u64 = 32 << 20;

/// See the module docs.
#[derive(Clone, Debug)]
pub struct BuildDirectory {
    root: PathBuf,
    inner: MmapDirectory,
    maps: Arc<OpenMaps>,
}

impl BuildDirectory {
    pub fn open(root: &Path) -> tantivy::Result<BuildDirectory> {
        Ok(BuildDirectory {
            root: root.to_path_buf(),
            inner: MmapDirectory::open(root)?,
            maps: Arc::default(),
        })
    }
}

/// The files tantivy holds open, and the bytes read from them since their
/// pages were last released.
#[derive(Default)]
struct OpenMaps {
    read: AtomicU64,
    files: Mutex<Vec<Weak<ReleasedFile>>>,
}

impl OpenMaps {
    fn add(&self, file: &Arc<ReleasedFile>) {
        lock(&self.files).push(Arc::downgrade(file));
    }

    /// Counts `bytes` read; releases every open file's pages each time
    /// [`RELEASE_BYTES`] more have been read.
    fn count(&self, bytes: usize) -> std::io::Result<()> {
        let read = self.read.fetch_add(bytes as u64, Ordering::Relaxed);
        if read < RELEASE_BYTES {
            return Ok(());
        }
        self.read.store(0, Ordering::Relaxed);
        let mut files = lock(&self.files);
        files.retain(|f| f.strong_count() > 0);
        files
            .iter()
            .filter_map(Weak::upgrade)
            .try_for_each(|f| f.map.release_pages())
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl fmt::Debug for OpenMaps {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "OpenMaps({} files)", lock(&self.files).len())
    }
}

/// One file, mapped.
struct ReleasedFile {
    map: Bytes,
    bytes: OwnedBytes,
    maps: Arc<OpenMaps>,
}

impl ReleasedFile {
    fn open(path: &Path, maps: &Arc<OpenMaps>) -> std::io::Result<Arc<ReleasedFile>> {
        let map = Bytes::map_file(path)?;
        let file = Arc::new(ReleasedFile {
            bytes: OwnedBytes::new(map.clone()),
            map,
            maps: maps.clone(),
        });
        maps.add(&file);
        Ok(file)
    }
}

impl fmt::Debug for ReleasedFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ReleasedFile({} bytes)", self.bytes.len())
    }
}

impl HasLen for ReleasedFile {
    fn len(&self) -> usize {
        self.bytes.len()
    }
}

impl FileHandle for ReleasedFile {
    fn read_bytes(&self, range: Range<usize>) -> std::io::Result<OwnedBytes> {
        self.maps.count(range.len())?;
        Ok(self.bytes.slice(range))
    }
}

impl Directory for BuildDirectory {
    fn get_file_handle(&self, path: &Path) -> Result<Arc<dyn FileHandle>, OpenReadError> {
        let full = self.root.join(path);
        match ReleasedFile::open(&full, &self.maps) {
            Ok(file) => Ok(file),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                Err(OpenReadError::FileDoesNotExist(path.to_path_buf()))
            }
            Err(e) => Err(OpenReadError::wrap_io_error(e, full)),
        }
    }

    fn delete(&self, path: &Path) -> Result<(), DeleteError> {
        self.inner.delete(path)
    }

    fn exists(&self, path: &Path) -> Result<bool, OpenReadError> {
        self.inner.exists(path)
    }

    fn open_write(&self, path: &Path) -> Result<WritePtr, OpenWriteError> {
        self.inner.open_write(path)
    }

    fn atomic_read(&self, path: &Path) -> Result<Vec<u8>, OpenReadError> {
        self.inner.atomic_read(path)
    }

    fn atomic_write(&self, path: &Path, data: &[u8]) -> std::io::Result<()> {
        self.inner.atomic_write(path, data)
    }

    fn sync_directory(&self) -> std::io::Result<()> {
        self.inner.sync_directory()
    }

    fn watch(&self, callback: WatchCallback) -> tantivy::Result<WatchHandle> {
        self.inner.watch(callback)
    }

    /// tantivy's own locks (a `flock` on a file left in place): the trait's
    /// default creates the lock file and deletes it when released, which
    /// a reader's background reload could do while the build lists the
    /// finished index's files.
    fn acquire_lock(&self, lock: &Lock) -> Result<DirectoryLock, LockError> {
        self.inner.acquire_lock(lock)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_was_written_across_releases_and_reports_missing_files() {
        let root = std::env::temp_dir().join(format!("build-dir-{}", std::process::id()));
        std::fs::create_dir_all(&root).unwrap();
        let data: Vec<u8> = (0..(3 << 20)).map(|i: u32| (i % 251) as u8).collect();
        std::fs::write(root.join("f"), &data).unwrap();
        let dir = BuildDirectory::open(&root).unwrap();
        let file = dir.get_file_handle(Path::new("f")).unwrap();
        assert_eq!(file.len(), data.len());
        let whole = file.read_bytes(0..data.len()).unwrap();
        for round in 0..40 {
            let at = (round * 77_777) % (data.len() - 4096);
            let part = file.read_bytes(at..at + 4096).unwrap();
            assert_eq!(part.as_slice(), &data[at..at + 4096]);
            let _ = file.read_bytes(0..data.len()).unwrap();
        }
        assert_eq!(
            whole.as_slice(),
            &data[..],
            "bytes read before releases stay valid"
        );
        assert!(matches!(
            dir.get_file_handle(Path::new("missing")),
            Err(OpenReadError::FileDoesNotExist(_))
        ));
        std::fs::remove_dir_all(root).unwrap();
    }

    #[test]
    fn a_released_lock_leaves_its_file_in_place() {
        let root = std::env::temp_dir().join(format!("build-dir-lock-{}", std::process::id()));
        std::fs::create_dir_all(&root).unwrap();
        let dir = BuildDirectory::open(&root).unwrap();
        let lock = dir.acquire_lock(&tantivy::directory::META_LOCK).unwrap();
        drop(lock);
        let path = &tantivy::directory::META_LOCK.filepath;
        assert!(root.join(path).exists(), "listed files must not vanish");
        std::fs::remove_dir_all(root).unwrap();
    }
}
