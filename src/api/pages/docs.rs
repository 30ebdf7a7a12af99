//! `GET /docs`: the API reference, rendered on the server from the served
//! OpenAPI document (`api::openapi`) into plain semantic HTML with a small
//! embedded stylesheet. No script, no external asset: it reads the same
//! offline. Every operation of the document gets an `<article>` with its
//! method and path, summary, description, key requirement, price and plans,
//! parameters, request body, and responses (the success shape, and per
//! error status the codes it may answer); every component schema its own
//! section, linked from wherever it is referenced. Rendered once.

use std::sync::OnceLock;

use serde_json::{Map, Value};

use super::html::{escape, inline, paragraphs, slug};
use super::schema;
use crate::api::openapi;

const STYLE: &str = include_str!("assets/docs.css");

/// The methods an OpenAPI path item may hold, in the order they are shown.
const METHODS: &[&str] = &[
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

/// The page, rendered from the served document on first use.
pub fn page() -> &'static [u8] {
    static PAGE: OnceLock<Vec<u8>> = OnceLock::new();
    PAGE.get_or_init(|| {
        let doc: Value = serde_json::from_slice(&openapi::document_bytes()).unwrap_or(Value::Null);
        render(&doc).into_bytes()
    })
}

/// One operation of the document.
struct Op<'a> {
    path: &'a str,
    method: &'a str,
    value: &'a Value,
}

impl<'a> Op<'a> {
    fn id(&self) -> String {
        let name = self.value.get("operationId").and_then(Value::as_str);
        slug(
            "op",
            name.unwrap_or(&format!("{}-{}", self.method, self.path)),
        )
    }

    fn text(&self, key: &str) -> &str {
        self.value.get(key).and_then(Value::as_str).unwrap_or("")
    }

    fn tag(&self) -> &'a str {
        let tags = self.value.get("tags").and_then(Value::as_array);
        tags.and_then(|t| t.first())
            .and_then(Value::as_str)
            .unwrap_or("Other")
    }
}

/// Every operation, grouped by its first tag (groups in order of first
/// appearance, paths in document order).
fn grouped(doc: &Value) -> Vec<(&str, Vec<Op<'_>>)> {
    let mut groups: Vec<(&str, Vec<Op>)> = Vec::new();
    for op in operations(doc) {
        match groups.iter_mut().find(|(tag, _)| *tag == op.tag()) {
            Some((_, ops)) => ops.push(op),
            None => groups.push((op.tag(), vec![op])),
        }
    }
    groups
}

fn operations(doc: &Value) -> Vec<Op<'_>> {
    let mut ops = Vec::new();
    for (path, item) in doc
        .get("paths")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        for method in METHODS {
            if let Some(value) = item.get(*method) {
                ops.push(Op {
                    path,
                    method,
                    value,
                });
            }
        }
    }
    ops
}

fn render(doc: &Value) -> String {
    let groups = grouped(doc);
    let title = escape(doc["info"]["title"].as_str().unwrap_or("API reference"));
    let mut body = String::new();
    for (tag, ops) in &groups {
        body.push_str(&format!(
            "<section id=\"{}\">\n<h2>{}</h2>\n",
            slug("tag", tag),
            escape(tag)
        ));
        ops.iter().for_each(|op| body.push_str(&operation(op, doc)));
        body.push_str("</section>\n");
    }
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{title}: reference</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n\
         <a class=\"skip\" href=\"#main\">Skip to the reference</a>\n{}\
         <main id=\"main\">\n{}{body}{}</main>\n</body>\n</html>\n",
        contents(&groups, doc),
        intro(doc, &title),
        components(doc),
    )
}

fn intro(doc: &Value, title: &str) -> String {
    let version = escape(doc["info"]["version"].as_str().unwrap_or(""));
    let description = paragraphs(doc["info"]["description"].as_str().unwrap_or(""));
    format!(
        "<header>\n<h1>{title}</h1>\n<p class=\"version\">Version {version}, OpenAPI {}. \
         The machine-readable document: <a href=\"/openapi.json\">/openapi.json</a>. \
         Try the API in the <a href=\"/explore\">explorer</a>.</p>\n{description}{}</header>\n",
        escape(doc["openapi"].as_str().unwrap_or("")),
        security_schemes(doc),
    )
}

