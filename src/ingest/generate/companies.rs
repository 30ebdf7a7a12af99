//! Companies: a company's plan (name, sector, place, founding, number of
//! rounds — everything later passes need) is drawn from its index alone, so
//! any pass can draw it again ([`facts`]) instead of holding every company.
//! Only permalinks look across companies: their rank suffixes are found once,
//! in bounded memory, before the first row is written ([`permalinks`]).
//!
//! Founding dates are skewed recent and leave room for the company's rounds
//! (about 200 days per round before `as_of`); headcount grows with the number
//! of rounds; listing status is mostly private and public only for companies
//! that raised several rounds.

use super::calibration::{self, HEADCOUNT_WEIGHTS, IPO_WEIGHTS, MAX_ROUNDS, ROUNDS_RATIO};
use super::names;
use super::permalinks::{self, Permalinks};
use super::rng::{Rng, Stream};
use super::text::{self, Pitch};
use super::world::{recent_date, CompanyFacts, World, YEAR};
use crate::progress::Counter;
use crate::schema::{CompanyRow, Date, IpoStatus, PlaceRefs};

/// Company `n`'s plan, its permalink and domain included.
pub struct CompanyPlan {
    pub facts: CompanyFacts,
    pub industries: Vec<u16>,
    pub founded_shown: bool,
    pub drop_city: bool,
}

/// The permalink ranks of companies `0..count` (see `permalinks`), each
/// name drawn counted on `drawn`.
pub fn permalinks(world: &World, count: usize, drawn: &Counter) -> Permalinks {
    Permalinks::rank(count, |n| permalinks::key(&named(world, n).2), drawn)
}

/// What the rest of the run reads of company `n` (`None` past the last).
pub fn facts(world: &World, n: usize) -> Option<CompanyFacts> {
    (n < world.companies).then(|| plan(world, n).facts)
}

/// Company `n`'s random stream after its sector and name, with them.
fn named(world: &World, n: usize) -> (Rng, usize, String) {
    let mut rng = Rng::for_entity(world.seed, Stream::CompanyPlan, n as u64);
    let sector = world.taxonomy.sample_sector(&mut rng);
    let s = &world.taxonomy.sectors[sector];
    let name = world.names.company_name(&s.suffixes, &mut rng);
    (rng, sector, name)
}

/// Company `n`'s plan (`world.permalinks` must be ranked).
pub fn plan(world: &World, n: usize) -> CompanyPlan {
    let (mut rng, sector, name) = named(world, n);
    let permalink = world.permalinks.permalink(n, permalinks::key(&name));
    let industries = world.taxonomy.sample_industries(sector, &mut rng);
    let industries = if rng.chance(0.04) {
        vec![]
    } else {
        industries.into_iter().map(|i| i as u16).collect()
    };
    let city = if rng.chance(0.04) {
        None
    } else {
        world.places.sample_city(&mut rng).map(|c| c as u32)
    };
    let rounds = rounds_count(&mut rng);
    let born = founding(world.as_of, rounds, &mut rng);
    let pitch = [
        rng.below(256) as u8,
        rng.below(256) as u8,
        rng.below(256) as u8,
    ];
    let facts = CompanyFacts {
        id: world.id("company", &n.to_string()),
        name,
        permalink,
        domain: None,
        city,
        sector: sector as u16,
        born,
        rounds: rounds as u8,
        headcount: headcount(rounds, &mut rng),
        ipo: ipo_status(rounds, &mut rng),
        pitch,
    };
    let mut plan = CompanyPlan {
        facts,
        industries,
        founded_shown: rng.chance(0.92),
        drop_city: rng.chance(0.05),
    };
    assign_domain(world, n, &mut plan);
    plan
}

fn rounds_count(rng: &mut Rng) -> u32 {
    let weights: Vec<f64> = (0..=MAX_ROUNDS)
        .map(|k| ROUNDS_RATIO.powi(k as i32))
        .collect();
    rng.weighted(&weights) as u32
}

fn founding(as_of: Date, rounds: u32, rng: &mut Rng) -> Date {
    let floor = Date::from_ymd(if rounds > 0 { 2004 } else { 2000 }, 1, 1).unwrap_or(Date(12_000));
    let room = if rounds > 0 {
        rounds as i32 * 200 + 60
    } else {
        30
    };
    let hi = Date(as_of.0 - room);
    let lo = if hi.0 - floor.0 < YEAR {
        Date(hi.0 - YEAR)
    } else {
        floor
    };
    recent_date(rng, lo, hi, if rounds > 0 { 2.0 } else { 2.5 })
}

