//! The one error type of the name index.

use std::fmt;
use std::io;
use std::path::PathBuf;

/// Why building, opening or searching a name index failed.
#[derive(Debug)]
pub enum TextError {
    /// tantivy reported an error (I/O inside the index, corrupt segment, ...).
    Tantivy(tantivy::TantivyError),
    /// Reading or writing a file of ours failed.
    Io { path: PathBuf, source: io::Error },
    /// `build_name_index` refuses to write into a non-empty directory.
    DirectoryNotEmpty(PathBuf),
    /// Two entries handed to `build_name_index` carry the same doc id.
    DuplicateDocid(u32),
    /// The input exceeds a limit of the on-disk format.
    Capacity(&'static str),
    /// The folded-names file is malformed.
    Corrupt { path: PathBuf, reason: String },
}

impl TextError {
    pub(crate) fn io(path: impl Into<PathBuf>, source: io::Error) -> TextError {
        TextError::Io {
            path: path.into(),
            source,
        }
    }

    pub(crate) fn corrupt(path: impl Into<PathBuf>, reason: impl Into<String>) -> TextError {
        TextError::Corrupt {
            path: path.into(),
            reason: reason.into(),
        }
    }
}

impl fmt::Display for TextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TextError::Tantivy(err) => write!(f, "name index: {err}"),
            TextError::Io { path, source } => write!(f, "name index: {}: {source}", path.display()),
            TextError::DirectoryNotEmpty(path) => {
                write!(f, "name index: directory {} is not empty", path.display())
            }
            TextError::DuplicateDocid(docid) => write!(f, "name index: doc id {docid} given twice"),
            TextError::Capacity(what) => write!(f, "name index: too large: {what}"),
            TextError::Corrupt { path, reason } => {
                write!(f, "name index: {} is corrupt: {reason}", path.display())
            }
        }
    }
}

impl std::error::Error for TextError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            TextError::Tantivy(err) => Some(err),
            TextError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

impl From<tantivy::TantivyError> for TextError {
    fn from(err: tantivy::TantivyError) -> TextError {
        TextError::Tantivy(err)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_names_the_path_and_the_cause() {
        let err = TextError::corrupt("/x/names.bin", "bad magic");
        assert_eq!(
            err.to_string(),
            "name index: /x/names.bin is corrupt: bad magic"
        );
        let err = TextError::io("/x", io::Error::other("boom"));
        assert!(err.to_string().contains("/x: boom"));
        assert!(std::error::Error::source(&err).is_some());
    }
}
