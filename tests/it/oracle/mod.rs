//! The oracle of the four collection searches: answers the typed requests of
//! `fundsearch::query::request` by a naive scan over a dump's facts and
//! derived aggregates — no bitmaps, columns, relations or doc ids — written
//! from the module doc of `request.rs` alone, so that the engine
//! (`query::exec`) is checked against an independent reading of the same
//! statement.
//!
//! Every `expect_*` filters every row of its kind, sorts the matches (one
//! key, nulls last in both directions, ties by the kind's default order) and
//! cuts the requested page. The default orders are recomputed here from the
//! facts: deals by `deal_rank`; companies by the rank of their latest deal
//! (none last); firms and people by most recent deal date descending (none
//! last); UUID ascending breaks every remaining tie.
//!
//! `generate.rs` draws random requests from the data, `tests.rs` checks the
//! oracle itself on the hand-written fixture.

mod compare;
pub mod datasets;
pub mod generate;
mod semantic;
mod tests;

use std::cmp::Ordering;
use std::path::Path;

use fundsearch::ingest::derive::{derive, CompanyAgg, Derived, FirmAgg, PersonAgg};
use fundsearch::ingest::facts::{
    Catalog, CompanyFacts, DealFacts, Employer, Facts, FirmFacts, PersonFacts, Places,
};
use fundsearch::ingest::load_dump;
use fundsearch::query::request::*;
use fundsearch::schema::ids::fold_text;
use fundsearch::schema::{Date, Headcount};
use uuid::Uuid;

/// The facts of a dump, every row decoded: the oracle reads rows naively.
pub struct Rows {
    pub catalog: Catalog,
    pub companies: Vec<CompanyFacts>,
    pub firms: Vec<FirmFacts>,
    pub people: Vec<PersonFacts>,
    pub deals: Vec<DealFacts>,
}

impl Rows {
    fn of(facts: Facts) -> Rows {
        Rows {
            companies: facts.companies.to_vec(),
            firms: facts.firms.to_vec(),
            people: facts.people.to_vec(),
            deals: facts.deals.to_vec(),
            catalog: facts.catalog,
        }
    }
}

/// The derived aggregates, every row decoded (the build packs those of
/// companies and firms).
pub struct Aggregates {
    pub companies: Vec<CompanyAgg>,
    pub firms: Vec<FirmAgg>,
    pub people: Vec<PersonAgg>,
    pub deal_rank: Vec<u32>,
}

impl Aggregates {
    fn of(derived: Derived) -> Aggregates {
        Aggregates {
            companies: derived.companies.to_vec(),
            firms: derived.firms.to_vec(),
            people: derived.people.iter().collect(),
            deal_rank: derived.deal_rank,
        }
    }
}

/// A loaded dump with its aggregates and the default order of every kind.
pub struct World {
    pub facts: Rows,
    pub derived: Aggregates,
    /// Position of each row in its kind's default order.
    company_rank: Vec<u32>,
    firm_rank: Vec<u32>,
    person_rank: Vec<u32>,
}

/// What the engine must answer: the page (UUIDs in order), the total and
/// the per-row filtered counts (empty when the query computes none).
#[derive(Debug, Clone, PartialEq)]
pub struct Expected {
    pub ids: Vec<Uuid>,
    pub total: u64,
    pub filtered: Vec<FilteredCounts>,
}

impl World {
    /// Loads `dump` leniently and derives its aggregates as of `as_of`.
    pub fn load(dump: &Path, as_of: Date) -> World {
        let loaded =
            load_dump(dump, false).unwrap_or_else(|e| panic!("loading {}: {e}", dump.display()));
        let derived = derive(&loaded.facts, as_of);
        World::new(loaded.facts, derived)
    }

    pub fn new(facts: Facts, derived: Derived) -> World {
        let facts = Rows::of(facts);
        let derived = Aggregates::of(derived);
        let latest = |c: usize| {
            derived.companies[c]
                .latest_deal()
                .map(|d| derived.deal_rank[d as usize])
        };
        let company_rank = ranks(facts.companies.len(), |a, b| {
            nulls_last(latest(a), latest(b), false)
                .then(facts.companies[a].id.cmp(&facts.companies[b].id))
        });
        let firm_date = |f: usize| derived.firms[f].stats.most_recent_deal_date;
        let firm_rank = ranks(facts.firms.len(), |a, b| {
            nulls_last(firm_date(a), firm_date(b), true)
                .then(facts.firms[a].id.cmp(&facts.firms[b].id))
        });
        let person_date = |p: usize| derived.people[p].stats.most_recent_deal_date;
        let person_rank = ranks(facts.people.len(), |a, b| {
            nulls_last(person_date(a), person_date(b), true)
                .then(facts.people[a].id.cmp(&facts.people[b].id))
        });
        World {
            facts,
            derived,
            company_rank,
            firm_rank,
            person_rank,
        }
    }

