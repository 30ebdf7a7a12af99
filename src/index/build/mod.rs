//! `indexer build`: dump directory → immutable index directory.
//!
//! 1. load and validate the dump into packed facts (`ingest::load`); past
//!    half of the `--memory` budget their chunks spill into
//!    `.NAME.building-PID.spill/` beside the output, removed when the build
//!    ends either way;
//! 2. derive every aggregate (`ingest::derive`) relative to `as_of`; those
//!    of companies and firms are packed like the facts and share their
//!    budget;
//! 3. assign doc ids in default-sort order (`order`);
//! 4. write the per-kind bundles (`bundles`), the record stores (`stores`)
//!    and the tantivy name indexes (`text`), in parallel;
//! 5. write `manifest.json` last, sync, and rename the temporary directory
//!    into place. A crash at any point leaves no partial index under the
//!    final name (at worst `.building-*` directories next to it).
//!
//! Progress goes to stderr through [`crate::progress`] (unless `quiet`):
//! each dump file read, the derivation, and every writer task is a stage
//! with its known total; each step ends with its wall time (`steps`).

pub mod bundles;
pub mod embed_cache;
pub mod order;
pub mod refs;
pub mod render;
pub mod steps;
pub mod stores;
pub mod text;
pub mod vectors;

use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::index::format::{WrittenFile, FORMAT_VERSION};
use crate::index::manifest::{
    checksum_file, list_files, Counts, FileEntry, Manifest, MANIFEST_FORMAT,
};
use crate::index::names::*;
use crate::ingest::packed::SpillBudget;
use crate::ingest::{derive::derive_with_progress, load_dump_spilling, Facts};
use crate::ingest::{IngestError, IngestReport};
use crate::progress::{Counter, Progress, Unit};
use crate::schema::{Date, Timestamp};

use bundles::Inputs;
use steps::Steps;
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
    let tmp = temp_dir_for(&opts.out);
    let _ = fs::remove_dir_all(&tmp);
    fs::create_dir_all(tmp.join(TEXT_DIR)).map_err(|e| step_err("create output")(&e))?;
    let mut spill = tmp.clone().into_os_string();
    spill.push(".spill");
    let spill = PathBuf::from(spill);
    let result = build_into(opts, &tmp, &SpillBudget::new(&spill, opts.memory / 2));
    let _ = fs::remove_dir_all(&spill);
    match result {
        Ok(report) => {
            publish(&tmp, &opts.out).map_err(|e| step_err("publish")(&e))?;
            Ok(report)
        }
        Err(e) => {
            let _ = fs::remove_dir_all(&tmp);
            Err(e)
        }
    }
}

fn build_into(
    opts: &BuildOptions,
    dir: &Path,
    budget: &Arc<SpillBudget>,
) -> Result<BuildReport, BuildError> {
    let progress = Progress::to_stderr(opts.quiet);
    let mut steps = Steps::new(if opts.semantic.is_some() { 5 } else { 4 }, &progress);
    steps.start();
    let loaded = load_dump_spilling(&opts.dump, opts.strict, &progress, Some(budget))
        .map_err(BuildError::Ingest)?;
    steps.finish("read dump");
    progress.note(&facts_note(&loaded.facts));
    let as_of = opts.as_of.unwrap_or_else(Date::today);
    steps.start();
    let derived = derive_with_progress(&loaded.facts, as_of, &progress, Some(budget))
        .map_err(|e| step_err("derive aggregates")(&e))?;
    let orders = order::assign_doc_ids(&loaded.facts, &derived);
    steps.finish("derive aggregates");
    let inp = Inputs {
        facts: &loaded.facts,
        derived: &derived,
        orders: &orders,
    };
    steps.start();
    let refs = Arc::new(refs::EntityRefs::new(&loaded.facts, &orders));
    let mut tasks = structure_tasks(dir, &inp);
    tasks.extend(store_tasks(dir, &opts.dump, &loaded.kept, &inp, &refs));
    let mut files = run_parallel(tasks, &progress)?;
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
                &progress,
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

/// The work of a writer task: it counts its units on the counter and
/// returns the files it wrote (path relative to the index, bytes, CRC).
type Work<'a> = Box<dyn FnOnce(&Counter) -> Result<Vec<FileEntry>, String> + Send + 'a>;

/// A writer task: its name, the units it will count, and its work.
struct Task<'a> {
    name: &'static str,
    total: usize,
    unit: &'static str,
    work: Work<'a>,
}

