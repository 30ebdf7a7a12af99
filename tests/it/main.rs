//! The integration test binary: one executable (to save link time), one
//! module per concern. The fixture index is built once per run.

mod common;
mod api;
mod cli;
mod index_cycle;
mod real_data;
mod search_api;
mod oracle;
