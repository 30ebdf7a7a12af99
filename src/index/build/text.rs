//! Builds the five tantivy name indexes from the facts.
//!
//! Categories let one index serve filtered lookups: people are split into
//! the investor pool (1) and the company pool (2); locations carry their
//! level (0 city, 1 state, 2 region, 3 country); industries their type
//! (0 industry, 1 super category).
//!
//! Each builder counts its names on its progress counter as the index
//! writer takes them (tantivy's commit and the ranked postings after them
//! are not counted).

use std::path::Path;

use crate::index::text::{build_name_index, NameEntry, TextError};
use crate::progress::Counter;
use crate::schema::{IndustryType, LocationType};

use super::bundles::Inputs;

pub const PERSON_INVESTOR: u8 = 1;
pub const PERSON_COMPANY: u8 = 2;

pub fn location_category(t: LocationType) -> u8 {
    match t {
        LocationType::City => 0,
        LocationType::State => 1,
        LocationType::Region => 2,
        LocationType::Country => 3,
    }
}

pub fn industry_category(t: IndustryType) -> u8 {
    match t {
        IndustryType::Industry => 0,
        IndustryType::SuperCategory => 1,
    }
}

pub fn build_companies(dir: &Path, inp: &Inputs, counter: &Counter) -> Result<(), TextError> {
    let order = &inp.orders.companies;
    let entries = (0..order.len() as u32).map(|doc| {
        let c = inp.facts.companies.get(order.row(doc));
        NameEntry {
            docid: doc,
            names: vec![String::from(c.name).into()],
            category: None,
        }
    });
    build_name_index(dir, counted(entries, counter)).map(|_| ())
}

pub fn build_firms(dir: &Path, inp: &Inputs, counter: &Counter) -> Result<(), TextError> {
    let order = &inp.orders.firms;
    let entries = (0..order.len() as u32).map(|doc| {
        let f = inp.facts.firms.get(order.row(doc));
        NameEntry {
            docid: doc,
            names: vec![String::from(f.name).into()],
            category: None,
        }
    });
    build_name_index(dir, counted(entries, counter)).map(|_| ())
}

pub fn build_people(dir: &Path, inp: &Inputs, counter: &Counter) -> Result<(), TextError> {
    let order = &inp.orders.people;
    let entries = (0..order.len() as u32).map(|doc| {
        let row = order.row(doc);
        let pool = if inp.derived.people.holds(row) {
            PERSON_INVESTOR
        } else {
            PERSON_COMPANY
        };
        NameEntry {
            docid: doc,
            names: vec![String::from(inp.facts.people.get(row).name).into()],
            category: Some(pool),
        }
    });
    build_name_index(dir, counted(entries, counter)).map(|_| ())
}

pub fn build_locations(dir: &Path, inp: &Inputs, counter: &Counter) -> Result<(), TextError> {
    let entries = inp
        .facts
        .catalog
        .locations
        .iter()
        .enumerate()
        .map(|(row, l)| NameEntry {
            docid: row as u32,
            names: vec![l.name.as_str().into()],
            category: Some(location_category(l.location_type)),
        });
    build_name_index(dir, counted(entries, counter)).map(|_| ())
}

pub fn build_industries(dir: &Path, inp: &Inputs, counter: &Counter) -> Result<(), TextError> {
    let entries = inp
        .facts
        .catalog
        .industries
        .iter()
        .enumerate()
        .map(|(row, i)| NameEntry {
            docid: row as u32,
            names: vec![i.name.as_str().into()],
            category: Some(industry_category(i.industry_type)),
        });
    build_name_index(dir, counted(entries, counter)).map(|_| ())
}

/// `entries`, counted on `counter` as they are taken.
fn counted<'c, T>(
    entries: impl Iterator<Item = T> + 'c,
    counter: &'c Counter,
) -> impl Iterator<Item = T> + 'c {
    let mut tally = counter.tally();
    entries.inspect(move |_| tally.inc())
}
