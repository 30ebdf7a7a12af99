//! Every aggregate the API returns, derived from the facts of a dump.
//!
//! * deal recency: date descending (undated last), then `created_at`
//!   descending (missing last), then id ascending. A company's `latest_deal`
//!   is its most recent deal in this order.
//! * company: `total_raised` = sum of known round sizes (null when none is
//!   known), `num_funding_rounds`, `num_investors` = distinct firms + angels
//!   over all rounds, `all_investor_ids` (firms, most recent round first),
//!   latest valuation = the most recent deal with a USD valuation.
//! * firm: deal counts, lead counts, last-12-month counts, most recent deal
//!   date, top 5 industries / portfolio cities / round types by deal count.
//! * person: angel deals and partner deals (deduplicated by deal), the same
//!   counts and top-5 lists, `investment_firms` with per-firm deal count and
//!   last deal date.
//!
//! "Last 12 months" means dated in `[as_of − 1 year, as_of]` (inclusive). Top lists break
//! count ties by name so that the output is deterministic.
//!
//! Progress (one stage, `derive aggregates`) counts the deals indexed, then
//! the companies, firms and people aggregated.
//!
//! **Memory.** The aggregates are made in parallel batches and packed in
//! row order into [`Table`]s like the facts (about 40 bytes a company
//! instead of a struct and three lists); under a build's budget they count
//! against it and spill past it. People's are a [`Sparse`] vector: only
//! investors hold one.

use std::cmp::Ordering;
use std::collections::HashMap;
use std::io;
use std::sync::Arc;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::progress::{Counter, Progress, Unit};
use crate::schema::{Date, RoundType, Timestamp};
use uuid::Uuid;

use super::facts::{DealFacts, Facts};
use super::grouped::Grouped;
use super::packed::{Row, SpillBudget, Table};
use super::sparse::Sparse;

/// Length of the `top_*` lists.
pub const TOP_N: usize = 5;

/// Counts shared by firms and people.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct InvestorStats {
    pub total_deal_count: u32,
    pub lead_deal_count: u32,
    pub deal_count_last_12_months: u32,
    pub lead_deal_count_last_12_months: u32,
    pub most_recent_deal_date: Option<Date>,
    /// (industry row, count)
    pub top_industries: Vec<(u32, u32)>,
    /// (location row of a portfolio city, count)
    pub top_locations: Vec<(u32, u32)>,
    pub top_round_types: Vec<(RoundType, u32)>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CompanyAgg {
    /// Deal rows, most recent first.
    pub deals: Vec<u32>,
    pub total_raised: Option<f64>,
    pub num_investors: u32,
    /// Firm rows across all rounds, most recent round first, distinct.
    pub all_investors: Vec<u32>,
    /// Person rows who took part as angel or partner in any round.
    pub investor_people: Vec<u32>,
    pub latest_valuation: Option<(f64, Option<Date>)>,
}

impl CompanyAgg {
    pub fn latest_deal(&self) -> Option<u32> {
        self.deals.first().copied()
    }
}

/// Aggregates are rows of their owner's row number: no id of their own.
macro_rules! rows_without_ids {
    ($($kind:ty),+) => {$(
        impl Row for $kind {
            fn id(&self) -> Option<Uuid> {
                None
            }
        }
    )+};
}

rows_without_ids!(CompanyAgg, FirmAgg, PersonAgg);

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct FirmAgg {
    /// (deal row, led), most recent first.
    pub deals: Vec<(u32, bool)>,
    pub stats: InvestorStats,
    /// Person rows who partnered deals for this firm.
    pub partners: Vec<u32>,
}

/// A person's share in one firm's activity.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PersonFirm {
    pub firm: u32,
    pub deal_count: u32,
    pub last_deal_date: Option<Date>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PersonAgg {
    /// Deal rows as an angel, most recent first.
    pub angel_deals: Vec<u32>,
    /// (deal row, firm row, led) as a partner, most recent first.
    pub partner_deals: Vec<(u32, u32, bool)>,
    pub stats: InvestorStats,
    pub firms: Vec<PersonFirm>,
}

impl PersonAgg {
    pub fn is_investor(&self) -> bool {
        !self.angel_deals.is_empty() || !self.partner_deals.is_empty()
    }

    pub fn is_angel(&self) -> bool {
        !self.angel_deals.is_empty()
    }

