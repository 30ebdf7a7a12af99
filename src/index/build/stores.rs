//! Renders the record stores by streaming the dump a second time (only the
//! facts were kept in memory), rendering rows in parallel and writing them
//! under their doc ids. Rows rejected while loading are skipped by line.
//! Each writer counts the records it stores on its progress counter. JSON
//! records are stored with UUID references ([`EntityRefs`]).

use std::io;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use crate::index::format::{Bundle, WrittenFile};
use crate::index::names::*;
use crate::index::store::refs::RefKind;
use crate::index::store::{Store, StoreCodec, StoreWriter, DICT_DEFAULT, DICT_MAX, STORE_TAG};

use super::refs::EntityRefs;

/// The store files of one kind, one per variant, filled together.
pub struct Variants {
    writers: Vec<StoreWriter>,
}

impl Variants {
    /// The stores of `kind`'s `variants` of `docs` records kept by
    /// `codec`; those of JSON records make references with `refs`, if
    /// given (with the kind they are of).
    pub fn create(
        dir: &Path,
        kind: &str,
        variants: &[&str],
        docs: usize,
        codec: StoreCodec,
        refs: Option<(&Arc<EntityRefs>, RefKind)>,
    ) -> io::Result<Variants> {
        let writer = |v: &&str| {
            let writer = StoreWriter::create(&dir.join(store_file(kind, v)), v, docs)?;
            let writer = writer
                .with_codec(codec)
                .with_dictionary_max(dictionary_max(kind, v));
            Ok(match refs {
                Some((refs, of)) if !TEXT_STORES.contains(v) => {
                    writer.with_references(refs.clone(), of)
                }
                _ => writer,
            })
        };
        let writers = variants.iter().map(writer).collect::<io::Result<_>>()?;
        Ok(Variants { writers })
    }

    pub fn set(&mut self, variant: usize, doc: u32, record: &[u8]) -> io::Result<()> {
        self.writers[variant].set(doc, record)
    }

    pub fn finish(self) -> io::Result<Vec<WrittenFile>> {
        self.writers.into_iter().map(StoreWriter::finish).collect()
    }
}

/// The largest dictionary of `kind`'s `variant` store ([`LARGE_DICTIONARY_STORES`]).
fn dictionary_max(kind: &str, variant: &str) -> usize {
    match LARGE_DICTIONARY_STORES.contains(&(kind, variant)) {
        true => DICT_MAX,
        false => DICT_DEFAULT,
    }
}

use crate::ingest::dump_file::locate;
use crate::ingest::load::KeptLines;
use crate::ingest::scan::scan_jsonl_map;
use crate::progress::Counter;
use crate::schema::record::{DealRecord, IndustryCard, LatestDealRecord, LocationCard};
use crate::schema::{CompanyRow, DealRow, FirmRow, PersonRow};

use super::bundles::Inputs;
use super::render;

/// Renders one dump file into `store`: `render(row_number, row)` returns the
/// doc id and one record per variant.
fn render_file<R, F>(
    dump: &Path,
    file: &'static str,
    kept: &KeptLines,
    store: &mut Variants,
    counter: &Counter,
    render: F,
) -> io::Result<()>
where
    R: serde::de::DeserializeOwned + Send,
    F: Fn(u32, R) -> io::Result<(u32, Vec<Vec<u8>>)> + Sync,
{
    let mut result = Ok(());
    let mut tally = counter.tally();
    scan_jsonl_map::<R, Option<io::Result<(u32, Vec<Vec<u8>>)>>, _, _>(
        &locate(dump, file)?,
        &Counter::hidden(),
        |line, parsed| {
            let row = kept.row_of_line(file, line)?;
            Some(match parsed {
                Ok(r) => render(row, r),
                Err(e) => Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("{file}:{line}: {e}"),
                )),
            })
        },
        |_, rendered| {
            if let (Some(outcome), Ok(())) = (rendered, &result) {
                tally.inc();
                result = outcome.and_then(|(doc, records)| {
                    records
                        .iter()
                        .enumerate()
                        .try_for_each(|(v, bytes)| store.set(v, doc, bytes))
                });
            }
        },
    )?;
    result
}

fn json<T: serde::Serialize>(value: &T) -> io::Result<Vec<u8>> {
    serde_json::to_vec(value).map_err(io::Error::other)
}

pub fn write_deal_store(
    dir: &Path,
    dump: &Path,
    kept: &KeptLines,
    inp: &Inputs,
    refs: &Arc<EntityRefs>,
    counter: &Counter,
) -> io::Result<Vec<WrittenFile>> {
    let mut store = Variants::create(
        dir,
        DEALS,
        DEAL_STORES,
        inp.orders.deals.len(),
        inp.store_codec,
        Some((refs, RefKind::Deal)),
    )?;
    render_file::<DealRow, _>(dump, "deals.jsonl", kept, &mut store, counter, |row, r| {
        Ok((
            inp.orders.deals.doc(row),
            vec![json(&render::deal_record(&r))?],
        ))
    })?;
    store.finish()
}

