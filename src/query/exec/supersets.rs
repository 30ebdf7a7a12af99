//! Supersets B of a request's qualifying deals D whose per-entity counts
//! are stored (`index::value_counts`): the deals of the rounds a request
//! keeps, or of the lone super category its companies must have. Each
//! entity's counts over D are then its counts over B (a few entries per
//! entity, read) less a tally over the deals of B *not* in D (walked):
//! when D is most of B, far fewer deals are walked than D has.
//!
//! Each deal has one round, so the counts of several rounds add up; a
//! company may have several super categories, so only a lone one is a
//! superset whose counts can be read (two would count a deal with both
//! twice).
//!
//! A company's industries overlap too, but their counts (derived in
//! memory, see `value_counts::INDUSTRY`) are read for up to
//! [`MAX_OVERLAPPING`] industries at once: a deal of `m` of them is counted
//! `m` times, so the deals in at least `k` of them, for each `k` from 2,
//! are walked off once each (at M, a few thousand deals where D has
//! 150,000–210,000). So are a company's locations (`value_counts::LOCATION`),
//! which nest: a value whose deals lie within another's kept value is
//! dropped first ([`Superset::folded`]), so that a city and its country
//! are counted as the country.

use std::sync::Arc;

use roaring::RoaringBitmap;

use crate::index::payload::{FIRM_LED, PARTICIPANT_LEAD};
use crate::index::relation::Relation;
use crate::index::value_counts::{
    Counted, CountedFacet, ValueCounts, DERIVED, INDUSTRY, LOCATION, ROUND, SUPER_CATEGORY,
};
use crate::index::{Index, IndexError};
use crate::query::request::{CompanyFilter, DealFilter};

use super::span::chunk_counts;
use super::tally::{Sides, Tally, Totals};

/// The deals' relation to some entities, how many of them there are, and
/// which of its payloads mark a led deal.
type DealSide = (Arc<Relation>, usize, fn(u8) -> bool);

/// Whose counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entities {
    Firms,
    People,
}

impl Entities {
    /// The name of `facet`'s counts of these entities.
    fn counts_of(self, facet: &CountedFacet) -> &'static str {
        match self {
            Entities::Firms => facet.firms,
            Entities::People => facet.people,
        }
    }

    /// Where these entities' derived counts are counted from.
    fn deal_side(self, index: &Index) -> Result<DealSide, IndexError> {
        Ok(match self {
            Entities::Firms => (
                index.deals.relation("firms")?,
                index.firms.docs,
                |payload| payload & FIRM_LED != 0,
            ),
            Entities::People => (
                index.deals.relation("participants")?,
                index.people.docs,
                |payload| payload & PARTICIPANT_LEAD != 0,
            ),
        })
    }
}

/// The deals of `values` of `facet`: a superset of D with stored counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Superset {
    pub facet: CountedFacet,
    /// Sorted, each once.
    pub values: Vec<String>,
}

impl Superset {
    pub fn new(facet: CountedFacet, mut values: Vec<String>) -> Superset {
        values.sort_unstable();
        values.dedup();
        Superset { facet, values }
    }

    /// The supersets a request's D lies within, given the filters on its
    /// deals and on their companies.
    pub fn of_request(deal: &DealFilter, company: &CompanyFilter) -> Vec<Superset> {
        let mut supersets = Superset::of_rounds_or_super(deal, company);
        let overlapping = [
            (INDUSTRY, &company.industries),
            (LOCATION, &company.locations),
        ];
        supersets.extend(overlapping.into_iter().filter_map(Superset::of_overlapping));
        supersets
    }

    /// The rounds a request keeps, and the lone super category its
    /// companies must have.
    fn of_rounds_or_super(deal: &DealFilter, company: &CompanyFilter) -> Vec<Superset> {
        let rounds = deal.financing_types.as_ref().map(|kept| {
            let values = kept.iter().map(|k| k.facet_value()).collect();
            Superset::new(ROUND, values)
        });
        let lone_super = company
            .super_categories
            .clone()
            .map(|values| Superset::new(SUPER_CATEGORY, values))
            .filter(|s| s.values.len() == 1);
        rounds.into_iter().chain(lone_super).collect()
    }

    /// The superset of the values of `facet` (industries or locations) a
    /// company filter keeps, when they are at most [`MAX_OVERLAPPING`].
    fn of_overlapping((facet, kept): (CountedFacet, &Option<Vec<String>>)) -> Option<Superset> {
        let superset = Superset::new(facet, kept.clone()?);
        (!superset.values.is_empty() && superset.values.len() <= MAX_OVERLAPPING)
            .then_some(superset)
    }

