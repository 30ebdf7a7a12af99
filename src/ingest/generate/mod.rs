//! The deterministic synthetic dump generator (`indexer generate`), plus the
//! test tooling that proves dumps — generated ones and the hand-written
//! `fixtures/dump/` — obey the canonical dump rules.
//!
//! # Shape (performance.md §4.2)
//!
//! For N companies: about N/20 investor firms, 2.5 N deals and 3 N people
//! (founders, executives and employees of companies, partners and staff of
//! firms, pure angels). Distributions are skewed and calibrated on the real
//! data in `shared/data/` (see `calibration.rs`, `data/places.txt`,
//! `data/industries.txt`): ~45 % US with SF / NYC / London / Bangalore on top,
//! ~40 super categories over ~280 industries, headcount skewed small, rounds
//! per company geometric on 0..=10, seed and Series A heavy with a tail to
//! Series M, log-normal sizes per round type, Zipf over firms and angels.
//!
//! # Determinism
//!
//! The same options give the same bytes. Every entity draws from its own
//! random stream keyed by (seed, purpose, index) — see `rng.rs` — and every
//! id is `uuid5(kind, "gen:<seed>:<key>")`. Entities are generated in
//! parallel batches (rayon) and written in index order, so thread count and
//! batch size never show in the output.
//!
//! # Passes
//!
//! Files are written in read order, each pass leaving in memory only the
//! facts later passes need ([`world::World`]): places and industries →
//! companies (permalink ranks found in bounded memory, then rows written in
//! batches) → firms → people (company people, firm people, pure angels) →
//! deals.
//!
//! # Memory
//!
//! No pass holds every company: a company's facts are drawn again from its
//! index wherever a later pass needs them (its people, their former
//! employers, its deals). What grows with the run is small: the permalink
//! ranks of companies whose name repeats, the firms (one per twenty
//! companies) and the angel pool.
//!
//! # Progress
//!
//! Every count is known up front, so each pass is a progress stage with its
//! total: `company permalinks` (names drawn, once per hash range),
//! `companies`, `investors`, `people of companies` (companies done),
//! `people of firms`, `angels`, `deals of companies` (companies done);
//! counted per written batch.

mod calibration;
mod companies;
mod deals;
mod firms;
mod names;
mod people;
mod permalinks;
mod places;
pub mod rng;
mod taxonomy;
mod text;
mod vocab;
mod weighted;
mod world;

#[cfg(test)]
pub(crate) mod check;
#[cfg(test)]
mod fixture;
#[cfg(test)]
mod tests;

use std::fmt;
use std::io;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::ingest::write::{DumpCounts, DumpWriter};
use crate::progress::{Counter, Progress, Unit};
use crate::schema::{Date, DumpMeta};

use deals::DealContext;
use world::World;

/// What to generate and where.
#[derive(Debug, Clone)]
pub struct GenerateOptions {
    /// Number of companies; every other count follows from it.
    pub companies: u64,
    pub seed: u64,
    /// The dump directory to create (existing dump files are replaced).
    pub out: PathBuf,
    /// The "today" of the data set: no date is later, and dump.json suggests it.
    pub as_of: Date,
    /// Write each file compressed (`*.jsonl.zst`).
    pub compress: bool,
}

/// Rows written per kind and the time it took.
#[derive(Debug, Clone, Copy)]
pub struct GenerateReport {
    pub counts: DumpCounts,
    pub elapsed: Duration,
}

impl fmt::Display for GenerateReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = &self.counts;
        write!(
            f,
            "generated {} locations, {} industries, {} companies, {} investors, {} people, {} deals in {:.1} s",
            c.locations,
            c.industries,
            c.companies,
            c.investors,
            c.people,
            c.deals,
            self.elapsed.as_secs_f64()
        )
    }
}

/// Entities generated in parallel before a batch is written.
const BATCH: usize = 8_192;

/// How many firms and pure angels go with a number of companies.
struct Sizes {
    companies: usize,
    firms: usize,
    pure_angels: usize,
}

impl Sizes {
    fn for_companies(companies: u64) -> io::Result<Sizes> {
        let companies = u32::try_from(companies).map(|n| n as usize).map_err(|_| {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                "at most 4294967295 companies can be generated",
            )
        })?;
        let scaled = |divisor: usize| {
            if companies == 0 {
                0
            } else {
                (companies / divisor).max(5)
            }
        };
        Ok(Sizes {
            companies,
            firms: scaled(20),
            pure_angels: scaled(33),
        })
    }
}

/// Generates a complete dump; see the module documentation.
pub fn generate(opts: &GenerateOptions) -> io::Result<GenerateReport> {
    generate_with_progress(opts, &Progress::silent())
}

