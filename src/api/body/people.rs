//! POST `/people` body → [`PeopleQuery`] (reference §8.1, interface §4.1).
//!
//! `person_type`; `identifiers` (person ids, LinkedIn, Crunchbase, Twitter);
//! `person` facets; `company`, the current employer (`Some` only when the
//! block has a key), whose `ids` is `company.ids` and whose `ipo_status` also
//! allows `acquired` and `delisted`, with its own `latest_deal`; `investor`
//! (`Some` only when the block has a key): firm identifiers, firm facets and
//! `deals` (`Some` whenever present, even `{}`), whose `portfolio_locations`
//! and `portfolio_employee_count` are the portfolio company's `locations`
//! and `employee_count`; paging; `sort_by`.
//!
//! Unknown parameters answer the UnknownParamError body alone (§1.6).

use crate::api::errors::ApiError;
use crate::query::request::{
    EmployerFilter, InvestmentType, InvestorPersonFilter, LatestDealFilter, PeopleQuery,
    PersonDealsFilter, PersonFilter, PersonSort, PersonType,
};
use crate::schema::{ContactType, PersonRole};

use super::blocks::{
    company_filter, deal_filter, headcounts, paging, semantic, CompanyKeys, IpoChoices,
    DEAL_KEYS_NO_CREATED,
};
use super::identifiers::{org_identifiers, person_identifiers};
use super::problems::ErrorForm;
use super::reader::{parse_object, spellings, Obj};
use crate::api::declare::bodies::PEOPLE;

const EMPLOYER_KEYS: CompanyKeys = CompanyKeys {
    ipo: IpoChoices::All,
    ..CompanyKeys::plain(Some("ids"))
};
const PORTFOLIO_KEYS: CompanyKeys = CompanyKeys {
    ids: None,
    locations: "portfolio_locations",
    employee_count: "portfolio_employee_count",
    ipo: IpoChoices::Listed,
};

pub fn parse_people(body: &[u8]) -> Result<PeopleQuery, ApiError> {
    parse_object(body, PEOPLE, ErrorForm::People, |top| PeopleQuery {
        person_type: top
            .choice(
                "person_type",
                &spellings(PersonType::ALL, PersonType::as_str),
            )
            .unwrap_or_default(),
        identifiers: top
            .object("identifiers")
            .and_then(|o| person_identifiers(&o)),
        person: top.object("person").map(|o| person(&o)).unwrap_or_default(),
        company: top.object("company").and_then(|o| employer(&o)),
        investor: top.object("investor").and_then(|o| investor(&o)),
        sort: top
            .choice("sort_by", &spellings(PersonSort::ALL, PersonSort::as_str))
            .unwrap_or_default(),
        page: paging(top),
    })
}

fn person(obj: &Obj) -> PersonFilter {
    let contact_types = obj.enums(
        "contact_types",
        &spellings(ContactType::ALL, ContactType::as_str),
    );
    PersonFilter {
        roles: obj.enums("roles", &spellings(PersonRole::ALL, PersonRole::as_str)),
        contact_types: contact_types
            .map(|types| types.iter().map(|t| t.as_str().to_string()).collect()),
        job_titles: obj.strings("job_titles"),
        education_schools: obj.strings("education_schools"),
        linkedin_companies: obj.strings("linkedin_companies"),
    }
}

fn employer(obj: &Obj) -> Option<EmployerFilter> {
    let filter = EmployerFilter {
        company: company_filter(obj, &EMPLOYER_KEYS),
        semantic: semantic(obj),
        investor_people_ids: obj.uuids("investor_people_ids"),
        latest_deal: obj
            .object("latest_deal")
            .map(|o| latest_deal(&o))
            .unwrap_or_default(),
    };
    obj.has_keys().then_some(filter)
}

fn latest_deal(obj: &Obj) -> LatestDealFilter {
    LatestDealFilter {
        deal: deal_filter(obj, &DEAL_KEYS_NO_CREATED),
        investor_ids: obj.uuids("investor_ids"),
        investor_locations: obj.strings("investor_locations"),
    }
}

fn investor(obj: &Obj) -> Option<InvestorPersonFilter> {
    let filter = InvestorPersonFilter {
        firms: org_identifiers(obj, true),
        locations: obj.strings("locations"),
        employee_count: headcounts(obj, "employee_count"),
        deals: obj.object("deals").map(|o| deals(&o)),
    };
    obj.has_keys().then_some(filter)
}

