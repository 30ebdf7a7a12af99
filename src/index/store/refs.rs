//! UUID references in stored records.
//!
//! A record's JSON names other entities by UUID (a company's investors, a
//! deal's company and firms, a person's employer…): 36 hex characters
//! carrying 16 bytes of entropy that no dictionary predicts. They were most
//! of a compressed record: at M, 9 a company record, 5 a deal, 4 a person.
//! As references they made the stores 28 % (companies), 29 % (deals) and
//! 18 % (people) smaller (same dump, same 1 MiB dictionaries and level 9:
//! 313 → 225, 541 → 381, 744 → 607 MB).
//!
//! Before compression, every JSON string `"<uuid>"` that is the id of an
//! indexed entity ([`References::find`]) becomes a reference:
//!
//! ```text
//! 0x01  LEB128(doc << 2 | kind)        kind: RefKind (company, deal, firm, person)
//! 0x02                                 the record's own id (its store's kind, its doc)
//! ```
//!
//! Reading turns each reference back into the very same 38 bytes, the
//! quoted lowercase hyphenated UUID of that doc ([`Uuids::uuid`]): a
//! record's references are located first, then their UUIDs read back to
//! back (each a cache miss into an id map of tens of megabytes, and
//! issued together those misses overlap), then the output is written. Raw JSON
//! never holds a byte below 0x20 (serde_json escapes them inside strings),
//! so 0x01 only ever starts a reference; only lowercase hyphenated UUIDs are
//! replaced, so the round trip is exact whatever the JSON around them.
//! UUIDs of nothing indexed (a financing's id) stay text.

use memchr::{memchr, memchr2};
use uuid::Uuid;

/// First byte of a reference.
pub const MARK: u8 = 0x01;
/// A reference to the record's own entity.
pub const MARK_OWN: u8 = 0x02;

/// Length of a quoted hyphenated UUID.
const QUOTED: usize = 38;

/// The kinds a reference can point to (its two low bits).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefKind {
    Company = 0,
    Deal = 1,
    Firm = 2,
    Person = 3,
}

/// Every kind, in code order.
pub const REF_KINDS: [RefKind; 4] = [
    RefKind::Company,
    RefKind::Deal,
    RefKind::Firm,
    RefKind::Person,
];

/// Resolves references when reading: the UUID of `doc` of `kind`, `None`
/// for a doc the index does not have.
pub trait Uuids: Send + Sync {
    fn uuid(&self, kind: RefKind, doc: u32) -> Option<u128>;
}

/// Makes references when writing: the entity whose id `uuid` is.
pub trait References: Send + Sync {
    fn find(&self, uuid: u128) -> Option<(RefKind, u32)>;
}

/// Resolves nothing: for stores written without references.
pub struct NoUuids;

impl Uuids for NoUuids {
    fn uuid(&self, _: RefKind, _: u32) -> Option<u128> {
        None
    }
}

/// `json`, the record of entity `own`, with every indexed entity's quoted
/// UUID replaced by a reference.
pub fn encode(json: &[u8], refs: &dyn References, own: (RefKind, u32)) -> Vec<u8> {
    let mut out = Vec::with_capacity(json.len());
    let mut rest = json;
    while let Some(q) = memchr(b'"', rest) {
        out.extend_from_slice(&rest[..q]);
        rest = &rest[q..];
        match quoted_uuid(rest).and_then(|u| refs.find(u)) {
            Some(found) if found == own => {
                out.push(MARK_OWN);
                rest = &rest[QUOTED..];
            }
            Some((kind, doc)) => {
                out.push(MARK);
                push_varint(&mut out, (doc as u64) << 2 | kind as u64);
                rest = &rest[QUOTED..];
            }
            None => {
                out.push(b'"');
                rest = &rest[1..];
            }
        }
    }
    out.extend_from_slice(rest);
    out
}

/// `stored`, the record of entity `own`, with every reference replaced by
/// its quoted UUID; an error for a truncated reference or one to a doc
/// `uuids` does not have.
///
/// The references are located first and their UUIDs read in one tight
/// loop, then the output is written: a company's record holds up to a
/// few hundred references into id maps of tens of megabytes, each read a
/// cache miss, and read back to back those misses overlap instead of each
/// waiting behind the formatting of the one before.
pub fn expand(stored: &[u8], uuids: &dyn Uuids, own: (RefKind, u32)) -> Result<Vec<u8>, String> {
    let found = located(stored, own)?;
    let ids = resolved(&found, uuids)?;
    let mut out = Vec::with_capacity(stored.len() + found.len() * QUOTED);
    let mut from = 0;
    for (r, &uuid) in found.iter().zip(&ids) {
        out.extend_from_slice(&stored[from..r.at]);
        push_quoted(&mut out, uuid);
        from = r.at + r.len;
    }
    out.extend_from_slice(&stored[from..]);
    Ok(out)
}

/// A reference in a stored record: its bytes and what it names.
struct Located {
    at: usize,
    len: usize,
    target: (RefKind, u32),
}

/// Every reference of `stored`, in order.
fn located(stored: &[u8], own: (RefKind, u32)) -> Result<Vec<Located>, String> {
    let mut found = Vec::new();
    let mut at = 0;
    while let Some(m) = memchr2(MARK, MARK_OWN, &stored[at..]) {
        let at_mark = at + m;
        let (target, used) = match stored[at_mark] {
            MARK => reference(&stored[at_mark + 1..])?,
            _ => (own, 0),
        };
        let len = 1 + used;
        found.push(Located {
            at: at_mark,
            len,
            target,
        });
        at = at_mark + len;
    }
    Ok(found)
}