/// [`generate`], reporting each pass on `progress`.
pub fn generate_with_progress(
    opts: &GenerateOptions,
    progress: &Progress,
) -> io::Result<GenerateReport> {
    let started = Instant::now();
    let sizes = Sizes::for_companies(opts.companies)?;
    let mut world = World::new(opts.seed, opts.as_of);
    let source = format!(
        "generate --companies {} --seed {}",
        opts.companies, opts.seed
    );
    let meta = DumpMeta::new(source, Some(opts.as_of));
    let mut out = DumpWriter::create_as(&opts.out, &meta, opts.compress)?;
    world
        .places
        .rows
        .iter()
        .try_for_each(|row| out.location(row))?;
    world
        .taxonomy
        .rows()
        .iter()
        .try_for_each(|row| out.industry(row))?;
    write_companies(&mut world, sizes.companies, &mut out, progress)?;
    write_firms(&mut world, sizes.firms, &mut out, progress)?;
    write_people(&world, sizes.pure_angels, &mut out, progress)?;
    let context = DealContext::new(&world, people::angel_pool(&world, sizes.pure_angels));
    let counter = stage(progress, "deals of companies", sizes.companies, "companies");
    in_batches(
        sizes.companies,
        &counter,
        |n| deals::company_deals(&context, n),
        |rows| rows.iter().try_for_each(|row| out.deal(row)),
    )?;
    counter.finish();
    Ok(GenerateReport {
        counts: out.finish()?,
        elapsed: started.elapsed(),
    })
}

fn stage(progress: &Progress, name: &str, total: usize, unit: &'static str) -> Counter {
    progress.stage(name, total as u64, Unit::Items(unit))
}

fn write_companies(
    world: &mut World,
    count: usize,
    out: &mut DumpWriter,
    progress: &Progress,
) -> io::Result<()> {
    let ranges = permalinks::Permalinks::ranges(count) as usize;
    let drawn = stage(progress, "company permalinks", count * ranges, "names");
    world.permalinks = companies::permalinks(world, count, &drawn);
    drawn.finish();
    world.companies = count;
    let counter = stage(progress, "companies", count, "companies");
    in_batches(
        count,
        &counter,
        |n| companies::row(world, n, &companies::plan(world, n)),
        |row| out.company(&row),
    )?;
    counter.finish();
    Ok(())
}

fn write_firms(
    world: &mut World,
    count: usize,
    out: &mut DumpWriter,
    progress: &Progress,
) -> io::Result<()> {
    let counter = stage(progress, "investors", count, "firms");
    world.firms = firms::plan_all(world, count);
    for (f, firm) in world.firms.iter().enumerate() {
        out.firm(&firms::row(world, f, firm, count))?;
        counter.inc(1);
    }
    counter.finish();
    Ok(())
}

fn write_people(
    world: &World,
    pure_angels: usize,
    out: &mut DumpWriter,
    progress: &Progress,
) -> io::Result<()> {
    let mut write =
        |rows: Vec<crate::schema::PersonRow>| rows.iter().try_for_each(|row| out.person(row));
    let (companies, firms) = (world.companies, world.firms.len());
    let counter = stage(progress, "people of companies", companies, "companies");
    in_batches(
        companies,
        &counter,
        |n| people::company_people(world, n),
        &mut write,
    )?;
    counter.finish();
    let counter = stage(progress, "people of firms", firms, "firms");
    in_batches(
        firms,
        &counter,
        |f| people::firm_people(world, f),
        &mut write,
    )?;
    counter.finish();
    let counter = stage(progress, "angels", pure_angels, "angels");
    in_batches(
        pure_angels,
        &counter,
        |a| vec![people::pure_angel(world, a)],
        &mut write,
    )?;
    counter.finish();
    Ok(())
}

/// Makes items `0..count` in parallel batches and hands them to `write` in
/// order; batch `i + 1` is made while batch `i` is written. Each written
/// batch is counted on `counter`.
fn in_batches<T: Send>(
    count: usize,
    counter: &Counter,
    make: impl Fn(usize) -> T + Sync,
    mut write: impl FnMut(T) -> io::Result<()> + Send,
) -> io::Result<()> {
    let batch = |start: usize| -> Vec<T> {
        (start..(start + BATCH).min(count))
            .into_par_iter()
            .map(&make)
            .collect()
    };
    let mut current = batch(0);
    let mut start = 0;
    while !current.is_empty() {
        start += BATCH;
        let made = current.len() as u64;
        let (written, next) = rayon::join(
            || current.into_iter().try_for_each(&mut write),
            || {
                if start < count {
                    batch(start)
                } else {
                    Vec::new()
                }
            },
        );
        written?;
        counter.inc(made);
        current = next;
    }
    Ok(())
}
