//! What counts as a match between a query token and an indexed token.
//!
//! Retrieval (`plan.rs`) and re-scoring (`similarity.rs`) both follow these
//! rules, so every candidate tantivy returns can be explained by re-scoring:
//!
//! - exact: equal folded tokens;
//! - typo: Damerau (optimal string alignment) distance ≤ [`max_typos`] of the
//!   query token's length in characters: 0 below 4, 1 for 4–7, 2 from 8;
//!   with two typos the first character must be right (as in Meilisearch),
//!   and retrieval only looks two typos away when nothing is one typo away;
//! - prefix: the query token starts the indexed token, allowed for the last
//!   query token (the one being typed) and for any token of ≥ 3 characters.

/// Query tokens shorter than this never match with a typo.
pub(crate) const MIN_TYPO_CHARS: usize = 4;

/// Query tokens from this length tolerate two typos.
pub(crate) const TWO_TYPO_CHARS: usize = 8;

/// Non-final query tokens match as a prefix from this length.
pub(crate) const MIN_PREFIX_CHARS: usize = 3;

/// Edits tolerated for a query token of `chars` characters.
pub(crate) fn max_typos(chars: usize) -> u8 {
    match chars {
        0..MIN_TYPO_CHARS => 0,
        MIN_TYPO_CHARS..TWO_TYPO_CHARS => 1,
        _ => 2,
    }
}

/// Whether token `index` of a `count`-token query (of `chars` characters)
/// may match as a prefix.
pub(crate) fn prefix_allowed(index: usize, count: usize, chars: usize) -> bool {
    index + 1 == count || chars >= MIN_PREFIX_CHARS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typo_budget_grows_with_length() {
        let budgets: Vec<u8> = (0..10).map(max_typos).collect();
        assert_eq!(budgets, [0, 0, 0, 0, 1, 1, 1, 1, 2, 2]);
    }

    #[test]
    fn last_or_long_tokens_match_as_prefix() {
        assert!(prefix_allowed(1, 2, 1));
        assert!(prefix_allowed(0, 2, 3));
        assert!(!prefix_allowed(0, 2, 2));
    }
}
