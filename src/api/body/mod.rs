//! JSON bodies of the four collection searches (POST `/companies`, `/deals`,
//! `/investors`, `/people`) → the typed requests of `query::request`, with
//! every validation problem of the reference (§1.6) reported at once.
//!
//! - A blank body is `{}`; malformed JSON is 400 `INVALID_JSON`; a body
//!   that is not an object is one `body` problem.
//! - Every object allows a fixed key list; any other key, at any depth, is
//!   `UNKNOWN_PARAMETER` (422). `null` is the same as an absent key.
//! - Values: JSON numbers for numbers (integers where integers are
//!   expected), `YYYY-MM-DD` dates, strict UUIDs, arrays for arrays (not
//!   empty, at most 100 items), exact enum spellings, financing types as
//!   `{type, pre?, extension?}` objects, bounds with `min ≤ max`.
//! - `page` is 0..=`params::MAX_PAGE` (as on the GET endpoints), `page_size`
//!   1..=500. `min_relevance` without `search_query` is validated and ignored.
//! - Item codes: `UNKNOWN_PARAMETER`, `INVALID_ENUM_VALUE`,
//!   `INVALID_FINANCING_TYPE`, `EMPTY_ARRAY_PARAMETER` (422); `INVALID_TYPE`,
//!   `INVALID_DATE`, `INVALID_UUID`, `OUT_OF_RANGE`, `INVALID_RANGE`,
//!   `EMPTY_STRING`, `TOO_MANY_ITEMS` (400).
//! - Problems are `{field, value, message, code, validOptions}` in document
//!   order; the status and the body shape are chosen in `problems`.
//!
//! `json` parses, `reader` walks objects, `blocks` and `identifiers` read the
//! shared key groups, and one file per endpoint lists its keys.

mod alert_configuration;
mod blocks;
mod companies;
#[cfg(test)]
mod contract_tests;
mod deals;
mod identifiers;
mod investors;
mod json;
mod people;
mod problems;
mod reader;
#[cfg(test)]
mod test_support;

pub use alert_configuration::{parse_alert_configuration, AlertDraft};
pub use companies::parse_companies;
pub use deals::parse_deals;
pub use investors::parse_investors;
pub use people::parse_people;
