//! Source CSV files: gzip-compressed (`*.gz`) or plain UTF-8, a header row,
//! fields looked up by column name so that a reordered export still reads.
//!
//! Every row carries its line number (the header is line 1) so that a bad
//! value is reported as `file:line`. Fields are trimmed; a missing column is
//! reported once, at line 1, before any row is read.
//!
//! Reading a file is a progress stage, `read <file>`, counted in (compressed)
//! bytes against the file's size.

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use csv::StringRecord;
use flate2::read::MultiGzDecoder;

use super::error::ImportError;
use crate::progress::{Counter, CountingRead, Progress, Unit};

/// An open CSV file and its header.
pub(crate) struct Table {
    path: PathBuf,
    reader: csv::Reader<Box<dyn Read>>,
    /// The bytes read from the file; finished with the last row.
    read: Arc<Counter>,
    headers: StringRecord,
}

/// One data row with its 1-based line number in the file.
pub(crate) struct Row {
    pub line: u64,
    record: StringRecord,
}

impl Row {
    /// The trimmed field in column `col` ("" when the row is short).
    pub fn get(&self, col: usize) -> &str {
        self.record.get(col).unwrap_or_default().trim()
    }

    /// The field, or `None` when it is empty.
    pub fn opt(&self, col: usize) -> Option<&str> {
        Some(self.get(col)).filter(|s| !s.is_empty())
    }
}

/// The progress stage of reading `path`: its bytes against its size.
fn read_stage(progress: &Progress, path: &Path) -> Counter {
    let size = path.metadata().map_or(0, |m| m.len());
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    progress.stage(format!("read {name}"), size, Unit::Bytes)
}

impl Table {
    /// Opens `path`, decompressing when the name ends in `.gz`; reading it
    /// is a stage on `progress`.
    pub fn open(path: &Path, progress: &Progress) -> Result<Table, ImportError> {
        let file = File::open(path).map_err(|e| ImportError::io(path, e))?;
        let read = Arc::new(read_stage(progress, path));
        let counted = CountingRead::new(file, Arc::clone(&read));
        let input: Box<dyn Read> = if path.extension().is_some_and(|e| e == "gz") {
            Box::new(MultiGzDecoder::new(BufReader::with_capacity(
                1 << 16,
                counted,
            )))
        } else {
            Box::new(BufReader::with_capacity(1 << 16, counted))
        };
        Table::from_reader(path, input, read)
    }

    /// Reads CSV from any source; `path` only names it in errors.
    pub fn from_reader(
        path: &Path,
        input: Box<dyn Read>,
        read: Arc<Counter>,
    ) -> Result<Table, ImportError> {
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(true)
            .from_reader(input);
        let headers = reader.headers().map_err(|e| csv_error(path, e))?.clone();
        Ok(Table {
            path: path.to_path_buf(),
            reader,
            headers,
            read,
        })
    }

    /// The index of each named column, or a line-1 error naming the first missing one.
    pub fn columns<const N: usize>(&self, names: [&str; N]) -> Result<[usize; N], ImportError> {
        let mut out = [0; N];
        for (slot, name) in out.iter_mut().zip(names) {
            *slot = self.column(name)?;
        }
        Ok(out)
    }

    fn column(&self, name: &str) -> Result<usize, ImportError> {
        let header = |h: &str| h.trim_start_matches('\u{feff}').trim() == name;
        self.headers
            .iter()
            .position(header)
            .ok_or_else(|| ImportError::bad(&self.path, 1, format!("missing column '{name}'")))
    }

    /// Calls `each` for every data row, stopping at the first error.
    pub fn for_each_row<F>(&mut self, mut each: F) -> Result<u64, ImportError>
    where
        F: FnMut(&Row) -> Result<(), ImportError>,
    {
        let mut record = StringRecord::new();
        let mut count = 0;
        while self
            .reader
            .read_record(&mut record)
            .map_err(|e| csv_error(&self.path, e))?
        {
            let line = record.position().map_or(0, |p| p.line());
            let row = Row {
                line,
                record: std::mem::take(&mut record),
            };
            each(&row)?;
            record = row.record;
            count += 1;
        }
        self.read.finish();
        Ok(count)
    }
}

fn csv_error(path: &Path, source: csv::Error) -> ImportError {
    ImportError::Csv {
        path: path.to_path_buf(),
        source,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(text: &'static str) -> Table {
        let read = Arc::new(Counter::hidden());
        Table::from_reader(Path::new("t.csv"), Box::new(text.as_bytes()), read).unwrap()
    }

    #[test]
    fn rows_carry_line_numbers_and_trimmed_fields() {
        let mut t = table("b,a\n x ,\"multi\nline\"\n2,3\n");
        let [a, b] = t.columns(["a", "b"]).unwrap();
        let mut seen = Vec::new();
        let n = t
            .for_each_row(|r| {
                seen.push((
                    r.line,
                    r.get(b).to_string(),
                    r.get(a).to_string(),
                    r.opt(a).is_some(),
                ));
                Ok(())
            })
            .unwrap();
        assert_eq!(n, 2);
        assert_eq!(seen[0], (2, "x".into(), "multi\nline".into(), true));
        assert_eq!(seen[1], (4, "2".into(), "3".into(), true));
    }

    #[test]
    fn missing_columns_and_ragged_rows_are_errors() {
        let t = table("a,b\n1,2\n");
        assert_eq!(
            t.columns(["c"]).unwrap_err().to_string(),
            "t.csv:1: missing column 'c'"
        );
        let mut t = table("a,b\n1,2,3\n");
        let err = t.for_each_row(|_| Ok(())).unwrap_err();
        assert!(matches!(err, ImportError::Csv { .. }), "{err}");
    }

    #[test]
    fn callback_errors_stop_the_scan() {
        let mut t = table("a\n1\n2\n");
        let err = t
            .for_each_row(|r| Err(ImportError::bad("t.csv", r.line, "no")))
            .unwrap_err();
        assert_eq!(err.to_string(), "t.csv:2: no");
    }
}
