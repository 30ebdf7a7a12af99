//! A kind's records by variant: stored ([`Store`]), or projected from
//! another variant at read time. Cards of companies and people are not
//! stored: each is read out of the kind's full record ([`company_card`],
//! [`person_card`]), whose fields it shares; at M that spares 235 MB of
//! card stores (people 165, companies 70) for a few microseconds a
//! looked-up card (the full record decompressed and its card's fields
//! parsed out of it; person name lookups p50 99 µs, p99 0.56 ms at M).

use std::sync::Arc;

use quick_cache::sync::Cache;
use serde::Serialize;

use super::store::{Record, Store};
use super::IndexError;
use crate::schema::record::{CompanyCard, PersonCard};

/// Makes one variant's record out of another's (JSON bytes to JSON bytes).
pub type Projection = fn(&[u8]) -> Result<Vec<u8>, String>;

/// The projected variants of companies: (variant, made of `full` by).
pub const COMPANY_PROJECTIONS: &[(&str, Projection)] = &[("card", company_card)];
/// The projected variants of people.
pub const PERSON_PROJECTIONS: &[(&str, Projection)] = &[("card", person_card)];

/// Projected records kept decompressed and projected.
const CACHED_PROJECTIONS: usize = 16_384;

/// Records of one variant.
pub enum Records {
    Stored(Store),
    Projected {
        source: Arc<Records>,
        project: Projection,
        cache: Cache<u32, Record>,
    },
}

impl Records {
    /// Variant records made by `project` out of `source`'s.
    pub fn projected(source: Arc<Records>, project: Projection) -> Records {
        let cache = Cache::new(CACHED_PROJECTIONS);
        Records::Projected {
            source,
            project,
            cache,
        }
    }

    /// The record of `docid` (JSON bytes).
    pub fn get(&self, docid: u32) -> Result<Record, IndexError> {
        match self {
            Records::Stored(store) => store.get(docid),
            Records::Projected {
                source,
                project,
                cache,
            } => cache.get_or_insert_with(&docid, || {
                let full = source.get(docid)?;
                let projected = project(&full)
                    .map_err(|e| IndexError::corrupt("record", format!("doc {docid}: {e}")))?;
                Ok(projected.into())
            }),
        }
    }

    /// The records of `docids`, in order (a page of hits).
    pub fn get_many(
        &self,
        docids: impl IntoIterator<Item = u32>,
    ) -> Result<Vec<Record>, IndexError> {
        match self {
            Records::Stored(store) => store.get_many(docids),
            Records::Projected { .. } => docids.into_iter().map(|d| self.get(d)).collect(),
        }
    }

    pub fn len(&self) -> usize {
        match self {
            Records::Stored(store) => store.len(),
            Records::Projected { source, .. } => source.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

fn json<T: Serialize>(value: serde_json::Result<T>) -> Result<Vec<u8>, String> {
    value
        .and_then(|v| serde_json::to_vec(&v))
        .map_err(|e| e.to_string())
}

/// A company's card out of its full record.
pub fn company_card(full: &[u8]) -> Result<Vec<u8>, String> {
    json(CompanyCard::from_full_record(full))
}

/// A person's card out of their full record.
pub fn person_card(full: &[u8]) -> Result<Vec<u8>, String> {
    json(PersonCard::from_full_record(full))
}
