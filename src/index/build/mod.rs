//! `indexer build`: dump directory → immutable index directory.
//!
//! 1. load and validate the dump into packed facts (`ingest::load`); past
//!    half of the `--memory` budget their chunks spill into
//!    `.NAME.building-PID.spill/` beside the output (`staging`), removed
//!    when the build ends either way;
//! 2. derive every aggregate (`ingest::derive`) relative to `as_of`; those
//!    of companies and firms are packed like the facts and share their
//!    budget;
//! 3. assign doc ids in default-sort order (`order`);
//! 4. write the per-kind bundles (`bundles`), the record stores (`stores`)
//!    and the tantivy name indexes (`text`): the writer tasks (`tasks`),
//!    run in parallel as far as what `--memory` leaves them allows
//!    (`schedule`): the budget less what the process holds when they
//!    start;
//! 5. write `manifest.json` last, sync, and rename the temporary directory
//!    into place. A crash at any point leaves no partial index under the
//!    final name (at worst `.building-*` directories next to it, which the
//!    next build of the same name removes: `staging`).
//!
//! Progress goes to stderr through [`crate::progress`] (unless `quiet`):
//! each dump file read, the derivation, and every writer task is a stage
//! with its known total; each step ends with its wall time (`steps`).

pub mod bundles;
pub mod embed_cache;
pub mod order;
pub mod refs;
pub mod render;
pub mod schedule;
pub mod staging;
pub mod steps;
pub mod stores;
pub mod tasks;
pub mod text;
pub mod vectors;

use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::index::format::FORMAT_VERSION;
use crate::index::manifest::{Counts, FileEntry, Manifest, MANIFEST_FORMAT};
use crate::index::names::*;
use crate::index::store::StoreCodec;
use crate::ingest::packed::SpillBudget;
use crate::ingest::{derive::derive_with_progress, load_dump_spilling, Facts};
use crate::ingest::{IngestError, IngestReport};
use crate::progress::memory::resident_bytes;
use crate::progress::Progress;
use crate::schema::{Date, Timestamp};
use staging::Staging;

use bundles::Inputs;
use steps::Steps;
use tasks::entries;
pub use vectors::{EmbedReport, SemanticOptions};

/// What to build.
#[derive(Debug, Clone)]
pub struct BuildOptions {
    pub dump: PathBuf,
    pub out: PathBuf,
    /// Reference date of "last 12 months" metrics; `None` = today.
    pub as_of: Option<Date>,
    pub strict: bool,
    /// No progress output on stderr.
    pub quiet: bool,
    /// Embed company texts for semantic search; `None` builds no vectors.
    pub semantic: Option<SemanticOptions>,
    /// Memory budget in bytes: the dump's facts and the derived aggregates
    /// hold at most half of it in memory and spill the rest to disk beside
    /// the output (see `ingest::packed`).
    pub memory: u64,
    /// How the record stores keep their records (`--store-compression`).
    pub store_codec: StoreCodec,
}

/// `--memory` when not given.
pub const DEFAULT_BUILD_MEMORY: u64 = 4 << 30;

/// What a build did.
#[derive(Debug, Clone)]
pub struct BuildReport {
    pub ingest: IngestReport,
    pub manifest: Manifest,
    pub timings: Vec<(String, std::time::Duration)>,
    pub elapsed: std::time::Duration,
    /// What embedding did, when the build has a model.
    pub embed: Option<EmbedReport>,
}

#[derive(Debug)]
pub enum BuildError {
    Ingest(IngestError),
    Write { step: String, reason: String },
    OutputExists(PathBuf),
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::Ingest(e) => write!(f, "{e}"),
            BuildError::Write { step, reason } => write!(f, "{step}: {reason}"),
            BuildError::OutputExists(p) => write!(
                f,
                "{} exists and is not an index directory; refusing to replace it",
                p.display()
            ),
        }
    }
}

impl std::error::Error for BuildError {}

