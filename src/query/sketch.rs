//! The first pass of a semantic search over many rows: ranking rows by
//! their 1-bit sketches (`vectors.signs`: component above the corpus mean
//! or not) instead of their int8 components, to pick the few rows worth
//! scoring exactly.
//!
//! Two estimators, cheap then finer:
//!
//! 1. **Hamming distance** between the row's sketch and the query's (one
//!    XOR and popcount per 64 dimensions). Symmetric: every dimension
//!    counts the same, however small the query's component there.
//! 2. **Weighted agreement**: the sum of the query's centred magnitudes
//!    `|q − mean|` over the dimensions where the row's sign agrees with the
//!    query's. This is `(q − mean) · sign(row − mean)` up to a constant, an
//!    asymmetric estimate of the cosine that keeps the query exact. The
//!    magnitudes are quantised to 4 bits and split into bit planes, so it
//!    costs four AND + popcount per 64 dimensions.
//!
//! A search ranks all candidates by (1), keeps the best `coarse`, ranks
//! those by (2) and keeps the best `rescore` for exact scoring. Rows tied at
//! a cut-off are taken in row order, so the pass is deterministic.

use crate::index::vectors::{sign_words, Vectors};

/// Magnitude bits per query dimension in the weighted agreement.
const PLANES: usize = 4;

/// The query's sketch: its signs and its magnitude bit planes.
pub struct QuerySketch {
    signs: Vec<u64>,
    planes: [Vec<u64>; PLANES],
    /// Bits of the last word beyond the dimension (never set in any plane).
    words: usize,
}

impl QuerySketch {
    pub fn new(query: &[f32], mean: &[f32]) -> QuerySketch {
        let centred: Vec<f32> = query.iter().zip(mean).map(|(q, m)| q - m).collect();
        let max = centred.iter().fold(0f32, |m, x| m.max(x.abs()));
        let words = query.len().div_ceil(64);
        let mut planes: [Vec<u64>; PLANES] = std::array::from_fn(|_| vec![0u64; words]);
        for (i, x) in centred.iter().enumerate() {
            let level = if max > 0.0 { (x.abs() / max * 15.0).round() as u32 } else { 0 };
            for (b, plane) in planes.iter_mut().enumerate() {
                if level & (1 << b) != 0 {
                    plane[i / 64] |= 1 << (i % 64);
                }
            }
        }
        QuerySketch {
            signs: sign_words(query, mean),
            planes,
            words,
        }
    }

    /// Differing signs (0 = same sketch).
    pub fn hamming(&self, row: &[u64]) -> u32 {
        row.iter().zip(&self.signs).map(|(a, b)| (a ^ b).count_ones()).sum()
    }

    /// Weighted agreement (higher = nearer), in `0..=max_agreement()`.
    pub fn agreement(&self, row: &[u64]) -> u32 {
        let mut total = 0;
        for w in 0..self.words {
            let agree = !(row[w] ^ self.signs[w]);
            for (b, plane) in self.planes.iter().enumerate() {
                total += (plane[w] & agree).count_ones() << b;
            }
        }
        total
    }

    pub fn max_agreement(&self) -> u32 {
        (self.words * 64 * 15) as u32
    }
}

/// The rows (of `rows`, or all) worth scoring exactly: the best `coarse` by
/// Hamming distance, then of those the best `keep` by weighted agreement.
pub fn shortlist(
    vectors: &Vectors,
    q: &QuerySketch,
    rows: Option<&[u32]>,
    coarse: usize,
    keep: usize,
) -> Vec<u32> {
    let words = vectors.meta.words;
    let candidates = rows.map_or(vectors.rows(), <[u32]>::len);
    let coarse_rows = if candidates <= coarse {
        rows.map_or_else(|| (0..vectors.rows() as u32).collect(), <[u32]>::to_vec)
    } else {
        let dists: Vec<(u32, u32)> = match rows {
            Some(rows) => rows.iter().map(|&r| (q.hamming(vectors.signs(r)), r)).collect(),
            None => vectors
                .all_signs()
                .chunks_exact(words)
                .enumerate()
                .map(|(r, s)| (q.hamming(s), r as u32))
                .collect(),
        };
        smallest(dists, coarse, words * 64)
    };
    if coarse_rows.len() <= keep {
        return coarse_rows;
    }
    let max = q.max_agreement();
    let dists = coarse_rows
        .into_iter()
        .map(|r| (max - q.agreement(vectors.signs(r)), r))
        .collect();
    smallest(dists, keep, max as usize)
}

/// The rows of the `n` smallest distances (`0..=max`), by a histogram of
/// the distances; `dists` are in ascending row order, ties at the cut-off
/// are taken in that order, and rows come back in it.
pub fn smallest(dists: Vec<(u32, u32)>, n: usize, max: usize) -> Vec<u32> {
    let mut histogram = vec![0usize; max + 1];
    dists.iter().for_each(|(d, _)| histogram[*d as usize] += 1);
    let (mut cut, mut below) = (0usize, 0usize);
    while cut < max && below + histogram[cut] < n {
        below += histogram[cut];
        cut += 1;
    }
    let mut at_cut = n.saturating_sub(below);
    dists
        .into_iter()
        .filter(|(d, _)| match (*d as usize).cmp(&cut) {
            std::cmp::Ordering::Less => true,
            std::cmp::Ordering::Equal if at_cut > 0 => {
                at_cut -= 1;
                true
            }
            _ => false,
        })
        .map(|(_, r)| r)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smallest_takes_the_nearest_ties_in_row_order() {
        let d = vec![(3, 0), (1, 1), (2, 2), (1, 3), (2, 4), (0, 5)];
        assert_eq!(smallest(d.clone(), 3, 8), vec![1, 3, 5]);
        assert_eq!(smallest(d.clone(), 4, 8), vec![1, 2, 3, 5]);
        assert_eq!(smallest(d.clone(), 10, 8).len(), 6);
        assert_eq!(smallest(d, 0, 8), Vec::<u32>::new());
    }

    #[test]
    fn agreement_weighs_dimensions_by_the_query() {
        let mean = vec![0.0; 4];
        let q = QuerySketch::new(&[0.9, -0.1, 0.1, 0.0], &mean);
        let same_big = sign_words(&[1.0, -1.0, -1.0, -1.0], &mean);
        let same_small = sign_words(&[-1.0, -1.0, 1.0, -1.0], &mean);
        assert!(q.agreement(&same_big) > q.agreement(&same_small));
        assert_eq!(q.hamming(&sign_words(&[0.9, -0.1, 0.1, 0.0], &mean)), 0);
        assert!(q.agreement(&same_big) <= q.max_agreement());
    }
}
