//! Resources served without an API key: the health check, the OpenAPI
//! document, the API reference (`/docs`) and the explorer (`/`, `/explore`;
//! both in `api::pages`): whatever an operator or a browser fetches before
//! holding a key. One table; the dispatcher (`api::app`) answers `GET` and
//! `HEAD` on these paths and refuses other methods with 405.

use serde_json::json;

use super::errors::ApiError;
use super::openapi;
use super::pages::{self, HTML};
use super::response::{Response, JSON};
use super::state::App;

/// A path answered without authentication.
pub struct Resource {
    pub path: &'static str,
    pub respond: fn(&App) -> Result<Response, ApiError>,
}

/// Every unauthenticated resource.
pub static RESOURCES: &[Resource] = &[
    Resource {
        path: "/health",
        respond: health,
    },
    Resource {
        path: "/openapi.json",
        respond: openapi_document,
    },
    Resource {
        path: "/v1/openapi.json",
        respond: openapi_document,
    },
    Resource {
        path: "/metrics",
        respond: metrics,
    },
    Resource {
        path: "/docs",
        respond: docs,
    },
    Resource {
        path: "/",
        respond: explorer,
    },
    Resource {
        path: "/explore",
        respond: explorer,
    },
];

/// The resource at `path` (already normalised: no trailing slash).
pub fn find(path: &str) -> Option<&'static Resource> {
    RESOURCES.iter().find(|r| r.path == path)
}

fn health(app: &App) -> Result<Response, ApiError> {
    let generation = app.generations.current();
    let manifest = &generation.index.manifest;
    let c = &manifest.counts;
    let body = json!({
        "status": "ok",
        "index": { "as_of": manifest.as_of, "built_at": manifest.built_at,
                   "companies": c.companies, "deals": c.deals, "investors": c.investors, "people": c.people },
        "generation": { "number": generation.number, "dir": generation.dir.display().to_string(),
                        "serving_since": generation.serving_since },
    });
    Ok(Response::ok(
        JSON,
        serde_json::to_vec(&body).unwrap_or_default(),
    ))
}

/// The Prometheus exposition; 404 like any unknown path when the server
/// runs without `--metrics`.
fn metrics(app: &App) -> Result<Response, ApiError> {
    if !app.metrics.is_enabled() {
        return Err(ApiError::route_not_found("/metrics"));
    }
    let generation = app.generations.current();
    let text = app
        .metrics
        .render(&generation.index.manifest, generation.number);
    Ok(Response::ok(
        super::metrics::CONTENT_TYPE,
        text.into_bytes(),
    ))
}

fn openapi_document(_: &App) -> Result<Response, ApiError> {
    Ok(Response::ok(JSON, openapi::document_bytes()))
}

fn docs(_: &App) -> Result<Response, ApiError> {
    Ok(Response::ok(HTML, pages::docs::page().to_vec()).with_headers(pages::DOCS_HEADERS))
}

fn explorer(_: &App) -> Result<Response, ApiError> {
    Ok(Response::ok(HTML, pages::explorer::page().to_vec()).with_headers(pages::EXPLORER_HEADERS))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_unique_and_normalised() {
        let mut paths: Vec<&str> = RESOURCES.iter().map(|r| r.path).collect();
        assert!(paths
            .iter()
            .all(|p| p.starts_with('/') && (p.len() == 1 || !p.ends_with('/'))));
        paths.sort_unstable();
        paths.dedup();
        assert_eq!(paths.len(), RESOURCES.len());
        assert!(find("/health").is_some() && find("/v1/companies").is_none());
    }

    #[test]
    fn every_openapi_path_is_served() {
        for path in openapi::PATHS {
            assert!(find(path).is_some(), "{path}");
        }
    }
}
