//! The industry taxonomy of generated data, from `data/industries.txt`: ~40
//! super categories ("sectors" here) of 6–10 industries each, ~280 industries
//! in all, plus the per-sector vocabulary that descriptions are written from.
//!
//! Super-category permalinks carry a short hex suffix, as the real API's do
//! (`artificial-intelligence-e551`), so they never collide with the industry
//! of the same name (`artificial-intelligence`). An industry listed in two
//! blocks belongs to both super categories.
//!
//! A company's industries: its sector is drawn by the block weights, its first
//! industry by a Zipf over that sector's list (earlier = more common), then 0–3
//! more, mostly from the same sector.

use std::collections::HashMap;

use super::rng::Rng;
use super::weighted::Weighted;
use crate::schema::ids::{slugify, uuid5};
use crate::schema::{IndustryRow, IndustryType};

const TAXONOMY: &str = include_str!("data/industries.txt");

/// A super category and the words its companies are described with.
#[derive(Debug, Clone, Default)]
pub struct Sector {
    pub name: String,
    pub permalink: String,
    pub weight: f64,
    /// Industry indices, most common first.
    pub industries: Vec<usize>,
    pub suffixes: Vec<String>,
    pub products: Vec<String>,
    pub customers: Vec<String>,
    pub outcomes: Vec<String>,
}

#[derive(Debug, Clone)]
pub struct Industry {
    pub name: String,
    pub permalink: String,
    pub sectors: Vec<usize>,
}

pub struct Taxonomy {
    pub sectors: Vec<Sector>,
    pub industries: Vec<Industry>,
    sector_weights: Weighted,
    within: Vec<Weighted>,
}

impl Taxonomy {
    pub fn load() -> Taxonomy {
        let mut sectors: Vec<Sector> = Vec::new();
        let mut industries: Vec<Industry> = Vec::new();
        let mut by_name: HashMap<String, usize> = HashMap::new();
        for line in super::vocab::lines(TAXONOMY) {
            if let Some(header) = line.strip_prefix('=') {
                sectors.push(sector_header(header));
                continue;
            }
            let si = sectors.len().wrapping_sub(1);
            let (Some(sector), Some((key, value))) = (sectors.last_mut(), line.split_once(':'))
            else {
                continue;
            };
            match key.trim() {
                "industries" => {
                    for name in value.split(',').map(str::trim).filter(|n| !n.is_empty()) {
                        let ii = *by_name.entry(name.to_string()).or_insert_with(|| {
                            industries.push(Industry {
                                name: name.to_string(),
                                permalink: slugify(name),
                                sectors: vec![],
                            });
                            industries.len() - 1
                        });
                        industries[ii].sectors.push(si);
                        sector.industries.push(ii);
                    }
                }
                "suffixes" => sector.suffixes = split_list(value, ','),
                "products" => sector.products = split_list(value, '|'),
                "customers" => sector.customers = split_list(value, '|'),
                "outcomes" => sector.outcomes = split_list(value, '|'),
                _ => {}
            }
        }
        let sector_weights = Weighted::new(sectors.iter().map(|s| s.weight));
        let within = sectors
            .iter()
            .map(|s| Weighted::zipf(s.industries.len(), 1.0, 1.0))
            .collect();
        Taxonomy {
            sectors,
            industries,
            sector_weights,
            within,
        }
    }

    /// Super categories first, then industries: the rows of `industries.jsonl`.
    pub fn rows(&self) -> Vec<IndustryRow> {
        let supers = self.sectors.iter().map(|s| IndustryRow {
            permalink: s.permalink.clone(),
            name: s.name.clone(),
            industry_type: IndustryType::SuperCategory,
            super_categories: vec![],
        });
        let industries = self.industries.iter().map(|i| IndustryRow {
            permalink: i.permalink.clone(),
            name: i.name.clone(),
            industry_type: IndustryType::Industry,
            super_categories: i
                .sectors
                .iter()
                .map(|s| self.sectors[*s].permalink.clone())
                .collect(),
        });
        supers.chain(industries).collect()
    }

    pub fn sample_sector(&self, rng: &mut Rng) -> usize {
        self.sector_weights.sample(rng).unwrap_or(0)
    }

    /// 1–4 distinct industry indices; the first is in `sector`.
    pub fn sample_industries(&self, sector: usize, rng: &mut Rng) -> Vec<usize> {
        let count = 1 + rng.weighted(&[0.35, 0.35, 0.20, 0.10]);
        let mut out = Vec::with_capacity(count);
        for attempt in 0..count * 3 {
            if out.len() == count {
                break;
            }
            let from = if attempt == 0 || rng.chance(0.6) {
                sector
            } else {
                self.sample_sector(rng)
            };
            let Some(pick) = self.within.get(from).and_then(|w| w.sample(rng)) else {
                continue;
            };
            let industry = self.sectors[from].industries[pick];
            if !out.contains(&industry) {
                out.push(industry);
            }
        }
        out
    }
}

fn sector_header(header: &str) -> Sector {
    let (name, weight) = header.split_once('|').unwrap_or((header, "0"));
    let name = name.trim().to_string();
    let tag = uuid5("super-category", &name).as_bytes()[0..2]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<String>();
    Sector {
        permalink: format!("{}-{tag}", slugify(&name)),
        weight: weight.trim().parse().unwrap_or(0.0),
        name,
        ..Sector::default()
    }
}

fn split_list(value: &str, separator: char) -> Vec<String> {
    value
        .split(separator)
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn taxonomy_has_about_forty_sectors_and_a_few_hundred_industries() {
        let t = Taxonomy::load();
        assert!((38..=45).contains(&t.sectors.len()), "{}", t.sectors.len());
        assert!(
            (250..=400).contains(&t.industries.len()),
            "{}",
            t.industries.len()
        );
        for s in &t.sectors {
            assert!(s.weight > 0.0 && !s.industries.is_empty(), "{}", s.name);
            assert!(
                s.products.len() >= 4 && s.customers.len() >= 4 && s.outcomes.len() >= 4,
                "{}",
                s.name
            );
            assert!(!s.suffixes.is_empty(), "{}", s.name);
        }
        assert!(t.industries.iter().any(|i| i.sectors.len() > 1));
    }

    #[test]
    fn permalinks_are_unique_and_super_categories_are_tagged() {
        let rows = Taxonomy::load().rows();
        let mut seen = HashSet::new();
        assert!(rows.iter().all(|r| seen.insert(r.permalink.clone())));
        let ai = rows.iter().find(|r| {
            r.name == "Artificial Intelligence" && r.industry_type == IndustryType::SuperCategory
        });
        let permalink = ai.map(|r| r.permalink.as_str()).unwrap_or_default();
        assert!(
            permalink.starts_with("artificial-intelligence-") && permalink.len() == 28,
            "{permalink}"
        );
    }

    #[test]
    fn company_industries_are_distinct_and_start_in_the_sector() {
        let t = Taxonomy::load();
        let mut rng = Rng::new(2);
        for _ in 0..2_000 {
            let sector = t.sample_sector(&mut rng);
            let picked = t.sample_industries(sector, &mut rng);
            assert!((1..=4).contains(&picked.len()));
            assert!(t.industries[picked[0]].sectors.contains(&sector));
            assert_eq!(picked.iter().collect::<HashSet<_>>().len(), picked.len());
        }
    }
}
