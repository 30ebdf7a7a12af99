//! The lookups (`/company/search`, `/investor/search`, `/person/search`,
//! `/location/search`, `/industry/search`): a fuzzy name through a name
//! index, or an identifier resolved exactly, to at most
//! [`MAX_NAME_RESULTS`] docs (catalog lookups take their own limit). The
//! name indexes themselves are `index::text`; categories are assigned by
//! `index::build::text`.
//!
//! Each lookup runs through the name-search [`Stages`] its caller allows
//! and answers `Ok(None)` when those stages cannot (a quick attempt on the
//! reactor, retried in full on the worker pool).

use std::fmt;

use crate::index::build::text::{PERSON_COMPANY, PERSON_INVESTOR};
use crate::index::open::Kind;
use crate::index::text::{NameIndex, Stages, TextError};
use crate::index::{Index, IndexError};

use super::resolve::{org_identifier, person_identifier, resolve, IdentifierKind};

/// Most results a name lookup returns.
pub const MAX_NAME_RESULTS: usize = 10;

/// The person pools of `/person/search`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PersonPool {
    Investor,
    Company,
}

impl PersonPool {
    pub fn parse(text: &str) -> Option<PersonPool> {
        match text {
            "investor" => Some(PersonPool::Investor),
            "company" => Some(PersonPool::Company),
            _ => None,
        }
    }

    pub fn category(self) -> u8 {
        match self {
            PersonPool::Investor => PERSON_INVESTOR,
            PersonPool::Company => PERSON_COMPANY,
        }
    }

    /// The value of the people's `person_type` facet for this pool.
    fn facet_value(self) -> &'static str {
        match self {
            PersonPool::Investor => "investor",
            PersonPool::Company => "company",
        }
    }
}

/// What a lookup searches by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LookupBy<'a> {
    /// A name, matched fuzzily.
    Name(&'a str),
    /// An identifier parameter's raw value.
    Identifier(IdentifierKind, &'a str),
}

/// Why a lookup has no answer.
#[derive(Debug)]
pub enum LookupError {
    /// The identifier value is not one of its kind.
    InvalidIdentifier,
    Text(TextError),
    Index(IndexError),
}

impl fmt::Display for LookupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LookupError::InvalidIdentifier => f.write_str("invalid identifier"),
            LookupError::Text(e) => write!(f, "{e}"),
            LookupError::Index(e) => write!(f, "{e}"),
        }
    }
}

/// Docs of `names` matching `name` (best first), within `category`.
pub fn lookup_names(
    names: &NameIndex,
    name: &str,
    limit: usize,
    category: Option<u8>,
    stages: Stages,
) -> Result<Option<Vec<(u32, f32)>>, LookupError> {
    let hits = names
        .search_in(name, limit, category, stages)
        .map_err(LookupError::Text)?;
    Ok(hits.map(|hits| hits.into_iter().map(|h| (h.docid, h.score)).collect()))
}

/// Organisations (companies or firms) by name or identifier, with their
/// scores (1 for an identifier match).
pub fn lookup_orgs(
    kind: &Kind,
    names: &NameIndex,
    by: LookupBy,
    stages: Stages,
) -> Result<Option<Vec<(u32, f32)>>, LookupError> {
    match by {
        LookupBy::Name(name) => lookup_names(names, name, MAX_NAME_RESULTS, None, stages),
        LookupBy::Identifier(k, value) => {
            let id = org_identifier(k, value).map_err(|_| LookupError::InvalidIdentifier)?;
            let docs = resolve(kind, &id).into_iter().take(MAX_NAME_RESULTS);
            Ok(Some(docs.map(|d| (d, 1.0)).collect()))
        }
    }
}

/// People by name or identifier, within `pool` when one is given.
pub fn lookup_people(
    index: &Index,
    by: LookupBy,
    pool: Option<PersonPool>,
    stages: Stages,
) -> Result<Option<Vec<u32>>, LookupError> {
    let (k, value) = match by {
        LookupBy::Name(name) => {
            let category = pool.map(PersonPool::category);
            let hits = lookup_names(
                &index.person_names,
                name,
                MAX_NAME_RESULTS,
                category,
                stages,
            )?;
            return Ok(hits.map(|hits| hits.into_iter().map(|(d, _)| d).collect()));
        }
        LookupBy::Identifier(k, value) => (k, value),
    };
    let id = person_identifier(k, value).map_err(|_| LookupError::InvalidIdentifier)?;
    let keep = match pool {
        None => None,
        Some(p) => {
            let facet = index
                .people
                .facet("person_type")
                .map_err(LookupError::Index)?;
            Some(
                facet
                    .docids(p.facet_value())
                    .map_err(LookupError::Index)?
                    .unwrap_or_default(),
            )
        }
    };
    let docs = resolve(&index.people, &id)
        .into_iter()
        .filter(|d| keep.as_ref().is_none_or(|b| b.contains(*d)))
        .take(MAX_NAME_RESULTS);
    Ok(Some(docs.collect()))
}
