//! Keeps `index_schema/` honest: its JSON Schema and README examples are
//! checked against the row types of [`super::dump`] (test-only module).
//!
//! For every row type a fully populated instance (every `Option` is `Some`,
//! every `Vec` non-empty) is serialised and walked against its `$defs` entry:
//! every key produced must be a documented property, every documented
//! property must be produced, and every value must have the documented type,
//! format, `const` and enum spelling. The instances are full struct literals
//! (never `..Default::default()`), so a new field breaks this file until it is
//! populated here, and then the walk fails until the schema documents it.
//!
//! `required` is derived from serde itself: a key is required exactly when
//! removing it from the full instance makes deserialisation fail. Enum lists
//! are compared with `options()` of the Rust enums, the version with
//! [`DUMP_FORMAT_VERSION`], and every README example (the fenced block after
//! an `<!-- example: RowType -->` marker) must deserialise into its row type,
//! pass the walk and be exactly what the writer would emit for it.

use std::collections::{BTreeMap, BTreeSet};

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};
use uuid::Uuid;

use super::dump::*;
use super::enums::*;
use super::ids::{slugify, uuid5};
use super::time::{Date, Timestamp};

const SCHEMA_TEXT: &str = include_str!("../../index_schema/dump.schema.json");
const README_TEXT: &str = include_str!("../../index_schema/README.md");

/// Which `$defs` entry describes each file of a dump.
const FILE_DEFS: [(&str, &str); 7] = [
    ("dump.json", "DumpMeta"),
    ("locations.jsonl", "LocationRow"),
    ("industries.jsonl", "IndustryRow"),
    ("companies.jsonl", "CompanyRow"),
    ("investors.jsonl", "FirmRow"),
    ("people.jsonl", "PersonRow"),
    ("deals.jsonl", "DealRow"),
];

/// One documented row type: its `$defs` name, a fully populated instance,
/// and `canonical`, which deserialises a JSON value as that type and
/// serialises it back (`None` when serde rejects the value).
struct Case {
    def: &'static str,
    full: Value,
    canonical: fn(&Value) -> Option<Value>,
}

impl Case {
    fn accepts(&self, value: &Value) -> bool {
        (self.canonical)(value).is_some()
    }

    fn full_object(&self) -> &Map<String, Value> {
        self.full
            .as_object()
            .unwrap_or_else(|| panic!("{} does not serialise to an object", self.def))
    }
}

fn canonical<T: Serialize + DeserializeOwned>(value: &Value) -> Option<Value> {
    let row: T = serde_json::from_value(value.clone()).ok()?;
    serde_json::to_value(&row).ok()
}

fn case<T: Serialize + DeserializeOwned>(def: &'static str, row: T) -> Case {
    let full =
        serde_json::to_value(&row).unwrap_or_else(|e| panic!("{def} does not serialise: {e}"));
    Case {
        def,
        full,
        canonical: canonical::<T>,
    }
}

fn cases() -> Vec<Case> {
    vec![
        case(
            "DumpMeta",
            DumpMeta::new("generate --seed 7", Some(day("2026-06-30"))),
        ),
        case("LocationRow", location()),
        case("IndustryRow", industry()),
        case("PlaceRefs", places()),
        case("CompanyRow", company()),
        case("FirmRow", firm()),
        case("EmploymentRow", employment()),
        case("EducationRow", education()),
        case("PersonRow", person()),
        case("DealFirmRow", deal_firm()),
        case("DealAngelRow", deal_angel()),
        case("FinancingRow", financing()),
        case("ValuationRow", valuation()),
        case("ArticleRow", article()),
        case("DealRow", deal()),
    ]
}

/// The Rust enums a dump uses, by `$defs` name.
fn rust_enums() -> BTreeMap<&'static str, Vec<String>> {
    BTreeMap::from([
        ("RoundType", RoundType::options()),
        ("Headcount", Headcount::options()),
        ("IpoStatus", IpoStatus::options()),
        ("LocationType", LocationType::options()),
        ("IndustryType", IndustryType::options()),
        ("PersonRole", PersonRole::options()),
        ("Intermediate", Intermediate::options()),
        ("ValuationType", ValuationType::options()),
    ])
}

fn day(text: &str) -> Date {
    Date::parse(text).unwrap_or_else(|| panic!("bad test date {text}"))
}

fn text(s: &str) -> Option<String> {
    Some(s.to_string())
}

