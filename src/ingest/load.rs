//! Reads a canonical dump directory into validated [`Facts`].
//!
//! Files are read in [`DUMP_FILES`] order and every reference must resolve to
//! a row kept earlier. A bad row (malformed JSON, unknown key or enum value,
//! bad UUID or date, dangling reference, duplicate id or permalink) is
//! reported with file, line and reason and skipped; with `strict`, the first
//! bad row fails the whole load. Never a panic on input.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use uuid::Uuid;

use crate::schema::ids::{crunchbase_key, domain_key, linkedin_key, slugify, twitter_key};
use crate::schema::{
    CompanyRow, DealRow, DumpMeta, FirmRow, LocationType, PersonRow, PlaceRefs, RoundKey, DUMP_FILES,
    DUMP_FORMAT_VERSION,
};

use super::catalog::load_catalog;
use super::facts::*;
use super::report::{IngestReport, RowError};
use super::scan::scan_jsonl;
use super::IngestError;

/// Line numbers of the kept rows of each file, ascending: the row number of
/// a line is its position here (the renderer uses it to skip rejected rows).
#[derive(Debug, Clone, Default)]
pub struct KeptLines {
    lines: HashMap<&'static str, Vec<u64>>,
}

impl KeptLines {
    /// The row number of `line`, or `None` when the line was rejected.
    pub fn row_of_line(&self, file: &str, line: u64) -> Option<u32> {
        let lines = self.lines.get(file)?;
        lines.binary_search(&line).ok().map(|r| r as u32)
    }

    fn keep(&mut self, file: &'static str, line: u64) {
        self.lines.entry(file).or_default().push(line);
    }

