//! Why an import failed: unreadable files, malformed CSV, or a value the
//! mapping cannot accept (reported with file and line, never a panic).

use std::fmt;
use std::io;
use std::path::PathBuf;

/// An import that could not complete.
#[derive(Debug)]
pub enum ImportError {
    /// Neither `--crunchbase-2013` nor `--yc-2014` was given.
    NoSource,
    /// A source file could not be opened or read, or the dump not written.
    Io { path: PathBuf, source: io::Error },
    /// The CSV reader failed (bad quoting, invalid UTF-8, ragged row).
    Csv { path: PathBuf, source: csv::Error },
    /// A row holds a value the mapping cannot accept.
    BadInput {
        file: PathBuf,
        line: u64,
        message: String,
    },
}

impl ImportError {
    pub(crate) fn io(path: impl Into<PathBuf>, source: io::Error) -> ImportError {
        ImportError::Io {
            path: path.into(),
            source,
        }
    }

    pub(crate) fn bad(
        file: impl Into<PathBuf>,
        line: u64,
        message: impl Into<String>,
    ) -> ImportError {
        ImportError::BadInput {
            file: file.into(),
            line,
            message: message.into(),
        }
    }
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImportError::NoSource => write!(
                f,
                "nothing to import: give --crunchbase-2013 and/or --yc-2014"
            ),
            ImportError::Io { path, source } => write!(f, "{}: {source}", path.display()),
            ImportError::Csv { path, source } => write!(f, "{}: bad CSV: {source}", path.display()),
            ImportError::BadInput {
                file,
                line,
                message,
            } => write!(f, "{}:{line}: {message}", file.display()),
        }
    }
}

impl std::error::Error for ImportError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ImportError::Io { source, .. } => Some(source),
            ImportError::Csv { source, .. } => Some(source),
            ImportError::NoSource | ImportError::BadInput { .. } => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_file_and_line() {
        let e = ImportError::bad("rounds.csv.gz", 12, "bad date '2013-13-01'");
        assert_eq!(e.to_string(), "rounds.csv.gz:12: bad date '2013-13-01'");
        let e = ImportError::io(
            "x/companies.csv.gz",
            io::Error::new(io::ErrorKind::NotFound, "gone"),
        );
        assert_eq!(e.to_string(), "x/companies.csv.gz: gone");
        assert!(std::error::Error::source(&e).is_some());
        assert!(ImportError::NoSource.to_string().contains("--yc-2014"));
    }
}
