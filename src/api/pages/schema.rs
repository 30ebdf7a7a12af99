//! A JSON Schema (as the OpenAPI document holds it) as HTML: an object is a
//! table with one row per property, nested objects and arrays of objects
//! flattened into dotted names (`company.locations`, `financing_types[].type`),
//! `$ref`s as links to the component's own table, and every constraint the
//! document states (enum, default, bounds, format, pattern) in words.

use serde_json::{Map, Value};

use super::html::{escape, inline, slug};

/// How deep nested objects are flattened before the row says only "object".
const MAX_DEPTH: usize = 6;

/// The schema as a block: a property table for an object, otherwise one
/// line with its type and constraints.
pub fn block(schema: &Value) -> String {
    let mut rows = String::new();
    push_properties(schema, "", 0, &mut rows);
    if rows.is_empty() {
        return format!("<p>{}{}</p>\n", type_text(schema), constraints(schema));
    }
    format!(
        "<table class=\"schema\"><thead><tr><th scope=\"col\">Field</th><th scope=\"col\">Type</th>\
         <th scope=\"col\">Required</th><th scope=\"col\">Description</th></tr></thead>\n<tbody>\n{rows}</tbody></table>\n"
    )
}

/// The id of the section holding component `name`.
pub fn component_id(name: &str) -> String {
    slug("schema", name)
}

/// Rows for the properties of `schema` (and of each `allOf` part).
fn push_properties(schema: &Value, prefix: &str, depth: usize, out: &mut String) {
    for part in schema
        .get("allOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        push_properties(part, prefix, depth, out);
    }
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return;
    };
    let required = required_names(schema);
    for (name, property) in properties {
        let path = format!("{prefix}{name}");
        push_row(&path, property, required.contains(&name.as_str()), out);
        push_nested(property, &path, depth + 1, out);
    }
}

/// Rows for what a property holds: its own properties, or its items'.
fn push_nested(property: &Value, path: &str, depth: usize, out: &mut String) {
    if depth >= MAX_DEPTH {
        return;
    }
    push_properties(property, &format!("{path}."), depth, out);
    if let Some(items) = property.get("items") {
        push_properties(items, &format!("{path}[]."), depth, out);
    }
}

fn push_row(path: &str, property: &Value, required: bool, out: &mut String) {
    let description = property
        .get("description")
        .and_then(Value::as_str)
        .unwrap_or("");
    out.push_str(&format!(
        "<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}{}</td></tr>\n",
        escape(path),
        type_text(property),
        if required { "yes" } else { "no" },
        inline(description),
        constraints(property),
    ));
}

fn required_names(schema: &Value) -> Vec<&str> {
    let list = schema.get("required").and_then(Value::as_array);
    list.into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect()
}

/// The type in words: `string (uuid)`, `array of integer`, `object | null`,
/// a link for a `$ref`, the alternatives of `oneOf` / `allOf`.
pub fn type_text(schema: &Value) -> String {
    if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
        return reference_link(reference);
    }
    if let Some(text) = composite(schema) {
        return text;
    }
    let names = type_names(schema);
    let mut text = if names.is_empty() {
        "any".to_string()
    } else {
        names.join(" | ")
    };
    if let Some(items) = schema.get("items") {
        text = text.replacen("array", &format!("array of {}", type_text(items)), 1);
    }
    if let Some(format) = schema.get("format").and_then(Value::as_str) {
        text.push_str(&format!(" ({})", escape(format)));
    }
    text
}

/// The alternatives of a `oneOf` / `anyOf`, or the parts of an `allOf`.
fn composite(schema: &Value) -> Option<String> {
    for (key, joiner) in [("oneOf", " or "), ("anyOf", " or "), ("allOf", " and ")] {
        if let Some(parts) = schema.get(key).and_then(Value::as_array) {
            let texts: Vec<String> = parts.iter().map(type_text).collect();
            return Some(texts.join(joiner));
        }
    }
    None
}

fn type_names(schema: &Value) -> Vec<String> {
    match schema.get("type") {
        Some(Value::String(t)) => vec![escape(t)],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).map(escape).collect(),
        _ => Vec::new(),
    }
}

fn reference_link(reference: &str) -> String {
    let name = reference.rsplit('/').next().unwrap_or(reference);
    format!("<a href=\"#{}\">{}</a>", component_id(name), escape(name))
}

/// The constraints of a schema as a list of short sentences, each in its
/// own `<span>` (empty when there are none).
pub fn constraints(schema: &Value) -> String {
    let Some(map) = schema.as_object() else {
        return String::new();
    };
    let mut parts = Vec::new();
    if let Some(values) = enum_values(schema) {
        parts.push(format!("One of: {values}."));
    }
    bound(map, "default", "Default", &mut parts);
    bound(map, "minimum", "At least", &mut parts);
    bound(map, "maximum", "At most", &mut parts);
    bound(map, "minLength", "Length at least", &mut parts);
    bound(map, "minItems", "Items at least", &mut parts);
    bound(map, "maxItems", "Items at most", &mut parts);
    bound(map, "pattern", "Pattern", &mut parts);
    if map.get("additionalProperties") == Some(&Value::Bool(false)) {
        parts.push("No other keys.".to_string());
    }
    parts
        .iter()
        .map(|p| format!(" <span class=\"constraint\">{p}</span>"))
        .collect()
}

/// The enum of a schema or of its items, as code spans.
fn enum_values(schema: &Value) -> Option<String> {
    let values = schema
        .get("enum")
        .or_else(|| schema.get("items").and_then(|i| i.get("enum")))
        .and_then(Value::as_array)?;
    let texts: Vec<String> = values
        .iter()
        .map(|v| format!("<code>{}</code>", escape(&v.to_string())))
        .collect();
    Some(texts.join(", "))
}

/// A stated value: a string as itself (a pattern, a default), anything
/// else as its JSON text.
fn bound(map: &Map<String, Value>, key: &str, label: &str, parts: &mut Vec<String>) {
    let text = match map.get(key) {
        Some(Value::String(s)) => s.clone(),
        Some(value) => value.to_string(),
        None => return,
    };
    parts.push(format!("{label} <code>{}</code>.", escape(&text)));
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn objects_flatten_into_dotted_rows() {
        let schema = json!({"type": "object", "required": ["a"], "properties": {
            "a": {"type": ["object", "null"], "properties": {"b": {"type": "string", "enum": ["X", "Y"]}}},
            "c": {"type": "array", "items": {"type": "object", "properties": {"d": {"type": "integer", "minimum": 1}}}}
        }});
        let html = block(&schema);
        assert!(
            html.contains("<td><code>a</code></td><td>object | null</td><td>yes</td>"),
            "{html}"
        );
        assert!(
            html.contains("<code>a.b</code>")
                && html.contains("One of: <code>&quot;X&quot;</code>, <code>&quot;Y&quot;</code>.")
        );
        assert!(html.contains("<code>c[].d</code>") && html.contains("At least <code>1</code>."));
    }

    #[test]
    fn refs_link_to_their_component_and_scalars_are_one_line() {
        let html = block(
            &json!({"type": "array", "items": {"$ref": "#/components/schemas/CompanyRecord"}}),
        );
        assert_eq!(
            html,
            "<p>array of <a href=\"#schema-companyrecord\">CompanyRecord</a></p>\n"
        );
        assert_eq!(
            type_text(&json!({"type": "string", "format": "uuid"})),
            "string (uuid)"
        );
    }
}
