//! The one place that maps files into memory.
//!
//! Everything else reads index files through [`Bytes`], a cheap-to-clone view
//! over either a read-only memory map or an owned buffer (tests use the
//! latter, so no test needs a file).

#![allow(unsafe_code)]

use std::fs::File;
use std::io;
use std::ops::Deref;
use std::path::Path;
use std::sync::Arc;

use memmap2::{Mmap, UncheckedAdvice};

enum Backing {
    Mapped(Mmap),
    Owned(Vec<u8>),
}

impl Deref for Backing {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Backing::Mapped(m) => m,
            Backing::Owned(v) => v,
        }
    }
}

/// Immutable bytes of one index file.
#[derive(Clone)]
pub struct Bytes {
    backing: Arc<Backing>,
}

impl Bytes {
    /// Maps `path` read-only.
    pub fn map_file(path: &Path) -> io::Result<Bytes> {
        let file = File::open(path)?;
        if file.metadata()?.len() == 0 {
            return Ok(Bytes::from_vec(Vec::new()));
        }
        // SAFETY: index files are immutable once published: the indexer
        // builds into a fresh temporary directory and renames it into place,
        // and nothing ever writes to a published file. The map is read-only,
        // so no other process can observe our accesses and no mutation of
        // the underlying file is expected while it is mapped.
        let map = unsafe { Mmap::map(&file)? };
        Ok(Bytes {
            backing: Arc::new(Backing::Mapped(map)),
        })
    }

    /// Drops the pages of a map from this process's resident set; they stay
    /// in the page cache and are read back in on the next access. A build
    /// reading a large file at random (the deal store, for each company's
    /// latest deal) calls it now and then, so those pages do not add up to
    /// the whole file. Owned bytes are left as they are.
    pub fn release_pages(&self) -> io::Result<()> {
        match self.backing.as_ref() {
            // SAFETY: the map is read-only and shared, of an immutable file
            // (see `map_file`): nothing in it was ever written through the
            // map, so dropping its pages loses nothing and a later read
            // faults in the same bytes from the file.
            Backing::Mapped(m) => unsafe { m.unchecked_advise(UncheckedAdvice::DontNeed) },
            Backing::Owned(_) => Ok(()),
        }
    }

    /// Owned bytes (tests, small files).
    pub fn from_vec(data: Vec<u8>) -> Bytes {
        Bytes {
            backing: Arc::new(Backing::Owned(data)),
        }
    }
}

impl Deref for Bytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.backing
    }
}

// SAFETY: the bytes live in an `Arc`'d map or vector that is never moved,
// resized or written while any clone exists, so the address `deref` gives
// is the same for every clone and for as long as one lives (what tantivy's
// `OwnedBytes` relies on to hand out slices of them).
unsafe impl stable_deref_trait::StableDeref for Bytes {}

/// Reads the first byte of each slice, all before any result is used:
/// slices at random places of a large map each cost a cache miss (and,
/// under virtualisation, a page walk), and issued together those misses
/// overlap instead of queueing one after another. Callers locate a batch
/// of records, touch them, then work through them.
pub fn touch<'a>(slices: impl IntoIterator<Item = &'a [u8]>) {
    let touched = slices
        .into_iter()
        .fold(0u8, |acc, s| acc ^ s.first().copied().unwrap_or(0));
    std::hint::black_box(touched);
}
