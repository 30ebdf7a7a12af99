//! Reads a canonical dump directory into validated [`Facts`].
//!
//! Files are read in [`DUMP_FILES`] order and every reference must resolve to
//! a row kept earlier. A bad row (malformed JSON, unknown key or enum value,
//! bad UUID or date, dangling reference, duplicate id or permalink) is
//! reported with file, line and reason and skipped; with `strict`, the first
//! bad row found fails the whole load (rows are checked file by file: first
//! while parsing, then cross-row references). Never a panic on input.
//!
//! Each file is one progress stage, `read <file>`, counted in bytes against
//! the file's size.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use uuid::Uuid;

use crate::progress::{Progress, Unit};
use crate::schema::ids::{crunchbase_key, domain_key, linkedin_key, slugify, twitter_key};
use crate::schema::{
    CompanyRow, ContactType, DealRow, DumpMeta, FirmRow, LocationType, PersonRow, PlaceRefs,
    RoundKey, DUMP_FILES, DUMP_FORMAT_VERSION,
};

use super::catalog::load_catalog;
use super::dump_file::locate;
use super::facts::*;
use super::packed::{Row, SpillBudget, Table};
use super::report::{IngestReport, RowError};
use super::rows_by::{IdMap, RowsById, RowsByKey};
use super::scan::scan_jsonl_map;
use super::IngestError;

/// Which lines of each file became rows: the kept lines as runs of
/// consecutive lines, so that a dump whose rows are all kept costs a few
/// bytes per file rather than 8 a row. The row number of a kept line is its
/// position among the kept lines (the renderer uses it to skip rejected
/// rows and blank lines).
#[derive(Debug, Clone, Default)]
pub struct KeptLines {
    runs: HashMap<&'static str, Vec<Run>>,
}

/// Kept lines `first..first + len`, rows `row..row + len`.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Run {
    first: u64,
    len: u64,
    row: u32,
}

impl Run {
    fn end(&self) -> u64 {
        self.first + self.len
    }
}

impl KeptLines {
    /// The row number of `line`, or `None` when the line was rejected.
    pub fn row_of_line(&self, file: &str, line: u64) -> Option<u32> {
        let runs = self.runs.get(file)?;
        let run = runs[..runs.partition_point(|r| r.first <= line)].last()?;
        (line < run.end()).then(|| run.row + (line - run.first) as u32)
    }

    /// Keeps `line`, which comes after every line kept so far in `file`.
    fn keep(&mut self, file: &'static str, line: u64) {
        let runs = self.runs.entry(file).or_default();
        match runs.last_mut() {
            Some(run) if run.end() == line => run.len += 1,
            last => {
                let row = last.map_or(0, |r| r.row + r.len as u32);
                runs.push(Run {
                    first: line,
                    len: 1,
                    row,
                });
            }
        }
    }

    /// Un-keeps a kept `line`: its run splits and later rows move up one.
    fn drop_line(&mut self, file: &'static str, line: u64) {
        let Some(runs) = self.runs.get_mut(file) else {
            return;
        };
        let i = runs.partition_point(|r| r.first <= line);
        let Some(run) = i.checked_sub(1).map(|i| runs[i]).filter(|r| line < r.end()) else {
            return;
        };
        let before = Run {
            len: line - run.first,
            ..run
        };
        let after = Run {
            first: line + 1,
            len: run.end() - line - 1,
            row: run.row + before.len as u32,
        };
        let pieces = [before, after].into_iter().filter(|r| r.len > 0);
        runs.splice(i - 1..i, pieces);
        runs.iter_mut()
            .filter(|r| r.first > line + 1)
            .for_each(|r| r.row -= 1);
    }
}

/// A loaded dump.
#[derive(Debug)]
pub struct LoadedDump {
    pub meta: DumpMeta,
    pub facts: Facts,
    pub report: IngestReport,
    pub kept: KeptLines,
}

/// Shared state of one load: the report, rejected lines and strictness.
pub struct Loader<'p> {
    strict: bool,
    /// Where the facts' tables spill, when they may.
    budget: Option<Arc<SpillBudget>>,
    progress: &'p Progress,
    report: IngestReport,
    kept: KeptLines,
    first_error: Option<RowError>,
}

