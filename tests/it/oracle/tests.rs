//! The oracle checked by hand on the fixture dump: every expectation below
//! was read off `fixtures/README.md` and `fixtures/dump/`, not computed.

use std::collections::BTreeSet;

use fundsearch::query::request::*;
use fundsearch::schema::{Date, PersonRole, RoundKey, RoundType};
use uuid::Uuid;

use super::datasets::fixture_world;
use super::generate::Gen;
use super::*;
use crate::common::fixture_id;

const EVERYTHING: PageRequest = PageRequest {
    page: 0,
    page_size: 100,
};

fn day(text: &str) -> Date {
    Date::parse(text).unwrap()
}

fn days(min: &str, max: &str) -> Range<Date> {
    Range {
        min: Some(day(min)),
        max: Some(day(max)),
    }
}

fn ids(kind: &str, keys: &[&str]) -> Vec<Uuid> {
    keys.iter().map(|k| fixture_id(kind, k)).collect()
}

fn strings(values: &[&str]) -> Option<Vec<String>> {
    Some(values.iter().map(|v| v.to_string()).collect())
}

/// The page as a set, checked against the total (so the page is everything).
fn matched(e: &Expected) -> BTreeSet<Uuid> {
    assert_eq!(
        e.ids.len() as u64,
        e.total,
        "the test page must hold every match"
    );
    e.ids.iter().copied().collect()
}

fn set(kind: &str, keys: &[&str]) -> BTreeSet<Uuid> {
    ids(kind, keys).into_iter().collect()
}

fn companies_in(filter: CompanyFilter) -> BTreeSet<Uuid> {
    matched(&expect_companies(
        fixture_world(),
        &CompaniesQuery {
            company: filter,
            page: EVERYTHING,
            ..Default::default()
        },
    ))
}

fn deals_with(filter: DealFilter) -> BTreeSet<Uuid> {
    matched(&expect_deals(
        fixture_world(),
        &DealsQuery {
            deal: filter,
            page: EVERYTHING,
            ..Default::default()
        },
    ))
}

#[test]
fn a_location_matches_everything_located_below_it() {
    let located = |l: &[&str]| {
        companies_in(CompanyFilter {
            locations: strings(l),
            ..Default::default()
        })
    };
    let sf = [
        "lumina-health",
        "orbital-systems",
        "kairo-ai",
        "vectra-vision",
        "pixel-forge",
    ];
    let pa = ["helix-bio", "cardionova", "verdant-genomics"];
    let nyc = [
        "lumina-health-systems",
        "kairos-insurance",
        "crowdly",
        "synapse-health",
        "atlas-insurance-group",
    ];
    let bay_area: Vec<&str> = sf.iter().chain(&pa).copied().collect();
    let california: Vec<&str> = bay_area
        .iter()
        .copied()
        .chain(["quiet-harbor-software"])
        .collect();
    let us: Vec<&str> = california.iter().copied().chain(nyc).collect();
    assert_eq!(located(&["united-states"]), set("company", &us));
    assert_eq!(located(&["california"]), set("company", &california));
    assert_eq!(
        located(&["san-francisco-bay-area"]),
        set("company", &bay_area),
        "the region, not the state-only company"
    );
    assert_eq!(located(&["san-francisco"]), set("company", &sf));
    assert_eq!(
        located(&["zurich", "brazil"]),
        set(
            "company",
            &[
                "zurich-robotics",
                "sao-paulo-pagamentos",
                "nandu-labs",
                "lumio"
            ]
        )
    );
    assert_eq!(
        located(&["atlantis"]),
        BTreeSet::new(),
        "an unknown permalink matches nothing"
    );
}

