//! Re-scoring: a similarity in (0, 1] between a folded query and a folded
//! name, computed in Rust on the few candidates tantivy returns.
//!
//! `score = 0.85 × tokens + 0.15 × jaro_winkler(query, name)`, where
//!
//! - `tokens` aligns query tokens with name tokens one-to-one (greedy, best
//!   pair first) using the per-token similarity below, then blends how much
//!   of the query is matched (weight 0.75) with how much of the name is
//!   (0.25): "stripe" matches all of "Stripe" but half of "Stripe Labs";
//! - per token: 1 for equal tokens; `0.4 + 0.55 × |q| / |t|` when the query
//!   token is a (permitted, see `rules.rs`) prefix of the name token; and
//!   `1 − d × (0.1 + 0.5 / len)` for `d` typos within the budget, so one typo
//!   in a long word costs less than in a short one;
//! - Jaro–Winkler on the whole strings rewards the same word order and a
//!   common beginning, separating "sequoia capital" from "capital sequoia".
//!
//! Only an exact folded match scores 1.0; everything else is capped at
//! [`MAX_INEXACT`] and floored at [`MIN_SCORE`]. All work is on the stack:
//! tokens longer than [`MAX_UNITS`] characters and names longer than
//! [`MAX_NAME_TOKENS`] tokens are cut before comparing.

use super::analyzer::MAX_QUERY_TOKENS;
use super::rules::{max_typos, prefix_allowed};

/// Highest score of a name that is not an exact match.
pub(crate) const MAX_INEXACT: f32 = 0.99;
/// Lowest score ever returned.
pub(crate) const MIN_SCORE: f32 = 0.01;

const TOKEN_WEIGHT: f32 = 0.85;
const QUERY_COVERAGE_WEIGHT: f32 = 0.75;
const MAX_UNITS: usize = 64;
const MAX_JW_UNITS: usize = 128;
const MAX_NAME_TOKENS: usize = 16;

/// A query prepared for scoring many names.
pub(crate) struct ScoringQuery {
    tokens: Vec<String>,
    chars: Vec<usize>,
    prefix_ok: Vec<bool>,
    joined: String,
}

impl ScoringQuery {
    /// `tokens`: the folded, deduplicated query tokens (at most
    /// `MAX_QUERY_TOKENS`; extra ones are ignored).
    pub(crate) fn new(mut tokens: Vec<String>) -> ScoringQuery {
        tokens.truncate(MAX_QUERY_TOKENS);
        let chars: Vec<usize> = tokens.iter().map(|t| t.chars().count()).collect();
        let count = tokens.len();
        let prefix_ok = chars.iter().enumerate().map(|(i, &c)| prefix_allowed(i, count, c)).collect();
        let joined = tokens.join(" ");
        ScoringQuery { tokens, chars, prefix_ok, joined }
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
        let tokens = self.token_score(name);
        let whole = jaro_winkler(&self.joined, name);
        (TOKEN_WEIGHT * tokens + (1.0 - TOKEN_WEIGHT) * whole).clamp(MIN_SCORE, MAX_INEXACT)
    }

    /// Coverage blend of the one-to-one token alignment.
    fn token_score(&self, name: &str) -> f32 {
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
        let matched = assign(pairs);
        let query_cover = matched / self.tokens.len() as f32;
        let name_cover = matched / name_len.max(1) as f32;
        QUERY_COVERAGE_WEIGHT * query_cover + (1.0 - QUERY_COVERAGE_WEIGHT) * name_cover
    }

    /// Similarity of query token `qi` and one name token, in [0, 1].
    fn token_similarity(&self, qi: usize, token: &str) -> f32 {
        let query = &self.tokens[qi];
        if query == token {
            return 1.0;
        }
        let q_chars = self.chars[qi];
        let t_chars = token.chars().count();
        let prefix = if self.prefix_ok[qi] && token.starts_with(query.as_str()) {
            0.4 + 0.55 * q_chars as f32 / t_chars as f32
        } else {
            0.0
        };
        let budget = max_typos(q_chars) as usize;
        let typo = match edit_distance(query, token, budget) {
            Some(d) if d > 0 => {
                1.0 - d as f32 * (0.1 + 0.5 / q_chars.max(t_chars) as f32)
            }
            _ => 0.0,
        };
        prefix.max(typo)
    }
}

/// Greedy one-to-one assignment over pairs sorted best first; returns the
/// sum of the similarities of the pairs taken.
fn assign(pairs: &[(f32, u8, u8)]) -> f32 {
    let mut query_used = [false; MAX_QUERY_TOKENS];
    let mut name_used = [false; MAX_NAME_TOKENS];
    let mut sum = 0.0;
    for &(sim, qi, ti) in pairs {
        let (qi, ti) = (qi as usize, ti as usize);
        if !query_used[qi] && !name_used[ti] {
            query_used[qi] = true;
            name_used[ti] = true;
            sum += sim;
        }
    }
    sum
}

/// Optimal-string-alignment distance of `a` and `b` when it is ≤ `max`
/// (characters; each string cut to [`MAX_UNITS`]).
pub(crate) fn edit_distance(a: &str, b: &str, max: usize) -> Option<usize> {
    if max == 0 {
        return (a == b).then_some(0);
    }
    if a.is_ascii() && b.is_ascii() {
        let (a, b) = (a.as_bytes(), b.as_bytes());
        return bounded_osa(&a[..a.len().min(MAX_UNITS)], &b[..b.len().min(MAX_UNITS)], max);
    }
    let (mut a_buf, mut b_buf) = (['\0'; MAX_UNITS], ['\0'; MAX_UNITS]);
    bounded_osa(chars_into(a, &mut a_buf), chars_into(b, &mut b_buf), max)
}

