//! Folding: how names and queries become tokens, and the two word lists
//! each document is indexed under.
//!
//! The name analyzer is `SimpleTokenizer` (runs of alphanumeric characters,
//! so punctuation and spaces separate words and a CJK run stays one token)
//! → `RemoveLongFilter` (drops tokens over [`MAX_TOKEN_BYTES`], never
//! names) → `LowerCaser` → `AsciiFoldingFilter` (`Zürich` → `zurich`,
//! `Æ` → `ae`). It folds names at build time, for the folded-names file
//! (`names.rs`) and for the index, and queries at search time, so all three
//! agree by construction.
//!
//! tantivy never sees raw names: each document gets two space-separated
//! word lists, indexed by a plain whitespace analyzer registered as
//! [`WORDS_ANALYZER`]:
//!
//! - `names`: the *distinct* folded tokens of all its names. Every term
//!   frequency is 1, so an alias repeating the name ("Stripe" + permalink
//!   "stripe") or a repeated word ("Blue Blue") does not outrank the plain
//!   name, and the field length is the number of distinct words;
//! - `prefixes`: every distinct prefix of 1 to [`PREFIX_CHARS`] characters
//!   of those tokens ("r ri rif …" for "Rifloblu"), so a short prefix typed
//!   by the user is one posting list instead of a union over all the words
//!   it starts (Meilisearch's word-prefix databases serve the same purpose);
//! - `pairs`: every ordered pair of distinct words of one name, `a` and
//!   `b` joined by [`PAIR_SEPARATOR`] (both orders), and `a` with each
//!   prefix of 1 to [`PAIR_PREFIX_CHARS`] characters of `b` followed by
//!   [`PREFIX_MARK`] ("carlos␟fisher fisher␟carlos carlos␟f␞ carlos␟fi␞ …"),
//!   over the first [`MAX_PAIR_WORDS`] words of each name. A two-word query
//!   is then one short posting list per pair of expansions instead of the
//!   long lists of two frequent words (`pairs.rs`). Folded tokens are runs of
//!   alphanumerics, so neither control character occurs in a word.

use tantivy::tokenizer::{
    AsciiFoldingFilter, LowerCaser, RemoveLongFilter, SimpleTokenizer, TextAnalyzer,
    WhitespaceTokenizer,
};
use tantivy::Index;

/// Name under which the whitespace analyzer of both text fields is registered.
pub(crate) const WORDS_ANALYZER: &str = "fundsearch_words";

/// Longest prefix (in characters) indexed in the `prefixes` field.
pub(crate) const PREFIX_CHARS: usize = 6;

/// Joins the two words of a `pairs` term.
pub(crate) const PAIR_SEPARATOR: char = '\u{1f}';

/// Ends a `pairs` term whose second word is a prefix.
pub(crate) const PREFIX_MARK: char = '\u{1e}';

/// Longest second-word prefix (in characters) indexed in the `pairs` field.
pub(crate) const PAIR_PREFIX_CHARS: usize = 3;

/// Words of one name that form pairs (the first ones).
pub(crate) const MAX_PAIR_WORDS: usize = 6;

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

/// Registers the words analyzer in `index` (at build time and at open).
pub(crate) fn register(index: &Index) {
    let words = TextAnalyzer::builder(WhitespaceTokenizer::default()).build();
    index.tokenizers().register(WORDS_ANALYZER, words);
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
    let cut = query
        .char_indices()
        .nth(MAX_QUERY_CHARS)
        .map_or(query.len(), |(i, _)| i);
    let mut tokens: Vec<String> = Vec::new();
    for_each_token(analyzer, &query[..cut], |token| {
        if tokens.len() < MAX_QUERY_TOKENS && !tokens.iter().any(|t| t == token) {
            tokens.push(token.to_string());
        }
    });
    tokens
}

/// The folded form of a name: its tokens joined by single spaces (empty
/// when the name has no token).
pub(crate) fn folded_name(analyzer: &mut TextAnalyzer, name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for_each_token(analyzer, name, |token| {
        if !out.is_empty() {
            out.push(' ');
        }
        // Folding never yields whitespace in practice; guard the formats anyway.
        out.extend(token.chars().filter(|c| !c.is_whitespace()));
    });
    out
}

