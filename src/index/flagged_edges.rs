//! Flagged edges: the edges of a relation whose payload byte is non-zero,
//! by source. A person's `partner_deals` flag the deals their firm led;
//! a count of led deals only (`only_lead_deals`) then reads these lists
//! instead of testing every partner edge's flag: at M, 1.8 million of the
//! 2.9 million partner edges, of 134,000 of the 243,000 investors.
//!
//! | field | content |
//! |---|---|
//! | `sources[i]` | the `i`-th source with a flagged edge, ascending |
//! | `offsets[i]..offsets[i+1]` | its flagged edges' positions in `targets` |
//! | `targets` | the flagged edges' targets, each source's ascending |
//!
//! Derived in memory on first use (one pass over the relation's payload),
//! then kept; the index format does not change. Memory: four bytes per
//! flagged edge, eight per source with one.

use roaring::RoaringBitmap;

use super::relation::Edges;

/// The flagged edges of one relation (see the module doc).
#[derive(Debug, Default)]
pub struct FlaggedEdges {
    sources: Vec<u32>,
    /// `sources`, as a set.
    set: RoaringBitmap,
    offsets: Vec<u32>,
    targets: Vec<u32>,
}

impl FlaggedEdges {
    /// The flagged edges of `edges` over `sources` sources (none when the
    /// relation has no payload).
    pub fn derive(edges: &Edges, sources: usize) -> FlaggedEdges {
        let mut flagged = FlaggedEdges {
            offsets: vec![0],
            ..FlaggedEdges::default()
        };
        for source in 0..sources as u32 {
            let pairs = edges.targets(source).iter().zip(edges.payload(source));
            let before = flagged.targets.len();
            flagged
                .targets
                .extend(pairs.filter(|e| *e.1 != 0).map(|e| *e.0));
            if flagged.targets.len() > before {
                flagged.sources.push(source);
                flagged.offsets.push(flagged.targets.len() as u32);
            }
        }
        flagged.set = flagged.sources.iter().copied().collect();
        flagged
    }

    /// The sources with a flagged edge, ascending.
    pub fn sources(&self) -> &[u32] {
        &self.sources
    }

    /// The sources with a flagged edge, as a set.
    pub fn source_set(&self) -> &RoaringBitmap {
        &self.set
    }

    /// Where the `i`-th source's flagged edges lie in [`FlaggedEdges::all_targets`].
    #[inline]
    pub fn positions(&self, i: usize) -> std::ops::Range<usize> {
        self.offsets[i] as usize..self.offsets[i + 1] as usize
    }

    /// Every flagged edge's target, sources in order.
    pub fn all_targets(&self) -> &[u32] {
        &self.targets
    }

    pub fn heap_bytes(&self) -> usize {
        let lists = self.sources.capacity() + self.offsets.capacity() + self.targets.capacity();
        lists * 4 + self.set.serialized_size()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::relation::TestArrays;
    use proptest::prelude::*;

    proptest! {
        /// Each source's flagged edges are exactly its edges with a
        /// non-zero payload byte, in order; sources without any are left out.
        #[test]
        fn flagged_edges_are_the_edges_with_a_payload(
            lists in proptest::collection::vec(
                proptest::collection::vec((0u32..1_000, 0u8..3), 0..10), 0..30),
        ) {
            let arrays = TestArrays::of(lists.iter().map(|l| l.iter().copied()));
            let edges = arrays.edges();
            let flagged = FlaggedEdges::derive(&edges, lists.len());
            let mut i = 0;
            for (source, list) in lists.iter().enumerate() {
                let want: Vec<u32> = list.iter().filter(|e| e.1 != 0).map(|e| e.0).collect();
                if want.is_empty() {
                    prop_assert!(!flagged.source_set().contains(source as u32));
                    continue;
                }
                prop_assert_eq!(flagged.sources()[i], source as u32);
                prop_assert!(flagged.source_set().contains(source as u32));
                prop_assert_eq!(&flagged.all_targets()[flagged.positions(i)], &want[..]);
                i += 1;
            }
            prop_assert_eq!(i, flagged.sources().len());
        }
    }
}