#[test]
fn a_super_category_matches_companies_of_its_industries() {
    let supers = |s: &[&str]| {
        companies_in(CompanyFilter {
            super_categories: strings(s),
            ..Default::default()
        })
    };
    let health = [
        "lumina-health",
        "lumina-health-systems",
        "helix-bio",
        "kairos-insurance",
        "cardionova",
        "verdant-genomics",
        "synapse-health",
    ];
    assert_eq!(supers(&["health-care-9c4d"]), set("company", &health));
    let ai = [
        "zurich-robotics",
        "lumina-health",
        "lumen-labs",
        "orbital-systems",
        "kairo-ai",
        "blue-fern-analytics",
        "cardionova",
        "vectra-vision",
        "synapse-ai",
        "synapse-health",
    ];
    assert_eq!(
        supers(&["artificial-intelligence-e551"]),
        set("company", &ai)
    );
    let industry = companies_in(CompanyFilter {
        industries: strings(&["artificial-intelligence"]),
        ..Default::default()
    });
    assert_eq!(
        industry,
        set("company", &["lumina-health", "orbital-systems", "kairo-ai"]),
        "the industry of the same name"
    );
    assert_eq!(
        supers(&["artificial-intelligence"]),
        BTreeSet::new(),
        "an industry is not a super category"
    );
}

#[test]
fn date_bounds_are_inclusive_on_both_ends() {
    let same_day = deals_with(DealFilter {
        date: days("2026-03-15", "2026-03-15"),
        ..Default::default()
    });
    assert_eq!(
        same_day,
        set(
            "deal",
            &["lumina-health:4", "kairo-ai:3", "kairos-insurance:2"]
        )
    );
    let last_year = deals_with(DealFilter {
        date: days("2025-11-01", "2026-11-01"),
        ..Default::default()
    });
    assert_eq!(
        last_year.len(),
        10,
        "README: 10 dated deals in the last 12 months"
    );
    assert!(
        last_year.contains(&fixture_id("deal", "lumen-labs:3"))
            && last_year.contains(&fixture_id("deal", "crowdly:2"))
    );
}

#[test]
fn created_bounds_cover_the_whole_day() {
    let created = |min: Option<&str>, max: Option<&str>| {
        deals_with(DealFilter {
            created: Range {
                min: min.map(day),
                max: max.map(day),
            },
            ..Default::default()
        })
    };
    assert_eq!(
        created(None, Some("2019-02-01")),
        set("deal", &["lumina-health-systems:1", "helix-bio:1"]),
        "noon of the last day"
    );
    assert_eq!(
        created(Some("2019-09-12"), Some("2019-09-12")),
        set("deal", &["zurich-robotics:1"]),
        "created two days after its date"
    );
    assert_eq!(
        created(Some("2019-06-03"), Some("2019-06-03")),
        set("deal", &["lumina-health:1"])
    );
    assert_eq!(
        created(Some("2000-01-01"), None).len(),
        56 - 3,
        "deals without created_at never match"
    );
}

#[test]
fn money_bounds_compare_whole_dollars() {
    let sized = |min: Option<f64>, max: Option<f64>| {
        deals_with(DealFilter {
            size: Range { min, max },
            ..Default::default()
        })
    };
    assert_eq!(
        sized(Some(19_999_999.5), Some(20_000_000.4)),
        set("deal", &["helix-bio:1", "kairo-ai:3", "kairos-insurance:2"])
    );
    assert_eq!(
        sized(None, Some(499_999.9)),
        set("deal", &["nandu-labs:1", "shenzhen-zhineng-keji:1"]),
        "max rounds down"
    );
    assert_eq!(
        sized(Some(499_999.1), Some(500_000.0)),
        set("deal", &["kairo-ai:1", "pixel-forge:3"]),
        "min rounds up"
    );
    assert_eq!(
        sized(Some(0.0), None).len(),
        56 - 2,
        "deals without an amount never match"
    );
}

