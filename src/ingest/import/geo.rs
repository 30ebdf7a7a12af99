//! Geography tables: US state and territory codes (USPS) with their names,
//! and the country spellings the sources use.
//!
//! Crunchbase gives two-letter `state_code`s (all 50 states and `DC` occur);
//! YC gives full state names, with one misspelling (`Giorgia`) read as
//! Georgia. Countries: Crunchbase writes `USA`, YC writes `USA` or a full
//! English name (`United Kingdom`); both `USA` forms become "United States".

use crate::schema::ids::{fold_text, slugify};

/// USPS codes of the 50 states, DC and the inhabited territories.
pub(crate) const US_STATES: [(&str, &str); 56] = [
    ("AL", "Alabama"),
    ("AK", "Alaska"),
    ("AZ", "Arizona"),
    ("AR", "Arkansas"),
    ("CA", "California"),
    ("CO", "Colorado"),
    ("CT", "Connecticut"),
    ("DE", "Delaware"),
    ("FL", "Florida"),
    ("GA", "Georgia"),
    ("HI", "Hawaii"),
    ("ID", "Idaho"),
    ("IL", "Illinois"),
    ("IN", "Indiana"),
    ("IA", "Iowa"),
    ("KS", "Kansas"),
    ("KY", "Kentucky"),
    ("LA", "Louisiana"),
    ("ME", "Maine"),
    ("MD", "Maryland"),
    ("MA", "Massachusetts"),
    ("MI", "Michigan"),
    ("MN", "Minnesota"),
    ("MS", "Mississippi"),
    ("MO", "Missouri"),
    ("MT", "Montana"),
    ("NE", "Nebraska"),
    ("NV", "Nevada"),
    ("NH", "New Hampshire"),
    ("NJ", "New Jersey"),
    ("NM", "New Mexico"),
    ("NY", "New York"),
    ("NC", "North Carolina"),
    ("ND", "North Dakota"),
    ("OH", "Ohio"),
    ("OK", "Oklahoma"),
    ("OR", "Oregon"),
    ("PA", "Pennsylvania"),
    ("RI", "Rhode Island"),
    ("SC", "South Carolina"),
    ("SD", "South Dakota"),
    ("TN", "Tennessee"),
    ("TX", "Texas"),
    ("UT", "Utah"),
    ("VT", "Vermont"),
    ("VA", "Virginia"),
    ("WA", "Washington"),
    ("WV", "West Virginia"),
    ("WI", "Wisconsin"),
    ("WY", "Wyoming"),
    ("DC", "District of Columbia"),
    ("PR", "Puerto Rico"),
    ("GU", "Guam"),
    ("VI", "U.S. Virgin Islands"),
    ("AS", "American Samoa"),
    ("MP", "Northern Mariana Islands"),
];

/// Misspelt state names seen in the sources.
const STATE_ALIASES: [(&str, &str); 1] = [("giorgia", "Georgia")];

/// The permalink and name of the United States.
pub(crate) const UNITED_STATES: (&str, &str) = ("united-states", "United States");

/// The state name for a USPS code (`CA` → `California`), case-insensitive.
pub(crate) fn state_by_code(code: &str) -> Option<&'static str> {
    US_STATES
        .iter()
        .find(|(c, _)| c.eq_ignore_ascii_case(code.trim()))
        .map(|(_, name)| *name)
}

/// The canonical state name for a full name, ignoring case and accents.
pub(crate) fn state_by_name(name: &str) -> Option<&'static str> {
    let wanted = fold_text(name.trim());
    let alias = STATE_ALIASES
        .iter()
        .find(|(a, _)| *a == wanted)
        .map(|(_, n)| *n);
    alias.or_else(|| {
        US_STATES
            .iter()
            .find(|(_, n)| fold_text(n) == wanted)
            .map(|(_, n)| *n)
    })
}

/// `(permalink, name)` of a country as the sources spell it; `None` when blank.
pub(crate) fn country(text: &str) -> Option<(String, String)> {
    let text = text.trim();
    let is_us = ["usa", "us", "united states", "united states of america"]
        .contains(&fold_text(text).as_str());
    if is_us {
        return Some((UNITED_STATES.0.to_string(), UNITED_STATES.1.to_string()));
    }
    let slug = slugify(text);
    (!slug.is_empty()).then(|| (slug, text.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn state_table_has_unique_codes_and_names() {
        let codes: HashSet<_> = US_STATES.iter().map(|(c, _)| c).collect();
        let slugs: HashSet<_> = US_STATES.iter().map(|(_, n)| slugify(n)).collect();
        assert_eq!(codes.len(), US_STATES.len());
        assert_eq!(slugs.len(), US_STATES.len());
    }

    #[test]
    fn states_resolve_by_code_and_name() {
        assert_eq!(state_by_code("CA"), Some("California"));
        assert_eq!(state_by_code("dc"), Some("District of Columbia"));
        assert_eq!(state_by_code("PR"), Some("Puerto Rico"));
        assert_eq!(state_by_code("ZZ"), None);
        assert_eq!(state_by_name("new york"), Some("New York"));
        assert_eq!(state_by_name("Giorgia"), Some("Georgia"));
        assert_eq!(state_by_name("California, New York"), None);
    }

    #[test]
    fn countries_normalise_the_us_spellings() {
        assert_eq!(
            country("USA"),
            Some(("united-states".into(), "United States".into()))
        );
        assert_eq!(
            country("United Kingdom"),
            Some(("united-kingdom".into(), "United Kingdom".into()))
        );
        assert_eq!(country(" "), None);
    }
}
