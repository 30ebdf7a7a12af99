//! Value lists: each joint source's targets in one or both of two
//! relations (a person's deals: their `angel_deals`, their
//! `partner_deals`, or the union of both, each deal once: [`Listed`])
//! grouped by the value of a single-valued deal facet (the round). A count over "the
//! deals of these rounds, and a size or a date range" then reads the
//! kept rounds' lists only, where a pass over every person's deals reads
//! every edge of every round.
//!
//! Per value of the facet:
//!
//! | array | content |
//! |---|---|
//! | `sources` | u32 × entries: the position of the entry's source among the joint sources ([`JointSources`]), ascending |
//! | `starts` | u32 × (entries + 1): entry `e`'s targets are `targets[starts[e]..starts[e+1]]` |
//! | `targets` | u32 × edges: ascending within an entry, each once |
//!
//! Derived in memory (one pass over both relations; four bytes per
//! distinct edge, eight per entry), then kept; the index format does not
//! change. A deal with two values of the facet is an error: the counts of
//! several values add up only when each deal has one.

use super::facet::Facet;
use super::joint_sources::JointSources;
use super::relation::Edges;
use super::IndexError;

/// Which of the two relations' targets are listed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Listed {
    Both,
    First,
    Second,
}

impl Listed {
    /// `source`'s targets listed, from the first and the second relation.
    fn targets<'a>(
        self,
        (first, second): (&Edges<'a>, &Edges<'a>),
        source: u32,
    ) -> (&'a [u32], &'a [u32]) {
        match self {
            Listed::Both => (first.targets(source), second.targets(source)),
            Listed::First => (first.targets(source), &[]),
            Listed::Second => (&[], second.targets(source)),
        }
    }
}

/// A deal without a value.
const NO_VALUE: u16 = u16::MAX;

/// One value's entries.
#[derive(Debug, Default)]
pub struct ValueList {
    sources: Vec<u32>,
    starts: Vec<u32>,
    targets: Vec<u32>,
}

impl ValueList {
    /// Each entry: (joint source position, its targets, ascending).
    pub fn entries(&self) -> impl Iterator<Item = (u32, &[u32])> + '_ {
        let bounds = self.starts.windows(2);
        let lists = bounds.map(|w| &self.targets[w[0] as usize..w[1] as usize]);
        self.sources.iter().copied().zip(lists)
    }

    /// The entries `n` at a time (at least 1): each run's sources, its
    /// entries' bounds (one more than its sources, positions within
    /// `targets`) and its targets, contiguous.
    pub fn runs(&self, n: usize) -> impl Iterator<Item = EntryRun<'_>> + '_ {
        let n = n.max(1);
        (0..self.sources.len()).step_by(n).map(move |i| {
            let end = (i + n).min(self.sources.len());
            let starts = &self.starts[i..=end];
            let (lo, hi) = (starts[0] as usize, starts[end - i] as usize);
            EntryRun {
                sources: &self.sources[i..end],
                starts,
                targets: &self.targets[lo..hi],
            }
        })
    }

    /// How many entries (sources with a target of this value).
    pub fn len(&self) -> usize {
        self.sources.len()
    }

    pub fn is_empty(&self) -> bool {
        self.sources.is_empty()
    }

    /// How many targets, over every entry.
    pub fn edges(&self) -> usize {
        self.targets.len()
    }

    /// Adds `target` to source `j`'s entry (opened on its first target).
    fn push(&mut self, j: u32, target: u32) {
        if self.sources.last() != Some(&j) {
            self.sources.push(j);
            self.starts.push(self.targets.len() as u32);
        }
        self.targets.push(target);
    }

    fn close(&mut self) {
        self.starts.push(self.targets.len() as u32);
        self.sources.shrink_to_fit();
        self.starts.shrink_to_fit();
        self.targets.shrink_to_fit();
    }

    fn heap_bytes(&self) -> usize {
        (self.sources.len() + self.starts.len() + self.targets.len()) * 4
    }
}

/// Consecutive entries of a value's list (see [`ValueList::runs`]).
pub struct EntryRun<'a> {
    /// The entries' joint source positions.
    pub sources: &'a [u32],
    /// Where each entry's targets begin in the whole list, then where the
    /// last one's end.
    pub starts: &'a [u32],
    /// The entries' targets.
    pub targets: &'a [u32],
}

/// Every value's lists, by the value's position in the facet.
#[derive(Debug)]
pub struct ValueLists {
    names: Vec<String>,
    lists: Vec<ValueList>,
}

impl ValueLists {
    /// The lists of `joint`'s sources over `first` and `second` (each
    /// source's targets ascending; those of one relation or both, as
    /// `listed`), by `facet`'s value of each target (doc ids
    /// `0..targets`).
    pub fn derive(
        facet: &Facet,
        (relations, listed): ((&Edges, &Edges), Listed),
        joint: &JointSources,
        targets: usize,
    ) -> Result<ValueLists, IndexError> {
        let value_of = values_of(facet, targets)?;
        let names = (0..facet.len()).map(|i| facet.value(i).to_string());
        Ok(ValueLists {
            names: names.collect(),
            lists: grouped(&value_of, facet.len(), (relations, listed), joint),
        })
    }

    /// The list of facet value `name`, if the facet has it.
    pub fn of(&self, name: &str) -> Option<&ValueList> {
        let at = self.names.iter().position(|n| n == name)?;
        self.lists.get(at)
    }

