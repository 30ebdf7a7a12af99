//! Checks the hand-written dump in `fixtures/dump/` (described in
//! `fixtures/README.md`): the indexer's reader keeps every row and every line
//! is canonical (both via [`check`]), ids follow the documented keys, and it
//! still holds every edge case other tests rely on.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

use uuid::Uuid;

use super::check::{self, LoadedDump};
use crate::schema::ids::uuid5;
use crate::schema::{Date, DealRow, Headcount, Intermediate, IpoStatus, PersonRow, RoundType};

fn fixture() -> LoadedDump {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/dump");
    check::load(&dir).unwrap_or_else(|e| panic!("fixture does not load: {e}"))
}

fn person<'a>(dump: &'a LoadedDump, key: &str) -> &'a PersonRow {
    let id = uuid5("person", &format!("fixture:{key}"));
    dump.people
        .iter()
        .find(|p| p.id == id)
        .unwrap_or_else(|| panic!("no person {key}"))
}

fn company_id(permalink: &str) -> Uuid {
    uuid5("company", &format!("fixture:{permalink}"))
}

fn firm_id(permalink: &str) -> Uuid {
    uuid5("firm", &format!("fixture:{permalink}"))
}

fn deals_of<'a>(dump: &'a LoadedDump, permalink: &str) -> Vec<&'a DealRow> {
    dump.deals
        .iter()
        .filter(|d| d.company_id == company_id(permalink))
        .collect()
}

#[test]
fn fixture_obeys_the_dump_rules_and_is_canonical() {
    let dump = fixture();
    dump.assert_valid();
    assert_eq!(dump.meta.as_of, Date::parse("2026-11-01"));
    let sizes = [
        dump.locations.len(),
        dump.industries.len(),
        dump.companies.len(),
        dump.firms.len(),
    ];
    assert_eq!(sizes, [15, 17, 25, 8]);
    assert_eq!((dump.people.len(), dump.deals.len()), (32, 56));
}

#[test]
fn fixture_ids_follow_the_documented_keys() {
    let dump = fixture();
    assert!(dump
        .companies
        .iter()
        .all(|c| c.id == company_id(&c.permalink)));
    assert!(dump.firms.iter().all(|f| f.id == firm_id(&f.permalink)));
    assert_eq!(person(&dump, "li-ming").name, "李明");
    let first = deals_of(&dump, "zurich-robotics")[0].id;
    assert_eq!(first, uuid5("deal", "fixture:zurich-robotics:1"));
}

#[test]
fn fixture_covers_every_bucket_and_status() {
    let dump = fixture();
    let buckets: HashSet<_> = dump
        .companies
        .iter()
        .filter_map(|c| c.num_employees)
        .collect();
    assert_eq!(buckets.len(), Headcount::ALL.len());
    let statuses: HashSet<_> = dump.companies.iter().filter_map(|c| c.ipo_status).collect();
    assert_eq!(statuses.len(), IpoStatus::ALL.len());
    assert!(dump
        .companies
        .iter()
        .any(|c| c.num_employees.is_none() && c.ipo_status.is_none()));
    let names: Vec<_> = dump.companies.iter().map(|c| c.name.as_str()).collect();
    for name in [
        "Zürich Robotics",
        "São Paulo Pagamentos",
        "Ñandú Labs",
        "深圳智能科技",
    ] {
        assert!(names.contains(&name), "{name}");
    }
}

