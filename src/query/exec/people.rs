//! `POST /people`: people by their own facets, their current employer
//! (company mode) and their investing (investor mode).
//!
//! - Company filters are clauses on the person's `employer_` facets and
//!   columns (the employer company's own, copied onto its people by the
//!   indexer), plus `employer_kind = company`; only the keys naming
//!   companies or investors select companies, whose staff then joins
//!   (`companies.people`). When the block's ranges would cost more to scan
//!   on people than joining its companies' staff, the whole block is
//!   evaluated on companies and joined instead (`employment`).
//! - Firm filters select firms (a firms plan), then keep investors with a
//!   firm in that set (`people.firms`).
//! - `investor.deals` selects the qualifying deals D (a deals plan), then
//!   keeps the candidates with at least `min_matching_deals` distinct
//!   deals in D: either counted from the deal side (each deal's
//!   `participants` into a tally, or into a bare counter per investor
//!   for a broad D or a block of deals, see `walked_counts`, or the deals
//!   outside D taken from each person's totals), or decided from the
//!   people side (their `angel_deals` / `partner_deals`, each read only
//!   up to its `min`-th deal in D; exact counts are then taken for the
//!   first page's worth only, see `at_least`), or counted for every
//!   candidate at once from running counts along all the people's lists
//!   (`every_person`) or, when the request keeps rounds, along the kept
//!   rounds' lists of the people's deals only (`by_round`), whichever is
//!   estimated cheaper.
//! - Semantic search: `company.search_query` narrows the employer
//!   companies to their semantic set (among the employers the other
//!   `company` keys leave); `investor.deals.search_query` narrows D to the
//!   deals of the semantic set of portfolio companies (among those the
//!   portfolio keys leave). A person's relevance is their employer's cosine,
//!   their best portfolio company's cosine among their deals in D, or the
//!   sum of both when both are active; people are then ordered by it, ties
//!   in the default order, and `sort_by` is ignored.

use std::ops::Range;

use roaring::RoaringBitmap;

use crate::index::column::NULL_I32;
use crate::index::docs::{bitmap_of_kept, docs};
use crate::index::payload::PARTICIPANT_LEAD;
use crate::index::relation::Edges;
use crate::index::{Index, IndexError};
use crate::query::filter::evaluate;
use crate::query::plan::{money_bounds, Plan};
use crate::query::request::{
    FilteredCounts, InvestorPersonFilter, PageRequest, PeopleQuery, PersonDealsFilter,
    PersonFilter, PersonIdentifiers, PersonSort, PersonType, ResultPage,
};
use crate::query::sort::Direction::{Ascending, Descending};
use crate::query::sort::{page_by_keys, page_end};

use super::at_least::{people_reaching, ranked_first_of, reaching_ns, reads_estimate, Reaching};
use super::blocks::{company_on_deals, deal_on_deals};
use super::by_round::ByRound;
use super::dense::{Block, DealSet, DenseSet};
use super::employment::{employed_by, employers, Employment};
use super::every_person::{count_every, every_ns};
use super::joins::{docs_of_keys, docs_of_org_identifiers};
use super::person_deals::{DealRules, PersonLists};
use super::semantic::{cosine_key, semantic_companies, semantic_hits, SemanticSet};
use super::size_base::SizeBase;
use super::span::{block_of, chunk_counts, span_of};
use super::supersets::{Entities, Superset, ValueBase};
use super::tally::{other_deals, Acc, Sides, Tally, Totals, SPARSE_BELOW};
use super::walked_counts::{
    count_walked, count_walked_less, count_walked_outside, per_deal_ns, walked_ns,
    walked_outside_ns,
};
use super::{counted_page, page_of, Order, QueryError};

const TRUE: &[&str] = &["true"];

fn strings<T>(list: &Option<Vec<T>>, f: impl Fn(&T) -> &str) -> Option<Vec<String>> {
    list.as_ref()
        .map(|l| l.iter().map(|v| f(v).to_string()).collect())
}

fn person_facets(plan: &mut Plan, p: &PersonFilter) {
    plan.facet("role", strings(&p.roles, |r| r.as_str()).as_deref());
    plan.facet("contact_type", p.contact_types.as_deref());
    plan.facet("job_title", p.job_titles.as_deref());
    plan.facet("school", p.education_schools.as_deref());
    plan.facet("linkedin_company", p.linkedin_companies.as_deref());
}

fn docs_of_person_identifiers(
    index: &Index,
    keys: &PersonIdentifiers,
) -> Result<RoaringBitmap, IndexError> {
    let maps: [(&str, &[String]); 3] = [
        ("linkedin", &keys.linkedin),
        ("crunchbase", &keys.crunchbase),
        ("twitter", &keys.twitter),
    ];
    docs_of_keys(&index.people, &keys.ids, &maps)
}

/// Firms matching the firm keys of the `investor` block; `None` when it has none.
fn firm_set(
    index: &Index,
    inv: &InvestorPersonFilter,
) -> Result<Option<RoaringBitmap>, IndexError> {
    let mut plan = Plan::default();
    if let Some(keys) = &inv.firms {
        plan.docs(docs_of_org_identifiers(&index.firms, keys)?);
    }
    plan.facet("location", inv.locations.as_deref());
    plan.facet(
        "employee_count",
        strings(&inv.employee_count, |h| h.as_str()).as_deref(),
    );
    if plan.is_empty() {
        return Ok(None);
    }
    evaluate(&index.firms, &plan).map(Some)
}

/// Candidates with at least one firm in `firms`.
fn with_firm_in(
    index: &Index,
    candidates: &RoaringBitmap,
    firms: &RoaringBitmap,
) -> Result<RoaringBitmap, IndexError> {
    let rel = index.people.relation("firms")?;
    let keep = docs(candidates).filter(|&p| rel.targets(p).iter().any(|&f| firms.contains(f)));
    Ok(RoaringBitmap::from_sorted_iter(keep).unwrap_or_default())
}

/// The qualifying deals of `investor.deals`, and its semantic set.
fn qualifying_deals(
    index: &Index,
    f: &PersonDealsFilter,
) -> Result<(RoaringBitmap, Option<SemanticSet>), QueryError> {
    let mut plan = Plan::default();
    deal_on_deals(&mut plan, &f.deal);
    company_on_deals(&mut plan, index, &f.portfolio)?;
    let set = match &f.semantic {
        Some(s) => {
            let set = SemanticSet::of(&semantic_companies(
                index,
                &f.portfolio,
                s,
                "investor.deals",
            )?);
            plan.docs(set.deals(index)?);
            Some(set)
        }
        None => None,
    };
    Ok((evaluate(&index.deals, &plan)?, set))
}

