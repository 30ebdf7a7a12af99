//! Random typed requests for the oracle comparison, drawn from the data of a
//! [`World`] with a seeded generator (the dump generator's xoshiro256**).
//!
//! Each request is built around an *anchor* (a deal, company, firm or
//! person): most filter values are taken from the anchor and its relations,
//! so that combinations of several filters still match something; the rest
//! come from the whole data set (real permalinks, round keys, amounts and
//! dates at real quantiles, ids of real entities) or are unknown on purpose
//! (random UUIDs, permalinks that do not exist, bounds rounding to the
//! anchor's exact amount, reversed ranges). Every block gets 0–4 of its keys.
//! Semantic keys are never set (the engine refuses them).

use fundsearch::ingest::derive::PersonAgg;
use fundsearch::ingest::facts::{Employer, Places};
use fundsearch::ingest::generate::rng::Rng;
use fundsearch::query::request::*;
use fundsearch::schema::{
    Date, Headcount, IndustryType, IpoStatus, PersonRole, RoundKey, RoundType,
};
use uuid::Uuid;

use super::World;

/// Draws requests from one world.
pub struct Gen<'w> {
    w: &'w World,
    rng: Rng,
    round_keys: Vec<RoundKey>,
    industries: Vec<String>,
    supers: Vec<String>,
    /// Sorted deal sizes, company totals, deal dates.
    sizes: Vec<f64>,
    totals: Vec<f64>,
    dates: Vec<Date>,
    job_titles: Vec<String>,
    schools: Vec<String>,
    linkedin_companies: Vec<String>,
}

const UNKNOWN_PERMALINK: &str = "atlantis-0000";

