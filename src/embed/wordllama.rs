//! The static WordLlama `l2_supercat_256` model: a text's vector is the
//! mean of the 256-dimensional rows of its token ids (Llama-2 BPE with byte
//! fallback, no special tokens, ids clamped into the table, no
//! truncation), L2-normalised — what the `wordllama` package computes with
//! `norm=True`. The table (`embedding.weight`, f16 [32000, 256]) stays in
//! f16 in memory (16 MB).

use std::path::Path;

use half::f16;
use safetensors::{Dtype, SafeTensors};
use tokenizers::Tokenizer;

use super::{normalize, Calibration, EmbedError, Embedder, ModelInfo, ModelKind};

const TENSOR: &str = "embedding.weight";

pub struct WordLlama {
    table: Vec<f16>,
    rows: usize,
    tokenizer: Tokenizer,
    info: ModelInfo,
}

impl WordLlama {
    /// Loads `model.safetensors` and `tokenizer.json` from `dir`.
    pub fn load(dir: &Path) -> Result<WordLlama, EmbedError> {
        let id = ModelKind::WordLlama.id();
        let fail = |e: &dyn std::fmt::Display| EmbedError::model(id, e);
        let bytes = std::fs::read(dir.join("model.safetensors")).map_err(|e| fail(&e))?;
        let tensors = SafeTensors::deserialize(&bytes).map_err(|e| fail(&e))?;
        let view = tensors.tensor(TENSOR).map_err(|e| fail(&e))?;
        let (rows, dim) = match (view.dtype(), view.shape()) {
            (Dtype::F16, [rows, dim]) => (*rows, *dim),
            (dtype, shape) => {
                return Err(fail(&format!(
                    "{TENSOR} is {dtype:?} {shape:?}, expected F16 [rows, dim]"
                )))
            }
        };
        let table = view
            .data()
            .chunks_exact(2)
            .map(|b| f16::from_bits(u16::from_le_bytes([b[0], b[1]])))
            .collect();
        let mut tokenizer =
            Tokenizer::from_file(dir.join("tokenizer.json")).map_err(|e| fail(&e))?;
        tokenizer.with_padding(None);
        tokenizer.with_truncation(None).map_err(|e| fail(&e))?;
        Ok(WordLlama {
            table,
            rows,
            tokenizer,
            info: ModelInfo {
                id: id.to_string(),
                dim,
                calibration: Calibration::DEFAULT,
            },
        })
    }

    fn embed_one(&self, text: &str) -> Result<Vec<f32>, EmbedError> {
        let encoding = self
            .tokenizer
            .encode_fast(text, false)
            .map_err(|e| EmbedError::model(&self.info.id, e))?;
        let dim = self.info.dim;
        let mut sum = vec![0f32; dim];
        for &id in encoding.get_ids() {
            let row = (id as usize).min(self.rows - 1) * dim;
            for (s, w) in sum.iter_mut().zip(&self.table[row..row + dim]) {
                *s += w.to_f32();
            }
        }
        normalize(&mut sum);
        Ok(sum)
    }
}

impl Embedder for WordLlama {
    fn info(&self) -> &ModelInfo {
        &self.info
    }

    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        texts.iter().map(|t| self.embed_one(t)).collect()
    }
}
