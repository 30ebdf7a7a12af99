//! `indexer verify`: re-checks every file of an index against the manifest
//! (size and CRC-32), re-validates every bundle's structure, decodes every
//! bitmap, checks every relation, column, store and id map for consistency,
//! cross-checks the company vectors' rows and docs, and opens every name
//! index.

use std::path::Path;
use std::sync::Arc;

use super::format::Bundle;
use super::manifest::{checksum_file, list_files, Manifest};
use super::names::*;
use super::open::Index;
use super::store::refs::{NoUuids, Uuids};
use super::value_counts::COUNTED;
use super::IndexError;

/// What was checked.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct VerifyReport {
    pub files: usize,
    pub bytes: u64,
    pub arrays: usize,
    pub bitmaps_decoded: u64,
}

pub fn verify_index(dir: &Path) -> Result<VerifyReport, IndexError> {
    let manifest = Manifest::read(dir)?;
    let mut report = VerifyReport::default();
    check_files(dir, &manifest, &mut report)?;
    let index = Index::open(dir)?;
    let docs = Docs {
        companies: index.companies.docs,
        deals: index.deals.docs,
        firms: index.firms.docs,
        people: index.people.docs,
    };
    for kind in [&index.companies, &index.deals, &index.firms, &index.people] {
        report.arrays += check_bundle_structures(&kind.bundle, kind.docs, &docs, &mut report)?;
        for store in kind.stores_by_variant.values() {
            check_stores(store, kind.docs, kind.uuids())?;
        }
    }
    let catalog_docs = index.catalog.locations.max(index.catalog.industries);
    report.arrays +=
        check_bundle_structures(&index.catalog.bundle, catalog_docs, &docs, &mut report)?;
    for v in CATALOG_STORES {
        let store = Bundle::open(
            &dir.join(store_file(CATALOG, v)),
            super::store::STORE_TAG,
            true,
        )?;
        check_stores(&store, catalog_docs, Arc::new(NoUuids))?;
    }
    if let Some(vectors) = &index.vectors {
        vectors.verify()?;
        report.arrays += vectors.bundle.entries().len();
    }
    Ok(report)
}

/// Every listed file exists with its size and checksum; no file is unlisted.
fn check_files(
    dir: &Path,
    manifest: &Manifest,
    report: &mut VerifyReport,
) -> Result<(), IndexError> {
    let on_disk = list_files(dir).map_err(|e| IndexError::io(dir, e))?;
    for path in &on_disk {
        if path != MANIFEST_FILE && manifest.file(path).is_none() {
            return Err(IndexError::corrupt(
                path.clone(),
                "file not listed in the manifest",
            ));
        }
    }
    for entry in &manifest.files {
        let full = dir.join(&entry.path);
        let (bytes, crc) = checksum_file(&full).map_err(|e| IndexError::io(&full, e))?;
        if bytes != entry.bytes || crc != entry.crc32 {
            return Err(IndexError::corrupt(
                entry.path.clone(),
                "size or checksum differs from the manifest",
            ));
        }
        report.files += 1;
        report.bytes += bytes;
    }
    Ok(())
}

/// Doc counts per kind, to check that references stay in range.
struct Docs {
    companies: usize,
    deals: usize,
    firms: usize,
    people: usize,
}

impl Docs {
    /// How many docs the kind that a relation or doc-id column points to has.
    fn target_of(&self, name: &str) -> Option<usize> {
        match name {
            "deals" | "angel_deals" | "partner_deals" | "latest_deal" => Some(self.deals),
            "firms" | "employer_firm" => Some(self.firms),
            "people" | "investor_people" | "angels" | "partners" | "participants" => {
                Some(self.people)
            }
            "company" | "employer" => Some(self.companies),
            counts if COUNTED.iter().any(|c| c.firms == counts) => Some(self.firms),
            counts if COUNTED.iter().any(|c| c.people == counts) => Some(self.people),
            _ => None,
        }
    }
}

