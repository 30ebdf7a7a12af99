//! The typed requests of the four collection searches (`POST /companies`,
//! `/deals`, `/investors`, `/people`): plain data, already validated and
//! normalised by the API layer. This module is also the one statement of
//! what every filter means; the engine (`query::exec`) and the oracle tests
//! (`tests/it/oracle`) both implement exactly this.
//!
//! # General rules
//!
//! - A filter that is `None` (or an empty `Vec` of *optional* criteria) does
//!   not constrain. A present identifier list that resolved to nothing
//!   (`Some(vec![])`) matches nothing.
//! - Inside one array the values are OR'd; separate keys and blocks are
//!   AND'ed. `identifiers` blocks are one union of all their arrays.
//! - Permalinks (locations, industries, super categories) match exactly;
//!   unknown ones match nothing (spec §2.7). A location matches any entity
//!   located in it or below it (a country matches its cities). A super
//!   category matches companies having any of its industries.
//! - Ranges are inclusive on both ends. Money bounds are whole USD compared
//!   with the rounded stored amount (`size_min: 1.5` behaves as 2); an entity
//!   without the value never matches a range. Date bounds are days;
//!   `created_*` bounds cover the whole UTC day (`created_end: 2026-07-01`
//!   keeps rows created at 23:59:59.999 that day).
//! - A financing type `{type, pre, extension}` matches rounds with exactly
//!   that type and both flags (`{type: SEED}` is plain seed, not pre-seed).
//! - `total_count` counts every match; a page is `[page × page_size,
//!   (page + 1) × page_size)` of the sorted matches.
//!
//! # Sorting
//!
//! Every sort is one key with a direction, entities without a value (null)
//! last in both directions, then ties by the kind's default order (its doc
//! id order, `index::build::order`: deals by date desc, created_at desc,
//! UUID; companies by their latest deal in that order, no deal last; firms
//! and people by most recent deal date desc, none last, then UUID). So
//! paging never repeats or skips a row.
//!
//! # Joins, per endpoint
//!
//! A deal's "partner" of a firm is a person the dump names for that firm on
//! that deal (the reference's "lead partner" of an investing firm); the
//! firm "led" the deal when its participation is marked lead.
//!
//! - `/deals`: `company` filters look at the deal's company; `investors.
//!   investor_ids` keeps deals in which one of the firms took part;
//!   `investors.people_ids` keeps deals in which one of the people was an
//!   angel or a partner of a participating firm.
//! - `/companies`: `latest_deal` looks at the company's most recent deal
//!   only (none: no match); its `investor_ids` are firms of that deal.
//!   `investors` look at every deal of the company (firms; people as angel
//!   or partner).
//! - `/investors`: portfolio filters (`company_investments`) select the
//!   qualifying deals D (deal filters on the deal, company filters on its
//!   company). A firm's `filtered_deal_count` is the number of deals in D it
//!   took part in (only those it led when `only_lead_deals`), its
//!   `filtered_lead_count` the number of deals in D it led. A firm matches
//!   when that count is ≥ `min_matching_deals` (default 1). Without any
//!   portfolio key both counts are null and `matching_deals` sorts them as
//!   null (so the default order applies).
//! - `/people`:
//!   - `person_type`: `investor` = people with at least one deal (as angel
//!     or as partner of a firm); `company` = everyone else; `any` = all.
//!   - `person`: facets of the person (`roles` at the current employer).
//!   - `company` (any key present, even only `latest_deal`): the person's
//!     current employer must be a company matching every key; an
//!     employer's `investor_people_ids` match when one of those people was
//!     an angel or partner in any of its deals; `latest_deal` as on
//!     `/companies`, plus `investor_locations` = a firm of that deal is
//!     located in (or below) one of the locations.
//!   - `investor` (any key present): the person must be an investor. The
//!     firm keys (`ids`, `domains`, `linkedin_urls`, `crunchbase_urls`,
//!     `permalinks`, all one union; `locations`; `employee_count`) keep
//!     people with at least one firm (current employer firm, or a firm they
//!     were partner for) matching all of them.
//!   - `investor.deals` (present, even empty): the person's deals are those
//!     as angel (`investment_type` `angel` or `all`) and as partner of a
//!     firm (`institutional` or `all`); a deal is led by the person when
//!     the person is partner of a firm that led it. D = their deals passing
//!     the deal and portfolio-company filters (and, with `only_lead_deals`,
//!     led by them). `filtered_deal_count` = |D| (distinct deals),
//!     `filtered_lead_count` = deals of D they led, `filtered_most_recent_date`
//!     = latest date in D. The person matches when |D| ≥
//!     `min_matching_deals` (default 1). Without `investor.deals` the three
//!     `filtered_*` values are null.
//!   - Sort keys: `most_recent_deal_date`, `total_deal_count`,
//!     `deal_count_last_12_months`, `lead_deal_count`,
//!     `lead_deal_count_last_12_months` are the person's own investor
//!     statistics (0 / null for non-investors); `total_raised` and
//!     `latest_deal_size` are those of the current employer company (null
//!     without one); `name` is ascending by folded name; `filtered_deal_count`
//!     as above (null without `investor.deals`). All but `name` descend.

