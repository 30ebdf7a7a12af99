//! Re-scoring: a similarity in (0, 1] between a folded query and a folded
//! name, computed in Rust on the few candidates tantivy returns.
//!
//! `score = 0.9 × tokens + 0.1 × order`, where
//!
//! - `tokens` aligns query tokens with name tokens one-to-one (greedy, best
//!   pair first) using the per-token similarity below, then blends how much
//!   of the query is matched (weight 0.75) with how much of the name is
//!   (0.25): "stripe" matches all of "Stripe" but half of "Stripe Labs";
//! - per token: 1 for equal tokens; `0.5 + 0.45 × |q| / |t|` when the query
//!   token is a (permitted, see `rules.rs`) prefix of the name token; and
//!   `1 − d × (0.1 + 0.8 / len)` for `d` typos (optimal string alignment,
//!   a transposition is one typo; two typos need the same first character)
//!   within the budget, so one typo in a long word costs less than in a
//!   short one;
//! - `order` is half "the first query token matches the first name word"
//!   and half "matched words appear in the query's order", so "sequoia
//!   capital" beats "capital sequoia" and "Stripe Labs" beats "Jon Stripe"
//!   for "stripe", while a swapped order still scores 0.9.
//!
//! Whole-string measures such as Jaro–Winkler were tried and dropped: their
//! greedy character matching invents transpositions ("kezanbel" is closer
//! to "pezanbel" than to "kazanbel" under Jaro), which reorders names that
//! are equally one typo away; the token-level order signal has no such bias.
//!
//! A name spelling the query with other word breaks ("Dropbox" for "drop
//! box") scores [`COMPACT_MATCH`]. Only an exact folded match scores 1.0; everything else is capped at
//! [`MAX_INEXACT`] and floored at [`MIN_SCORE`]. All work is on the stack:
//! tokens longer than [`MAX_UNITS`] characters and names longer than
//! [`MAX_NAME_TOKENS`] tokens are cut before comparing.

use super::analyzer::MAX_QUERY_TOKENS;
use super::rules::{max_typos, prefix_allowed};

/// Highest score of a name that is not an exact match.
pub(crate) const MAX_INEXACT: f32 = 0.99;
/// Lowest score ever returned.
pub(crate) const MIN_SCORE: f32 = 0.01;
/// Score of a name with the query's letters but other word breaks.
pub(crate) const COMPACT_MATCH: f32 = 0.95;

const TOKEN_WEIGHT: f32 = 0.9;
const QUERY_COVERAGE_WEIGHT: f32 = 0.75;
const MAX_UNITS: usize = 64;
pub(crate) const MAX_NAME_TOKENS: usize = 16;

/// A query prepared for scoring many names.
pub(crate) struct ScoringQuery {
    tokens: Vec<String>,
    chars: Vec<usize>,
    prefix_ok: Vec<bool>,
    joined: String,
    compact: String,
}

/// The one-to-one alignment of query tokens with name tokens.
struct Alignment {
    /// Sum of the similarities of the aligned pairs.
    matched: f32,
    /// Name tokens compared.
    name_len: usize,
    /// Name position aligned with each query token.
    positions: [Option<u8>; MAX_QUERY_TOKENS],
}

impl ScoringQuery {
    /// `tokens`: the folded, deduplicated query tokens (at most
    /// `MAX_QUERY_TOKENS`; extra ones are ignored).
    pub(crate) fn new(mut tokens: Vec<String>) -> ScoringQuery {
        tokens.truncate(MAX_QUERY_TOKENS);
        let chars: Vec<usize> = tokens.iter().map(|t| t.chars().count()).collect();
        let count = tokens.len();
        let prefix_ok = chars
            .iter()
            .enumerate()
            .map(|(i, &c)| prefix_allowed(i, count, c))
            .collect();
        let joined = tokens.join(" ");
        let compact = tokens.concat();
        ScoringQuery {
            tokens,
            chars,
            prefix_ok,
            joined,
            compact,
        }
    }

    /// A query of the space-separated (already folded) words of `text`.
    #[cfg(test)]
    pub(crate) fn of_words(text: &str) -> ScoringQuery {
        ScoringQuery::new(text.split(' ').map(str::to_string).collect())
    }

