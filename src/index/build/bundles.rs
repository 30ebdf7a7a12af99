//! Writes the per-kind index bundles: ids, facets, columns (with sort
//! orders), relations and key maps. Names of every structure are listed in
//! [`crate::index::names`] and documented in `index_schema/README.md`.
//!
//! Each writer counts its docs on the progress counter it is given, in the
//! doc loop (writing the structures after the loop is not counted).

use std::io;

use rayon::prelude::*;
use std::path::Path;

use crate::index::column::{write_column, write_sorted_column, NULL_I32, NULL_I64};
use crate::index::facet::FacetBuilder;
use crate::index::format::{BundleWriter, WrittenFile};
use crate::index::keymap::{write_ids, write_keymap, KeyPairs};
use crate::index::names::*;
use crate::index::payload::{FIRM_LED, PARTICIPANT_ANGEL, PARTICIPANT_LEAD, PARTICIPANT_PARTNER};
use crate::index::relation_builder::{RelationBuilder, UnorderedEdges};
use crate::index::value_counts::ValueCountsBuilder;
use crate::ingest::derive::{Derived, PersonAgg};
use crate::ingest::facts::{Employer, Facts, PersonFacts, Places};
use crate::progress::Counter;
use crate::schema::ids::fold_text;
use crate::schema::{Date, Headcount, IpoStatus, PersonRole, RoundType, Timestamp};

use super::order::Orders;

/// Everything a bundle writer reads.
pub struct Inputs<'a> {
    pub facts: &'a Facts,
    pub derived: &'a Derived,
    pub orders: &'a Orders,
}

fn money(v: Option<f64>) -> i64 {
    v.map_or(NULL_I64, |v| v.round() as i64)
}

fn day(d: Option<Date>) -> i32 {
    d.map_or(NULL_I32, |d| d.0)
}

fn instant(t: Option<Timestamp>) -> i64 {
    t.map_or(NULL_I64, |t| t.0)
}

/// Location rows of the given slots and all their ancestors, distinct.
fn place_closure(places: &Places, facts: &Facts) -> Vec<u32> {
    let mut all = Vec::new();
    for &loc in places.iter().flatten() {
        for &a in &facts.catalog.location_ancestors[loc as usize] {
            if !all.contains(&a) {
                all.push(a);
            }
        }
    }
    all
}

/// Industry rows plus their super categories, distinct.
fn industry_closure(industries: &[u32], facts: &Facts) -> (Vec<u32>, Vec<u32>) {
    let mut supers = Vec::new();
    for &i in industries {
        for &s in &facts.catalog.industry_supers[i as usize] {
            if !supers.contains(&s) {
                supers.push(s);
            }
        }
    }
    (industries.to_vec(), supers)
}

/// Rank of each doc by accent-folded, lowercased name (ties by doc id).
/// The folded names are kept end to end in chunks of [`RANK_CHUNK`] docs,
/// and the doc ids sorted by them: about 12 bytes a doc beside the names.
fn name_ranks(docs: usize, name_of_doc: impl Fn(u32) -> Box<str> + Sync) -> Vec<i32> {
    let starts: Vec<u32> = (0..docs as u32).step_by(RANK_CHUNK).collect();
    let chunks: Vec<FoldedNames> = starts
        .into_par_iter()
        .map(|start| {
            FoldedNames::of(
                start..(start + RANK_CHUNK as u32).min(docs as u32),
                &name_of_doc,
            )
        })
        .collect();
    let name = |d: u32| chunks[d as usize / RANK_CHUNK].name(d as usize % RANK_CHUNK);
    let mut order: Vec<u32> = (0..docs as u32).collect();
    order.par_sort_unstable_by(|&a, &b| name(a).cmp(name(b)).then(a.cmp(&b)));
    let mut rank = vec![0i32; docs];
    for (r, &d) in order.iter().enumerate() {
        rank[d as usize] = r as i32;
    }
    rank
}

/// Docs whose folded names `name_ranks` keeps together.
const RANK_CHUNK: usize = 1 << 16;

/// The folded names of consecutive docs, end to end.
struct FoldedNames {
    bytes: Vec<u8>,
    ends: Vec<u32>,
}

impl FoldedNames {
    fn of(docs: std::ops::Range<u32>, name_of_doc: &impl Fn(u32) -> Box<str>) -> FoldedNames {
        let mut out = FoldedNames {
            bytes: Vec::new(),
            ends: Vec::with_capacity(docs.len()),
        };
        for d in docs {
            out.bytes
                .extend_from_slice(fold_text(&name_of_doc(d)).as_bytes());
            out.ends.push(out.bytes.len() as u32);
        }
        out
    }

