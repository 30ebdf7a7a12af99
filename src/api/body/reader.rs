//! The object walker the four body parsers are written with.
//!
//! An [`Obj`] is one JSON object of the body together with its dotted path
//! and the keys it allows. Opening it records every key outside that list as
//! `UNKNOWN_PARAMETER`; its typed getters read one key each and record what
//! is wrong with it (reference §1.6). `null` is the same as an absent key.
//! A getter that finds a problem returns `None`: the body is refused anyway
//! once the walk ends, so the value is never used, and the walk goes on so
//! that every problem is reported at once.
//!
//! Array rules, for every array key: a JSON array (a comma-joined string is
//! a type error), not empty (`EMPTY_ARRAY_PARAMETER`), at most 100 items
//! (`TOO_MANY_ITEMS`). A bad item is reported on the array's path with the
//! item as `value`.

use serde_json::{Number, Value};
use uuid::Uuid;

use super::json::Json;
use super::problems::*;
use crate::api::declare::field::{find, names, Field, Ty, FINANCING_TYPE_KEYS};
use crate::api::errors::{Code, Item};
use crate::query::request::Range;
use crate::query::resolve::parse_uuid;
use crate::schema::{Date, RoundKey, RoundType};

pub use crate::api::declare::field::MAX_ITEMS;

/// `(wire spelling, value)` pairs of a closed enum.
pub type Choices<T> = [(&'static str, T)];

/// The choices of a `wire_enum!` type: `spellings(Headcount::ALL, Headcount::as_str)`.
pub fn spellings<T: Copy>(all: &[T], spell: fn(T) -> &'static str) -> Vec<(&'static str, T)> {
    all.iter().map(|v| (spell(*v), *v)).collect()
}

fn options<T>(choices: &Choices<T>) -> Vec<String> {
    choices.iter().map(|(s, _)| s.to_string()).collect()
}

/// One JSON object of the body.
pub struct Obj<'a> {
    problems: &'a Problems,
    path: String,
    order: Order,
    entries: &'a [(String, Json)],
    /// The declared keys (`api::declare`).
    fields: &'static [Field],
}

/// One present (non-null) value of the body, with its place.
pub struct Slot<'a> {
    problems: &'a Problems,
    /// Dotted path reported as `field`.
    pub path: String,
    order: Order,
    pub value: &'a Json,
}

impl<'a> Obj<'a> {
    /// The whole body; a body that is not an object is one problem (`body`).
    pub fn root(problems: &'a Problems, body: &'a Json, fields: &'static [Field]) -> Obj<'a> {
        let entries: &[(String, Json)] = match body {
            Json::Object(entries) => entries,
            _ => {
                let slot = Slot {
                    problems,
                    path: "body".into(),
                    order: Vec::new(),
                    value: body,
                };
                slot.fail::<()>(INVALID_TYPE, &[("expected", "a JSON object")]);
                &[]
            }
        };
        Obj::open(problems, String::new(), Vec::new(), entries, fields)
    }

    fn open(
        problems: &'a Problems,
        path: String,
        order: Order,
        entries: &'a [(String, Json)],
        fields: &'static [Field],
    ) -> Obj<'a> {
        let obj = Obj {
            problems,
            path,
            order,
            entries,
            fields,
        };
        for (i, (key, value)) in entries.iter().enumerate() {
            if find(fields, key).is_none() {
                let item = Item::unknown(obj.child_path(key), value.to_value(), &names(fields));
                problems.push(Problem::at(item, obj.child_order(i)));
            }
        }
        obj
    }

    fn child_path(&self, key: &str) -> String {
        if self.path.is_empty() {
            key.to_string()
        } else {
            format!("{}.{key}", self.path)
        }
    }

    fn child_order(&self, index: usize) -> Order {
        let mut order = self.order.clone();
        order.push(index as u32);
        order
    }

    /// Whether any key has a non-null value.
    pub fn has_keys(&self) -> bool {
        self.entries.iter().any(|(_, v)| !v.is_null())
    }