use uuid::Uuid;

use crate::schema::enums::wire_enum;
use crate::schema::{Date, Headcount, IpoStatus, PersonRole, RoundKey};

/// Inclusive bounds; `None` is open.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Range<T> {
    pub min: Option<T>,
    pub max: Option<T>,
}

impl<T> Default for Range<T> {
    fn default() -> Self {
        Range {
            min: None,
            max: None,
        }
    }
}

impl<T> Range<T> {
    pub fn is_set(&self) -> bool {
        self.min.is_some() || self.max.is_some()
    }
}

/// A page of results.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageRequest {
    pub page: usize,
    pub page_size: usize,
}

impl Default for PageRequest {
    fn default() -> Self {
        PageRequest {
            page: 0,
            page_size: 10,
        }
    }
}

/// Filters on a company (the deal's company, a portfolio company, an employer).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CompanyFilter {
    pub ids: Option<Vec<Uuid>>,
    pub locations: Option<Vec<String>>,
    pub industries: Option<Vec<String>>,
    pub super_categories: Option<Vec<String>>,
    pub employee_count: Option<Vec<Headcount>>,
    pub ipo_status: Option<Vec<IpoStatus>>,
    /// Whole USD.
    pub total_raised: Range<f64>,
}

impl CompanyFilter {
    pub fn is_set(&self) -> bool {
        self.ids.is_some()
            || self.locations.is_some()
            || self.industries.is_some()
            || self.super_categories.is_some()
            || self.employee_count.is_some()
            || self.ipo_status.is_some()
            || self.total_raised.is_set()
    }
}

/// Filters on one deal (round).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DealFilter {
    pub financing_types: Option<Vec<RoundKey>>,
    /// Whole USD.
    pub size: Range<f64>,
    pub date: Range<Date>,
    /// Days; each bound covers its whole UTC day.
    pub created: Range<Date>,
}

impl DealFilter {
    pub fn is_set(&self) -> bool {
        self.financing_types.is_some()
            || self.size.is_set()
            || self.date.is_set()
            || self.created.is_set()
    }
}

/// Investors anywhere in a company's (or a deal's) rounds.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct InvestorsFilter {
    /// Firms.
    pub investor_ids: Option<Vec<Uuid>>,
    /// People, as angel or as partner of a participating firm.
    pub people_ids: Option<Vec<Uuid>>,
}

impl InvestorsFilter {
    pub fn is_set(&self) -> bool {
        self.investor_ids.is_some() || self.people_ids.is_some()
    }
}

/// A semantic search key (`search_query`, `min_relevance`).
///
/// The query text is embedded before the search runs (`vector`, set by
/// the caller through `query::semantic::embed_query`; a search whose
/// vector is missing fails as unavailable). Its meaning, and how the cap
/// of 150 and the other filters compose, is stated in `query::semantic`.
#[derive(Debug, Clone, PartialEq)]
pub struct Semantic {
    pub query: String,
    pub min_relevance: f64,
    pub vector: Option<crate::query::semantic::QueryVector>,
}

