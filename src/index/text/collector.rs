//! Top-N candidate collector: tantivy score descending, then our doc id
//! ascending, so ties are broken the same way whatever the segment layout;
//! optionally keeps only one category.
//!
//! It drives the query with `Weight::for_each_pruning`, reporting back the
//! N-th best score: a flat union of term clauses then runs block-WAND and
//! skips posting blocks that cannot beat it. Documents tying with the N-th
//! best are skipped too, which is the doc id tie-break because the index is
//! sorted by doc id (`build.rs`): documents arrive in increasing doc id, so
//! a later tie always loses. Our doc id and the category come from
//! fast fields (bit-packed columns read in place), and the doc id is read
//! only for documents that can enter the heap. The columns are opened once
//! per segment when the index is opened ([`SegmentColumns`]): opening one
//! decodes every block header of the column, which cost more than the rest
//! of a short search on 3 M names.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use tantivy::collector::{Collector, SegmentCollector};
use tantivy::columnar::Column;
use tantivy::query::Weight;
use tantivy::{DocId, Score, Searcher, SegmentOrdinal, SegmentReader};

use super::fields::{CATEGORY, DOCID};

/// One retrieved document: tantivy score and our doc id.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Candidate {
    pub(crate) score: Score,
    pub(crate) docid: u32,
}

impl Candidate {
    /// Better first: higher score, then lower doc id.
    fn rank(&self, other: &Candidate) -> Ordering {
        other
            .score
            .total_cmp(&self.score)
            .then(self.docid.cmp(&other.docid))
    }
}

/// Heap entry ordered so that the *worst* candidate is the greatest.
#[derive(Debug)]
struct Worst(Candidate);

impl PartialEq for Worst {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Worst {}
impl PartialOrd for Worst {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Worst {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.rank(&other.0)
    }
}

/// The `limit` best candidates offered so far.
pub(crate) struct TopK {
    limit: usize,
    heap: BinaryHeap<Worst>,
}

impl TopK {
    pub(crate) fn new(limit: usize) -> TopK {
        TopK {
            limit,
            heap: BinaryHeap::with_capacity(limit.min(MAX_PREALLOCATED)),
        }
    }

    /// Keeps `candidate` if it is among the best `limit` so far.
    pub(crate) fn offer(&mut self, candidate: Candidate) {
        if self.heap.len() < self.limit {
            self.heap.push(Worst(candidate));
        } else if let Some(mut worst) = self.heap.peek_mut() {
            if candidate.rank(&worst.0) == Ordering::Less {
                *worst = Worst(candidate);
            }
        }
    }

    /// The worst kept score once `limit` candidates are kept.
    pub(crate) fn floor(&self) -> Option<Score> {
        self.worst().map(|worst| worst.score)
    }

    /// The worst kept candidate once `limit` candidates are kept.
    pub(crate) fn worst(&self) -> Option<Candidate> {
        let full = self.heap.len() >= self.limit;
        self.heap.peek().filter(|_| full).map(|worst| worst.0)
    }

    /// The kept candidates, best first.
    pub(crate) fn into_best(self) -> Vec<Candidate> {
        best_first(
            self.heap.into_iter().map(|Worst(c)| c).collect(),
            self.limit,
        )
    }
}

/// Heap slots reserved up front (more grow on demand).
const MAX_PREALLOCATED: usize = 1_024;

/// The fast-field columns of one segment, opened once.
#[derive(Clone)]
pub(crate) struct SegmentColumns {
    docids: Column<u64>,
    categories: Column<u64>,
}

impl SegmentColumns {
    /// The columns of every segment of `searcher`, by segment ordinal.
    pub(crate) fn of(searcher: &Searcher) -> tantivy::Result<Vec<SegmentColumns>> {
        searcher
            .segment_readers()
            .iter()
            .map(|segment| {
                let fast = segment.fast_fields();
                Ok(SegmentColumns {
                    docids: fast.u64(DOCID)?,
                    categories: fast.u64(CATEGORY)?,
                })
            })
            .collect()
    }

    /// Our doc id of segment document `doc`.
    pub(crate) fn docid(&self, doc: DocId) -> Option<u32> {
        self.docids.first(doc).and_then(|d| u32::try_from(d).ok())
    }

    /// The category of segment document `doc`, if it has one.
    pub(crate) fn category(&self, doc: DocId) -> Option<u8> {
        self.categories
            .first(doc)
            .and_then(|c| u8::try_from(c).ok())
    }

