//! Unique company permalinks in bounded memory.
//!
//! A company's permalink is its name's slug (its *key*), followed by `-k`
//! when it is the k-th company, in company order, with that key (k ≥ 2).
//! Keys never end in `-<digits>` ([`key`] appends `-x` to the rare slug that
//! would), so a suffixed permalink can never equal another company's key and
//! every permalink is unique. On generated names this is exactly what
//! `names::unique_permalinks` gives (a test checks it), without holding every
//! name.
//!
//! # What is kept
//!
//! [`Permalinks`] keeps only the companies whose rank is 2 or more, as
//! `(company, rank)` sorted by company: 8 bytes for one company in four at M.
//! Ranks are found by sorting `(hash of key, company)` pairs, at most
//! [`SORT_PAIRS`] at a time: the keys are drawn again for each of the
//! `⌈count / SORT_PAIRS⌉` hash ranges, so the sort's memory stays the same at
//! any scale. Two keys with the same 64-bit hash would share one count; their
//! permalinks stay unique (keys differ), only a suffix is then larger than it
//! would be.

use std::hash::{DefaultHasher, Hash, Hasher};

use rayon::prelude::*;

use crate::progress::Counter;

/// `(hash, company)` pairs sorted at once: 64 MB.
pub const SORT_PAIRS: usize = 1 << 22;

/// Keys drawn between two progress updates.
const DRAWN_AT_ONCE: usize = 1 << 20;

/// The companies whose permalink carries a rank suffix.
#[derive(Debug, Default)]
pub struct Permalinks {
    /// `(company, rank)`, rank ≥ 2, sorted by company.
    ranked: Vec<(u32, u32)>,
}

impl Permalinks {
    /// How many hash ranges ranking `count` companies takes: each draws
    /// every key once.
    pub fn ranges(count: usize) -> u64 {
        count.div_ceil(SORT_PAIRS).max(1) as u64
    }

    /// Ranks companies `0..count` (at most `u32::MAX + 1`), whose keys
    /// `key_of` draws (any thread, several times each); every key drawn is
    /// counted on `drawn`.
    pub fn rank(
        count: usize,
        key_of: impl Fn(usize) -> String + Sync,
        drawn: &Counter,
    ) -> Permalinks {
        let ranges = Permalinks::ranges(count);
        let mut ranked: Vec<(u32, u32)> = (0..ranges)
            .flat_map(|range| ranked_in((count, ranges, range), &key_of, drawn))
            .collect();
        ranked.par_sort_unstable();
        ranked.shrink_to_fit();
        Permalinks { ranked }
    }

    /// Company `n`'s permalink, given its key.
    pub fn permalink(&self, n: usize, key: String) -> String {
        match self.rank_of(n) {
            1 => key,
            k => format!("{key}-{k}"),
        }
    }

    /// Company `n`'s rank among the companies with its key (1 for the first).
    fn rank_of(&self, n: usize) -> u32 {
        let Ok(n) = u32::try_from(n) else {
            return 1;
        };
        self.ranked
            .binary_search_by_key(&n, |&(c, _)| c)
            .map_or(1, |i| self.ranked[i].1)
    }

    /// How many companies carry a suffix.
    #[cfg(test)]
    pub fn suffixed(&self) -> usize {
        self.ranked.len()
    }
}

/// The `(company, rank ≥ 2)` pairs of the companies whose key hashes into
/// `range` of `ranges`.
fn ranked_in(
    (count, ranges, range): (usize, u64, u64),
    key_of: &(impl Fn(usize) -> String + Sync),
    drawn: &Counter,
) -> Vec<(u32, u32)> {
    let mut pairs: Vec<(u64, u32)> = Vec::new();
    for start in (0..count).step_by(DRAWN_AT_ONCE) {
        let end = (start + DRAWN_AT_ONCE).min(count);
        pairs.par_extend((start..end).into_par_iter().filter_map(|n| {
            let hash = hash_of(&key_of(n));
            (range_of(hash, ranges) == range).then_some((hash, n as u32))
        }));
        drawn.inc((end - start) as u64);
    }
    pairs.par_sort_unstable();
    let mut ranked = Vec::new();
    let mut rank = 0u32;
    for (i, &(hash, n)) in pairs.iter().enumerate() {
        rank = if i > 0 && pairs[i - 1].0 == hash {
            rank + 1
        } else {
            1
        };
        if rank > 1 {
            ranked.push((n, rank));
        }
    }
    ranked
}

fn hash_of(key: &str) -> u64 {
    let mut hasher = DefaultHasher::new();
    key.hash(&mut hasher);
    hasher.finish()
}

/// Which of `ranges` equal hash ranges `hash` falls in.
fn range_of(hash: u64, ranges: u64) -> u64 {
    ((hash as u128 * ranges as u128) >> 64) as u64
}

/// The permalink key of a name: its slug, `company` for an empty one, and
/// `-x` appended to a slug ending in `-<digits>`.
pub fn key(name: &str) -> String {
    let mut key = crate::schema::ids::slugify(name);
    if key.is_empty() {
        key.push_str("company");
    }
    if ends_in_number(&key) {
        key.push_str("-x");
    }
    key
}

fn ends_in_number(slug: &str) -> bool {
    let Some((_, tail)) = slug.rsplit_once('-') else {
        return false;
    };
    !tail.is_empty() && tail.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashSet;

    fn permalinks_of(names: &[String]) -> Vec<String> {
        let links = Permalinks::rank(names.len(), |n| key(&names[n]), &Counter::hidden());
        (0..names.len())
            .map(|n| links.permalink(n, key(&names[n])))
            .collect()
    }

    #[test]
    fn keys_never_end_in_a_number() {
        assert_eq!(key("Acme"), "acme");
        assert_eq!(key("!!"), "company");
        assert_eq!(key("Acme 2"), "acme-2-x");
        assert_eq!(key("Web3"), "web3");
        assert_eq!(key("3M"), "3m");
    }

    #[test]
    fn later_holders_of_a_key_get_its_rank() {
        let names: Vec<String> = ["Acme", "Beta", "acme", "Acme 2", "ACME", "", "Company"]
            .map(String::from)
            .to_vec();
        let got = permalinks_of(&names);
        let want = [
            "acme",
            "beta",
            "acme-2",
            "acme-2-x",
            "acme-3",
            "company",
            "company-2",
        ];
        assert_eq!(got, want);
    }

    #[test]
    fn several_hash_ranges_give_the_same_ranks() {
        let names: Vec<String> = (0..20_000).map(|i| format!("n{}", i % 977)).collect();
        let drawn = Counter::hidden();
        let one = Permalinks::rank(names.len(), |n| key(&names[n]), &drawn);
        assert_eq!(drawn.count(), 20_000);
        let mut many = Vec::new();
        for range in 0..5 {
            let key_of = |n: usize| key(&names[n]);
            many.extend(ranked_in((names.len(), 5, range), &key_of, &drawn));
        }
        assert_eq!(drawn.count(), 20_000 * 6);
        many.sort_unstable();
        assert_eq!(one.ranked, many);
        assert_eq!(one.suffixed(), 20_000 - 977);
    }

    proptest! {
        #[test]
        fn permalinks_are_unique(names in proptest::collection::vec("[a-c0-9 -]{0,5}", 0..200)) {
            let got = permalinks_of(&names);
            let distinct: HashSet<&String> = got.iter().collect();
            prop_assert_eq!(distinct.len(), names.len());
        }
    }
}