    fn drop_line(&mut self, file: &'static str, line: u64) {
        if let Some(lines) = self.lines.get_mut(file) {
            if let Ok(i) = lines.binary_search(&line) {
                lines.remove(i);
            }
        }
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
pub struct Loader {
    strict: bool,
    report: IngestReport,
    kept: KeptLines,
    first_error: Option<RowError>,
}

impl Loader {
    fn new(strict: bool) -> Loader {
        Loader { strict, report: IngestReport::default(), kept: KeptLines::default(), first_error: None }
    }

    /// Scans `file`, calling `accept` for each well-formed row; a row that
    /// fails to parse or that `accept` refuses is rejected.
    pub fn scan<R>(
        &mut self,
        dir: &Path,
        file: &'static str,
        mut accept: impl FnMut(u64, R) -> Result<(), String>,
    ) -> Result<(), IngestError>
    where
        R: serde::de::DeserializeOwned + Send,
    {
        let path = dir.join(file);
        if !path.is_file() {
            return Err(IngestError::MissingFile(path));
        }
        self.report.entry(file);
        scan_jsonl::<R, _>(&path, |line, parsed| {
            self.report.entry(file).read += 1;
            let verdict = parsed.and_then(|row| accept(line, row));
            match verdict {
                Ok(()) => {
                    self.report.entry(file).kept += 1;
                    self.kept.keep(file, line);
                }
                Err(reason) => self.note_rejection(file, line, reason),
            }
        })
        .map_err(|e| IngestError::Io { path: path.clone(), source: e })?;
        self.fail_if_strict()
    }

    /// Rejects a row that was counted as kept by [`Loader::scan`].
    pub fn reject_late(&mut self, file: &'static str, line: u64, reason: String) -> Result<(), IngestError> {
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
    let meta = read_meta(dir)?;
    let mut loader = Loader::new(strict);
    let catalog = load_catalog(dir, &mut loader)?;
    let companies = load_companies(dir, &mut loader, &catalog)?;
    let company_ids: HashMap<Uuid, u32> = companies.iter().enumerate().map(|(i, c)| (c.id, i as u32)).collect();
    let firms = load_firms(dir, &mut loader, &catalog, &company_ids)?;
    let firm_ids: HashMap<Uuid, u32> = firms.iter().enumerate().map(|(i, f)| (f.id, i as u32)).collect();
    let people = load_people(dir, &mut loader, &company_ids, &firm_ids)?;
    let person_ids: HashMap<Uuid, u32> = people.iter().enumerate().map(|(i, p)| (p.id, i as u32)).collect();
    let refs = DealRefs { companies: &company_ids, firms: &firm_ids, people: &person_ids };
    let deals = load_deals(dir, &mut loader, &refs)?;
    let facts = Facts { catalog, companies, firms, people, deals };
    Ok(LoadedDump { meta, facts, report: loader.report, kept: loader.kept })
}

fn read_meta(dir: &Path) -> Result<DumpMeta, IngestError> {
    let path = dir.join("dump.json");
    let bytes = std::fs::read(&path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => IngestError::MissingFile(path.clone()),
        _ => IngestError::Io { path: path.clone(), source: e },
    })?;
    let meta: DumpMeta =
        serde_json::from_slice(&bytes).map_err(|e| IngestError::BadMeta(format!("{}: {e}", path.display())))?;
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
        let loc = catalog.location(permalink).ok_or_else(|| format!("unknown location '{permalink}'"))?;
        let actual = catalog.locations[loc as usize].location_type;
        if actual != level {
            return Err(format!("location '{permalink}' is a {} , not a {}", actual.as_str(), level.as_str()));
        }
        let index = [LocationType::City, LocationType::State, LocationType::Region, LocationType::Country]
            .iter()
            .position(|l| *l == level)
            .unwrap_or(slot);
        places[index] = Some(loc);
    }
    Ok(places)
}

fn boxed(s: Option<String>) -> Option<Box<str>> {
    s.map(String::into_boxed_str)
}

/// Tracks ids and permalinks seen so far in one file.
#[derive(Default)]
struct Uniques {
    ids: HashSet<Uuid>,
    permalinks: HashSet<String>,
}

impl Uniques {
    fn claim(&mut self, id: Uuid, permalink: Option<&str>) -> Result<(), String> {
        if self.ids.contains(&id) {
            return Err(format!("duplicate id {id}"));
        }
        if let Some(p) = permalink {
            if self.permalinks.contains(p) {
                return Err(format!("duplicate permalink '{p}'"));
            }
            if p.is_empty() {
                return Err("empty permalink".into());
            }
            self.permalinks.insert(p.to_string());
        }
        self.ids.insert(id);
        Ok(())
    }
}

fn load_companies(dir: &Path, loader: &mut Loader, catalog: &Catalog) -> Result<Vec<CompanyFacts>, IngestError> {
    let mut uniques = Uniques::default();
    let mut out = Vec::new();
    loader.scan::<CompanyRow>(dir, "companies.jsonl", |_, row| {
        let facts = company_facts(row, catalog)?;
        uniques.claim(facts.id, Some(&facts.permalink))?;
        out.push(facts);
        Ok(())
    })?;
    Ok(out)
}

fn company_facts(row: CompanyRow, catalog: &Catalog) -> Result<CompanyFacts, String> {
    let places = resolve_places(&row.location, catalog)?;
    let mut industries = Vec::with_capacity(row.industries.len());
    for permalink in &row.industries {
        let ind = catalog.industry(permalink).ok_or_else(|| format!("unknown industry '{permalink}'"))?;
        if catalog.industries[ind as usize].industry_type != crate::schema::IndustryType::Industry {
            return Err(format!("'{permalink}' is a super category; companies list industries"));
        }
        if !industries.contains(&ind) {
            industries.push(ind);
        }
    }
    Ok(CompanyFacts {
        id: row.id,
        domain_key: boxed(row.domain.as_deref().and_then(domain_key)),
        linkedin_key: boxed(row.linkedin.as_deref().and_then(|u| linkedin_key(u, Some("company")))),
        crunchbase_key: boxed(row.crunchbase.as_deref().and_then(|u| crunchbase_key(u, Some("organization")))),
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

fn load_firms(
    dir: &Path,
    loader: &mut Loader,
    catalog: &Catalog,
    company_ids: &HashMap<Uuid, u32>,
) -> Result<Vec<FirmFacts>, IngestError> {
    let mut uniques = Uniques::default();
    let mut out = Vec::new();
    loader.scan::<FirmRow>(dir, "investors.jsonl", |_, row| {
        if company_ids.contains_key(&row.id) {
            return Err(format!("id {} is already a company", row.id));
        }
        let facts = FirmFacts {
            id: row.id,
            places: resolve_places(&row.location, catalog)?,
            domain_key: boxed(row.domain.as_deref().and_then(domain_key)),
            linkedin_key: boxed(row.linkedin.as_deref().and_then(|u| linkedin_key(u, Some("company")))),
            crunchbase_key: boxed(row.crunchbase.as_deref().and_then(|u| crunchbase_key(u, Some("organization")))),
            name: row.name.into_boxed_str(),
            permalink: row.permalink.into_boxed_str(),
            domain: boxed(row.domain),
            headcount: row.num_employees,
        };
        uniques.claim(facts.id, Some(&facts.permalink))?;
        out.push(facts);
        Ok(())
    })?;
    Ok(out)
}

fn load_people(
    dir: &Path,
    loader: &mut Loader,
    company_ids: &HashMap<Uuid, u32>,
    firm_ids: &HashMap<Uuid, u32>,
) -> Result<Vec<PersonFacts>, IngestError> {
    let mut uniques = Uniques::default();
    let mut out = Vec::new();
    loader.scan::<PersonRow>(dir, "people.jsonl", |_, row| {
        let facts = person_facts(row, company_ids, firm_ids)?;
        uniques.claim(facts.id, None)?;
        out.push(facts);
        Ok(())
    })?;
    Ok(out)
}

fn person_facts(
    row: PersonRow,
    company_ids: &HashMap<Uuid, u32>,
    firm_ids: &HashMap<Uuid, u32>,
) -> Result<PersonFacts, String> {
    let resolve = |id: &Uuid| {
        company_ids
            .get(id)
            .map(|&c| Employer::Company(c))
            .or_else(|| firm_ids.get(id).map(|&f| Employer::Firm(f)))
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
        ("linkedin", row.linkedin_url.is_some()),
        ("email", row.email.is_some()),
        ("phone", row.phone.is_some()),
        ("twitter", row.twitter_url.is_some()),
    ]
    .into_iter()
    .filter_map(|(name, present)| present.then_some(name))
    .collect();
    let mut linkedin_companies: Vec<Box<str>> = row
        .employment
        .iter()
        .filter_map(|j| j.linkedin_company_id.as_deref().map(|s| s.to_ascii_lowercase().into_boxed_str()))
        .collect();
    linkedin_companies.dedup();
    let mut schools: Vec<Box<str>> =
        row.education.iter().filter_map(|e| e.school_id.as_deref().map(|s| s.to_string().into_boxed_str())).collect();
    schools.dedup();
    let job_title = row.title.as_deref().map(slugify).filter(|s| !s.is_empty()).map(String::into_boxed_str);
    Ok(PersonFacts {
        id: row.id,
        linkedin_key: boxed(row.linkedin_url.as_deref().and_then(|u| linkedin_key(u, Some("in")))),
        crunchbase_key: boxed(row.crunchbase_url.as_deref().and_then(|u| crunchbase_key(u, Some("person")))),
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
    companies: &'a HashMap<Uuid, u32>,
    firms: &'a HashMap<Uuid, u32>,
    people: &'a HashMap<Uuid, u32>,
}

fn load_deals(dir: &Path, loader: &mut Loader, refs: &DealRefs) -> Result<Vec<DealFacts>, IngestError> {
    let mut uniques = Uniques::default();
    let mut out = Vec::new();
    loader.scan::<DealRow>(dir, "deals.jsonl", |_, row| {
        let facts = deal_facts(row, refs)?;
        uniques.claim(facts.id, None)?;
        out.push(facts);
        Ok(())
    })?;
    Ok(out)
}

fn deal_facts(row: DealRow, refs: &DealRefs) -> Result<DealFacts, String> {
    let company = *refs.companies.get(&row.company_id).ok_or_else(|| format!("unknown company_id {}", row.company_id))?;
    let person = |id: &Uuid| refs.people.get(id).copied().ok_or_else(|| format!("unknown person {id}"));
    let mut firms: Vec<DealFirm> = Vec::with_capacity(row.investors.len());
    for f in &row.investors {
        let firm = *refs.firms.get(&f.firm_id).ok_or_else(|| format!("unknown firm_id {}", f.firm_id))?;
        if firms.iter().any(|x| x.firm == firm) {
            return Err(format!("firm {} listed twice", f.firm_id));
        }
        let partners = f.partner_ids.iter().map(person).collect::<Result<Vec<_>, _>>()?;
        firms.push(DealFirm { firm, lead: f.lead, partners, financing_type: f.financing_type });
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
        round: RoundKey { round_type: row.round_type, pre: row.pre, extension: row.extension },
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
        Some(a) if !a.is_finite() || a < 0.0 => Err(format!("{field} must be a non-negative number, got {a}")),
        _ => Ok(()),
    }
}
