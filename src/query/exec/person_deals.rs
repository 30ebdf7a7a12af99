//! Which of a person's participations count for `investor.deals`, and
//! the ways of counting them against a set of deals D.
//!
//! A person's deals are two relation lists, ascending: `angel_deals` (as
//! angel) and `partner_deals` (as partner of a firm, with a payload byte
//! that is non-zero when that firm led the deal). A deal in both lists
//! counts once; it is led by the person when they are partner of a firm
//! that led it, whichever participation counts.

use std::ops::Range;
use std::sync::Arc;

use crate::index::payload::{PARTICIPANT_ANGEL, PARTICIPANT_LEAD, PARTICIPANT_PARTNER};
use crate::index::relation::{Edges, Relation};
use crate::index::{Index, IndexError};
use crate::query::request::{InvestmentType, PersonDealsFilter};

use super::dense::DealSet;
use super::span::{cut, within};
use super::tally::Acc;

/// A person's two deal lists (`angel_deals`, `partner_deals`), opened
/// once for loops over many people.
pub struct PersonLists {
    angel: Arc<Relation>,
    partner: Arc<Relation>,
}

impl PersonLists {
    pub fn open(index: &Index) -> Result<PersonLists, IndexError> {
        Ok(PersonLists {
            angel: index.people.relation("angel_deals")?,
            partner: index.people.relation("partner_deals")?,
        })
    }

    /// (angel, partner), their arrays resolved.
    pub fn edges(&self) -> (Edges<'_>, Edges<'_>) {
        (self.angel.edges(), self.partner.edges())
    }
}

/// Which participations of a person count, and which count as led.
pub(super) struct DealRules {
    pub angel: bool,
    pub institutional: bool,
    pub only_lead: bool,
}

impl DealRules {
    pub fn of(f: &PersonDealsFilter) -> DealRules {
        DealRules {
            angel: f.investment_type != InvestmentType::Institutional,
            institutional: f.investment_type != InvestmentType::Angel,
            only_lead: f.only_lead_deals,
        }
    }

    /// Whether a participation counts, from its `participants` flags (one
    /// edge per person and deal, see `index::payload`).
    #[inline]
    pub fn counts_participant(&self, flags: u8) -> bool {
        let counted = (PARTICIPANT_ANGEL * u8::from(self.angel))
            | (PARTICIPANT_PARTNER * u8::from(self.institutional));
        let lead = flags & PARTICIPANT_LEAD != 0;
        (flags & counted != 0) & (lead | !self.only_lead)
    }

    /// Appends `person`'s counted participations as (deal, led) to `out`
    /// (a deal may appear twice: as angel and as partner). A deal is led
    /// by the person when they are partner of a firm that led it, whichever
    /// participation counts.
    pub fn deals_of(
        &self,
        angel: &Edges,
        partner: &Edges,
        person: u32,
        out: &mut Vec<(u32, bool)>,
    ) {
        if self.angel {
            let led = |d| led_as_partner(partner, person, d);
            out.extend(angel.targets(person).iter().map(|&d| (d, led(d))));
        }
        if self.institutional {
            let edges = partner.targets(person).iter().zip(partner.payload(person));
            out.extend(edges.map(|(&d, &lead)| (d, lead != 0)));
        }
    }

    /// `person`'s first counted deal (the smallest doc id) for which `keep`
    /// holds, all of which lie within `span`. Deal doc ids follow the date,
    /// most recent first and undated last, so its date is the latest of
    /// their counted deals' dates; each list is cut to the span
    /// ([`within`]) and read from there only up to its first such deal.
    pub fn first_counted(
        &self,
        (angel, partner): (&Edges, &Edges),
        person: u32,
        (span, keep): (&Range<u32>, impl Fn(u32) -> bool),
    ) -> Option<u32> {
        // With institutional deals counted too, a led angel deal is also a
        // led partner deal, found below.
        let angel_led = |d| !self.only_lead || led_as_partner(partner, person, d);
        let angel_first = (self.angel && !(self.only_lead && self.institutional))
            .then(|| {
                let mut deals = cut(angel.targets(person), span).iter().copied();
                deals.find(|&d| keep(d) && angel_led(d))
            })
            .flatten();
        let (partner_in, flags) = within(partner.targets(person), partner.payload(person), span);
        let partner_edges = partner_in.iter().zip(flags);
        let partner_first = self
            .institutional
            .then(|| {
                partner_edges
                    .filter(|&(_, &lead)| lead != 0 || !self.only_lead)
                    .map(|(&d, _)| d)
                    .find(|&d| keep(d))
            })
            .flatten();
        angel_first.into_iter().chain(partner_first).min()
    }

