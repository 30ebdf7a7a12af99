//! The transport-agnostic core of the server: one request in, one response
//! out. Order of checks, the same for every route:
//!
//! 1. `/health` answers without authentication;
//! 2. the bearer key is authenticated (401);
//! 3. the key's rate limit is counted (429);
//! 4. the route is matched (404 / 405) and its handler runs;
//! 5. the cost is computed from what the handler returned and charged
//!    durably (402 and nothing charged if the balance cannot pay);
//! 6. the body is rendered with the balances after the charge.
//!
//! Handlers run synchronously; the HTTP layer calls [`App::handle`] on a
//! bounded blocking pool.

use std::sync::Arc;
use std::time::Instant;

use serde_json::json;

use super::accounts::{Accounts, AuthFailure, Charge, Principal};
use super::envelope::{success_body, Data, Meta};
use super::errors::ApiError;
use super::params::Query;
use super::rate_limit::RateLimiter;
use super::routes::{match_route, Cost, RouteMatch};
use super::semantic::SemanticService;
use crate::index::Index;

/// Shared state of a running server.
pub struct App {
    pub index: Arc<Index>,
    pub accounts: Arc<Accounts>,
    pub limiter: RateLimiter,
    pub semantic: SemanticService,
}

/// A request, as the HTTP layer hands it over.
#[derive(Debug, Clone, Default)]
pub struct Request<'a> {
    pub method: &'a str,
    pub path: &'a str,
    pub query: Option<&'a str>,
    pub authorization: Option<&'a str>,
    pub body: &'a [u8],
    pub request_id: &'a str,
}

/// A response, ready to be written.
#[derive(Debug, Clone, PartialEq)]
pub struct Response {
    pub status: u16,
    pub body: Vec<u8>,
    pub retry_after: Option<u64>,
    /// Credits charged (for the access log).
    pub credits: u64,
}

impl Response {
    pub fn error(e: &ApiError) -> Response {
        Response {
            status: e.status,
            body: serde_json::to_vec(&e.body()).unwrap_or_default(),
            retry_after: e.retry_after,
            credits: 0,
        }
    }
}

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

/// What [`App::handle_quick`] did.
#[derive(Debug)]
pub enum Quick {
    Done(Response),
    /// Run it again with [`App::handle_with`] and [`Effort::Deferred`],
    /// on the pool.
    Deferred,
}

/// What a handler sees.
pub struct Ctx<'a> {
    pub app: &'a App,
    pub effort: Effort,
    pub query: Query,
    pub params: Vec<&'a str>,
    pub body: &'a [u8],
    pub principal: &'a Principal,
}

impl App {
    pub fn handle(&self, req: &Request) -> Response {
        self.handle_with(req, Effort::Full)
    }

    /// A first attempt on the reactor ([`Effort::Quick`]).
    pub fn handle_quick(&self, req: &Request) -> Quick {
        match self.handle_checked(req, Effort::Quick) {
            Err(e) if e.is_deferred() => Quick::Deferred,
            Ok(r) => Quick::Done(r),
            Err(e) => Quick::Done(Response::error(&e)),
        }
    }

    /// A request run with `effort`: [`Effort::Full`], or
    /// [`Effort::Deferred`] for one [`App::handle_quick`] deferred (a
    /// deferral under `Quick` answers as [`ApiError::overloaded`]).
    pub fn handle_with(&self, req: &Request, effort: Effort) -> Response {
        match self.handle_checked(req, effort) {
            Ok(r) => r,
            Err(e) => Response::error(&e),
        }
    }

    fn handle_checked(&self, req: &Request, effort: Effort) -> Result<Response, ApiError> {
        let path = normalise_path(req.path);
        if path == "/health" {
            return Ok(self.health());
        }
        let principal = self.authenticate(req.authorization)?;
        if effort != Effort::Deferred {
            self.limiter
                .check(&principal.key_id, Instant::now())
                .map_err(|wait| ApiError::rate_limited(self.limiter.limit(), wait))?;
        }
        let RouteMatch { route, params } = match_route(req.method, &path)?;
        let ctx = Ctx {
            app: self,
            effort,
            query: Query::parse(req.query)?,
            params,
            body: req.body,
            principal: &principal,
        };
        let reply = (route.handler)(&ctx)?;
        let cost = match route.cost {
            Cost::Free => 0,
            Cost::PerCall(n) => n,
            Cost::PerRow => reply.rows,
        };
        let charge = self.charge(&principal, cost, reply.semantic_searches, req.request_id)?;
        let meta = reply.meta.to_value(&charge);
        let body = success_body(&reply.data, &meta, reply.message.as_deref());
        Ok(Response {
            status: 200,
            body,
            retry_after: None,
            credits: charge.credits_used,
        })
    }

    fn authenticate(&self, header: Option<&str>) -> Result<Principal, ApiError> {
        let header = header
            .map(str::trim)
            .filter(|h| !h.is_empty())
            .ok_or_else(ApiError::auth_missing)?;
        let key = header
            .strip_prefix("Bearer ")
            .or_else(|| header.strip_prefix("bearer "))
            .map(str::trim)
            .ok_or_else(ApiError::auth_malformed)?;
        self.accounts.authenticate(key).map_err(|f| match f {
            AuthFailure::Malformed => ApiError::auth_malformed(),
            AuthFailure::Unknown => ApiError::auth_unknown(),
            AuthFailure::Inactive => ApiError::auth_inactive(),
        })
    }

    fn charge(
        &self,
        principal: &Principal,
        credits: u64,
        semantic: u64,
        request_id: &str,
    ) -> Result<Charge, ApiError> {
        match self.accounts.charge_with(principal, credits, semantic, chrono::Utc::now()) {
            Ok(Ok(charge)) => Ok(charge),
            Ok(Err(short)) => Err(ApiError::insufficient_credits(
                short.credits_needed,
                short.balance.monthly_remaining,
                short.balance.purchased_remaining,
            )),
            Err(e) => {
                eprintln!("request {request_id}: could not record a charge: {e}");
                Err(ApiError::internal(request_id))
            }
        }
    }

    fn health(&self) -> Response {
        let c = &self.index.manifest.counts;
        let body = json!({
            "status": "ok",
            "index": { "as_of": self.index.manifest.as_of, "built_at": self.index.manifest.built_at,
                       "companies": c.companies, "deals": c.deals, "investors": c.investors, "people": c.people },
        });
        Response {
            status: 200,
            body: serde_json::to_vec(&body).unwrap_or_default(),
            retry_after: None,
            credits: 0,
        }
    }
}

/// `/v1/company/` and `/v1/company` are the same route.
fn normalise_path(path: &str) -> String {
    let trimmed = path.trim_end_matches('/');
    if trimmed.is_empty() {
        "/".to_string()
    } else {
        trimmed.to_string()
    }
}
