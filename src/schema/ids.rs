//! Identifiers: deterministic UUIDs, permalinks, and the normalised keys under
//! which domains and profile URLs are looked up.
//!
//! Every identifier map in the index is keyed by the output of one of the
//! `*_key` functions here, and every request goes through the same function,
//! so `https://www.Stripe.com/about` and `stripe.com` meet at `stripe.com`.

use uuid::Uuid;

/// Namespace of all UUIDv5 ids minted by importers and the generator.
pub const ID_NAMESPACE: Uuid = Uuid::from_bytes([
    0x6f, 0x1d, 0x3c, 0x2a, 0x94, 0x5b, 0x4e, 0x71, 0x8a, 0x07, 0x53, 0x1e, 0xc4, 0x9d, 0x20, 0x6b,
]);

/// A deterministic id for `kind` + `key` (e.g. `("company", "/company/facebook")`).
pub fn uuid5(kind: &str, key: &str) -> Uuid {
    let mut name = String::with_capacity(kind.len() + key.len() + 1);
    name.push_str(kind);
    name.push(':');
    name.push_str(key);
    Uuid::new_v5(&ID_NAMESPACE, name.as_bytes())
}

/// Lowercase kebab-case slug: ASCII letters and digits kept (accents folded),
/// everything else collapses to single dashes. `"São Paulo!"` → `sao-paulo`.
pub fn slugify(text: &str) -> String {
    let mut slug = String::with_capacity(text.len());
    for c in text.chars().flat_map(fold_char) {
        if c.is_ascii_alphanumeric() {
            slug.push(c.to_ascii_lowercase());
        } else if !slug.is_empty() && !slug.ends_with('-') {
            slug.push('-');
        }
    }
    while slug.ends_with('-') {
        slug.pop();
    }
    slug
}

/// Folds common Latin accented letters to ASCII (`é` → `e`, `ß` → `ss`).
pub fn fold_char(c: char) -> impl Iterator<Item = char> {
    let folded: &str = match c {
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'ā' | 'ą' => "a",
        'À' | 'Á' | 'Â' | 'Ã' | 'Ä' | 'Å' | 'Ā' | 'Ą' => "A",
        'æ' => "ae",
        'Æ' => "AE",
        'ç' | 'ć' | 'č' => "c",
        'Ç' | 'Ć' | 'Č' => "C",
        'ď' | 'đ' => "d",
        'è' | 'é' | 'ê' | 'ë' | 'ē' | 'ę' | 'ě' => "e",
        'È' | 'É' | 'Ê' | 'Ë' | 'Ē' | 'Ę' | 'Ě' => "E",
        'ì' | 'í' | 'î' | 'ï' | 'ī' => "i",
        'Ì' | 'Í' | 'Î' | 'Ï' | 'Ī' => "I",
        'ł' => "l",
        'Ł' => "L",
        'ñ' | 'ń' | 'ň' => "n",
        'Ñ' | 'Ń' | 'Ň' => "N",
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' | 'ō' | 'ő' => "o",
        'Ò' | 'Ó' | 'Ô' | 'Õ' | 'Ö' | 'Ø' | 'Ō' | 'Ő' => "O",
        'œ' => "oe",
        'ř' => "r",
        'ś' | 'š' | 'ş' => "s",
        'Ś' | 'Š' | 'Ş' => "S",
        'ß' => "ss",
        'ť' | 'ţ' => "t",
        'ù' | 'ú' | 'û' | 'ü' | 'ū' | 'ů' | 'ű' => "u",
        'Ù' | 'Ú' | 'Û' | 'Ü' | 'Ū' | 'Ů' | 'Ű' => "U",
        'ý' | 'ÿ' => "y",
        'Ý' => "Y",
        'ź' | 'ż' | 'ž' => "z",
        'Ź' | 'Ż' | 'Ž' => "Z",
        _ => "",
    };
    let own = if folded.is_empty() { Some(c) } else { None };
    folded.chars().chain(own)
}

/// Lowercased, accent-folded text: what name matching compares.
pub fn fold_text(text: &str) -> String {
    text.chars()
        .flat_map(fold_char)
        .flat_map(char::to_lowercase)
        .collect()
}

/// Splits a URL-ish string into a lowercase host (without `www.`) and its
/// non-empty path segments; scheme, query, fragment and port are dropped.
pub fn host_and_path(text: &str) -> Option<(String, Vec<String>)> {
    let text = text.trim();
    if text.is_empty() || text.chars().any(char::is_whitespace) {
        return None;
    }
    let lower = text.to_ascii_lowercase();
    let rest = lower.split_once("://").map_or(lower.as_str(), |(_, r)| r);
    let rest = rest.split(['?', '#']).next().unwrap_or_default();
    let mut parts = rest.split('/');
    let host = parts.next()?.split(':').next()?.trim_start_matches("www.");
    if host.is_empty() || !host.contains('.') {
        return None;
    }
    let path = parts
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect();
    Some((host.to_string(), path))
}

/// `https://www.stripe.com/about` → `stripe.com`.
pub fn domain_key(text: &str) -> Option<String> {
    let (host, _) = host_and_path(text)?;
    let valid = host.split('.').all(|label| {
        !label.is_empty() && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
    });
    valid.then_some(host)
}

