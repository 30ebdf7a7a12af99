//! The tantivy schema of the name index and where its files live.
//!
//! ```text
//! <dir>/tantivy/    tantivy index, one segment after the build
//!     names     TEXT: the distinct folded words of the names (`analyzer.rs`)
//!     prefixes  TEXT: their distinct 1–6 character prefixes
//!     pairs     TEXT: ordered pairs of words of one name, and a word with
//!               the 1–3 character prefixes of another
//!               all three: whitespace analyzer `fundsearch_words`, freqs and field
//!               norms (block-WAND needs both: without norms tantivy 0.27
//!               records a block maximum of 0 and prunes matching blocks)
//!     docid     u64 FAST: our dense doc id (read by the collector)
//!     category  u64 FAST: optional filter value (location type, person pool...),
//!               checked by the collector
//! <dir>/names.bin   folded names by doc id, for re-scoring (see `names.rs`)
//! <dir>/ranked.bin  the `names` and `prefixes` postings ranked by placement,
//!                   and the categories by doc id (see `ranked.rs`)
//! ```

use std::path::{Path, PathBuf};

use tantivy::schema::{Field, IndexRecordOption, Schema, TextFieldIndexing, TextOptions, FAST};

use super::analyzer::WORDS_ANALYZER;
use super::error::TextError;

/// Sub-directory holding the tantivy index.
pub(crate) const TANTIVY_DIR: &str = "tantivy";
/// Field names.
pub(crate) const NAMES: &str = "names";
pub(crate) const PREFIXES: &str = "prefixes";
pub(crate) const PAIRS: &str = "pairs";
pub(crate) const DOCID: &str = "docid";
pub(crate) const CATEGORY: &str = "category";

/// Where the tantivy index of `dir` lives.
pub(crate) fn tantivy_dir(dir: &Path) -> PathBuf {
    dir.join(TANTIVY_DIR)
}

/// The schema the build writes.
pub(crate) fn schema() -> Schema {
    let indexing = TextFieldIndexing::default()
        .set_tokenizer(WORDS_ANALYZER)
        .set_index_option(IndexRecordOption::WithFreqs)
        .set_fieldnorms(true);
    let text = TextOptions::default().set_indexing_options(indexing);
    let mut builder = Schema::builder();
    builder.add_text_field(NAMES, text.clone());
    builder.add_text_field(PREFIXES, text.clone());
    builder.add_text_field(PAIRS, text);
    builder.add_u64_field(DOCID, FAST);
    builder.add_u64_field(CATEGORY, FAST);
    builder.build()
}

/// Handles of the fields.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fields {
    pub(crate) names: Field,
    pub(crate) prefixes: Field,
    pub(crate) pairs: Field,
    pub(crate) docid: Field,
    pub(crate) category: Field,
}

impl Fields {
    /// Looks the fields up; fails on an index built with another schema.
    pub(crate) fn of(schema: &Schema) -> Result<Fields, TextError> {
        Ok(Fields {
            names: schema.get_field(NAMES)?,
            prefixes: schema.get_field(PREFIXES)?,
            pairs: schema.get_field(PAIRS)?,
            docid: schema.get_field(DOCID)?,
            category: schema.get_field(CATEGORY)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schema_has_the_fields() {
        let schema = schema();
        let fields = Fields::of(&schema).expect("own schema");
        assert!(schema.get_field_entry(fields.docid).is_fast());
        assert!(schema.get_field_entry(fields.category).is_fast());
        assert!(schema.get_field_entry(fields.names).is_indexed());
        assert!(schema.get_field_entry(fields.prefixes).is_indexed());
        assert!(schema.get_field_entry(fields.pairs).is_indexed());
        assert!(Fields::of(&Schema::builder().build()).is_err());
    }
}