fn headcount(rounds: u32, rng: &mut Rng) -> Option<crate::schema::Headcount> {
    if rng.chance(0.08) {
        return None;
    }
    let base = rng.weighted(&HEADCOUNT_WEIGHTS);
    Some(calibration::headcount_bucket(
        base + calibration::headcount_shift(rounds),
    ))
}

fn ipo_status(rounds: u32, rng: &mut Rng) -> Option<IpoStatus> {
    if rng.chance(0.05) {
        return None;
    }
    let weights: Vec<f64> = IPO_WEIGHTS.iter().map(|(_, w)| *w).collect();
    let status = IPO_WEIGHTS[rng.weighted(&weights)].0;
    let listed = matches!(status, IpoStatus::Public | IpoStatus::Delisted);
    Some(if listed && rounds < 3 {
        IpoStatus::Private
    } else {
        status
    })
}

/// Picks the company's web domain (from its permalink).
fn assign_domain(world: &World, n: usize, plan: &mut CompanyPlan) {
    let mut rng = Rng::for_entity(world.seed, Stream::CompanyText, n as u64 | (1 << 62));
    let iso = world.country_iso(plan.facts.city).unwrap_or("US");
    if rng.chance(0.9) {
        plan.facts.domain = Some(names::domain(
            &plan.facts.permalink,
            &tlds(world, plan.facts.sector, iso),
            &mut rng,
        ));
    }
}

/// The company's row.
pub fn row(world: &World, n: usize, plan: &CompanyPlan) -> CompanyRow {
    let mut rng = Rng::for_entity(world.seed, Stream::CompanyText, n as u64);
    let iso = world.country_iso(plan.facts.city).unwrap_or("US");
    let facts = &plan.facts;
    let sector = &world.taxonomy.sectors[facts.sector as usize];
    let pitch = Pitch::of(sector, facts.pitch);
    let first_industry = plan.industries.first().map_or(sector.name.as_str(), |i| {
        world.taxonomy.industries[*i as usize].name.as_str()
    });
    let founded = plan.founded_shown.then_some(facts.born);
    let city = world.city_name(facts.city);
    CompanyRow {
        id: facts.id,
        name: facts.name.clone(),
        permalink: facts.permalink.clone(),
        legal_name: rng.chance(0.3).then(|| legal_name(&facts.name, iso)),
        domain: facts.domain.clone(),
        short_description: rng
            .chance(0.95)
            .then(|| text::company_short(&pitch, first_industry, &mut rng)),
        long_description: rng
            .chance(0.7)
            .then(|| text::company_long(&facts.name, &pitch, sector, city, founded, &mut rng)),
        num_employees: facts.headcount,
        ipo_status: facts.ipo,
        founded_on: founded,
        linkedin: rng
            .chance(0.7)
            .then(|| linkedin_url(&facts.permalink, &mut rng)),
        twitter: rng
            .chance(0.4)
            .then(|| twitter_url(&facts.permalink, &mut rng)),
        facebook: rng.chance(0.15).then(|| {
            format!(
                "https://www.facebook.com/{}",
                facts.permalink.replace('-', "")
            )
        }),
        pitchbook: rng.chance(0.1).then(|| pitchbook_url(&mut rng)),
        crunchbase: rng.chance(0.5).then(|| {
            format!(
                "https://www.crunchbase.com/organization/{}",
                facts.permalink
            )
        }),
        address: rng.chance(0.25).then(|| address(city, &mut rng)),
        industries: plan
            .industries
            .iter()
            .map(|i| world.taxonomy.industries[*i as usize].permalink.clone())
            .collect(),
        location: place(world, facts.city, plan.drop_city),
    }
}

fn tlds(world: &World, sector: u16, iso: &str) -> Vec<&'static str> {
    let name = world
        .taxonomy
        .sectors
        .get(sector as usize)
        .map_or("", |s| s.name.as_str());
    let mut out = match name {
        "Artificial Intelligence" => vec!["ai", "ai", "com", "io"],
        "Software" | "Data and Analytics" | "Information Technology" => {
            vec!["io", "com", "com", "dev"]
        }
        _ => vec!["com", "com", "com", "co", "io"],
    };
    if let Some(local) = country_tld(iso) {
        out.extend([local, local, local, local]);
    }
    out
}

