//! Response bodies: the record schemas (derived from the `schema::record`
//! types themselves), the success envelope with `data` and `meta` as each
//! endpoint declares them, and the error envelope per status with the codes
//! the endpoint may answer with.

use std::collections::BTreeMap;

use utoipa::openapi::schema::{
    AllOfBuilder, ArrayBuilder, ObjectBuilder, Ref, Schema, SchemaType, Type,
};
use utoipa::openapi::{Content, RefOr, ResponseBuilder, Responses, ResponsesBuilder};
use utoipa::ToSchema;

use crate::api::declare::codes::Code;
use crate::api::declare::endpoint::{Endpoint, Extra, Input, MetaShape, Output, Record};
use crate::schema::alert::{Alert, AlertConfiguration};
use crate::schema::record::*;

/// Every record schema with the schemas it refers to, by name.
pub fn record_schemas() -> Vec<(String, RefOr<Schema>)> {
    let mut all = Vec::new();
    fn add<T: ToSchema>(all: &mut Vec<(String, RefOr<Schema>)>) {
        all.push((T::name().into_owned(), T::schema()));
        T::schemas(all);
    }
    add::<DealRecord>(&mut all);
    add::<CompanyRecord>(&mut all);
    add::<InvestorRecord>(&mut all);
    add::<PersonRecord>(&mut all);
    add::<CompanyCard>(&mut all);
    add::<FirmCard>(&mut all);
    add::<PersonCard>(&mut all);
    add::<LocationCard>(&mut all);
    add::<IndustryCard>(&mut all);
    add::<DealInvestor>(&mut all);
    add::<AngelInvestor>(&mut all);
    add::<PersonEmail>(&mut all);
    add::<Alert>(&mut all);
    add::<AlertConfiguration>(&mut all);
    all.sort_by(|a, b| a.0.cmp(&b.0));
    all.dedup_by(|a, b| a.0 == b.0);
    all
}

fn record_name(record: Record) -> String {
    let name = match record {
        Record::Deal => DealRecord::name(),
        Record::Company => CompanyRecord::name(),
        Record::Investor => InvestorRecord::name(),
        Record::Person => PersonRecord::name(),
        Record::CompanyCard => CompanyCard::name(),
        Record::FirmCard => FirmCard::name(),
        Record::PersonCard => PersonCard::name(),
        Record::LocationCard => LocationCard::name(),
        Record::IndustryCard => IndustryCard::name(),
        Record::PersonEmail => PersonEmail::name(),
        Record::Alert => Alert::name(),
        Record::AlertConfiguration => AlertConfiguration::name(),
    };
    name.into_owned()
}

fn nullable(ty: Type, description: &str) -> RefOr<Schema> {
    ObjectBuilder::new()
        .schema_type([ty, Type::Null].into_iter().collect::<SchemaType>())
        .description(Some(description))
        .into()
}

fn extra_schema(extra: &Extra) -> (&'static str, RefOr<Schema>) {
    match *extra {
        Extra::Number(name, doc) => (name, nullable(Type::Number, doc)),
        Extra::Count(name, doc) => (name, nullable(Type::Integer, doc)),
        Extra::DateTime(name, doc) => (name, nullable(Type::String, doc)),
    }
}

/// A stored record with the keys the endpoint appends.
fn row(record: Record, extras: &[Extra]) -> RefOr<Schema> {
    let base = RefOr::Ref(Ref::from_schema_name(record_name(record)));
    if extras.is_empty() {
        return base;
    }
    let mut appended = ObjectBuilder::new().schema_type(Type::Object);
    for extra in extras {
        let (name, schema) = extra_schema(extra);
        appended = appended.property(name, schema).required(name);
    }
    AllOfBuilder::new().item(base).item(appended).into()
}

fn list_of(item: RefOr<Schema>) -> RefOr<Schema> {
    ArrayBuilder::new().items(item).into()
}

/// The `data` object.
fn data_schema(output: &Output) -> RefOr<Schema> {
    let (members, list): (Vec<(&str, RefOr<Schema>)>, bool) = match output {
        Output::Inline(record) => return row(*record, &[]),
        Output::One(name, record, extras) => (vec![(name, row(*record, extras))], false),
        Output::List(name, record, extras) => (vec![(name, row(*record, extras))], true),
        Output::Lineup => (
            vec![
                (
                    "investors",
                    RefOr::Ref(Ref::from_schema_name(DealInvestor::name())),
                ),
                (
                    "angel_investors",
                    RefOr::Ref(Ref::from_schema_name(AngelInvestor::name())),
                ),
            ],
            true,
        ),
    };
    let mut data = ObjectBuilder::new().schema_type(Type::Object);
    for (name, schema) in members {
        let schema = if list { list_of(schema) } else { schema };
        data = data.property(name, schema).required(name);
    }
    data.into()
}

fn integer(description: &str) -> RefOr<Schema> {
    ObjectBuilder::new()
        .schema_type(Type::Integer)
        .minimum(Some(0.0))
        .description(Some(description))
        .into()
}