pub fn write_company_store(
    dir: &Path,
    dump: &Path,
    kept: &KeptLines,
    inp: &Inputs,
    refs: &Arc<EntityRefs>,
    counter: &Counter,
) -> io::Result<Vec<WrittenFile>> {
    let latest_deals = LatestDeals::open(dir, inp, refs)?;
    let companies = inp.orders.companies.len();
    let mut store = Variants::create(
        dir,
        COMPANIES,
        COMPANY_STORES,
        companies,
        inp.store_codec,
        Some((refs, RefKind::Company)),
    )?;
    render_file::<CompanyRow, _>(
        dump,
        "companies.jsonl",
        kept,
        &mut store,
        counter,
        |row, r| {
            let agg = &inp.derived.companies.get(row);
            let latest = agg
                .latest_deal()
                .map(|l| latest_deals.get(inp.orders.deals.doc(l)))
                .transpose()?;
            let full = render::company_record(&r, agg, latest, inp.facts);
            Ok((inp.orders.companies.doc(row), vec![json(&full)?]))
        },
    )?;
    store.finish()
}

/// Latest deals read between two releases of the deal store's pages.
/// 8,192 reads touch at most 64 MB of it (a frame and its span).
const RELEASE_EVERY: u64 = 8192;

/// Each company's latest deal, read back from the deal store written
/// before the companies. Companies come in dump order and their latest
/// deals lie anywhere in the store, so its mapped pages are released every
/// [`RELEASE_EVERY`] reads; otherwise they would all become resident (the
/// deal store is 1.4 GB at 4e6 companies, about 3.5 GB at 1e7).
struct LatestDeals {
    store: Store,
    reads: AtomicU64,
}

impl LatestDeals {
    fn open(dir: &Path, inp: &Inputs, refs: &Arc<EntityRefs>) -> io::Result<LatestDeals> {
        let path = dir.join(store_file(DEALS, "full"));
        let bundle = Bundle::open(&path, STORE_TAG, false).map_err(io::Error::other)?;
        let store = Store::open(&bundle, "full", inp.orders.deals.len(), refs.clone())
            .map_err(io::Error::other)?;
        let reads = AtomicU64::new(0);
        Ok(LatestDeals { store, reads })
    }

    /// The latest-deal record of deal `doc`.
    fn get(&self, doc: u32) -> io::Result<LatestDealRecord> {
        if self.reads.fetch_add(1, Ordering::Relaxed) % RELEASE_EVERY == RELEASE_EVERY - 1 {
            self.store.release_pages()?;
        }
        let bytes = self.store.get(doc).map_err(io::Error::other)?;
        let record: DealRecord = serde_json::from_slice(&bytes).map_err(io::Error::other)?;
        Ok(LatestDealRecord::from(record))
    }
}

pub fn write_firm_store(
    dir: &Path,
    dump: &Path,
    kept: &KeptLines,
    inp: &Inputs,
    refs: &Arc<EntityRefs>,
    counter: &Counter,
) -> io::Result<Vec<WrittenFile>> {
    let mut store = Variants::create(
        dir,
        FIRMS,
        FIRM_STORES,
        inp.orders.firms.len(),
        inp.store_codec,
        Some((refs, RefKind::Firm)),
    )?;
    render_file::<FirmRow, _>(
        dump,
        "investors.jsonl",
        kept,
        &mut store,
        counter,
        |row, r| {
            let full = render::investor_record(&r, &inp.derived.firms.get(row), inp.facts);
            Ok((
                inp.orders.firms.doc(row),
                vec![json(&full)?, json(&render::firm_card(&r))?],
            ))
        },
    )?;
    store.finish()
}

pub fn write_person_store(
    dir: &Path,
    dump: &Path,
    kept: &KeptLines,
    inp: &Inputs,
    refs: &Arc<EntityRefs>,
    counter: &Counter,
) -> io::Result<Vec<WrittenFile>> {
    let mut store = Variants::create(
        dir,
        PEOPLE,
        PERSON_STORES,
        inp.orders.people.len(),
        inp.store_codec,
        Some((refs, RefKind::Person)),
    )?;
    render_file::<PersonRow, _>(dump, "people.jsonl", kept, &mut store, counter, |row, r| {
        let agg = &inp.derived.people.get(row);
        let employer = inp.facts.people.get(row).employer;
        let full = render::person_record(&r, agg, employer, inp.facts);
        let email = r.email.clone().unwrap_or_default().into_bytes();
        let records = vec![json(&full)?, email];
        Ok((inp.orders.people.doc(row), records))
    })?;
    store.finish()
}

pub fn write_catalog_store(
    dir: &Path,
    inp: &Inputs,
    counter: &Counter,
) -> io::Result<Vec<WrittenFile>> {
    let catalog = &inp.facts.catalog;
    let n = catalog.locations.len().max(catalog.industries.len());
    let mut store = Variants::create(dir, CATALOG, CATALOG_STORES, n, inp.store_codec, None)?;
    for (row, l) in catalog.locations.iter().enumerate() {
        let card = LocationCard {
            permalink: l.permalink.clone(),
            name: l.name.clone(),
            location_type: l.location_type.as_str().into(),
        };
        store.set(0, row as u32, &json(&card)?)?;
    }
    counter.inc(catalog.locations.len() as u64);
    for (row, i) in catalog.industries.iter().enumerate() {
        let card = IndustryCard {
            permalink: i.permalink.clone(),
            name: i.name.clone(),
            industry_type: i.industry_type.as_str().into(),
        };
        store.set(1, row as u32, &json(&card)?)?;
    }
    counter.inc(catalog.industries.len() as u64);
    store.finish()
}
