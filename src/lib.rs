//! # fundsearch
//!
//! A self-hosted funding-data search engine. The module tree is the data flow:
//!
//! `schema` (vocabulary, dump rows) → `ingest` (read, import, generate, derive)
//! → `embed` (sentence-embedding models) → `index` (on-disk bitmaps, columns, relations, stores, text) → `query`
//! (filter, plan, exec, sort) → `accounts` (per-user state: keys, plans,
//! credits, usage) → `api` (HTTP routes, envelope, auth, declarations).
//! Dependencies point one way; nothing below `api` knows HTTP. `progress`
//! stands beside them: `ingest` and `index` count their long stages through
//! it and never print (it draws the indexer's bars or plain lines).
//!
//! The only `unsafe` code is the memory map in [`index::mmap`].

pub mod accounts;
pub mod api;
pub mod cli;
pub mod embed;
pub mod index;
pub mod ingest;
pub mod progress;
pub mod query;
pub mod schema;
