//! Every endpoint this server serves under `/v1`, declared once
//! (reference §5–§9). Parameter lists, prices, answers and error codes
//! live here and nowhere else.

use super::bodies;
use super::codes::Code;
use super::endpoint::*;
use super::field::{f, Field, Ty};
use super::paging::{PAGE, PAGE_SIZE};
use crate::accounts::Plan;
use crate::schema::{IndustryType, LocationType};

const ID: Field = f("id", Ty::Uuid, "The entity's id (UUID).");
const DOMAIN: Field = f(
    "domain",
    Ty::Identifier,
    "A domain or website URL (reduced to its domain).",
);
const ORG_LINKEDIN: Field = f("linkedin", Ty::Identifier, "A LinkedIn company URL.");
const ORG_CRUNCHBASE: Field = f(
    "crunchbase",
    Ty::Identifier,
    "A Crunchbase organization URL.",
);
const PERSON_LINKEDIN: Field = f(
    "linkedin",
    Ty::Identifier,
    "A LinkedIn profile URL or slug.",
);
const PERSON_CRUNCHBASE: Field = f(
    "crunchbase",
    Ty::Identifier,
    "A Crunchbase person URL or slug.",
);
const TWITTER: Field = f("twitter", Ty::Identifier, "A Twitter/X URL or handle.");
const NAME: Field = f(
    "name",
    Ty::Text,
    "A name, matched fuzzily (typos, prefixes, word order, accents).",
);
/// Largest `limit` of the location and industry lookups.
pub const MAX_LOOKUP_LIMIT: u64 = 50;
const LIMIT: Field = f(
    "limit",
    Ty::Int {
        min: 1,
        max: MAX_LOOKUP_LIMIT,
    },
    "Most rows returned (an extension of this server).",
)
.default("10");
const DEAL_ID: Field = f("id", Ty::Uuid, "The deal's id (UUID).").required();

const ORG_IDENTIFIER: &[Field] = &[ID, DOMAIN, ORG_LINKEDIN, ORG_CRUNCHBASE];
const PERSON_IDENTIFIER: &[Field] = &[ID, PERSON_LINKEDIN, PERSON_CRUNCHBASE, TWITTER];
const ORG_HISTORY: &[Field] = &[ID, DOMAIN, ORG_LINKEDIN, ORG_CRUNCHBASE, PAGE, PAGE_SIZE];
const PERSON_HISTORY: &[Field] = &[
    ID,
    PERSON_LINKEDIN,
    PERSON_CRUNCHBASE,
    TWITTER,
    PAGE,
    PAGE_SIZE,
];
const ORG_SEARCH: &[Field] = &[NAME, DOMAIN, ORG_LINKEDIN, ORG_CRUNCHBASE];

const RELEVANCE: &[Extra] = &[Extra::Number(
    "relevance_score",
    "How well the row matches: 1 for an identifier match, (0, 1] for a name.",
)];
const SIMILARITY: &[Extra] = &[Extra::Number(
    "similarity",
    "Cosine similarity to `company.search_query`; null without one.",
)];
const FILTERED_FIRM: &[Extra] = &[
    Extra::Count(
        "filtered_deal_count",
        "Deals matching `company_investments`; null without it.",
    ),
    Extra::Count(
        "filtered_lead_count",
        "Of those, deals the firm led; null without it.",
    ),
];
const FILTERED_PERSON: &[Extra] = &[
    Extra::Count(
        "filtered_deal_count",
        "Deals matching `investor.deals`; null without it.",
    ),
    Extra::Count(
        "filtered_lead_count",
        "Of those, deals the person led; null without it.",
    ),
    Extra::DateTime(
        "filtered_most_recent_date",
        "The newest of those deals; null without it.",
    ),
];

const ORG_HISTORY_ERRORS: &[Code] = &[
    Code::MissingIdentifier,
    Code::MultipleIdentifiers,
    Code::InvalidParameter,
    Code::InvalidDomain,
    Code::InvalidLinkedinUrl,
    Code::InvalidCrunchbaseUrl,
    Code::InvalidPage,
    Code::InvalidPageSize,
    Code::NotFound,
];
const ORG_SEARCH_ERRORS: &[Code] = &[
    Code::MissingSearchParams,
    Code::MultipleSearchParams,
    Code::EmptySearchTerm,
    Code::InvalidDomain,
    Code::InvalidLinkedinUrl,
    Code::InvalidCrunchbaseUrl,
    Code::ValidationError,
];
const SEMANTIC_ERRORS: &[Code] = &[
    Code::ValidationError,
    Code::UnknownParameter,
    Code::UsageLimitExceeded,
    Code::SemanticSearchUnavailable,
];

