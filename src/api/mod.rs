//! The HTTP API: transport, routing, envelope, errors, authentication,
//! credits and rate limits. The only layer that knows HTTP.

pub mod admin;
pub mod app;
pub mod body;
pub mod declare;
pub mod envelope;
pub mod errors;
pub mod handler;
pub mod metrics;
pub mod openapi;
pub mod pages;
pub mod params;
pub mod parse_errors;
pub mod public;
pub mod reload;
pub mod response;
pub mod routes;
pub mod semantic;
pub mod server;
pub mod state;
