//! Test support: reads a dump directory back into rows so tests can inspect
//! what a producer wrote (the generator, the hand-written `fixtures/dump/`,
//! the real-data importer), and proves it readable.
//!
//! The dump rules (unique ids and permalinks, references to earlier files,
//! location levels and parent cycles, industry kinds, a firm once per deal…)
//! are not re-implemented here: [`load`] runs the indexer's own reader,
//! [`crate::ingest::load_dump`], and keeps its report; a valid dump is one it
//! rejects no row of.
//!
//! What the reader does not check is checked here: the *canonical form*.
//! Every line must be exactly what `serde_json::to_string` prints for the
//! parsed row (struct field order, shortest floats), which keeps byte-level
//! golden tests stable.

use std::fs;
use std::path::Path;

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::ingest::dump_file::locate;
use crate::ingest::{load_dump, IngestReport};
use crate::schema::{CompanyRow, DealRow, DumpMeta, FirmRow, IndustryRow, LocationRow, PersonRow};

/// A dump read back into memory, with the indexer's verdict on it.
pub(crate) struct LoadedDump {
    pub meta: DumpMeta,
    pub locations: Vec<LocationRow>,
    pub industries: Vec<IndustryRow>,
    pub companies: Vec<CompanyRow>,
    pub firms: Vec<FirmRow>,
    pub people: Vec<PersonRow>,
    pub deals: Vec<DealRow>,
    /// Lines whose text differs from the canonical serialisation of their row.
    pub non_canonical: Vec<String>,
    /// What the indexer's reader (lenient mode) made of the dump.
    pub report: IngestReport,
}

/// Reads every file of the dump at `dir`, then loads it with the indexer's
/// reader; a parse error names file and line.
pub(crate) fn load(dir: &Path) -> Result<LoadedDump, String> {
    let meta_text =
        fs::read_to_string(dir.join("dump.json")).map_err(|e| format!("dump.json: {e}"))?;
    let meta = serde_json::from_str(&meta_text).map_err(|e| format!("dump.json: {e}"))?;
    let mut non_canonical = Vec::new();
    Ok(LoadedDump {
        meta,
        locations: read_rows(dir, "locations.jsonl", &mut non_canonical)?,
        industries: read_rows(dir, "industries.jsonl", &mut non_canonical)?,
        companies: read_rows(dir, "companies.jsonl", &mut non_canonical)?,
        firms: read_rows(dir, "investors.jsonl", &mut non_canonical)?,
        people: read_rows(dir, "people.jsonl", &mut non_canonical)?,
        deals: read_rows(dir, "deals.jsonl", &mut non_canonical)?,
        non_canonical,
        report: load_dump(dir, false)
            .map_err(|e| format!("the indexer cannot load the dump: {e}"))?
            .report,
    })
}

fn read_rows<T: DeserializeOwned + Serialize>(
    dir: &Path,
    name: &str,
    non_canonical: &mut Vec<String>,
) -> Result<Vec<T>, String> {
    let text = locate(dir, name)
        .and_then(|f| f.read_to_string())
        .map_err(|e| format!("{name}: {e}"))?;
    let mut rows = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let row: T = serde_json::from_str(line).map_err(|e| format!("{name}:{}: {e}", n + 1))?;
        let again = serde_json::to_string(&row).map_err(|e| format!("{name}:{}: {e}", n + 1))?;
        if again != line {
            non_canonical.push(format!("{name}:{}", n + 1));
        }
        rows.push(row);
    }
    Ok(rows)
}

impl LoadedDump {
    /// The indexer's report as lines (per-file counts, then every listed
    /// rejection with file, line and reason) when it rejected any row;
    /// empty for a valid dump.
    pub fn problems(&self) -> Vec<String> {
        if self.report.total_rejected() == 0 {
            return Vec::new();
        }
        self.report
            .to_string()
            .lines()
            .map(str::to_string)
            .collect()
    }

    /// Panics unless the indexer keeps every row and every line is canonical.
    pub fn assert_valid(&self) {
        assert_eq!(
            self.report.total_rejected(),
            0,
            "the indexer rejects rows:\n{}",
            self.report
        );
        assert_eq!(
            self.non_canonical,
            Vec::<String>::new(),
            "lines not in canonical form"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::DumpWriter;
    use crate::schema::LocationType;

    fn city(permalink: &str, parent: Option<&str>) -> LocationRow {
        let parent = parent.map(str::to_string);
        LocationRow {
            permalink: permalink.to_string(),
            name: permalink.to_string(),
            location_type: LocationType::City,
            parent,
        }
    }

    #[test]
    fn rule_violations_come_from_the_indexer_and_non_canonical_lines_are_listed() {
        let dir = std::env::temp_dir().join(format!("fundsearch-check-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let write = || -> std::io::Result<()> {
            let mut w = DumpWriter::create(&dir, &DumpMeta::new("check test", None))?;
            w.location(&city("a", None))?;
            w.location(&city("b", Some("nowhere")))?;
            w.finish().map(|_| ())
        };
        write().unwrap_or_else(|e| panic!("writing the dump: {e}"));
        let path = dir.join("industries.jsonl");
        fs::write(
            &path,
            "{\"type\":\"SUPER_CATEGORY\",\"permalink\":\"s\",\"name\":\"S\"}\n",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let dump = load(&dir).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(dump.non_canonical, vec!["industries.jsonl:1".to_string()]);
        assert_eq!(dump.report.total_rejected(), 1);
        let problems = dump.problems().join("\n");
        assert!(
            problems.contains("locations.jsonl:2: unknown parent location 'nowhere'"),
            "{problems}"
        );
        let _ = fs::remove_dir_all(&dir);
    }
}
