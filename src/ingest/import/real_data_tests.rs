//! Imports of the real data sets in `/work/shared/data`, checked for exact
//! counts, determinism and known facts. Validity is the indexer's own reader
//! keeping every row plus canonical lines (see `generate::check`), and the
//! few ordering and uniqueness promises of the importer that reader does
//! not check.

use std::collections::HashSet;
use std::fs;
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

use uuid::Uuid;

use super::*;
use crate::ingest::generate::check::{self, LoadedDump};
use crate::schema::ids::uuid5;
use crate::schema::{
    CompanyRow, DealRow, IndustryType, IpoStatus, LocationType, PersonRole, PersonRow, RoundType,
    DUMP_FILES,
};

const CRUNCHBASE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../shared/data/crunchbase-2013"
);
const YC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data/yc-2014");

/// A scratch directory removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(label: &str) -> TempDir {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!(
            "fundsearch-import-{}-{label}-{n}",
            std::process::id()
        ));
        let _ = fs::remove_dir_all(&dir);
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// An imported dump: the import report, the raw bytes of every file, and the
/// rows with the indexer's verdict on them (reached through `Deref`).
struct Dump {
    report: ImportReport,
    files: Vec<(String, Vec<u8>)>,
    loaded: LoadedDump,
}

impl Deref for Dump {
    type Target = LoadedDump;

    fn deref(&self) -> &LoadedDump {
        &self.loaded
    }
}

fn import_into(dir: &Path, crunchbase: bool, yc: bool) -> ImportReport {
    let opts = ImportOptions {
        crunchbase_2013: crunchbase.then(|| PathBuf::from(CRUNCHBASE)),
        yc_2014: yc.then(|| PathBuf::from(YC)),
        out: dir.to_path_buf(),
    };
    import(&opts).unwrap_or_else(|e| panic!("import failed: {e}"))
}

fn import_and_read(crunchbase: bool, yc: bool) -> Dump {
    let dir = TempDir::new("dump");
    let report = import_into(&dir.0, crunchbase, yc);
    let mut names = vec!["dump.json".to_string()];
    names.extend(DUMP_FILES.iter().map(|f| f.to_string()));
    let files = names
        .into_iter()
        .map(|n| (n.clone(), fs::read(dir.0.join(&n)).unwrap()))
        .collect();
    let loaded = check::load(&dir.0).unwrap_or_else(|e| panic!("imported dump does not load: {e}"));
    Dump {
        report,
        files,
        loaded,
    }
}

/// Crunchbase and YC merged, imported once for all tests that read it.
fn merged() -> &'static Dump {
    static DUMP: OnceLock<Dump> = OnceLock::new();
    DUMP.get_or_init(|| import_and_read(true, true))
}

impl Dump {
    fn company(&self, permalink: &str) -> &CompanyRow {
        self.companies
            .iter()
            .find(|c| c.permalink == permalink)
            .unwrap_or_else(|| panic!("no company {permalink}"))
    }

    fn deals_of(&self, company: &CompanyRow) -> Vec<&DealRow> {
        self.deals
            .iter()
            .filter(|d| d.company_id == company.id)
            .collect()
    }

    fn firm_id(&self, name: &str) -> Uuid {
        self.firms
            .iter()
            .find(|f| f.name == name)
            .unwrap_or_else(|| panic!("no firm {name}"))
            .id
    }

    fn person(&self, name: &str) -> &PersonRow {
        self.people
            .iter()
            .find(|p| p.name == name)
            .unwrap_or_else(|| panic!("no person {name}"))
    }

    /// Panics unless the indexer's reader keeps every row, every line is
    /// canonical (see [`check`]) and the importer keeps its own promises.
    fn assert_valid(&self) {
        self.loaded.assert_valid();
        assert_eq!(self.broken_promises(), Vec::<String>::new());
    }

