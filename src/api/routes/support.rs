//! Helpers shared by the handlers: choosing the one identifier parameter,
//! reading stored records, mapping index failures to 500s.

use serde_json::Value;

use crate::api::declare::codes::either;
use std::time::Instant;

use crate::api::envelope::Raw;
use crate::api::errors::{ApiError, Code};
use crate::api::handler::Ctx;
use crate::api::params::Query;
use crate::api::semantic::usage_limit;
use crate::index::open::Kind;
use crate::query::request::Semantic;
use crate::query::resolve::IdentifierKind;

/// Which identifier parameters a request carried.
pub enum Picked<'q> {
    None,
    One(IdentifierKind, &'q str),
    /// More than one: their names, in request order.
    Many(Vec<&'static str>),
}

/// The identifier parameters among `kinds` present in `query` (empty values count as absent).
pub fn pick<'q>(query: &'q Query, kinds: &[IdentifierKind]) -> Picked<'q> {
    let present: Vec<(IdentifierKind, &str)> = kinds
        .iter()
        .filter_map(|&k| query.non_empty(k.param()).map(|v| (k, v)))
        .collect();
    match present.as_slice() {
        [] => Picked::None,
        [(k, v)] => Picked::One(*k, v),
        many => Picked::Many(many.iter().map(|(k, _)| k.param()).collect()),
    }
}

/// "id, domain, linkedin, or crunchbase"
pub fn one_of(kinds: &[IdentifierKind]) -> String {
    either(&kinds.iter().map(|k| k.param()).collect::<Vec<_>>())
}

/// An index failure (of a store, a column or a name index): logged,
/// answered as a 500.
pub fn internal(e: impl std::fmt::Display) -> ApiError {
    tracing::error!(error = %e, "index read failed");
    ApiError::of(Code::InternalServerError, &[], Value::Null)
}

/// The stored record `variant` of `doc`.
pub fn stored(kind: &Kind, variant: &str, doc: u32) -> Result<Raw, ApiError> {
    let store = kind.records(variant).map_err(internal)?;
    Ok(Raw::new(store.get(doc).map_err(internal)?))
}

/// A stored record as its record type (for the few responses assembled from parts).
pub fn stored_record<T: serde::de::DeserializeOwned>(
    kind: &Kind,
    variant: &str,
    doc: u32,
) -> Result<T, ApiError> {
    kind.record(variant, doc).map_err(internal)
}

/// Embeds the query of every semantic block of a request, once the plan's
/// monthly ceiling allows them all; returns how many ran.
pub fn semantic_blocks<'s>(
    ctx: &Ctx,
    blocks: impl IntoIterator<Item = (Option<&'s mut Semantic>, &'static str)>,
) -> Result<u64, ApiError> {
    let started = Instant::now();
    let active: Vec<(&mut Semantic, &'static str)> = blocks
        .into_iter()
        .filter_map(|(s, block)| s.map(|s| (s, block)))
        .collect();
    let Some(&(_, first)) = active.first() else {
        return Ok(0);
    };
    let n = active.len() as u64;
    let usage = ctx
        .app
        .accounts
        .semantic_usage(ctx.principal, chrono::Utc::now())
        .map_err(internal)?;
    if let Some((used, limit)) = usage {
        if used + n > limit {
            return Err(usage_limit(first, used, limit));
        }
    }
    for (s, block) in active {
        ctx.app
            .semantic
            .attach(ctx.index, Some(s), block, started)?;
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_of_lists_kinds_in_prose() {
        let kinds = [
            IdentifierKind::Id,
            IdentifierKind::Domain,
            IdentifierKind::Linkedin,
            IdentifierKind::Crunchbase,
        ];
        assert_eq!(one_of(&kinds), "id, domain, linkedin, or crunchbase");
        assert_eq!(one_of(&kinds[..1]), "id");
    }
}
