//! The real public data end to end: import Crunchbase 2013 + YC 2014,
//! build, verify, and check the counts the data README states and a few
//! known companies. Reads `../shared/data`; nothing is copied.

use std::sync::OnceLock;

use fundsearch::index::verify::verify_index;
use fundsearch::index::Index;
use fundsearch::ingest::import::{import, ImportOptions};
use fundsearch::schema::ids::uuid5;
use serde_json::Value;

use crate::common::*;

pub(crate) struct Real {
    pub(crate) index: Index,
    report: fundsearch::ingest::import::ImportReport,
    /// The imported dump (the oracle tests load it again).
    pub(crate) dump: std::path::PathBuf,
}

pub(crate) fn real() -> &'static Real {
    static REAL: OnceLock<Real> = OnceLock::new();
    REAL.get_or_init(|| {
        let dir = scratch("real-data");
        let data = shared_data();
        let opts = ImportOptions {
            crunchbase_2013: Some(data.join("crunchbase-2013")),
            yc_2014: Some(data.join("yc-2014")),
            out: dir.join("dump"),
        };
        let report = import(&opts).expect("real data imports");
        let built = build(&dir.join("dump"), &dir.join("index"), "2014-09-05");
        assert_eq!(built.ingest.total_rejected(), 0, "{}", built.ingest);
        verify_index(&dir.join("index")).expect("the real index verifies");
        Real {
            index: Index::open(&dir.join("index")).unwrap(),
            report,
            dump: dir.join("dump"),
        }
    })
}

fn company(slug: &str) -> Value {
    record(&real().index.companies, "full", uuid5("company", slug))
}

#[test]
fn counts_match_the_data_readme() {
    let r = real();
    let cb = r.report.crunchbase.as_ref().unwrap();
    let c = &r.index.manifest.counts;
    // 17,727 Crunchbase companies + 688 YC startups, 251 of them already in Crunchbase.
    assert_eq!(c.companies, 17_727 + 688 - 251);
    // 31,679 rounds less the 63 exact duplicates, plus one YC batch deal per
    // YC startup whose batch is not already a Crunchbase round.
    let yc = r.report.yc.as_ref().unwrap();
    assert_eq!(c.deals, 31_679 - 63 + yc.batch_deals);
    assert_eq!(cb.rounds_with_investor, 18_770);
    assert_eq!(
        cb.edges_matched, 51_838,
        "the normalised export also matches the 8 agámi Systems edges"
    );
}

#[test]
fn facebook_end_to_end() {
    let fb = company("facebook");
    assert_eq!(fb["name"], "Facebook");
    assert_eq!(fb["num_funding_rounds"], 11);
    assert_eq!(fb["ipo_status"], "public");
    assert_eq!(fb["location"]["state"]["permalink"], "california");
    assert_eq!(fb["location"]["country"]["permalink"], "united-states");
    assert_eq!(
        fb["latest_deal"]["type"], "FUNDING_ROUND",
        "the 2011-01-21 venture round is the latest"
    );
    assert_eq!(fb["latest_deal"]["total_round_raised"], 1_500_000_000);
    let firms: Vec<Uuid> = fb["all_investor_ids"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().parse().unwrap())
        .collect();
    assert!(
        firms.contains(&uuid5("firm", "accel-partners")),
        "{firms:?}"
    );
    let index = &real().index;
    let deals = index.companies.relation("deals").unwrap();
    let doc = index
        .companies
        .ids
        .docid(&uuid5("company", "facebook"))
        .unwrap();
    assert_eq!(deals.degree(doc), 11);
}

#[test]
fn yc_companies_are_merged_not_duplicated() {
    let index = &real().index;
    let by_domain = index.companies.keymap("domain").unwrap();
    let dropbox = by_domain.get("dropbox.com");
    assert_eq!(dropbox.len(), 1);
    let record: Value = serde_json::from_slice(
        &index
            .companies
            .records("full")
            .unwrap()
            .get(dropbox[0])
            .unwrap(),
    )
    .unwrap();
    assert_eq!(record["guru_permalink"], "dropbox");
    let people = index.companies.relation("people").unwrap();
    let founders: Vec<String> = people
        .targets(dropbox[0])
        .iter()
        .map(|&p| {
            serde_json::from_slice::<Value>(&index.people.records("card").unwrap().get(p).unwrap())
                .unwrap()["name"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert!(
        founders.contains(&"Drew Houston".to_string()),
        "{founders:?}"
    );
}

#[test]
fn name_lookup_finds_real_companies_with_typos() {
    let index = &real().index;
    let hits = index.company_names.search("dropbx", 5, None).unwrap();
    let names: Vec<String> = hits
        .iter()
        .map(|h| {
            serde_json::from_slice::<Value>(
                &index
                    .companies
                    .records("card")
                    .unwrap()
                    .get(h.docid)
                    .unwrap(),
            )
            .unwrap()["name"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(
        names.first().map(String::as_str),
        Some("Dropbox"),
        "{names:?}"
    );
}

use uuid::Uuid;