    /// The name of the `i`-th doc of the chunk.
    fn name(&self, i: usize) -> &[u8] {
        let start = i.checked_sub(1).map_or(0, |p| self.ends[p] as usize);
        &self.bytes[start..self.ends[i] as usize]
    }
}

fn declare_all(facet: &mut FacetBuilder, values: impl Iterator<Item = &'static str>) {
    values.for_each(|v| facet.declare(v));
}

pub fn write_companies(path: &Path, inp: &Inputs, counter: &Counter) -> io::Result<WrittenFile> {
    let (facts, derived, orders) = (inp.facts, inp.derived, inp.orders);
    let order = &orders.companies;
    let n = order.len();
    let mut out = BundleWriter::create(path, COMPANY_TAG)?;
    let dir = &out.dir().to_path_buf();
    write_ids(
        &mut out,
        order.row_of_doc.iter().map(|&r| facts.companies.id(r)),
    )?;

    let mut company_facets = CompanyFacets::new(dir);
    let mut latest_facets = LatestDealFacets::new(dir);
    let (mut total_raised, mut latest_size, mut latest_created, mut valuation) = (
        vec![NULL_I64; n],
        vec![NULL_I64; n],
        vec![NULL_I64; n],
        vec![NULL_I64; n],
    );
    let (mut latest_date, mut founded, mut rounds, mut investors, mut latest_deal) = (
        vec![NULL_I32; n],
        vec![NULL_I32; n],
        vec![0i32; n],
        vec![0i32; n],
        vec![NULL_I32; n],
    );
    let mut company_deals = RelationBuilder::new_in(dir, n, false)?;
    let mut company_firms = RelationBuilder::new_in(dir, n, false)?;
    let mut company_investor_people = RelationBuilder::new_in(dir, n, false)?;
    let [mut domains, mut linkedins, mut crunchbases, mut permalinks]: [KeyPairs; 4] =
        std::array::from_fn(|_| KeyPairs::new_in(dir));

    let mut tally = counter.tally();
    for doc in 0..n as u32 {
        tally.inc();
        let row = order.row(doc);
        let c = &facts.companies.get(row);
        let agg = &derived.companies.get(row);
        let d = doc as usize;
        company_facets.add(facts, c, doc);
        total_raised[d] = money(agg.total_raised);
        valuation[d] = money(agg.latest_valuation.map(|v| v.0));
        founded[d] = day(c.founded_on);
        rounds[d] = agg.deals.len() as i32;
        investors[d] = agg.num_investors as i32;
        if let Some(l) = agg.latest_deal() {
            let deal = &facts.deals.get(l);
            latest_facets.add(facts, deal, doc);
            latest_size[d] = money(deal.size);
            latest_date[d] = day(deal.date);
            latest_created[d] = instant(deal.created_at);
            latest_deal[d] = orders.deals.doc(l) as i32;
        }
        agg.deals
            .iter()
            .for_each(|&r| company_deals.add(doc, orders.deals.doc(r), 0));
        agg.all_investors
            .iter()
            .for_each(|&f| company_firms.add(doc, orders.firms.doc(f), 0));
        agg.investor_people
            .iter()
            .for_each(|&p| company_investor_people.add(doc, orders.people.doc(p), 0));
        c.domain_key.iter().for_each(|k| domains.push(k, doc));
        c.linkedin_key.iter().for_each(|k| linkedins.push(k, doc));
        c.crunchbase_key
            .iter()
            .for_each(|k| crunchbases.push(k, doc));
        permalinks.push(&c.permalink, doc);
    }
    drop(tally);
    company_facets.write(&mut out, "")?;
    latest_facets.write(&mut out, "")?;
    write_sorted_column(&mut out, "total_raised", &total_raised)?;
    write_sorted_column(&mut out, "latest_deal_size", &latest_size)?;
    write_sorted_column(&mut out, "latest_deal_created_at", &latest_created)?;
    write_sorted_column(&mut out, "latest_valuation", &valuation)?;
    write_sorted_column(&mut out, "latest_deal_date", &latest_date)?;
    write_sorted_column(&mut out, "founded_on", &founded)?;
    write_sorted_column(&mut out, "num_funding_rounds", &rounds)?;
    write_sorted_column(&mut out, "num_investors", &investors)?;
    write_column(&mut out, "latest_deal", &latest_deal)?;
    let ranks = name_ranks(n, |d| facts.companies.get(order.row(d)).name);
    write_sorted_column(&mut out, "name_rank", &ranks)?;
    company_deals.write(&mut out, "deals")?;
    company_firms.write(&mut out, "firms")?;
    company_investor_people.write(&mut out, "investor_people")?;
    write_employer_people(&mut out, inp)?;
    write_keymap(&mut out, "domain", domains)?;
    write_keymap(&mut out, "linkedin", linkedins)?;
    write_keymap(&mut out, "crunchbase", crunchbases)?;
    write_keymap(&mut out, "permalink", permalinks)?;
    out.finish()
}