fn step_err(step: &str) -> impl Fn(&dyn fmt::Display) -> BuildError + '_ {
    move |e| BuildError::Write {
        step: step.to_string(),
        reason: e.to_string(),
    }
}

/// Builds the index described by `opts`.
pub fn build_index(opts: &BuildOptions) -> Result<BuildReport, BuildError> {
    check_output(&opts.out)?;
    let progress = Progress::to_stderr(opts.quiet);
    for stale in staging::sweep_stale(&opts.out) {
        progress.note(&stale.to_string());
    }
    let staging = Staging::for_output(&opts.out);
    let tmp = &staging.dir;
    let _ = fs::remove_dir_all(tmp);
    fs::create_dir_all(tmp.join(TEXT_DIR)).map_err(|e| step_err("create output")(&e))?;
    let budget = SpillBudget::new(&staging.spill, opts.memory / 2);
    let result = build_into(opts, tmp, &budget, &progress);
    let _ = fs::remove_dir_all(&staging.spill);
    match result {
        Ok(report) => {
            publish(tmp, &opts.out).map_err(|e| step_err("publish")(&e))?;
            Ok(report)
        }
        Err(e) => {
            let _ = fs::remove_dir_all(tmp);
            Err(e)
        }
    }
}

fn build_into(
    opts: &BuildOptions,
    dir: &Path,
    budget: &Arc<SpillBudget>,
    progress: &Progress,
) -> Result<BuildReport, BuildError> {
    let mut steps = Steps::new(if opts.semantic.is_some() { 5 } else { 4 }, progress);
    steps.start();
    let loaded = load_dump_spilling(&opts.dump, opts.strict, progress, Some(budget))
        .map_err(BuildError::Ingest)?;
    steps.finish("read dump");
    progress.note(&facts_note(&loaded.facts));
    let as_of = opts.as_of.unwrap_or_else(Date::today);
    steps.start();
    let mut derived = derive_with_progress(&loaded.facts, as_of, progress, Some(budget))
        .map_err(|e| step_err("derive aggregates")(&e))?;
    let orders = order::assign_doc_ids(&loaded.facts, &mut derived);
    steps.finish("derive aggregates");
    let inp = Inputs {
        facts: &loaded.facts,
        derived: &derived,
        orders: &orders,
        store_codec: opts.store_codec,
    };
    steps.start();
    let refs = Arc::new(refs::EntityRefs::new(&loaded.facts, &orders));
    let tasks = tasks::writer_tasks(dir, &opts.dump, &loaded.kept, &inp, &refs);
    let budget = writer_budget(opts.memory, &loaded.facts);
    progress.note(&format!(
        "  writers: {} MB of the memory budget left for them",
        budget >> 20
    ));
    let mut files =
        tasks::run_tasks(tasks, budget, progress).map_err(|(step, reason)| BuildError::Write {
            step: step.to_string(),
            reason,
        })?;
    drop(refs);
    steps.finish("bitmaps, columns, relations, name indexes, record stores");
    let embed = match &opts.semantic {
        Some(semantic) => {
            steps.start();
            let (written, report) = vectors::write_company_vectors(
                &dir.join(COMPANY_VECTORS),
                &opts.dump,
                &loaded.kept,
                &inp,
                semantic,
                progress,
            )
            .map_err(|e| step_err("company vectors")(&e))?;
            files.extend(
                entries(dir, Ok(vec![written])).map_err(|e| step_err("company vectors")(&e))?,
            );
            steps.finish("company vectors");
            Some(report)
        }
        None => None,
    };
    steps.start();
    let manifest = manifest_for(files, &loaded.meta.source, as_of, &inp);
    sync_dirs(dir).map_err(|e| step_err("sync")(&e))?;
    manifest.write(dir).map_err(|e| step_err("manifest")(&e))?;
    steps.finish("manifest");
    let report = BuildReport {
        ingest: loaded.report,
        manifest,
        timings: steps.timings.clone(),
        elapsed: steps.elapsed(),
        embed,
    };
    // Tens of millions of small allocations: free them off the critical path
    // (a CLI exits without waiting for this).
    let (facts, kept) = (loaded.facts, loaded.kept);
    std::thread::spawn(move || drop((facts, kept, derived, orders)));
    Ok(report)
}