/// Each person's best portfolio cosine among their counted deals in
/// `deals` (the relations are opened once, then read per person).
fn portfolio_cosines(
    index: &Index,
    rules: &DealRules,
    deals: &RoaringBitmap,
    set: &SemanticSet,
    people: &RoaringBitmap,
) -> Result<Vec<f32>, IndexError> {
    let lists = PersonLists::open(index)?;
    let (angel, partner) = lists.edges();
    let company = index.deals.column_i32("company")?;
    let mut mine: Vec<(u32, bool)> = Vec::new();
    let mut out = Vec::with_capacity(people.len() as usize);
    for person in docs(people) {
        mine.clear();
        rules.deals_of(&angel, &partner, person, &mut mine);
        let best = mine
            .iter()
            .filter(|&&(d, lead)| deals.contains(d) && (lead || !rules.only_lead))
            .filter_map(|&(d, _)| set.cosine(company.get(d)? as u32))
            .fold(f32::NEG_INFINITY, f32::max);
        out.push(best);
    }
    Ok(out)
}

/// Counts each candidate's distinct deals in `deals`, which lie within
/// each of `supersets`, or only finds those with at least `min` (and the
/// first `first` of them by count, when asked).
fn count_deals(
    index: &Index,
    rules: &DealRules,
    (deals, min): (&RoaringBitmap, u32),
    candidates: &RoaringBitmap,
    (supersets, size): (&[Superset], Option<(i64, i64)>),
    first: Option<usize>,
) -> Result<PersonCounts, IndexError> {
    let people = &index.people;
    let investors = people
        .facet("is_investor")?
        .docids("true")?
        .unwrap_or_default();
    let all = index.deals.docs as u64;
    let block = block_of(deals);
    let every_rule = rules.angel && rules.institutional;
    let complement = every_rule && deals.len() * 2 > all;
    let deal_side = if complement {
        all - deals.len()
    } else {
        deals.len()
    };
    let every_investor = candidates.len() >= investors.len();
    let only = (!every_investor).then_some(candidates);
    let walk_ns = PEOPLE_SIDES.walk_ns(deal_side, all);
    let read = match block {
        Some(_) => 0,
        None => reads_estimate(index, rules, candidates, (min, deals.len(), all))?,
    };
    let d = (deals.len(), block.is_some());
    let ranked = (candidates.len(), first.is_some());
    let people_ns = reaching_ns(&PEOPLE_SIDES, d, ranked, read);
    // D's counts per chunk of doc ids, read by the estimates below (a
    // block needs none).
    let chunks: Vec<(u64, u64)> = match block {
        Some(_) => Vec::new(),
        None => chunk_counts(deals, all as u32).collect(),
    };
    // The bitset of D (a block needs none), as the people side's.
    let set_ns = match block {
        Some(_) => 0,
        None => DenseSet::of_ns(&chunks, all as u32),
    };
    let every_ns = every_ns(index, rules)? + set_ns;
    let dated = dated_investors(index)? as u64;
    let walked = (block.as_ref(), chunks.as_slice());
    let walked_ns = walked_ns(index, walked, dated)?;
    let outside_ns = match every_rule {
        true => walked_outside_ns(index, walked, dated)?,
        false => u64::MAX,
    };
    let sized = match size {
        Some(range) => SizeBase::exact(index, rules, deals, range)?,
        None => None,
    };
    let sized_ns = sized.as_ref().map_or(u64::MAX, |s| s.ns(index));
    let by_round = ByRound::of(index, rules, supersets)?;
    let by_round_ns = match &by_round {
        Some(b) => b.ns(index)? + set_ns,
        None => u64::MAX,
    };
    let cheapest = (walk_ns.min(people_ns).min(every_ns))
        .min(walked_ns)
        .min(outside_ns)
        .min(sized_ns)
        .min(by_round_ns);
    // A broad base is counted into counters, which cost a pass over them.
    let counters_ns = dated * PEOPLE_COUNTER_PS / 1000;
    let budget = (&PEOPLE_COUNTERS, cheapest.saturating_sub(counters_ns));
    let supersets = if every_rule { supersets } else { &[] };
    let base = ValueBase::cheapest(index, Entities::People, supersets, deals, budget)?;
    if let Some(base) = base {
        if base.entry_count() * 16 >= dated as usize {
            return based_counters(index, rules, (deals, &base), only);
        }
        let totals = base.totals(
            count_from_sets(index, rules, base.less(), only)?,
            dated as usize,
        );
        return Ok(PersonCounts::Exact(PersonTally::Based {
            totals,
            only_lead: rules.only_lead,
            only: only.cloned(),
        }));
    }
    if let Some(sized) = sized.filter(|_| sized_ns == cheapest) {
        let counts = sized.count(index, rules, only)?;
        let set = Box::new(DenseSet::of(deals, index.deals.docs as u32));
        return Ok(PersonCounts::Every { set, counts });
    }
    if outside_ns == cheapest && outside_ns < walk_ns {
        let walked = (deals, block);
        return walked_from_deals(index, rules, walked, only, Some(&investors));
    }
    if walked_ns == cheapest && walked_ns < walk_ns {
        let walked = (deals, block);
        return walked_from_deals(index, rules, walked, only, None);
    }
    if let Some(by_round) = by_round.filter(|_| by_round_ns == cheapest) {
        let by = EveryBy::Round(&by_round);
        return every(index, (rules, by), deals, candidates, block);
    }
    if every_ns < people_ns.min(walk_ns) {
        return every(index, (rules, EveryBy::Lists), deals, candidates, block);
    }
    if people_ns < walk_ns {
        return at_least(index, rules, (deals, min), (candidates, first), block);
    }
    if !complement {
        let direct = count_from_deals(index, rules, deals, only).map(PersonTally::Direct);
        return direct.map(PersonCounts::Exact);
    }
    let rest = count_from_deals(index, rules, &other_deals(index, deals), only)?;
    Ok(PersonCounts::Exact(PersonTally::Complement {
        totals: Totals::of(people, rest)?,
        only_lead: rules.only_lead,
        investors: docs(&(investors.as_ref() & candidates)).collect(),
    }))
}

/// The candidates with at least `min` counted deals in `deals` (one block
/// when `block` is), decided from the people's side.
fn at_least(
    index: &Index,
    rules: &DealRules,
    (deals, min): (&RoaringBitmap, u32),
    (candidates, first): (&RoaringBitmap, Option<usize>),
    block: Option<Range<u32>>,
) -> Result<PersonCounts, IndexError> {
    let decided = (candidates, min);
    // Each arm decides with its own set type, so that the per-person loop
    // is compiled for it (not through the box).
    let (set, reaching): (Box<dyn DealSet>, _) = match block {
        Some(block) => {
            let set = Block(block);
            let reaching = people_reaching(index, rules, &set, decided, first)?;
            (Box::new(set), reaching)
        }
        None => {
            let set = DenseSet::of(deals, index.deals.docs as u32);
            let reaching = people_reaching(index, rules, &set, decided, first)?;
            (Box::new(set), reaching)
        }
    };
    Ok(PersonCounts::AtLeast { set, reaching })
}

/// How [`every`] counts every candidate at once.
#[derive(Clone, Copy)]
enum EveryBy<'a> {
    /// Running counts along the people's lists (`every_person`).
    Lists,
    /// The kept rounds' lists of the people's deals (`by_round`).
    Round(&'a ByRound),
}

