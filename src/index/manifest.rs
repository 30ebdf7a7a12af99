//! `manifest.json`: written last, after every other file of the index has
//! been written and synced; an index directory without a readable manifest
//! is not an index. It records the format version, the as-of date of the
//! "last 12 months" metrics, entity counts, and the size and CRC-32 of every
//! file, which `indexer verify` re-checks.

use std::fs;
use std::io::{self, Write};
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::format::FORMAT_VERSION;
use super::names::MANIFEST_FILE;
use super::IndexError;

pub const MANIFEST_FORMAT: &str = "fundsearch-index";

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Counts {
    pub companies: u64,
    pub deals: u64,
    pub investors: u64,
    pub people: u64,
    pub locations: u64,
    pub industries: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FileEntry {
    /// Path relative to the index directory.
    pub path: String,
    pub bytes: u64,
    pub crc32: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    pub format: String,
    pub format_version: u32,
    /// Reference date of the "last 12 months" metrics (`YYYY-MM-DD`).
    pub as_of: String,
    pub built_at: String,
    pub builder: String,
    /// `dump.json`'s `source`.
    pub dump_source: String,
    pub counts: Counts,
    pub files: Vec<FileEntry>,
}

impl Manifest {
    /// Reads and checks the manifest of `dir`.
    pub fn read(dir: &Path) -> Result<Manifest, IndexError> {
        let path = dir.join(MANIFEST_FILE);
        let bytes = fs::read(&path).map_err(|e| IndexError::io(&path, e))?;
        let manifest: Manifest = serde_json::from_slice(&bytes)
            .map_err(|e| IndexError::corrupt(MANIFEST_FILE, e.to_string()))?;
        if manifest.format != MANIFEST_FORMAT {
            return Err(IndexError::corrupt(
                MANIFEST_FILE,
                format!("not a fundsearch index ({})", manifest.format),
            ));
        }
        if manifest.format_version != FORMAT_VERSION {
            return Err(IndexError::Version {
                file: MANIFEST_FILE.into(),
                found: manifest.format_version,
                expected: FORMAT_VERSION,
            });
        }
        Ok(manifest)
    }

    /// Writes the manifest into `dir` and syncs it.
    pub fn write(&self, dir: &Path) -> io::Result<()> {
        let path = dir.join(MANIFEST_FILE);
        let mut file = fs::File::create(&path)?;
        file.write_all(&serde_json::to_vec_pretty(self)?)?;
        file.sync_all()
    }

    pub fn file(&self, path: &str) -> Option<&FileEntry> {
        self.files.iter().find(|f| f.path == path)
    }
}

/// Size and CRC-32 of a file, streamed.
pub fn checksum_file(path: &Path) -> io::Result<(u64, u32)> {
    let mut reader = io::BufReader::with_capacity(1 << 20, fs::File::open(path)?);
    let mut hasher = crc32fast::Hasher::new();
    let mut bytes = 0u64;
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = io::Read::read(&mut reader, &mut buf)?;
        if n == 0 {
            return Ok((bytes, hasher.finalize()));
        }
        hasher.update(&buf[..n]);
        bytes += n as u64;
    }
}

/// Every regular file below `dir`, as paths relative to it, sorted.
pub fn list_files(dir: &Path) -> io::Result<Vec<String>> {
    let mut out = Vec::new();
    walk(dir, dir, &mut out)?;
    out.sort();
    Ok(out)
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) -> io::Result<()> {
    for entry in fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            walk(root, &path, out)?;
        } else if let Ok(rel) = path.strip_prefix(root) {
            out.push(rel.to_string_lossy().replace('\\', "/"));
        }
    }
    Ok(())
}