/// A free lookup or a detail GET with the defaults most endpoints share.
const GET: Endpoint = Endpoint {
    id: "",
    method: "GET",
    path: "",
    tag: "",
    summary: "",
    description: "",
    cost: Cost::PerCall(1),
    gating: Gating::Open,
    path_params: &[],
    input: Input::Query(&[], UnknownParams::Validation),
    output: Output::Lineup,
    meta: MetaShape::Detail,
    invalid: Code::ValidationError,
    errors: &[],
    status_code: false,
    extension: false,
};

/// A collection search.
const POST: Endpoint = Endpoint {
    method: "POST",
    cost: Cost::PerRow,
    meta: MetaShape::List,
    errors: SEMANTIC_ERRORS,
    ..GET
};

pub const LOCATION_SEARCH: Endpoint = Endpoint {
    id: "searchLocations",
    path: "/v1/location/search",
    tag: "Lookups",
    summary: "Location permalinks by name",
    description: "Resolves a place name to the location permalinks the search filters take. `type` and `location_type` are the same filter; give one.",
    cost: Cost::Free,
    input: Input::Query(
        &[
            NAME.required(),
            f("type", Ty::Enum(LocationType::SPELLINGS), "Only locations of this type."),
            f("location_type", Ty::Enum(LocationType::SPELLINGS), "An alias of `type`."),
            LIMIT,
        ],
        UnknownParams::Validation,
    ),
    output: Output::List("locations", Record::LocationCard, &[]),
    meta: MetaShape::Paged,
    errors: &[
        Code::MissingSearchParams,
        Code::InvalidLocationType,
        Code::MultipleLocationTypeParams,
        Code::ValidationError,
    ],
    status_code: true,
    ..GET
};

pub const INDUSTRY_SEARCH: Endpoint = Endpoint {
    id: "searchIndustries",
    path: "/v1/industry/search",
    summary: "Industry and super-category permalinks by name",
    description: "Resolves an industry name to the industry and super-category permalinks the search filters take. `type` and `industry_type` are the same filter; give one.",
    input: Input::Query(
        &[
            NAME.required(),
            f("type", Ty::Enum(IndustryType::SPELLINGS), "Only industries of this type."),
            f("industry_type", Ty::Enum(IndustryType::SPELLINGS), "An alias of `type`."),
            LIMIT,
        ],
        UnknownParams::Validation,
    ),
    output: Output::List("industries", Record::IndustryCard, &[]),
    errors: &[
        Code::MissingSearchParams,
        Code::InvalidIndustryType,
        Code::MultipleIndustryTypeParams,
        Code::ValidationError,
    ],
    ..LOCATION_SEARCH
};

pub const COMPANY_SEARCH: Endpoint = Endpoint {
    id: "searchCompanies",
    path: "/v1/company/search",
    tag: "Companies",
    summary: "Resolve a company by name, domain, LinkedIn or Crunchbase URL",
    description: "Exactly one of `name` (fuzzy, up to 10 candidates scored in (0, 1]), `domain`, `linkedin` or `crunchbase` (exact, scored 1).",
    cost: Cost::Free,
    input: Input::Query(ORG_SEARCH, UnknownParams::Validation),
    output: Output::List("companies", Record::CompanyCard, RELEVANCE),
    meta: MetaShape::List,
    errors: ORG_SEARCH_ERRORS,
    ..GET
};

pub const INVESTOR_SEARCH: Endpoint = Endpoint {
    id: "searchInvestors",
    path: "/v1/investor/search",
    tag: "Investors",
    summary: "Resolve an investor firm by name, domain, LinkedIn or Crunchbase URL",
    output: Output::List("investors", Record::FirmCard, RELEVANCE),
    ..COMPANY_SEARCH
};

