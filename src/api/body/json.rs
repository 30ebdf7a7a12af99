//! Request bytes → a JSON tree that keeps object keys in document order
//! (`serde_json::Value` sorts them), so validation problems can be reported
//! in the order the client wrote them.
//!
//! An empty or whitespace-only body is `{}`. Malformed JSON is 400
//! `INVALID_JSON` with the parser's line and column. A key repeated in one
//! object keeps its first position and its last value (as `JSON.parse`).

use std::fmt;

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

use crate::api::errors::{ApiError, Code, Item};

/// A parsed JSON value; objects are entry lists in document order.
#[derive(Debug, Clone, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Number(Number),
    String(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

/// Parses a request body; blank is `{}`.
pub fn parse_body(body: &[u8]) -> Result<Json, ApiError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(Json::Object(Vec::new()));
    }
    serde_json::from_slice::<Json>(body).map_err(|e| invalid_json(e.line(), e.column()))
}

/// 400 `VALIDATION_ERROR` with one `INVALID_JSON` item on `body`, saying
/// where the parser stopped (1-based line and column).
fn invalid_json(line: usize, column: usize) -> ApiError {
    let at = if line > 0 {
        format!(" (line {line}, column {column})")
    } else {
        String::new()
    };
    let item = Item {
        field: "body".into(),
        value: Value::Null,
        message: format!(
            "{}{at}. Send a JSON object, for example {{\"page_size\": 10}}",
            Code::InvalidJson.message(&[])
        ),
        code: Code::InvalidJson,
        valid_options: Vec::new(),
    };
    ApiError::validation(Code::ValidationError, &[item])
}

impl Json {
    pub fn is_null(&self) -> bool {
        matches!(self, Json::Null)
    }

    /// The same value as a `serde_json::Value` (for error bodies).
    pub fn to_value(&self) -> Value {
        match self {
            Json::Null => Value::Null,
            Json::Bool(b) => Value::Bool(*b),
            Json::Number(n) => Value::Number(n.clone()),
            Json::String(s) => Value::String(s.clone()),
            Json::Array(items) => Value::Array(items.iter().map(Json::to_value).collect()),
            Json::Object(entries) => Value::Object(
                entries
                    .iter()
                    .map(|(k, v)| (k.clone(), v.to_value()))
                    .collect::<Map<_, _>>(),
            ),
        }
    }
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Json, D::Error> {
        d.deserialize_any(JsonVisitor)
    }
}

struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Json, E> {
        Ok(Json::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Json, E> {
        Ok(Json::Number(v.into()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Json, E> {
        Ok(Json::Number(v.into()))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Json, E> {
        Ok(Number::from_f64(v).map_or(Json::Null, Json::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Json, E> {
        Ok(Json::String(v.to_string()))
    }

    fn visit_string<E>(self, v: String) -> Result<Json, E> {
        Ok(Json::String(v))
    }

    fn visit_unit<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }

    fn visit_none<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Json, D::Error> {
        Json::deserialize(d)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Json>()? {
            items.push(item);
        }
        Ok(Json::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        let mut entries: Vec<(String, Json)> = Vec::new();
        while let Some((key, value)) = map.next_entry::<String, Json>()? {
            match entries.iter_mut().find(|(k, _)| *k == key) {
                Some(entry) => entry.1 = value,
                None => entries.push((key, value)),
            }
        }
        Ok(Json::Object(entries))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn keys(j: &Json) -> Vec<&str> {
        match j {
            Json::Object(entries) => entries.iter().map(|(k, _)| k.as_str()).collect(),
            _ => vec![],
        }
    }

    #[test]
    fn objects_keep_document_order_and_the_last_duplicate() {
        let j = parse_body(br#"{"z": 1, "a": {"y": [1, 2.5, "x", null, true]}, "z": 3}"#).unwrap();
        assert_eq!(keys(&j), ["z", "a"]);
        assert_eq!(
            j.to_value(),
            json!({"z": 3, "a": {"y": [1, 2.5, "x", null, true]}})
        );
    }

    #[test]
    fn blank_bodies_are_empty_objects() {
        assert_eq!(parse_body(b"").unwrap(), Json::Object(vec![]));
        assert_eq!(parse_body(b" \r\n\t").unwrap(), Json::Object(vec![]));
    }

    #[test]
    fn malformed_json_is_invalid_json_with_a_position() {
        let e = parse_body(b"{\n  \"page\": 1,\n}").unwrap_err();
        assert_eq!((e.status, e.code.as_str()), (400, "VALIDATION_ERROR"));
        let item = &e.details["errors"][0];
        assert_eq!(
            (item["field"].as_str(), item["code"].as_str()),
            (Some("body"), Some("INVALID_JSON"))
        );
        assert!(item["message"]
            .as_str()
            .unwrap()
            .starts_with("Request body is not valid JSON (line 3, column 1)"));
        assert!(e.details["help"].is_string());
        for bad in [&b"{"[..], b"[1,]", b"{} {}", b"\xff", b"nul"] {
            assert_eq!(
                parse_body(bad).unwrap_err().details["errors"][0]["code"],
                "INVALID_JSON"
            );
        }
    }

    #[test]
    fn deep_nesting_is_refused_not_overflowed() {
        let deep = "[".repeat(100_000);
        assert_eq!(
            parse_body(deep.as_bytes()).unwrap_err().details["errors"][0]["code"],
            "INVALID_JSON"
        );
    }
}
