//! Writing relations ([`super::relation`]) in bounded memory.
//!
//! - [`RelationBuilder`] takes edges source by source (sources never
//!   decrease, as a bundle writer's loop over its doc ids gives them). It
//!   holds the current source's edges only: when the next source starts,
//!   they are sorted by target, de-duplicated (the first payload added for a
//!   target wins) and appended to scratch arrays (offsets, targets, payload)
//!   in files beside the bundle, then copied into it at write. A builder
//!   holds a few write buffers whatever the number of edges.
//! - [`UnorderedEdges`] takes payload-free edges in any order (people by
//!   employer, found from the people's side), sorts them on disk with an
//!   external sorter, then feeds a [`RelationBuilder`].

use std::borrow::Cow;
use std::convert::Infallible;
use std::io;
use std::path::Path;

use super::format::BundleWriter;
use super::scratch::{io_error, ScratchArray, ScratchChunks};

/// Builds one relation from edges added in nondecreasing source order.
pub struct RelationBuilder {
    sources: usize,
    /// The source whose edges are in `pending`; offsets up to
    /// `offsets[current]` are written.
    current: u32,
    /// (target, insertion order, payload) of `current`'s edges.
    pending: Vec<(u32, u32, u8)>,
    offsets: ScratchArray<u32>,
    targets: ScratchArray<u32>,
    payload: Option<ScratchArray<u8>>,
    /// The first failure (a source out of order or range, too many edges,
    /// a scratch write), reported by [`RelationBuilder::write`].
    failure: Option<io::Error>,
}

impl RelationBuilder {
    /// A builder over sources `0..sources` keeping its scratch files in `dir`.
    pub fn new_in(dir: &Path, sources: usize, with_payload: bool) -> io::Result<RelationBuilder> {
        let mut offsets = ScratchArray::new_in(dir)?;
        offsets.push(0)?;
        Ok(RelationBuilder {
            sources,
            current: 0,
            pending: Vec::new(),
            offsets,
            targets: ScratchArray::new_in(dir)?,
            payload: with_payload
                .then(|| ScratchArray::new_in(dir))
                .transpose()?,
            failure: None,
        })
    }

    /// Adds an edge; `source` may not be below the previous edge's source.
    pub fn add(&mut self, source: u32, target: u32, payload: u8) {
        if self.failure.is_some() {
            return;
        }
        if source < self.current || source as usize >= self.sources {
            let why = format!(
                "edge source {source} out of order (after {}) or range (0..{})",
                self.current, self.sources
            );
            self.failure = Some(io::Error::new(io::ErrorKind::InvalidInput, why));
            return;
        }
        if source > self.current {
            self.advance_to(source);
        }
        let order = self.pending.len() as u32;
        self.pending.push((target, order, payload));
    }

    /// Writes relation `name`: each source's targets sorted and distinct.
    pub fn write(mut self, out: &mut BundleWriter, name: &str) -> io::Result<()> {
        if self.failure.is_none() {
            self.advance_to(self.sources as u32);
        }
        if let Some(e) = self.failure {
            return Err(io::Error::new(e.kind(), format!("relation {name}: {e}")));
        }
        self.offsets
            .copy_into(out, &format!("relation.{name}.offsets"))?;
        self.targets
            .copy_into(out, &format!("relation.{name}.targets"))?;
        match self.payload {
            Some(payload) => payload.copy_into(out, &format!("relation.{name}.payload")),
            None => Ok(()),
        }
    }

    /// Appends `current`'s edges, then the offsets of every source up to
    /// `source` (those in between have no edge).
    fn advance_to(&mut self, source: u32) {
        if let Err(e) = self.flush_pending().and_then(|()| self.end_sources(source)) {
            self.failure = Some(e);
        }
        self.current = source;
    }

    fn flush_pending(&mut self) -> io::Result<()> {
        self.pending.sort_unstable();
        self.pending.dedup_by_key(|e| e.0);
        for &(target, _, payload) in &self.pending {
            self.targets.push(target)?;
            if let Some(p) = &mut self.payload {
                p.push(payload)?;
            }
        }
        self.pending.clear();
        Ok(())
    }

    fn end_sources(&mut self, source: u32) -> io::Result<()> {
        let edges = u32::try_from(self.targets.len())
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "over 2^32 edges"))?;
        for _ in self.current..source {
            self.offsets.push(edges)?;
        }
        Ok(())
    }
}

/// Merge function of edges keyed by (source, target): the key says all.
struct SameEdge;