    pub fn has_led_deal(&self) -> bool {
        self.partner_deals.iter().any(|p| p.2)
    }

    /// Distinct deal rows, most recent first.
    pub fn all_deals(&self) -> Vec<u32> {
        let mut all: Vec<u32> = self
            .angel_deals
            .iter()
            .copied()
            .chain(self.partner_deals.iter().map(|p| p.0))
            .collect();
        all.sort_unstable();
        all.dedup();
        all
    }
}

/// All aggregates of a dump.
#[derive(Debug)]
pub struct Derived {
    pub as_of: Date,
    /// Packed like the facts, and spilled under the same budget (see the
    /// module docs).
    pub companies: Table<CompanyAgg>,
    pub firms: Table<FirmAgg>,
    /// Non-investors (most people) share the empty aggregate.
    pub people: Sparse<PersonAgg>,
    /// Rank of each deal row in recency order (0 = most recent): the
    /// deals' doc ids, which the indexer's doc orders take over (left empty).
    pub deal_rank: Vec<u32>,
}

impl Derived {
    /// Whether `date` falls in the last 12 months before `as_of`.
    pub fn in_last_12_months(&self, date: Option<Date>) -> bool {
        in_window(date, self.as_of)
    }
}

fn in_window(date: Option<Date>, as_of: Date) -> bool {
    date.is_some_and(|d| d >= as_of.one_year_before() && d <= as_of)
}

/// What orders deals by recency: date, creation, id.
pub type RecencyKey = (Option<Date>, Option<Timestamp>, Uuid);

pub fn recency_key(deal: &DealFacts) -> RecencyKey {
    (deal.date, deal.created_at, deal.id)
}

/// Recency order of deals: most recent first.
pub fn deal_recency(a: &RecencyKey, b: &RecencyKey) -> Ordering {
    desc_nulls_last(a.0, b.0)
        .then(desc_nulls_last(a.1, b.1))
        .then(a.2.cmp(&b.2))
}

/// Descending order with `None` after every value.
pub fn desc_nulls_last<T: Ord>(a: Option<T>, b: Option<T>) -> Ordering {
    match (a, b) {
        (Some(x), Some(y)) => y.cmp(&x),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    }
}

/// Derives every aggregate with "last 12 months" relative to `as_of`, in
/// memory.
pub fn derive(facts: &Facts, as_of: Date) -> Derived {
    derive_with_progress(facts, as_of, &Progress::silent(), None)
        .expect("aggregates held in memory never touch the disk")
}

/// [`derive`], counting rows on `progress`; with a budget, the packed
/// aggregates of companies, firms and investors share it with the facts
/// and spill past it (the only way this fails).
pub fn derive_with_progress(
    facts: &Facts,
    as_of: Date,
    progress: &Progress,
    budget: Option<&Arc<SpillBudget>>,
) -> io::Result<Derived> {
    let rows = facts.deals.len() + facts.companies.len() + facts.firms.len() + facts.people.len();
    let counter = progress.stage("derive aggregates", rows as u64, Unit::Items("rows"));
    let derived = derive_counted(facts, as_of, &counter, budget)?;
    counter.finish();
    Ok(derived)
}

/// Rows `0..n` made in parallel batches and packed in row order.
fn packed<T: Row + Send>(
    n: usize,
    budget: Option<&Arc<SpillBudget>>,
    make: impl Fn(usize) -> T + Sync,
) -> io::Result<Table<T>> {
    const BATCH: usize = 1 << 14;
    let mut table = budget.map_or_else(Table::default, Table::spilling);
    for start in (0..n).step_by(BATCH) {
        let rows: Vec<T> = (start..(start + BATCH).min(n))
            .into_par_iter()
            .map(&make)
            .collect();
        for row in &rows {
            table.push(row)?;
        }
    }
    table.finish()
}