    /// The value of an allowed `key`, unless absent or null.
    pub fn get(&self, key: &str) -> Option<Slot<'a>> {
        debug_assert!(
            find(self.fields, key).is_some(),
            "{key} is not a declared key of {}",
            self.path
        );
        let (i, (_, value)) = self
            .entries
            .iter()
            .enumerate()
            .find(|(_, (k, _))| k == key)?;
        (!value.is_null()).then(|| Slot {
            problems: self.problems,
            path: self.child_path(key),
            order: self.child_order(i),
            value,
        })
    }

    /// A nested object, allowing the keys declared for it.
    pub fn object(&self, key: &str) -> Option<Obj<'a>> {
        let keys = find(self.fields, key).map_or(&[][..], Field::keys);
        self.get(key)?.object(keys)
    }

    /// A whole number within the bounds declared for `key`.
    pub fn int(&self, key: &str) -> Option<u64> {
        match find(self.fields, key).map(|f| f.ty) {
            Some(Ty::Int { min, max }) if max == u32::MAX as u64 => {
                self.int_at_least(key, min as u32).map(u64::from)
            }
            Some(Ty::Int { min, max }) => self.int_between(key, min, max),
            _ => None,
        }
    }

    /// A money amount: a JSON number ≥ 0 (whole USD).
    pub fn money(&self, key: &str) -> Option<f64> {
        let slot = self.get(key)?;
        let bounds = [("expected", "a number >= 0"), ("bounds", "a number >= 0")];
        match slot.number() {
            None => slot.fail(INVALID_TYPE, &bounds),
            Some(n) if n < 0.0 || !n.is_finite() => slot.fail(OUT_OF_RANGE, &bounds),
            Some(n) => Some(n),
        }
    }

    /// `min_key`/`max_key` money bounds; `min > max` is `INVALID_RANGE` on `min_key`.
    pub fn money_range(&self, min_key: &str, max_key: &str) -> Range<f64> {
        let range = Range {
            min: self.money(min_key),
            max: self.money(max_key),
        };
        self.check_range(range, min_key, max_key)
    }

    /// A day, `YYYY-MM-DD`.
    pub fn date(&self, key: &str) -> Option<Date> {
        let slot = self.get(key)?;
        match slot.value {
            Json::String(text) => Date::parse(text).or_else(|| slot.fail(INVALID_DATE, &[])),
            _ => slot.fail(INVALID_TYPE, &[("expected", "a date in YYYY-MM-DD format")]),
        }
    }

    /// `start_key`/`end_key` date bounds; start after end is `INVALID_RANGE` on `start_key`.
    pub fn date_range(&self, start_key: &str, end_key: &str) -> Range<Date> {
        let range = Range {
            min: self.date(start_key),
            max: self.date(end_key),
        };
        self.check_range(range, start_key, end_key)
    }

    /// `range` unless its bounds are crossed, which is reported on `min_key`.
    fn check_range<T: PartialOrd + Copy>(
        &self,
        range: Range<T>,
        min_key: &str,
        max_key: &str,
    ) -> Range<T> {
        let crossed = matches!((range.min, range.max), (Some(min), Some(max)) if min > max);
        match self.get(min_key).filter(|_| crossed) {
            Some(slot) => {
                let max = self.child_path(max_key);
                slot.fail(INVALID_RANGE, &[("max", &max)])
                    .unwrap_or_default()
            }
            None => range,
        }
    }

    /// An array of hyphenated UUIDs.
    pub fn uuids(&self, key: &str) -> Option<Vec<Uuid>> {
        let items = self.get(key)?.array()?;
        let parsed: Vec<Option<Uuid>> = items
            .iter()
            .map(|item| match item.value {
                Json::String(text) => {
                    parse_uuid(text).or_else(|| item.fail(INVALID_UUID, &[("value", text)]))
                }
                _ => item.fail(INVALID_TYPE, &[("expected", "an array of UUID strings")]),
            })
            .collect();
        parsed.into_iter().collect()
    }

    /// An array of strings, kept as given (permalinks, job titles…).
    pub fn strings(&self, key: &str) -> Option<Vec<String>> {
        let items = self.get(key)?.array()?;
        let parsed: Vec<Option<String>> = items
            .iter()
            .map(|item| item.item_string().map(str::to_string))
            .collect();
        parsed.into_iter().collect()
    }

    /// An array of identifier strings: blank ones are `EMPTY_STRING`, the
    /// others go through `normalise`, and those it refuses are dropped.
    pub fn identifiers(
        &self,
        key: &str,
        normalise: fn(&str) -> Option<String>,
    ) -> Option<Vec<String>> {
        let items = self.get(key)?.array()?;
        let parsed: Vec<Option<Option<String>>> = items
            .iter()
            .map(|item| {
                let text = item.item_string()?;
                if text.trim().is_empty() {
                    return item.fail(EMPTY_STRING, &[]);
                }
                Some(normalise(text))
            })
            .collect();
        parsed
            .into_iter()
            .collect::<Option<Vec<_>>>()
            .map(|keys| keys.into_iter().flatten().collect())
    }

    /// An array of exact enum spellings.
    pub fn enums<T: Copy>(&self, key: &str, choices: &Choices<T>) -> Option<Vec<T>> {
        let items = self.get(key)?.array()?;
        let parsed: Vec<Option<T>> = items
            .iter()
            .map(|item| {
                let text = item.item_string()?;
                let found = choices.iter().find(|(s, _)| *s == text).map(|(_, v)| *v);
                found.or_else(|| item.invalid_choice(text, choices))
            })
            .collect();
        parsed.into_iter().collect()
    }

    /// One exact enum spelling.
    pub fn choice<T: Copy>(&self, key: &str, choices: &Choices<T>) -> Option<T> {
        let slot = self.get(key)?;
        let Json::String(text) = slot.value else {
            return slot.fail_with(INVALID_TYPE, &[("expected", "a string")], options(choices));
        };
        let found = choices.iter().find(|(s, _)| s == text).map(|(_, v)| *v);
        found.or_else(|| slot.invalid_choice(text, choices))
    }

    /// An array of financing type objects `{type, pre?, extension?}`.
    /// Every item that is not one (a string, an unknown or missing `type`)
    /// is gathered into one `INVALID_FINANCING_TYPE` problem on the array:
    /// its `value` is the item, or the list of items when several are bad.
    pub fn financing_types(&self, key: &str) -> Option<Vec<RoundKey>> {
        let slot = self.get(key)?;
        let items = slot.array()?;
        let mut keys = Vec::new();
        let mut bad: Vec<(&Json, String)> = Vec::new();
        for (i, item) in items.iter().enumerate() {
            match self.financing_type(item, i) {
                Ok(round) => keys.push(round),
                Err(shown) => bad.push((item.value, shown)),
            }
        }
        if bad.is_empty() {
            return Some(keys);
        }
        let all: Vec<String> = RoundType::ALL
            .iter()
            .map(|t| t.as_str().to_string())
            .collect();
        slot.invalid_rounds(&bad, all)
    }

    /// An array of round labels (`Series A`, `Pre-Seed`): every item that
    /// is not one is gathered into one `INVALID_FINANCING_TYPE` problem,
    /// as [`Obj::financing_types`] does.
    pub fn round_labels(&self, key: &str) -> Option<Vec<RoundKey>> {
        let slot = self.get(key)?;
        let items = slot.array()?;
        let mut keys = Vec::new();
        let mut bad: Vec<(&Json, String)> = Vec::new();
        for item in &items {
            match item.value {
                Json::String(text) => match RoundKey::from_label(text) {
                    Some(round) => keys.push(round),
                    None => bad.push((item.value, text.clone())),
                },
                other => bad.push((other, shown(other))),
            }
        }
        if bad.is_empty() {
            return Some(keys);
        }
        let mut labels: Vec<String> = crate::schema::ROUND_LABELS
            .iter()
            .map(|l| l.to_string())
            .collect();
        labels.push("Pre-Seed".into());
        slot.invalid_rounds(&bad, labels)
    }

    /// One financing type item; `Err` carries how the bad item is shown in the message.
    fn financing_type(&self, item: &Slot<'a>, index: usize) -> Result<RoundKey, String> {
        let Json::Object(entries) = item.value else {
            return Err(shown_non_object(item.value));
        };
        let path = format!("{}[{index}]", item.path);
        let obj = Obj::open(
            self.problems,
            path,
            item.order.clone(),
            entries,
            FINANCING_TYPE_KEYS,
        );
        let pre = obj.bool("pre").unwrap_or(false);
        let extension = obj.bool("extension").unwrap_or(false);
        let round_type = match obj.get("type").map(|t| t.value) {
            Some(Json::String(text)) => RoundType::parse(text).ok_or_else(|| text.clone())?,
            Some(other) => return Err(shown(other)),
            None => return Err(shown(item.value)),
        };
        Ok(RoundKey {
            round_type,
            pre,
            extension,
        })
    }

    /// An integer in `min..=max`.
    pub fn int_between(&self, key: &str, min: u64, max: u64) -> Option<u64> {
        let slot = self.get(key)?;
        slot.integer(min, max, &format!("an integer between {min} and {max}"))
    }

    /// An integer ≥ `min` (and within `u32`).
    pub fn int_at_least(&self, key: &str, min: u32) -> Option<u32> {
        let slot = self.get(key)?;
        let n = slot.integer(min as u64, u32::MAX as u64, &format!("an integer >= {min}"))?;
        Some(n as u32)
    }

    /// A JSON boolean.
    pub fn bool(&self, key: &str) -> Option<bool> {
        let slot = self.get(key)?;
        match slot.value {
            Json::Bool(b) => Some(*b),
            _ => slot.fail(INVALID_TYPE, &[("expected", "a boolean")]),
        }
    }

    /// A non-blank string, trimmed.
    pub fn text(&self, key: &str) -> Option<String> {
        let slot = self.get(key)?;
        let text = slot.string()?;
        if text.trim().is_empty() {
            return slot.fail(EMPTY_STRING, &[]);
        }
        Some(text.trim().to_string())
    }

    /// A non-blank string of at most `max` characters (trimmed).
    pub fn short_text(&self, key: &str, max: usize) -> Option<String> {
        let text = self.text(key)?;
        if text.chars().count() > max {
            let bounds = format!("at most {max} characters");
            return self.get(key)?.fail(OUT_OF_RANGE, &[("bounds", &bounds)]);
        }
        Some(text)
    }

    /// Records `REQUIRED_PARAMETER` when `key` is absent (or null); true when present.
    pub fn require(&self, key: &str) -> bool {
        if self.get(key).is_some() {
            return true;
        }
        let field = self.child_path(key);
        let item = Item {
            message: REQUIRED_PARAMETER.message(&[("field", &field)]),
            field,
            value: Value::Null,
            code: REQUIRED_PARAMETER,
            valid_options: Vec::new(),
        };
        self.problems.push(Problem::at(item, self.order.clone()));
        false
    }

    /// A number in `0..=1`.
    pub fn fraction(&self, key: &str) -> Option<f64> {
        let slot = self.get(key)?;
        let bounds = [
            ("expected", "a number between 0 and 1"),
            ("bounds", "a number between 0 and 1"),
        ];
        match slot.number() {
            None => slot.fail(INVALID_TYPE, &bounds),
            Some(n) if !(0.0..=1.0).contains(&n) => slot.fail(OUT_OF_RANGE, &bounds),
            Some(n) => Some(n),
        }
    }
}

