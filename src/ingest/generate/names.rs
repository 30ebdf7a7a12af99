//! Names, permalinks, domains and profile URLs.
//!
//! Company names recombine real company-name heads (`data/company_words.txt`)
//! with sector suffixes ("Lumina Health", "Acme Robotics"), generic suffixes
//! ("Labs", "AI", "Technologies"), a second head ("Blue Fern") or a brandable
//! ending ("Crowdly", "Pixify"), so fuzzy lookups meet realistic near-duplicates.
//! Names may repeat; permalinks may not: `permalinks` appends `-2`, `-3`… to
//! later holders of a taken slug, in order, without holding every name;
//! `unique_permalinks` is the plain sequential rule its tests compare with.

use super::rng::Rng;
use super::vocab;
use super::weighted::Weighted;
#[cfg(test)]
use crate::schema::ids::slugify;

/// A word list drawn with a mild Zipf over a fixed order, so that some words
/// are popular across many names.
struct Ranked {
    items: Vec<&'static str>,
    weights: Weighted,
}

impl Ranked {
    /// Ranks follow the list's order (lists ordered by intent, e.g. names).
    fn in_order(items: &'static [&'static str], s: f64, q: f64) -> Ranked {
        Ranked {
            weights: Weighted::zipf(items.len(), s, q),
            items: items.to_vec(),
        }
    }

    /// Ranks follow a fixed shuffle (alphabetical lists must not favour "A").
    fn shuffled(items: &'static [&'static str], s: f64, q: f64) -> Ranked {
        let mut ranked = Ranked::in_order(items, s, q);
        let mut rng = Rng::new(0x5EED_0F0A_03E5);
        for i in (1..ranked.items.len()).rev() {
            ranked.items.swap(i, rng.index(i + 1));
        }
        ranked
    }

    fn draw(&self, rng: &mut Rng, fallback: &'static str) -> &'static str {
        self.weights
            .sample(rng)
            .and_then(|i| self.items.get(i))
            .copied()
            .unwrap_or(fallback)
    }
}

/// The word lists names are built from.
pub struct NameParts {
    company_heads: Ranked,
    firm_heads: Ranked,
    first_names: Ranked,
    last_names: Ranked,
}

const BRAND_ENDINGS: &[&str] = &[
    "ly", "ify", "io", "a", "o", "hub", "wise", "base", "stack", "loop",
];

impl NameParts {
    pub fn new() -> NameParts {
        NameParts {
            company_heads: Ranked::shuffled(vocab::company_words(), 0.2, 10.0),
            firm_heads: Ranked::shuffled(vocab::firm_words(), 0.35, 10.0),
            first_names: Ranked::in_order(vocab::first_names(), 0.6, 20.0),
            last_names: Ranked::in_order(vocab::last_names(), 0.5, 20.0),
        }
    }

    fn company_head(&self, rng: &mut Rng) -> &'static str {
        self.company_heads.draw(rng, "Acme")
    }

    /// A company name; `sector_suffixes` are the suffixes that fit its sector.
    pub fn company_name(&self, sector_suffixes: &[String], rng: &mut Rng) -> String {
        let head = self.company_head(rng);
        match rng.weighted(&[0.30, 0.18, 0.14, 0.14, 0.14, 0.05, 0.05]) {
            0 => format!("{head} {}", sector_suffix(sector_suffixes, rng)),
            1 => format!("{head} {}", generic_suffix(rng)),
            2 => format!("{head} {}", self.company_head(rng)),
            3 => format!(
                "{head} {} {}",
                self.company_head(rng),
                sector_suffix(sector_suffixes, rng)
            ),
            4 => brandable(head, rng),
            5 => format!(
                "{} {}",
                brandable(head, rng),
                sector_suffix(sector_suffixes, rng)
            ),
            _ => head.to_string(),
        }
    }

    /// A firm name: a head and a suffix ("Sequoia Capital"), sometimes two heads.
    pub fn firm_name(&self, rng: &mut Rng) -> String {
        let head = self.firm_heads.draw(rng, "Summit");
        let suffix = vocab::FIRM_SUFFIXES[rng.weighted(&[
            30.0, 28.0, 16.0, 6.0, 6.0, 4.0, 3.0, 2.0, 2.0, 1.5, 1.0, 1.5,
        ])];
        if rng.chance(0.12) {
            let second = self.firm_heads.draw(rng, "Ridge");
            return format!("{head} {second} {suffix}");
        }
        format!("{head} {suffix}")
    }

    /// First and last name.
    pub fn person_name(&self, rng: &mut Rng) -> (&'static str, &'static str) {
        let first = self.first_names.draw(rng, "Alex");
        let last = self.last_names.draw(rng, "Smith");
        (first, last)
    }
}

