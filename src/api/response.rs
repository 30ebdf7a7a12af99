//! A response as the dispatcher hands it to the transport: status, body,
//! content type, the headers a refusal needs (`Allow`, `Retry-After`) and
//! the credits it charged (for logs and metrics), and the index generation
//! that made it.

use super::errors::{ApiError, Code};

/// A response, ready to be written.
#[derive(Debug, Clone, PartialEq)]
pub struct Response {
    pub status: u16,
    pub body: Vec<u8>,
    pub retry_after: Option<u64>,
    /// `Allow` (405).
    pub allow: Option<String>,
    /// Credits charged (for the access log).
    pub credits: u64,
    /// `Content-Type`: JSON everywhere but the public pages ([`super::public`]).
    pub content_type: &'static str,
    /// The error code of a refusal (for the log).
    pub code: Option<Code>,
    /// Headers of this kind of answer (the pages' cache and content policies).
    pub headers: &'static [(&'static str, &'static str)],
    /// The index generation that answered (`X-Index-Generation`).
    pub generation: Option<u64>,
}

impl Response {
    pub fn error(e: &ApiError) -> Response {
        Response {
            status: e.status,
            body: serde_json::to_vec(&e.body()).unwrap_or_default(),
            retry_after: e.retry_after,
            allow: e.allow.as_deref().map(str::to_string),
            credits: 0,
            content_type: JSON,
            code: Some(e.code),
            headers: &[],
            generation: None,
        }
    }

    /// A 200 that charges nothing.
    pub fn ok(content_type: &'static str, body: Vec<u8>) -> Response {
        Response {
            status: 200,
            body,
            retry_after: None,
            allow: None,
            credits: 0,
            content_type,
            code: None,
            headers: &[],
            generation: None,
        }
    }

    /// The same answer, made by index generation `number`.
    pub fn from_generation(self, number: u64) -> Response {
        Response {
            generation: Some(number),
            ..self
        }
    }

    /// This answer, from the generation `other` came from.
    pub fn from_generation_of(self, other: &Response) -> Response {
        Response {
            generation: other.generation,
            ..self
        }
    }

    /// The same answer with `headers` added.
    pub fn with_headers(self, headers: &'static [(&'static str, &'static str)]) -> Response {
        Response { headers, ..self }
    }
}

/// The content type of every API response.
pub const JSON: &str = "application/json";
