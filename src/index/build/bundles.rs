//! Writes the per-kind index bundles: ids, facets, columns (with sort
//! orders), relations and key maps. Names of every structure are listed in
//! [`crate::index::names`] and documented in `index_schema/README.md`.
//!
//! Each writer counts its docs on the progress counter it is given, in the
//! doc loop (writing the structures after the loop is not counted).

use std::io;

use rayon::prelude::*;
use std::path::Path;

use crate::index::column::{write_sorted_column, ColumnBuilder, ColumnValue, NULL_I32, NULL_I64};
use crate::index::facet::FacetBuilder;
use crate::index::format::{BundleWriter, WrittenFile};
use crate::index::keymap::{write_ids, write_keymap, KeyPairs};
use crate::index::names::*;
use crate::index::payload::{FIRM_LED, PARTICIPANT_ANGEL, PARTICIPANT_LEAD, PARTICIPANT_PARTNER};
use crate::index::relation_builder::{RelationBuilder, UnorderedEdges};
use crate::index::scratch;
use crate::index::store::StoreCodec;
use crate::index::value_counts::{ValueCountsBuilder, ROUND, SUPER_CATEGORY};
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
    /// How the record stores keep their records.
    pub store_codec: StoreCodec,
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
/// The names are folded in parallel, [`RANK_CHUNK`] docs at a time, and
/// sorted on disk (a [`scratch::DocsByKey`] keyed by the folded name, chunks beside
/// the bundle): the ranks' 4 bytes a doc are what grows with the docs.
fn name_ranks(
    dir: &Path,
    docs: usize,
    name_of_doc: impl Fn(u32) -> Box<str> + Sync,
) -> io::Result<Vec<i32>> {
    let mut by_name = scratch::docs_by_key(dir, RANK_SORT_BYTES);
    for start in (0..docs as u32).step_by(RANK_CHUNK) {
        let end = (start + RANK_CHUNK as u32).min(docs as u32);
        let folded: Vec<String> = (start..end)
            .into_par_iter()
            .map(|d| fold_text(&name_of_doc(d)))
            .collect();
        for (doc, name) in (start..).zip(&folded) {
            by_name
                .insert(name, doc.to_le_bytes())
                .map_err(scratch::io_error)?;
        }
    }
    let mut rank = vec![0i32; docs];
    let (mut next, mut same_name) = (0, Vec::new());
    let mut merged = by_name
        .into_stream_merger_iter()
        .map_err(scratch::io_error)?;
    while let Some((_, raw)) = merged.next().map_err(scratch::io_error)? {
        scratch::sorted_docs(raw, &mut same_name);
        for &doc in &same_name {
            rank[doc as usize] = next;
            next += 1;
        }
    }
    Ok(rank)
}

/// Docs whose names `name_ranks` folds at once.
const RANK_CHUNK: usize = 1 << 16;

