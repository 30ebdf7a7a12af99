//! The engine (`query::exec`) against the oracle: for each data set and
//! each collection search, a few hundred generated requests must give the
//! same page (UUIDs in order), the same `total_count` and the same filtered
//! counts. Every mismatch is collected and grouped by kind, and the first
//! few of each kind are printed with the request, so one run shows the whole
//! picture. `ORACLE_SCALE=10` runs ten times more requests.

use std::collections::BTreeMap;
use std::fmt::Debug;

use fundsearch::index::keymap::IdMap;
use fundsearch::index::Index;
use fundsearch::query::exec::{
    search_companies, search_deals, search_investors, search_people, QueryError,
};
use fundsearch::query::request::*;
use fundsearch::schema::Date;
use uuid::Uuid;

use super::datasets::{fixture, large, real, synthetic, Dataset};
use super::generate::Gen;
use super::*;

/// One collection search: how to draw, answer naively, and ask the engine.
struct Endpoint<Q> {
    name: &'static str,
    draw: fn(&mut Gen) -> Q,
    expect: fn(&World, &Q) -> Expected,
    search: fn(&Index, &Q) -> Result<ResultPage, QueryError>,
    ids: fn(&Index) -> &IdMap,
}

const DEALS: Endpoint<DealsQuery> = Endpoint {
    name: "/deals",
    draw: |g| g.deals_query(),
    expect: expect_deals,
    search: search_deals,
    ids: |i| &i.deals.ids,
};
const COMPANIES: Endpoint<CompaniesQuery> = Endpoint {
    name: "/companies",
    draw: |g| g.companies_query(),
    expect: expect_companies,
    search: search_companies,
    ids: |i| &i.companies.ids,
};
const INVESTORS: Endpoint<InvestorsQuery> = Endpoint {
    name: "/investors",
    draw: |g| g.investors_query(),
    expect: expect_investors,
    search: search_investors,
    ids: |i| &i.firms.ids,
};
const PEOPLE: Endpoint<PeopleQuery> = Endpoint {
    name: "/people",
    draw: |g| g.people_query(),
    expect: expect_people,
    search: search_people,
    ids: |i| &i.people.ids,
};

/// Examples printed per kind of mismatch (all are counted).
const SHOWN: usize = 2;

/// `ORACLE_SCALE=k` runs k times more requests (default 1).
fn scaled(requests: usize) -> usize {
    let scale = std::env::var("ORACLE_SCALE")
        .ok()
        .and_then(|s| s.parse::<usize>().ok());
    requests * scale.unwrap_or(1).max(1)
}

fn compare<Q: Debug>(data: Dataset, endpoint: Endpoint<Q>, requests: usize, seed: u64) {
    let requests = scaled(requests);
    let mut gen = Gen::new(data.world, seed);
    let mut kinds: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for n in 0..requests {
        let q = (endpoint.draw)(&mut gen);
        let expected = (endpoint.expect)(data.world, &q);
        if let Some((kind, diff)) = difference(
            &expected,
            (endpoint.search)(data.index, &q),
            (endpoint.ids)(data.index),
        ) {
            kinds
                .entry(kind)
                .or_default()
                .push(format!("request #{n}: {q:?}\n{diff}"));
        }
    }
    let total: usize = kinds.values().map(Vec::len).sum();
    let report: Vec<String> = kinds
        .iter()
        .map(|(kind, cases)| {
            format!(
                "== {} × {kind}\n{}",
                cases.len(),
                cases[..SHOWN.min(cases.len())].join("\n")
            )
        })
        .collect();
    assert!(
        total == 0,
        "{total} of {requests} {} requests on the {} data differ from the oracle:\n\n{}",
        endpoint.name,
        data.name,
        report.join("\n\n")
    );
}

/// `None` when the engine's answer is the oracle's; otherwise the kind of
/// difference (error, total, page, filtered counts) and both answers.
fn difference(
    expected: &Expected,
    got: Result<ResultPage, QueryError>,
    ids: &IdMap,
) -> Option<(String, String)> {
    let got = match got {
        Ok(page) => page,
        Err(e) => {
            return Some((
                format!("error: {e}"),
                format!("  expected total {}", expected.total),
            ))
        }
    };
    if let Some(&bad) = got.docs.iter().find(|&&d| d as usize >= ids.len()) {
        return Some((
            "doc id out of range".into(),
            format!("  doc id {bad}, beyond the {} docs", ids.len()),
        ));
    }
    let got_ids: Vec<Uuid> = got.docs.iter().map(|&d| ids.uuid(d)).collect();
    let kind = if got.total_count != expected.total {
        "total_count differs"
    } else if got_ids != expected.ids {
        "same total, page differs"
    } else if got.filtered != expected.filtered {
        "same page, filtered counts differ"
    } else {
        return None;
    };
    let both = format!(
        "  expected: total {}, ids {:?}, filtered {:?}\n  got:      total {}, ids {:?}, filtered {:?}",
        expected.total, expected.ids, expected.filtered, got.total_count, got_ids, got.filtered
    );
    Some((kind.to_string(), both))
}