/// Jaro–Winkler similarity in [0, 1] (characters; each string cut to
/// [`MAX_JW_UNITS`]).
pub(crate) fn jaro_winkler(a: &str, b: &str) -> f32 {
    if a.is_ascii() && b.is_ascii() {
        let (a, b) = (a.as_bytes(), b.as_bytes());
        return jaro_winkler_units(&a[..a.len().min(MAX_JW_UNITS)], &b[..b.len().min(MAX_JW_UNITS)]);
    }
    let (mut a_buf, mut b_buf) = (['\0'; MAX_JW_UNITS], ['\0'; MAX_JW_UNITS]);
    jaro_winkler_units(chars_into(a, &mut a_buf), chars_into(b, &mut b_buf))
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
    let mut before = [0usize; MAX_UNITS + 1];
    let mut previous = [0usize; MAX_UNITS + 1];
    let mut current = [0usize; MAX_UNITS + 1];
    for (j, cell) in previous.iter_mut().enumerate().take(b.len() + 1) {
        *cell = j;
    }
    for i in 1..=a.len() {
        current[0] = i;
        let mut row_min = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (previous[j] + 1).min(current[j - 1] + 1).min(previous[j - 1] + cost);
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
    (distance <= max).then_some(distance)
}

/// Jaro–Winkler (prefix scale 0.1, up to 4 prefix units) on at most
/// `MAX_JW_UNITS` units each.
fn jaro_winkler_units<T: Copy + Eq>(a: &[T], b: &[T]) -> f32 {
    if a.is_empty() || b.is_empty() || a.len() > MAX_JW_UNITS || b.len() > MAX_JW_UNITS {
        return if a.is_empty() && b.is_empty() { 1.0 } else { 0.0 };
    }
    let window = (a.len().max(b.len()) / 2).saturating_sub(1);
    let mut a_matched = [false; MAX_JW_UNITS];
    let mut b_matched = [false; MAX_JW_UNITS];
    let mut matches = 0usize;
    for (i, unit) in a.iter().enumerate() {
        let end = (i + window + 1).min(b.len());
        for j in i.saturating_sub(window)..end {
            if !b_matched[j] && b[j] == *unit {
                a_matched[i] = true;
                b_matched[j] = true;
                matches += 1;
                break;
            }
        }
    }
    if matches == 0 {
        return 0.0;
    }
    let b_in_order = b.iter().zip(b_matched).filter(|(_, m)| *m).map(|(u, _)| u);
    let a_in_order = a.iter().zip(a_matched).filter(|(_, m)| *m).map(|(u, _)| u);
    let half_transpositions = a_in_order.zip(b_in_order).filter(|(x, y)| x != y).count();
    let m = matches as f32;
    let jaro = (m / a.len() as f32 + m / b.len() as f32 + (m - half_transpositions as f32 / 2.0) / m) / 3.0;
    let prefix = a.iter().zip(b).take(4).take_while(|(x, y)| x == y).count();
    jaro + prefix as f32 * 0.1 * (1.0 - jaro)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(text: &str) -> ScoringQuery {
        ScoringQuery::new(text.split(' ').map(str::to_string).collect())
    }

    fn near(a: f32, b: f32) -> bool {
        (a - b).abs() < 1e-3
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
    }

    #[test]
    fn jaro_winkler_matches_reference_values() {
        assert!(near(jaro_winkler("martha", "marhta"), 0.961));
        assert!(near(jaro_winkler("dwayne", "duane"), 0.84));
        assert!(near(jaro_winkler("dixon", "dicksonx"), 0.813));
        assert!(near(jaro_winkler("abc", "abc"), 1.0));
        assert_eq!(jaro_winkler("abc", "xyz"), 0.0);
        assert_eq!(jaro_winkler("", "xyz"), 0.0);
        assert!(near(jaro_winkler("zürich", "zürich"), 1.0));
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
        assert!(typo > q.score("strive labs"));
    }

    #[test]
    fn word_order_costs_little() {
        let swapped = query("capital sequoia").score("sequoia capital");
        assert!(swapped > 0.9, "{swapped}");
        assert!(swapped > query("capital sequoia").score("sequoia heritage"));
    }

    #[test]
    fn one_typo_keeps_a_high_score() {
        let typo = query("sequioa").score("sequoia capital");
        assert!(typo > 0.7, "{typo}");
        assert!(query("sequioa capital").score("sequoia capital") > 0.85);
    }

    #[test]
    fn prefixes_score_by_how_much_is_typed() {
        let q = query("sequoia cap");
        let more = q.score("sequoia capital");
        assert!(more > 0.8 && more > query("sequoia c").score("sequoia capital"), "{more}");
        assert!(query("seq").score("sequoia") > query("s").score("sequoia"));
        // A short non-final token is not a prefix: "ab" does not start "abc".
        assert!(query("ab x").score("abc") < query("abc x").score("abc"));
    }

    #[test]
    fn scores_stay_in_range() {
        let q = query("a b c d e f g h i j k l");
        for name in ["", "a", "z", "a b c d e f g h i j", &"q ".repeat(40), "北京 字节"] {
            let s = q.score(name);
            assert!(s > 0.0 && s <= 1.0, "{name:?}: {s}");
        }
        assert_eq!(ScoringQuery::new(Vec::new()).score("x"), MIN_SCORE);
        assert_eq!(query("x").best(std::iter::empty()), MIN_SCORE);
        assert_eq!(query("x").best(["y", "x"].into_iter()), 1.0);
    }
}
