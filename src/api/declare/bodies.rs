//! The JSON bodies of the four collection searches (reference §5.1, §6.1,
//! §7.1, §8.1), declared once. The parsers in `api::body` read their keys,
//! bounds and spellings from here; the OpenAPI document's request schemas
//! are generated from here.

use super::field::{f, join, Field, Ty};
use super::paging::{PAGE, PAGE_SIZE};
use crate::query::request::{
    CompanySort, DealSort, InvestmentType, InvestorSort, PersonSort, PersonType,
};
use crate::schema::alert::Frequency;
use crate::schema::{ContactType, Headcount, IpoStatus, PersonRole};

const UUIDS: Ty = Ty::Array(&Ty::Uuid);
const IDENTIFIERS: Ty = Ty::Array(&Ty::Identifier);
const PERMALINKS: Ty = Ty::Array(&Ty::Str);
const TEXTS: Ty = Ty::Array(&Ty::Str);
const HEADCOUNTS: Ty = Ty::Array(&Ty::Enum(Headcount::SPELLINGS));
/// `ipo_status` everywhere but `/people` `company`.
const LISTED: Ty = Ty::Array(&Ty::Enum(&["public", "private"]));
const FINANCING_TYPES: Ty = Ty::Array(&Ty::FinancingType);

const SEARCH_QUERY: Field = f(
    "search_query",
    Ty::Text,
    "Semantic search: a description of the companies wanted, matched against company descriptions by meaning. Counts against the plan's monthly semantic-search ceiling.",
);
const MIN_RELEVANCE: Field = f(
    "min_relevance",
    Ty::Fraction,
    "Keep only companies at least this similar to `search_query` (0–1); ignored without `search_query`.",
)
.default("0");
const LOCATIONS: Field = f(
    "locations",
    PERMALINKS,
    "Location permalinks (see `/location/search`); a company located in any of them.",
);
const INDUSTRIES: Field = f(
    "industries",
    PERMALINKS,
    "Industry permalinks (see `/industry/search`).",
);
const SUPER_CATEGORIES: Field = f(
    "super_categories",
    PERMALINKS,
    "Super-category permalinks; each includes its industries.",
);
const EMPLOYEE_COUNT: Field = f("employee_count", HEADCOUNTS, "Headcount buckets.");
const IPO_LISTED: Field = f("ipo_status", LISTED, "Listing status.");
const TOTAL_RAISED_MIN: Field = f("total_raised_min", Ty::Money, "Least total raised, USD.");
const TOTAL_RAISED_MAX: Field = f("total_raised_max", Ty::Money, "Most total raised, USD.");
const FINANCING: Field = f(
    "financing_types",
    FINANCING_TYPES,
    "Round types, each `{type, pre?, extension?}`; Pre-Seed is `{type: SEED, pre: true}`.",
);
const SIZE_MIN: Field = f("size_min", Ty::Money, "Least round size, USD.");
const SIZE_MAX: Field = f("size_max", Ty::Money, "Most round size, USD.");
const DATE_START: Field = f("date_start", Ty::Date, "Announced on or after this day.");
const DATE_END: Field = f("date_end", Ty::Date, "Announced on or before this day.");
const CREATED_START: Field = f(
    "created_start",
    Ty::Date,
    "Added to the data on or after this day.",
);
const CREATED_END: Field = f(
    "created_end",
    Ty::Date,
    "Added to the data on or before this day.",
);
const INVESTOR_IDS: Field = f("investor_ids", UUIDS, "Investor firm ids.");
const PEOPLE_IDS: Field = f(
    "people_ids",
    UUIDS,
    "People ids: deals where one of them invested as an angel or led for a firm.",
);
const ONLY_LEAD: Field = f(
    "only_lead_deals",
    Ty::Bool,
    "Count only deals the investor led.",
)
.default("false");
const MIN_MATCHING: Field = f(
    "min_matching_deals",
    Ty::Int {
        min: 1,
        max: u32::MAX as u64,
    },
    "Least number of matching deals.",
);
const IDS: Field = f("ids", UUIDS, "Ids.");
const DOMAINS: Field = f("domains", IDENTIFIERS, "Domains or website URLs.");
const LINKEDIN_URLS: Field = f("linkedin_urls", IDENTIFIERS, "LinkedIn URLs.");
const CRUNCHBASE_URLS: Field = f("crunchbase_urls", IDENTIFIERS, "Crunchbase URLs.");
const FIRM_PERMALINKS: Field = f("permalinks", IDENTIFIERS, "Firm permalinks.");

/// The company facets of `/deals` `company`, `/companies` `company` and
/// `/investors` `company_investments`.
const COMPANY_FACETS: [Field; 7] = [
    LOCATIONS,
    INDUSTRIES,
    SUPER_CATEGORIES,
    EMPLOYEE_COUNT,
    IPO_LISTED,
    TOTAL_RAISED_MIN,
    TOTAL_RAISED_MAX,
];
const SEMANTIC: [Field; 2] = [SEARCH_QUERY, MIN_RELEVANCE];
/// The round facets of every deal block.
const ROUND: [Field; 5] = [FINANCING, SIZE_MIN, SIZE_MAX, DATE_START, DATE_END];
const ROUND_CREATED: [Field; 7] = join(ROUND, [CREATED_START, CREATED_END]);
const COMPANY_IDS: Field = f("company_ids", UUIDS, "Company ids.");

