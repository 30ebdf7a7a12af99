//! Errors of the index layer: every one names the file it concerns.

use std::fmt;
use std::io;
use std::path::Path;

#[derive(Debug)]
pub enum IndexError {
    /// Reading or writing a file failed.
    Io { file: String, source: io::Error },
    /// A file was written by another format version: rebuild the index.
    Version {
        file: String,
        found: u32,
        expected: u32,
    },
    /// A file is damaged or not an index file.
    Corrupt { file: String, reason: String },
    /// The tantivy name index failed.
    Text { file: String, reason: String },
}

impl IndexError {
    pub fn io(path: &Path, source: io::Error) -> IndexError {
        IndexError::Io {
            file: path.display().to_string(),
            source,
        }
    }

    pub fn corrupt(file: impl Into<String>, reason: impl Into<String>) -> IndexError {
        IndexError::Corrupt {
            file: file.into(),
            reason: reason.into(),
        }
    }
}

impl fmt::Display for IndexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IndexError::Io { file, source } => write!(f, "{file}: {source}"),
            IndexError::Version { file, found, expected } => write!(
                f,
                "{file}: index format version {found}, this build reads version {expected}; rebuild the index with this indexer"
            ),
            IndexError::Corrupt { file, reason } => write!(f, "{file}: corrupt index file: {reason}"),
            IndexError::Text { file, reason } => write!(f, "{file}: name index error: {reason}"),
        }
    }
}

impl std::error::Error for IndexError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            IndexError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}
