//! The semantic blocks of the collection searches (`company.search_query`
//! on `/companies` and `/people`, `company_investments.search_query` on
//! `/investors`, `investor.deals.search_query` on `/people`): each is a
//! semantic set of companies (`query::semantic`) computed among the
//! companies its block's other company filters leave, then joined like any
//! other company set.

use std::collections::HashMap;

use roaring::RoaringBitmap;

use crate::index::docs::bitmap_of;
use crate::index::Index;
use crate::query::filter::evaluate;
use crate::query::plan::Plan;
use crate::query::request::{CompanyFilter, Semantic};
use crate::query::semantic::{semantic_set, Hit, SemanticError};

use super::blocks::company_on_companies;
use super::joins::targets_of;
use super::QueryError;

/// The semantic set of `s` among `candidates` (companies).
pub fn semantic_hits(
    index: &Index,
    s: &Semantic,
    block: &'static str,
    candidates: &RoaringBitmap,
) -> Result<Vec<Hit>, QueryError> {
    let fail = |error| QueryError::Semantic { block, error };
    let vectors = index.vectors.as_ref().ok_or_else(|| {
        fail(SemanticError::Unavailable(
            "the index was built without company vectors".into(),
        ))
    })?;
    let query = s.vector.as_ref().ok_or_else(|| {
        fail(SemanticError::Unavailable(
            "the query text was not embedded".into(),
        ))
    })?;
    let all = candidates.len() == index.companies.docs as u64;
    semantic_set(
        vectors,
        query,
        (!all).then_some(candidates),
        s.min_relevance,
    )
    .map_err(fail)
}

/// The semantic set of `s` among the companies matching `company`.
pub fn semantic_companies(
    index: &Index,
    company: &CompanyFilter,
    s: &Semantic,
    block: &'static str,
) -> Result<Vec<Hit>, QueryError> {
    let mut plan = Plan::default();
    company_on_companies(&mut plan, index, company);
    let candidates = evaluate(&index.companies, &plan)?;
    semantic_hits(index, s, block, &candidates)
}

/// A semantic set as a join input: its companies, their deals and each
/// company's cosine.
pub struct SemanticSet {
    pub companies: RoaringBitmap,
    pub cosine: HashMap<u32, f32>,
}

impl SemanticSet {
    pub fn of(hits: &[Hit]) -> SemanticSet {
        SemanticSet {
            companies: bitmap_of(hits.iter().map(|h| h.doc).collect()),
            cosine: hits.iter().map(|h| (h.doc, h.cosine)).collect(),
        }
    }

    /// Every deal of the set's companies.
    pub fn deals(&self, index: &Index) -> Result<RoaringBitmap, QueryError> {
        Ok(targets_of(
            &index.companies,
            "deals",
            self.companies.iter(),
        )?)
    }

    pub fn cosine(&self, company: u32) -> Option<f32> {
        self.cosine.get(&company).copied()
    }
}

/// A cosine as a sort key that keeps its order (higher is better).
pub fn cosine_key(cosine: f32) -> i64 {
    (cosine as f64 * 1e9).round() as i64
}
