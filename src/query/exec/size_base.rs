//! `/people` by `investor.deals` when D is every deal of a size range
//! (a size range alone, or with filters that drop none of its deals):
//! each investor's count read from their counts by size bucket
//! (`index::size_buckets`), never from a pass over every investor's deals.
//!
//! The buckets wholly inside the range are counted as the difference of
//! two cumulative counts per investor; the deals of D in the (at most two)
//! buckets the range only partly covers are walked from the deal side, or,
//! where fewer of such a bucket's deals lie outside the range, the bucket
//! is counted whole and those walked off.
//! D is the range's deals exactly when, D lying within the range (the
//! size clause keeps no deal outside it), its deals in the partial
//! buckets and the whole buckets' deals add up to D: no set operation
//! over the whole buckets is needed to know it.
//!
//! A set of counts is derived per set of counting rules (investment type,
//! `only_lead_deals`) when a request first needs it (31 MB at M, about
//! 0.2 s), in the background: requests before it is ready count
//! another way.

use std::sync::Arc;

use roaring::RoaringBitmap;

use crate::index::payload::PARTICIPANT_LEAD;
use crate::index::size_buckets::SizeBuckets;
use crate::index::{Index, IndexError};

use super::person_deals::DealRules;
use super::walked_counts::{count_walked_between, walked_between_ns};

/// D as the whole buckets of a size range, plus its deals in the buckets
/// the range only partly covers.
pub struct SizeBase {
    buckets: Arc<SizeBuckets>,
    whole: std::ops::Range<usize>,
    /// D's deals in partly covered buckets, walked on.
    more: Vec<RoaringBitmap>,
    /// The deals outside D of partly covered buckets counted as whole
    /// (those with fewer deals outside D than in it), walked off.
    less: Vec<RoaringBitmap>,
}

impl SizeBase {
    /// The base of `deals` (D, within the sizes `min..=max`) when D is
    /// every deal of the range and the counts for `rules` are ready.
    pub fn exact(
        index: &Index,
        rules: &DealRules,
        deals: &RoaringBitmap,
        (min, max): (i64, i64),
    ) -> Result<Option<SizeBase>, IndexError> {
        let Some(buckets) = buckets_for(index, rules)? else {
            return Ok(None);
        };
        let covered = buckets.covered(min, max);
        let whole: u64 = covered.whole.clone().map(|b| buckets.deals(b).len()).sum();
        // D within the range holds every deal of its whole buckets: a
        // smaller D (other filters drop some) needs no intersection.
        if deals.len() < whole {
            return Ok(None);
        }
        let inside: Vec<(usize, RoaringBitmap)> = covered
            .partial
            .iter()
            .map(|&b| (b, deals & buckets.deals(b)))
            .collect();
        let in_partial: u64 = inside.iter().map(|(_, p)| p.len()).sum();
        if whole + in_partial != deals.len() {
            return Ok(None);
        }
        let mut base = SizeBase {
            buckets,
            whole: covered.whole,
            more: Vec::new(),
            less: Vec::new(),
        };
        inside.into_iter().for_each(|(b, d)| base.add_partial(b, d));
        Ok(Some(base))
    }

    /// Counts partial bucket `b`'s deals of D (`inside`): walked, or, when
    /// fewer of its deals lie outside D and it borders the whole buckets,
    /// counted whole with those outside walked off.
    fn add_partial(&mut self, b: usize, inside: RoaringBitmap) {
        let all = self.buckets.deals(b);
        let outside_fewer = (all.len() - inside.len()) < inside.len();
        let (start, end) = (self.whole.start, self.whole.end);
        let whole = match b {
            _ if !outside_fewer => None,
            b if b + 1 == start => Some(b..end),
            b if b == end => Some(start..end + 1),
            _ => None,
        };
        match whole {
            Some(whole) => {
                self.less.push(all - &inside);
                self.whole = whole;
            }
            None => self.more.push(inside),
        }
    }

    /// Estimated cost of [`SizeBase::count`].
    pub fn ns(&self, index: &Index) -> u64 {
        let walked: u64 = self.more.iter().chain(&self.less).map(|p| p.len()).sum();
        let dense = self.buckets.dense() as u64;
        walked_between_ns(walked, index.deals.docs as u64, dense)
    }