    /// The same deals, less the values whose deals lie within another
    /// value's (a city within its country; of equal sets, the first is
    /// kept): overlapping facets only.
    pub fn folded(&self, index: &Index) -> Result<Superset, IndexError> {
        if !self.facet.is_derived() || self.values.len() < 2 {
            return Ok(self.clone());
        }
        let sets = self.sets_by_value(index)?;
        let within = |i: usize| {
            let a = &sets[i];
            let inside = |(j, b): (usize, &Option<Arc<RoaringBitmap>>)| {
                let larger = b.as_ref().map(|b| b.len()) > a.as_ref().map(|a| a.len());
                j != i
                    && (larger || j < i)
                    && a.as_ref()
                        .is_none_or(|a| b.as_ref().is_some_and(|b| a.is_subset(b)))
            };
            sets.iter().enumerate().any(inside)
        };
        let values = (0..sets.len()).filter(|&i| !within(i));
        let values = values.map(|i| self.values[i].clone()).collect();
        Ok(Superset::new(self.facet, values))
    }

    /// The deals of each value, `None` for a value no deal has.
    fn sets_by_value(&self, index: &Index) -> Result<Vec<Option<Arc<RoaringBitmap>>>, IndexError> {
        let facet = index.deals.facet(self.facet.facet)?;
        self.values.iter().map(|v| facet.docids(v)).collect()
    }

    /// The deals of each value the facet has.
    fn sets(&self, index: &Index) -> Result<Vec<Arc<RoaringBitmap>>, IndexError> {
        Ok(self.sets_by_value(index)?.into_iter().flatten().collect())
    }

    /// B: the deals of the values.
    pub fn deals(&self, index: &Index) -> Result<RoaringBitmap, IndexError> {
        let facet = index.deals.facet(self.facet.facet)?;
        facet.union_of(self.values.iter().map(String::as_str))
    }

    /// Supersets of every kind the index counts, for tests: one round, two,
    /// every round, and a few lone super categories.
    #[cfg(test)]
    pub fn samples(index: &Index) -> Vec<Superset> {
        let values = |facet: &str| {
            let f = index.deals.facet(facet).unwrap();
            (0..f.len())
                .map(|i| f.value(i).to_string())
                .collect::<Vec<_>>()
        };
        let (rounds, supers) = (values(ROUND.facet), values(SUPER_CATEGORY.facet));
        assert!(rounds.len() > 3 && !supers.is_empty(), "values to sample");
        let sampled = [&rounds[..1], &rounds[1..3], &rounds[..]];
        let sampled = sampled.map(|v| Superset::new(ROUND, v.to_vec()));
        let lone = supers
            .iter()
            .take(3)
            .map(|v| Superset::new(SUPER_CATEGORY, vec![v.clone()]));
        sampled.into_iter().chain(lone).collect()
    }

    /// Values of the derived counts, for tests: of each facet, one, the
    /// two with the most deals (industries share some; a location and the
    /// next largest nest, folded to one), three and four of them.
    #[cfg(test)]
    pub fn overlapping_samples(index: &Index) -> Vec<Superset> {
        let mut samples = Vec::new();
        for facet in crate::index::value_counts::DERIVED {
            let f = index.deals.facet(facet.facet).unwrap();
            let mut by_size: Vec<(u64, String)> = (0..f.len())
                .map(|i| (f.docids_at(i).unwrap().len(), f.value(i).to_string()))
                .collect();
            by_size.sort_unstable_by(|a, b| b.cmp(a));
            let names: Vec<String> = by_size.into_iter().map(|(_, v)| v).collect();
            assert!(names.len() >= MAX_OVERLAPPING, "values to sample");
            let sampled =
                [1, 2, 3, MAX_OVERLAPPING].map(|n| Superset::new(facet, names[..n].to_vec()));
            samples.extend(sampled);
        }
        samples
    }
}

/// Most industries whose counts are read at once: their overlaps are
/// found by intersecting each pair.
pub const MAX_OVERLAPPING: usize = 4;

/// B, chosen among a request's supersets (see the module doc).
pub struct ValueBase {
    counts: Arc<ValueCounts>,
    values: Vec<String>,
    /// B less D.
    pub outside: RoaringBitmap,
    /// The deals of B in at least 2, 3… of the values: each counted once
    /// more than once by the values' counts (none for rounds or a lone
    /// value).
    pub overlaps: Vec<RoaringBitmap>,
}