    fn catalog(&self) -> &Catalog {
        &self.facts.catalog
    }

    /// Whether an organisation with these place slots is in or below `permalink`.
    fn located_in(&self, places: &Places, permalink: &str) -> bool {
        let Some(wanted) = self.catalog().location(permalink) else {
            return false;
        };
        places
            .iter()
            .flatten()
            .any(|&slot| self.catalog().location_ancestors[slot as usize].contains(&wanted))
    }

    fn has_industry(&self, company: u32, permalink: &str) -> bool {
        let industries = &self.facts.companies[company as usize].industries;
        self.catalog()
            .industry(permalink)
            .is_some_and(|i| industries.contains(&i))
    }

    fn has_super_category(&self, company: u32, permalink: &str) -> bool {
        let industries = &self.facts.companies[company as usize].industries;
        self.catalog().industry(permalink).is_some_and(|s| {
            industries
                .iter()
                .any(|&i| self.catalog().industry_supers[i as usize].contains(&s))
        })
    }

    // ------------------------------------------------------------ filters

    fn company_passes(&self, c: u32, f: &CompanyFilter) -> bool {
        let company = &self.facts.companies[c as usize];
        any_of(&f.ids, |id| *id == company.id)
            && any_of(&f.locations, |p| self.located_in(&company.places, p))
            && any_of(&f.industries, |p| self.has_industry(c, p))
            && any_of(&f.super_categories, |p| self.has_super_category(c, p))
            && any_of(&f.employee_count, |h| company.headcount == Some(*h))
            && any_of(&f.ipo_status, |s| company.ipo_status == Some(*s))
            && money_in(
                &f.total_raised,
                self.derived.companies[c as usize].total_raised,
            )
    }

    fn deal_passes(&self, d: u32, f: &DealFilter) -> bool {
        let deal = &self.facts.deals[d as usize];
        any_of(&f.financing_types, |k| *k == deal.round)
            && money_in(&f.size, deal.size)
            && in_range(&f.date, deal.date)
            && in_range(&f.created, deal.created_at.map(|t| t.date()))
    }

    /// One of the firms `ids` took part in deal `d`.
    fn deal_has_firm(&self, d: u32, ids: &[Uuid]) -> bool {
        self.facts.deals[d as usize]
            .firms
            .iter()
            .any(|f| ids.contains(&self.facts.firms[f.firm as usize].id))
    }

    /// One of the people `ids` was an angel of deal `d` or a partner of a firm in it.
    fn deal_has_person(&self, d: u32, ids: &[Uuid]) -> bool {
        let deal = &self.facts.deals[d as usize];
        let id = |p: u32| self.facts.people[p as usize].id;
        deal.angels.iter().any(|&(p, _)| ids.contains(&id(p)))
            || deal
                .firms
                .iter()
                .flat_map(|f| &f.partners)
                .any(|&p| ids.contains(&id(p)))
    }

    /// `investors` over a set of deals: each key is satisfied by some deal.
    fn investors_pass(&self, deals: &[u32], f: &InvestorsFilter) -> bool {
        f.investor_ids
            .as_ref()
            .is_none_or(|ids| deals.iter().any(|&d| self.deal_has_firm(d, ids)))
            && f.people_ids
                .as_ref()
                .is_none_or(|ids| deals.iter().any(|&d| self.deal_has_person(d, ids)))
    }

    fn latest_deal_passes(&self, c: u32, f: &LatestDealFilter) -> bool {
        if !f.is_set() {
            return true;
        }
        let Some(d) = self.derived.companies[c as usize].latest_deal() else {
            return false;
        };
        let firms = &self.facts.deals[d as usize].firms;
        self.deal_passes(d, &f.deal)
            && f.investor_ids
                .as_ref()
                .is_none_or(|ids| self.deal_has_firm(d, ids))
            && f.investor_locations.as_ref().is_none_or(|locs| {
                firms.iter().any(|df| {
                    locs.iter()
                        .any(|l| self.located_in(&self.facts.firms[df.firm as usize].places, l))
                })
            })
    }