    /// (person, count) of each investor (of `only`, when given) with a
    /// counted deal in D, ascending.
    pub fn count(
        &self,
        index: &Index,
        rules: &DealRules,
        only: Option<&RoaringBitmap>,
    ) -> Result<Vec<(u32, u32)>, IndexError> {
        let b = &self.buckets;
        let between = (b.below(self.whole.start), b.below(self.whole.end));
        let beyond = b.beyond(self.whole.clone());
        let walked = (self.more.as_slice(), self.less.as_slice());
        count_walked_between(index, rules, (between, beyond), walked, only)
    }
}

/// Starts deriving the counts by size bucket for the rules of `/people`'s
/// default investment type and of institutional deals, without
/// `only_lead_deals`, in the background: the others are derived
/// when a request first needs them.
pub(super) fn start_deriving(index: &Index) -> Result<(), IndexError> {
    for rules in [EVERY, PARTNER] {
        buckets_for(index, &rules)?;
    }
    Ok(())
}

/// The counts by size bucket for `rules`, once derived (see the module
/// doc), over the investors with a dated deal.
fn buckets_for(index: &Index, rules: &DealRules) -> Result<Option<Arc<SizeBuckets>>, IndexError> {
    let (name, counted) = counted_by(rules);
    let dense = index
        .people
        .sort_order("most_recent_deal_date")?
        .non_null()
        .len();
    let participants = index.deals.relation("participants")?;
    index
        .deals
        .size_buckets_if_ready(name, participants, (dense, counted))
}

/// The name of the counts for `rules`, and which participations they
/// count ([`DealRules::counts_participant`], as a plain function).
fn counted_by(rules: &DealRules) -> (&'static str, fn(u8) -> bool) {
    match (rules.angel, rules.institutional, rules.only_lead) {
        (true, true, false) => ("sized_people", |f| EVERY.counts_participant(f)),
        (true, true, true) => ("sized_leads", |f| led(EVERY, f)),
        (true, false, false) => ("sized_angels", |f| ANGEL.counts_participant(f)),
        (true, false, true) => ("sized_angel_leads", |f| led(ANGEL, f)),
        (false, _, false) => ("sized_partners", |f| PARTNER.counts_participant(f)),
        (false, _, true) => ("sized_partner_leads", |f| led(PARTNER, f)),
    }
}

const fn rules_of(angel: bool, institutional: bool, only_lead: bool) -> DealRules {
    DealRules {
        angel,
        institutional,
        only_lead,
    }
}

/// Every investment type's participations.
const EVERY: DealRules = rules_of(true, true, false);
/// Angel participations.
const ANGEL: DealRules = rules_of(true, false, false);
/// Institutional participations (partners of a firm).
const PARTNER: DealRules = rules_of(false, true, false);

/// Whether a participation counts under `rules` and is led.
fn led(rules: DealRules, flags: u8) -> bool {
    rules.counts_participant(flags) && flags & PARTICIPANT_LEAD != 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::build::build_fixture;

    #[test]
    fn started_derivations_are_ready_once_waited_for() {
        let index = Index::open(&build_fixture("started-derivations", "2026-11-01")).unwrap();
        let lead = rules_of(true, true, true);
        assert!(buckets_for(&index, &EVERY).unwrap().is_none());
        super::super::start_derivations(&index).unwrap();
        index.wait_for_derived();
        for rules in [EVERY, PARTNER] {
            let buckets = buckets_for(&index, &rules).unwrap().unwrap();
            assert!(buckets.dense() > 0);
        }
        let (round, firm_side) = (
            crate::index::value_counts::ROUND,
            index.firms.relation("deals"),
        );
        let runs = index
            .deals
            .value_runs_if_ready(round.firms, round.facet, firm_side.unwrap());
        assert!(runs.unwrap().is_some());
        // The rarer rules are left to the first request that needs them.
        assert!(buckets_for(&index, &lead).unwrap().is_none());
    }
}
