//! `POST /investors`: firms, optionally through their portfolio. The
//! qualifying deals D are found first (portfolio filters on deals and their
//! companies); each deal's firm edges then count, per firm, the deals of D
//! it took part in and those it led (edge payload bit 7). Broad shapes of
//! D are counted without walking it ([`FirmTally`]): one block of doc ids
//! (a lone date range, since deal doc ids follow the date) is one run of
//! each firm's sorted deals, and some rounds within one block one run of
//! each firm's deals of each round; any other broad D is counted from the
//! firms' own deal lists against D as a bitset.
//!
//! With `company_investments.search_query`, the portfolio companies are
//! first narrowed to the semantic set (the 150 most relevant companies
//! among those the portfolio's company filters leave, `min_relevance`
//! applied); D is then the qualifying deals of those companies, and firms
//! are ranked by the relevance of their best company in D (ties: more
//! qualifying deals first, then the default order); `sort_by` is ignored.

use std::borrow::Cow;
use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;

use roaring::RoaringBitmap;

use crate::index::docs::{bitmap_at_least, bitmap_of, docs};
use crate::index::payload::FIRM_LED;
use crate::index::relation::Relation;
use crate::index::{Index, IndexError};
use crate::query::filter::evaluate;
use crate::query::plan::Plan;
use crate::query::request::{
    FilteredCounts, InvestorSort, InvestorsQuery, PortfolioFilter, ResultPage,
};
use crate::query::sort::page_end;
use crate::query::sort::Direction::Descending;

use super::at_least::ranked_first_by_doc;
use super::blocks::{company_on_deals, deal_on_deals};
use super::dense::{Block, DealSet, DenseSet};
use super::joins::docs_of_org_identifiers;
use super::semantic::{cosine_key, semantic_companies, SemanticSet};
use super::span::{block_of, run_of, within};
use super::supersets::{Entities, Superset, ValueBase};
use super::tally::{other_deals, Sides, Tally, Totals, SPARSE_BELOW};
use super::{page_of, Order, QueryError};
use crate::index::value_counts::ROUND;
use crate::index::value_runs::ValueRuns;

/// Per-firm counts over the qualifying deals.
struct FirmCounts {
    tally: FirmTally,
    only_lead: bool,
    /// With a semantic search: each firm's best cosine over its companies in D.
    best: Option<HashMap<u32, f32>>,
}

impl FirmCounts {
    /// `firm`'s qualifying deals (those it led with `only_lead_deals`).
    fn matching(&self, firm: u32) -> u32 {
        match self.only_lead {
            true => self.tally.get(firm).1,
            false => self.tally.deals(firm),
        }
    }

    /// The firms with at least `min` qualifying deals, and, when asked,
    /// the first `k` of them by count (in no order; not with a semantic
    /// search, ranked by relevance). With a slot per firm
    /// they are read in two passes over the slots, neither a list of the
    /// firms nor the keys of all collected (the keys of 50,000 firms
    /// selected took about a third of a broad request at M); otherwise the
    /// firms touched are listed.
    fn qualifying(
        &self,
        firms: usize,
        min: u32,
        k: Option<usize>,
    ) -> (RoaringBitmap, Option<Vec<(u32, u32)>>) {
        let slots = !matches!(self.tally, FirmTally::Direct(_)) && self.best.is_none();
        let Some(k) = k.filter(|_| slots) else {
            let touched = self.tally.touched(firms).into_iter();
            let kept = touched.filter(|&f| self.matching(f) >= min);
            return (bitmap_of(kept.collect()), None);
        };
        let counts = self.matching_by_firm(firms);
        let first = ranked_first_by_doc(&counts, min, k).0;
        (bitmap_at_least(&counts, min), Some(first))
    }

    /// [`FirmCounts::matching`] of every firm (`firms` of them), by firm
    /// doc: one array read for the qualifying firms and the first by count.
    /// Read firm by firm through the tally's variant, twice, the counts
    /// held C3 at M (1,000 requests) to a median of 651 µs; read once and
    /// ranked a block at a time, 396 µs.
    fn matching_by_firm(&self, firms: usize) -> Cow<'_, [u32]> {
        match (&self.tally, self.only_lead) {
            (FirmTally::Tested { deals, .. }, false) => Cow::Borrowed(&deals[..firms]),
            (FirmTally::PerFirm(counts), lead) => {
                let matching = |&(deals, leads): &(u32, u32)| if lead { leads } else { deals };
                Cow::Owned(counts[..firms].iter().map(matching).collect())
            }
            _ => Cow::Owned((0..firms as u32).map(|f| self.matching(f)).collect()),
        }
    }

    fn filtered(&self, firm: u32) -> FilteredCounts {
        let (deals, leads) = self.tally.get(firm);
        FilteredCounts {
            deal_count: if self.only_lead { leads } else { deals },
            lead_count: leads,
            most_recent_date: None,
        }
    }
}