    /// What the importer promises beyond the dump rules, which the reader
    /// does not check (it accepts any order within a file, merges a repeated
    /// angel and takes lead flags as given): locations come parents first,
    /// an angel appears once per deal, and nothing is marked lead (the data
    /// has no lead flags).
    fn broken_promises(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut written = HashSet::new();
        for l in &self.locations {
            if l.parent.as_ref().is_some_and(|p| !written.contains(p)) {
                out.push(format!(
                    "location {}: parent {:?} not written before it",
                    l.permalink, l.parent
                ));
            }
            written.insert(&l.permalink);
        }
        for d in &self.deals {
            let angels: HashSet<_> = d.angels.iter().map(|a| a.person_id).collect();
            if angels.len() != d.angels.len() {
                out.push(format!("deal {}: angel listed twice", d.id));
            }
            if d.investors.iter().any(|f| f.lead) {
                out.push(format!("deal {}: lead flag without data", d.id));
            }
        }
        out
    }
}

#[test]
fn crunchbase_alone_gives_every_company_and_deduplicated_rounds() {
    let dump = import_and_read(true, false);
    dump.assert_valid();
    let cb = dump.report.crunchbase.clone().unwrap();
    assert_eq!(cb.companies, 17_727);
    assert_eq!(cb.rounds, 31_679);
    assert_eq!(cb.duplicate_rounds, 63);
    assert_eq!(cb.rounds_unknown_company, 0);
    assert_eq!(cb.edges, 80_245);
    // The README's 51,830 was measured on the raw Mac Roman file, where
    // "agÃ¡mi Systems" misses its 8 edges; the normalised file fixes the name.
    assert_eq!(cb.edges_matched, 51_838);
    assert_eq!(cb.rounds_with_investor, 18_770);
    assert_eq!(dump.companies.len(), 17_727);
    assert_eq!(dump.deals.len(), 31_679 - 63);
    assert_eq!(dump.report.written.deals, 31_616);
    assert!(dump.report.yc.is_none());
    let files: Vec<_> = dump
        .report
        .files
        .iter()
        .map(|f| (f.name.as_str(), f.rows))
        .collect();
    assert_eq!(files[1], ("crunchbase-2013/acquisitions.csv.gz", 4_651));
    let statuses =
        |s: Option<IpoStatus>| dump.companies.iter().filter(|c| c.ipo_status == s).count();
    assert_eq!(statuses(Some(IpoStatus::Public)), 344);
    assert_eq!(statuses(None), 553);
    assert_eq!(
        statuses(Some(IpoStatus::Acquired)),
        1_673 + cb.acquired_from_acquisitions as usize
    );
    let us_companies = dump
        .companies
        .iter()
        .filter(|c| c.location.country.as_deref() == Some("united-states"));
    assert_eq!(us_companies.count(), 17_727);
}

#[test]
fn crunchbase_industries_and_locations_follow_the_tables() {
    let dump = import_and_read(true, false);
    let kinds = |t| {
        dump.industries
            .iter()
            .filter(|i| i.industry_type == t)
            .count()
    };
    assert_eq!(kinds(IndustryType::Industry), 42);
    assert_eq!(kinds(IndustryType::SuperCategory), 13);
    assert_eq!(
        dump.companies
            .iter()
            .filter(|c| c.industries.is_empty())
            .count(),
        399
    );
    let states = dump
        .locations
        .iter()
        .filter(|l| l.location_type == LocationType::State)
        .count();
    assert_eq!(states, 51, "50 states and DC occur");
    let region = dump
        .locations
        .iter()
        .find(|l| l.permalink == "sf-bay-area")
        .unwrap();
    assert_eq!(
        (region.name.as_str(), region.parent.as_deref()),
        ("SF Bay", Some("united-states"))
    );
    assert!(dump
        .locations
        .iter()
        .all(|l| !l.permalink.starts_with("unknown") && l.permalink != "tbd-area"));
}