pub const PERSON_SEARCH: Endpoint = Endpoint {
    id: "searchPeople",
    path: "/v1/person/search",
    tag: "People",
    summary: "Resolve a person by name or identifier",
    description: "Exactly one of `name` (fuzzy, up to 10), `id`, `linkedin`, `crunchbase` or `twitter`; `person_type` keeps investors (and angels) or non-investors only.",
    cost: Cost::Free,
    input: Input::Query(
        &[
            NAME,
            ID,
            PERSON_LINKEDIN,
            PERSON_CRUNCHBASE,
            TWITTER,
            f("person_type", Ty::Enum(&["investor", "company"]), "Only investors, or only non-investors."),
        ],
        UnknownParams::Validation,
    ),
    output: Output::List("people", Record::PersonCard, &[]),
    meta: MetaShape::CountOnly,
    errors: &[
        Code::MissingSearchParams,
        Code::MultipleSearchParams,
        Code::InvalidId,
        Code::ValidationError,
    ],
    ..GET
};

pub const COMPANY: Endpoint = Endpoint {
    id: "getCompany",
    path: "/v1/company",
    tag: "Companies",
    summary: "A company with its latest round",
    description: "Exactly one of `id`, `domain`, `linkedin` or `crunchbase`. An identifier shared by several companies answers with the most recently active one.",
    input: Input::Query(ORG_IDENTIFIER, UnknownParams::Validation),
    output: Output::One("company", Record::Company, SIMILARITY),
    errors: &[Code::MissingIdentifier, Code::CompanyNotFound, Code::ValidationError],
    ..GET
};

pub const INVESTOR: Endpoint = Endpoint {
    id: "getInvestor",
    path: "/v1/investor",
    tag: "Investors",
    summary: "An investor firm's profile",
    description: "Exactly one of `id`, `domain`, `linkedin` or `crunchbase`.",
    output: Output::One("investor", Record::Investor, &[]),
    errors: &[Code::InvestorNotFound, Code::ValidationError],
    ..COMPANY
};

pub const PERSON: Endpoint = Endpoint {
    id: "getPerson",
    path: "/v1/person",
    tag: "People",
    summary: "A person with their full histories",
    description: "Exactly one of `id`, `linkedin`, `crunchbase` or `twitter`.",
    input: Input::Query(PERSON_IDENTIFIER, UnknownParams::Validation),
    output: Output::One("person", Record::Person, FILTERED_PERSON),
    invalid: Code::InvalidIdentifier,
    errors: &[
        Code::MissingIdentifier,
        Code::InvalidIdentifier,
        Code::PersonNotFound,
        Code::ValidationError,
    ],
    ..GET
};

pub const DEAL: Endpoint = Endpoint {
    id: "getDeal",
    path: "/v1/deals/{id}",
    tag: "Deals",
    summary: "One funding round",
    description: "Takes no query parameters.",
    path_params: &[DEAL_ID],
    input: Input::Query(&[], UnknownParams::NoneAllowed),
    output: Output::One("deal", Record::Deal, &[]),
    invalid: Code::InvalidDealId,
    errors: &[
        Code::InvalidDealId,
        Code::InvalidParameters,
        Code::DealNotFound,
    ],
    status_code: true,
    ..GET
};

pub const DEAL_INVESTORS: Endpoint = Endpoint {
    id: "getDealInvestors",
    path: "/v1/deals/{id}/investors",
    tag: "Deals",
    summary: "A round's investors: firms (lead first) with their partners, and angels",
    description: "",
    path_params: &[DEAL_ID],
    output: Output::Lineup,
    errors: &[Code::ValidationError, Code::DealNotFound],
    ..GET
};

pub const COMPANY_DEALS: Endpoint = Endpoint {
    id: "getCompanyDeals",
    path: "/v1/company/deals",
    tag: "Companies",
    summary: "A company's funding history, newest first",
    description: "One of `id`, `domain`, `linkedin` or `crunchbase`; an identifier matching several companies returns the deals of all of them.",
    cost: Cost::PerRow,
    input: Input::Query(ORG_HISTORY, UnknownParams::InvalidParameter),
    output: Output::List("deals", Record::Deal, &[]),
    meta: MetaShape::List,
    invalid: Code::InvalidParameter,
    errors: ORG_HISTORY_ERRORS,
    ..GET
};

pub const INVESTOR_DEALS: Endpoint = Endpoint {
    id: "getInvestorDeals",
    path: "/v1/investor/deals",
    tag: "Investors",
    summary: "A firm's deals, newest first",
    description: "One of `id`, `domain`, `linkedin` or `crunchbase`; an identifier matching several firms returns the deals of all of them.",
    ..COMPANY_DEALS
};

