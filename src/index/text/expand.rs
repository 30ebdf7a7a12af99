//! Query token → the indexed terms it may stand for ("expansions").
//!
//! The `names` term dictionary is read up to three ways:
//!
//! - the exact term;
//! - Levenshtein automata (tantivy's `FuzzyTermQuery::automaton`,
//!   transpositions costing one edit) within the typo budget of `rules.rs`:
//!   one typo anywhere, then, only when nothing is within one typo, two
//!   typos below the token's first character. At 1 M names a one-typo scan
//!   costs 30–75 µs, an anchored two-typo scan 70–180 µs, an unanchored one
//!   300–700 µs;
//! - for a token longer than `PREFIX_CHARS` that may be a prefix, the range
//!   of terms it starts. A shorter one is looked up once in the `prefixes`
//!   field instead: one posting list for every word it starts, weighted
//!   [`PREFIX_WEIGHT`], however many words that is.
//!
//! Two adjacent tokens are also looked up as one word ("drop box" →
//! "dropbox"), weighted [`CONCATENATION_WEIGHT`], and a token that is not
//! an indexed word as two words ("foundersfund" → "founders" + "fund").
//!
//! Each term found is weighted by the same per-token similarity that
//! re-scoring uses; the [`MAX_EXPANSIONS`] best (weight, then document
//! frequency) are kept, and scans stop after [`MAX_SCANNED_TERMS`] terms.
//! When the token itself is an indexed word, its other expansions are
//! down-weighted ([`EXISTING_WORD_FACTOR`]).

use tantivy::query::FuzzyTermQuery;
use tantivy::schema::Field;
use tantivy::termdict::TermDictionary;
use tantivy::{Searcher, TantivyError, Term};

use super::analyzer::PREFIX_CHARS;
use super::error::TextError;
use super::fields::Fields;
use super::similarity::ScoringQuery;

/// Expansions kept per query token.
pub(crate) const MAX_EXPANSIONS: usize = 24;
/// Terms read per automaton or prefix scan, per segment.
pub(crate) const MAX_SCANNED_TERMS: usize = 2048;
/// The other expansions (typos, completions) of a token that is itself an
/// indexed word count this much less: the user most likely meant that word,
/// and "mary williams" must not prefer "Mary Gary Williams" (two matches)
/// to "Mary Williams", nor "kakaqu capital" the many "Kakaqu" (shorter, and
/// matching the prefix too) to "Kakaqu Capital".
pub(crate) const EXISTING_WORD_FACTOR: f32 = 0.3;
/// Weight of the word two adjacent tokens spell together.
pub(crate) const CONCATENATION_WEIGHT: f32 = 0.9;
/// Weight of each word of a token read as two words (both match: ~1).
pub(crate) const SPLIT_WEIGHT: f32 = 0.5;
/// Most two-word readings tried per token.
pub(crate) const MAX_SPLITS: usize = 2;
/// Shortest word (in bytes) of a two-word reading.
const MIN_SPLIT_BYTES: usize = 2;
/// Weight of a match through the `prefixes` field.
pub(crate) const PREFIX_WEIGHT: f32 = 0.6;

/// An indexed term a query token may stand for.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Expansion {
    pub(crate) term: String,
    /// The term is in the `prefixes` field (else in `names`).
    pub(crate) prefix: bool,
    /// Documents containing the term (whole index).
    pub(crate) doc_freq: u64,
    /// Token similarity with the query token, in (0, 1].
    pub(crate) weight: f32,
}

/// The best expansions of query token `qi`, best first (the `prefixes`
/// term, if any, last).
pub(crate) fn expand_token(
    searcher: &Searcher,
    fields: Fields,
    query: &ScoringQuery,
    qi: usize,
) -> Result<Vec<Expansion>, TextError> {
    let short_prefix = query.prefix_ok(qi) && query.token(qi).chars().count() <= PREFIX_CHARS;
    let mut best = Best::default();
    for segment in searcher.segment_readers() {
        let inverted = segment.inverted_index(fields.names)?;
        scan_segment(
            inverted.terms(),
            fields.names,
            query,
            qi,
            !short_prefix,
            &mut best,
        )?;
    }
    let mut kept = best.0;
    if searcher.segment_readers().len() > 1 {
        for expansion in &mut kept {
            expansion.doc_freq =
                searcher.doc_freq(&Term::from_field_text(fields.names, &expansion.term))?;
        }
    }
    if short_prefix {
        kept.extend(prefix_expansion(searcher, fields, query.token(qi), &kept)?);
    }
    if kept.first().is_some_and(|e| e.weight >= 1.0) {
        kept.iter_mut()
            .skip(1)
            .for_each(|e| e.weight *= EXISTING_WORD_FACTOR);
    }
    Ok(kept)
}