#[test]
fn yc_alone_gives_every_startup_a_batch_deal_and_founders() {
    let dump = import_and_read(false, true);
    dump.assert_valid();
    let yc = dump.report.yc.clone().unwrap();
    assert_eq!((yc.startups, yc.new_companies), (688, 688));
    assert_eq!(yc.merged_by_crunchbase_url + yc.merged_by_name_slug, 0);
    assert_eq!(
        (yc.batch_deals, yc.batch_deals_already_in_crunchbase),
        (688, 0)
    );
    assert_eq!((yc.founder_rows, yc.founders_matched), (998, 960));
    assert_eq!(dump.companies.len(), 688);
    assert_eq!(dump.deals.len(), 688);
    assert_eq!(dump.firms.len(), 1);
    assert!(dump
        .deals
        .iter()
        .all(|d| d.round_type == RoundType::Seed && d.investors.len() == 1));
    assert_eq!(dump.people.len() as u64, yc.founder_people);
    assert!(dump
        .people
        .iter()
        .all(|p| p.roles == vec![PersonRole::Founder] && !p.employment.is_empty()));
    assert_eq!(dump.report.written.deals, 688);
}

#[test]
fn merged_sources_join_250_startups_by_url_and_1_by_name() {
    let dump = merged();
    dump.assert_valid();
    let yc = dump.report.yc.clone().unwrap();
    assert_eq!(yc.merged_by_crunchbase_url, 250);
    // Insoshi has no profile URL; its name slug is the Crunchbase permalink
    // `insoshi`, so both sources mint the same company id.
    assert_eq!(yc.merged_by_name_slug, 1);
    assert_eq!(yc.new_companies, 688 - 251);
    assert_eq!(dump.companies.len(), 17_727 + 688 - 251);
    assert_eq!(yc.founders_matched, 960);
    let cb = dump.report.crunchbase.clone().unwrap();
    assert_eq!(
        (cb.edges_matched, cb.rounds_with_investor),
        (51_838, 18_770)
    );
    assert_eq!(dump.deals.len() as u64, 31_616 + yc.batch_deals);
    assert_eq!(yc.batch_deals + yc.batch_deals_already_in_crunchbase, 688);
    assert_eq!(dump.meta.source, "import crunchbase-2013 + yc-2014");
    assert_eq!((cb.investor_firms, cb.investor_angels), (6_024, 4_250));
    assert_eq!(
        dump.firms.len(),
        6_024,
        "Y Combinator is among the edge-list firms"
    );
    let founders = dump.people.iter().filter(|p| !p.roles.is_empty()).count();
    assert_eq!(founders, 960);
    assert_eq!(
        dump.people.len(),
        4_250 + 960 - 41,
        "41 founders are also angels in the edge list"
    );
}

#[test]
fn every_firm_and_person_is_reachable_from_a_deal_or_a_job() {
    let dump = merged();
    let firms: HashSet<_> = dump
        .deals
        .iter()
        .flat_map(|d| d.investors.iter().map(|f| f.firm_id))
        .collect();
    let angels: HashSet<_> = dump
        .deals
        .iter()
        .flat_map(|d| d.angels.iter().map(|a| a.person_id))
        .collect();
    assert!(dump.firms.iter().all(|f| firms.contains(&f.id)));
    assert!(dump
        .people
        .iter()
        .all(|p| angels.contains(&p.id) || !p.employment.is_empty()));
    assert_eq!(
        dump.people
            .iter()
            .filter(|p| angels.contains(&p.id) && !p.employment.is_empty())
            .count(),
        41
    );
}

#[test]
fn importing_twice_gives_identical_bytes() {
    let first = merged();
    let dir = TempDir::new("again");
    import_into(&dir.0, true, true);
    for (name, bytes) in &first.files {
        let again = fs::read(dir.0.join(name)).unwrap();
        assert!(again == *bytes, "{name} differs between two imports");
    }
}

