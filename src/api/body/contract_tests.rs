//! The parsers against their declarations (`api::declare::bodies`): for
//! every declared key, at any depth, of each of the four bodies, a value
//! of the wrong type is reported on that key's dotted path, and a valid
//! value is accepted. A key declared but not read, or read with another
//! type than declared, fails here.

use serde_json::{json, Value};

use crate::api::declare::bodies;
use crate::api::declare::field::{Field, Ty};
use crate::api::errors::ApiError;

use super::{
    parse_alert_configuration, parse_companies, parse_deals, parse_investors, parse_people,
};

type Parse = fn(&[u8]) -> Result<(), ApiError>;

fn endpoints() -> [(&'static str, &'static [Field], Parse); 5] {
    [
        ("deals", bodies::DEALS, |b| parse_deals(b).map(drop)),
        ("companies", bodies::COMPANIES, |b| {
            parse_companies(b).map(drop)
        }),
        ("investors", bodies::INVESTORS, |b| {
            parse_investors(b).map(drop)
        }),
        ("people", bodies::PEOPLE, |b| parse_people(b).map(drop)),
        ("alert configuration", bodies::ALERT_CONFIGURATION, |b| {
            parse_alert_configuration(b).map(drop)
        }),
    ]
}

/// The smallest valid body: every required key with a valid value.
fn base(fields: &[Field]) -> Value {
    let required = fields
        .iter()
        .filter(|f| f.required)
        .map(|f| (f.name.to_string(), valid(&f.ty)));
    Value::Object(required.collect())
}

/// A valid value of `ty`.
fn valid(ty: &Ty) -> Value {
    match ty {
        Ty::Object(_) => json!({}),
        Ty::Array(item) => json!([valid(item)]),
        Ty::Uuid => json!("550e8400-e29b-41d4-a716-446655440000"),
        Ty::Text | Ty::Identifier | Ty::Str => json!("stripe.com"),
        Ty::Date => json!("2024-01-15"),
        Ty::DateTime => json!("2024-01-15T00:00:00.000Z"),
        Ty::RoundLabel => json!("Series A"),
        Ty::Money => json!(1000),
        Ty::Fraction => json!(0.5),
        Ty::Int { min, .. } => json!(min),
        Ty::Bool => json!(true),
        Ty::Enum(spellings) => json!(spellings[0]),
        Ty::FinancingType => json!({"type": "SEED"}),
    }
}

/// A value of the wrong type for `ty`.
fn wrong(ty: &Ty) -> Value {
    match ty {
        Ty::Object(_)
        | Ty::FinancingType
        | Ty::Array(_)
        | Ty::Bool
        | Ty::Money
        | Ty::Fraction
        | Ty::Int { .. } => json!("x"),
        _ => json!({"not": "a string"}),
    }
}

/// Every declared key at any depth, with its path and type.
fn walk(fields: &[Field], prefix: &[&'static str], out: &mut Vec<(Vec<&'static str>, Ty)>) {
    for field in fields {
        let mut path = prefix.to_vec();
        path.push(field.name);
        out.push((path.clone(), field.ty));
        if let Ty::Object(children) = field.ty {
            walk(children, &path, out);
        }
    }
}

/// `base` with `value` set at `path`.
fn body_at(base: &Value, path: &[&str], value: Value) -> Value {
    let mut body = base.clone();
    let (first, rest) = path.split_first().expect("a path");
    body[*first] = rest
        .iter()
        .rev()
        .fold(value, |inner, key| json!({ *key: inner }));
    body
}

#[test]
fn every_declared_key_is_read_with_its_declared_type() {
    for (name, fields, parse) in endpoints() {
        let mut keys = Vec::new();
        walk(fields, &[], &mut keys);
        assert!(keys.len() > 10, "{name}");
        for (path, ty) in keys {
            let dotted = path.join(".");
            let base = base(fields);
            let good = body_at(&base, &path, valid(&ty));
            assert!(
                parse(good.to_string().as_bytes()).is_ok(),
                "{name}: {good} refused"
            );
            let bad = body_at(&base, &path, wrong(&ty));
            let e =
                parse(bad.to_string().as_bytes()).expect_err(&format!("{name}: {bad} accepted"));
            let fields: Vec<&str> = e.details["errors"].as_array().map_or(Vec::new(), |items| {
                items.iter().filter_map(|i| i["field"].as_str()).collect()
            });
            assert!(
                fields.contains(&dotted.as_str()),
                "{name}: {bad} → {}",
                e.body()
            );
        }
    }
}