impl<'p> Loader<'p> {
    fn new(strict: bool, progress: &'p Progress) -> Loader<'p> {
        Loader {
            strict,
            budget: None,
            progress,
            report: IngestReport::default(),
            kept: KeptLines::default(),
            first_error: None,
        }
    }

    /// Scans `file`, calling `accept` for each well-formed row; a row that
    /// fails to parse or that `accept` refuses is rejected.
    pub fn scan<R>(
        &mut self,
        dir: &Path,
        file: &'static str,
        accept: impl FnMut(u64, R) -> Result<(), String>,
    ) -> Result<(), IngestError>
    where
        R: serde::de::DeserializeOwned + Send,
    {
        self.scan_converted::<R, R>(dir, file, |row| Ok(row), accept)
    }

    /// Like [`Loader::scan`], but each row is first turned into `T` by
    /// `convert`, in parallel with the parsing; `accept` (sequential, in
    /// file order) only sees converted rows.
    pub fn scan_converted<R, T>(
        &mut self,
        dir: &Path,
        file: &'static str,
        convert: impl Fn(R) -> Result<T, String> + Sync,
        mut accept: impl FnMut(u64, T) -> Result<(), String>,
    ) -> Result<(), IngestError>
    where
        R: serde::de::DeserializeOwned + Send,
        T: Send,
    {
        let found = locate(dir, file).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => IngestError::MissingFile(dir.join(file)),
            _ => IngestError::Io {
                path: dir.join(file),
                source: e,
            },
        })?;
        let path = found.path.clone();
        self.report.entry(file);
        let read = self
            .progress
            .stage(format!("read {file}"), found.size(), Unit::Bytes);
        let convert = |_: u64, parsed: Result<R, String>| parsed.and_then(&convert);
        scan_jsonl_map(
            &found,
            &read,
            convert,
            |line, converted: Result<T, String>| {
                self.report.entry(file).read += 1;
                match converted.and_then(|row| accept(line, row)) {
                    Ok(()) => {
                        self.report.entry(file).kept += 1;
                        self.kept.keep(file, line);
                    }
                    Err(reason) => self.note_rejection(file, line, reason),
                }
            },
        )
        .map_err(|e| IngestError::Io {
            path: path.clone(),
            source: e,
        })?;
        read.finish();
        self.fail_if_strict()
    }

    /// Rejects a row that was counted as kept by [`Loader::scan`].
    pub fn reject_late(
        &mut self,
        file: &'static str,
        line: u64,
        reason: String,
    ) -> Result<(), IngestError> {
        self.report.entry(file).kept -= 1;
        self.kept.drop_line(file, line);
        self.note_rejection(file, line, reason);
        self.fail_if_strict()
    }

    fn note_rejection(&mut self, file: &'static str, line: u64, reason: String) {
        let error = RowError { file, line, reason };
        if self.first_error.is_none() {
            self.first_error = Some(error.clone());
        }
        self.report.reject(error);
    }

    fn fail_if_strict(&mut self) -> Result<(), IngestError> {
        match (self.strict, self.first_error.take()) {
            (true, Some(e)) => Err(IngestError::Strict(e)),
            (_, e) => {
                self.first_error = e;
                Ok(())
            }
        }
    }
}

/// Reads and validates the dump in `dir`.
pub fn load_dump(dir: &Path, strict: bool) -> Result<LoadedDump, IngestError> {
    load_dump_with_progress(dir, strict, &Progress::silent())
}

/// [`load_dump`], reporting each file read on `progress`.
pub fn load_dump_with_progress(
    dir: &Path,
    strict: bool,
    progress: &Progress,
) -> Result<LoadedDump, IngestError> {
    load_dump_spilling(dir, strict, progress, None)
}

