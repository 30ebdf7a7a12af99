//! Value runs: the deals behind each entry of value counts
//! ([`super::value_counts`]). An entity's deals of one value within a block
//! of deal doc ids (a date range: deal doc ids follow the date) are then
//! one run of its entry's deals, found by at most two binary searches, and
//! its leads among them a count of bits: counting a set of deals that is
//! "these rounds, in this date range" reads each entry of the rounds once
//! instead of walking their deals.
//!
//! Derived in memory on first use, from the entities' own side of the
//! counted relation (`firms.deals`, ascending, lead flag in the payload)
//! and the deal facet's values, then kept (the index format does not
//! change). Memory: four bytes and one bit per counted edge (18 MB for the
//! 4.6 million firm edges at M), plus four bytes per entry.
//!
//! | array | content |
//! |---|---|
//! | `starts` | u32 × (entries + 1): entry `e`'s deals are `deals[starts[e]..starts[e+1]]`, as many as the entry counts |
//! | `deals` | u32 × edges: deal doc ids, ascending within an entry |
//! | `led` | one bit per position of `deals`: the entity led that deal |
//!
//! Derivation checks the runs against the counts: every entry's run holds
//! exactly its count of deals, all of its own entity; a disagreement is an
//! error, never a silent miscount.

use std::ops::Range;

use super::facet::Facet;
use super::relation::Edges;
use super::value_counts::ValueCounts;
use super::IndexError;

/// A deal without a counted value.
const NO_VALUE: u16 = u16::MAX;

pub struct ValueRuns {
    starts: Vec<u32>,
    deals: Vec<u32>,
    led: Vec<u64>,
}

impl ValueRuns {
    /// The runs of `counts` (of `facet`'s values), from `edges`: each of
    /// `entities` entities' deals, ascending, payload non-zero when led.
    pub fn derive(
        counts: &ValueCounts,
        facet: &Facet,
        edges: Edges<'_>,
        entities: usize,
        deal_docs: usize,
    ) -> Result<ValueRuns, IndexError> {
        let value_of = values_of_deals(counts, facet, deal_docs)?;
        let mut starts = Vec::with_capacity(counts.entry_deals().len() + 1);
        starts.push(0u32);
        for &n in counts.entry_deals() {
            let next = starts[starts.len() - 1].checked_add(n);
            starts.push(next.ok_or_else(|| IndexError::corrupt("value runs", "too many edges"))?);
        }
        let total = starts[starts.len() - 1] as usize;
        let mut fill = Fill {
            runs: ValueRuns {
                starts,
                deals: vec![0; total],
                led: vec![0; total.div_ceil(64)],
            },
            next_entry: (0..counts.values())
                .map(|v| counts.entries_at(v).start)
                .collect(),
            touched: Vec::new(),
        };
        for entity in 0..entities as u32 {
            fill.entity(counts, &value_of, edges, entity)?;
        }
        fill.finish(counts)
    }

    /// Entry `e`'s deals, ascending.
    #[inline]
    pub fn deals(&self, e: usize) -> &[u32] {
        &self.deals[self.starts[e] as usize..self.starts[e + 1] as usize]
    }

    /// How many of entry `e`'s deals at `positions` (within
    /// [`ValueRuns::deals`]) were led.
    #[inline]
    pub fn leads(&self, e: usize, positions: Range<usize>) -> u32 {
        let from = self.starts[e] as usize;
        ones_between(&self.led, from + positions.start, from + positions.end)
    }

    /// Bytes held.
    pub fn heap_bytes(&self) -> usize {
        self.starts.len() * 4 + self.deals.len() * 4 + self.led.len() * 8
    }
}

/// Each deal's value position in `counts` (`NO_VALUE`: none counted).
fn values_of_deals(
    counts: &ValueCounts,
    facet: &Facet,
    deal_docs: usize,
) -> Result<Vec<u16>, IndexError> {
    if counts.values() >= NO_VALUE as usize {
        return Err(IndexError::corrupt("value runs", "too many values"));
    }
    let mut value_of = vec![NO_VALUE; deal_docs];
    for i in 0..facet.len() {
        let Some(position) = counts.position(facet.value(i)) else {
            continue;
        };
        for d in facet.docids_at(i)?.iter() {
            if let Some(slot) = value_of.get_mut(d as usize) {
                *slot = position as u16;
            }
        }
    }
    Ok(value_of)
}

