//! The Crunchbase October 2013 export (`companies`, `acquisitions`, `rounds`)
//! and the December 2013 investor edge list, read in that order.
//!
//! * **Companies**: one row each; the mapping is in the module docs of
//!   [`super`]. `funding_total_usd` and the funding counts are aggregates the
//!   indexer derives from deals, so they are not copied.
//! * **Acquisitions**: a company listed as acquired becomes `acquired`
//!   unless it is `ipo` (public).
//! * **Rounds**: every raw row is kept for the join; deals are then built in
//!   file order, dropping rows equal to an earlier one on (permalink,
//!   funded_at, type, amount).
//! * **Edges**: joined on `company_name` = `rounds.company_name` and
//!   `funded_when` = `rounds.funded_at`; an investor joins every round with
//!   that pair, once per round. The join statistics count raw rows. Only
//!   investors of matched edges become firms or people: the others (mostly
//!   of non-US companies absent from the export) would have no deal.

use std::collections::HashMap;
use std::path::Path;

use crate::schema::ids::{slugify, uuid5};
use crate::schema::{
    CompanyRow, Date, DealAngelRow, DealFirmRow, DealRow, FinancingRow, IpoStatus, RoundType,
};

use super::catalog::{Catalog, Investor};
use super::error::ImportError;
use super::geo;
use super::locations::Address;
use super::report::{CrunchbaseStats, ImportReport};
use super::rounds::{deal_key, describe, parse_amount, round_type};
use super::table::{Row, Table};
use crate::progress::Progress;

pub(crate) const COMPANIES: &str = "companies.csv.gz";
pub(crate) const ACQUISITIONS: &str = "acquisitions.csv.gz";
pub(crate) const ROUNDS: &str = "rounds.csv.gz";
pub(crate) const EDGES: &str = "investments_2013_snapshot.csv.gz";

/// One row of `rounds.csv.gz`, before de-duplication.
struct RawRound {
    company: Option<usize>,
    key: String,
    company_name: String,
    funded_at: String,
    source_type: String,
    round_type: RoundType,
    date: Option<Date>,
    amount: Option<f64>,
    investors: Vec<Investor>,
}

/// Imports the Crunchbase folder `dir` into `catalog`.
pub(crate) fn import(
    dir: &Path,
    catalog: &mut Catalog,
    report: &mut ImportReport,
    progress: &Progress,
) -> Result<(), ImportError> {
    let mut stats = CrunchbaseStats::default();
    let table = |file: &str| Table::open(&dir.join(file), progress);
    let companies = table(COMPANIES)?;
    stats.companies = read_companies(&dir.join(COMPANIES), companies, catalog, &mut stats)?;
    report.read(&source_name(COMPANIES), stats.companies);
    let acquired = table(ACQUISITIONS)?;
    let acquisitions = read_acquisitions(&dir.join(ACQUISITIONS), acquired, catalog, &mut stats)?;
    report.read(&source_name(ACQUISITIONS), acquisitions);
    let mut rounds = read_rounds(&dir.join(ROUNDS), table(ROUNDS)?, catalog, &mut stats)?;
    stats.rounds = rounds.len() as u64;
    report.read(&source_name(ROUNDS), stats.rounds);
    stats.edges = join_edges(table(EDGES)?, &mut rounds, catalog, &mut stats)?;
    report.read(&source_name(EDGES), stats.edges);
    add_deals(rounds, catalog, &mut stats);
    let (firms, angels) = catalog.investor_kinds();
    (stats.investor_firms, stats.investor_angels) = (firms as u64, angels as u64);
    report.crunchbase = Some(stats);
    Ok(())
}

fn source_name(file: &str) -> String {
    format!("crunchbase-2013/{file}")
}

fn read_companies(
    path: &Path,
    mut table: Table,
    catalog: &mut Catalog,
    stats: &mut CrunchbaseStats,
) -> Result<u64, ImportError> {
    let cols = table.columns([
        "permalink",
        "name",
        "category_code",
        "status",
        "country_code",
        "state_code",
        "region",
        "city",
        "founded_at",
    ])?;
    table.for_each_row(|row| {
        let company = company_row(row, &cols, catalog, stats)
            .map_err(|m| ImportError::bad(path, row.line, m))?;
        if catalog.company_index(&company.permalink).is_some() {
            return Err(ImportError::bad(
                path,
                row.line,
                format!("duplicate permalink '{}'", company.permalink),
            ));
        }
        catalog.add_company(company);
        Ok(())
    })
}

