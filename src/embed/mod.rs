//! Sentence embeddings for semantic search, run in process on the CPU.
//!
//! An [`Embedder`] turns a batch of texts into unit-length vectors of one
//! fixed dimension. Two real models implement it:
//!
//! - [`minilm::MiniLm`]: sentence-transformers `all-MiniLM-L6-v2` (BERT, 6
//!   layers, 384 dimensions, mean pooling over the attention mask, then L2
//!   normalisation), run through candle. The quality model: the default.
//! - [`wordllama::WordLlama`]: the static WordLlama `l2_supercat_256` model
//!   (the mean of 256-dimensional token rows, then L2 normalisation): about a
//!   thousand times faster to embed, weaker on paraphrases; meant for very
//!   large synthetic corpora.
//!
//! # Contract of [`Embedder`]
//!
//! - `embed(texts)` returns one vector per text, in order, each of
//!   `info().dim` finite values with an L2 norm of 1 (an empty or
//!   all-unknown text gives the zero vector, which scores 0 against
//!   everything).
//! - The same text always gives the same vector (within float rounding of
//!   batch padding), so the cosine of two vectors is their dot product.
//! - `info().id` names the model; vectors of different models are never
//!   compared: an index records the id of the model that embedded it, and a
//!   server refuses semantic queries when its model is another.
//!
//! The model files are fetched by `scripts/fetch-models.sh` (see [`files`]).

pub mod cache;
pub mod files;
pub mod minilm;
pub mod wordllama;

use std::fmt;
use std::path::Path;

use serde::{Deserialize, Serialize};

pub use cache::CachedEmbedder;

/// Maps a cosine to the API's 0..1 relevance: `clamp((cos − floor) / span)`.
///
/// Measured on labelled sets (see `../shared/guides/semantic.md` §5): with
/// floor 0.10 and span 0.60 the irrelevant pairs' p90 maps to ≤ 0.17, the
/// relevant median to about 0.58 and strong matches (cos ≥ 0.7) to 1.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Calibration {
    pub floor: f32,
    pub span: f32,
}

impl Calibration {
    pub const DEFAULT: Calibration = Calibration {
        floor: 0.10,
        span: 0.60,
    };

    pub fn relevance(&self, cosine: f32) -> f32 {
        ((cosine - self.floor) / self.span).clamp(0.0, 1.0)
    }

    /// The smallest cosine whose relevance is at least `relevance`.
    pub fn cosine_at(&self, relevance: f32) -> f32 {
        self.floor + relevance * self.span
    }
}

/// What identifies a model's vectors.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelInfo {
    /// `all-minilm-l6-v2`, `wordllama-l2-256`: also its folder under the models directory.
    pub id: String,
    pub dim: usize,
    pub calibration: Calibration,
}

/// A sentence-embedding model (see the module docs for the contract).
pub trait Embedder: Send + Sync {
    fn info(&self) -> &ModelInfo;
    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError>;
}

/// The models this build knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModelKind {
    MiniLm,
    WordLlama,
}

impl ModelKind {
    pub const ALL: [ModelKind; 2] = [ModelKind::MiniLm, ModelKind::WordLlama];

    pub fn id(self) -> &'static str {
        match self {
            ModelKind::MiniLm => "all-minilm-l6-v2",
            ModelKind::WordLlama => "wordllama-l2-256",
        }
    }

    /// By id, or by the short names `minilm` and `wordllama`.
    pub fn parse(name: &str) -> Option<ModelKind> {
        ModelKind::ALL.into_iter().find(|k| {
            k.id() == name
                || matches!(
                    (k, name),
                    (ModelKind::MiniLm, "minilm") | (ModelKind::WordLlama, "wordllama")
                )
        })
    }

    /// Loads the model from its folder below `models_dir`.
    pub fn load(self, models_dir: &Path) -> Result<Box<dyn Embedder>, EmbedError> {
        let dir = files::model_dir(models_dir, self.id())?;
        Ok(match self {
            ModelKind::MiniLm => Box::new(minilm::MiniLm::load(&dir)?),
            ModelKind::WordLlama => Box::new(wordllama::WordLlama::load(&dir)?),
        })
    }
}

/// Why a model could not be loaded or run.
#[derive(Debug)]
pub enum EmbedError {
    /// A model file is absent or unreadable; `help` says what to run.
    Missing {
        model: String,
        file: String,
        help: String,
    },
    /// A model file is present but unusable.
    Model { model: String, reason: String },
}

impl EmbedError {
    fn model(model: &str, reason: impl fmt::Display) -> EmbedError {
        EmbedError::Model {
            model: model.to_string(),
            reason: reason.to_string(),
        }
    }
}

impl fmt::Display for EmbedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EmbedError::Missing { model, file, help } => {
                write!(f, "model {model}: {file} is missing; {help}")
            }
            EmbedError::Model { model, reason } => write!(f, "model {model}: {reason}"),
        }
    }
}

impl std::error::Error for EmbedError {}

/// Scales `v` to unit length in place (the zero vector stays zero).
pub fn normalize(v: &mut [f32]) {
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm > 0.0 {
        v.iter_mut().for_each(|x| *x /= norm);
    }
}

/// The dot product (the cosine of two unit vectors).
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relevance_is_calibrated_and_clamped() {
        let c = Calibration::DEFAULT;
        assert_eq!(c.relevance(0.05), 0.0);
        assert!((c.relevance(0.40) - 0.5).abs() < 1e-6);
        assert_eq!(c.relevance(0.95), 1.0);
        assert!((c.relevance(c.cosine_at(0.3)) - 0.3).abs() < 1e-6);
    }

    #[test]
    fn model_names() {
        assert_eq!(ModelKind::parse("minilm"), Some(ModelKind::MiniLm));
        assert_eq!(
            ModelKind::parse("wordllama-l2-256"),
            Some(ModelKind::WordLlama)
        );
        assert_eq!(ModelKind::parse("bert"), None);
    }

    #[test]
    fn normalize_keeps_zero() {
        let mut z = vec![0.0; 3];
        normalize(&mut z);
        assert_eq!(z, vec![0.0; 3]);
        let mut v = vec![3.0, 4.0];
        normalize(&mut v);
        assert!((dot(&v, &v) - 1.0).abs() < 1e-6);
    }
}
