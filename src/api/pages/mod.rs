//! The pages a person opens in a browser, served without a key beside the
//! API (`api::public` lists them): the API reference at `/docs`, rendered
//! on the server from the OpenAPI document, and the explorer at `/` and
//! `/explore`, a static page whose script calls only the public API. Every
//! byte is embedded in the binary (`assets/`): no CDN, no build step, no
//! download at run time.

pub mod docs;
pub mod explorer;
mod html;
mod schema;

/// The content type of the pages.
pub const HTML: &str = "text/html; charset=utf-8";

/// Headers of `/docs`: revalidated (it changes with the binary and has no
/// validator), and allowed nothing but its inline stylesheet.
pub const DOCS_HEADERS: &[(&str, &str)] = &[
    ("cache-control", "no-cache"),
    ("referrer-policy", "no-referrer"),
    ("content-security-policy", "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"),
];

/// Headers of the explorer: its inline script and style, and requests to
/// this server only.
pub const EXPLORER_HEADERS: &[(&str, &str)] = &[
    ("cache-control", "no-cache"),
    ("referrer-policy", "no-referrer"),
    ("content-security-policy", "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"),
];