fn location() -> LocationRow {
    LocationRow {
        permalink: "san-francisco".into(),
        name: "San Francisco".into(),
        location_type: LocationType::City,
        parent: text("california"),
    }
}

fn industry() -> IndustryRow {
    IndustryRow {
        permalink: "machine-learning".into(),
        name: "Machine Learning".into(),
        industry_type: IndustryType::Industry,
        super_categories: vec!["artificial-intelligence-e551".into()],
    }
}

fn places() -> PlaceRefs {
    PlaceRefs {
        city: text("san-francisco"),
        state: text("california"),
        region: text("san-francisco-bay-area"),
        country: text("united-states"),
    }
}

fn company() -> CompanyRow {
    CompanyRow {
        id: uuid5("company", "acme-robotics"),
        name: "Acme Robotics".into(),
        permalink: "acme-robotics".into(),
        legal_name: text("Acme Robotics, Inc."),
        domain: text("acmerobotics.com"),
        short_description: text("Warehouse picking robots"),
        long_description: text("Acme builds robots that pick warehouse orders."),
        num_employees: Some(Headcount::H11To50),
        ipo_status: Some(IpoStatus::Private),
        founded_on: Some(day("2019-03-01")),
        linkedin: text("https://www.linkedin.com/company/acme-robotics"),
        twitter: text("https://x.com/acmerobotics"),
        facebook: text("https://www.facebook.com/acmerobotics"),
        pitchbook: text("https://pitchbook.com/profiles/company/123456-78"),
        crunchbase: text("https://www.crunchbase.com/organization/acme-robotics"),
        address: text("1 Market St, San Francisco, CA"),
        industries: vec!["machine-learning".into()],
        location: places(),
    }
}

fn firm() -> FirmRow {
    FirmRow {
        id: uuid5("firm", "northwind-ventures"),
        name: "Northwind Ventures".into(),
        permalink: "northwind-ventures".into(),
        legal_name: text("Northwind Ventures LLC"),
        description: text("Seed-stage fund"),
        domain: text("northwind.vc"),
        website: text("https://northwind.vc"),
        linkedin: text("https://www.linkedin.com/company/northwind-ventures"),
        pitchbook: text("https://pitchbook.com/profiles/investor/98765-43"),
        crunchbase: text("https://www.crunchbase.com/organization/northwind-ventures"),
        image: text("https://northwind.vc/logo.png"),
        num_employees: Some(Headcount::H1To10),
        investment_stage: text("Seed, Series A"),
        contact_email: text("hello@northwind.vc"),
        contact_phone: text("+1 415 555 0100"),
        location: places(),
    }
}

fn employment() -> EmploymentRow {
    EmploymentRow {
        title: text("Partner"),
        company_id: Some(uuid5("firm", "northwind-ventures")),
        company_name: text("Northwind Ventures"),
        company_url: text("https://northwind.vc"),
        linkedin_company_id: text("northwind-ventures"),
        location: text("San Francisco, CA"),
        description: text("Seed investments in robotics"),
        start_date: Some(day("2018-01-01")),
        end_date: Some(day("2026-01-01")),
        is_current: true,
    }
}

fn education() -> EducationRow {
    EducationRow {
        school_name: text("Stanford University"),
        school_id: text("stanford-university"),
        school_url: text("https://www.stanford.edu"),
        degree: text("MS"),
        field_of_study: text("Computer Science"),
        start_date: text("2008"),
        end_date: text("2010"),
        description: text("Robotics lab"),
    }
}

fn person() -> PersonRow {
    PersonRow {
        id: uuid5("person", "jane-park"),
        name: "Jane Park".into(),
        title: text("Partner"),
        linkedin_url: text("https://www.linkedin.com/in/janepark"),
        crunchbase_url: text("https://www.crunchbase.com/person/jane-park"),
        twitter_url: text("https://x.com/janepark"),
        location: text("San Francisco, CA"),
        city: text("San Francisco"),
        country_code: text("US"),
        about: text("Investor in robotics"),
        roles: vec![PersonRole::KeyPerson],
        email: text("jane@northwind.vc"),
        phone: text("+1 415 555 0101"),
        employment: vec![employment()],
        education: vec![education()],
    }
}

fn deal_firm() -> DealFirmRow {
    DealFirmRow {
        firm_id: uuid5("firm", "northwind-ventures"),
        lead: true,
        partner_ids: vec![uuid5("person", "jane-park")],
        financing_type: Some(RoundType::Seed),
    }
}

