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

use std::sync::Arc;

use roaring::RoaringBitmap;

use crate::index::value_counts::{CountedFacet, ValueCounts, ROUND, SUPER_CATEGORY};
use crate::index::{Index, IndexError};
use crate::query::request::{CompanyFilter, DealFilter};

use super::tally::{Sides, Tally, Totals};

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
}

/// B, chosen among a request's supersets (see the module doc).
pub struct ValueBase {
    counts: Arc<ValueCounts>,
    values: Vec<String>,
    /// B less D.
    pub outside: RoaringBitmap,
}

impl ValueBase {
    /// The cheapest of `supersets` for counting `entities` over `d`, when
    /// counting that way is estimated cheaper than `budget_ns`; `None`
    /// otherwise, or unless `d` lies within it. The estimate needs no set
    /// operation: B's size is the sum of its values' (the only superset of
    /// several values is rounds, which are disjoint).
    pub fn cheapest(
        index: &Index,
        entities: Entities,
        supersets: &[Superset],
        d: &RoaringBitmap,
        (sides, budget_ns): (&Sides, u64),
    ) -> Result<Option<ValueBase>, IndexError> {
        let mut best: Option<(u64, &Superset, Arc<ValueCounts>)> = None;
        for superset in supersets {
            let (cost, counts) = estimate(index, entities, superset, d, sides)?;
            if cost < best.as_ref().map_or(budget_ns, |b| b.0) {
                best = Some((cost, superset, counts));
            }
        }
        let Some((_, superset, counts)) = best else {
            return Ok(None);
        };
        let b = superset.deals(index)?;
        let outside = &b - d;
        if outside.len() + d.len() != b.len() {
            return Ok(None);
        }
        Ok(Some(ValueBase {
            counts,
            values: superset.values.clone(),
            outside,
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

    /// The counts over D, given `rest`, the tally over [`ValueBase::outside`].
    pub fn totals(&self, rest: Tally, dense: usize) -> Totals {
        Totals::of_values(&self.counts, &self.values, rest, dense)
    }
}

/// The estimated cost of counting over `d` from `superset`, and its counts.
fn estimate(
    index: &Index,
    entities: Entities,
    superset: &Superset,
    d: &RoaringBitmap,
    sides: &Sides,
) -> Result<(u64, Arc<ValueCounts>), IndexError> {
    let counts = index
        .deals
        .value_counts(entities.counts_of(&superset.facet))?;
    let facet = index.deals.facet(superset.facet.facet)?;
    let mut b_len = 0;
    for value in &superset.values {
        b_len += facet.docids(value)?.map_or(0, |b| b.len());
    }
    let all = index.deals.docs as u64;
    let entries = counts.entries(&superset.values) as u64;
    let cost = entries * sides.entry_ns + sides.walk_ns(b_len.saturating_sub(d.len()), all);
    Ok((cost, counts))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::{RoundKey, RoundType};

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
