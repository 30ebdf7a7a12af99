//! Company vectors for semantic search: `companies.vectors` (tag `VECS`).
//!
//! One row per company that has text (a company without text has no row and
//! never appears in semantic results). Rows follow doc id order.
//!
//! | array | type | content |
//! |---|---|---|
//! | `vectors.meta` | u8 | JSON [`VectorsMeta`]: the model (id, dimension, calibration), rows, sign words per row |
//! | `vectors.docs` | u32 × rows | doc id of each row, ascending |
//! | `vectors.row_of_doc` | u32 × docs | row of doc `d`, or `u32::MAX` without one |
//! | `vectors.codes` | i8 × rows·dim | components, quantised per row: `x ≈ code × scale` |
//! | `vectors.scales` | f32 × rows | each row's scale (`max |x| / 127`) |
//! | `vectors.mean` | f32 × dim | the mean of all rows (dequantised) |
//! | `vectors.signs` | u64 × rows·words | bit `i` of a row is set when component `i` is above the mean's |
//!
//! The signs are a 1-bit sketch of each vector centred on the corpus mean:
//! their Hamming distance to the query's sketch orders rows roughly by
//! cosine, cheaply enough to scan a million rows in a few milliseconds; the
//! search rescores the best of them exactly against `codes` (see
//! `query::semantic`).

use std::io;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::format::{ArrayRef, Bundle, BundleWriter, WrittenFile};
use super::IndexError;
use crate::embed::ModelInfo;

/// Tag of the vectors file.
pub const VECTORS_TAG: [u8; 4] = *b"VECS";
/// Marks a doc without a row in `vectors.row_of_doc`.
pub const NO_ROW: u32 = u32::MAX;

/// `vectors.meta`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VectorsMeta {
    pub model: ModelInfo,
    pub rows: usize,
    /// `u64` words of signs per row (`dim` / 64, rounded up).
    pub words: usize,
}

/// One row's quantised components and scale.
pub struct Quantized {
    pub codes: Vec<i8>,
    pub scale: f32,
}

impl Quantized {
    /// Symmetric int8 quantisation of one vector.
    pub fn of(v: &[f32]) -> Quantized {
        let max = v.iter().fold(0f32, |m, x| m.max(x.abs()));
        let scale = if max > 0.0 { max / 127.0 } else { 1.0 };
        let codes = v
            .iter()
            .map(|x| (x / scale).round().clamp(-127.0, 127.0) as i8)
            .collect();
        Quantized { codes, scale }
    }

    pub fn dequantize(&self) -> Vec<f32> {
        self.codes.iter().map(|&c| c as f32 * self.scale).collect()
    }
}

/// Writes `companies.vectors`: `rows` are (doc id, vector) in ascending doc order.
pub fn write_vectors(
    path: &Path,
    model: &ModelInfo,
    docs: usize,
    rows: &[(u32, Quantized)],
) -> io::Result<WrittenFile> {
    let dim = model.dim;
    let words = dim.div_ceil(64);
    let mean = mean_of(rows, dim);
    let mut out = BundleWriter::create(path, VECTORS_TAG)?;
    let meta = VectorsMeta {
        model: model.clone(),
        rows: rows.len(),
        words,
    };
    out.put_bytes("vectors.meta", &serde_json::to_vec(&meta)?)?;
    let doc_of_row: Vec<u32> = rows.iter().map(|(d, _)| *d).collect();
    let mut row_of_doc = vec![NO_ROW; docs];
    for (row, doc) in doc_of_row.iter().enumerate() {
        row_of_doc[*doc as usize] = row as u32;
    }
    out.put("vectors.docs", &doc_of_row)?;
    out.put("vectors.row_of_doc", &row_of_doc)?;
    let codes: Vec<i8> = rows
        .iter()
        .flat_map(|(_, q)| q.codes.iter().copied())
        .collect();
    out.put("vectors.codes", &codes)?;
    let scales: Vec<f32> = rows.iter().map(|(_, q)| q.scale).collect();
    out.put("vectors.scales", &scales)?;
    out.put("vectors.mean", &mean)?;
    let signs: Vec<u64> = rows
        .iter()
        .flat_map(|(_, q)| sign_words(&q.dequantize(), &mean))
        .collect();
    out.put("vectors.signs", &signs)?;
    out.finish()
}

fn mean_of(rows: &[(u32, Quantized)], dim: usize) -> Vec<f32> {
    let mut sum = vec![0f64; dim];
    for (_, q) in rows {
        for (s, &c) in sum.iter_mut().zip(&q.codes) {
            *s += c as f64 * q.scale as f64;
        }
    }
    let n = rows.len().max(1) as f64;
    sum.iter().map(|s| (s / n) as f32).collect()
}