impl grenad::MergeFunction for SameEdge {
    type Error = Infallible;

    fn merge<'a>(
        &self,
        _key: &[u8],
        values: &[Cow<'a, [u8]>],
    ) -> Result<Cow<'a, [u8]>, Infallible> {
        Ok(values[0].clone())
    }
}

/// Memory an [`UnorderedEdges`] sorter fills before it writes a sorted chunk.
const UNORDERED_SORT_BYTES: usize = 32 << 20;

/// Payload-free edges added in any order, sorted on disk.
pub struct UnorderedEdges {
    sorter: grenad::Sorter<SameEdge, ScratchChunks>,
    sources: usize,
}

impl UnorderedEdges {
    /// Edges over sources `0..sources`, sorted through files in `dir`.
    pub fn new_in(dir: &Path, sources: usize) -> UnorderedEdges {
        let mut builder = grenad::SorterBuilder::new(SameEdge);
        builder.dump_threshold(UNORDERED_SORT_BYTES);
        UnorderedEdges {
            sorter: builder.chunk_creator(ScratchChunks::new_in(dir)).build(),
            sources,
        }
    }

    pub fn add(&mut self, source: u32, target: u32) -> io::Result<()> {
        let mut key = [0u8; 8];
        key[..4].copy_from_slice(&source.to_be_bytes());
        key[4..].copy_from_slice(&target.to_be_bytes());
        self.sorter.insert(key, []).map_err(io_error)
    }

    /// Writes relation `name` (scratch files of `dir`).
    pub fn write(self, dir: &Path, out: &mut BundleWriter, name: &str) -> io::Result<()> {
        let mut builder = RelationBuilder::new_in(dir, self.sources, false)?;
        let mut edges = self.sorter.into_stream_merger_iter().map_err(io_error)?;
        while let Some((key, _)) = edges.next().map_err(io_error)? {
            let half =
                |at: usize| u32::from_be_bytes([key[at], key[at + 1], key[at + 2], key[at + 3]]);
            builder.add(half(0), half(4), 0);
        }
        builder.write(out, name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::format::Bundle;
    use crate::index::relation::Relation;

    fn written(build: impl FnOnce(&Path, &mut BundleWriter)) -> (tempfile::TempDir, Bundle) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.bin");
        let mut out = BundleWriter::create(&path, *b"RELS").unwrap();
        let scratch = out.dir().to_path_buf();
        build(&scratch, &mut out);
        out.finish().unwrap();
        let bundle = Bundle::open(&path, *b"RELS", true).unwrap();
        (dir, bundle)
    }

    #[test]
    fn sources_out_of_order_or_range_fail_the_write() {
        for edges in [[(3, 1), (2, 1)], [(0, 1), (5, 1)]] {
            written(|dir, out| {
                let mut b = RelationBuilder::new_in(dir, 5, false).unwrap();
                edges.iter().for_each(|&(s, t)| b.add(s, t, 0));
                let err = b.write(out, "r").unwrap_err();
                assert_eq!(err.kind(), io::ErrorKind::InvalidInput, "{err}");
            });
        }
    }

    #[test]
    fn unordered_edges_come_out_sorted_and_distinct() {
        let edges = [(4u32, 9u32), (0, 3), (4, 1), (0, 3), (2, 7), (4, 9), (0, 0)];
        let (_dir, bundle) = written(|dir, out| {
            let mut u = UnorderedEdges::new_in(dir, 6);
            edges.iter().for_each(|&(s, t)| u.add(s, t).unwrap());
            u.write(dir, out, "r").unwrap();
        });
        let rel = Relation::open(&bundle, "r", 6).unwrap();
        let all: Vec<Vec<u32>> = (0..6).map(|s| rel.targets(s).to_vec()).collect();
        assert_eq!(
            all,
            [vec![0, 3], vec![], vec![7], vec![], vec![1, 9], vec![]]
        );
        assert!(!bundle.has("relation.r.payload"));
    }

    #[test]
    fn an_empty_relation_has_one_offset_per_source_and_one_more() {
        let (_dir, bundle) = written(|dir, out| {
            RelationBuilder::new_in(dir, 3, true)
                .unwrap()
                .write(out, "r")
                .unwrap();
        });
        assert_eq!(
            bundle.array::<u32>("relation.r.offsets").unwrap(),
            &[0, 0, 0, 0]
        );
        assert!(bundle.array::<u8>("relation.r.payload").unwrap().is_empty());
    }
}
