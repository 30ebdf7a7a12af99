//! Firm or angel? The investor edge list has one name column for both, so
//! the kind is guessed from the name alone.
//!
//! A name is an **angel** (a person) when, after dropping a parenthesised
//! remark (`George Solomos (Angel Investor)`), a leading title (`Dr.`), a
//! trailing suffix (`Jr`, `III`) and lowercase particles (`van`, `de`):
//!
//! 1. it is not on the hand list [`KNOWN_FIRMS`] (person-like firm names:
//!    `Andreessen Horowitz`, `Goldman Sachs`, `Bezos Expeditions`…);
//! 2. it has no digit and none of `& + @ / ,` (`500 Startups`, `Allen & Company`);
//! 3. it has 2 or 3 words;
//! 4. no word (or hyphen part) is an organisation word of [`ORG_WORDS`]
//!    (`Capital`, `Ventures`, `Partners`, `Fund`, `Angels`, `Group`, `Labs`,
//!    `Inc`, `LLC`, `Combinator`, `Foundation`, `Bank`…) or ends like one
//!    (`Gruenderfonds`, `BioVentures`, `Innovatech`: [`ORG_ENDINGS`]);
//! 5. every word is shaped like a name: an initial (`P.`, `J.R.`), or a
//!    capitalised word of letters, `'`, `-` (accents allowed) with no
//!    2–3 letter acronym (`SV`, `DFJ`) and no inner capital except after
//!    `Mc`, `Mac`, `De`, `Le`, `O'`… (`McClure` yes, `SoftTech` no). An
//!    all-lowercase name (`david cohen`) is judged without the case rules.
//!
//! Everything else is a **firm** — corporates (`Intel Capital`) and
//! accelerators (`Y Combinator`) included. The guess is noisy by nature
//! (`Red Swan` reads as a person unless listed); the import report gives
//! the resulting counts.

use crate::schema::ids::slugify;

/// What an investor name is taken to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum InvestorKind {
    Firm,
    Angel,
}

/// Person-like names that are organisations (compared by slug).
pub(crate) const KNOWN_FIRMS: &[&str] = &[
    "SV Angel",
    "Bezos Expeditions",
    "Andreessen Horowitz",
    "Goldman Sachs",
    "Morgan Stanley",
    "J.P. Morgan",
    "Merrill Lynch",
    "Warburg Pincus",
    "Draper Richards",
    "Draper Fisher Jurvetson",
    "Kohlberg Kravis Roberts",
    "Kleiner Perkins",
    "General Atlantic",
    "Mohr Davidow",
    "Roc Nation",
    "Harrison Metal",
    "Hummer Winblad",
    "Sevin Rosen",
    "T. Rowe Price",
    "Legg Mason",
    "Spencer Trask",
    "Wesley Clover",
    "Gunderson Dettmer",
    "Booz Allen",
    "Eli Lilly",
    "Time Warner",
    "Red Hat",
    "Red Swan",
    "Cue Ball",
    "Nth Power",
    "Start Garden",
    "Allied Minds",
    "Open Ocean",
    "Info Edge",
    "Biogen Idec",
    "Invesco Perpetual",
    "Seroba Kernel",
    "Clave Mayor",
];

