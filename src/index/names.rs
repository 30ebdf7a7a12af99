//! File names and tags of an index directory.
//!
//! ```text
//! INDEX_DIR/
//!   manifest.json        written last: format version, as-of date, counts, per-file CRC-32
//!   companies.idx        tag CMPY   ids, facets, columns, sort orders, relations, key maps
//!   deals.idx            tag DEAL
//!   investors.idx        tag FIRM
//!   people.idx           tag PEOP
//!   catalog.idx          tag CTLG   locations and industries
//!   companies.{full,card}.store                 tag STOR   one record store per variant
//!   deals.full.store
//!   investors.{full,card}.store
//!   people.{full,card,email}.store
//!   catalog.{location,industry}.store
//!   companies.vectors    tag VECS   company vectors for semantic search (absent when built without a model)
//!   text/{companies,investors,people,locations,industries}/   tantivy name indexes
//! ```

pub const COMPANY_TAG: [u8; 4] = *b"CMPY";
pub const DEAL_TAG: [u8; 4] = *b"DEAL";
pub const FIRM_TAG: [u8; 4] = *b"FIRM";
pub const PERSON_TAG: [u8; 4] = *b"PEOP";
pub const CATALOG_TAG: [u8; 4] = *b"CTLG";

pub const MANIFEST_FILE: &str = "manifest.json";
pub const COMPANIES_IDX: &str = "companies.idx";
pub const DEALS_IDX: &str = "deals.idx";
pub const FIRMS_IDX: &str = "investors.idx";
pub const PEOPLE_IDX: &str = "people.idx";
pub const CATALOG_IDX: &str = "catalog.idx";
pub const COMPANY_VECTORS: &str = "companies.vectors";
pub const COMPANIES: &str = "companies";
pub const DEALS: &str = "deals";
pub const FIRMS: &str = "investors";
pub const PEOPLE: &str = "people";
pub const CATALOG: &str = "catalog";

pub const COMPANY_STORES: &[&str] = &["full"];
pub const DEAL_STORES: &[&str] = &["full"];
pub const FIRM_STORES: &[&str] = &["full", "card"];
pub const PERSON_STORES: &[&str] = &["full", "email"];
pub const CATALOG_STORES: &[&str] = &["location", "industry"];
/// Store variants of raw text, not JSON: stored without UUID references.
pub const TEXT_STORES: &[&str] = &["email"];
/// Stores (kind, variant) whose dictionary may be as large as
/// `store::DICT_MAX`; every other store's is at most `store::DICT_DEFAULT`.
pub const LARGE_DICTIONARY_STORES: &[(&str, &str)] = &[(PEOPLE, "full")];

/// `people.card.store`
pub fn store_file(kind: &str, variant: &str) -> String {
    format!("{kind}.{variant}.store")
}
pub const TEXT_DIR: &str = "text";
