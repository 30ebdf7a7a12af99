//! The HTTP transport (hyper + tokio): HTTP/1.1, and HTTP/2 over cleartext
//! with prior knowledge (h2c), on the same port.
//!
//! * Requests the HTTP/1 parser refuses (bad bytes, 414, 431) are answered
//!   in the error envelope ([`super::parse_errors`]).
//! * Header read timeout, body read timeout (408) and body size limit (413)
//!   protect against slow or oversized clients.
//! * Request handling (`App::handle`) is CPU work: it runs on tokio's
//!   blocking pool behind a semaphore of `workers` permits, never on the
//!   reactor; a request that cannot get a permit in time is refused with 503,
//!   one that runs too long is answered 504 (its work finishes unobserved).
//! * An answer that charged credits is sent once the charge is durable: the
//!   handler returns as soon as the charge is queued, and the reactor
//!   awaits the accounts store's sync ([`crate::accounts::Durability`]), so
//!   no thread sleeps on the disk (one core, C1 mix at M, alternating:
//!   2,148–2,332 → 2,328–2,442 req/s at 8 and 32 connections).
//!   The exception is light requests ([`routes::runs_on`]: lookups by
//!   identifier, location and industry searches, errors before any work),
//!   a few microseconds of in-memory work that runs on the reactor thread:
//!   handing them to the pool would cost more (two thread switches) than
//!   the work itself. A lookup by name is tried on the reactor first with
//!   bounded work (the exact stages of the name search, tens of
//!   microseconds as a rule, a few milliseconds at most); the few the exact stages cannot answer go to
//!   the pool for the main stage ([`crate::api::app::Effort`]).
//! * A panic inside a handler becomes a 500 with the request id, logged.
//! * One span per request (`request`: id, method, path); the request id is
//!   the client's `X-Request-Id` when sane, else generated, and always
//!   returned in `X-Request-Id`. The access log is one event of that span
//!   (status, duration, credits, error code), at a level by status
//!   ([`access_event`]). Metrics ([`super::metrics`]) count every answer,
//!   the worker queue and the busy workers.
//! * Graceful shutdown: on SIGTERM/SIGINT stop accepting, let open
//!   connections finish their current request (up to a grace period).

use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Full, Limited};
use hyper::body::{Bytes, Incoming};
use hyper::service::service_fn;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tracing::Instrument;

use super::app::{Answer, App, Quick, Request, Response};
use super::errors::ApiError;
use super::handler::Effort;
use super::parse_errors::Enveloped;
use super::routes::{self, RunsOn};

/// Transport settings.
#[derive(Debug, Clone)]
pub struct ServerConfig {
    pub max_body_bytes: usize,
    pub header_timeout: Duration,
    pub body_timeout: Duration,
    /// Longest a request may wait for a worker.
    pub queue_timeout: Duration,
    /// Longest a handler may run before the client gets a 504.
    pub handler_timeout: Duration,
    /// Concurrent handlers.
    pub workers: usize,
    pub grace_period: Duration,
    pub access_log: bool,
}

impl Default for ServerConfig {
    fn default() -> ServerConfig {
        ServerConfig {
            max_body_bytes: 1 << 20,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            queue_timeout: Duration::from_secs(5),
            handler_timeout: Duration::from_secs(30),
            workers: default_workers(),
            grace_period: Duration::from_secs(10),
            access_log: true,
        }
    }
}

/// Concurrent handlers by default: four per core, at least eight. Chosen
/// when each handler waited on its thread for its charge's sync (two per
/// core left a core idle in I/O wait 11 % of the time under the C1 mix at
/// M); since the answer waits for the sync on the reactor instead
/// ([`run`]), two and eight per core measured alike (one core, C1 at M,
/// 2026-11-29: 2,170–2,350 against 2,355–2,360 req/s at 8 connections,
/// 2,323 against 2,311 at 32), so the default stayed.
fn default_workers() -> usize {
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    (cores * 4).max(8)
}

struct Shared {
    app: Arc<App>,
    config: ServerConfig,
    permits: Semaphore,
    next_id: AtomicU64,
    epoch: u64,
}

/// Serves `app` on `listener` until `shutdown` resolves.
pub async fn serve(
    app: Arc<App>,
    listener: TcpListener,
    config: ServerConfig,
    shutdown: impl Future<Output = ()>,
) {
    let shared = Arc::new(Shared {
        permits: Semaphore::new(config.workers.max(1)),
        epoch: std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs()),
        next_id: AtomicU64::new(0),
        app,
        config,
    });
    let protocols = protocols(shared.config.header_timeout);
    let graceful = GracefulShutdown::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => {
                    let _ = stream.set_nodelay(true);
                    let shared = shared.clone();
                    let service = service_fn(move |req| respond(shared.clone(), req));
                    let io = TokioIo::new(Enveloped::new(stream));
                    let conn = graceful.watch(protocols.serve_connection(io, service).into_owned());
                    tokio::spawn(async move {
                        let _ = conn.await;
                    });
                }
                Err(e) => {
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            },
            _ = &mut shutdown => break,
        }
    }
    drop(listener);
    let grace = shared.config.grace_period;
    if tokio::time::timeout(grace, graceful.shutdown())
        .await
        .is_err()
    {
        tracing::warn!(
            ?grace,
            "shutdown: connections still open after the grace period; closing"
        );
    }
}