/// The centred sign sketch of `v`: bit `i` set when `v[i] > mean[i]`.
pub fn sign_words(v: &[f32], mean: &[f32]) -> Vec<u64> {
    let mut words = vec![0u64; v.len().div_ceil(64)];
    for (i, (x, m)) in v.iter().zip(mean).enumerate() {
        if x > m {
            words[i / 64] |= 1 << (i % 64);
        }
    }
    words
}

/// A query vector quantised for [`Vectors::cosine`]: `q ≈ code × scale`,
/// codes within ±32,767 (so a 384-term dot with int8 rows fits an `i32`).
#[derive(Debug, Clone, PartialEq)]
pub struct QueryCodes {
    codes: Vec<i16>,
    scale: f32,
}

impl QueryCodes {
    pub fn of(query: &[f32]) -> QueryCodes {
        let max = query.iter().fold(0f32, |m, x| m.max(x.abs()));
        let scale = if max > 0.0 { max / 32_767.0 } else { 1.0 };
        let codes = query
            .iter()
            .map(|x| (x / scale).round().clamp(-32_767.0, 32_767.0) as i16)
            .collect();
        QueryCodes { codes, scale }
    }
}

/// The vectors of an index, read in place from the mapped file.
pub struct Vectors {
    pub bundle: Bundle,
    pub meta: VectorsMeta,
    docs: ArrayRef<u32>,
    row_of_doc: ArrayRef<u32>,
    codes: ArrayRef<i8>,
    scales: ArrayRef<f32>,
    mean: ArrayRef<f32>,
    signs: ArrayRef<u64>,
}

impl Vectors {
    /// Reads the arrays of `bundle` and checks their lengths against each other.
    pub fn open(bundle: Bundle, docs: usize) -> Result<Vectors, IndexError> {
        let meta: VectorsMeta = serde_json::from_slice(bundle.array::<u8>("vectors.meta")?)
            .map_err(|e| IndexError::corrupt(bundle.name(), format!("vectors.meta: {e}")))?;
        let v = Vectors {
            docs: bundle.array_ref("vectors.docs")?,
            row_of_doc: bundle.array_ref("vectors.row_of_doc")?,
            codes: bundle.array_ref("vectors.codes")?,
            scales: bundle.array_ref("vectors.scales")?,
            mean: bundle.array_ref("vectors.mean")?,
            signs: bundle.array_ref("vectors.signs")?,
            meta,
            bundle,
        };
        v.check(docs)?;
        Ok(v)
    }

    fn check(&self, docs: usize) -> Result<(), IndexError> {
        let (rows, dim, words) = (self.meta.rows, self.meta.model.dim, self.meta.words);
        let sizes = [
            ("vectors.docs", self.docs.len(), rows),
            ("vectors.row_of_doc", self.row_of_doc.len(), docs),
            ("vectors.codes", self.codes.len(), rows * dim),
            ("vectors.scales", self.scales.len(), rows),
            ("vectors.mean", self.mean.len(), dim),
            ("vectors.signs", self.signs.len(), rows * words),
        ];
        if let Some((name, got, want)) = sizes.iter().find(|(_, got, want)| got != want) {
            return Err(IndexError::corrupt(
                self.bundle.name(),
                format!("{name} has {got} values, expected {want}"),
            ));
        }
        if words != dim.div_ceil(64) {
            return Err(IndexError::corrupt(
                self.bundle.name(),
                "vectors.meta: words does not match dim",
            ));
        }
        Ok(())
    }

    /// Every row's doc id, ascending.
    pub fn docs(&self) -> &[u32] {
        self.bundle.get(self.docs)
    }

    pub fn rows(&self) -> usize {
        self.meta.rows
    }

    pub fn dim(&self) -> usize {
        self.meta.model.dim
    }

    /// The row of `doc`, if it has a vector.
    pub fn row_of(&self, doc: u32) -> Option<u32> {
        match self.bundle.get(self.row_of_doc).get(doc as usize) {
            Some(&r) if r != NO_ROW => Some(r),
            _ => None,
        }
    }

    /// The quantised components and scale of `row`.
    pub fn codes(&self, row: u32) -> (&[i8], f32) {
        let dim = self.dim();
        let at = row as usize * dim;
        (
            &self.bundle.get(self.codes)[at..at + dim],
            self.bundle.get(self.scales)[row as usize],
        )
    }