    fn company_identified(&self, c: u32, ids: &OrgIdentifiers) -> bool {
        let company = &self.facts.companies[c as usize];
        ids.ids.contains(&company.id)
            || key_in(&ids.domains, &company.domain_key)
            || key_in(&ids.linkedin, &company.linkedin_key)
            || key_in(&ids.crunchbase, &company.crunchbase_key)
    }

    fn firm_identified(&self, f: u32, ids: &OrgIdentifiers) -> bool {
        let firm = &self.facts.firms[f as usize];
        ids.ids.contains(&firm.id)
            || key_in(&ids.domains, &firm.domain_key)
            || key_in(&ids.linkedin, &firm.linkedin_key)
            || key_in(&ids.crunchbase, &firm.crunchbase_key)
            || ids.permalinks.iter().any(|p| **p == *firm.permalink)
    }

    /// The firm-level keys of `/investors` and of `/people` `investor`.
    fn firm_passes(
        &self,
        f: u32,
        ids: Option<&OrgIdentifiers>,
        locations: &Option<Vec<String>>,
        headcounts: &Option<Vec<Headcount>>,
    ) -> bool {
        let firm = &self.facts.firms[f as usize];
        ids.is_none_or(|ids| self.firm_identified(f, ids))
            && any_of(locations, |l| self.located_in(&firm.places, l))
            && any_of(headcounts, |h| firm.headcount == Some(*h))
    }

    fn person_identified(&self, p: u32, ids: &PersonIdentifiers) -> bool {
        let person = &self.facts.people[p as usize];
        ids.ids.contains(&person.id)
            || key_in(&ids.linkedin, &person.linkedin_key)
            || key_in(&ids.crunchbase, &person.crunchbase_key)
            || key_in(&ids.twitter, &person.twitter_key)
    }

    fn person_facets_pass(&self, p: u32, f: &PersonFilter) -> bool {
        let person = &self.facts.people[p as usize];
        any_of(&f.roles, |r| person.roles.contains(r))
            && any_of(&f.contact_types, |c| {
                person.contacts.iter().any(|k| k.as_str() == c)
            })
            && any_of(&f.job_titles, |t| {
                person.job_title.as_deref() == Some(t.as_str())
            })
            && any_of(&f.education_schools, |s| {
                person.schools.iter().any(|x| **x == **s)
            })
            && any_of(&f.linkedin_companies, |c| {
                person.linkedin_companies.iter().any(|x| **x == **c)
            })
    }

    fn employer_passes(&self, p: u32, f: &EmployerFilter) -> bool {
        assert!(
            f.semantic.is_none(),
            "the oracle does not answer semantic keys"
        );
        let Some(Employer::Company(c)) = self.facts.people[p as usize].employer else {
            return false;
        };
        let investor_people = &self.derived.companies[c as usize].investor_people;
        self.company_passes(c, &f.company)
            && any_of(&f.investor_people_ids, |id| {
                investor_people
                    .iter()
                    .any(|&x| self.facts.people[x as usize].id == *id)
            })
            && self.latest_deal_passes(c, &f.latest_deal)
    }

    /// Firms of a person: the current employer firm and every firm partnered for.
    fn person_firms(&self, p: u32) -> Vec<u32> {
        let mut firms: Vec<u32> = self.derived.people[p as usize]
            .partner_deals
            .iter()
            .map(|&(_, f, _)| f)
            .collect();
        if let Some(Employer::Firm(f)) = self.facts.people[p as usize].employer {
            firms.push(f);
        }
        firms.sort_unstable();
        firms.dedup();
        firms
    }

    /// `None`: the person fails the `investor` block; `Some(counts)`: passes,
    /// with the `filtered_*` values when `investor.deals` is present.
    fn investor_person(&self, p: u32, f: &InvestorPersonFilter) -> Option<Option<FilteredCounts>> {
        let agg = &self.derived.people[p as usize];
        if !agg.is_investor() {
            return None;
        }
        if f.firms.is_some() || f.locations.is_some() || f.employee_count.is_some() {
            let firms = self.person_firms(p);
            if !firms
                .iter()
                .any(|&x| self.firm_passes(x, f.firms.as_ref(), &f.locations, &f.employee_count))
            {
                return None;
            }
        }
        let Some(df) = &f.deals else {
            return Some(None);
        };
        let counts = self.person_deal_counts(p, df);
        (counts.deal_count >= df.min_matching_deals.unwrap_or(1)).then_some(Some(counts))
    }