#[test]
fn fixture_has_the_deal_edge_cases() {
    let dump = fixture();
    let funded: HashSet<_> = dump.deals.iter().map(|d| d.company_id).collect();
    assert_eq!(
        dump.companies
            .iter()
            .filter(|c| !funded.contains(&c.id))
            .count(),
        4
    );
    let shenzhen = deals_of(&dump, "shenzhen-zhineng-keji");
    assert!(shenzhen
        .last()
        .is_some_and(|d| d.total_round_raised.is_none() && d.created_at.is_none()));
    assert!(dump
        .deals
        .iter()
        .any(|d| d.round_type == RoundType::Seed && d.pre));
    assert!(dump.deals.iter().filter(|d| d.extension).count() >= 4);
    let e2 = |d: &&&DealRow| {
        d.round_type == RoundType::SeriesE && d.intermediate == Some(Intermediate::Two)
    };
    assert_eq!(deals_of(&dump, "helix-bio").iter().filter(e2).count(), 1);
    assert_eq!(dump.deals.iter().filter(|d| d.date.is_none()).count(), 2);
    assert!(
        dump.deals.iter().any(|d| d.valuation.is_some())
            && dump.deals.iter().any(|d| !d.articles.is_empty())
    );
    let currencies: HashSet<_> = dump
        .deals
        .iter()
        .flat_map(|d| &d.financings)
        .filter_map(|f| f.currency.as_deref())
        .collect();
    assert!(
        ["USD", "EUR", "GBP", "BRL", "CHF", "CNY"]
            .iter()
            .all(|c| currencies.contains(c)),
        "{currencies:?}"
    );
    assert!(dump
        .deals
        .iter()
        .any(|d| d.investors.is_empty() && !d.angels.is_empty()));
    assert!(dump
        .deals
        .iter()
        .any(|d| d.investors.len() >= 3 && d.investors.iter().filter(|i| i.lead).count() == 1));
    assert!(dump
        .deals
        .iter()
        .any(|d| !d.investors.is_empty() && d.investors.iter().all(|i| !i.lead)));
}

#[test]
fn fixture_has_same_date_ties_and_recent_deals() {
    let dump = fixture();
    let mut per_date: HashMap<Date, Vec<&DealRow>> = HashMap::new();
    dump.deals
        .iter()
        .filter_map(|d| Some((d.date?, d)))
        .for_each(|(at, d)| per_date.entry(at).or_default().push(d));
    let day = Date::parse("2026-03-15").unwrap_or(Date(0));
    let tie = &per_date[&day];
    assert_eq!(tie.len(), 3);
    assert_eq!(
        tie.iter()
            .filter(|d| d.total_round_raised == Some(20_000_000.0))
            .count(),
        2
    );
    let pixel = deals_of(&dump, "pixel-forge");
    assert_eq!(pixel[1].date, pixel[2].date);
    let as_of = dump.meta.as_of.unwrap_or(Date(0));
    let recent = dump.deals.iter().filter(|d| {
        d.date
            .is_some_and(|at| at >= as_of.one_year_before() && at <= as_of)
    });
    assert_eq!(recent.count(), 10);
    let years: HashSet<_> = dump
        .deals
        .iter()
        .filter_map(|d| d.date.map(Date::year))
        .collect();
    assert_eq!(years, (2019..=2026).collect());
}

#[test]
fn fixture_has_the_people_edge_cases() {
    let dump = fixture();
    let lena = person(&dump, "lena-huber");
    assert!(lena.employment.len() > 3 && lena.education.len() > 3);
    let tom = person(&dump, "tom-becker");
    assert!(tom.employment.is_empty() && tom.roles.is_empty());
    let priya = person(&dump, "priya-raman");
    assert!(priya.employment.iter().all(|j| !j.is_current));
    let employer = |p: &PersonRow| {
        p.employment
            .iter()
            .find(|j| j.is_current)
            .and_then(|j| j.company_id)
    };
    let lumina = dump
        .people
        .iter()
        .filter(|p| employer(p) == Some(company_id("lumina-health")));
    assert!(
        lumina
            .filter(|p| !p.employment.is_empty() && !p.education.is_empty())
            .count()
            >= 4
    );
    let daniel = person(&dump, "daniel-kim").id;
    let firms_partnered: HashSet<_> = dump
        .deals
        .iter()
        .flat_map(|d| &d.investors)
        .filter(|i| i.partner_ids.contains(&daniel))
        .map(|i| i.firm_id)
        .collect();
    assert_eq!(
        firms_partnered,
        HashSet::from([
            firm_id("harbor-point-ventures"),
            firm_id("northwind-capital")
        ])
    );
    let elena = person(&dump, "elena-petrova").id;
    assert!(dump
        .deals
        .iter()
        .any(|d| d.angels.iter().any(|a| a.person_id == elena)));
    assert!(dump
        .deals
        .iter()
        .flat_map(|d| &d.investors)
        .any(|i| i.partner_ids.contains(&elena)));
    let shared = dump
        .firms
        .iter()
        .filter(|f| f.domain.as_deref() == Some("harborpoint.vc"));
    assert_eq!(shared.count(), 2);
}
