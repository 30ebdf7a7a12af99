//! The transport-agnostic core of the server: one request in, one response
//! out. Order of checks, the same for every route:
//!
//! 1. `/health` answers without authentication;
//! 2. the bearer key is authenticated (401);
//! 3. the key's rate limit is counted (429);
//! 4. the route is matched (404 / 405), its query string checked against
//!    the endpoint's declaration (`api::declare`), and its handler runs;
//! 5. the cost is computed from the declared price and what the handler
//!    returned, and charged (402 and nothing charged if the balance cannot
//!    pay); the response goes out only once the charge is durable (an
//!    [`Answer`] carries what to wait for: the transport waits without
//!    holding a thread, [`App::handle`] blocks);
//! 6. the body is rendered with the balances after the charge, `meta`
//!    shaped as declared.
//!
//! Every error a handler returns is held to the endpoint's declared code
//! list: a 400 it does not declare is answered with its declared `invalid`
//! code instead (see [`conform`]). `GET /openapi.json` (also under `/v1`)
//! answers without a key, like `/health` (the table of such resources is
//! [`super::public`]).
//!
//! Each request pins the index generation current when it starts and is
//! answered from it alone (`X-Index-Generation` names it), however many
//! swaps happen meanwhile.
//!
//! Handlers run synchronously; the HTTP layer calls [`App::answer`] on a
//! bounded blocking pool and awaits the answer's charge on the reactor.

use serde_json::{json, Value};

use super::declare::endpoint::{Cost, Endpoint, Gating, Input, UnknownParams};
use super::envelope::success_body;
use super::errors::{ApiError, Code, Item};
use super::handler::{Ctx, Effort};
use super::params::Query;
use super::public;
pub use super::response::{Response, JSON};
use super::routes::{match_route, RouteMatch};
pub use super::state::App;
use crate::accounts::{AuthFailure, Charge, Durability, Principal};
use crate::index::Index;

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

/// What [`App::handle_quick`] did.
#[derive(Debug)]
pub enum Quick {
    Done(Answer),
    /// Run it again with [`App::answer`] and [`Effort::Deferred`], on the
    /// pool.
    Deferred,
}

/// A response, and the sync of its charge it must wait for before it is
/// sent (`None`: nothing to wait for).
#[derive(Debug)]
pub struct Answer {
    pub response: Response,
    pub pending: Option<Durability>,
}

impl Answer {
    /// An answer with nothing to wait for.
    pub fn settled(response: Response) -> Answer {
        Answer {
            response,
            pending: None,
        }
    }

    /// The response once its charge is durable, waiting asynchronously; a
    /// charge that could not be made durable answers 500 instead.
    pub async fn settle(self, request_id: &str) -> Response {
        match self.pending {
            None => self.response,
            Some(pending) => durable_or_failed(self.response, pending.wait().await, request_id),
        }
    }

    /// [`Answer::settle`] on a thread that may block.
    pub fn settle_blocking(self, request_id: &str) -> Response {
        match self.pending {
            None => self.response,
            Some(pending) => durable_or_failed(self.response, pending.wait_blocking(), request_id),
        }
    }

    /// The same answer, made by index generation `number`.
    fn of_generation(self, number: u64) -> Answer {
        Answer {
            response: self.response.from_generation(number),
            ..self
        }
    }
}

fn durable_or_failed(response: Response, synced: std::io::Result<()>, id: &str) -> Response {
    match synced {
        Ok(()) => response,
        Err(e) => {
            tracing::error!(request_id = id, error = %e, "could not record a charge");
            Response::error(&ApiError::internal(id)).from_generation_of(&response)
        }
    }
}

impl App {
    /// `req` answered, its charge durable.
    pub fn handle(&self, req: &Request) -> Response {
        self.answer(req, Effort::Full)
            .settle_blocking(req.request_id)
    }