#[test]
fn financing_types_match_type_and_both_flags() {
    let typed = |round_type, pre, extension| {
        deals_with(DealFilter {
            financing_types: Some(vec![RoundKey {
                round_type,
                pre,
                extension,
            }]),
            ..Default::default()
        })
    };
    assert_eq!(
        typed(RoundType::Seed, true, false),
        set(
            "deal",
            &[
                "zurich-robotics:1",
                "nandu-labs:1",
                "shenzhen-zhineng-keji:1"
            ]
        )
    );
    assert_eq!(
        typed(RoundType::SeriesA, false, true),
        set("deal", &["sao-paulo-pagamentos:3", "lumen-labs:3"])
    );
    assert!(
        !typed(RoundType::Seed, false, false).contains(&fixture_id("deal", "zurich-robotics:1")),
        "SEED is not pre-seed"
    );
}

#[test]
fn deal_sorts_put_missing_values_last_in_both_directions() {
    let w = fixture_world();
    let sorted = |sort| {
        expect_deals(
            w,
            &DealsQuery {
                sort,
                page: EVERYTHING,
                ..Default::default()
            },
        )
        .ids
    };
    let oldest = sorted(DealSort::OldestDeal);
    assert_eq!(
        oldest[..2],
        ids("deal", &["helix-bio:1", "lumina-health-systems:1"])
    );
    assert_eq!(
        oldest[54..].iter().collect::<BTreeSet<_>>(),
        ids("deal", &["quantapay:3", "vectra-vision:3"])
            .iter()
            .collect()
    );
    let largest = sorted(DealSort::LargestRaise);
    assert_eq!(
        largest[..2],
        ids("deal", &["orbital-systems:1", "helix-bio:5"])
    );
    let smallest = sorted(DealSort::SmallestRaise);
    assert_eq!(
        smallest[..2],
        ids("deal", &["shenzhen-zhineng-keji:1", "nandu-labs:1"])
    );
    for order in [largest, smallest] {
        let nulls: BTreeSet<&Uuid> = order[54..].iter().collect();
        assert_eq!(
            nulls,
            ids("deal", &["shenzhen-zhineng-keji:2", "vectra-vision:3"])
                .iter()
                .collect()
        );
    }
    let page = expect_deals(
        w,
        &DealsQuery {
            sort: DealSort::OldestDeal,
            page: PageRequest {
                page: 1,
                page_size: 2,
            },
            ..Default::default()
        },
    );
    assert_eq!((page.ids, page.total), (oldest[2..4].to_vec(), 56));
}

#[test]
fn deal_and_company_investor_joins() {
    let w = fixture_world();
    let daniel = InvestorsFilter {
        people_ids: Some(ids("person", &["daniel-kim"])),
        ..Default::default()
    };
    let deals = expect_deals(
        w,
        &DealsQuery {
            investors: daniel.clone(),
            page: EVERYTHING,
            ..Default::default()
        },
    );
    let partnered = [
        "lumina-health:1",
        "lumina-health:2",
        "lumina-health:3",
        "lumina-health-systems:1",
        "lumina-health-systems:2",
        "vectra-vision:1",
        "kairo-ai:2",
        "kairo-ai:3",
        "pixel-forge:1",
    ];
    assert_eq!(matched(&deals), set("deal", &partnered));
    let companies = expect_companies(
        w,
        &CompaniesQuery {
            investors: daniel,
            page: EVERYTHING,
            ..Default::default()
        },
    );
    assert_eq!(
        matched(&companies),
        set(
            "company",
            &[
                "lumina-health",
                "lumina-health-systems",
                "vectra-vision",
                "kairo-ai",
                "pixel-forge"
            ]
        )
    );
    let nobody = InvestorsFilter {
        people_ids: Some(vec![]),
        ..Default::default()
    };
    assert_eq!(
        expect_deals(
            w,
            &DealsQuery {
                investors: nobody,
                ..Default::default()
            }
        )
        .total,
        0,
        "an empty id list matches nothing"
    );
}

