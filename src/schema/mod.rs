//! The vocabulary every other layer speaks: closed enums, dates, identifiers,
//! and the rows of the canonical dump.

pub mod alert;
pub mod dump;
pub mod enums;
pub mod ids;
pub mod record;
#[cfg(test)]
mod schema_doc;
pub mod time;

pub use dump::*;
pub use enums::*;
pub use time::{Date, Timestamp};