    /// The sign sketch of `row`.
    pub fn signs(&self, row: u32) -> &[u64] {
        let w = self.meta.words;
        &self.bundle.get(self.signs)[row as usize * w..(row as usize + 1) * w]
    }

    /// All sign sketches, `words` per row.
    pub fn all_signs(&self) -> &[u64] {
        self.bundle.get(self.signs)
    }

    pub fn mean(&self) -> &[f32] {
        self.bundle.get(self.mean)
    }

    /// The cosine of a unit query with `row`, exact up to the row's int8
    /// and the query's 16-bit rounding (about 1e-3). An integer dot
    /// product: it vectorises, and its value does not depend on the order
    /// of the sum, so a row's score never depends on the search that asks.
    pub fn cosine(&self, query: &QueryCodes, row: u32) -> f32 {
        let (codes, scale) = self.codes(row);
        let dot: i32 = query
            .codes
            .iter()
            .zip(codes)
            .map(|(&q, &c)| q as i32 * c as i32)
            .sum();
        dot as f32 * query.scale * scale
    }

    /// Touches every page of the sketches and the int8 rows, so that the
    /// first searches do not pay the page faults.
    pub fn warm(&self) {
        let signs: &[u8] = bytemuck::cast_slice(self.all_signs());
        let codes: &[u8] = bytemuck::cast_slice(self.bundle.get(self.codes));
        super::mmap::touch(signs.chunks(4096).chain(codes.chunks(4096)));
    }

    /// Checks every doc/row cross reference (for `indexer verify`).
    pub fn verify(&self) -> Result<(), IndexError> {
        let docs = self.docs();
        let ascending = docs.windows(2).all(|w| w[0] < w[1]);
        let mapped = docs
            .iter()
            .enumerate()
            .all(|(row, &doc)| self.row_of(doc) == Some(row as u32));
        let rows_mapped = self
            .bundle
            .get(self.row_of_doc)
            .iter()
            .filter(|&&r| r != NO_ROW)
            .count();
        if !ascending || !mapped || rows_mapped != docs.len() {
            return Err(IndexError::corrupt(
                self.bundle.name(),
                "vectors.docs and vectors.row_of_doc disagree",
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::embed::{normalize, Calibration};
    use proptest::prelude::*;

    fn model(dim: usize) -> ModelInfo {
        ModelInfo {
            id: "test".into(),
            dim,
            calibration: Calibration::DEFAULT,
        }
    }

    fn unit(seed: u64, dim: usize) -> Vec<f32> {
        let mut x = seed.wrapping_mul(0x9E3779B97F4A7C15) | 1;
        let mut v: Vec<f32> = (0..dim)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x % 2001) as f32 / 1000.0 - 1.0
            })
            .collect();
        normalize(&mut v);
        v
    }

    #[test]
    fn round_trip_and_lookups() {
        let dir = std::env::temp_dir().join(format!("fundsearch-vectors-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("companies.vectors");
        let dim = 70; // two sign words, the second partly used
        let rows: Vec<(u32, Quantized)> = [1u32, 4, 5]
            .iter()
            .map(|&d| (d, Quantized::of(&unit(d as u64, dim))))
            .collect();
        write_vectors(&path, &model(dim), 7, &rows).unwrap();
        let v = Vectors::open(Bundle::open(&path, VECTORS_TAG, true).unwrap(), 7).unwrap();
        v.verify().unwrap();
        assert_eq!(v.docs(), &[1, 4, 5]);
        assert_eq!(
            (v.row_of(4), v.row_of(0), v.row_of(99)),
            (Some(1), None, None)
        );
        let q = QueryCodes::of(&unit(4, dim));
        assert!((v.cosine(&q, 1) - 1.0).abs() < 0.01, "{}", v.cosine(&q, 1));
        assert_eq!(v.signs(2).len(), 2);
        assert!(
            Vectors::open(Bundle::open(&path, VECTORS_TAG, true).unwrap(), 8).is_err(),
            "doc count checked"
        );
        std::fs::remove_dir_all(dir).unwrap();
    }

    proptest! {
        #[test]
        fn quantization_keeps_the_cosine(seed in 0u64..10_000, other in 0u64..10_000) {
            let (a, b) = (unit(seed, 384), unit(other, 384));
            let exact: f32 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
            let q = Quantized::of(&b);
            let approx: f32 = a.iter().zip(&q.codes).map(|(x, &c)| x * c as f32).sum::<f32>() * q.scale;
            prop_assert!((exact - approx).abs() < 0.01, "{exact} vs {approx}");
        }
    }
}
