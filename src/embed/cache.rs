//! A small cache of query embeddings in front of an [`Embedder`]: a search
//! repeated with the same `search_query` text (paging through results, a
//! dashboard refreshing) skips the model. Least recently used entries go
//! first; the capacity is a count of texts (a 384-d vector is 1.5 KB).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::{EmbedError, Embedder, ModelInfo};

pub struct CachedEmbedder {
    inner: Arc<dyn Embedder>,
    capacity: usize,
    entries: Mutex<Lru>,
}

#[derive(Default)]
struct Lru {
    tick: u64,
    map: HashMap<String, (u64, Arc<[f32]>)>,
}

impl Lru {
    fn get(&mut self, text: &str) -> Option<Arc<[f32]>> {
        self.tick += 1;
        let tick = self.tick;
        self.map.get_mut(text).map(|(used, v)| {
            *used = tick;
            v.clone()
        })
    }

    fn put(&mut self, text: &str, vector: Arc<[f32]>, capacity: usize) {
        if self.map.len() >= capacity {
            let oldest = self.map.iter().min_by_key(|(_, (used, _))| *used);
            if let Some(key) = oldest.map(|(k, _)| k.clone()) {
                self.map.remove(&key);
            }
        }
        self.tick += 1;
        self.map.insert(text.to_string(), (self.tick, vector));
    }
}

impl CachedEmbedder {
    /// `inner` behind a cache of `capacity` texts (a `Box` or a shared `Arc`).
    pub fn new(inner: impl Into<Arc<dyn Embedder>>, capacity: usize) -> CachedEmbedder {
        CachedEmbedder {
            inner: inner.into(),
            capacity: capacity.max(1),
            entries: Mutex::new(Lru::default()),
        }
    }

    pub fn info(&self) -> &ModelInfo {
        self.inner.info()
    }

    /// The vector of one query text, from the cache when it was seen recently.
    pub fn query(&self, text: &str) -> Result<Arc<[f32]>, EmbedError> {
        if let Some(hit) = self.lock().get(text) {
            return Ok(hit);
        }
        let vector: Arc<[f32]> = self.inner.embed(&[text])?.remove(0).into();
        self.lock().put(text, vector.clone(), self.capacity);
        Ok(vector)
    }

    /// Texts currently cached.
    pub fn cached(&self) -> usize {
        self.lock().map.len()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Lru> {
        self.entries.lock().unwrap_or_else(|p| p.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::embed::Calibration;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// Counts its calls; the vector is the text's length.
    struct Counting(Arc<AtomicUsize>, ModelInfo);

    impl Embedder for Counting {
        fn info(&self) -> &ModelInfo {
            &self.1
        }
        fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
            self.0.fetch_add(1, Ordering::SeqCst);
            Ok(texts.iter().map(|t| vec![t.len() as f32]).collect())
        }
    }

    #[test]
    fn repeats_hit_and_the_oldest_is_evicted() {
        let info = ModelInfo {
            id: "counting".into(),
            dim: 1,
            calibration: Calibration::DEFAULT,
        };
        let calls = Arc::new(AtomicUsize::new(0));
        let cache = CachedEmbedder::new(
            Arc::new(Counting(calls.clone(), info)) as Arc<dyn Embedder>,
            2,
        );
        let count = || calls.load(Ordering::SeqCst);
        assert_eq!(&*cache.query("ab").unwrap(), &[2.0]);
        assert_eq!(&*cache.query("abc").unwrap(), &[3.0]);
        assert_eq!(&*cache.query("ab").unwrap(), &[2.0]); // hit: "abc" is now the oldest
        assert_eq!(count(), 2);
        cache.query("abcd").unwrap(); // evicts "abc"
        assert_eq!(cache.cached(), 2);
        cache.query("ab").unwrap();
        assert_eq!(count(), 3, "a cached text is not embedded again");
        cache.query("abc").unwrap();
        assert_eq!(count(), 4, "an evicted text is embedded again");
    }
}