/// Company → people whose current employer it is: found from the
/// people's side, so sorted on disk.
fn write_employer_people(out: &mut BundleWriter, inp: &Inputs) -> io::Result<()> {
    let dir = &out.dir().to_path_buf();
    let orders = inp.orders;
    let mut rel = UnorderedEdges::new_in(dir, orders.companies.len());
    for (row, p) in inp.facts.people.iter().enumerate() {
        if let Some(Employer::Company(c)) = p.employer {
            rel.add(orders.companies.doc(c), orders.people.doc(row as u32))?;
        }
    }
    rel.write(dir, out, "people")
}

/// Every person of a deal (as angel, as partner of a firm) with their
/// flags OR'ed, one entry per person.
fn participant_flags(deal: &crate::ingest::facts::DealFacts) -> Vec<(u32, u8)> {
    let mut all: Vec<(u32, u8)> = deal
        .angels
        .iter()
        .map(|&(p, _)| (p, PARTICIPANT_ANGEL))
        .collect();
    for f in &deal.firms {
        let flags = PARTICIPANT_PARTNER | if f.lead { PARTICIPANT_LEAD } else { 0 };
        all.extend(f.partners.iter().map(|&p| (p, flags)));
    }
    all.sort_unstable();
    let mut merged: Vec<(u32, u8)> = Vec::with_capacity(all.len());
    for (p, flags) in all {
        match merged.last_mut() {
            Some(last) if last.0 == p => last.1 |= flags,
            _ => merged.push((p, flags)),
        }
    }
    merged
}

/// Payload of a `deal.firms` edge: bit 7 = lead, low bits = financing type + 1 (0 = none).
pub fn firm_edge_payload(lead: bool, financing: Option<RoundType>) -> u8 {
    (if lead { FIRM_LED } else { 0 }) | financing_code(financing)
}

/// Financing type as a byte: its position in `RoundType::ALL` plus one, 0 for none.
pub fn financing_code(t: Option<RoundType>) -> u8 {
    t.and_then(|t| RoundType::ALL.iter().position(|x| *x == t))
        .map_or(0, |i| i as u8 + 1)
}

pub fn write_deals(path: &Path, inp: &Inputs, counter: &Counter) -> io::Result<WrittenFile> {
    let (facts, orders) = (inp.facts, inp.orders);
    let order = &orders.deals;
    let n = order.len();
    let mut out = BundleWriter::create(path, DEAL_TAG)?;
    let dir = &out.dir().to_path_buf();
    write_ids(
        &mut out,
        order.row_of_doc.iter().map(|&r| facts.deals.id(r)),
    )?;
    let mut round = FacetBuilder::new_in(dir);
    let mut company_facets = CompanyFacets::new(dir);
    let (mut size, mut created, mut company_raised) =
        (vec![NULL_I64; n], vec![NULL_I64; n], vec![NULL_I64; n]);
    let (mut date, mut company) = (vec![NULL_I32; n], vec![NULL_I32; n]);
    let mut firms = RelationBuilder::new_in(dir, n, true)?;
    let mut angels = RelationBuilder::new_in(dir, n, true)?;
    let mut partners = RelationBuilder::new_in(dir, n, true)?;
    let mut participants = RelationBuilder::new_in(dir, n, true)?;
    let mut round_counts = RoundCounts::default();
    let mut tally = counter.tally();
    for doc in 0..n as u32 {
        tally.inc();
        let deal = &facts.deals.get(order.row(doc));
        let c = &facts.companies.get(deal.company);
        let d = doc as usize;
        round.add(&deal.round.facet_value(), doc);
        round_counts.add(inp, deal);
        company_facets.add(facts, c, doc);
        size[d] = money(deal.size);
        created[d] = instant(deal.created_at);
        date[d] = day(deal.date);
        company[d] = orders.companies.doc(deal.company) as i32;
        company_raised[d] = money(inp.derived.companies.get(deal.company).total_raised);
        let mut firm_docs: Vec<u32> = deal
            .firms
            .iter()
            .map(|f| orders.firms.doc(f.firm))
            .collect();
        firm_docs.sort_unstable();
        for f in &deal.firms {
            let firm_doc = orders.firms.doc(f.firm);
            firms.add(doc, firm_doc, firm_edge_payload(f.lead, f.financing_type));
            let slot = firm_docs
                .iter()
                .position(|&x| x == firm_doc)
                .unwrap_or(0)
                .min(255) as u8;
            f.partners
                .iter()
                .for_each(|&p| partners.add(doc, orders.people.doc(p), slot));
        }
        deal.angels
            .iter()
            .for_each(|&(p, ft)| angels.add(doc, orders.people.doc(p), financing_code(ft)));
        for (person, flags) in participant_flags(deal) {
            participants.add(doc, orders.people.doc(person), flags);
        }
    }
    drop(tally);
    round.write(&mut out, "round")?;
    company_facets.write(&mut out, "company_")?;
    write_sorted_column(&mut out, "size", &size)?;
    write_sorted_column(&mut out, "date", &date)?;
    write_sorted_column(&mut out, "created_at", &created)?;
    write_column(&mut out, "company", &company)?;
    write_sorted_column(&mut out, "company_total_raised", &company_raised)?;
    firms.write(&mut out, "firms")?;
    angels.write(&mut out, "angels")?;
    partners.write(&mut out, "partners")?;
    participants.write(&mut out, "participants")?;
    round_counts.write(&mut out)?;
    out.finish()
}

