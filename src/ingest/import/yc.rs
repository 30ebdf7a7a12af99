//! The YC 2014 startups and founders, merged into whatever Crunchbase gave.
//!
//! * **Which company**: the slug of the `Crunchbase / Angel List Profile`
//!   URL (`crunchbase.com/organization/<slug>`), else `slugify(Company)`.
//!   When a company with that permalink exists (from Crunchbase) and no
//!   earlier startup claimed it, the startup *is* that company: ids are
//!   `uuid5("company", slug)` on both sides, so this is the same entity. The
//!   merge only fills what Crunchbase lacks (short description, domain,
//!   founded year, status, location) and adds the YC categories as
//!   industries. Otherwise the startup is a new company whose permalink is
//!   the slug, suffixed `-yc` if taken ([`first_free`]).
//! * **Fields**: `Description` → short description; `Website` → domain
//!   ([`domain_key`]); `Year Founded` → founded on 1 January of that year
//!   (the year-precision convention of the Crunchbase export); `Satus`
//!   Operating → private, Exited → acquired, Dead → none; HQ city, state,
//!   country → locations (the first place when several are listed).
//! * **Batch deal**: every startup went through a Y Combinator batch, so it
//!   gets a SEED deal by the firm "Y Combinator" dated at the batch start
//!   (Winter → 1 January, Summer → 1 June), id `uuid5("deal", "yc:<permalink>")`,
//!   without amount — unless Crunchbase already has a round of that company
//!   with Y Combinator on that very date. The free-text "Amounts raised"
//!   column is ignored: it has no dates, types or investors per amount.
//! * **Founders**: a row whose `Company` equals a startup's `Company`
//!   exactly becomes a person `uuid5("person", slugify(name))` (the same id
//!   as an angel of that name) with role founder and a current "Founder"
//!   job at the company. Rows naming no startup are counted and skipped: a
//!   person with nothing but a name would not be findable by anything.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use crate::schema::ids::{crunchbase_key, domain_key, slugify, uuid5};
use crate::schema::{
    CompanyRow, Date, DealFirmRow, DealRow, EmploymentRow, IpoStatus, PersonRole, PlaceRefs,
    RoundType,
};

use super::catalog::Catalog;
use super::error::ImportError;
use super::geo::{self, UNITED_STATES};
use super::locations::Address;
use super::permalink::first_free;
use super::report::{ImportReport, YcStats};
use super::table::{Row, Table};
use crate::progress::Progress;

pub(crate) const STARTUPS: &str = "startups.csv";
pub(crate) const FOUNDERS: &str = "founders.csv";
pub(crate) const Y_COMBINATOR: &str = "Y Combinator";

const STARTUP_COLUMNS: [&str; 12] = [
    "Company",
    "Satus",
    "Year Founded",
    "Description",
    "Categories",
    "Y Combinator Year",
    "Y Combinator Session",
    "Headquarters (City)",
    "Headquarters (US State)",
    "Headquarters (Country)",
    "Crunchbase / Angel List Profile",
    "Website",
];

/// A startup as read, before it is matched to a company.
struct Startup {
    name: String,
    crunchbase_slug: Option<String>,
    status: Option<IpoStatus>,
    founded_on: Option<Date>,
    description: Option<String>,
    domain: Option<String>,
    industries: Vec<String>,
    /// HQ city, US state, country as written.
    hq: [String; 3],
    batch: (Date, String),
}

/// Imports the YC folder `dir` into `catalog` (after Crunchbase, if any).
pub(crate) fn import(
    dir: &Path,
    catalog: &mut Catalog,
    report: &mut ImportReport,
    progress: &Progress,
) -> Result<(), ImportError> {
    let mut stats = YcStats::default();
    let startups = read_startups(&dir.join(STARTUPS), catalog, progress)?;
    stats.startups = startups.len() as u64;
    report.read(&format!("yc-2014/{STARTUPS}"), stats.startups);
    let mut by_name = HashMap::new();
    let mut batches = Vec::new();
    let mut claimed = HashSet::new();
    for startup in startups {
        let index = claim_company(&startup, catalog, &mut claimed, &mut stats);
        by_name.insert(startup.name.clone(), index);
        batches.push((index, startup.batch));
    }
    add_batch_deals(&batches, catalog, &mut stats);
    let founders = &dir.join(FOUNDERS);
    stats.founder_rows = read_founders(founders, &by_name, catalog, &mut stats, progress)?;
    report.read(&format!("yc-2014/{FOUNDERS}"), stats.founder_rows);
    report.yc = Some(stats);
    Ok(())
}

