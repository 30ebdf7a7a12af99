//! Values shared by the endpoint parsers' tests.

use uuid::Uuid;

use crate::api::errors::ApiError;
use crate::schema::{RoundKey, RoundType};

/// The `field` of every problem a validation error lists, in order.
pub fn error_fields(e: &ApiError) -> Vec<&str> {
    e.details["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["field"].as_str().unwrap())
        .collect()
}

pub const U1: &str = "550e8400-e29b-41d4-a716-446655440000";
pub const U2: &str = "c5a3f6ac-f6c9-4686-aa6e-12aeb7419b82";

pub fn uuid(text: &str) -> Uuid {
    Uuid::parse_str(text).unwrap()
}

/// A round type without the pre / extension flags.
pub fn plain(round_type: RoundType) -> RoundKey {
    RoundKey {
        round_type,
        pre: false,
        extension: false,
    }
}
