//! Semantic search as the server runs it: the loaded model (behind a query
//! cache), the time budget of one semantic search, and the errors a
//! semantic block can answer with.
//!
//! A request's `search_query` texts are embedded here, before the engine
//! runs (the handlers run on the worker pool, off the reactor), and each
//! block's vector is attached to its typed request.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;

use crate::embed::CachedEmbedder;
use crate::index::Index;
use crate::query::request::Semantic;
use crate::query::semantic::{embed_query, SemanticError};

use super::errors::{ApiError, Code};

/// Query texts kept by the embedding cache.
pub const QUERY_CACHE: usize = 1_024;
/// Default time budget of the semantic part of one request.
pub const DEFAULT_BUDGET: Duration = Duration::from_secs(5);

/// The server's semantic search.
pub struct SemanticService {
    embedder: Option<Arc<CachedEmbedder>>,
    /// Why there is no model (shown to clients asking for semantic search).
    missing: String,
    budget: Duration,
}

impl SemanticService {
    /// A server with `embedder`, each semantic search within `budget`.
    pub fn new(embedder: Arc<CachedEmbedder>, budget: Duration) -> SemanticService {
        SemanticService {
            embedder: Some(embedder),
            missing: String::new(),
            budget,
        }
    }

    /// A server without a model; `why` says so to clients.
    pub fn none(why: impl Into<String>) -> SemanticService {
        SemanticService {
            embedder: None,
            missing: why.into(),
            budget: DEFAULT_BUDGET,
        }
    }

    pub fn model_id(&self) -> Option<&str> {
        self.embedder.as_ref().map(|e| e.info().id.as_str())
    }

    /// Embeds the query of `semantic` (if any) for a search of `index`.
    pub fn attach(
        &self,
        index: &Index,
        semantic: Option<&mut Semantic>,
        block: &'static str,
        started: Instant,
    ) -> Result<(), ApiError> {
        let Some(semantic) = semantic else {
            return Ok(());
        };
        let deadline = Some(started + self.budget);
        let vector = match (&self.embedder, index.vectors.is_some()) {
            (None, true) => Err(SemanticError::Unavailable(self.missing.clone())),
            (e, _) => embed_query(e.as_deref(), index, &semantic.query, deadline),
        };
        semantic.vector = Some(vector.map_err(|e| semantic_error(block, &e))?);
        Ok(())
    }
}

/// 429 `USAGE_LIMIT_EXCEEDED`: the plan's monthly semantic searches are
/// used up (reference §2; no `Retry-After`: the ceiling resets with the
/// calendar month).
pub fn usage_limit(block: &'static str, used: u64, limit: u64) -> ApiError {
    ApiError::of(
        Code::UsageLimitExceeded,
        &[],
        json!({
            "failed_block": block,
            "currentUsage": used,
            "limit": limit,
            "help": "The monthly semantic-search ceiling of your plan is reached; it resets at the start of the next calendar month (UTC). Filters without search_query still work."
        }),
    )
}

/// The API error of a semantic block that could not be answered.
pub fn semantic_error(block: &'static str, e: &SemanticError) -> ApiError {
    match e {
        SemanticError::Timeout => ApiError::of(
            Code::Timeout,
            &[(
                "operation",
                &format!("Semantic search ({block}.search_query)"),
            )],
            json!({
                "failed_block": block,
                "help": "Narrow the request with other filters, or retry."
            }),
        ),
        SemanticError::ModelMismatch { index, server } => ApiError::of(
            Code::SemanticSearchUnavailable,
            &[("block", block), ("reason", &e.to_string())],
            json!({
                "failed_block": block,
                "index_model": index,
                "server_model": server,
                "help": format!("Start the server with --semantic-model {index}, or rebuild the index with the server's model.")
            }),
        ),
        SemanticError::Unavailable(_) => ApiError::of(
            Code::SemanticSearchUnavailable,
            &[
                ("block", block),
                ("reason", &format!("not on this server: {e}")),
            ],
            json!({
                "failed_block": block,
                "help": "Remove search_query and min_relevance and describe the companies with locations, industries or super_categories (see /industry/search)."
            }),
        ),
        SemanticError::Embed(_) => {
            tracing::error!(error = %e, "semantic search failed");
            ApiError::of(Code::InternalServerError, &[], serde_json::Value::Null)
        }
    }
}
