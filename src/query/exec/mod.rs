//! Executes the collection searches: a typed request becomes a [`Plan`]
//! per kind (joins resolved to doc sets through the relation arrays), the
//! plan is evaluated to the exact set of matches (`query::filter`), and one
//! page is picked in sort order (`query::sort`). Records are hydrated by the
//! caller, for the returned page only.
//!
//! [`Plan`]: crate::query::plan::Plan

mod at_least;
mod blocks;
mod by_round;
mod companies;
mod deals;
mod dense;
mod employment;
mod every_led;
mod every_person;
mod investors;
mod joins;
mod people;
mod person_deals;
mod running;
mod scratch;
pub mod semantic;
mod size_base;
mod span;
mod supersets;
mod tally;
mod walked_counts;
mod words;

use std::fmt;

use roaring::RoaringBitmap;

pub use companies::{companies_plan, search_companies};
pub use deals::{deals_plan, search_deals};
pub(crate) use dense::{DealSet, DenseSet};
pub use investors::search_investors;
pub use people::search_people;

use crate::index::open::Kind;
use crate::index::{Index, IndexError};
use crate::query::plan::Plan;
use crate::query::request::{PageRequest, ResultPage};
use crate::query::semantic::{Hit, SemanticError};
use crate::query::sort::{page_by_column, page_by_keys, page_in_doc_order, Direction};

/// Why a search could not be answered.
#[derive(Debug)]
pub enum QueryError {
    Index(IndexError),
    /// A `search_query` could not be answered; `block` is the request
    /// block that carried it (`company`, `company_investments`,
    /// `investor.deals`).
    Semantic {
        block: &'static str,
        error: SemanticError,
    },
}

impl From<IndexError> for QueryError {
    fn from(e: IndexError) -> Self {
        QueryError::Index(e)
    }
}

impl fmt::Display for QueryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            QueryError::Index(e) => write!(f, "{e}"),
            QueryError::Semantic { block, error } => {
                write!(f, "semantic search ({block}.search_query): {error}")
            }
        }
    }
}

impl std::error::Error for QueryError {}

/// Starts, in the background, the derivations in memory that the
/// most common searches read (the rounds' value runs of firms; industry
/// and location counts of firms and people; people's deals by round;
/// counts by size bucket for
/// `/people`'s default and institutional investment types), so that the
/// first requests after a start or a reload do not each pay a slower
/// way. Requests made before a derivation is done count another way;
/// rarer ones (angel, `only_lead_deals`) are derived on first use.
pub fn start_derivations(index: &Index) -> Result<(), IndexError> {
    investors::start_deriving(index)?;
    supersets::start_deriving(index)?;
    by_round::start_deriving(index)?;
    size_base::start_deriving(index)
}

/// One page of a semantic set, in its relevance order, each row with its relevance.
fn page_of_hits(hits: &[Hit], page: PageRequest) -> ResultPage {
    let rows = hits
        .iter()
        .skip(page.page.saturating_mul(page.page_size))
        .take(page.page_size);
    let (docs, similarity) = rows.map(|h| (h.doc, h.relevance)).unzip();
    ResultPage {
        total_count: hits.len() as u64,
        docs,
        filtered: Vec::new(),
        similarity,
    }
}

/// How the matches of a search are ordered.
enum Order {
    ByDocId,
    I32(&'static str, Direction),
    I64(&'static str, Direction),
    /// A key computed by the query for every match.
    Keys(Vec<(Option<i64>, u32)>, Direction),
}

/// One page of `matches` in `order`; `matches` are some of the docs
/// matching `plan`, so they lie within its ranges on the sort column.
fn page_of(
    kind: &Kind,
    (matches, plan): (&RoaringBitmap, &Plan),
    order: Order,
    page: PageRequest,
) -> Result<ResultPage, QueryError> {
    let docs = match order {
        Order::ByDocId => page_in_doc_order(matches, page),
        Order::I32(name, dir) => page_by_column(
            matches,
            &*kind.column_i32(name)?,
            &*kind.sort_order(name)?,
            dir,
            page,
            plan.bounds_of(name),
        ),
        Order::I64(name, dir) => page_by_column(
            matches,
            &*kind.column_i64(name)?,
            &*kind.sort_order(name)?,
            dir,
            page,
            plan.bounds_of(name),
        ),
        Order::Keys(keyed, dir) => page_by_keys(keyed, dir, page),
    };
    Ok(counted_page(matches.len(), docs))
}

/// A page of `docs` out of `total_count` matches, nothing else known yet.
fn counted_page(total_count: u64, docs: Vec<u32>) -> ResultPage {
    ResultPage {
        total_count,
        docs,
        filtered: Vec::new(),
        similarity: Vec::new(),
    }
}
