//! An index directory opened for reading: every bundle mapped and checked,
//! every structure the query layer needs resolved once.
//!
//! Opening costs milliseconds at any scale: files are mapped, never read in
//! full. Opening checks every file's magic, format version, tag, directory
//! and array bounds; each structure's internal consistency (offsets,
//! lengths) is checked once, when it is first used ([`Index::warm`] does it
//! for all of them up front). CRC-32 checksums need a full read: they are
//! checked by [`Index::verify_checksums`] and `indexer verify`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

use super::checkpoints::Checkpoints;
use super::column::{Column, SortOrder};
use super::common_edges::CommonEdges;
use super::derived::Derived;
use super::entity_ids::EntityIds;
use super::facet::Facet;
use super::flagged_edges::FlaggedEdges;
use super::format::Bundle;
use super::joint_sources::JointSources;
use super::keymap::{IdMap, KeyMap};
use super::manifest::Manifest;
use super::names::*;
use super::records::{Projection, Records, COMPANY_PROJECTIONS, PERSON_PROJECTIONS};
use super::relation::{Edges, Relation};
use super::size_buckets::SizeBuckets;
use super::store::refs::{NoUuids, Uuids};
use super::store::{Store, STORE_TAG};
use super::text::NameIndex;
use super::value_counts::ValueCounts;
use super::value_lists::{Listed, ValueLists};
use super::value_runs::ValueRuns;
use super::vectors::{Vectors, VECTORS_TAG};
use super::IndexError;

/// Structures of one type, opened (and validated) once, then shared.
struct Opened<T> {
    map: RwLock<HashMap<String, Arc<T>>>,
}

impl<T> Default for Opened<T> {
    fn default() -> Self {
        Opened {
            map: RwLock::new(HashMap::new()),
        }
    }
}

impl<T> Opened<T> {
    /// Every structure opened so far.
    fn all(&self) -> Vec<Arc<T>> {
        let map = self.map.read().unwrap_or_else(|p| p.into_inner());
        map.values().cloned().collect()
    }

    fn get(
        &self,
        name: &str,
        open: impl FnOnce() -> Result<T, IndexError>,
    ) -> Result<Arc<T>, IndexError> {
        if let Some(hit) = self.map.read().unwrap_or_else(|p| p.into_inner()).get(name) {
            return Ok(hit.clone());
        }
        let opened = Arc::new(open()?);
        let mut map = self.map.write().unwrap_or_else(|p| p.into_inner());
        Ok(map.entry(name.to_string()).or_insert(opened).clone())
    }
}

impl<T> Opened<Derived<T>> {
    /// The slot of derived structure `name` (`what`, for the log).
    fn slot(&self, name: &str, what: &'static str) -> Result<Arc<Derived<T>>, IndexError> {
        self.get(name, || Ok(Derived::new(what)))
    }
}

/// One entity kind's structures. Accessors open a structure on first use
/// (validating it) and hand out the shared, already-validated handle after.
pub struct Kind {
    pub bundle: Bundle,
    /// Record store files by variant.
    pub stores_by_variant: HashMap<String, Bundle>,
    pub ids: IdMap,
    pub docs: usize,
    /// What the references in this kind's records resolve against.
    uuids: Arc<dyn Uuids>,
    /// Variants read out of the `full` records instead of stored.
    projections: &'static [(&'static str, Projection)],
    facets: Opened<Facet>,
    columns_i64: Opened<Column<i64>>,
    columns_i32: Opened<Column<i32>>,
    sorts: Opened<SortOrder>,
    relations: Opened<Relation>,
    keymaps: Opened<KeyMap>,
    value_counts: Opened<ValueCounts>,
    value_runs: Opened<Derived<ValueRuns>>,
    derived_counts: Opened<Derived<ValueCounts>>,
    size_buckets: Opened<Derived<SizeBuckets>>,
    value_lists: Opened<Derived<ValueLists>>,
    common_edges: Opened<CommonEdges>,
    joint_sources: Opened<JointSources>,
    flagged_edges: Opened<FlaggedEdges>,
    checkpoints: Opened<Checkpoints>,
    stores: Opened<Records>,
}

