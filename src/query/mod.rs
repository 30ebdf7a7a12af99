//! Answers questions against an opened index: identifier resolution, name
//! lookups, and the collection searches. Plain data in and out; nothing here
//! knows HTTP.

pub mod alert;
pub mod exec;
pub mod filter;
pub mod lookup;
pub mod plan;
pub mod range;
pub mod request;
pub mod resolve;
pub mod semantic;
pub mod sketch;
pub mod sort;
