//! Location rows from free-text addresses, one permalink per place and level.
//!
//! | level | permalink | parent |
//! |---|---|---|
//! | COUNTRY | `united-states` (`USA`), else `slugify(name)` | — |
//! | STATE | `slugify(state name)`: `california` | country |
//! | REGION | `slugify(metro) + "-area"`: `sf-bay-area` | country |
//! | CITY | `slugify(city + " " + state name)`: `san-francisco-california` | state |
//! | CITY without a state | `slugify(city + " " + country)`: `london-united-kingdom` | country |
//!
//! The suffixes keep levels apart (a region never shares a permalink with
//! the state or city it is named after). Should two places still spell the
//! same permalink, the later one gets a `-city`/`-state`/… suffix
//! ([`first_free`]). The first spelling seen names a place (`SF Bay`);
//! names are kept as the source writes them, broken encodings included.
//! Crunchbase's placeholder regions `unknown` and `TBD` are not places and
//! are dropped, and YC's `New York City` is read as the city `New York` that
//! Crunchbase uses. A US state without a country implies the United States.

use std::collections::{BTreeMap, HashMap};

use crate::schema::ids::{fold_text, slugify};
use crate::schema::{LocationRow, LocationType, PlaceRefs};

use super::geo::{self, UNITED_STATES};
use super::permalink::first_free;

/// Region values that mean "no region".
const PLACEHOLDER_REGIONS: [&str; 2] = ["unknown", "tbd"];

/// City spellings read as another city's name.
const CITY_ALIASES: [(&str, &str); 1] = [("new york city", "New York")];

/// The parts of an address as the source gives them.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Address<'a> {
    /// Country as spelt in the source (`USA`, `United Kingdom`).
    pub country: Option<&'a str>,
    /// Canonical US state name (see [`geo::state_by_code`]).
    pub state: Option<&'static str>,
    /// Metro area (`SF Bay`).
    pub region: Option<&'a str>,
    pub city: Option<&'a str>,
}

/// All locations seen so far.
#[derive(Debug, Default)]
pub(crate) struct Locations {
    keys: HashMap<(LocationType, String), String>,
    rows: BTreeMap<String, LocationRow>,
}

impl Locations {
    /// Registers the places of `address` and returns their permalinks.
    pub fn place(&mut self, address: &Address) -> PlaceRefs {
        let us = address.state.map(|_| UNITED_STATES.1);
        let country = address
            .country
            .and_then(geo::country)
            .or_else(|| us.and_then(geo::country));
        let country_link = country
            .as_ref()
            .map(|(p, n)| self.intern(LocationType::Country, p, n, None));
        let state = address
            .state
            .map(|s| self.intern(LocationType::State, &slugify(s), s, country_link.clone()));
        let region = address
            .region
            .and_then(|r| self.region(r, country_link.clone()));
        let within = address.state.or(country.as_ref().map(|(_, n)| n.as_str()));
        let city = address
            .city
            .and_then(|c| self.city(c, within, state.clone().or(country_link.clone())));
        PlaceRefs {
            city,
            state,
            region,
            country: country_link,
        }
    }

    fn region(&mut self, name: &str, country: Option<String>) -> Option<String> {
        let slug = slugify(name);
        if slug.is_empty() || PLACEHOLDER_REGIONS.contains(&fold_text(name).as_str()) {
            return None;
        }
        Some(self.intern(LocationType::Region, &format!("{slug}-area"), name, country))
    }

    fn city(&mut self, name: &str, within: Option<&str>, parent: Option<String>) -> Option<String> {
        let folded = fold_text(name);
        let name = CITY_ALIASES
            .iter()
            .find(|(a, _)| *a == folded)
            .map_or(name, |(_, canonical)| *canonical);
        if slugify(name).is_empty() {
            return None;
        }
        let base = slugify(&format!("{name} {}", within.unwrap_or_default()));
        Some(self.intern(LocationType::City, &base, name, parent))
    }

    /// The permalink of the place `(kind, base)`, creating its row on first sight.
    fn intern(
        &mut self,
        kind: LocationType,
        base: &str,
        name: &str,
        parent: Option<String>,
    ) -> String {
        let key = (kind, base.to_string());
        if let Some(permalink) = self.keys.get(&key) {
            return permalink.clone();
        }
        let suffix = kind.as_str().to_ascii_lowercase();
        let permalink = first_free(base, &suffix, |p| self.rows.contains_key(p));
        let row = LocationRow {
            permalink: permalink.clone(),
            name: name.to_string(),
            location_type: kind,
            parent,
        };
        self.rows.insert(permalink.clone(), row);
        self.keys.insert(key, permalink.clone());
        permalink
    }

