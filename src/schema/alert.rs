//! Alerts (reference §10): a user's saved deal filters ([`AlertConfig`],
//! kept with the rest of the user's state by `accounts`) and the records
//! the alert endpoints answer with ([`AlertConfiguration`], [`Alert`],
//! [`SimplifiedDeal`]).
//!
//! The filters are the reference's `AlertConfiguration.filters`: permalinks
//! of industries, super categories and locations; round types as
//! human-readable labels (`Series A`, `Pre-Seed`: [`crate::schema::RoundKey::label`],
//! stored in that canonical form); deal size bounds in USD; headcount
//! buckets; firms and companies by id; plus, as an extension, a semantic
//! description of the companies wanted (`search_query`, `min_relevance`,
//! as on `/companies`).

use serde::{Deserialize, Serialize};
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa::openapi::RefOr;
use utoipa::{PartialSchema, ToSchema};
use uuid::Uuid;

use super::enums::{wire_enum, Headcount};

wire_enum!(
    /// How often the hosted product would report an alert (echoed; the
    /// `/alerts` endpoint reports any range asked for).
    Frequency { Daily => "DAILY", Weekly => "WEEKLY", Biweekly => "BIWEEKLY", Monthly => "MONTHLY" }
);

impl PartialSchema for Frequency {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .enum_values(Some(Frequency::SPELLINGS.iter().copied()))
            .into()
    }
}

impl ToSchema for Frequency {}

/// The filters of an alert as stored; empty lists and absent bounds do not
/// constrain.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct AlertFilters {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub industries: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub super_categories: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub locations: Vec<String>,
    /// Canonical round labels.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub financing_types: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deal_size_min: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deal_size_max: Option<f64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub num_employees: Vec<Headcount>,
    /// Firms, one of which must take part in the deal.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub investors: Vec<Uuid>,
    /// Companies whose deals are wanted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub companies: Vec<Uuid>,
    /// Semantic description of the companies wanted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search_query: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_relevance: Option<f64>,
}

/// One alert configuration of a user, as stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AlertConfig {
    pub id: Uuid,
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    pub frequency: Frequency,
    pub filters: AlertFilters,
    /// When it was created, ISO 8601 UTC.
    pub created_at: String,
}

impl AlertConfig {
    /// The reference's `description`: the user's own text, then the
    /// semantic description when there is one.
    pub fn combined_description(&self) -> String {
        let own = self
            .description
            .as_deref()
            .map(str::trim)
            .filter(|d| !d.is_empty());
        let semantic = self
            .filters
            .search_query
            .as_deref()
            .map(|q| format!("Companies wanted: {q}"));
        own.map(str::to_string)
            .into_iter()
            .chain(semantic)
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// A firm or a company named by an alert: its id and current name (null
/// when the index no longer has it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct NamedId {
    pub id: Uuid,
    pub name: Option<String>,
}

/// `filters` of an [`AlertConfiguration`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ConfigurationFilters {
    pub industries: Vec<String>,
    pub super_categories: Vec<String>,
    pub locations: Vec<String>,
    /// Human-readable round labels (`Series A`, `Pre-Seed`), not the enum.
    pub financing_types: Vec<String>,
    /// USD.
    pub deal_size_min: Option<f64>,
    /// USD.
    pub deal_size_max: Option<f64>,
    pub num_employees: Vec<String>,
    pub investors: Vec<NamedId>,
    pub companies: Vec<NamedId>,
    /// Semantic description of the companies wanted (an extension).
    pub search_query: Option<String>,
    /// Least relevance (0–1) of a company to `search_query` (an extension).
    pub min_relevance: Option<f64>,
}

/// An item of `data.configurations` (`GET /alerts/configurations`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct AlertConfiguration {
    pub configuration_id: Uuid,
    pub configuration_name: String,
    pub frequency: Frequency,
    /// The configuration's description and its semantic description.
    pub description: String,
    pub filters: ConfigurationFilters,
    /// When it was created (an extension).
    pub created_at: String,
}

/// `location` of a [`SimplifiedDeal`]: place names.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct SimplifiedLocation {
    pub city: Option<String>,
    pub state: Option<String>,
    pub country: Option<String>,
    pub region: Option<String>,
}

/// An article about a [`SimplifiedDeal`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct SimplifiedArticle {
    pub link: String,
    pub is_primary: bool,
    #[serde(rename = "publishedDate")]
    pub published_date: Option<String>,
}

/// A deal as an alert reports it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct SimplifiedDeal {
    pub id: Uuid,
    pub company_id: Uuid,
    pub company_name: Option<String>,
    pub company_guru_permalink: Option<String>,
    pub round_type: String,
    pub date: Option<String>,
    /// Millions of USD, as the reference documents for alerts (25 = $25M).
    pub total_round_raised: Option<f64>,
    /// The company's bare domain.
    pub company_website: Option<String>,
    pub company_linkedin: Option<String>,
    pub location: SimplifiedLocation,
    pub deal_short_description: Option<String>,
    pub deal_long_description: Option<String>,
    /// Why the deal matched: the alert's clauses it met, with its values.
    pub reasoning: String,
    pub articles: Vec<SimplifiedArticle>,
}

/// An item of `data.alerts` (`GET /alerts`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Alert {
    pub alert_id: Uuid,
    pub alert_name: String,
    pub alert_frequency: Frequency,
    /// Distinct deals of the range that match (`deals` holds the newest of them).
    pub total_deal_count: u64,
    pub deals: Vec<SimplifiedDeal>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(description: Option<&str>, query: Option<&str>) -> AlertConfig {
        AlertConfig {
            id: Uuid::nil(),
            name: "n".into(),
            description: description.map(str::to_string),
            frequency: Frequency::Weekly,
            filters: AlertFilters {
                search_query: query.map(str::to_string),
                ..AlertFilters::default()
            },
            created_at: "2026-01-01T00:00:00.000Z".into(),
        }
    }

    #[test]
    fn stored_form_omits_what_does_not_constrain_and_round_trips() {
        let mut c = config(None, None);
        c.filters.financing_types = vec!["Series A".into()];
        c.filters.num_employees = vec![Headcount::H11To50];
        let json = serde_json::to_string(&c).unwrap();
        assert_eq!(
            json,
            r#"{"id":"00000000-0000-0000-0000-000000000000","name":"n","frequency":"WEEKLY","filters":{"financing_types":["Series A"],"num_employees":["11-50"]},"created_at":"2026-01-01T00:00:00.000Z"}"#
        );
        assert_eq!(serde_json::from_str::<AlertConfig>(&json).unwrap(), c);
    }

    #[test]
    fn descriptions_combine_the_semantic_one() {
        assert_eq!(config(None, None).combined_description(), "");
        assert_eq!(
            config(Some(" AI deals "), None).combined_description(),
            "AI deals"
        );
        assert_eq!(
            config(Some("AI deals"), Some("robotics for farms")).combined_description(),
            "AI deals Companies wanted: robotics for farms"
        );
        assert_eq!(
            config(None, Some("x")).combined_description(),
            "Companies wanted: x"
        );
    }

    #[test]
    fn alerts_use_the_documented_camel_case_keys() {
        let a = Alert {
            alert_id: Uuid::nil(),
            alert_name: "a".into(),
            alert_frequency: Frequency::Daily,
            total_deal_count: 0,
            deals: vec![],
        };
        assert_eq!(
            serde_json::to_string(&a).unwrap(),
            r#"{"alertId":"00000000-0000-0000-0000-000000000000","alertName":"a","alertFrequency":"DAILY","totalDealCount":0,"deals":[]}"#
        );
    }
}