    /// A first attempt on the reactor ([`Effort::Quick`]).
    pub fn handle_quick(&self, req: &Request) -> Quick {
        let generation = self.generations.current();
        match self.handle_checked(req, &generation.index, Effort::Quick) {
            Err(e) if e.is_deferred() => Quick::Deferred,
            Ok(answer) => Quick::Done(answer.of_generation(generation.number)),
            Err(e) => Quick::Done(Answer::settled(
                Response::error(&e).from_generation(generation.number),
            )),
        }
    }

    /// A request run with `effort`: [`Effort::Full`], or
    /// [`Effort::Deferred`] for one [`App::handle_quick`] deferred (a
    /// deferral under `Quick` answers as [`ApiError::overloaded`]).
    pub fn answer(&self, req: &Request, effort: Effort) -> Answer {
        let generation = self.generations.current();
        match self.handle_checked(req, &generation.index, effort) {
            Ok(answer) => answer,
            Err(e) => Answer::settled(Response::error(&e)),
        }
        .of_generation(generation.number)
    }

    /// `req` answered from `index`, the generation pinned for it.
    fn handle_checked(
        &self,
        req: &Request,
        index: &Index,
        effort: Effort,
    ) -> Result<Answer, ApiError> {
        let path = normalise_path(req.path);
        if let Some(resource) = public::find(&path) {
            if !matches!(req.method, "GET" | "HEAD") {
                return Err(ApiError::method_not_allowed(req.method, "GET, HEAD"));
            }
            return (resource.respond)(self).map(Answer::settled);
        }
        let principal = self.authenticate(req.authorization)?;
        if effort != Effort::Deferred {
            self.admit(&principal, req.request_id)?;
        }
        let RouteMatch { route, params } = match_route(req.method, &path)?;
        let endpoint = route.endpoint;
        let ctx = Ctx {
            app: self,
            index,
            effort,
            query: Query::parse(req.query).map_err(|e| conform(endpoint, e))?,
            params,
            body: req.body,
            principal: &principal,
        };
        check_query(endpoint, &ctx.query).map_err(|e| conform(endpoint, e))?;
        check_plan(endpoint, &principal).map_err(|e| conform(endpoint, e))?;
        let mut reply = (route.handler)(&ctx).map_err(|e| conform(endpoint, e))?;
        let cost = match endpoint.cost {
            Cost::Free | Cost::Unlock(_) => 0,
            Cost::PerCall(n) => n,
            Cost::PerRow => reply.rows,
        };
        let (charge, pending) = match reply.charged.take() {
            Some(charged) => (charged, None),
            None => self.charge(&principal, cost, reply.semantic_searches, req.request_id)?,
        };
        let meta = reply.meta.to_value(endpoint.meta, &charge);
        let body = success_body(&reply.data, &meta, reply.message.as_deref());
        let response = Response {
            credits: charge.credits_used,
            ..Response::ok(JSON, body)
        };
        Ok(Answer { response, pending })
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
            AuthFailure::Unavailable => ApiError::overloaded(),
        })
    }

    /// Counts the request against its key's rate limit (429 past it).
    fn admit(&self, principal: &Principal, request_id: &str) -> Result<(), ApiError> {
        let now = chrono::Utc::now();
        match self.accounts.admit(&principal.key_id, self.rate_limit, now) {
            Ok(Ok(())) => Ok(()),
            Ok(Err(wait)) => {
                self.metrics.rate_limited();
                Err(ApiError::rate_limited(self.rate_limit, wait))
            }
            Err(e) => {
                // The shared accounts database is unreachable: like a key
                // that cannot be checked, a 503 to retry, not a 500.
                tracing::error!(request_id, error = %e, "could not count a request");
                Err(ApiError::overloaded())
            }
        }
    }

    fn charge(
        &self,
        principal: &Principal,
        credits: u64,
        semantic: u64,
        request_id: &str,
    ) -> Result<(Charge, Option<Durability>), ApiError> {
        match self
            .accounts
            .charge_pending(principal, credits, semantic, chrono::Utc::now())
        {
            Ok(Ok(charged)) => Ok(charged),
            Ok(Err(short)) => Err(ApiError::insufficient_credits(
                "complete this request",
                short.credits_needed,
                short.balance.monthly_remaining,
                short.balance.purchased_remaining,
            )),
            Err(e) => {
                tracing::error!(request_id, error = %e, "could not record a charge");
                Err(ApiError::internal(request_id))
            }
        }
    }
}

