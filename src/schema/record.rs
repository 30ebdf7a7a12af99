//! The response records of the API (reference §3), as the index stores them.
//!
//! The indexer renders each entity to JSON once; the server copies the bytes
//! into responses, appending only the per-query keys (`similarity`,
//! `filtered_*`). Key names follow the reference exactly, including the
//! differences between a deal row (`round_type`, `investor_ids`,
//! `deal_descriptions`) and a company's `latest_deal` (`type`, `investors`,
//! `description`).

use serde::{Deserialize, Serialize, Serializer};
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa::openapi::RefOr;
use utoipa::{PartialSchema, ToSchema};
use uuid::Uuid;

/// A USD amount: whole numbers render without a fraction (`25000000`).
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(transparent)]
pub struct Money(pub f64);

/// In the OpenAPI document: a JSON number (USD).
impl PartialSchema for Money {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::Number)
            .description(Some("Amount in USD"))
            .into()
    }
}

impl ToSchema for Money {}

impl Money {
    /// Compact dollars for prose: `$750`, `$20K`, `$1.75M`, `$3.84B`.
    pub fn compact(self) -> String {
        const UNITS: [&str; 4] = ["", "K", "M", "B"];
        let round2 = |v: f64| (v * 100.0).round() / 100.0;
        let (mut value, mut unit) = (self.0, 0);
        while unit + 1 < UNITS.len() && round2(value) >= 1000.0 {
            value /= 1000.0;
            unit += 1;
        }
        let text = format!("{:.2}", round2(value));
        format!(
            "${}{}",
            text.trim_end_matches('0').trim_end_matches('.'),
            UNITS[unit]
        )
    }
}

