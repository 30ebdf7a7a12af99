//! Identifier arrays of the bodies (`identifiers` blocks, `/people`
//! `investor` firm keys) → the normalised index keys of `query::request`.
//!
//! Values normalise as on the GET endpoints (`query::resolve`): organisation
//! LinkedIn and Crunchbase URLs to `company/…` and `organization/…`, person
//! ones to `in/…` and `person/…` (slugs accepted), Twitter to the handle.
//! A value that does not normalise is dropped silently (unknown identifiers
//! are simply absent from the results, reference §6.1); a blank one is
//! `EMPTY_STRING` (we refuse the hosted API's "blank matches everything"
//! quirk, api-examples E13.5). Firm permalinks are kept as given.
//!
//! Domains follow the hosted API's observed behaviour: a value written with
//! a leading `www.` is kept with it and so matches nothing (E13.3).

use crate::query::request::{OrgIdentifiers, PersonIdentifiers};
use crate::query::resolve::{org_identifier, person_identifier, Identifier, IdentifierKind};
use crate::schema::ids::domain_key;

use super::reader::Obj;

/// `domain_key`, except that a host written as `www.…` stays `www.…`.
pub fn domain_identifier(text: &str) -> Option<String> {
    let key = domain_key(text)?;
    let lower = text.trim().to_ascii_lowercase();
    let host = lower
        .split_once("://")
        .map_or(lower.as_str(), |(_, rest)| rest);
    Some(if host.starts_with("www.") {
        format!("www.{key}")
    } else {
        key
    })
}

fn key_of(id: Result<Identifier, impl Sized>) -> Option<String> {
    match id {
        Ok(Identifier::Key(_, key)) => Some(key),
        _ => None,
    }
}

fn org_linkedin(text: &str) -> Option<String> {
    key_of(org_identifier(IdentifierKind::Linkedin, text))
}

fn org_crunchbase(text: &str) -> Option<String> {
    key_of(org_identifier(IdentifierKind::Crunchbase, text))
}

fn person_linkedin(text: &str) -> Option<String> {
    key_of(person_identifier(IdentifierKind::Linkedin, text))
}

fn person_crunchbase(text: &str) -> Option<String> {
    key_of(person_identifier(IdentifierKind::Crunchbase, text))
}

fn person_twitter(text: &str) -> Option<String> {
    key_of(person_identifier(IdentifierKind::Twitter, text))
}

fn as_given(text: &str) -> Option<String> {
    Some(text.to_string())
}

/// The organisation keys of `obj` (`ids`, `domains`, `linkedin_urls`,
/// `crunchbase_urls`, and `permalinks` when `obj` allows it); `None` when
/// none of them is present.
pub fn org_identifiers(obj: &Obj, with_permalinks: bool) -> Option<OrgIdentifiers> {
    let present = [
        "ids",
        "domains",
        "linkedin_urls",
        "crunchbase_urls",
        "permalinks",
    ]
    .iter()
    .filter(|k| with_permalinks || **k != "permalinks")
    .any(|k| obj.get(k).is_some());
    let ids = obj.uuids("ids");
    let domains = obj.identifiers("domains", domain_identifier);
    let linkedin = obj.identifiers("linkedin_urls", org_linkedin);
    let crunchbase = obj.identifiers("crunchbase_urls", org_crunchbase);
    let permalinks = if with_permalinks {
        obj.identifiers("permalinks", as_given)
    } else {
        None
    };
    present.then(|| OrgIdentifiers {
        ids: ids.unwrap_or_default(),
        domains: domains.unwrap_or_default(),
        linkedin: linkedin.unwrap_or_default(),
        crunchbase: crunchbase.unwrap_or_default(),
        permalinks: permalinks.unwrap_or_default(),
    })
}

/// The person keys of `/people` `identifiers`; `None` when none is present.
pub fn person_identifiers(obj: &Obj) -> Option<PersonIdentifiers> {
    let ids = obj.uuids("ids");
    let linkedin = obj.identifiers("linkedin_urls", person_linkedin);
    let crunchbase = obj.identifiers("crunchbase_urls", person_crunchbase);
    let twitter = obj.identifiers("twitter_urls", person_twitter);
    obj.has_keys().then(|| PersonIdentifiers {
        ids: ids.unwrap_or_default(),
        linkedin: linkedin.unwrap_or_default(),
        crunchbase: crunchbase.unwrap_or_default(),
        twitter: twitter.unwrap_or_default(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn www_domains_keep_their_prefix_and_so_match_nothing() {
        assert_eq!(
            domain_identifier("stripe.com").as_deref(),
            Some("stripe.com")
        );
        assert_eq!(
            domain_identifier("https://Stripe.com/about").as_deref(),
            Some("stripe.com")
        );
        assert_eq!(
            domain_identifier("www.stripe.com").as_deref(),
            Some("www.stripe.com")
        );
        assert_eq!(
            domain_identifier(" https://WWW.Stripe.com/x ").as_deref(),
            Some("www.stripe.com")
        );
        assert_eq!(
            domain_identifier("wwwstripe.com").as_deref(),
            Some("wwwstripe.com")
        );
        assert_eq!(domain_identifier("not a domain"), None);
        assert_eq!(domain_identifier("www.com"), None);
    }

    #[test]
    fn org_and_person_urls_normalise_like_the_get_endpoints() {
        assert_eq!(
            org_linkedin("https://www.linkedin.com/company/stripe/").as_deref(),
            Some("company/stripe")
        );
        assert_eq!(
            org_crunchbase("crunchbase.com/organization/stripe").as_deref(),
            Some("organization/stripe")
        );
        assert_eq!(
            person_linkedin("https://www.linkedin.com/in/eladgil/").as_deref(),
            Some("in/eladgil")
        );
        assert_eq!(person_linkedin("https://linkedin.com/company/stripe"), None);
        assert_eq!(
            person_crunchbase("elad-gil").as_deref(),
            Some("person/elad-gil")
        );
        assert_eq!(
            person_twitter("https://x.com/JaneAngel").as_deref(),
            Some("janeangel")
        );
    }
}