/// The profile path of a LinkedIn URL: `in/eladgil`, `company/stripe`.
/// A bare slug (`eladgil`) is read as a person profile when `bare_kind` says so.
pub fn linkedin_key(text: &str, bare_kind: Option<&str>) -> Option<String> {
    profile_key(
        text,
        "linkedin.com",
        bare_kind,
        &[
            ("in", "in"),
            ("pub", "in"),
            ("company", "company"),
            ("school", "school"),
        ],
    )
}

/// The entity path of a Crunchbase URL: `organization/stripe`, `person/elad-gil`.
/// The 2013-era `company/<slug>` form is read as `organization/<slug>`.
pub fn crunchbase_key(text: &str, bare_kind: Option<&str>) -> Option<String> {
    profile_key(
        text,
        "crunchbase.com",
        bare_kind,
        &[
            ("organization", "organization"),
            ("company", "organization"),
            ("person", "person"),
            ("financial-organization", "organization"),
        ],
    )
}

/// The handle of a Twitter/X URL or `@handle`: `https://x.com/JaneAngel` → `janeangel`.
pub fn twitter_key(text: &str) -> Option<String> {
    let text = text.trim();
    if let Some(handle) = text.strip_prefix('@') {
        return valid_handle(handle);
    }
    match host_and_path(text) {
        Some((host, path)) if host.ends_with("twitter.com") || host == "x.com" => {
            valid_handle(path.first()?)
        }
        Some(_) => None,
        None => valid_handle(text),
    }
}

fn valid_handle(handle: &str) -> Option<String> {
    let ok = !handle.is_empty()
        && handle.len() <= 50
        && handle
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_');
    ok.then(|| handle.to_ascii_lowercase())
}

fn profile_key(
    text: &str,
    site: &str,
    bare_kind: Option<&str>,
    kinds: &[(&str, &str)],
) -> Option<String> {
    let trimmed = text.trim().trim_end_matches('/');
    let is_bare = !trimmed.contains('/') && !trimmed.contains('.') && !trimmed.is_empty();
    if is_bare {
        let slug = trimmed.to_ascii_lowercase();
        return bare_kind.map(|kind| format!("{kind}/{slug}"));
    }
    let (host, path) = host_and_path(text)?;
    if !(host == site || host.ends_with(&format!(".{site}"))) {
        return None;
    }
    let (kind, slug) = (path.first()?, path.get(1)?);
    let canonical = kinds.iter().find(|(k, _)| k == kind)?.1;
    Some(format!("{canonical}/{slug}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uuid5_is_deterministic_and_kind_scoped() {
        assert_eq!(uuid5("company", "x"), uuid5("company", "x"));
        assert_ne!(uuid5("company", "x"), uuid5("firm", "x"));
        assert_eq!(uuid5("company", "x").get_version_num(), 5);
    }

    #[test]
    fn slugs_fold_accents_and_collapse_separators() {
        assert_eq!(slugify("São Paulo!"), "sao-paulo");
        assert_eq!(slugify("  SF   Bay  "), "sf-bay");
        assert_eq!(slugify("Ünïcödé & Co."), "unicode-co");
        assert_eq!(slugify("#NAME?"), "name");
    }

    #[test]
    fn domains_drop_scheme_www_path_and_case() {
        for input in [
            "stripe.com",
            "https://www.Stripe.com/about?x=1",
            "http://stripe.com:8080/",
            "WWW.STRIPE.COM",
        ] {
            assert_eq!(domain_key(input).as_deref(), Some("stripe.com"), "{input}");
        }
        assert_eq!(domain_key("not a domain"), None);
        assert_eq!(domain_key("localhost"), None);
        assert_eq!(domain_key(""), None);
    }

    #[test]
    fn linkedin_urls_reduce_to_their_profile_path() {
        for input in [
            "https://www.linkedin.com/in/eladgil/",
            "linkedin.com/in/EladGil",
            "http://uk.linkedin.com/in/eladgil?trk=x",
        ] {
            assert_eq!(
                linkedin_key(input, None).as_deref(),
                Some("in/eladgil"),
                "{input}"
            );
        }
        assert_eq!(
            linkedin_key("eladgil", Some("in")).as_deref(),
            Some("in/eladgil")
        );
        assert_eq!(linkedin_key("eladgil", None), None);
        assert_eq!(
            linkedin_key("https://linkedin.com/company/stripe", None).as_deref(),
            Some("company/stripe")
        );
        assert_eq!(linkedin_key("https://example.com/in/eladgil", None), None);
        assert_eq!(linkedin_key("https://linkedin.com/feed", None), None);
    }

    #[test]
    fn crunchbase_urls_reduce_to_entity_paths() {
        assert_eq!(
            crunchbase_key("https://www.crunchbase.com/organization/stripe", None).as_deref(),
            Some("organization/stripe")
        );
        assert_eq!(
            crunchbase_key("crunchbase.com/company/facebook", None).as_deref(),
            Some("organization/facebook")
        );
        assert_eq!(
            crunchbase_key("elad-gil", Some("person")).as_deref(),
            Some("person/elad-gil")
        );
    }

    #[test]
    fn twitter_handles_from_urls_and_at_forms() {
        for input in [
            "https://x.com/JaneAngel",
            "https://twitter.com/janeangel/",
            "@janeangel",
            "janeangel",
        ] {
            assert_eq!(twitter_key(input).as_deref(), Some("janeangel"), "{input}");
        }
        assert_eq!(twitter_key("https://example.com/janeangel"), None);
        assert_eq!(twitter_key("bad handle!"), None);
    }
}
