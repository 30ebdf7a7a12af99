//! `page` and `page_size`, the same on the POST bodies and the GET history
//! endpoints (reference §1.5): `page` ≥ 0 (default 0), `page_size` 1..=500
//! (default 10).

use super::field::{Field, Ty};

/// Largest `page_size`.
pub const MAX_PAGE_SIZE: u64 = 500;
/// Pages beyond this are refused (no result set is that deep).
pub const MAX_PAGE: u64 = 10_000_000;

pub const PAGE: Field = Field::new(
    "page",
    Ty::Int {
        min: 0,
        max: MAX_PAGE,
    },
    "0-based page number.",
)
.default("0");

pub const PAGE_SIZE: Field = Field::new(
    "page_size",
    Ty::Int {
        min: 1,
        max: MAX_PAGE_SIZE,
    },
    "Rows per page.",
)
.default("10");