    /// The rows, countries first, then states, regions and cities (parents
    /// before children), each level by permalink.
    pub fn into_rows(self) -> Vec<LocationRow> {
        let level = |t: LocationType| match t {
            LocationType::Country => 0,
            LocationType::State => 1,
            LocationType::Region => 2,
            LocationType::City => 3,
        };
        let mut rows: Vec<LocationRow> = self.rows.into_values().collect();
        rows.sort_by(|a, b| {
            (level(a.location_type), &a.permalink).cmp(&(level(b.location_type), &b.permalink))
        });
        rows
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sf() -> Address<'static> {
        Address {
            country: Some("USA"),
            state: Some("California"),
            region: Some("SF Bay"),
            city: Some("San Francisco"),
        }
    }

    #[test]
    fn a_full_address_gives_four_levels_with_parents() {
        let mut l = Locations::default();
        let p = l.place(&sf());
        assert_eq!(p.city.as_deref(), Some("san-francisco-california"));
        assert_eq!(p.state.as_deref(), Some("california"));
        assert_eq!(p.region.as_deref(), Some("sf-bay-area"));
        assert_eq!(p.country.as_deref(), Some("united-states"));
        let rows = l.into_rows();
        let parent = |link: &str| {
            rows.iter()
                .find(|r| r.permalink == link)
                .and_then(|r| r.parent.clone())
        };
        assert_eq!(
            parent("san-francisco-california").as_deref(),
            Some("california")
        );
        assert_eq!(parent("california").as_deref(), Some("united-states"));
        assert_eq!(parent("sf-bay-area").as_deref(), Some("united-states"));
        assert_eq!(parent("united-states"), None);
        assert_eq!(rows[0].location_type, LocationType::Country);
        assert_eq!(rows[3].location_type, LocationType::City);
    }

    #[test]
    fn repeated_places_are_one_row_named_by_the_first_spelling() {
        let mut l = Locations::default();
        l.place(&sf());
        let again = l.place(&Address {
            city: Some("san francisco"),
            ..sf()
        });
        assert_eq!(again.city.as_deref(), Some("san-francisco-california"));
        let rows = l.into_rows();
        assert_eq!(rows.len(), 4);
        assert!(rows.iter().any(|r| r.name == "San Francisco"));
    }

    #[test]
    fn cities_without_a_state_hang_off_the_country() {
        let mut l = Locations::default();
        let p = l.place(&Address {
            country: Some("United Kingdom"),
            city: Some("London"),
            ..Default::default()
        });
        assert_eq!(p.city.as_deref(), Some("london-united-kingdom"));
        assert_eq!(p.state, None);
        let rows = l.into_rows();
        assert_eq!(
            rows.iter()
                .find(|r| r.permalink == "london-united-kingdom")
                .unwrap()
                .parent
                .as_deref(),
            Some("united-kingdom")
        );
    }

    #[test]
    fn placeholders_aliases_and_implied_country() {
        let mut l = Locations::default();
        let p = l.place(&Address {
            region: Some("unknown"),
            state: Some("New York"),
            city: Some("New York City"),
            ..Default::default()
        });
        assert_eq!(p.region, None);
        assert_eq!(p.country.as_deref(), Some("united-states"));
        assert_eq!(p.city.as_deref(), Some("new-york-new-york"));
        assert_eq!(
            l.place(&Address {
                region: Some("TBD"),
                ..Default::default()
            }),
            PlaceRefs::default()
        );
    }

    #[test]
    fn colliding_permalinks_across_levels_get_a_level_suffix() {
        let mut l = Locations::default();
        let state = l.place(&Address {
            state: Some("West Virginia"),
            ..Default::default()
        });
        let city = l.place(&Address {
            state: Some("Virginia"),
            city: Some("West"),
            ..Default::default()
        });
        assert_eq!(state.state.as_deref(), Some("west-virginia"));
        assert_eq!(city.city.as_deref(), Some("west-virginia-city"));
    }
}