#[test]
fn facebook_rounds_investors_and_places() {
    let dump = merged();
    let fb = dump.company("facebook");
    assert_eq!(fb.name, "Facebook");
    assert_eq!(fb.id, uuid5("company", "facebook"));
    assert_eq!(fb.ipo_status, Some(IpoStatus::Public));
    assert_eq!(fb.industries, vec!["social".to_string()]);
    assert_eq!(fb.location.city.as_deref(), Some("menlo-park-california"));
    assert_eq!(fb.location.state.as_deref(), Some("california"));
    assert_eq!(fb.location.region.as_deref(), Some("sf-bay-area"));
    assert_eq!(fb.location.country.as_deref(), Some("united-states"));
    let deals = dump.deals_of(fb);
    assert_eq!(deals.len(), 11);
    let angel = deals
        .iter()
        .find(|d| d.date.map(|d| d.iso()).as_deref() == Some("2004-09-01"))
        .unwrap();
    assert_eq!(angel.round_type, RoundType::Seed);
    assert_eq!(angel.total_round_raised, Some(500_000.0));
    assert_eq!(
        angel.short_description.as_deref(),
        Some("Facebook raised $500K in an angel round.")
    );
    let thiel = dump.person("Peter Thiel").id;
    assert_eq!(thiel, uuid5("person", "peter-thiel"));
    assert!(angel.angels.iter().any(|a| a.person_id == thiel));
    let series_a = deals
        .iter()
        .find(|d| d.round_type == RoundType::SeriesA)
        .unwrap();
    assert!(series_a
        .investors
        .iter()
        .any(|f| f.firm_id == dump.firm_id("Accel Partners")));
    assert_eq!(series_a.financings[0].size_usd, Some(12_700_000.0));
    let series_b = deals
        .iter()
        .find(|d| d.round_type == RoundType::SeriesB)
        .unwrap();
    let sv_angel = dump.firm_id("SV Angel");
    assert!(series_b.investors.iter().any(|f| f.firm_id == sv_angel));
    assert_eq!(
        deals
            .iter()
            .filter(|d| d.round_type == RoundType::SeriesC)
            .count(),
        5
    );
}

#[test]
fn dropbox_merges_yc_facts_without_a_second_batch_deal() {
    let dump = merged();
    let dropbox = dump.company("dropbox");
    assert_eq!(dropbox.domain.as_deref(), Some("dropbox.com"));
    assert!(dropbox
        .short_description
        .as_deref()
        .unwrap()
        .starts_with("Dropbox operates a free file hosting"));
    assert!(dropbox.industries.contains(&"software".to_string()));
    assert!(dropbox.industries.contains(&"storage".to_string()));
    let deals = dump.deals_of(dropbox);
    assert_eq!(
        deals.len(),
        4,
        "Crunchbase's 2007-06-01 angel round with Y Combinator is the batch"
    );
    let yc = dump.firm_id("Y Combinator");
    let first = deals
        .iter()
        .find(|d| d.date.map(|d| d.iso()).as_deref() == Some("2007-06-01"))
        .unwrap();
    assert!(first.investors.iter().any(|f| f.firm_id == yc));
    let houston = dump.person("Drew Houston");
    assert_eq!(houston.roles, vec![PersonRole::Founder]);
    assert_eq!(houston.employment[0].company_id, Some(dropbox.id));
    assert_eq!(houston.employment[0].title.as_deref(), Some("Founder"));
    assert!(houston.employment[0].is_current);
}

#[test]
fn stripe_gets_its_summer_2010_batch_deal() {
    let dump = merged();
    let stripe = dump.company("stripe");
    let deals = dump.deals_of(stripe);
    assert_eq!(deals.len(), 4, "3 Crunchbase rounds + the YC batch");
    let batch = deals
        .iter()
        .find(|d| d.id == uuid5("deal", "yc:stripe"))
        .unwrap();
    assert_eq!(batch.date.map(|d| d.iso()).as_deref(), Some("2010-06-01"));
    assert_eq!(batch.round_type, RoundType::Seed);
    assert_eq!(batch.investors[0].firm_id, dump.firm_id("Y Combinator"));
    assert_eq!(
        batch.short_description.as_deref(),
        Some("Stripe joined Y Combinator's Summer 2010 batch.")
    );
    let series_a = deals
        .iter()
        .find(|d| d.date.map(|d| d.iso()).as_deref() == Some("2011-09-30"))
        .unwrap();
    assert!(series_a
        .investors
        .iter()
        .any(|f| f.firm_id == dump.firm_id("Andreessen Horowitz")));
    assert!(series_a
        .angels
        .iter()
        .any(|a| a.person_id == dump.person("Elon Musk").id));
}
