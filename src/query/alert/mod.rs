//! Alerts (reference §10) on the `/deals` engine: an alert's filters become
//! the [`DealsQuery`] a `/deals` body with the same filters would be (round
//! labels → `{type, pre, extension}`, the reporting range → `deal.date_*`),
//! planned and evaluated by `query::exec` exactly as `/deals` is. An alert
//! with a semantic description adds one clause: deals of the companies in
//! its semantic set, computed among the companies its company filters
//! leave (as `company.search_query` does on `/companies`).
//!
//! The range is days: a deal matches when its (day-precise) date falls on
//! a UTC day from the start instant's to the end instant's, both included.
//! Matches come newest first (the deals' doc order), at most
//! [`MAX_ALERT_DEALS`] per alert; the count is of all of them.

mod configuration;
mod reasoning;
mod simplified;

use std::collections::HashMap;

use roaring::RoaringBitmap;

use crate::index::Index;
use crate::query::exec::semantic::{semantic_companies, SemanticSet};
use crate::query::exec::{deals_plan, QueryError};
use crate::query::filter::evaluate;
use crate::query::request::{
    CompanyFilter, DealFilter, DealsQuery, InvestorsFilter, Range, Semantic,
};
use crate::schema::alert::AlertFilters;
use crate::schema::{Date, RoundKey};

pub use configuration::configuration_of;
pub use reasoning::{reasoning, Matched};
pub use simplified::simplified_deal;

/// Most deals one alert reports (newest first); `totalDealCount` counts all.
pub const MAX_ALERT_DEALS: usize = 250;

/// The deals an alert matched.
#[derive(Debug, Clone, PartialEq)]
pub struct AlertMatches {
    /// Every match, newest first.
    pub deals: RoaringBitmap,
    /// Relevance (0..1) of each company of the semantic set, by company doc.
    pub relevance: HashMap<u32, f32>,
}

impl AlertMatches {
    /// The newest `limit` matches.
    pub fn newest(&self, limit: usize) -> Vec<u32> {
        self.deals.iter().take(limit).collect()
    }
}

/// `Some(list)` unless empty: an empty alert list does not constrain.
fn listed<T: Clone>(list: &[T]) -> Option<Vec<T>> {
    (!list.is_empty()).then(|| list.to_vec())
}

/// The `/deals` request with an alert's filters over `days`.
pub fn deals_query(filters: &AlertFilters, days: Range<Date>) -> DealsQuery {
    let rounds: Vec<RoundKey> = filters
        .financing_types
        .iter()
        .filter_map(|l| RoundKey::from_label(l))
        .collect();
    DealsQuery {
        deal: DealFilter {
            financing_types: listed(&filters.financing_types).map(|_| rounds),
            size: Range {
                min: filters.deal_size_min,
                max: filters.deal_size_max,
            },
            date: days,
            created: Range::default(),
        },
        company: CompanyFilter {
            ids: listed(&filters.companies),
            locations: listed(&filters.locations),
            industries: listed(&filters.industries),
            super_categories: listed(&filters.super_categories),
            employee_count: listed(&filters.num_employees),
            ..CompanyFilter::default()
        },
        investors: InvestorsFilter {
            investor_ids: listed(&filters.investors),
            people_ids: None,
        },
        ..DealsQuery::default()
    }
}

/// The semantic key of an alert's filters; its vector is attached by the caller.
pub fn semantic_of(filters: &AlertFilters) -> Option<Semantic> {
    filters.search_query.as_ref().map(|query| Semantic {
        query: query.clone(),
        min_relevance: filters.min_relevance.unwrap_or(0.0),
        vector: None,
    })
}

/// Every deal of `days` matching `filters` (and `semantic`, the alert's
/// semantic key with its vector attached).
pub fn run_alert(
    index: &Index,
    filters: &AlertFilters,
    days: Range<Date>,
    semantic: Option<&Semantic>,
) -> Result<AlertMatches, QueryError> {
    let q = deals_query(filters, days);
    let mut plan = deals_plan(index, &q)?;
    let mut relevance = HashMap::new();
    if let Some(s) = semantic {
        let hits = semantic_companies(index, &q.company, s, "filters")?;
        plan.docs(SemanticSet::of(&hits).deals(index)?);
        relevance = hits.iter().map(|h| (h.doc, h.relevance)).collect();
    }
    let deals = evaluate(&index.deals, &plan)?;
    Ok(AlertMatches { deals, relevance })
}
