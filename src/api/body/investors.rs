//! POST `/investors` body → [`InvestorsQuery`] (reference §7.1).
//!
//! `identifiers` (one union of ids, domains, LinkedIn and Crunchbase URLs,
//! firm permalinks); `investor` firm facets; `company_investments`, the
//! portfolio filters (`Some` only when the block has a key), whose
//! `company_ids` is `company.ids`, `deal_size_*` is `deal.size` and
//! `deal_start_date`/`deal_end_date` is `deal.date`; paging; `sort_by`.

use crate::api::errors::ApiError;
use crate::query::request::{InvestorSort, InvestorsQuery, PortfolioFilter};

use super::blocks::{
    company_filter, deal_filter, headcounts, paging, semantic, CompanyKeys, DealKeys,
};
use super::identifiers::org_identifiers;
use super::problems::ErrorForm;
use super::reader::{parse_object, spellings, Obj};
use crate::api::declare::bodies::INVESTORS;

const PORTFOLIO_DEAL_KEYS: DealKeys = DealKeys {
    size: ("deal_size_min", "deal_size_max"),
    date: ("deal_start_date", "deal_end_date"),
    created: None,
};

pub fn parse_investors(body: &[u8]) -> Result<InvestorsQuery, ApiError> {
    parse_object(body, INVESTORS, ErrorForm::Validation, |top| {
        let investor = top.object("investor");
        InvestorsQuery {
            identifiers: top
                .object("identifiers")
                .and_then(|o| org_identifiers(&o, true)),
            locations: investor.as_ref().and_then(|o| o.strings("locations")),
            employee_count: investor
                .as_ref()
                .and_then(|o| headcounts(o, "employee_count")),
            portfolio: top
                .object("company_investments")
                .and_then(|o| portfolio(&o)),
            sort: top
                .choice(
                    "sort_by",
                    &spellings(InvestorSort::ALL, InvestorSort::as_str),
                )
                .unwrap_or_default(),
            page: paging(top),
        }
    })
}