fn deal_angel() -> DealAngelRow {
    DealAngelRow {
        person_id: uuid5("person", "ada-quinn"),
        financing_type: Some(RoundType::Safe),
    }
}

fn financing() -> FinancingRow {
    FinancingRow {
        id: uuid5("financing", "acme-robotics/2024-01-15/SEED/0"),
        financing_type: RoundType::Seed,
        size_usd: Some(4_000_000.0),
        size_native: Some(3_700_000.0),
        currency: text("eur"),
    }
}

fn valuation() -> ValuationRow {
    ValuationRow {
        valuation_type: ValuationType::PostMoney,
        currency: text("USD"),
        usd: Some(20_000_000.0),
        native: Some(20_000_000.0),
    }
}

fn article() -> ArticleRow {
    ArticleRow {
        link: text("https://example.com/acme-seed"),
        date: Some(day("2024-01-15")),
        is_primary: true,
    }
}

fn deal() -> DealRow {
    DealRow {
        id: uuid5("deal", "acme-robotics/2024-01-15/SEED"),
        company_id: uuid5("company", "acme-robotics"),
        round_type: RoundType::Seed,
        pre: true,
        extension: true,
        intermediate: Some(Intermediate::Two),
        date: Some(day("2024-01-15")),
        created_at: Timestamp::parse("2024-01-16T12:30:00Z"),
        total_round_raised: Some(4_000_000.0),
        short_description: text("Seed round"),
        long_description: text("Acme raised a seed round led by Northwind."),
        investors: vec![deal_firm()],
        angels: vec![deal_angel()],
        financings: vec![financing()],
        valuation: Some(valuation()),
        articles: vec![article()],
    }
}

fn schema() -> Value {
    serde_json::from_str(SCHEMA_TEXT)
        .unwrap_or_else(|e| panic!("dump.schema.json is not JSON: {e}"))
}

fn def<'a>(schema: &'a Value, name: &str) -> &'a Value {
    schema
        .pointer(&format!("/$defs/{name}"))
        .unwrap_or_else(|| panic!("dump.schema.json has no $defs/{name}"))
}

fn string_set(list: Option<&Value>) -> BTreeSet<String> {
    let items = list
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    items
        .iter()
        .filter_map(Value::as_str)
        .map(str::to_string)
        .collect()
}

/// Walks a JSON value against a schema node, collecting every mismatch.
/// With `full`, documented properties must all be present and arrays non-empty.
struct Walk<'a> {
    root: &'a Value,
    full: bool,
    errors: Vec<String>,
}

impl<'a> Walk<'a> {
    fn run(root: &'a Value, full: bool, value: &Value, schema: &Value, path: &str) -> Vec<String> {
        let mut walk = Walk {
            root,
            full,
            errors: Vec::new(),
        };
        walk.check(value, schema, path);
        walk.errors
    }

    fn fail(&mut self, path: &str, message: String) {
        self.errors.push(format!("{path}: {message}"));
    }

    fn check(&mut self, value: &Value, schema: &Value, path: &str) {
        if let Some(target) = schema.get("$ref").and_then(Value::as_str) {
            match target
                .strip_prefix("#/$defs/")
                .and_then(|name| self.root.pointer(&format!("/$defs/{name}")))
            {
                Some(resolved) => self.check(value, resolved, path),
                None => self.fail(path, format!("unresolvable $ref {target}")),
            }
        }
        self.check_type(value, schema, path);
        self.check_values(value, schema, path);
        self.check_any_of(value, schema, path);
        match value {
            Value::Object(object) => self.check_object(object, schema, path),
            Value::Array(items) => self.check_array(items, schema, path),
            _ => {}
        }
    }

    fn check_type(&mut self, value: &Value, schema: &Value, path: &str) {
        let Some(expected) = schema.get("type").and_then(Value::as_str) else {
            return;
        };
        let ok = match expected {
            "object" => value.is_object(),
            "array" => value.is_array(),
            "string" => value.is_string(),
            "boolean" => value.is_boolean(),
            "number" => value.is_number(),
            "integer" => value.is_i64() || value.is_u64(),
            _ => false,
        };
        if !ok {
            self.fail(path, format!("{value} is not of type {expected}"));
        }
    }

