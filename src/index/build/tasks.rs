//! The build's writer tasks (step 4): one per bundle, name index and
//! record store, each with the bytes it holds at its peak, estimated from
//! its input sizes, for the scheduler (`schedule`) to keep the heavy ones
//! apart within `--memory`.
//!
//! The estimates were fitted on the tasks run one at a time at S (100,000
//! companies, 249,093 deals, 299,513 people; the kernel's peak resident
//! reset before each task): the people bundle held 43 MB (93 MB before it
//! was written in passes), the company bundle 30 MB, the deal bundle 26 MB,
//! the people's name index 160–190 MB and the companies' 103–109 MB (the
//! tantivy heap fills up to its 200 MB), the deal and company stores 275 MB
//! and the person stores 295 MB (a store holds its dictionary's training
//! sample, up to 128 MB, and its buffers; 530–550 MB before the sample was
//! held once).
//!
//! Since 2026-11-27 what a bundle writer or a name index collects stops
//! growing with its documents: relations, columns and folded names go to
//! scratch files as they come, key maps, UUID maps, name ranks and large
//! facets are sorted on disk (`index::scratch`, `index::relation_builder`).
//! So a bundle's estimate is its per-doc fill up to a cap (the sum of its
//! sorters' and facet maps' limits), plus the 12 bytes a doc of the one
//! column it sorts at a time.

use std::fs;
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard};

use crate::index::format::WrittenFile;
use crate::index::manifest::{checksum_file, list_files, FileEntry};
use crate::index::names::*;
use crate::index::store::TRAIN_BYTES;
use crate::index::text::WRITER_HEAP_BYTES;
use crate::progress::{Counter, Progress, Unit};

use super::bundles::{self, Inputs};
use super::schedule::{run_within, Sized};
use super::{refs, stores, text};

/// The work of a writer task: it counts its units on the counter and
/// returns the files it wrote (path relative to the index, bytes, CRC).
type Work<'a> = Box<dyn FnOnce(&Counter) -> Result<Vec<FileEntry>, String> + Send + 'a>;

/// A writer task: its name, the units it will count, the bytes it holds
/// at its peak (estimated), and its work.
pub struct Task<'a> {
    name: &'static str,
    total: usize,
    unit: &'static str,
    bytes: u64,
    work: Work<'a>,
}

fn task<'a>(
    name: &'static str,
    (total, unit): (usize, &'static str),
    bytes: u64,
    work: impl FnOnce(&Counter) -> Result<Vec<FileEntry>, String> + Send + 'a,
) -> Task<'a> {
    Task {
        name,
        total,
        unit,
        bytes,
        work: Box::new(work),
    }
}

/// Bytes a bundle writer fills per document of its kind until its sorters
/// and facet maps reach their limits. Firms were too few at S to measure;
/// they are counted as companies.
const COMPANY_BUNDLE_BYTES: u64 = 320;
const DEAL_BUNDLE_BYTES: u64 = 110;
const PERSON_BUNDLE_BYTES: u64 = 150;

/// The most a bundle writer's sorters and facet maps hold together: the
/// company bundle's seven facets (32 MB of map and 16 MB of sorter each)
/// and six sorters of 32 MB (four key maps, the UUID map or the name
/// ranks, the people by employer) are about 530 MB.
const BUNDLE_CAP_BYTES: u64 = 544 << 20;

/// Bytes a doc of the column being sorted (an `i64` and its place in the
/// sort order).
const SORTED_COLUMN_BYTES: u64 = 12;

/// A bundle writer over `docs` documents filling `fill` bytes a doc.
fn bundle_bytes(fill: u64, docs: usize) -> u64 {
    let n = docs as u64;
    (fill * n).min(BUNDLE_CAP_BYTES) + SORTED_COLUMN_BYTES * n
}

/// A name index of `names` entries: tantivy's buffers, its heap as it
/// fills (about 480 bytes a name up to the heap's size), and the sorter of
/// the folded names kept for `names.bin` (about 48 bytes a name up to its
/// 32 MB).
fn name_index_bytes(names: usize) -> u64 {
    let n = names as u64;
    (64 << 20) + (480 * n).min(WRITER_HEAP_BYTES as u64) + (48 * n).min(32 << 20)
}

/// Record stores written one variant after another (`variants` at once):
/// each holds its training sample (records of about 2 KB, up to
/// `TRAIN_BYTES`) and about as much again in rendering and compression
/// buffers, and 8 bytes of offset a record.
fn store_bytes(records: usize, variants: u64) -> u64 {
    let n = records as u64;
    let sample = (n * 2048).min(TRAIN_BYTES as u64);
    (sample * 23 / 10) * variants + 8 * n
}

