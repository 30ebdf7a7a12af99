//! Collection-search requests for the benchmarks: deterministic typed
//! requests (`query::request`) per query class of the performance guide
//! §4.3, drawn from what the index holds, and how a benchmark answers one:
//! the engine call (exact count + page) and the hydration of the returned
//! page as the server would do it (each doc's stored `full` record, joined
//! with commas; nothing parsed).
//!
//! | class | request |
//! |---|---|
//! | C1 | `/companies`: 1–3 locations (country or city), 1–3 industries or a super category, latest-deal round types (1–3), size and date ranges, 1–3 headcounts (each present by chance, at least one); default sort or total raised, valuation, founded, rounds, investors; page 0 (80 %) or 1–40, page size 25 (10 % at 100–500) |
//! | C2 | `/deals`: company locations / industries, round types, size and date ranges; newest first; paging as C1 |
//! | C3 | `/investors`: portfolio industries or super category, round types, date range; sort `matching_deals` |
//! | C4 | `/people` investor mode: `investor.deals` round types, date (and size) range, portfolio industries / locations, `only_lead_deals` (half), `min_matching_deals` 2–4; sort `filtered_deal_count` |
//! | C5 | `/people` company mode: roles founder and/or ceo, employer locations (1–3), employer latest-deal round types, size and date ranges; default sort, employer total raised or latest deal size |
//! | selective | the Q3 shape: a batch of 1–50 company ids or domains, or of deal ids; or a rare city + an industry (+ a round type) |
//!
//! C3–C5 ask for page 0 (80 %) or 1–4, page size 25.
//!
//! Facet values (locations, industries, super categories, round types,
//! headcounts) are drawn as often as they occur (weight = docs having
//! them): users ask for San Francisco and Software far more often than for
//! a small town; rare results come from combinations. Money ranges are
//! built around a stored amount (a random company's latest round, or a
//! random round) and date ranges around a random round's date, so every
//! range sits where the data is. Same index, class, count and seed: same
//! requests.

use std::collections::HashMap;
use std::sync::Arc;

use fundsearch::index::column::Column;
use fundsearch::index::open::Kind;
use fundsearch::index::{Index, IndexError};
use fundsearch::ingest::generate::rng::Rng;
use fundsearch::query::exec::{
    search_companies, search_deals, search_investors, search_people, QueryError,
};
use fundsearch::query::request::{
    CompaniesQuery, CompanyFilter, CompanySort, DealFilter, DealSort, DealsQuery, EmployerFilter,
    InvestmentType, InvestorPersonFilter, InvestorSort, InvestorsQuery, OrgIdentifiers,
    PageRequest, PeopleQuery, PersonDealsFilter, PersonSort, PortfolioFilter, Range, ResultPage,
};
use fundsearch::schema::ids::domain_key;
use fundsearch::schema::record::LocationCard;
use fundsearch::schema::{Date, Headcount, PersonRole, RoundKey, RoundType};

use super::entity::Entity;

/// A query class of the guide's mix (§4.3), plus the selective (Q3) shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    C1,
    C2,
    C3,
    C4,
    C5,
    Selective,
}

impl Class {
    pub const ALL: [Class; 6] = [
        Class::C1,
        Class::C2,
        Class::C3,
        Class::C4,
        Class::C5,
        Class::Selective,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Class::C1 => "C1 /companies",
            Class::C2 => "C2 /deals",
            Class::C3 => "C3 /investors",
            Class::C4 => "C4 /people investor",
            Class::C5 => "C5 /people company",
            Class::Selective => "Q3 selective",
        }
    }

    /// A file-name-safe name (criterion benchmark ids, `--only`).
    pub fn slug(self) -> &'static str {
        match self {
            Class::C1 => "c1_companies",
            Class::C2 => "c2_deals",
            Class::C3 => "c3_investors",
            Class::C4 => "c4_people_investor",
            Class::C5 => "c5_people_company",
            Class::Selective => "selective",
        }
    }

    /// The class named by its slug or by its prefix (`c1`, `selective`).
    pub fn parse(text: &str) -> Option<Class> {
        let text = text.to_ascii_lowercase();
        Class::ALL
            .into_iter()
            .find(|c| c.slug() == text || c.slug().split('_').next() == Some(text.as_str()))
    }
}

/// One typed collection-search request.
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)] // built once, before anything is timed
pub enum Request {
    Companies(CompaniesQuery),
    Deals(DealsQuery),
    Investors(InvestorsQuery),
    People(PeopleQuery),
}