/// Each firm's and each person's deals per round (`counts.round_firms`,
/// `counts.round_people`): one count per edge of `deals.firms` (a firm
/// named twice in a deal counts once, its first lead flag kept, as the
/// relation keeps it) and of `deals.participants` (flags merged per person).
#[derive(Default)]
struct RoundCounts {
    firms: ValueCountsBuilder,
    people: ValueCountsBuilder,
}

impl RoundCounts {
    fn add(&mut self, inp: &Inputs, deal: &crate::ingest::facts::DealFacts) {
        let round = deal.round.facet_value();
        let mut seen: Vec<u32> = Vec::with_capacity(deal.firms.len());
        for f in &deal.firms {
            let firm = inp.orders.firms.doc(f.firm);
            if !seen.contains(&firm) {
                seen.push(firm);
                self.firms.add(&round, firm, f.lead);
            }
        }
        for (person, flags) in participant_flags(deal) {
            let person = inp.orders.people.doc(person);
            self.people
                .add(&round, person, flags & PARTICIPANT_LEAD != 0);
        }
    }

    fn write(self, out: &mut BundleWriter) -> io::Result<()> {
        self.firms.write(out, "round_firms")?;
        self.people.write(out, "round_people")
    }
}

/// A company's location (every level and ancestor), industry, super
/// category, headcount and ipo facets: on companies themselves and, with
/// the `company_` prefix, on their deals.
struct CompanyFacets {
    location: FacetBuilder,
    industry: FacetBuilder,
    super_category: FacetBuilder,
    headcount: FacetBuilder,
    ipo: FacetBuilder,
}

impl CompanyFacets {
    fn new(dir: &Path) -> CompanyFacets {
        let mut facets = CompanyFacets {
            location: FacetBuilder::new_in(dir),
            industry: FacetBuilder::new_in(dir),
            super_category: FacetBuilder::new_in(dir),
            headcount: FacetBuilder::new_in(dir),
            ipo: FacetBuilder::new_in(dir),
        };
        declare_all(
            &mut facets.headcount,
            Headcount::ALL.iter().map(|h| h.as_str()),
        );
        declare_all(&mut facets.ipo, IpoStatus::ALL.iter().map(|h| h.as_str()));
        facets
    }

    fn add(&mut self, facts: &Facts, c: &crate::ingest::facts::CompanyFacts, doc: u32) {
        for l in place_closure(&c.places, facts) {
            self.location
                .add(&facts.catalog.locations[l as usize].permalink, doc);
        }
        let (inds, supers) = industry_closure(&c.industries, facts);
        inds.iter().for_each(|&i| {
            self.industry
                .add(&facts.catalog.industries[i as usize].permalink, doc)
        });
        supers.iter().for_each(|&i| {
            self.super_category
                .add(&facts.catalog.industries[i as usize].permalink, doc)
        });
        if let Some(h) = c.headcount {
            self.headcount.add(h.as_str(), doc);
        }
        if let Some(s) = c.ipo_status {
            self.ipo.add(s.as_str(), doc);
        }
    }

