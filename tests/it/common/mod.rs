//! Shared helpers: paths, the fixture index (built once), record access.

pub mod golden;
pub mod http;
pub mod process;
pub mod script;
/// Throwaway databases on the tests' PostgreSQL (the library's own test support).
#[path = "../../../src/accounts/pg/testdb.rs"]
pub mod testdb;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use fundsearch::api::semantic::SemanticService;
use fundsearch::embed::{CachedEmbedder, Embedder, ModelKind};
use fundsearch::index::build::{build_index, BuildOptions, SemanticOptions};
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

/// Prefix of the tests' scratch directories, followed by the run's process id.
const SCRATCH_PREFIX: &str = "fundsearch-it-";

/// A fresh directory under the system temp dir, unique per test run. The
/// first call of a run removes the scratch directories of runs that have
/// ended ([`sweep_ended_runs`]).
pub fn scratch(name: &str) -> PathBuf {
    static SWEPT: OnceLock<()> = OnceLock::new();
    SWEPT.get_or_init(sweep_ended_runs);
    let dir = std::env::temp_dir().join(format!("{SCRATCH_PREFIX}{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Removes the scratch directories whose run's process is gone: a run
/// leaves its fixtures behind (about 0.6 GB), as no test knows it is the
/// last one.
fn sweep_ended_runs() {
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let run = name.to_str().and_then(|n| n.strip_prefix(SCRATCH_PREFIX));
        let pid = run.and_then(|r| r.split('-').next()?.parse::<u32>().ok());
        let ended = pid.is_some_and(|p| !Path::new("/proc").join(p.to_string()).exists());
        if ended {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// The models folder of the tests, fetched once per run if missing.
pub fn models_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = fundsearch::embed::files::default_models_dir();
        fundsearch::embed::files::fetch(&dir)
            .unwrap_or_else(|e| panic!("fetching the models: {e}"));
        dir
    })
}

/// Models loaded so far.
type Loaded = Mutex<Vec<(ModelKind, Arc<dyn Embedder>)>>;

/// A model, loaded once per test run.
pub fn model(kind: ModelKind) -> Arc<dyn Embedder> {
    static MODELS: OnceLock<Loaded> = OnceLock::new();
    let mut loaded = MODELS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|p| p.into_inner());
    if let Some((_, m)) = loaded.iter().find(|(k, _)| *k == kind) {
        return m.clone();
    }
    let m: Arc<dyn Embedder> = kind
        .load(models_dir())
        .unwrap_or_else(|e| panic!("{e}"))
        .into();
    loaded.push((kind, m.clone()));
    m
}

/// MiniLM behind a query cache, shared by every test server of a run.
pub fn query_embedder() -> Arc<CachedEmbedder> {
    static CACHED: OnceLock<Arc<CachedEmbedder>> = OnceLock::new();
    CACHED
        .get_or_init(|| Arc::new(CachedEmbedder::new(model(ModelKind::MiniLm), 256)))
        .clone()
}

/// The test servers' semantic search: MiniLM, 5 s per search.
pub fn semantic_service() -> SemanticService {
    SemanticService::new(query_embedder(), std::time::Duration::from_secs(5))
}

/// Semantic options of a build with `kind` (no embedding cache).
pub fn semantic(kind: ModelKind) -> Option<SemanticOptions> {
    Some(SemanticOptions {
        embedder: model(kind),
        cache_dir: None,
    })
}

/// Builds `dump` into `out` with the given as-of date (MiniLM vectors).
pub fn build(dump: &Path, out: &Path, as_of: &str) -> fundsearch::index::build::BuildReport {
    build_with(dump, out, as_of, semantic(ModelKind::MiniLm))
}

/// Builds `dump` into `out` with the given as-of date and model.
pub fn build_with(
    dump: &Path,
    out: &Path,
    as_of: &str,
    semantic: Option<SemanticOptions>,
) -> fundsearch::index::build::BuildReport {
    let opts = BuildOptions {
        dump: dump.into(),
        out: out.into(),
        as_of: Date::parse(as_of),
        strict: false,
        quiet: true,
        memory: fundsearch::index::build::DEFAULT_BUILD_MEMORY,
        store_codec: Default::default(),
        semantic,
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
    serde_json::from_slice(&kind.records(variant).unwrap().get(doc).unwrap()).unwrap()
}