fn read_startups(
    path: &Path,
    catalog: &mut Catalog,
    progress: &Progress,
) -> Result<Vec<Startup>, ImportError> {
    let mut table = Table::open(path, progress)?;
    let cols = table.columns(STARTUP_COLUMNS)?;
    let mut startups = Vec::new();
    table.for_each_row(|row| {
        let startup =
            startup(row, &cols, catalog).map_err(|m| ImportError::bad(path, row.line, m))?;
        startups.push(startup);
        Ok(())
    })?;
    Ok(startups)
}

fn startup(row: &Row, cols: &[usize; 12], catalog: &mut Catalog) -> Result<Startup, String> {
    let [name, status, founded, description, categories, year, session, city, state, country, profile, website] =
        *cols;
    let company = row.opt(name).ok_or("empty Company")?;
    let crunchbase_slug = crunchbase_key(row.get(profile), None)
        .and_then(|key| key.strip_prefix("organization/").map(str::to_string))
        .filter(|slug| !slug.is_empty());
    let industries = row
        .get(categories)
        .split(',')
        .filter_map(|c| catalog.industries.yc(c))
        .collect();
    Ok(Startup {
        name: company.to_string(),
        crunchbase_slug,
        status: yc_status(row.get(status))?,
        founded_on: row.opt(founded).map(year_start).transpose()?,
        description: row.opt(description).map(str::to_string),
        domain: domain_key(row.get(website)),
        industries,
        hq: [
            row.get(city).to_string(),
            row.get(state).to_string(),
            row.get(country).to_string(),
        ],
        batch: batch(row.get(year), row.get(session))?,
    })
}

/// `Satus`: Operating → private, Exited → acquired, Dead → none.
fn yc_status(status: &str) -> Result<Option<IpoStatus>, String> {
    match status {
        "Operating" => Ok(Some(IpoStatus::Private)),
        "Exited" => Ok(Some(IpoStatus::Acquired)),
        "Dead" | "" => Ok(None),
        other => Err(format!("unknown Satus '{other}'")),
    }
}

fn year_start(year: &str) -> Result<Date, String> {
    let parsed = year
        .parse::<i32>()
        .ok()
        .and_then(|y| Date::from_ymd(y, 1, 1));
    parsed.ok_or(format!("bad year '{year}'"))
}

/// The batch start and its label: (2011, Winter) → (2011-01-01, "Winter 2011").
fn batch(year: &str, session: &str) -> Result<(Date, String), String> {
    let month = match session {
        "Winter" => 1,
        "Summer" => 6,
        other => return Err(format!("unknown Y Combinator Session '{other}'")),
    };
    let start = year
        .parse::<i32>()
        .ok()
        .and_then(|y| Date::from_ymd(y, month, 1));
    let start = start.ok_or(format!("bad Y Combinator Year '{year}'"))?;
    Ok((start, format!("{session} {year}")))
}

/// HQ columns → locations: the first of several listed places; a state only in the US.
fn place(
    [city, state, country]: &[String; 3],
    catalog: &mut Catalog,
    stats: &mut YcStats,
) -> PlaceRefs {
    let (city, state, country) = (first_item(city), first_item(state), first_item(country));
    let in_us = country.is_none_or(|c| geo::country(c).is_some_and(|(p, _)| p == UNITED_STATES.0));
    let state_name = state.filter(|_| in_us).and_then(|s| {
        let found = geo::state_by_name(s);
        stats.unknown_states += u64::from(found.is_none());
        found
    });
    catalog.locations.place(&Address {
        country,
        state: state_name,
        region: None,
        city,
    })
}

/// `San Francisco, New York City` → `San Francisco`.
fn first_item(text: &str) -> Option<&str> {
    text.split(',').map(str::trim).find(|s| !s.is_empty())
}

