//! Every error the API returns: one constructor per documented code, each
//! fixing the HTTP status, the message and the shape of `details`
//! (reference §1–§2 and the endpoint sections).

use serde_json::{json, Value};

/// The code of [`ApiError::deferred`].
const DEFERRED: &str = "DEFERRED";

/// An error response.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiError {
    pub status: u16,
    pub code: &'static str,
    pub message: String,
    pub details: Value,
    /// Some documented bodies repeat the status as a top-level `statusCode`.
    pub status_code_field: bool,
    /// `Retry-After` seconds (429).
    pub retry_after: Option<u64>,
}

impl ApiError {
    pub fn new(
        status: u16,
        code: &'static str,
        message: impl Into<String>,
        details: Value,
    ) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
            details,
            status_code_field: false,
            retry_after: None,
        }
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
            "error": { "code": self.code, "message": self.message, "details": self.details },
        });
        if self.status_code_field {
            body["statusCode"] = json!(self.status);
        }
        body
    }

    pub fn auth_missing() -> ApiError {
        ApiError::new(
            401,
            "AUTH_ERROR",
            "API key not provided",
            json!({
                "help": "Please provide your API key in the Authorization header",
                "format": "Bearer vg_your_api_key_here",
            }),
        )
    }

    pub fn auth_malformed() -> ApiError {
        ApiError::new(
            401,
            "INVALID_API_KEY",
            "Invalid API key",
            json!({
                "help": "The API key is not valid. Check that you copied the whole key.",
                "format": "Bearer vg_<12 hex characters>_<32 base64url characters>",
            }),
        )
    }

    pub fn auth_unknown() -> ApiError {
        ApiError::new(
            401,
            "INVALID_API_KEY",
            "Invalid API key",
            json!({ "help": "The API key is not valid. Check that you copied the whole key.", "format": "Bearer vg_your_api_key_here" }),
        )
    }

    pub fn auth_inactive() -> ApiError {
        ApiError::new(
            401,
            "INACTIVE_API_KEY",
            "API key is inactive",
            json!({ "help": "This API key has been deactivated. Create a new key.", "format": "Bearer vg_your_api_key_here" }),
        )
    }

    pub fn rate_limited(limit: u32, retry_after: u64) -> ApiError {
        let mut e = ApiError::new(
            429,
            "RATE_LIMIT_EXCEEDED",
            format!("Rate limit exceeded. Maximum {limit} requests per minute."),
            json!({ "limit": limit, "window": "60 seconds", "help": "Please reduce your request frequency and try again." }),
        );
        e.retry_after = Some(retry_after.max(1));
        e
    }

    pub fn insufficient_credits(needed: u64, monthly: u64, purchased: u64) -> ApiError {
        ApiError::new(
            402,
            "INSUFFICIENT_CREDITS",
            "Not enough credits to complete this request. Purchase more credits or wait for your monthly allowance to reset.",
            json!({
                "credits_needed": needed,
                "monthly_credits_remaining": monthly,
                "purchased_credits_remaining": purchased,
                "help": "Purchase additional credits (server keys add-credits) or upgrade your plan.",
            }),
        )
    }

    pub fn internal(request_id: &str) -> ApiError {
        ApiError::new(
            500,
            "INTERNAL_SERVER_ERROR",
            "An unexpected error occurred",
            json!(format!("request id {request_id}")),
        )
    }

    pub fn route_not_found(path: &str) -> ApiError {
        ApiError::new(
            404,
            "NOT_FOUND",
            "Route not found",
            json!({ "path": path, "help": "See the API reference for the available endpoints under /v1" }),
        )
    }

    pub fn method_not_allowed(method: &str, allowed: &str) -> ApiError {
        ApiError::new(
            405,
            "METHOD_NOT_ALLOWED",
            format!("Method {method} is not allowed here"),
            json!({ "allowed": allowed }),
        )
    }

    pub fn payload_too_large(limit: usize) -> ApiError {
        ApiError::new(
            413,
            "PAYLOAD_TOO_LARGE",
            "Request body too large",
            json!({ "max_bytes": limit }),
        )
    }

    pub fn request_timeout() -> ApiError {
        ApiError::new(
            408,
            "REQUEST_TIMEOUT",
            "The request was not received in time",
            json!({ "help": "Send the whole request promptly." }),
        )
    }

    /// Not an answer: a request tried on the reactor needs the worker pool
    /// (`app.rs`, [`crate::api::app::Effort::Quick`]). The server re-runs
    /// it there, so this never reaches a client; were it to, it reads as
    /// the 503 of [`ApiError::overloaded`].
    pub fn deferred() -> ApiError {
        let mut e = ApiError::overloaded();
        e.code = DEFERRED;
        e
    }

    /// Whether this is [`ApiError::deferred`].
    pub fn is_deferred(&self) -> bool {
        self.code == DEFERRED
    }

    pub fn overloaded() -> ApiError {
        let mut e = ApiError::new(
            503,
            "SERVICE_UNAVAILABLE",
            "The server is busy",
            json!({ "help": "Retry shortly." }),
        );
        e.retry_after = Some(1);
        e
    }

    pub fn timeout() -> ApiError {
        ApiError::new(
            504,
            "TIMEOUT",
            "The request took too long",
            json!({ "help": "Try a narrower request." }),
        )
    }

    /// A 400 with `details.help` (the identifier and search-parameter codes).
    pub fn bad_request(
        code: &'static str,
        message: impl Into<String>,
        help: impl Into<String>,
    ) -> ApiError {
        ApiError::new(400, code, message, json!({ "help": help.into() }))
    }

    /// 400 `INVALID_JSON`: a request body that does not parse; `position`
    /// is the parser's 1-based line and column.
    pub fn invalid_json(position: Option<(usize, usize)>) -> ApiError {
        let mut details = json!({ "help": "Send a JSON object, for example {\"page_size\": 10}" });
        if let Some((line, column)) = position {
            details["position"] = json!({ "line": line, "column": column });
        }
        ApiError::new(
            400,
            "INVALID_JSON",
            "Request body is not valid JSON",
            details,
        )
    }

    /// The ValidationError body (reference §1.6): every problem as
    /// `{field, value, message, code, validOptions}` in `details.errors`.
    pub fn validation(status: u16, code: &'static str, errors: Vec<Value>) -> ApiError {
        ApiError::new(
            status,
            code,
            "Invalid request parameters",
            json!({ "errors": errors, "help": "Please check your request parameters and ensure they meet the required format and constraints." }),
        )
    }

    /// 422 `UNKNOWN_PARAMETER` in the POST `/people` form (UnknownParamError).
    pub fn unknown_parameters(unknown: Vec<String>, allowed: Vec<String>) -> ApiError {
        ApiError::new(
            422,
            "UNKNOWN_PARAMETER",
            format!("Unknown parameter(s): {}", unknown.join(", ")),
            json!({ "unknownParameters": unknown, "allowedParameters": allowed }),
        )
    }

    /// A 404 with `details.help`.
    pub fn not_found(
        code: &'static str,
        message: impl Into<String>,
        help: impl Into<String>,
    ) -> ApiError {
        ApiError::new(404, code, message, json!({ "help": help.into() }))
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
        let b = ApiError::bad_request("INVALID_DEAL_ID", "Deal ID must be a valid UUID", "x")
            .with_status_code();
        assert_eq!(b.body()["statusCode"], 400);
        assert!(ApiError::internal("abc").body()["error"]["details"].is_string());
    }
}