#[test]
fn latest_deal_looks_at_the_most_recent_round_only() {
    let w = fixture_world();
    let northwind = Some(ids("firm", &["northwind-capital"]));
    let latest = LatestDealFilter {
        investor_ids: northwind.clone(),
        ..Default::default()
    };
    let by_latest = expect_companies(
        w,
        &CompaniesQuery {
            latest_deal: latest,
            page: EVERYTHING,
            ..Default::default()
        },
    );
    let mut expected = vec![
        "zurich-robotics",
        "sao-paulo-pagamentos",
        "lumina-health",
        "lumina-health-systems",
        "quantapay",
        "kairo-ai",
        "kairos-insurance",
        "vectra-vision",
        "aurora-bank",
        "atlas-insurance-group",
    ];
    assert_eq!(
        matched(&by_latest),
        set("company", &expected),
        "undated rounds are never the latest"
    );
    let any = InvestorsFilter {
        investor_ids: northwind,
        ..Default::default()
    };
    let by_any = expect_companies(
        w,
        &CompaniesQuery {
            investors: any,
            page: EVERYTHING,
            ..Default::default()
        },
    );
    expected.push("helix-bio");
    assert_eq!(matched(&by_any), set("company", &expected));
    let undated = LatestDealFilter {
        deal: DealFilter {
            size: Range {
                min: Some(0.0),
                max: None,
            },
            ..Default::default()
        },
        ..Default::default()
    };
    let sized = expect_companies(
        w,
        &CompaniesQuery {
            latest_deal: undated,
            page: EVERYTHING,
            ..Default::default()
        },
    );
    assert_eq!(
        sized.total,
        25 - 4 - 1,
        "no deal (4 companies) or a latest deal without amount (shenzhen) never match"
    );
}

#[test]
fn investors_count_portfolio_deals_and_apply_min_matching_deals() {
    let w = fixture_world();
    let london = CompanyFilter {
        locations: strings(&["london"]),
        ..Default::default()
    };
    let query = |only_lead_deals, min| InvestorsQuery {
        portfolio: Some(PortfolioFilter {
            company: london.clone(),
            only_lead_deals,
            min_matching_deals: min,
            ..Default::default()
        }),
        sort: InvestorSort::MatchingDeals,
        page: EVERYTHING,
        ..Default::default()
    };
    let counts = |deal_count, lead_count| FilteredCounts {
        deal_count,
        lead_count,
        most_recent_date: None,
    };
    let two = expect_investors(w, &query(false, Some(2)));
    assert_eq!(
        two.ids,
        ids("firm", &["thames-ventures", "northwind-capital"])
    );
    assert_eq!(two.filtered, vec![counts(10, 9), counts(3, 1)]);
    let led = expect_investors(w, &query(true, Some(2)));
    assert_eq!(
        (led.ids, led.filtered),
        (ids("firm", &["thames-ventures"]), vec![counts(9, 9)])
    );
    let one = expect_investors(w, &query(false, None));
    assert_eq!(
        matched(&one),
        set(
            "firm",
            &[
                "thames-ventures",
                "northwind-capital",
                "harbor-point-ventures",
                "alpine-partners"
            ]
        )
    );
    let plain = expect_investors(
        w,
        &InvestorsQuery {
            page: EVERYTHING,
            ..Default::default()
        },
    );
    assert_eq!(
        (plain.total, plain.filtered.len()),
        (8, 0),
        "no portfolio key: no counts"
    );
}

#[test]
fn investor_identifiers_are_one_union() {
    let w = fixture_world();
    let by = |ids: OrgIdentifiers| {
        matched(&expect_investors(
            w,
            &InvestorsQuery {
                identifiers: Some(ids),
                page: EVERYTHING,
                ..Default::default()
            },
        ))
    };
    let domains = OrgIdentifiers {
        domains: vec!["harborpoint.vc".into()],
        ..Default::default()
    };
    assert_eq!(
        by(domains),
        set("firm", &["harbor-point-ventures", "harbor-point-growth"])
    );
    let mixed = OrgIdentifiers {
        permalinks: vec!["ipe-capital".into()],
        ids: ids("firm", &["seedling-fund"]),
        ..Default::default()
    };
    assert_eq!(by(mixed), set("firm", &["ipe-capital", "seedling-fund"]));
    assert_eq!(
        by(OrgIdentifiers {
            domains: vec!["www.harborpoint.vc".into()],
            ..Default::default()
        }),
        BTreeSet::new()
    );
}