/// [`load_dump_with_progress`], the facts' tables sharing `budget` (they
/// spill past it; see `packed`), or held whole without one.
pub fn load_dump_spilling(
    dir: &Path,
    strict: bool,
    progress: &Progress,
    budget: Option<&Arc<SpillBudget>>,
) -> Result<LoadedDump, IngestError> {
    let meta = read_meta(dir)?;
    let mut loader = Loader::new(strict, progress);
    loader.budget = budget.cloned();
    let catalog = load_catalog(dir, &mut loader)?;
    let (companies, company_rows) = load_table(
        dir,
        &mut loader,
        "companies.jsonl",
        |row: CompanyRow| company_facts(row, &catalog),
        |c: &CompanyFacts| Some(&c.permalink),
    )?;
    let company_ids = IdMap {
        ids: companies.ids(),
        rows: company_rows,
    };
    let (firms, firm_rows) = load_table(
        dir,
        &mut loader,
        "investors.jsonl",
        |row: FirmRow| firm_facts(row, &catalog, &company_ids),
        |f: &FirmFacts| Some(&f.permalink),
    )?;
    let firm_ids = IdMap {
        ids: firms.ids(),
        rows: firm_rows,
    };
    let (people, person_rows) = load_table(
        dir,
        &mut loader,
        "people.jsonl",
        |row: PersonRow| person_facts(row, &company_ids, &firm_ids),
        |_| None,
    )?;
    let person_ids = IdMap {
        ids: people.ids(),
        rows: person_rows,
    };
    let refs = DealRefs {
        companies: &company_ids,
        firms: &firm_ids,
        people: &person_ids,
    };
    let (deals, _) = load_table(
        dir,
        &mut loader,
        "deals.jsonl",
        |row: DealRow| deal_facts(row, &refs),
        |_| None,
    )?;
    drop((company_ids, firm_ids, person_ids));
    let facts = Facts {
        catalog,
        companies,
        firms,
        people,
        deals,
    };
    Ok(LoadedDump {
        meta,
        facts,
        report: loader.report,
        kept: loader.kept,
    })
}

fn read_meta(dir: &Path) -> Result<DumpMeta, IngestError> {
    let path = dir.join("dump.json");
    let bytes = std::fs::read(&path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => IngestError::MissingFile(path.clone()),
        _ => IngestError::Io {
            path: path.clone(),
            source: e,
        },
    })?;
    let meta: DumpMeta = serde_json::from_slice(&bytes)
        .map_err(|e| IngestError::BadMeta(format!("{}: {e}", path.display())))?;
    if meta.format != "fundsearch-dump" || meta.version != DUMP_FORMAT_VERSION {
        return Err(IngestError::BadMeta(format!(
            "{}: format '{}' version {} (this indexer reads fundsearch-dump version {DUMP_FORMAT_VERSION})",
            path.display(),
            meta.format,
            meta.version
        )));
    }
    debug_assert_eq!(DUMP_FILES.len(), 6);
    Ok(meta)
}

/// Resolves the four location slots, checking each slot's level.
fn resolve_places(refs: &PlaceRefs, catalog: &Catalog) -> Result<Places, String> {
    let mut places = [None; 4];
    for (slot, (level, permalink)) in refs.levels().enumerate() {
        let loc = catalog
            .location(permalink)
            .ok_or_else(|| format!("unknown location '{permalink}'"))?;
        let actual = catalog.locations[loc as usize].location_type;
        if actual != level {
            return Err(format!(
                "location '{permalink}' is a {} , not a {}",
                actual.as_str(),
                level.as_str()
            ));
        }
        let index = [
            LocationType::City,
            LocationType::State,
            LocationType::Region,
            LocationType::Country,
        ]
        .iter()
        .position(|l| *l == level)
        .unwrap_or(slot);
        places[index] = Some(loc);
    }
    Ok(places)
}

/// The lookup keys of an organisation's domain, LinkedIn and Crunchbase
/// identifiers (companies and firms alike).
fn org_keys(
    domain: Option<&str>,
    linkedin: Option<&str>,
    crunchbase: Option<&str>,
) -> [Option<Box<str>>; 3] {
    [
        boxed(domain.and_then(domain_key)),
        boxed(linkedin.and_then(|u| linkedin_key(u, Some("company")))),
        boxed(crunchbase.and_then(|u| crunchbase_key(u, Some("organization")))),
    ]
}

