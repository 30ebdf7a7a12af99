//! `all-MiniLM-L6-v2` through candle (CPU, f32): BERT over the WordPiece
//! ids, mean pooling over the attention mask, L2 normalisation, exactly as
//! sentence-transformers computes it.
//!
//! The shipped `tokenizer.json` pads every text to 128 tokens and truncates
//! there; this loader pads each batch to its longest text and truncates at
//! 256 tokens (the model's `max_seq_length`), which is both faster and what
//! the reference implementation does.

use std::path::Path;

use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use candle_transformers::models::bert::{BertModel, Config};
use tokenizers::{PaddingParams, PaddingStrategy, Tokenizer, TruncationParams};

use super::{normalize, Calibration, EmbedError, Embedder, ModelInfo, ModelKind};

/// The model's `max_seq_length` (sentence_bert_config.json).
const MAX_TOKENS: usize = 256;

pub struct MiniLm {
    model: BertModel,
    tokenizer: Tokenizer,
    info: ModelInfo,
}

impl MiniLm {
    /// Loads `config.json`, `tokenizer.json` and `model.safetensors` from `dir`.
    pub fn load(dir: &Path) -> Result<MiniLm, EmbedError> {
        let id = ModelKind::MiniLm.id();
        let fail = |e: &dyn std::fmt::Display| EmbedError::model(id, e);
        let config: Config = std::fs::read(dir.join("config.json"))
            .map_err(|e| fail(&e))
            .and_then(|b| serde_json::from_slice(&b).map_err(|e| fail(&e)))?;
        let weights = std::fs::read(dir.join("model.safetensors")).map_err(|e| fail(&e))?;
        let vb = VarBuilder::from_buffered_safetensors(weights, DType::F32, &Device::Cpu)
            .map_err(|e| fail(&e))?;
        let model = BertModel::load(vb, &config).map_err(|e| fail(&e))?;
        let tokenizer = batch_tokenizer(&dir.join("tokenizer.json")).map_err(|e| fail(&*e))?;
        Ok(MiniLm {
            model,
            tokenizer,
            info: ModelInfo {
                id: id.to_string(),
                dim: config.hidden_size,
                calibration: Calibration::DEFAULT,
            },
        })
    }

    fn forward(&self, texts: &[&str]) -> candle_core::Result<Vec<Vec<f32>>> {
        let encodings = self
            .tokenizer
            .encode_batch(texts.to_vec(), true)
            .map_err(candle_core::Error::msg)?;
        let rows = |f: fn(&tokenizers::Encoding) -> &[u32]| {
            let rows = encodings
                .iter()
                .map(|e| Tensor::new(f(e), &Device::Cpu))
                .collect::<candle_core::Result<Vec<_>>>()?;
            Tensor::stack(&rows, 0)
        };
        let ids = rows(|e| e.get_ids())?;
        let types = rows(|e| e.get_type_ids())?;
        let mask = rows(|e| e.get_attention_mask())?;
        let hidden = self.model.forward(&ids, &types, Some(&mask))?;
        mean_pool(&hidden, &mask)?.to_vec2::<f32>()
    }
}

/// The tokenizer with batch-longest padding and 256-token truncation.
fn batch_tokenizer(path: &Path) -> tokenizers::Result<Tokenizer> {
    let mut tokenizer = Tokenizer::from_file(path)?;
    let padding = tokenizer.get_padding().cloned().unwrap_or_default();
    tokenizer.with_padding(Some(PaddingParams {
        strategy: PaddingStrategy::BatchLongest,
        ..padding
    }));
    tokenizer.with_truncation(Some(TruncationParams {
        max_length: MAX_TOKENS,
        ..Default::default()
    }))?;
    Ok(tokenizer)
}

/// Mean of the token vectors where the mask is 1: `[batch, seq, dim]` → `[batch, dim]`.
fn mean_pool(hidden: &Tensor, mask: &Tensor) -> candle_core::Result<Tensor> {
    let mask = mask.to_dtype(DType::F32)?.unsqueeze(2)?;
    let summed = hidden.broadcast_mul(&mask)?.sum(1)?;
    let counts = mask.sum(1)?.clamp(1e-9, f64::MAX)?;
    summed.broadcast_div(&counts)
}

impl Embedder for MiniLm {
    fn info(&self) -> &ModelInfo {
        &self.info
    }

    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        if texts.is_empty() {
            return Ok(Vec::new());
        }
        let mut vectors = self
            .forward(texts)
            .map_err(|e| EmbedError::model(&self.info.id, e))?;
        vectors.iter_mut().for_each(|v| normalize(v));
        Ok(vectors)
    }
}
