//! `POST /deals`: rounds across every company's history.

use crate::index::Index;
use crate::query::filter::evaluate;
use crate::query::plan::Plan;
use crate::query::request::{DealSort, DealsQuery, ResultPage};
use crate::query::sort::Direction;

use super::blocks::{company_on_deals, deal_on_deals, investors_on_deals};
use super::joins::docs_of_ids;
use super::{page_of, Order, QueryError};

/// The plan of a `/deals` request.
pub fn deals_plan(index: &Index, q: &DealsQuery) -> Result<Plan, QueryError> {
    let mut plan = Plan::default();
    if let Some(ids) = &q.deal_ids {
        plan.docs(docs_of_ids(&index.deals, ids));
    }
    deal_on_deals(&mut plan, &q.deal);
    company_on_deals(&mut plan, index, &q.company)?;
    investors_on_deals(&mut plan, index, &q.investors)?;
    Ok(plan)
}

pub fn search_deals(index: &Index, q: &DealsQuery) -> Result<ResultPage, QueryError> {
    let plan = deals_plan(index, q)?;
    let matches = evaluate(&index.deals, &plan)?;
    let order = match q.sort {
        DealSort::MostRecentDeal => Order::ByDocId,
        DealSort::OldestDeal => Order::I32("date", Direction::Ascending),
        DealSort::LargestRaise => Order::I64("size", Direction::Descending),
        DealSort::SmallestRaise => Order::I64("size", Direction::Ascending),
    };
    page_of(&index.deals, (&matches, &plan), order, q.page)
}