/// Organisation identifiers (companies, firms), normalised to index keys;
/// values that are not valid identifiers are already dropped. One union.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct OrgIdentifiers {
    pub ids: Vec<Uuid>,
    /// `domain_key` form. A value sent with a leading `www.` is kept as is
    /// and so matches nothing (observed behaviour of the hosted API).
    pub domains: Vec<String>,
    /// `linkedin_key` form (`company/stripe`).
    pub linkedin: Vec<String>,
    /// `crunchbase_key` form (`organization/stripe`).
    pub crunchbase: Vec<String>,
    /// Firm permalinks (`/investors` and `/people` `investor` only).
    pub permalinks: Vec<String>,
}

/// Person identifiers, normalised to index keys; one union.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PersonIdentifiers {
    pub ids: Vec<Uuid>,
    /// `linkedin_key` form (`in/eladgil`).
    pub linkedin: Vec<String>,
    /// `crunchbase_key` form (`person/elad-gil`).
    pub crunchbase: Vec<String>,
    /// `twitter_key` form (lowercase handle).
    pub twitter: Vec<String>,
}

// ---------------------------------------------------------------- /deals

wire_enum!(
    /// `sort_by` of `/deals`: doc id order; `date` ascending; `size` descending; `size` ascending.
    #[derive(Default)]
    DealSort {
        #[default]
        MostRecentDeal => "most_recent_deal",
        OldestDeal => "oldest_deal",
        LargestRaise => "largest_raise",
        SmallestRaise => "smallest_raise",
    }
);

#[derive(Debug, Clone, PartialEq, Default)]
pub struct DealsQuery {
    /// `identifiers.deal_ids`.
    pub deal_ids: Option<Vec<Uuid>>,
    pub deal: DealFilter,
    /// `company.company_ids` is `company.ids`.
    pub company: CompanyFilter,
    pub investors: InvestorsFilter,
    pub sort: DealSort,
    pub page: PageRequest,
}

// ---------------------------------------------------------------- /companies

wire_enum!(
    /// `sort_by` of `/companies` (the first, the default, is doc id order: latest deal newest first).
    #[derive(Default)]
    CompanySort {
        #[default]
        MostRecentRaise => "most_recent_raise",
        OldestRaise => "oldest_raise",
        MostRecentFounded => "most_recent_founded",
        OldestFounded => "oldest_founded",
        LargestValuation => "largest_valuation",
        SmallestValuation => "smallest_valuation",
        LargestTotalRaise => "largest_total_raise",
        SmallestTotalRaise => "smallest_total_raise",
        MostFundingRounds => "most_funding_rounds",
        MostInvestors => "most_investors",
    }
);

/// `latest_deal` of `/companies` and of `/people` `company`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LatestDealFilter {
    pub deal: DealFilter,
    /// Firms of the latest deal.
    pub investor_ids: Option<Vec<Uuid>>,
    /// `/people` only: a firm of the latest deal is located here.
    pub investor_locations: Option<Vec<String>>,
}