impl EveryBy<'_> {
    fn count(
        self,
        index: &Index,
        rules: &DealRules,
        set: &impl DealSet,
        candidates: &RoaringBitmap,
    ) -> Result<Vec<(u32, u32)>, IndexError> {
        match self {
            EveryBy::Lists => count_every(index, rules, set, candidates),
            EveryBy::Round(by_round) => by_round.count(index, set, candidates),
        }
    }
}

/// Every candidate's count over `deals` (one block when `block` is), all
/// at once, counted `by` one of the people's sides.
fn every(
    index: &Index,
    (rules, by): (&DealRules, EveryBy),
    deals: &RoaringBitmap,
    candidates: &RoaringBitmap,
    block: Option<Range<u32>>,
) -> Result<PersonCounts, IndexError> {
    // Each arm counts with its own set type (see `at_least`).
    let (set, counts): (Box<dyn DealSet>, _) = match block {
        Some(block) => {
            let set = Block(block);
            let counts = by.count(index, rules, &set, candidates)?;
            (Box::new(set), counts)
        }
        None => {
            let set = DenseSet::of(deals, index.deals.docs as u32);
            let counts = by.count(index, rules, &set, candidates)?;
            (Box::new(set), counts)
        }
    };
    Ok(PersonCounts::Every { set, counts })
}

/// Every candidate's count over `deals` (one block when `block` is),
/// walked from the deals' participants into a counter per investor; from
/// the deals outside `deals` when `outside` holds every investor (every
/// participation counting, see `walked_counts`).
fn walked_from_deals(
    index: &Index,
    rules: &DealRules,
    (deals, block): (&RoaringBitmap, Option<Range<u32>>),
    only: Option<&RoaringBitmap>,
    outside: Option<&RoaringBitmap>,
) -> Result<PersonCounts, IndexError> {
    let dated = dated_investors(index)?;
    let walked = (deals, block.clone());
    let counts = match outside {
        Some(investors) => count_walked_outside(index, rules, walked, (dated, investors), only)?,
        None => count_walked(index, rules, walked, dated, only)?,
    };
    let set: Box<dyn DealSet> = match block {
        Some(block) => Box::new(Block(block)),
        None => Box::new(DenseSet::of(deals, index.deals.docs as u32)),
    };
    Ok(PersonCounts::Every { set, counts })
}

/// Every candidate's count over `deals` from a value base B: its counts,
/// then B's deals outside D (and its overlaps) taken off, into a counter
/// per investor (for a broad B: cheaper than the tally, whose slots hold
/// leads too and list the people touched; a page's leads are counted from
/// its rows' lists).
fn based_counters(
    index: &Index,
    rules: &DealRules,
    (deals, base): (&RoaringBitmap, &ValueBase),
    only: Option<&RoaringBitmap>,
) -> Result<PersonCounts, IndexError> {
    let walk = (base.entries(), base.less());
    let counts = count_walked_less(index, rules, walk, dated_investors(index)?, only)?;
    let set = Box::new(DenseSet::of(deals, index.deals.docs as u32));
    Ok(PersonCounts::Every { set, counts })
}

/// What counting the candidates' deals in D found.
enum PersonCounts {
    /// Every candidate's counts.
    Exact(PersonTally),
    /// Every candidate's count over a broad D (`every`, walked, or from
    /// value, size or round bases), without leads: a page's rows read
    /// their counts here and count their leads from their lists
    /// ([`counted_with_leads`]).
    Every {
        set: Box<dyn DealSet>,
        /// (person, count) of the candidates with a counted deal, ascending.
        counts: Vec<(u32, u32)>,
    },
    /// The candidates with at least `min_matching_deals` counted deals in
    /// a broad D, each decided from their lists' first deals in D
    /// (`at_least`): counts are taken for the people that need them.
    AtLeast {
        set: Box<dyn DealSet>,
        reaching: Reaching,
    },
}

impl PersonCounts {
    /// The people with at least `min` counted deals (a page ranked by
    /// count needs only how many: [`PersonCounts::ranked`]).
    fn kept(&self, min: u32) -> RoaringBitmap {
        match self {
            PersonCounts::AtLeast { reaching, .. } => reaching.people.clone(),
            PersonCounts::Exact(tally) => keep(&tally.counts(), min.max(1)),
            PersonCounts::Every { counts, .. } => keep(counts, min),
        }
    }

    /// How many people have at least `min` counted deals, and the first
    /// `k` of them by count (in no order): all a page ranked by count
    /// needs, in one pass, without the set of the people (over a broad D
    /// at M, building the set took 0.13–0.20 ms of the 0.23–0.38 ms that
    /// [`PersonCounts::kept`] took). `None` when the first were not
    /// counted.
    fn ranked(&self, min: u32, k: usize) -> Option<(u64, Vec<(u32, u32)>)> {
        let (first, reaching) = match self {
            PersonCounts::AtLeast { reaching, .. } => {
                return Some((reaching.people.len(), reaching.first.clone()?))
            }
            PersonCounts::Exact(tally) => ranked_first_of(&tally.counts(), min, k),
            PersonCounts::Every { counts, .. } => ranked_first_of(counts, min, k),
        };
        Some((reaching, first))
    }

    /// Counts of every person of `kept`, for tests: a page ranked by count
    /// takes [`PersonCounts::ranked`].
    #[cfg(test)]
    fn counts_of(
        &self,
        index: &Index,
        rules: &DealRules,
        kept: &RoaringBitmap,
    ) -> Result<Vec<(u32, u32)>, IndexError> {
        let set = match self {
            PersonCounts::Exact(tally) => {
                return Ok(docs(kept).map(|p| (p, tally.get(p).deals)).collect())
            }
            PersonCounts::Every { counts, .. } => {
                let of_kept = counts.iter().filter(|&&(p, _)| kept.contains(p));
                return Ok(of_kept.copied().collect());
            }
            PersonCounts::AtLeast { set, .. } => set,
        };
        let exact = count_people_in(index, rules, set.as_ref(), kept)?;
        Ok(docs(kept).map(|p| (p, exact.get(p).deals)).collect())
    }

    /// The counts of a page's rows, each with the latest date of its
    /// counted deals (read from the person's own deals, the relations
    /// opened once: only a page needs the date).
    fn page_counts(
        &self,
        index: &Index,
        rules: &DealRules,
        deals: &RoaringBitmap,
        page: &[u32],
    ) -> Result<Vec<FilteredCounts>, IndexError> {
        let lists = PersonLists::open(index)?;
        let (angel, partner) = lists.edges();
        let dates = index.deals.column_i32("date")?;
        let edges = (&angel, &partner);
        let deals_span = span_of(deals).unwrap_or(0..0);
        let counts = page.iter().map(|&p| {
            let (acc, latest) = match self {
                PersonCounts::AtLeast { set, .. } => (
                    rules.count(set.as_ref(), &angel, &partner, p),
                    rules.first_counted(edges, p, (&set.span(), |d| set.contains(d))),
                ),
                PersonCounts::Every { set, counts } => (
                    counted_with_leads(rules, (set.as_ref(), counts), (&angel, &partner), p),
                    rules.first_counted(edges, p, (&set.span(), |d| set.contains(d))),
                ),
                PersonCounts::Exact(t) => (
                    t.get(p),
                    rules.first_counted(edges, p, (&deals_span, |d| deals.contains(d))),
                ),
            };
            FilteredCounts {
                deal_count: acc.deals,
                lead_count: acc.leads,
                most_recent_date: latest
                    .and_then(|d| day_of(dates.values(), d))
                    .map(crate::schema::Date),
            }
        });
        Ok(counts.collect())
    }
}