impl Request {
    /// The kind whose documents the request returns.
    pub fn kind<'a>(&self, index: &'a Index) -> &'a Kind {
        match self {
            Request::Companies(_) => &index.companies,
            Request::Deals(_) => &index.deals,
            Request::Investors(_) => &index.firms,
            Request::People(_) => &index.people,
        }
    }

    pub fn page(&self) -> PageRequest {
        match self {
            Request::Companies(q) => q.page,
            Request::Deals(q) => q.page,
            Request::Investors(q) => q.page,
            Request::People(q) => q.page,
        }
    }

    /// The engine call: exact count and the requested page.
    pub fn execute(&self, index: &Index) -> Result<ResultPage, QueryError> {
        match self {
            Request::Companies(q) => search_companies(index, q),
            Request::Deals(q) => search_deals(index, q),
            Request::Investors(q) => search_investors(index, q),
            Request::People(q) => search_people(index, q),
        }
    }
}

/// The response rows of `page`: the stored `full` record of each doc,
/// joined with commas inside brackets (what the server copies into its
/// body; no parsing).
pub fn hydrate(index: &Index, request: &Request, page: &ResultPage) -> Result<Vec<u8>, IndexError> {
    let store = request.kind(index).records("full")?;
    let mut body = vec![b'['];
    for (i, record) in store
        .get_many(page.docs.iter().copied())?
        .iter()
        .enumerate()
    {
        if i > 0 {
            body.push(b',');
        }
        body.extend_from_slice(record);
    }
    body.push(b']');
    Ok(body)
}

/// Whether `page` holds as many rows as its request and `total_count`
/// promise, each with its computed counts when there are any.
pub fn page_is_consistent(request: &Request, page: &ResultPage) -> bool {
    let p = request.page();
    let expected = (page.total_count as usize)
        .saturating_sub(p.page * p.page_size)
        .min(p.page_size);
    page.docs.len() == expected
        && (page.filtered.is_empty() || page.filtered.len() == page.docs.len())
}

/// Selectivity bucket of a request: its match fraction (guide §4.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Bucket {
    Rare,
    Narrow,
    Broad,
    Huge,
}

impl Bucket {
    pub const ALL: [Bucket; 4] = [Bucket::Rare, Bucket::Narrow, Bucket::Broad, Bucket::Huge];

    /// The bucket of `total` matches among `docs` documents.
    pub fn of(total: u64, docs: usize) -> Bucket {
        let fraction = total as f64 / docs.max(1) as f64;
        match fraction {
            f if f < 0.0001 => Bucket::Rare,
            f if f < 0.01 => Bucket::Narrow,
            f if f < 0.10 => Bucket::Broad,
            _ => Bucket::Huge,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Bucket::Rare => "<0.01%",
            Bucket::Narrow => "0.01-1%",
            Bucket::Broad => "1-10%",
            Bucket::Huge => ">10%",
        }
    }
}

/// `n` requests of `class`, deterministic in (`index`, `class`, `n`, `seed`).
pub fn requests(index: &Index, class: Class, n: usize, seed: u64) -> Result<Vec<Request>, String> {
    let vocab = Vocab::of(index).map_err(|e| format!("reading the index's values: {e}"))?;
    let mut rng = Rng::new(seed ^ ((class as u64 + 1) << 32));
    (0..n)
        .map(|_| match class {
            Class::C1 => Ok(companies_discovery(&vocab, &mut rng)),
            Class::C2 => Ok(deals_search(&vocab, &mut rng)),
            Class::C3 => Ok(investor_firms(&vocab, &mut rng)),
            Class::C4 => Ok(people_investor_mode(&vocab, &mut rng)),
            Class::C5 => Ok(people_company_mode(&vocab, &mut rng)),
            Class::Selective => selective(index, &vocab, &mut rng),
        })
        .collect()
}

// ---------------------------------------------------------------- values

/// Values with their drawing weights.
struct Weighted<T> {
    items: Vec<T>,
    weights: Vec<f64>,
}

impl<T: Clone> Weighted<T> {
    fn new(pairs: Vec<(T, u64)>) -> Weighted<T> {
        let weights = pairs.iter().map(|&(_, docs)| docs as f64).collect();
        Weighted {
            items: pairs.into_iter().map(|(v, _)| v).collect(),
            weights,
        }
    }