/// Memory the name sorter of `name_ranks` fills before it writes a chunk.
const RANK_SORT_BYTES: usize = 32 << 20;

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
    let [mut total_raised, mut latest_size, mut latest_created, mut valuation] =
        columns_in::<i64, 4>(dir)?;
    let [mut latest_date, mut founded, mut rounds, mut investors, mut latest_deal] =
        columns_in::<i32, 5>(dir)?;
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
        company_facets.add(facts, c, doc);
        total_raised.push(money(agg.total_raised));
        valuation.push(money(agg.latest_valuation.map(|v| v.0)));
        founded.push(day(c.founded_on));
        rounds.push(agg.deals.len() as i32);
        investors.push(agg.num_investors as i32);
        let latest = agg.latest_deal();
        let deal = latest.map(|l| facts.deals.get(l));
        if let Some(deal) = &deal {
            latest_facets.add(facts, deal, doc);
        }
        latest_size.push(money(deal.as_ref().and_then(|d| d.size)));
        latest_date.push(day(deal.as_ref().and_then(|d| d.date)));
        latest_created.push(instant(deal.as_ref().and_then(|d| d.created_at)));
        latest_deal.push(latest.map_or(NULL_I32, |l| orders.deals.doc(l) as i32));
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
    total_raised.write_sorted(&mut out, "total_raised")?;
    latest_size.write_sorted(&mut out, "latest_deal_size")?;
    latest_created.write_sorted(&mut out, "latest_deal_created_at")?;
    valuation.write_sorted(&mut out, "latest_valuation")?;
    latest_date.write_sorted(&mut out, "latest_deal_date")?;
    founded.write_sorted(&mut out, "founded_on")?;
    rounds.write_sorted(&mut out, "num_funding_rounds")?;
    investors.write_sorted(&mut out, "num_investors")?;
    latest_deal.write(&mut out, "latest_deal")?;
    let ranks = name_ranks(dir, n, |d| facts.companies.get(order.row(d)).name)?;
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
    let [mut size, mut created, mut company_raised] = columns_in::<i64, 3>(dir)?;
    let [mut date, mut company] = columns_in::<i32, 2>(dir)?;
    let mut firms = RelationBuilder::new_in(dir, n, true)?;
    let mut angels = RelationBuilder::new_in(dir, n, true)?;
    let mut partners = RelationBuilder::new_in(dir, n, true)?;
    let mut participants = RelationBuilder::new_in(dir, n, true)?;
    let mut value_counts = DealValueCounts::default();
    let mut tally = counter.tally();
    for doc in 0..n as u32 {
        tally.inc();
        let deal = &facts.deals.get(order.row(doc));
        let c = &facts.companies.get(deal.company);
        round.add(&deal.round.facet_value(), doc);
        value_counts.add(inp, deal, c);
        company_facets.add(facts, c, doc);
        size.push(money(deal.size));
        created.push(instant(deal.created_at));
        date.push(day(deal.date));
        company.push(orders.companies.doc(deal.company) as i32);
        company_raised.push(money(inp.derived.companies.get(deal.company).total_raised));
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
    size.write_sorted(&mut out, "size")?;
    date.write_sorted(&mut out, "date")?;
    created.write_sorted(&mut out, "created_at")?;
    company.write(&mut out, "company")?;
    company_raised.write_sorted(&mut out, "company_total_raised")?;
    firms.write(&mut out, "firms")?;
    angels.write(&mut out, "angels")?;
    partners.write(&mut out, "partners")?;
    participants.write(&mut out, "participants")?;
    value_counts.write(&mut out)?;
    out.finish()
}

/// Each firm's and each person's deals per round (`counts.round_firms`,
/// `counts.round_people`) and per super category of the deal's company
/// (`counts.super_firms`, `counts.super_people`): one count per edge of
/// `deals.firms` (a firm named twice in a deal counts once, its first lead
/// flag kept, as the relation keeps it) and of `deals.participants` (flags
/// merged per person), under each value the deal has.
#[derive(Default)]
struct DealValueCounts {
    round_firms: ValueCountsBuilder,
    round_people: ValueCountsBuilder,
    super_firms: ValueCountsBuilder,
    super_people: ValueCountsBuilder,
}

impl DealValueCounts {
    fn add(
        &mut self,
        inp: &Inputs,
        deal: &crate::ingest::facts::DealFacts,
        company: &crate::ingest::facts::CompanyFacts,
    ) {
        let round = deal.round.facet_value();
        let (_, supers) = industry_closure(&company.industries, inp.facts);
        let supers: Vec<&str> = supers
            .iter()
            .map(|&s| inp.facts.catalog.industries[s as usize].permalink.as_str())
            .collect();
        let mut seen: Vec<u32> = Vec::with_capacity(deal.firms.len());
        for f in &deal.firms {
            let firm = inp.orders.firms.doc(f.firm);
            if !seen.contains(&firm) {
                seen.push(firm);
                self.round_firms.add(&round, firm, f.lead);
                for s in &supers {
                    self.super_firms.add(s, firm, f.lead);
                }
            }
        }
        for (person, flags) in participant_flags(deal) {
            let (person, led) = (inp.orders.people.doc(person), flags & PARTICIPANT_LEAD != 0);
            self.round_people.add(&round, person, led);
            for s in &supers {
                self.super_people.add(s, person, led);
            }
        }
    }

    fn write(self, out: &mut BundleWriter) -> io::Result<()> {
        self.round_firms.write(out, ROUND.firms)?;
        self.round_people.write(out, ROUND.people)?;
        self.super_firms.write(out, SUPER_CATEGORY.firms)?;
        self.super_people.write(out, SUPER_CATEGORY.people)
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
    total_raised: ColumnBuilder<i64>,
    latest_size: ColumnBuilder<i64>,
    latest_date: ColumnBuilder<i32>,
    latest_created: ColumnBuilder<i64>,
}

impl EmployerFields {
    fn new(dir: &Path) -> io::Result<EmployerFields> {
        let mut kind = FacetBuilder::new_in(dir);
        declare_all(&mut kind, ["company", "firm"].into_iter());
        let [total_raised, latest_size, latest_created] = columns_in::<i64, 3>(dir)?;
        Ok(EmployerFields {
            kind,
            company: CompanyFacets::new(dir),
            latest: LatestDealFacets::new(dir),
            total_raised,
            latest_size,
            latest_date: ColumnBuilder::new_in(dir)?,
            latest_created,
        })
    }