/// What the writers may hold at once: `--memory` less what the process
/// holds when they start (the facts, the aggregates, the doc-id orders),
/// as the kernel counts it, or the facts' packed size off Linux.
fn writer_budget(memory: u64, facts: &Facts) -> u64 {
    let held = resident_bytes().unwrap_or_else(|| facts.packed_bytes().0);
    memory.saturating_sub(held)
}

/// `  facts: 812 MB packed, 300 MB of it spilled`.
fn facts_note(facts: &Facts) -> String {
    let mb = |b: u64| b.div_ceil(1 << 20);
    let (packed, spilled) = facts.packed_bytes();
    format!(
        "  facts: {} MB packed, {} MB of it spilled",
        mb(packed),
        mb(spilled)
    )
}

fn manifest_for(mut files: Vec<FileEntry>, source: &str, as_of: Date, inp: &Inputs) -> Manifest {
    files.sort_by(|a, b| a.path.cmp(&b.path));
    let facts = inp.facts;
    Manifest {
        format: MANIFEST_FORMAT.into(),
        format_version: FORMAT_VERSION,
        as_of: as_of.iso(),
        built_at: Timestamp(chrono::Utc::now().timestamp_millis()).iso(),
        builder: format!("fundsearch indexer {}", env!("CARGO_PKG_VERSION")),
        dump_source: source.to_string(),
        counts: Counts {
            companies: facts.companies.len() as u64,
            deals: facts.deals.len() as u64,
            investors: facts.firms.len() as u64,
            people: facts.people.len() as u64,
            locations: facts.catalog.locations.len() as u64,
            industries: facts.catalog.industries.len() as u64,
        },
        files,
    }
}

/// `out` may be absent, or an existing index (which is replaced).
fn check_output(out: &Path) -> Result<(), BuildError> {
    if out.exists() && !(out.join(MANIFEST_FILE).is_file() || is_empty_dir(out)) {
        return Err(BuildError::OutputExists(out.to_path_buf()));
    }
    Ok(())
}

fn is_empty_dir(p: &Path) -> bool {
    fs::read_dir(p)
        .map(|mut d| d.next().is_none())
        .unwrap_or(false)
}

/// Moves the finished directory to `out`, replacing an older index.
fn publish(tmp: &Path, out: &Path) -> std::io::Result<()> {
    if out.exists() {
        let old = staging::old_for(tmp);
        fs::rename(out, &old)?;
        fs::rename(tmp, out)?;
        fs::remove_dir_all(&old)?;
    } else {
        fs::rename(tmp, out)?;
    }
    if let Some(parent) = out.parent() {
        let _ = fs::File::open(parent).and_then(|d| d.sync_all());
    }
    Ok(())
}

/// fsyncs `dir` and its subdirectories (every file was synced when written).
fn sync_dirs(dir: &Path) -> std::io::Result<()> {
    for entry in fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            sync_dirs(&path)?;
        }
    }
    fs::File::open(dir)?.sync_all()
}

/// Test support: the hand-written fixture dump (`fixtures/dump`) built
/// as of `as_of` into a fresh `<tmp>/fundsearch-<name>-<pid>-<n>`, `n`
/// counting the calls: tests run in parallel threads of one process, and
/// two building the same fixture into one folder had failed each other.
#[cfg(test)]
pub(crate) fn build_fixture(name: &str, as_of: &str) -> std::path::PathBuf {
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = std::env::temp_dir().join(format!("fundsearch-{name}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    build_index(&BuildOptions {
        dump: root.join("fixtures/dump"),
        out: out.clone(),
        as_of: crate::schema::Date::parse(as_of),
        strict: true,
        quiet: true,
        memory: DEFAULT_BUILD_MEMORY,
        store_codec: Default::default(),
        semantic: None,
    })
    .unwrap();
    out
}