    fn pick(&self, rng: &mut Rng) -> T {
        self.items[rng.weighted(&self.weights)].clone()
    }

    /// 1 to `max` values (repeats dropped).
    fn pick_some(&self, rng: &mut Rng, max: usize) -> Vec<T>
    where
        T: PartialEq,
    {
        let wanted = rng.range(1, max as i64) as usize;
        let mut out: Vec<T> = Vec::with_capacity(wanted);
        for _ in 0..wanted {
            let v = self.pick(rng);
            if !out.contains(&v) {
                out.push(v);
            }
        }
        out
    }
}

/// What the requests are drawn from.
struct Vocab {
    countries: Weighted<String>,
    cities: Weighted<String>,
    /// The less populated half of the cities (selective requests).
    rare_cities: Weighted<String>,
    industries: Weighted<String>,
    super_categories: Weighted<String>,
    latest_rounds: Weighted<RoundKey>,
    deal_rounds: Weighted<RoundKey>,
    headcounts: Weighted<Headcount>,
    latest_sizes: Arc<Column<i64>>,
    deal_sizes: Arc<Column<i64>>,
    deal_dates: Arc<Column<i32>>,
}

impl Vocab {
    fn of(index: &Index) -> Result<Vocab, IndexError> {
        let types = location_types(index);
        let locations = facet_values(&index.companies, "location")?;
        let of_type = |t: &str| -> Vec<(String, u64)> {
            locations
                .iter()
                .filter(|(p, _)| types.get(p).map(String::as_str) == Some(t))
                .cloned()
                .collect()
        };
        let mut cities = of_type("CITY");
        cities.sort_by_key(|&(_, docs)| docs);
        let rare_cities = cities[..cities.len().div_ceil(2)].to_vec();
        Ok(Vocab {
            countries: Weighted::new(of_type("COUNTRY")),
            cities: Weighted::new(cities),
            rare_cities: Weighted::new(rare_cities),
            industries: Weighted::new(facet_values(&index.companies, "industry")?),
            super_categories: Weighted::new(facet_values(&index.companies, "super_category")?),
            latest_rounds: Weighted::new(round_values(&index.companies, "latest_round")?),
            deal_rounds: Weighted::new(round_values(&index.deals, "round")?),
            headcounts: Weighted::new(
                facet_values(&index.companies, "employee_count")?
                    .into_iter()
                    .filter_map(|(v, docs)| Headcount::parse(&v).map(|h| (h, docs)))
                    .collect(),
            ),
            latest_sizes: index.companies.column_i64("latest_deal_size")?,
            deal_sizes: index.deals.column_i64("size")?,
            deal_dates: index.deals.column_i32("date")?,
        })
        .and_then(Vocab::checked)
    }

    /// Refuses an index lacking values to draw (e.g. an empty one).
    fn checked(self) -> Result<Vocab, IndexError> {
        let lists = [
            ("country locations", self.countries.items.len()),
            ("city locations", self.cities.items.len()),
            ("industries", self.industries.items.len()),
            ("super categories", self.super_categories.items.len()),
            ("latest-round types", self.latest_rounds.items.len()),
            ("round types", self.deal_rounds.items.len()),
            ("headcounts", self.headcounts.items.len()),
            ("deals", self.deal_dates.values().len()),
        ];
        match lists.iter().find(|(_, len)| *len == 0) {
            Some((what, _)) => Err(IndexError::corrupt(
                "bench",
                format!("the index has no {what} to draw requests from"),
            )),
            None => Ok(self),
        }
    }

    /// 1–3 locations, each a country (40 %) or a city.
    fn locations(&self, rng: &mut Rng) -> Vec<String> {
        let n = rng.range(1, 3);
        let mut out: Vec<String> = Vec::new();
        for _ in 0..n {
            let v = if rng.chance(0.4) {
                self.countries.pick(rng)
            } else {
                self.cities.pick(rng)
            };
            if !out.contains(&v) {
                out.push(v);
            }
        }
        out
    }

    /// 1–3 industries (70 %) or one super category.
    fn industries_or_super(&self, rng: &mut Rng, f: &mut CompanyFilter) {
        if rng.chance(0.7) {
            f.industries = Some(self.industries.pick_some(rng, 3));
        } else {
            f.super_categories = Some(vec![self.super_categories.pick(rng)]);
        }
    }