    /// Whether segment document `doc` is of `category` (always, for `None`).
    pub(crate) fn has_category(&self, doc: DocId, category: Option<u8>) -> bool {
        category.is_none_or(|c| self.categories.first(doc) == Some(u64::from(c)))
    }
}

/// Collects the `limit` best candidates of `category` (any when `None`).
pub(crate) struct TopCandidates<'a> {
    limit: usize,
    category: Option<u8>,
    columns: &'a [SegmentColumns],
}

impl<'a> TopCandidates<'a> {
    /// `columns` are those of the searcher's segments ([`SegmentColumns::of`]).
    pub(crate) fn new(
        limit: usize,
        category: Option<u8>,
        columns: &'a [SegmentColumns],
    ) -> TopCandidates<'a> {
        TopCandidates {
            limit,
            category,
            columns,
        }
    }
}

/// Sorts best first and keeps `limit`.
fn best_first(mut candidates: Vec<Candidate>, limit: usize) -> Vec<Candidate> {
    candidates.sort_unstable_by(Candidate::rank);
    candidates.truncate(limit);
    candidates
}

impl Collector for TopCandidates<'_> {
    type Fruit = Vec<Candidate>;
    type Child = SegmentTop;

    fn for_segment(
        &self,
        ordinal: SegmentOrdinal,
        _: &SegmentReader,
    ) -> tantivy::Result<SegmentTop> {
        let columns = self.columns.get(ordinal as usize).ok_or_else(|| {
            tantivy::TantivyError::InternalError(format!(
                "no fast-field columns for segment {ordinal}"
            ))
        })?;
        Ok(SegmentTop {
            top: TopK::new(self.limit),
            columns: columns.clone(),
            category: self.category,
        })
    }

    fn requires_scoring(&self) -> bool {
        true
    }

    fn merge_fruits(&self, fruits: Vec<Vec<Candidate>>) -> tantivy::Result<Vec<Candidate>> {
        Ok(best_first(
            fruits.into_iter().flatten().collect(),
            self.limit,
        ))
    }

    fn collect_segment(
        &self,
        weight: &dyn Weight,
        ordinal: SegmentOrdinal,
        segment: &SegmentReader,
    ) -> tantivy::Result<Vec<Candidate>> {
        let mut top = self.for_segment(ordinal, segment)?;
        match segment.alive_bitset() {
            None => weight.for_each_pruning(Score::MIN, segment, &mut |doc, score| {
                top.collect(doc, score);
                top.threshold()
            })?,
            Some(alive) => weight.for_each(segment, &mut |doc, score| {
                if alive.is_alive(doc) {
                    top.collect(doc, score);
                }
            })?,
        }
        Ok(top.harvest())
    }
}

/// Per-segment heap of the best candidates.
pub(crate) struct SegmentTop {
    top: TopK,
    columns: SegmentColumns,
    category: Option<u8>,
}

impl SegmentTop {
    /// Scores at or below this cannot enter the heap (a tie with the worst
    /// kept score arrives later, so has a higher doc id, and loses).
    fn threshold(&self) -> Score {
        self.top.floor().unwrap_or(Score::MIN)
    }
}

impl SegmentCollector for SegmentTop {
    type Fruit = Vec<Candidate>;

    fn collect(&mut self, doc: DocId, score: Score) {
        if score <= self.threshold() || !self.columns.has_category(doc, self.category) {
            return;
        }
        // Every indexed document has a doc id; a missing one cannot be reported.
        if let Some(docid) = self.columns.docid(doc) {
            self.top.offer(Candidate { score, docid });
        }
    }

    fn harvest(self) -> Vec<Candidate> {
        self.top.into_best()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(score: f32, docid: u32) -> Candidate {
        Candidate { score, docid }
    }

    #[test]
    fn best_first_orders_by_score_then_doc_id() {
        let all = vec![c(1.0, 9), c(2.0, 5), c(1.0, 3), c(2.0, 7), c(0.5, 1)];
        assert_eq!(
            best_first(all, 4),
            [c(2.0, 5), c(2.0, 7), c(1.0, 3), c(1.0, 9)]
        );
    }

    #[test]
    fn heap_top_is_the_worst_candidate() {
        let mut heap: BinaryHeap<Worst> = [c(1.0, 3), c(1.0, 9), c(2.0, 1)]
            .into_iter()
            .map(Worst)
            .collect();
        assert_eq!(heap.pop().map(|w| w.0), Some(c(1.0, 9)));
        assert_eq!(heap.pop().map(|w| w.0), Some(c(1.0, 3)));
        assert_eq!(heap.pop().map(|w| w.0), Some(c(2.0, 1)));
    }
}
