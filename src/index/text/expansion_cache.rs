//! A bounded cache of token expansions.
//!
//! The index never changes once opened, so the expansions of a query token
//! (its exact, typo and prefix variants in the term dictionary, with their
//! document frequencies and similarity weights) are a pure function of the
//! token and of whether it may match as a prefix. Common words — first
//! names, "capital", "labs" — recur in most queries, and expanding one walks
//! a Levenshtein automaton over the whole term dictionary, which profiling
//! showed to be half of a search's cost. When the cache is full it is
//! simply cleared (no bookkeeping on the hot path).

use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use super::error::TextError;
use super::expand::Expansion;

/// Distinct tokens kept before the cache is cleared.
pub(crate) const CAPACITY: usize = 100_000;

/// Expansions by token, for tokens that may (`[1]`) or may not (`[0]`) match as a prefix.
type Entry = [Option<Arc<Vec<Expansion>>>; 2];

#[derive(Default)]
pub(crate) struct ExpansionCache {
    map: RwLock<HashMap<String, Entry>>,
}

impl ExpansionCache {
    /// The cached expansions of `token`, computing them on a miss.
    pub(crate) fn get_or_compute(
        &self,
        token: &str,
        prefix_ok: bool,
        compute: impl FnOnce() -> Result<Vec<Expansion>, TextError>,
    ) -> Result<Arc<Vec<Expansion>>, TextError> {
        let slot = prefix_ok as usize;
        let hit = self
            .map
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .get(token)
            .and_then(|e| e[slot].clone());
        if let Some(hit) = hit {
            return Ok(hit);
        }
        let computed = Arc::new(compute()?);
        let mut map = self.map.write().unwrap_or_else(|p| p.into_inner());
        if map.len() >= CAPACITY && !map.contains_key(token) {
            map.clear();
        }
        map.entry(token.to_string()).or_default()[slot] = Some(computed.clone());
        Ok(computed)
    }

    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.map.read().unwrap_or_else(|p| p.into_inner()).len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expansion(term: &str) -> Expansion {
        Expansion {
            term: term.to_string(),
            prefix: false,
            doc_freq: 1,
            weight: 1.0,
        }
    }

    #[test]
    fn computes_once_per_token_and_prefix_flag() {
        let cache = ExpansionCache::default();
        let mut calls = 0;
        for _ in 0..3 {
            let got = cache.get_or_compute("lumina", false, || {
                calls += 1;
                Ok(vec![expansion("lumina")])
            });
            assert_eq!(got.unwrap().len(), 1);
        }
        assert_eq!(calls, 1);
        cache
            .get_or_compute("lumina", true, || {
                Ok(vec![expansion("lumen"), expansion("lumina")])
            })
            .unwrap();
        assert_eq!(
            cache
                .get_or_compute("lumina", true, || Ok(Vec::new()))
                .unwrap()
                .len(),
            2
        );
        assert_eq!(cache.len(), 1);
    }

    #[test]
    fn errors_are_not_cached() {
        let cache = ExpansionCache::default();
        assert!(cache
            .get_or_compute("x", false, || Err(TextError::Capacity("test")))
            .is_err());
        assert_eq!(
            cache
                .get_or_compute("x", false, || Ok(vec![expansion("x")]))
                .unwrap()
                .len(),
            1
        );
    }
}