impl Kind {
    fn open(
        dir: &Path,
        idx: &str,
        tag: [u8; 4],
        kind: &str,
        variants: &[&str],
        docs: u64,
    ) -> Result<Kind, IndexError> {
        let bundle = Bundle::open(&dir.join(idx), tag, false)?;
        let mut stores_by_variant = HashMap::new();
        for v in variants {
            stores_by_variant.insert(
                v.to_string(),
                Bundle::open(&dir.join(store_file(kind, v)), STORE_TAG, false)?,
            );
        }
        let docs = docs as usize;
        let ids = IdMap::open(&bundle, docs)?;
        Ok(Kind {
            bundle,
            stores_by_variant,
            ids,
            docs,
            uuids: Arc::new(NoUuids),
            projections: &[],
            facets: Opened::default(),
            columns_i64: Opened::default(),
            columns_i32: Opened::default(),
            sorts: Opened::default(),
            relations: Opened::default(),
            keymaps: Opened::default(),
            value_counts: Opened::default(),
            value_runs: Opened::default(),
            derived_counts: Opened::default(),
            size_buckets: Opened::default(),
            value_lists: Opened::default(),
            common_edges: Opened::default(),
            joint_sources: Opened::default(),
            flagged_edges: Opened::default(),
            checkpoints: Opened::default(),
            stores: Opened::default(),
        })
    }

    /// This kind, its records' references resolving against `uuids`.
    fn resolving(self, uuids: &Arc<EntityIds>) -> Kind {
        Kind {
            uuids: uuids.clone(),
            ..self
        }
    }