/// HTTP/1.1, and HTTP/2 with prior knowledge (h2c), told apart by the
/// connection preface.
fn protocols(header_timeout: Duration) -> auto::Builder<TokioExecutor> {
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(Some(header_timeout));
    builder.http2().timer(TokioTimer::new());
    builder
}

async fn respond(
    shared: Arc<Shared>,
    req: hyper::Request<Incoming>,
) -> Result<hyper::Response<Full<Bytes>>, Infallible> {
    let started = Instant::now();
    let id = request_id(&shared, req.headers());
    let method = req.method().as_str().to_string();
    let path = req.uri().path().to_string();
    // The span is the access log's context; without the access log it is
    // not made (a few hundred nanoseconds of the lightest requests), and
    // the failure events name the request id themselves.
    let span = if shared.config.access_log {
        tracing::info_span!("request", id = %id, method = %method, path = %path)
    } else {
        tracing::Span::none()
    };
    let response = async {
        match read_body(&shared.config, req).await {
            Ok((parts, body)) => run(&shared, parts, body, &id).await,
            Err(e) => Response::error(&e),
        }
    }
    .instrument(span.clone())
    .await;
    let took = started.elapsed();
    let metrics = &shared.app.metrics;
    if metrics.is_enabled() {
        let route = routes::label(&method, &path);
        metrics.observe(route, response.status, response.credits, took);
    }
    if shared.config.access_log {
        span.in_scope(|| access_event(&response, took));
    }
    Ok(to_hyper(response, &id))
}

/// The client's `X-Request-Id` when it is a sane token (1–64 of
/// `A-Z a-z 0-9 . _ -`), else a fresh `<epoch hex>-<counter hex>`.
fn request_id(shared: &Shared, headers: &hyper::HeaderMap) -> String {
    let given = headers
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .filter(|v| is_token(v));
    match given {
        Some(v) => v.to_string(),
        None => format!(
            "{:x}-{:x}",
            shared.epoch,
            shared.next_id.fetch_add(1, Ordering::Relaxed)
        ),
    }
}

