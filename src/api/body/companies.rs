//! POST `/companies` body → [`CompaniesQuery`] (reference §6.1).
//!
//! `identifiers` (one union of ids, domains, LinkedIn and Crunchbase URLs);
//! `company` facets plus semantic `search_query`; `latest_deal` facets of
//! the most recent round with its `investor_ids`; `investors` across all
//! rounds; paging; `sort_by`.

use crate::api::errors::ApiError;
use crate::query::request::{CompaniesQuery, CompanySort, LatestDealFilter};

use super::blocks::{
    company_filter, deal_filter, investors_filter, paging, semantic, CompanyKeys, DEAL_KEYS,
};
use super::identifiers::org_identifiers;
use super::problems::ErrorForm;
use super::reader::{parse_object, spellings, Obj};
use crate::api::declare::bodies::COMPANIES;

fn sorts() -> Vec<(&'static str, CompanySort)> {
    spellings(CompanySort::ALL, CompanySort::as_str)
}

pub fn parse_companies(body: &[u8]) -> Result<CompaniesQuery, ApiError> {
    parse_object(body, COMPANIES, ErrorForm::Validation, |top| {
        let company = top.object("company");
        CompaniesQuery {
            identifiers: top
                .object("identifiers")
                .and_then(|o| org_identifiers(&o, false)),
            company: company
                .as_ref()
                .map(|o| company_filter(o, &CompanyKeys::plain(None)))
                .unwrap_or_default(),
            semantic: company.as_ref().and_then(semantic),
            latest_deal: top
                .object("latest_deal")
                .map(|o| latest_deal(&o))
                .unwrap_or_default(),
            investors: top
                .object("investors")
                .map(|o| investors_filter(&o))
                .unwrap_or_default(),
            sort: top.choice("sort_by", &sorts()).unwrap_or_default(),
            page: paging(top),
        }
    })
}