    /// A range around a stored amount of `column`: both bounds (×¼ to ×4),
    /// a minimum (½ of it) or a maximum (twice it), rounded to two
    /// significant digits like a typed amount.
    fn money_range(&self, column: &Column<i64>, rng: &mut Rng) -> Range<f64> {
        let anchor = stored_value(column, rng).map_or(1_000_000.0, |v| v.max(1) as f64);
        match rng.weighted(&[0.5, 0.3, 0.2]) {
            0 => Range {
                min: Some(round_money(anchor / 4.0)),
                max: Some(round_money(anchor * 4.0)),
            },
            1 => Range {
                min: Some(round_money(anchor / 2.0)),
                max: None,
            },
            _ => Range {
                min: None,
                max: Some(round_money(anchor * 2.0)),
            },
        }
    }

    /// A range around a random round's date: a 3-month to 3-year window
    /// (50 %), "since" (30 %) or "until" (20 %).
    fn date_range(&self, rng: &mut Rng) -> Range<Date> {
        let anchor = stored_value(&self.deal_dates, rng).unwrap_or(0);
        match rng.weighted(&[0.5, 0.3, 0.2]) {
            0 => {
                let half = [45, 90, 182, 365, 547][rng.index(5)];
                Range {
                    min: Some(Date(anchor - half)),
                    max: Some(Date(anchor + half)),
                }
            }
            1 => Range {
                min: Some(Date(anchor)),
                max: None,
            },
            _ => Range {
                min: None,
                max: Some(Date(anchor)),
            },
        }
    }
}

/// Location permalink → `COUNTRY`, `CITY`, … from the catalog's cards.
fn location_types(index: &Index) -> HashMap<String, String> {
    (0..index.catalog.locations as u32)
        .filter_map(|i| {
            let card = index.catalog.location_cards.get(i).ok()?;
            serde_json::from_slice::<LocationCard>(&card).ok()
        })
        .map(|card| (card.permalink, card.location_type))
        .collect()
}

/// Every value of facet `field` with its number of docs (values without docs dropped).
fn facet_values(kind: &Kind, field: &str) -> Result<Vec<(String, u64)>, IndexError> {
    let facet = kind.facet(field)?;
    let mut out = Vec::with_capacity(facet.len());
    for i in 0..facet.len() {
        let docs = facet.docids_at(i)?.len();
        if docs > 0 {
            out.push((facet.value(i).to_string(), docs));
        }
    }
    Ok(out)
}

/// The round facet `field` as round keys (`SEED/pre/ext` → SEED, pre, extension).
fn round_values(kind: &Kind, field: &str) -> Result<Vec<(RoundKey, u64)>, IndexError> {
    Ok(facet_values(kind, field)?
        .into_iter()
        .filter_map(|(v, docs)| round_key(&v).map(|k| (k, docs)))
        .collect())
}

fn round_key(facet_value: &str) -> Option<RoundKey> {
    let mut parts = facet_value.split('/');
    let round_type = RoundType::parse(parts.next()?)?;
    let flags: Vec<&str> = parts.collect();
    Some(RoundKey {
        round_type,
        pre: flags.contains(&"pre"),
        extension: flags.contains(&"ext"),
    })
}

/// The value of a random doc that has one (64 tries).
fn stored_value<T: fundsearch::index::column::ColumnValue>(
    column: &Column<T>,
    rng: &mut Rng,
) -> Option<T> {
    let docs = column.values().len();
    (0..64).find_map(|_| column.get(rng.index(docs) as u32))
}

/// Two significant digits (`1_234_567` → `1_200_000`).
fn round_money(v: f64) -> f64 {
    if v < 1.0 {
        return 1.0;
    }
    let unit = 10f64.powi(v.log10().floor() as i32 - 1).max(1.0);
    (v / unit).round() * unit
}

// ---------------------------------------------------------------- pages and sorts

/// C1 / C2 paging: page 0 (80 %) or 1–40; page size 25, or 100–500 (10 %).
fn discovery_page(rng: &mut Rng) -> PageRequest {
    let page = if rng.chance(0.8) {
        0
    } else {
        rng.range(1, 40) as usize
    };
    let page_size = if rng.chance(0.9) {
        25
    } else {
        100 * rng.range(1, 5) as usize
    };
    PageRequest { page, page_size }
}

/// C3–C5 paging: page 0 (80 %) or 1–4, page size 25.
fn first_pages(rng: &mut Rng) -> PageRequest {
    let page = if rng.chance(0.8) {
        0
    } else {
        rng.range(1, 4) as usize
    };
    PageRequest {
        page,
        page_size: 25,
    }
}

