//! Fuzzy name index: resolves a typed name ("sequioa cap") to the entities
//! whose names it most likely means, for the `/company/search`,
//! `/investor/search`, `/person/search`, `/location/search` and
//! `/industry/search` lookups. Plain data in (doc id + names), plain data
//! out (doc id + score in (0, 1]); no knowledge of HTTP or of other indexes.
//!
//! A search of one to four tokens is first answered, when it can be, by two
//! exact stages that score names directly:
//!
//! - the **pair stage** (`pairs.rs`, two tokens or more): the `pairs` field
//!   indexes every ordered pair of words of a name, so the names holding two
//!   query tokens ("carlos" and "fisher", each frequent) are a few short
//!   posting lists, walked by decreasing similarity bound;
//! - the **word stage** (`words.rs`): the best names matching a single
//!   token, from postings ranked by where the word sits in the names
//!   (`ranked.rs`: shortest names and first words first), walked until no
//!   posting left can beat the hits.
//!
//! Together they give the best names among all those that match through
//! the token expansions; when they would read too many postings (or a token
//! reads as two words, or the query has more than four tokens) the main
//! stage runs:
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
//! tantivy indexes the resulting words, their short prefixes and the
//! pairs of words of each name. On-disk layout: `fields.rs`, `names.rs`,
//! `ranked.rs`. Building: `build.rs`. Searching: `name_index.rs`.
//!
//! Measured at M (3 M people, 1 M companies, 50 k investors; benches/
//! `lookup_latency`, one core, limit 10, warm): the exact stages answer
//! 97–100 % of the benchmark's lookups, on average in 15–70 µs; the tantivy
//! stage, for the rest, takes 0.3–1.5 ms. The five name indexes take 554 MB
//! on disk at M (`ranked.bin` 224 MB of it).

mod analyzer;
mod build;
mod build_dir;
mod collector;
mod error;
mod expand;
mod expansion_cache;
mod fields;
mod name_index;
mod names;
mod pairs;
mod plan;
mod ranked;
mod rules;
mod scored;
mod similarity;
mod words;

pub use build::{build_name_index, NameEntry, NameIndexStats, WRITER_HEAP_BYTES};
pub use error::TextError;
pub use name_index::{NameHit, NameIndex, Stages, MAX_HITS};

#[cfg(test)]
pub(crate) mod tests_support;
