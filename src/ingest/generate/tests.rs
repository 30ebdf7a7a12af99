//! End-to-end tests of the generator: same seed → same bytes, the output obeys
//! the dump rules, and its proportions follow performance.md §4.2.

use std::collections::{HashMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};

use super::check::{self, LoadedDump};
use super::{generate, GenerateOptions};
use crate::ingest::dump_file::locate;
use crate::schema::{Date, DUMP_FILES};

const COMPANIES: u64 = 2_000;

/// A scratch directory removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("fundsearch-generate-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

fn options(seed: u64, out: &Path) -> GenerateOptions {
    let as_of = Date::from_ymd(2026, 11, 1).unwrap_or(Date(20_758));
    GenerateOptions {
        companies: COMPANIES,
        seed,
        out: out.to_path_buf(),
        as_of,
        compress: false,
    }
}

fn run(seed: u64, name: &str) -> Scratch {
    let dir = Scratch::new(name);
    let report =
        generate(&options(seed, &dir.0)).unwrap_or_else(|e| panic!("generate failed: {e}"));
    assert_eq!(report.counts.companies, COMPANIES);
    assert!(report.to_string().contains("2000 companies"), "{report}");
    dir
}

fn read(dir: &Path, file: &str) -> Vec<u8> {
    fs::read(dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"))
}

#[test]
fn same_seed_same_bytes_other_seed_other_data() {
    let single = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    let (a, b, c) = (run(7, "a"), single.install(|| run(7, "b")), run(8, "c"));
    for file in DUMP_FILES.iter().chain(&["dump.json"]) {
        assert!(
            read(&a.0, file) == read(&b.0, file),
            "{file} differs between runs (one on a single thread)"
        );
    }
    for file in [
        "companies.jsonl",
        "investors.jsonl",
        "people.jsonl",
        "deals.jsonl",
    ] {
        assert!(
            read(&a.0, file) != read(&c.0, file),
            "{file} does not depend on the seed"
        );
    }
}

/// A compressed dump decompresses to the plain dump's bytes; writing one
/// form over the other leaves only the new form.
#[test]
fn a_compressed_dump_holds_the_plain_bytes() {
    let plain = run(7, "plain");
    let zst = Scratch::new("zst");
    let compressed = GenerateOptions {
        compress: true,
        ..options(7, &zst.0)
    };
    generate(&GenerateOptions {
        compress: false,
        ..compressed.clone()
    })
    .unwrap();
    generate(&compressed).unwrap();
    for file in DUMP_FILES {
        let found = locate(&zst.0, file).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert!(
            found.compressed,
            "{file} is compressed, the plain one removed"
        );
        let text = found.read_to_string().unwrap().into_bytes();
        assert!(
            text == read(&plain.0, file),
            "{file} decompresses to other bytes"
        );
    }
    generate(&options(7, &zst.0)).unwrap();
    assert!(DUMP_FILES
        .iter()
        .all(|f| !locate(&zst.0, f).unwrap().compressed));
    assert!(check::load(&zst.0).unwrap().problems().is_empty());
}

#[test]
fn output_is_a_valid_canonical_dump_with_the_specified_proportions() {
    let dir = run(42, "valid");
    let dump = check::load(&dir.0).unwrap_or_else(|e| panic!("generated dump does not load: {e}"));
    assert_eq!(dump.problems(), Vec::<String>::new());
    assert_eq!(dump.non_canonical, Vec::<String>::new());
    let per_company = |n: usize| n as f64 / COMPANIES as f64;
    assert_eq!(dump.firms.len(), 100);
    assert!(
        (2.2..2.8).contains(&per_company(dump.deals.len())),
        "deals {}",
        dump.deals.len()
    );
    assert!(
        (2.6..3.4).contains(&per_company(dump.people.len())),
        "people {}",
        dump.people.len()
    );
    check_deal_facts(&dump);
    check_people_facts(&dump);
}

fn check_deal_facts(dump: &LoadedDump) {
    let as_of = dump.meta.as_of.unwrap_or(Date(0));
    for d in &dump.deals {
        if !d.investors.is_empty() {
            assert_eq!(
                d.investors.iter().filter(|i| i.lead).count(),
                1,
                "deal {}",
                d.id
            );
        }
        assert!(d.investors.len() <= 6 && d.angels.len() <= 3 && d.articles.len() <= 3);
        assert!(d.date.is_none_or(|at| at <= as_of));
        let sizes: Vec<f64> = d.financings.iter().filter_map(|f| f.size_usd).collect();
        assert_eq!(
            d.total_round_raised,
            (!sizes.is_empty()).then(|| sizes.iter().sum())
        );
        if let (Some(at), Some(created)) = (d.date, d.created_at) {
            assert!(
                created.0 >= at.start_ms(),
                "created before announced: {}",
                d.id
            );
        }
    }
    let mut last: HashMap<_, Date> = HashMap::new();
    for d in dump.deals.iter().filter(|d| d.date.is_some()) {
        let at = d.date.unwrap_or(Date(0));
        assert!(
            last.insert(d.company_id, at).is_none_or(|prev| prev <= at),
            "deals out of order"
        );
    }
    let types: HashSet<_> = dump
        .deals
        .iter()
        .map(|d| (d.round_type, d.pre, d.extension))
        .collect();
    use crate::schema::RoundType::*;
    for key in [
        (Seed, true, false),
        (Seed, false, false),
        (SeriesA, false, false),
        (SeriesA, false, true),
        (SeriesC, false, false),
    ] {
        assert!(types.contains(&key), "{key:?} missing");
    }
    let count = |t| dump.deals.iter().filter(|d| d.round_type == t).count();
    let ladder: Vec<usize> = [Seed, SeriesA, SeriesB, SeriesC, SeriesD, SeriesE]
        .into_iter()
        .map(count)
        .collect();
    assert!(
        ladder.windows(2).all(|w| w[0] > w[1]),
        "ladder counts should fall: {ladder:?}"
    );
    assert!(
        (ladder[0] + ladder[1]) * 5 > dump.deals.len() * 2,
        "seed + series A should be over 40 %: {ladder:?}"
    );
    assert!(dump.deals.iter().any(|d| d
        .financings
        .iter()
        .any(|f| f.currency.as_deref() == Some("GBP"))));
    assert!(
        dump.deals.iter().any(|d| d.valuation.is_some())
            && dump.deals.iter().any(|d| d.investors.is_empty())
    );
}

fn check_people_facts(dump: &LoadedDump) {
    let current = |p: &crate::schema::PersonRow| {
        p.employment
            .iter()
            .find(|j| j.is_current)
            .and_then(|j| j.company_id)
    };
    let employer: HashMap<_, _> = dump.people.iter().map(|p| (p.id, current(p))).collect();
    for d in &dump.deals {
        for i in &d.investors {
            assert!(
                i.partner_ids
                    .iter()
                    .all(|p| employer.get(p) == Some(&Some(i.firm_id))),
                "partner not at the firm"
            );
        }
    }
    assert!(
        dump.people
            .iter()
            .any(|p| p.employment.is_empty() || current(p).is_none()),
        "no pure angels"
    );
    assert!(
        dump.people.iter().any(|p| p.employment.len() > 3)
            && dump.people.iter().any(|p| p.education.len() > 3)
    );
    let angels: HashSet<_> = dump
        .deals
        .iter()
        .flat_map(|d| &d.angels)
        .map(|a| a.person_id)
        .collect();
    let partners: HashSet<_> = dump
        .deals
        .iter()
        .flat_map(|d| &d.investors)
        .flat_map(|i| &i.partner_ids)
        .collect();
    assert!(
        angels.iter().any(|a| partners.contains(a)),
        "no partner also invests as an angel"
    );
    let as_of_year = dump.meta.as_of.map_or(0, Date::year);
    for p in &dump.people {
        for e in &p.education {
            let year = |y: &Option<String>| {
                y.as_deref()
                    .and_then(|y| y.parse::<i32>().ok())
                    .unwrap_or(0)
            };
            assert!(
                year(&e.start_date) <= year(&e.end_date) && year(&e.end_date) <= as_of_year,
                "{e:?}"
            );
        }
        for job in p.employment.iter().filter(|j| !j.is_current) {
            assert!(
                job.start_date
                    .is_some_and(|s| job.end_date.is_some_and(|e| s <= e)),
                "{job:?}"
            );
        }
    }
    let titles: HashSet<String> = dump
        .people
        .iter()
        .filter_map(|p| p.title.as_deref())
        .map(crate::schema::ids::slugify)
        .collect();
    assert!(
        ["ceo", "cto", "vp-engineering", "partner"]
            .iter()
            .all(|t| titles.contains(*t)),
        "{titles:?}"
    );
    let domains: Vec<_> = dump
        .firms
        .iter()
        .filter_map(|f| f.domain.as_deref())
        .collect();
    assert!(
        domains.len() > HashSet::<&str>::from_iter(domains.iter().copied()).len(),
        "no firms share a domain"
    );
}
