//! Every error code the API answers with, in one table: its wire spelling,
//! its HTTP status and its message template (milli's error-code table is
//! the model). Constructors, the problem lists of validation errors and the
//! OpenAPI document's error responses are all derived from this table.
//!
//! A template names its blanks `{like_this}`; [`Code::message`] fills them.
//! Codes also serve as the item codes of a ValidationError's
//! `details.errors[]`: an item's status is the status the whole error takes
//! when that item is among its problems (422 outranks 400).

/// Declares the table: `Variant = status, "WIRE_CODE", "template";`
macro_rules! codes {
    ($($(#[$meta:meta])* $variant:ident = $status:literal, $wire:literal, $template:literal;)+) => {
        /// An error code of the API.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Code { $($(#[$meta])* $variant),+ }

        impl Code {
            /// Every code, in table order.
            pub const ALL: &'static [Code] = &[$(Code::$variant),+];

            /// The wire spelling (`error.code`, `details.errors[].code`).
            pub fn as_str(self) -> &'static str {
                match self { $(Code::$variant => $wire),+ }
            }

            /// The HTTP status this code answers with.
            pub fn status(self) -> u16 {
                match self { $(Code::$variant => $status),+ }
            }

            /// The message template.
            pub fn template(self) -> &'static str {
                match self { $(Code::$variant => $template),+ }
            }
        }
    };
}

codes! {
    // Authentication, metering, limits (every endpoint).
    AuthError = 401, "AUTH_ERROR", "API key not provided";
    InvalidApiKey = 401, "INVALID_API_KEY", "Invalid API key";
    InactiveApiKey = 401, "INACTIVE_API_KEY", "API key is inactive";
    UpgradeRequired = 403, "UPGRADE_REQUIRED", "{feature} require a {plans} plan.";
    ApiTierRequired = 403, "API_TIER_REQUIRED", "This endpoint requires a {plans} plan.";
    InsufficientCredits = 402, "INSUFFICIENT_CREDITS", "Not enough credits to {action}. Purchase more credits or wait for your monthly allowance to reset.";
    RateLimitExceeded = 429, "RATE_LIMIT_EXCEEDED", "Rate limit exceeded. Maximum {limit} requests per minute.";
    UsageLimitExceeded = 429, "USAGE_LIMIT_EXCEEDED", "Search limit exceeded";
    // Transport and routing.
    NotFound = 404, "NOT_FOUND", "No {what} found matching {target}";
    MethodNotAllowed = 405, "METHOD_NOT_ALLOWED", "Method {method} is not allowed here";
    RequestTimeout = 408, "REQUEST_TIMEOUT", "The request was not received in time";
    PayloadTooLarge = 413, "PAYLOAD_TOO_LARGE", "Request body too large";
    BadRequest = 400, "BAD_REQUEST", "Malformed request body";
    /// The HTTP parser's refusals ([`crate::api::parse_errors`]).
    MalformedRequest = 400, "MALFORMED_REQUEST", "The request line or a header could not be parsed";
    UriTooLong = 414, "URI_TOO_LONG", "Request URI too long";
    HeadersTooLarge = 431, "HEADERS_TOO_LARGE", "Request headers too large";
    InternalServerError = 500, "INTERNAL_SERVER_ERROR", "An unexpected error occurred";
    SemanticSearchUnavailable = 501, "SEMANTIC_SEARCH_UNAVAILABLE", "Semantic search ({block}.search_query) is not available: {reason}";
    ServiceUnavailable = 503, "SERVICE_UNAVAILABLE", "The server is busy";
    Timeout = 504, "TIMEOUT", "{operation} timed out";
    // Validation (bodies and query strings): the envelope codes.
    ValidationError = 400, "VALIDATION_ERROR", "Invalid request parameters";
    UnknownParameter = 422, "UNKNOWN_PARAMETER", "Unknown parameter(s): {names}. Allowed parameters: {allowed}";
    InvalidParameter = 400, "INVALID_PARAMETER", "Invalid parameter(s): {names}";
    InvalidParameters = 400, "INVALID_PARAMETERS", "Query parameters are not supported for this endpoint";
    // Validation items (`details.errors[].code`).
    InvalidEnumValue = 422, "INVALID_ENUM_VALUE", "{field} has an invalid value: '{value}'. Valid options are: {options}";
    InvalidFinancingType = 422, "INVALID_FINANCING_TYPE", "Invalid financing type(s): {given}. Valid options are: {options}";
    EmptyArrayParameter = 422, "EMPTY_ARRAY_PARAMETER", "{field} must not be an empty array; omit the key instead";
    InvalidType = 400, "INVALID_TYPE", "{field} must be {expected}";
    InvalidJson = 400, "INVALID_JSON", "Request body is not valid JSON";
    InvalidDate = 400, "INVALID_DATE", "{field} must be a date in YYYY-MM-DD format";
    InvalidUuid = 400, "INVALID_UUID", "{field} contains an invalid UUID: '{value}'";
    OutOfRange = 400, "OUT_OF_RANGE", "{field} must be {bounds}";
    InvalidRange = 400, "INVALID_RANGE", "{field} must not be greater than {max}";
    EmptyString = 400, "EMPTY_STRING", "{field} must not be blank";
    TooManyItems = 400, "TOO_MANY_ITEMS", "{field} must have at most {max} items (got {count})";
    RequiredParameter = 400, "REQUIRED_PARAMETER", "{field} is required";
    // Identifiers of the GET endpoints.
    MissingIdentifier = 400, "MISSING_IDENTIFIER", "{what} identifier is required";
    MultipleIdentifiers = 400, "MULTIPLE_IDENTIFIERS", "Only one identifier parameter is allowed";
    InvalidIdentifier = 400, "INVALID_IDENTIFIER", "Invalid {param}: '{value}'";
    InvalidId = 400, "INVALID_ID", "Invalid {param}: '{value}'";
    InvalidDomain = 400, "INVALID_DOMAIN", "Invalid {param}: '{value}'";
    InvalidLinkedinUrl = 400, "INVALID_LINKEDIN_URL", "Invalid {param}: '{value}'";
    InvalidCrunchbaseUrl = 400, "INVALID_CRUNCHBASE_URL", "Invalid {param}: '{value}'";
    InvalidDealId = 400, "INVALID_DEAL_ID", "Deal ID must be a valid UUID";
    InvalidPage = 400, "INVALID_PAGE", "Invalid page '{value}'";
    InvalidPageSize = 400, "INVALID_PAGE_SIZE", "Invalid page_size '{value}'";
    // Lookups.
    MissingSearchParams = 400, "MISSING_SEARCH_PARAMS", "At least one search parameter is required: {names}";
    MultipleSearchParams = 400, "MULTIPLE_SEARCH_PARAMS", "Only one search parameter is allowed at a time";
    EmptySearchTerm = 400, "EMPTY_SEARCH_TERM", "The {param} parameter is empty";
    InvalidLocationType = 400, "INVALID_LOCATION_TYPE", "Invalid location type. Must be one of: {options}";
    MultipleLocationTypeParams = 400, "MULTIPLE_LOCATION_TYPE_PARAMS", "Cannot specify both type and location_type parameters";
    InvalidIndustryType = 400, "INVALID_INDUSTRY_TYPE", "Invalid industry type. Must be one of: {options}";
    MultipleIndustryTypeParams = 400, "MULTIPLE_INDUSTRY_TYPE_PARAMS", "Cannot specify both type and industry_type parameters";
    // Entities.
    CompanyNotFound = 404, "COMPANY_NOT_FOUND", "Company not found";
    InvestorNotFound = 404, "INVESTOR_NOT_FOUND", "Investor not found";
    PersonNotFound = 404, "PERSON_NOT_FOUND", "Person not found";
    DealNotFound = 404, "DEAL_NOT_FOUND", "Deal not found";
    EmailNotFound = 404, "EMAIL_NOT_FOUND", "No verified email was found for this person";
    // Alerts.
    MissingParameters = 400, "MISSING_PARAMETERS", "Missing required parameters";
    InvalidAlertId = 400, "INVALID_ALERT_ID", "Invalid alert ID(s): {ids}. All alert IDs must be valid UUIDs.";
    TooManyAlertIds = 400, "TOO_MANY_ALERT_IDS", "At most {max} alert IDs are allowed per request (got {count})";
    InvalidDateFormat = 400, "INVALID_DATE_FORMAT", "Invalid date format";
    InvalidDateRange = 400, "INVALID_DATE_RANGE", "Start date must be before end date";
    DateRangeTooLarge = 400, "DATE_RANGE_TOO_LARGE", "Date range cannot exceed 1 year";
    FutureDate = 400, "FUTURE_DATE", "{which} date cannot be in the future";
    AlertNotFound = 404, "ALERT_NOT_FOUND", "Alert(s) not found or you do not have permission to access them";
    AlertLimitReached = 409, "ALERT_LIMIT_REACHED", "You already have {limit} alert configurations; delete one before creating another";
}

