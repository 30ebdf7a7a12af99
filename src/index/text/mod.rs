//! Fuzzy name index: resolves a typed name ("sequioa cap") to the entities
//! whose names it most likely means, for the `/company/search`,
//! `/investor/search`, `/person/search`, `/location/search` and
//! `/industry/search` lookups. Plain data in (doc id + names), plain data
//! out (doc id + score in (0, 1]); no knowledge of HTTP or of other indexes.
//!
//! Two stages:
//!
//! 1. **Retrieval** with tantivy (`plan.rs`): every query token matches
//!    exactly, with typos (1 edit for 4–7 characters, 2 from 8) or as a
//!    prefix (`rules.rs`), in any order; the best 50 documents by tantivy
//!    score are kept (`collector.rs`, ties by doc id).
//! 2. **Re-scoring** in Rust (`similarity.rs`): a normalised similarity
//!    between the folded query and each candidate's best folded name, read
//!    from a memory-mapped side file (`names.rs`) rather than tantivy's
//!    compressed doc store. Exact folded full-name matches alone score 1.0.
//!
//! Folding (case, accents, punctuation) is one analyzer (`analyzer.rs`)
//! used by the index, the side file and the queries alike. On-disk layout:
//! `fields.rs`. Building: `build.rs`. Searching: `name_index.rs`.

mod analyzer;
mod build;
mod collector;
mod error;
mod fields;
mod name_index;
mod names;
mod plan;
mod rules;
mod similarity;

pub use build::{build_name_index, NameEntry, NameIndexStats};
pub use error::TextError;
pub use name_index::{NameHit, NameIndex};

#[cfg(test)]
pub(crate) mod tests_support;
