//! `POST /companies`: company discovery.

use crate::index::Index;
use crate::query::filter::evaluate;
use crate::query::plan::Plan;
use crate::query::request::{CompaniesQuery, CompanySort, ResultPage};
use crate::query::sort::Direction::{Ascending, Descending};

use super::blocks::{company_on_companies, investors_on_companies, latest_deal_on_companies};
use super::joins::docs_of_org_identifiers;
use super::semantic::semantic_hits;
use super::{page_of, page_of_hits, Order, QueryError};

/// The plan of a `/companies` request.
pub fn companies_plan(index: &Index, q: &CompaniesQuery) -> Result<Plan, QueryError> {
    let mut plan = Plan::default();
    if let Some(keys) = &q.identifiers {
        plan.docs(docs_of_org_identifiers(&index.companies, keys)?);
    }
    company_on_companies(&mut plan, index, &q.company);
    latest_deal_on_companies(&mut plan, index, &q.latest_deal)?;
    investors_on_companies(&mut plan, index, &q.investors)?;
    Ok(plan)
}

pub fn search_companies(index: &Index, q: &CompaniesQuery) -> Result<ResultPage, QueryError> {
    let plan = companies_plan(index, q)?;
    let matches = evaluate(&index.companies, &plan)?;
    if let Some(s) = &q.semantic {
        let hits = semantic_hits(index, s, "company", &matches)?;
        return Ok(page_of_hits(&hits, q.page));
    }
    let order = match q.sort {
        CompanySort::MostRecentRaise => Order::ByDocId,
        CompanySort::OldestRaise => Order::I32("latest_deal_date", Ascending),
        CompanySort::MostRecentFounded => Order::I32("founded_on", Descending),
        CompanySort::OldestFounded => Order::I32("founded_on", Ascending),
        CompanySort::LargestValuation => Order::I64("latest_valuation", Descending),
        CompanySort::SmallestValuation => Order::I64("latest_valuation", Ascending),
        CompanySort::LargestTotalRaise => Order::I64("total_raised", Descending),
        CompanySort::SmallestTotalRaise => Order::I64("total_raised", Ascending),
        CompanySort::MostFundingRounds => Order::I32("num_funding_rounds", Descending),
        CompanySort::MostInvestors => Order::I32("num_investors", Descending),
    };
    page_of(&index.companies, (&matches, &plan), order, q.page)
}
