//! The API declared as data: every endpoint with its parameters or body
//! keys, price, answer and error codes (`endpoints`, `bodies`, `paging`),
//! the vocabulary they are written in (`field`, `endpoint`), and every
//! error code with its status and message template (`codes`).
//!
//! Nothing here runs a request. The body parsers (`api::body`), the
//! query-string checks and pricing of the dispatcher (`api::app`), the
//! route table (`api::routes`) and the OpenAPI document (`api::openapi`)
//! are derived from these declarations.

pub mod bodies;
pub mod codes;
pub mod endpoint;
pub mod endpoints;
pub mod field;
pub mod paging;
