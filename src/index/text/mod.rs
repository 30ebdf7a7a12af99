//! Fuzzy name index: resolves a typed name ("sequioa cap") to the entities
//! whose names it most likely means, for the `/company/search`,
//! `/investor/search`, `/person/search`, `/location/search` and
//! `/industry/search` lookups. Plain data in (doc id + names), plain data
//! out (doc id + score in (0, 1]); no knowledge of HTTP or of other indexes.
//!
//! Two stages:
//!
//! 1. **Retrieval** with tantivy: every query token is expanded to the
//!    indexed words it matches exactly, with typos (1 edit for 4–7
//!    characters, 2 from 8) or as a prefix (`rules.rs`, `expand.rs`); the
//!    expansions become boosted term clauses, frequent words only adding to
//!    the score of documents found through rarer ones (`plan.rs`); the best
//!    50 documents by tantivy score are kept (`collector.rs`: block-WAND
//!    pruning, ties by doc id, optional category filter).
//! 2. **Re-scoring** in Rust (`similarity.rs`): a normalised similarity
//!    between the folded query and each candidate's best folded name, read
//!    from a memory-mapped side file (`names.rs`) rather than tantivy's
//!    compressed doc store. Exact folded full-name matches alone score 1.0.
//!
//! Folding (case, accents, punctuation) is one analyzer (`analyzer.rs`)
//! applied in Rust to names at build time and to queries at search time;
//! tantivy indexes the resulting words and their short prefixes. On-disk
//! layout: `fields.rs`, `names.rs`. Building: `build.rs`. Searching:
//! `name_index.rs`.
//!
//! Measured on 1 M synthetic names (60 % syllable-compound companies with
//! suffixes, 40 % person names; heavily skewed, so many duplicates), one
//! core, best of 3 runs per query: build ≈ 6–10 s, 46 MB on disk; `search`
//! with limit 10, p50 0.23–0.30 ms and p99 ≈ 1.4 ms for exact, one-typo and
//! prefix queries.

mod analyzer;
mod build;
mod collector;
mod error;
mod expand;
mod expansion_cache;
mod fields;
mod name_index;
mod names;
mod plan;
mod rules;
mod similarity;

pub use build::{build_name_index, NameEntry, NameIndexStats};
pub use error::TextError;
pub use name_index::{NameHit, NameIndex, MAX_HITS};

#[cfg(test)]
pub(crate) mod tests_support;