/// Each firm's (deals, leads) over the qualifying deals D, counted the
/// cheapest of five ways: one block of doc ids is a run of each firm's
/// sorted deals; the deals of some rounds within one block (rounds and a
/// date range, nothing else) are a run of each firm's deals of each round
/// (`index::value_runs`); a broad D is counted from the firms' side (each
/// firm's deals tested against D as a flat bitset); otherwise D's own
/// edges are walked, or, when D is most of a superset B with stored
/// counts, the firms' counts over B (over every deal of the index:
/// `total_deal_count`, `lead_deal_count`; over the rounds kept or a lone
/// super category: value counts, see `supersets`) less their counts over
/// the deals of B *not* in D.
enum FirmTally {
    Direct(Tally),
    /// (deals, leads) per firm doc. Counts over a superset less a tally
    /// ([`Totals`]) are read into it in one pass over the firms, so that
    /// the qualifying firms, their order and their page read each firm's
    /// counts from one array instead of two tallies (a superset's
    /// requests at M: about 0.5 ms less of 1.2–2 ms).
    PerFirm(Vec<(u32, u32)>),
    /// Deals per firm doc among D, counted from the firms' side (D one
    /// block: each firm's run of it, nothing tested; otherwise each firm's
    /// deals tested against D as a bitset). A firm's leads are counted
    /// when asked: only a page's rows need them, unless the request counts
    /// led deals only (testing every firm's deals at M took 3.5–3.6 ms,
    /// 5.1–5.2 ms with their lead bytes read as well, 2026-11-29).
    Tested {
        deals: Vec<u32>,
        set: Box<dyn DealSet>,
        relation: Arc<Relation>,
    },
}

/// Measured at M on this machine (2.5 million deals, 4.6 million firm
/// edges, 2026-11-29): a deal of D walked into a slot per firm
/// ([`walk_into`]) costs about 14 ns when D is dense (13.6–15.6 ns from
/// 208,000 deals up), 16 ns when sparse (8–21 ns below); a firm's edge
/// tested against the bitset about 0.75 ns (3.5–3.6 ms for every firm's
/// deals), 1.1 ns with its lead byte read too ([`LED_FIRM_SIDES`]).
const FIRM_SIDES: Sides = Sides {
    deal_ns: firm_deal_ns,
    entity_edge_ps: 750,
    entry_ns: 3,
};

/// A deal walked into the firms' slots ([`FIRM_SIDES`]).
fn firm_deal_ns(density: f64) -> u64 {
    if density < SPARSE_BELOW {
        16
    } else {
        14
    }
}

/// [`FIRM_SIDES`] when only led deals count: every edge's lead byte is
/// read with it.
const LED_FIRM_SIDES: Sides = Sides {
    entity_edge_ps: 1_100,
    ..FIRM_SIDES
};

impl FirmTally {
    /// Counts over `d`, which lies within each of `supersets`; every
    /// firm's leads are counted with `only_lead`.
    fn of(
        index: &Index,
        d: &RoaringBitmap,
        (supersets, rounds): (&[Superset], Option<&[String]>),
        only_lead: bool,
    ) -> Result<FirmTally, IndexError> {
        if let Some(block) = block_of(d).filter(|_| d.len() > index.firms.docs as u64) {
            if only_lead {
                return runs_in(index, block).map(FirmTally::PerFirm);
            }
            return FirmTally::in_block(index, block);
        }
        let sides = if only_lead {
            &LED_FIRM_SIDES
        } else {
            &FIRM_SIDES
        };
        let all = index.deals.docs as u64;
        let walked = d.len().min(all.saturating_sub(d.len()));
        let edges = index.firms.relation("deals")?.total_edges() as u64;
        let other_ns = sides
            .walk_ns(walked, all)
            .min(sides.entity_ns(d.len(), edges));
        let runs = match rounds {
            Some(values) => ready_runs(index)?.map(|runs| (values, runs)),
            None => None,
        };
        let runs_ns = runs
            .as_ref()
            .map_or(u64::MAX, |(values, _)| rounds_ns(index, values));
        let budget = (sides, other_ns.min(runs_ns));
        if let Some(base) = ValueBase::cheapest(index, Entities::Firms, supersets, d, budget)? {
            let mut counts = vec![(0, 0); index.firms.docs];
            base.add_base(&mut counts);
            for less in base.less() {
                walk_into(index, less, &mut counts, Walk::Less)?;
            }
            return Ok(FirmTally::PerFirm(counts));
        }
        if let Some((values, runs)) = runs.filter(|_| runs_ns < other_ns && !d.is_empty()) {
            let block = d.min().unwrap_or(0)..d.max().map_or(0, |m| m + 1);
            return rounds_within(index, &runs, values, &block).map(FirmTally::PerFirm);
        }
        if sides.entity_side(d.len(), walked, all, edges) {
            if only_lead {
                return counted_by_firm(index, d).map(FirmTally::PerFirm);
            }
            let set = DenseSet::of(d, index.deals.docs as u32);
            return FirmTally::tested(index, Box::new(set));
        }
        if d.len() * 16 < index.firms.docs as u64 {
            return Ok(FirmTally::Direct(tally_firms(index, d)?));
        }
        if d.len() * 2 <= all {
            let mut counts = vec![(0, 0); index.firms.docs];
            walk_into(index, d, &mut counts, Walk::More)?;
            return Ok(FirmTally::PerFirm(counts));
        }
        let mut counts = firm_totals(index)?;
        walk_into(index, &other_deals(index, d), &mut counts, Walk::Less)?;
        Ok(FirmTally::PerFirm(counts))
    }

