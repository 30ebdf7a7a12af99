//! The state a running server shares between requests: the index, the
//! accounts (which admit requests under the rate limit) and the semantic-search service. Handlers
//! read it through [`crate::api::handler::Ctx`]; the dispatcher
//! (`api::app`) implements request handling on it.

use std::sync::Arc;

use super::metrics::Metrics;
use super::semantic::SemanticService;
use crate::accounts::AccountStore;
use crate::index::generation::Generations;

/// Shared state of a running server.
pub struct App {
    /// The index generation being served (swapped on reload; each request pins one).
    pub generations: Generations,
    /// Request, credit and pool figures (`GET /metrics` when enabled).
    pub metrics: Metrics,
    pub accounts: Arc<dyn AccountStore>,
    /// Requests per minute per key (0: no limit), admitted by `accounts`.
    pub rate_limit: u32,
    pub semantic: SemanticService,
}