impl Serialize for Money {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let v = self.0;
        if v.fract() == 0.0 && v.abs() < 9.0e15 {
            s.serialize_i64(v as i64)
        } else {
            s.serialize_f64(v)
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Descriptions {
    pub short_description: Option<String>,
    pub long_description: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct FinancingRecord {
    pub id: Uuid,
    #[serde(rename = "type")]
    pub financing_type: String,
    pub size_usd: Option<Money>,
    pub size_native: Option<Money>,
    pub currency: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ValuationRecord {
    pub valuation_currency: Option<String>,
    pub valuation_usd: Option<Money>,
    pub valuation_native: Option<Money>,
    #[serde(rename = "type")]
    pub valuation_type: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ArticleRecord {
    pub is_primary: bool,
    pub link: Option<String>,
    pub date: Option<String>,
}

/// `data.deals[]` and `data.deal`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct DealRecord {
    pub id: Uuid,
    pub round_type: String,
    pub extension: bool,
    pub intermediate: String,
    pub pre: bool,
    pub date: Option<String>,
    pub created_at: Option<String>,
    pub total_round_raised: Option<Money>,
    pub deal_descriptions: Descriptions,
    pub company_id: Uuid,
    pub investor_ids: Vec<Uuid>,
    pub angel_investor_ids: Vec<Uuid>,
    pub financings: Vec<FinancingRecord>,
    pub valuation: Option<ValuationRecord>,
    pub articles: Vec<ArticleRecord>,
}

/// A company's `latest_deal`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct LatestDealRecord {
    pub id: Uuid,
    #[serde(rename = "type")]
    pub round_type: String,
    pub total_round_raised: Option<Money>,
    pub date: Option<String>,
    pub extension: bool,
    pub pre: bool,
    pub intermediate: String,
    pub description: Descriptions,
    pub investors: Vec<Uuid>,
    pub angel_investor_ids: Vec<Uuid>,
    pub financings: Vec<FinancingRecord>,
    pub articles: Vec<ArticleRecord>,
}

impl From<DealRecord> for LatestDealRecord {
    fn from(d: DealRecord) -> LatestDealRecord {
        LatestDealRecord {
            id: d.id,
            round_type: d.round_type,
            total_round_raised: d.total_round_raised,
            date: d.date,
            extension: d.extension,
            pre: d.pre,
            intermediate: d.intermediate,
            description: d.deal_descriptions,
            investors: d.investor_ids,
            angel_investor_ids: d.angel_investor_ids,
            financings: d.financings,
            articles: d.articles,
        }
    }
}

/// `{name, permalink}` of one level.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct NamedRef {
    pub name: String,
    pub permalink: String,
}

/// `{region, country, state, city}`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, ToSchema)]
pub struct LocationRecord {
    pub region: Option<NamedRef>,
    pub country: Option<NamedRef>,
    pub state: Option<NamedRef>,
    pub city: Option<NamedRef>,
}

/// `data.company` and `data.companies[]` (without the per-query `similarity`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct CompanyRecord {
    pub id: Uuid,
    pub name: String,
    pub legal_name: Option<String>,
    pub guru_permalink: String,
    pub domain: Option<String>,
    pub region: Option<String>,
    pub short_description: Option<String>,
    pub long_description: Option<String>,
    pub num_employees: Option<String>,
    pub linkedin: Option<String>,
    pub twitter: Option<String>,
    pub facebook: Option<String>,
    pub pitchbook: Option<String>,
    pub crunchbase: Option<String>,
    pub address: Option<String>,
    pub ipo_status: Option<String>,
    pub num_funding_rounds: u32,
    pub num_investors: u32,
    pub total_raised: Option<Money>,
    pub latest_valuation_usd: Option<Money>,
    pub latest_valuation_date: Option<String>,
    pub industries: Vec<NamedRef>,
    pub location: LocationRecord,
    pub latest_deal: Option<LatestDealRecord>,
    pub all_investor_ids: Vec<Uuid>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct TopIndustry {
    pub name: String,
    pub permalink: String,
    pub count: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct TopLocation {
    pub name: String,
    pub full_name: String,
    pub permalink: String,
    #[serde(rename = "type")]
    pub location_type: String,
    pub count: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct TopRoundType {
    #[serde(rename = "type")]
    pub round_type: String,
    pub count: u32,
}

/// `data.investor` and `data.investors[]` (without the per-query `filtered_*`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct InvestorRecord {
    pub id: Uuid,
    pub name: String,
    pub legal_name: Option<String>,
    pub description: Option<String>,
    pub guru_permalink: String,
    pub total_deal_count: u32,
    pub lead_deal_count: u32,
    pub deal_count_last_12_months: u32,
    pub lead_deal_count_last_12_months: u32,
    pub most_recent_deal_date: Option<String>,
    pub domain: Option<String>,
    pub website: Option<String>,
    pub linkedin: Option<String>,
    pub pitchbook: Option<String>,
    pub crunchbase: Option<String>,
    pub num_employees: Option<String>,
    pub investment_stage: Option<String>,
    pub contact_email: Option<String>,
    pub contact_phone: Option<String>,
    pub location: LocationRecord,
    pub top_industries: Vec<TopIndustry>,
    pub top_locations: Vec<TopLocation>,
    pub top_round_types: Vec<TopRoundType>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct CurrentCompany {
    pub id: Uuid,
    pub name: String,
    pub permalink: String,
    pub domain: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct EmploymentRecord {
    pub title: Option<String>,
    pub company_name: Option<String>,
    pub company_id: Option<Uuid>,
    pub company_url: Option<String>,
    pub location: Option<String>,
    pub description: Option<String>,
    pub start_date: Option<String>,
    pub end_date: Option<String>,
    pub is_current: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct EducationRecord {
    pub school_name: Option<String>,
    pub school_id: Option<String>,
    pub school_url: Option<String>,
    pub degree: Option<String>,
    pub field_of_study: Option<String>,
    pub start_date: Option<String>,
    pub end_date: Option<String>,
    pub description: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct InvestmentFirmRecord {
    pub id: Uuid,
    pub name: String,
    pub permalink: String,
    pub domain: Option<String>,
    pub deal_count: u32,
    pub last_deal_date: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct InvestorHighlights {
    pub total_deal_count: u32,
    pub lead_deal_count: u32,
    pub deal_count_last_12_months: u32,
    pub lead_deal_count_last_12_months: u32,
    pub most_recent_deal_date: Option<String>,
    pub top_industries: Vec<TopIndustry>,
    pub top_locations: Vec<TopLocation>,
    pub top_round_types: Vec<TopRoundType>,
}

/// `data.person` and `data.people[]` (without the per-query `filtered_*`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct PersonRecord {
    pub id: Uuid,
    pub name: String,
    pub title: Option<String>,
    pub linkedin_url: Option<String>,
    pub crunchbase_url: Option<String>,
    pub twitter_url: Option<String>,
    pub location: Option<String>,
    pub city: Option<String>,
    pub country_code: Option<String>,
    pub about: Option<String>,
    pub is_founder: bool,
    pub current_company: Option<CurrentCompany>,
    pub employment_history: Vec<EmploymentRecord>,
    pub education_history: Vec<EducationRecord>,
    pub is_investor: bool,
    pub is_angel: bool,
    pub has_led_deal: bool,
    pub investment_firms: Vec<InvestmentFirmRecord>,
    pub investor_highlights: Option<InvestorHighlights>,
}

/// `/company/search` item (without the per-query `relevance_score`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct CompanyCard {
    pub id: Uuid,
    pub guru_permalink: String,
    pub name: String,
    pub short_description: Option<String>,
    pub domain: Option<String>,
    pub linkedin: Option<String>,
    pub crunchbase: Option<String>,
}

/// `/investor/search` item and the firm part of a deal lineup.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct FirmCard {
    pub id: Uuid,
    pub guru_permalink: String,
    pub name: String,
    pub description: Option<String>,
    pub image: Option<String>,
    pub domain: Option<String>,
    pub website: Option<String>,
    pub linkedin: Option<String>,
    pub crunchbase: Option<String>,
}

/// `/person/search` item and the person part of a deal lineup.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct PersonCard {
    pub id: Uuid,
    pub name: String,
    pub linkedin_url: Option<String>,
    pub crunchbase_url: Option<String>,
    pub twitter_url: Option<String>,
    /// `investor` when the person has invested, else `company`.
    pub person_type: String,
}

impl CompanyCard {
    /// The card out of the company's full record JSON ([`CompanyRecord`]),
    /// whose fields it shares.
    pub fn from_full_record(json: &[u8]) -> serde_json::Result<CompanyCard> {
        serde_json::from_slice(json)
    }
}

/// The fields of a person's full record ([`PersonRecord`]) their card shows.
#[derive(Deserialize)]
struct PersonCardFields {
    id: Uuid,
    name: String,
    linkedin_url: Option<String>,
    crunchbase_url: Option<String>,
    twitter_url: Option<String>,
    is_investor: bool,
}

impl PersonCard {
    /// What `person_type` says of someone who has invested or not.
    pub fn person_type(is_investor: bool) -> &'static str {
        if is_investor {
            "investor"
        } else {
            "company"
        }
    }

    /// The card out of the person's full record JSON ([`PersonRecord`]).
    pub fn from_full_record(json: &[u8]) -> serde_json::Result<PersonCard> {
        let f: PersonCardFields = serde_json::from_slice(json)?;
        Ok(PersonCard {
            id: f.id,
            name: f.name,
            linkedin_url: f.linkedin_url,
            crunchbase_url: f.crunchbase_url,
            twitter_url: f.twitter_url,
            person_type: PersonCard::person_type(f.is_investor).to_string(),
        })
    }
}

/// `/location/search` item.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct LocationCard {
    pub permalink: String,
    pub name: String,
    pub location_type: String,
}

/// `/industry/search` item.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct IndustryCard {
    pub permalink: String,
    pub name: String,
    pub industry_type: String,
}

/// `data` of `/person/email`: an unlocked e-mail.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct PersonEmail {
    pub person_id: Uuid,
    pub email: String,
    /// The user had unlocked this person before (nothing was charged).
    pub already_unlocked: bool,
}

