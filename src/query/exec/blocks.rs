//! Plan clauses of the filter blocks several endpoints share: a company
//! filter seen from companies or from their deals, a deal filter seen from
//! deals or from a company's latest deal, investors across rounds.

use crate::index::{Index, IndexError};
use crate::query::plan::Plan;
use crate::query::request::{CompanyFilter, DealFilter, InvestorsFilter, LatestDealFilter};

use super::joins::{
    companies_of_deals, companies_with_latest_deal_in, deals_of_firms, deals_of_people,
    docs_of_ids, targets_of,
};

/// Facet values of a headcount / ipo / round list.
fn values<T>(list: &Option<Vec<T>>, f: impl Fn(&T) -> String) -> Option<Vec<String>> {
    list.as_ref().map(|l| l.iter().map(f).collect())
}

/// Column and facet names of the company fields, on companies (`""`) or on deals (`"company_"`).
struct CompanyFields {
    location: &'static str,
    industry: &'static str,
    super_category: &'static str,
    employee_count: &'static str,
    ipo_status: &'static str,
    total_raised: &'static str,
}

const ON_COMPANIES: CompanyFields = CompanyFields {
    location: "location",
    industry: "industry",
    super_category: "super_category",
    employee_count: "employee_count",
    ipo_status: "ipo_status",
    total_raised: "total_raised",
};

const ON_DEALS: CompanyFields = CompanyFields {
    location: "company_location",
    industry: "company_industry",
    super_category: "company_super_category",
    employee_count: "company_employee_count",
    ipo_status: "company_ipo_status",
    total_raised: "company_total_raised",
};

fn company_facets(plan: &mut Plan, f: &CompanyFilter, names: &CompanyFields) {
    plan.facet(names.location, f.locations.as_deref());
    plan.facet(names.industry, f.industries.as_deref());
    plan.facet(names.super_category, f.super_categories.as_deref());
    plan.facet(
        names.employee_count,
        values(&f.employee_count, |h| h.as_str().to_string()).as_deref(),
    );
    plan.facet(
        names.ipo_status,
        values(&f.ipo_status, |s| s.as_str().to_string()).as_deref(),
    );
    plan.money(names.total_raised, &f.total_raised);
}

/// A company filter on companies.
pub fn company_on_companies(plan: &mut Plan, index: &Index, f: &CompanyFilter) {
    company_facets(plan, f, &ON_COMPANIES);
    if let Some(ids) = &f.ids {
        plan.docs(docs_of_ids(&index.companies, ids));
    }
}

/// A company filter on deals (the deal's company).
pub fn company_on_deals(
    plan: &mut Plan,
    index: &Index,
    f: &CompanyFilter,
) -> Result<(), IndexError> {
    company_facets(plan, f, &ON_DEALS);
    if let Some(ids) = &f.ids {
        plan.docs(targets_of(
            &index.companies,
            "deals",
            docs_of_ids(&index.companies, ids),
        )?);
    }
    Ok(())
}

/// A deal filter on deals.
pub fn deal_on_deals(plan: &mut Plan, f: &DealFilter) {
    plan.facet(
        "round",
        values(&f.financing_types, |k| k.facet_value()).as_deref(),
    );
    plan.money("size", &f.size);
    plan.days("date", &f.date);
    plan.instants("created_at", &f.created);
}

/// Rounds with any firm of `investor_ids` or any person of `people_ids`, on deals.
pub fn investors_on_deals(
    plan: &mut Plan,
    index: &Index,
    f: &InvestorsFilter,
) -> Result<(), IndexError> {
    if let Some(ids) = &f.investor_ids {
        plan.docs(deals_of_firms(index, ids)?);
    }
    if let Some(ids) = &f.people_ids {
        plan.docs(deals_of_people(index, ids)?);
    }
    Ok(())
}

/// Companies with such investors in any round.
pub fn investors_on_companies(
    plan: &mut Plan,
    index: &Index,
    f: &InvestorsFilter,
) -> Result<(), IndexError> {
    if let Some(ids) = &f.investor_ids {
        plan.docs(companies_of_deals(index, &deals_of_firms(index, ids)?)?);
    }
    if let Some(ids) = &f.people_ids {
        plan.docs(companies_of_deals(index, &deals_of_people(index, ids)?)?);
    }
    Ok(())
}

/// A latest-deal filter on companies.
pub fn latest_deal_on_companies(
    plan: &mut Plan,
    index: &Index,
    f: &LatestDealFilter,
) -> Result<(), IndexError> {
    let d = &f.deal;
    plan.facet(
        "latest_round",
        values(&d.financing_types, |k| k.facet_value()).as_deref(),
    );
    plan.money("latest_deal_size", &d.size);
    plan.days("latest_deal_date", &d.date);
    plan.instants("latest_deal_created_at", &d.created);
    plan.facet("latest_investor_location", f.investor_locations.as_deref());
    if let Some(ids) = &f.investor_ids {
        plan.docs(companies_with_latest_deal_in(
            index,
            &deals_of_firms(index, ids)?,
        )?);
    }
    Ok(())
}
