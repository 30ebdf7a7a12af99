//! The state a running server shares between requests: the index, the
//! accounts, the rate limiter and the semantic-search service. Handlers
//! read it through [`crate::api::handler::Ctx`]; the dispatcher
//! (`api::app`) implements request handling on it.

use std::sync::Arc;

use crate::accounts::AccountStore;
use super::rate_limit::RateLimiter;
use super::semantic::SemanticService;
use crate::index::Index;

/// Shared state of a running server.
pub struct App {
    pub index: Arc<Index>,
    pub accounts: Arc<dyn AccountStore>,
    pub limiter: RateLimiter,
    pub semantic: SemanticService,
}