/// How a bad financing type item reads in the message.
fn shown(value: &Json) -> String {
    match value {
        Json::String(text) => text.clone(),
        other => other.to_value().to_string(),
    }
}

/// How a financing type item that is not an object is named in the
/// message: a string naming a valid type is shown with the object it
/// should have been, since the list of valid options names it too.
fn shown_non_object(value: &Json) -> String {
    match value {
        Json::String(text) if RoundType::parse(text).is_some() => {
            format!(r#""{text}" (write {{"type": "{text}"}})"#)
        }
        other => shown(other),
    }
}

impl<'a> Slot<'a> {
    /// One `INVALID_FINANCING_TYPE` problem on this array naming every
    /// bad item (`value`: the item, or the list when several are bad).
    fn invalid_rounds<T>(&self, bad: &[(&Json, String)], options: Vec<String>) -> Option<T> {
        let shown: Vec<&str> = bad.iter().map(|(_, s)| s.as_str()).collect();
        let message = INVALID_FINANCING_TYPE.message(&[
            ("given", &shown.join(", ")),
            ("options", &options.join(", ")),
        ]);
        let value = match bad {
            [(one, _)] => one.to_value(),
            many => Value::Array(many.iter().map(|(v, _)| v.to_value()).collect()),
        };
        self.problems.push(Problem {
            field: self.path.clone(),
            value,
            message,
            code: INVALID_FINANCING_TYPE,
            valid_options: options,
            order: self.order.clone(),
        });
        None
    }

    /// Records a problem with this value, its message `code`'s template
    /// filled with `values` and this value's path as `field`; always `None`.
    pub fn fail<T>(&self, code: Code, values: &[(&str, &str)]) -> Option<T> {
        self.fail_with(code, values, Vec::new())
    }

    pub fn fail_with<T>(
        &self,
        code: Code,
        values: &[(&str, &str)],
        valid_options: Vec<String>,
    ) -> Option<T> {
        let mut all = vec![("field", self.path.as_str())];
        all.extend_from_slice(values);
        self.problems.push(Problem {
            field: self.path.clone(),
            value: self.value.to_value(),
            message: code.message(&all),
            code,
            valid_options,
            order: self.order.clone(),
        });
        None
    }

    fn object(&self, fields: &'static [Field]) -> Option<Obj<'a>> {
        match self.value {
            Json::Object(entries) => Some(Obj::open(
                self.problems,
                self.path.clone(),
                self.order.clone(),
                entries,
                fields,
            )),
            _ => self.fail(INVALID_TYPE, &[("expected", "an object")]),
        }
    }

    /// `text` is not one of `choices`.
    fn invalid_choice<T>(&self, text: &str, choices: &Choices<impl Copy>) -> Option<T> {
        let valid = options(choices);
        let values = [("value", text), ("options", &valid.join(", "))];
        self.fail_with(INVALID_ENUM_VALUE, &values, valid.clone())
    }

    /// The items of an array that follows the array rules; items share the array's path.
    fn array(&self) -> Option<Vec<Slot<'a>>> {
        let Json::Array(items) = self.value else {
            return self.fail(INVALID_TYPE, &[("expected", "an array")]);
        };
        if items.is_empty() {
            return self.fail(EMPTY_ARRAY_PARAMETER, &[]);
        }
        if items.len() > MAX_ITEMS {
            let (max, count) = (MAX_ITEMS.to_string(), items.len().to_string());
            return self.fail(TOO_MANY_ITEMS, &[("max", &max), ("count", &count)]);
        }
        let slot = |(i, value)| {
            let mut order = self.order.clone();
            order.push(i as u32);
            Slot {
                problems: self.problems,
                path: self.path.clone(),
                order,
                value,
            }
        };
        Some(items.iter().enumerate().map(slot).collect())
    }

    /// A string value.
    fn string(&self) -> Option<&'a str> {
        match self.value {
            Json::String(text) => Some(text),
            _ => self.fail(INVALID_TYPE, &[("expected", "a string")]),
        }
    }

    /// A string item of an array.
    fn item_string(&self) -> Option<&'a str> {
        match self.value {
            Json::String(text) => Some(text),
            _ => self.fail(INVALID_TYPE, &[("expected", "an array of strings")]),
        }
    }

    /// A JSON number as `f64`.
    fn number(&self) -> Option<f64> {
        match self.value {
            Json::Number(n) => n.as_f64(),
            _ => None,
        }
    }

    /// A whole JSON number (`2.0` counts) in `min..=max`; a fraction or a
    /// non-number is `INVALID_TYPE`, an integer out of bounds `OUT_OF_RANGE`.
    fn integer(&self, min: u64, max: u64, what: &str) -> Option<u64> {
        let values = [("expected", what), ("bounds", what)];
        match self.value {
            Json::Number(n) => match whole(n) {
                Some(v) if v >= min as i128 && v <= max as i128 => Some(v as u64),
                Some(_) => self.fail(OUT_OF_RANGE, &values),
                None => self.fail(INVALID_TYPE, &values),
            },
            _ => self.fail(INVALID_TYPE, &values),
        }
    }
}