impl LatestDealFilter {
    pub fn is_set(&self) -> bool {
        self.deal.is_set() || self.investor_ids.is_some() || self.investor_locations.is_some()
    }
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct CompaniesQuery {
    pub identifiers: Option<OrgIdentifiers>,
    pub company: CompanyFilter,
    pub semantic: Option<Semantic>,
    pub latest_deal: LatestDealFilter,
    pub investors: InvestorsFilter,
    pub sort: CompanySort,
    pub page: PageRequest,
}

// ---------------------------------------------------------------- /investors

wire_enum!(
    /// `sort_by` of `/investors` (the first, the default, is doc id order; `matching_deals` is null-last without portfolio filters).
    #[derive(Default)]
    InvestorSort {
        #[default]
        MostRecentDeal => "most_recent_deal",
        RecentDeals => "recent_deals",
        DealsLedLtm => "deals_led_ltm",
        TotalDeals => "total_deals",
        MatchingDeals => "matching_deals",
    }
);

/// `company_investments` of `/investors`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PortfolioFilter {
    /// `company_ids` is `company.ids`.
    pub company: CompanyFilter,
    /// `deal_size_*` is `deal.size`, `deal_start_date`/`deal_end_date` is `deal.date`.
    pub deal: DealFilter,
    pub semantic: Option<Semantic>,
    pub only_lead_deals: bool,
    pub min_matching_deals: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct InvestorsQuery {
    pub identifiers: Option<OrgIdentifiers>,
    /// `investor.locations` (firm HQ).
    pub locations: Option<Vec<String>>,
    /// `investor.employee_count` (firm headcount).
    pub employee_count: Option<Vec<Headcount>>,
    /// `Some` when the body has a `company_investments` object with at least one key.
    pub portfolio: Option<PortfolioFilter>,
    pub sort: InvestorSort,
    pub page: PageRequest,
}

// ---------------------------------------------------------------- /people

wire_enum!(
    /// `person_type` of `/people`.
    #[derive(Default)]
    PersonType {
        #[default]
        Any => "any",
        Company => "company",
        Investor => "investor",
    }
);

wire_enum!(
    /// `sort_by` of `/people` (the first, the default, is doc id order).
    #[derive(Default)]
    PersonSort {
        #[default]
        MostRecentDealDate => "most_recent_deal_date",
        TotalRaised => "total_raised",
        LatestDealSize => "latest_deal_size",
        Name => "name",
        TotalDealCount => "total_deal_count",
        DealCountLast12Months => "deal_count_last_12_months",
        LeadDealCount => "lead_deal_count",
        LeadDealCountLast12Months => "lead_deal_count_last_12_months",
        FilteredDealCount => "filtered_deal_count",
    }
);

wire_enum!(
    /// `investor.deals.investment_type` of `/people`.
    #[derive(Default)]
    InvestmentType {
        #[default]
        All => "all",
        Angel => "angel",
        Institutional => "institutional",
    }
);

/// `person` block of `/people`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PersonFilter {
    pub roles: Option<Vec<PersonRole>>,
    /// `linkedin`, `email`, `phone`, `twitter`.
    pub contact_types: Option<Vec<String>>,
    pub job_titles: Option<Vec<String>>,
    pub education_schools: Option<Vec<String>>,
    pub linkedin_companies: Option<Vec<String>>,
}

/// `company` block of `/people` (the current employer).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct EmployerFilter {
    /// `ids` is `company.ids`.
    pub company: CompanyFilter,
    pub semantic: Option<Semantic>,
    pub investor_people_ids: Option<Vec<Uuid>>,
    pub latest_deal: LatestDealFilter,
}

/// `investor.deals` of `/people`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PersonDealsFilter {
    pub semantic: Option<Semantic>,
    pub investment_type: InvestmentType,
    pub only_lead_deals: bool,
    pub min_matching_deals: Option<u32>,
    /// `financing_types`, `size_*`, `date_*` (no `created_*`).
    pub deal: DealFilter,
    /// `industries`, `super_categories`, `portfolio_locations` (as
    /// `locations`), `portfolio_employee_count` (as `employee_count`),
    /// `ipo_status`, `total_raised_*`.
    pub portfolio: CompanyFilter,
}

/// `investor` block of `/people`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct InvestorPersonFilter {
    /// `ids`, `domains`, `linkedin_urls`, `crunchbase_urls`, `permalinks`; `None` when none was sent.
    pub firms: Option<OrgIdentifiers>,
    pub locations: Option<Vec<String>>,
    pub employee_count: Option<Vec<Headcount>>,
    pub deals: Option<PersonDealsFilter>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct PeopleQuery {
    pub person_type: PersonType,
    pub identifiers: Option<PersonIdentifiers>,
    pub person: PersonFilter,
    /// `Some` when the body has a `company` object with at least one key.
    pub company: Option<EmployerFilter>,
    /// `Some` when the body has an `investor` object with at least one key.
    pub investor: Option<InvestorPersonFilter>,
    pub sort: PersonSort,
    pub page: PageRequest,
}

// ---------------------------------------------------------------- results

/// One page of a collection search: doc ids in order, plus the per-row
/// values computed by the query.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ResultPage {
    pub total_count: u64,
    pub docs: Vec<u32>,
    /// Per returned row (same order as `docs`), when the query computes
    /// per-row counts (`/investors` with portfolio filters, `/people` with
    /// `investor.deals`); empty otherwise.
    pub filtered: Vec<FilteredCounts>,
    /// Per returned row, the semantic relevance (0..1) when `/companies`
    /// ran a semantic search; empty otherwise.
    pub similarity: Vec<f32>,
}

/// `filtered_deal_count`, `filtered_lead_count`, `filtered_most_recent_date`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FilteredCounts {
    pub deal_count: u32,
    pub lead_count: u32,
    /// `/people` only.
    pub most_recent_date: Option<Date>,
}