/// The UUIDs of `found`'s targets, read back to back.
fn resolved(found: &[Located], uuids: &dyn Uuids) -> Result<Vec<u128>, String> {
    let read = found.iter().map(|r| {
        let (kind, doc) = r.target;
        uuids
            .uuid(kind, doc)
            .ok_or_else(|| format!("reference to {kind:?} doc {doc}, which is not indexed"))
    });
    read.collect()
}

/// The (kind, doc) of the reference at the start of `bytes`, and its length.
fn reference(bytes: &[u8]) -> Result<((RefKind, u32), usize), String> {
    let (value, used) = read_varint(bytes).ok_or("truncated reference")?;
    let kind = REF_KINDS[(value & 3) as usize];
    let doc = u32::try_from(value >> 2).map_err(|_| "reference out of range")?;
    Ok(((kind, doc), used))
}

/// The UUID of a quoted lowercase hyphenated UUID at the start of `bytes`.
fn quoted_uuid(bytes: &[u8]) -> Option<u128> {
    let quoted = bytes.get(..QUOTED)?;
    if quoted[QUOTED - 1] != b'"' {
        return None;
    }
    let mut value = 0u128;
    for (i, &b) in quoted[1..QUOTED - 1].iter().enumerate() {
        let digit = match b {
            b'-' if matches!(i, 8 | 13 | 18 | 23) => continue,
            b'0'..=b'9' => b - b'0',
            b'a'..=b'f' => b - b'a' + 10,
            _ => return None,
        };
        if matches!(i, 8 | 13 | 18 | 23) {
            return None;
        }
        value = value << 4 | digit as u128;
    }
    Some(value)
}

fn push_quoted(out: &mut Vec<u8>, uuid: u128) {
    let mut buf = [0u8; uuid::fmt::Hyphenated::LENGTH];
    out.push(b'"');
    out.extend_from_slice(
        Uuid::from_u128(uuid)
            .hyphenated()
            .encode_lower(&mut buf)
            .as_bytes(),
    );
    out.push(b'"');
}

fn push_varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push(value as u8 | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// A LEB128 value and the bytes it took.
fn read_varint(bytes: &[u8]) -> Option<(u64, usize)> {
    let mut value = 0u64;
    for (i, &b) in bytes.iter().enumerate().take(10) {
        value |= ((b & 0x7f) as u64) << (7 * i);
        if b & 0x80 == 0 {
            return Some((value, i + 1));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashMap;

    /// Entities of every kind, by UUID and by (kind, doc).
    struct Table(HashMap<u128, (RefKind, u32)>);

    impl References for Table {
        fn find(&self, uuid: u128) -> Option<(RefKind, u32)> {
            self.0.get(&uuid).copied()
        }
    }

    impl Uuids for Table {
        fn uuid(&self, kind: RefKind, doc: u32) -> Option<u128> {
            self.0
                .iter()
                .find(|(_, &r)| r == (kind, doc))
                .map(|(&u, _)| u)
        }
    }

    fn table(ids: &[u128]) -> Table {
        let refs = ids
            .iter()
            .enumerate()
            .map(|(i, &u)| (u, (REF_KINDS[i % 4], (i * 40_000_000 % 300_000_007) as u32)))
            .collect();
        Table(refs)
    }

    fn quoted(u: u128) -> String {
        format!("\"{}\"", Uuid::from_u128(u))
    }

    #[test]
    fn indexed_uuids_become_references_and_come_back() {
        let t = table(&[1, u128::MAX, 0xabc]);
        let json = format!(
            r#"{{"id":{},"investors":[{},{}],"other":{},"upper":"{}"}}"#,
            quoted(1),
            quoted(u128::MAX),
            quoted(0xabc),
            quoted(7),
            Uuid::from_u128(0xabc)
                .hyphenated()
                .to_string()
                .to_uppercase()
        );
        let own = t.find(1).unwrap();
        let stored = encode(json.as_bytes(), &t, own);
        let text = String::from_utf8_lossy(&stored);
        assert!(
            text.starts_with("{\"id\":\u{2},\"investors\":[\u{1}"),
            "{text}"
        );
        assert!(text.contains(&quoted(7)), "not indexed: text");
        assert!(
            text.contains("-0000-0000-0000-000000000ABC"),
            "uppercase: text"
        );
        assert!(stored.len() < json.len() - 3 * 30);
        assert_eq!(expand(&stored, &t, own).unwrap(), json.as_bytes());
    }

    #[test]
    fn bad_references_are_errors() {
        let t = table(&[5]);
        let own = (RefKind::Deal, 1);
        let stored = encode(quoted(5).as_bytes(), &t, own);
        let err = expand(&stored, &NoUuids, own).unwrap_err();
        assert!(err.contains("not indexed"), "{err}");
        assert!(expand(&[b'[', MARK, 0x80], &t, own).is_err());
        assert!(expand(&[MARK, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f], &t, own).is_err());
        assert!(
            expand(&[MARK_OWN], &t, (RefKind::Person, 9)).is_err(),
            "no such own doc"
        );
    }

    proptest! {
        /// Any text with UUIDs, quotes and escapes anywhere round-trips.
        #[test]
        fn any_json_text_round_trips(
            ids in prop::collection::vec(any::<u128>(), 1..6),
            parts in prop::collection::vec((0usize..8, "[ -~]{0,12}"), 0..20),
        ) {
            let t = table(&ids);
            let text: String = parts
                .iter()
                .map(|(i, s)| match i {
                    0..=5 => format!("{s}{}", quoted(ids[i % ids.len()])),
                    6 => format!("{s}\\\"{}", Uuid::from_u128(ids[0])),
                    _ => s.clone(),
                })
                .collect();
            let own = t.find(ids[0]).unwrap();
            let stored = encode(text.as_bytes(), &t, own);
            prop_assert_eq!(expand(&stored, &t, own).unwrap(), text.as_bytes());
        }
    }
}