impl Default for NameParts {
    fn default() -> Self {
        NameParts::new()
    }
}

fn sector_suffix<'s>(suffixes: &'s [String], rng: &mut Rng) -> &'s str {
    rng.pick(suffixes).map_or("Labs", |s| s.as_str())
}

fn generic_suffix(rng: &mut Rng) -> &'static str {
    rng.pick(vocab::COMPANY_SUFFIXES).copied().unwrap_or("Labs")
}

/// `Crowd` → `Crowdly`; drops a trailing vowel before a vowel ending.
fn brandable(head: &str, rng: &mut Rng) -> String {
    let ending = rng.pick(BRAND_ENDINGS).copied().unwrap_or("ly");
    let vowel = |c: char| "aeiouy".contains(c);
    let mut stem = head.to_string();
    if stem.ends_with(vowel) && ending.starts_with(vowel) {
        stem.pop();
    }
    format!("{stem}{ending}")
}

/// Unique permalinks for `names`, in order: the slug, or `slug-2`, `slug-3`…
/// (the rule `permalinks` follows, kept as its tests' oracle).
#[cfg(test)]
pub fn unique_permalinks<'a>(names: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let mut next: std::collections::HashMap<String, u32> = Default::default();
    let mut out = Vec::new();
    for name in names {
        let mut slug = slugify(name);
        if slug.is_empty() {
            slug = "company".to_string();
        }
        let mut n = *next.get(&slug).unwrap_or(&1);
        let mut candidate = if n == 1 {
            slug.clone()
        } else {
            format!("{slug}-{n}")
        };
        while n > 1 && next.contains_key(&candidate) {
            n += 1;
            candidate = format!("{slug}-{n}");
        }
        next.insert(slug.clone(), n + 1);
        next.entry(candidate.clone()).or_insert(2);
        out.push(candidate);
    }
    out
}

/// A web domain for an organisation: the permalink without dashes + a TLD.
pub fn domain(permalink: &str, tlds: &[&str], rng: &mut Rng) -> String {
    let tld = rng.pick(tlds).copied().unwrap_or("com");
    format!("{}.{tld}", permalink.replace('-', ""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permalinks_are_unique_in_order() {
        let names = ["Acme", "Acme", "acme-2", "Acme", "São Paulo", "深圳"];
        let got = unique_permalinks(names);
        assert_eq!(
            got,
            [
                "acme",
                "acme-2",
                "acme-2-2",
                "acme-3",
                "sao-paulo",
                "company"
            ]
        );
    }

    #[test]
    fn names_look_like_company_names() {
        let parts = NameParts::new();
        let mut rng = Rng::new(4);
        let suffixes = vec!["Health".to_string()];
        let names: Vec<String> = (0..2_000)
            .map(|_| parts.company_name(&suffixes, &mut rng))
            .collect();
        assert!(names.iter().any(|n| n.ends_with(" Health")));
        assert!(names
            .iter()
            .any(|n| n.ends_with(" Labs") || n.ends_with(" AI") || n.ends_with(" Technologies")));
        let distinct: std::collections::HashSet<_> = names.iter().collect();
        assert!(distinct.len() > 1_800, "{}", distinct.len());
        assert!(names.iter().all(|n| !slugify(n).is_empty()));
        let firm = parts.firm_name(&mut rng);
        assert!(
            vocab::FIRM_SUFFIXES.iter().any(|s| firm.ends_with(s)),
            "{firm}"
        );
    }

    #[test]
    fn popular_heads_are_not_the_alphabetically_first() {
        let parts = NameParts::new();
        let mut rng = Rng::new(6);
        let with_a = (0..5_000)
            .filter(|_| parts.company_name(&[], &mut rng).starts_with('A'))
            .count();
        assert!(with_a < 600, "{with_a} of 5000 names start with A");
    }

    #[test]
    fn brandable_names_avoid_double_vowels() {
        let mut rng = Rng::new(1);
        for _ in 0..50 {
            let b = brandable("Lumina", &mut rng);
            assert!(b.starts_with("Lumin"));
            assert!(
                !b.contains("aa") && !b.contains("ao") && !b.contains("aio"),
                "{b}"
            );
        }
    }
}
