//! The name analyzer: how names and queries become folded tokens.
//!
//! `SimpleTokenizer` (runs of alphanumeric characters, so punctuation and
//! spaces separate words and a CJK run stays one token) → `RemoveLongFilter`
//! (drops tokens over [`MAX_TOKEN_BYTES`], which are never names) →
//! `LowerCaser` → `AsciiFoldingFilter` (`Zürich` → `zurich`, `Æ` → `ae`).
//!
//! The same analyzer is registered in the tantivy index under [`ANALYZER`]
//! (so tantivy indexes exactly these tokens), writes the folded-names file
//! (`names.rs`) and tokenizes queries, so the three always agree.

use tantivy::tokenizer::{
    AsciiFoldingFilter, LowerCaser, RemoveLongFilter, SimpleTokenizer, TextAnalyzer,
};
use tantivy::Index;

/// Name under which the analyzer is registered in the tantivy index.
pub(crate) const ANALYZER: &str = "fundsearch_name";

/// Longer tokens (in bytes, before folding) are dropped.
pub(crate) const MAX_TOKEN_BYTES: usize = 40;

/// Queries are cut to this many characters before tokenizing.
pub(crate) const MAX_QUERY_CHARS: usize = 200;

/// And to this many distinct tokens after.
pub(crate) const MAX_QUERY_TOKENS: usize = 10;

/// A fresh name analyzer.
pub(crate) fn name_analyzer() -> TextAnalyzer {
    TextAnalyzer::builder(SimpleTokenizer::default())
        .filter(RemoveLongFilter::limit(MAX_TOKEN_BYTES))
        .filter(LowerCaser)
        .filter(AsciiFoldingFilter)
        .build()
}

/// Registers the analyzer in `index` (needed at build time and at open).
pub(crate) fn register(index: &Index) {
    index.tokenizers().register(ANALYZER, name_analyzer());
}

/// Calls `sink` with each folded token of `text`.
pub(crate) fn for_each_token(analyzer: &mut TextAnalyzer, text: &str, mut sink: impl FnMut(&str)) {
    let mut stream = analyzer.token_stream(text);
    while stream.advance() {
        sink(&stream.token().text);
    }
}

/// The folded tokens of a query: at most [`MAX_QUERY_CHARS`] characters are
/// read, duplicates are dropped (first occurrence kept), at most
/// [`MAX_QUERY_TOKENS`] tokens are returned.
pub(crate) fn query_tokens(analyzer: &mut TextAnalyzer, query: &str) -> Vec<String> {
    let cut = query.char_indices().nth(MAX_QUERY_CHARS).map_or(query.len(), |(i, _)| i);
    let mut tokens: Vec<String> = Vec::new();
    for_each_token(analyzer, &query[..cut], |token| {
        if tokens.len() < MAX_QUERY_TOKENS && !tokens.iter().any(|t| t == token) {
            tokens.push(token.to_string());
        }
    });
    tokens
}

/// The folded form of a name as stored in the folded-names file: its tokens
/// joined by single spaces (empty when the name has no token).
pub(crate) fn folded_name(analyzer: &mut TextAnalyzer, name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for_each_token(analyzer, name, |token| {
        if !out.is_empty() {
            out.push(' ');
        }
        // Folding never yields separators in practice; guard the file format anyway.
        out.extend(token.chars().filter(|c| *c != ' ' && *c != '\n'));
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(query: &str) -> Vec<String> {
        query_tokens(&mut name_analyzer(), query)
    }

    #[test]
    fn folds_case_accents_and_punctuation() {
        assert_eq!(tokens("Zürich"), ["zurich"]);
        assert_eq!(tokens("  São-Paulo, ÆON!! "), ["sao", "paulo", "aeon"]);
        assert_eq!(tokens("Ünïcödé Straße"), ["unicode", "strasse"]);
    }

    #[test]
    fn keeps_cjk_runs_and_drops_duplicates() {
        assert_eq!(tokens("字节跳动 ByteDance bytedance"), ["字节跳动", "bytedance"]);
    }

    #[test]
    fn truncates_long_queries() {
        let long = "word ".repeat(100) + &(0..30).map(|i| format!("w{i} ")).collect::<String>();
        assert_eq!(tokens(&long).len(), 1);
        let many: String = (0..30).map(|i| format!("w{i} ")).collect();
        assert_eq!(tokens(&many).len(), MAX_QUERY_TOKENS);
        assert!(tokens(&"x".repeat(500)).is_empty(), "one over-long token is dropped");
    }

    #[test]
    fn empty_and_punctuation_only_give_no_tokens() {
        assert!(tokens("").is_empty());
        assert!(tokens(" \t\n").is_empty());
        assert!(tokens("?!-- ... ///").is_empty());
    }

    #[test]
    fn folded_name_joins_tokens_with_spaces() {
        let folded = folded_name(&mut name_analyzer(), "Sequoia  Capital, L.P.");
        assert_eq!(folded, "sequoia capital l p");
        assert_eq!(folded_name(&mut name_analyzer(), "--"), "");
    }
}