/// The company a startup is: an unclaimed Crunchbase company with its slug, or a new one.
fn claim_company(
    startup: &Startup,
    catalog: &mut Catalog,
    claimed: &mut HashSet<usize>,
    stats: &mut YcStats,
) -> usize {
    let slug = startup
        .crunchbase_slug
        .clone()
        .unwrap_or_else(|| slugify(&startup.name));
    let existing = catalog
        .company_index(&slug)
        .filter(|i| !claimed.contains(i));
    let index = match existing {
        Some(index) => {
            let unplaced = catalog.company(index).location == PlaceRefs::default();
            let hq = unplaced.then(|| place(&startup.hq, catalog, stats));
            merge(catalog.company_mut(index), startup, hq);
            let by_url = startup.crunchbase_slug.is_some();
            stats.merged_by_crunchbase_url += u64::from(by_url);
            stats.merged_by_name_slug += u64::from(!by_url);
            index
        }
        None => {
            let permalink = first_free(&slug, "yc", |p| catalog.company_index(p).is_some());
            stats.renamed_permalinks += u64::from(permalink != slug);
            stats.new_companies += 1;
            let hq = place(&startup.hq, catalog, stats);
            catalog.add_company(new_company(permalink, startup, hq))
        }
    };
    claimed.insert(index);
    index
}

/// Fills what the Crunchbase company lacks (`hq` only when it has no
/// location); adds the YC industries.
fn merge(company: &mut CompanyRow, startup: &Startup, hq: Option<PlaceRefs>) {
    company.short_description = company
        .short_description
        .take()
        .or_else(|| startup.description.clone());
    company.domain = company.domain.take().or_else(|| startup.domain.clone());
    company.founded_on = company.founded_on.or(startup.founded_on);
    company.ipo_status = company.ipo_status.or(startup.status);
    if let Some(hq) = hq {
        company.location = hq;
    }
    for industry in &startup.industries {
        if !company.industries.contains(industry) {
            company.industries.push(industry.clone());
        }
    }
}

fn new_company(permalink: String, startup: &Startup, hq: PlaceRefs) -> CompanyRow {
    let mut industries: Vec<String> = Vec::new();
    for industry in &startup.industries {
        if !industries.contains(industry) {
            industries.push(industry.clone());
        }
    }
    CompanyRow {
        id: uuid5("company", &permalink),
        name: startup.name.clone(),
        domain: startup.domain.clone(),
        short_description: startup.description.clone(),
        ipo_status: startup.status,
        founded_on: startup.founded_on,
        crunchbase: startup
            .crunchbase_slug
            .as_ref()
            .map(|s| format!("https://www.crunchbase.com/organization/{s}")),
        industries,
        location: hq,
        permalink,
        ..CompanyRow::default()
    }
}

/// One SEED deal by Y Combinator per startup, unless Crunchbase has it already.
fn add_batch_deals(
    batches: &[(usize, (Date, String))],
    catalog: &mut Catalog,
    stats: &mut YcStats,
) {
    let Some(yc) = catalog.firm(Y_COMBINATOR) else {
        return;
    };
    let known: HashSet<_> = catalog
        .deals()
        .iter()
        .filter(|d| d.investors.iter().any(|f| f.firm_id == yc))
        .filter_map(|d| Some((d.company_id, d.date?)))
        .collect();
    for (index, (start, label)) in batches {
        let company = catalog.company(*index);
        if known.contains(&(company.id, *start)) {
            stats.batch_deals_already_in_crunchbase += 1;
            continue;
        }
        let deal = batch_deal(company, yc, *start, label);
        catalog.add_deal(deal);
        stats.batch_deals += 1;
    }
}

fn batch_deal(company: &CompanyRow, yc: uuid::Uuid, start: Date, label: &str) -> DealRow {
    DealRow {
        id: uuid5("deal", &format!("yc:{}", company.permalink)),
        company_id: company.id,
        round_type: RoundType::Seed,
        pre: false,
        extension: false,
        intermediate: None,
        date: Some(start),
        created_at: None,
        total_round_raised: None,
        short_description: Some(format!(
            "{} joined Y Combinator's {label} batch.",
            company.name
        )),
        long_description: None,
        investors: vec![DealFirmRow {
            firm_id: yc,
            lead: false,
            partner_ids: Vec::new(),
            financing_type: None,
        }],
        angels: Vec::new(),
        financings: Vec::new(),
        valuation: None,
        articles: Vec::new(),
    }
}