/// The `names` and `prefixes` word lists of a document whose folded names
/// are `folded_names` (see the module docs), space-separated.
pub(crate) fn word_lists<'n>(
    folded_names: impl Iterator<Item = &'n str> + Clone,
) -> (String, String) {
    let tokens = folded_names
        .flat_map(|name| name.split(' '))
        .filter(|t| !t.is_empty());
    let words = distinct_joined(tokens.clone());
    let prefixes = tokens.flat_map(|token| {
        token
            .char_indices()
            .take(PREFIX_CHARS)
            .map(move |(at, c)| &token[..at + c.len_utf8()])
    });
    (words, distinct_joined(prefixes))
}

/// The `pairs` word list of a document whose folded names are
/// `folded_names` (see the module docs), space-separated.
pub(crate) fn pair_list<'n>(folded_names: impl Iterator<Item = &'n str>) -> String {
    let mut terms: Vec<String> = Vec::new();
    for name in folded_names {
        let mut words: Vec<&str> = Vec::with_capacity(MAX_PAIR_WORDS);
        for word in name.split(' ').filter(|w| !w.is_empty()) {
            if words.len() < MAX_PAIR_WORDS && !words.contains(&word) {
                words.push(word);
            }
        }
        for &first in &words {
            for &second in words.iter().filter(|&&w| w != first) {
                terms.push(pair_term(first, second));
                let prefixes = second.char_indices().take(PAIR_PREFIX_CHARS);
                terms.extend(
                    prefixes.map(|(at, c)| pair_prefix_term(first, &second[..at + c.len_utf8()])),
                );
            }
        }
    }
    distinct_joined(terms.iter().map(String::as_str))
}

/// The `pairs` term of two whole words.
pub(crate) fn pair_term(first: &str, second: &str) -> String {
    let mut term = String::with_capacity(first.len() + second.len() + 1);
    term.push_str(first);
    term.push(PAIR_SEPARATOR);
    term.push_str(second);
    term
}

/// The `pairs` term of a word and the prefix of another.
pub(crate) fn pair_prefix_term(first: &str, prefix: &str) -> String {
    let mut term = pair_term(first, prefix);
    term.push(PREFIX_MARK);
    term
}

/// `items` without repeats, in first-seen order, joined by spaces.
fn distinct_joined<'t>(items: impl Iterator<Item = &'t str>) -> String {
    let mut seen: Vec<&str> = Vec::new();
    for item in items {
        if !seen.contains(&item) {
            seen.push(item);
        }
    }
    seen.join(" ")
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
        assert_eq!(
            tokens("字节跳动 ByteDance bytedance"),
            ["字节跳动", "bytedance"]
        );
    }

    #[test]
    fn truncates_long_queries() {
        let long = "word ".repeat(100) + &(0..30).map(|i| format!("w{i} ")).collect::<String>();
        assert_eq!(tokens(&long).len(), 1);
        let many: String = (0..30).map(|i| format!("w{i} ")).collect();
        assert_eq!(tokens(&many).len(), MAX_QUERY_TOKENS);
        assert!(
            tokens(&"x".repeat(500)).is_empty(),
            "one over-long token is dropped"
        );
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

    #[test]
    fn pair_lists_hold_both_orders_and_short_second_prefixes() {
        let list = pair_list(["ana li", "li"].into_iter()).replace(PAIR_SEPARATOR, "|");
        let list = list.replace(PREFIX_MARK, "*");
        assert_eq!(list, "ana|li ana|l* ana|li* li|ana li|a* li|an* li|ana*");
        assert_eq!(
            pair_list(["solo", "also solo"].into_iter())
                .split(' ')
                .count(),
            8
        );
        assert_eq!(pair_list(["solo solo"].into_iter()), "");
        let long = "a b c d e f g h";
        let pairs = pair_list([long].into_iter());
        assert_eq!(
            pairs.split(' ').count(),
            MAX_PAIR_WORDS * (MAX_PAIR_WORDS - 1) * 2
        );
        assert!(!pairs.contains('g'));
    }

    #[test]
    fn word_lists_hold_distinct_words_and_char_prefixes() {
        let (words, prefixes) =
            word_lists(["blue blue labs", "labs", "北京字节跳动公司"].into_iter());
        assert_eq!(words, "blue labs 北京字节跳动公司");
        assert_eq!(
            prefixes,
            "b bl blu blue l la lab labs 北 北京 北京字 北京字节 北京字节跳 北京字节跳动"
        );
        assert_eq!(
            word_lists(std::iter::empty()),
            (String::new(), String::new())
        );
    }
}
