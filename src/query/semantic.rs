//! Semantic search over the company vectors (`index::vectors`): the top
//! companies by cosine with a query vector, among the candidates the other
//! filters of a request leave.
//!
//! # How the cap, `min_relevance` and the filters compose
//!
//! A semantic set is computed **after** every other filter of its block:
//! the candidates are the companies that pass them (and have a vector);
//! each is scored against the query; those below `min_relevance` are
//! dropped; the best [`SEMANTIC_CAP`] remain, by cosine, ties by doc id.
//! So a filter never empties a page that the cap filled with companies it
//! then removes: filters narrow first, the cap applies to what is left.
//!
//! # Search
//!
//! - Few candidates (≤ [`Tuning::exact_limit`]): every one is scored exactly
//!   (query · int8 row × scale).
//! - Many: a first pass ranks candidates by their 1-bit sketches (the
//!   Hamming distance to the query's, then a weighted agreement with it:
//!   `query::sketch`), and only the best [`Tuning::rescore`] are scored
//!   exactly. `benches/semantic`
//!   measures the recall of this against exact f32 scoring.
//!
//! Scores are computed one row at a time in a fixed order, so they do not
//! depend on how the work is split.

use std::sync::Arc;
use std::time::Instant;

use roaring::RoaringBitmap;

use crate::embed::{CachedEmbedder, Calibration};
use rayon::prelude::*;

use crate::index::vectors::{QueryCodes, Vectors};
use crate::index::Index;
use crate::query::sketch::{shortlist, QuerySketch};

/// Each semantic result set holds at most this many companies (spec §4.1.2).
pub const SEMANTIC_CAP: usize = 150;
/// How much work the search does (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tuning {
    /// Candidate sets up to this size are scored exactly, without the sketch pass.
    pub exact_limit: usize,
    /// Rows the Hamming pass keeps for the weighted-agreement pass: at
    /// least this many, or `1 / coarse_share` of the candidates when that is more.
    pub coarse: usize,
    pub coarse_share: usize,
    /// Rows the sketch pass hands to exact scoring.
    pub rescore: usize,
}

impl Tuning {
    /// What the server uses; `benches/semantic` measures its recall@150
    /// against exact f32 scoring (at 1e6 WordLlama rows: 0.954 keeping
    /// 8,192 rows for exact scoring, 0.973 keeping 16,384, 0.982 keeping
    /// 32,768, against 0.987 for an exact int8 scan of every row).
    pub const DEFAULT: Tuning = Tuning {
        exact_limit: 40_000,
        coarse: 65_536,
        coarse_share: 8,
        rescore: 32_768,
    };
}
/// Rows scored between two looks at the deadline.
const DEADLINE_STRIDE: usize = 16_384;

/// A query vector ready to search with, and the limits of the search.
#[derive(Debug, Clone, PartialEq)]
pub struct QueryVector {
    pub vector: Arc<[f32]>,
    /// The calibration of the index's model (cosine ↔ relevance).
    pub calibration: Calibration,
    /// The search gives up (as [`SemanticError::Timeout`]) past this instant.
    pub deadline: Option<Instant>,
}

/// One company of a semantic set.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hit {
    pub doc: u32,
    pub cosine: f32,
    /// `cosine` on the calibrated 0..1 scale.
    pub relevance: f32,
}

/// Why a semantic search could not run.
#[derive(Debug, Clone, PartialEq)]
pub enum SemanticError {
    /// The index has no vectors, or the server no model.
    Unavailable(String),
    /// The server's model is not the one that embedded the index.
    ModelMismatch { index: String, server: String },
    /// The query text could not be embedded.
    Embed(String),
    /// The time budget ran out.
    Timeout,
}

impl std::fmt::Display for SemanticError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SemanticError::Unavailable(why) => write!(f, "{why}"),
            SemanticError::ModelMismatch { index, server } => write!(
                f,
                "the index was embedded with {index} but this server loaded {server}"
            ),
            SemanticError::Embed(why) => write!(f, "embedding the query failed: {why}"),
            SemanticError::Timeout => write!(f, "semantic search ran out of time"),
        }
    }
}

/// Embeds `text` with `embedder` for a search of `index`, checking that the
/// model is the index's.
pub fn embed_query(
    embedder: Option<&CachedEmbedder>,
    index: &Index,
    text: &str,
    deadline: Option<Instant>,
) -> Result<QueryVector, SemanticError> {
    let vectors = index.vectors.as_ref().ok_or_else(|| {
        SemanticError::Unavailable("the index was built without company vectors".into())
    })?;
    let embedder = embedder.ok_or_else(|| {
        SemanticError::Unavailable("the server runs without a semantic model".into())
    })?;
    let (index_model, server_model) = (&vectors.meta.model, embedder.info());
    if index_model.id != server_model.id || index_model.dim != server_model.dim {
        return Err(SemanticError::ModelMismatch {
            index: index_model.id.clone(),
            server: server_model.id.clone(),
        });
    }
    let vector = embedder
        .query(text)
        .map_err(|e| SemanticError::Embed(e.to_string()))?;
    past(deadline)?;
    Ok(QueryVector {
        vector,
        calibration: index_model.calibration,
        deadline,
    })
}

