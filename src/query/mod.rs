//! Answers questions against an opened index: identifier resolution, name
//! lookups, and (next) the collection filters. Plain data in and out;
//! nothing here knows HTTP.

pub mod lookup;
pub mod resolve;