fn derive_counted(
    facts: &Facts,
    as_of: Date,
    counter: &Counter,
    budget: Option<&Arc<SpillBudget>>,
) -> io::Result<Derived> {
    let deal_rank = recency_ranks(facts);
    let by_recency = |rows: &mut Vec<u32>| rows.sort_by_key(|&d| deal_rank[d as usize]);
    let mut company_deals = Vec::with_capacity(facts.deals.len());
    let (mut firm_deals, mut angel_deals, mut partner_deals) = (Vec::new(), Vec::new(), Vec::new());
    let mut tally = counter.tally();
    for (row, deal) in facts.deals.iter().enumerate() {
        tally.inc();
        let row = row as u32;
        company_deals.push((deal.company, row));
        for f in &deal.firms {
            firm_deals.push((f.firm, (row, f.lead)));
            for &p in &f.partners {
                partner_deals.push((p, (row, f.firm, f.lead)));
            }
        }
        for &(p, _) in &deal.angels {
            angel_deals.push((p, row));
        }
    }
    drop(tally);
    let company_deals = Grouped::by_owner(facts.companies.len(), company_deals);
    let companies = packed(company_deals.owners(), budget, |c| {
        let mut deals = company_deals.group(c).to_vec();
        by_recency(&mut deals);
        company_agg(facts, deals)
    })?;
    drop(company_deals);
    counter.inc(companies.len() as u64);
    let firm_deals = Grouped::by_owner(facts.firms.len(), firm_deals);
    let firms = packed(firm_deals.owners(), budget, |firm| {
        let mut deals = firm_deals.group(firm).to_vec();
        deals.sort_by_key(|&(d, _)| deal_rank[d as usize]);
        firm_agg(facts, as_of, firm as u32, deals)
    })?;
    drop(firm_deals);
    counter.inc(firms.len() as u64);
    let angel_deals = Grouped::by_owner(facts.people.len(), angel_deals);
    let partner_deals = Grouped::by_owner(facts.people.len(), partner_deals);
    let investors: Vec<u32> = (0..facts.people.len() as u32)
        .into_par_iter()
        .filter(|&p| {
            let p = p as usize;
            !angel_deals.group(p).is_empty() || !partner_deals.group(p).is_empty()
        })
        .collect();
    let aggs = packed(investors.len(), budget, |i| {
        let p = investors[i] as usize;
        let mut angel = angel_deals.group(p).to_vec();
        let mut partner = partner_deals.group(p).to_vec();
        by_recency(&mut angel);
        partner.sort_by_key(|&(d, f, _)| (deal_rank[d as usize], f));
        person_agg(facts, as_of, angel, partner)
    })?;
    let people = Sparse::new(facts.people.len(), &investors, aggs);
    counter.inc(people.len() as u64);
    Ok(Derived {
        as_of,
        companies,
        firms,
        people,
        deal_rank,
    })
}

fn recency_ranks(facts: &Facts) -> Vec<u32> {
    let mut order: Vec<u32> = (0..facts.deals.len() as u32).collect();
    let keys: Vec<RecencyKey> = (0..facts.deals.len() as u32)
        .into_par_iter()
        .map(|d| recency_key(&facts.deals.get(d)))
        .collect();
    order.par_sort_by(|&a, &b| deal_recency(&keys[a as usize], &keys[b as usize]));
    let mut rank = vec![0u32; order.len()];
    for (r, &d) in order.iter().enumerate() {
        rank[d as usize] = r as u32;
    }
    rank
}

fn company_agg(facts: &Facts, deals: Vec<u32>) -> CompanyAgg {
    let decoded: Vec<DealFacts> = deals.iter().map(|&d| facts.deals.get(d)).collect();
    let rows = || decoded.iter();
    let sizes: Vec<f64> = rows().filter_map(|d| d.size).collect();
    let total_raised = (!sizes.is_empty()).then(|| sizes.iter().sum());
    let mut all_investors = Vec::new();
    let mut investor_people = Vec::new();
    for d in rows() {
        for f in &d.firms {
            push_unique(&mut all_investors, f.firm);
            f.partners
                .iter()
                .for_each(|&p| push_unique(&mut investor_people, p));
        }
    }
    let mut angels: Vec<u32> = rows().flat_map(|d| d.angels.iter().map(|a| a.0)).collect();
    angels.sort_unstable();
    angels.dedup();
    angels
        .iter()
        .for_each(|&p| push_unique(&mut investor_people, p));
    let latest_valuation = rows().find_map(|d| d.valuation_usd.map(|v| (v, d.date)));
    CompanyAgg {
        num_investors: (all_investors.len() + angels.len()) as u32,
        deals,
        total_raised,
        all_investors,
        investor_people,
        latest_valuation,
    }
}

