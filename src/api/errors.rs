//! Every error the API returns: one constructor per situation, each taking
//! its status and message template from the code table
//! ([`crate::api::declare::codes`]) and fixing the shape of `details`
//! (reference §1–§2 and the endpoint sections).

use serde_json::{json, Value};

pub use super::declare::codes::Code;

/// An error response.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiError {
    pub status: u16,
    pub code: Code,
    pub message: String,
    pub details: Value,
    /// Some documented bodies repeat the status as a top-level `statusCode`.
    pub status_code_field: bool,
    /// `Retry-After` seconds (429, 503).
    pub retry_after: Option<u64>,
    /// `Allow` (405).
    pub allow: Option<Box<str>>,
    /// The parameter and value the error is about, when it is about one
    /// (kept when the error is rewrapped as a validation item).
    pub subject: Option<Box<(String, Value)>>,
    /// Not an answer: see [`ApiError::deferred`].
    deferred: bool,
}

impl ApiError {
    /// An error with `code`'s status and a message of its own.
    fn new(code: Code, message: impl Into<String>, details: Value) -> ApiError {
        ApiError {
            status: code.status(),
            code,
            message: message.into(),
            details,
            status_code_field: false,
            retry_after: None,
            allow: None,
            subject: None,
            deferred: false,
        }
    }

    /// The same error, about parameter `field` with `value`.
    pub fn about(mut self, field: &str, value: &str) -> ApiError {
        self.subject = Some(Box::new((
            field.to_string(),
            Value::String(value.to_string()),
        )));
        self
    }

    /// An error whose message is `code`'s template filled with `values`.
    pub fn of(code: Code, values: &[(&str, &str)], details: Value) -> ApiError {
        ApiError::new(code, code.message(values), details)
    }

    /// Adds the top-level `statusCode` some documented bodies carry.
    pub fn with_status_code(mut self) -> ApiError {
        self.status_code_field = true;
        self
    }

    /// The JSON body.
    pub fn body(&self) -> Value {
        let mut body = json!({
            "success": false,
            "error": { "code": self.code.as_str(), "message": self.message, "details": self.details },
        });
        if self.status_code_field {
            body["statusCode"] = json!(self.status);
        }
        body
    }

    pub fn auth_missing() -> ApiError {
        ApiError::of(
            Code::AuthError,
            &[],
            json!({
                "help": "Please provide your API key in the Authorization header",
                "format": "Bearer vg_your_api_key_here",
            }),
        )
    }

    pub fn auth_malformed() -> ApiError {
        ApiError::of(
            Code::InvalidApiKey,
            &[],
            json!({
                "help": "The API key is not valid. Check that you copied the whole key.",
                "format": "Bearer vg_<12 hex characters>_<32 base64url characters>",
            }),
        )
    }

    pub fn auth_unknown() -> ApiError {
        ApiError::of(
            Code::InvalidApiKey,
            &[],
            json!({ "help": "The API key is not valid. Check that you copied the whole key.", "format": "Bearer vg_your_api_key_here" }),
        )
    }

    pub fn auth_inactive() -> ApiError {
        ApiError::of(
            Code::InactiveApiKey,
            &[],
            json!({ "help": "This API key has been deactivated. Create a new key.", "format": "Bearer vg_your_api_key_here" }),
        )
    }

    pub fn rate_limited(limit: u32, retry_after: u64) -> ApiError {
        let mut e = ApiError::of(
            Code::RateLimitExceeded,
            &[("limit", &limit.to_string())],
            json!({ "limit": limit, "window": "60 seconds", "help": "Please reduce your request frequency and try again." }),
        );
        e.retry_after = Some(retry_after.max(1));
        e
    }

    /// 402: `needed` credits to `action` ("complete this request",
    /// "unlock this email"), with the balances left.
    pub fn insufficient_credits(
        action: &str,
        needed: u64,
        monthly: u64,
        purchased: u64,
    ) -> ApiError {
        ApiError::of(
            Code::InsufficientCredits,
            &[("action", action)],
            json!({
                "credits_needed": needed,
                "monthly_credits_remaining": monthly,
                "purchased_credits_remaining": purchased,
                "help": "Purchase additional credits (server keys add-credits) or upgrade your plan.",
            }),
        )
    }

    pub fn internal(request_id: &str) -> ApiError {
        ApiError::of(
            Code::InternalServerError,
            &[],
            json!(format!("request id {request_id}")),
        )
    }

    pub fn route_not_found(path: &str) -> ApiError {
        ApiError::of(
            Code::NotFound,
            &[("what", "route"), ("target", "this path")],
            json!({ "path": path, "help": "See the API reference for the available endpoints under /v1, or GET /openapi.json" }),
        )
    }

    pub fn method_not_allowed(method: &str, allowed: &str) -> ApiError {
        let mut e = ApiError::of(
            Code::MethodNotAllowed,
            &[("method", method)],
            json!({ "allowed": allowed }),
        );
        e.allow = Some(allowed.into());
        e
    }

    pub fn payload_too_large(limit: usize) -> ApiError {
        ApiError::of(Code::PayloadTooLarge, &[], json!({ "max_bytes": limit }))
    }

