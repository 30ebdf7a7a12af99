//! POST `/deals` body → [`DealsQuery`] (reference §5.1).
//!
//! `identifiers.deal_ids`; `deal` facets (with `created_*`); `company`
//! facets of the deal's company, whose `company_ids` is `company.ids`;
//! `investors` taking part; paging; `sort_by`.

use crate::api::errors::ApiError;
use crate::query::request::{DealSort, DealsQuery};

use super::blocks::{
    company_filter, deal_filter, investors_filter, paging, CompanyKeys, DEAL_KEYS,
};
use super::problems::ErrorForm;
use super::reader::{parse_object, spellings};
use crate::api::declare::bodies::DEALS;

pub fn parse_deals(body: &[u8]) -> Result<DealsQuery, ApiError> {
    parse_object(body, DEALS, ErrorForm::Validation, |top| DealsQuery {
        deal_ids: top.object("identifiers").and_then(|o| o.uuids("deal_ids")),
        deal: top
            .object("deal")
            .map(|o| deal_filter(&o, &DEAL_KEYS))
            .unwrap_or_default(),
        company: top
            .object("company")
            .map(|o| company_filter(&o, &CompanyKeys::plain(Some("company_ids"))))
            .unwrap_or_default(),
        investors: top
            .object("investors")
            .map(|o| investors_filter(&o))
            .unwrap_or_default(),
        sort: top
            .choice("sort_by", &spellings(DealSort::ALL, DealSort::as_str))
            .unwrap_or_default(),
        page: paging(top),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::body::test_support::*;
    use crate::query::request::{CompanyFilter, DealFilter, InvestorsFilter, PageRequest, Range};
    use crate::schema::{Date, Headcount, IpoStatus, RoundKey, RoundType};
    use serde_json::json;

    fn parse(body: serde_json::Value) -> Result<DealsQuery, ApiError> {
        parse_deals(body.to_string().as_bytes())
    }

    fn round(round_type: RoundType, pre: bool) -> RoundKey {
        RoundKey {
            round_type,
            pre,
            extension: false,
        }
    }

    #[test]
    fn blank_bodies_are_the_default_query() {
        assert_eq!(parse_deals(b"").unwrap(), DealsQuery::default());
        assert_eq!(parse_deals(b"  \n").unwrap(), DealsQuery::default());
        assert_eq!(parse_deals(b"{}").unwrap(), DealsQuery::default());
        assert_eq!(
            parse_deals(b"{\"page\": 1,").unwrap_err().details["errors"][0]["code"],
            "INVALID_JSON"
        );
    }

    #[test]
    fn documented_example_bodies() {
        let e1 =
            parse(json!({ "company": { "locations": ["san-francisco-california"], "industries": ["fintech-e067"] },
                               "deal": { "financing_types": [ { "type": "SERIES_A" } ] } }))
            .unwrap();
        assert_eq!(
            e1.company.locations,
            Some(vec!["san-francisco-california".to_string()])
        );
        assert_eq!(
            e1.company.industries,
            Some(vec!["fintech-e067".to_string()])
        );
        assert_eq!(
            e1.deal.financing_types,
            Some(vec![round(RoundType::SeriesA, false)])
        );
        assert_eq!(
            parse(json!({"page_size": 5})).unwrap().page,
            PageRequest {
                page: 0,
                page_size: 5
            }
        );
        let pre_seed = parse(
            json!({"deal": {"financing_types": [{"type": "SEED", "pre": true}]}, "page_size": 10}),
        )
        .unwrap();
        assert_eq!(
            pre_seed.deal.financing_types,
            Some(vec![round(RoundType::Seed, true)])
        );
        let sized = parse(json!({"company": {"industries": ["artificial-intelligence"], "ipo_status": ["private"]},
                                 "deal": {"size_min": 5000000, "size_max": 100000000}, "page_size": 10}))
        .unwrap();
        assert_eq!(sized.company.ipo_status, Some(vec![IpoStatus::Private]));
        assert_eq!(
            sized.deal.size,
            Range {
                min: Some(5e6),
                max: Some(1e8)
            }
        );
        assert_eq!(
            parse(json!({"identifiers": {"deal_ids": [U1]}}))
                .unwrap()
                .deal_ids,
            Some(vec![uuid(U1)])
        );
        let week = parse(json!({"deal": {"date_start": "2026-07-27", "date_end": "2026-07-31"}, "page_size": 25, "sort_by": "most_recent_deal"})).unwrap();
        assert_eq!(
            week.deal.date,
            Range {
                min: Date::parse("2026-07-27"),
                max: Date::parse("2026-07-31")
            }
        );
        assert_eq!(week.sort, DealSort::MostRecentDeal);
    }

    #[test]
    fn every_key_lands_in_its_field() {
        let q = parse(json!({
            "identifiers": {"deal_ids": [U1]},
            "deal": {"financing_types": [{"type": "SERIES_B", "extension": true}], "size_min": 1, "size_max": 2,
                     "date_start": "2024-01-01", "date_end": "2024-12-31", "created_start": "2025-01-01", "created_end": "2025-02-01"},
            "company": {"company_ids": [U2], "locations": ["l"], "industries": ["i"], "super_categories": ["s"],
                        "employee_count": ["11-50"], "ipo_status": ["public"], "total_raised_min": 3, "total_raised_max": 4},
            "investors": {"investor_ids": [U1], "people_ids": [U2]},
            "page": 3, "page_size": 500, "sort_by": "smallest_raise"
        }))
        .unwrap();
        let expected = DealsQuery {
            deal_ids: Some(vec![uuid(U1)]),
            deal: DealFilter {
                financing_types: Some(vec![RoundKey {
                    round_type: RoundType::SeriesB,
                    pre: false,
                    extension: true,
                }]),
                size: Range {
                    min: Some(1.0),
                    max: Some(2.0),
                },
                date: Range {
                    min: Date::parse("2024-01-01"),
                    max: Date::parse("2024-12-31"),
                },
                created: Range {
                    min: Date::parse("2025-01-01"),
                    max: Date::parse("2025-02-01"),
                },
            },
            company: CompanyFilter {
                ids: Some(vec![uuid(U2)]),
                locations: Some(vec!["l".into()]),
                industries: Some(vec!["i".into()]),
                super_categories: Some(vec!["s".into()]),
                employee_count: Some(vec![Headcount::H11To50]),
                ipo_status: Some(vec![IpoStatus::Public]),
                total_raised: Range {
                    min: Some(3.0),
                    max: Some(4.0),
                },
            },
            investors: InvestorsFilter {
                investor_ids: Some(vec![uuid(U1)]),
                people_ids: Some(vec![uuid(U2)]),
            },
            sort: DealSort::SmallestRaise,
            page: PageRequest {
                page: 3,
                page_size: 500,
            },
        };
        assert_eq!(q, expected);
    }

    #[test]
    fn misplaced_keys_are_unknown_parameters() {
        // api-examples E13.6: `company_ids` belongs in `company`.
        for body in [
            json!({"company_ids": [U1]}),
            json!({"investor_ids": [U1]}),
            json!({"identifiers": {"investor_ids": [U1]}}),
        ] {
            let e = parse(body.clone()).unwrap_err();
            assert_eq!(
                (e.status, e.code.as_str()),
                (422, "UNKNOWN_PARAMETER"),
                "{body}"
            );
        }
        let e = parse(json!({"deal": {"deal_ids": [U1]}})).unwrap_err();
        let item = &e.details["errors"][0];
        assert_eq!(item["field"], "deal.deal_ids");
        assert_eq!(
            item["message"],
            "Unknown parameter(s): deal.deal_ids. Allowed parameters: financing_types, size_min, size_max, date_start, date_end, created_start, created_end"
        );
    }

    #[test]
    fn invalid_financing_type_is_422_on_the_array() {
        let e = parse(json!({"deal": {"financing_types": ["series-a"]}})).unwrap_err();
        assert_eq!(
            (e.status, e.code.as_str(), e.message.as_str()),
            (422, "VALIDATION_ERROR", "Invalid request parameters")
        );
        let item = &e.details["errors"][0];
        assert_eq!(
            (
                item["field"].as_str(),
                item["code"].as_str(),
                item["value"].as_str()
            ),
            (
                Some("deal.financing_types"),
                Some("INVALID_FINANCING_TYPE"),
                Some("series-a")
            )
        );
    }

    #[test]
    fn value_problems_are_400_and_all_reported() {
        let body = r#"{"page_size": 0, "page": "2", "deal": {"size_min": 10, "size_max": 1, "date_end": "31/12/2024"},
                       "company": {"company_ids": "x"}, "sort_by": null}"#;
        let e = parse_deals(body.as_bytes()).unwrap_err();
        assert_eq!((e.status, e.code.as_str()), (400, "VALIDATION_ERROR"));
        let fields = error_fields(&e);
        assert_eq!(
            fields,
            [
                "page_size",
                "page",
                "deal.size_min",
                "deal.date_end",
                "company.company_ids"
            ]
        );
        assert_eq!(
            e.details["errors"][0]["message"],
            "page_size must be an integer between 1 and 500"
        );
    }

    #[test]
    fn public_private_only() {
        let e = parse(json!({"company": {"ipo_status": ["acquired"]}})).unwrap_err();
        assert_eq!(
            (e.status, e.details["errors"][0]["code"].as_str()),
            (422, Some("INVALID_ENUM_VALUE"))
        );
        assert_eq!(
            e.details["errors"][0]["validOptions"],
            json!(["public", "private"])
        );
        let e = parse(json!({"company": {"ipo_status": "private"}})).unwrap_err();
        assert_eq!(
            (e.status, e.details["errors"][0]["code"].as_str()),
            (400, Some("INVALID_TYPE"))
        );
    }

    #[test]
    fn sort_values() {
        assert_eq!(
            parse(json!({"sort_by": "oldest_deal"})).unwrap().sort,
            DealSort::OldestDeal
        );
        assert_eq!(
            parse(json!({"sort_by": "largest_raise"})).unwrap().sort,
            DealSort::LargestRaise
        );
        let e = parse(json!({"sort_by": "newest"})).unwrap_err();
        assert_eq!(
            e.details["errors"][0]["validOptions"],
            json!([
                "most_recent_deal",
                "oldest_deal",
                "largest_raise",
                "smallest_raise"
            ])
        );
    }
}