fn security_schemes(doc: &Value) -> String {
    let schemes = doc["components"]["securitySchemes"].as_object();
    let items: String = schemes.into_iter().flatten().map(scheme_item).collect();
    if items.is_empty() {
        return String::new();
    }
    format!("<h2 id=\"authentication\">Authentication</h2>\n<dl>\n{items}</dl>\n")
}

/// One security scheme: its name, kind and description.
fn scheme_item((name, s): (&String, &Value)) -> String {
    let kind = [
        s["type"].as_str(),
        s["scheme"].as_str(),
        s["bearerFormat"].as_str(),
    ];
    let kind: Vec<String> = kind.into_iter().flatten().map(escape).collect();
    let description = inline(s["description"].as_str().unwrap_or(""));
    format!(
        "<dt><code>{}</code> ({})</dt><dd>{description}</dd>\n",
        escape(name),
        kind.join(", ")
    )
}

/// The table of contents: groups, then their operations.
fn contents(groups: &[(&str, Vec<Op>)], doc: &Value) -> String {
    let mut out = String::from("<nav aria-label=\"Contents\">\n<h2>Contents</h2>\n<ul>\n");
    for (tag, ops) in groups {
        out.push_str(&contents_group(tag, ops));
    }
    if doc["components"]["schemas"].is_object() {
        out.push_str("<li><a href=\"#schemas\">Schemas</a></li>\n");
    }
    out.push_str("</ul>\n</nav>\n");
    out
}

/// A tag in the contents, with a link to each of its operations.
fn contents_group(tag: &str, ops: &[Op]) -> String {
    let links: String = ops
        .iter()
        .map(|op| {
            let (id, method) = (op.id(), op.method.to_uppercase());
            format!(
                "<li><a href=\"#{id}\"><span class=\"method\">{method}</span> {}</a></li>\n",
                escape(op.path)
            )
        })
        .collect();
    format!(
        "<li><a href=\"#{}\">{}</a>\n<ul>\n{links}</ul></li>\n",
        slug("tag", tag),
        escape(tag)
    )
}

fn operation(op: &Op, doc: &Value) -> String {
    format!(
        "<article id=\"{}\">\n<h3><span class=\"method method-{}\">{}</span> <code>{}</code></h3>\n\
         <p class=\"summary\">{}</p>\n{}{}{}{}{}</article>\n",
        op.id(),
        op.method,
        op.method.to_uppercase(),
        escape(op.path),
        inline(op.text("summary")),
        facts(op, doc),
        paragraphs(op.text("description")),
        parameters(op),
        request_body(op),
        responses(op),
    )
}

/// Key requirement, operation id, price and plans.
fn facts(op: &Op, doc: &Value) -> String {
    let mut out = format!(
        "<dl class=\"facts\">\n<dt>Key</dt><dd>{}</dd>\n",
        security(op, doc)
    );
    out.push_str(&format!(
        "<dt>Operation id</dt><dd><code>{}</code></dd>\n",
        escape(op.text("operationId"))
    ));
    if let Some(cost) = op.value.get("x-credit-cost").and_then(Value::as_str) {
        out.push_str(&format!("<dt>Cost</dt><dd>{}</dd>\n", inline(cost)));
    }
    if let Some(plans) = op.value.get("x-plans").and_then(Value::as_array) {
        let plans: Vec<String> = plans
            .iter()
            .filter_map(Value::as_str)
            .map(|p| format!("<code>{}</code>", escape(p)))
            .collect();
        out.push_str(&format!("<dt>Plans</dt><dd>{}</dd>\n", plans.join(", ")));
    }
    out.push_str("</dl>\n");
    out
}