    /// Every firm's deals in `set` (see [`FirmTally::Tested`]).
    fn tested(index: &Index, set: Box<dyn DealSet>) -> Result<FirmTally, IndexError> {
        let relation = index.firms.relation("deals")?;
        let edges = relation.edges();
        let firms = 0..index.firms.docs as u32;
        let deals = firms.map(|f| set.count_sorted(edges.targets(f))).collect();
        Ok(FirmTally::Tested {
            deals,
            set,
            relation,
        })
    }

    /// Every firm's deals in `block`: the length of its run there, found
    /// from the relation's checkpoints (see `index::checkpoints`).
    fn in_block(index: &Index, block: Range<u32>) -> Result<FirmTally, IndexError> {
        let relation = index.firms.relation("deals")?;
        let checkpoints = index.firms.checkpoints("deals")?;
        let edges = relation.edges();
        let firms = 0..index.firms.docs as u32;
        let runs = firms.map(|f| checkpoints.run(f, edges.targets(f), &block).len() as u32);
        Ok(FirmTally::Tested {
            deals: runs.collect(),
            set: Box::new(Block(block)),
            relation,
        })
    }

    fn get(&self, firm: u32) -> (u32, u32) {
        match self {
            FirmTally::Direct(t) => {
                let acc = t.get(firm);
                (acc.deals, acc.leads)
            }
            FirmTally::PerFirm(counts) => counts[firm as usize],
            FirmTally::Tested {
                deals,
                set,
                relation,
            } => {
                let (targets, payload) = (relation.targets(firm), relation.payload(firm));
                let (targets, payload) = within(targets, payload, &set.span());
                (deals[firm as usize], set.count_flagged(targets, payload).1)
            }
        }
    }

    /// `firm`'s deals among D (its leads not counted when they need not be).
    fn deals(&self, firm: u32) -> u32 {
        match self {
            FirmTally::Tested { deals, .. } => deals[firm as usize],
            _ => self.get(firm).0,
        }
    }

    /// Firms with at least one qualifying deal, ascending.
    fn touched(&self, firms: usize) -> Vec<u32> {
        match self {
            FirmTally::Direct(t) => t.touched(),
            FirmTally::PerFirm(_) | FirmTally::Tested { .. } => {
                (0..firms as u32).filter(|&f| self.deals(f) > 0).collect()
            }
        }
    }
}

/// Each firm's deals and leads among `d`, from the firms' side: every
/// firm's deals (`investors.deals`, lead in the payload) within the span of
/// `d`, tested against `d` as a bitset, read in order.
/// When `d` is one block, nothing is tested.
fn counted_by_firm(index: &Index, d: &RoaringBitmap) -> Result<Vec<(u32, u32)>, IndexError> {
    let rel = index.firms.relation("deals")?;
    Ok(match block_of(d) {
        Some(block) => counted_in(&rel, index.firms.docs, &Block(block)),
        None => counted_in(
            &rel,
            index.firms.docs,
            &DenseSet::of(d, index.deals.docs as u32),
        ),
    })
}

/// Each of the `firms`' deals and leads in `set` (see [`counted_by_firm`]).
fn counted_in(relation: &Relation, firms: usize, set: &impl DealSet) -> Vec<(u32, u32)> {
    let edges = relation.edges();
    let span = set.span();
    let counts = (0..firms as u32).map(|f| {
        let (deals, leads) = within(edges.targets(f), edges.payload(f), &span);
        set.count_flagged(deals, leads)
    });
    counts.collect()
}

