//! The OpenAPI 3.1 document of the API, served at `GET /openapi.json` and
//! `GET /v1/openapi.json` without a key (spec §9). Everything in it is
//! generated: operations, parameters, bodies, prices and error codes from
//! the declarations (`api::declare`), record shapes from the record types
//! (`schema::record`, through `utoipa::ToSchema`). It is built once, on
//! first request, and served as bytes after that.

mod inputs;
mod responses;

use std::sync::OnceLock;

use serde_json::json;
use utoipa::openapi::extensions::ExtensionsBuilder;
use utoipa::openapi::path::{HttpMethod, Operation, OperationBuilder, ParameterIn, PathItem};
use utoipa::openapi::schema::{ObjectBuilder, Type};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityRequirement, SecurityScheme};
use utoipa::openapi::{ComponentsBuilder, InfoBuilder, OpenApi, OpenApiBuilder, PathsBuilder};

use crate::api::declare::endpoint::{Endpoint, Gating, Input};
use crate::api::declare::endpoints::ALL;

/// Where the document is served.
pub const PATHS: &[&str] = &["/openapi.json", "/v1/openapi.json"];

/// The security scheme's name.
const BEARER: &str = "bearerAuth";

/// The document, serialised once.
pub fn document_bytes() -> Vec<u8> {
    static BYTES: OnceLock<Vec<u8>> = OnceLock::new();
    BYTES
        .get_or_init(|| serde_json::to_vec(&document()).unwrap_or_default())
        .clone()
}

/// The whole document.
pub fn document() -> OpenApi {
    let mut paths = PathsBuilder::new();
    for endpoint in ALL {
        paths = paths.path(
            endpoint.path,
            PathItem::new(method(endpoint), operation(endpoint)),
        );
    }
    paths = paths
        .path("/health", PathItem::new(HttpMethod::Get, health()))
        .path(
            "/openapi.json",
            PathItem::new(HttpMethod::Get, self_document()),
        );
    let mut components = ComponentsBuilder::new().security_scheme(
        BEARER,
        SecurityScheme::Http(
            HttpBuilder::new()
                .scheme(HttpAuthScheme::Bearer)
                .bearer_format("API Key")
                .description(Some("`Authorization: Bearer vg_<12 hex>_<32 base64url>`; keys are created with `server keys create`."))
                .build(),
        ),
    );
    for (name, schema) in responses::record_schemas() {
        components = components.schema(name, schema);
    }
    OpenApiBuilder::new()
        .info(
            InfoBuilder::new()
                .title("fundsearch: funding-data search API")
                .version("1.0.0")
                .description(Some(DESCRIPTION))
                .build(),
        )
        .paths(paths.build())
        .components(Some(components.build()))
        .build()
}

const DESCRIPTION: &str = "Deals, companies, investor firms and people, searched from a self-hosted index. \
Every operation but `/health` and `/openapi.json` needs `Authorization: Bearer <key>`. \
Successful answers are `{success: true, data, meta}`; errors are `{success: false, error: {code, message, details}}` \
with the status and codes listed per operation. 200 requests per minute per key (429 with Retry-After).";

fn method(endpoint: &Endpoint) -> HttpMethod {
    match endpoint.method {
        "POST" => HttpMethod::Post,
        "DELETE" => HttpMethod::Delete,
        _ => HttpMethod::Get,
    }
}

fn operation(endpoint: &Endpoint) -> Operation {
    let mut description = format!("{}\n\nCost: {}", endpoint.description, endpoint.cost_text());
    if let Gating::Plans { code, .. } = endpoint.gating {
        let plans = endpoint.gating.plans_text();
        description.push_str(&format!(
            "\n\nPlans: {plans}; other plans get 403 `{code}`."
        ));
    }
    if endpoint.extension {
        description.push_str("\n\nAn extension of this server: not in the hosted API.");
    }
    let mut op = OperationBuilder::new()
        .operation_id(Some(endpoint.id))
        .summary(Some(endpoint.summary))
        .description(Some(description.trim_start().to_string()))
        .tag(endpoint.tag)
        .security(SecurityRequirement::new(BEARER, Vec::<String>::new()))
        .responses(responses::responses(endpoint))
        .extensions(Some(
            ExtensionsBuilder::new()
                .add("x-credit-cost", json!(endpoint.cost_text()))
                .add("x-extension", json!(endpoint.extension))
                .add("x-plans", json!(plans_of(&endpoint.gating)))
                .build(),
        ));
    for field in endpoint.path_params {
        op = op.parameter(inputs::parameter(field, ParameterIn::Path));
    }
    match endpoint.input {
        Input::Query(fields, _) => {
            for field in fields {
                op = op.parameter(inputs::parameter(field, ParameterIn::Query));
            }
        }
        Input::Body(fields) => op = op.request_body(Some(inputs::request_body(fields))),
    }
    op.build()
}

/// The plans that may call an endpoint (`x-plans`).
fn plans_of(gating: &Gating) -> Vec<&'static str> {
    crate::accounts::Plan::ALL
        .into_iter()
        .filter(|p| gating.allows(*p))
        .map(|p| p.as_str())
        .collect()
}