fn task<'a>(
    name: &'static str,
    (total, unit): (usize, &'static str),
    work: impl FnOnce(&Counter) -> Result<Vec<FileEntry>, String> + Send + 'a,
) -> Task<'a> {
    Task {
        name,
        total,
        unit,
        work: Box::new(work),
    }
}

/// Runs independent writers in parallel and collects the files they wrote;
/// the first failure wins. Each task is a progress stage from its start.
fn run_parallel(tasks: Vec<Task<'_>>, progress: &Progress) -> Result<Vec<FileEntry>, BuildError> {
    let failure: Mutex<Option<BuildError>> = Mutex::new(None);
    let written: Mutex<Vec<FileEntry>> = Mutex::new(Vec::new());
    rayon::scope(|s| {
        for task in tasks {
            let (failure, written) = (&failure, &written);
            s.spawn(move |_| {
                let step = task.name;
                let counter = progress.stage(step, task.total as u64, Unit::Items(task.unit));
                let outcome = (task.work)(&counter);
                if outcome.is_ok() {
                    counter.finish();
                }
                match outcome {
                    Ok(files) => written
                        .lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .extend(files),
                    Err(reason) => {
                        let mut f = failure.lock().unwrap_or_else(|p| p.into_inner());
                        f.get_or_insert(BuildError::Write {
                            step: step.to_string(),
                            reason,
                        });
                    }
                }
            });
        }
    });
    match failure.into_inner().unwrap_or_else(|p| p.into_inner()) {
        Some(e) => Err(e),
        None => Ok(written.into_inner().unwrap_or_else(|p| p.into_inner())),
    }
}

/// Manifest entries of bundles written in `dir` (their CRC was computed while writing).
fn entries(dir: &Path, files: std::io::Result<Vec<WrittenFile>>) -> Result<Vec<FileEntry>, String> {
    let files = files.map_err(|e| e.to_string())?;
    Ok(files
        .into_iter()
        .map(|f| FileEntry {
            path: f
                .path
                .strip_prefix(dir)
                .unwrap_or(&f.path)
                .to_string_lossy()
                .replace('\\', "/"),
            bytes: f.bytes,
            crc32: f.file_crc32,
        })
        .collect())
}

/// Manifest entries of every file below `dir/sub` (name indexes), read back
/// and synced.
fn entries_below(dir: &Path, sub: &str) -> Result<Vec<FileEntry>, String> {
    let root = dir.join(sub);
    let mut out = Vec::new();
    for rel in list_files(&root).map_err(|e| e.to_string())? {
        let full = root.join(&rel);
        let (bytes, crc32) = checksum_file(&full).map_err(|e| e.to_string())?;
        fs::File::open(&full)
            .and_then(|f| f.sync_all())
            .map_err(|e| e.to_string())?;
        out.push(FileEntry {
            path: format!("{sub}/{rel}"),
            bytes,
            crc32,
        });
    }
    Ok(out)
}