fn is_token(v: &str) -> bool {
    (1..=64).contains(&v.len())
        && v.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

struct Parts {
    method: String,
    path: String,
    query: Option<String>,
    authorization: Option<String>,
}

async fn read_body(
    config: &ServerConfig,
    req: hyper::Request<Incoming>,
) -> Result<(Parts, Bytes), ApiError> {
    let declared = req
        .headers()
        .get(hyper::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > config.max_body_bytes as u64) {
        return Err(ApiError::payload_too_large(config.max_body_bytes));
    }
    let (head, body) = req.into_parts();
    let parts = Parts {
        method: head.method.as_str().to_string(),
        path: head.uri.path().to_string(),
        query: head.uri.query().map(str::to_string),
        authorization: head
            .headers
            .get(hyper::header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string),
    };
    let collected = tokio::time::timeout(
        config.body_timeout,
        Limited::new(body, config.max_body_bytes).collect(),
    )
    .await;
    match collected {
        Err(_) => Err(ApiError::request_timeout()),
        Ok(Err(e))
            if e.downcast_ref::<http_body_util::LengthLimitError>()
                .is_some() =>
        {
            Err(ApiError::payload_too_large(config.max_body_bytes))
        }
        Ok(Err(_)) => Err(ApiError::malformed_body()),
        Ok(Ok(body)) => Ok((parts, body.to_bytes())),
    }
}

/// Runs the request (on the reactor or the pool), then waits, without
/// holding a thread, for its charge to be durable; a sync that takes longer
/// than a handler may run is answered 504, like a handler that does.
async fn run(shared: &Arc<Shared>, parts: Parts, body: Bytes, id: &str) -> Response {
    let answer = match work(shared, parts, body, id).await {
        Ok(answer) => answer,
        Err(refused) => return refused,
    };
    let synced = tokio::time::timeout(shared.config.handler_timeout, answer.settle(id)).await;
    synced.unwrap_or_else(|_| Response::error(&ApiError::timeout()))
}

async fn work(
    shared: &Arc<Shared>,
    parts: Parts,
    body: Bytes,
    id: &str,
) -> Result<Answer, Response> {
    let effort = match routes::runs_on(&parts.method, &parts.path, parts.query.as_deref()) {
        RunsOn::Reactor => return Ok(handle(&shared.app, &parts, &body, id, Effort::Full)),
        RunsOn::ReactorFirst => match handle_quick(&shared.app, &parts, &body, id) {
            Quick::Done(answer) => return Ok(answer),
            Quick::Deferred => Effort::Deferred,
        },
        RunsOn::Pool => Effort::Full,
    };
    let config = &shared.config;
    let metrics = &shared.app.metrics;
    metrics.queued(1);
    let waited = tokio::time::timeout(config.queue_timeout, shared.permits.acquire()).await;
    metrics.queued(-1);
    let Ok(Ok(permit)) = waited else {
        return Err(Response::error(&ApiError::overloaded()));
    };
    let (app, request_id, span) = (shared.app.clone(), id.to_string(), tracing::Span::current());
    let work = tokio::task::spawn_blocking(move || {
        let _entered = span.enter();
        app.metrics.busy(1);
        let response = handle(&app, &parts, &body, &request_id, effort);
        app.metrics.busy(-1);
        response
    });
    let outcome = tokio::time::timeout(config.handler_timeout, work).await;
    drop(permit);
    match outcome {
        Ok(Ok(answer)) => Ok(answer),
        Ok(Err(join)) => {
            tracing::error!(request_id = id, error = %join, "handler failed");
            Err(Response::error(&ApiError::internal(id)))
        }
        Err(_) => Err(Response::error(&ApiError::timeout())),
    }
}

/// Runs the handler of one request with `effort` (full, or the pool's run
/// of a deferred one); a panic becomes a logged 500.
fn handle(app: &App, parts: &Parts, body: &Bytes, id: &str, effort: Effort) -> Answer {
    caught(parts, body, id, |req| app.answer(req, effort))
        .unwrap_or_else(|| Answer::settled(Response::error(&ApiError::internal(id))))
}

/// The reactor's first attempt at a name lookup ([`Effort::Quick`]); a
/// panic becomes a logged 500.
fn handle_quick(app: &App, parts: &Parts, body: &Bytes, id: &str) -> Quick {
    caught(parts, body, id, |req| app.handle_quick(req))
        .unwrap_or_else(|| Quick::Done(Answer::settled(Response::error(&ApiError::internal(id)))))
}

/// Runs `handler` on the request; `None` (logged) if it panicked.
fn caught<T>(
    parts: &Parts,
    body: &Bytes,
    id: &str,
    handler: impl FnOnce(&Request) -> T,
) -> Option<T> {
    let req = Request {
        method: &parts.method,
        path: &parts.path,
        query: parts.query.as_deref(),
        authorization: parts.authorization.as_deref(),
        body,
        request_id: id,
    };
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| handler(&req)));
    if outcome.is_err() {
        tracing::error!(request_id = id, "handler panicked");
    }
    outcome.ok()
}

fn to_hyper(response: Response, id: &str) -> hyper::Response<Full<Bytes>> {
    let mut builder = hyper::Response::builder()
        .status(response.status)
        .header(hyper::header::CONTENT_TYPE, response.content_type)
        .header("x-request-id", id)
        .header("x-content-type-options", "nosniff");
    for (name, value) in response.headers {
        builder = builder.header(*name, *value);
    }
    if let Some(allow) = &response.allow {
        builder = builder.header(hyper::header::ALLOW, allow.as_str());
    }
    if let Some(number) = response.generation {
        builder = builder.header("x-index-generation", number.to_string());
    }
    if let Some(secs) = response.retry_after {
        builder = builder.header(hyper::header::RETRY_AFTER, secs.to_string());
    }
    builder
        .body(Full::new(Bytes::from(response.body)))
        .unwrap_or_else(|_| hyper::Response::new(Full::new(Bytes::new())))
}

/// The access log: one event per request, inside the request's span (id,
/// method, path). Server failures are errors, overload refusals (429, 503,
/// 504) warnings, everything else information.
fn access_event(response: &Response, took: Duration) {
    let status = response.status;
    let ms = took.as_micros() as f64 / 1000.0;
    let (credits, code) = (response.credits, response.code.map(|c| c.as_str()));
    match status {
        500.. if status != 503 && status != 504 => {
            tracing::error!(target: "access", status, duration_ms = ms, credits, code, "answered")
        }
        429 | 503 | 504 => {
            tracing::warn!(target: "access", status, duration_ms = ms, credits, code, "answered")
        }
        _ => tracing::info!(target: "access", status, duration_ms = ms, credits, code, "answered"),
    }
}

/// Binds `addr`.
pub async fn bind(addr: SocketAddr) -> std::io::Result<TcpListener> {
    TcpListener::bind(addr).await
}
