//! The `reasoning` of an alert's deal: what the deal is (company, amount,
//! round, day) and each clause of the alert it met, with the deal's own
//! values — the round label, the amount against the bounds, the company's
//! industries, place, headcount, the firms that took part, the semantic
//! relevance. Generated from the data, deterministic, one sentence each.
//!
//! Which filter values a deal met is read from the same facets the search
//! used (`company_industry`, `company_super_category`, `company_location`
//! on deals), so a location matched through its hierarchy (a city inside
//! a region) is named as the alert names it.

use crate::index::{Index, IndexError};
use crate::schema::alert::AlertFilters;
use crate::schema::record::{CompanyRecord, DealRecord, FirmCard, LocationRecord, Money};
use crate::schema::{RoundKey, RoundType};

/// A deal with its company and their docs.
pub struct Matched<'a> {
    pub deal: &'a DealRecord,
    pub deal_doc: u32,
    pub company: &'a CompanyRecord,
    /// The company's relevance to the alert's semantic description.
    pub relevance: Option<f32>,
}

/// "A, B and C"
fn and_list(items: &[String]) -> String {
    match items.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        Some((last, _)) => last.clone(),
        None => String::new(),
    }
}

fn label_of(deal: &DealRecord) -> String {
    match RoundType::parse(&deal.round_type) {
        Some(round_type) => RoundKey {
            round_type,
            pre: deal.pre,
            extension: deal.extension,
        }
        .label(),
        None => deal.round_type.clone(),
    }
}

fn article(word: &str) -> &'static str {
    match word.chars().next() {
        Some(c) if "AEIOUaeiou".contains(c) => "an",
        _ => "a",
    }
}

/// "Acme raised $25M in a Series A round on 2024-01-15."
fn opening(m: &Matched) -> String {
    let amount = m
        .deal
        .total_round_raised
        .map_or("an undisclosed amount".to_string(), |a| a.compact());
    let label = label_of(m.deal);
    let day = m
        .deal
        .date
        .as_deref()
        .map_or(String::new(), |d| format!(" on {}", &d[..d.len().min(10)]));
    format!(
        "{} raised {amount} in {} {label} round{day}.",
        m.company.name,
        article(&label)
    )
}

fn bounds(min: Option<f64>, max: Option<f64>) -> String {
    match (min, max) {
        (Some(lo), Some(hi)) => format!("within {}–{}", Money(lo).compact(), Money(hi).compact()),
        (Some(lo), None) => format!("at least {}", Money(lo).compact()),
        (None, Some(hi)) => format!("at most {}", Money(hi).compact()),
        (None, None) => String::new(),
    }
}

/// The values of `wanted` whose facet on deals holds `doc`.
fn met<'w>(
    index: &Index,
    facet: &str,
    wanted: &'w [String],
    doc: u32,
) -> Result<Vec<&'w String>, IndexError> {
    let facet = index.deals.facet(facet)?;
    let mut out = Vec::new();
    for value in wanted {
        if facet.docids(value)?.is_some_and(|docs| docs.contains(doc)) {
            out.push(value);
        }
    }
    Ok(out)
}

/// The name a location record gives `permalink`, or the permalink.
fn place_name(l: &LocationRecord, permalink: &str) -> String {
    [&l.city, &l.state, &l.country, &l.region]
        .into_iter()
        .flatten()
        .find(|level| level.permalink == permalink)
        .map_or(permalink.to_string(), |level| level.name.clone())
}

fn place(l: &LocationRecord) -> String {
    let names: Vec<&str> = [&l.city, &l.state, &l.country]
        .into_iter()
        .flatten()
        .map(|x| x.name.as_str())
        .collect();
    names.join(", ")
}

fn firm_names(index: &Index, ids: &[uuid::Uuid]) -> Result<Vec<String>, IndexError> {
    let mut names = Vec::new();
    for id in ids {
        if let Some(doc) = index.firms.ids.docid(id) {
            names.push(index.firms.record::<FirmCard>("card", doc)?.name);
        }
    }
    Ok(names)
}

