//! The one place that shapes success bodies: `{success, data, meta}` (plus
//! `message` on some empty results). Stored records are spliced in as raw
//! JSON bytes, so a page of 500 deals costs a memcpy, not a re-serialisation.

use serde_json::{json, Map, Value};

pub use super::declare::endpoint::MetaShape;
use crate::accounts::Charge;
use crate::index::store::Record;

/// A JSON fragment already serialised: a stored record, shared with the
/// record store's cache rather than copied, or one made here; with the
/// per-query keys to append before its closing brace. It is copied once,
/// into the body ([`success_body`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Raw {
    json: Json,
    /// `"key":value` pairs, comma-separated (empty: none).
    keys: Vec<u8>,
}

/// The bytes of a [`Raw`].
#[derive(Debug, Clone, PartialEq)]
pub enum Json {
    Owned(Vec<u8>),
    Stored(Record),
}

impl From<Vec<u8>> for Json {
    fn from(bytes: Vec<u8>) -> Json {
        Json::Owned(bytes)
    }
}

impl From<Record> for Json {
    fn from(record: Record) -> Json {
        Json::Stored(record)
    }
}

impl Json {
    fn bytes(&self) -> &[u8] {
        match self {
            Json::Owned(bytes) => bytes,
            Json::Stored(record) => record,
        }
    }
}

impl Raw {
    /// A fragment as it is.
    pub fn new(json: impl Into<Json>) -> Raw {
        Raw {
            json: json.into(),
            keys: Vec::new(),
        }
    }

    pub fn from_value(v: &Value) -> Raw {
        Raw::from_serialize(v)
    }

    /// A record serialised as it is.
    pub fn from_serialize<T: serde::Serialize>(record: &T) -> Raw {
        Raw::new(serde_json::to_vec(record).unwrap_or_else(|_| b"null".to_vec()))
    }

    /// An object record with extra keys appended before its closing brace.
    pub fn with_keys(record: impl Into<Json>, extra: &[(&str, Value)]) -> Raw {
        let mut keys = Vec::with_capacity(64 * extra.len());
        for (key, value) in extra {
            if !keys.is_empty() {
                keys.push(b',');
            }
            // Writing a string or a `Value` into a Vec cannot fail.
            let _ = serde_json::to_writer(&mut keys, key);
            keys.push(b':');
            let _ = serde_json::to_writer(&mut keys, value);
        }
        Raw {
            json: record.into(),
            keys,
        }
    }

    /// Bytes [`Raw::write`] writes (at most).
    fn len(&self) -> usize {
        self.json.bytes().len() + self.keys.len() + 1
    }

    /// Appends the fragment, its keys spliced in, to `out`.
    fn write(&self, out: &mut Vec<u8>) {
        let json = self.json.bytes();
        if self.keys.is_empty() {
            out.extend_from_slice(json);
            return;
        }
        let trimmed = json.strip_suffix(b"}").unwrap_or(json);
        out.extend_from_slice(trimmed);
        if trimmed.len() > 1 {
            out.push(b',');
        }
        out.extend_from_slice(&self.keys);
        out.push(b'}');
    }

    /// The fragment as one buffer.
    #[cfg(test)]
    pub fn to_vec(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.write(&mut out);
        out
    }
}

/// The `data` object: named members, each a record or a list of records,
/// or one record that is `data` itself.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Data {
    members: Vec<(&'static str, Member)>,
    itself: Option<Raw>,
}

#[derive(Debug, Clone, PartialEq)]
enum Member {
    One(Raw),
    List(Vec<Raw>),
}

impl Data {
    pub fn one(name: &'static str, record: Raw) -> Data {
        Data {
            members: vec![(name, Member::One(record))],
            itself: None,
        }
    }

    pub fn list(name: &'static str, records: Vec<Raw>) -> Data {
        Data {
            members: vec![(name, Member::List(records))],
            itself: None,
        }
    }

    /// `data` is `record` (an object).
    pub fn record(record: Raw) -> Data {
        Data {
            members: Vec::new(),
            itself: Some(record),
        }
    }

    pub fn and_list(mut self, name: &'static str, records: Vec<Raw>) -> Data {
        self.members.push((name, Member::List(records)));
        self
    }

    /// Bytes of the records it holds (what [`Data::write`] writes, but for
    /// names and punctuation).
    fn record_bytes(&self) -> usize {
        let members = self.members.iter().map(|(_, member)| match member {
            Member::One(r) => r.len(),
            Member::List(rs) => rs.iter().map(|r| r.len() + 1).sum(),
        });
        self.itself.as_ref().map_or(0, Raw::len) + members.sum::<usize>()
    }

