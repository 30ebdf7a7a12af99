//! The canonical dump: one JSON object per line, one file per kind.
//!
//! | file | row type | key |
//! |---|---|---|
//! | `locations.jsonl` | [`LocationRow`] | `permalink` |
//! | `industries.jsonl` | [`IndustryRow`] | `permalink` |
//! | `companies.jsonl` | [`CompanyRow`] | `id` |
//! | `investors.jsonl` | [`FirmRow`] (investor firms) | `id` |
//! | `people.jsonl` | [`PersonRow`] | `id` |
//! | `deals.jsonl` | [`DealRow`] | `id` |
//!
//! Dumps carry facts only; every aggregate the API returns (totals, counts,
//! latest deal, highlights…) is derived by the indexer. Rows reject unknown
//! keys so that a misspelt field is reported, not ignored. The field-by-field
//! description lives in `index_schema/` (README and `dump.schema.json`).

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::enums::{
    Headcount, IndustryType, Intermediate, IpoStatus, LocationType, PersonRole, RoundType,
    ValuationType,
};
use super::time::{Date, Timestamp};

/// Version of the dump format described here; written to `dump.json`.
pub const DUMP_FORMAT_VERSION: u32 = 1;

/// The file names of a dump, in the order the indexer reads them
/// (every reference points to a file read earlier).
pub const DUMP_FILES: [&str; 6] = [
    "locations.jsonl",
    "industries.jsonl",
    "companies.jsonl",
    "investors.jsonl",
    "people.jsonl",
    "deals.jsonl",
];

/// `dump.json`: what wrote the dump and with which format version.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct DumpMeta {
    pub format: String,
    pub version: u32,
    /// What produced the dump (`generate --seed 7`, `import crunchbase-2013`…).
    pub source: String,
    /// A suggested `--as-of` date for "last 12 months" metrics.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub as_of: Option<Date>,
}

impl DumpMeta {
    pub fn new(source: impl Into<String>, as_of: Option<Date>) -> DumpMeta {
        DumpMeta {
            format: "fundsearch-dump".into(),
            version: DUMP_FORMAT_VERSION,
            source: source.into(),
            as_of,
        }
    }
}

/// A place. `parent` points one level up (city → state → region → country,
/// any level may be skipped); a filter on a place matches everything below it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct LocationRow {
    pub permalink: String,
    pub name: String,
    #[serde(rename = "type")]
    pub location_type: LocationType,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
}

/// An industry or a super category. An industry lists the super categories
/// it belongs to; a filter on a super category matches all of its industries.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct IndustryRow {
    pub permalink: String,
    pub name: String,
    #[serde(rename = "type")]
    pub industry_type: IndustryType,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub super_categories: Vec<String>,
}

/// Where an organisation is, one location permalink per level.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PlaceRefs {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub city: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub region: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub country: Option<String>,
}

impl PlaceRefs {
    /// The permalinks given, most specific first.
    pub fn levels(&self) -> impl Iterator<Item = (LocationType, &str)> {
        [
            (LocationType::City, &self.city),
            (LocationType::State, &self.state),
            (LocationType::Region, &self.region),
            (LocationType::Country, &self.country),
        ]
        .into_iter()
        .filter_map(|(t, p)| p.as_deref().map(|p| (t, p)))
    }
}

/// A company (a funded organisation).
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct CompanyRow {
    pub id: Uuid,
    pub name: String,
    /// The company's permalink (`guru_permalink` in responses).
    pub permalink: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub legal_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub domain: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub short_description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub long_description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub num_employees: Option<Headcount>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ipo_status: Option<IpoStatus>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub founded_on: Option<Date>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub linkedin: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub twitter: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub facebook: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pitchbook: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crunchbase: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
    /// Industry permalinks (INDUSTRY entries).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub industries: Vec<String>,
    #[serde(default)]
    pub location: PlaceRefs,
}

/// An investor firm.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct FirmRow {
    pub id: Uuid,
    pub name: String,
    pub permalink: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub legal_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub domain: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub website: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub linkedin: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pitchbook: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crunchbase: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub num_employees: Option<Headcount>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub investment_stage: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contact_email: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contact_phone: Option<String>,
    #[serde(default)]
    pub location: PlaceRefs,
}

/// One job in a person's employment history.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct EmploymentRow {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// A company or firm of this dump, when the employer is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub company_id: Option<Uuid>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub company_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub company_url: Option<String>,
    /// The employer's LinkedIn company id (`google`), for `person.linkedin_companies`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub linkedin_company_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_date: Option<Date>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_date: Option<Date>,
    #[serde(default)]
    pub is_current: bool,
}

/// One entry of a person's education history.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct EducationRow {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub school_name: Option<String>,
    /// Normalised school id (`stanford-university`), for `person.education_schools`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub school_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub school_url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub degree: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field_of_study: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_date: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_date: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// A person: founder, executive, employee, angel or partner at a firm.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PersonRow {
    pub id: Uuid,
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub linkedin_url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crunchbase_url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub twitter_url: Option<String>,
    /// Free-text location (`San Francisco, CA`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub city: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub country_code: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub about: Option<String>,
    /// Roles at the current employer.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub roles: Vec<PersonRole>,
    /// Verified e-mail: revealed only by `/person/email`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phone: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub employment: Vec<EmploymentRow>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub education: Vec<EducationRow>,
}

/// A firm's participation in a deal.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct DealFirmRow {
    pub firm_id: Uuid,
    #[serde(default)]
    pub lead: bool,
    /// The firm's partners on this deal (person ids).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub partner_ids: Vec<Uuid>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub financing_type: Option<RoundType>,
}

/// An angel's participation in a deal.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct DealAngelRow {
    pub person_id: Uuid,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub financing_type: Option<RoundType>,
}

/// One financing instrument of a round.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct FinancingRow {
    pub id: Uuid,
    #[serde(rename = "type")]
    pub financing_type: RoundType,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size_usd: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size_native: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub currency: Option<String>,
}

/// A valuation stated with a round.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ValuationRow {
    #[serde(rename = "type")]
    pub valuation_type: ValuationType,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub currency: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usd: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub native: Option<f64>,
}

/// A source article about a round.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ArticleRow {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<Date>,
    #[serde(default)]
    pub is_primary: bool,
}

/// A funding round.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct DealRow {
    pub id: Uuid,
    pub company_id: Uuid,
    pub round_type: RoundType,
    #[serde(default)]
    pub pre: bool,
    #[serde(default)]
    pub extension: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub intermediate: Option<Intermediate>,
    /// Announcement date.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<Date>,
    /// When the round was added to the data set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_at: Option<Timestamp>,
    /// Round total in USD.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_round_raised: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub short_description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub long_description: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub investors: Vec<DealFirmRow>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub angels: Vec<DealAngelRow>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub financings: Vec<FinancingRow>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub valuation: Option<ValuationRow>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub articles: Vec<ArticleRow>,
}