fn read_founders(
    path: &Path,
    by_name: &HashMap<String, usize>,
    catalog: &mut Catalog,
    stats: &mut YcStats,
    progress: &Progress,
) -> Result<u64, ImportError> {
    let mut table = Table::open(path, progress)?;
    let [founder, company] = table.columns(["Founder", "Company"])?;
    let mut people = HashSet::new();
    let rows = table.for_each_row(|row| {
        let Some(&index) = by_name.get(row.get(company)) else {
            return Ok(());
        };
        let (company_id, company_name) = (
            catalog.company(index).id,
            catalog.company(index).name.clone(),
        );
        let Some(person) = row.opt(founder).and_then(|name| catalog.person(name)) else {
            return Ok(());
        };
        stats.founders_matched += 1;
        people.insert(person.id);
        if !person.roles.contains(&PersonRole::Founder) {
            person.roles.push(PersonRole::Founder);
        }
        if !person
            .employment
            .iter()
            .any(|job| job.company_id == Some(company_id))
        {
            person.employment.push(EmploymentRow {
                title: Some("Founder".to_string()),
                company_id: Some(company_id),
                company_name: Some(company_name),
                is_current: true,
                ..EmploymentRow::default()
            });
        }
        Ok(())
    })?;
    stats.founder_people = people.len() as u64;
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_years_and_batches() {
        assert_eq!(yc_status("Exited"), Ok(Some(IpoStatus::Acquired)));
        assert_eq!(yc_status("Dead"), Ok(None));
        assert!(yc_status("Zombie").is_err());
        assert_eq!(year_start("2010"), Ok(Date::parse("2010-01-01").unwrap()));
        assert!(year_start("20x0").is_err());
        assert_eq!(
            batch("2009", "Winter"),
            Ok((Date::parse("2009-01-01").unwrap(), "Winter 2009".into()))
        );
        assert_eq!(
            batch("2010", "Summer").unwrap().0,
            Date::parse("2010-06-01").unwrap()
        );
        assert!(batch("2010", "Spring").is_err());
    }

    #[test]
    fn hq_takes_the_first_place_and_us_states_only() {
        let mut catalog = Catalog::default();
        let mut stats = YcStats::default();
        let hq = |c: &str, s: &str, n: &str| [c.to_string(), s.to_string(), n.to_string()];
        let p = place(
            &hq(
                "San Francisco, New York City",
                "California, New York",
                "USA",
            ),
            &mut catalog,
            &mut stats,
        );
        assert_eq!(p.city.as_deref(), Some("san-francisco-california"));
        assert_eq!(p.state.as_deref(), Some("california"));
        let p = place(&hq("Toronto", "", "Canada"), &mut catalog, &mut stats);
        assert_eq!(
            (p.city.as_deref(), p.country.as_deref()),
            (Some("toronto-canada"), Some("canada"))
        );
        let p = place(&hq("Atlanta", "Giorgia", "USA"), &mut catalog, &mut stats);
        assert_eq!(p.state.as_deref(), Some("georgia"));
        assert_eq!(
            place(&hq("", "", ""), &mut catalog, &mut stats),
            PlaceRefs::default()
        );
        assert_eq!(stats.unknown_states, 0);
    }

    #[test]
    fn merging_fills_gaps_only() {
        let startup = Startup {
            name: "AirBnb".into(),
            crunchbase_slug: Some("airbnb".into()),
            status: Some(IpoStatus::Acquired),
            founded_on: Date::parse("2008-01-01"),
            description: Some("Rooms.".into()),
            domain: Some("airbnb.com".into()),
            industries: vec!["travel".into(), "hotels".into()],
            hq: Default::default(),
            batch: (Date(0), String::new()),
        };
        let mut company = CompanyRow {
            name: "Airbnb".into(),
            ipo_status: Some(IpoStatus::Private),
            industries: vec!["travel".into()],
            ..Default::default()
        };
        merge(&mut company, &startup, None);
        assert_eq!(company.name, "Airbnb");
        assert_eq!(company.ipo_status, Some(IpoStatus::Private));
        assert_eq!(company.domain.as_deref(), Some("airbnb.com"));
        assert_eq!(company.short_description.as_deref(), Some("Rooms."));
        assert_eq!(
            company.industries,
            vec!["travel".to_string(), "hotels".to_string()]
        );
    }
}
