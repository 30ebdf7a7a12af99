//! Which index the benchmarks read.
//!
//! `FUNDSEARCH_BENCH_INDEX=DIR` names a built index (e.g. the M index). When
//! unset, the S dataset (100,000 companies, seed 7, as-of 2026-11-01) is
//! generated and indexed once into `<target>/bench-data/` and reused by every
//! later run (the build is atomic, so an index with a `manifest.json` is
//! complete; one that no longer opens, e.g. after a format change, is
//! rebuilt). `<target>` is `CARGO_TARGET_DIR` when set, else the crate's
//! `target/`.

use std::env;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use fundsearch::index::build::{build_index, BuildOptions};
use fundsearch::index::Index;
use fundsearch::ingest::generate::{generate, GenerateOptions};
use fundsearch::schema::Date;

pub const S_COMPANIES: u64 = 100_000;
pub const S_SEED: u64 = 7;
pub const AS_OF: &str = "2026-11-01";

fn target_dir() -> PathBuf {
    env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target"))
}

/// Opens (and warms) the benchmark index: `FUNDSEARCH_BENCH_INDEX`, or the
/// default S index, built when missing and rebuilt when it no longer opens
/// (e.g. after an index format change).
pub fn open_index() -> Result<Arc<Index>, String> {
    if let Some(dir) = env::var_os("FUNDSEARCH_BENCH_INDEX") {
        return open(&PathBuf::from(dir));
    }
    let base = target_dir().join("bench-data");
    let index = base.join(format!("s-{S_SEED}-index"));
    if index.join("manifest.json").exists() {
        match open(&index) {
            Ok(opened) => return Ok(opened),
            Err(reason) => eprintln!("bench: {reason}; rebuilding the default index"),
        }
    }
    build_default(&base.join(format!("s-{S_SEED}-dump")), &index)?;
    open(&index)
}

fn open(dir: &Path) -> Result<Arc<Index>, String> {
    let index = Index::open(dir).map_err(|e| format!("opening {}: {e}", dir.display()))?;
    index
        .warm()
        .map_err(|e| format!("warming {}: {e}", dir.display()))?;
    Ok(Arc::new(index))
}

/// Generates the S dump into `dump` and builds it into `index` (replacing
/// what is there).
fn build_default(dump: &Path, index: &Path) -> Result<(), String> {
    let as_of = Date::parse(AS_OF).ok_or_else(|| format!("bad as-of date {AS_OF}"))?;
    eprintln!(
        "bench: generating {S_COMPANIES} companies (seed {S_SEED}) into {}",
        dump.display()
    );
    let started = Instant::now();
    let opts = GenerateOptions {
        companies: S_COMPANIES,
        seed: S_SEED,
        out: dump.to_path_buf(),
        as_of,
        compress: false,
    };
    generate(&opts).map_err(|e| format!("generating {}: {e}", dump.display()))?;
    eprintln!(
        "bench: building {} (dump took {:.1} s)",
        index.display(),
        started.elapsed().as_secs_f64()
    );
    let build = BuildOptions {
        dump: dump.to_path_buf(),
        out: index.to_path_buf(),
        as_of: Some(as_of),
        strict: true,
        quiet: true,
        memory: fundsearch::index::build::DEFAULT_BUILD_MEMORY,
        store_codec: Default::default(),
        semantic: None,
    };
    build_index(&build).map_err(|e| format!("building {}: {e}", index.display()))?;
    Ok(())
}

/// One line describing the index, for the head of every report.
pub fn describe(index: &Index) -> String {
    let c = &index.manifest.counts;
    format!(
        "{} ({} companies, {} deals, {} investors, {} people; {})",
        index.dir.display(),
        c.companies,
        c.deals,
        c.investors,
        c.people,
        index.manifest.dump_source
    )
}
