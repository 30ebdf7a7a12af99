//! An index directory opened for reading: every bundle mapped and checked,
//! every structure the query layer needs resolved once.
//!
//! Opening costs a few milliseconds at any scale: files are mapped, never
//! read in full, except that the CRC-32 of the small structure files
//! (everything but the record stores and name indexes) is verified, so a
//! damaged index is refused at startup rather than answering wrongly.
//! `indexer verify` checks everything.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::column::{Column, SortOrder};
use super::facet::Facet;
use super::format::Bundle;
use super::keymap::{IdMap, KeyMap};
use super::manifest::Manifest;
use super::names::*;
use super::relation::Relation;
use super::store::{Store, STORE_TAG};
use super::text::NameIndex;
use super::IndexError;

/// One entity kind's structures.
pub struct Kind {
    pub bundle: Bundle,
    pub store: Bundle,
    pub ids: IdMap,
    pub docs: usize,
}

impl Kind {
    fn open(dir: &Path, idx: &str, tag: [u8; 4], store: &str, docs: u64) -> Result<Kind, IndexError> {
        let bundle = Bundle::open(&dir.join(idx), tag, true)?;
        let store = Bundle::open(&dir.join(store), STORE_TAG, false)?;
        let docs = docs as usize;
        let ids = IdMap::open(&bundle, docs)?;
        Ok(Kind { bundle, store, ids, docs })
    }

    pub fn facet(&self, name: &str) -> Result<Facet, IndexError> {
        Facet::open(&self.bundle, name)
    }

    pub fn column_i64(&self, name: &str) -> Result<Column<i64>, IndexError> {
        Column::open(&self.bundle, name, self.docs)
    }

    pub fn column_i32(&self, name: &str) -> Result<Column<i32>, IndexError> {
        Column::open(&self.bundle, name, self.docs)
    }

    pub fn sort_order(&self, name: &str) -> Result<SortOrder, IndexError> {
        SortOrder::open(&self.bundle, name, self.docs)
    }

    pub fn relation(&self, name: &str) -> Result<Relation, IndexError> {
        Relation::open(&self.bundle, name, self.docs)
    }

    pub fn keymap(&self, name: &str) -> Result<KeyMap, IndexError> {
        KeyMap::open(&self.bundle, name)
    }

    pub fn records(&self, variant: &str) -> Result<Store, IndexError> {
        Store::open(&self.store, variant, self.docs)
    }
}

/// Locations and industries.
pub struct CatalogIndex {
    pub bundle: Bundle,
    pub store: Bundle,
    pub locations: usize,
    pub industries: usize,
}

/// A whole index directory.
pub struct Index {
    pub dir: PathBuf,
    pub manifest: Manifest,
    pub companies: Kind,
    pub deals: Kind,
    pub firms: Kind,
    pub people: Kind,
    pub catalog: CatalogIndex,
    pub company_names: Arc<NameIndex>,
    pub firm_names: Arc<NameIndex>,
    pub person_names: Arc<NameIndex>,
    pub location_names: Arc<NameIndex>,
    pub industry_names: Arc<NameIndex>,
}

impl Index {
    /// Opens `dir` read-only.
    pub fn open(dir: &Path) -> Result<Index, IndexError> {
        let manifest = Manifest::read(dir)?;
        let c = manifest.counts.clone();
        let names = |kind: &str| {
            let path = dir.join(TEXT_DIR).join(kind);
            NameIndex::open(&path)
                .map(Arc::new)
                .map_err(|e| IndexError::Text { file: path.display().to_string(), reason: e.to_string() })
        };
        let catalog_bundle = Bundle::open(&dir.join(CATALOG_IDX), CATALOG_TAG, true)?;
        Ok(Index {
            dir: dir.to_path_buf(),
            companies: Kind::open(dir, COMPANIES_IDX, COMPANY_TAG, COMPANIES_STORE, c.companies)?,
            deals: Kind::open(dir, DEALS_IDX, DEAL_TAG, DEALS_STORE, c.deals)?,
            firms: Kind::open(dir, FIRMS_IDX, FIRM_TAG, FIRMS_STORE, c.investors)?,
            people: Kind::open(dir, PEOPLE_IDX, PERSON_TAG, PEOPLE_STORE, c.people)?,
            catalog: CatalogIndex {
                bundle: catalog_bundle,
                store: Bundle::open(&dir.join(CATALOG_STORE), STORE_TAG, false)?,
                locations: c.locations as usize,
                industries: c.industries as usize,
            },
            company_names: names("companies")?,
            firm_names: names("investors")?,
            person_names: names("people")?,
            location_names: names("locations")?,
            industry_names: names("industries")?,
            manifest,
        })
    }
}
