//! Writes a canonical dump directory: `dump.json` plus one JSONL file per kind.
//!
//! Output is byte-for-byte deterministic for the same rows in the same order
//! (serde field order is the struct order; floats print shortest-round-trip).

use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::schema::{CompanyRow, DealRow, DumpMeta, FirmRow, IndustryRow, LocationRow, PersonRow};

/// Rows written per kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DumpCounts {
    pub locations: u64,
    pub industries: u64,
    pub companies: u64,
    pub investors: u64,
    pub people: u64,
    pub deals: u64,
}

/// Streams rows into a dump directory.
pub struct DumpWriter {
    dir: PathBuf,
    locations: BufWriter<File>,
    industries: BufWriter<File>,
    companies: BufWriter<File>,
    investors: BufWriter<File>,
    people: BufWriter<File>,
    deals: BufWriter<File>,
    counts: DumpCounts,
}

impl DumpWriter {
    /// Creates `dir` (and parents) and writes `dump.json`; existing dump files are replaced.
    pub fn create(dir: &Path, meta: &DumpMeta) -> io::Result<DumpWriter> {
        fs::create_dir_all(dir)?;
        fs::write(dir.join("dump.json"), serde_json::to_vec_pretty(meta)?)?;
        let open =
            |name: &str| File::create(dir.join(name)).map(|f| BufWriter::with_capacity(1 << 20, f));
        Ok(DumpWriter {
            dir: dir.to_path_buf(),
            locations: open("locations.jsonl")?,
            industries: open("industries.jsonl")?,
            companies: open("companies.jsonl")?,
            investors: open("investors.jsonl")?,
            people: open("people.jsonl")?,
            deals: open("deals.jsonl")?,
            counts: DumpCounts::default(),
        })
    }

    pub fn location(&mut self, row: &LocationRow) -> io::Result<()> {
        self.counts.locations += 1;
        write_line(&mut self.locations, row)
    }

    pub fn industry(&mut self, row: &IndustryRow) -> io::Result<()> {
        self.counts.industries += 1;
        write_line(&mut self.industries, row)
    }

    pub fn company(&mut self, row: &CompanyRow) -> io::Result<()> {
        self.counts.companies += 1;
        write_line(&mut self.companies, row)
    }

    pub fn firm(&mut self, row: &FirmRow) -> io::Result<()> {
        self.counts.investors += 1;
        write_line(&mut self.investors, row)
    }

    pub fn person(&mut self, row: &PersonRow) -> io::Result<()> {
        self.counts.people += 1;
        write_line(&mut self.people, row)
    }

    pub fn deal(&mut self, row: &DealRow) -> io::Result<()> {
        self.counts.deals += 1;
        write_line(&mut self.deals, row)
    }

    /// Flushes and fsyncs every file.
    pub fn finish(self) -> io::Result<DumpCounts> {
        for mut w in [
            self.locations,
            self.industries,
            self.companies,
            self.investors,
            self.people,
            self.deals,
        ] {
            w.flush()?;
            w.get_ref().sync_all()?;
        }
        let _ = &self.dir;
        Ok(self.counts)
    }
}

fn write_line<T: Serialize>(out: &mut BufWriter<File>, row: &T) -> io::Result<()> {
    serde_json::to_writer(&mut *out, row)?;
    out.write_all(b"\n")
}