#[test]
fn fixture_deals() {
    compare(fixture(), DEALS, 300, 1);
}

#[test]
fn fixture_companies() {
    compare(fixture(), COMPANIES, 300, 2);
}

#[test]
fn fixture_investors() {
    compare(fixture(), INVESTORS, 300, 3);
}

#[test]
fn fixture_people() {
    compare(fixture(), PEOPLE, 500, 4);
}

#[test]
fn synthetic_deals() {
    compare(synthetic(), DEALS, 300, 11);
}

#[test]
fn synthetic_companies() {
    compare(synthetic(), COMPANIES, 300, 12);
}

#[test]
fn synthetic_investors() {
    compare(synthetic(), INVESTORS, 300, 13);
}

#[test]
fn synthetic_people() {
    compare(synthetic(), PEOPLE, 500, 14);
}

#[test]
fn large_deals() {
    compare(large(), DEALS, 100, 31);
}

#[test]
fn large_companies() {
    compare(large(), COMPANIES, 100, 32);
}

#[test]
fn large_investors() {
    compare(large(), INVESTORS, 100, 33);
}

#[test]
fn large_people() {
    compare(large(), PEOPLE, 150, 34);
}

#[test]
fn real_deals() {
    compare(real(), DEALS, 200, 21);
}

#[test]
fn real_companies() {
    compare(real(), COMPANIES, 200, 22);
}

#[test]
fn real_investors() {
    compare(real(), INVESTORS, 200, 23);
}

#[test]
fn real_people() {
    compare(real(), PEOPLE, 300, 24);
}

/// The first 100 firms of `portfolio`, most matching deals first.
fn by_matching_deals(portfolio: PortfolioFilter) -> InvestorsQuery {
    InvestorsQuery {
        portfolio: Some(portfolio),
        sort: InvestorSort::MatchingDeals,
        page: PageRequest {
            page: 0,
            page_size: 100,
        },
        ..Default::default()
    }
}

/// The oracle's answer to `q` on `data`, and how the engine's differs.
fn investors_against_the_oracle(
    data: &Dataset,
    q: &InvestorsQuery,
) -> (Expected, Option<(String, String)>) {
    let expected = expect_investors(data.world, q);
    let got = search_investors(data.index, q);
    let diff = difference(&expected, got, &data.index.firms.ids);
    (expected, diff)
}

/// The first 100 people by `deals`, most matching deals first.
fn by_person_deals(deals: PersonDealsFilter) -> PeopleQuery {
    PeopleQuery {
        investor: Some(InvestorPersonFilter {
            deals: Some(deals),
            ..Default::default()
        }),
        sort: PersonSort::FilteredDealCount,
        page: PageRequest {
            page: 0,
            page_size: 100,
        },
        ..Default::default()
    }
}

/// The oracle's answer to `q` on `data`, and how the engine's differs.
fn people_against_the_oracle(
    data: &Dataset,
    q: &PeopleQuery,
) -> (Expected, Option<(String, String)>) {
    let expected = expect_people(data.world, q);
    let got = search_people(data.index, q);
    let diff = difference(&expected, got, &data.index.people.ids);
    (expected, diff)
}

/// Industries with the most deals, most first (they share deals: a company
/// has several).
fn busiest_industries(index: &Index) -> Vec<String> {
    let facet = index.deals.facet("company_industry").unwrap();
    let mut by_size: Vec<(u64, String)> = (0..facet.len())
        .map(|i| {
            (
                facet.docids_at(i).unwrap().len(),
                facet.value(i).to_string(),
            )
        })
        .collect();
    by_size.sort_unstable_by(|a, b| b.cmp(a));
    by_size.into_iter().map(|(_, v)| v).collect()
}