    fn check_values(&mut self, value: &Value, schema: &Value, path: &str) {
        if let Some(options) = schema.get("enum").and_then(Value::as_array) {
            if !options.contains(value) {
                self.fail(path, format!("{value} is not in the documented enum"));
            }
        }
        if let Some(constant) = schema.get("const") {
            if constant != value {
                self.fail(
                    path,
                    format!("{value} differs from the documented const {constant}"),
                );
            }
        }
        if let (Some(format), Some(text)) =
            (schema.get("format").and_then(Value::as_str), value.as_str())
        {
            if !format_holds(format, text) {
                self.fail(path, format!("'{text}' is not a valid {format}"));
            }
        }
        self.check_bounds(value, schema, path);
    }

    fn check_bounds(&mut self, value: &Value, schema: &Value, path: &str) {
        if let (Some(minimum), Some(number)) = (
            schema.get("minimum").and_then(Value::as_f64),
            value.as_f64(),
        ) {
            if number < minimum {
                self.fail(
                    path,
                    format!("{number} is below the documented minimum {minimum}"),
                );
            }
        }
        if let (Some(min), Some(text)) = (
            schema.get("minLength").and_then(Value::as_u64),
            value.as_str(),
        ) {
            if (text.chars().count() as u64) < min {
                self.fail(
                    path,
                    format!("'{text}' is shorter than the documented minLength {min}"),
                );
            }
        }
    }

    fn check_any_of(&mut self, value: &Value, schema: &Value, path: &str) {
        let Some(options) = schema.get("anyOf").and_then(Value::as_array) else {
            return;
        };
        let full = self.full;
        if !options
            .iter()
            .any(|option| Walk::run(self.root, full, value, option, path).is_empty())
        {
            self.fail(path, format!("{value} matches none of anyOf"));
        }
    }

    fn check_object(&mut self, object: &Map<String, Value>, schema: &Value, path: &str) {
        let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
            return;
        };
        for (key, value) in object {
            match properties.get(key) {
                Some(property) => self.check(value, property, &format!("{path}.{key}")),
                None => self.fail(path, format!("key '{key}' is not a documented property")),
            }
        }
        let required = string_set(schema.get("required"));
        for key in properties.keys().filter(|k| !object.contains_key(*k)) {
            if self.full {
                self.fail(
                    path,
                    format!("documented property '{key}' is not produced by the full instance"),
                );
            } else if required.contains(key) {
                self.fail(path, format!("required property '{key}' is missing"));
            }
        }
    }

    fn check_array(&mut self, items: &[Value], schema: &Value, path: &str) {
        if self.full && items.is_empty() {
            self.fail(path, "empty array in a full instance".into());
        }
        if let Some(item_schema) = schema.get("items") {
            for (i, item) in items.iter().enumerate() {
                self.check(item, item_schema, &format!("{path}[{i}]"));
            }
        }
    }
}

/// The canonical text forms the writer produces for each documented format.
fn format_holds(format: &str, text: &str) -> bool {
    match format {
        "uuid" => Uuid::parse_str(text).is_ok_and(|id| id.hyphenated().to_string() == text),
        "date" => Date::parse(text).is_some(),
        "date-time" => chrono::DateTime::parse_from_rfc3339(text).is_ok(),
        _ => false,
    }
}

/// Keys whose removal from the full instance makes serde reject it.
fn serde_required(case: &Case) -> BTreeSet<String> {
    let object = case.full_object();
    let without = |key: &str| {
        let mut rest = object.clone();
        rest.remove(key);
        Value::Object(rest)
    };
    object
        .keys()
        .filter(|key| !case.accepts(&without(key)))
        .cloned()
        .collect()
}

/// The full instance cut down to `keys`.
fn minimal(case: &Case, keys: &BTreeSet<String>) -> Value {
    Value::Object(
        case.full_object()
            .iter()
            .filter(|(k, _)| keys.contains(*k))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
    )
}

fn assert_no_errors(what: &str, errors: &[String]) {
    assert!(
        errors.is_empty(),
        "{what} disagrees with index_schema/dump.schema.json:\n{}",
        errors.join("\n")
    );
}

#[test]
fn full_instances_produce_exactly_the_documented_properties() {
    let schema = schema();
    for case in cases() {
        let errors = Walk::run(&schema, true, &case.full, def(&schema, case.def), case.def);
        assert_no_errors(case.def, &errors);
        assert_eq!(
            (case.canonical)(&case.full).as_ref(),
            Some(&case.full),
            "{} does not round-trip",
            case.def
        );
    }
}