    /// `filtered_*` of a person under `investor.deals`.
    fn person_deal_counts(&self, p: u32, f: &PersonDealsFilter) -> FilteredCounts {
        assert!(
            f.semantic.is_none(),
            "the oracle does not answer semantic keys"
        );
        let agg = &self.derived.people[p as usize];
        let led = |d: u32| agg.partner_deals.iter().any(|&(x, _, lead)| x == d && lead);
        let mut deals: Vec<u32> = Vec::new();
        if matches!(
            f.investment_type,
            InvestmentType::All | InvestmentType::Angel
        ) {
            deals.extend(&agg.angel_deals);
        }
        if matches!(
            f.investment_type,
            InvestmentType::All | InvestmentType::Institutional
        ) {
            deals.extend(agg.partner_deals.iter().map(|&(d, _, _)| d));
        }
        deals.sort_unstable();
        deals.dedup();
        let mut counts = FilteredCounts::default();
        for d in deals {
            let deal = &self.facts.deals[d as usize];
            let passes =
                self.deal_passes(d, &f.deal) && self.company_passes(deal.company, &f.portfolio);
            if !passes || (f.only_lead_deals && !led(d)) {
                continue;
            }
            counts.deal_count += 1;
            counts.lead_count += led(d) as u32;
            counts.most_recent_date = counts.most_recent_date.max(deal.date);
        }
        counts
    }
}

// ---------------------------------------------------------------- endpoints

pub fn expect_deals(w: &World, q: &DealsQuery) -> Expected {
    let rows: Vec<u32> = (0..w.facts.deals.len() as u32)
        .filter(|&d| {
            let deal = &w.facts.deals[d as usize];
            any_of(&q.deal_ids, |id| *id == deal.id)
                && w.deal_passes(d, &q.deal)
                && w.company_passes(deal.company, &q.company)
                && w.investors_pass(&[d], &q.investors)
        })
        .collect();
    let rank = &w.derived.deal_rank;
    let size = |d: u32| money(w.facts.deals[d as usize].size);
    let sorted = match q.sort {
        DealSort::MostRecentDeal => sorted_by(rows, rank, false, |_| None::<i64>),
        DealSort::OldestDeal => sorted_by(rows, rank, false, |d| w.facts.deals[d as usize].date),
        DealSort::LargestRaise => sorted_by(rows, rank, true, size),
        DealSort::SmallestRaise => sorted_by(rows, rank, false, size),
    };
    page(sorted, q.page, |d| w.facts.deals[d as usize].id, |_| None)
}

pub fn expect_companies(w: &World, q: &CompaniesQuery) -> Expected {
    assert!(
        q.semantic.is_none(),
        "the oracle does not answer semantic keys"
    );
    let rows: Vec<u32> = (0..w.facts.companies.len() as u32)
        .filter(|&c| {
            q.identifiers
                .as_ref()
                .is_none_or(|ids| w.company_identified(c, ids))
                && w.company_passes(c, &q.company)
                && w.latest_deal_passes(c, &q.latest_deal)
                && w.investors_pass(&w.derived.companies[c as usize].deals, &q.investors)
        })
        .collect();
    let rank = &w.company_rank;
    let company = |c: u32| &w.facts.companies[c as usize];
    let agg = |c: u32| &w.derived.companies[c as usize];
    let latest_date = |c: u32| {
        agg(c)
            .latest_deal()
            .and_then(|d| w.facts.deals[d as usize].date)
    };
    let valuation = |c: u32| money(agg(c).latest_valuation.map(|v| v.0));
    let raised = |c: u32| money(agg(c).total_raised);
    let sorted = match q.sort {
        CompanySort::MostRecentRaise => sorted_by(rows, rank, false, |_| None::<i64>),
        CompanySort::OldestRaise => sorted_by(rows, rank, false, latest_date),
        CompanySort::MostRecentFounded => sorted_by(rows, rank, true, |c| company(c).founded_on),
        CompanySort::OldestFounded => sorted_by(rows, rank, false, |c| company(c).founded_on),
        CompanySort::LargestValuation => sorted_by(rows, rank, true, valuation),
        CompanySort::SmallestValuation => sorted_by(rows, rank, false, valuation),
        CompanySort::LargestTotalRaise => sorted_by(rows, rank, true, raised),
        CompanySort::SmallestTotalRaise => sorted_by(rows, rank, false, raised),
        CompanySort::MostFundingRounds => sorted_by(rows, rank, true, |c| Some(agg(c).deals.len())),
        CompanySort::MostInvestors => sorted_by(rows, rank, true, |c| Some(agg(c).num_investors)),
    };
    page(sorted, q.page, |c| company(c).id, |_| None)
}