impl ValueBase {
    /// The cheapest of `supersets` for counting `entities` over `d`, when
    /// counting that way is estimated cheaper than `budget_ns`; `None`
    /// otherwise, or unless `d` lies within it. The estimates need no set
    /// operation (see [`estimate`]); B and, for industries, its overlaps
    /// are found for the chosen superset only.
    pub fn cheapest(
        index: &Index,
        entities: Entities,
        supersets: &[Superset],
        d: &RoaringBitmap,
        (sides, budget_ns): (&Sides, u64),
    ) -> Result<Option<ValueBase>, IndexError> {
        let mut best: Option<(u64, Superset, Estimate)> = None;
        // D's counts per chunk, for every superset's estimate.
        let chunks: Vec<(u64, u64)> = match supersets.is_empty() {
            true => Vec::new(),
            false => chunk_counts(d, index.deals.docs as u32).collect(),
        };
        let d_chunks = (d.len(), chunks.as_slice());
        for superset in supersets {
            let bound = best.as_ref().map_or(budget_ns, |b| b.0);
            let superset = superset.folded(index)?;
            let estimate = estimate(index, entities, &superset, d_chunks, (sides, bound))?;
            let Some(estimate) = estimate else {
                continue;
            };
            if estimate.ns < bound {
                best = Some((estimate.ns, superset, estimate));
            }
        }
        let Some((_, superset, estimate)) = best else {
            return Ok(None);
        };
        let b = superset.deals(index)?;
        let outside = &b - d;
        if outside.len() + d.len() != b.len() {
            return Ok(None);
        }
        let overlaps = match superset.facet.is_derived() {
            true => at_least_twice(&superset.sets(index)?),
            false => Vec::new(),
        };
        Ok(Some(ValueBase {
            counts: estimate.counts,
            values: superset.values,
            outside,
            overlaps,
        }))
    }

    /// Adds each entity's counts over B to its slot in `per_doc`, a slot
    /// per entity doc (entities past its end have none).
    pub fn add_base(&self, per_doc: &mut [(u32, u32)]) {
        for value in &self.values {
            let c = self.counts.of(value);
            for ((&doc, &deals), &leads) in c.docs.iter().zip(c.deals).zip(c.leads) {
                if let Some(slot) = per_doc.get_mut(doc as usize) {
                    *slot = (slot.0 + deals, slot.1 + leads);
                }
            }
        }
    }

    /// Each value's entries: the counts over B, a value at a time.
    pub fn entries(&self) -> impl Iterator<Item = Counted<'_>> {
        self.values.iter().map(|v| self.counts.of(v))
    }

    /// How many entries [`ValueBase::entries`] holds.
    pub fn entry_count(&self) -> usize {
        self.counts.entries(&self.values)
    }

    /// What the counts over B count beyond D: the deals of B outside D,
    /// then each level of [`ValueBase::overlaps`] (a deal of `m` values
    /// is in `m - 1` of them).
    pub fn less(&self) -> impl Iterator<Item = &RoaringBitmap> {
        std::iter::once(&self.outside).chain(&self.overlaps)
    }

    /// The counts over D, given `rest`, the tally over every set of
    /// [`ValueBase::less`] (a deal once for each set it is in).
    pub fn totals(&self, rest: Tally, dense: usize) -> Totals {
        Totals::of_values(&self.counts, &self.values, rest, dense)
    }
}

/// What counting from a superset would cost, and what it reads.
struct Estimate {
    ns: u64,
    counts: Arc<ValueCounts>,
}

/// The estimated cost of counting over D (its size and its counts per
/// chunk, `span::chunk_counts`) from `superset`, and its
/// counts; `None` when it has no counts (yet) for `entities`, or when it
/// cannot cost less than `bound`. The deals walked are B's outside D and,
/// for values that overlap, each deal once more for each value it has
/// beyond its first: together, the sum of the values' sizes less D's (D
/// lies within B), found without a set operation.
fn estimate(
    index: &Index,
    entities: Entities,
    superset: &Superset,
    d: (u64, &[(u64, u64)]),
    (sides, bound): (&Sides, u64),
) -> Result<Option<Estimate>, IndexError> {
    let Some(counts) = counts_of(index, entities, &superset.facet)? else {
        return Ok(None);
    };
    let read = counts.entries(&superset.values) as u64 * sides.entry_ns;
    let counted: u64 = superset.sets(index)?.iter().map(|s| s.len()).sum();
    let outside = outside_chunks(counted, d, index.deals.docs as u32);
    let ns = read + sides.walk_chunks_ns(outside.into_iter());
    Ok((ns < bound).then_some(Estimate { ns, counts }))
}