/// Words that mark an organisation (lowercase, sorted for binary search).
#[rustfmt::skip]
pub(crate) const ORG_WORDS: &[&str] = &[
    "ab", "accelerator", "accelerators", "advantage", "advisers", "advisors", "advisory", "ag", "agency",
    "alliance", "america", "american", "analysis", "and", "angel", "angels", "army", "asia", "asian", "asset",
    "assets", "associates", "association", "atlantic", "authority", "bank", "banking", "banque", "biotech",
    "biotechnology", "brothers", "business", "bv", "canada", "capital", "center", "centre", "china", "chinese",
    "club", "co", "college", "combinator", "commission", "communications", "companies", "company",
    "consultants", "consulting", "corp", "corporate", "corporation", "council", "county", "credit", "data",
    "deutsche", "developments", "dialog", "digital", "education", "electric", "electronics", "endeavors",
    "energies", "energy", "enterprise", "enterprises", "entertainment", "entrepreneur", "entrepreneurs",
    "equities", "equity", "europe", "european", "exchange", "expansion", "expeditions", "family", "finance",
    "financial", "fondation", "fondo", "fonds", "for", "forum", "foundation", "fund", "funds", "games",
    "generale", "gestion", "global", "gmbh", "government", "grants", "group", "groupe", "growth", "gruppe",
    "health", "healthcare", "holding", "holdings", "impact", "inc", "incubate", "incubator", "india",
    "industries", "industry", "initiative", "innovation", "innovations", "institute", "instruments",
    "insurance", "integrations", "interactive", "international", "internet", "invest", "investimenti",
    "investment", "investments", "investor", "investors", "ireland", "israel", "japan", "kapital", "lab",
    "labs", "limited", "llc", "llp", "logic", "lp", "ltd", "maatschappij", "management", "markets", "media",
    "medical", "microsystems", "mission", "mobile", "mobility", "network", "networks", "nordic", "nv", "of",
    "office", "opportunities", "opportunity", "oy", "pacific", "partner", "partners", "partnership", "pharma",
    "pharmaceuticals", "philanthropy", "plc", "private", "program", "project", "properties", "pte", "pty",
    "public", "publications", "realty", "records", "research", "resources", "sa", "sarl", "sas", "science",
    "sciences", "scientific", "scientifics", "scotland", "scottish", "securities", "security", "seed", "seeds",
    "semiconductor", "services", "silicon", "singapore", "social", "society", "software", "solutions", "sons",
    "spa", "starts", "startup", "startups", "strategic", "studio", "studios", "syndicate", "systems", "tech",
    "technologies", "technology", "telecom", "the", "therapeutics", "times", "trading", "trust", "university",
    "valley", "venture", "ventures", "vision", "wealth", "wireless", "works", "workshop",
];

/// Word endings that mark a compound organisation word (`Gruenderfonds`).
pub(crate) const ORG_ENDINGS: &[&str] = &[
    "fonds", "kapital", "ventures", "capital", "invest", "partners", "tech",
];

const TITLES: &[&str] = &["dr", "mr", "mrs", "ms", "prof", "sir"];
const SUFFIXES: &[&str] = &["jr", "sr", "ii", "iii", "iv", "md", "phd"];
const PARTICLES: &[&str] = &[
    "van", "von", "de", "der", "den", "da", "di", "du", "del", "della", "la", "le", "dos", "das",
    "bin", "al", "el", "ten", "ter",
];
/// Prefixes after which an inner capital is still a name (`McClure`, `DeMarco`).
const INNER_CAPITAL_PREFIXES: &[&str] = &[
    "Mc", "Mac", "De", "Des", "Di", "Da", "Du", "Le", "La", "Lo", "Ne", "Van", "Von", "St", "Fitz",
];

/// Guesses whether `name` is a firm or an angel (see the module docs).
pub(crate) fn classify(name: &str) -> InvestorKind {
    if is_person(name) {
        InvestorKind::Angel
    } else {
        InvestorKind::Firm
    }
}

fn is_person(name: &str) -> bool {
    let slug = slugify(name);
    if KNOWN_FIRMS.iter().any(|f| slugify(f) == slug) {
        return false;
    }
    let text = without_parentheses(name);
    if text
        .chars()
        .any(|c| c.is_ascii_digit() || "&+@/,".contains(c))
    {
        return false;
    }
    let words = core_words(&text);
    let lowercase = text.chars().all(|c| !c.is_uppercase());
    (2..=3).contains(&words.len())
        && !words.iter().any(|w| is_org_word(w))
        && words.iter().all(|w| lowercase || is_name_word(w))
}