fn company_clauses(
    index: &Index,
    f: &AlertFilters,
    m: &Matched,
    out: &mut Vec<String>,
) -> Result<(), IndexError> {
    let c = m.company;
    if !f.industries.is_empty() {
        let met = met(index, "company_industry", &f.industries, m.deal_doc)?;
        let names: Vec<String> = met
            .iter()
            .map(|p| {
                c.industries
                    .iter()
                    .find(|i| &&i.permalink == p)
                    .map_or(p.to_string(), |i| i.name.clone())
            })
            .collect();
        out.push(format!("industry ({})", and_list(&names)));
    }
    if !f.super_categories.is_empty() {
        let met: Vec<String> = met(
            index,
            "company_super_category",
            &f.super_categories,
            m.deal_doc,
        )?
        .into_iter()
        .cloned()
        .collect();
        out.push(format!("super category ({})", and_list(&met)));
    }
    if !f.locations.is_empty() {
        let met = met(index, "company_location", &f.locations, m.deal_doc)?;
        let within: Vec<String> = met.iter().map(|p| place_name(&c.location, p)).collect();
        out.push(format!(
            "location ({}, within {})",
            place(&c.location),
            and_list(&within)
        ));
    }
    if !f.num_employees.is_empty() {
        out.push(format!(
            "headcount ({} employees)",
            c.num_employees.as_deref().unwrap_or("unknown")
        ));
    }
    if !f.companies.is_empty() {
        out.push(format!(
            "company ({} is one of the alert's {} companies)",
            c.name,
            f.companies.len()
        ));
    }
    Ok(())
}

/// The clauses of `f` that `m` met, each with the deal's values.
fn clauses(index: &Index, f: &AlertFilters, m: &Matched) -> Result<Vec<String>, IndexError> {
    let mut out = Vec::new();
    if !f.financing_types.is_empty() {
        let label = label_of(m.deal);
        out.push(match f.financing_types.as_slice() {
            [_] => format!("round type ({label})"),
            all => format!("round type ({label}, one of {})", all.join(", ")),
        });
    }
    if f.deal_size_min.is_some() || f.deal_size_max.is_some() {
        let amount = m
            .deal
            .total_round_raised
            .map_or("undisclosed".into(), |a| a.compact());
        out.push(format!(
            "deal size ({amount}, {})",
            bounds(f.deal_size_min, f.deal_size_max)
        ));
    }
    company_clauses(index, f, m, &mut out)?;
    if !f.investors.is_empty() {
        let took_part: Vec<uuid::Uuid> = f
            .investors
            .iter()
            .filter(|id| m.deal.investor_ids.contains(id))
            .copied()
            .collect();
        out.push(format!(
            "investors ({} took part)",
            and_list(&firm_names(index, &took_part)?)
        ));
    }
    if let (Some(query), Some(r)) = (&f.search_query, m.relevance) {
        out.push(format!("relevance {r:.2} to “{query}”"));
    }
    Ok(out)
}

/// The reasoning text of `m` for an alert with filters `f`.
pub fn reasoning(index: &Index, f: &AlertFilters, m: &Matched) -> Result<String, IndexError> {
    let clauses = clauses(index, f, m)?;
    let why = if clauses.is_empty() {
        "The alert has no filters, so every deal of the range matches.".to_string()
    } else {
        format!("It matches the alert on {}.", and_list(&clauses))
    };
    Ok(format!("{} {why}", opening(m)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_read_as_prose() {
        let s = |v: &[&str]| and_list(&v.iter().map(|x| x.to_string()).collect::<Vec<_>>());
        assert_eq!(s(&[]), "");
        assert_eq!(s(&["a"]), "a");
        assert_eq!(s(&["a", "b", "c"]), "a, b and c");
        assert_eq!(article("Equity"), "an");
        assert_eq!(article("Series A"), "a");
    }

    #[test]
    fn bounds_name_the_open_ends() {
        assert_eq!(bounds(Some(1e6), Some(1e7)), "within $1M–$10M");
        assert_eq!(bounds(Some(5e5), None), "at least $500K");
        assert_eq!(bounds(None, Some(2.5e6)), "at most $2.5M");
    }
}