pub const PERSON_DEALS: Endpoint = Endpoint {
    id: "getPersonDeals",
    path: "/v1/person/deals",
    tag: "People",
    summary: "The deals a person invested in (as an angel or leading for a firm), newest first",
    description: "One of `id`, `linkedin`, `crunchbase` or `twitter`.",
    input: Input::Query(PERSON_HISTORY, UnknownParams::Validation),
    invalid: Code::ValidationError,
    errors: &[
        Code::MissingIdentifier,
        Code::InvalidId,
        Code::ValidationError,
        Code::PersonNotFound,
    ],
    ..COMPANY_DEALS
};

pub const COMPANIES: Endpoint = Endpoint {
    id: "searchCompanyCollection",
    path: "/v1/companies",
    tag: "Companies",
    summary: "Company discovery: facets, identifiers, latest round, investors, semantic search",
    description: "Every block narrows the result (AND); lists inside a block are unions (OR). `company.search_query` ranks by meaning and adds `similarity`.",
    input: Input::Body(bodies::COMPANIES),
    output: Output::List("companies", Record::Company, SIMILARITY),
    ..POST
};

pub const DEALS: Endpoint = Endpoint {
    id: "searchDeals",
    path: "/v1/deals",
    tag: "Deals",
    summary: "Funding rounds by round, company and investor facets",
    description: "Every block narrows the result (AND); lists inside a block are unions (OR).",
    input: Input::Body(bodies::DEALS),
    output: Output::List("deals", Record::Deal, &[]),
    errors: &[Code::ValidationError, Code::UnknownParameter],
    ..POST
};

pub const INVESTORS: Endpoint = Endpoint {
    id: "searchInvestorCollection",
    path: "/v1/investors",
    tag: "Investors",
    summary: "Investor firms by firm facets and by the deals they made",
    description: "`company_investments` keeps firms with portfolio deals matching it and fills the `filtered_*` keys.",
    input: Input::Body(bodies::INVESTORS),
    output: Output::List("investors", Record::Investor, FILTERED_FIRM),
    ..POST
};

pub const PEOPLE: Endpoint = Endpoint {
    id: "searchPeopleCollection",
    path: "/v1/people",
    tag: "People",
    summary: "Founders, employees and investors by person, employer and deal facets",
    description: "Unknown keys answer 422 `UNKNOWN_PARAMETER` with `unknownParameters` and `allowedParameters` (the people form).",
    input: Input::Body(bodies::PEOPLE),
    output: Output::List("people", Record::Person, FILTERED_PERSON),
    ..POST
};

pub const PERSON_EMAIL: Endpoint = Endpoint {
    id: "unlockPersonEmail",
    path: "/v1/person/email",
    tag: "People",
    summary: "Unlock a person's verified e-mail",
    description: "One of `id`, `linkedin`, `crunchbase` or `twitter`; given several, the first non-empty one in that order is used. The unlock belongs to the user and carries over to all of their keys. The e-mail appears in no other response.",
    cost: Cost::Unlock(5),
    gating: Gating::Plans {
        plans: &[Plan::ProPlus, Plan::Enterprise, Plan::Api],
        code: Code::UpgradeRequired,
        feature: "Email unlocks",
    },
    input: Input::Query(PERSON_IDENTIFIER, UnknownParams::Validation),
    output: Output::Inline(Record::PersonEmail),
    invalid: Code::InvalidIdentifier,
    errors: &[
        Code::MissingIdentifier,
        Code::InvalidId,
        Code::InvalidIdentifier,
        Code::PersonNotFound,
        Code::EmailNotFound,
    ],
    status_code: true,
    ..GET
};

/// Longest `alert_ids` list of `GET /alerts`.
pub const MAX_ALERT_IDS: usize = 10;

/// Who may use the alert endpoints (reference §10).
const ALERT_PLANS: Gating = Gating::Plans {
    plans: &[Plan::ProPlus, Plan::Enterprise, Plan::Api],
    code: Code::ApiTierRequired,
    feature: "Alerts",
};

/// An alert endpoint: free, plan-gated, `statusCode` on errors, unknown
/// query parameters 422.
const ALERT: Endpoint = Endpoint {
    tag: "Alerts",
    cost: Cost::Free,
    gating: ALERT_PLANS,
    input: Input::Query(&[], UnknownParams::Unprocessable),
    meta: MetaShape::Batch,
    status_code: true,
    ..GET
};

