//! Common edges: for each source, the targets it has in both of two
//! relations over the same sources and targets, with the second
//! relation's payload byte. A person's `angel_deals` and `partner_deals`
//! seldom share a deal (one pair at M), but a count over their union must
//! count a shared deal once: counting both lists separately, then taking
//! the shared deals off, needs only this short list.
//!
//! Derived in memory on first use (one merge of the two lists of each
//! source that has both), then kept; the index format does not change.
//! Memory: nine bytes per common edge.

use std::cmp::Ordering;

use super::relation::Edges;

/// One target a source has in both relations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CommonEdge {
    pub source: u32,
    pub target: u32,
    /// The second relation's payload byte of the edge (0 without payload).
    pub payload: u8,
}

/// Every common edge of two relations, by source, then target.
#[derive(Debug, Default)]
pub struct CommonEdges {
    edges: Vec<CommonEdge>,
}

impl CommonEdges {
    /// The common edges of `first` and `second` over `sources` sources.
    pub fn derive(first: &Edges, second: &Edges, sources: usize) -> CommonEdges {
        let mut edges = Vec::new();
        for source in 0..sources as u32 {
            if first.degree(source) > 0 && second.degree(source) > 0 {
                common_of(first, second, source, &mut edges);
            }
        }
        CommonEdges { edges }
    }

    /// Every common edge, ascending by (source, target).
    pub fn edges(&self) -> &[CommonEdge] {
        &self.edges
    }

    pub fn heap_bytes(&self) -> usize {
        self.edges.capacity() * std::mem::size_of::<CommonEdge>()
    }
}

/// Appends `source`'s common edges (both target lists ascending).
fn common_of(first: &Edges, second: &Edges, source: u32, out: &mut Vec<CommonEdge>) {
    let (a, b) = (first.targets(source), second.targets(source));
    let payload = second.payload(source);
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            Ordering::Less => i += 1,
            Ordering::Greater => j += 1,
            Ordering::Equal => {
                out.push(CommonEdge {
                    source,
                    target: a[i],
                    payload: payload.get(j).copied().unwrap_or(0),
                });
                (i, j) = (i + 1, j + 1);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_edges_are_the_targets_in_both_lists() {
        // Sources: 0 shares 3 and 9; 1 has no second list; 2 shares none;
        // 3 shares 4 (payload 7).
        let (a_off, a_t) = ([0, 3, 4, 6, 8], [1, 3, 9, 5, 2, 6, 0, 4]);
        let (b_off, b_t) = ([0, 3, 3, 5, 6], [3, 8, 9, 1, 7, 4]);
        let b_p = [1, 0, 0, 1, 1, 7];
        let first = Edges::of(&a_off, &a_t, &[]);
        let second = Edges::of(&b_off, &b_t, &b_p);
        let common = CommonEdges::derive(&first, &second, 4);
        let edge = |source, target, payload| CommonEdge {
            source,
            target,
            payload,
        };
        let want = [edge(0, 3, 1), edge(0, 9, 0), edge(3, 4, 7)];
        assert_eq!(common.edges(), &want);
    }
}