fn boxed(s: Option<String>) -> Option<Box<str>> {
    s.map(String::into_boxed_str)
}

/// The ids and permalinks of the rows kept so far in one file, found through
/// the table being filled (see `rows_by`).
#[derive(Default)]
struct Claims {
    ids: RowsById,
    permalinks: RowsByKey,
}

impl Claims {
    /// Why `row` cannot join `table`: its id or permalink is taken, or empty.
    fn check<T: Row>(
        &self,
        table: &Table<T>,
        row: &T,
        permalink: &impl Fn(&T) -> Option<&str>,
    ) -> Result<(), String> {
        if let Some(id) = row
            .id()
            .filter(|id| self.ids.get(table.ids(), id).is_some())
        {
            return Err(format!("duplicate id {id}"));
        }
        if let Some(p) = permalink(row) {
            let taken = |r: u32| permalink(&table.get(r)) == Some(p);
            if self.permalinks.find(p, taken).is_some() {
                return Err(format!("duplicate permalink '{p}'"));
            }
            if p.is_empty() {
                return Err("empty permalink".into());
            }
        }
        Ok(())
    }

    /// Claims the id and permalink of `row`, the table's last row.
    fn claim<T: Row>(
        &mut self,
        table: &Table<T>,
        row: &T,
        permalink: &impl Fn(&T) -> Option<&str>,
    ) {
        let last = table.len() as u32 - 1;
        if row.id().is_some() {
            self.ids.insert(table.ids(), last);
        }
        if let Some(p) = permalink(row) {
            self.permalinks.insert(p, last);
        }
    }
}

/// Reads `file` into a table: each parsed row converted (in parallel), then
/// its id (and permalink, for organisations) claimed, in file order; returns
/// the table and its rows by id.
fn load_table<R, T>(
    dir: &Path,
    loader: &mut Loader,
    file: &'static str,
    convert: impl Fn(R) -> Result<T, String> + Sync,
    permalink: impl Fn(&T) -> Option<&str>,
) -> Result<(Table<T>, RowsById), IngestError>
where
    R: serde::de::DeserializeOwned + Send,
    T: Row + Send,
{
    let mut claims = Claims::default();
    let mut out = match &loader.budget {
        Some(budget) => Table::spilling(budget),
        None => Table::default(),
    };
    let mut spill_error = None;
    loader.scan_converted(dir, file, convert, |_, facts| {
        claims.check(&out, &facts, &permalink)?;
        match out.push(&facts) {
            Ok(()) => claims.claim(&out, &facts, &permalink),
            Err(e) => {
                spill_error.get_or_insert(e);
            }
        }
        Ok(())
    })?;
    let spill_failed = |source| IngestError::Io {
        path: loader
            .budget
            .as_ref()
            .map_or(dir.into(), |b| b.dir().to_path_buf()),
        source,
    };
    match spill_error {
        Some(e) => Err(spill_failed(e)),
        None => Ok((out.finish().map_err(spill_failed)?, claims.ids)),
    }
}

fn company_facts(row: CompanyRow, catalog: &Catalog) -> Result<CompanyFacts, String> {
    let places = resolve_places(&row.location, catalog)?;
    let mut industries = Vec::with_capacity(row.industries.len());
    for permalink in &row.industries {
        let ind = catalog
            .industry(permalink)
            .ok_or_else(|| format!("unknown industry '{permalink}'"))?;
        if catalog.industries[ind as usize].industry_type != crate::schema::IndustryType::Industry {
            return Err(format!(
                "'{permalink}' is a super category; companies list industries"
            ));
        }
        if !industries.contains(&ind) {
            industries.push(ind);
        }
    }
    let [domain_key, linkedin_key, crunchbase_key] = org_keys(
        row.domain.as_deref(),
        row.linkedin.as_deref(),
        row.crunchbase.as_deref(),
    );
    Ok(CompanyFacts {
        id: row.id,
        domain_key,
        linkedin_key,
        crunchbase_key,
        name: row.name.into_boxed_str(),
        permalink: row.permalink.into_boxed_str(),
        domain: boxed(row.domain),
        places,
        industries,
        headcount: row.num_employees,
        ipo_status: row.ipo_status,
        founded_on: row.founded_on,
    })
}

