//! Everything generation passes share: the embedded vocabularies, the run's
//! options, and the facts each pass leaves for the next: the number of
//! companies and their permalink ranks (a company's facts are drawn again from
//! its index whenever a pass needs them, so no pass holds every company), and
//! the firms (about one per twenty companies) for people and deals.

use uuid::Uuid;

use super::names::NameParts;
use super::permalinks::Permalinks;
use super::places::Places;
use super::taxonomy::Taxonomy;
use crate::schema::ids::uuid5;
use crate::schema::{Date, Headcount, IpoStatus};

/// What the company pass decides and later passes read (`companies::facts`).
#[derive(Debug, Clone)]
pub struct CompanyFacts {
    pub id: Uuid,
    pub name: String,
    pub permalink: String,
    pub domain: Option<String>,
    /// Index into `Places::cities`.
    pub city: Option<u32>,
    /// Index into `Taxonomy::sectors` (the first industry's super category).
    pub sector: u16,
    /// The company's start: `founded_on` when shown, and the floor of deal dates.
    pub born: Date,
    pub rounds: u8,
    pub headcount: Option<Headcount>,
    pub ipo: Option<IpoStatus>,
    /// Indices into the sector's products / customers / outcomes: the pitch
    /// that the company's and its deals' descriptions share.
    pub pitch: [u8; 3],
}

/// Which rounds a firm takes part in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StageFocus {
    Seed,
    Early,
    Late,
    Multi,
}

impl StageFocus {
    /// Whether a firm with this focus leads a round at ladder stage `stage`
    /// (0 = pre-seed, 1 = seed, 2 = Series A...).
    pub fn leads(self, stage: usize) -> bool {
        match self {
            StageFocus::Seed => stage <= 2,
            StageFocus::Early => (1..=4).contains(&stage),
            StageFocus::Late => stage >= 3,
            StageFocus::Multi => true,
        }
    }
}

/// What the firm pass decides and later passes read.
#[derive(Debug, Clone)]
pub struct FirmFacts {
    pub id: Uuid,
    pub name: String,
    pub permalink: String,
    pub domain: Option<String>,
    pub city: Option<u32>,
    /// Sectors the firm focuses on (1–3).
    pub focus: Vec<u16>,
    pub stage: StageFocus,
    /// Corporate and fund-of-funds style investors that never lead.
    pub follow_only: bool,
    /// A sibling fund of the previous firm (same family name and domain).
    pub sibling: bool,
    pub partners: u8,
    pub staff: u8,
}

/// The shared, read-only context of a run.
pub struct World {
    pub seed: u64,
    pub as_of: Date,
    pub places: Places,
    pub taxonomy: Taxonomy,
    pub names: NameParts,
    /// How many companies there are.
    pub companies: usize,
    /// Their permalinks' rank suffixes.
    pub permalinks: Permalinks,
    pub firms: Vec<FirmFacts>,
}

impl World {
    pub fn new(seed: u64, as_of: Date) -> World {
        World {
            seed,
            as_of,
            places: Places::load(),
            taxonomy: Taxonomy::load(),
            names: NameParts::new(),
            companies: 0,
            permalinks: Permalinks::default(),
            firms: Vec::new(),
        }
    }

    /// `uuid5(kind, "gen:<seed>:<key>")`: every generated id.
    pub fn id(&self, kind: &str, key: &str) -> Uuid {
        uuid5(kind, &format!("gen:{}:{key}", self.seed))
    }

    /// Id of person `k` of company `n` (`k = 0` is always the first founder).
    pub fn company_person_id(&self, n: usize, k: usize) -> Uuid {
        self.id("person", &format!("c{n}:{k}"))
    }

    /// Id of person `k` of firm `f` (`k < partners` are its partners).
    pub fn firm_person_id(&self, f: usize, k: usize) -> Uuid {
        self.id("person", &format!("f{f}:{k}"))
    }

    pub fn angel_id(&self, a: usize) -> Uuid {
        self.id("person", &format!("a{a}"))
    }

    pub fn city_name(&self, city: Option<u32>) -> Option<&str> {
        Some(self.places.cities.get(city? as usize)?.name.as_str())
    }

    pub fn country_iso(&self, city: Option<u32>) -> Option<&str> {
        Some(self.places.country_of(city? as usize)?.iso2.as_str())
    }
}

/// Days in a year, for date arithmetic on [`Date`] day numbers.
pub const YEAR: i32 = 365;

/// A date between `lo` and `hi` with density rising towards `hi`
/// (`skew` = 1 is uniform, 2 is linear growth, …).
pub fn recent_date(rng: &mut super::rng::Rng, lo: Date, hi: Date, skew: f64) -> Date {
    if hi.0 <= lo.0 {
        return hi;
    }
    let t = rng.unit().powf(1.0 / skew);
    Date(lo.0 + ((hi.0 - lo.0) as f64 * t) as i32)
}

/// A small world with planned companies and firms, for unit tests.
#[cfg(test)]
pub fn small_world(companies: usize, firms: usize) -> World {
    let as_of = Date::from_ymd(2026, 11, 1).unwrap_or(Date(20_758));
    let mut world = World::new(3, as_of);
    let drawn = crate::progress::Counter::hidden();
    world.permalinks = super::companies::permalinks(&world, companies, &drawn);
    world.companies = companies;
    world.firms = super::firms::plan_all(&world, firms);
    world
}