/// (length, how many) of the `counted` deals of a superset outside D (its
/// size and its counts per chunk of doc ids below `limit`, `d`), a
/// chunk at a time. Counting each of a
/// superset's many sets by chunk would cost more than the estimate can
/// save, so the superset is taken as spread evenly over the doc ids,
/// and its deals outside `d` (`counted - |d|` of them, when `d` lies
/// within it) as lying where `d` holds fewer than that share: where a
/// date range or another filter took deals out.
fn outside_chunks(counted: u64, (d_len, d): (u64, &[(u64, u64)]), limit: u32) -> Vec<(u64, u64)> {
    let share = counted as f64 / f64::from(limit.max(1));
    let short = |&(len, n): &(u64, u64)| (len, ((len as f64 * share) - n as f64).max(0.0));
    let shortfalls: Vec<(u64, f64)> = d.iter().map(short).collect();
    let outside = counted.saturating_sub(d_len) as f64;
    let total: f64 = shortfalls.iter().map(|c| c.1).sum();
    let place = |(len, short): (u64, f64)| match total > 0.0 {
        true => (len, ((short / total * outside).round() as u64).min(len)),
        false => (
            len,
            ((len as f64 / f64::from(limit.max(1)) * outside).round() as u64).min(len),
        ),
    };
    shortfalls.into_iter().map(place).collect()
}

/// Starts deriving the counts of every derived facet (industries,
/// locations) for firms and for people, in the background.
pub(super) fn start_deriving(index: &Index) -> Result<(), IndexError> {
    for entities in [Entities::Firms, Entities::People] {
        for facet in &DERIVED {
            counts_of(index, entities, facet)?;
        }
    }
    Ok(())
}

/// The counts of `facet` for `entities`: stored, or derived (industries,
/// locations; `None` until they are).
fn counts_of(
    index: &Index,
    entities: Entities,
    facet: &CountedFacet,
) -> Result<Option<Arc<ValueCounts>>, IndexError> {
    let name = entities.counts_of(facet);
    if !facet.is_derived() {
        return index.deals.value_counts(name).map(Some);
    }
    let (deal_side, docs, led) = entities.deal_side(index)?;
    let facet = facet.facet;
    index
        .deals
        .derived_counts_if_ready((name, facet), deal_side, (docs, led))
}