fn security(op: &Op, doc: &Value) -> String {
    let requirements = op
        .value
        .get("security")
        .or_else(|| doc.get("security"))
        .and_then(Value::as_array);
    let names: Vec<String> = requirements
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
        .flat_map(Map::keys)
        .map(|name| {
            format!(
                "<a href=\"#authentication\"><code>{}</code></a>",
                escape(name)
            )
        })
        .collect();
    if names.is_empty() {
        return "none needed".to_string();
    }
    format!("required: {}", names.join(" or "))
}

fn parameters(op: &Op) -> String {
    let Some(list) = op
        .value
        .get("parameters")
        .and_then(Value::as_array)
        .filter(|l| !l.is_empty())
    else {
        return String::new();
    };
    let rows: String = list.iter().map(parameter_row).collect();
    format!(
        "<h4>Parameters</h4>\n<table class=\"params\"><thead><tr><th scope=\"col\">Name</th><th scope=\"col\">In</th>\
         <th scope=\"col\">Type</th><th scope=\"col\">Required</th><th scope=\"col\">Description</th></tr></thead>\n\
         <tbody>\n{rows}</tbody></table>\n"
    )
}

fn parameter_row(p: &Value) -> String {
    let schema = p.get("schema").unwrap_or(&Value::Null);
    format!(
        "<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td><td>{}{}</td></tr>\n",
        escape(p["name"].as_str().unwrap_or("")),
        escape(p["in"].as_str().unwrap_or("")),
        schema::type_text(schema),
        if p["required"] == Value::Bool(true) {
            "yes"
        } else {
            "no"
        },
        inline(p["description"].as_str().unwrap_or("")),
        schema::constraints(schema),
    )
}

fn request_body(op: &Op) -> String {
    let Some(body) = op.value.get("requestBody") else {
        return String::new();
    };
    let mut out = String::from("<h4>Request body</h4>\n");
    out.push_str(&paragraphs(body["description"].as_str().unwrap_or("")));
    for (media, content) in body["content"].as_object().into_iter().flatten() {
        out.push_str(&format!(
            "<p>Content type <code>{}</code>:</p>\n",
            escape(media)
        ));
        out.push_str(&schema::block(&content["schema"]));
    }
    out
}

/// Success responses with their shape; error responses with their codes.
fn responses(op: &Op) -> String {
    let Some(list) = op.value.get("responses").and_then(Value::as_object) else {
        return String::new();
    };
    let mut out = String::from("<h4>Responses</h4>\n<dl class=\"responses\">\n");
    for (status, response) in list {
        out.push_str(&format!(
            "<dt>{}</dt>\n<dd>{}</dd>\n",
            escape(status),
            response_text(status, response)
        ));
    }
    out.push_str("</dl>\n");
    out
}

fn response_text(status: &str, response: &Value) -> String {
    let description = inline(response["description"].as_str().unwrap_or(""));
    let content = response["content"].as_object().into_iter().flatten();
    let mut out = String::new();
    for (media, body) in content {
        if status.starts_with('2') {
            out.push_str(&format!(
                "<p>{description}, <code>{}</code>:</p>\n",
                escape(media)
            ));
            out.push_str(&schema::block(&body["schema"]));
        } else {
            out.push_str(&error_codes(&body["schema"]));
        }
    }
    if out.is_empty() {
        out = format!("<p>{description}</p>\n");
    }
    out
}

/// `error.code`'s enum in an error envelope.
fn error_codes(schema: &Value) -> String {
    let codes = schema["properties"]["error"]["properties"]["code"]["enum"].as_array();
    let codes: Vec<String> = codes
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(|c| format!("<code>{}</code>", escape(c)))
        .collect();
    format!(
        "<p>Error envelope; <code>error.code</code> one of: {}.</p>\n",
        codes.join(", ")
    )
}