/// Runs the tasks, as many at once as the rayon pool has threads and
/// their estimates fit `budget` bytes, each a progress stage from its
/// start; returns the files they wrote, or the first failure as (task,
/// reason).
pub fn run_tasks(
    tasks: Vec<Task<'_>>,
    budget: u64,
    progress: &Progress,
) -> Result<Vec<FileEntry>, (&'static str, String)> {
    let failure = Mutex::new(None);
    let written = Mutex::new(Vec::new());
    let sized = tasks
        .into_iter()
        .map(|t| Sized {
            bytes: t.bytes,
            item: t,
        })
        .collect();
    run_within(sized, budget, rayon::current_num_threads(), |task| {
        let counter = progress.stage(task.name, task.total as u64, Unit::Items(task.unit));
        match (task.work)(&counter) {
            Ok(files) => {
                counter.finish();
                lock(&written).extend(files);
            }
            Err(reason) => {
                lock(&failure).get_or_insert((task.name, reason));
            }
        }
    });
    match failure.into_inner().unwrap_or_else(|p| p.into_inner()) {
        Some(e) => Err(e),
        None => Ok(written.into_inner().unwrap_or_else(|p| p.into_inner())),
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Every writer of step 4, the longest first: record stores, bundles and
/// name indexes.
pub fn writer_tasks<'a>(
    dir: &'a Path,
    dump: &'a Path,
    kept: &'a crate::ingest::KeptLines,
    inp: &'a Inputs<'a>,
    refs: &'a Arc<refs::EntityRefs>,
) -> Vec<Task<'a>> {
    let mut tasks = store_tasks(dir, dump, kept, inp, refs);
    tasks.extend(structure_tasks(dir, inp));
    tasks
}

/// Manifest entries of bundles written in `dir` (their CRC was computed while writing).
pub fn entries(
    dir: &Path,
    files: std::io::Result<Vec<WrittenFile>>,
) -> Result<Vec<FileEntry>, String> {
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

/// A name index builder of `text`.
type BuildNames = fn(&Path, &Inputs, &Counter) -> Result<(), crate::index::text::TextError>;

/// Writers of the per-kind bundles and name indexes.
fn structure_tasks<'a>(dir: &'a Path, inp: &'a Inputs<'a>) -> Vec<Task<'a>> {
    let io = move |r: std::io::Result<WrittenFile>| entries(dir, r.map(|f| vec![f]));
    let name_task =
        move |name: &'static str, kind: &'static str, names: usize, build: BuildNames| {
            task(name, (names, "names"), name_index_bytes(names), move |c| {
                build(&dir.join(TEXT_DIR).join(kind), inp, c).map_err(|e| e.to_string())?;
                entries_below(dir, &format!("{TEXT_DIR}/{kind}"))
            })
        };
    let (o, catalog) = (inp.orders, &inp.facts.catalog);
    let places = catalog.locations.len();
    let industries = catalog.industries.len();
    vec![
        task(
            "people.idx",
            (o.people.len() * bundles::PERSON_PASSES, "rows"),
            bundle_bytes(PERSON_BUNDLE_BYTES, o.people.len()),
            move |c| io(bundles::write_people(&dir.join(PEOPLE_IDX), inp, c)),
        ),
        task(
            "companies.idx",
            (o.companies.len(), "docs"),
            bundle_bytes(COMPANY_BUNDLE_BYTES, o.companies.len()),
            move |c| io(bundles::write_companies(&dir.join(COMPANIES_IDX), inp, c)),
        ),
        task(
            "deals.idx",
            (o.deals.len(), "docs"),
            bundle_bytes(DEAL_BUNDLE_BYTES, o.deals.len()),
            move |c| io(bundles::write_deals(&dir.join(DEALS_IDX), inp, c)),
        ),
        task(
            "investors.idx",
            (o.firms.len(), "docs"),
            bundle_bytes(COMPANY_BUNDLE_BYTES, o.firms.len()),
            move |c| io(bundles::write_firms(&dir.join(FIRMS_IDX), inp, c)),
        ),
        task(
            "catalog.idx",
            (places + industries, "rows"),
            bundle_bytes(COMPANY_BUNDLE_BYTES, places + industries),
            move |c| io(bundles::write_catalog(&dir.join(CATALOG_IDX), inp.facts, c)),
        ),
        name_task(
            "text/companies",
            "companies",
            o.companies.len(),
            text::build_companies,
        ),
        name_task(
            "text/investors",
            "investors",
            o.firms.len(),
            text::build_firms,
        ),
        name_task("text/people", "people", o.people.len(), text::build_people),
        name_task("text/locations", "locations", places, text::build_locations),
        name_task(
            "text/industries",
            "industries",
            industries,
            text::build_industries,
        ),
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
            store_bytes(o.deals.len().max(o.companies.len()), 1),
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
        task(
            "investor stores",
            (o.firms.len(), "records"),
            store_bytes(o.firms.len(), 2),
            move |c| entries(dir, stores::write_firm_store(dir, dump, kept, inp, refs, c)),
        ),
        task(
            "person stores",
            (o.people.len(), "records"),
            store_bytes(o.people.len(), 1),
            move |c| {
                entries(
                    dir,
                    stores::write_person_store(dir, dump, kept, inp, refs, c),
                )
            },
        ),
        task(
            "catalog stores",
            (catalog_rows, "records"),
            store_bytes(catalog_rows, 2),
            move |c| entries(dir, stores::write_catalog_store(dir, inp, c)),
        ),
    ]
}