    fn write(&self, out: &mut Vec<u8>) {
        if let Some(record) = &self.itself {
            record.write(out);
            return;
        }
        out.push(b'{');
        for (i, (name, member)) in self.members.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            out.extend_from_slice(format!("\"{name}\":").as_bytes());
            match member {
                Member::One(r) => r.write(out),
                Member::List(rs) => {
                    out.push(b'[');
                    for (j, r) in rs.iter().enumerate() {
                        if j > 0 {
                            out.push(b',');
                        }
                        r.write(out);
                    }
                    out.push(b']');
                }
            }
        }
        out.push(b'}');
    }
}

/// Values for `meta`.
#[derive(Debug, Clone, PartialEq)]
pub struct Meta {
    pub total_count: u64,
    pub page: u64,
    pub page_size: u64,
}

impl Meta {
    /// The `meta` object of `shape` (the endpoint's declaration); balances
    /// come from the charge (absent for the api plan).
    pub fn to_value(&self, shape: MetaShape, charge: &Charge) -> Value {
        let mut m = Map::new();
        match shape {
            MetaShape::CountOnly => {
                m.insert("total_count".into(), json!(self.total_count));
                return Value::Object(m);
            }
            MetaShape::Paged => {
                m.insert("total_count".into(), json!(self.total_count));
                m.insert("page".into(), json!(self.page));
                m.insert("page_size".into(), json!(self.page_size));
                m.insert("credits_used".into(), json!(charge.credits_used));
                return Value::Object(m);
            }
            MetaShape::List => {
                m.insert("total_count".into(), json!(self.total_count));
                m.insert("page".into(), json!(self.page));
                m.insert("page_size".into(), json!(self.page_size));
            }
            MetaShape::Detail => {
                m.insert("page".into(), json!(0));
                m.insert("page_size".into(), json!(1));
            }
            MetaShape::Batch => {
                m.insert("page".into(), json!(0));
                m.insert("page_size".into(), json!(self.page_size));
                m.insert("credits_used".into(), json!(charge.credits_used));
                return Value::Object(m);
            }
        }
        m.insert("credits_used".into(), json!(charge.credits_used));
        if let Some(balance) = charge.balance {
            m.insert(
                "credit_source".into(),
                json!(charge.source.map(|s| s.as_str())),
            );
            m.insert(
                "monthly_credits_remaining".into(),
                json!(balance.monthly_remaining),
            );
            m.insert(
                "purchased_credits_remaining".into(),
                json!(balance.purchased_remaining),
            );
        }
        Value::Object(m)
    }
}

/// Serialises a whole success body.
pub fn success_body(data: &Data, meta: &Value, message: Option<&str>) -> Vec<u8> {
    let mut out = Vec::with_capacity(1024 + data.record_bytes());
    out.extend_from_slice(b"{\"success\":true,");
    if let Some(m) = message {
        out.extend_from_slice(b"\"message\":");
        out.extend_from_slice(&serde_json::to_vec(m).unwrap_or_default());
        out.push(b',');
    }
    out.extend_from_slice(b"\"data\":");
    data.write(&mut out);
    out.extend_from_slice(b",\"meta\":");
    out.extend_from_slice(&serde_json::to_vec(meta).unwrap_or_default());
    out.push(b'}');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_are_spliced_verbatim_with_extra_keys() {
        let r = Raw::with_keys(br#"{"id":1}"#.to_vec(), &[("similarity", Value::Null)]);
        assert_eq!(r.to_vec(), br#"{"id":1,"similarity":null}"#);
        let stored = Record::new(br#"{"id":1}"#.to_vec());
        let two = [("a", json!(1)), ("b", json!("x"))];
        let shared = Raw::with_keys(stored, &two);
        assert_eq!(shared.to_vec(), br#"{"id":1,"a":1,"b":"x"}"#);
        let empty = Raw::with_keys(b"{}".to_vec(), &[("a", json!(1))]);
        assert_eq!(empty.to_vec(), br#"{"a":1}"#);
        let data = Data::list(
            "deals",
            vec![Raw::new(b"{}".to_vec()), Raw::new(b"{\"x\":2}".to_vec())],
        );
        let body = success_body(&data, &json!({"total_count": 2}), None);
        let parsed: Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(
            parsed,
            json!({"success": true, "data": {"deals": [{}, {"x": 2}]}, "meta": {"total_count": 2}})
        );
        let with_message = success_body(&Data::list("people", vec![]), &json!({}), Some("none"));
        assert_eq!(
            serde_json::from_slice::<Value>(&with_message).unwrap()["message"],
            "none"
        );
    }
}