fn push_unique(list: &mut Vec<u32>, value: u32) {
    if !list.contains(&value) {
        list.push(value);
    }
}

fn firm_agg(facts: &Facts, as_of: Date, firm: u32, deals: Vec<(u32, bool)>) -> FirmAgg {
    let stats = investor_stats(facts, as_of, deals.iter().copied());
    let mut partners: Vec<u32> = Vec::new();
    for &(d, _) in &deals {
        let deal = facts.deals.get(d);
        let own = deal.firms.iter().filter(|f| f.firm == firm);
        own.flat_map(|f| &f.partners)
            .for_each(|&p| push_unique(&mut partners, p));
    }
    FirmAgg {
        deals,
        stats,
        partners,
    }
}

fn person_agg(
    facts: &Facts,
    as_of: Date,
    angel: Vec<u32>,
    partner: Vec<(u32, u32, bool)>,
) -> PersonAgg {
    let mut led: HashMap<u32, bool> = HashMap::new();
    for &d in &angel {
        led.entry(d).or_insert(false);
    }
    for &(d, _, l) in &partner {
        let e = led.entry(d).or_insert(false);
        *e |= l;
    }
    let stats = investor_stats(facts, as_of, led.into_iter());
    let firms = person_firms(facts, &partner);
    PersonAgg {
        angel_deals: angel,
        partner_deals: partner,
        stats,
        firms,
    }
}

fn person_firms(facts: &Facts, partner: &[(u32, u32, bool)]) -> Vec<PersonFirm> {
    let mut firms: Vec<PersonFirm> = Vec::new();
    for &(d, firm, _) in partner {
        let date = facts.deals.get(d).date;
        match firms.iter_mut().find(|f| f.firm == firm) {
            Some(f) => {
                f.deal_count += 1;
                f.last_deal_date = f.last_deal_date.max(date);
            }
            None => firms.push(PersonFirm {
                firm,
                deal_count: 1,
                last_deal_date: date,
            }),
        }
    }
    firms.sort_by(|a, b| {
        b.deal_count.cmp(&a.deal_count).then_with(|| {
            facts
                .firms
                .get(a.firm)
                .name
                .cmp(&facts.firms.get(b.firm).name)
        })
    });
    firms
}

/// Counts and top lists over distinct (deal row, led) pairs.
fn investor_stats(
    facts: &Facts,
    as_of: Date,
    deals: impl Iterator<Item = (u32, bool)>,
) -> InvestorStats {
    let mut s = InvestorStats::default();
    let mut industries: HashMap<u32, u32> = HashMap::new();
    let mut cities: HashMap<u32, u32> = HashMap::new();
    let mut rounds: HashMap<RoundType, u32> = HashMap::new();
    for (d, lead) in deals {
        let deal = facts.deals.get(d);
        let recent = in_window(deal.date, as_of);
        s.total_deal_count += 1;
        s.lead_deal_count += lead as u32;
        s.deal_count_last_12_months += recent as u32;
        s.lead_deal_count_last_12_months += (recent && lead) as u32;
        s.most_recent_deal_date = s.most_recent_deal_date.max(deal.date);
        let company = facts.companies.get(deal.company);
        company
            .industries
            .iter()
            .for_each(|&i| *industries.entry(i).or_default() += 1);
        if let Some(city) = company.places[0] {
            *cities.entry(city).or_default() += 1;
        }
        *rounds.entry(deal.round.round_type).or_default() += 1;
    }
    let catalog = &facts.catalog;
    s.top_industries = top(industries, |&i| {
        catalog.industries[i as usize].name.as_str()
    });
    s.top_locations = top(cities, |&l| catalog.locations[l as usize].name.as_str());
    s.top_round_types = top(rounds, |r| r.as_str());
    s
}

/// The `TOP_N` keys with the highest counts; ties by name, then key order.
fn top<'n, K: Copy + Ord>(counts: HashMap<K, u32>, name: impl Fn(&K) -> &'n str) -> Vec<(K, u32)> {
    let mut all: Vec<(K, u32)> = counts.into_iter().collect();
    all.sort_unstable_by(|a, b| {
        b.1.cmp(&a.1)
            .then_with(|| name(&a.0).cmp(name(&b.0)))
            .then(a.0.cmp(&b.0))
    });
    all.truncate(TOP_N);
    all
}