    fn write(self, out: &mut BundleWriter, prefix: &str) -> io::Result<()> {
        self.location.write(out, &format!("{prefix}location"))?;
        self.industry.write(out, &format!("{prefix}industry"))?;
        self.super_category
            .write(out, &format!("{prefix}super_category"))?;
        self.headcount
            .write(out, &format!("{prefix}employee_count"))?;
        self.ipo.write(out, &format!("{prefix}ipo_status"))
    }
}

/// A company's latest deal's round and its firms' locations (every level
/// and ancestor): on companies and, with the `employer_` prefix, on the
/// people they employ.
struct LatestDealFacets {
    round: FacetBuilder,
    investor_location: FacetBuilder,
}

impl LatestDealFacets {
    fn new(dir: &Path) -> LatestDealFacets {
        LatestDealFacets {
            round: FacetBuilder::new_in(dir),
            investor_location: FacetBuilder::new_in(dir),
        }
    }

    fn add(&mut self, facts: &Facts, deal: &crate::ingest::facts::DealFacts, doc: u32) {
        self.round.add(&deal.round.facet_value(), doc);
        for f in &deal.firms {
            let places = &facts.firms.get(f.firm).places;
            place_closure(places, facts).iter().for_each(|&l| {
                self.investor_location
                    .add(&facts.catalog.locations[l as usize].permalink, doc)
            });
        }
    }

    fn write(self, out: &mut BundleWriter, prefix: &str) -> io::Result<()> {
        self.round.write(out, &format!("{prefix}latest_round"))?;
        self.investor_location
            .write(out, &format!("{prefix}latest_investor_location"))
    }
}

/// The employer company's fields on people (`employer_` facets and
/// columns), so that a `/people` `company` block is a people plan and not
/// a join through every matching company's staff.
struct EmployerFields {
    kind: FacetBuilder,
    company: CompanyFacets,
    latest: LatestDealFacets,
    total_raised: Vec<i64>,
    latest_size: Vec<i64>,
    latest_date: Vec<i32>,
    latest_created: Vec<i64>,
}

impl EmployerFields {
    fn new(dir: &Path, docs: usize) -> EmployerFields {
        let mut kind = FacetBuilder::new_in(dir);
        declare_all(&mut kind, ["company", "firm"].into_iter());
        EmployerFields {
            kind,
            company: CompanyFacets::new(dir),
            latest: LatestDealFacets::new(dir),
            total_raised: vec![NULL_I64; docs],
            latest_size: vec![NULL_I64; docs],
            latest_date: vec![NULL_I32; docs],
            latest_created: vec![NULL_I64; docs],
        }
    }

    /// Person `doc` works for company row `c`.
    fn add(&mut self, inp: &Inputs, c: u32, doc: u32) {
        let (facts, d) = (inp.facts, doc as usize);
        let agg = &inp.derived.companies.get(c);
        self.kind.add("company", doc);
        self.company.add(facts, &facts.companies.get(c), doc);
        self.total_raised[d] = money(agg.total_raised);
        if let Some(l) = agg.latest_deal() {
            let deal = &facts.deals.get(l);
            self.latest.add(facts, deal, doc);
            self.latest_size[d] = money(deal.size);
            self.latest_date[d] = day(deal.date);
            self.latest_created[d] = instant(deal.created_at);
        }
    }

    fn write(self, out: &mut BundleWriter) -> io::Result<()> {
        self.kind.write(out, "employer_kind")?;
        self.company.write(out, "employer_")?;
        self.latest.write(out, "employer_")?;
        write_sorted_column(out, "employer_total_raised", &self.total_raised)?;
        write_sorted_column(out, "employer_latest_deal_size", &self.latest_size)?;
        write_sorted_column(out, "employer_latest_deal_date", &self.latest_date)?;
        write_sorted_column(out, "employer_latest_deal_created_at", &self.latest_created)
    }
}

/// The sortable investor-activity columns shared by firms and people.
struct StatColumns {
    counts: [Vec<i32>; 4],
    most_recent: Vec<i32>,
}

impl StatColumns {
    const COUNT_NAMES: [&'static str; 4] = [
        "total_deal_count",
        "lead_deal_count",
        "deal_count_last_12_months",
        "lead_deal_count_last_12_months",
    ];

    fn new(docs: usize) -> StatColumns {
        StatColumns {
            counts: std::array::from_fn(|_| vec![0; docs]),
            most_recent: vec![NULL_I32; docs],
        }
    }