/// Each firm's deals and leads among the deals of `block`: its deals
/// (`investors.deals`, ascending) in the block are one run, found from
/// the relation's checkpoints; its leads are the run's payload bytes set.
/// No deal is walked, whatever the size of the block.
fn runs_in(index: &Index, block: Range<u32>) -> Result<Vec<(u32, u32)>, IndexError> {
    let rel = index.firms.relation("deals")?;
    let checkpoints = index.firms.checkpoints("deals")?;
    let edges = rel.edges();
    let counts = (0..index.firms.docs as u32).map(|f| {
        let run = checkpoints.run(f, edges.targets(f), &block);
        let leads = edges.payload(f)[run.clone()].iter().filter(|&&b| b != 0);
        (run.len() as u32, leads.count() as u32)
    });
    Ok(counts.collect())
}

/// Measured on this machine (2026-11-29, C3's requests with rounds and a
/// date only): an entry of the rounds' value runs read (two binary
/// searches in its run, its leads counted, the firm's counts added) costs
/// about 35 ns at M (65,000 entries a request on average), 68 ns at 1e7
/// (589,000), where walking deals costs more in proportion too.
const RUN_ENTRY_NS: u64 = 35;

/// The estimated cost of [`rounds_within`].
fn rounds_ns(index: &Index, values: &[String]) -> u64 {
    let entries = index
        .deals
        .value_counts(ROUND.firms)
        .map_or(usize::MAX, |c| c.entries(values));
    (entries as u64).saturating_mul(RUN_ENTRY_NS)
}

/// Starts deriving the rounds' value runs of firms in the background.
pub(super) fn start_deriving(index: &Index) -> Result<(), IndexError> {
    ready_runs(index).map(drop)
}

/// The rounds' value runs of firms, once derived (their derivation is
/// started by the first request that asks).
fn ready_runs(index: &Index) -> Result<Option<Arc<ValueRuns>>, IndexError> {
    let firm_side = index.firms.relation("deals")?;
    index
        .deals
        .value_runs_if_ready(ROUND.firms, ROUND.facet, firm_side)
}

/// Each firm's deals and leads among the deals of the rounds `values`
/// within `block`: each firm's run of each round's deals cut to the block
/// (`runs`, see `index::value_runs`), no deal walked.
fn rounds_within(
    index: &Index,
    runs: &ValueRuns,
    values: &[String],
    block: &std::ops::Range<u32>,
) -> Result<Vec<(u32, u32)>, IndexError> {
    let counts = index.deals.value_counts(ROUND.firms)?;
    let mut per_firm = vec![(0u32, 0u32); index.firms.docs];
    let firms = counts.entry_docs();
    for value in values {
        for e in counts.entry_range(value) {
            let run = run_of(runs.deals(e), block);
            let slot = &mut per_firm[firms[e] as usize];
            slot.0 += run.len() as u32;
            slot.1 += runs.leads(e, run);
        }
    }
    Ok(per_firm)
}

/// The rounds D is exactly the deals of within one block of doc ids, when
/// the portfolio filters keep rounds and restrict nothing else but the
/// deal date (a date range is one block: deal doc ids follow the date).
fn rounds_in_block(p: &PortfolioFilter) -> Option<Superset> {
    let only_date = !p.company.is_set()
        && p.semantic.is_none()
        && !p.deal.size.is_set()
        && !p.deal.created.is_set();
    let kept = p
        .deal
        .financing_types
        .as_ref()
        .filter(|k| only_date && !k.is_empty())?;
    Some(Superset::new(
        ROUND,
        kept.iter().map(|k| k.facet_value()).collect(),
    ))
}

/// Whether a walk adds its deals to the counts or takes them away.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Walk {
    More,
    Less,
}

/// Adds (or takes away) each firm's deals and leads among `deals` to
/// (from) its slot in `counts`. Counts taken away were added before: a
/// superset's counts less those of its deals outside D (see
/// `supersets`). A slot per firm, written in place, costs less than a
/// [`Tally`] once the walk is broad: walking 208,000 deals at M took
/// 3.1–3.3 ms against 4.1 ms (2026-11-29).
fn walk_into(
    index: &Index,
    deals: &RoaringBitmap,
    counts: &mut [(u32, u32)],
    walk: Walk,
) -> Result<(), IndexError> {
    let firm_rel = index.deals.relation("firms")?;
    firm_rel.edges().each_of(deals, |_, targets, payload| {
        for (&f, &payload) in targets.iter().zip(payload) {
            let led = u32::from(payload & FIRM_LED != 0);
            if let Some(slot) = counts.get_mut(f as usize) {
                *slot = match walk {
                    Walk::More => (slot.0 + 1, slot.1 + led),
                    Walk::Less => (slot.0.saturating_sub(1), slot.1.saturating_sub(led)),
                };
            }
        }
    });
    Ok(())
}

