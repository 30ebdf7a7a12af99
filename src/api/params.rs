//! Query-string parameters of the GET endpoints: percent-decoding, repeated
//! and unknown names, and the shared `page` / `page_size` rules declared in
//! [`crate::api::declare::paging`].

use serde_json::Value;

use super::declare::paging::{MAX_PAGE, MAX_PAGE_SIZE};
use super::errors::{ApiError, Code, Item};

pub const DEFAULT_PAGE_SIZE: u64 = 10;

/// Decoded `name=value` pairs in request order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Query {
    pairs: Vec<(String, String)>,
}

impl Query {
    /// Parses a raw query string (`a=1&b=x%20y`; `+` is a space).
    pub fn parse(raw: Option<&str>) -> Result<Query, ApiError> {
        let mut pairs = Vec::new();
        for part in raw.unwrap_or("").split('&').filter(|p| !p.is_empty()) {
            let (name, value) = part.split_once('=').unwrap_or((part, ""));
            pairs.push((decode(name)?, decode(value)?));
        }
        Ok(Query { pairs })
    }

    /// The first value of `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The first value of `name`, trimmed, unless empty.
    pub fn non_empty(&self, name: &str) -> Option<&str> {
        self.get(name).map(str::trim).filter(|v| !v.is_empty())
    }

    pub fn has(&self, name: &str) -> bool {
        self.pairs.iter().any(|(n, _)| n == name)
    }

    /// Distinct parameter names, in request order.
    pub fn names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = Vec::new();
        for (n, _) in &self.pairs {
            if !names.contains(&n.as_str()) {
                names.push(n);
            }
        }
        names
    }

    /// Distinct names `known` refuses, in request order (nothing is
    /// allocated when every name is known).
    pub fn unknown(&self, known: impl Fn(&str) -> bool) -> Vec<&str> {
        let mut unknown: Vec<&str> = Vec::new();
        for (name, _) in &self.pairs {
            if !known(name) && !unknown.contains(&name.as_str()) {
                unknown.push(name);
            }
        }
        unknown
    }

    /// `page` and `page_size` with their documented bounds.
    pub fn paging(&self) -> Result<Paging, ApiError> {
        let page = match self.get("page") {
            None => 0,
            Some(v) => v
                .trim()
                .parse::<u64>()
                .ok()
                .filter(|p| *p <= MAX_PAGE)
                .ok_or_else(|| {
                    ApiError::with_help(
                        Code::InvalidPage,
                        &[("value", v)],
                        format!("page must be an integer from 0 to {MAX_PAGE}"),
                    )
                    .about("page", v)
                })?,
        };
        let page_size = match self.get("page_size") {
            None => DEFAULT_PAGE_SIZE,
            Some(v) => v
                .trim()
                .parse::<u64>()
                .ok()
                .filter(|s| (1..=MAX_PAGE_SIZE).contains(s))
                .ok_or_else(|| {
                    ApiError::with_help(
                        Code::InvalidPageSize,
                        &[("value", v)],
                        format!("page_size must be an integer from 1 to {MAX_PAGE_SIZE}"),
                    )
                    .about("page_size", v)
                })?,
        };
        Ok(Paging { page, page_size })
    }
}

/// A validated page request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Paging {
    pub page: u64,
    pub page_size: u64,
}

impl Paging {
    /// The slice of `0..total` this page covers.
    pub fn range(&self, total: usize) -> std::ops::Range<usize> {
        let start = (self.page.saturating_mul(self.page_size)).min(total as u64) as usize;
        let end = (start as u64 + self.page_size).min(total as u64) as usize;
        start..end
    }
}

fn decode(text: &str) -> Result<String, ApiError> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = bytes
                    .get(i + 1..i + 3)
                    .and_then(|h| std::str::from_utf8(h).ok());
                let byte = hex
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                    .ok_or_else(bad_encoding)?;
                out.push(byte);
                i += 2;
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out).map_err(|_| bad_encoding())
}

fn bad_encoding() -> ApiError {
    let item = Item {
        field: "query".into(),
        value: Value::Null,
        message: Code::InvalidParameter.message(&[(
            "names",
            "the query string (percent-encode parameters as UTF-8)",
        )]),
        code: Code::InvalidParameter,
        valid_options: Vec::new(),
    };
    ApiError::invalid_query(&[item])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_and_keeps_order() {
        let q = Query::parse(Some("name=san+francisco&x=%C3%A9t%C3%A9&name=b&flag")).unwrap();
        assert_eq!(q.get("name"), Some("san francisco"));
        assert_eq!(q.get("x"), Some("été"));
        assert_eq!(q.names(), vec!["name", "x", "flag"]);
        assert!(q.has("flag"));
        assert_eq!(q.non_empty("flag"), None);
        assert!(Query::parse(Some("a=%zz")).is_err());
        assert!(Query::parse(Some("a=%ff")).is_err());
        assert!(Query::parse(Some("a=%")).is_err());
    }

    #[test]
    fn paging_bounds() {
        let p = |s: &str| Query::parse(Some(s)).unwrap().paging();
        assert_eq!(
            p("").unwrap(),
            Paging {
                page: 0,
                page_size: 10
            }
        );
        assert_eq!(
            p("page=2&page_size=500").unwrap(),
            Paging {
                page: 2,
                page_size: 500
            }
        );
        for bad in [
            "page=-1",
            "page=x",
            "page_size=0",
            "page_size=501",
            "page_size=1.5",
        ] {
            assert!(p(bad).is_err(), "{bad}");
        }
        assert_eq!(
            Paging {
                page: 1,
                page_size: 10
            }
            .range(15),
            10..15
        );
        assert_eq!(
            Paging {
                page: 5,
                page_size: 10
            }
            .range(15),
            15..15
        );
        assert_eq!(
            Paging {
                page: MAX_PAGE,
                page_size: 500
            }
            .range(3),
            3..3
        );
    }
}
