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

use rayon::prelude::*;

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
            let level = if max > 0.0 {
                (x.abs() / max * 15.0).round() as u32
            } else {
                0
            };
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
        row.iter()
            .zip(&self.signs)
            .map(|(a, b)| (a ^ b).count_ones())
            .sum()
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

/// Rows of the Hamming pass per parallel task (the passes use rayon's
/// pool: both cores for one query on this machine).
const CHUNK: usize = 32_768;

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
    let row_at = |i: u32| rows.map_or(i, |r| r[i as usize]);
    let coarse_rows: Vec<u32> = if candidates <= coarse {
        (0..candidates as u32).map(row_at).collect()
    } else {
        let dists: Vec<u16> = match rows {
            None => hamming_all(vectors.all_signs(), words, q),
            Some(rows) => rows
                .par_iter()
                .with_min_len(CHUNK)
                .map(|&r| q.hamming(vectors.signs(r)) as u16)
                .collect(),
        };
        smallest(&dists, coarse, words * 64)
            .into_iter()
            .map(row_at)
            .collect()
    };
    if coarse_rows.len() <= keep {
        return coarse_rows;
    }
    let max = q.max_agreement();
    let dists: Vec<u16> = coarse_rows
        .par_iter()
        .with_min_len(CHUNK / 4)
        .map(|&r| (max - q.agreement(vectors.signs(r))) as u16)
        .collect();
    smallest(&dists, keep, max as usize)
        .into_iter()
        .map(|i| coarse_rows[i as usize])
        .collect()
}

/// The Hamming distance of every row's sketch (`words` per row) to the
/// query's, in parallel chunks.
fn hamming_all(signs: &[u64], words: usize, q: &QuerySketch) -> Vec<u16> {
    let mut out = vec![0u16; signs.len() / words.max(1)];
    out.par_chunks_mut(CHUNK)
        .zip(signs.par_chunks(CHUNK * words))
        .for_each(|(out, signs)| match words {
            4 => hamming_fixed::<4>(out, signs, &q.signs),
            6 => hamming_fixed::<6>(out, signs, &q.signs),
            _ => {
                for (o, s) in out.iter_mut().zip(signs.chunks_exact(words)) {
                    *o = q.hamming(s) as u16;
                }
            }
        });
    out
}

/// [`hamming_all`] for `W` words per row (unrolled).
fn hamming_fixed<const W: usize>(out: &mut [u16], signs: &[u64], q: &[u64]) {
    let q: [u64; W] = std::array::from_fn(|w| q[w]);
    for (o, s) in out.iter_mut().zip(signs.chunks_exact(W)) {
        let mut d = 0;
        for w in 0..W {
            d += (s[w] ^ q[w]).count_ones();
        }
        *o = d as u16;
    }
}

/// Indices of the `n` smallest of `dists` (each in `0..=max`), found by a
/// histogram; ties at the cut-off are taken in index order, and indices
/// come back ascending. Chunks of [`CHUNK`] are counted and scanned in
/// parallel.
pub fn smallest(dists: &[u16], n: usize, max: usize) -> Vec<u32> {
    let histogram = dists
        .par_chunks(CHUNK)
        .map(|chunk| {
            let mut h = vec![0usize; max + 1];
            chunk.iter().for_each(|&d| h[d as usize] += 1);
            h
        })
        .reduce(
            || vec![0usize; max + 1],
            |a, b| a.iter().zip(&b).map(|(x, y)| x + y).collect(),
        );
    let (mut cut, mut below) = (0usize, 0usize);
    while cut < max && below + histogram[cut] < n {
        below += histogram[cut];
        cut += 1;
    }
    let cut = cut as u16;
    let per_chunk: Vec<(Vec<u32>, Vec<u32>)> = dists
        .par_chunks(CHUNK)
        .enumerate()
        .map(|(c, chunk)| {
            let (mut under, mut at) = (Vec::new(), Vec::new());
            for (i, &d) in chunk.iter().enumerate() {
                let index = (c * CHUNK + i) as u32;
                match d.cmp(&cut) {
                    std::cmp::Ordering::Less => under.push(index),
                    std::cmp::Ordering::Equal => at.push(index),
                    std::cmp::Ordering::Greater => {}
                }
            }
            (under, at)
        })
        .collect();
    let mut ties_left = n.saturating_sub(below);
    let mut out = Vec::with_capacity(n.min(dists.len()));
    for (under, at) in per_chunk {
        let take = ties_left.min(at.len());
        ties_left -= take;
        out.extend(merge_sorted(&under, &at[..take]));
    }
    out
}

/// Two ascending lists as one.
fn merge_sorted(a: &[u32], b: &[u32]) -> Vec<u32> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if a[i] < b[j] {
            out.push(a[i]);
            i += 1;
        } else {
            out.push(b[j]);
            j += 1;
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smallest_takes_the_nearest_ties_in_index_order() {
        let d = [3, 1, 2, 1, 2, 0];
        assert_eq!(smallest(&d, 3, 8), vec![1, 3, 5]);
        assert_eq!(smallest(&d, 4, 8), vec![1, 2, 3, 5]);
        assert_eq!(smallest(&d, 10, 8).len(), 6);
        assert_eq!(smallest(&d, 0, 8), Vec::<u32>::new());
        // Across chunks: ties at the cut-off are the first ones in index order.
        let long: Vec<u16> = (0..3 * CHUNK)
            .map(|i| if i % 1000 == 7 { 1 } else { 5 })
            .collect();
        let picked = smallest(&long, 200, 8);
        let ones = long.iter().filter(|&&d| d == 1).count();
        assert_eq!(picked.len(), 200);
        assert!(picked.windows(2).all(|w| w[0] < w[1]));
        let fives: Vec<u32> = picked
            .iter()
            .copied()
            .filter(|&i| long[i as usize] == 5)
            .collect();
        assert_eq!(
            fives,
            (0..)
                .filter(|&i| long[i as usize] == 5)
                .take(200 - ones)
                .collect::<Vec<u32>>()
        );
    }

    #[test]
    fn the_unrolled_hamming_pass_equals_the_generic_one() {
        for words in [1usize, 4, 6] {
            let dim = words * 64;
            let mean = vec![0.0; dim];
            let query: Vec<f32> = (0..dim).map(|i| ((i * 7919) % 13) as f32 - 6.0).collect();
            let q = QuerySketch::new(&query, &mean);
            let signs: Vec<u64> = (0..(CHUNK + 5) * words)
                .map(|i| (i as u64).wrapping_mul(0x9E3779B97F4A7C15))
                .collect();
            let fast = hamming_all(&signs, words, &q);
            let slow: Vec<u16> = signs
                .chunks_exact(words)
                .map(|s| q.hamming(s) as u16)
                .collect();
            assert_eq!(fast, slow, "{words} words");
        }
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