fn firm_facts(row: FirmRow, catalog: &Catalog, company_ids: &IdMap) -> Result<FirmFacts, String> {
    if company_ids.contains(&row.id) {
        return Err(format!("id {} is already a company", row.id));
    }
    let [domain_key, linkedin_key, crunchbase_key] = org_keys(
        row.domain.as_deref(),
        row.linkedin.as_deref(),
        row.crunchbase.as_deref(),
    );
    Ok(FirmFacts {
        id: row.id,
        places: resolve_places(&row.location, catalog)?,
        domain_key,
        linkedin_key,
        crunchbase_key,
        name: row.name.into_boxed_str(),
        permalink: row.permalink.into_boxed_str(),
        domain: boxed(row.domain),
        headcount: row.num_employees,
    })
}

fn person_facts(
    row: PersonRow,
    company_ids: &IdMap,
    firm_ids: &IdMap,
) -> Result<PersonFacts, String> {
    let resolve = |id: &Uuid| {
        company_ids
            .get(id)
            .map(Employer::Company)
            .or_else(|| firm_ids.get(id).map(Employer::Firm))
            .ok_or_else(|| format!("employment company_id {id} is neither a company nor a firm"))
    };
    let mut employer = None;
    for job in &row.employment {
        if let Some(id) = &job.company_id {
            let resolved = resolve(id)?;
            if job.is_current && employer.is_none() {
                employer = Some(resolved);
            }
        }
    }
    let contacts = [
        (ContactType::Linkedin, row.linkedin_url.is_some()),
        (ContactType::Email, row.email.is_some()),
        (ContactType::Phone, row.phone.is_some()),
        (ContactType::Twitter, row.twitter_url.is_some()),
    ]
    .into_iter()
    .filter_map(|(name, present)| present.then_some(name))
    .collect();
    let mut linkedin_companies: Vec<Box<str>> = row
        .employment
        .iter()
        .filter_map(|j| {
            j.linkedin_company_id
                .as_deref()
                .map(|s| s.to_ascii_lowercase().into_boxed_str())
        })
        .collect();
    linkedin_companies.dedup();
    let mut schools: Vec<Box<str>> = row
        .education
        .iter()
        .filter_map(|e| {
            e.school_id
                .as_deref()
                .map(|s| s.to_string().into_boxed_str())
        })
        .collect();
    schools.dedup();
    let job_title = row
        .title
        .as_deref()
        .map(slugify)
        .filter(|s| !s.is_empty())
        .map(String::into_boxed_str);
    Ok(PersonFacts {
        id: row.id,
        linkedin_key: boxed(
            row.linkedin_url
                .as_deref()
                .and_then(|u| linkedin_key(u, Some("in"))),
        ),
        crunchbase_key: boxed(
            row.crunchbase_url
                .as_deref()
                .and_then(|u| crunchbase_key(u, Some("person"))),
        ),
        twitter_key: boxed(row.twitter_url.as_deref().and_then(twitter_key)),
        has_email: row.email.is_some(),
        name: row.name.into_boxed_str(),
        roles: row.roles,
        contacts,
        job_title,
        schools,
        linkedin_companies,
        employer,
    })
}

struct DealRefs<'a> {
    companies: &'a IdMap<'a>,
    firms: &'a IdMap<'a>,
    people: &'a IdMap<'a>,
}

