//! Relation arrays: for each source doc id, a sorted run of target doc ids
//! (compressed sparse rows), optionally with one payload byte per edge.
//!
//! | array | type | content |
//! |---|---|---|
//! | `relation.R.offsets` | u32 × (n+1) | edges of source `s` are `offsets[s]..offsets[s+1]` |
//! | `relation.R.targets` | u32 × edges | target doc ids |
//! | `relation.R.payload` | u8 × edges | optional: lead flag, financing type… |
//!
//! Used for `company_deals`, `deal_firms` (payload: lead flag), `firm_deals`,
//! `person_angel_deals`, `employer_people`…. Written by
//! [`super::relation_builder`].

use roaring::RoaringBitmap;

use super::docs::{docs, BATCH};
use super::facet::offsets_valid;
use super::format::{ArrayRef, Bundle};
use super::IndexError;

/// A relation's arrays as plain slices (see [`Relation::edges`]).
#[derive(Clone, Copy)]
pub struct Edges<'a> {
    offsets: &'a [u32],
    targets: &'a [u32],
    payload: &'a [u8],
}

/// Relation arrays built from each source's (target, payload byte)
/// edges, in the order given, for tests.
#[cfg(test)]
pub struct TestArrays {
    offsets: Vec<u32>,
    targets: Vec<u32>,
    payload: Vec<u8>,
}

#[cfg(test)]
impl TestArrays {
    pub fn of<L: IntoIterator<Item = (u32, u8)>>(lists: impl IntoIterator<Item = L>) -> TestArrays {
        let mut arrays = TestArrays {
            offsets: vec![0],
            targets: Vec::new(),
            payload: Vec::new(),
        };
        for list in lists {
            for (target, payload) in list {
                arrays.targets.push(target);
                arrays.payload.push(payload);
            }
            arrays.offsets.push(arrays.targets.len() as u32);
        }
        arrays
    }

    /// The arrays as [`Edges`], with their payload.
    pub fn edges(&self) -> Edges<'_> {
        Edges::of(&self.offsets, &self.targets, &self.payload)
    }

    /// The arrays as [`Edges`] of a relation without a payload.
    pub fn bare_edges(&self) -> Edges<'_> {
        Edges::of(&self.offsets, &self.targets, &[])
    }
}

impl<'a> Edges<'a> {
    /// Edges over plain arrays (offsets as in the module doc), for tests.
    #[cfg(test)]
    pub fn of(offsets: &'a [u32], targets: &'a [u32], payload: &'a [u8]) -> Edges<'a> {
        Edges {
            offsets,
            targets,
            payload,
        }
    }

    #[inline]
    fn bounds(&self, source: u32) -> (usize, usize) {
        (
            self.offsets[source as usize] as usize,
            self.offsets[source as usize + 1] as usize,
        )
    }

    /// Targets of `source`, ascending.
    #[inline]
    pub fn targets(&self, source: u32) -> &'a [u32] {
        let (lo, hi) = self.bounds(source);
        &self.targets[lo..hi]
    }

    /// Payload bytes parallel to the targets (empty when the relation has none).
    #[inline]
    pub fn payload(&self, source: u32) -> &'a [u8] {
        let (lo, hi) = self.bounds(source);
        self.payload.get(lo..hi).unwrap_or(&[])
    }

    /// Positions of `source`'s edges in [`Edges::all_targets`].
    #[inline]
    pub fn positions(&self, source: u32) -> std::ops::Range<usize> {
        let (lo, hi) = self.bounds(source);
        lo..hi
    }

    /// Positions of the edges of every source in `sources` (contiguous:
    /// sources in order); none past the last source.
    #[inline]
    pub fn positions_of_run(&self, sources: std::ops::Range<u32>) -> std::ops::Range<usize> {
        let last = self.offsets.len().saturating_sub(1);
        let at = |s: u32| {
            self.offsets
                .get((s as usize).min(last))
                .map_or(0, |&o| o as usize)
        };
        let end = at(sources.end);
        at(sources.start).min(end)..end
    }

    /// Every edge's target, sources in order (source `s`'s are at
    /// [`Edges::positions`]).
    pub fn all_targets(&self) -> &'a [u32] {
        self.targets
    }

    /// Every edge's payload byte, parallel to [`Edges::all_targets`]
    /// (empty when the relation has none).
    pub fn all_payload(&self) -> &'a [u8] {
        self.payload
    }

    #[inline]
    pub fn degree(&self, source: u32) -> usize {
        let (lo, hi) = self.bounds(source);
        hi - lo
    }

    /// Calls `f` with each source of `sources` (ascending), its targets
    /// and its payload. Sources scattered over a large relation each cost
    /// a cache miss for their offsets and one for their targets (under
    /// virtualisation, page walks too); taken in batches, a batch's
    /// offsets are read together, then its targets touched together, so
    /// those misses overlap instead of queueing. (Walking dense sets in
    /// plain order instead was 1.5 % faster on C3 and 4 % slower on C4 at
    /// M, 2026-11-28: not kept.)
    pub fn each_of(&self, sources: &RoaringBitmap, mut f: impl FnMut(u32, &'a [u32], &'a [u8])) {
        if sources.len() * 8 >= self.offsets.len() as u64 {
            for s in sources {
                let (lo, hi) = self.bounds(s);
                f(
                    s,
                    &self.targets[lo..hi],
                    self.payload.get(lo..hi).unwrap_or(&[]),
                );
            }
            return;
        }
        let mut iter = docs(sources);
        let mut bounds = [(0usize, 0usize); BATCH];
        loop {
            let batch = iter.next_batch();
            if batch.is_empty() {
                return;
            }
            for (b, &s) in bounds.iter_mut().zip(batch.iter()) {
                *b = self.bounds(s);
            }
            let bounds = &bounds[..batch.len()];
            let first = |&(lo, hi): &(usize, usize)| {
                (lo < hi).then(|| {
                    self.targets[lo] ^ u32::from(self.payload.get(lo).copied().unwrap_or(0))
                })
            };
            std::hint::black_box(bounds.iter().filter_map(first).fold(0, |a, t| a ^ t));
            for (&s, &(lo, hi)) in batch.iter().zip(bounds) {
                f(
                    s,
                    &self.targets[lo..hi],
                    self.payload.get(lo..hi).unwrap_or(&[]),
                );
            }
        }
    }
}

