//! Candidate retrieval: the tantivy query built from the token expansions.
//!
//! Every expansion (`expand.rs`) becomes a `TermQuery` (BM25: short names
//! and rare words win) boosted by `weight × idf(token) / idf(term)`, so that
//! it scores `weight × idf(token) × length norm`: a typo or prefix
//! expansion counts like the word the user meant, scaled by how good the
//! match is, however rare the misspelt term itself is. `idf(token)` is that
//! of the token's best expansion, floored at [`IDF_FLOOR`]; a small
//! [`popularity`] factor prefers frequent words among equal expansions.
//! All clauses are flat `Should` term clauses, which keeps a union eligible
//! for block-WAND (boosted term queries still yield term scorers).
//!
//! Tokens (plus pairs of adjacent tokens that spell an indexed word, and
//! two-word readings of a token that is not one) are split by cost (the
//! postings of their expansions):
//!
//! - **drivers**, the cheapest tokens within [`DRIVER_BUDGET`] postings in
//!   total: a document must match one of them (`Must` union);
//! - **the others** (frequent words such as "capital", "john") only add
//!   to the score of documents found by the drivers (`Should`, evaluated by
//!   seeking their postings, never by walking them), with their
//!   [`OPTIONAL_EXPANSIONS`] best expansions;
//! - when no token is cheap enough ("john smith"), one flat union of the
//!   [`FALLBACK_EXPANSIONS`] best expansions of every token is searched with
//!   block-WAND, which skips the blocks of single-word matches once enough
//!   documents match both words.

use std::sync::Arc;

use tantivy::query::{BooleanQuery, BoostQuery, Occur, Query, TermQuery};
use tantivy::schema::IndexRecordOption;
use tantivy::{Searcher, Term};

use super::error::TextError;
use super::expand::{expand_concatenation, expand_split, expand_token, Expansion};
use super::expansion_cache::ExpansionCache;
use super::fields::Fields;
use super::similarity::ScoringQuery;

/// Postings the driver tokens may walk in total.
pub(crate) const DRIVER_BUDGET: u64 = 30_000;
/// Expansions of a non-driver token that still add to scores.
pub(crate) const OPTIONAL_EXPANSIONS: usize = 3;
/// Expansions per token when no token is a driver (all are frequent words).
pub(crate) const FALLBACK_EXPANSIONS: usize = 4;
/// Smallest token idf (that of a word in ~3 % of the documents): a word
/// the user typed that is also in the name is evidence however common it
/// is, and must outweigh the BM25 length penalty of the extra word, so that
/// "Drift Labs" outranks the many "Drift" for "drift labs".
const IDF_FLOOR: f32 = 3.5;
/// Largest bonus for frequent expansions (see [`popularity`]).
const POPULARITY: f32 = 0.1;

/// The expansions of one query token and what walking them costs.
struct TokenTerms {
    expansions: Vec<Expansion>,
    cost: u64,
    idf: f32,
}

impl TokenTerms {
    /// `expansions` non-empty, best first.
    fn new(expansions: Vec<Expansion>, docs: u64) -> TokenTerms {
        let cost = expansions.iter().map(|e| e.doc_freq).sum();
        let idf = expansions
            .first()
            .map_or(0.0, |best| bm25_idf(best.doc_freq, docs))
            .max(IDF_FLOOR);
        TokenTerms {
            expansions,
            cost,
            idf,
        }
    }
}

/// What the query tokens stand for in the index: per token, its
/// two-word readings (when it is not itself a word), its expansions, and
/// the word it spells with the token before it.
pub(crate) struct QueryTerms {
    groups: Vec<TokenGroup>,
}

/// The indexed terms of one query token (see [`QueryTerms`]).
pub(crate) struct TokenGroup {
    pub(crate) splits: Vec<[Expansion; 2]>,
    pub(crate) expansions: Arc<Vec<Expansion>>,
    pub(crate) concatenation: Option<Expansion>,
}

impl QueryTerms {
    /// Expands every token of `query` (through `cache`).
    pub(crate) fn of(
        searcher: &Searcher,
        fields: Fields,
        query: &ScoringQuery,
        cache: &ExpansionCache,
    ) -> Result<QueryTerms, TextError> {
        let mut groups = Vec::with_capacity(query.len());
        for qi in 0..query.len() {
            let expansions = cache.get_or_compute(query.token(qi), query.prefix_ok(qi), || {
                expand_token(searcher, fields, query, qi)
            })?;
            let splits = if expansions.first().is_some_and(|e| e.weight >= 1.0) {
                Vec::new()
            } else {
                expand_split(searcher, fields, query.token(qi))?
            };
            let concatenation = if qi > 0 {
                expand_concatenation(searcher, fields, query.token(qi - 1), query.token(qi))?
            } else {
                None
            };
            groups.push(TokenGroup {
                splits,
                expansions,
                concatenation,
            });
        }
        Ok(QueryTerms { groups })
    }

    /// The terms of each query token, in query order.
    pub(crate) fn groups(&self) -> &[TokenGroup] {
        &self.groups
    }

    /// Whether some token is read as two words.
    pub(crate) fn has_splits(&self) -> bool {
        self.groups.iter().any(|g| !g.splits.is_empty())
    }
}