fn deal_facts(row: DealRow, refs: &DealRefs) -> Result<DealFacts, String> {
    let company = refs
        .companies
        .get(&row.company_id)
        .ok_or_else(|| format!("unknown company_id {}", row.company_id))?;
    let person = |id: &Uuid| {
        refs.people
            .get(id)
            .ok_or_else(|| format!("unknown person {id}"))
    };
    let mut firms: Vec<DealFirm> = Vec::with_capacity(row.investors.len());
    for f in &row.investors {
        let firm = refs
            .firms
            .get(&f.firm_id)
            .ok_or_else(|| format!("unknown firm_id {}", f.firm_id))?;
        if firms.iter().any(|x| x.firm == firm) {
            return Err(format!("firm {} listed twice", f.firm_id));
        }
        let partners = f
            .partner_ids
            .iter()
            .map(person)
            .collect::<Result<Vec<_>, _>>()?;
        firms.push(DealFirm {
            firm,
            lead: f.lead,
            partners,
            financing_type: f.financing_type,
        });
    }
    let mut angels = Vec::with_capacity(row.angels.len());
    for a in &row.angels {
        let p = person(&a.person_id)?;
        if !angels.iter().any(|(x, _)| *x == p) {
            angels.push((p, a.financing_type));
        }
    }
    check_amount(row.total_round_raised, "total_round_raised")?;
    check_amount(row.valuation.as_ref().and_then(|v| v.usd), "valuation.usd")?;
    Ok(DealFacts {
        id: row.id,
        company,
        round: RoundKey {
            round_type: row.round_type,
            pre: row.pre,
            extension: row.extension,
        },
        date: row.date,
        created_at: row.created_at,
        size: row.total_round_raised,
        firms,
        angels,
        valuation_usd: row.valuation.and_then(|v| v.usd),
    })
}

