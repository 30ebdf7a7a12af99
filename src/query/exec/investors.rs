//! `POST /investors`: firms, optionally through their portfolio. The
//! qualifying deals D are found first (portfolio filters on deals and their
//! companies); each deal's firm edges then count, per firm, the deals of D
//! it took part in and those it led (edge payload bit 7).

use crate::index::payload::FIRM_LED;
use crate::index::Index;
use crate::query::filter::evaluate;
use crate::query::plan::Plan;
use crate::query::request::{
    FilteredCounts, InvestorSort, InvestorsQuery, PortfolioFilter, ResultPage,
};
use crate::query::sort::Direction::Descending;

use super::blocks::{company_on_deals, deal_on_deals};
use super::joins::{bitmap_of, docs_of_org_identifiers};
use super::tally::Tally;
use super::{page_of, reject_semantic, Order, QueryError};

/// Per-firm counts over the qualifying deals.
struct FirmCounts {
    tally: Tally,
    only_lead: bool,
}

impl FirmCounts {
    fn filtered(&self, firm: u32) -> FilteredCounts {
        let acc = self.tally.get(firm);
        let deals = if self.only_lead { acc.leads } else { acc.deals };
        FilteredCounts {
            deal_count: deals,
            lead_count: acc.leads,
            most_recent_date: None,
        }
    }
}

fn firm_counts(index: &Index, p: &PortfolioFilter) -> Result<FirmCounts, QueryError> {
    let mut plan = Plan::default();
    deal_on_deals(&mut plan, &p.deal);
    company_on_deals(&mut plan, index, &p.company)?;
    let deals = evaluate(&index.deals, &plan)?;
    let firm_rel = index.deals.relation("firms")?;
    let firms = firm_rel.edges();
    let mut tally = Tally::new(index.firms.docs);
    for d in &deals {
        for (&f, &payload) in firms.targets(d).iter().zip(firms.payload(d)) {
            tally.add(f, payload & FIRM_LED != 0, None);
        }
    }
    Ok(FirmCounts {
        tally,
        only_lead: p.only_lead_deals,
    })
}

pub fn search_investors(index: &Index, q: &InvestorsQuery) -> Result<ResultPage, QueryError> {
    let mut plan = Plan::default();
    if let Some(keys) = &q.identifiers {
        plan.docs(docs_of_org_identifiers(&index.firms, keys)?);
    }
    plan.facet("location", q.locations.as_deref());
    let headcounts = q
        .employee_count
        .as_ref()
        .map(|l| l.iter().map(|h| h.as_str()).collect::<Vec<_>>());
    plan.facet("employee_count", headcounts.as_deref());
    let counts = match &q.portfolio {
        Some(p) => {
            reject_semantic(&p.semantic, "company_investments")?;
            let counts = firm_counts(index, p)?;
            let min = p.min_matching_deals.unwrap_or(1).max(1);
            let qualifying = counts
                .tally
                .touched()
                .into_iter()
                .filter(|&f| counts.filtered(f).deal_count >= min);
            plan.docs(bitmap_of(qualifying.collect()));
            Some(counts)
        }
        None => None,
    };
    let matches = evaluate(&index.firms, &plan)?;
    let order = match (q.sort, &counts) {
        (InvestorSort::MostRecentDeal, _) | (InvestorSort::MatchingDeals, None) => Order::ByDocId,
        (InvestorSort::RecentDeals, _) => Order::I32("deal_count_last_12_months", Descending),
        (InvestorSort::DealsLedLtm, _) => Order::I32("lead_deal_count_last_12_months", Descending),
        (InvestorSort::TotalDeals, _) => Order::I32("total_deal_count", Descending),
        (InvestorSort::MatchingDeals, Some(c)) => Order::Keys(
            matches
                .iter()
                .map(|f| (Some(c.filtered(f).deal_count as i64), f))
                .collect(),
            Descending,
        ),
    };
    let mut page = page_of(&index.firms, &matches, order, q.page)?;
    if let Some(c) = &counts {
        page.filtered = page.docs.iter().map(|&f| c.filtered(f)).collect();
    }
    Ok(page)
}
