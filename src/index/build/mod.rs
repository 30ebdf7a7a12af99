//! `indexer build`: dump directory → immutable index directory.
//!
//! 1. load and validate the dump into compact facts (`ingest::load`);
//! 2. derive every aggregate (`ingest::derive`) relative to `as_of`;
//! 3. assign doc ids in default-sort order (`order`);
//! 4. write the per-kind bundles (`bundles`), the record stores (`stores`)
//!    and the tantivy name indexes (`text`), in parallel;
//! 5. write `manifest.json` last, sync, and rename the temporary directory
//!    into place. A crash at any point leaves no partial index under the
//!    final name (at worst a `.building-*` directory next to it).

pub mod bundles;
pub mod embed_cache;
pub mod order;
pub mod progress;
pub mod render;
pub mod stores;
pub mod text;
pub mod vectors;

use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::index::format::{WrittenFile, FORMAT_VERSION};
use crate::index::manifest::{
    checksum_file, list_files, Counts, FileEntry, Manifest, MANIFEST_FORMAT,
};
use crate::index::names::*;
use crate::ingest::{derive::derive, load_dump, IngestError, IngestReport};
use crate::schema::{Date, Timestamp};

use bundles::Inputs;
use progress::Progress;
pub use vectors::{EmbedReport, SemanticOptions};

/// What to build.
#[derive(Debug, Clone)]
pub struct BuildOptions {
    pub dump: PathBuf,
    pub out: PathBuf,
    /// Reference date of "last 12 months" metrics; `None` = today.
    pub as_of: Option<Date>,
    pub strict: bool,
    /// No progress output.
    pub quiet: bool,
    /// Embed company texts for semantic search; `None` builds no vectors.
    pub semantic: Option<SemanticOptions>,
}

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
    let result = build_into(opts, &tmp);
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

fn build_into(opts: &BuildOptions, dir: &Path) -> Result<BuildReport, BuildError> {
    let steps = if opts.semantic.is_some() { 5 } else { 4 };
    let mut progress = Progress::new(steps, opts.quiet);
    progress.start("read dump");
    let loaded = load_dump(&opts.dump, opts.strict).map_err(BuildError::Ingest)?;
    progress.finish("read dump");
    let as_of = opts.as_of.unwrap_or_else(Date::today);
    progress.start("derive aggregates");
    let derived = derive(&loaded.facts, as_of);
    let orders = order::assign_doc_ids(&loaded.facts, &derived);
    progress.finish("derive aggregates");
    let inp = Inputs {
        facts: &loaded.facts,
        derived: &derived,
        orders: &orders,
    };
    let step = "bitmaps, columns, relations, name indexes, record stores";
    progress.start(step);
    let mut tasks = structure_tasks(dir, &inp);
    tasks.extend(store_tasks(dir, &opts.dump, &loaded.kept, &inp));
    let mut files = run_parallel(tasks, opts.quiet)?;
    progress.finish(step);
    let embed = match &opts.semantic {
        Some(semantic) => {
            progress.start("company vectors");
            let (written, report) = vectors::write_company_vectors(
                &dir.join(COMPANY_VECTORS),
                &opts.dump,
                &loaded.kept,
                &inp,
                semantic,
                opts.quiet,
            )
            .map_err(|e| step_err("company vectors")(&e))?;
            files.extend(entries(dir, Ok(vec![written])).map_err(|e| step_err("company vectors")(&e))?);
            progress.finish("company vectors");
            Some(report)
        }
        None => None,
    };
    progress.start("manifest");
    let manifest = manifest_for(files, &loaded.meta.source, as_of, &inp);
    sync_dirs(dir).map_err(|e| step_err("sync")(&e))?;
    manifest.write(dir).map_err(|e| step_err("manifest")(&e))?;
    progress.finish("manifest");
    progress.close();
    let report = BuildReport {
        ingest: loaded.report,
        manifest,
        timings: progress.timings.clone(),
        elapsed: progress.elapsed(),
        embed,
    };
    // Tens of millions of small allocations: free them off the critical path
    // (a CLI exits without waiting for this).
    let (facts, kept) = (loaded.facts, loaded.kept);
    std::thread::spawn(move || drop((facts, kept, derived, orders)));
    Ok(report)
}