    /// Number of query tokens.
    pub(crate) fn len(&self) -> usize {
        self.tokens.len()
    }

    /// Query token `qi`.
    pub(crate) fn token(&self, qi: usize) -> &str {
        &self.tokens[qi]
    }

    /// Typos tolerated for query token `qi`.
    pub(crate) fn typos(&self, qi: usize) -> u8 {
        max_typos(self.chars[qi])
    }

    /// Whether query token `qi` may match as a prefix.
    pub(crate) fn prefix_ok(&self, qi: usize) -> bool {
        self.prefix_ok[qi]
    }

    /// The highest score of a name in which at most one query token
    /// matches (exactly, at best) and that does not spell the query with
    /// other word breaks.
    pub(crate) fn one_token_bound(&self) -> f32 {
        self.matched_bound(1.0)
    }

    /// The highest score of a name whose aligned tokens' similarities sum
    /// to `matched` (other word breaks aside): they cover `matched / len`
    /// of the query and, at best, the whole name, in the query's order.
    pub(crate) fn matched_bound(&self, matched: f32) -> f32 {
        let len = self.tokens.len().max(1) as f32;
        let query_cover = matched.min(len) / len;
        let tokens = QUERY_COVERAGE_WEIGHT * query_cover + (1.0 - QUERY_COVERAGE_WEIGHT);
        (TOKEN_WEIGHT * tokens + (1.0 - TOKEN_WEIGHT)).min(1.0)
    }

    /// The highest score of a name of `words` words at least in which
    /// only tokens other than the first match, with similarities summing
    /// to `matched` (exactly `matched` for names that tie with the bound,
    /// so that ties stay ties; see [`ScoringQuery::single_match_bound`]).
    /// With `first_token`, the first query token may match too, as the
    /// name's first word.
    pub(crate) fn names_bound(&self, matched: f32, words: usize, first_token: bool) -> f32 {
        let starts = if first_token { 1.0 } else { 0.0 };
        let bound = self.combine(matched, words, 0.5 * starts + 0.5 * 1.0);
        if bound >= MAX_INEXACT {
            1.0 // the name may be the query itself
        } else {
            bound
        }
    }

    /// The highest similarity of a word that query token `qi` starts and
    /// that is longer (a completion; see [`prefix_similarity`]).
    pub(crate) fn completion_bound(&self, qi: usize) -> f32 {
        prefix_similarity(self.chars[qi], self.chars[qi] + 1)
    }

