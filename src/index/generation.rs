//! Index generations: one index directory is one *generation*, and a
//! running server swaps to a new one without stopping.
//!
//! [`Generations`] holds the generation being served behind an `RwLock`
//! held only long enough to clone an `Arc`. A request pins the current
//! [`Generation`] once ([`Generations::current`]) and answers from it to the
//! end, so a swap never mixes two indexes in one answer: requests that began
//! before the swap finish on the old generation, and its memory maps are
//! released when the last of them drops its `Arc` (logged as "unmapped").
//!
//! The *source* is the path the server was given (`--index`), usually a
//! symlink that a deployment points at a new directory with an atomic
//! `rename`. [`Generations::reload`] resolves the source to its real
//! directory, opens it there (never through the symlink, so a later swap
//! cannot change files under an open generation) and checks every checksum
//! and structure before swapping; a directory that fails is refused and
//! the current generation keeps serving. [`Generations::pending`] tells a
//! watcher whether the source now names another directory (another path,
//! or the same path renamed over: another inode).
//!
//! Numbers count generations since the process started (1 is the first).

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};

use super::open::Index;

/// One opened index directory.
pub struct Generation {
    /// 1 for the index the process started with, then +1 per swap.
    pub number: u64,
    /// The directory, symlinks resolved.
    pub dir: PathBuf,
    /// Its inode, to notice a directory renamed over the same path.
    pub inode: u64,
    pub index: Arc<Index>,
    /// When it started serving, RFC 3339.
    pub serving_since: String,
}

impl std::fmt::Debug for Generation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Generation")
            .field("number", &self.number)
            .field("dir", &self.dir)
            .finish_non_exhaustive()
    }
}

impl Drop for Generation {
    fn drop(&mut self) {
        tracing::info!(generation = self.number, dir = %self.dir.display(), "generation unmapped");
    }
}

/// Which directory a source names: its real path and inode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    pub dir: PathBuf,
    pub inode: u64,
}

/// A generation that could not replace the current one.
#[derive(Debug, Clone, PartialEq)]
pub struct Refused {
    pub dir: PathBuf,
    pub reason: String,
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} was refused ({}); the current generation keeps serving",
            self.dir.display(),
            self.reason
        )
    }
}

/// The generation being served, and how to replace it.
pub struct Generations {
    source: PathBuf,
    current: RwLock<Arc<Generation>>,
    numbers: AtomicU64,
    /// One reload at a time (a signal and a watcher may race).
    reloading: Mutex<()>,
}

impl Generations {
    /// Serves `index`, opened from `source`, as generation 1.
    pub fn new(source: &Path, index: Arc<Index>) -> Generations {
        let dir = resolve(source).unwrap_or_else(|_| index.dir.clone());
        let inode = inode_of(&dir).unwrap_or(0);
        let first = generation(1, dir, inode, index);
        Generations {
            source: source.to_path_buf(),
            current: RwLock::new(Arc::new(first)),
            numbers: AtomicU64::new(1),
            reloading: Mutex::new(()),
        }
    }

    /// The generation to answer a request from; hold it until the answer is made.
    pub fn current(&self) -> Arc<Generation> {
        let current = self.current.read().unwrap_or_else(|p| p.into_inner());
        Arc::clone(&current)
    }

    /// The path the generations come from (`--index`).
    pub fn source(&self) -> &Path {
        &self.source
    }

    /// The directory the source names now, when it is not the current
    /// generation's (another path, or another inode at the same path).
    pub fn pending(&self) -> Option<Identity> {
        let current = self.current();
        let dir = resolve(&self.source).ok()?;
        let now = Identity {
            inode: inode_of(&dir).ok()?,
            dir,
        };
        (now.dir != current.dir || now.inode != current.inode).then_some(now)
    }

    /// Opens and verifies what the source names now and serves it; on
    /// failure the current generation keeps serving.
    pub fn reload(&self) -> Result<Arc<Generation>, Refused> {
        let _one = self.reloading.lock().unwrap_or_else(|p| p.into_inner());
        let dir = resolve(&self.source).map_err(|e| refused(&self.source, e))?;
        let inode = inode_of(&dir).map_err(|e| refused(&dir, e))?;
        let index = open_verified(&dir).map_err(|e| refused(&dir, e))?;
        let number = self.numbers.fetch_add(1, Ordering::SeqCst) + 1;
        let next = Arc::new(generation(number, dir, inode, Arc::new(index)));
        let mut current = self.current.write().unwrap_or_else(|p| p.into_inner());
        *current = Arc::clone(&next);
        Ok(next)
    }
}