pub const ALERTS: Endpoint = Endpoint {
    id: "getAlerts",
    path: "/v1/alerts",
    summary: "Deals matching saved alerts in a date range",
    description: "For each alert (at most 10, all the caller's), the deals of the range that match its filters, newest first and without duplicates, each with the reasoning for the match; alerts without a match in the range are left out. The range is whole UTC days: a deal dated on the start instant's day or the end instant's day is in it. At most 250 deals per alert are listed; `totalDealCount` counts them all. `total_round_raised` is in millions of USD, as the reference documents for alerts. `meta.page_size` is the number of alerts asked for.",
    input: Input::Query(
        &[
            f("alert_ids", Ty::Str, "Comma-separated alert configuration ids (UUIDs), at most 10.").required(),
            f("start_date", Ty::DateTime, "Deals from this instant's UTC day on (ISO 8601, `2024-01-01T00:00:00.000Z`).").required(),
            f("end_date", Ty::DateTime, "Deals up to this instant's UTC day (ISO 8601); at most one year after `start_date`, not in the future.").required(),
        ],
        UnknownParams::Unprocessable,
    ),
    output: Output::List("alerts", Record::Alert, &[]),
    invalid: Code::ValidationError,
    errors: &[
        Code::MissingParameters,
        Code::InvalidAlertId,
        Code::TooManyAlertIds,
        Code::InvalidDateFormat,
        Code::InvalidDateRange,
        Code::DateRangeTooLarge,
        Code::FutureDate,
        Code::AlertNotFound,
        Code::UnknownParameter,
        Code::ValidationError,
        Code::UsageLimitExceeded,
        Code::SemanticSearchUnavailable,
    ],
    ..ALERT
};

pub const ALERT_CONFIGURATIONS: Endpoint = Endpoint {
    id: "getAlertConfigurations",
    path: "/v1/alerts/configurations",
    summary: "The caller's alert configurations",
    description: "Every alert configuration of the caller's user (all of their keys), oldest first, without paging. `meta.page_size` is the number returned.",
    output: Output::List("configurations", Record::AlertConfiguration, &[]),
    errors: &[Code::UnknownParameter, Code::ValidationError],
    ..ALERT
};

pub const CREATE_ALERT_CONFIGURATION: Endpoint = Endpoint {
    id: "createAlertConfiguration",
    method: "POST",
    path: "/v1/alerts/configurations",
    summary: "Save an alert configuration",
    description: "Saves an alert configuration for the caller's user and returns it with its new `configuration_id`. The filters are validated like a `/deals` body (same codes); round types are labels such as `Series A`. At most 100 configurations per user (409 `ALERT_LIMIT_REACHED`). Also available to operators as `server alerts create`.",
    input: Input::Body(bodies::ALERT_CONFIGURATION),
    output: Output::One("configuration", Record::AlertConfiguration, &[]),
    errors: &[Code::ValidationError, Code::UnknownParameter, Code::AlertLimitReached],
    extension: true,
    ..ALERT
};

pub const DELETE_ALERT_CONFIGURATION: Endpoint = Endpoint {
    id: "deleteAlertConfiguration",
    method: "DELETE",
    path: "/v1/alerts/configurations/{id}",
    summary: "Delete an alert configuration",
    description: "Deletes one of the caller's alert configurations and returns it. Another user's configuration is answered as not found.",
    path_params: &[f("id", Ty::Uuid, "The configuration's id.").required()],
    output: Output::One("configuration", Record::AlertConfiguration, &[]),
    invalid: Code::InvalidAlertId,
    errors: &[Code::InvalidAlertId, Code::AlertNotFound, Code::UnknownParameter],
    extension: true,
    ..ALERT
};

/// Every endpoint, in the order of the reference.
pub const ALL: &[&Endpoint] = &[
    &DEALS,
    &DEAL,
    &DEAL_INVESTORS,
    &COMPANIES,
    &COMPANY,
    &COMPANY_DEALS,
    &COMPANY_SEARCH,
    &INVESTORS,
    &INVESTOR,
    &INVESTOR_DEALS,
    &INVESTOR_SEARCH,
    &PEOPLE,
    &PERSON,
    &PERSON_EMAIL,
    &PERSON_DEALS,
    &PERSON_SEARCH,
    &LOCATION_SEARCH,
    &INDUSTRY_SEARCH,
    &ALERTS,
    &ALERT_CONFIGURATIONS,
    &CREATE_ALERT_CONFIGURATION,
    &DELETE_ALERT_CONFIGURATION,
];