    /// The best score over `names` (folded names); `MIN_SCORE` when empty.
    pub(crate) fn best<'n>(&self, names: impl Iterator<Item = &'n str>) -> f32 {
        names.map(|name| self.score(name)).fold(MIN_SCORE, f32::max)
    }

    /// Similarity of one folded name (tokens joined by single spaces).
    pub(crate) fn score(&self, name: &str) -> f32 {
        if self.tokens.is_empty() || name.is_empty() {
            return MIN_SCORE;
        }
        if name == self.joined {
            return 1.0;
        }
        if self.same_letters(name) {
            return COMPACT_MATCH;
        }
        let alignment = self.align(name);
        let order = order_score(&alignment.positions[..self.tokens.len()]);
        self.combine(alignment.matched, alignment.name_len, order)
    }

    /// The score of a name of `name_len` tokens whose aligned tokens'
    /// similarities sum to `matched`, with order score `order` (not an exact
    /// match): the one formula of [`ScoringQuery::score`] and of the bounds
    /// that must never fall below it.
    fn combine(&self, matched: f32, name_len: usize, order: f32) -> f32 {
        let query_cover = matched / self.tokens.len() as f32;
        let name_cover = matched / name_len.max(1) as f32;
        let tokens =
            QUERY_COVERAGE_WEIGHT * query_cover + (1.0 - QUERY_COVERAGE_WEIGHT) * name_cover;
        (TOKEN_WEIGHT * tokens + (1.0 - TOKEN_WEIGHT) * order).clamp(MIN_SCORE, MAX_INEXACT)
    }

    /// The highest score of a name of `name_len` tokens (at least) in
    /// which query token `qi` alone matches, with similarity `similarity`
    /// at most, and not as the name's first word unless `first`. Computed
    /// with the very operations of [`ScoringQuery::score`], so that a name
    /// reaching the bound scores it exactly (ties stay ties).
    pub(crate) fn single_match_bound(
        &self,
        qi: usize,
        similarity: f32,
        name_len: usize,
        first: bool,
    ) -> f32 {
        self.names_bound(0.0 + similarity, name_len, first && qi == 0)
    }

    /// Whether `name` spells the query with other word breaks ("drop box"
    /// for "Dropbox", "ycombinator" for "Y Combinator").
    fn same_letters(&self, name: &str) -> bool {
        name.len() == self.compact.len() + name.matches(' ').count()
            && name
                .split(' ')
                .flat_map(str::bytes)
                .eq(self.compact.bytes())
    }

    /// Greedy one-to-one alignment, best pairs first.
    fn align(&self, name: &str) -> Alignment {
        let mut pairs = [(0f32, 0u8, 0u8); MAX_QUERY_TOKENS * MAX_NAME_TOKENS];
        let mut len = 0;
        let mut name_len = 0;
        for (ti, token) in name.split(' ').take(MAX_NAME_TOKENS).enumerate() {
            name_len = ti + 1;
            for qi in 0..self.tokens.len() {
                let sim = self.token_similarity(qi, token);
                if sim > 0.0 {
                    pairs[len] = (sim, qi as u8, ti as u8);
                    len += 1;
                }
            }
        }
        let pairs = &mut pairs[..len];
        pairs.sort_unstable_by(|a, b| b.0.total_cmp(&a.0).then((a.1, a.2).cmp(&(b.1, b.2))));
        let mut alignment = Alignment {
            matched: 0.0,
            name_len,
            positions: [None; MAX_QUERY_TOKENS],
        };
        let mut name_used = [false; MAX_NAME_TOKENS];
        for &(sim, qi, ti) in pairs.iter() {
            let (q, t) = (qi as usize, ti as usize);
            if alignment.positions[q].is_none() && !name_used[t] {
                alignment.positions[q] = Some(ti);
                name_used[t] = true;
                alignment.matched += sim;
            }
        }
        alignment
    }

    /// Similarity of query token `qi` and one name (or indexed) token, in
    /// [0, 1]; 0 when they do not match under the rules of `rules.rs`.
    pub(crate) fn token_similarity(&self, qi: usize, token: &str) -> f32 {
        let query = &self.tokens[qi];
        if query == token {
            return 1.0;
        }
        let q_chars = self.chars[qi];
        let t_chars = token.chars().count();
        let prefix = if self.prefix_ok[qi] && token.starts_with(query.as_str()) {
            prefix_similarity(q_chars, t_chars)
        } else {
            0.0
        };
        let budget = self.typos(qi) as usize;
        let typo = match edit_distance(query, token, budget) {
            Some(2) if query.chars().next() != token.chars().next() => 0.0,
            Some(d) if d > 0 => 1.0 - d as f32 * (0.1 + 0.8 / q_chars.max(t_chars) as f32),
            _ => 0.0,
        };
        prefix.max(typo)
    }
}

/// Similarity of a word of `word` characters that a query token of
/// `typed` characters starts: more the more of it is typed.
fn prefix_similarity(typed: usize, word: usize) -> f32 {
    0.5 + 0.45 * typed as f32 / word.max(1) as f32
}

/// Half for "the first query token is aligned with the first name word",
/// half for the share of consecutive aligned query tokens whose name
/// positions increase (full when at most one token is aligned).
fn order_score(positions: &[Option<u8>]) -> f32 {
    let starts = if positions.first() == Some(&Some(0)) {
        1.0
    } else {
        0.0
    };
    let mut aligned = positions.iter().flatten();
    let Some(mut previous) = aligned.next() else {
        return 0.5 * starts;
    };
    let (mut steps, mut forward) = (0u32, 0u32);
    for position in aligned {
        steps += 1;
        forward += u32::from(position > previous);
        previous = position;
    }
    let in_order = if steps == 0 {
        1.0
    } else {
        forward as f32 / steps as f32
    };
    0.5 * starts + 0.5 * in_order
}

