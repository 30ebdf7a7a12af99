//! Test support: loads a dump directory back into rows and checks the dump
//! rules the indexer enforces (unique keys, references to earlier files,
//! location levels, industry kinds), so that the hand-written fixture and the
//! generator's output are both proven readable.
//!
//! It also checks the *canonical form*: every line must be exactly what
//! `serde_json::to_string` prints for the parsed row (struct field order,
//! shortest floats), which keeps byte-level golden tests stable.

use std::collections::{HashMap, HashSet};
use std::fs;
use std::path::Path;

use serde::de::DeserializeOwned;
use serde::Serialize;
use uuid::Uuid;

use crate::schema::{
    CompanyRow, DealRow, DumpMeta, FirmRow, IndustryRow, IndustryType, LocationRow, LocationType, PersonRow,
    PlaceRefs,
};

/// A dump read back into memory.
pub(crate) struct LoadedDump {
    pub meta: DumpMeta,
    pub locations: Vec<LocationRow>,
    pub industries: Vec<IndustryRow>,
    pub companies: Vec<CompanyRow>,
    pub firms: Vec<FirmRow>,
    pub people: Vec<PersonRow>,
    pub deals: Vec<DealRow>,
    /// Lines whose text differs from the canonical serialisation of their row.
    pub non_canonical: Vec<String>,
}

/// Reads every file of the dump at `dir`; a parse error names file and line.
pub(crate) fn load(dir: &Path) -> Result<LoadedDump, String> {
    let meta_text = fs::read_to_string(dir.join("dump.json")).map_err(|e| format!("dump.json: {e}"))?;
    let meta = serde_json::from_str(&meta_text).map_err(|e| format!("dump.json: {e}"))?;
    let mut non_canonical = Vec::new();
    Ok(LoadedDump {
        meta,
        locations: read_rows(dir, "locations.jsonl", &mut non_canonical)?,
        industries: read_rows(dir, "industries.jsonl", &mut non_canonical)?,
        companies: read_rows(dir, "companies.jsonl", &mut non_canonical)?,
        firms: read_rows(dir, "investors.jsonl", &mut non_canonical)?,
        people: read_rows(dir, "people.jsonl", &mut non_canonical)?,
        deals: read_rows(dir, "deals.jsonl", &mut non_canonical)?,
        non_canonical,
    })
}

fn read_rows<T: DeserializeOwned + Serialize>(
    dir: &Path,
    name: &str,
    non_canonical: &mut Vec<String>,
) -> Result<Vec<T>, String> {
    let text = fs::read_to_string(dir.join(name)).map_err(|e| format!("{name}: {e}"))?;
    let mut rows = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let row: T = serde_json::from_str(line).map_err(|e| format!("{name}:{}: {e}", n + 1))?;
        let again = serde_json::to_string(&row).map_err(|e| format!("{name}:{}: {e}", n + 1))?;
        if again != line {
            non_canonical.push(format!("{name}:{}", n + 1));
        }
        rows.push(row);
    }
    Ok(rows)
}