#[test]
fn required_lists_match_the_keys_without_serde_defaults() {
    let schema = schema();
    for case in cases() {
        let required = serde_required(&case);
        assert_eq!(
            string_set(def(&schema, case.def).get("required")),
            required,
            "required of {}",
            case.def
        );
        assert!(
            case.accepts(&minimal(&case, &required)),
            "{} rejects its required keys alone",
            case.def
        );
    }
}

#[test]
fn documented_defaults_are_what_serde_fills_in() {
    let schema = schema();
    for case in cases() {
        let properties = def(&schema, case.def)["properties"]
            .as_object()
            .cloned()
            .unwrap_or_default();
        let filled = (case.canonical)(&minimal(&case, &serde_required(&case))).unwrap_or_default();
        for (key, property) in &properties {
            if let Some(default) = property.get("default") {
                let got = filled.get(key).unwrap_or(default);
                assert_eq!(
                    got, default,
                    "{}.{key}: serde fills in {got}, the schema says {default}",
                    case.def
                );
            }
        }
    }
}

#[test]
fn null_is_accepted_exactly_for_optional_keys_without_default() {
    let schema = schema();
    for case in cases() {
        let node = def(&schema, case.def);
        let required = string_set(node.get("required"));
        for (key, property) in node["properties"].as_object().cloned().unwrap_or_default() {
            let mut nulled = case.full_object().clone();
            nulled.insert(key.clone(), Value::Null);
            let expected = !required.contains(&key) && property.get("default").is_none();
            assert_eq!(
                case.accepts(&Value::Object(nulled)),
                expected,
                "{}.{key}: null accepted?",
                case.def
            );
        }
    }
}

#[test]
fn rows_reject_unknown_keys_as_documented() {
    let schema = schema();
    for case in cases() {
        assert_eq!(
            def(&schema, case.def)["additionalProperties"],
            Value::Bool(false),
            "{}",
            case.def
        );
        let mut extra = case.full_object().clone();
        extra.insert("misspelt_field".into(), Value::Bool(true));
        assert!(
            !case.accepts(&Value::Object(extra)),
            "{} accepts an unknown key",
            case.def
        );
    }
}

#[test]
fn enum_lists_match_the_rust_enums() {
    let schema = schema();
    let enums = rust_enums();
    for (name, options) in &enums {
        assert_eq!(
            string_list(&def(&schema, name)["enum"]),
            *options,
            "enum {name}"
        );
    }
    let mut found = Vec::new();
    collect_enum_paths(&schema, "", &mut found);
    let expected: Vec<String> = enums.keys().map(|name| format!("/$defs/{name}")).collect();
    found.sort();
    assert_eq!(
        found, expected,
        "enum lists must live in the $defs named after their Rust enum"
    );
}

fn string_list(list: &Value) -> Vec<String> {
    list.as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .filter_map(Value::as_str)
        .map(str::to_string)
        .collect()
}

fn collect_enum_paths(node: &Value, path: &str, found: &mut Vec<String>) {
    match node {
        Value::Object(object) => {
            if object.contains_key("enum") {
                found.push(path.to_string());
            }
            for (key, child) in object {
                collect_enum_paths(child, &format!("{path}/{key}"), found);
            }
        }
        Value::Array(items) => items
            .iter()
            .for_each(|item| collect_enum_paths(item, path, found)),
        _ => {}
    }
}

#[test]
fn defs_cover_every_row_type_and_enum_and_nothing_else() {
    let schema = schema();
    let defs: BTreeSet<&str> = schema["$defs"]
        .as_object()
        .map(|d| d.keys().map(String::as_str).collect())
        .unwrap_or_default();
    let mut expected: BTreeSet<&str> = cases().iter().map(|c| c.def).collect();
    expected.extend(rust_enums().keys());
    assert_eq!(defs, expected);
}