fn past(deadline: Option<Instant>) -> Result<(), SemanticError> {
    match deadline {
        Some(d) if Instant::now() > d => Err(SemanticError::Timeout),
        _ => Ok(()),
    }
}

/// The semantic set: the best [`SEMANTIC_CAP`] candidates (all companies
/// with a vector when `candidates` is `None`) with relevance ≥
/// `min_relevance`, best first, ties by doc id.
pub fn semantic_set(
    vectors: &Vectors,
    query: &QueryVector,
    candidates: Option<&RoaringBitmap>,
    min_relevance: f64,
) -> Result<Vec<Hit>, SemanticError> {
    semantic_set_tuned(vectors, query, candidates, min_relevance, Tuning::DEFAULT)
}

/// [`semantic_set`] with explicit [`Tuning`].
pub fn semantic_set_tuned(
    vectors: &Vectors,
    query: &QueryVector,
    candidates: Option<&RoaringBitmap>,
    min_relevance: f64,
    tuning: Tuning,
) -> Result<Vec<Hit>, SemanticError> {
    let min_cosine = match min_relevance > 0.0 {
        true => query.calibration.cosine_at(min_relevance as f32),
        false => f32::NEG_INFINITY,
    };
    let rows = candidate_rows(vectors, candidates);
    let scored = match rows.as_deref() {
        Some(rows) if rows.len() <= tuning.exact_limit => exact(vectors, query, rows)?,
        None if vectors.rows() <= tuning.exact_limit => exact(
            vectors,
            query,
            &(0..vectors.rows() as u32).collect::<Vec<_>>(),
        )?,
        rows => {
            let best = sketch_pass(vectors, &query.vector, rows, tuning, query.deadline)?;
            exact(vectors, query, &best)?
        }
    };
    Ok(top(vectors, scored, min_cosine, &query.calibration))
}

/// The rows of `candidates` that have a vector (`None`: every row).
fn candidate_rows(vectors: &Vectors, candidates: Option<&RoaringBitmap>) -> Option<Vec<u32>> {
    let candidates = candidates?;
    Some(
        candidates
            .iter()
            .filter_map(|d| vectors.row_of(d))
            .collect(),
    )
}

/// Exact cosines of `rows`, in parallel strides (a look at the deadline between two).
fn exact(
    vectors: &Vectors,
    query: &QueryVector,
    rows: &[u32],
) -> Result<Vec<(u32, f32)>, SemanticError> {
    let codes = QueryCodes::of(&query.vector);
    let mut out = Vec::with_capacity(rows.len());
    for stride in rows.chunks(DEADLINE_STRIDE) {
        past(query.deadline)?;
        let scored = stride
            .par_iter()
            .with_min_len(1_024)
            .map(|&r| (r, vectors.cosine(&codes, r)));
        out.par_extend(scored);
    }
    Ok(out)
}

/// The rows worth scoring exactly (`query::sketch`).
fn sketch_pass(
    vectors: &Vectors,
    query: &[f32],
    rows: Option<&[u32]>,
    tuning: Tuning,
    deadline: Option<Instant>,
) -> Result<Vec<u32>, SemanticError> {
    let sketch = QuerySketch::new(query, vectors.mean());
    let candidates = rows.map_or(vectors.rows(), <[u32]>::len);
    let coarse = tuning.coarse.max(candidates / tuning.coarse_share.max(1));
    let best = shortlist(vectors, &sketch, rows, coarse, tuning.rescore);
    past(deadline)?;
    Ok(best)
}

/// The best [`SEMANTIC_CAP`] of `scored` at or above `min_cosine`, best first, ties by doc.
fn top(vectors: &Vectors, scored: Vec<(u32, f32)>, min_cosine: f32, cal: &Calibration) -> Vec<Hit> {
    let docs = vectors.docs();
    let mut hits: Vec<Hit> = scored
        .into_iter()
        .filter(|(_, c)| *c >= min_cosine)
        .map(|(row, cosine)| Hit {
            doc: docs[row as usize],
            cosine,
            relevance: cal.relevance(cosine),
        })
        .collect();
    let order = |a: &Hit, b: &Hit| b.cosine.total_cmp(&a.cosine).then(a.doc.cmp(&b.doc));
    if hits.len() > SEMANTIC_CAP {
        hits.select_nth_unstable_by(SEMANTIC_CAP - 1, order);
        hits.truncate(SEMANTIC_CAP);
    }
    hits.sort_by(order);
    hits
}
