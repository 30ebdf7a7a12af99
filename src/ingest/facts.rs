//! Compact, validated facts of a dump: everything the indexer needs to build
//! bitmaps, columns, relations and aggregates, without the long texts.
//!
//! Rows are referred to by their *row number* within their kind (the order of
//! kept rows in the file); doc ids are assigned later, by the index builder.
//! Long texts (descriptions, histories, articles) are not kept here: the
//! record renderer streams the dump again for them.
//!
//! Each kind's rows are held packed in a [`Table`] (see `packed`): a row is
//! decoded when it is read, so readers keep a decoded row rather than read
//! it twice.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::packed::{Row, Table};
use crate::schema::{
    ContactType, Date, Headcount, IndustryRow, IpoStatus, LocationRow, PersonRole, RoundKey,
    RoundType, Timestamp,
};

/// Locations and industries, with their lookup tables resolved.
#[derive(Debug, Clone, Default)]
pub struct Catalog {
    pub locations: Vec<LocationRow>,
    /// For each location: itself and every ancestor, most specific first.
    pub location_ancestors: Vec<Vec<u32>>,
    pub industries: Vec<IndustryRow>,
    /// For each industry: its super categories (as industry row numbers).
    pub industry_supers: Vec<Vec<u32>>,
    pub location_by_permalink: HashMap<String, u32>,
    pub industry_by_permalink: HashMap<String, u32>,
}

impl Catalog {
    pub fn location(&self, permalink: &str) -> Option<u32> {
        self.location_by_permalink.get(permalink).copied()
    }

    pub fn industry(&self, permalink: &str) -> Option<u32> {
        self.industry_by_permalink.get(permalink).copied()
    }

    /// `San Francisco, California, United States`: the name and its ancestors' names.
    pub fn location_full_name(&self, loc: u32) -> String {
        let names: Vec<&str> = self.location_ancestors[loc as usize]
            .iter()
            .map(|&a| self.locations[a as usize].name.as_str())
            .collect();
        names.join(", ")
    }
}

/// Location slots of an organisation: city, state, region, country.
pub type Places = [Option<u32>; 4];

/// A company, compactly.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CompanyFacts {
    pub id: Uuid,
    pub name: Box<str>,
    pub permalink: Box<str>,
    pub domain: Option<Box<str>>,
    pub domain_key: Option<Box<str>>,
    pub linkedin_key: Option<Box<str>>,
    pub crunchbase_key: Option<Box<str>>,
    pub places: Places,
    pub industries: Vec<u32>,
    pub headcount: Option<Headcount>,
    pub ipo_status: Option<IpoStatus>,
    pub founded_on: Option<Date>,
}

/// An investor firm, compactly.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FirmFacts {
    pub id: Uuid,
    pub name: Box<str>,
    pub permalink: Box<str>,
    pub domain: Option<Box<str>>,
    pub domain_key: Option<Box<str>>,
    pub linkedin_key: Option<Box<str>>,
    pub crunchbase_key: Option<Box<str>>,
    pub places: Places,
    pub headcount: Option<Headcount>,
}

/// Who employs a person now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Employer {
    Company(u32),
    Firm(u32),
}

/// A person, compactly.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PersonFacts {
    pub id: Uuid,
    pub name: Box<str>,
    pub roles: Vec<PersonRole>,
    /// Contact channels on file.
    pub contacts: Vec<ContactType>,
    /// Normalised key of the current title (`vp-engineering`).
    pub job_title: Option<Box<str>>,
    pub schools: Vec<Box<str>>,
    pub linkedin_companies: Vec<Box<str>>,
    pub employer: Option<Employer>,
    pub linkedin_key: Option<Box<str>>,
    pub crunchbase_key: Option<Box<str>>,
    pub twitter_key: Option<Box<str>>,
    pub has_email: bool,
}

/// A firm's part in a deal.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DealFirm {
    pub firm: u32,
    pub lead: bool,
    pub partners: Vec<u32>,
    pub financing_type: Option<RoundType>,
}

/// A deal, compactly.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DealFacts {
    pub id: Uuid,
    pub company: u32,
    pub round: RoundKey,
    pub date: Option<Date>,
    pub created_at: Option<Timestamp>,
    pub size: Option<f64>,
    pub firms: Vec<DealFirm>,
    pub angels: Vec<(u32, Option<RoundType>)>,
    pub valuation_usd: Option<f64>,
}

/// Everything read from a dump.
#[derive(Debug, Default)]
pub struct Facts {
    pub catalog: Catalog,
    pub companies: Table<CompanyFacts>,
    pub firms: Table<FirmFacts>,
    pub people: Table<PersonFacts>,
    pub deals: Table<DealFacts>,
}

impl Facts {
    /// Bytes of every table's packed rows, and how many of them are spilled.
    pub fn packed_bytes(&self) -> (u64, u64) {
        let tables = [
            (
                self.companies.packed_bytes(),
                self.companies.spilled_bytes(),
            ),
            (self.firms.packed_bytes(), self.firms.spilled_bytes()),
            (self.people.packed_bytes(), self.people.spilled_bytes()),
            (self.deals.packed_bytes(), self.deals.spilled_bytes()),
        ];
        tables
            .iter()
            .fold((0, 0), |(p, s), (tp, ts)| (p + tp, s + ts))
    }
}

macro_rules! rows_with_ids {
    ($($kind:ty),+) => {$(
        impl Row for $kind {
            fn id(&self) -> Option<Uuid> {
                Some(self.id)
            }
        }
    )+};
}

rows_with_ids!(CompanyFacts, FirmFacts, PersonFacts, DealFacts);