    /// Bytes held.
    pub fn heap_bytes(&self) -> usize {
        self.lists.iter().map(ValueList::heap_bytes).sum()
    }
}

/// The lists of `values` values, each target's value position in
/// `value_of` (`NO_VALUE`: none, not listed).
fn grouped(
    value_of: &[u16],
    values: usize,
    (relations, listed): ((&Edges, &Edges), Listed),
    joint: &JointSources,
) -> Vec<ValueList> {
    let mut lists: Vec<ValueList> = (0..values).map(|_| ValueList::default()).collect();
    for (j, source) in joint.sources().iter().enumerate() {
        let (first, second) = listed.targets(relations, source);
        for target in Union::of(first, second) {
            let value = value_of.get(target as usize).copied().unwrap_or(NO_VALUE);
            if let Some(list) = lists.get_mut(value as usize) {
                list.push(j as u32, target);
            }
        }
    }
    lists.iter_mut().for_each(ValueList::close);
    lists
}

/// Each target's value position in `facet` (`NO_VALUE`: none).
fn values_of(facet: &Facet, targets: usize) -> Result<Vec<u16>, IndexError> {
    if facet.len() >= NO_VALUE as usize {
        return Err(IndexError::corrupt("value lists", "too many values"));
    }
    let mut value_of = vec![NO_VALUE; targets];
    for i in 0..facet.len() {
        for d in facet.docids_at(i)?.iter() {
            let Some(slot) = value_of.get_mut(d as usize) else {
                continue;
            };
            if *slot != NO_VALUE {
                let why = format!("deal {d} has two values of a single-valued facet");
                return Err(IndexError::corrupt("value lists", why));
            }
            *slot = i as u16;
        }
    }
    Ok(value_of)
}

/// The union of two ascending lists, ascending, each target once.
struct Union<'a> {
    a: std::iter::Peekable<std::slice::Iter<'a, u32>>,
    b: std::iter::Peekable<std::slice::Iter<'a, u32>>,
}

impl<'a> Union<'a> {
    fn of(a: &'a [u32], b: &'a [u32]) -> Union<'a> {
        Union {
            a: a.iter().peekable(),
            b: b.iter().peekable(),
        }
    }
}

impl Iterator for Union<'_> {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        match (self.a.peek().copied(), self.b.peek().copied()) {
            (Some(&x), Some(&y)) if x == y => {
                self.b.next();
                self.a.next().copied()
            }
            (Some(&x), Some(&y)) if y < x => self.b.next().copied(),
            (Some(_), _) => self.a.next().copied(),
            (None, _) => self.b.next().copied(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::relation::TestArrays;
    use proptest::prelude::*;

    proptest! {
        /// The union of two ascending, distinct lists is their sorted,
        /// deduplicated concatenation.
        #[test]
        fn union_is_each_target_once(
            a in proptest::collection::btree_set(0u32..60, 0..20),
            b in proptest::collection::btree_set(0u32..60, 0..20),
        ) {
            let (a, b): (Vec<u32>, Vec<u32>) = (a.into_iter().collect(), b.into_iter().collect());
            let mut all: Vec<u32> = a.iter().chain(&b).copied().collect();
            all.sort_unstable();
            all.dedup();
            prop_assert_eq!(Union::of(&a, &b).collect::<Vec<_>>(), all);
        }

        /// Each value's list holds, for each joint source in order, the
        /// union of its targets in both relations that have that value,
        /// ascending, each once, the relations sharing targets.
        #[test]
        fn lists_are_each_sources_targets_by_value(
            first in proptest::collection::vec(proptest::collection::btree_set(0u32..80, 0..10), 0..30),
            second in proptest::collection::vec(proptest::collection::btree_set(0u32..80, 0..10), 0..30),
            value_of in proptest::collection::vec(prop_oneof![0u16..4, Just(NO_VALUE)], 80),
        ) {
            let n = first.len().max(second.len());
            let list = |l: &Vec<std::collections::BTreeSet<u32>>, p: usize| {
                l.get(p).map(|s| s.iter().map(|&t| (t, 0u8)).collect()).unwrap_or_default()
            };
            let arrays = |l| TestArrays::of((0..n).map(|p| list(l, p)).collect::<Vec<Vec<_>>>());
            let (a, b) = (arrays(&first), arrays(&second));
            let (a, b) = (a.edges(), b.edges());
            let joint = JointSources::derive(&a, &b, n);
            for listed in [Listed::Both, Listed::First, Listed::Second] {
            let lists = grouped(&value_of, 4, ((&a, &b), listed), &joint);
            for (v, got) in lists.iter().enumerate() {
                let mut want = Vec::new();
                for (j, p) in joint.sources().iter().enumerate() {
                    let first = if listed == Listed::Second { &[][..] } else { a.targets(p) };
                    let second = if listed == Listed::First { &[][..] } else { b.targets(p) };
                    let mut union: Vec<u32> = first.iter().chain(second).copied().collect();
                    union.sort_unstable();
                    union.dedup();
                    union.retain(|&t| value_of[t as usize] == v as u16);
                    if !union.is_empty() {
                        want.push((j as u32, union));
                    }
                }
                let got: Vec<(u32, Vec<u32>)> = got.entries().map(|(j, t)| (j, t.to_vec())).collect();
                prop_assert_eq!(got, want, "{:?}", listed);
            }
            }
        }
    }
}