fn portfolio(obj: &Obj) -> Option<PortfolioFilter> {
    let filter = PortfolioFilter {
        company: company_filter(obj, &CompanyKeys::plain(Some("company_ids"))),
        deal: deal_filter(obj, &PORTFOLIO_DEAL_KEYS),
        semantic: semantic(obj),
        only_lead_deals: obj.bool("only_lead_deals").unwrap_or(false),
        min_matching_deals: obj.int("min_matching_deals").map(|n| n as u32),
    };
    obj.has_keys().then_some(filter)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::body::test_support::*;
    use crate::query::request::{OrgIdentifiers, PageRequest, Range, Semantic};
    use crate::schema::{Date, Headcount, IpoStatus, RoundType};
    use serde_json::json;
    use uuid::Uuid;

    fn parse(body: serde_json::Value) -> Result<InvestorsQuery, ApiError> {
        parse_investors(body.to_string().as_bytes())
    }

    #[test]
    fn blank_body_is_the_default_query() {
        assert_eq!(parse_investors(b"").unwrap(), InvestorsQuery::default());
    }

    #[test]
    fn documented_bodies() {
        let q = parse(json!({ "investor": { "locations": ["san-francisco-california"] },
            "company_investments": { "industries": ["artificial-intelligence"],
                "financing_types": [ {"type": "SERIES_A"}, {"type": "SERIES_B"} ], "deal_start_date": "2023-01-01" },
            "page": 0, "page_size": 25, "sort_by": "most_recent_deal" }))
        .unwrap();
        assert_eq!(
            q.locations,
            Some(vec!["san-francisco-california".to_string()])
        );
        let p = q.portfolio.unwrap();
        assert_eq!(
            p.company.industries,
            Some(vec!["artificial-intelligence".to_string()])
        );
        assert_eq!(
            p.deal.financing_types,
            Some(vec![plain(RoundType::SeriesA), plain(RoundType::SeriesB)])
        );
        assert_eq!(
            p.deal.date,
            Range {
                min: Date::parse("2023-01-01"),
                max: None
            }
        );
        assert_eq!(
            (q.page, q.sort),
            (
                PageRequest {
                    page: 0,
                    page_size: 25
                },
                InvestorSort::MostRecentDeal
            )
        );

        let led = parse(json!({ "company_investments": { "industries": ["fintech"], "only_lead_deals": true,
            "min_matching_deals": 3, "deal_start_date": "2024-01-01" }, "sort_by": "deals_led_ltm", "page_size": 50 }))
        .unwrap();
        let p = led.portfolio.unwrap();
        assert_eq!(
            (p.only_lead_deals, p.min_matching_deals, led.sort),
            (true, Some(3), InvestorSort::DealsLedLtm)
        );

        let domains =
            parse(json!({"identifiers": {"domains": ["sequoiacap.com", "a16z.com"]}})).unwrap();
        assert_eq!(
            domains.identifiers.unwrap().domains,
            ["sequoiacap.com", "a16z.com"]
        );

        let semantic = parse(json!({"company_investments": {"search_query": "climate-focused deep tech startups"}, "page": 0, "page_size": 25})).unwrap();
        assert_eq!(
            semantic.portfolio.unwrap().semantic,
            Some(Semantic {
                query: "climate-focused deep tech startups".into(),
                min_relevance: 0.0,
                vector: None,
            })
        );
    }

    #[test]
    fn every_portfolio_key_lands_in_its_field() {
        let q = parse(json!({"company_investments": {
            "company_ids": [U1], "locations": ["l"], "super_categories": ["s"], "employee_count": ["1-10"], "ipo_status": ["public"],
            "total_raised_min": 1, "total_raised_max": 2, "deal_size_min": 3, "deal_size_max": 4, "deal_end_date": "2024-05-01",
            "min_relevance": 0.2 },
            "investor": {"employee_count": ["51-100"]},
            "identifiers": {"permalinks": ["sequoia-capital"], "crunchbase_urls": ["https://www.crunchbase.com/organization/sequoia-capital"]},
            "sort_by": "matching_deals"}))
        .unwrap();
        let p = q.portfolio.unwrap();
        assert_eq!(p.company.ids, Some(vec![Uuid::parse_str(U1).unwrap()]));
        assert_eq!(p.company.locations, Some(vec!["l".to_string()]));
        assert_eq!(p.company.employee_count, Some(vec![Headcount::H1To10]));
        assert_eq!(p.company.ipo_status, Some(vec![IpoStatus::Public]));
        assert_eq!(
            p.company.total_raised,
            Range {
                min: Some(1.0),
                max: Some(2.0)
            }
        );
        assert_eq!(
            p.deal.size,
            Range {
                min: Some(3.0),
                max: Some(4.0)
            }
        );
        assert_eq!(p.deal.date.max, Date::parse("2024-05-01"));
        assert_eq!(
            (p.semantic, p.only_lead_deals, p.min_matching_deals),
            (None, false, None)
        );
        assert_eq!(q.employee_count, Some(vec![Headcount::H51To100]));
        let expected = OrgIdentifiers {
            permalinks: vec!["sequoia-capital".into()],
            crunchbase: vec!["organization/sequoia-capital".into()],
            ..Default::default()
        };
        assert_eq!(q.identifiers, Some(expected));
        assert_eq!(q.sort, InvestorSort::MatchingDeals);
    }

    #[test]
    fn portfolio_is_some_only_with_a_key() {
        assert_eq!(
            parse(json!({"company_investments": {}})).unwrap().portfolio,
            None
        );
        assert_eq!(
            parse(json!({"company_investments": {"industries": null}}))
                .unwrap()
                .portfolio,
            None
        );
        assert!(
            parse(json!({"company_investments": {"only_lead_deals": false}}))
                .unwrap()
                .portfolio
                .is_some()
        );
    }

    #[test]
    fn rejected_keys_seen_live() {
        // api-examples E13.7.
        for body in [
            json!({"deal": {"deal_ids": [U1]}}),
            json!({"include_portfolio": true}),
            json!({"portfolio_company_ids": [U1]}),
        ] {
            let e = parse(body.clone()).unwrap_err();
            assert_eq!(
                (e.status, e.code.as_str()),
                (422, "UNKNOWN_PARAMETER"),
                "{body}"
            );
        }
        let e = parse(json!({"company_investments": {"date_start": "2024-01-01"}})).unwrap_err();
        assert_eq!(
            e.details["errors"][0]["field"],
            "company_investments.date_start"
        );
        assert_eq!(
            e.details["errors"][0]["validOptions"]
                .as_array()
                .unwrap()
                .len(),
            crate::api::declare::field::find(INVESTORS, "company_investments")
                .unwrap()
                .keys()
                .len()
        );
    }

    #[test]
    fn value_problems() {
        let e = parse(json!({"company_investments": {"min_matching_deals": 0}})).unwrap_err();
        assert_eq!(
            (e.status, e.details["errors"][0]["code"].as_str()),
            (400, Some("OUT_OF_RANGE"))
        );
        let e = parse(json!({"company_investments": {"only_lead_deals": "true"}})).unwrap_err();
        assert_eq!(
            (e.status, e.details["errors"][0]["code"].as_str()),
            (400, Some("INVALID_TYPE"))
        );
        let e = parse(json!({"company_investments": {"deal_start_date": "2024-02-01", "deal_end_date": "2024-01-01"}}))
            .unwrap_err();
        assert_eq!(
            e.details["errors"][0]["field"],
            "company_investments.deal_start_date"
        );
        assert_eq!(e.details["errors"][0]["code"], "INVALID_RANGE");
        let e = parse(json!({"sort_by": "most_recent_raise"})).unwrap_err();
        assert_eq!(
            (e.status, e.details["errors"][0]["code"].as_str()),
            (422, Some("INVALID_ENUM_VALUE"))
        );
    }
}
