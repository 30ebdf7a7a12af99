//! Test helpers: a uniquely named temporary directory removed on drop.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

static NEXT: AtomicU64 = AtomicU64::new(0);

/// `<temp>/fundsearch-text-<label>-<pid>-<n>`, created empty.
pub(crate) struct TempDir(PathBuf);

impl TempDir {
    pub(crate) fn new(label: &str) -> TempDir {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!(
            "fundsearch-text-{label}-{}-{n}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).expect("create temp dir");
        TempDir(path)
    }

    pub(crate) fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Categories used by the fixture.
pub(crate) const COMPANY: u8 = 1;
pub(crate) const FIRM: u8 = 2;
pub(crate) const PERSON: u8 = 3;
pub(crate) const CITY: u8 = 4;

/// ~30 entities: companies, firms, people and places, with accents, CJK,
/// aliases, an untokenizable name and two identical names.
pub(crate) const FIXTURE: &[(u32, &[&str], Option<u8>)] = &[
    (0, &["Stripe", "stripe"], Some(COMPANY)),
    (1, &["Stripe Labs"], Some(COMPANY)),
    (2, &["Strive"], Some(COMPANY)),
    (3, &["Sequoia Capital", "sequoia-capital"], Some(FIRM)),
    (4, &["Sequoia Heritage"], Some(FIRM)),
    (5, &["Andreessen Horowitz", "a16z"], Some(FIRM)),
    (6, &["Accel"], Some(FIRM)),
    (7, &["Accel-KKR"], Some(FIRM)),
    (8, &["Zürich"], Some(CITY)),
    (9, &["Zurich Insurance Group"], Some(COMPANY)),
    (10, &["São Paulo"], Some(CITY)),
    (11, &["San Francisco"], Some(CITY)),
    (12, &["San Francisco Bay Area"], Some(CITY)),
    (13, &["字节跳动", "ByteDance"], Some(COMPANY)),
    (14, &["北京", "Beijing"], Some(CITY)),
    (15, &["François Dupont"], Some(PERSON)),
    (16, &["Elad Gil"], Some(PERSON)),
    (17, &["Björk Guðmundsdóttir"], Some(PERSON)),
    (18, &["José García"], Some(PERSON)),
    (19, &["Datadog"], Some(COMPANY)),
    (20, &["Airbnb"], Some(COMPANY)),
    (21, &["Airtable"], Some(COMPANY)),
    (22, &["OpenAI"], Some(COMPANY)),
    (23, &["Opendoor"], Some(COMPANY)),
    (24, &["Y Combinator"], Some(FIRM)),
    (25, &["Benchmark"], Some(FIRM)),
    (26, &["Index Ventures"], Some(FIRM)),
    (27, &["Lightspeed Venture Partners"], Some(FIRM)),
    (28, &["Capital One"], Some(COMPANY)),
    (29, &["!!!", "  "], Some(COMPANY)),
    (30, &["Twin Peaks"], Some(COMPANY)),
    (31, &["Twin Peaks"], None),
    (32, &["Jon Stripe"], Some(PERSON)),
];

/// The fixture as entries, in reverse doc id order (builds must not rely
/// on sorted input).
pub(crate) fn fixture_entries() -> impl Iterator<Item = super::NameEntry<'static>> {
    FIXTURE
        .iter()
        .rev()
        .map(|&(docid, names, category)| super::NameEntry {
            docid,
            names: names.iter().map(|&n| n.into()).collect(),
            category,
        })
}