fn without_parentheses(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut depth = 0usize;
    for c in name.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// The words that make the name: no title, suffix or particle.
fn core_words(text: &str) -> Vec<&str> {
    let bare = |w: &str| w.trim_end_matches('.').to_lowercase();
    let mut words: Vec<&str> = text.split_whitespace().collect();
    if words
        .first()
        .is_some_and(|w| TITLES.contains(&bare(w).as_str()))
    {
        words.remove(0);
    }
    if words
        .last()
        .is_some_and(|w| SUFFIXES.contains(&bare(w).replace('.', "").as_str()))
    {
        words.pop();
    }
    words.retain(|w| !PARTICLES.contains(w));
    words
}

fn is_org_word(word: &str) -> bool {
    let lower = word.to_lowercase();
    let parts = lower.split(['-', '\'', '.', '’']).filter(|p| !p.is_empty());
    let bare: String = lower.chars().filter(|c| c.is_alphanumeric()).collect();
    let listed = |w: &str| ORG_WORDS.binary_search(&w).is_ok();
    parts.into_iter().any(listed)
        || listed(&bare)
        || ORG_ENDINGS
            .iter()
            .any(|e| bare.len() > e.len() && bare.ends_with(e))
}

fn is_name_word(word: &str) -> bool {
    if is_initials(word) {
        return true;
    }
    let mut chars = word.chars();
    let starts_upper = chars.next().is_some_and(char::is_uppercase);
    let letters_only = word.chars().all(|c| c.is_alphabetic() || "'’-".contains(c));
    let caps = word.chars().filter(|c| c.is_uppercase()).count();
    let letters = word.chars().filter(|c| c.is_alphabetic()).count();
    let acronym = letters >= 2 && caps == letters && letters <= 3;
    starts_upper && letters_only && !acronym && (caps == letters || inner_capitals_ok(word))
}

/// `P.`, `J.R.`: single letters each followed by a dot.
fn is_initials(word: &str) -> bool {
    let chars: Vec<char> = word.chars().collect();
    !chars.is_empty()
        && chars.len().is_multiple_of(2)
        && chars
            .chunks(2)
            .all(|pair| pair[0].is_uppercase() && pair[1] == '.')
}

/// Inner capitals only right after `-`, `'` or a known prefix (`McClure`).
fn inner_capitals_ok(word: &str) -> bool {
    let chars: Vec<(usize, char)> = word.char_indices().collect();
    chars.iter().skip(1).enumerate().all(|(i, (at, c))| {
        let previous = chars[i].1;
        !c.is_uppercase()
            || "-'’".contains(previous)
            || INNER_CAPITAL_PREFIXES.contains(&&word[..*at])
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(name: &str) -> InvestorKind {
        classify(name)
    }

    #[test]
    fn people_are_angels() {
        for name in [
            "Ron Conway",
            "Peter Thiel",
            "Dave McClure",
            "Li Ka-shing",
            "Marc P. Bernegger",
            "Dr. David Donohue",
            "William Randolph Hearst III",
            "Owen Van Natta",
            "Michael van Swaaij",
            "Adam D'Angelo",
            "Brian NeSmith",
            "George Solomos (Angel Investor)",
            "david cohen",
            "Mark Pincus",
            "Jürgen Müller",
        ] {
            assert_eq!(kind(name), InvestorKind::Angel, "{name}");
        }
    }

    #[test]
    fn organisations_are_firms() {
        for name in [
            "Sequoia Capital",
            "Y Combinator",
            "SV Angel",
            "Bezos Expeditions",
            "Andreessen Horowitz",
            "500 Startups",
            "Allen & Company",
            "Benchmark",
            "Kleiner Perkins Caufield & Byers",
            "SoftTech VC",
            "DFJ Esprit",
            "High-Tech Gruenderfonds",
            "Novartis Bioventures",
            "Founders Fund",
            "Omidyar Network",
            "New Enterprise Associates",
            "Fondo Italiano di Investimento",
            "KfW Bankengruppe",
            "Explore. Dream. Discover.",
            "Tech Coast Angels",
        ] {
            assert_eq!(kind(name), InvestorKind::Firm, "{name}");
        }
    }

    #[test]
    fn org_words_are_sorted_lowercase_and_unique() {
        assert!(ORG_WORDS.windows(2).all(|w| w[0] < w[1]));
        assert!(ORG_WORDS.iter().all(|w| *w == w.to_lowercase()));
    }

    #[test]
    fn shape_helpers() {
        assert!(is_initials("J.R."));
        assert!(!is_initials("Jr."));
        assert!(inner_capitals_ok("McClure"));
        assert!(inner_capitals_ok("Smith-Jones"));
        assert!(!inner_capitals_ok("DoCoMo"));
        assert_eq!(
            without_parentheses("Chris Kelly (Former Facebook CPO)").trim(),
            "Chris Kelly"
        );
        assert_eq!(core_words("Dr. Jane Roe Jr."), vec!["Jane", "Roe"]);
    }
}