fn check_amount(amount: Option<f64>, field: &str) -> Result<(), String> {
    match amount {
        Some(a) if !a.is_finite() || a < 0.0 => {
            Err(format!("{field} must be a non-negative number, got {a}"))
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::report::RowError;

    const LOCATIONS: &str = r#"{"permalink":"united-states","name":"United States","type":"COUNTRY"}
{"permalink":"san-francisco-california","name":"San Francisco","type":"CITY","parent":"california"}
{"permalink":"california","name":"California","type":"STATE","parent":"united-states"}
{"permalink":"loop-a","name":"A","type":"CITY","parent":"loop-b"}
{"permalink":"loop-b","name":"B","type":"STATE","parent":"loop-a"}
{"permalink":"orphan","name":"Orphan","type":"CITY","parent":"nowhere"}
{"permalink":"california","name":"Dup","type":"STATE"}
"#;
    const INDUSTRIES: &str = r#"{"permalink":"fintech","name":"FinTech","type":"INDUSTRY","super_categories":["finance-1a2b"]}
{"permalink":"finance-1a2b","name":"Finance","type":"SUPER_CATEGORY"}
{"permalink":"bad-super","name":"Bad","type":"INDUSTRY","super_categories":["fintech"]}
"#;
    const C1: &str = "00000000-0000-0000-0000-000000000001";
    const F1: &str = "00000000-0000-0000-0000-00000000000f";
    const P1: &str = "00000000-0000-0000-0000-0000000000a1";

    fn companies() -> String {
        [
            format!(r#"{{"id":"{C1}","name":"Acme","permalink":"acme","industries":["fintech"],"location":{{"city":"san-francisco-california"}}}}"#),
            r#"{"id":"not-a-uuid","name":"Bad","permalink":"bad"}"#.to_string(),
            format!(r#"{{"id":"{C1}","name":"Dup id","permalink":"acme-2"}}"#),
            r#"{"id":"00000000-0000-0000-0000-000000000002","name":"Dup permalink","permalink":"acme"}"#.to_string(),
            r#"{"id":"00000000-0000-0000-0000-000000000003","name":"X","permalink":"x","num_employees":"12-50"}"#.to_string(),
            r#"{"id":"00000000-0000-0000-0000-000000000004","name":"X","permalink":"x4","location":{"state":"san-francisco-california"}}"#.to_string(),
            r#"{"id":"00000000-0000-0000-0000-000000000005","name":"X","permalink":"x5","industries":["finance-1a2b"]}"#.to_string(),
            r#"{"id":"00000000-0000-0000-0000-000000000006","name":"X","permalink":"x6","colour":"red"}"#.to_string(),
            "{not json".to_string(),
            String::new(),
        ]
        .join("\n")
    }

    fn deals() -> String {
        [
            format!(r#"{{"id":"00000000-0000-0000-0000-0000000000d1","company_id":"{C1}","round_type":"SEED","date":"2024-01-15","investors":[{{"firm_id":"{F1}","lead":true,"partner_ids":["{P1}"]}}]}}"#),
            format!(r#"{{"id":"00000000-0000-0000-0000-0000000000d2","company_id":"{C1}","round_type":"Series A"}}"#),
            format!(r#"{{"id":"00000000-0000-0000-0000-0000000000d3","company_id":"{C1}","round_type":"SEED","date":"2024-02-30"}}"#),
            r#"{"id":"00000000-0000-0000-0000-0000000000d4","company_id":"00000000-0000-0000-0000-0000000000ff","round_type":"SEED"}"#.to_string(),
            format!(r#"{{"id":"00000000-0000-0000-0000-0000000000d5","company_id":"{C1}","round_type":"SEED","angels":[{{"person_id":"00000000-0000-0000-0000-0000000000ee"}}]}}"#),
            format!(r#"{{"id":"00000000-0000-0000-0000-0000000000d6","company_id":"{C1}","round_type":"SEED","investors":[{{"firm_id":"{F1}"}},{{"firm_id":"{F1}"}}]}}"#),
            format!(r#"{{"id":"00000000-0000-0000-0000-0000000000d7","company_id":"{C1}","round_type":"SEED","total_round_raised":-5}}"#),
        ]
        .join("\n")
    }

    fn write_dump(name: &str) -> std::path::PathBuf {
        let dir =
            std::env::temp_dir().join(format!("fundsearch-load-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let meta = DumpMeta::new("test", None);
        std::fs::write(dir.join("dump.json"), serde_json::to_vec(&meta).unwrap()).unwrap();
        std::fs::write(dir.join("locations.jsonl"), LOCATIONS).unwrap();
        std::fs::write(dir.join("industries.jsonl"), INDUSTRIES).unwrap();
        std::fs::write(dir.join("companies.jsonl"), companies()).unwrap();
        let firm = format!(
            r#"{{"id":"{F1}","name":"Fund","permalink":"fund","location":{{"country":"united-states"}}}}"#
        );
        std::fs::write(dir.join("investors.jsonl"), firm).unwrap();
        let person = format!(
            r#"{{"id":"{P1}","name":"Pat","employment":[{{"company_id":"{F1}","is_current":true}}]}}
{{"id":"00000000-0000-0000-0000-0000000000a2","name":"Ghost job","employment":[{{"company_id":"00000000-0000-0000-0000-0000000000ff"}}]}}"#
        );
        std::fs::write(dir.join("people.jsonl"), person).unwrap();
        std::fs::write(dir.join("deals.jsonl"), deals()).unwrap();
        dir
    }

    fn reason(errors: &[RowError], file: &str, line: u64) -> String {
        errors
            .iter()
            .find(|e| e.file == file && e.line == line)
            .map(|e| e.reason.clone())
            .unwrap_or_default()
    }

    #[test]
    fn bad_rows_are_reported_with_file_line_and_reason_and_skipped() {
        let dir = write_dump("lenient");
        let loaded = load_dump(&dir, false).unwrap();
        let (r, e) = (&loaded.report, &loaded.report.errors);
        assert_eq!(loaded.facts.catalog.locations.len(), 3);
        assert!(reason(e, "locations.jsonl", 4).contains("cycle"), "{e:?}");
        assert!(reason(e, "locations.jsonl", 6).contains("unknown parent"));
        assert!(reason(e, "locations.jsonl", 7).contains("duplicate permalink"));
        assert!(reason(e, "industries.jsonl", 3).contains("is an industry"));
        assert_eq!(
            r.counts("companies.jsonl"),
            crate::ingest::report::FileCounts {
                read: 9,
                kept: 1,
                rejected: 8
            }
        );
        assert!(
            reason(e, "companies.jsonl", 2).contains("UUID")
                || reason(e, "companies.jsonl", 2).contains("uuid")
        );
        assert!(reason(e, "companies.jsonl", 3).contains("duplicate id"));
        assert!(reason(e, "companies.jsonl", 4).contains("duplicate permalink"));
        assert!(
            reason(e, "companies.jsonl", 5).contains("11-50"),
            "enum options are listed"
        );
        assert!(reason(e, "companies.jsonl", 6).contains("is a CITY"));
        assert!(reason(e, "companies.jsonl", 7).contains("super category"));
        assert!(reason(e, "companies.jsonl", 8).contains("unknown field"));
        assert!(
            !reason(e, "companies.jsonl", 9).is_empty(),
            "malformed JSON"
        );
        assert!(reason(e, "people.jsonl", 2).contains("neither a company nor a firm"));
        assert_eq!(loaded.facts.people.get(0).employer, Some(Employer::Firm(0)));
        assert!(reason(e, "deals.jsonl", 2).contains("SERIES_A"));
        assert!(reason(e, "deals.jsonl", 3).contains("bad date"));
        assert!(reason(e, "deals.jsonl", 4).contains("unknown company_id"));
        assert!(reason(e, "deals.jsonl", 5).contains("unknown person"));
        assert!(reason(e, "deals.jsonl", 6).contains("listed twice"));
        assert!(reason(e, "deals.jsonl", 7).contains("non-negative"));
        assert_eq!(loaded.facts.deals.len(), 1);
        assert_eq!(loaded.kept.row_of_line("deals.jsonl", 1), Some(0));
        assert_eq!(loaded.kept.row_of_line("deals.jsonl", 2), None);
        assert_eq!(loaded.kept.row_of_line("companies.jsonl", 1), Some(0));
        assert!(r.to_string().contains("companies.jsonl"));
        std::fs::remove_dir_all(dir).unwrap();
    }

    proptest::proptest! {
        /// Runs answer as the list of kept lines did: a kept line's row is
        /// its position among the kept lines, through late rejections too.
        #[test]
        fn kept_runs_answer_like_the_list_of_kept_lines(
            steps in proptest::collection::vec((1u64..4, proptest::bool::ANY), 0..120),
            late in proptest::collection::vec(0usize..200, 0..12),
        ) {
            let (mut kept, mut naive, mut line) = (KeptLines::default(), Vec::new(), 0);
            for (gap, keep) in steps {
                line += gap;
                if keep {
                    kept.keep("f", line);
                    naive.push(line);
                }
            }
            for i in late {
                if let Some(&l) = naive.get(i % naive.len().max(1)) {
                    kept.drop_line("f", l);
                    naive.retain(|&x| x != l);
                }
            }
            for l in 0..=line + 1 {
                let row = naive.binary_search(&l).ok().map(|r| r as u32);
                proptest::prop_assert_eq!(kept.row_of_line("f", l), row, "line {}", l);
            }
            proptest::prop_assert_eq!(kept.row_of_line("other", 1), None);
        }
    }

    #[test]
    fn strict_mode_fails_on_the_first_bad_row() {
        let dir = write_dump("strict");
        match load_dump(&dir, true) {
            // The duplicate (line 7) is found while parsing, before parent links are checked.
            Err(IngestError::Strict(e)) => assert_eq!((e.file, e.line), ("locations.jsonl", 7)),
            other => panic!("expected a strict failure, got {other:?}"),
        }
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn missing_files_and_foreign_dumps_are_refused() {
        let dir = write_dump("missing");
        std::fs::remove_file(dir.join("people.jsonl")).unwrap();
        assert!(matches!(
            load_dump(&dir, false),
            Err(IngestError::MissingFile(_))
        ));
        std::fs::write(
            dir.join("dump.json"),
            r#"{"format":"other","version":9,"source":"x"}"#,
        )
        .unwrap();
        assert!(matches!(
            load_dump(&dir, false),
            Err(IngestError::BadMeta(_))
        ));
        std::fs::remove_dir_all(dir).unwrap();
    }
}