    fn set(&mut self, doc: usize, s: &crate::ingest::derive::InvestorStats) {
        let values = [
            s.total_deal_count,
            s.lead_deal_count,
            s.deal_count_last_12_months,
            s.lead_deal_count_last_12_months,
        ];
        for (column, value) in self.counts.iter_mut().zip(values) {
            column[doc] = value as i32;
        }
        self.most_recent[doc] = day(s.most_recent_deal_date);
    }

    fn write(&self, out: &mut BundleWriter) -> io::Result<()> {
        for (name, values) in Self::COUNT_NAMES.iter().zip(&self.counts) {
            write_sorted_column(out, name, values)?;
        }
        write_sorted_column(out, "most_recent_deal_date", &self.most_recent)
    }
}

pub fn write_firms(path: &Path, inp: &Inputs, counter: &Counter) -> io::Result<WrittenFile> {
    let (facts, derived, orders) = (inp.facts, inp.derived, inp.orders);
    let order = &orders.firms;
    let n = order.len();
    let mut out = BundleWriter::create(path, FIRM_TAG)?;
    let dir = &out.dir().to_path_buf();
    write_ids(
        &mut out,
        order.row_of_doc.iter().map(|&r| facts.firms.id(r)),
    )?;
    let (mut location, mut headcount) = (FacetBuilder::new_in(dir), FacetBuilder::new_in(dir));
    let mut stats = StatColumns::new(n);
    let mut deals = RelationBuilder::new_in(dir, n, true)?;
    let mut people = RelationBuilder::new_in(dir, n, false)?;
    let [mut domains, mut linkedins, mut crunchbases, mut permalinks]: [KeyPairs; 4] =
        std::array::from_fn(|_| KeyPairs::new_in(dir));
    let mut tally = counter.tally();
    for doc in 0..n as u32 {
        tally.inc();
        let row = order.row(doc);
        let (f, agg) = (&facts.firms.get(row), &derived.firms.get(row));
        let d = doc as usize;
        place_closure(&f.places, facts)
            .iter()
            .for_each(|&l| location.add(&facts.catalog.locations[l as usize].permalink, doc));
        if let Some(h) = f.headcount {
            headcount.add(h.as_str(), doc);
        }
        let s = &agg.stats;
        stats.set(d, s);
        agg.deals
            .iter()
            .for_each(|&(r, lead)| deals.add(doc, orders.deals.doc(r), lead as u8));
        agg.partners
            .iter()
            .for_each(|&p| people.add(doc, orders.people.doc(p), 0));
        f.domain_key.iter().for_each(|k| domains.push(k, doc));
        f.linkedin_key.iter().for_each(|k| linkedins.push(k, doc));
        f.crunchbase_key
            .iter()
            .for_each(|k| crunchbases.push(k, doc));
        permalinks.push(&f.permalink, doc);
    }
    drop(tally);
    declare_all(&mut headcount, Headcount::ALL.iter().map(|h| h.as_str()));
    location.write(&mut out, "location")?;
    headcount.write(&mut out, "employee_count")?;
    stats.write(&mut out)?;
    deals.write(&mut out, "deals")?;
    people.write(&mut out, "people")?;
    write_keymap(&mut out, "domain", domains)?;
    write_keymap(&mut out, "linkedin", linkedins)?;
    write_keymap(&mut out, "crunchbase", crunchbases)?;
    write_keymap(&mut out, "permalink", permalinks)?;
    out.finish()
}

/// Passes `write_people` makes over the people, each counted on its
/// progress counter.
pub const PERSON_PASSES: usize = 6;

/// The people bundle, written in passes over the people (facets, columns,
/// relations, then each key map), each pass's structures written and
/// dropped before the next pass: the people are the largest kind, and the
/// writer holds one pass's structures at a time, not all of them.
pub fn write_people(path: &Path, inp: &Inputs, counter: &Counter) -> io::Result<WrittenFile> {
    let (facts, order) = (inp.facts, &inp.orders.people);
    let mut out = BundleWriter::create(path, PERSON_TAG)?;
    write_ids(
        &mut out,
        order.row_of_doc.iter().map(|&r| facts.people.id(r)),
    )?;
    write_person_facets(&mut out, inp, counter)?;
    write_person_columns(&mut out, inp, counter)?;
    write_person_relations(&mut out, inp, counter)?;
    write_person_keys(&mut out, inp, counter)?;
    let ranks = name_ranks(order.len(), |d| facts.people.get(order.row(d)).name);
    write_sorted_column(&mut out, "name_rank", &ranks)?;
    out.finish()
}