pub fn expect_investors(w: &World, q: &InvestorsQuery) -> Expected {
    let portfolio_deals: Option<Vec<bool>> = q.portfolio.as_ref().map(|pf| {
        assert!(
            pf.semantic.is_none(),
            "the oracle does not answer semantic keys"
        );
        let deals = &w.facts.deals;
        (0..deals.len() as u32)
            .map(|d| {
                w.deal_passes(d, &pf.deal)
                    && w.company_passes(deals[d as usize].company, &pf.company)
            })
            .collect()
    });
    let counts_of = |f: u32| -> Option<FilteredCounts> {
        let (pf, in_d) = (q.portfolio.as_ref()?, portfolio_deals.as_ref()?);
        let mut counts = FilteredCounts::default();
        for &(d, lead) in &w.derived.firms[f as usize].deals {
            if in_d[d as usize] {
                counts.deal_count += (lead || !pf.only_lead_deals) as u32;
                counts.lead_count += lead as u32;
            }
        }
        Some(counts)
    };
    let mut counts: Vec<Option<FilteredCounts>> = vec![None; w.facts.firms.len()];
    let rows: Vec<u32> = (0..w.facts.firms.len() as u32)
        .filter(|&f| {
            if !w.firm_passes(f, q.identifiers.as_ref(), &q.locations, &q.employee_count) {
                return false;
            }
            counts[f as usize] = counts_of(f);
            let min = q
                .portfolio
                .as_ref()
                .and_then(|pf| pf.min_matching_deals)
                .unwrap_or(1);
            counts[f as usize].is_none_or(|c| c.deal_count >= min)
        })
        .collect();
    let rank = &w.firm_rank;
    let stats = |f: u32| &w.derived.firms[f as usize].stats;
    let sorted = match q.sort {
        InvestorSort::MostRecentDeal => sorted_by(rows, rank, false, |_| None::<u32>),
        InvestorSort::RecentDeals => sorted_by(rows, rank, true, |f| {
            Some(stats(f).deal_count_last_12_months)
        }),
        InvestorSort::DealsLedLtm => sorted_by(rows, rank, true, |f| {
            Some(stats(f).lead_deal_count_last_12_months)
        }),
        InvestorSort::TotalDeals => {
            sorted_by(rows, rank, true, |f| Some(stats(f).total_deal_count))
        }
        InvestorSort::MatchingDeals => sorted_by(rows, rank, true, |f| {
            counts[f as usize].map(|c| c.deal_count)
        }),
    };
    page(
        sorted,
        q.page,
        |f| w.facts.firms[f as usize].id,
        |f| counts[f as usize],
    )
}

pub fn expect_people(w: &World, q: &PeopleQuery) -> Expected {
    let mut counts: Vec<Option<FilteredCounts>> = vec![None; w.facts.people.len()];
    let rows: Vec<u32> = (0..w.facts.people.len() as u32)
        .filter(|&p| {
            let investor = w.derived.people[p as usize].is_investor();
            let typed = match q.person_type {
                PersonType::Any => true,
                PersonType::Investor => investor,
                PersonType::Company => !investor,
            };
            let passes = typed
                && q.identifiers
                    .as_ref()
                    .is_none_or(|ids| w.person_identified(p, ids))
                && w.person_facets_pass(p, &q.person)
                && q.company.as_ref().is_none_or(|f| w.employer_passes(p, f));
            if !passes {
                return false;
            }
            match &q.investor {
                None => true,
                Some(f) => match w.investor_person(p, f) {
                    None => false,
                    Some(c) => {
                        counts[p as usize] = c;
                        true
                    }
                },
            }
        })
        .collect();
    let rank = &w.person_rank;
    let person = |p: u32| &w.facts.people[p as usize];
    let stats = |p: u32| &w.derived.people[p as usize].stats;
    let employer = |p: u32| match person(p).employer {
        Some(Employer::Company(c)) => Some(&w.derived.companies[c as usize]),
        _ => None,
    };
    let latest_size = |p: u32| {
        money(
            employer(p)?
                .latest_deal()
                .and_then(|d| w.facts.deals[d as usize].size),
        )
    };
    let sorted = match q.sort {
        PersonSort::MostRecentDealDate => {
            sorted_by(rows, rank, true, |p| stats(p).most_recent_deal_date)
        }
        PersonSort::TotalRaised => {
            sorted_by(rows, rank, true, |p| money(employer(p)?.total_raised))
        }
        PersonSort::LatestDealSize => sorted_by(rows, rank, true, latest_size),
        PersonSort::Name => sorted_by(rows, rank, false, |p| Some(fold_text(&person(p).name))),
        PersonSort::TotalDealCount => {
            sorted_by(rows, rank, true, |p| Some(stats(p).total_deal_count))
        }
        PersonSort::DealCountLast12Months => sorted_by(rows, rank, true, |p| {
            Some(stats(p).deal_count_last_12_months)
        }),
        PersonSort::LeadDealCount => {
            sorted_by(rows, rank, true, |p| Some(stats(p).lead_deal_count))
        }
        PersonSort::LeadDealCountLast12Months => sorted_by(rows, rank, true, |p| {
            Some(stats(p).lead_deal_count_last_12_months)
        }),
        PersonSort::FilteredDealCount => sorted_by(rows, rank, true, |p| {
            counts[p as usize].map(|c| c.deal_count)
        }),
    };
    page(sorted, q.page, |p| person(p).id, |p| counts[p as usize])
}

