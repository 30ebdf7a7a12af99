//! Top-N candidate collector: tantivy score descending, then our doc id
//! ascending, so ties are broken the same way whatever the segment layout.
//!
//! Our doc id comes from the `docid` fast field (a bit-packed column read in
//! place), and only for documents that can enter the heap: a document whose
//! score is below the current N-th best is rejected without any lookup.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use tantivy::collector::{Collector, SegmentCollector};
use tantivy::columnar::Column;
use tantivy::{DocId, Score, SegmentOrdinal, SegmentReader};

/// One retrieved document: tantivy score and our doc id.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Candidate {
    pub(crate) score: Score,
    pub(crate) docid: u32,
}

impl Candidate {
    /// Better first: higher score, then lower doc id.
    fn rank(&self, other: &Candidate) -> Ordering {
        other.score.total_cmp(&self.score).then(self.docid.cmp(&other.docid))
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

/// Collects the `limit` best candidates.
pub(crate) struct TopCandidates {
    limit: usize,
    docid_field: &'static str,
}

impl TopCandidates {
    pub(crate) fn new(limit: usize, docid_field: &'static str) -> TopCandidates {
        TopCandidates { limit, docid_field }
    }
}

/// Sorts best first and keeps `limit`.
fn best_first(mut candidates: Vec<Candidate>, limit: usize) -> Vec<Candidate> {
    candidates.sort_unstable_by(Candidate::rank);
    candidates.truncate(limit);
    candidates
}

impl Collector for TopCandidates {
    type Fruit = Vec<Candidate>;
    type Child = SegmentTop;

    fn for_segment(&self, _: SegmentOrdinal, segment: &SegmentReader) -> tantivy::Result<SegmentTop> {
        let docids = segment.fast_fields().u64(self.docid_field)?;
        Ok(SegmentTop { limit: self.limit, docids, heap: BinaryHeap::with_capacity(self.limit + 1) })
    }

    fn requires_scoring(&self) -> bool {
        true
    }

    fn merge_fruits(&self, fruits: Vec<Vec<Candidate>>) -> tantivy::Result<Vec<Candidate>> {
        Ok(best_first(fruits.into_iter().flatten().collect(), self.limit))
    }
}

/// Per-segment heap of the best candidates.
pub(crate) struct SegmentTop {
    limit: usize,
    docids: Column<u64>,
    heap: BinaryHeap<Worst>,
}

impl SegmentTop {
    fn offer(&mut self, candidate: Candidate) {
        if self.heap.len() < self.limit {
            self.heap.push(Worst(candidate));
        } else if let Some(mut worst) = self.heap.peek_mut() {
            if candidate.rank(&worst.0) == Ordering::Less {
                *worst = Worst(candidate);
            }
        }
    }

    /// Whether a document of this score is certainly not among the best.
    fn hopeless(&self, score: Score) -> bool {
        self.heap.len() >= self.limit && self.heap.peek().is_none_or(|w| score < w.0.score)
    }
}

impl SegmentCollector for SegmentTop {
    type Fruit = Vec<Candidate>;

    fn collect(&mut self, doc: DocId, score: Score) {
        if self.hopeless(score) {
            return;
        }
        // Every indexed document has a doc id; a missing one cannot be reported.
        if let Some(docid) = self.docids.first(doc).and_then(|d| u32::try_from(d).ok()) {
            self.offer(Candidate { score, docid });
        }
    }

    fn harvest(self) -> Vec<Candidate> {
        let limit = self.limit;
        best_first(self.heap.into_iter().map(|Worst(c)| c).collect(), limit)
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
        assert_eq!(best_first(all, 4), [c(2.0, 5), c(2.0, 7), c(1.0, 3), c(1.0, 9)]);
    }

    #[test]
    fn heap_top_is_the_worst_candidate() {
        let mut heap: BinaryHeap<Worst> = [c(1.0, 3), c(1.0, 9), c(2.0, 1)].into_iter().map(Worst).collect();
        assert_eq!(heap.pop().map(|w| w.0), Some(c(1.0, 9)));
        assert_eq!(heap.pop().map(|w| w.0), Some(c(1.0, 3)));
        assert_eq!(heap.pop().map(|w| w.0), Some(c(2.0, 1)));
    }
}