/// C1 sorts and their shares.
const COMPANY_SORTS: [(CompanySort, f64); 8] = [
    (CompanySort::MostRecentRaise, 0.50),
    (CompanySort::LargestTotalRaise, 0.15),
    (CompanySort::SmallestTotalRaise, 0.05),
    (CompanySort::LargestValuation, 0.10),
    (CompanySort::OldestRaise, 0.05),
    (CompanySort::MostRecentFounded, 0.05),
    (CompanySort::MostFundingRounds, 0.05),
    (CompanySort::MostInvestors, 0.05),
];

/// One value of `table`, drawn by its weight.
fn pick_weighted<S: Copy>(table: &[(S, f64)], rng: &mut Rng) -> S {
    let weights: Vec<f64> = table.iter().map(|&(_, w)| w).collect();
    table[rng.weighted(&weights)].0
}

// ---------------------------------------------------------------- classes

/// C1: company discovery.
fn companies_discovery(v: &Vocab, rng: &mut Rng) -> Request {
    let mut q = CompaniesQuery::default();
    while !q.company.is_set() && !q.latest_deal.is_set() {
        if rng.chance(0.7) {
            q.company.locations = Some(v.locations(rng));
        }
        if rng.chance(0.6) {
            v.industries_or_super(rng, &mut q.company);
        }
        q.latest_deal.deal = deal_filter(v, Rounds::Latest, [0.5, 0.4, 0.4], rng);
        if rng.chance(0.3) {
            q.company.employee_count = Some(v.headcounts.pick_some(rng, 3));
        }
    }
    q.sort = pick_weighted(&COMPANY_SORTS, rng);
    q.page = discovery_page(rng);
    Request::Companies(q)
}

/// Where a deal filter draws its round types and amounts: rounds
/// themselves, or companies' latest rounds.
#[derive(Clone, Copy)]
enum Rounds {
    Deals,
    Latest,
}

/// A deal filter with round types, size and date ranges, each present
/// with its probability `p = [rounds, size, date]`.
fn deal_filter(v: &Vocab, rounds: Rounds, p: [f64; 3], rng: &mut Rng) -> DealFilter {
    let (types, sizes) = match rounds {
        Rounds::Deals => (&v.deal_rounds, &v.deal_sizes),
        Rounds::Latest => (&v.latest_rounds, &v.latest_sizes),
    };
    let mut d = DealFilter::default();
    if rng.chance(p[0]) {
        d.financing_types = Some(types.pick_some(rng, 3));
    }
    if rng.chance(p[1]) {
        d.size = v.money_range(sizes, rng);
    }
    if rng.chance(p[2]) {
        d.date = v.date_range(rng);
    }
    d
}

/// C2: rounds, newest first.
fn deals_search(v: &Vocab, rng: &mut Rng) -> Request {
    let mut q = DealsQuery::default();
    while !q.company.is_set() && !q.deal.is_set() {
        if rng.chance(0.6) {
            q.company.locations = Some(v.locations(rng));
        }
        if rng.chance(0.5) {
            v.industries_or_super(rng, &mut q.company);
        }
        q.deal = deal_filter(v, Rounds::Deals, [0.6, 0.4, 0.5], rng);
    }
    q.sort = DealSort::MostRecentDeal;
    q.page = discovery_page(rng);
    Request::Deals(q)
}

/// C3: firms by their portfolio, most matching deals first.
fn investor_firms(v: &Vocab, rng: &mut Rng) -> Request {
    let mut p = PortfolioFilter::default();
    while !p.company.is_set() && !p.deal.is_set() {
        if rng.chance(0.8) {
            v.industries_or_super(rng, &mut p.company);
        }
        p.deal = deal_filter(v, Rounds::Deals, [0.6, 0.0, 0.7], rng);
    }
    let q = InvestorsQuery {
        portfolio: Some(p),
        sort: InvestorSort::MatchingDeals,
        page: first_pages(rng),
        ..Default::default()
    };
    Request::Investors(q)
}