/// Person `p`'s deals, from `counts` ((person, count), people ascending,
/// as [`PersonCounts::Every`] holds them), and leads: counted from their
/// lists (only those leads come from), unless the deals counted are the
/// leads (`only_lead_deals`).
fn counted_with_leads(
    rules: &DealRules,
    (set, counts): (&dyn DealSet, &[(u32, u32)]),
    (angel, partner): (&Edges, &Edges),
    p: u32,
) -> Acc {
    let at = counts.binary_search_by_key(&p, |&(q, _)| q);
    let deals = at.map_or(0, |i| counts[i].1);
    let leads = match rules.only_lead {
        true => deals,
        false => rules.leads(set, angel, partner, p),
    };
    Acc { deals, leads }
}

/// The people of `counts` ((person, count), people ascending) with at
/// least `min`, read in one pass.
fn keep(counts: &[(u32, u32)], min: u32) -> RoaringBitmap {
    match counts.last() {
        Some(&(max, _)) if counts.len() >= (max as usize >> 6) => {
            bitmap_of_kept(counts.iter().map(|&(p, n)| (p, n >= min)), max)
        }
        _ => {
            let kept = counts.iter().filter(|&&(_, n)| n >= min).map(|&(p, _)| p);
            RoaringBitmap::from_sorted_iter(kept).unwrap_or_default()
        }
    }
}

/// Each candidate's counts over the qualifying deals D. When D is most of
/// the deals and every participation counts, walking D is the slow way: a
/// person's counts are then their totals (`total_deal_count`,
/// `lead_deal_count`: every deal of the index, distinct) minus their counts
/// over the deals *not* in D, so the walk covers at most half of the deals.
enum PersonTally {
    Direct(Tally),
    Complement {
        totals: Totals,
        only_lead: bool,
        /// The candidates with any deal, ascending.
        investors: Vec<u32>,
    },
    /// Over a value base B (`supersets`): its people, or those of `only`.
    Based {
        totals: Totals,
        only_lead: bool,
        only: Option<RoaringBitmap>,
    },
}

impl PersonTally {
    /// Deals and leads.
    fn get(&self, p: u32) -> Acc {
        match self {
            PersonTally::Direct(t) => t.get(p),
            PersonTally::Complement {
                totals, only_lead, ..
            }
            | PersonTally::Based {
                totals, only_lead, ..
            } => {
                let (deals, leads) = totals.get(p);
                Acc {
                    deals: if *only_lead { leads } else { deals },
                    leads,
                }
            }
        }
    }

    /// (person, deals) of every person who may have a counted deal (some
    /// may have none), ascending; each person's counts read once.
    fn counts(&self) -> Vec<(u32, u32)> {
        match self {
            PersonTally::Direct(t) => t.counted(|_, acc| acc.deals),
            PersonTally::Complement { investors, .. } => {
                investors.iter().map(|&p| (p, self.get(p).deals)).collect()
            }
            PersonTally::Based {
                totals,
                only_lead,
                only,
            } => {
                let mut counts = totals.based_counts(*only_lead).unwrap_or_default();
                if let Some(only) = only {
                    counts.retain(|&(p, _)| only.contains(p));
                }
                counts
            }
        }
    }
}

/// Measured at M on this machine (2.5 million deals, 4.3 million
/// participations of 243,000 investors): a deal of D walked costs about
/// 70 ns when D is sparse, 35 ns when dense (a cache miss per person's
/// counter); a person's deal tested against the bitset about 2.3 ns
/// (deciding every investor at `min_matching_deals` 2 over 1.1 million
/// deals read 1.4 million of their deals in about 5.5 ms, 2026-11-29); a
/// value-count entry about 12 ns, added to a tally and read back for its
/// person (12.5–17.5 ns for the 79,000–183,000 entries of one to three
/// industries in a slow phase, 2026-12-03; C4's p99 6.97 → 6.38 ms against
/// 8 ns, over four alternations).
const PEOPLE_SIDES: Sides = Sides {
    deal_ns: person_slot_deal_ns,
    entity_edge_ps: 2_300,
    entry_ns: 12,
};

/// A deal walked into the people's tally ([`PEOPLE_SIDES`]).
fn person_slot_deal_ns(density: f64) -> u64 {
    if density < SPARSE_BELOW {
        70
    } else {
        35
    }
}

/// The same, counted into a bare counter per investor (`walked_counts`),
/// as a broad value base is (see [`based_counters`]): a deal walked as
/// `walked_counts` prices one (16 ns where dense, more the more thinly
/// spread); an entry about 5 ns (262,000
/// entries of two seed rounds, then 57,790 deals outside D walked off,
/// took 3.2 ms against the tally's 5.1 ms, in a slow phase, 2026-12-04);
/// and each investor's counter about 0.8 ns.
const PEOPLE_COUNTERS: Sides = Sides {
    deal_ns: per_deal_ns,
    entity_edge_ps: 2_300,
    entry_ns: 5,
};
const PEOPLE_COUNTER_PS: u64 = 800;

/// People with a dated deal: doc ids `0..n` (doc ids follow the most
/// recent deal date, people without one last), the dense part of a tally.
fn dated_investors(index: &Index) -> Result<usize, IndexError> {
    Ok(index
        .people
        .sort_order("most_recent_deal_date")?
        .non_null()
        .len())
}

/// Each candidate's counts over `set`: each one's own deals within the
/// set's span, read in order and tested against it (a block's run is
/// found by search, nothing tested). For tests: an oracle of the counts.
#[cfg(test)]
fn count_people_in(
    index: &Index,
    rules: &DealRules,
    set: &(impl DealSet + ?Sized),
    candidates: &RoaringBitmap,
) -> Result<Tally, IndexError> {
    let lists = PersonLists::open(index)?;
    let (angel, partner) = lists.edges();
    let mut tally = Tally::new(dated_investors(index)?);
    for p in docs(candidates) {
        tally.add_counts(p, rules.count(set, &angel, &partner, p));
    }
    Ok(tally)
}

/// Counts from the deal side (each deal's `participants`, one edge per
/// person with angel / partner / led flags); `candidates` is `None` when
/// every investor is one.
fn count_from_deals(
    index: &Index,
    rules: &DealRules,
    deals: &RoaringBitmap,
    candidates: Option<&RoaringBitmap>,
) -> Result<Tally, IndexError> {
    count_from_sets(index, rules, [deals], candidates)
}

