//! Reading and building doc-id bitmaps at the speed of the work done with
//! each doc.
//!
//! Measured at M on this machine (roaring 0.12): a roaring iterator's
//! `next` costs 8 ns a doc in dense containers and 4 ns in sparse ones,
//! against 2 ns and 0.4 ns when the docs are taken in batches
//! (`next_many`); `from_sorted_iter` costs about 10 ns a doc, against
//! about 2 ns for setting bits in a flat bit set and converting it. Most
//! loops over candidates do less than that per doc, so they read through
//! [`docs`] and build through [`bitmap_of`].
//!
//! roaring 0.12's `next_many` skips every container that is one full run
//! (all 65,536 ids: the length of its interval overflows a `u16`), and
//! such containers are common here: `insert_range` makes them (every doc,
//! the deals outside a date block), and facets are stored run-compressed
//! (the people with a deal are doc ids `0..n`). [`docs`] therefore reads a
//! bitmap holding runs through a copy without them.

use roaring::RoaringBitmap;

/// Docs taken from the bitmap per batch.
pub const BATCH: usize = 256;

/// The doc ids of a bitmap, ascending, taken from it in batches.
pub struct Docs<'a> {
    inner: Source<'a>,
    buffer: [u32; BATCH],
    next: usize,
    end: usize,
}

/// The bitmap itself, or a copy of it without run containers.
enum Source<'a> {
    Borrowed(roaring::bitmap::Iter<'a>),
    Copied(roaring::bitmap::IntoIter),
}

impl Source<'_> {
    fn next_many(&mut self, dst: &mut [u32]) -> usize {
        match self {
            Source::Borrowed(it) => it.next_many(dst).len(),
            Source::Copied(it) => it.next_many(dst).len(),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            Source::Borrowed(it) => it.size_hint(),
            Source::Copied(it) => it.size_hint(),
        }
    }
}

/// The doc ids of `set`, ascending. Finding run containers costs one pass
/// over the container headers (`statistics`; roaring has no cheaper way to
/// ask): 46 containers for every person at M, against the batch reads it
/// guards.
pub fn docs(set: &RoaringBitmap) -> Docs<'_> {
    let inner = if set.statistics().n_run_containers == 0 {
        Source::Borrowed(set.iter())
    } else {
        let mut copy = set.clone();
        copy.remove_run_compression();
        Source::Copied(copy.into_iter())
    };
    Docs {
        inner,
        buffer: [0; BATCH],
        next: 0,
        end: 0,
    }
}

impl Docs<'_> {
    /// The next doc ids, as many as are buffered (up to a batch); empty
    /// once every doc has been read.
    pub fn next_batch(&mut self) -> &[u32] {
        if self.next == self.end {
            self.refill();
        }
        let batch = &self.buffer[self.next..self.end];
        self.next = self.end;
        batch
    }

    fn refill(&mut self) {
        self.end = self.inner.next_many(&mut self.buffer);
        self.next = 0;
    }
}

impl Iterator for Docs<'_> {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        if self.next == self.end {
            self.refill();
            if self.end == 0 {
                return None;
            }
        }
        let doc = self.buffer[self.next];
        self.next += 1;
        Some(doc)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let (low, high) = self.inner.size_hint();
        let buffered = self.end - self.next;
        (low + buffered, high.map(|h| h + buffered))
    }
}

/// Doc ids at least one in this many of a range are set in a flat bit
/// set of the range rather than sorted. Random ids on one core (best of
/// seven): up to 3 million, one in 64 took 340 µs set and 719 µs sorted,
/// one in 256 104 / 159 µs, one in 512 76 / 77 µs, one in 1,024 66 /
/// 38 µs; up to 12 million, one in 64 1.41 / 3.07 ms, one in 512 413 /
/// 361 µs (2026-12-05; the line had been one in 64).
pub const FLAT_FROM: usize = 512;

/// A bitmap of doc ids in any order, duplicates allowed: through a flat
/// bit set when they are at least one in [`FLAT_FROM`] of the ids up to
/// the largest, else sorted.
pub fn bitmap_of(mut docs: Vec<u32>) -> RoaringBitmap {
    let Some(&max) = docs.iter().max() else {
        return RoaringBitmap::new();
    };
    if docs.len() < max as usize / FLAT_FROM {
        docs.sort_unstable();
        docs.dedup();
        return RoaringBitmap::from_sorted_iter(docs).unwrap_or_default();
    }
    bitmap_of_dense(docs.into_iter(), max)
}

