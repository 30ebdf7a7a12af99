//! The embedding cache of the indexer: `<cache dir>/<model id>.cache`, a
//! bundle (tag `ECAC`, same container as the index files: magic, version,
//! CRC-32) holding the quantised vector of every distinct company text of
//! the last build.
//!
//! | array | type | content |
//! |---|---|---|
//! | `cache.meta` | u8 | JSON `ModelInfo` of the model that made the vectors |
//! | `cache.hashes` | u128 × n | first 16 bytes of each text's SHA-256, ascending |
//! | `cache.codes` | i8 × n·dim | the quantised vectors, in hash order |
//! | `cache.scales` | f32 × n | their scales |
//!
//! A cache of another model or dimension, or one that fails its checksum,
//! is ignored (and replaced after the build). It is written to a temporary
//! name and renamed, so a crash never leaves a half-written cache.

use std::collections::HashMap;
use std::io;
use std::path::Path;

use crate::embed::ModelInfo;
use crate::index::format::{Bundle, BundleWriter};
use crate::index::vectors::Quantized;

pub const CACHE_TAG: [u8; 4] = *b"ECAC";

pub struct EmbedCache {
    bundle: Bundle,
    dim: usize,
}

impl EmbedCache {
    /// The cache at `path` if it exists, is sound and was made by `model`.
    pub fn open(path: &Path, model: &ModelInfo) -> Option<EmbedCache> {
        let bundle = Bundle::open(path, CACHE_TAG, true).ok()?;
        let meta: ModelInfo =
            serde_json::from_slice(bundle.array::<u8>("cache.meta").ok()?).ok()?;
        let n = bundle.array::<u128>("cache.hashes").ok()?.len();
        let sound = meta == *model
            && bundle.array::<i8>("cache.codes").ok()?.len() == n * model.dim
            && bundle.array::<f32>("cache.scales").ok()?.len() == n;
        sound.then_some(EmbedCache {
            bundle,
            dim: model.dim,
        })
    }

    /// The cached vector of the text with `hash`.
    pub fn get(&self, hash: u128) -> Option<Quantized> {
        let hashes = self.bundle.array::<u128>("cache.hashes").ok()?;
        let i = hashes.binary_search(&hash).ok()?;
        let codes = self.bundle.array::<i8>("cache.codes").ok()?;
        Some(Quantized {
            codes: codes[i * self.dim..(i + 1) * self.dim].to_vec(),
            scale: self.bundle.array::<f32>("cache.scales").ok()?[i],
        })
    }

    /// Replaces the cache at `path` with `vectors`.
    pub fn write(
        path: &Path,
        model: &ModelInfo,
        vectors: &HashMap<u128, Quantized>,
    ) -> io::Result<()> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let mut hashes: Vec<u128> = vectors.keys().copied().collect();
        hashes.sort_unstable();
        let tmp = path.with_extension("cache.part");
        let mut out = BundleWriter::create(&tmp, CACHE_TAG)?;
        out.put_bytes("cache.meta", &serde_json::to_vec(model)?)?;
        out.put("cache.hashes", &hashes)?;
        let codes: Vec<i8> = hashes
            .iter()
            .flat_map(|h| vectors[h].codes.iter().copied())
            .collect();
        out.put("cache.codes", &codes)?;
        let scales: Vec<f32> = hashes.iter().map(|h| vectors[h].scale).collect();
        out.put("cache.scales", &scales)?;
        out.finish()?;
        std::fs::rename(&tmp, path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::embed::Calibration;

    #[test]
    fn round_trip_and_model_check() {
        let dir = std::env::temp_dir().join(format!("fundsearch-ecache-{}", std::process::id()));
        let path = dir.join("m.cache");
        let model = ModelInfo {
            id: "m".into(),
            dim: 3,
            calibration: Calibration::DEFAULT,
        };
        let mut vectors = HashMap::new();
        vectors.insert(7u128, Quantized::of(&[0.6, 0.8, 0.0]));
        vectors.insert(3u128, Quantized::of(&[0.0, 0.0, 1.0]));
        EmbedCache::write(&path, &model, &vectors).unwrap();
        let cache = EmbedCache::open(&path, &model).unwrap();
        assert_eq!(cache.get(7).unwrap().codes, vectors[&7].codes);
        assert_eq!(cache.get(3).unwrap().scale, vectors[&3].scale);
        assert!(cache.get(5).is_none());
        let other = ModelInfo {
            id: "other".into(),
            ..model.clone()
        };
        assert!(
            EmbedCache::open(&path, &other).is_none(),
            "another model's cache is ignored"
        );
        std::fs::write(&path, b"not a cache").unwrap();
        assert!(
            EmbedCache::open(&path, &model).is_none(),
            "a damaged cache is ignored"
        );
        std::fs::remove_dir_all(dir).unwrap();
    }
}