/// Runs being filled, entity after entity.
struct Fill {
    runs: ValueRuns,
    /// Per value: its next entry (entities ascending within a value).
    next_entry: Vec<usize>,
    /// (value, entry, next position) of the current entity.
    touched: Vec<(u16, usize, usize)>,
}

impl Fill {
    /// Places `entity`'s deals in the runs of their values' entries.
    fn entity(
        &mut self,
        counts: &ValueCounts,
        value_of: &[u16],
        edges: Edges<'_>,
        entity: u32,
    ) -> Result<(), IndexError> {
        self.touched.clear();
        let payload = edges.payload(entity);
        for (i, &d) in edges.targets(entity).iter().enumerate() {
            let value = value_of.get(d as usize).copied().unwrap_or(NO_VALUE);
            if value == NO_VALUE {
                continue;
            }
            let slot = self.slot(counts, value, entity)?;
            let at = self.touched[slot].2;
            if at >= self.runs.starts[self.touched[slot].1 + 1] as usize {
                return Err(mismatch(entity));
            }
            self.runs.deals[at] = d;
            if payload.get(i).is_some_and(|&b| b != 0) {
                self.runs.led[at / 64] |= 1 << (at % 64);
            }
            self.touched[slot].2 += 1;
        }
        for &(value, entry, at) in &self.touched {
            if at != self.runs.starts[entry + 1] as usize {
                return Err(mismatch(entity));
            }
            self.next_entry[value as usize] = entry + 1;
        }
        Ok(())
    }

    /// The index in `touched` of `entity`'s entry of `value`, opened on
    /// its first deal of that value.
    fn slot(&mut self, counts: &ValueCounts, value: u16, entity: u32) -> Result<usize, IndexError> {
        if let Some(i) = self.touched.iter().position(|t| t.0 == value) {
            return Ok(i);
        }
        let entry = self.next_entry[value as usize];
        let own = counts.entries_at(value as usize).contains(&entry)
            && counts.entry_docs()[entry] == entity;
        if !own {
            return Err(mismatch(entity));
        }
        let start = self.runs.starts[entry] as usize;
        self.touched.push((value, entry, start));
        Ok(self.touched.len() - 1)
    }

    /// The runs, once every value's entries are filled.
    fn finish(self, counts: &ValueCounts) -> Result<ValueRuns, IndexError> {
        let complete = (0..counts.values()).all(|v| self.next_entry[v] == counts.entries_at(v).end);
        match complete {
            true => Ok(self.runs),
            false => Err(IndexError::corrupt(
                "value runs",
                "the value counts name deals the entities' side does not have",
            )),
        }
    }
}

fn mismatch(entity: u32) -> IndexError {
    IndexError::corrupt(
        "value runs",
        format!("entity {entity}: its deals disagree with the value counts"),
    )
}

/// Set bits of `bits` at positions `from..to`.
fn ones_between(bits: &[u64], from: usize, to: usize) -> u32 {
    if from >= to {
        return 0;
    }
    let (first, last) = (from / 64, (to - 1) / 64);
    let head = u64::MAX << (from % 64);
    let tail = u64::MAX >> (63 - (to - 1) % 64);
    if first == last {
        return (bits[first] & head & tail).count_ones();
    }
    let middle: u32 = bits[first + 1..last].iter().map(|w| w.count_ones()).sum();
    (bits[first] & head).count_ones() + middle + (bits[last] & tail).count_ones()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ones_between_counts_the_bits_of_a_range() {
        let bits = [0b1011u64, u64::MAX, 1 << 63];
        let naive = |from: usize, to: usize| {
            (from..to)
                .filter(|&i| bits[i / 64] >> (i % 64) & 1 == 1)
                .count() as u32
        };
        for from in [0, 1, 3, 4, 63, 64, 100, 127, 128, 191] {
            for to in [0, 1, 2, 4, 64, 65, 127, 128, 129, 191, 192] {
                assert_eq!(
                    ones_between(&bits, from, to),
                    naive(from, to),
                    "{from}..{to}"
                );
            }
        }
    }
}
