//! The few HTML helpers the pages need, so that no HTML library is pulled
//! in: escaping text and attribute values, the document's inline markup
//! (`` `code` `` spans and blank-line paragraphs, the only markup the
//! generated OpenAPI descriptions use) and fragment ids.

/// `text` with `& < > " '` escaped: safe in element content and in quoted
/// attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// One line of description text: escaped, with `` `x` `` as `<code>x</code>`
/// (an unpaired backtick stays a backtick).
pub fn inline(text: &str) -> String {
    let parts: Vec<&str> = text.split('`').collect();
    let mut out = String::with_capacity(text.len() + 16);
    for (i, part) in parts.iter().enumerate() {
        let closed = i + 1 < parts.len();
        match (i % 2 == 1, closed) {
            (true, true) => out.push_str(&format!("<code>{}</code>", escape(part))),
            (true, false) => out.push_str(&format!("`{}", escape(part))),
            (false, _) => out.push_str(&escape(part)),
        }
    }
    out
}

/// A description as paragraphs: one `<p>` per blank-line-separated block.
pub fn paragraphs(text: &str) -> String {
    text.split("\n\n")
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| format!("<p>{}</p>\n", inline(p)))
        .collect()
}

/// A fragment id: `prefix-` then the name's ASCII letters and digits, other
/// characters as `-` (runs collapsed), lower case.
pub fn slug(prefix: &str, name: &str) -> String {
    let mut out = format!("{prefix}-");
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_characters() {
        assert_eq!(
            escape(r#"<a href="x">&'</a>"#),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;"
        );
        assert_eq!(escape("plain"), "plain");
    }

    #[test]
    fn code_spans_and_paragraphs() {
        assert_eq!(inline("use `a<b` now"), "use <code>a&lt;b</code> now");
        assert_eq!(inline("one ` left"), "one ` left");
        assert_eq!(
            paragraphs("a\n\n\n\nb `c`"),
            "<p>a</p>\n<p>b <code>c</code></p>\n"
        );
    }

    #[test]
    fn slugs_are_plain() {
        assert_eq!(slug("op", "getCompany"), "op-getcompany");
        assert_eq!(
            slug("path", "/v1/deals/{id}/investors"),
            "path-v1-deals-id-investors"
        );
    }
}