/// Portfolios of one to four of the busiest industries, which share
/// deals: once the firms' counts per industry are derived, the engine
/// reads them and walks off the deals they count more than once (and
/// those outside a date bound); before and after, every answer agrees
/// with the oracle, led or not, with and without a minimum.
#[test]
fn industry_portfolios_agree_with_the_oracle() {
    for data in [fixture(), synthetic()] {
        let names = busiest_industries(data.index);
        let dates = [None, Some(Date(16_000))];
        for derived in [false, true] {
            for (n, min_date) in [1, 2, 3, 4].into_iter().flat_map(|n| dates.map(|d| (n, d))) {
                for (only_lead_deals, min) in [(false, None), (true, None), (false, Some(2))] {
                    let portfolio = PortfolioFilter {
                        company: CompanyFilter {
                            industries: Some(names[..n.min(names.len())].to_vec()),
                            ..Default::default()
                        },
                        deal: DealFilter {
                            date: Range {
                                min: min_date,
                                max: None,
                            },
                            ..Default::default()
                        },
                        only_lead_deals,
                        min_matching_deals: min,
                        ..Default::default()
                    };
                    let q = by_matching_deals(portfolio);
                    let (_, diff) = investors_against_the_oracle(&data, &q);
                    assert!(
                        diff.is_none(),
                        "{} data, derived {derived}, {q:?}: {diff:?}",
                        data.name
                    );
                }
            }
            data.index.wait_for_derived();
        }
    }
}

/// Portfolios that hold most of the deals, where the engine counts each
/// firm and person from the deals outside them (their totals minus those):
/// every one agrees with the oracle, led or not, with and without a minimum.
#[test]
fn broad_portfolios_agree_with_the_oracle() {
    let wide = |min: Option<Date>, max: Option<Date>| DealFilter {
        date: Range { min, max },
        ..Default::default()
    };
    let deals = [
        wide(None, Some(Date(40_000))),
        wide(Some(Date(0)), None),
        DealFilter::default(),
    ];
    for data in [fixture(), synthetic()] {
        for (deal, only_lead_deals, min) in deals.iter().flat_map(|d| {
            [
                (d, false, None),
                (d, true, None),
                (d, false, Some(2)),
                (d, true, Some(3)),
            ]
        }) {
            let q = by_matching_deals(PortfolioFilter {
                deal: deal.clone(),
                only_lead_deals,
                min_matching_deals: min,
                ..Default::default()
            });
            let (expected, diff) = investors_against_the_oracle(&data, &q);
            assert!(min.is_some() || expected.total > 0, "{q:?} matches firms");
            assert!(diff.is_none(), "{} data, {q:?}: {diff:?}", data.name);
            let q = by_person_deals(PersonDealsFilter {
                deal: deal.clone(),
                only_lead_deals,
                min_matching_deals: min,
                ..Default::default()
            });
            let (expected, diff) = people_against_the_oracle(&data, &q);
            assert!(min.is_some() || expected.total > 0, "{q:?} matches people");
            assert!(diff.is_none(), "{} data, {q:?}: {diff:?}", data.name);
        }
    }
}

/// `/people` by deals of some rounds with a size or a date range, of
/// every investment type, angel or institutional (counted, once the
/// people's deals by round are derived, from the kept rounds' lists):
/// before and after those derivations, every answer agrees with the
/// oracle, with and without a minimum.
#[test]
fn round_portfolios_of_people_agree_with_the_oracle() {
    use fundsearch::schema::RoundKey;
    use fundsearch::schema::RoundType::{Seed, SeriesA, SeriesB};
    let key = |round_type| RoundKey {
        round_type,
        pre: false,
        extension: false,
    };
    let rounds = [vec![key(Seed)], vec![key(SeriesA), key(SeriesB)]];
    let ranges = [
        (Range::default(), Range::default()),
        (
            Range {
                min: Some(500_000.0),
                max: Some(20_000_000.0),
            },
            Range::default(),
        ),
        (
            Range::default(),
            Range {
                min: Some(Date(15_000)),
                max: None,
            },
        ),
    ];
    for data in [fixture(), synthetic()] {
        fundsearch::query::exec::start_derivations(data.index).unwrap();
        for derived in [false, true] {
            for (kept, (size, date)) in rounds
                .iter()
                .flat_map(|r| ranges.iter().map(move |x| (r, x)))
            {
                for (min, investment_type) in [
                    (None, InvestmentType::All),
                    (Some(2), InvestmentType::All),
                    (None, InvestmentType::Angel),
                    (Some(2), InvestmentType::Institutional),
                ] {
                    let q = by_person_deals(PersonDealsFilter {
                        investment_type,
                        deal: DealFilter {
                            financing_types: Some(kept.clone()),
                            size: *size,
                            date: *date,
                            ..Default::default()
                        },
                        min_matching_deals: min,
                        ..Default::default()
                    });
                    let (_, diff) = people_against_the_oracle(&data, &q);
                    let name = data.name;
                    assert!(
                        diff.is_none(),
                        "{name} data, derived {derived}, {q:?}: {diff:?}"
                    );
                }
            }
            data.index.wait_for_derived();
        }
    }
}
