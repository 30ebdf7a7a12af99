//! Helpers shared by the handlers: choosing the one identifier parameter,
//! reading stored records, mapping index failures to 500s.

use serde_json::Value;

use crate::api::declare::codes::either;
use crate::api::envelope::Raw;
use crate::api::errors::{ApiError, Code};
use crate::api::params::Query;
use crate::index::open::Kind;
use crate::index::IndexError;
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
    eprintln!("index error: {e}");
    ApiError::of(Code::InternalServerError, &[], Value::Null)
}

/// The stored record `variant` of `doc`.
pub fn stored(kind: &Kind, variant: &str, doc: u32) -> Result<Raw, ApiError> {
    let store = kind.records(variant).map_err(internal)?;
    Ok(Raw(store.get(doc).to_vec()))
}

/// A stored record as its record type (for the few responses assembled from parts).
pub fn stored_record<T: serde::de::DeserializeOwned>(
    kind: &Kind,
    variant: &str,
    doc: u32,
) -> Result<T, ApiError> {
    let store = kind.records(variant).map_err(internal)?;
    serde_json::from_slice(store.get(doc))
        .map_err(|e| internal(IndexError::corrupt("store", e.to_string())))
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