/// The deals in at least 2, 3… of `sets` (up to the last level any deal
/// reaches): a deal in `m` of them is in the first `m - 1`.
fn at_least_twice(sets: &[Arc<RoaringBitmap>]) -> Vec<RoaringBitmap> {
    let mut level = RoaringBitmap::new();
    for (i, a) in sets.iter().enumerate() {
        for b in &sets[i + 1..] {
            level |= a.as_ref() & b.as_ref();
        }
    }
    let mut levels = Vec::new();
    for k in 3..=sets.len() + 1 {
        if level.is_empty() {
            break;
        }
        let in_k = |d: &u32| sets.iter().filter(|s| s.contains(*d)).count() >= k;
        let next: RoaringBitmap = level.iter().filter(in_k).collect();
        levels.push(std::mem::replace(&mut level, next));
    }
    levels
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::{RoundKey, RoundType};

    /// The deals outside D add up to the superset's less D's, and lie
    /// where D holds fewer than the superset's share.
    #[test]
    fn outside_deals_lie_where_d_falls_short() {
        let limit = 4 * 65_536;
        // A superset of one deal in 64, D its deals after the first chunk.
        let counted = u64::from(limit / 64);
        let d: RoaringBitmap = (65_536..limit).step_by(64).collect();
        let chunked = |d: &RoaringBitmap| (d.len(), chunk_counts(d, limit).collect::<Vec<_>>());
        let (len, chunks) = chunked(&d);
        let outside = outside_chunks(counted, (len, &chunks), limit);
        assert_eq!(
            outside,
            vec![(65_536, 1024), (65_536, 0), (65_536, 0), (65_536, 0)]
        );
        let whole: RoaringBitmap = (0..limit).step_by(64).collect();
        let (len, chunks) = chunked(&whole);
        assert!(outside_chunks(counted, (len, &chunks), limit)
            .iter()
            .all(|c| c.1 == 0));
        // With D spread evenly, they are spread evenly too.
        let half: RoaringBitmap = (0..limit).step_by(128).collect();
        let (len, chunks) = chunked(&half);
        let even = outside_chunks(counted, (len, &chunks), limit);
        assert_eq!(even.iter().map(|c| c.1).collect::<Vec<_>>(), vec![512; 4]);
    }

    /// A deal in `m` of the sets is in the first `m - 1` levels: counted
    /// `m` times by the sets' counts, it is walked off `m - 1` times.
    #[test]
    fn overlap_levels_hold_each_deal_once_per_extra_set() {
        let set = |docs: &[u32]| Arc::new(docs.iter().copied().collect::<RoaringBitmap>());
        let sets = [
            set(&[1, 2, 3, 4]),
            set(&[2, 3, 4, 9]),
            set(&[3, 4]),
            set(&[4, 7]),
        ];
        let levels: Vec<Vec<u32>> = at_least_twice(&sets)
            .iter()
            .map(|l| l.iter().collect())
            .collect();
        assert_eq!(levels, vec![vec![2, 3, 4], vec![3, 4], vec![4]]);
        assert!(at_least_twice(&sets[..1]).is_empty());
        assert!(at_least_twice(&[set(&[1]), set(&[2])]).is_empty());
    }

    /// Nested locations fold to the widest; disjoint ones stay; a value
    /// no deal has goes.
    #[test]
    fn nested_values_fold_to_the_widest() {
        let dir = crate::index::build::build_fixture("supersets-fold", "2026-11-01");
        let index = Index::open(&dir).unwrap();
        let f = index.deals.facet(LOCATION.facet).unwrap();
        let sets: Vec<(String, Arc<RoaringBitmap>)> = (0..f.len())
            .map(|i| (f.value(i).to_string(), f.docids_at(i).unwrap()))
            .collect();
        let nested = sets.iter().find_map(|(outer, a)| {
            let inner = sets
                .iter()
                .find(|(v, b)| v != outer && b.len() < a.len() && b.is_subset(a));
            inner.map(|(v, _)| (outer.clone(), v.clone()))
        });
        let (outer, inner) = nested.expect("a location within another");
        let of_outer = &sets.iter().find(|(v, _)| *v == outer).unwrap().1;
        let disjoint = sets.iter().find(|(_, b)| b.is_disjoint(of_outer));
        let (apart, _) = disjoint.expect("a location apart from it");
        let values = vec![
            inner.clone(),
            outer.clone(),
            apart.clone(),
            "nowhere".into(),
        ];
        let folded = Superset::new(LOCATION, values).folded(&index).unwrap();
        assert_eq!(
            folded,
            Superset::new(LOCATION, vec![outer.clone(), apart.clone()])
        );
        let twice = Superset::new(LOCATION, vec![outer.clone(), outer.clone()]);
        assert_eq!(twice.folded(&index).unwrap().values, vec![outer.clone()]);
        let rounds = Superset::new(ROUND, vec![inner, outer]);
        assert_eq!(
            rounds.folded(&index).unwrap(),
            rounds,
            "rounds never overlap"
        );
    }

    #[test]
    fn supersets_are_the_rounds_kept_and_a_lone_super_category() {
        let seed = RoundKey {
            round_type: RoundType::Seed,
            pre: false,
            extension: false,
        };
        let deal = DealFilter {
            financing_types: Some(vec![seed, seed]),
            ..Default::default()
        };
        let lone = CompanyFilter {
            super_categories: Some(vec!["software".into(), "software".into()]),
            ..Default::default()
        };
        let found = Superset::of_request(&deal, &lone);
        let rounds = Superset::new(ROUND, vec![seed.facet_value()]);
        let software = Superset::new(SUPER_CATEGORY, vec!["software".into()]);
        assert_eq!(found, vec![rounds.clone(), software.clone()]);
        let two = CompanyFilter {
            super_categories: Some(vec!["software".into(), "fintech".into()]),
            ..Default::default()
        };
        assert_eq!(Superset::of_request(&deal, &two), vec![rounds]);
        let every_round = DealFilter::default();
        assert_eq!(Superset::of_request(&every_round, &lone), vec![software]);
        assert!(Superset::of_request(&every_round, &two).is_empty());
    }
}