/// [`count_from_deals`] over several sets of deals, a deal once for each
/// set it is in (what a value base counts beyond D: [`ValueBase::less`]).
fn count_from_sets<'a>(
    index: &Index,
    rules: &DealRules,
    sets: impl IntoIterator<Item = &'a RoaringBitmap>,
    candidates: Option<&RoaringBitmap>,
) -> Result<Tally, IndexError> {
    let relation = index.deals.relation("participants")?;
    let participants = relation.edges();
    let mut tally = Tally::new(dated_investors(index)?);
    for deals in sets {
        participants.each_of(deals, |_, people, flags| {
            for (&p, &flags) in people.iter().zip(flags) {
                if rules.counts_participant(flags) && candidates.is_none_or(|c| c.contains(p)) {
                    tally.add(p, flags & PARTICIPANT_LEAD != 0);
                }
            }
        });
    }
    Ok(tally)
}

/// The date (days) of deal `d`, from the resolved `date` column.
fn day_of(dates: &[i32], d: u32) -> Option<i32> {
    Some(dates[d as usize]).filter(|&v| v != NULL_I32)
}

/// People matching every block but `investor.deals`, the semantic set of
/// `company.search_query`, and the plan they match.
fn base_matches(
    index: &Index,
    q: &PeopleQuery,
) -> Result<(RoaringBitmap, Option<SemanticSet>, Plan), QueryError> {
    let mut plan = Plan::default();
    match q.person_type {
        PersonType::Any => {}
        PersonType::Company => plan.facet("person_type", Some(&["company"])),
        PersonType::Investor => plan.facet("is_investor", Some(TRUE)),
    }
    if let Some(keys) = &q.identifiers {
        plan.docs(docs_of_person_identifiers(index, keys)?);
    }
    person_facets(&mut plan, &q.person);
    if q.investor.is_some() {
        plan.facet("is_investor", Some(TRUE));
    }
    let mut deferred = Vec::new();
    let (employer_set, semantic) = match &q.company {
        Some(c) => match &c.semantic {
            Some(s) => {
                let companies = employers(index, c)?;
                let set = SemanticSet::of(&semantic_hits(index, s, "company", &companies)?);
                (Some(set.companies.clone()), Some(set))
            }
            None => {
                let employment = Employment::of(index, c)?;
                if employment.join.is_none() {
                    plan.clauses.extend(employment.on_people.clauses);
                    (None, None)
                } else {
                    deferred = employment.on_people.clauses;
                    (employment.join, None)
                }
            }
        },
        None => (None, None),
    };
    let mut matches = evaluate(&index.people, &plan)?;
    if let Some(companies) = employer_set {
        matches = employed_by(index, matches, &companies)?;
    }
    // The matches lie within the joined block's clauses too: paging by a
    // column they bound reads only that stretch of its sort order.
    plan.clauses.extend(deferred);
    if let Some(firms) = q
        .investor
        .as_ref()
        .map(|inv| firm_set(index, inv))
        .transpose()?
        .flatten()
    {
        matches = with_firm_in(index, &matches, &firms)?;
    }
    Ok((matches, semantic, plan))
}

pub fn search_people(index: &Index, q: &PeopleQuery) -> Result<ResultPage, QueryError> {
    let (mut matches, employer_set, plan) = base_matches(index, q)?;
    let deals_filter = q.investor.as_ref().and_then(|i| i.deals.as_ref());
    let mut portfolio = None;
    // The rules, D and what was counted, when `investor.deals` counts.
    let mut counted = None;
    if let Some(f) = deals_filter {
        let (deals, set) = qualifying_deals(index, f)?;
        let rules = DealRules::of(f);
        let supersets = Superset::of_request(&f.deal, &f.portfolio);
        let size = money_bounds(&f.deal.size);
        let min = f.min_matching_deals.unwrap_or(1).max(1);
        let ranked =
            q.sort == PersonSort::FilteredDealCount && employer_set.is_none() && set.is_none();
        let first = ranked.then(|| page_end(q.page));
        let tally = count_deals(
            index,
            &rules,
            (&deals, min),
            &matches,
            (&supersets, size),
            first,
        )?;
        if let Some(ranked) = first.and_then(|k| tally.ranked(min, k)) {
            let counted = (&rules, &deals, &tally);
            return ranked_page(index, counted, ranked, q.page);
        }
        matches = tally.kept(min);
        portfolio = set;
        counted = Some((rules, deals, tally));
    }
    let semantic = employer_set.is_some() || portfolio.is_some();
    let portfolio = match (&portfolio, &counted) {
        (Some(set), Some((rules, deals, _))) => Some((rules, deals, set)),
        _ => None,
    };
    let order = match (q.sort, &counted) {
        _ if semantic => Order::Keys(
            relevance_keys(index, &matches, employer_set.as_ref(), portfolio)?,
            Descending,
        ),
        // A page by count was ranked above (`ranked_page`) unless semantic.
        (PersonSort::MostRecentDealDate | PersonSort::FilteredDealCount, _) => Order::ByDocId,
        (PersonSort::TotalRaised, _) => Order::I64("employer_total_raised", Descending),
        (PersonSort::LatestDealSize, _) => Order::I64("employer_latest_deal_size", Descending),
        (PersonSort::Name, _) => Order::I32("name_rank", Ascending),
        (PersonSort::TotalDealCount, _) => Order::I32("total_deal_count", Descending),
        (PersonSort::DealCountLast12Months, _) => {
            Order::I32("deal_count_last_12_months", Descending)
        }
        (PersonSort::LeadDealCount, _) => Order::I32("lead_deal_count", Descending),
        (PersonSort::LeadDealCountLast12Months, _) => {
            Order::I32("lead_deal_count_last_12_months", Descending)
        }
    };
    let mut page = page_of(&index.people, (&matches, &plan), order, q.page)?;
    if let Some((rules, deals, tally)) = &counted {
        page.filtered = tally.page_counts(index, rules, deals, &page.docs)?;
    }
    Ok(page)
}

/// A page of the people ranked by their counts, from how many are kept
/// and the first of them ([`PersonCounts::ranked`]), with its rows' counts.
fn ranked_page(
    index: &Index,
    (rules, deals, tally): (&DealRules, &RoaringBitmap, &PersonCounts),
    (kept, first): (u64, Vec<(u32, u32)>),
    page: PageRequest,
) -> Result<ResultPage, QueryError> {
    let docs = page_by_keys(count_keys(&first), Descending, page);
    let mut page = counted_page(kept, docs);
    page.filtered = tally.page_counts(index, rules, deals, &page.docs)?;
    Ok(page)
}

/// Sort keys of (person, count): the count.
fn count_keys(counts: &[(u32, u32)]) -> Vec<(Option<i64>, u32)> {
    counts.iter().map(|&(p, n)| (Some(n as i64), p)).collect()
}

