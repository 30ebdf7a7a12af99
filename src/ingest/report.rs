//! What reading a dump found: rows read, kept and rejected per file, and the
//! reason for each rejected row.

use std::fmt;

/// How many rejected rows are kept verbatim in a report (all are counted).
pub const MAX_LISTED_ERRORS: usize = 200;

/// One rejected row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowError {
    pub file: &'static str,
    /// 1-based line number.
    pub line: u64,
    pub reason: String,
}

impl fmt::Display for RowError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.reason)
    }
}

/// Counts for one dump file.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FileCounts {
    pub read: u64,
    pub kept: u64,
    pub rejected: u64,
}

/// The outcome of reading a whole dump.
#[derive(Debug, Clone, Default)]
pub struct IngestReport {
    pub files: Vec<(&'static str, FileCounts)>,
    /// The first [`MAX_LISTED_ERRORS`] rejected rows.
    pub errors: Vec<RowError>,
}

impl IngestReport {
    pub fn counts(&self, file: &str) -> FileCounts {
        self.files
            .iter()
            .find(|(f, _)| *f == file)
            .map(|(_, c)| *c)
            .unwrap_or_default()
    }

    pub fn total_rejected(&self) -> u64 {
        self.files.iter().map(|(_, c)| c.rejected).sum()
    }

    pub(crate) fn reject(&mut self, error: RowError) {
        self.entry(error.file).rejected += 1;
        if self.errors.len() < MAX_LISTED_ERRORS {
            self.errors.push(error);
        }
    }

    pub(crate) fn entry(&mut self, file: &'static str) -> &mut FileCounts {
        if let Some(i) = self.files.iter().position(|(f, _)| *f == file) {
            return &mut self.files[i].1;
        }
        self.files.push((file, FileCounts::default()));
        &mut self.files.last_mut().unwrap().1
    }
}

impl fmt::Display for IngestReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:<18} {:>10} {:>10} {:>10}",
            "file", "read", "kept", "rejected"
        )?;
        for (file, c) in &self.files {
            writeln!(
                f,
                "{file:<18} {:>10} {:>10} {:>10}",
                c.read, c.kept, c.rejected
            )?;
        }
        for e in &self.errors {
            writeln!(f, "rejected {e}")?;
        }
        let unlisted = self
            .total_rejected()
            .saturating_sub(self.errors.len() as u64);
        if unlisted > 0 {
            writeln!(f, "… and {unlisted} more rejected rows")?;
        }
        Ok(())
    }
}