    /// Person `doc` works for company row `company` (`None`: for no company).
    fn add(&mut self, inp: &Inputs, company: Option<u32>, doc: u32) {
        let facts = inp.facts;
        let agg = company.map(|c| inp.derived.companies.get(c));
        let deal = (agg.as_ref())
            .and_then(|a| a.latest_deal())
            .map(|l| facts.deals.get(l));
        if let Some(c) = company {
            self.kind.add("company", doc);
            self.company.add(facts, &facts.companies.get(c), doc);
        }
        if let Some(deal) = &deal {
            self.latest.add(facts, deal, doc);
        }
        self.total_raised
            .push(money(agg.as_ref().and_then(|a| a.total_raised)));
        self.latest_size
            .push(money(deal.as_ref().and_then(|d| d.size)));
        self.latest_date
            .push(day(deal.as_ref().and_then(|d| d.date)));
        self.latest_created
            .push(instant(deal.as_ref().and_then(|d| d.created_at)));
    }

    fn write(self, out: &mut BundleWriter) -> io::Result<()> {
        self.kind.write(out, "employer_kind")?;
        self.company.write(out, "employer_")?;
        self.latest.write(out, "employer_")?;
        self.total_raised
            .write_sorted(out, "employer_total_raised")?;
        self.latest_size
            .write_sorted(out, "employer_latest_deal_size")?;
        self.latest_date
            .write_sorted(out, "employer_latest_deal_date")?;
        self.latest_created
            .write_sorted(out, "employer_latest_deal_created_at")
    }
}

/// The sortable investor-activity columns shared by firms and people.
struct StatColumns {
    counts: [ColumnBuilder<i32>; 4],
    most_recent: ColumnBuilder<i32>,
}

impl StatColumns {
    const COUNT_NAMES: [&'static str; 4] = [
        "total_deal_count",
        "lead_deal_count",
        "deal_count_last_12_months",
        "lead_deal_count_last_12_months",
    ];

    fn new(dir: &Path) -> io::Result<StatColumns> {
        Ok(StatColumns {
            counts: columns_in(dir)?,
            most_recent: ColumnBuilder::new_in(dir)?,
        })
    }

    /// The next doc's figures.
    fn push(&mut self, s: &crate::ingest::derive::InvestorStats) {
        let values = [
            s.total_deal_count,
            s.lead_deal_count,
            s.deal_count_last_12_months,
            s.lead_deal_count_last_12_months,
        ];
        for (column, value) in self.counts.iter_mut().zip(values) {
            column.push(value as i32);
        }
        self.most_recent.push(day(s.most_recent_deal_date));
    }

