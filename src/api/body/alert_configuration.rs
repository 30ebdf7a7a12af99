//! POST `/alerts/configurations` body (an extension) → [`AlertDraft`]: an
//! alert configuration in the reference's `AlertConfiguration` shape
//! (§10.2) without its id, read with the same walker and the same problem
//! codes as the `/deals` body. Round types are labels (`Series A`), stored
//! in their canonical spelling; firms and companies are ids.

use crate::api::declare::bodies::{ALERT_CONFIGURATION, MAX_ALERT_DESCRIPTION, MAX_ALERT_NAME};
use crate::api::errors::ApiError;
use crate::schema::alert::{AlertConfig, AlertFilters, Frequency};
use crate::schema::Headcount;

use super::problems::ErrorForm;
use super::reader::{parse_object, spellings, Obj};

/// A validated alert configuration, not yet saved.
#[derive(Debug, Clone, PartialEq)]
pub struct AlertDraft {
    pub name: String,
    pub description: Option<String>,
    pub frequency: Frequency,
    pub filters: AlertFilters,
}

impl AlertDraft {
    /// The configuration saved from this draft: a fresh id, created now.
    pub fn into_config(self, now: chrono::DateTime<chrono::Utc>) -> AlertConfig {
        AlertConfig {
            id: uuid::Uuid::new_v4(),
            name: self.name,
            description: self.description,
            frequency: self.frequency,
            filters: self.filters,
            created_at: now.to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
        }
    }
}

fn filters(obj: &Obj) -> AlertFilters {
    let money = obj.money_range("deal_size_min", "deal_size_max");
    AlertFilters {
        industries: obj.strings("industries").unwrap_or_default(),
        super_categories: obj.strings("super_categories").unwrap_or_default(),
        locations: obj.strings("locations").unwrap_or_default(),
        financing_types: obj
            .round_labels("financing_types")
            .unwrap_or_default()
            .iter()
            .map(|k| k.label())
            .collect(),
        deal_size_min: money.min,
        deal_size_max: money.max,
        num_employees: obj
            .enums(
                "num_employees",
                &spellings(Headcount::ALL, Headcount::as_str),
            )
            .unwrap_or_default(),
        investors: obj.uuids("investors").unwrap_or_default(),
        companies: obj.uuids("companies").unwrap_or_default(),
        min_relevance: obj.fraction("min_relevance"),
        search_query: obj.text("search_query"),
    }
}

pub fn parse_alert_configuration(body: &[u8]) -> Result<AlertDraft, ApiError> {
    parse_object(body, ALERT_CONFIGURATION, ErrorForm::Validation, |top| {
        top.require("configuration_name");
        AlertDraft {
            name: top
                .short_text("configuration_name", MAX_ALERT_NAME)
                .unwrap_or_default(),
            description: top.short_text("description", MAX_ALERT_DESCRIPTION),
            frequency: top
                .choice("frequency", &spellings(Frequency::ALL, Frequency::as_str))
                .unwrap_or(Frequency::Weekly),
            filters: top
                .object("filters")
                .map(|o| filters(&o))
                .unwrap_or_default(),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse(body: serde_json::Value) -> Result<AlertDraft, ApiError> {
        parse_alert_configuration(body.to_string().as_bytes())
    }

    fn codes(e: &ApiError) -> Vec<(String, String)> {
        e.details["errors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| {
                (
                    i["field"].as_str().unwrap().to_string(),
                    i["code"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    }

    #[test]
    fn the_documented_example_reads_with_canonical_labels() {
        let draft = parse(json!({
            "configuration_name": "Healthcare Seed Rounds", "frequency": "DAILY",
            "description": "Daily alerts for healthcare seed funding",
            "filters": { "industries": ["health-care"], "super_categories": ["biotechnology"],
                         "financing_types": ["seed", "Pre-Seed"], "deal_size_min": 500000, "deal_size_max": 5000000,
                         "num_employees": ["1-10", "11-50"], "investors": ["550e8400-e29b-41d4-a716-446655440000"] } }))
        .unwrap();
        assert_eq!(draft.name, "Healthcare Seed Rounds");
        assert_eq!(draft.frequency, Frequency::Daily);
        assert_eq!(draft.filters.financing_types, ["Seed", "Pre-Seed"]);
        assert_eq!(
            draft.filters.num_employees,
            [Headcount::H1To10, Headcount::H11To50]
        );
        assert_eq!(
            (draft.filters.deal_size_min, draft.filters.deal_size_max),
            (Some(5e5), Some(5e6))
        );
        assert!(draft.filters.companies.is_empty() && draft.filters.search_query.is_none());
    }

    #[test]
    fn the_name_is_required_and_the_frequency_defaults_to_weekly() {
        let e = parse(json!({"filters": {}})).unwrap_err();
        assert_eq!(
            codes(&e),
            [("configuration_name".into(), "REQUIRED_PARAMETER".into())]
        );
        assert_eq!(
            parse(json!({"configuration_name": "x"})).unwrap().frequency,
            Frequency::Weekly
        );
        let long = "x".repeat(MAX_ALERT_NAME + 1);
        let e = parse(json!({"configuration_name": long})).unwrap_err();
        assert_eq!(
            codes(&e),
            [("configuration_name".into(), "OUT_OF_RANGE".into())]
        );
    }

    #[test]
    fn bad_filters_get_the_deals_body_codes() {
        let e = parse(json!({"configuration_name": "x", "frequency": "HOURLY",
            "filters": {"financing_types": ["Series Z", {"type": "SEED"}], "investors": ["nope"],
                        "deal_size_min": 10, "deal_size_max": 1, "industries": [], "color": "red"}}))
        .unwrap_err();
        assert_eq!(e.status, 422);
        let found = codes(&e);
        for expected in [
            ("frequency", "INVALID_ENUM_VALUE"),
            ("filters.financing_types", "INVALID_FINANCING_TYPE"),
            ("filters.investors", "INVALID_UUID"),
            ("filters.deal_size_min", "INVALID_RANGE"),
            ("filters.industries", "EMPTY_ARRAY_PARAMETER"),
            ("filters.color", "UNKNOWN_PARAMETER"),
        ] {
            assert!(
                found.contains(&(expected.0.into(), expected.1.into())),
                "{expected:?} in {found:?}"
            );
        }
        let labels = &e.details["errors"]
            .as_array()
            .unwrap()
            .iter()
            .find(|i| i["code"] == "INVALID_FINANCING_TYPE")
            .unwrap()["validOptions"];
        assert!(labels.as_array().unwrap().contains(&json!("Series A")));
    }
}