fn deals(obj: &Obj) -> PersonDealsFilter {
    PersonDealsFilter {
        semantic: semantic(obj),
        investment_type: obj
            .choice(
                "investment_type",
                &spellings(InvestmentType::ALL, InvestmentType::as_str),
            )
            .unwrap_or_default(),
        only_lead_deals: obj.bool("only_lead_deals").unwrap_or(false),
        min_matching_deals: obj.int("min_matching_deals").map(|n| n as u32),
        deal: deal_filter(obj, &DEAL_KEYS_NO_CREATED),
        portfolio: company_filter(obj, &PORTFOLIO_KEYS),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::body::test_support::*;
    use crate::query::request::{
        CompanyFilter, OrgIdentifiers, PageRequest, PersonIdentifiers, Range, Semantic,
    };
    use crate::schema::{Date, Headcount, IpoStatus, RoundKey, RoundType};
    use serde_json::json;

    fn parse(body: serde_json::Value) -> Result<PeopleQuery, ApiError> {
        parse_people(body.to_string().as_bytes())
    }

    #[test]
    fn blank_body_is_the_default_query() {
        assert_eq!(parse_people(b"").unwrap(), PeopleQuery::default());
        assert_eq!(parse_people(b"{}").unwrap(), PeopleQuery::default());
    }

    #[test]
    fn documented_bodies() {
        let founders = parse(json!({"person": {"roles": ["founder"]}, "company": {"ipo_status": ["private"], "super_categories": ["financial-services-d7b6"]}, "page_size": 25})).unwrap();
        assert_eq!(founders.person.roles, Some(vec![PersonRole::Founder]));
        let employer = founders.company.unwrap();
        assert_eq!(employer.company.ipo_status, Some(vec![IpoStatus::Private]));
        assert_eq!(
            employer.company.super_categories,
            Some(vec!["financial-services-d7b6".to_string()])
        );
        assert_eq!(founders.page.page_size, 25);

        let linkedin = parse(json!({"identifiers": {"linkedin_urls": ["https://www.linkedin.com/in/joshua-kushner-711b45230/", "https://www.linkedin.com/in/eladgil/"]}})).unwrap();
        assert_eq!(
            linkedin.identifiers.unwrap().linkedin,
            ["in/joshua-kushner-711b45230", "in/eladgil"]
        );

        let angels = parse(json!({"investor": {"deals": {"investment_type": "angel", "min_matching_deals": 3, "date_start": "2024-01-01", "date_end": "2024-12-31"}}, "sort_by": "lead_deal_count", "page_size": 50})).unwrap();
        let deals = angels.investor.as_ref().unwrap().deals.as_ref().unwrap();
        assert_eq!(
            (deals.investment_type, deals.min_matching_deals),
            (InvestmentType::Angel, Some(3))
        );
        assert_eq!(
            deals.deal.date,
            Range {
                min: Date::parse("2024-01-01"),
                max: Date::parse("2024-12-31")
            }
        );
        assert_eq!(
            (
                angels.sort,
                angels.investor.as_ref().unwrap().firms.as_ref()
            ),
            (PersonSort::LeadDealCount, None)
        );

        let semantic = parse(json!({"person_type": "investor", "investor": {"deals": {"investment_type": "angel", "search_query": "gtm tooling", "min_relevance": 0.6, "min_matching_deals": 2, "date_start": "2024-01-01"}}, "page_size": 10})).unwrap();
        assert_eq!(semantic.person_type, PersonType::Investor);
        assert_eq!(
            semantic.investor.unwrap().deals.unwrap().semantic,
            Some(Semantic {
                query: "gtm tooling".into(),
                min_relevance: 0.6,
                vector: None,
            })
        );

        let team =
            parse(json!({"person_type": "company", "company": {"ids": [U1]}, "page_size": 10}))
                .unwrap();
        assert_eq!(
            (team.person_type, team.company.unwrap().company.ids),
            (PersonType::Company, Some(vec![uuid(U1)]))
        );

        let firm =
            parse(json!({"person_type": "investor", "investor": {"ids": [U2]}, "page_size": 10}))
                .unwrap();
        assert_eq!(
            firm.investor.unwrap().firms,
            Some(OrgIdentifiers {
                ids: vec![uuid(U2)],
                ..Default::default()
            })
        );
    }

    #[test]
    fn every_key_lands_in_its_field() {
        let q = parse(json!({
            "person_type": "any",
            "identifiers": {"ids": [U1], "crunchbase_urls": ["elad-gil"], "twitter_urls": ["@Jane"]},
            "person": {"contact_types": ["email", "linkedin"], "job_titles": ["cto"], "education_schools": ["mit"], "linkedin_companies": ["google"]},
            "company": {"search_query": "robots", "locations": ["l"], "industries": ["i"], "employee_count": ["10001+"],
                        "ipo_status": ["acquired", "delisted"], "total_raised_min": 5, "investor_people_ids": [U2],
                        "latest_deal": {"financing_types": [{"type": "SAFE"}], "size_max": 9, "investor_ids": [U1], "investor_locations": ["x"]}},
            "investor": {"domains": ["www.a16z.com", "sequoiacap.com"], "linkedin_urls": ["linkedin.com/company/a16z"], "permalinks": ["a16z"],
                         "locations": ["y"], "employee_count": ["11-50"],
                         "deals": {"only_lead_deals": true, "investment_type": "institutional", "size_min": 1, "industries": ["i2"],
                                   "super_categories": ["s2"], "portfolio_locations": ["p"], "portfolio_employee_count": ["1-10"],
                                   "ipo_status": ["public"], "total_raised_max": 7, "financing_types": [{"type": "GRANT"}]}},
            "page": 2, "page_size": 1, "sort_by": "filtered_deal_count"
        }))
        .unwrap();
        assert_eq!(
            q.identifiers,
            Some(PersonIdentifiers {
                ids: vec![uuid(U1)],
                linkedin: vec![],
                crunchbase: vec!["person/elad-gil".into()],
                twitter: vec!["jane".into()]
            })
        );
        assert_eq!(
            q.person.contact_types,
            Some(vec!["email".to_string(), "linkedin".to_string()])
        );
        assert_eq!(
            (q.person.job_titles.as_deref(), q.person.roles.as_ref()),
            (Some(&["cto".to_string()][..]), None)
        );
        assert_eq!(q.person.education_schools, Some(vec!["mit".to_string()]));
        assert_eq!(
            q.person.linkedin_companies,
            Some(vec!["google".to_string()])
        );

        let employer = q.company.unwrap();
        assert_eq!(
            employer.semantic.map(|s| s.query).as_deref(),
            Some("robots")
        );
        assert_eq!(
            employer.company.ipo_status,
            Some(vec![IpoStatus::Acquired, IpoStatus::Delisted])
        );
        assert_eq!(
            employer.company.employee_count,
            Some(vec![Headcount::H10001Plus])
        );
        assert_eq!(employer.company.total_raised.min, Some(5.0));
        assert_eq!(employer.investor_people_ids, Some(vec![uuid(U2)]));
        let latest = employer.latest_deal;
        assert_eq!(
            latest.deal.financing_types,
            Some(vec![RoundKey {
                round_type: RoundType::Safe,
                pre: false,
                extension: false
            }])
        );
        assert_eq!(
            (
                latest.deal.size.max,
                latest.investor_ids,
                latest.investor_locations
            ),
            (Some(9.0), Some(vec![uuid(U1)]), Some(vec!["x".into()]))
        );

        let investor = q.investor.unwrap();
        let firms = investor.firms.unwrap();
        assert_eq!(
            (firms.domains, firms.linkedin, firms.permalinks),
            (
                vec!["www.a16z.com".to_string(), "sequoiacap.com".into()],
                vec!["company/a16z".into()],
                vec!["a16z".into()]
            )
        );
        assert_eq!(
            (investor.locations, investor.employee_count),
            (Some(vec!["y".into()]), Some(vec![Headcount::H11To50]))
        );
        let deals = investor.deals.unwrap();
        assert_eq!(
            (
                deals.only_lead_deals,
                deals.investment_type,
                deals.deal.size.min
            ),
            (true, InvestmentType::Institutional, Some(1.0))
        );
        assert_eq!(deals.deal.financing_types.map(|f| f.len()), Some(1));
        let portfolio = CompanyFilter {
            ids: None,
            locations: Some(vec!["p".into()]),
            industries: Some(vec!["i2".into()]),
            super_categories: Some(vec!["s2".into()]),
            employee_count: Some(vec![Headcount::H1To10]),
            ipo_status: Some(vec![IpoStatus::Public]),
            total_raised: Range {
                min: None,
                max: Some(7.0),
            },
        };
        assert_eq!(deals.portfolio, portfolio);
        assert_eq!(
            (q.page, q.sort),
            (
                PageRequest {
                    page: 2,
                    page_size: 1
                },
                PersonSort::FilteredDealCount
            )
        );
    }

    #[test]
    fn blocks_are_some_only_with_a_key_and_deals_whenever_present() {
        let q = parse(json!({"company": {}, "investor": {}})).unwrap();
        assert_eq!((q.company, q.investor), (None, None));
        let q = parse(json!({"company": {"latest_deal": {}}, "investor": {"deals": {}}})).unwrap();
        assert_eq!(q.company.unwrap().latest_deal, LatestDealFilter::default());
        assert_eq!(
            q.investor.unwrap().deals,
            Some(PersonDealsFilter::default())
        );
        assert_eq!(
            parse(json!({"investor": {"deals": null}}))
                .unwrap()
                .investor,
            None
        );
    }

    #[test]
    fn unknown_parameters_answer_alone_in_the_people_form() {
        let body = r#"{"page_size": 0, "person": {"roles": ["founder"], "bogus": 1}, "investor": {"deals": {"created_start": "2024-01-01"}}}"#;
        let e = parse_people(body.as_bytes()).unwrap_err();
        assert_eq!((e.status, e.code.as_str()), (422, "UNKNOWN_PARAMETER"));
        assert_eq!(
            e.message,
            "Unknown parameter(s): person.bogus, investor.deals.created_start. Allowed parameters: roles, contact_types, job_titles, education_schools, linkedin_companies"
        );
        assert_eq!(
            e.details,
            json!({"unknownParameters": ["person.bogus", "investor.deals.created_start"],
                   "allowedParameters": ["roles", "contact_types", "job_titles", "education_schools", "linkedin_companies"]})
        );
        let e = parse(
            json!({"investor": {"deals": {"investment_type": "angel", "financing_types": [{"type": "SEED", "x": 1}]}}}),
        )
        .unwrap_err();
        assert_eq!(
            e.details["unknownParameters"],
            json!(["investor.deals.financing_types[0].x"])
        );
        assert_eq!(
            e.details["allowedParameters"],
            json!(["type", "pre", "extension"])
        );
    }

    #[test]
    fn other_problems_use_the_validation_form() {
        let e = parse(json!({"person_type": "angel"})).unwrap_err();
        assert_eq!(
            (
                e.status,
                e.code.as_str(),
                e.details["errors"][0]["code"].as_str()
            ),
            (422, "VALIDATION_ERROR", Some("INVALID_ENUM_VALUE"))
        );
        assert_eq!(
            e.details["errors"][0]["validOptions"],
            json!(["any", "company", "investor"])
        );
        let e = parse(json!({"investor": {"deals": {"investment_type": "vc"}}})).unwrap_err();
        assert_eq!(
            e.details["errors"][0]["validOptions"],
            json!(["all", "angel", "institutional"])
        );
        let e = parse(json!({"person": {"roles": ["cto"], "contact_types": ["fax"]}})).unwrap_err();
        assert_eq!(e.details["errors"].as_array().unwrap().len(), 2);
        let e = parse(json!({"company": {"search_query": ""}})).unwrap_err();
        assert_eq!(
            (e.status, e.details["errors"][0]["code"].as_str()),
            (400, Some("EMPTY_STRING"))
        );
    }

    #[test]
    fn ipo_status_choices_differ_between_employer_and_portfolio() {
        assert!(parse(json!({"company": {"ipo_status": ["delisted"]}})).is_ok());
        let e = parse(json!({"investor": {"deals": {"ipo_status": ["acquired"]}}})).unwrap_err();
        assert_eq!(e.details["errors"][0]["field"], "investor.deals.ipo_status");
        assert_eq!(
            e.details["errors"][0]["validOptions"],
            json!(["public", "private"])
        );
    }

    #[test]
    fn blank_identifiers_are_refused() {
        // api-examples E13.5: the hosted API answered the whole table; we refuse.
        let e = parse(json!({"identifiers": {"linkedin_urls": [""]}, "page_size": 1})).unwrap_err();
        assert_eq!(
            (
                e.status,
                e.details["errors"][0]["field"].as_str(),
                e.details["errors"][0]["code"].as_str()
            ),
            (400, Some("identifiers.linkedin_urls"), Some("EMPTY_STRING"))
        );
        let e = parse(json!({"investor": {"permalinks": [" "]}})).unwrap_err();
        assert_eq!(e.details["errors"][0]["code"], "EMPTY_STRING");
        // A company URL is no person identifier: dropped, so the block matches nothing.
        let q = parse(
            json!({"identifiers": {"linkedin_urls": ["https://linkedin.com/company/stripe"]}}),
        )
        .unwrap();
        assert_eq!(q.identifiers, Some(PersonIdentifiers::default()));
    }

    #[test]
    fn sorts_and_created_keys() {
        for sort in PersonSort::ALL {
            assert_eq!(
                parse(json!({"sort_by": sort.as_str()})).unwrap().sort,
                *sort
            );
        }
        let e = parse(json!({"company": {"latest_deal": {"created_start": "2024-01-01"}}}))
            .unwrap_err();
        assert_eq!(
            e.details["unknownParameters"],
            json!(["company.latest_deal.created_start"])
        );
    }
}