/// Calls `f` with every person's doc id, facts and aggregate, in doc
/// order, counting them on `counter`.
fn each_person(inp: &Inputs, counter: &Counter, mut f: impl FnMut(u32, &PersonFacts, &PersonAgg)) {
    let order = &inp.orders.people;
    let mut tally = counter.tally();
    for doc in 0..order.len() as u32 {
        tally.inc();
        let row = order.row(doc);
        f(
            doc,
            &inp.facts.people.get(row),
            &inp.derived.people.get(row),
        );
    }
}

const PERSON_FACETS: [&str; 10] = [
    "role",
    "contact_type",
    "job_title",
    "school",
    "linkedin_company",
    "is_investor",
    "is_angel",
    "has_led_deal",
    "has_employer",
    "person_type",
];

fn write_person_facets(out: &mut BundleWriter, inp: &Inputs, counter: &Counter) -> io::Result<()> {
    let dir = &out.dir().to_path_buf();
    let mut f: [FacetBuilder; 10] = std::array::from_fn(|_| FacetBuilder::new_in(dir));
    declare_all(&mut f[0], PersonRole::ALL.iter().map(|r| r.as_str()));
    declare_all(
        &mut f[1],
        ["linkedin", "email", "phone", "twitter"].into_iter(),
    );
    each_person(inp, counter, |doc, p, agg| {
        p.roles.iter().for_each(|r| f[0].add(r.as_str(), doc));
        p.contacts.iter().for_each(|c| f[1].add(c.as_str(), doc));
        p.job_title.iter().for_each(|t| f[2].add(t, doc));
        p.schools.iter().for_each(|s| f[3].add(s, doc));
        p.linkedin_companies.iter().for_each(|c| f[4].add(c, doc));
        let flags = [
            (5, agg.is_investor()),
            (6, agg.is_angel()),
            (7, agg.has_led_deal()),
            (8, p.employer.is_some()),
        ];
        flags
            .iter()
            .filter(|(_, on)| *on)
            .for_each(|&(i, _)| f[i].add("true", doc));
        let kind = if agg.is_investor() {
            "investor"
        } else {
            "company"
        };
        f[9].add(kind, doc);
    });
    for (facet, name) in f.into_iter().zip(PERSON_FACETS) {
        facet.write(out, name)?;
    }
    Ok(())
}

/// Investor activity and employer columns (and the employer's facets).
fn write_person_columns(out: &mut BundleWriter, inp: &Inputs, counter: &Counter) -> io::Result<()> {
    let dir = &out.dir().to_path_buf();
    let (orders, n) = (inp.orders, inp.orders.people.len());
    let mut stats = StatColumns::new(n);
    let (mut employer, mut employer_firm) = (vec![NULL_I32; n], vec![NULL_I32; n]);
    let mut employer_fields = EmployerFields::new(dir, n);
    each_person(inp, counter, |doc, p, agg| {
        let d = doc as usize;
        stats.set(d, &agg.stats);
        match p.employer {
            Some(Employer::Company(c)) => {
                employer[d] = orders.companies.doc(c) as i32;
                employer_fields.add(inp, c, doc);
            }
            Some(Employer::Firm(fi)) => {
                employer_fields.kind.add("firm", doc);
                employer_firm[d] = orders.firms.doc(fi) as i32;
            }
            None => {}
        }
    });
    stats.write(out)?;
    write_column(out, "employer", &employer)?;
    write_column(out, "employer_firm", &employer_firm)?;
    employer_fields.write(out)
}

/// Deals as an angel, deals as a partner (payload: led), and firms (the
/// employer firm and the firms invested through).
fn write_person_relations(
    out: &mut BundleWriter,
    inp: &Inputs,
    counter: &Counter,
) -> io::Result<()> {
    let (orders, n) = (inp.orders, inp.orders.people.len());
    let dir = &out.dir().to_path_buf();
    let mut angel_deals = RelationBuilder::new_in(dir, n, false)?;
    let mut partner_deals = RelationBuilder::new_in(dir, n, true)?;
    let mut firms = RelationBuilder::new_in(dir, n, false)?;
    each_person(inp, counter, |doc, p, agg| {
        if let Some(Employer::Firm(fi)) = p.employer {
            firms.add(doc, orders.firms.doc(fi), 0);
        }
        agg.angel_deals
            .iter()
            .for_each(|&r| angel_deals.add(doc, orders.deals.doc(r), 0));
        agg.partner_deals
            .iter()
            .for_each(|&(r, _, lead)| partner_deals.add(doc, orders.deals.doc(r), lead as u8));
        agg.firms
            .iter()
            .for_each(|pf| firms.add(doc, orders.firms.doc(pf.firm), 0));
    });
    angel_deals.write(out, "angel_deals")?;
    partner_deals.write(out, "partner_deals")?;
    firms.write(out, "firms")
}

