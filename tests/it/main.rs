//! The integration test binary: one executable (to save link time), one
//! module per concern. The fixture index is built once per run.

mod alerts;
mod api;
mod browser;
mod cli;
mod common;
mod conformance;
mod durability;
mod generations;
mod index_cycle;
mod oracle;
mod pages;
mod real_data;
mod replicas;
mod search_api;
mod semantic;
mod transport;
