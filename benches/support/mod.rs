//! Code shared by the benchmark targets (`lookups`, `lookup_latency`): the
//! benchmark index, deterministic query sampling, the in-process API and
//! latency summaries. Each target uses a different subset, hence the
//! `dead_code` allowance.
#![allow(dead_code)]

pub mod app;
pub mod bodies;
pub mod cli;
pub mod dataset;
pub mod entity;
pub mod export;
pub mod queries;
pub mod requests;
pub mod searches;
pub mod stats;