fn company_row(
    row: &Row,
    cols: &[usize; 9],
    catalog: &mut Catalog,
    stats: &mut CrunchbaseStats,
) -> Result<CompanyRow, String> {
    let [permalink, name, category, status, country, state, region, city, founded] = *cols;
    let slug = company_slug(row.get(permalink))?;
    let state_name = row.opt(state).and_then(|code| {
        let found = geo::state_by_code(code);
        stats.unknown_state_codes += u64::from(found.is_none());
        found
    });
    let address = Address {
        country: row.opt(country),
        state: state_name,
        region: row.opt(region),
        city: row.opt(city),
    };
    Ok(CompanyRow {
        id: uuid5("company", &slug),
        name: row.get(name).to_string(),
        crunchbase: Some(format!("https://www.crunchbase.com/organization/{slug}")),
        ipo_status: ipo_status(row.get(status))?,
        founded_on: row
            .opt(founded)
            .map(|d| Date::parse(d).ok_or(format!("bad founded_at '{d}'")))
            .transpose()?,
        industries: catalog
            .industries
            .crunchbase(row.get(category))
            .into_iter()
            .collect(),
        location: catalog.locations.place(&address),
        permalink: slug,
        ..CompanyRow::default()
    })
}

/// `/company/facebook` → `facebook`.
fn company_slug(permalink: &str) -> Result<String, String> {
    match permalink.strip_prefix("/company/") {
        Some(slug) if !slug.is_empty() && !slug.contains('/') => Ok(slug.to_string()),
        _ => Err(format!("permalink '{permalink}' is not /company/<slug>")),
    }
}

/// `status`: operating → private, acquired → acquired, ipo → public, closed → none.
fn ipo_status(status: &str) -> Result<Option<IpoStatus>, String> {
    match status {
        "operating" => Ok(Some(IpoStatus::Private)),
        "acquired" => Ok(Some(IpoStatus::Acquired)),
        "ipo" => Ok(Some(IpoStatus::Public)),
        "closed" | "" => Ok(None),
        other => Err(format!("unknown status '{other}'")),
    }
}

fn read_acquisitions(
    path: &Path,
    mut table: Table,
    catalog: &mut Catalog,
    stats: &mut CrunchbaseStats,
) -> Result<u64, ImportError> {
    let [permalink] = table.columns(["company_permalink"])?;
    table.for_each_row(|row| {
        let slug =
            company_slug(row.get(permalink)).map_err(|m| ImportError::bad(path, row.line, m))?;
        let Some(index) = catalog.company_index(&slug) else {
            stats.acquisitions_unknown_company += 1;
            return Ok(());
        };
        let company = catalog.company_mut(index);
        if !matches!(
            company.ipo_status,
            Some(IpoStatus::Public | IpoStatus::Acquired)
        ) {
            company.ipo_status = Some(IpoStatus::Acquired);
            stats.acquired_from_acquisitions += 1;
        }
        Ok(())
    })
}

fn read_rounds(
    path: &Path,
    mut table: Table,
    catalog: &Catalog,
    stats: &mut CrunchbaseStats,
) -> Result<Vec<RawRound>, ImportError> {
    let cols = table.columns([
        "company_permalink",
        "company_name",
        "funding_round_type",
        "funded_at",
        "raised_amount_usd",
    ])?;
    let mut rounds = Vec::new();
    table.for_each_row(|row| {
        let round =
            raw_round(row, &cols, catalog).map_err(|m| ImportError::bad(path, row.line, m))?;
        stats.rounds_unknown_company += u64::from(round.company.is_none());
        rounds.push(round);
        Ok(())
    })?;
    Ok(rounds)
}

fn raw_round(row: &Row, cols: &[usize; 5], catalog: &Catalog) -> Result<RawRound, String> {
    let [permalink, company_name, kind, funded_at, amount] = *cols;
    let slug = company_slug(row.get(permalink))?;
    let source_type = row.get(kind);
    let funded = row.get(funded_at);
    Ok(RawRound {
        company: catalog.company_index(&slug),
        key: deal_key(&slug, funded, source_type, row.get(amount)),
        company_name: row.get(company_name).to_string(),
        funded_at: funded.to_string(),
        source_type: source_type.to_string(),
        round_type: round_type(source_type)
            .ok_or(format!("unknown funding_round_type '{source_type}'"))?,
        date: row
            .opt(funded_at)
            .map(|d| Date::parse(d).ok_or(format!("bad funded_at '{d}'")))
            .transpose()?,
        amount: parse_amount(row.get(amount))?,
        investors: Vec::new(),
    })
}

