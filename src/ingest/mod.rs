//! Dumps in and out: reading and validating canonical dumps, importing real
//! exports, generating synthetic data, deriving aggregates.

pub mod catalog;
pub mod derive;
pub mod dump_file;
pub mod facts;
pub mod generate;
pub mod grouped;
pub mod import;
pub mod load;
pub mod packed;
pub mod report;
pub mod rows_by;
pub mod scan;
pub mod sparse;
pub mod write;

use std::fmt;
use std::path::PathBuf;

pub use facts::Facts;
pub use load::{load_dump, load_dump_spilling, load_dump_with_progress, KeptLines, LoadedDump};
pub use report::{IngestReport, RowError};
pub use write::{DumpCounts, DumpWriter};

/// Why a dump could not be read at all.
#[derive(Debug)]
pub enum IngestError {
    MissingFile(PathBuf),
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    BadMeta(String),
    /// `--strict` and a row was bad.
    Strict(RowError),
}

impl fmt::Display for IngestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IngestError::MissingFile(p) => write!(f, "missing dump file {}", p.display()),
            IngestError::Io { path, source } => write!(f, "{}: {source}", path.display()),
            IngestError::BadMeta(m) => write!(f, "bad dump.json: {m}"),
            IngestError::Strict(e) => write!(f, "bad row (strict mode): {e}"),
        }
    }
}

impl std::error::Error for IngestError {}