/// Opens every facet, relation, column, sort order and key map of a bundle.
fn check_bundle_structures(
    bundle: &Bundle,
    docs: usize,
    kinds: &Docs,
    report: &mut VerifyReport,
) -> Result<usize, IndexError> {
    if !bundle.verify_crc() {
        return Err(IndexError::corrupt(bundle.name(), "checksum mismatch"));
    }
    let names: Vec<String> = bundle.entries().iter().map(|e| e.name.clone()).collect();
    for name in &names {
        let parts: Vec<&str> = name.split('.').collect();
        match parts.as_slice() {
            ["facet", field, "keys"] => {
                report.bitmaps_decoded +=
                    super::facet::Facet::open(bundle, field)?.validate_all()?;
            }
            ["relation", rel, "offsets"] => {
                let r = super::relation::Relation::open(bundle, rel, docs)?;
                check_targets(bundle, rel, &r, kinds.target_of(rel))?;
            }
            ["counts", counts, "offsets"] => {
                let limit = kinds.target_of(counts).unwrap_or(0);
                super::value_counts::ValueCounts::open(bundle, counts)?
                    .check(limit)
                    .map_err(|e| {
                        IndexError::corrupt(bundle.name(), format!("counts {counts}: {e}"))
                    })?;
            }
            ["column", col] => check_column(bundle, col, docs, kinds.target_of(col))?,
            ["sort", col, "order"] => {
                super::column::SortOrder::open(bundle, col, docs)?;
            }
            ["keymap", map, "fst"] => {
                let keys = super::keymap::KeyMap::open(bundle, map)?;
                keys.check(docs)
                    .map_err(|e| IndexError::corrupt(bundle.name(), e))?;
            }
            _ => {}
        }
    }
    Ok(names.len())
}

/// Each source's targets are strictly ascending and within the target kind.
fn check_targets(
    bundle: &Bundle,
    name: &str,
    rel: &super::relation::Relation,
    limit: Option<usize>,
) -> Result<(), IndexError> {
    let bad = |why: &str| IndexError::corrupt(bundle.name(), format!("relation {name}: {why}"));
    let limit = limit.ok_or_else(|| bad("unknown target kind"))?;
    let sources = bundle
        .array::<u32>(&format!("relation.{name}.offsets"))?
        .len()
        - 1;
    for s in 0..sources as u32 {
        let t = rel.targets(s);
        if t.windows(2).any(|w| w[0] >= w[1]) || t.last().is_some_and(|&x| x as usize >= limit) {
            return Err(bad(&format!("bad targets of source {s}")));
        }
    }
    Ok(())
}

/// A column has one value per doc; doc-id columns point inside their kind.
fn check_column(
    bundle: &Bundle,
    name: &str,
    docs: usize,
    target: Option<usize>,
) -> Result<(), IndexError> {
    let entry = bundle
        .entries()
        .into_iter()
        .find(|e| e.name == format!("column.{name}"))
        .cloned();
    let bad = |why: String| IndexError::corrupt(bundle.name(), format!("column {name}: {why}"));
    let entry = entry.ok_or_else(|| bad("missing".into()))?;
    if entry.count as usize != docs {
        return Err(bad(format!("{} values for {docs} docs", entry.count)));
    }
    if let (Some(limit), super::format::Dtype::I32) = (target, entry.dtype) {
        let values = bundle.array::<i32>(&format!("column.{name}"))?;
        let out_of_range = values
            .iter()
            .any(|&v| v != super::column::NULL_I32 && (v < 0 || v as usize >= limit));
        if out_of_range {
            return Err(bad("doc id out of range".into()));
        }
    }
    Ok(())
}

/// Checks a store file's checksum and every record of each of its variants
/// (decompressed, references resolved against `uuids`).
fn check_stores(store: &Bundle, docs: usize, uuids: Arc<dyn Uuids>) -> Result<(), IndexError> {
    if !store.verify_crc() {
        return Err(IndexError::corrupt(store.name(), "checksum mismatch"));
    }
    for entry in store.entries() {
        if let Some(variant) = entry
            .name
            .strip_prefix("store.")
            .and_then(|n| n.strip_suffix(".data"))
        {
            super::store::Store::open(store, variant, docs, uuids.clone())?.check_all()?;
        }
    }
    Ok(())
}
