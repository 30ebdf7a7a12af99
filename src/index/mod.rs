//! The on-disk index: versioned files of bitmaps, columns, relations and
//! records, plus tantivy name indexes, opened read-only through mmap.
//!
//! Every structure is a naming convention over arrays of a [`format`]
//! bundle; the module of each structure documents its arrays.

pub mod bits;
pub mod build;
pub mod checkpoints;
pub mod column;
pub mod common_edges;
pub mod derived;
pub mod docs;
pub mod entity_ids;
pub mod error;
pub mod facet;
pub mod flagged_edges;
pub mod format;
pub mod generation;
pub mod inspect;
pub mod joint_sources;
pub mod keymap;
pub mod manifest;
pub mod mmap;
pub mod names;
pub mod open;
pub mod payload;
#[cfg(test)]
mod proptests;
pub mod rank_buckets;
pub mod records;
pub mod relation;
pub mod relation_builder;
pub mod scratch;
pub mod size_buckets;
pub mod store;
pub mod text;
pub mod value_counts;
pub mod value_lists;
pub mod value_runs;
pub mod vectors;
pub mod verify;

pub use error::IndexError;
pub use open::Index;