/// The retrieval query, or `None` when no token matches any indexed term.
pub(crate) fn candidate_query(
    fields: Fields,
    docs: u64,
    terms: &QueryTerms,
) -> Option<Box<dyn Query>> {
    let docs = docs.max(1);
    let mut tokens = Vec::with_capacity(2 * terms.groups.len());
    for group in &terms.groups {
        tokens.extend(
            group
                .splits
                .iter()
                .map(|pair| TokenTerms::new(pair.to_vec(), docs)),
        );
        if !group.expansions.is_empty() {
            tokens.push(TokenTerms::new(group.expansions.as_ref().clone(), docs));
        }
        tokens.extend(
            group
                .concatenation
                .iter()
                .map(|expansion| TokenTerms::new(vec![expansion.clone()], docs)),
        );
    }
    if tokens.is_empty() {
        return None;
    }
    tokens.sort_by_key(|t| t.cost);
    let drivers = count_drivers(&tokens);
    let all = usize::MAX;
    if drivers == 0 {
        return Some(union(fields, &tokens, FALLBACK_EXPANSIONS, docs));
    }
    if drivers == tokens.len() {
        return Some(union(fields, &tokens, all, docs));
    }
    let must = union(fields, &tokens[..drivers], all, docs);
    let should = union(fields, &tokens[drivers..], OPTIONAL_EXPANSIONS, docs);
    Some(Box::new(BooleanQuery::new(vec![
        (Occur::Must, must),
        (Occur::Should, should),
    ])))
}

/// How many of the cheapest tokens fit in [`DRIVER_BUDGET`] together.
fn count_drivers(sorted: &[TokenTerms]) -> usize {
    let mut spent = 0u64;
    sorted
        .iter()
        .take_while(|t| {
            spent = spent.saturating_add(t.cost);
            spent <= DRIVER_BUDGET
        })
        .count()
}

/// A flat `Should` union of the first `per_token` expansions of `tokens`.
fn union(fields: Fields, tokens: &[TokenTerms], per_token: usize, docs: u64) -> Box<dyn Query> {
    let clauses = tokens
        .iter()
        .flat_map(|t| t.expansions.iter().take(per_token).map(move |e| (t.idf, e)))
        .map(|(idf, e)| (Occur::Should, term_clause(fields, e, idf, docs)))
        .collect();
    Box::new(BooleanQuery::new(clauses))
}

/// One expansion, boosted to score like its token (see the module docs).
fn term_clause(fields: Fields, expansion: &Expansion, token_idf: f32, docs: u64) -> Box<dyn Query> {
    let field = if expansion.prefix {
        fields.prefixes
    } else {
        fields.names
    };
    let term = Term::from_field_text(field, &expansion.term);
    let query = Box::new(TermQuery::new(term, IndexRecordOption::WithFreqs));
    let term_idf = bm25_idf(expansion.doc_freq, docs).max(f32::EPSILON);
    let boost = expansion.weight * token_idf / term_idf * popularity(expansion.doc_freq, docs);
    Box::new(BoostQuery::new(query, boost))
}

/// `1 + POPULARITY × log(1 + freq) / log(1 + docs)`: among equally good
/// expansions, documents with the more frequent word rank first ("kezanbel"
/// is more likely "kazanbel" in 112 names than "dezanbel" in 7).
fn popularity(freq: u64, docs: u64) -> f32 {
    let docs = docs.max(freq).max(1) as f32;
    1.0 + POPULARITY * (1.0 + freq as f32).ln() / (1.0 + docs).ln()
}

/// BM25's idf of a term found in `freq` of `docs` documents (as tantivy
/// computes it).
pub(crate) fn bm25_idf(freq: u64, docs: u64) -> f32 {
    let (freq, docs) = (freq as f32, docs.max(freq) as f32);
    (1.0 + (docs - freq + 0.5) / (freq + 0.5)).ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn token(costs: &[u64]) -> TokenTerms {
        let expansions = costs
            .iter()
            .map(|&doc_freq| Expansion {
                term: format!("t{doc_freq}"),
                prefix: false,
                doc_freq,
                weight: 1.0,
            })
            .collect();
        TokenTerms::new(expansions, 1_000_000)
    }

    #[test]
    fn idf_falls_with_frequency_and_is_positive() {
        let rare = bm25_idf(1, 1_000_000);
        let common = bm25_idf(100_000, 1_000_000);
        assert!(rare > common && common > 0.0);
        assert!(bm25_idf(0, 1_000_000) > rare);
        assert!(bm25_idf(10, 5) > 0.0);
    }

    #[test]
    fn popularity_is_a_small_bonus_growing_with_frequency() {
        let (rare, common) = (popularity(7, 1_000_000), popularity(112, 1_000_000));
        assert!(1.0 < rare && rare < common && common <= 1.0 + POPULARITY);
        assert!(popularity(0, 0) >= 1.0);
    }

    #[test]
    fn drivers_are_the_cheap_tokens_within_budget() {
        assert_eq!(token(&[300, 200]).cost, 500);
        let half = DRIVER_BUDGET / 2;
        assert_eq!(
            count_drivers(&[token(&[300]), token(&[DRIVER_BUDGET * 2])]),
            1
        );
        assert_eq!(count_drivers(&[token(&[300]), token(&[half])]), 2);
        assert_eq!(
            count_drivers(&[token(&[DRIVER_BUDGET + 1]), token(&[DRIVER_BUDGET * 2])]),
            0
        );
        assert_eq!(count_drivers(&[token(&[half + 1]), token(&[half + 1])]), 1);
    }
}
