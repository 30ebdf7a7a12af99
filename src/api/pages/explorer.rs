//! `GET /` and `GET /explore`: the API explorer, one static page (markup,
//! stylesheet and script from `assets/`, put together once) that reads
//! `/openapi.json` in the browser to list the operations and their inputs,
//! and runs them against this server's API with the key the person types.
//! No framework and nothing fetched from anywhere else.

use std::sync::OnceLock;

const SHELL: &str = include_str!("assets/explorer.html");
const STYLE: &str = include_str!("assets/explorer.css");
const SCRIPT: &str = include_str!("assets/explorer.js");

/// Where the stylesheet and the script go in the markup.
const STYLE_MARK: &str = "<!-- style -->";
const SCRIPT_MARK: &str = "<!-- script -->";

/// The page, with its stylesheet and script inlined (one request, nothing
/// else to fetch but the API document).
pub fn page() -> &'static [u8] {
    static PAGE: OnceLock<Vec<u8>> = OnceLock::new();
    PAGE.get_or_init(|| assemble().into_bytes())
}

fn assemble() -> String {
    SHELL
        .replacen(STYLE_MARK, &format!("<style>\n{STYLE}</style>"), 1)
        .replacen(SCRIPT_MARK, &format!("<script>\n{SCRIPT}</script>"), 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_inlines_its_stylesheet_and_script_once() {
        assert_eq!(SHELL.matches(STYLE_MARK).count(), 1);
        assert_eq!(SHELL.matches(SCRIPT_MARK).count(), 1);
        let page = std::str::from_utf8(page()).unwrap();
        assert!(!page.contains(STYLE_MARK) && !page.contains(SCRIPT_MARK));
        assert_eq!(page.matches("<script>").count(), 1);
        assert!(!SCRIPT.contains("</script") && !STYLE.contains("</style"));
        assert!(page.contains("fetch(\"/openapi.json\")"));
    }

    #[test]
    fn nothing_is_fetched_from_another_origin() {
        for asset in [SHELL, STYLE, SCRIPT] {
            assert!(
                !asset.contains("http://")
                    && !asset.contains("https://")
                    && !asset.contains("//cdn")
            );
            assert!(!asset.contains("@import") && !asset.contains(" src="));
        }
    }

    #[test]
    fn every_input_has_a_label() {
        let mut rest = SHELL;
        while let Some(at) = rest.find("<input id=\"") {
            let id = &rest[at + 11..];
            let id = &id[..id.find('"').unwrap()];
            assert!(
                SHELL.contains(&format!("<label for=\"{id}\">")),
                "no label for #{id}"
            );
            rest = &rest[at + 1..];
        }
        assert!(SHELL.contains("aria-live=\"polite\""));
    }
}