fn generation(number: u64, dir: PathBuf, inode: u64, index: Arc<Index>) -> Generation {
    Generation {
        number,
        dir,
        inode,
        index,
        serving_since: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
    }
}

/// Opens `dir` and reads it whole: every checksum, every structure.
fn open_verified(dir: &Path) -> Result<Index, super::IndexError> {
    let index = Index::open(dir)?;
    index.verify_checksums()?;
    index.warm()?;
    Ok(index)
}

fn resolve(source: &Path) -> std::io::Result<PathBuf> {
    std::fs::canonicalize(source)
}

fn inode_of(dir: &Path) -> std::io::Result<u64> {
    Ok(std::fs::metadata(dir)?.ino())
}

fn refused(dir: &Path, reason: impl std::fmt::Display) -> Refused {
    Refused {
        dir: dir.to_path_buf(),
        reason: reason.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::build::build_fixture;
    use std::os::unix::fs::symlink;

    /// The fixture dump built as of `as_of` into `<tmp>/<name>`.
    fn built(name: &str, as_of: &str) -> PathBuf {
        build_fixture(&format!("gen-{name}"), as_of)
    }

    /// Points `link` at `target` atomically, as a deployment would.
    fn point(link: &Path, target: &Path) {
        let tmp = link.with_extension("next");
        let _ = std::fs::remove_file(&tmp);
        symlink(target, &tmp).unwrap();
        std::fs::rename(&tmp, link).unwrap();
    }

    fn as_of(g: &Generation) -> String {
        g.index.manifest.as_of.clone()
    }

    /// Swaps, pinning and refusals on one pair of generations.
    #[test]
    fn a_swap_serves_the_new_directory_while_pinned_requests_keep_the_old() {
        let (a, b) = (built("a", "2026-11-01"), built("b", "2026-12-01"));
        let link = a.with_file_name(format!("fundsearch-gen-link-{}", std::process::id()));
        point(&link, &a);
        let generations = Generations::new(&link, Arc::new(Index::open(&a).unwrap()));
        assert_eq!(generations.pending(), None, "nothing to swap yet");
        let pinned = generations.current();
        point(&link, &b);
        let pending = generations.pending().expect("the link names b now");
        assert_eq!(pending.dir, std::fs::canonicalize(&b).unwrap());
        let next = generations.reload().unwrap();
        assert_eq!((next.number, as_of(&next)), (2, "2026-12-01".to_string()));
        assert_eq!(generations.current().number, 2);
        assert_eq!(
            as_of(&pinned),
            "2026-11-01",
            "a pinned request keeps its generation"
        );
        assert!(pinned.index.companies.ids.uuid(0) != uuid::Uuid::nil());
        drop(pinned);
        refusals_keep_the_current_generation(&generations, &link, &b);
        for dir in [&a, &b, &link] {
            let _ = std::fs::remove_dir_all(dir);
            let _ = std::fs::remove_file(dir);
        }
    }

    fn refusals_keep_the_current_generation(generations: &Generations, link: &Path, good: &Path) {
        let broken = link.with_extension("broken");
        let _ = std::fs::remove_dir_all(&broken);
        copy_dir(good, &broken);
        corrupt_largest_file(&broken);
        point(link, &broken);
        let refused = generations.reload().unwrap_err();
        assert_eq!(refused.dir, std::fs::canonicalize(&broken).unwrap());
        assert_eq!(
            generations.current().number,
            2,
            "the old generation serves on"
        );
        point(link, &link.with_extension("missing"));
        assert!(generations.reload().is_err(), "a dangling link is refused");
        assert_eq!(
            generations.pending(),
            None,
            "a dangling link is nothing to swap to"
        );
        point(link, good);
        assert_eq!(
            generations.reload().unwrap().number,
            3,
            "a refused directory takes no number"
        );
        std::fs::remove_dir_all(&broken).unwrap();
    }

    fn copy_dir(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        for entry in std::fs::read_dir(from).unwrap() {
            let entry = entry.unwrap();
            let target = to.join(entry.file_name());
            if entry.file_type().unwrap().is_dir() {
                copy_dir(&entry.path(), &target);
            } else {
                std::fs::copy(entry.path(), target).unwrap();
            }
        }
    }

    /// Flips one byte in the middle of the largest top-level file.
    fn corrupt_largest_file(dir: &Path) {
        let largest = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_file())
            .max_by_key(|p| std::fs::metadata(p).unwrap().len())
            .unwrap();
        let mut bytes = std::fs::read(&largest).unwrap();
        let middle = bytes.len() / 2;
        bytes[middle] ^= 0xff;
        std::fs::write(&largest, bytes).unwrap();
    }
}