    fn write(self, out: &mut BundleWriter) -> io::Result<()> {
        for (name, column) in Self::COUNT_NAMES.iter().zip(self.counts) {
            column.write_sorted(out, name)?;
        }
        self.most_recent.write_sorted(out, "most_recent_deal_date")
    }
}

/// `N` empty columns whose scratch files are in `dir`.
fn columns_in<T: ColumnValue, const N: usize>(dir: &Path) -> io::Result<[ColumnBuilder<T>; N]> {
    let columns = (0..N)
        .map(|_| ColumnBuilder::new_in(dir))
        .collect::<io::Result<Vec<_>>>()?;
    columns
        .try_into()
        .map_err(|_| io::Error::other("column count"))
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
    let mut stats = StatColumns::new(dir)?;
    let mut deals = RelationBuilder::new_in(dir, n, true)?;
    let mut people = RelationBuilder::new_in(dir, n, false)?;
    let [mut domains, mut linkedins, mut crunchbases, mut permalinks]: [KeyPairs; 4] =
        std::array::from_fn(|_| KeyPairs::new_in(dir));
    let mut tally = counter.tally();
    for doc in 0..n as u32 {
        tally.inc();
        let row = order.row(doc);
        let (f, agg) = (&facts.firms.get(row), &derived.firms.get(row));
        place_closure(&f.places, facts)
            .iter()
            .for_each(|&l| location.add(&facts.catalog.locations[l as usize].permalink, doc));
        if let Some(h) = f.headcount {
            headcount.add(h.as_str(), doc);
        }
        let s = &agg.stats;
        stats.push(s);
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
    let dir = &out.dir().to_path_buf();
    let ranks = name_ranks(dir, order.len(), |d| facts.people.get(order.row(d)).name)?;
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
    let orders = inp.orders;
    let mut stats = StatColumns::new(dir)?;
    let [mut employer, mut employer_firm] = columns_in::<i32, 2>(dir)?;
    let mut employer_fields = EmployerFields::new(dir)?;
    each_person(inp, counter, |doc, p, agg| {
        stats.push(&agg.stats);
        let (company, firm) = match p.employer {
            Some(Employer::Company(c)) => (Some(c), None),
            Some(Employer::Firm(fi)) => (None, Some(fi)),
            None => (None, None),
        };
        employer.push(company.map_or(NULL_I32, |c| orders.companies.doc(c) as i32));
        employer_firm.push(firm.map_or(NULL_I32, |fi| orders.firms.doc(fi) as i32));
        if firm.is_some() {
            employer_fields.kind.add("firm", doc);
        }
        employer_fields.add(inp, company, doc);
    });
    stats.write(out)?;
    employer.write(out, "employer")?;
    employer_firm.write(out, "employer_firm")?;
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
        // A partner of two firms of one deal led it when either firm did:
        // led edges go first, as the first payload added for a deal wins.
        let led = agg.partner_deals.iter().filter(|e| e.2);
        led.chain(agg.partner_deals.iter().filter(|e| !e.2))
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
        let mut keys = KeyPairs::new_in(out.dir());
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

    /// The fixture dump with every partner of a deal's firms made partner
    /// of each of its firms, so that people are partners of a leading and
    /// a non-leading firm of one deal.
    fn dump_with_shared_partners(dir: &Path) -> usize {
        let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/dump");
        for entry in std::fs::read_dir(&fixture).unwrap() {
            let path = entry.unwrap().path();
            std::fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
        }
        let mut shared = 0;
        let deals: Vec<String> = std::fs::read_to_string(fixture.join("deals.jsonl"))
            .unwrap()
            .lines()
            .map(|line| {
                let mut deal: serde_json::Value = serde_json::from_str(line).unwrap();
                shared += share_partners(&mut deal) as usize;
                deal.to_string()
            })
            .collect();
        std::fs::write(dir.join("deals.jsonl"), deals.join("\n") + "\n").unwrap();
        shared
    }

    /// Makes every partner of `deal`'s firms partner of each of them; true
    /// when the deal has a leading and a non-leading firm and partners.
    fn share_partners(deal: &mut serde_json::Value) -> bool {
        let Some(firms) = deal["investors"].as_array_mut() else {
            return false;
        };
        let mut partners: Vec<serde_json::Value> = firms
            .iter()
            .flat_map(|f| f["partner_ids"].as_array().cloned().unwrap_or_default())
            .collect();
        partners.dedup();
        let leads: Vec<bool> = firms.iter().map(|f| f["lead"] == true).collect();
        for f in firms.iter_mut() {
            f["partner_ids"] = serde_json::Value::Array(partners.clone());
        }
        !partners.is_empty() && leads.contains(&true) && leads.contains(&false)
    }

    /// A person's partner edge to a deal is led exactly when the deal's
    /// participants mark them lead (flags OR'ed over the deal's firms).
    #[test]
    fn partner_edges_are_led_when_any_firm_led() {
        let dir = tempfile::tempdir().unwrap();
        let dump = dir.path().join("dump");
        std::fs::create_dir(&dump).unwrap();
        assert!(dump_with_shared_partners(&dump) > 0, "no deal to test");
        let out = dir.path().join("index");
        crate::index::build::build_index(&crate::index::build::BuildOptions {
            dump,
            out: out.clone(),
            as_of: Date::parse("2026-11-01"),
            strict: false,
            quiet: true,
            memory: crate::index::build::DEFAULT_BUILD_MEMORY,
            store_codec: Default::default(),
            semantic: None,
        })
        .unwrap();
        let index = crate::index::Index::open(&out).unwrap();
        let (partner, participants) = (
            index.people.relation("partner_deals").unwrap(),
            index.deals.relation("participants").unwrap(),
        );
        let (partner, participants) = (partner.edges(), participants.edges());
        let mut led = 0;
        for p in 0..index.people.docs as u32 {
            for (&d, &lead) in partner.targets(p).iter().zip(partner.payload(p)) {
                let at = participants.targets(d).binary_search(&p).unwrap();
                let flags = participants.payload(d)[at];
                assert_eq!(
                    lead != 0,
                    flags & PARTICIPANT_LEAD != 0,
                    "person {p}, deal {d}"
                );
                led += usize::from(lead != 0);
            }
        }
        assert!(led > 0);
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
        let dir = tempfile::tempdir().unwrap();
        let ranks = name_ranks(dir.path(), names.len(), |d| {
            names[d as usize].clone().into()
        })
        .unwrap();
        assert_eq!(ranks, naive_ranks(&names));
    }
}