/// A writer task: the files it wrote (path relative to the index, bytes, CRC).
type Task<'a> = (
    &'static str,
    Box<dyn FnOnce() -> Result<Vec<FileEntry>, String> + Send + 'a>,
);

/// Runs independent writers in parallel and collects the files they wrote;
/// the first failure wins. Each task's wall time is reported unless `quiet`.
fn run_parallel(tasks: Vec<Task<'_>>, quiet: bool) -> Result<Vec<FileEntry>, BuildError> {
    let failure: Mutex<Option<BuildError>> = Mutex::new(None);
    let written: Mutex<Vec<FileEntry>> = Mutex::new(Vec::new());
    rayon::scope(|s| {
        for (step, task) in tasks {
            let (failure, written) = (&failure, &written);
            s.spawn(move |_| {
                let started = std::time::Instant::now();
                let outcome = task();
                if !quiet {
                    eprintln!("      {step}: {:.2}s", started.elapsed().as_secs_f64());
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
    vec![
        (
            "companies.idx",
            Box::new(move || io(bundles::write_companies(&dir.join(COMPANIES_IDX), inp))),
        ),
        (
            "deals.idx",
            Box::new(move || io(bundles::write_deals(&dir.join(DEALS_IDX), inp))),
        ),
        (
            "investors.idx",
            Box::new(move || io(bundles::write_firms(&dir.join(FIRMS_IDX), inp))),
        ),
        (
            "people.idx",
            Box::new(move || io(bundles::write_people(&dir.join(PEOPLE_IDX), inp))),
        ),
        (
            "catalog.idx",
            Box::new(move || io(bundles::write_catalog(&dir.join(CATALOG_IDX), inp.facts))),
        ),
        (
            "text/companies",
            Box::new(move || {
                tx(
                    text::build_companies(&dir.join(TEXT_DIR).join("companies"), inp),
                    "companies",
                )
            }),
        ),
        (
            "text/investors",
            Box::new(move || {
                tx(
                    text::build_firms(&dir.join(TEXT_DIR).join("investors"), inp),
                    "investors",
                )
            }),
        ),
        (
            "text/people",
            Box::new(move || {
                tx(
                    text::build_people(&dir.join(TEXT_DIR).join("people"), inp),
                    "people",
                )
            }),
        ),
        (
            "text/locations",
            Box::new(move || {
                tx(
                    text::build_locations(&dir.join(TEXT_DIR).join("locations"), inp),
                    "locations",
                )
            }),
        ),
        (
            "text/industries",
            Box::new(move || {
                tx(
                    text::build_industries(&dir.join(TEXT_DIR).join("industries"), inp),
                    "industries",
                )
            }),
        ),
    ]
}

/// Renderers of the record stores (they stream the dump a second time).
fn store_tasks<'a>(
    dir: &'a Path,
    dump: &'a Path,
    kept: &'a crate::ingest::KeptLines,
    inp: &'a Inputs<'a>,
) -> Vec<Task<'a>> {
    vec![
        (
            "deal and company stores",
            Box::new(move || {
                let mut files = entries(dir, stores::write_deal_store(dir, dump, kept, inp))?;
                files.extend(entries(
                    dir,
                    stores::write_company_store(dir, dump, kept, inp),
                )?);
                Ok(files)
            }),
        ),
        (
            "investor stores",
            Box::new(move || entries(dir, stores::write_firm_store(dir, dump, kept, inp))),
        ),
        (
            "person stores",
            Box::new(move || entries(dir, stores::write_person_store(dir, dump, kept, inp))),
        ),
        (
            "catalog stores",
            Box::new(move || entries(dir, stores::write_catalog_store(dir, inp))),
        ),
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