    /// `person`'s distinct counted deals in `set`, and how many of them
    /// were led (a deal taken part in as angel and as partner counts once).
    /// Only their deals within the set's span are read.
    pub fn count(
        &self,
        set: &(impl DealSet + ?Sized),
        angel: &Edges,
        partner: &Edges,
        person: u32,
    ) -> Acc {
        let span = set.span();
        let (partner_in, flags) = within(partner.targets(person), partner.payload(person), &span);
        let angel_deals = if self.angel {
            cut(angel.targets(person), &span)
        } else {
            &[]
        };
        let partner_deals = if self.institutional { partner_in } else { &[] };
        let (deals, leads) = if angel_deals.is_empty() {
            set.count_flagged(partner_deals, flags)
        } else if !self.institutional {
            set.count_marked(angel_deals, partner_in, flags)
        } else if partner_deals.is_empty() {
            (set.count_in(angel_deals), 0)
        } else {
            set.count_merged(angel_deals, partner_deals, flags)
        };
        Acc {
            deals: if self.only_lead { leads } else { deals },
            leads,
        }
    }

    /// How many of `person`'s counted deals in `set` were led: the leads
    /// of [`DealRules::count`], read from the partner list alone when
    /// institutional deals count (a led deal is a partner deal flagged as
    /// led, whether or not it is an angel deal too).
    pub fn leads(
        &self,
        set: &(impl DealSet + ?Sized),
        angel: &Edges,
        partner: &Edges,
        person: u32,
    ) -> u32 {
        let span = set.span();
        let (partner_in, flags) = within(partner.targets(person), partner.payload(person), &span);
        if self.institutional {
            return set.count_flagged(partner_in, flags).1;
        }
        let angel_deals = cut(angel.targets(person), &span);
        set.count_marked(angel_deals, partner_in, flags).1
    }

    /// How many deals `person` has in the lists their counted deals are
    /// read from: a led deal is a partner deal (an angel deal counts as
    /// led only when it is one too).
    pub fn listed(&self, angel: &Edges, partner: &Edges, person: u32) -> u64 {
        let (angel_read, partner_read) = match self.only_lead {
            true => (false, true),
            false => (self.angel, self.institutional),
        };
        let length = |read: bool, edges: &Edges| if read { edges.degree(person) } else { 0 };
        (length(angel_read, angel) + length(partner_read, partner)) as u64
    }

    /// Whether `person` has at least `m` distinct counted deals in `set`
    /// ([`DealRules::count`] ≥ `m`), each list read only up to its chunk
    /// that reaches `m` ([`DealSet::reaches`]).
    pub fn reaches(
        &self,
        set: &(impl DealSet + ?Sized),
        angel: &Edges,
        partner: &Edges,
        person: u32,
        m: u32,
    ) -> bool {
        let partner_deals = partner.targets(person);
        if self.only_lead && self.institutional {
            // A led angel deal is also a led partner deal.
            return set.reaches_flagged(partner_deals, partner.payload(person), m);
        }
        let angel_deals = if self.angel {
            angel.targets(person)
        } else {
            &[]
        };
        if self.only_lead {
            // Angel deals only, led as partner: none without partner deals.
            return !partner_deals.is_empty() && self.count(set, angel, partner, person).deals >= m;
        }
        let partner_deals = if self.institutional {
            partner_deals
        } else {
            &[]
        };
        if angel_deals.len() + partner_deals.len() < m as usize {
            return false;
        }
        match (angel_deals.is_empty(), partner_deals.is_empty()) {
            (true, _) => set.reaches(partner_deals, m),
            (_, true) => set.reaches(angel_deals, m),
            _ => set.reaches_union(angel_deals, partner_deals, m),
        }
    }
}

/// Whether `person` is partner of a firm that led deal `d`.
pub fn led_as_partner(partner: &Edges, person: u32, d: u32) -> bool {
    let deals = partner.targets(person);
    deals
        .binary_search(&d)
        .is_ok_and(|i| partner.payload(person).get(i).is_some_and(|&b| b != 0))
}