/// The `meta` object of `shape`.
fn meta_schema(shape: MetaShape) -> RefOr<Schema> {
    let mut meta = ObjectBuilder::new().schema_type(Type::Object);
    let mut required: Vec<(&str, RefOr<Schema>)> = Vec::new();
    match shape {
        MetaShape::CountOnly => required.push(("total_count", integer("Rows returned."))),
        MetaShape::Detail | MetaShape::Batch => {}
        MetaShape::Paged | MetaShape::List => {
            required.push(("total_count", integer("Total matches.")));
        }
    }
    if shape != MetaShape::CountOnly {
        required.push(("page", integer("0-based page (0 on detail endpoints).")));
        required.push(("page_size", integer("Page size (1 on detail endpoints).")));
        required.push(("credits_used", integer("Credits this call consumed.")));
    }
    for (name, schema) in required {
        meta = meta.property(name, schema).required(name);
    }
    if matches!(shape, MetaShape::List | MetaShape::Detail) {
        meta = meta
            .property(
                "credit_source",
                ObjectBuilder::new()
                    .schema_type(
                        [Type::String, Type::Null]
                            .into_iter()
                            .collect::<SchemaType>(),
                    )
                    .enum_values(Some([
                        serde_json::json!("monthly"),
                        serde_json::json!("purchased"),
                        serde_json::Value::Null,
                    ]))
                    .description(Some("Which balance paid; absent for API-plan keys.")),
            )
            .property(
                "monthly_credits_remaining",
                integer("Absent for API-plan keys."),
            )
            .property(
                "purchased_credits_remaining",
                integer("Absent for API-plan keys."),
            );
    }
    meta.into()
}

/// The success envelope of `endpoint`.
fn success_schema(endpoint: &Endpoint) -> RefOr<Schema> {
    ObjectBuilder::new()
        .schema_type(Type::Object)
        .property(
            "success",
            ObjectBuilder::new()
                .schema_type(Type::Boolean)
                .enum_values(Some([true])),
        )
        .required("success")
        .property("data", data_schema(&endpoint.output))
        .required("data")
        .property("meta", meta_schema(endpoint.meta))
        .required("meta")
        .property(
            "message",
            ObjectBuilder::new()
                .schema_type(Type::String)
                .description(Some("Present on some empty results.")),
        )
        .into()
}

/// The error envelope for `codes` (all of one status).
fn error_schema(codes: &[Code]) -> RefOr<Schema> {
    let code = ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(codes.iter().map(|c| c.as_str())));
    let error = ObjectBuilder::new()
        .schema_type(Type::Object)
        .property("code", code)
        .required("code")
        .property("message", ObjectBuilder::new().schema_type(Type::String))
        .required("message")
        .property(
            "details",
            ObjectBuilder::new()
                .schema_type(SchemaType::AnyValue)
                .description(Some("What went wrong and how to fix it; ValidationError lists every problem in `errors[]` ({field, value, message, code, validOptions}).")),
        );
    ObjectBuilder::new()
        .schema_type(Type::Object)
        .property(
            "success",
            ObjectBuilder::new()
                .schema_type(Type::Boolean)
                .enum_values(Some([false])),
        )
        .required("success")
        .property("error", error)
        .required("error")
        .property(
            "statusCode",
            ObjectBuilder::new().schema_type(Type::Integer),
        )
        .into()
}

fn json_response(description: String, schema: RefOr<Schema>) -> utoipa::openapi::Response {
    ResponseBuilder::new()
        .description(description)
        .content("application/json", Content::new(Some(schema)))
        .build()
}

/// Every response of `endpoint`: 200, and one per error status listing its codes.
pub fn responses(endpoint: &Endpoint) -> Responses {
    let mut by_status: BTreeMap<u16, Vec<Code>> = BTreeMap::new();
    for code in endpoint.all_errors() {
        by_status.entry(code.status()).or_default().push(code);
    }
    if is_body(endpoint) && endpoint.errors.contains(&Code::ValidationError) {
        by_status
            .entry(422)
            .or_default()
            .push(Code::ValidationError);
    }
    let mut builder = ResponsesBuilder::new().response(
        "200",
        json_response("Success".into(), success_schema(endpoint)),
    );
    for (status, codes) in by_status {
        let names: Vec<&str> = codes.iter().map(|c| c.as_str()).collect();
        builder = builder.response(
            status.to_string(),
            json_response(names.join(", "), error_schema(&codes)),
        );
    }
    builder.build()
}

/// Whether the endpoint takes a body: its `VALIDATION_ERROR` answers 422
/// as well as 400 (422 when an item is a 422 one).
fn is_body(endpoint: &Endpoint) -> bool {
    matches!(endpoint.input, Input::Body(_))
}

/// The 200 of a public, key-less operation.
pub fn plain_ok(description: &str, schema: RefOr<Schema>) -> Responses {
    ResponsesBuilder::new()
        .response("200", json_response(description.into(), schema))
        .build()
}
