//! Shared helpers: paths, the fixture index (built once), record access.

pub mod golden;
pub mod http;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use fundsearch::index::build::{build_index, BuildOptions};
use fundsearch::index::Index;
use fundsearch::schema::ids::uuid5;
use fundsearch::schema::Date;
use serde_json::Value;
use uuid::Uuid;

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn shared_data() -> PathBuf {
    repo().join("../shared/data")
}

/// A fresh directory under the system temp dir, unique per test run.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fundsearch-it-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Builds `dump` into `out` with the given as-of date.
pub fn build(dump: &Path, out: &Path, as_of: &str) -> fundsearch::index::build::BuildReport {
    let opts = BuildOptions {
        dump: dump.into(),
        out: out.into(),
        as_of: Date::parse(as_of),
        strict: false,
        quiet: true,
    };
    build_index(&opts).unwrap_or_else(|e| panic!("building {}: {e}", dump.display()))
}

/// The fixture index directory (as-of 2026-11-01), built once per run.
pub fn fixture_index_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let out = scratch("fixture-index").join("index");
        build(&repo().join("fixtures/dump"), &out, "2026-11-01");
        out
    })
}

/// The fixture index, opened once.
pub fn fixture_index() -> &'static Index {
    static INDEX: OnceLock<Index> = OnceLock::new();
    INDEX.get_or_init(|| Index::open(fixture_index_dir()).expect("fixture index opens"))
}

/// A fixture id: `fixture_id("company", "helix-bio")`.
pub fn fixture_id(kind: &str, key: &str) -> Uuid {
    uuid5(kind, &format!("fixture:{key}"))
}

/// The stored record of `variant` for the entity `id` of `kind`.
pub fn record(kind: &fundsearch::index::open::Kind, variant: &str, id: Uuid) -> Value {
    let doc = kind
        .ids
        .docid(&id)
        .unwrap_or_else(|| panic!("{id} not in index"));
    serde_json::from_slice(kind.records(variant).unwrap().get(doc)).unwrap()
}