/// Attaches edge-list investors to the raw rounds; returns the edges read.
fn join_edges(
    mut table: Table,
    rounds: &mut [RawRound],
    catalog: &mut Catalog,
    stats: &mut CrunchbaseStats,
) -> Result<u64, ImportError> {
    let mut by_key: HashMap<(&str, &str), Vec<usize>> = HashMap::new();
    for (i, r) in rounds.iter().enumerate() {
        by_key
            .entry((r.company_name.as_str(), r.funded_at.as_str()))
            .or_default()
            .push(i);
    }
    let by_key: HashMap<(String, String), Vec<usize>> = by_key
        .into_iter()
        .map(|((n, d), v)| ((n.to_string(), d.to_string()), v))
        .collect();
    let [company, investor, funded_when] =
        table.columns(["company_name", "investor_name", "funded_when"])?;
    let mut key = (String::new(), String::new());
    let edges = table.for_each_row(|row| {
        key.0.replace_range(.., row.get(company));
        key.1.replace_range(.., row.get(funded_when));
        let matched = by_key.get(&key);
        stats.edges_matched += u64::from(matched.is_some());
        let Some(name) = row.opt(investor).filter(|name| !slugify(name).is_empty()) else {
            stats.edges_empty_investor += 1;
            return Ok(());
        };
        let Some(matched) = matched else {
            return Ok(());
        };
        let Some(investor) = catalog.investor(name) else {
            return Ok(());
        };
        for &i in matched {
            if !rounds[i].investors.contains(&investor) {
                rounds[i].investors.push(investor);
            }
        }
        Ok(())
    })?;
    stats.rounds_with_investor = rounds.iter().filter(|r| !r.investors.is_empty()).count() as u64;
    Ok(edges)
}

/// Builds deals from the raw rounds, collapsing exact duplicates into the first.
fn add_deals(rounds: Vec<RawRound>, catalog: &mut Catalog, stats: &mut CrunchbaseStats) {
    let mut by_key: HashMap<String, usize> = HashMap::new();
    for round in rounds {
        let Some(company) = round.company else {
            continue;
        };
        if let Some(&deal) = by_key.get(&round.key) {
            stats.duplicate_rounds += 1;
            add_investors(catalog.deal_mut(deal), &round.investors);
            continue;
        }
        let deal = deal_row(&round, catalog.company(company));
        stats.deals_with_investor += u64::from(!round.investors.is_empty());
        by_key.insert(round.key, catalog.add_deal(deal));
    }
}

fn deal_row(round: &RawRound, company: &CompanyRow) -> DealRow {
    let financing = |usd| FinancingRow {
        id: uuid5("financing", &round.key),
        financing_type: round.round_type,
        size_usd: Some(usd),
        size_native: Some(usd),
        currency: Some("USD".to_string()),
    };
    let mut deal = DealRow {
        id: uuid5("deal", &round.key),
        company_id: company.id,
        round_type: round.round_type,
        pre: false,
        extension: false,
        intermediate: None,
        date: round.date,
        created_at: None,
        total_round_raised: round.amount,
        short_description: Some(describe(&company.name, &round.source_type, round.amount)),
        long_description: None,
        investors: Vec::new(),
        angels: Vec::new(),
        financings: round.amount.map(financing).into_iter().collect(),
        valuation: None,
        articles: Vec::new(),
    };
    add_investors(&mut deal, &round.investors);
    deal
}

/// Adds firms and angels not yet on the deal (no lead flags exist in the data).
pub(crate) fn add_investors(deal: &mut DealRow, investors: &[Investor]) {
    for investor in investors {
        match *investor {
            Investor::Firm(firm_id) if !deal.investors.iter().any(|f| f.firm_id == firm_id) => {
                deal.investors.push(DealFirmRow {
                    firm_id,
                    lead: false,
                    partner_ids: Vec::new(),
                    financing_type: None,
                });
            }
            Investor::Angel(person_id) if !deal.angels.iter().any(|a| a.person_id == person_id) => {
                deal.angels.push(DealAngelRow {
                    person_id,
                    financing_type: None,
                });
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permalinks_and_statuses_map_or_fail() {
        assert_eq!(company_slug("/company/facebook").as_deref(), Ok("facebook"));
        assert!(company_slug("/person/x").is_err());
        assert!(company_slug("/company/").is_err());
        assert_eq!(ipo_status("ipo"), Ok(Some(IpoStatus::Public)));
        assert_eq!(ipo_status("operating"), Ok(Some(IpoStatus::Private)));
        assert_eq!(ipo_status("closed"), Ok(None));
        assert!(ipo_status("zombie").is_err());
    }

    #[test]
    fn investors_join_a_deal_once_each() {
        let round = RawRound {
            company: Some(0),
            key: deal_key("x", "2012-01-01", "angel", ""),
            company_name: "X".into(),
            funded_at: "2012-01-01".into(),
            source_type: "angel".into(),
            round_type: RoundType::Seed,
            date: Date::parse("2012-01-01"),
            amount: None,
            investors: vec![
                Investor::Firm(uuid5("firm", "a")),
                Investor::Angel(uuid5("person", "b")),
            ],
        };
        let company = CompanyRow {
            id: uuid5("company", "x"),
            name: "X".into(),
            permalink: "x".into(),
            ..Default::default()
        };
        let mut deal = deal_row(&round, &company);
        add_investors(&mut deal, &round.investors);
        assert_eq!((deal.investors.len(), deal.angels.len()), (1, 1));
        assert!(deal.financings.is_empty());
        assert_eq!(
            deal.short_description.as_deref(),
            Some("X raised an angel round.")
        );
        assert_eq!(deal.id, uuid5("deal", "x|2012-01-01|angel|"));
    }
}