// ---------------------------------------------------------------- helpers

/// `None` does not constrain; a list keeps values matching one of its items.
fn any_of<T>(wanted: &Option<Vec<T>>, matches: impl Fn(&T) -> bool) -> bool {
    wanted
        .as_ref()
        .is_none_or(|items| items.iter().any(matches))
}

fn key_in(keys: &[String], key: &Option<Box<str>>) -> bool {
    key.as_deref().is_some_and(|k| keys.iter().any(|x| x == k))
}

/// Whole USD as stored for comparison and sorting.
fn money(v: Option<f64>) -> Option<i64> {
    v.map(|v| v.round() as i64)
}

/// Money bounds in whole USD: the minimum rounds up, the maximum down.
fn money_in(range: &Range<f64>, value: Option<f64>) -> bool {
    if !range.is_set() {
        return true;
    }
    let Some(v) = money(value) else { return false };
    range.min.is_none_or(|m| v >= m.ceil() as i64)
        && range.max.is_none_or(|m| v <= m.floor() as i64)
}

fn in_range<T: PartialOrd + Copy>(range: &Range<T>, value: Option<T>) -> bool {
    if !range.is_set() {
        return true;
    }
    let Some(v) = value else { return false };
    range.min.is_none_or(|m| v >= m) && range.max.is_none_or(|m| v <= m)
}

/// Ascending or descending with `None` after every value.
fn nulls_last<K: Ord>(a: Option<K>, b: Option<K>, desc: bool) -> Ordering {
    match (a, b) {
        (Some(x), Some(y)) if desc => y.cmp(&x),
        (Some(x), Some(y)) => x.cmp(&y),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    }
}

/// Position of each of `n` rows when sorted by `cmp`.
fn ranks(n: usize, cmp: impl Fn(usize, usize) -> Ordering) -> Vec<u32> {
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| cmp(a, b));
    let mut rank = vec![0u32; n];
    for (position, &row) in order.iter().enumerate() {
        rank[row] = position as u32;
    }
    rank
}

/// `rows` sorted by `key` (nulls last), ties by the default-order `rank`.
fn sorted_by<K: Ord>(
    rows: Vec<u32>,
    rank: &[u32],
    desc: bool,
    key: impl Fn(u32) -> Option<K>,
) -> Vec<u32> {
    let mut keyed: Vec<(Option<K>, u32)> = rows.into_iter().map(|r| (key(r), r)).collect();
    keyed.sort_by(|(ka, a), (kb, b)| {
        let (ka, kb) = (ka.as_ref(), kb.as_ref());
        nulls_last(ka, kb, desc).then(rank[*a as usize].cmp(&rank[*b as usize]))
    });
    keyed.into_iter().map(|(_, r)| r).collect()
}

/// The requested page of the sorted matches.
fn page(
    sorted: Vec<u32>,
    request: PageRequest,
    id: impl Fn(u32) -> Uuid,
    counts: impl Fn(u32) -> Option<FilteredCounts>,
) -> Expected {
    let start = request
        .page
        .saturating_mul(request.page_size)
        .min(sorted.len());
    let end = start.saturating_add(request.page_size).min(sorted.len());
    let rows = &sorted[start..end];
    Expected {
        ids: rows.iter().map(|&r| id(r)).collect(),
        total: sorted.len() as u64,
        filtered: rows.iter().filter_map(|&r| counts(r)).collect(),
    }
}
