//! Plan clauses of the filter blocks several endpoints share: a company
//! filter seen from companies, from their deals or from the people they
//! employ, a deal filter seen from deals or from a company's latest deal
//! (on companies or their people), investors across rounds.

use crate::index::{Index, IndexError};
use crate::query::filter::evaluate;
use crate::query::plan::Plan;
use crate::query::request::{
    CompanyFilter, DealFilter, EmployerFilter, InvestorsFilter, LatestDealFilter,
};

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

const ON_EMPLOYEES: CompanyFields = CompanyFields {
    location: "employer_location",
    industry: "employer_industry",
    super_category: "employer_super_category",
    employee_count: "employer_employee_count",
    ipo_status: "employer_ipo_status",
    total_raised: "employer_total_raised",
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

/// Facet and column names of a company's latest deal, on companies (`""`)
/// or on the people it employs (`"employer_"`).
struct LatestDealFields {
    round: &'static str,
    size: &'static str,
    date: &'static str,
    created: &'static str,
    investor_location: &'static str,
}

const LATEST_ON_COMPANIES: LatestDealFields = LatestDealFields {
    round: "latest_round",
    size: "latest_deal_size",
    date: "latest_deal_date",
    created: "latest_deal_created_at",
    investor_location: "latest_investor_location",
};

const LATEST_ON_EMPLOYEES: LatestDealFields = LatestDealFields {
    round: "employer_latest_round",
    size: "employer_latest_deal_size",
    date: "employer_latest_deal_date",
    created: "employer_latest_deal_created_at",
    investor_location: "employer_latest_investor_location",
};

fn latest_deal_facets(plan: &mut Plan, f: &LatestDealFilter, names: &LatestDealFields) {
    let d = &f.deal;
    plan.facet(
        names.round,
        values(&d.financing_types, |k| k.facet_value()).as_deref(),
    );
    plan.money(names.size, &d.size);
    plan.days(names.date, &d.date);
    plan.instants(names.created, &d.created);
    plan.facet(names.investor_location, f.investor_locations.as_deref());
}

/// A latest-deal filter on companies.
pub fn latest_deal_on_companies(
    plan: &mut Plan,
    index: &Index,
    f: &LatestDealFilter,
) -> Result<(), IndexError> {
    latest_deal_facets(plan, f, &LATEST_ON_COMPANIES);
    if let Some(ids) = &f.investor_ids {
        plan.docs(companies_with_latest_deal_in(
            index,
            &deals_of_firms(index, ids)?,
        )?);
    }
    Ok(())
}

/// A `/people` `company` block (but its `search_query`) on people: the
/// employer's facets and columns are the person's `employer_` ones; the
/// keys that name companies or investors (`ids`, the latest deal's
/// `investor_ids`, `investor_people_ids`) select companies, whose staff
/// (`companies.people`) then joins the plan.
pub fn employer_on_people(
    plan: &mut Plan,
    index: &Index,
    f: &EmployerFilter,
) -> Result<(), IndexError> {
    let before = plan.clauses.len();
    company_facets(plan, &f.company, &ON_EMPLOYEES);
    latest_deal_facets(plan, &f.latest_deal, &LATEST_ON_EMPLOYEES);
    // The indexer fills the `employer_` facets and columns for company
    // employers only (`EmployerFields`), so any clause on them implies
    // `employer_kind = company`: a set of nine people in ten at M, whose
    // intersection would cost as much as the rest of the plan.
    if plan.clauses.len() == before {
        plan.facet("employer_kind", Some(&["company"]));
    }
    let mut companies = Plan::default();
    if let Some(ids) = &f.company.ids {
        companies.docs(docs_of_ids(&index.companies, ids));
    }
    if let Some(ids) = &f.latest_deal.investor_ids {
        companies.docs(companies_with_latest_deal_in(
            index,
            &deals_of_firms(index, ids)?,
        )?);
    }
    if let Some(ids) = &f.investor_people_ids {
        companies.docs(companies_of_deals(index, &deals_of_people(index, ids)?)?);
    }
    if !companies.is_empty() {
        let named = evaluate(&index.companies, &companies)?;
        plan.docs(targets_of(&index.companies, "people", named.iter())?);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::build::build_fixture;

    /// Every `employer_` facet value and every `employer_` column value
    /// belongs to a person whose employer is a company: what lets
    /// `employer_on_people` leave out the `employer_kind` clause.
    #[test]
    fn employer_fields_imply_a_company_employer() {
        let index = Index::open(&build_fixture("employer-fields", "2026-11-01")).unwrap();
        let people = &index.people;
        let kind = people.facet("employer_kind").unwrap();
        let company = kind.docids("company").unwrap().unwrap();
        let (on, latest) = (&ON_EMPLOYEES, &LATEST_ON_EMPLOYEES);
        let facets = [
            on.location,
            on.industry,
            on.super_category,
            on.employee_count,
            on.ipo_status,
            latest.round,
            latest.investor_location,
        ];
        let mut valued = 0;
        for name in facets {
            let facet = people.facet(name).unwrap();
            for i in 0..facet.len() {
                let docs = facet.docids_at(i).unwrap();
                assert!(docs.is_subset(&company), "{name} = {}", facet.value(i));
                valued += docs.len();
            }
        }
        let columns = [on.total_raised, latest.size, latest.date, latest.created];
        for name in columns {
            let order = people.sort_order(name).unwrap();
            assert!(
                order.non_null().iter().all(|&d| company.contains(d)),
                "{name}"
            );
            valued += order.non_null().len() as u64;
        }
        assert!(valued > 0, "the fixture's people have employer fields");
        assert!(
            company.len() < people.docs as u64,
            "the fixture has people without a company employer"
        );
    }
}
