//! Resolves the identifiers of the GET endpoints to doc ids.
//!
//! Organisations (companies, firms) answer to a UUID, a domain (a bare
//! domain or any URL, reduced to its host without `www.`), a LinkedIn
//! company URL or a Crunchbase organisation URL; people to a UUID, a
//! LinkedIn profile URL or slug, a Crunchbase person URL or slug, or a
//! Twitter/X URL or handle. A key may match several entities (one domain,
//! several firms): every match is returned, ascending by doc id.

use uuid::Uuid;

use crate::index::open::Kind;
use crate::schema::ids::{crunchbase_key, domain_key, linkedin_key, twitter_key};

/// Which parameter an identifier came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdentifierKind {
    Id,
    Domain,
    Linkedin,
    Crunchbase,
    Twitter,
}

impl IdentifierKind {
    pub const ALL: [IdentifierKind; 5] = [
        IdentifierKind::Id,
        IdentifierKind::Domain,
        IdentifierKind::Linkedin,
        IdentifierKind::Crunchbase,
        IdentifierKind::Twitter,
    ];

    /// The kind whose parameter is `param`.
    pub fn from_param(param: &str) -> Option<IdentifierKind> {
        IdentifierKind::ALL.into_iter().find(|k| k.param() == param)
    }

    pub fn param(self) -> &'static str {
        match self {
            IdentifierKind::Id => "id",
            IdentifierKind::Domain => "domain",
            IdentifierKind::Linkedin => "linkedin",
            IdentifierKind::Crunchbase => "crunchbase",
            IdentifierKind::Twitter => "twitter",
        }
    }
}

/// A parsed, normalised identifier.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Identifier {
    Id(Uuid),
    /// A normalised key of a key map (`stripe.com`, `company/stripe`, `in/eladgil`…).
    Key(IdentifierKind, String),
}

/// Why a value is not a valid identifier of its kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidIdentifier {
    pub kind: IdentifierKind,
    pub value: String,
}

/// Strict UUID: the hyphenated 36-character form.
pub fn parse_uuid(text: &str) -> Option<Uuid> {
    let text = text.trim();
    (text.len() == 36)
        .then(|| Uuid::parse_str(text).ok())
        .flatten()
}

/// Parses an organisation identifier.
pub fn org_identifier(kind: IdentifierKind, value: &str) -> Result<Identifier, InvalidIdentifier> {
    let key = match kind {
        IdentifierKind::Id => {
            return parse_uuid(value)
                .map(Identifier::Id)
                .ok_or_else(|| invalid(kind, value))
        }
        IdentifierKind::Domain => domain_key(value),
        IdentifierKind::Linkedin => linkedin_key(value, Some("company")),
        IdentifierKind::Crunchbase => crunchbase_key(value, Some("organization")),
        IdentifierKind::Twitter => None,
    };
    key.map(|k| Identifier::Key(kind, k))
        .ok_or_else(|| invalid(kind, value))
}

/// Parses a person identifier.
pub fn person_identifier(
    kind: IdentifierKind,
    value: &str,
) -> Result<Identifier, InvalidIdentifier> {
    let key = match kind {
        IdentifierKind::Id => {
            return parse_uuid(value)
                .map(Identifier::Id)
                .ok_or_else(|| invalid(kind, value))
        }
        IdentifierKind::Linkedin => {
            linkedin_key(value, Some("in")).filter(|k| k.starts_with("in/"))
        }
        IdentifierKind::Crunchbase => {
            crunchbase_key(value, Some("person")).filter(|k| k.starts_with("person/"))
        }
        IdentifierKind::Twitter => twitter_key(value),
        IdentifierKind::Domain => None,
    };
    key.map(|k| Identifier::Key(kind, k))
        .ok_or_else(|| invalid(kind, value))
}

fn invalid(kind: IdentifierKind, value: &str) -> InvalidIdentifier {
    InvalidIdentifier {
        kind,
        value: value.to_string(),
    }
}

/// Doc ids of `kind` matching `id` (empty when none).
pub fn resolve(kind: &Kind, id: &Identifier) -> Vec<u32> {
    match id {
        Identifier::Id(uuid) => kind.ids.docid(uuid).into_iter().collect(),
        Identifier::Key(k, key) => kind
            .keymap(k.param())
            .map(|m| m.get(key))
            .unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_are_normalised_or_refused() {
        use IdentifierKind::*;
        assert_eq!(
            org_identifier(Domain, "https://www.stripe.com/x"),
            Ok(Identifier::Key(Domain, "stripe.com".into()))
        );
        assert!(org_identifier(Domain, "not a domain").is_err());
        assert_eq!(
            org_identifier(Linkedin, "linkedin.com/company/stripe/"),
            Ok(Identifier::Key(Linkedin, "company/stripe".into()))
        );
        assert!(org_identifier(Id, "1234").is_err());
        assert!(
            org_identifier(Id, "550e8400e29b41d4a716446655440000").is_err(),
            "only the hyphenated form"
        );
        assert_eq!(
            person_identifier(Linkedin, "eladgil"),
            Ok(Identifier::Key(Linkedin, "in/eladgil".into()))
        );
        assert!(person_identifier(Linkedin, "https://linkedin.com/company/stripe").is_err());
        assert_eq!(
            person_identifier(Twitter, "@Jane"),
            Ok(Identifier::Key(Twitter, "jane".into()))
        );
        assert_eq!(
            person_identifier(Crunchbase, "elad-gil"),
            Ok(Identifier::Key(Crunchbase, "person/elad-gil".into()))
        );
    }
}