    /// This kind, with `projections` read out of its full records.
    fn projecting(self, projections: &'static [(&'static str, Projection)]) -> Kind {
        Kind {
            projections,
            ..self
        }
    }

    /// What the references in this kind's records resolve against.
    pub fn uuids(&self) -> Arc<dyn Uuids> {
        self.uuids.clone()
    }

    pub fn facet(&self, name: &str) -> Result<Arc<Facet>, IndexError> {
        self.facets.get(name, || Facet::open(&self.bundle, name))
    }

    pub fn column_i64(&self, name: &str) -> Result<Arc<Column<i64>>, IndexError> {
        self.columns_i64
            .get(name, || Column::open(&self.bundle, name, self.docs))
    }

    pub fn column_i32(&self, name: &str) -> Result<Arc<Column<i32>>, IndexError> {
        self.columns_i32
            .get(name, || Column::open(&self.bundle, name, self.docs))
    }

    pub fn sort_order(&self, name: &str) -> Result<Arc<SortOrder>, IndexError> {
        self.sorts
            .get(name, || SortOrder::open(&self.bundle, name, self.docs))
    }

    pub fn relation(&self, name: &str) -> Result<Arc<Relation>, IndexError> {
        self.relations
            .get(name, || Relation::open(&self.bundle, name, self.docs))
    }

    pub fn keymap(&self, name: &str) -> Result<Arc<KeyMap>, IndexError> {
        self.keymaps.get(name, || KeyMap::open(&self.bundle, name))
    }

    pub fn value_counts(&self, name: &str) -> Result<Arc<ValueCounts>, IndexError> {
        self.value_counts
            .get(name, || ValueCounts::open(&self.bundle, name))
    }

    /// The targets each source has in both relations `first` and `second`
    /// ([`CommonEdges`]), derived on first use (9 ms at M), then kept.
    pub fn common_edges(&self, first: &str, second: &str) -> Result<Arc<CommonEdges>, IndexError> {
        self.common_edges.get(&format!("{first}&{second}"), || {
            let derive = (CommonEdges::derive, CommonEdges::heap_bytes);
            self.derive_pair((first, second), "common edges", derive)
        })
    }

    /// The sources with an edge in `first` or `second`, and where their
    /// edges begin in each ([`JointSources`]), derived on first use (a
    /// pass over both relations' offsets), then kept.
    pub fn joint_sources(
        &self,
        first: &str,
        second: &str,
    ) -> Result<Arc<JointSources>, IndexError> {
        self.joint_sources.get(&format!("{first}&{second}"), || {
            let derive = (JointSources::derive, JointSources::heap_bytes);
            self.derive_pair((first, second), "joint sources", derive)
        })
    }

    /// The edges of relation `name` with a non-zero payload byte
    /// ([`FlaggedEdges`]), derived on first use, then kept.
    pub fn flagged_edges(&self, name: &str) -> Result<Arc<FlaggedEdges>, IndexError> {
        self.flagged_edges.get(name, || {
            let derive = (FlaggedEdges::derive, FlaggedEdges::heap_bytes);
            self.derive_one(name, "flagged edges", derive)
        })
    }

    /// Where each source's targets of relation `name` cross fixed target
    /// boundaries ([`Checkpoints`]), derived on first use, then kept.
    pub fn checkpoints(&self, name: &str) -> Result<Arc<Checkpoints>, IndexError> {
        self.checkpoints.get(name, || {
            let derive = (Checkpoints::derive, Checkpoints::heap_bytes);
            self.derive_one(name, "checkpoints", derive)
        })
    }

    /// `derive` over relation `name` and its sources, logged as `what`
    /// with its `bytes` and the milliseconds it took.
    fn derive_one<T>(
        &self,
        name: &str,
        what: &str,
        (derive, bytes): (impl FnOnce(&Edges, usize) -> T, impl Fn(&T) -> usize),
    ) -> Result<T, IndexError> {
        let relation = self.relation(name)?;
        let started = std::time::Instant::now();
        let derived = derive(&relation.edges(), relation.sources());
        log_derived(what, bytes(&derived), started);
        Ok(derived)
    }

    /// `derive` over relations `first` and `second` and their common
    /// sources, logged as [`Kind::derive_one`] logs.
    fn derive_pair<T>(
        &self,
        (first, second): (&str, &str),
        what: &str,
        (derive, bytes): (
            impl FnOnce(&Edges, &Edges, usize) -> T,
            impl Fn(&T) -> usize,
        ),
    ) -> Result<T, IndexError> {
        let (first, second) = (self.relation(first)?, self.relation(second)?);
        let started = std::time::Instant::now();
        let sources = first.sources().min(second.sources());
        let derived = derive(&first.edges(), &second.edges(), sources);
        log_derived(what, bytes(&derived), started);
        Ok(derived)
    }

    /// The deals behind value counts `counted` of this kind's facet
    /// `facet` ([`ValueRuns`]), derived from `entity_side` (the counted
    /// entities' own side of the relation) on first use, then kept.
    pub fn value_runs(
        &self,
        counted: &str,
        facet: &str,
        entity_side: &Relation,
    ) -> Result<Arc<ValueRuns>, IndexError> {
        let slot = self.value_runs.slot(counted, "value runs")?;
        let (counts, facet) = (self.value_counts(counted)?, self.facet(facet)?);
        slot.get_or_derive(|| derive_runs(&counts, &facet, entity_side, self.docs))
    }

    /// Waits for the derivations started in the background.
    pub fn wait_for_derived(&self) {
        self.value_runs
            .all()
            .iter()
            .for_each(|d| d.wait_if_started());
        self.derived_counts
            .all()
            .iter()
            .for_each(|d| d.wait_if_started());
        self.size_buckets
            .all()
            .iter()
            .for_each(|d| d.wait_if_started());
        self.value_lists
            .all()
            .iter()
            .for_each(|d| d.wait_if_started());
    }

    /// [`Kind::value_runs`] when they are derived; otherwise `None`, and
    /// their derivation is started in the background (0.26 s at M,
    /// 6.7 s at 1e7 with the relation's pages cold): no request waits for
    /// it, those before it is done count another way.
    pub fn value_runs_if_ready(
        &self,
        counted: &str,
        facet: &str,
        entity_side: Arc<Relation>,
    ) -> Result<Option<Arc<ValueRuns>>, IndexError> {
        let slot = self.value_runs.slot(counted, "value runs")?;
        ready_or_started(slot, || {
            let (counts, facet, docs) =
                (self.value_counts(counted)?, self.facet(facet)?, self.docs);
            Ok(move || derive_runs(&counts, &facet, &entity_side, docs))
        })
    }

    /// Value counts `name` of this kind's facet `facet`, which the index
    /// does not store, derived in memory from `deal_side` (the deals'
    /// edges to `entities` entities, led when `led` holds of the payload)
    /// when they are ready; otherwise `None`, and their derivation is
    /// started in the background (at M, 0.27 s for the industries'
    /// firms, 0.88 s for their people).
    pub fn derived_counts_if_ready(
        &self,
        (name, facet): (&'static str, &str),
        deal_side: Arc<Relation>,
        (entities, led): (usize, fn(u8) -> bool),
    ) -> Result<Option<Arc<ValueCounts>>, IndexError> {
        let slot = self.derived_counts.slot(name, "value counts")?;
        ready_or_started(slot, || {
            let facet = self.facet(facet)?;
            Ok(move || {
                let started = std::time::Instant::now();
                let counts = ValueCounts::derive(&facet, &deal_side.edges(), (entities, led))?;
                let (entries, ms) = (counts.entry_docs().len(), started.elapsed().as_millis());
                tracing::info!(
                    counts = name,
                    entries,
                    ms = ms as u64,
                    "value counts derived"
                );
                Ok(counts)
            })
        })
    }

    /// Counts `name` by size bucket of this kind's `size` column
    /// ([`SizeBuckets`]), derived in memory from `deal_side` (the deals'
    /// edges, those whose payload is `counted`; entities `0..dense` with
    /// a column each) when they are ready; otherwise `None`, and their
    /// derivation is started in the background.
    pub fn size_buckets_if_ready(
        &self,
        name: &'static str,
        deal_side: Arc<Relation>,
        (dense, counted): (usize, fn(u8) -> bool),
    ) -> Result<Option<Arc<SizeBuckets>>, IndexError> {
        let slot = self.size_buckets.slot(name, "size buckets")?;
        ready_or_started(slot, || {
            let (sizes, order) = (self.column_i64("size")?, self.sort_order("size")?);
            Ok(move || {
                let started = std::time::Instant::now();
                let edges = deal_side.edges();
                let (sorted, values) = (order.non_null(), sizes.values());
                let buckets = SizeBuckets::derive(sorted, values, &edges, (dense, counted))?;
                log_derived(name, buckets.heap_bytes(), started);
                Ok(buckets)
            })
        })
    }

    /// Lists `name`: the targets of one or both (`listed`) of two
    /// relations over the same sources (`joint`, their joint sources),
    /// grouped by this kind's single-valued facet `facet`
    /// ([`ValueLists`]), when they are derived; otherwise `None`, and
    /// their derivation is started in the background.
    pub fn value_lists_if_ready(
        &self,
        (name, facet): (&'static str, &str),
        ((first, second), listed): ((Arc<Relation>, Arc<Relation>), Listed),
        joint: Arc<JointSources>,
    ) -> Result<Option<Arc<ValueLists>>, IndexError> {
        let slot = self.value_lists.slot(name, "value lists")?;
        ready_or_started(slot, || {
            let (facet, docs) = (self.facet(facet)?, self.docs);
            Ok(move || {
                let started = std::time::Instant::now();
                let edges = ((&first.edges(), &second.edges()), listed);
                let lists = ValueLists::derive(&facet, edges, &joint, docs)?;
                log_derived(name, lists.heap_bytes(), started);
                Ok(lists)
            })
        })
    }

    /// The records of `variant`, stored or projected.
    pub fn records(&self, variant: &str) -> Result<Arc<Records>, IndexError> {
        self.stores.get(variant, || {
            if let Some(bundle) = self.stores_by_variant.get(variant) {
                let store = Store::open(bundle, variant, self.docs, self.uuids.clone())?;
                return Ok(Records::Stored(store));
            }
            match self.projections.iter().find(|(v, _)| *v == variant) {
                Some(&(_, project)) => Ok(Records::projected(self.records("full")?, project)),
                None => Err(IndexError::corrupt(
                    "store",
                    format!("no record store variant {variant}"),
                )),
            }
        })
    }

    /// The stored record `variant` of `doc`, as its record type.
    pub fn record<T: serde::de::DeserializeOwned>(
        &self,
        variant: &str,
        doc: u32,
    ) -> Result<T, IndexError> {
        let store = self.records(variant)?;
        serde_json::from_slice(&store.get(doc)?)
            .map_err(|e| IndexError::corrupt("store", e.to_string()))
    }

    /// Opens every relation, key map, facet and record store of this kind now.
    pub fn warm(&self) -> Result<(), IndexError> {
        for entry in self.bundle.entries() {
            let parts: Vec<&str> = entry.name.split('.').collect();
            match parts.as_slice() {
                ["relation", name, "offsets"] => drop(self.relation(name)?),
                ["keymap", name, "fst"] => drop(self.keymap(name)?),
                ["facet", name, "keys"] => drop(self.facet(name)?),
                ["counts", name, "offsets"] => drop(self.value_counts(name)?),
                _ => {}
            }
        }
        for variant in self.stores_by_variant.keys() {
            drop(self.records(variant)?);
        }
        Ok(())
    }
}

/// Locations and industries (doc id = catalog row).
pub struct CatalogIndex {
    pub bundle: Bundle,
    pub locations: usize,
    pub industries: usize,
    /// `/location/search` items.
    pub location_cards: Store,
    /// `/industry/search` items.
    pub industry_cards: Store,
}

/// Derives the runs of `counts` ([`ValueRuns::derive`]), logging the time
/// and bytes it took.
fn derive_runs(
    counts: &ValueCounts,
    facet: &Facet,
    entity_side: &Relation,
    deal_docs: usize,
) -> Result<ValueRuns, IndexError> {
    let started = std::time::Instant::now();
    let (edges, entities) = (entity_side.edges(), entity_side.sources());
    let runs = ValueRuns::derive(counts, facet, edges, entities, deal_docs)?;
    let ms = started.elapsed().as_millis() as u64;
    tracing::info!(bytes = runs.heap_bytes(), ms, "value runs derived");
    Ok(runs)
}

/// `slot`'s structure when it is derived; otherwise `None`, and the
/// derivation `prepare` returns (after reading its inputs here, where a
/// missing input is the caller's error) started in the background by
/// the first caller (queued behind those started before it, see
/// [`super::derived`]): no request waits for it, those before it is done
/// count another way.
fn ready_or_started<T, D>(
    slot: Arc<Derived<T>>,
    prepare: impl FnOnce() -> Result<D, IndexError>,
) -> Result<Option<Arc<T>>, IndexError>
where
    T: Send + Sync + 'static,
    D: FnOnce() -> Result<T, IndexError> + Send + 'static,
{
    if let Some(done) = slot.ready() {
        return Ok(done);
    }
    let derive = prepare()?;
    if slot.start() {
        let queued = super::derived::in_background(Box::new(move || {
            drop(slot.get_or_derive(derive));
        }));
        if let Err(e) = queued {
            tracing::warn!(error = %e, "no thread to derive on");
        }
    }
    Ok(None)
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
    /// Company vectors, when the index was built with a semantic model.
    pub vectors: Option<Vectors>,
}

impl Index {
    /// Waits for the structures being derived in the background
    /// ([`Kind::value_runs_if_ready`]): what a server that has run for a
    /// while has, for a benchmark to measure.
    pub fn wait_for_derived(&self) {
        for kind in [&self.companies, &self.deals, &self.firms, &self.people] {
            kind.wait_for_derived();
        }
    }

    /// Opens and validates every relation, key map, facet and store of the
    /// index, so that damage is found at startup and no request pays for a
    /// first open; maps in every page of the company vectors, which every
    /// unfiltered semantic search reads.
    pub fn warm(&self) -> Result<(), IndexError> {
        for kind in [&self.companies, &self.deals, &self.firms, &self.people] {
            kind.warm()?;
        }
        if let Some(v) = &self.vectors {
            v.warm();
        }
        Ok(())
    }

    /// Re-reads every bundle and record store and compares its CRC-32 with
    /// its footer (a full read of the index).
    pub fn verify_checksums(&self) -> Result<(), IndexError> {
        let kinds = [&self.companies, &self.deals, &self.firms, &self.people];
        let bundles = kinds
            .iter()
            .flat_map(|k| std::iter::once(&k.bundle).chain(k.stores_by_variant.values()));
        let extra =
            std::iter::once(&self.catalog.bundle).chain(self.vectors.iter().map(|v| &v.bundle));
        for bundle in bundles.chain(extra) {
            if !bundle.verify_crc() {
                return Err(IndexError::corrupt(bundle.name(), "checksum mismatch"));
            }
        }
        Ok(())
    }

    /// Opens `dir` read-only.
    pub fn open(dir: &Path) -> Result<Index, IndexError> {
        let manifest = Manifest::read(dir)?;
        let c = manifest.counts.clone();
        let names = |kind: &str| {
            let path = dir.join(TEXT_DIR).join(kind);
            NameIndex::open(&path)
                .map(Arc::new)
                .map_err(|e| IndexError::Text {
                    file: path.display().to_string(),
                    reason: e.to_string(),
                })
        };
        let catalog_bundle = Bundle::open(&dir.join(CATALOG_IDX), CATALOG_TAG, false)?;
        let catalog_store =
            |v: &str| Bundle::open(&dir.join(store_file(CATALOG, v)), STORE_TAG, false);
        let catalog_docs = c.locations.max(c.industries) as usize;
        let catalog_cards =
            |v: &str| Store::open(&catalog_store(v)?, v, catalog_docs, Arc::new(NoUuids));
        let companies = Kind::open(
            dir,
            COMPANIES_IDX,
            COMPANY_TAG,
            COMPANIES,
            COMPANY_STORES,
            c.companies,
        )?;
        let deals = Kind::open(dir, DEALS_IDX, DEAL_TAG, DEALS, DEAL_STORES, c.deals)?;
        let firms = Kind::open(dir, FIRMS_IDX, FIRM_TAG, FIRMS, FIRM_STORES, c.investors)?;
        let people = Kind::open(dir, PEOPLE_IDX, PERSON_TAG, PEOPLE, PERSON_STORES, c.people)?;
        let uuids = Arc::new(EntityIds::new(
            &companies.ids,
            &deals.ids,
            &firms.ids,
            &people.ids,
        ));
        Ok(Index {
            dir: dir.to_path_buf(),
            companies: companies.resolving(&uuids).projecting(COMPANY_PROJECTIONS),
            deals: deals.resolving(&uuids),
            firms: firms.resolving(&uuids),
            people: people.resolving(&uuids).projecting(PERSON_PROJECTIONS),
            catalog: CatalogIndex {
                bundle: catalog_bundle,
                locations: c.locations as usize,
                industries: c.industries as usize,
                location_cards: catalog_cards("location")?,
                industry_cards: catalog_cards("industry")?,
            },
            company_names: names("companies")?,
            firm_names: names("investors")?,
            person_names: names("people")?,
            location_names: names("locations")?,
            industry_names: names("industries")?,
            vectors: open_vectors(dir, c.companies as usize)?,
            manifest,
        })
    }
}

/// `companies.vectors`, if the index has it.
fn open_vectors(dir: &Path, companies: usize) -> Result<Option<Vectors>, IndexError> {
    let path = dir.join(COMPANY_VECTORS);
    if !path.exists() {
        return Ok(None);
    }
    Vectors::open(Bundle::open(&path, VECTORS_TAG, false)?, companies).map(Some)
}

/// Logs a structure derived in memory: `what`, its heap `bytes`, and the
/// milliseconds since `started`.
fn log_derived(what: &str, bytes: usize, started: std::time::Instant) {
    let ms = started.elapsed().as_millis() as u64;
    tracing::info!(bytes, ms, "{what} derived");
}