impl<'w> Gen<'w> {
    pub fn new(w: &'w World, seed: u64) -> Gen<'w> {
        let f = &w.facts;
        let mut round_keys: Vec<RoundKey> = Vec::new();
        for d in &f.deals {
            if !round_keys.contains(&d.round) {
                round_keys.push(d.round);
            }
        }
        let by_type = |t: IndustryType| -> Vec<String> {
            f.catalog
                .industries
                .iter()
                .filter(|i| i.industry_type == t)
                .map(|i| i.permalink.clone())
                .collect()
        };
        let mut sizes: Vec<f64> = f.deals.iter().filter_map(|d| d.size).collect();
        sizes.sort_by(f64::total_cmp);
        let mut totals: Vec<f64> = w
            .derived
            .companies
            .iter()
            .filter_map(|c| c.total_raised)
            .collect();
        totals.sort_by(f64::total_cmp);
        let mut dates: Vec<Date> = f.deals.iter().filter_map(|d| d.date).collect();
        dates.sort();
        let strings = |all: &mut dyn Iterator<Item = &str>| -> Vec<String> {
            let mut v: Vec<String> = all.map(str::to_string).collect();
            v.sort();
            v.dedup();
            v
        };
        let job_titles = strings(&mut f.people.iter().filter_map(|p| p.job_title.as_deref()));
        let schools = strings(&mut f.people.iter().flat_map(|p| p.schools.iter().map(|s| &**s)));
        let linkedin_companies = strings(
            &mut f
                .people
                .iter()
                .flat_map(|p| p.linkedin_companies.iter().map(|s| &**s)),
        );
        Gen {
            w,
            rng: Rng::new(seed),
            round_keys,
            industries: by_type(IndustryType::Industry),
            supers: by_type(IndustryType::SuperCategory),
            sizes,
            totals,
            dates,
            job_titles,
            schools,
            linkedin_companies,
        }
    }

    // ------------------------------------------------------------ requests

    pub fn deals_query(&mut self) -> DealsQuery {
        let Some(d) = self.pick_row(self.w.facts.deals.len()) else {
            return DealsQuery::default();
        };
        let company = self.w.facts.deals[d as usize].company;
        let mut q = DealsQuery {
            sort: self.pick_of(&[
                DealSort::MostRecentDeal,
                DealSort::OldestDeal,
                DealSort::LargestRaise,
                DealSort::SmallestRaise,
            ]),
            page: self.page(),
            ..Default::default()
        };
        if self.rng.chance(0.1) {
            q.deal_ids = Some(self.uuids(Some(self.w.facts.deals[d as usize].id), |w| {
                w.facts.deals.iter().map(|x| x.id).collect()
            }));
        }
        q.deal = self.deal_filter(Some(d), true);
        q.company = self.company_filter(Some(company), true);
        q.investors = self.investors_filter(&[d]);
        q
    }

    pub fn companies_query(&mut self) -> CompaniesQuery {
        let c = self.company_anchor();
        let mut q = CompaniesQuery {
            sort: self.pick_of(COMPANY_SORTS),
            page: self.page(),
            ..Default::default()
        };
        if self.rng.chance(0.15) {
            q.identifiers = Some(self.company_identifiers(c));
        }
        q.company = self.company_filter(c, true);
        if self.rng.chance(0.35) {
            let latest = c.and_then(|c| self.w.derived.companies[c as usize].latest_deal());
            q.latest_deal = self.latest_deal_filter(latest, false);
        }
        if self.rng.chance(0.3) {
            let deals = c.map_or(Vec::new(), |c| {
                self.w.derived.companies[c as usize].deals.clone()
            });
            q.investors = self.investors_filter(&deals);
        }
        q
    }

    pub fn investors_query(&mut self) -> InvestorsQuery {
        let f = self.firm_anchor();
        let mut q = InvestorsQuery {
            sort: self.pick_of(INVESTOR_SORTS),
            page: self.page(),
            ..Default::default()
        };
        if self.rng.chance(0.15) {
            q.identifiers = Some(self.firm_identifiers(f));
        }
        let places = f.map(|f| self.w.facts.firms[f as usize].places);
        if self.rng.chance(0.25) {
            q.locations = Some(self.locations(places.as_ref()));
        }
        if self.rng.chance(0.2) {
            q.employee_count =
                Some(self.headcounts(f.and_then(|f| self.w.facts.firms[f as usize].headcount)));
        }
        if self.rng.chance(0.6) {
            let deal = f.and_then(|f| {
                self.pick(&self.w.derived.firms[f as usize].deals.clone())
                    .map(|x| x.0)
            });
            q.portfolio = Some(self.portfolio_filter(deal));
        }
        q
    }

    /// Investor mode (an investor anchor, mostly an `investor` block) or
    /// company mode (anyone, mostly person facets and a `company` block).
    pub fn people_query(&mut self) -> PeopleQuery {
        let investor_mode = self.rng.chance(0.5);
        let p = if investor_mode {
            self.investor_anchor()
        } else {
            self.pick_row(self.w.facts.people.len())
        };
        let mut q = PeopleQuery {
            sort: self.pick_of(PEOPLE_SORTS),
            page: self.page(),
            ..Default::default()
        };
        q.person_type = match investor_mode {
            true => self.pick_of(&[
                PersonType::Any,
                PersonType::Investor,
                PersonType::Investor,
                PersonType::Company,
            ]),
            false => self.pick_of(&[
                PersonType::Any,
                PersonType::Any,
                PersonType::Investor,
                PersonType::Company,
            ]),
        };
        if self.rng.chance(0.1) {
            q.identifiers = Some(self.person_identifiers(p));
        }
        if self.rng.chance(if investor_mode { 0.25 } else { 0.5 }) {
            q.person = self.person_filter(p);
        }
        if self.rng.chance(if investor_mode { 0.1 } else { 0.5 }) {
            q.company = Some(self.employer_filter(p));
        }
        if self.rng.chance(if investor_mode { 0.8 } else { 0.1 }) {
            q.investor = Some(self.investor_person_filter(p));
        }
        q
    }

    // ------------------------------------------------------------ blocks

    fn deal_filter(&mut self, d: Option<u32>, with_created: bool) -> DealFilter {
        let deal = d.map(|d| self.w.facts.deals[d as usize].clone());
        let mut f = DealFilter::default();
        let has = deal.as_ref().map_or([true; 4], |d| {
            [
                true,
                d.size.is_some(),
                d.date.is_some(),
                d.created_at.is_some(),
            ]
        });
        for key in self.anchored_keys(&has[..if with_created { 4 } else { 3 }]) {
            match key {
                0 => f.financing_types = Some(self.round_keys(deal.as_ref().map(|d| d.round))),
                1 => f.size = self.money_range(deal.as_ref().and_then(|d| d.size), true),
                2 => f.date = self.date_range(deal.as_ref().and_then(|d| d.date)),
                _ => {
                    f.created =
                        self.date_range(deal.as_ref().and_then(|d| d.created_at.map(|t| t.date())))
                }
            }
        }
        f
    }

    /// Company keys; `with_ids` where the block has `ids` (not the people portfolio).
    fn company_filter(&mut self, c: Option<u32>, with_ids: bool) -> CompanyFilter {
        let company = c.map(|c| self.w.facts.companies[c as usize].clone());
        let mut f = CompanyFilter::default();
        let supers = &self.w.facts.catalog.industry_supers;
        let has = company.as_ref().map_or([true; 7], |x| {
            let total = self.w.derived.companies[c.unwrap_or_default() as usize].total_raised;
            let has_super = x.industries.iter().any(|&i| !supers[i as usize].is_empty());
            let places = x.places.iter().any(Option::is_some);
            [
                true,
                places,
                !x.industries.is_empty(),
                has_super,
                x.headcount.is_some(),
                x.ipo_status.is_some(),
                total.is_some(),
            ]
        });
        let keys: Vec<usize> = self
            .anchored_keys(&has)
            .into_iter()
            .filter(|&k| with_ids || k != 0)
            .collect();
        for key in keys {
            match key {
                0 => {
                    let anchor = company.as_ref().map(|c| c.id);
                    f.ids = Some(
                        self.uuids(anchor, |w| w.facts.companies.iter().map(|c| c.id).collect()),
                    );
                }
                1 => f.locations = Some(self.locations(company.as_ref().map(|c| &c.places))),
                2 => {
                    f.industries =
                        Some(self.industries(company.as_ref().map_or(&[][..], |c| &c.industries)))
                }
                3 => {
                    f.super_categories = Some(
                        self.super_categories(company.as_ref().map_or(&[][..], |c| &c.industries)),
                    )
                }
                4 => {
                    f.employee_count =
                        Some(self.headcounts(company.as_ref().and_then(|c| c.headcount)))
                }
                5 => {
                    f.ipo_status =
                        Some(self.ipo_statuses(company.as_ref().and_then(|c| c.ipo_status)))
                }
                _ => {
                    let total = c.and_then(|c| self.w.derived.companies[c as usize].total_raised);
                    f.total_raised = self.money_range(total, false);
                }
            }
        }
        f
    }

    /// Investor keys drawn from the participants of `deals`.
    fn investors_filter(&mut self, deals: &[u32]) -> InvestorsFilter {
        let mut firms = Vec::new();
        let mut people = Vec::new();
        for &d in deals {
            let deal = &self.w.facts.deals[d as usize];
            firms.extend(
                deal.firms
                    .iter()
                    .map(|f| self.w.facts.firms[f.firm as usize].id),
            );
            people.extend(
                deal.angels
                    .iter()
                    .map(|a| a.0)
                    .chain(deal.firms.iter().flat_map(|f| f.partners.iter().copied())),
            );
        }
        let people: Vec<Uuid> = people
            .iter()
            .map(|&p| self.w.facts.people[p as usize].id)
            .collect();
        let mut f = InvestorsFilter::default();
        for key in self.anchored_keys(&[!firms.is_empty(), !people.is_empty()]) {
            let anchor = if key == 0 {
                self.pick(&firms)
            } else {
                self.pick(&people)
            };
            if key == 0 {
                f.investor_ids =
                    Some(self.uuids(anchor, |w| w.facts.firms.iter().map(|f| f.id).collect()));
            } else {
                f.people_ids =
                    Some(self.uuids(anchor, |w| w.facts.people.iter().map(|p| p.id).collect()));
            }
        }
        f
    }

    /// `latest_deal` around deal `d`; `investor_locations` only for `/people`.
    fn latest_deal_filter(&mut self, d: Option<u32>, with_locations: bool) -> LatestDealFilter {
        let mut f = LatestDealFilter {
            deal: self.deal_filter(d, true),
            ..Default::default()
        };
        let firms: Vec<u32> = d.map_or(Vec::new(), |d| {
            self.w.facts.deals[d as usize]
                .firms
                .iter()
                .map(|f| f.firm)
                .collect()
        });
        if self.rng.chance(0.3) {
            let anchor = self.pick(&firms).map(|f| self.w.facts.firms[f as usize].id);
            f.investor_ids =
                Some(self.uuids(anchor, |w| w.facts.firms.iter().map(|f| f.id).collect()));
        }
        if with_locations && self.rng.chance(0.3) {
            let places = self
                .pick(&firms)
                .map(|f| self.w.facts.firms[f as usize].places);
            f.investor_locations = Some(self.locations(places.as_ref()));
        }
        f
    }

    fn portfolio_filter(&mut self, d: Option<u32>) -> PortfolioFilter {
        let company = d.map(|d| self.w.facts.deals[d as usize].company);
        PortfolioFilter {
            company: self.company_filter(company, true),
            deal: self.deal_filter(d, true),
            semantic: None,
            only_lead_deals: self.rng.chance(0.3),
            min_matching_deals: self.rng.chance(0.4).then(|| self.rng.range(1, 3) as u32),
        }
    }

    fn person_filter(&mut self, p: Option<u32>) -> PersonFilter {
        let person = p.map(|p| self.w.facts.people[p as usize].clone());
        let mut f = PersonFilter::default();
        for key in self.keys(5) {
            match key {
                0 => {
                    f.roles = Some(self.some_of(
                        person.as_ref().map_or(Vec::new(), |p| p.roles.clone()),
                        PersonRole::ALL.to_vec(),
                    ))
                }
                1 => {
                    let own = person.as_ref().map_or(Vec::new(), |p| {
                        p.contacts.iter().map(|c| c.as_str().to_string()).collect()
                    });
                    let all = ["linkedin", "email", "phone", "twitter"]
                        .iter()
                        .map(|c| c.to_string())
                        .collect();
                    f.contact_types = Some(self.some_of(own, all));
                }
                2 => {
                    let own = person
                        .as_ref()
                        .and_then(|p| p.job_title.as_deref())
                        .map(str::to_string)
                        .into_iter()
                        .collect();
                    f.job_titles = Some(self.some_of_or_unknown(own, self.job_titles.clone()));
                }
                3 => {
                    let own = person.as_ref().map_or(Vec::new(), |p| {
                        p.schools.iter().map(|s| s.to_string()).collect()
                    });
                    f.education_schools = Some(self.some_of_or_unknown(own, self.schools.clone()));
                }
                _ => {
                    let own = person.as_ref().map_or(Vec::new(), |p| {
                        p.linkedin_companies.iter().map(|s| s.to_string()).collect()
                    });
                    f.linkedin_companies =
                        Some(self.some_of_or_unknown(own, self.linkedin_companies.clone()));
                }
            }
        }
        f
    }

    fn employer_filter(&mut self, p: Option<u32>) -> EmployerFilter {
        let employer = match p.and_then(|p| self.w.facts.people[p as usize].employer) {
            Some(Employer::Company(c)) => Some(c),
            _ => self.company_anchor(),
        };
        let mut f = EmployerFilter {
            company: self.company_filter(employer, true),
            ..Default::default()
        };
        if self.rng.chance(0.25) {
            let investors = employer.map_or(Vec::new(), |c| {
                self.w.derived.companies[c as usize].investor_people.clone()
            });
            let anchor = self
                .pick(&investors)
                .map(|x| self.w.facts.people[x as usize].id);
            f.investor_people_ids =
                Some(self.uuids(anchor, |w| w.facts.people.iter().map(|p| p.id).collect()));
        }
        if self.rng.chance(0.35) {
            let latest = employer.and_then(|c| self.w.derived.companies[c as usize].latest_deal());
            f.latest_deal = self.latest_deal_filter(latest, true);
        }
        f
    }

    fn investor_person_filter(&mut self, p: Option<u32>) -> InvestorPersonFilter {
        let investor = p.is_some_and(|p| self.w.derived.people[p as usize].is_investor());
        let p = if investor || self.rng.chance(0.1) {
            p
        } else {
            self.investor_anchor().or(p)
        };
        let agg = p.map_or_else(PersonAgg::default, |p| {
            self.w.derived.people[p as usize].clone()
        });
        let mut firms: Vec<u32> = agg.partner_deals.iter().map(|x| x.1).collect();
        if let Some(Employer::Firm(f)) = p.and_then(|p| self.w.facts.people[p as usize].employer) {
            firms.push(f);
        }
        let firm = self.pick(&firms);
        let mut f = InvestorPersonFilter::default();
        let firm_keys = if self.rng.chance(0.5) {
            Vec::new()
        } else {
            self.keys(3)
        };
        for key in firm_keys {
            match key {
                0 => f.firms = Some(self.firm_identifiers(firm)),
                1 => {
                    f.locations =
                        Some(self.locations(
                            firm.map(|x| self.w.facts.firms[x as usize].places).as_ref(),
                        ))
                }
                _ => {
                    f.employee_count =
                        Some(self.headcounts(
                            firm.and_then(|x| self.w.facts.firms[x as usize].headcount),
                        ))
                }
            }
        }
        if self.rng.chance(0.85) {
            let investment_type = self.pick_of(&[
                InvestmentType::All,
                InvestmentType::Angel,
                InvestmentType::Institutional,
            ]);
            let mut deals: Vec<u32> = Vec::new();
            if investment_type != InvestmentType::Institutional {
                deals.extend(&agg.angel_deals);
            }
            if investment_type != InvestmentType::Angel {
                deals.extend(agg.partner_deals.iter().map(|x| x.0));
            }
            let deal = self.pick(&deals);
            let company = deal.map(|d| self.w.facts.deals[d as usize].company);
            f.deals = Some(PersonDealsFilter {
                semantic: None,
                investment_type,
                only_lead_deals: self.rng.chance(0.25),
                min_matching_deals: self.rng.chance(0.4).then(|| self.rng.range(1, 3) as u32),
                deal: self.deal_filter(deal, false),
                portfolio: self.company_filter(company, false),
            });
        }
        f
    }

    fn company_identifiers(&mut self, c: Option<u32>) -> OrgIdentifiers {
        let companies = &self.w.facts.companies;
        let company = c.map(|c| companies[c as usize].clone());
        let mut ids = OrgIdentifiers::default();
        for key in self.some_keys(4) {
            let other = self
                .pick_row(companies.len())
                .map(|o| companies[o as usize].clone());
            let both = [company.as_ref(), other.as_ref()];
            match key {
                0 => {
                    ids.ids = self.uuids(company.as_ref().map(|c| c.id), |w| {
                        w.facts.companies.iter().map(|c| c.id).collect()
                    })
                }
                1 => {
                    ids.domains = self.keys_of(&both.map(|c| c.and_then(|c| c.domain_key.clone())))
                }
                2 => {
                    ids.linkedin =
                        self.keys_of(&both.map(|c| c.and_then(|c| c.linkedin_key.clone())))
                }
                _ => {
                    ids.crunchbase =
                        self.keys_of(&both.map(|c| c.and_then(|c| c.crunchbase_key.clone())))
                }
            }
        }
        ids
    }

    fn firm_identifiers(&mut self, f: Option<u32>) -> OrgIdentifiers {
        let firms = &self.w.facts.firms;
        let firm = f.map(|f| firms[f as usize].clone());
        let mut ids = OrgIdentifiers::default();
        for key in self.some_keys(5) {
            let other = self
                .pick_row(firms.len())
                .map(|o| firms[o as usize].clone());
            let both = [firm.as_ref(), other.as_ref()];
            match key {
                0 => {
                    ids.ids = self.uuids(firm.as_ref().map(|f| f.id), |w| {
                        w.facts.firms.iter().map(|f| f.id).collect()
                    })
                }
                1 => {
                    ids.domains = self.keys_of(&both.map(|f| f.and_then(|f| f.domain_key.clone())))
                }
                2 => {
                    ids.linkedin =
                        self.keys_of(&both.map(|f| f.and_then(|f| f.linkedin_key.clone())))
                }
                3 => {
                    ids.crunchbase =
                        self.keys_of(&both.map(|f| f.and_then(|f| f.crunchbase_key.clone())))
                }
                _ => ids.permalinks = self.keys_of(&both.map(|f| f.map(|f| f.permalink.clone()))),
            }
        }
        ids
    }

    fn person_identifiers(&mut self, p: Option<u32>) -> PersonIdentifiers {
        let people = &self.w.facts.people;
        let person = p.map(|p| people[p as usize].clone());
        let mut ids = PersonIdentifiers::default();
        for key in self.some_keys(4) {
            let other = self
                .pick_row(people.len())
                .map(|o| people[o as usize].clone());
            let both = [person.as_ref(), other.as_ref()];
            match key {
                0 => {
                    ids.ids = self.uuids(person.as_ref().map(|p| p.id), |w| {
                        w.facts.people.iter().map(|p| p.id).collect()
                    })
                }
                1 => {
                    ids.linkedin =
                        self.keys_of(&both.map(|p| p.and_then(|p| p.linkedin_key.clone())))
                }
                2 => {
                    ids.crunchbase =
                        self.keys_of(&both.map(|p| p.and_then(|p| p.crunchbase_key.clone())))
                }
                _ => {
                    ids.twitter = self.keys_of(&both.map(|p| p.and_then(|p| p.twitter_key.clone())))
                }
            }
        }
        ids
    }

    // ------------------------------------------------------------ values

    /// 1–3 values: usually one of `own`, the rest from `all`.
    fn some_of<T: Clone + PartialEq>(&mut self, own: Vec<T>, all: Vec<T>) -> Vec<T> {
        let n = self.rng.range(1, 3) as usize;
        let mut out = Vec::new();
        if self.rng.chance(0.75) {
            out.extend(self.pick(&own));
        }
        while out.len() < n {
            match self.pick(&all) {
                Some(v) if !out.contains(&v) => out.push(v),
                Some(_) if all.len() > n => {}
                _ => break,
            }
        }
        if out.is_empty() {
            out.extend(self.pick(&own));
        }
        out
    }

    /// Like [`Gen::some_of`], sometimes with a value absent from the data.
    fn some_of_or_unknown(&mut self, own: Vec<String>, all: Vec<String>) -> Vec<String> {
        let mut out = self.some_of(own, all);
        if out.is_empty() || self.rng.chance(0.1) {
            out.push(UNKNOWN_PERMALINK.to_string());
        }
        out
    }

    /// 0–4 distinct keys out of `n`, in random order.
    fn keys(&mut self, n: usize) -> Vec<usize> {
        let k = [0, 0, 0, 1, 1, 1, 2, 2, 3, 4][self.rng.index(10)].min(n);
        let mut all: Vec<usize> = (0..n).collect();
        for i in 0..all.len() {
            let j = i + self.rng.index(all.len() - i);
            all.swap(i, j);
        }
        all.truncate(k);
        all
    }

    /// Like [`Gen::keys`], but rarely none: for identifier blocks, where no
    /// key at all is an empty union that matches nothing.
    fn some_keys(&mut self, n: usize) -> Vec<usize> {
        let keys = self.keys(n);
        match keys.is_empty() && self.rng.chance(0.9) {
            true => vec![self.rng.index(n)],
            false => keys,
        }
    }

    /// 0–4 keys out of `has.len()`; keys the anchor has no value for are mostly left out.
    fn anchored_keys(&mut self, has: &[bool]) -> Vec<usize> {
        let mut keys = self.keys(has.len());
        keys.retain(|&k| has[k] || self.rng.chance(0.2));
        keys
    }

    /// An id list: the anchor, real ids of the kind, random UUIDs; rarely empty.
    fn uuids(&mut self, anchor: Option<Uuid>, all: impl Fn(&World) -> Vec<Uuid>) -> Vec<Uuid> {
        if self.rng.chance(0.05) {
            return Vec::new();
        }
        let all = all(self.w);
        let mut out: Vec<Uuid> = Vec::new();
        if self.rng.chance(0.8) {
            out.extend(anchor);
        }
        for _ in 0..self.rng.range(0, 3) {
            if self.rng.chance(0.7) {
                out.extend(self.pick(&all));
            } else {
                out.push(Uuid::from_u128(
                    ((self.rng.next_u64() as u128) << 64) | self.rng.next_u64() as u128,
                ));
            }
        }
        out
    }

    /// Normalised keys of up to two entities, sometimes one that matches nothing.
    fn keys_of(&mut self, keys: &[Option<Box<str>>]) -> Vec<String> {
        let mut out: Vec<String> = keys
            .iter()
            .flatten()
            .filter(|_| self.rng.chance(0.7))
            .map(|k| k.to_string())
            .collect();
        if out.is_empty() || self.rng.chance(0.15) {
            out.push("unknown-key.example".to_string());
        }
        out
    }

    /// Location permalinks: a place of the anchor or one of its ancestors,
    /// another real location, rarely an unknown one.
    fn locations(&mut self, places: Option<&Places>) -> Vec<String> {
        let catalog = &self.w.facts.catalog;
        let own: Vec<String> = places
            .map_or(&[][..], |p| &p[..])
            .iter()
            .flatten()
            .flat_map(|&l| {
                catalog.location_ancestors[l as usize]
                    .iter()
                    .map(|&a| catalog.locations[a as usize].permalink.clone())
            })
            .collect();
        let all: Vec<String> = catalog
            .locations
            .iter()
            .map(|l| l.permalink.clone())
            .collect();
        let mut out = self.some_of(own, all);
        if out.is_empty() || self.rng.chance(0.05) {
            out.push(UNKNOWN_PERMALINK.to_string());
        }
        out
    }

    fn industries(&mut self, own: &[u32]) -> Vec<String> {
        let catalog = &self.w.facts.catalog;
        let own: Vec<String> = own
            .iter()
            .map(|&i| catalog.industries[i as usize].permalink.clone())
            .collect();
        let mut out = self.some_of(own, self.industries.clone());
        if out.is_empty() || self.rng.chance(0.05) {
            out.push(self.unknown_or_other_kind(&self.supers.clone()));
        }
        out
    }

    fn super_categories(&mut self, own: &[u32]) -> Vec<String> {
        let catalog = &self.w.facts.catalog;
        let own: Vec<String> = own
            .iter()
            .flat_map(|&i| {
                catalog.industry_supers[i as usize]
                    .iter()
                    .map(|&s| catalog.industries[s as usize].permalink.clone())
            })
            .collect();
        let mut out = self.some_of(own, self.supers.clone());
        if out.is_empty() || self.rng.chance(0.05) {
            out.push(self.unknown_or_other_kind(&self.industries.clone()));
        }
        out
    }

    /// An unknown permalink, or a real one of the other industry kind.
    fn unknown_or_other_kind(&mut self, other: &[String]) -> String {
        match self.rng.chance(0.5) {
            true => self
                .pick(other)
                .unwrap_or_else(|| UNKNOWN_PERMALINK.to_string()),
            false => UNKNOWN_PERMALINK.to_string(),
        }
    }

    fn headcounts(&mut self, own: Option<Headcount>) -> Vec<Headcount> {
        self.some_of(own.into_iter().collect(), Headcount::ALL.to_vec())
    }

    fn ipo_statuses(&mut self, own: Option<IpoStatus>) -> Vec<IpoStatus> {
        self.some_of(own.into_iter().collect(), IpoStatus::ALL.to_vec())
    }

    /// Round keys of the data, sometimes a combination that may not occur.
    fn round_keys(&mut self, own: Option<RoundKey>) -> Vec<RoundKey> {
        let mut out = self.some_of(own.into_iter().collect(), self.round_keys.clone());
        if out.is_empty() || self.rng.chance(0.1) {
            let round_type = self.pick(RoundType::ALL).unwrap_or(RoundType::Seed);
            out.push(RoundKey {
                round_type,
                pre: self.rng.chance(0.3),
                extension: self.rng.chance(0.3),
            });
        }
        out
    }

    /// A money range around `anchor` (usually containing it), or at real quantiles.
    fn money_range(&mut self, anchor: Option<f64>, deal_sizes: bool) -> Range<f64> {
        let pool = if deal_sizes {
            &self.sizes
        } else {
            &self.totals
        };
        let quantile = self.rng.pick(pool).copied().unwrap_or(1_000_000.0);
        let base = match anchor {
            Some(v) if self.rng.chance(0.8) => v,
            _ => quantile,
        };
        let whole = base.round();
        let (low, high) = match self.rng.index(8) {
            0 => (whole, whole),
            1 => (whole - 0.5, whole + 0.49),
            2 => (whole + 0.5, whole + 1.5),
            3 | 4 => (base * self.rng.unit(), base * (1.0 + 2.0 * self.rng.unit())),
            5 | 6 => (quantile.min(base), quantile.max(base)),
            _ => (base * 1.1, base * 0.9),
        };
        let (low, high) = (low.max(0.0), high.max(0.0));
        self.bounds(low, high)
    }

    /// A day range around `anchor` (inclusive ends on it, or days around it).
    fn date_range(&mut self, anchor: Option<Date>) -> Range<Date> {
        let quantile = self.rng.pick(&self.dates).copied().unwrap_or(Date(19_000));
        let base = match anchor {
            Some(d) if self.rng.chance(0.8) => d,
            _ => quantile,
        };
        let spans = [0, 1, 30, 365, 3650];
        let before = spans[self.rng.index(spans.len())];
        let after = spans[self.rng.index(spans.len())];
        let (low, high) = match self.rng.index(8) {
            0 => (base, base),
            1 => (Date(base.0 + 1), Date(base.0 + after.max(1))),
            2 | 3 => (Date(quantile.0.min(base.0)), Date(quantile.0.max(base.0))),
            4 => (Date(base.0 + 1), Date(base.0 - 1)),
            _ => (Date(base.0 - before), Date(base.0 + after)),
        };
        self.bounds(low, high)
    }

    /// `low..`, `..high` or `low..high` (half of the time both ends).
    fn bounds<T>(&mut self, low: T, high: T) -> Range<T> {
        match self.rng.index(4) {
            0 => Range {
                min: Some(low),
                max: None,
            },
            1 => Range {
                min: None,
                max: Some(high),
            },
            _ => Range {
                min: Some(low),
                max: Some(high),
            },
        }
    }

    fn page(&mut self) -> PageRequest {
        let page = [0, 0, 0, 0, 1, 1, 2, 3][self.rng.index(8)];
        let page_size = [1, 2, 3, 5, 10, 20, 50][self.rng.index(7)].min(1 + self.rng.index(50));
        PageRequest {
            page,
            page_size: page_size.max(1),
        }
    }

    // ------------------------------------------------------------ anchors

    fn company_anchor(&mut self) -> Option<u32> {
        let companies = &self.w.derived.companies;
        let with_deals: Vec<u32> = (0..companies.len() as u32)
            .filter(|&c| !companies[c as usize].deals.is_empty())
            .collect();
        match self.rng.chance(0.8) && !with_deals.is_empty() {
            true => self.pick(&with_deals),
            false => self.pick_row(companies.len()),
        }
    }

    fn firm_anchor(&mut self) -> Option<u32> {
        let firms = &self.w.derived.firms;
        let active: Vec<u32> = (0..firms.len() as u32)
            .filter(|&f| !firms[f as usize].deals.is_empty())
            .collect();
        match self.rng.chance(0.85) && !active.is_empty() {
            true => self.pick(&active),
            false => self.pick_row(firms.len()),
        }
    }

    fn investor_anchor(&mut self) -> Option<u32> {
        let people = &self.w.derived.people;
        let investors: Vec<u32> = (0..people.len() as u32)
            .filter(|&p| people[p as usize].is_investor())
            .collect();
        self.pick(&investors)
    }

    fn pick_row(&mut self, len: usize) -> Option<u32> {
        (len > 0).then(|| self.rng.index(len) as u32)
    }

    fn pick<T: Clone>(&mut self, items: &[T]) -> Option<T> {
        self.rng.pick(items).cloned()
    }

    fn pick_of<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.rng.index(items.len())]
    }
}

const COMPANY_SORTS: &[CompanySort] = &[
    CompanySort::MostRecentRaise,
    CompanySort::OldestRaise,
    CompanySort::MostRecentFounded,
    CompanySort::OldestFounded,
    CompanySort::LargestValuation,
    CompanySort::SmallestValuation,
    CompanySort::LargestTotalRaise,
    CompanySort::SmallestTotalRaise,
    CompanySort::MostFundingRounds,
    CompanySort::MostInvestors,
];

const INVESTOR_SORTS: &[InvestorSort] = &[
    InvestorSort::MostRecentDeal,
    InvestorSort::RecentDeals,
    InvestorSort::DealsLedLtm,
    InvestorSort::TotalDeals,
    InvestorSort::MatchingDeals,
];

const PEOPLE_SORTS: &[PersonSort] = &[
    PersonSort::MostRecentDealDate,
    PersonSort::TotalRaised,
    PersonSort::LatestDealSize,
    PersonSort::Name,
    PersonSort::TotalDealCount,
    PersonSort::DealCountLast12Months,
    PersonSort::LeadDealCount,
    PersonSort::LeadDealCountLast12Months,
    PersonSort::FilteredDealCount,
];