/// Sort keys of a semantic `/people`: the employer's cosine, the best
/// portfolio cosine, or their sum when both blocks are semantic.
fn relevance_keys(
    index: &Index,
    matches: &RoaringBitmap,
    employer_set: Option<&SemanticSet>,
    portfolio: Option<(&DealRules, &RoaringBitmap, &SemanticSet)>,
) -> Result<Vec<(Option<i64>, u32)>, QueryError> {
    let employer = index.people.column_i32("employer")?;
    let portfolio_best = match portfolio {
        Some((rules, deals, set)) => Some(portfolio_cosines(index, rules, deals, set, matches)?),
        None => None,
    };
    let mut keys = Vec::with_capacity(matches.len() as usize);
    for (i, p) in docs(matches).enumerate() {
        let mut score = 0f32;
        if let Some(set) = employer_set {
            score += employer
                .get(p)
                .and_then(|c| set.cosine(c as u32))
                .unwrap_or(-1.0);
        }
        if let Some(best) = &portfolio_best {
            score += best[i].max(-1.0);
        }
        keys.push((Some(cosine_key(score)), p));
    }
    Ok(keys)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::build::build_fixture;
    use crate::index::value_counts::ROUND;
    use crate::query::filter::every_doc;
    use crate::query::request::InvestmentType;

    /// Counts from the people side: each candidate's own deals within the
    /// span of the deals, read in order and tested against the deals as a
    /// bitset, or not tested at all when the deals are one block.
    fn count_from_people(
        index: &Index,
        rules: &DealRules,
        deals: &RoaringBitmap,
        candidates: &RoaringBitmap,
    ) -> Result<Tally, IndexError> {
        match block_of(deals) {
            Some(block) => count_people_in(index, rules, &Block(block), candidates),
            None => {
                let set = DenseSet::of(deals, index.deals.docs as u32);
                count_people_in(index, rules, &set, candidates)
            }
        }
    }

    fn fixture() -> Index {
        Index::open(&build_fixture("people-sides", "2026-11-01")).unwrap()
    }

    /// The people with at least `min` deals found from their lists' first
    /// deals, the first `k` of them by count, every kept person's count,
    /// and their page rows, agree with an exact tally, for `min` 1 to 5 and
    /// `k` from 0 to all.
    fn at_least_agrees(
        index: &Index,
        rules: &DealRules,
        (deals, set_of): (&RoaringBitmap, impl Fn() -> Box<dyn DealSet>),
        candidates: &RoaringBitmap,
        exact: &Tally,
    ) {
        let set = set_of();
        let set = set.as_ref();
        for min in 1..=5 {
            let decided = people_reaching(index, rules, set, (candidates, min), None).unwrap();
            let want = exact
                .touched()
                .into_iter()
                .filter(|&p| exact.get(p).deals >= min);
            let want: Vec<u32> = want.filter(|&p| candidates.contains(p)).collect();
            assert_eq!(decided.people.iter().collect::<Vec<_>>(), want, "min {min}");
            assert_eq!(decided.first, None);
            let mut ranked: Vec<(u32, u32)> =
                want.iter().map(|&p| (p, exact.get(p).deals)).collect();
            ranked.sort_by_key(|&(p, n)| (std::cmp::Reverse(n), p));
            for k in [0, 1, 2, 5, 25, ranked.len() + 1] {
                let ranking = (candidates, min);
                let reaching = people_reaching(index, rules, set, ranking, Some(k)).unwrap();
                assert_eq!(reaching.people, decided.people, "min {min}, k {k}");
                let mut first = reaching.first.expect("asked");
                first.sort_by_key(|&(p, n)| (std::cmp::Reverse(n), p));
                assert_eq!(first, &ranked[..k.min(ranked.len())], "min {min}, k {k}");
            }
            let kept = decided.people.clone();
            let counts = PersonCounts::AtLeast {
                set: set_of(),
                reaching: decided,
            };
            assert_eq!(counts.ranked(min, 3), None, "the first were not counted");
            let mut every = counts.counts_of(index, rules, &kept).unwrap();
            every.sort_by_key(|&(p, n)| (std::cmp::Reverse(n), p));
            assert_eq!(every, ranked, "min {min}");
            let page: Vec<u32> = ranked.iter().map(|&(p, _)| p).collect();
            rows_agree(index, rules, (&counts, deals), &page, exact);
        }
    }

    /// The page rows of `page` (deals and leads) agree with an exact tally.
    fn rows_agree(
        index: &Index,
        rules: &DealRules,
        (counts, deals): (&PersonCounts, &RoaringBitmap),
        page: &[u32],
        exact: &Tally,
    ) {
        let rows = counts.page_counts(index, rules, deals, page).unwrap();
        for (&p, row) in page.iter().zip(rows) {
            let walked = exact.get(p);
            let row = (row.deal_count, row.lead_count);
            assert_eq!(row, (walked.deals, walked.leads), "person {p}");
        }
    }

    /// Every candidate's count at once (or a tally of them), the people
    /// kept at each `min`, the first by count and a page's rows agree with
    /// an exact tally.
    fn every_agrees(
        index: &Index,
        rules: &DealRules,
        (deals, all): (&RoaringBitmap, &PersonCounts),
        (candidates, first): (&RoaringBitmap, Option<usize>),
        exact: &Tally,
    ) {
        let want: Vec<(u32, u32)> = docs(candidates)
            .map(|p| (p, exact.get(p).deals))
            .filter(|&(_, n)| n > 0)
            .collect();
        for min in 1..=5 {
            let kept = all.kept(min);
            let mut want: Vec<(u32, u32)> =
                want.iter().copied().filter(|&(_, n)| n >= min).collect();
            assert_eq!(
                kept.iter().collect::<Vec<_>>(),
                want.iter().map(|&(p, _)| p).collect::<Vec<_>>()
            );
            assert_eq!(
                all.counts_of(index, rules, &kept).unwrap(),
                want,
                "min {min}"
            );
            if let Some(k) = first {
                want.sort_by_key(|&(p, n)| (std::cmp::Reverse(n), p));
                want.truncate(k);
                let (reaching, mut ranked) = all.ranked(min, k).expect("the first are counted");
                ranked.sort_by_key(|&(p, n)| (std::cmp::Reverse(n), p));
                assert_eq!(ranked, want, "min {min}, first {first:?}");
                assert_eq!(reaching, kept.len(), "min {min}, ranked");
            }
        }
        let page: Vec<u32> = want.iter().map(|&(p, _)| p).collect();
        rows_agree(index, rules, (all, deals), &page, exact);
    }

    /// Counting from the people side and from the deal side agree, for
    /// every investment type, with and without `only_lead_deals`, on all
    /// deals and on a subset, with all investors or a few as candidates.
    #[test]
    fn both_counting_sides_agree() {
        let index = fixture();
        let all_people = every_doc(index.people.docs);
        let investors: RoaringBitmap = (*index
            .people
            .facet("is_investor")
            .unwrap()
            .docids("true")
            .unwrap()
            .unwrap())
        .clone();
        let few: RoaringBitmap = investors.iter().step_by(2).collect();
        let all_deals = every_doc(index.deals.docs);
        let some_deals: RoaringBitmap = all_deals.iter().filter(|d| d % 3 != 0).collect();
        let n = index.deals.docs as u32;
        let block: RoaringBitmap = (n / 4..n * 3 / 4).collect();
        let spanned: RoaringBitmap = (n / 3..n * 2 / 3).filter(|d| d % 3 != 0).collect();
        for investment_type in [
            InvestmentType::All,
            InvestmentType::Angel,
            InvestmentType::Institutional,
        ] {
            for only_lead_deals in [false, true] {
                let rules = DealRules::of(&PersonDealsFilter {
                    investment_type,
                    only_lead_deals,
                    ..Default::default()
                });
                for deals in [&all_deals, &some_deals, &block, &spanned] {
                    for candidates in [&investors, &few] {
                        let people = count_from_people(&index, &rules, deals, candidates).unwrap();
                        let every = candidates.len() == investors.len();
                        let from_deals =
                            count_from_deals(&index, &rules, deals, (!every).then_some(candidates))
                                .unwrap();
                        for p in &all_people {
                            assert_eq!(
                                people.get(p),
                                from_deals.get(p),
                                "person {p}, {investment_type:?}, only lead {only_lead_deals}"
                            );
                        }
                        assert_eq!(people.touched(), from_deals.touched());
                        let block = block_of(deals);
                        let by = (&rules, EveryBy::Lists);
                        let all = super::every(&index, by, deals, candidates, block.clone());
                        let all = all.unwrap();
                        let only = (!every).then_some(candidates);
                        let direct = count_from_deals(&index, &rules, deals, only).unwrap();
                        let direct = PersonCounts::Exact(PersonTally::Direct(direct));
                        let walked = (deals, block.clone());
                        let walked = walked_from_deals(&index, &rules, walked, only, None);
                        let walked = walked.unwrap();
                        let mut ways = vec![all, direct, walked];
                        if rules.angel && rules.institutional {
                            let walk = (deals, block.clone());
                            let outside = Some(&investors);
                            ways.push(
                                walked_from_deals(&index, &rules, walk, only, outside).unwrap(),
                            );
                        }
                        for first in [None, Some(0), Some(1), Some(5), Some(1000)] {
                            let ranked = (candidates, first);
                            for counts in &ways {
                                every_agrees(&index, &rules, (deals, counts), ranked, &from_deals);
                            }
                        }
                        let n = index.deals.docs as u32;
                        let dense = || Box::new(DenseSet::of(deals, n)) as Box<dyn DealSet>;
                        at_least_agrees(&index, &rules, (deals, dense), candidates, &from_deals);
                        if let Some(block) = block_of(deals) {
                            let block = || Box::new(Block(block.clone())) as Box<dyn DealSet>;
                            at_least_agrees(
                                &index,
                                &rules,
                                (deals, block),
                                candidates,
                                &from_deals,
                            );
                        }
                    }
                }
            }
        }
        assert!(investors.len() > 5, "the fixture has investors to count");
    }

    /// Every candidate's count from the kept rounds' lists of the
    /// people's deals agrees with a tally from the deals' side: every
    /// investment type; one round, two, every round; D all of their
    /// deals, some, a block of them; every investor or some as candidates.
    #[test]
    fn round_lists_agree_with_walking() {
        let index = fixture();
        let facet = index.deals.facet("round").unwrap();
        let values: Vec<String> = (0..facet.len())
            .map(|i| facet.value(i).to_string())
            .collect();
        assert!(values.len() > 3, "rounds to pick from");
        let investors = index.people.facet("is_investor").unwrap();
        let investors = (*investors.docids("true").unwrap().unwrap()).clone();
        let few: RoaringBitmap = investors.iter().step_by(3).collect();
        let n = index.deals.docs as u32;
        let picks = [values[..1].to_vec(), values[1..3].to_vec(), values.clone()];
        for investment_type in [
            InvestmentType::All,
            InvestmentType::Angel,
            InvestmentType::Institutional,
        ] {
            let f = PersonDealsFilter {
                investment_type,
                ..Default::default()
            };
            let rules = DealRules::of(&f);
            for rounds in &picks {
                let superset = Superset::new(ROUND, rounds.clone());
                let b = superset.deals(&index).unwrap();
                let supersets = std::slice::from_ref(&superset);
                if ByRound::of(&index, &rules, supersets).unwrap().is_none() {
                    index.wait_for_derived();
                }
                let by = ByRound::of(&index, &rules, supersets).unwrap();
                let by = by.expect("the lists are derived");
                let sets: [RoaringBitmap; 3] = [
                    b.clone(),
                    b.iter().filter(|d| d % 3 != 0).collect(),
                    b.iter()
                        .filter(|d| (n / 4..n * 3 / 4).contains(d))
                        .collect(),
                ];
                for deals in &sets {
                    for candidates in [&investors, &few] {
                        let only = (candidates.len() < investors.len()).then_some(candidates);
                        let tally = count_from_deals(&index, &rules, deals, only).unwrap();
                        let by = (&rules, EveryBy::Round(&by));
                        let counts = every(&index, by, deals, candidates, block_of(deals));
                        let ranked = (candidates, Some(5));
                        every_agrees(&index, &rules, (deals, &counts.unwrap()), ranked, &tally);
                    }
                }
            }
            let lead = DealRules::of(&PersonDealsFilter {
                only_lead_deals: true,
                ..f
            });
            let supersets = [Superset::new(ROUND, values.clone())];
            assert!(ByRound::of(&index, &lead, &supersets).unwrap().is_none());
        }
    }

    /// The date of a person's first counted deal in D is the latest date of
    /// all their counted deals in D (deal doc ids follow the date), for
    /// every investment type, with and without `only_lead_deals`.
    #[test]
    fn first_counted_deal_is_the_latest() {
        let index = Index::open(&build_fixture("people-latest", "2026-11-01")).unwrap();
        let lists = PersonLists::open(&index).unwrap();
        let (angel, partner) = lists.edges();
        let dates = index.deals.column_i32("date").unwrap();
        let n = index.deals.docs as u32;
        // Sets over every deal, and within narrower spans (a date range's).
        let sets: [RoaringBitmap; 5] = [
            (0..n).collect(),
            (0..n).filter(|d| d % 3 != 0).collect(),
            (0..n).filter(|d| d % 2 == 1).collect(),
            (n / 4..n / 2).collect(),
            (n / 3..n * 2 / 3).filter(|d| d % 2 == 0).collect(),
        ];
        let mut dated = 0;
        for investment_type in [
            InvestmentType::All,
            InvestmentType::Angel,
            InvestmentType::Institutional,
        ] {
            for only_lead_deals in [false, true] {
                let rules = DealRules::of(&PersonDealsFilter {
                    investment_type,
                    only_lead_deals,
                    ..Default::default()
                });
                for d in &sets {
                    for p in 0..index.people.docs as u32 {
                        let mut mine = Vec::new();
                        rules.deals_of(&angel, &partner, p, &mut mine);
                        let naive = mine
                            .iter()
                            .filter(|&&(x, lead)| d.contains(x) && (lead || !rules.only_lead))
                            .filter_map(|&(x, _)| day_of(dates.values(), x))
                            .max();
                        let span = span_of(d).unwrap_or(0..0);
                        let lists = (&angel, &partner);
                        let first = rules.first_counted(lists, p, (&span, |x| d.contains(x)));
                        assert_eq!(
                            first.and_then(|x| day_of(dates.values(), x)),
                            naive,
                            "person {p}"
                        );
                        dated += usize::from(naive.is_some());
                    }
                }
            }
        }
        assert!(dated > 10, "the fixture has dated deals to compare");
    }

    /// The value counts of a superset B of D (some rounds, a lone super
    /// category, one to four industries or locations: counts derived in
    /// memory) less the deals of B outside D (and less their overlaps)
    /// agree with walking D, for every investor or a few, with and without
    /// `only_lead_deals`, counted into a tally or into counters.
    #[test]
    fn value_counts_agree_with_walking() {
        let index = Index::open(&build_fixture("people-rounds", "2026-11-01")).unwrap();
        let investors = index
            .people
            .facet("is_investor")
            .unwrap()
            .docids("true")
            .unwrap()
            .unwrap();
        let few: RoaringBitmap = investors.iter().step_by(2).collect();
        let budget = (&PEOPLE_SIDES, u64::MAX);
        let derived = Superset::overlapping_samples(&index);
        let every_deal = every_doc(index.deals.docs);
        let _ = ValueBase::cheapest(&index, Entities::People, &derived, &every_deal, budget);
        index.wait_for_derived();
        let mut overlapping = 0;
        for superset in Superset::samples(&index).into_iter().chain(derived) {
            let b = superset.deals(&index).unwrap();
            let d: RoaringBitmap = b.iter().filter(|d| d % 3 != 0).collect();
            let supersets = [superset.clone()];
            let base = ValueBase::cheapest(&index, Entities::People, &supersets, &d, budget);
            overlapping += base.unwrap().unwrap().overlaps.len();
            for only_lead_deals in [false, true] {
                let rules = DealRules::of(&PersonDealsFilter {
                    only_lead_deals,
                    ..Default::default()
                });
                for candidates in [investors.as_ref(), &few] {
                    let walked = count_from_deals(&index, &rules, &d, Some(candidates)).unwrap();
                    let base =
                        ValueBase::cheapest(&index, Entities::People, &supersets, &d, budget);
                    let base = base.unwrap().unwrap();
                    let rest = count_from_sets(&index, &rules, base.less(), Some(candidates));
                    let totals = base.totals(rest.unwrap(), 2);
                    let every = investors.is_subset(candidates);
                    let tally = PersonTally::Based {
                        totals,
                        only_lead: only_lead_deals,
                        only: (!every).then(|| candidates.clone()),
                    };
                    for p in candidates {
                        assert_eq!(tally.get(p), walked.get(p), "person {p}, {superset:?}");
                    }
                    for min in 1..=3 {
                        let counts = walked
                            .touched()
                            .into_iter()
                            .map(|p| (p, walked.get(p).deals));
                        let want: Vec<_> = counts.filter(|&(_, n)| n >= min).collect();
                        let counts = tally.counts().into_iter().filter(|&(_, n)| n >= min);
                        let counts: Vec<_> = counts.collect();
                        assert_eq!(counts, want, "min {min}, {superset:?}");
                        let kept: Vec<u32> = keep(&tally.counts(), min).iter().collect();
                        assert_eq!(kept, want.iter().map(|&(p, _)| p).collect::<Vec<_>>());
                    }
                    let only = (!every).then_some(candidates);
                    let counters = based_counters(&index, &rules, (&d, &base), only).unwrap();
                    let PersonCounts::Every { counts, .. } = counters else {
                        panic!("counted into counters");
                    };
                    let want = walked
                        .touched()
                        .into_iter()
                        .map(|p| (p, walked.get(p).deals));
                    assert_eq!(counts, want.collect::<Vec<_>>(), "counters, {superset:?}");
                }
            }
        }
        assert!(overlapping > 0, "no deal of two industries");
    }

    /// A size range's counts read from the counts by size bucket agree
    /// with walking its deals, for every investment type, with and
    /// without `only_lead_deals`, for every investor or a few; a D that
    /// is not every deal of the range has no size base.
    #[test]
    fn size_bases_agree_with_walking() {
        let index = Index::open(&build_fixture("people-sizes", "2026-11-01")).unwrap();
        let investors = index.people.facet("is_investor").unwrap();
        let investors = investors.docids("true").unwrap().unwrap();
        let few: RoaringBitmap = investors.iter().step_by(3).collect();
        let sizes = index.deals.column_i64("size").unwrap();
        let mut sorted: Vec<i64> = sizes.values().iter().copied().filter(|&s| s >= 0).collect();
        sorted.sort_unstable();
        let at = |q: usize| sorted[(sorted.len() - 1) * q / 100];
        let ranges = [
            (at(10) + 1, at(80)),
            (at(50), i64::MAX),
            (i64::MIN + 1, at(30) - 1),
        ];
        let in_range = |(min, max): (i64, i64)| -> RoaringBitmap {
            let kept = sizes.values().iter().enumerate();
            let kept = kept.filter(|&(_, &s)| s != crate::index::column::NULL_I64);
            let kept = kept.filter(|&(_, s)| (min..=max).contains(s));
            kept.map(|(d, _)| d as u32).collect()
        };
        for investment_type in [
            InvestmentType::All,
            InvestmentType::Angel,
            InvestmentType::Institutional,
        ] {
            for only_lead_deals in [false, true] {
                let f = PersonDealsFilter {
                    investment_type,
                    only_lead_deals,
                    ..Default::default()
                };
                let rules = DealRules::of(&f);
                let _ = SizeBase::exact(&index, &rules, &in_range(ranges[0]), ranges[0]);
                index.wait_for_derived();
                for range in ranges {
                    let d = in_range(range);
                    assert!(d.len() > 10, "deals in {range:?}");
                    let base = SizeBase::exact(&index, &rules, &d, range).unwrap();
                    let base = base.expect("a size base once derived");
                    for candidates in [&investors, &few] {
                        let walked =
                            count_from_deals(&index, &rules, &d, Some(candidates)).unwrap();
                        let want = walked
                            .touched()
                            .into_iter()
                            .map(|p| (p, walked.get(p).deals));
                        let only = (!investors.is_subset(candidates)).then_some(candidates);
                        let counts = base.count(&index, &rules, only).unwrap();
                        assert_eq!(
                            counts,
                            want.collect::<Vec<_>>(),
                            "{range:?}, {only_lead_deals}"
                        );
                    }
                    let mut less = d.clone();
                    less.remove(d.max().unwrap());
                    let not_all = SizeBase::exact(&index, &rules, &less, range).unwrap();
                    assert!(not_all.is_none(), "D is not every deal of {range:?}");
                }
            }
        }
    }
}