/// The key maps of LinkedIn, Crunchbase and Twitter keys, one pass each.
fn write_person_keys(out: &mut BundleWriter, inp: &Inputs, counter: &Counter) -> io::Result<()> {
    type KeyOf = fn(&PersonFacts) -> Option<&str>;
    let maps: [(&str, KeyOf); 3] = [
        ("linkedin", |p| p.linkedin_key.as_deref()),
        ("crunchbase", |p| p.crunchbase_key.as_deref()),
        ("twitter", |p| p.twitter_key.as_deref()),
    ];
    for (name, key_of) in maps {
        let mut keys = KeyPairs::new_in(&out.dir().to_path_buf());
        each_person(inp, counter, |doc, p, _| {
            key_of(p).iter().for_each(|k| keys.push(k, doc));
        });
        write_keymap(out, name, keys)?;
    }
    Ok(())
}

/// Locations and industries: doc id = catalog row.
pub fn write_catalog(path: &Path, facts: &Facts, counter: &Counter) -> io::Result<WrittenFile> {
    let catalog = &facts.catalog;
    let mut out = BundleWriter::create(path, CATALOG_TAG)?;
    let dir = &out.dir().to_path_buf();
    let mut location_type = FacetBuilder::new_in(dir);
    let mut location_descendants = FacetBuilder::new_in(dir);
    for (row, loc) in catalog.locations.iter().enumerate() {
        location_type.add(loc.location_type.as_str(), row as u32);
        for &a in &catalog.location_ancestors[row] {
            location_descendants.add(&catalog.locations[a as usize].permalink, row as u32);
        }
    }
    counter.inc(catalog.locations.len() as u64);
    let mut industry_type = FacetBuilder::new_in(dir);
    let mut super_members = FacetBuilder::new_in(dir);
    for (row, ind) in catalog.industries.iter().enumerate() {
        industry_type.add(ind.industry_type.as_str(), row as u32);
        super_members.add(&ind.permalink, row as u32);
        for &s in &catalog.industry_supers[row] {
            super_members.add(&catalog.industries[s as usize].permalink, row as u32);
        }
    }
    counter.inc(catalog.industries.len() as u64);
    location_type.write(&mut out, "location_type")?;
    location_descendants.write(&mut out, "location_within")?;
    industry_type.write(&mut out, "industry_type")?;
    super_members.write(&mut out, "industry_within")?;
    let loc_keys = KeyPairs::from_pairs(
        dir,
        (catalog.locations.iter().enumerate()).map(|(i, l)| (&l.permalink, i as u32)),
    );
    let ind_keys = KeyPairs::from_pairs(
        dir,
        (catalog.industries.iter().enumerate()).map(|(i, l)| (&l.permalink, i as u32)),
    );
    write_keymap(&mut out, "location_permalink", loc_keys)?;
    write_keymap(&mut out, "industry_permalink", ind_keys)?;
    out.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ranks by sorting (folded name, doc id) pairs, as strings.
    fn naive_ranks(names: &[String]) -> Vec<i32> {
        let mut keyed: Vec<(String, u32)> = (0..names.len() as u32)
            .map(|d| (fold_text(&names[d as usize]), d))
            .collect();
        keyed.sort();
        let mut rank = vec![0; names.len()];
        keyed
            .iter()
            .enumerate()
            .for_each(|(r, (_, d))| rank[*d as usize] = r as i32);
        rank
    }

    #[test]
    fn name_ranks_sort_folded_names_then_doc_ids_across_chunks() {
        let words = [
            "Émile",
            "emile",
            "",
            "Zed",
            "zed co",
            "Ærø",
            "a",
            "Ångström",
            "ab",
        ];
        let names: Vec<String> = (0..RANK_CHUNK + 4_000)
            .map(|d| format!("{}{}", words[d * 7 % words.len()], d % 13))
            .chain(["", "Émile", "a"].map(String::from))
            .collect();
        let ranks = name_ranks(names.len(), |d| names[d as usize].clone().into());
        assert_eq!(ranks, naive_ranks(&names));
    }
}
