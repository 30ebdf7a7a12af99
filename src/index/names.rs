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
//!   companies.store      tag STOR   variants full, card
//!   deals.store          tag STOR   variant full
//!   investors.store      tag STOR   variants full, card
//!   people.store         tag STOR   variants full, list (empty = same as full), card, email
//!   catalog.store        tag STOR   variants location, industry
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
pub const COMPANIES_STORE: &str = "companies.store";
pub const DEALS_STORE: &str = "deals.store";
pub const FIRMS_STORE: &str = "investors.store";
pub const PEOPLE_STORE: &str = "people.store";
pub const CATALOG_STORE: &str = "catalog.store";
pub const TEXT_DIR: &str = "text";