/// Optimal-string-alignment distance of `a` and `b` when it is ≤ `max`
/// (characters; each string cut to [`MAX_UNITS`]).
pub(crate) fn edit_distance(a: &str, b: &str, max: usize) -> Option<usize> {
    if max == 0 {
        return (a == b).then_some(0);
    }
    if a.is_ascii() && b.is_ascii() {
        let (a, b) = (a.as_bytes(), b.as_bytes());
        return bounded_osa(
            &a[..a.len().min(MAX_UNITS)],
            &b[..b.len().min(MAX_UNITS)],
            max,
        );
    }
    let (mut a_buf, mut b_buf) = (['\0'; MAX_UNITS], ['\0'; MAX_UNITS]);
    bounded_osa(chars_into(a, &mut a_buf), chars_into(b, &mut b_buf), max)
}

/// The first `N` characters of `text`, in `buf`.
fn chars_into<'b, const N: usize>(text: &str, buf: &'b mut [char; N]) -> &'b [char] {
    let mut len = 0;
    for (slot, c) in buf.iter_mut().zip(text.chars()) {
        *slot = c;
        len += 1;
    }
    &buf[..len]
}

/// Bounded optimal string alignment on at most `MAX_UNITS` units each.
fn bounded_osa<T: Copy + Eq>(a: &[T], b: &[T], max: usize) -> Option<usize> {
    if a.len().abs_diff(b.len()) > max || a.len() > MAX_UNITS || b.len() > MAX_UNITS {
        return None;
    }
    // Distances are at most MAX_UNITS, so a row is a few cache lines of
    // bytes (this runs for every name token a search scores).
    let mut before = [0u8; MAX_UNITS + 1];
    let mut previous = [0u8; MAX_UNITS + 1];
    let mut current = [0u8; MAX_UNITS + 1];
    for (j, cell) in previous.iter_mut().enumerate().take(b.len() + 1) {
        *cell = j as u8;
    }
    let max = max.min(MAX_UNITS) as u8;
    for i in 1..=a.len() {
        current[0] = i as u8;
        let mut row_min = i as u8;
        for j in 1..=b.len() {
            let cost = u8::from(a[i - 1] != b[j - 1]);
            let mut best = (previous[j] + 1)
                .min(current[j - 1] + 1)
                .min(previous[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(before[j - 2] + 1);
            }
            current[j] = best;
            row_min = row_min.min(best);
        }
        if row_min > max {
            return None;
        }
        std::mem::swap(&mut before, &mut previous);
        std::mem::swap(&mut previous, &mut current);
    }
    let distance = previous[b.len()];
    (distance <= max).then_some(usize::from(distance))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(text: &str) -> ScoringQuery {
        ScoringQuery::of_words(text)
    }

    #[test]
    fn osa_distance_counts_transpositions_once_and_respects_the_bound() {
        assert_eq!(edit_distance("sequioa", "sequoia", 1), Some(1));
        assert_eq!(edit_distance("kitten", "sitting", 3), Some(3));
        assert_eq!(edit_distance("kitten", "sitting", 2), None);
        assert_eq!(edit_distance("abc", "abd", 0), None);
        assert_eq!(edit_distance("abc", "abc", 0), Some(0));
        assert_eq!(edit_distance("zürich", "zurich", 1), Some(1));
        assert_eq!(edit_distance("北京字节", "北京字节跳", 1), Some(1));
        assert_eq!(edit_distance("", "ab", 2), Some(2));
        assert_eq!(edit_distance("a", "abcd", 2), None);
        assert_eq!(
            edit_distance(&"a".repeat(100), &"a".repeat(99), 1),
            Some(0),
            "cut to 64"
        );
    }

    #[test]
    fn order_rewards_first_word_and_query_order() {
        assert_eq!(order_score(&[Some(0), Some(1)]), 1.0);
        assert_eq!(order_score(&[Some(1), Some(0)]), 0.0);
        assert_eq!(order_score(&[Some(1), Some(2)]), 0.5);
        assert_eq!(order_score(&[None, Some(0)]), 0.5);
        assert_eq!(order_score(&[None, None]), 0.0);
        assert_eq!(order_score(&[]), 0.0);
    }

    #[test]
    fn one_matching_token_stays_under_the_bound() {
        for text in [
            "carlos fisher",
            "hearst capital partners",
            "ana li",
            "camila m",
        ] {
            let q = query(text);
            let bound = q.one_token_bound();
            for name in [
                "carlos",
                "fisher",
                "fisherman",
                "capital",
                "hearst x",
                "li",
                "camila",
            ] {
                assert!(
                    q.score(name) <= bound,
                    "{text} / {name}: {} > {bound}",
                    q.score(name)
                );
            }
        }
        let q = query("carlos fisher");
        assert!(q.score("carlos fischer") > q.one_token_bound());
        assert!(
            q.score("carlos fischer") <= q.matched_bound(1.0 + q.token_similarity(1, "fischer"))
        );
        assert_eq!(q.matched_bound(2.0), 1.0);
        assert!(query("carl").completion_bound(0) >= query("carl").score("carlos"));
        assert!(q.score("fisher carlos") > q.one_token_bound());
        assert!(query("camila m").score("camila marquez") > query("camila m").one_token_bound());
    }

    #[test]
    fn exact_names_alone_score_one() {
        assert_eq!(query("stripe").score("stripe"), 1.0);
        assert!(query("stripe").score("stripe labs") < 1.0);
        assert!(query("capital sequoia").score("sequoia capital") <= MAX_INEXACT);
    }

    #[test]
    fn ranks_exact_then_extra_words_then_typos() {
        let q = query("stripe");
        let (exact, longer, typo) = (q.score("stripe"), q.score("stripe labs"), q.score("strive"));
        assert!(exact > longer && longer > typo, "{exact} {longer} {typo}");
        assert!(longer > q.score("jon stripe"));
        assert!(typo > q.score("strive labs"));
    }

    #[test]
    fn equal_typos_score_equally() {
        let q = query("kezanbel");
        assert_eq!(q.score("kazanbel"), q.score("pezanbel"));
    }

    #[test]
    fn other_word_breaks_score_high() {
        assert_eq!(query("drop box").score("dropbox"), COMPACT_MATCH);
        assert_eq!(query("ycombinator").score("y combinator"), COMPACT_MATCH);
        assert!(query("drop box").score("dropbox inc") < COMPACT_MATCH);
        assert!(query("dropbox").score("drop boxes") < COMPACT_MATCH);
    }

    #[test]
    fn prefix_completion_beats_a_typo_in_a_short_word() {
        let q = query("face");
        assert!(
            q.score("facebook") > q.score("ace"),
            "{} {}",
            q.score("facebook"),
            q.score("ace")
        );
    }

    #[test]
    fn word_order_costs_little() {
        let swapped = query("capital sequoia").score("sequoia capital");
        assert!(swapped >= 0.9, "{swapped}");
        assert!(swapped < query("sequoia capital").score("sequoia capital labs") + 0.1);
        assert!(swapped > query("capital sequoia").score("sequoia heritage"));
    }

    #[test]
    fn one_typo_keeps_a_high_score() {
        let typo = query("sequioa").score("sequoia capital");
        assert!(typo > 0.7, "{typo}");
        assert!(query("sequioa capital").score("sequoia capital") > 0.85);
        assert!(query("andresen").score("andreessen") > 0.5);
        assert_eq!(
            query("bndresen").token_similarity(0, "andreessen"),
            0.0,
            "2 typos incl. the first letter"
        );
    }

    #[test]
    fn prefixes_score_by_how_much_is_typed() {
        let q = query("sequoia cap");
        let more = q.score("sequoia capital");
        assert!(
            more > 0.8 && more > query("sequoia c").score("sequoia capital"),
            "{more}"
        );
        assert!(query("seq").score("sequoia") > query("s").score("sequoia"));
        // A short non-final token is not a prefix: "ab" does not start "abc".
        assert!(query("ab x").score("abc") < query("abc x").score("abc"));
    }

    #[test]
    fn scores_stay_in_range() {
        let q = query("a b c d e f g h i j k l");
        for name in [
            "",
            "a",
            "z",
            "a b c d e f g h i j",
            &"q ".repeat(40),
            "北京 字节",
        ] {
            let s = q.score(name);
            assert!(s > 0.0 && s <= 1.0, "{name:?}: {s}");
        }
        assert_eq!(ScoringQuery::new(Vec::new()).score("x"), MIN_SCORE);
        assert_eq!(query("x").best(std::iter::empty()), MIN_SCORE);
        assert_eq!(query("x").best(["y", "x"].into_iter()), 1.0);
    }
}