impl Code {
    /// The template with each `{name}` replaced by its value; blanks
    /// without a value stay as they are.
    pub fn message(self, values: &[(&str, &str)]) -> String {
        let mut text = self.template().to_string();
        for (name, value) in values {
            text = text.replace(&format!("{{{name}}}"), value);
        }
        text
    }

    /// The code spelled `wire`.
    pub fn parse(wire: &str) -> Option<Code> {
        Code::ALL.iter().copied().find(|c| c.as_str() == wire)
    }
}

/// Names as prose for a message: "id, domain, linkedin, or crunchbase".
pub fn either(names: &[&str]) -> String {
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{}, or {last}", rest.join(", ")),
        Some((last, _)) => last.to_string(),
        None => String::new(),
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq<&str> for Code {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_spellings_are_unique_and_round_trip() {
        for (i, a) in Code::ALL.iter().enumerate() {
            assert_eq!(Code::parse(a.as_str()), Some(*a));
            for b in &Code::ALL[i + 1..] {
                assert_ne!(a.as_str(), b.as_str());
            }
        }
    }

    #[test]
    fn templates_fill_their_blanks() {
        assert_eq!(
            Code::RateLimitExceeded.message(&[("limit", "200")]),
            "Rate limit exceeded. Maximum 200 requests per minute."
        );
        assert_eq!(
            Code::InvalidDomain.message(&[("param", "domain"), ("value", "x")]),
            "Invalid domain: 'x'"
        );
        assert_eq!(Code::DealNotFound.message(&[]), "Deal not found");
    }

    #[test]
    fn names_read_as_prose() {
        assert_eq!(
            either(&["id", "domain", "linkedin", "crunchbase"]),
            "id, domain, linkedin, or crunchbase"
        );
        assert_eq!(either(&["id"]), "id");
        assert_eq!(either(&[]), "");
    }

    #[test]
    fn statuses_are_http_errors() {
        for c in Code::ALL {
            assert!((400..600).contains(&c.status()), "{c}");
        }
    }
}