/// Refuses query parameters the endpoint does not declare, in the form it
/// declares for them.
fn check_query(endpoint: &Endpoint, query: &Query) -> Result<(), ApiError> {
    let (declared, form) = match endpoint.input {
        Input::Query(fields, form) => (fields, form),
        Input::Body(_) => (&[][..], UnknownParams::Validation),
    };
    let unknown = query.unknown(|name| declared.iter().any(|f| f.name == name));
    if unknown.is_empty() {
        return Ok(());
    }
    let allowed: Vec<&str> = declared.iter().map(|f| f.name).collect();
    Err(match form {
        UnknownParams::Validation => unknown_items(&unknown, &allowed),
        UnknownParams::InvalidParameter => ApiError::of(
            Code::InvalidParameter,
            &[("names", &unknown.join(", "))],
            json!({ "unknownParameters": unknown, "allowedParameters": allowed, "help": format!("Allowed parameters: {}", allowed.join(", ")) }),
        ),
        UnknownParams::Unprocessable => {
            let items: Vec<Item> = unknown
                .iter()
                .map(|name| Item::unknown(name.to_string(), query.get(name).into(), &allowed))
                .collect();
            ApiError::validation(Code::UnknownParameter, &items)
        }
        UnknownParams::NoneAllowed => ApiError::of(
            Code::InvalidParameters,
            &[],
            json!({ "providedParameters": query.names(), "help": "This endpoint only accepts an ID in the path. Remove all query parameters." }),
        ),
    })
}

/// 403 when the principal's plan may not call the endpoint.
fn check_plan(endpoint: &Endpoint, principal: &Principal) -> Result<(), ApiError> {
    let gating = endpoint.gating;
    match gating {
        Gating::Plans { code, feature, .. } if !gating.allows(principal.plan) => Err(ApiError::of(
            code,
            &[("feature", feature), ("plans", &gating.plans_text())],
            json!({ "current_tier": principal.plan.display_name(), "help": format!("Upgrade to a {} plan.", gating.plans_text()) }),
        )),
        _ => Ok(()),
    }
}

/// 400 `VALIDATION_ERROR` with one `UNKNOWN_PARAMETER` item per name.
fn unknown_items(unknown: &[&str], allowed: &[&str]) -> ApiError {
    let items: Vec<Item> = unknown
        .iter()
        .map(|name| Item::unknown(name.to_string(), Value::Null, allowed))
        .collect();
    ApiError::invalid_query(&items)
}

/// `e` as the endpoint declares it: a 400 whose code the endpoint does not
/// list becomes its `invalid` code (an item of a `VALIDATION_ERROR`, or the
/// same message under the other code); the endpoint's `statusCode` rule
/// applies.
pub fn conform(endpoint: &Endpoint, e: ApiError) -> ApiError {
    let mut e = if matches!(e.status, 400 | 422) && !endpoint.errors.contains(&e.code) {
        rewrap(endpoint.invalid, e)
    } else {
        e
    };
    if endpoint.status_code {
        e.status_code_field = true;
    }
    e
}

fn rewrap(code: Code, e: ApiError) -> ApiError {
    if code != Code::ValidationError {
        let mut e = e;
        e.code = code;
        return e;
    }
    let (field, value) = e
        .subject
        .as_deref()
        .cloned()
        .unwrap_or_else(|| ("query".into(), Value::Null));
    let item = Item {
        field,
        value,
        message: e.message,
        code: e.code,
        valid_options: Vec::new(),
    };
    ApiError::invalid_query(&[item])
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
