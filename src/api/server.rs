//! The HTTP/1.1 transport (hyper + tokio).
//!
//! * Header read timeout, body read timeout (408) and body size limit (413)
//!   protect against slow or oversized clients.
//! * Request handling (`App::handle`) is CPU work: it runs on tokio's
//!   blocking pool behind a semaphore of `workers` permits, never on the
//!   reactor; a request that cannot get a permit in time is refused with 503,
//!   one that runs too long is answered 504 (its work finishes unobserved).
//!   The exception is light requests ([`routes::runs_on`]: lookups by
//!   identifier, location and industry searches, errors before any work),
//!   a few microseconds of in-memory work that runs on the reactor thread:
//!   handing them to the pool would cost more (two thread switches) than
//!   the work itself. A lookup by name is tried on the reactor first with
//!   bounded work (the exact stages of the name search, tens of
//!   microseconds as a rule, a few milliseconds at most); the few the exact stages cannot answer go to
//!   the pool for the main stage ([`crate::api::app::Effort`]).
//! * A panic inside a handler becomes a 500 with the request id, logged.
//! * One access-log line per request: time, id, method, path, status,
//!   latency, credits.
//! * Graceful shutdown: on SIGTERM/SIGINT stop accepting, let open
//!   connections finish their current request (up to a grace period).

use std::convert::Infallible;
use std::future::Future;
use std::io::Write;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Full, Limited};
use hyper::body::{Bytes, Incoming};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

use super::app::{App, Quick, Request, Response};
use super::handler::Effort;
use super::errors::ApiError;
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
            workers: std::thread::available_parallelism().map_or(2, |n| n.get()) * 2,
            grace_period: Duration::from_secs(10),
            access_log: true,
        }
    }
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
    let graceful = GracefulShutdown::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => {
                    let _ = stream.set_nodelay(true);
                    let header_timeout = shared.config.header_timeout;
                    let shared = shared.clone();
                    let service = service_fn(move |req| respond(shared.clone(), req));
                    let conn = http1::Builder::new()
                        .timer(TokioTimer::new())
                        .header_read_timeout(Some(header_timeout))
                        .serve_connection(TokioIo::new(stream), service);
                    let conn = graceful.watch(conn);
                    tokio::spawn(async move {
                        let _ = conn.await;
                    });
                }
                Err(e) => {
                    eprintln!("accept failed: {e}");
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
        eprintln!("shutdown: connections still open after {grace:?}; closing");
    }
}

async fn respond(
    shared: Arc<Shared>,
    req: hyper::Request<Incoming>,
) -> Result<hyper::Response<Full<Bytes>>, Infallible> {
    let started = Instant::now();
    let id = format!(
        "{:x}-{:x}",
        shared.epoch,
        shared.next_id.fetch_add(1, Ordering::Relaxed)
    );
    let method = req.method().as_str().to_string();
    let path = req.uri().path().to_string();
    let response = match read_body(&shared.config, req).await {
        Ok((parts, body)) => run(&shared, parts, body, &id).await,
        Err(e) => Response::error(&e),
    };
    if shared.config.access_log {
        log_line(&id, &method, &path, &response, started.elapsed());
    }
    Ok(to_hyper(response, &id))
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

async fn run(shared: &Arc<Shared>, parts: Parts, body: Bytes, id: &str) -> Response {
    let effort = match routes::runs_on(&parts.method, &parts.path, parts.query.as_deref()) {
        RunsOn::Reactor => return handle(&shared.app, &parts, &body, id, Effort::Full),
        RunsOn::ReactorFirst => match handle_quick(&shared.app, &parts, &body, id) {
            Quick::Done(response) => return response,
            Quick::Deferred => Effort::Deferred,
        },
        RunsOn::Pool => Effort::Full,
    };
    let config = &shared.config;
    let permit = match tokio::time::timeout(config.queue_timeout, shared.permits.acquire()).await {
        Ok(Ok(p)) => p,
        _ => return Response::error(&ApiError::overloaded()),
    };
    let (app, request_id) = (shared.app.clone(), id.to_string());
    let work =
        tokio::task::spawn_blocking(move || handle(&app, &parts, &body, &request_id, effort));
    let outcome = tokio::time::timeout(config.handler_timeout, work).await;
    drop(permit);
    match outcome {
        Ok(Ok(response)) => response,
        Ok(Err(join)) => {
            eprintln!("request {id}: handler failed: {join}");
            Response::error(&ApiError::internal(id))
        }
        Err(_) => Response::error(&ApiError::timeout()),
    }
}

/// Runs the handler of one request with `effort` (full, or the pool's run
/// of a deferred one); a panic becomes a logged 500.
fn handle(app: &App, parts: &Parts, body: &Bytes, id: &str, effort: Effort) -> Response {
    caught(parts, body, id, |req| app.handle_with(req, effort))
        .unwrap_or_else(|| Response::error(&ApiError::internal(id)))
}

/// The reactor's first attempt at a name lookup ([`Effort::Quick`]); a
/// panic becomes a logged 500.
fn handle_quick(app: &App, parts: &Parts, body: &Bytes, id: &str) -> Quick {
    caught(parts, body, id, |req| app.handle_quick(req))
        .unwrap_or_else(|| Quick::Done(Response::error(&ApiError::internal(id))))
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
        eprintln!("request {id}: handler panicked");
    }
    outcome.ok()
}

fn to_hyper(response: Response, id: &str) -> hyper::Response<Full<Bytes>> {
    let mut builder = hyper::Response::builder()
        .status(response.status)
        .header(hyper::header::CONTENT_TYPE, response.content_type)
        .header("x-request-id", id);
    if let Some(allow) = &response.allow {
        builder = builder.header(hyper::header::ALLOW, allow.as_str());
    }
    if let Some(secs) = response.retry_after {
        builder = builder.header(hyper::header::RETRY_AFTER, secs.to_string());
    }
    builder
        .body(Full::new(Bytes::from(response.body)))
        .unwrap_or_else(|_| hyper::Response::new(Full::new(Bytes::new())))
}

fn log_line(id: &str, method: &str, path: &str, response: &Response, took: Duration) {
    let now = chrono::Utc::now().format("%Y-%m-%dT%H:%M:%S%.3fZ");
    let line = format!(
        "{now} {id} {method} {path} {} {:.3}ms credits={}\n",
        response.status,
        took.as_secs_f64() * 1000.0,
        response.credits
    );
    let _ = std::io::stderr().lock().write_all(line.as_bytes());
}

/// Binds `addr`.
pub async fn bind(addr: SocketAddr) -> std::io::Result<TcpListener> {
    TcpListener::bind(addr).await
}