fn latest_deal(obj: &Obj) -> LatestDealFilter {
    LatestDealFilter {
        deal: deal_filter(obj, &DEAL_KEYS),
        investor_ids: obj.uuids("investor_ids"),
        investor_locations: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::body::test_support::*;
    use crate::query::request::{OrgIdentifiers, PageRequest, Range, Semantic};
    use crate::schema::{Date, IpoStatus, RoundType};
    use serde_json::json;
    use uuid::Uuid;

    fn parse(body: serde_json::Value) -> Result<CompaniesQuery, ApiError> {
        parse_companies(body.to_string().as_bytes())
    }

    #[test]
    fn blank_body_is_the_default_query() {
        assert_eq!(parse_companies(b"").unwrap(), CompaniesQuery::default());
    }

    #[test]
    fn documented_feed_body() {
        let q = parse(json!({
            "company": { "locations": ["san-francisco-california"], "super_categories": ["artificial-intelligence-e551"], "ipo_status": ["private"] },
            "latest_deal": { "financing_types": [ {"type": "SEED"}, {"type": "SERIES_A"} ], "created_start": "2026-07-01" },
            "page": 0, "page_size": 50, "sort_by": "most_recent_raise" }))
        .unwrap();
        assert_eq!(
            q.company.super_categories,
            Some(vec!["artificial-intelligence-e551".to_string()])
        );
        assert_eq!(q.company.ipo_status, Some(vec![IpoStatus::Private]));
        assert_eq!(
            q.latest_deal.deal.financing_types,
            Some(vec![plain(RoundType::Seed), plain(RoundType::SeriesA)])
        );
        assert_eq!(
            q.latest_deal.deal.created,
            Range {
                min: Date::parse("2026-07-01"),
                max: None
            }
        );
        assert_eq!(
            (q.page, q.sort, q.semantic),
            (
                PageRequest {
                    page: 0,
                    page_size: 50
                },
                CompanySort::MostRecentRaise,
                None
            )
        );
    }

    #[test]
    fn other_documented_bodies() {
        let semantic =
            parse(json!({"company": {"search_query": "AI healthcare diagnostics startups"}, "page_size": 5})).unwrap();
        assert_eq!(
            semantic.semantic,
            Some(Semantic {
                query: "AI healthcare diagnostics startups".into(),
                min_relevance: 0.0,
                vector: None,
            })
        );
        assert!(!semantic.company.is_set());
        let domains =
            parse(json!({"identifiers": {"domains": ["stripe.com", "airbnb.com", "notion.so"]}}))
                .unwrap();
        let expected = OrgIdentifiers {
            domains: vec!["stripe.com".into(), "airbnb.com".into(), "notion.so".into()],
            ..Default::default()
        };
        assert_eq!(domains.identifiers, Some(expected));
        let latest =
            parse(json!({"latest_deal": {"investor_ids": [U1, U2]}, "sort_by": "most_recent_raise", "page_size": 25}))
                .unwrap();
        assert_eq!(latest.latest_deal.investor_ids.map(|v| v.len()), Some(2));
        let both = parse(json!({"company": {"search_query": "health tracking wearables", "min_relevance": 0.3}, "investors": {"people_ids": [U1]}, "page_size": 5})).unwrap();
        assert_eq!(both.semantic.map(|s| s.min_relevance), Some(0.3));
        assert_eq!(
            both.investors.people_ids,
            Some(vec![Uuid::parse_str(U1).unwrap()])
        );
    }

    #[test]
    fn identifiers_normalise_drop_unknown_forms_and_keep_www() {
        let q = parse(json!({"identifiers": {
            "ids": [U1],
            "domains": ["https://Stripe.com/about", "www.stripe.com", "not a domain"],
            "linkedin_urls": ["https://www.linkedin.com/company/stripe/", "https://example.com/x"],
            "crunchbase_urls": ["https://www.crunchbase.com/organization/stripe"] }}))
        .unwrap();
        let ids = q.identifiers.unwrap();
        assert_eq!(ids.ids, vec![Uuid::parse_str(U1).unwrap()]);
        assert_eq!(ids.domains, ["stripe.com", "www.stripe.com"]);
        assert_eq!(ids.linkedin, ["company/stripe"]);
        assert_eq!(ids.crunchbase, ["organization/stripe"]);
        // Everything dropped: a present block that matches nothing.
        assert_eq!(
            parse(json!({"identifiers": {"domains": ["nope"]}}))
                .unwrap()
                .identifiers,
            Some(OrgIdentifiers::default())
        );
        assert_eq!(parse(json!({"identifiers": {}})).unwrap().identifiers, None);
        assert_eq!(
            parse(json!({"identifiers": {"ids": null}}))
                .unwrap()
                .identifiers,
            None
        );
    }

    #[test]
    fn identifier_problems() {
        let e = parse(json!({"identifiers": {"ids": []}})).unwrap_err();
        assert_eq!(
            (e.status, e.details["errors"][0]["code"].as_str()),
            (422, Some("EMPTY_ARRAY_PARAMETER"))
        );
        assert_eq!(
            e.details["errors"][0]["message"],
            "identifiers.ids must not be an empty array; omit the key instead"
        );
        let e = parse(json!({"identifiers": {"domains": [""]}})).unwrap_err();
        assert_eq!(
            (e.status, e.details["errors"][0]["code"].as_str()),
            (400, Some("EMPTY_STRING"))
        );
        let e = parse(json!({"identifiers": {"ids": ["nope"]}})).unwrap_err();
        assert_eq!(
            (
                e.status,
                e.details["errors"][0]["code"].as_str(),
                e.details["errors"][0]["value"].as_str()
            ),
            (400, Some("INVALID_UUID"), Some("nope"))
        );
        let e = parse(json!({"identifiers": {"domains": vec!["a.com"; 101]}})).unwrap_err();
        assert_eq!(
            (e.status, e.details["errors"][0]["code"].as_str()),
            (400, Some("TOO_MANY_ITEMS"))
        );
        let e = parse(json!({"identifiers": {"permalinks": ["stripe"]}})).unwrap_err();
        assert_eq!((e.status, e.code.as_str()), (422, "UNKNOWN_PARAMETER"));
    }

    #[test]
    fn semantic_rules() {
        let e = parse(json!({"company": {"search_query": "  "}})).unwrap_err();
        assert_eq!(e.details["errors"][0]["code"], "EMPTY_STRING");
        let e = parse(json!({"company": {"search_query": "x", "min_relevance": 2}})).unwrap_err();
        assert_eq!(
            (
                e.details["errors"][0]["field"].as_str(),
                e.details["errors"][0]["code"].as_str()
            ),
            (Some("company.min_relevance"), Some("OUT_OF_RANGE"))
        );
        // Without a query, min_relevance is checked and ignored.
        assert_eq!(
            parse(json!({"company": {"min_relevance": 0.5}}))
                .unwrap()
                .semantic,
            None
        );
    }

    #[test]
    fn latest_deal_keys_and_sorts() {
        let q = parse(json!({"latest_deal": {"size_min": 1, "size_max": 2, "date_start": "2024-01-01", "date_end": "2024-02-01", "created_end": "2024-03-01"},
                             "sort_by": "most_investors"}))
        .unwrap();
        assert_eq!(
            q.latest_deal.deal.size,
            Range {
                min: Some(1.0),
                max: Some(2.0)
            }
        );
        assert_eq!(q.latest_deal.deal.date.max, Date::parse("2024-02-01"));
        assert_eq!(q.latest_deal.deal.created.max, Date::parse("2024-03-01"));
        assert_eq!(q.sort, CompanySort::MostInvestors);
        for (text, sort) in sorts() {
            assert_eq!(parse(json!({"sort_by": text})).unwrap().sort, sort);
        }
        let e = parse(json!({"latest_deal": {"investor_locations": ["x"]}})).unwrap_err();
        assert_eq!(
            e.details["errors"][0]["field"],
            "latest_deal.investor_locations"
        );
    }
}
