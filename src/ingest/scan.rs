//! Streams a JSONL file in chunks, parsing each chunk's lines in parallel.
//!
//! A line that is not valid UTF-8 or not a valid row becomes an `Err` with
//! serde's reason; blank lines are skipped. Callers see rows in file order
//! with their 1-based line numbers, so decisions that depend on order (the
//! first of two duplicate ids wins) are reproducible. The bytes read are
//! counted on a [`Counter`] once per chunk: the bytes taken from disk, so
//! that the file's size is the total whether it is compressed or not.

use std::io::{self, BufRead};
use std::sync::atomic::Ordering;

use rayon::prelude::*;
use serde::de::DeserializeOwned;

use crate::progress::Counter;

use super::dump_file::DumpFile;

const CHUNK_LINES: usize = 16_384;

/// Calls `each(line_number, parsed)` for every non-blank line of `file`, in order.
pub fn scan_jsonl<R, F>(file: &DumpFile, mut each: F) -> io::Result<()>
where
    R: DeserializeOwned + Send,
    F: FnMut(u64, Result<R, String>),
{
    scan_jsonl_chunks(file, &Counter::hidden(), |first_line, lines| {
        let parsed: Vec<(u64, Result<R, String>)> = lines
            .par_iter()
            .map(|(n, bytes)| {
                (
                    first_line + n,
                    serde_json::from_slice::<R>(bytes).map_err(|e| e.to_string()),
                )
            })
            .collect();
        for (line, row) in parsed {
            each(line, row);
        }
    })
}

/// Like [`scan_jsonl`], but maps each parsed row in parallel before handing
/// the results over in order (used to render records); counts the bytes
/// read on `read`.
pub fn scan_jsonl_map<R, T, M, F>(
    file: &DumpFile,
    read: &Counter,
    map: M,
    mut each: F,
) -> io::Result<()>
where
    R: DeserializeOwned + Send,
    T: Send,
    M: Fn(u64, Result<R, String>) -> T + Sync,
    F: FnMut(u64, T),
{
    scan_jsonl_chunks(file, read, |first_line, lines| {
        let mapped: Vec<(u64, T)> = lines
            .par_iter()
            .map(|(n, bytes)| {
                let line = first_line + n;
                (
                    line,
                    map(
                        line,
                        serde_json::from_slice::<R>(bytes).map_err(|e| e.to_string()),
                    ),
                )
            })
            .collect();
        for (line, value) in mapped {
            each(line, value);
        }
    })
}

/// Reads `file` in chunks of lines: `(offset within chunk, bytes)`; adds
/// the bytes each chunk took from disk to `read`.
fn scan_jsonl_chunks<F>(file: &DumpFile, read: &Counter, mut chunk: F) -> io::Result<()>
where
    F: FnMut(u64, &[(u64, Vec<u8>)]),
{
    let (mut reader, consumed) = file.open()?;
    let (mut line_no, mut counted) = (0u64, 0u64);
    loop {
        let first = line_no + 1;
        let mut lines = Vec::with_capacity(CHUNK_LINES);
        while lines.len() < CHUNK_LINES {
            let mut buf = Vec::new();
            if reader.read_until(b'\n', &mut buf)? == 0 {
                break;
            }
            let offset = line_no + 1 - first;
            line_no += 1;
            if !buf.iter().all(u8::is_ascii_whitespace) {
                lines.push((offset, buf));
            }
        }
        let done = lines.len() < CHUNK_LINES;
        chunk(first, &lines);
        let now = consumed.load(Ordering::Relaxed);
        read.inc(now - counted);
        counted = now;
        if done {
            return Ok(());
        }
    }
}
