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