fn health() -> Operation {
    let index = ObjectBuilder::new()
        .schema_type(Type::Object)
        .property("as_of", ObjectBuilder::new().schema_type(Type::String))
        .property("built_at", ObjectBuilder::new().schema_type(Type::String))
        .property("companies", ObjectBuilder::new().schema_type(Type::Integer))
        .property("deals", ObjectBuilder::new().schema_type(Type::Integer))
        .property("investors", ObjectBuilder::new().schema_type(Type::Integer))
        .property("people", ObjectBuilder::new().schema_type(Type::Integer));
    let generation = ObjectBuilder::new()
        .schema_type(Type::Object)
        .description(Some("The index generation being served: 1 at start, +1 per swap (SIGHUP, `server reload`, `--watch`)"))
        .property("number", ObjectBuilder::new().schema_type(Type::Integer))
        .property("dir", ObjectBuilder::new().schema_type(Type::String))
        .property("serving_since", ObjectBuilder::new().schema_type(Type::String));
    let body = ObjectBuilder::new()
        .schema_type(Type::Object)
        .property(
            "status",
            ObjectBuilder::new()
                .schema_type(Type::String)
                .enum_values(Some(["ok"])),
        )
        .required("status")
        .property("index", index)
        .required("index")
        .property("generation", generation)
        .required("generation");
    OperationBuilder::new()
        .operation_id(Some("health"))
        .summary(Some("Readiness and the index's counts"))
        .description(Some(
            "No key, no credits. An extension of this server: not in the hosted API.",
        ))
        .tag("Operations")
        .responses(responses::plain_ok("Ready", body.into()))
        .build()
}

fn self_document() -> Operation {
    OperationBuilder::new()
        .operation_id(Some("openapi"))
        .summary(Some("This document"))
        .description(Some("No key, no credits. Also served at /v1/openapi.json."))
        .tag("Operations")
        .responses(responses::plain_ok(
            "The OpenAPI 3.1 document",
            ObjectBuilder::new().schema_type(Type::Object).into(),
        ))
        .build()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::routes::ROUTES;
    use serde_json::Value;

    fn doc() -> Value {
        serde_json::from_slice(&document_bytes()).unwrap()
    }

    #[test]
    fn is_openapi_3_1_with_every_route_and_nothing_else() {
        let doc = doc();
        assert!(doc["openapi"].as_str().unwrap().starts_with("3.1"));
        let paths = doc["paths"].as_object().unwrap();
        for route in ROUTES {
            let e = route.endpoint;
            let op = &paths[e.path][e.method.to_lowercase()];
            assert_eq!(op["operationId"], e.id, "{} {}", e.method, e.path);
        }
        let operations: usize = paths.values().map(|p| p.as_object().unwrap().len()).sum();
        assert_eq!(
            operations,
            ROUTES.len() + 2,
            "the routes, /health and /openapi.json"
        );
    }

    #[test]
    fn parameters_bodies_and_errors_come_from_the_declarations() {
        let doc = doc();
        let deals = &doc["paths"]["/v1/company/deals"]["get"];
        let names: Vec<&str> = deals["parameters"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["name"].as_str().unwrap())
            .collect();
        assert_eq!(
            names,
            [
                "id",
                "domain",
                "linkedin",
                "crunchbase",
                "page",
                "page_size"
            ]
        );
        let page_size = &deals["parameters"][5]["schema"];
        assert_eq!(
            (page_size["minimum"].as_f64(), page_size["maximum"].as_f64()),
            (Some(1.0), Some(500.0))
        );
        let codes = &deals["responses"]["400"]["content"]["application/json"]["schema"]
            ["properties"]["error"]["properties"]["code"]["enum"];
        assert!(codes
            .as_array()
            .unwrap()
            .contains(&json!("INVALID_PAGE_SIZE")));
        assert!(deals["description"]
            .as_str()
            .unwrap()
            .contains("1 credit per row"));
        let body = &doc["paths"]["/v1/people"]["post"]["requestBody"]["content"]
            ["application/json"]["schema"];
        assert_eq!(body["additionalProperties"], json!(false));
        let sort = &body["properties"]["sort_by"];
        assert_eq!(sort["default"], "most_recent_deal_date");
        assert!(sort["enum"]
            .as_array()
            .unwrap()
            .contains(&json!("lead_deal_count")));
        let financing =
            &body["properties"]["investor"]["properties"]["deals"]["properties"]["financing_types"];
        assert_eq!(financing["maxItems"], 100);
        assert_eq!(financing["items"]["required"], json!(["type"]));
        assert_eq!(
            doc["paths"]["/v1/people"]["post"]["responses"]["429"]["content"]["application/json"]
                ["schema"]["properties"]["error"]["properties"]["code"]["enum"],
            json!(["RATE_LIMIT_EXCEEDED", "USAGE_LIMIT_EXCEEDED"])
        );
    }

    #[test]
    fn record_shapes_are_the_record_types() {
        let doc = doc();
        let company = &doc["components"]["schemas"]["CompanyRecord"]["properties"];
        assert!(company["latest_deal"].is_object());
        assert!(company["all_investor_ids"].is_object());
        let companies = &doc["paths"]["/v1/companies"]["post"]["responses"]["200"]["content"]
            ["application/json"]["schema"]["properties"]["data"]["properties"]["companies"]
            ["items"];
        assert_eq!(
            companies["allOf"][0]["$ref"],
            "#/components/schemas/CompanyRecord"
        );
        assert!(companies["allOf"][1]["properties"]["similarity"].is_object());
        let scheme = &doc["components"]["securitySchemes"][BEARER];
        assert_eq!(
            (scheme["type"].as_str(), scheme["scheme"].as_str()),
            (Some("http"), Some("bearer"))
        );
    }
}