/// Each firm's deals and leads over every deal of the index (its stored
/// totals, read as [`Totals`] reads them, less nothing).
fn firm_totals(index: &Index) -> Result<Vec<(u32, u32)>, IndexError> {
    let totals = Totals::of(&index.firms, Tally::new(index.firms.docs))?;
    Ok((0..index.firms.docs as u32)
        .map(|f| totals.get(f))
        .collect())
}

/// Each firm's deals and leads among `deals` (its edges, led: payload bit 7).
fn tally_firms(index: &Index, deals: &RoaringBitmap) -> Result<Tally, IndexError> {
    let firm_rel = index.deals.relation("firms")?;
    let firms = firm_rel.edges();
    let mut tally = Tally::new(index.firms.docs);
    firms.each_of(deals, |_, targets, payload| {
        for (&f, &payload) in targets.iter().zip(payload) {
            tally.add(f, payload & FIRM_LED != 0);
        }
    });
    Ok(tally)
}

fn firm_counts(index: &Index, p: &PortfolioFilter) -> Result<FirmCounts, QueryError> {
    let mut plan = Plan::default();
    deal_on_deals(&mut plan, &p.deal);
    company_on_deals(&mut plan, index, &p.company)?;
    let semantic = match &p.semantic {
        Some(s) => {
            let hits = semantic_companies(index, &p.company, s, "company_investments")?;
            let set = SemanticSet::of(&hits);
            plan.docs(set.deals(index)?);
            Some(set)
        }
        None => None,
    };
    let deals = evaluate(&index.deals, &plan)?;
    let supersets = Superset::of_request(&p.deal, &p.company);
    let rounds = rounds_in_block(p);
    let shapes = (&supersets[..], rounds.as_ref().map(|r| &r.values[..]));
    let tally = FirmTally::of(index, &deals, shapes, p.only_lead_deals)?;
    let best = match &semantic {
        Some(set) => Some(best_cosines(index, &deals, set, p.only_lead_deals)?),
        None => None,
    };
    Ok(FirmCounts {
        tally,
        only_lead: p.only_lead_deals,
        best,
    })
}

/// Each firm's best cosine over the companies of the deals of `deals` it
/// counts (only those it led with `only_lead`).
fn best_cosines(
    index: &Index,
    deals: &roaring::RoaringBitmap,
    set: &SemanticSet,
    only_lead: bool,
) -> Result<HashMap<u32, f32>, QueryError> {
    let company = index.deals.column_i32("company")?;
    let firm_rel = index.deals.relation("firms")?;
    let firms = firm_rel.edges();
    let mut best: HashMap<u32, f32> = HashMap::new();
    for d in deals {
        let Some(cosine) = company.get(d).and_then(|c| set.cosine(c as u32)) else {
            continue;
        };
        for (&f, &payload) in firms.targets(d).iter().zip(firms.payload(d)) {
            if !only_lead || payload & FIRM_LED != 0 {
                let b = best.entry(f).or_insert(f32::NEG_INFINITY);
                *b = b.max(cosine);
            }
        }
    }
    Ok(best)
}

pub fn search_investors(index: &Index, q: &InvestorsQuery) -> Result<ResultPage, QueryError> {
    let mut plan = Plan::default();
    if let Some(keys) = &q.identifiers {
        plan.docs(docs_of_org_identifiers(&index.firms, keys)?);
    }
    plan.facet("location", q.locations.as_deref());
    let headcounts = q
        .employee_count
        .as_ref()
        .map(|l| l.iter().map(|h| h.as_str()).collect::<Vec<_>>());
    plan.facet("employee_count", headcounts.as_deref());
    // The page's firms by count are known from the counts alone when
    // nothing else filters the firms.
    let ranked = q.sort == InvestorSort::MatchingDeals && plan.is_empty();
    let mut first = None;
    let counts = match &q.portfolio {
        Some(p) => {
            let counts = firm_counts(index, p)?;
            let min = p.min_matching_deals.unwrap_or(1).max(1);
            let page_end = ranked.then(|| page_end(q.page));
            let qualifying;
            (qualifying, first) = counts.qualifying(index.firms.docs, min, page_end);
            plan.docs(qualifying);
            Some(counts)
        }
        None => None,
    };
    let matches = evaluate(&index.firms, &plan)?;
    let best = counts
        .as_ref()
        .and_then(|c| c.best.as_ref().map(|b| (c, b)));
    let order = match (q.sort, &counts) {
        _ if best.is_some() => best.map_or(Order::ByDocId, |(c, best)| {
            Order::Keys(relevance_keys(&matches, c, best), Descending)
        }),
        (InvestorSort::MostRecentDeal, _) | (InvestorSort::MatchingDeals, None) => Order::ByDocId,
        (InvestorSort::RecentDeals, _) => Order::I32("deal_count_last_12_months", Descending),
        (InvestorSort::DealsLedLtm, _) => Order::I32("lead_deal_count_last_12_months", Descending),
        (InvestorSort::TotalDeals, _) => Order::I32("total_deal_count", Descending),
        (InvestorSort::MatchingDeals, Some(c)) => Order::Keys(
            match first {
                Some(first) => first.iter().map(|&(f, n)| (Some(n as i64), f)).collect(),
                None => docs(&matches)
                    .map(|f| (Some(c.matching(f) as i64), f))
                    .collect(),
            },
            Descending,
        ),
    };
    let mut page = page_of(&index.firms, (&matches, &plan), order, q.page)?;
    if let Some(c) = &counts {
        page.filtered = page.docs.iter().map(|&f| c.filtered(f)).collect();
    }
    Ok(page)
}