impl Edges<'_> {
    /// Sets, in the bit set `words` (bit `t % 64` of word `t / 64` for
    /// doc id `t`), the bit of every target of every source in `sources`.
    /// Targets past the end of `words` are left out.
    pub fn mark_targets(&self, sources: &RoaringBitmap, words: &mut [u64]) {
        self.each_of(sources, |_, targets, _| {
            for &t in targets {
                if let Some(word) = words.get_mut((t >> 6) as usize) {
                    *word |= 1 << (t & 63);
                }
            }
        });
    }
}

/// A relation read from a bundle.
#[derive(Clone)]
pub struct Relation {
    bundle: Bundle,
    offsets: ArrayRef<u32>,
    targets: ArrayRef<u32>,
    payload: Option<ArrayRef<u8>>,
}

impl Relation {
    /// Opens relation `name` over `sources` source docs.
    pub fn open(bundle: &Bundle, name: &str, sources: usize) -> Result<Relation, IndexError> {
        let offsets = bundle.array_ref::<u32>(&format!("relation.{name}.offsets"))?;
        let targets = bundle.array_ref::<u32>(&format!("relation.{name}.targets"))?;
        let payload_name = format!("relation.{name}.payload");
        let payload = if bundle.has(&payload_name) {
            Some(bundle.array_ref::<u8>(&payload_name)?)
        } else {
            None
        };
        let rel = Relation {
            bundle: bundle.clone(),
            offsets,
            targets,
            payload,
        };
        let wide: Vec<u64> = rel.bundle.get(offsets).iter().map(|&o| o as u64).collect();
        let ok = offsets.len() == sources + 1
            && offsets_valid(&wide, targets.len())
            && payload.is_none_or(|p| p.len() == targets.len());
        if !ok {
            return Err(IndexError::corrupt(
                bundle.name(),
                format!("relation {name}: inconsistent arrays"),
            ));
        }
        Ok(rel)
    }

    /// Targets of `source`, ascending.
    pub fn targets(&self, source: u32) -> &[u32] {
        let (lo, hi) = self.bounds(source);
        &self.bundle.get(self.targets)[lo..hi]
    }

    /// Payload bytes parallel to [`Relation::targets`] (empty when the relation has none).
    pub fn payload(&self, source: u32) -> &[u8] {
        let (lo, hi) = self.bounds(source);
        self.payload
            .map_or(&[][..], |p| &self.bundle.get(p)[lo..hi])
    }

    /// Number of edges of `source`.
    pub fn degree(&self, source: u32) -> usize {
        let (lo, hi) = self.bounds(source);
        hi - lo
    }

    pub fn total_edges(&self) -> usize {
        self.targets.len()
    }

    /// Number of source docs.
    pub fn sources(&self) -> usize {
        self.offsets.len() - 1
    }

    /// The arrays resolved once, for loops over many sources.
    pub fn edges(&self) -> Edges<'_> {
        Edges {
            offsets: self.bundle.get(self.offsets),
            targets: self.bundle.get(self.targets),
            payload: self.payload.map_or(&[][..], |p| self.bundle.get(p)),
        }
    }

    fn bounds(&self, source: u32) -> (usize, usize) {
        let off = self.bundle.get(self.offsets);
        (
            off[source as usize] as usize,
            off[source as usize + 1] as usize,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_of_sources_has_its_edges_contiguous() {
        // Sources 0..4 with 2, 0, 3 and 1 edges.
        let (offsets, targets) = ([0u32, 2, 2, 5, 6], [1u32, 2, 0, 4, 5, 3]);
        let edges = Edges::of(&offsets, &targets, &[]);
        assert_eq!(edges.positions_of_run(0..4), 0..6);
        assert_eq!(edges.positions_of_run(1..3), 2..5);
        assert_eq!(edges.positions_of_run(1..2), 2..2);
        assert_eq!(edges.positions_of_run(3..9), 5..6, "past the last source");
        assert_eq!(edges.positions_of_run(7..9), 6..6);
        assert_eq!(edges.positions_of_run(3..3), 5..5);
    }
}