/// An organisation `identifiers` block; firms also take permalinks.
const ORG_IDENTIFIERS: [Field; 4] = [IDS, DOMAINS, LINKEDIN_URLS, CRUNCHBASE_URLS];
const FIRM_IDENTIFIERS: [Field; 5] = join(ORG_IDENTIFIERS, [FIRM_PERMALINKS]);

const INVESTORS_BLOCK: Field = f(
    "investors",
    Ty::Object(&[INVESTOR_IDS, PEOPLE_IDS]),
    "Deals these firms or people took part in.",
);

// ---------------------------------------------------------------- /deals

/// POST `/deals`.
pub const DEALS: &[Field] = &[
    f(
        "identifiers",
        Ty::Object(&[f("deal_ids", UUIDS, "Deal ids.")]),
        "Fetch these deals.",
    ),
    f("deal", Ty::Object(&ROUND_CREATED), "Round facets."),
    f(
        "company",
        Ty::Object(&join::<1, 7, 8>([COMPANY_IDS], COMPANY_FACETS)),
        "Facets of the company that raised.",
    ),
    INVESTORS_BLOCK,
    PAGE,
    PAGE_SIZE,
    f("sort_by", Ty::Enum(DealSort::SPELLINGS), "Row order.").default("\"most_recent_deal\""),
];

// ---------------------------------------------------------------- /companies

/// POST `/companies`.
pub const COMPANIES: &[Field] = &[
    f(
        "identifiers",
        Ty::Object(&ORG_IDENTIFIERS),
        "Fetch these companies (one union of all the lists).",
    ),
    f(
        "company",
        Ty::Object(&join::<2, 7, 9>(SEMANTIC, COMPANY_FACETS)),
        "Company facets and semantic search.",
    ),
    f(
        "latest_deal",
        Ty::Object(&join::<7, 1, 8>(ROUND_CREATED, [INVESTOR_IDS])),
        "Facets of the company's most recent round.",
    ),
    INVESTORS_BLOCK,
    PAGE,
    PAGE_SIZE,
    f("sort_by", Ty::Enum(CompanySort::SPELLINGS), "Row order.").default("\"most_recent_raise\""),
];

// ---------------------------------------------------------------- /investors

/// POST `/investors`.
pub const INVESTORS: &[Field] = &[
    f(
        "identifiers",
        Ty::Object(&FIRM_IDENTIFIERS),
        "Fetch these firms (one union of all the lists).",
    ),
    f(
        "investor",
        Ty::Object(&[
            f(
                "locations",
                PERMALINKS,
                "Firm headquarters location permalinks.",
            ),
            f("employee_count", HEADCOUNTS, "Firm headcount buckets."),
        ]),
        "Firm facets.",
    ),
    f(
        "company_investments",
        Ty::Object(&join::<10, 7, 17>(
            join::<3, 7, 10>(join([COMPANY_IDS], SEMANTIC), COMPANY_FACETS),
            [
                FINANCING,
                f("deal_size_min", Ty::Money, "Least round size, USD."),
                f("deal_size_max", Ty::Money, "Most round size, USD."),
                f(
                    "deal_start_date",
                    Ty::Date,
                    "Round announced on or after this day.",
                ),
                f(
                    "deal_end_date",
                    Ty::Date,
                    "Round announced on or before this day.",
                ),
                ONLY_LEAD,
                MIN_MATCHING,
            ],
        )),
        "Firms with portfolio deals matching these filters.",
    ),
    PAGE,
    PAGE_SIZE,
    f("sort_by", Ty::Enum(InvestorSort::SPELLINGS), "Row order.").default("\"most_recent_deal\""),
];

// ---------------------------------------------------------------- /people