/// The indexed word spelled by two adjacent query tokens ("drop" + "box" →
/// "dropbox"), if there is one.
pub(crate) fn expand_concatenation(
    searcher: &Searcher,
    fields: Fields,
    first: &str,
    second: &str,
) -> Result<Option<Expansion>, TextError> {
    let term = format!("{first}{second}");
    let doc_freq = searcher.doc_freq(&Term::from_field_text(fields.names, &term))?;
    let expansion = Expansion {
        term,
        prefix: false,
        doc_freq,
        weight: CONCATENATION_WEIGHT,
    };
    Ok((doc_freq > 0).then_some(expansion))
}

/// The ways to read `token` as two indexed words ("foundersfund" →
/// "founders" + "fund"): up to [`MAX_SPLITS`] pairs, the pair whose rarer
/// word is most frequent first, each pair rarer word first.
pub(crate) fn expand_split(
    searcher: &Searcher,
    fields: Fields,
    token: &str,
) -> Result<Vec<[Expansion; 2]>, TextError> {
    let mut splits = Vec::new();
    let cuts = token
        .char_indices()
        .map(|(at, _)| at)
        .filter(|&at| at >= MIN_SPLIT_BYTES);
    for at in cuts.filter(|&at| token.len() - at >= MIN_SPLIT_BYTES) {
        let (left, right) = token.split_at(at);
        let word = |text: &str| -> Result<Expansion, TextError> {
            let doc_freq = searcher.doc_freq(&Term::from_field_text(fields.names, text))?;
            Ok(Expansion {
                term: text.to_string(),
                prefix: false,
                doc_freq,
                weight: SPLIT_WEIGHT,
            })
        };
        let (left, right) = (word(left)?, word(right)?);
        if left.doc_freq > 0 && right.doc_freq > 0 {
            splits.push(if left.doc_freq <= right.doc_freq {
                [left, right]
            } else {
                [right, left]
            });
        }
    }
    splits.sort_by_key(|pair| std::cmp::Reverse(pair[0].doc_freq));
    splits.truncate(MAX_SPLITS);
    Ok(splits)
}

/// The `prefixes` term of a short token, unless it adds nothing: when no
/// other word starts with the token, its postings are the exact ones.
fn prefix_expansion(
    searcher: &Searcher,
    fields: Fields,
    token: &str,
    kept: &[Expansion],
) -> Result<Option<Expansion>, TextError> {
    let doc_freq = searcher.doc_freq(&Term::from_field_text(fields.prefixes, token))?;
    let exact = kept
        .first()
        .filter(|e| e.term == token)
        .map_or(0, |e| e.doc_freq);
    let expansion = Expansion {
        term: token.to_string(),
        prefix: true,
        doc_freq,
        weight: PREFIX_WEIGHT,
    };
    Ok((doc_freq > exact).then_some(expansion))
}

/// Feeds up to [`MAX_SCANNED_TERMS`] terms of a `TermStreamer` to `offer`
/// (a macro because the streamer's automaton type is not nameable here).
macro_rules! scan {
    ($stream:expr, $offer:expr) => {{
        let mut stream = $stream;
        for _ in 0..MAX_SCANNED_TERMS {
            if !stream.advance() {
                break;
            }
            if let Ok(term) = std::str::from_utf8(stream.key()) {
                $offer(term, stream.value().doc_freq);
            }
        }
    }};
}

/// Offers the exact, typo and (if `scan_prefixes`) prefix matches of one
/// segment to `best`.
fn scan_segment(
    terms: &TermDictionary,
    field: Field,
    query: &ScoringQuery,
    qi: usize,
    scan_prefixes: bool,
    best: &mut Best,
) -> Result<(), TextError> {
    let token = query.token(qi);
    if let Some(info) = terms.get(token.as_bytes()).map_err(TantivyError::from)? {
        offer(best, query, qi, token, info.doc_freq);
    }
    let typos = query.typos(qi);
    if typos > 0 {
        scan_typos(terms, field, query, qi, 1, best)?;
    }
    if typos > 1 && best.0.is_empty() {
        scan_typos(terms, field, query, qi, 2, best)?;
    }
    if scan_prefixes && query.prefix_ok(qi) {
        let mut range = terms.range().ge(token.as_bytes());
        if let Some(end) = prefix_end(token.as_bytes()) {
            range = range.lt(end);
        }
        let stream = range.into_stream().map_err(TantivyError::from)?;
        scan!(stream, |term, doc_freq| offer(
            best, query, qi, term, doc_freq
        ));
    }
    Ok(())
}