fn components(doc: &Value) -> String {
    let Some(schemas) = doc["components"]["schemas"].as_object() else {
        return String::new();
    };
    let mut out = String::from("<section id=\"schemas\">\n<h2>Schemas</h2>\n");
    for (name, value) in schemas {
        out.push_str(&format!(
            "<section id=\"{}\">\n<h3>{}</h3>\n{}{}</section>\n",
            schema::component_id(name),
            escape(name),
            paragraphs(value["description"].as_str().unwrap_or("")),
            schema::block(value),
        ));
    }
    out.push_str("</section>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn text() -> &'static str {
        std::str::from_utf8(page()).unwrap()
    }

    #[test]
    fn every_operation_of_the_document_is_on_the_page() {
        let doc: Value = serde_json::from_slice(&openapi::document_bytes()).unwrap();
        let page = text();
        let ops = operations(&doc);
        assert!(ops.len() > 20);
        for op in &ops {
            let heading = format!(
                "<span class=\"method method-{}\">{}</span> <code>{}</code>",
                op.method,
                op.method.to_uppercase(),
                escape(op.path)
            );
            assert!(page.contains(&heading), "{} {}", op.method, op.path);
            assert!(page.contains(&format!("<article id=\"{}\">", op.id())));
            assert!(
                page.contains(&format!("href=\"#{}\"", op.id())),
                "listed in the contents"
            );
        }
    }

    #[test]
    fn parameters_bodies_codes_and_schemas_are_rendered() {
        let page = text();
        assert!(page
            .contains("<td><code>page_size</code></td><td>query</td><td>integer</td><td>no</td>"));
        assert!(page.contains("<code>company.locations</code>"));
        assert!(page.contains("<code>latest_deal.financing_types[].type</code>"));
        assert!(page.contains("<code>&quot;SERIES_A&quot;</code>"));
        assert!(page.contains("<code>INVALID_PAGE_SIZE</code>"));
        assert!(page.contains("<section id=\"schema-companyrecord\">"));
        assert!(
            page.contains("<dt>Key</dt><dd>none needed</dd>"),
            "/health needs no key"
        );
        assert!(page.contains("required: <a href=\"#authentication\"><code>bearerAuth</code></a>"));
    }

    #[test]
    fn ids_are_unique_and_every_link_has_a_target() {
        let page = text();
        let ids: Vec<&str> = attribute_values(page, " id=\"").collect();
        let unique: HashSet<&str> = ids.iter().copied().collect();
        assert_eq!(unique.len(), ids.len(), "duplicate ids");
        for target in attribute_values(page, " href=\"#") {
            assert!(unique.contains(target), "#{target} has no element");
        }
    }

    #[test]
    fn markup_is_balanced_and_text_has_no_raw_angle_brackets() {
        let mut open: Vec<&str> = Vec::new();
        let page = text();
        let mut rest = page;
        while let Some(start) = rest.find('<') {
            let after = &rest[start + 1..];
            let end = after.find('>').expect("a tag ends");
            let tag = &after[..end];
            assert!(!tag.contains('<'), "a raw '<' in text: {tag}");
            check_tag(tag, &mut open);
            rest = &after[end + 1..];
        }
        assert!(open.is_empty(), "unclosed: {open:?}");
        for entity in page.split('&').skip(1) {
            let name = &entity[..entity.find(';').expect("an entity ends")];
            assert!(
                ["amp", "lt", "gt", "quot", "#39"].contains(&name),
                "a raw '&': &{name}"
            );
        }
    }

    /// Pushes an opening tag, pops a closing one (which must match).
    fn check_tag<'a>(tag: &'a str, open: &mut Vec<&'a str>) {
        const VOID: &[&str] = &["meta", "br", "hr", "img", "input", "link"];
        if tag.starts_with('!') {
            return;
        }
        let name = tag
            .trim_start_matches('/')
            .split([' ', '\n'])
            .next()
            .unwrap();
        assert!(
            !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric()),
            "bad tag <{tag}>"
        );
        if let Some(closing) = tag.strip_prefix('/') {
            assert_eq!(open.pop(), Some(closing.trim()), "mismatched </{closing}>");
        } else if !VOID.contains(&name) {
            open.push(name);
        }
    }

    fn attribute_values<'a>(page: &'a str, prefix: &'a str) -> impl Iterator<Item = &'a str> {
        page.split(prefix)
            .skip(1)
            .map(|s| &s[..s.find('"').unwrap()])
    }
}