/// Sort keys of a semantic `/investors`: best cosine first, then more
/// qualifying deals (packed into one key; doc id breaks the last ties).
fn relevance_keys(
    matches: &roaring::RoaringBitmap,
    counts: &FirmCounts,
    best: &HashMap<u32, f32>,
) -> Vec<(Option<i64>, u32)> {
    docs(matches)
        .map(|f| {
            let cosine = best.get(&f).copied().unwrap_or(-1.0);
            let deals = counts.matching(f).min(u16::MAX as u32) as i64;
            (Some(cosine_key(cosine) * 65_536 + deals), f)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::build::build_fixture;
    use crate::query::filter::every_doc;

    /// Every way of counting firms agrees with walking the deals: from the
    /// firms' side, as runs of a block (binary searched or from the
    /// checkpoints), and as totals less the other deals,
    /// on all deals, a block, every third deal and none.
    #[test]
    fn every_counting_way_agrees() {
        let index = Index::open(&build_fixture("firm-sides", "2026-11-01")).unwrap();
        let n = index.deals.docs as u32;
        let all = every_doc(n as usize);
        let block: RoaringBitmap = (n / 4..n * 3 / 4).collect();
        let thirds: RoaringBitmap = (0..n).filter(|d| d % 3 != 0).collect();
        let (early, late): (RoaringBitmap, RoaringBitmap) =
            ((0..n / 2).collect(), (n / 2..n).collect());
        let spanned: RoaringBitmap = (n / 3..n * 2 / 3).filter(|d| d % 3 != 0).collect();
        let sets = [&all, &block, &early, &late, &thirds, &spanned];
        for d in sets.into_iter().chain([&RoaringBitmap::new()]) {
            let walked = tally_firms(&index, d).unwrap();
            let expect: Vec<(u32, u32)> = (0..index.firms.docs as u32)
                .map(|f| (walked.get(f).deals, walked.get(f).leads))
                .collect();
            assert_eq!(counted_by_firm(&index, d).unwrap(), expect, "firm side");
            let mut complement = firm_totals(&index).unwrap();
            walk_into(&index, &other_deals(&index, d), &mut complement, Walk::Less).unwrap();
            assert_eq!(complement, expect, "totals less the other deals");
            let mut walked_into = vec![(0, 0); index.firms.docs];
            walk_into(&index, d, &mut walked_into, Walk::More).unwrap();
            assert_eq!(walked_into, expect, "walked into a slot per firm");
            let dense = DenseSet::of(d, n);
            let mut tested = vec![FirmTally::tested(&index, Box::new(dense)).unwrap()];
            if let Some(b) = block_of(d) {
                assert_eq!(runs_in(&index, b.clone()).unwrap(), expect, "runs");
                tested.push(FirmTally::tested(&index, Box::new(Block(b.clone()))).unwrap());
                tested.push(FirmTally::in_block(&index, b).unwrap());
            }
            for tally in tested {
                let firms = 0..index.firms.docs as u32;
                assert_eq!(
                    firms.clone().map(|f| tally.get(f)).collect::<Vec<_>>(),
                    expect,
                    "tested, leads when asked"
                );
                assert!(firms
                    .clone()
                    .all(|f| tally.deals(f) == expect[f as usize].0));
                assert_eq!(tally.touched(index.firms.docs), walked.touched());
            }
        }
        assert!(block_of(&block).is_some() && block_of(&thirds).is_none());
        assert!(tally_firms(&index, &all).unwrap().touched().len() > 3);
    }

    /// The qualifying firms and the first by count read from the slots
    /// per firm are those the firms touched give, ranked as a page ranks.
    #[test]
    fn firms_ranked_from_their_slots_agree_with_their_keys() {
        let index = Index::open(&build_fixture("firm-ranked", "2026-11-01")).unwrap();
        let (n, firms) = (index.deals.docs as u32, index.firms.docs);
        let thirds: RoaringBitmap = (0..n).filter(|d| d % 3 != 0).collect();
        let tally = FirmTally::tested(&index, Box::new(DenseSet::of(&thirds, n))).unwrap();
        let counts = FirmCounts {
            tally,
            only_lead: false,
            best: None,
        };
        for (min, k) in [(1, 1), (1, 5), (2, 3), (3, 1_000), (1, 0)] {
            let (kept, first) = counts.qualifying(firms, min, Some(k));
            let (listed, none) = counts.qualifying(firms, min, None);
            assert_eq!((&kept, none), (&listed, None));
            let mut keys: Vec<(Option<i64>, u32)> = docs(&kept)
                .map(|f| (Some(counts.matching(f) as i64), f))
                .collect();
            keys.sort_by_key(|&(n, f)| (std::cmp::Reverse(n), f));
            let mut first = first.unwrap();
            first.sort_by_key(|&(f, n)| (std::cmp::Reverse(n), f));
            let want: Vec<(u32, u32)> = keys
                .iter()
                .take(k)
                .map(|&(n, f)| (f, n.unwrap() as u32))
                .collect();
            assert_eq!(first, want, "min {min}, k {k}");
        }
        assert!(counts.qualifying(firms, 1, None).0.len() > 3);
    }

    /// The deals of some rounds within a block, counted from the rounds'
    /// value runs, agree with walking them: one round, two, every round;
    /// blocks of every deal, none, the start, the middle, the end, a lone
    /// deal, and the span of D itself (as the search takes it).
    #[test]
    fn round_runs_agree_with_walking() {
        let index = Index::open(&build_fixture("firm-round-runs", "2026-11-01")).unwrap();
        let n = index.deals.docs as u32;
        let facet = index.deals.facet("round").unwrap();
        let values: Vec<String> = (0..facet.len())
            .map(|i| facet.value(i).to_string())
            .collect();
        assert!(values.len() > 3, "rounds to pick from");
        let firm_side = index.firms.relation("deals").unwrap();
        let runs = index
            .deals
            .value_runs(ROUND.firms, ROUND.facet, &firm_side)
            .unwrap();
        let picks = [values[..1].to_vec(), values[1..3].to_vec(), values.clone()];
        let blocks = [0..n, 0..0, 0..n / 3, n / 4..n * 3 / 4, n / 2..n, 5..6];
        for rounds in &picks {
            let b = Superset::new(ROUND, rounds.clone()).deals(&index).unwrap();
            for block in &blocks {
                let d: RoaringBitmap = b.iter().filter(|x| block.contains(x)).collect();
                let span = d.min().unwrap_or(0)..d.max().map_or(0, |m| m + 1);
                let walked = tally_firms(&index, &d).unwrap();
                let expect: Vec<(u32, u32)> = (0..index.firms.docs as u32)
                    .map(|f| (walked.get(f).deals, walked.get(f).leads))
                    .collect();
                assert!(
                    expect.iter().any(|c| c.1 > 0) || d.len() < 20,
                    "leads to count"
                );
                for cut in [block, &span] {
                    let counted = rounds_within(&index, &runs, rounds, cut).unwrap();
                    assert_eq!(counted, expect, "{rounds:?} within {cut:?}");
                }
            }
        }
    }

    /// The first request that could use the runs starts their derivation
    /// in the background and counts another way; later ones get the
    /// runs, the very ones a caller deriving them itself gets.
    #[test]
    fn round_runs_are_derived_in_the_background() {
        let index = Index::open(&build_fixture("firm-round-runs-bg", "2026-11-01")).unwrap();
        assert!(ready_runs(&index).unwrap().is_none(), "not derived yet");
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
        let runs = loop {
            if let Some(runs) = ready_runs(&index).unwrap() {
                break runs;
            }
            assert!(std::time::Instant::now() < deadline, "never derived");
            std::thread::sleep(std::time::Duration::from_millis(5));
        };
        let firm_side = index.firms.relation("deals").unwrap();
        let derived = index.deals.value_runs(ROUND.firms, ROUND.facet, &firm_side);
        assert!(Arc::ptr_eq(&runs, &derived.unwrap()));
    }

    /// Only rounds and a deal date make D "rounds within a block".
    #[test]
    fn rounds_in_a_block_are_rounds_and_a_date_only() {
        use crate::schema::{Date, RoundKey, RoundType};
        let key = |round_type| RoundKey {
            round_type,
            pre: false,
            extension: false,
        };
        let mut p = PortfolioFilter::default();
        assert!(rounds_in_block(&p).is_none(), "no rounds");
        p.deal.financing_types = Some(vec![]);
        assert!(rounds_in_block(&p).is_none(), "an empty list");
        let (seed, a) = (key(RoundType::Seed), key(RoundType::SeriesA));
        p.deal.financing_types = Some(vec![seed, a, seed]);
        p.deal.date.min = Some(Date(18_000));
        let mut expect = vec![seed.facet_value(), a.facet_value()];
        expect.sort_unstable();
        assert_eq!(rounds_in_block(&p).map(|r| r.values), Some(expect));
        let mut sized = p.clone();
        sized.deal.size.min = Some(1e6);
        let mut created = p.clone();
        created.deal.created.max = Some(Date(19_000));
        let mut located = p.clone();
        located.company.locations = Some(vec!["france".into()]);
        for other in [sized, created, located] {
            assert!(rounds_in_block(&other).is_none(), "{other:?}");
        }
    }

    /// How many deals have `industry`.
    fn industry_deals(index: &Index, industry: &str) -> u64 {
        let facet = index
            .deals
            .facet(crate::index::value_counts::INDUSTRY.facet)
            .unwrap();
        facet.docids(industry).unwrap().map_or(0, |b| b.len())
    }

    /// The value counts of a superset B of D less the deals of B outside
    /// D (and less their overlaps) agree with walking D, for B some
    /// rounds, a lone super category or one to four industries or
    /// locations (counts derived in memory), and D every deal of B, two
    /// thirds of them or none; a D reaching outside B is refused.
    #[test]
    fn value_counts_agree_with_walking() {
        let index = Index::open(&build_fixture("firm-rounds", "2026-11-01")).unwrap();
        let n = index.deals.docs as u32;
        let thirds: RoaringBitmap = (0..n).filter(|d| d % 3 != 0).collect();
        let budget = (&FIRM_SIDES, u64::MAX);
        let derived = Superset::overlapping_samples(&index);
        let _ = ValueBase::cheapest(&index, Entities::Firms, &derived, &thirds, budget);
        let of_industries = |s: &&Superset| s.facet == crate::index::value_counts::INDUSTRY;
        let industries: Vec<Superset> = derived.iter().filter(of_industries).cloned().collect();
        index.wait_for_derived();
        let overlapped = industries.iter().map(|s| s.deals(&index).unwrap());
        let overlapped: Vec<u64> = overlapped
            .zip(&industries)
            .map(|(b, s)| {
                s.values
                    .iter()
                    .map(|v| industry_deals(&index, v))
                    .sum::<u64>()
                    - b.len()
            })
            .collect();
        assert!(
            overlapped.iter().any(|&extra| extra > 0),
            "no deal of two industries"
        );
        for superset in Superset::samples(&index).into_iter().chain(derived) {
            let b = superset.deals(&index).unwrap();
            let supersets = [superset.clone()];
            for d in [b.clone(), &b & &thirds, RoaringBitmap::new()] {
                let walked = tally_firms(&index, &d).unwrap();
                let base = ValueBase::cheapest(&index, Entities::Firms, &supersets, &d, budget);
                let base = base.unwrap().unwrap();
                let totals = base
                    .overlaps
                    .is_empty()
                    .then(|| base.totals(tally_firms(&index, &base.outside).unwrap(), 3));
                let mut counts = vec![(0, 0); index.firms.docs];
                base.add_base(&mut counts);
                for less in base.less() {
                    walk_into(&index, less, &mut counts, Walk::Less).unwrap();
                }
                for f in 0..index.firms.docs as u32 {
                    let w = walked.get(f);
                    if let Some(totals) = &totals {
                        assert_eq!(totals.get(f), (w.deals, w.leads), "firm {f}, {superset:?}");
                    }
                    assert_eq!(
                        counts[f as usize],
                        (w.deals, w.leads),
                        "firm {f}, {superset:?}"
                    );
                }
                let tally = FirmTally::PerFirm(counts);
                assert_eq!(tally.touched(index.firms.docs), walked.touched());
            }
            if b.len() < n as u64 {
                let everything = every_doc(n as usize);
                let beyond =
                    ValueBase::cheapest(&index, Entities::Firms, &supersets, &everything, budget);
                assert!(beyond.unwrap().is_none(), "D is not within {superset:?}");
            }
        }
    }
}