/// The integer value of a JSON number, unless it has a fraction.
fn whole(n: &Number) -> Option<i128> {
    if let Some(u) = n.as_u64() {
        return Some(u as i128);
    }
    if let Some(i) = n.as_i64() {
        return Some(i as i128);
    }
    let f = n.as_f64()?;
    (f.fract() == 0.0).then_some(f as i128)
}

/// Parses `body` as the top-level object allowing the declared `keys`,
/// reads it with `read`, and fails with every problem found (in `form`) if
/// there is any.
pub fn parse_object<T>(
    body: &[u8],
    keys: &'static [Field],
    form: super::problems::ErrorForm,
    read: impl FnOnce(&Obj) -> T,
) -> Result<T, crate::api::errors::ApiError> {
    let json = super::json::parse_body(body)?;
    let problems = Problems::default();
    let value = read(&Obj::root(&problems, &json, keys));
    problems.finish(form)?;
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::super::json::parse_body;
    use super::*;
    use crate::schema::Headcount;
    use serde_json::json;

    const A: Field = Field::new("a", Ty::Text, "");
    const B: Field = Field::new("b", Ty::Text, "");
    const KEYS: &[Field] = &[A, B, Field::new("inner", Ty::Object(&[A, B]), "")];

    /// Runs `read` on `body`; returns its value and the `details.errors` items.
    fn read<T>(body: &str, read: impl Fn(&Obj) -> T) -> (T, Vec<Value>) {
        let json = parse_body(body.as_bytes()).unwrap();
        let problems = Problems::default();
        let value = read(&Obj::root(&problems, &json, KEYS));
        let errors = match problems.finish(ErrorForm::Validation) {
            Ok(()) => Vec::new(),
            Err(e) => e.details["errors"].as_array().unwrap().clone(),
        };
        (value, errors)
    }

    /// `(field, code)` of each problem.
    fn codes(errors: &[Value]) -> Vec<(String, String)> {
        errors
            .iter()
            .map(|e| {
                (
                    e["field"].as_str().unwrap().to_string(),
                    e["code"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    }

    fn one(errors: &[Value], field: &str, code: &str) {
        assert_eq!(
            codes(errors),
            [(field.to_string(), code.to_string())],
            "{errors:?}"
        );
    }

    #[test]
    fn null_is_absent_and_absent_is_none() {
        let (v, errors) = read(r#"{"a": null}"#, |o| {
            (o.money("a"), o.uuids("b"), o.has_keys())
        });
        assert_eq!(v, (None, None, false));
        assert!(errors.is_empty());
    }

    #[test]
    fn unknown_keys_are_reported_with_their_dotted_path_and_the_allowed_keys() {
        let (_, errors) = read(r#"{"zz": 1, "inner": {"a": 1, "deep": {"x": 1}}}"#, |o| {
            o.object("inner").is_some()
        });
        assert_eq!(
            codes(&errors),
            [
                ("zz".into(), "UNKNOWN_PARAMETER".into()),
                ("inner.deep".into(), "UNKNOWN_PARAMETER".into())
            ]
        );
        assert_eq!(errors[0]["validOptions"], json!(["a", "b", "inner"]));
        assert_eq!(
            errors[0]["message"],
            "Unknown parameter(s): zz. Allowed parameters: a, b, inner"
        );
        assert_eq!(
            errors[1]["value"],
            json!(r#"{"x":1}"#),
            "non-strings as JSON text"
        );
        assert_eq!(errors[1]["validOptions"], json!(["a", "b"]));
    }

    #[test]
    fn a_body_that_is_not_an_object_is_one_body_problem() {
        for body in ["[1]", "\"x\"", "3", "null"] {
            let (_, errors) = read(body, |o| o.money("a"));
            one(&errors, "body", "INVALID_TYPE");
        }
    }

    #[test]
    fn nested_values_must_be_objects() {
        let (v, errors) = read(r#"{"inner": [1]}"#, |o| o.object("inner").is_some());
        assert!(!v);
        one(&errors, "inner", "INVALID_TYPE");
        assert_eq!(errors[0]["message"], "inner must be an object");
    }

    #[test]
    fn money_is_a_non_negative_json_number() {
        assert_eq!(read(r#"{"a": 1.5}"#, |o| o.money("a")), (Some(1.5), vec![]));
        assert_eq!(read(r#"{"a": 0}"#, |o| o.money("a")).0, Some(0.0));
        one(
            &read(r#"{"a": "5"}"#, |o| o.money("a")).1,
            "a",
            "INVALID_TYPE",
        );
        let (_, errors) = read(r#"{"a": -1}"#, |o| o.money("a"));
        one(&errors, "a", "OUT_OF_RANGE");
        assert_eq!(errors[0]["value"], json!("-1"));
    }

    #[test]
    fn bounds_in_the_wrong_order_are_invalid_range_on_the_min() {
        let (range, errors) = read(r#"{"a": 10, "b": 5}"#, |o| o.money_range("a", "b"));
        assert!(!range.is_set());
        one(&errors, "a", "INVALID_RANGE");
        assert_eq!(errors[0]["message"], "a must not be greater than b");
        assert_eq!(errors[0]["value"], json!("10"));
        let (range, errors) = read(r#"{"a": 5, "b": 5}"#, |o| o.money_range("a", "b"));
        assert_eq!((range.min, range.max), (Some(5.0), Some(5.0)));
        assert!(errors.is_empty());
        let (_, errors) = read(r#"{"a": "2024-02-01", "b": "2024-01-31"}"#, |o| {
            o.date_range("a", "b")
        });
        one(&errors, "a", "INVALID_RANGE");
    }

    #[test]
    fn dates_are_iso_days() {
        let (d, errors) = read(r#"{"a": "2024-01-15"}"#, |o| o.date("a"));
        assert_eq!((d, errors.len()), (Date::parse("2024-01-15"), 0));
        for bad in [
            r#""2024-1-15""#,
            r#""2024-02-30""#,
            r#""2024-01-15T00:00:00Z""#,
            r#""yesterday""#,
        ] {
            one(
                &read(&format!(r#"{{"a": {bad}}}"#), |o| o.date("a")).1,
                "a",
                "INVALID_DATE",
            );
        }
        one(
            &read(r#"{"a": 20240115}"#, |o| o.date("a")).1,
            "a",
            "INVALID_TYPE",
        );
    }

    #[test]
    fn arrays_must_be_non_empty_arrays_of_at_most_100_items() {
        one(
            &read(r#"{"a": "x,y"}"#, |o| o.strings("a")).1,
            "a",
            "INVALID_TYPE",
        );
        let (_, errors) = read(r#"{"a": []}"#, |o| o.uuids("a"));
        one(&errors, "a", "EMPTY_ARRAY_PARAMETER");
        assert_eq!(
            errors[0]["message"],
            "a must not be an empty array; omit the key instead"
        );
        let many = format!(r#"{{"a": [{}]}}"#, vec!["\"x\""; 101].join(","));
        one(&read(&many, |o| o.strings("a")).1, "a", "TOO_MANY_ITEMS");
        let hundred = format!(r#"{{"a": [{}]}}"#, vec!["\"x\""; 100].join(","));
        assert_eq!(
            read(&hundred, |o| o.strings("a").map(|v| v.len())),
            (Some(100), vec![])
        );
    }

    #[test]
    fn uuid_items_are_strict_and_each_bad_one_is_reported() {
        let good = "550e8400-e29b-41d4-a716-446655440000";
        let (ids, errors) = read(&format!(r#"{{"a": ["{good}"]}}"#), |o| o.uuids("a"));
        assert_eq!(
            (ids, errors.len()),
            (Some(vec![Uuid::parse_str(good).unwrap()]), 0)
        );
        let (_, errors) = read(
            r#"{"a": ["550e8400e29b41d4a716446655440000", 7, "x"]}"#,
            |o| o.uuids("a"),
        );
        assert_eq!(
            codes(&errors),
            [
                ("a".into(), "INVALID_UUID".into()),
                ("a".into(), "INVALID_TYPE".into()),
                ("a".into(), "INVALID_UUID".into())
            ]
        );
        assert_eq!(errors[0]["value"], "550e8400e29b41d4a716446655440000");
        assert_eq!(errors[1]["value"], "7");
    }

    #[test]
    fn string_items_keep_their_value_and_refuse_other_types() {
        assert_eq!(
            read(r#"{"a": ["Fintech-e067 ", ""]}"#, |o| o.strings("a")).0,
            Some(vec!["Fintech-e067 ".to_string(), String::new()])
        );
        let (_, errors) = read(r#"{"a": ["x", 1]}"#, |o| o.strings("a"));
        one(&errors, "a", "INVALID_TYPE");
        assert_eq!(
            (errors[0]["value"].clone(), errors[0]["message"].clone()),
            (json!("1"), json!("a must be an array of strings"))
        );
    }

    #[test]
    fn identifiers_refuse_blanks_and_drop_what_does_not_normalise() {
        fn upper(text: &str) -> Option<String> {
            (text != "bad").then(|| text.to_uppercase())
        }
        assert_eq!(
            read(r#"{"a": ["x", "bad", "y"]}"#, |o| o.identifiers("a", upper)),
            (Some(vec!["X".into(), "Y".into()]), vec![])
        );
        assert_eq!(
            read(r#"{"a": ["bad"]}"#, |o| o.identifiers("a", upper)),
            (Some(vec![]), vec![])
        );
        one(
            &read(r#"{"a": ["x", "  "]}"#, |o| o.identifiers("a", upper)).1,
            "a",
            "EMPTY_STRING",
        );
    }

    #[test]
    fn enum_items_are_exact_spellings() {
        let choices = spellings(Headcount::ALL, Headcount::as_str);
        assert_eq!(
            read(r#"{"a": ["1-10", "10001+"]}"#, |o| o.enums("a", &choices)).0,
            Some(vec![Headcount::H1To10, Headcount::H10001Plus])
        );
        let (_, errors) = read(r#"{"a": ["5-10", "11-50", "1-10 "]}"#, |o| {
            o.enums("a", &choices)
        });
        assert_eq!(errors.len(), 2);
        one(&errors[..1], "a", "INVALID_ENUM_VALUE");
        assert_eq!(errors[0]["message"], "a has an invalid value: '5-10'. Valid options are: 1-10, 11-50, 51-100, 101-250, 251-500, 501-1000, 1001-5000, 5001-10000, 10001+");
        assert_eq!(errors[0]["value"], "5-10");
        assert_eq!(errors[0]["validOptions"].as_array().unwrap().len(), 9);
    }

    #[test]
    fn a_choice_is_one_exact_spelling() {
        let choices: &Choices<u8> = &[("x", 1), ("y", 2)];
        assert_eq!(
            read(r#"{"a": "y"}"#, |o| o.choice("a", choices)),
            (Some(2), vec![])
        );
        let (_, errors) = read(r#"{"a": "Y"}"#, |o| o.choice("a", choices));
        one(&errors, "a", "INVALID_ENUM_VALUE");
        assert_eq!(errors[0]["validOptions"], json!(["x", "y"]));
        assert_eq!(
            errors[0]["message"],
            "a has an invalid value: 'Y'. Valid options are: x, y"
        );
        one(
            &read(r#"{"a": ["x"]}"#, |o| o.choice("a", choices)).1,
            "a",
            "INVALID_TYPE",
        );
    }

    #[test]
    fn financing_types_are_type_objects_with_flags() {
        let (keys, errors) = read(
            r#"{"a": [{"type": "SEED", "pre": true}, {"type": "SERIES_A", "extension": true}]}"#,
            |o| o.financing_types("a"),
        );
        assert!(errors.is_empty());
        let seed = RoundKey {
            round_type: RoundType::Seed,
            pre: true,
            extension: false,
        };
        let a_ext = RoundKey {
            round_type: RoundType::SeriesA,
            pre: false,
            extension: true,
        };
        assert_eq!(keys, Some(vec![seed, a_ext]));
    }

    #[test]
    fn a_bad_financing_type_is_one_problem_naming_it() {
        let (_, errors) = read(r#"{"a": ["series-a"]}"#, |o| o.financing_types("a"));
        one(&errors, "a", "INVALID_FINANCING_TYPE");
        assert_eq!(errors[0]["value"], "series-a");
        let message = errors[0]["message"].as_str().unwrap();
        assert!(
            message.starts_with("Invalid financing type(s): series-a. Valid options are: SERIES_A, SERIES_B, SERIES_C"),
            "{message}"
        );
        assert!(
            message.ends_with("INITIAL_COIN_OFFERING, FUNDING_ROUND"),
            "{message}"
        );
        assert_eq!(errors[0]["validOptions"].as_array().unwrap().len(), 25);
    }

    #[test]
    fn several_bad_financing_types_are_listed_together() {
        let (_, errors) = read(
            r#"{"a": [{"type": "SERIES_A"}, "SERIES_B", {"type": "Series C"}, {"pre": true}, 4]}"#,
            |o| o.financing_types("a"),
        );
        one(&errors, "a", "INVALID_FINANCING_TYPE");
        assert_eq!(
            errors[0]["value"],
            json!(r#"["SERIES_B",{"type":"Series C"},{"pre":true},4]"#)
        );
        let message = errors[0]["message"].as_str().unwrap();
        assert!(
            message.starts_with(
                r#"Invalid financing type(s): "SERIES_B" (write {"type": "SERIES_B"}), Series C, {"pre":true}, 4. Valid"#
            ),
            "{message}"
        );
    }

    #[test]
    fn financing_type_items_have_their_own_keys() {
        let (_, errors) = read(
            r#"{"a": [{"type": "SEED"}, {"type": "SEED", "pre": "yes", "stage": 1}]}"#,
            |o| o.financing_types("a"),
        );
        assert_eq!(
            codes(&errors),
            [
                ("a[1].pre".into(), "INVALID_TYPE".into()),
                ("a[1].stage".into(), "UNKNOWN_PARAMETER".into())
            ]
        );
        assert_eq!(
            errors[1]["validOptions"],
            json!(["type", "pre", "extension"])
        );
        one(
            &read(r#"{"a": []}"#, |o| o.financing_types("a")).1,
            "a",
            "EMPTY_ARRAY_PARAMETER",
        );
    }

    #[test]
    fn integers_are_whole_json_numbers_in_bounds() {
        assert_eq!(
            read(r#"{"a": 2}"#, |o| o.int_between("a", 1, 500)),
            (Some(2), vec![])
        );
        assert_eq!(
            read(r#"{"a": 2.0}"#, |o| o.int_between("a", 1, 500)),
            (Some(2), vec![])
        );
        let (_, errors) = read(r#"{"a": "2"}"#, |o| o.int_between("a", 1, 500));
        one(&errors, "a", "INVALID_TYPE");
        assert_eq!(
            errors[0]["message"],
            "a must be an integer between 1 and 500"
        );
        one(
            &read(r#"{"a": 2.5}"#, |o| o.int_between("a", 1, 500)).1,
            "a",
            "INVALID_TYPE",
        );
        one(
            &read(r#"{"a": 501}"#, |o| o.int_between("a", 1, 500)).1,
            "a",
            "OUT_OF_RANGE",
        );
        one(
            &read(r#"{"a": -3}"#, |o| o.int_between("a", 0, 500)).1,
            "a",
            "OUT_OF_RANGE",
        );
        one(
            &read(r#"{"a": 1e300}"#, |o| o.int_between("a", 0, 500)).1,
            "a",
            "OUT_OF_RANGE",
        );
        let (_, errors) = read(r#"{"a": 0}"#, |o| o.int_at_least("a", 1));
        one(&errors, "a", "OUT_OF_RANGE");
        assert_eq!(errors[0]["message"], "a must be an integer >= 1");
        one(
            &read(r#"{"a": 4294967296}"#, |o| o.int_at_least("a", 1)).1,
            "a",
            "OUT_OF_RANGE",
        );
    }

    #[test]
    fn booleans_strings_and_fractions() {
        assert_eq!(read(r#"{"a": true}"#, |o| o.bool("a")).0, Some(true));
        one(
            &read(r#"{"a": "true"}"#, |o| o.bool("a")).1,
            "a",
            "INVALID_TYPE",
        );
        assert_eq!(
            read(r#"{"a": " ai tools "}"#, |o| o.text("a")).0.as_deref(),
            Some("ai tools")
        );
        one(
            &read(r#"{"a": " "}"#, |o| o.text("a")).1,
            "a",
            "EMPTY_STRING",
        );
        one(&read(r#"{"a": 3}"#, |o| o.text("a")).1, "a", "INVALID_TYPE");
        assert_eq!(read(r#"{"a": 0.3}"#, |o| o.fraction("a")).0, Some(0.3));
        one(
            &read(r#"{"a": 1.5}"#, |o| o.fraction("a")).1,
            "a",
            "OUT_OF_RANGE",
        );
        one(
            &read(r#"{"a": "0.5"}"#, |o| o.fraction("a")).1,
            "a",
            "INVALID_TYPE",
        );
    }

    #[test]
    fn every_problem_is_reported_in_document_order() {
        let body = r#"{"inner": {"a": "x", "b": -1}, "b": [], "zz": 0, "a": 2.5}"#;
        let (_, errors) = read(body, |o| {
            let inner = o.object("inner");
            (
                o.int_between("a", 0, 9),
                o.uuids("b"),
                inner.map(|i| (i.money("b"), i.date("a"))),
            )
        });
        let expected = [
            ("inner.a", "INVALID_DATE"),
            ("inner.b", "OUT_OF_RANGE"),
            ("b", "EMPTY_ARRAY_PARAMETER"),
            ("zz", "UNKNOWN_PARAMETER"),
            ("a", "INVALID_TYPE"),
        ];
        assert_eq!(
            codes(&errors),
            expected.map(|(f, c)| (f.to_string(), c.to_string()))
        );
    }
}