#[test]
fn person_type_splits_investors_from_everyone_else() {
    let w = fixture_world();
    let typed = |person_type| {
        expect_people(
            w,
            &PeopleQuery {
                person_type,
                page: EVERYTHING,
                ..Default::default()
            },
        )
    };
    let investors = [
        "carlos-mendes",
        "daniel-kim",
        "aisha-bello",
        "marcus-webb",
        "olivia-chen",
        "zoe-muller",
        "elena-petrova",
        "joao-silva",
        "priya-raman",
        "tom-becker",
    ];
    assert_eq!(
        matched(&typed(PersonType::Investor)),
        set("person", &investors)
    );
    let company = typed(PersonType::Company);
    assert_eq!(company.total, 22);
    assert!(
        matched(&company).contains(&fixture_id("person", "wei-zhang")),
        "works at a firm, on no deal"
    );
    assert_eq!(typed(PersonType::Any).total, 32);
}

#[test]
fn person_facets_and_employer_filters() {
    let w = fixture_world();
    let people = |q: PeopleQuery| {
        matched(&expect_people(
            w,
            &PeopleQuery {
                page: EVERYTHING,
                ..q
            },
        ))
    };
    let schools = PersonFilter {
        education_schools: strings(&["stanford-university"]),
        ..Default::default()
    };
    assert_eq!(
        people(PeopleQuery {
            person: schools,
            ..Default::default()
        }),
        set(
            "person",
            &["maya-patel", "ethan-brooks", "amara-diallo", "priya-raman"]
        )
    );
    let google = PersonFilter {
        linkedin_companies: strings(&["google"]),
        ..Default::default()
    };
    assert_eq!(
        people(PeopleQuery {
            person: google,
            ..Default::default()
        }),
        set(
            "person",
            &["lena-huber", "maya-patel", "ava-thompson", "priya-raman"]
        )
    );
    let vp = PersonFilter {
        job_titles: strings(&["vp-engineering"]),
        ..Default::default()
    };
    assert_eq!(
        people(PeopleQuery {
            person: vp,
            ..Default::default()
        }),
        set("person", &["nina-okafor"])
    );
    let founders = PersonFilter {
        roles: Some(vec![PersonRole::Founder]),
        ..Default::default()
    };
    let in_london = EmployerFilter {
        company: CompanyFilter {
            locations: strings(&["london"]),
            ..Default::default()
        },
        ..Default::default()
    };
    let q = PeopleQuery {
        person: founders,
        company: Some(in_london.clone()),
        ..Default::default()
    };
    assert_eq!(
        people(q),
        set("person", &["oliver-hughes", "isabel-garcia"])
    );
    let q = PeopleQuery {
        company: Some(in_london),
        ..Default::default()
    };
    assert_eq!(
        people(q),
        set(
            "person",
            &["oliver-hughes", "james-whitfield", "isabel-garcia"]
        ),
        "Elena's employer is a firm"
    );
    let any_employer = PeopleQuery {
        company: Some(EmployerFilter::default()),
        ..Default::default()
    };
    assert_eq!(
        people(any_employer).len(),
        21,
        "the 21 people employed by a company in the dump"
    );
}