/// Streams the terms within `distance` typos of token `qi`; with two typos
/// only under the token's first character (see `rules.rs`).
fn scan_typos(
    terms: &TermDictionary,
    field: Field,
    query: &ScoringQuery,
    qi: usize,
    distance: u8,
    best: &mut Best,
) -> Result<(), TextError> {
    let token = query.token(qi);
    let fuzzy = FuzzyTermQuery::new(Term::from_field_text(field, token), distance, true);
    let mut search = terms.search(fuzzy.automaton()?);
    if distance > 1 {
        let first = token.chars().next().map_or("", |c| &token[..c.len_utf8()]);
        search = search.ge(first.as_bytes());
        if let Some(end) = prefix_end(first.as_bytes()) {
            search = search.lt(end);
        }
    }
    let stream = search.into_stream().map_err(TantivyError::from)?;
    scan!(stream, |term, doc_freq| offer(
        best, query, qi, term, doc_freq
    ));
    Ok(())
}

/// Offers `term` to `best` with its similarity to token `qi`, if it matches.
fn offer(best: &mut Best, query: &ScoringQuery, qi: usize, term: &str, doc_freq: u32) {
    let weight = query.token_similarity(qi, term);
    if weight > 0.0 {
        best.offer(term, u64::from(doc_freq), weight);
    }
}

/// The smallest byte string greater than every string starting with
/// `prefix` (`None`: no bound, the prefix is all 0xFF).
pub(crate) fn prefix_end(prefix: &[u8]) -> Option<Vec<u8>> {
    let mut end = prefix.to_vec();
    while let Some(last) = end.pop() {
        if last < u8::MAX {
            end.push(last + 1);
            return Some(end);
        }
    }
    None
}

/// The [`MAX_EXPANSIONS`] best distinct terms seen so far, best first.
#[derive(Default)]
struct Best(Vec<Expansion>);

impl Best {
    fn offer(&mut self, term: &str, doc_freq: u64, weight: f32) {
        if let Some(seen) = self.0.iter().position(|e| e.term == term) {
            if self.0[seen].weight >= weight {
                return;
            }
            self.0.remove(seen);
        }
        let better = |e: &Expansion| {
            (weight, doc_freq).partial_cmp(&(e.weight, e.doc_freq))
                == Some(std::cmp::Ordering::Greater)
                || ((weight, doc_freq) == (e.weight, e.doc_freq) && term < e.term.as_str())
        };
        let at = self.0.iter().position(better).unwrap_or(self.0.len());
        if at < MAX_EXPANSIONS {
            self.0.insert(
                at,
                Expansion {
                    term: term.to_string(),
                    prefix: false,
                    doc_freq,
                    weight,
                },
            );
            self.0.truncate(MAX_EXPANSIONS);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefix_end_bounds_the_prefix_range() {
        assert_eq!(prefix_end(b"ab"), Some(b"ac".to_vec()));
        assert_eq!(prefix_end(&[b'a', 0xff]), Some(b"b".to_vec()));
        assert_eq!(prefix_end(&[0xff, 0xff]), None);
        assert_eq!(prefix_end(b""), None);
    }

    #[test]
    fn best_keeps_the_top_distinct_terms_in_order() {
        let mut best = Best::default();
        best.offer("strive", 5, 0.8);
        best.offer("stripe", 3, 1.0);
        best.offer("strip", 9, 0.8);
        best.offer("strive", 5, 0.5);
        best.offer("stripes", 1, 0.9);
        let order: Vec<&str> = best.0.iter().map(|e| e.term.as_str()).collect();
        assert_eq!(order, ["stripe", "stripes", "strip", "strive"]);
        for i in 0..100 {
            best.offer(&format!("t{i:03}"), 1, 0.1);
        }
        assert_eq!(best.0.len(), MAX_EXPANSIONS);
        assert_eq!(
            best.0.last().map(|e| e.term.as_str()),
            Some(format!("t{:03}", MAX_EXPANSIONS - 5).as_str())
        );
    }
}