/// C4: people by the deals they invested in.
fn people_investor_mode(v: &Vocab, rng: &mut Rng) -> Request {
    let types = [
        (InvestmentType::All, 0.7),
        (InvestmentType::Angel, 0.15),
        (InvestmentType::Institutional, 0.15),
    ];
    let mut d = PersonDealsFilter {
        investment_type: pick_weighted(&types, rng),
        only_lead_deals: rng.chance(0.5),
        min_matching_deals: Some(rng.range(2, 4) as u32),
        ..Default::default()
    };
    while !d.deal.is_set() && !d.portfolio.is_set() {
        d.deal = deal_filter(v, Rounds::Deals, [0.6, 0.2, 0.7], rng);
        if rng.chance(0.5) {
            v.industries_or_super(rng, &mut d.portfolio);
        }
        if rng.chance(0.3) {
            d.portfolio.locations = Some(v.locations(rng));
        }
    }
    let investor = InvestorPersonFilter {
        deals: Some(d),
        ..Default::default()
    };
    let q = PeopleQuery {
        investor: Some(investor),
        sort: PersonSort::FilteredDealCount,
        page: first_pages(rng),
        ..Default::default()
    };
    Request::People(q)
}

/// C5: founders / CEOs of companies by place and latest round.
fn people_company_mode(v: &Vocab, rng: &mut Rng) -> Request {
    let roles = [
        (vec![PersonRole::Founder], 0.5),
        (vec![PersonRole::Ceo], 0.2),
        (vec![PersonRole::Founder, PersonRole::Ceo], 0.3),
    ];
    let weights: Vec<f64> = roles.iter().map(|(_, w)| *w).collect();
    let mut q = PeopleQuery::default();
    q.person.roles = Some(roles[rng.weighted(&weights)].0.clone());
    let mut employer = EmployerFilter::default();
    employer.company.locations = Some(v.locations(rng));
    employer.latest_deal.deal = deal_filter(v, Rounds::Latest, [0.6, 0.4, 0.5], rng);
    q.company = Some(employer);
    let sorts = [
        (PersonSort::MostRecentDealDate, 0.6),
        (PersonSort::TotalRaised, 0.2),
        (PersonSort::LatestDealSize, 0.2),
    ];
    q.sort = pick_weighted(&sorts, rng);
    q.page = first_pages(rng);
    Request::People(q)
}

/// Selective (Q3): identifier batches (company ids 35 %, company domains
/// 20 %, deal ids 15 %) or a rare combination (30 %).
fn selective(index: &Index, v: &Vocab, rng: &mut Rng) -> Result<Request, String> {
    let batch = rng.range(1, 50) as usize;
    let whole = PageRequest {
        page: 0,
        page_size: batch,
    };
    Ok(match rng.weighted(&[0.35, 0.2, 0.15, 0.3]) {
        0 => {
            let ids = (0..batch)
                .map(|_| {
                    index
                        .companies
                        .ids
                        .uuid(rng.index(index.companies.docs) as u32)
                })
                .collect();
            let identifiers = OrgIdentifiers {
                ids,
                ..Default::default()
            };
            Request::Companies(CompaniesQuery {
                identifiers: Some(identifiers),
                page: whole,
                ..Default::default()
            })
        }
        1 => {
            let identifiers = OrgIdentifiers {
                domains: company_domains(index, batch, rng)?,
                ..Default::default()
            };
            Request::Companies(CompaniesQuery {
                identifiers: Some(identifiers),
                page: whole,
                ..Default::default()
            })
        }
        2 => {
            let ids = (0..batch)
                .map(|_| index.deals.ids.uuid(rng.index(index.deals.docs) as u32))
                .collect();
            Request::Deals(DealsQuery {
                deal_ids: Some(ids),
                page: whole,
                ..Default::default()
            })
        }
        _ => {
            let mut q = CompaniesQuery::default();
            q.company.locations = Some(vec![v.rare_cities.pick(rng)]);
            q.company.industries = Some(vec![v.industries.pick(rng)]);
            if rng.chance(0.5) {
                q.latest_deal.deal.financing_types = Some(vec![v.latest_rounds.pick(rng)]);
            }
            q.page = PageRequest {
                page: 0,
                page_size: 25,
            };
            Request::Companies(q)
        }
    })
}

/// `n` domain keys of random companies that have a domain.
fn company_domains(index: &Index, n: usize, rng: &mut Rng) -> Result<Vec<String>, String> {
    let mut out = Vec::with_capacity(n);
    for _ in 0..100 * n {
        if out.len() == n {
            break;
        }
        let doc = rng.index(index.companies.docs) as u32;
        if let Some(key) = Entity::Company
            .card(index, doc)?
            .domain
            .as_deref()
            .and_then(domain_key)
        {
            out.push(key);
        }
    }
    Ok(out)
}