#[test]
fn person_investor_firm_keys() {
    let w = fixture_world();
    let people = |f: InvestorPersonFilter| {
        matched(&expect_people(
            w,
            &PeopleQuery {
                investor: Some(f),
                page: EVERYTHING,
                ..Default::default()
            },
        ))
    };
    let northwind = OrgIdentifiers {
        permalinks: vec!["northwind-capital".into()],
        ..Default::default()
    };
    let by_firm = InvestorPersonFilter {
        firms: Some(northwind),
        ..Default::default()
    };
    assert_eq!(
        people(by_firm),
        set("person", &["olivia-chen", "daniel-kim"]),
        "Daniel partnered deals for Northwind"
    );
    let uk = InvestorPersonFilter {
        locations: strings(&["united-kingdom"]),
        ..Default::default()
    };
    assert_eq!(
        people(uk),
        set("person", &["elena-petrova"]),
        "Wei Zhang's firm is in London, but he is no investor"
    );
}

#[test]
fn person_deals_count_angel_deals() {
    let w = fixture_world();
    let deals = PersonDealsFilter {
        investment_type: InvestmentType::Angel,
        ..Default::default()
    };
    let q = PeopleQuery {
        investor: Some(InvestorPersonFilter {
            deals: Some(deals),
            ..Default::default()
        }),
        sort: PersonSort::FilteredDealCount,
        page: EVERYTHING,
        ..Default::default()
    };
    let e = expect_people(w, &q);
    assert_eq!(
        e.ids,
        ids(
            "person",
            &[
                "priya-raman",
                "tom-becker",
                "elena-petrova",
                "carlos-mendes"
            ]
        ),
        "ties by latest deal date"
    );
    let counts = |deal_count, date| FilteredCounts {
        deal_count,
        lead_count: 0,
        most_recent_date: Some(day(date)),
    };
    let expected = vec![
        counts(6, "2026-10-31"),
        counts(4, "2024-09-01"),
        counts(2, "2026-06-30"),
        counts(2, "2024-09-01"),
    ];
    assert_eq!(e.filtered, expected);
}

#[test]
fn person_deals_only_led_and_min_matching_deals() {
    let w = fixture_world();
    let query = |min| {
        let deals = PersonDealsFilter {
            investment_type: InvestmentType::Institutional,
            only_lead_deals: true,
            min_matching_deals: min,
            deal: DealFilter {
                date: Range {
                    min: Some(day("2026-01-01")),
                    max: None,
                },
                ..Default::default()
            },
            ..Default::default()
        };
        PeopleQuery {
            investor: Some(InvestorPersonFilter {
                deals: Some(deals),
                ..Default::default()
            }),
            sort: PersonSort::FilteredDealCount,
            page: EVERYTHING,
            ..Default::default()
        }
    };
    let all = expect_people(w, &query(None));
    assert_eq!(
        matched(&all),
        set("person", &["olivia-chen", "daniel-kim", "marcus-webb"])
    );
    assert_eq!(all.ids[0], fixture_id("person", "olivia-chen"));
    let olivia = FilteredCounts {
        deal_count: 2,
        lead_count: 2,
        most_recent_date: Some(day("2026-03-15")),
    };
    assert_eq!(all.filtered[0], olivia);
    let two = expect_people(w, &query(Some(2)));
    assert_eq!(
        (two.ids, two.filtered),
        (ids("person", &["olivia-chen"]), vec![olivia])
    );
    let none = expect_people(
        w,
        &PeopleQuery {
            page: EVERYTHING,
            ..Default::default()
        },
    );
    assert!(none.filtered.is_empty(), "no investor.deals: no counts");
}

#[test]
fn generated_requests_are_reproducible_and_often_match() {
    let w = fixture_world();
    let mut a = Gen::new(w, 7);
    let mut b = Gen::new(w, 7);
    let mut matching = 0;
    for _ in 0..200 {
        let (qa, qb) = (a.companies_query(), b.companies_query());
        assert_eq!(qa, qb);
        matching += (expect_companies(w, &qa).total > 0) as u32;
        assert_eq!(a.deals_query(), b.deals_query());
        assert_eq!(a.investors_query(), b.investors_query());
        assert_eq!(a.people_query(), b.people_query());
    }
    assert!(
        matching > 60,
        "only {matching} of 200 generated company queries match anything"
    );
}