/// Writers of the per-kind bundles and name indexes.
fn structure_tasks<'a>(dir: &'a Path, inp: &'a Inputs<'a>) -> Vec<Task<'a>> {
    let io = move |r: std::io::Result<WrittenFile>| entries(dir, r.map(|f| vec![f]));
    let tx = move |r: Result<(), crate::index::text::TextError>, kind: &str| {
        r.map_err(|e| e.to_string())?;
        entries_below(dir, &format!("{TEXT_DIR}/{kind}"))
    };
    let text_dir = move |kind: &str| dir.join(TEXT_DIR).join(kind);
    let (o, catalog) = (inp.orders, &inp.facts.catalog);
    let places = catalog.locations.len();
    let industries = catalog.industries.len();
    vec![
        task("companies.idx", (o.companies.len(), "docs"), move |c| {
            io(bundles::write_companies(&dir.join(COMPANIES_IDX), inp, c))
        }),
        task("deals.idx", (o.deals.len(), "docs"), move |c| {
            io(bundles::write_deals(&dir.join(DEALS_IDX), inp, c))
        }),
        task("investors.idx", (o.firms.len(), "docs"), move |c| {
            io(bundles::write_firms(&dir.join(FIRMS_IDX), inp, c))
        }),
        task("people.idx", (o.people.len(), "docs"), move |c| {
            io(bundles::write_people(&dir.join(PEOPLE_IDX), inp, c))
        }),
        task("catalog.idx", (places + industries, "rows"), move |c| {
            io(bundles::write_catalog(&dir.join(CATALOG_IDX), inp.facts, c))
        }),
        task("text/companies", (o.companies.len(), "names"), move |c| {
            tx(
                text::build_companies(&text_dir("companies"), inp, c),
                "companies",
            )
        }),
        task("text/investors", (o.firms.len(), "names"), move |c| {
            tx(
                text::build_firms(&text_dir("investors"), inp, c),
                "investors",
            )
        }),
        task("text/people", (o.people.len(), "names"), move |c| {
            tx(text::build_people(&text_dir("people"), inp, c), "people")
        }),
        task("text/locations", (places, "names"), move |c| {
            tx(
                text::build_locations(&text_dir("locations"), inp, c),
                "locations",
            )
        }),
        task("text/industries", (industries, "names"), move |c| {
            tx(
                text::build_industries(&text_dir("industries"), inp, c),
                "industries",
            )
        }),
    ]
}

/// Renderers of the record stores (they stream the dump a second time).
fn store_tasks<'a>(
    dir: &'a Path,
    dump: &'a Path,
    kept: &'a crate::ingest::KeptLines,
    inp: &'a Inputs<'a>,
    refs: &'a Arc<refs::EntityRefs>,
) -> Vec<Task<'a>> {
    let (o, catalog) = (inp.orders, &inp.facts.catalog);
    let catalog_rows = catalog.locations.len() + catalog.industries.len();
    vec![
        task(
            "deal and company stores",
            (o.deals.len() + o.companies.len(), "records"),
            move |c| {
                let mut files =
                    entries(dir, stores::write_deal_store(dir, dump, kept, inp, refs, c))?;
                files.extend(entries(
                    dir,
                    stores::write_company_store(dir, dump, kept, inp, refs, c),
                )?);
                Ok(files)
            },
        ),
        task("investor stores", (o.firms.len(), "records"), move |c| {
            entries(dir, stores::write_firm_store(dir, dump, kept, inp, refs, c))
        }),
        task("person stores", (o.people.len(), "records"), move |c| {
            entries(
                dir,
                stores::write_person_store(dir, dump, kept, inp, refs, c),
            )
        }),
        task("catalog stores", (catalog_rows, "records"), move |c| {
            entries(dir, stores::write_catalog_store(dir, inp, c))
        }),
    ]
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

fn temp_dir_for(out: &Path) -> PathBuf {
    let name = out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "index".into());
    out.with_file_name(format!(".{name}.building-{}", std::process::id()))
}

/// Moves the finished directory to `out`, replacing an older index.
fn publish(tmp: &Path, out: &Path) -> std::io::Result<()> {
    if out.exists() {
        let old = tmp.with_extension("old");
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
/// as of `as_of` into a fresh `<tmp>/fundsearch-<name>-<pid>`.
#[cfg(test)]
pub(crate) fn build_fixture(name: &str, as_of: &str) -> std::path::PathBuf {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = std::env::temp_dir().join(format!("fundsearch-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    build_index(&BuildOptions {
        dump: root.join("fixtures/dump"),
        out: out.clone(),
        as_of: crate::schema::Date::parse(as_of),
        strict: true,
        quiet: true,
        memory: DEFAULT_BUILD_MEMORY,
        semantic: None,
    })
    .unwrap();
    out
}