impl LoadedDump {
    /// Every violation of the dump rules, as readable messages (empty = valid).
    pub fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        let locations = self.check_locations(&mut out);
        let industries = self.check_industries(&mut out);
        let companies = self.check_companies(&locations, &industries, &mut out);
        let firms = self.check_firms(&locations, &mut out);
        let people = self.check_people(&companies, &firms, &mut out);
        self.check_deals(&companies, &firms, &people, &mut out);
        out
    }

    fn check_locations(&self, out: &mut Vec<String>) -> HashMap<String, LocationType> {
        let mut types = HashMap::new();
        for l in &self.locations {
            if types.insert(l.permalink.clone(), l.location_type).is_some() {
                out.push(format!("location {}: duplicate permalink", l.permalink));
            }
        }
        let parents: HashMap<&str, &str> =
            self.locations.iter().filter_map(|l| Some((l.permalink.as_str(), l.parent.as_deref()?))).collect();
        for l in &self.locations {
            if let Some(p) = &l.parent {
                if !types.contains_key(p) {
                    out.push(format!("location {}: unknown parent {p}", l.permalink));
                }
            }
            if has_cycle(&parents, &l.permalink) {
                out.push(format!("location {}: parent cycle", l.permalink));
            }
        }
        types
    }

    fn check_industries(&self, out: &mut Vec<String>) -> HashMap<String, IndustryType> {
        let mut kinds = HashMap::new();
        for i in &self.industries {
            if kinds.insert(i.permalink.clone(), i.industry_type).is_some() {
                out.push(format!("industry {}: duplicate permalink", i.permalink));
            }
        }
        for i in &self.industries {
            if i.industry_type == IndustryType::SuperCategory && !i.super_categories.is_empty() {
                out.push(format!("super category {} lists super categories", i.permalink));
            }
            for s in &i.super_categories {
                if kinds.get(s) != Some(&IndustryType::SuperCategory) {
                    out.push(format!("industry {}: {s} is not a super category", i.permalink));
                }
            }
        }
        kinds
    }

    fn check_companies(
        &self,
        locations: &HashMap<String, LocationType>,
        industries: &HashMap<String, IndustryType>,
        out: &mut Vec<String>,
    ) -> HashSet<Uuid> {
        let mut permalinks = HashSet::new();
        let mut ids = HashSet::new();
        for c in &self.companies {
            let what = format!("company {}", c.permalink);
            unique(&mut ids, c.id, &what, out);
            unique(&mut permalinks, c.permalink.clone(), &what, out);
            check_place(&c.location, locations, &what, out);
            for i in &c.industries {
                if industries.get(i) != Some(&IndustryType::Industry) {
                    out.push(format!("{what}: {i} is not an industry"));
                }
            }
        }
        ids
    }

    fn check_firms(&self, locations: &HashMap<String, LocationType>, out: &mut Vec<String>) -> HashSet<Uuid> {
        let mut permalinks = HashSet::new();
        let mut ids = HashSet::new();
        for f in &self.firms {
            let what = format!("firm {}", f.permalink);
            unique(&mut ids, f.id, &what, out);
            unique(&mut permalinks, f.permalink.clone(), &what, out);
            check_place(&f.location, locations, &what, out);
        }
        ids
    }

    fn check_people(&self, companies: &HashSet<Uuid>, firms: &HashSet<Uuid>, out: &mut Vec<String>) -> HashSet<Uuid> {
        let mut ids = HashSet::new();
        for p in &self.people {
            let what = format!("person {} ({})", p.id, p.name);
            unique(&mut ids, p.id, &what, out);
            for job in &p.employment {
                if let Some(id) = job.company_id {
                    if !companies.contains(&id) && !firms.contains(&id) {
                        out.push(format!("{what}: employer {id} is neither a company nor a firm"));
                    }
                }
            }
        }
        ids
    }

    fn check_deals(&self, companies: &HashSet<Uuid>, firms: &HashSet<Uuid>, people: &HashSet<Uuid>, out: &mut Vec<String>) {
        let mut ids = HashSet::new();
        for d in &self.deals {
            let what = format!("deal {}", d.id);
            unique(&mut ids, d.id, &what, out);
            if !companies.contains(&d.company_id) {
                out.push(format!("{what}: unknown company {}", d.company_id));
            }
            let mut seen = HashSet::new();
            for inv in &d.investors {
                if !firms.contains(&inv.firm_id) {
                    out.push(format!("{what}: unknown firm {}", inv.firm_id));
                }
                if !seen.insert(inv.firm_id) {
                    out.push(format!("{what}: firm {} listed twice", inv.firm_id));
                }
                let partners = inv.partner_ids.iter();
                partners.filter(|p| !people.contains(p)).for_each(|p| out.push(format!("{what}: unknown partner {p}")));
            }
            for a in d.angels.iter().filter(|a| !people.contains(&a.person_id)) {
                out.push(format!("{what}: unknown angel {}", a.person_id));
            }
        }
    }
}

fn unique<T: std::hash::Hash + Eq + std::fmt::Debug>(seen: &mut HashSet<T>, key: T, what: &str, out: &mut Vec<String>) {
    let shown = format!("{key:?}");
    if !seen.insert(key) {
        out.push(format!("{what}: duplicate key {shown}"));
    }
}

fn check_place(place: &PlaceRefs, locations: &HashMap<String, LocationType>, what: &str, out: &mut Vec<String>) {
    for (slot, permalink) in place.levels() {
        match locations.get(permalink) {
            Some(t) if *t == slot => {}
            Some(t) => out.push(format!("{what}: {permalink} is a {} in the {} slot", t.as_str(), slot.as_str())),
            None => out.push(format!("{what}: unknown location {permalink}")),
        }
    }
}

fn has_cycle(parents: &HashMap<&str, &str>, start: &str) -> bool {
    let mut at = start;
    for _ in 0..=parents.len() {
        match parents.get(at) {
            Some(p) if *p == start => return true,
            Some(p) => at = p,
            None => return false,
        }
    }
    true
}
