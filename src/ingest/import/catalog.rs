//! Everything imported so far, keyed so that every source lands on the same
//! rows: companies by permalink, firms by permalink (`slugify(name)`),
//! people by id (`uuid5("person", slugify(name))`), deals by id.
//!
//! Writing sorts every kind by a stable key (locations by level then
//! permalink, super categories before industries, companies and firms by
//! permalink, people by id, deals by company permalink, date and id), so the
//! same inputs give the same bytes.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use uuid::Uuid;

use crate::ingest::{DumpCounts, DumpWriter};
use crate::progress::{Progress, Unit};
use crate::schema::ids::{slugify, uuid5};
use crate::schema::{CompanyRow, DealRow, DumpMeta, FirmRow, PersonRow};

use super::error::ImportError;
use super::industries::Industries;
use super::investors::{classify, InvestorKind};
use super::locations::Locations;

/// An investor name resolved to a firm or a person.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Investor {
    Firm(Uuid),
    Angel(Uuid),
}

/// The rows of the dump being built.
#[derive(Debug, Default)]
pub(crate) struct Catalog {
    pub locations: Locations,
    pub industries: Industries,
    companies: Vec<CompanyRow>,
    company_by_permalink: HashMap<String, usize>,
    firms: BTreeMap<String, FirmRow>,
    people: BTreeMap<Uuid, PersonRow>,
    investors: HashMap<String, Investor>,
    deals: Vec<DealRow>,
}

impl Catalog {
    /// Adds a company whose permalink is free; returns its index.
    pub fn add_company(&mut self, row: CompanyRow) -> usize {
        let index = self.companies.len();
        self.company_by_permalink
            .insert(row.permalink.clone(), index);
        self.companies.push(row);
        index
    }

    pub fn company_index(&self, permalink: &str) -> Option<usize> {
        self.company_by_permalink.get(permalink).copied()
    }

    pub fn company(&self, index: usize) -> &CompanyRow {
        &self.companies[index]
    }

    pub fn company_mut(&mut self, index: usize) -> &mut CompanyRow {
        &mut self.companies[index]
    }

    /// The firm named `name` (by slug), created on first sight; `None` for a name without letters or digits.
    pub fn firm(&mut self, name: &str) -> Option<Uuid> {
        let slug = slugify(name);
        if slug.is_empty() {
            return None;
        }
        let row = self.firms.entry(slug.clone()).or_insert_with(|| FirmRow {
            id: uuid5("firm", &slug),
            name: name.trim().to_string(),
            permalink: slug,
            ..FirmRow::default()
        });
        Some(row.id)
    }

    /// The person named `name` (by slug), created on first sight.
    pub fn person(&mut self, name: &str) -> Option<&mut PersonRow> {
        let slug = slugify(name);
        if slug.is_empty() {
            return None;
        }
        let id = uuid5("person", &slug);
        let row = self.people.entry(id).or_insert_with(|| PersonRow {
            id,
            name: name.trim().to_string(),
            ..PersonRow::default()
        });
        Some(row)
    }

    /// An edge-list investor name as a firm or an angel; the first spelling
    /// of a slug decides the kind for all spellings.
    pub fn investor(&mut self, name: &str) -> Option<Investor> {
        let slug = slugify(name);
        if let Some(found) = self.investors.get(&slug) {
            return Some(*found);
        }
        let investor = match classify(name) {
            InvestorKind::Firm => Investor::Firm(self.firm(name)?),
            InvestorKind::Angel => Investor::Angel(self.person(name)?.id),
        };
        self.investors.insert(slug, investor);
        Some(investor)
    }

    /// Distinct investor names by kind: `(firms, angels)`.
    pub fn investor_kinds(&self) -> (usize, usize) {
        let firms = self
            .investors
            .values()
            .filter(|i| matches!(i, Investor::Firm(_)))
            .count();
        (firms, self.investors.len() - firms)
    }

    pub fn add_deal(&mut self, deal: DealRow) -> usize {
        self.deals.push(deal);
        self.deals.len() - 1
    }

    pub fn deals(&self) -> &[DealRow] {
        &self.deals
    }

    pub fn deal_mut(&mut self, index: usize) -> &mut DealRow {
        &mut self.deals[index]
    }

    /// Writes the dump to `dir` in the canonical order; a progress stage
    /// counting companies, firms, people and deals (the catalog rows first).
    pub fn write(
        self,
        dir: &Path,
        meta: &DumpMeta,
        progress: &Progress,
    ) -> Result<DumpCounts, ImportError> {
        let io = |e| ImportError::io(dir, e);
        let rows = self.companies.len() + self.firms.len() + self.people.len() + self.deals.len();
        let written = progress.stage("write dump", rows as u64, Unit::Items("rows"));
        let mut out = DumpWriter::create(dir, meta).map_err(io)?;
        for row in self.locations.into_rows() {
            out.location(&row).map_err(io)?;
        }
        for row in self.industries.into_rows() {
            out.industry(&row).map_err(io)?;
        }
        let permalinks: HashMap<Uuid, String> = self
            .companies
            .iter()
            .map(|c| (c.id, c.permalink.clone()))
            .collect();
        let mut companies = self.companies;
        companies.sort_by(|a, b| a.permalink.cmp(&b.permalink));
        for row in &companies {
            out.company(row).map_err(io)?;
        }
        written.inc(companies.len() as u64);
        for row in self.firms.values() {
            out.firm(row).map_err(io)?;
        }
        written.inc(self.firms.len() as u64);
        for row in self.people.values() {
            out.person(row).map_err(io)?;
        }
        written.inc(self.people.len() as u64);
        let mut deals = self.deals;
        deals.sort_by_cached_key(|d| (permalinks.get(&d.company_id).cloned(), d.date, d.id));
        for row in &deals {
            out.deal(row).map_err(io)?;
        }
        written.inc(deals.len() as u64);
        let counts = out.finish().map_err(io)?;
        written.finish();
        Ok(counts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_with_one_slug_are_one_row() {
        let mut c = Catalog::default();
        let a = c.firm("Sequoia Capital").unwrap();
        assert_eq!(c.firm("SEQUOIA  capital"), Some(a));
        assert_eq!(c.firm("???"), None);
        let p = c.person("Ron Conway").unwrap().id;
        assert_eq!(c.person("ron conway").unwrap().name, "Ron Conway");
        assert_eq!(p, uuid5("person", "ron-conway"));
    }

    #[test]
    fn investors_are_classified_once_per_slug() {
        let mut c = Catalog::default();
        let ron = c.investor("Ron Conway").unwrap();
        assert_eq!(ron, Investor::Angel(uuid5("person", "ron-conway")));
        assert_eq!(c.investor("RON CONWAY"), Some(ron));
        assert_eq!(
            c.investor("Y Combinator"),
            Some(Investor::Firm(uuid5("firm", "y-combinator")))
        );
        assert_eq!(c.investor_kinds(), (1, 1));
    }
}
