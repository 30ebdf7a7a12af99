//! Declared fields (`api::declare::field`) as JSON Schemas, query and path
//! parameters, and request bodies.

use serde_json::Value;
use utoipa::openapi::path::{Parameter, ParameterBuilder, ParameterIn};
use utoipa::openapi::request_body::{RequestBody, RequestBodyBuilder};
use utoipa::openapi::schema::{
    AdditionalProperties, ArrayBuilder, KnownFormat, ObjectBuilder, Schema, SchemaFormat,
    SchemaType, Type,
};
use utoipa::openapi::{Content, RefOr, Required};

use crate::api::declare::field::{Field, Ty, FINANCING_TYPE_KEYS, MAX_ITEMS};

/// A string with at least one non-blank character.
const NOT_BLANK: &str = r"\S";

fn string() -> ObjectBuilder {
    ObjectBuilder::new().schema_type(Type::String)
}

/// The schema of a value of type `ty`.
pub fn schema_of(ty: &Ty) -> RefOr<Schema> {
    let builder = match ty {
        Ty::Object(fields) => return object_of(fields),
        Ty::FinancingType => return object_of(FINANCING_TYPE_KEYS),
        Ty::Array(item) => {
            return ArrayBuilder::new()
                .items(schema_of(item))
                .min_items(Some(1))
                .max_items(Some(MAX_ITEMS))
                .into()
        }
        Ty::Uuid => string().format(Some(SchemaFormat::KnownFormat(KnownFormat::Uuid))),
        Ty::Text | Ty::Identifier => string().min_length(Some(1)).pattern(Some(NOT_BLANK)),
        Ty::Str => string(),
        Ty::Date => string().format(Some(SchemaFormat::KnownFormat(KnownFormat::Date))),
        Ty::DateTime => string().format(Some(SchemaFormat::KnownFormat(KnownFormat::DateTime))),
        Ty::RoundLabel => string()
            .min_length(Some(1))
            .examples([serde_json::json!("Series A"), serde_json::json!("Pre-Seed")]),
        Ty::Money => ObjectBuilder::new()
            .schema_type(Type::Number)
            .minimum(Some(0.0)),
        Ty::Fraction => ObjectBuilder::new()
            .schema_type(Type::Number)
            .minimum(Some(0.0))
            .maximum(Some(1.0)),
        Ty::Int { min, max } => ObjectBuilder::new()
            .schema_type(Type::Integer)
            .minimum(Some(*min as f64))
            .maximum(Some(*max as f64)),
        Ty::Bool => ObjectBuilder::new().schema_type(Type::Boolean),
        Ty::Enum(spellings) => string().enum_values(Some(spellings.iter().copied())),
    };
    builder.into()
}

/// Where a field is read from: `null` is the same as absent in a body,
/// an empty value the same as absent in a query string.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    Body,
    Query,
}

/// The schema of one field: its type with its description and default.
fn field_schema(field: &Field, place: Place) -> RefOr<Schema> {
    let default = field
        .default
        .and_then(|d| serde_json::from_str::<Value>(d).ok());
    let absent = match place {
        Place::Body => Value::Null,
        Place::Query => Value::String(String::new()),
    };
    match schema_of(&field.ty) {
        RefOr::T(Schema::Object(mut o)) => {
            o.description = Some(field.doc.to_string());
            o.default = default;
            if !field.required {
                if place == Place::Body {
                    o.schema_type = with_null(&o.schema_type);
                }
                if let Some(values) = o.enum_values.as_mut() {
                    values.push(absent);
                }
            }
            RefOr::T(Schema::Object(o))
        }
        RefOr::T(Schema::Array(mut a)) => {
            a.description = Some(field.doc.to_string());
            if place == Place::Body && !field.required {
                a.schema_type = with_null(&a.schema_type);
            }
            RefOr::T(Schema::Array(a))
        }
        other => other,
    }
}

/// `ty` or null.
fn with_null(ty: &SchemaType) -> SchemaType {
    match ty {
        SchemaType::Type(t) => [t.clone(), Type::Null].into_iter().collect(),
        SchemaType::Array(types) => types.iter().cloned().chain([Type::Null]).collect(),
        SchemaType::AnyValue => SchemaType::AnyValue,
    }
}

/// A JSON object allowing exactly `fields`.
pub fn object_of(fields: &[Field]) -> RefOr<Schema> {
    let mut builder = ObjectBuilder::new()
        .schema_type(Type::Object)
        .additional_properties(Some(AdditionalProperties::<Schema>::FreeForm(false)));
    for field in fields {
        builder = builder.property(field.name, field_schema(field, Place::Body));
        if field.required {
            builder = builder.required(field.name);
        }
    }
    builder.into()
}

/// A query or path parameter.
pub fn parameter(field: &Field, place: ParameterIn) -> Parameter {
    let required = field.required || place == ParameterIn::Path;
    ParameterBuilder::new()
        .name(field.name)
        .parameter_in(place)
        .required(if required {
            Required::True
        } else {
            Required::False
        })
        .description(Some(field.doc))
        .schema(Some(field_schema(field, Place::Query)))
        .build()
}

/// The JSON body allowing `fields` (optional: a blank body is `{}`).
pub fn request_body(fields: &[Field]) -> RequestBody {
    RequestBodyBuilder::new()
        .description(Some("A JSON object; a blank body is the same as `{}`."))
        .required(Some(if fields.iter().any(|f| f.required) {
            Required::True
        } else {
            Required::False
        }))
        .content("application/json", Content::new(Some(object_of(fields))))
        .build()
}
