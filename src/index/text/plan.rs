//! Candidate retrieval: the tantivy query built from the query tokens.
//!
//! One `Should` group per token (any word order, partial matches allowed):
//!
//! - `TermQuery` on the exact token (BM25: rare words and short names win);
//! - `FuzzyTermQuery` within the typo budget of `rules.rs`, transpositions
//!   costing one edit, at constant score `0.8 × idf`;
//! - `FuzzyTermQuery::new_prefix` with distance 0 when the token may be a
//!   prefix, at constant score `0.6 × idf`.
//!
//! `idf` is the BM25 idf of the exact token (the highest possible when the
//! token is not in the index, i.e. a typo), so expansions of rare words weigh
//! more than those of common ones. Tokens found in more than
//! [`COMMON_FRACTION`] of the documents (and in more than [`COMMON_MIN_DOCS`]) are real, frequent words: they keep
//! the exact clause only, since expanding them would walk huge postings for
//! nothing. A category filter is a `Must` term on the `category` field.

use tantivy::query::{BooleanQuery, BoostQuery, FuzzyTermQuery, Occur, Query, TermQuery};
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::{Searcher, Term};

use super::error::TextError;
use super::fields::Fields;
use super::rules::{max_typos, prefix_allowed};

/// Tokens in more documents than this fraction (and than
/// [`COMMON_MIN_DOCS`]) are not expanded.
pub(crate) const COMMON_FRACTION: f32 = 0.002;
pub(crate) const COMMON_MIN_DOCS: u64 = 1_000;
const TYPO_WEIGHT: f32 = 0.8;
const PREFIX_WEIGHT: f32 = 0.6;

/// The retrieval query for `tokens` (folded, non-empty).
pub(crate) fn candidate_query(
    searcher: &Searcher,
    fields: Fields,
    tokens: &[String],
    category: Option<u8>,
) -> Result<Box<dyn Query>, TextError> {
    let docs = searcher.num_docs().max(1);
    let mut groups: Vec<(Occur, Box<dyn Query>)> = Vec::with_capacity(tokens.len());
    for (index, token) in tokens.iter().enumerate() {
        let prefix = prefix_allowed(index, tokens.len(), token.chars().count());
        groups.push((Occur::Should, token_query(searcher, fields.names, token, prefix, docs)?));
    }
    let names: Box<dyn Query> = Box::new(BooleanQuery::new(groups));
    Ok(match category {
        None => names,
        Some(category) => {
            let term = Term::from_field_u64(fields.category, u64::from(category));
            let filter = Box::new(TermQuery::new(term, IndexRecordOption::Basic));
            Box::new(BooleanQuery::new(vec![(Occur::Must, names), (Occur::Must, filter)]))
        }
    })
}

/// The `Should` group of one token.
fn token_query(
    searcher: &Searcher,
    field: Field,
    token: &str,
    prefix: bool,
    docs: u64,
) -> Result<Box<dyn Query>, TextError> {
    let term = Term::from_field_text(field, token);
    let freq = searcher.doc_freq(&term)?;
    let idf = bm25_idf(freq, docs);
    let mut variants: Vec<(Occur, Box<dyn Query>)> = Vec::with_capacity(3);
    if freq > 0 {
        variants.push((Occur::Should, Box::new(TermQuery::new(term.clone(), IndexRecordOption::WithFreqs))));
    }
    if !is_common(freq, docs) {
        let typos = max_typos(token.chars().count());
        if typos > 0 {
            let fuzzy = Box::new(FuzzyTermQuery::new(term.clone(), typos, true));
            variants.push((Occur::Should, Box::new(BoostQuery::new(fuzzy, TYPO_WEIGHT * idf))));
        }
        if prefix {
            let starts = Box::new(FuzzyTermQuery::new_prefix(term, 0, true));
            variants.push((Occur::Should, Box::new(BoostQuery::new(starts, PREFIX_WEIGHT * idf))));
        }
    }
    Ok(Box::new(BooleanQuery::new(variants)))
}

/// Whether a token in `freq` of `docs` documents is too common to expand.
fn is_common(freq: u64, docs: u64) -> bool {
    freq > COMMON_MIN_DOCS && freq as f32 > COMMON_FRACTION * docs as f32
}

/// BM25's idf of a term found in `freq` of `docs` documents.
fn bm25_idf(freq: u64, docs: u64) -> f32 {
    let (freq, docs) = (freq as f32, docs.max(freq) as f32);
    (1.0 + (docs - freq + 0.5) / (freq + 0.5)).ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn idf_falls_with_frequency_and_is_positive() {
        let rare = bm25_idf(1, 1_000_000);
        let common = bm25_idf(100_000, 1_000_000);
        assert!(rare > common && common > 0.0);
        assert!(bm25_idf(0, 1_000_000) > rare);
        assert!(bm25_idf(10, 5) > 0.0);
    }

    #[test]
    fn only_frequent_tokens_of_large_indexes_are_common() {
        assert!(!is_common(3, 32));
        assert!(!is_common(1_000, 100_000));
        assert!(is_common(5_000, 1_000_000));
        assert!(!is_common(1_500, 1_000_000));
    }
}