/// A person of a deal lineup (`/deals/{id}/investors`): a partner of a
/// firm, or (with `financing_type`) an angel.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct LineupPerson {
    pub id: Uuid,
    pub name: String,
    pub linkedin: Option<String>,
    pub crunchbase: Option<String>,
    pub twitter: Option<String>,
}

/// `data.investors[]` of `/deals/{id}/investors`: a firm of the round,
/// lead first, with the partners who worked on it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct DealInvestor {
    pub id: Uuid,
    pub name: String,
    pub lead_investor: bool,
    pub personnel: Vec<LineupPerson>,
    /// The round type the firm took part in, when recorded.
    pub financing_type: Option<String>,
    pub domain: Option<String>,
    pub linkedin: Option<String>,
    pub crunchbase: Option<String>,
}

/// `data.angel_investors[]` of `/deals/{id}/investors`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct AngelInvestor {
    pub id: Uuid,
    pub name: String,
    pub linkedin: Option<String>,
    pub crunchbase: Option<String>,
    pub twitter: Option<String>,
    pub financing_type: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn money_renders_whole_numbers_without_fraction() {
        assert_eq!(
            serde_json::to_string(&Money(25_000_000.0)).unwrap(),
            "25000000"
        );
        assert_eq!(serde_json::to_string(&Money(1.5)).unwrap(), "1.5");
        assert_eq!(
            serde_json::from_str::<Money>("25000000").unwrap(),
            Money(25_000_000.0)
        );
    }
}