/// A bitmap of doc ids in any order, duplicates allowed, none above
/// `max`: through a flat bit set (for ids at least one in 64 of those up
/// to `max`, as [`bitmap_of`] has them).
pub fn bitmap_of_dense(docs: impl Iterator<Item = u32>, max: u32) -> RoaringBitmap {
    bitmap_of_kept(docs.map(|d| (d, true)), max)
}

/// The bitmap of the doc ids kept (`true`) among `docs`, none above
/// `max`, as [`bitmap_of_dense`]: each kept or not without a branch (a
/// coin toss for the predictor when half are).
pub fn bitmap_of_kept(docs: impl Iterator<Item = (u32, bool)>, max: u32) -> RoaringBitmap {
    let mut words = vec![0u64; (max as usize >> 6) + 1];
    for (d, kept) in docs {
        words[(d >> 6) as usize] |= u64::from(kept) << (d & 63);
    }
    RoaringBitmap::from_lsb0_bytes(0, bytemuck::cast_slice(&words))
}

/// The doc ids whose count is at least `min` (`counts[d]` is doc `d`'s),
/// a word of 64 docs at a time, each compared without a branch.
pub fn bitmap_at_least(counts: &[u32], min: u32) -> RoaringBitmap {
    let word = |block: &[u32]| {
        let bits = block.iter().enumerate();
        bits.fold(0u64, |w, (i, &n)| w | u64::from(n >= min) << i)
    };
    let words: Vec<u64> = counts.chunks(64).map(word).collect();
    RoaringBitmap::from_lsb0_bytes(0, bytemuck::cast_slice(&words))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn docs_at_least_a_count_are_those_a_filter_keeps() {
        let counts: Vec<u32> = (0..1000u32).map(|d| d * 7919 % 13).collect();
        for min in [0, 1, 6, 12, 13] {
            let want: RoaringBitmap = (0..1000u32)
                .filter(|&d| counts[d as usize] >= min)
                .collect();
            assert_eq!(bitmap_at_least(&counts, min), want, "min {min}");
        }
        assert!(bitmap_at_least(&[], 1).is_empty());
    }

    #[test]
    fn batched_docs_are_the_bitmaps() {
        let sparse: RoaringBitmap = (0..5000u32).map(|d| d * 97).collect();
        let dense: RoaringBitmap = (0..300_000u32).filter(|d| d % 3 != 0).collect();
        // Full run containers (which roaring's `next_many` skips), a
        // partial one, and the same run-compressed.
        let mut runs = RoaringBitmap::new();
        runs.insert_range(0..300_000);
        runs.insert_range(400_000..400_010);
        let mut compressed = (0..140_000u32)
            .chain(200_000..200_003)
            .collect::<RoaringBitmap>();
        compressed.optimize();
        assert!(runs.statistics().n_run_containers > 0);
        assert!(compressed.statistics().n_run_containers > 0);
        for set in [RoaringBitmap::new(), sparse, dense, runs, compressed] {
            let read: Vec<u32> = docs(&set).collect();
            assert_eq!(read, set.iter().collect::<Vec<u32>>());
            let mut batches = docs(&set);
            let mut batched: Vec<u32> = batches.next().into_iter().collect();
            loop {
                let batch = batches.next_batch();
                if batch.is_empty() {
                    break;
                }
                batched.extend_from_slice(batch);
            }
            assert_eq!(batched, read);
            assert_eq!(docs(&set).size_hint().0, set.len() as usize);
        }
    }

    #[test]
    fn bitmaps_of_sparse_and_dense_docs() {
        let cases: [Vec<u32>; 6] = [
            vec![],
            vec![3_000_000, 5, 5, 70],
            (0..50_000u32).rev().chain(0..100).collect(),
            (0..20_000u32).map(|d| (d * 7919) % 100_000).collect(),
            // About one in 330 of the ids: set in a flat bit set.
            (0..300u32).rev().map(|d| d * 331).collect(),
            // One in 1,000: sorted.
            (0..100u32).rev().map(|d| d * 1_000).collect(),
        ];
        for docs in cases {
            let mut expected = docs.clone();
            expected.sort_unstable();
            expected.dedup();
            let got = bitmap_of(docs);
            assert_eq!(got.iter().collect::<Vec<u32>>(), expected);
        }
    }
}