/// POST `/people`.
pub const PEOPLE: &[Field] = &[
    f(
        "person_type",
        Ty::Enum(PersonType::SPELLINGS),
        "Which people: founders and employees (`company`), investors, or both.",
    )
    .default("\"any\""),
    f(
        "identifiers",
        Ty::Object(&[
            IDS,
            f("linkedin_urls", IDENTIFIERS, "LinkedIn URLs or slugs."),
            f("crunchbase_urls", IDENTIFIERS, "Crunchbase URLs or slugs."),
            f("twitter_urls", IDENTIFIERS, "Twitter/X URLs or handles."),
        ]),
        "Fetch these people (one union of all the lists).",
    ),
    f(
        "person",
        Ty::Object(&[
            f(
                "roles",
                Ty::Array(&Ty::Enum(PersonRole::SPELLINGS)),
                "Roles at their current company.",
            ),
            f(
                "contact_types",
                Ty::Array(&Ty::Enum(ContactType::SPELLINGS)),
                "Contact details on file.",
            ),
            f("job_titles", TEXTS, "Job title words."),
            f("education_schools", TEXTS, "Schools attended."),
            f("linkedin_companies", TEXTS, "Employers named on LinkedIn."),
        ]),
        "Person facets.",
    ),
    f(
        "company",
        Ty::Object(&[
            SEARCH_QUERY,
            MIN_RELEVANCE,
            f("ids", UUIDS, "Current employer ids."),
            LOCATIONS,
            INDUSTRIES,
            SUPER_CATEGORIES,
            EMPLOYEE_COUNT,
            f(
                "ipo_status",
                Ty::Array(&Ty::Enum(IpoStatus::SPELLINGS)),
                "Listing status.",
            ),
            TOTAL_RAISED_MIN,
            TOTAL_RAISED_MAX,
            f(
                "investor_people_ids",
                UUIDS,
                "People who invested in the employer.",
            ),
            f(
                "latest_deal",
                Ty::Object(&join::<5, 2, 7>(
                    ROUND,
                    [
                        INVESTOR_IDS,
                        f(
                            "investor_locations",
                            PERMALINKS,
                            "A firm of the round is located here.",
                        ),
                    ],
                )),
                "The employer's most recent round.",
            ),
        ]),
        "The current employer.",
    ),
    f(
        "investor",
        Ty::Object(&join::<5, 3, 8>(
            FIRM_IDENTIFIERS,
            [
                f(
                    "locations",
                    PERMALINKS,
                    "Firm headquarters location permalinks.",
                ),
                f("employee_count", HEADCOUNTS, "Firm headcount buckets."),
                f(
                    "deals",
                    Ty::Object(&[
                        SEARCH_QUERY,
                        MIN_RELEVANCE,
                        f(
                            "investment_type",
                            Ty::Enum(InvestmentType::SPELLINGS),
                            "Angel deals, firm deals, or both.",
                        )
                        .default("\"all\""),
                        ONLY_LEAD,
                        MIN_MATCHING,
                        FINANCING,
                        SIZE_MIN,
                        SIZE_MAX,
                        DATE_START,
                        DATE_END,
                        INDUSTRIES,
                        SUPER_CATEGORIES,
                        f(
                            "portfolio_locations",
                            PERMALINKS,
                            "Portfolio company location permalinks.",
                        ),
                        f(
                            "portfolio_employee_count",
                            HEADCOUNTS,
                            "Portfolio company headcount buckets.",
                        ),
                        IPO_LISTED,
                        TOTAL_RAISED_MIN,
                        TOTAL_RAISED_MAX,
                    ]),
                    "Deals the person made.",
                ),
            ],
        )),
        "Investors: their firm and their deals.",
    ),
    PAGE,
    PAGE_SIZE,
    f("sort_by", Ty::Enum(PersonSort::SPELLINGS), "Row order.")
        .default("\"most_recent_deal_date\""),
];

/// Longest `configuration_name` of an alert configuration, in characters.
pub const MAX_ALERT_NAME: usize = 200;
/// Longest `description` of an alert configuration, in characters.
pub const MAX_ALERT_DESCRIPTION: usize = 2_000;

/// `filters` of an alert configuration (reference §10.2 `AlertConfiguration.filters`).
const ALERT_FILTERS: &[Field] = &[
    INDUSTRIES,
    SUPER_CATEGORIES,
    LOCATIONS,
    f("financing_types", Ty::Array(&Ty::RoundLabel), "Round types as human-readable labels (`Series A`, `Seed`, `Pre-Seed`, `Series B extension`), not the enum objects of `/deals`."),
    f("deal_size_min", Ty::Money, "Least round size, USD."),
    f("deal_size_max", Ty::Money, "Most round size, USD."),
    f("num_employees", HEADCOUNTS, "Headcount buckets of the company."),
    f("investors", UUIDS, "Investor firm ids: one of them takes part in the deal."),
    f("companies", UUIDS, "Company ids: deals of these companies."),
    f("search_query", Ty::Text, "A description of the companies wanted, scored by the semantic search of `/companies` (counts against the plan's monthly semantic-search ceiling when the alert runs)."),
    MIN_RELEVANCE,
];

/// The body of `POST /alerts/configurations` (an extension): an alert
/// configuration in the shape `GET /alerts/configurations` lists, without
/// its id.
pub const ALERT_CONFIGURATION: &[Field] = &[
    f(
        "configuration_name",
        Ty::Text,
        "The alert's name (at most 200 characters).",
    )
    .required(),
    f(
        "description",
        Ty::Text,
        "What the alert is for (at most 2,000 characters).",
    ),
    f(
        "frequency",
        Ty::Enum(Frequency::SPELLINGS),
        "How often it reports.",
    )
    .default("\"WEEKLY\""),
    f(
        "filters",
        Ty::Object(ALERT_FILTERS),
        "The deals wanted; absent keys do not constrain.",
    ),
];