fn country_tld(iso: &str) -> Option<&'static str> {
    Some(match iso {
        "GB" => "co.uk",
        "DE" => "de",
        "FR" => "fr",
        "IN" => "in",
        "BR" => "com.br",
        "CH" => "ch",
        "NL" => "nl",
        "SE" => "se",
        "ES" => "es",
        "IT" => "it",
        "AU" => "com.au",
        "JP" => "co.jp",
        "CA" => "ca",
        "IL" => "co.il",
        "SG" => "sg",
        _ => return None,
    })
}

fn legal_name(name: &str, iso: &str) -> String {
    let suffix = match iso {
        "US" => ", Inc.",
        "GB" | "IE" => " Ltd",
        "DE" | "AT" => " GmbH",
        "FR" => " SAS",
        "BR" => " Ltda.",
        "IN" => " Private Limited",
        "CH" => " AG",
        "NL" => " B.V.",
        _ => " Ltd.",
    };
    format!("{name}{suffix}")
}

fn linkedin_url(permalink: &str, rng: &mut Rng) -> String {
    match rng.weighted(&[0.7, 0.2, 0.1]) {
        0 => format!("https://www.linkedin.com/company/{permalink}"),
        1 => format!("https://www.linkedin.com/company/{permalink}/"),
        _ => format!("linkedin.com/company/{permalink}"),
    }
}

fn twitter_url(permalink: &str, rng: &mut Rng) -> String {
    let handle: String = permalink.replace('-', "").chars().take(15).collect();
    if rng.chance(0.7) {
        format!("https://twitter.com/{handle}")
    } else {
        format!("https://x.com/{handle}")
    }
}

fn pitchbook_url(rng: &mut Rng) -> String {
    format!(
        "https://pitchbook.com/profiles/company/{}-{:02}",
        rng.range(10_000, 999_999),
        rng.below(100)
    )
}

fn address(city: Option<&str>, rng: &mut Rng) -> String {
    let street = rng
        .pick(super::vocab::last_names())
        .copied()
        .unwrap_or("Main");
    let kind = rng
        .pick(&["Street", "Avenue", "Road", "Boulevard", "Lane"])
        .copied()
        .unwrap_or("Street");
    let number = rng.range(1, 2_500);
    match city {
        Some(c) => format!("{number} {street} {kind}, {c}"),
        None => format!("{number} {street} {kind}"),
    }
}

fn place(world: &World, city: Option<u32>, drop_city: bool) -> PlaceRefs {
    let Some(c) = city.and_then(|c| world.places.cities.get(c as usize)) else {
        return PlaceRefs::default();
    };
    let mut refs = c.refs.clone();
    if drop_city {
        refs.city = None;
        refs.region = None;
    }
    refs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::generate::world::small_world;

    #[test]
    fn founding_leaves_room_for_every_round() {
        let world = small_world(3_000, 10);
        let companies: Vec<CompanyFacts> = (0..3_000).filter_map(|n| facts(&world, n)).collect();
        for c in &companies {
            assert!(c.born.0 + c.rounds as i32 * 200 <= world.as_of.0, "{c:?}");
            assert!(c.rounds as u32 <= MAX_ROUNDS);
        }
        let mean = companies.iter().map(|c| c.rounds as f64).sum::<f64>() / 3_000.0;
        assert!((2.3..2.7).contains(&mean), "{mean}");
    }

    #[test]
    fn permalinks_follow_the_sequential_rule() {
        let world = small_world(20_000, 10);
        let names: Vec<String> = (0..20_000).map(|n| named(&world, n).2).collect();
        let want = names::unique_permalinks(names.iter().map(String::as_str));
        let got: Vec<String> = (0..20_000)
            .map(|n| plan(&world, n).facts.permalink)
            .collect();
        assert_eq!(got, want);
        assert!(
            world.permalinks.suffixed() > 100,
            "{}",
            world.permalinks.suffixed()
        );
    }

    #[test]
    fn rows_carry_the_planned_facts() {
        let world = small_world(200, 10);
        for n in 0..200 {
            let facts = &facts(&world, n).unwrap();
            let plan = CompanyPlan {
                facts: facts.clone(),
                industries: vec![0, 1],
                founded_shown: true,
                drop_city: false,
            };
            let row = row(&world, n, &plan);
            assert_eq!(
                (row.id, &row.name, &row.domain),
                (facts.id, &facts.name, &facts.domain)
            );
            assert_eq!(row.founded_on, Some(facts.born));
            assert_eq!(row.industries.len(), 2);
            assert_eq!(row.location.city.is_some(), facts.city.is_some());
        }
    }
}
