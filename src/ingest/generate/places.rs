//! The generated world's places, from `data/places.txt`: countries, states,
//! metro regions and cities, each a [`LocationRow`] with a permalink that is
//! unique across all levels.
//!
//! Permalinks are slugs of the name; when a slug is taken (the state "New
//! York" before the city "New York", or a second "Cambridge"), the parent's
//! slug is appended (`new-york-new-york`, `cambridge-england`), then the
//! country code. Rows are emitted countries first, then states, regions and
//! cities, so every parent precedes its children.

use std::collections::{HashMap, HashSet};

use super::rng::Rng;
use super::weighted::Weighted;
use crate::schema::ids::slugify;
use crate::schema::{LocationRow, LocationType, PlaceRefs};

const PLACES: &str = include_str!("data/places.txt");

/// A country of the generated world.
#[derive(Debug, Clone)]
pub struct Country {
    pub name: String,
    pub iso2: String,
    pub currency: String,
    pub permalink: String,
}

/// A city with everything organisations and people need to refer to it.
#[derive(Debug, Clone)]
pub struct City {
    pub name: String,
    pub country: usize,
    pub refs: PlaceRefs,
    /// `San Francisco, California, United States`.
    pub trail: String,
}

/// All places plus the city distribution (Zipf-like weights of the data file).
pub struct Places {
    pub rows: Vec<LocationRow>,
    pub countries: Vec<Country>,
    pub cities: Vec<City>,
    city_weights: Weighted,
}

struct CityLine<'a> {
    iso2: &'a str,
    state: &'a str,
    region: &'a str,
    city: &'a str,
    weight: f64,
}

/// Hands out permalinks unique across every level.
struct Permalinks(HashSet<String>);

impl Permalinks {
    fn claim(&mut self, name: &str, parent: &str, iso2: &str) -> String {
        let base = slugify(name);
        let candidates = [
            base.clone(),
            format!("{base}-{}", slugify(parent)),
            format!("{base}-{}", iso2.to_lowercase()),
        ];
        for c in candidates {
            if !c.is_empty() && self.0.insert(c.clone()) {
                return c;
            }
        }
        let mut n = 2;
        while !self.0.insert(format!("{base}-{n}")) {
            n += 1;
        }
        format!("{base}-{n}")
    }
}

impl Places {
    /// Builds the embedded world.
    pub fn load() -> Places {
        let mut countries = Vec::new();
        let mut city_lines = Vec::new();
        for line in super::vocab::lines(PLACES) {
            let fields: Vec<&str> = line.split('|').collect();
            match fields.as_slice() {
                ["country", iso2, name, currency] => countries.push(Country {
                    name: name.to_string(),
                    iso2: iso2.to_string(),
                    currency: currency.to_string(),
                    permalink: String::new(),
                }),
                [iso2, state, region, city, weight] => {
                    let weight = weight.parse().unwrap_or(0.0);
                    city_lines.push(CityLine {
                        iso2,
                        state,
                        region,
                        city,
                        weight,
                    });
                }
                _ => {}
            }
        }
        Places::build(countries, &city_lines)
    }

    fn build(mut countries: Vec<Country>, lines: &[CityLine]) -> Places {
        let mut claims = Permalinks(HashSet::new());
        let mut rows = Vec::new();
        let by_iso: HashMap<String, usize> = countries
            .iter()
            .enumerate()
            .map(|(i, c)| (c.iso2.clone(), i))
            .collect();
        for c in &mut countries {
            c.permalink = claims.claim(&c.name, "", &c.iso2);
            rows.push(location(&c.permalink, &c.name, LocationType::Country, None));
        }
        let lines: Vec<(&CityLine, usize)> = lines
            .iter()
            .filter_map(|l| Some((l, *by_iso.get(l.iso2)?)))
            .collect();
        let states = level(
            &lines,
            &countries,
            &mut claims,
            &mut rows,
            LocationType::State,
            |l| l.state,
        );
        let regions = level(
            &lines,
            &countries,
            &mut claims,
            &mut rows,
            LocationType::Region,
            |l| l.region,
        );
        let mut cities = Vec::new();
        for (line, ci) in &lines {
            let country = &countries[*ci];
            let state = states.get(&(*ci, line.state.to_string())).cloned();
            let parent_name = if line.state.is_empty() {
                country.name.as_str()
            } else {
                line.state
            };
            let permalink = claims.claim(line.city, parent_name, &country.iso2);
            let parent = state.clone().unwrap_or_else(|| country.permalink.clone());
            rows.push(location(
                &permalink,
                line.city,
                LocationType::City,
                Some(parent),
            ));
            let refs = PlaceRefs {
                city: Some(permalink),
                state,
                region: regions.get(&(*ci, line.region.to_string())).cloned(),
                country: Some(country.permalink.clone()),
            };
            let trail = [line.city, line.state, &country.name]
                .iter()
                .filter(|s| !s.is_empty())
                .copied()
                .collect::<Vec<_>>()
                .join(", ");
            cities.push(City {
                name: line.city.to_string(),
                country: *ci,
                refs,
                trail,
            });
        }
        let city_weights = Weighted::new(lines.iter().map(|(l, _)| l.weight));
        Places {
            rows,
            countries,
            cities,
            city_weights,
        }
    }