#[test]
fn version_and_files_match_the_code() {
    let schema = schema();
    assert_eq!(schema["x-format-version"], Value::from(DUMP_FORMAT_VERSION));
    let meta = def(&schema, "DumpMeta");
    assert_eq!(
        meta.pointer("/properties/version/const"),
        Some(&Value::from(DUMP_FORMAT_VERSION))
    );
    let format = DumpMeta::new("test", None).format;
    assert_eq!(
        meta.pointer("/properties/format/const"),
        Some(&Value::from(format))
    );
    assert_eq!(
        string_list(&schema["x-read-order"]),
        DUMP_FILES.map(str::to_string).to_vec()
    );
    let files: BTreeMap<String, String> =
        serde_json::from_value(schema["x-files"].clone()).unwrap_or_default();
    let expected: BTreeMap<String, String> = FILE_DEFS
        .iter()
        .map(|(f, d)| (f.to_string(), d.to_string()))
        .collect();
    assert_eq!(files, expected);
    assert!(DUMP_FILES.iter().all(|f| files.contains_key(*f)));
}

/// The README's examples: `(row type, value)` for every value of every
/// fenced block that follows an `<!-- example: RowType -->` marker.
fn readme_examples() -> Vec<(String, Value)> {
    let mut examples = Vec::new();
    for chunk in README_TEXT.split("<!-- example: ").skip(1) {
        let (name, rest) = chunk
            .split_once(" -->")
            .unwrap_or_else(|| panic!("unterminated example marker"));
        let block = rest
            .split("```")
            .nth(1)
            .unwrap_or_else(|| panic!("example {name} has no fenced block"));
        let body = block.split_once('\n').map_or(block, |(_, body)| body);
        for value in serde_json::Deserializer::from_str(body).into_iter::<Value>() {
            let value = value.unwrap_or_else(|e| panic!("example {name} is not JSON: {e}"));
            examples.push((name.to_string(), value));
        }
    }
    examples
}

#[test]
fn readme_examples_are_valid_canonical_rows() {
    let schema = schema();
    let cases = cases();
    let examples = readme_examples();
    for (file, name) in FILE_DEFS {
        assert!(
            examples.iter().any(|(n, _)| n == name),
            "README has no example for {file} ({name})"
        );
    }
    for (name, value) in &examples {
        let case = cases
            .iter()
            .find(|c| c.def == name)
            .unwrap_or_else(|| panic!("example of unknown type {name}"));
        assert_no_errors(
            &format!("README example {name} {value}"),
            &Walk::run(&schema, false, value, def(&schema, name), name),
        );
        let written = (case.canonical)(value);
        assert_eq!(
            written.as_ref(),
            Some(value),
            "README example {name} is not what the writer emits"
        );
    }
}

#[test]
fn readme_example_ids_are_uuid5_of_their_keys() {
    for (name, value) in readme_examples() {
        let field = |key: &str| value[key].as_str().unwrap_or_default().to_string();
        let expected = match name.as_str() {
            "CompanyRow" => uuid5("company", &field("permalink")),
            "FirmRow" => uuid5("firm", &field("permalink")),
            "PersonRow" => uuid5("person", &slugify(&field("name"))),
            _ => continue,
        };
        assert_eq!(
            field("id"),
            expected.to_string(),
            "README example {name} {value}"
        );
    }
}

#[test]
fn the_walk_reports_each_kind_of_mismatch() {
    let schema = schema();
    let mut row = serde_json::to_value(location()).unwrap_or_default();
    row["population"] = Value::from(800_000);
    row.as_object_mut().map(|o| o.remove("parent"));
    let errors = Walk::run(
        &schema,
        true,
        &row,
        def(&schema, "LocationRow"),
        "LocationRow",
    );
    assert!(
        errors
            .iter()
            .any(|e| e.contains("'population' is not a documented property")),
        "{errors:?}"
    );
    assert!(
        errors
            .iter()
            .any(|e| e.contains("'parent' is not produced")),
        "{errors:?}"
    );
    row["type"] = Value::from("TOWN");
    let errors = Walk::run(
        &schema,
        false,
        &row,
        def(&schema, "LocationRow"),
        "LocationRow",
    );
    assert!(
        errors
            .iter()
            .any(|e| e.contains("not in the documented enum")),
        "{errors:?}"
    );
    let mut deal = serde_json::to_value(deal()).unwrap_or_default();
    deal["total_round_raised"] = Value::from(-1.0);
    deal["created_at"] = Value::from("yesterday");
    let errors = Walk::run(&schema, false, &deal, def(&schema, "DealRow"), "DealRow");
    assert!(
        errors
            .iter()
            .any(|e| e.contains("below the documented minimum")),
        "{errors:?}"
    );
    assert!(
        errors.iter().any(|e| e.contains("matches none of anyOf")),
        "{errors:?}"
    );
}