    pub fn request_timeout() -> ApiError {
        ApiError::of(
            Code::RequestTimeout,
            &[],
            json!({ "help": "Send the whole request promptly." }),
        )
    }

    pub fn malformed_body() -> ApiError {
        ApiError::of(
            Code::BadRequest,
            &[],
            json!({ "help": "Send a complete request body" }),
        )
    }

    /// Not an answer: a request tried on the reactor needs the worker pool
    /// (`handler.rs`, [`crate::api::handler::Effort::Quick`]). The server
    /// re-runs it there, so this never reaches a client; were it to, it
    /// reads as the 503 of [`ApiError::overloaded`].
    pub fn deferred() -> ApiError {
        let mut e = ApiError::overloaded();
        e.deferred = true;
        e
    }

    /// Whether this is [`ApiError::deferred`].
    pub fn is_deferred(&self) -> bool {
        self.deferred
    }

    pub fn overloaded() -> ApiError {
        let mut e = ApiError::of(
            Code::ServiceUnavailable,
            &[],
            json!({ "help": "Retry shortly." }),
        );
        e.retry_after = Some(1);
        e
    }

    pub fn timeout() -> ApiError {
        ApiError::of(
            Code::Timeout,
            &[("operation", "The request")],
            json!({ "help": "Try a narrower request." }),
        )
    }

    /// A 400-class error with `details.help`.
    pub fn with_help(code: Code, values: &[(&str, &str)], help: impl Into<String>) -> ApiError {
        ApiError::of(code, values, json!({ "help": help.into() }))
    }

    /// The ValidationError body (reference §1.6): every problem as
    /// `{field, value, message, code, validOptions}` in `details.errors`,
    /// under `code` (`VALIDATION_ERROR` or `UNKNOWN_PARAMETER`); 422 when
    /// any item's code is a 422 one, else 400.
    pub fn validation(code: Code, items: &[Item]) -> ApiError {
        let mut e = ApiError::of(
            code,
            &[],
            json!({ "errors": items.iter().map(Item::to_json).collect::<Vec<_>>(), "help": "Please check your request parameters and ensure they meet the required format and constraints." }),
        );
        e.message = Code::ValidationError.template().to_string();
        e.status = items
            .iter()
            .map(|i| i.code.status())
            .max()
            .unwrap_or(400)
            .max(400);
        e
    }

    /// A ValidationError about the query string: always 400 (the items'
    /// 422 codes, such as `UNKNOWN_PARAMETER`, are body rules).
    pub fn invalid_query(items: &[Item]) -> ApiError {
        let mut e = ApiError::validation(Code::ValidationError, items);
        e.status = 400;
        e
    }

    /// 422 `UNKNOWN_PARAMETER` in the POST `/people` form (UnknownParamError).
    pub fn unknown_parameters(unknown: Vec<String>, allowed: Vec<String>) -> ApiError {
        ApiError::of(
            Code::UnknownParameter,
            &[
                ("names", &unknown.join(", ")),
                ("allowed", &allowed.join(", ")),
            ],
            json!({ "unknownParameters": unknown, "allowedParameters": allowed }),
        )
    }
}

/// One entry of a ValidationError's `details.errors`.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    /// Dotted path (`deal.financing_types`), or the query parameter.
    pub field: String,
    /// The offending value, if any.
    pub value: Value,
    pub message: String,
    pub code: Code,
    /// Allowed spellings (enums) or names (unknown parameters); else empty.
    pub valid_options: Vec<String>,
}

impl Item {
    /// `field` (holding `value`) is not among `allowed`.
    pub fn unknown(field: String, value: Value, allowed: &[&str]) -> Item {
        let listed = allowed.join(", ");
        Item {
            message: Code::UnknownParameter.message(&[("names", &field), ("allowed", &listed)]),
            field,
            value,
            code: Code::UnknownParameter,
            valid_options: allowed.iter().map(|a| a.to_string()).collect(),
        }
    }

    /// The documented item: `value` is the offending value as a string
    /// (JSON-encoded when it is not one), or null when there is none.
    pub fn to_json(&self) -> Value {
        let value = match &self.value {
            Value::Null => Value::Null,
            Value::String(s) => Value::String(s.clone()),
            other => Value::String(other.to_string()),
        };
        json!({ "field": self.field, "value": value, "message": self.message, "code": self.code.as_str(), "validOptions": self.valid_options })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documented_shapes() {
        let e = ApiError::auth_missing();
        assert_eq!(e.status, 401);
        assert_eq!(
            e.body()["error"]["details"]["format"],
            "Bearer vg_your_api_key_here"
        );
        let r = ApiError::rate_limited(200, 60);
        assert_eq!(
            r.body()["error"]["details"],
            json!({"limit": 200, "window": "60 seconds", "help": "Please reduce your request frequency and try again."})
        );
        assert_eq!(r.retry_after, Some(60));
        let b = ApiError::with_help(Code::InvalidDealId, &[], "x").with_status_code();
        assert_eq!(b.body()["statusCode"], 400);
        assert!(ApiError::internal("abc").body()["error"]["details"].is_string());
    }
}