    /// A city index drawn by weight.
    pub fn sample_city(&self, rng: &mut Rng) -> Option<usize> {
        self.city_weights.sample(rng)
    }

    pub fn country_of(&self, city: usize) -> Option<&Country> {
        self.countries.get(self.cities.get(city)?.country)
    }
}

/// Emits one row per distinct (country, name) of a level and returns their permalinks.
fn level(
    lines: &[(&CityLine, usize)],
    countries: &[Country],
    claims: &mut Permalinks,
    rows: &mut Vec<LocationRow>,
    kind: LocationType,
    name_of: impl for<'l> Fn(&'l CityLine<'l>) -> &'l str,
) -> HashMap<(usize, String), String> {
    let mut out = HashMap::new();
    for (line, ci) in lines {
        let name = name_of(line);
        if name.is_empty() || out.contains_key(&(*ci, name.to_string())) {
            continue;
        }
        let country = &countries[*ci];
        let permalink = claims.claim(name, &country.name, &country.iso2);
        rows.push(location(
            &permalink,
            name,
            kind,
            Some(country.permalink.clone()),
        ));
        out.insert((*ci, name.to_string()), permalink);
    }
    out
}

fn location(
    permalink: &str,
    name: &str,
    kind: LocationType,
    parent: Option<String>,
) -> LocationRow {
    LocationRow {
        permalink: permalink.to_string(),
        name: name.to_string(),
        location_type: kind,
        parent,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permalinks_are_unique_across_levels_and_parents_exist() {
        let places = Places::load();
        let mut seen = HashSet::new();
        assert!(places.rows.iter().all(|r| seen.insert(r.permalink.clone())));
        assert!(places
            .rows
            .iter()
            .filter_map(|r| r.parent.as_ref())
            .all(|p| seen.contains(p)));
        assert!(places.countries.len() >= 40 && places.cities.len() >= 180);
        let find = |p: &str| {
            places
                .rows
                .iter()
                .find(|r| r.permalink == p)
                .map(|r| r.location_type)
        };
        assert_eq!(find("new-york"), Some(LocationType::State));
        assert_eq!(find("new-york-new-york"), Some(LocationType::City));
        assert_eq!(find("san-francisco-bay-area"), Some(LocationType::Region));
        assert_eq!(find("cambridge-england"), Some(LocationType::City));
    }

    #[test]
    fn about_45_percent_of_draws_are_in_the_us() {
        let places = Places::load();
        let mut rng = Rng::new(11);
        let mut us = 0;
        let mut top = HashMap::<String, u32>::new();
        for _ in 0..20_000 {
            let city = places.sample_city(&mut rng).unwrap_or(0);
            us += (places.country_of(city).map(|c| c.iso2.as_str()) == Some("US")) as u32;
            *top.entry(places.cities[city].name.clone()).or_default() += 1;
        }
        assert!((8_400..9_600).contains(&us), "{us}");
        let mut ranked: Vec<_> = top.into_iter().collect();
        ranked.sort_by_key(|r| std::cmp::Reverse(r.1));
        let first4: HashSet<_> = ranked[..4].iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            first4,
            HashSet::from(["San Francisco", "New York", "London", "Bangalore"])
        );
    }

    #[test]
    fn city_refs_name_locations_of_the_right_level() {
        let places = Places::load();
        let kinds: HashMap<_, _> = places
            .rows
            .iter()
            .map(|r| (r.permalink.as_str(), r.location_type))
            .collect();
        for city in &places.cities {
            for (slot, permalink) in city.refs.levels() {
                assert_eq!(kinds.get(permalink), Some(&slot), "{permalink}");
            }
        }
    }
}
