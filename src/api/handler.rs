//! The vocabulary of the route handlers: what a handler sees ([`Ctx`]),
//! what it produces ([`Reply`]) and how much work it may do ([`Effort`]).
//! The dispatcher (`app`) and the handlers (`routes`) both depend on this
//! module, and it on neither.

use super::envelope::{Data, Meta};
use super::errors::ApiError;
use super::params::Query;
use super::state::App;
use crate::accounts::{Charge, Principal};
use crate::index::Index;

/// A route's handler.
pub type Handler = fn(&Ctx) -> Result<Reply, ApiError>;

/// What a handler produces.
pub struct Reply {
    pub data: Data,
    pub meta: Meta,
    /// Rows returned, for per-row pricing.
    pub rows: u64,
    pub message: Option<String>,
    /// Semantic searches the request ran (recorded with its charge, counted
    /// against the plan's monthly ceiling).
    pub semantic_searches: u64,
    /// What the handler charged itself, atomically with its own change
    /// (an e-mail unlock, `Cost::Unlock`); the dispatcher charges nothing more.
    pub charged: Option<Charge>,
}

impl Reply {
    /// The same reply, having run `searches` semantic searches.
    pub fn with_semantic(mut self, searches: u64) -> Reply {
        self.semantic_searches = searches;
        self
    }
}

/// Where a request runs, and so how much work its name search may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effort {
    /// Any work: on the worker pool, or a light request on the reactor.
    Full,
    /// A first attempt on the reactor: a name search runs its exact stages
    /// only (bounded work: tens of microseconds as a rule, a few
    /// milliseconds at most), and one they cannot answer defers the whole
    /// request to the pool.
    Quick,
    /// The pool's run of a deferred request: the rate limit counted it
    /// already, and its name search goes straight to the main stage.
    Deferred,
}

/// What a handler sees.
pub struct Ctx<'a> {
    pub app: &'a App,
    /// The generation this request answers from, pinned for its whole run.
    pub index: &'a Index,
    pub effort: Effort,
    pub query: Query,
    pub params: Vec<&'a str>,
    pub body: &'a [u8],
    pub principal: &'a Principal,
}
