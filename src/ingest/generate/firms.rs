//! Investor firms: about one per twenty companies. A firm's index is its
//! popularity rank: deals draw firms from a Zipf over ranks, so the first firms
//! take part in thousands of deals and the tail in a handful.
//!
//! Each firm has a stage focus (who it leads), 1–3 focus sectors (half of a
//! deal's firms come from firms focused on the company's sector), a number of
//! partners (named on deals) and staff. About one firm in thirty — and always
//! firm 1, so the busiest family is one — is a sibling fund of the previous
//! one ("Acme Ventures" / "Acme Growth") and shares its domain, as real fund
//! families do (a domain lookup returns them all). Some firms never lead.

use super::names;
use super::permalinks::{key, Permalinks};
use super::rng::{Rng, Stream};
use super::text;
use super::vocab;
use super::weighted::Weighted;
use super::world::{FirmFacts, StageFocus, World};
use crate::progress::Counter;
use crate::schema::{FirmRow, Headcount};

/// Hubs where firms cluster beyond the company distribution.
const HUBS: &[&str] = &[
    "Menlo Park",
    "San Francisco",
    "Palo Alto",
    "New York",
    "Boston",
    "London",
];

/// Plans `count` firms (sequentially: sibling funds look at their predecessor).
pub fn plan_all(world: &World, count: usize) -> Vec<FirmFacts> {
    let mut firms: Vec<FirmFacts> = Vec::with_capacity(count);
    for f in 0..count {
        let firm = plan(world, f, count, firms.last());
        firms.push(firm);
    }
    let links = Permalinks::rank(count, |f| key(&firms[f].name), &Counter::hidden());
    for (f, firm) in firms.iter_mut().enumerate() {
        firm.permalink = links.permalink(f, key(&firm.name));
    }
    assign_domains(world, &mut firms);
    firms
}

fn plan(world: &World, f: usize, count: usize, previous: Option<&FirmFacts>) -> FirmFacts {
    let mut rng = Rng::for_entity(world.seed, Stream::Firm, f as u64);
    let sibling = previous.filter(|_| rng.chance(1.0 / 30.0) || f == 1);
    let name = match sibling {
        Some(p) => sibling_name(&p.name, &mut rng),
        None => world.names.firm_name(&mut rng),
    };
    let mut focus: Vec<u16> = (0..1 + rng.weighted(&[0.4, 0.4, 0.2]))
        .map(|_| world.taxonomy.sample_sector(&mut rng) as u16)
        .collect();
    focus.sort_unstable();
    focus.dedup();
    let stage = [
        StageFocus::Seed,
        StageFocus::Early,
        StageFocus::Late,
        StageFocus::Multi,
    ][rng.weighted(&[0.3, 0.35, 0.15, 0.2])];
    let top = (f as f64) < (count as f64 / 50.0).max(1.0);
    let upper = (f as f64) < count as f64 / 10.0;
    let partners = 2
        + rng.below(4) as u8
        + if top {
            6
        } else if upper {
            3
        } else {
            0
        };
    FirmFacts {
        id: world.id("firm", &f.to_string()),
        name,
        permalink: String::new(),
        domain: None,
        city: firm_city(world, &mut rng),
        focus,
        stage,
        follow_only: !top && rng.chance(0.25),
        sibling: sibling.is_some(),
        partners,
        staff: rng.below(3) as u8 + if top { 3 } else { 0 },
    }
}

fn sibling_name(previous: &str, rng: &mut Rng) -> String {
    let head = previous.split(' ').next().unwrap_or(previous);
    let kind = rng
        .pick(&["Growth", "Opportunity Fund", "Crypto", "Bio", "Seed Fund"])
        .copied()
        .unwrap_or("Growth");
    format!("{head} {kind}")
}

fn firm_city(world: &World, rng: &mut Rng) -> Option<u32> {
    if rng.chance(0.05) {
        return None;
    }
    if rng.chance(0.35) {
        let hub = rng.pick(HUBS).copied().unwrap_or("San Francisco");
        if let Some(i) = world.places.cities.iter().position(|c| c.name == hub) {
            return Some(i as u32);
        }
    }
    world.places.sample_city(rng).map(|c| c as u32)
}

/// Domains: own (from the permalink) for most, the predecessor's for siblings.
fn assign_domains(world: &World, firms: &mut [FirmFacts]) {
    for f in 0..firms.len() {
        let mut rng = Rng::for_entity(world.seed, Stream::Firm, f as u64 + (1 << 40));
        firms[f].domain = if firms[f].sibling && f > 0 {
            firms[f - 1].domain.clone()
        } else {
            (rng.chance(0.9) || f == 0).then(|| {
                names::domain(
                    &firms[f].permalink,
                    &["com", "vc", "capital", "com", "vc"],
                    &mut rng,
                )
            })
        };
    }
}

/// The firm's row.
pub fn row(world: &World, f: usize, firm: &FirmFacts, firms: usize) -> FirmRow {
    let mut rng = Rng::for_entity(world.seed, Stream::Firm, f as u64 + (2 << 40));
    let city = world.city_name(firm.city);
    let stage = stage_text(firm.stage, &mut rng);
    let sectors: Vec<&str> = firm
        .focus
        .iter()
        .filter_map(|s| world.taxonomy.sectors.get(*s as usize))
        .map(|s| s.name.as_str())
        .collect();
    let domain = firm.domain.as_deref();
    FirmRow {
        id: firm.id,
        name: firm.name.clone(),
        permalink: firm.permalink.clone(),
        legal_name: rng
            .chance(0.2)
            .then(|| format!("{} Fund I, L.P.", firm.name)),
        description: rng
            .chance(0.8)
            .then(|| text::firm_description(&firm.name, stage_phrase(firm.stage), &sectors, city)),
        domain: firm.domain.clone(),
        website: domain
            .filter(|_| rng.chance(0.95))
            .map(|d| website(d, &mut rng)),
        linkedin: rng
            .chance(0.7)
            .then(|| format!("https://www.linkedin.com/company/{}", firm.permalink)),
        pitchbook: rng.chance(0.15).then(|| {
            format!(
                "https://pitchbook.com/profiles/investor/{}-{:02}",
                rng.range(10_000, 99_999),
                rng.below(100)
            )
        }),
        crunchbase: rng
            .chance(0.5)
            .then(|| format!("https://www.crunchbase.com/organization/{}", firm.permalink)),
        image: rng.chance(0.3).then(|| {
            format!(
                "https://images.fundsearch.example/firms/{}.png",
                firm.permalink
            )
        }),
        num_employees: rng.chance(0.9).then(|| headcount(f, firms, &mut rng)),
        investment_stage: rng.chance(0.85).then(|| stage.to_string()),
        contact_email: domain.filter(|_| rng.chance(0.3)).map(|d| {
            format!(
                "{}@{d}",
                rng.pick(&["info", "hello", "contact", "deals"])
                    .copied()
                    .unwrap_or("info")
            )
        }),
        contact_phone: rng
            .chance(0.2)
            .then(|| phone(world.country_iso(firm.city).unwrap_or("US"), &mut rng)),
        location: firm
            .city
            .and_then(|c| world.places.cities.get(c as usize))
            .map(|c| c.refs.clone())
            .unwrap_or_default(),
    }
}

fn stage_phrase(stage: StageFocus) -> &'static str {
    match stage {
        StageFocus::Seed => "pre-seed and seed",
        StageFocus::Early => "early",
        StageFocus::Late => "growth",
        StageFocus::Multi => "seed to growth",
    }
}

fn stage_text(stage: StageFocus, rng: &mut Rng) -> &'static str {
    let options: &[usize] = match stage {
        StageFocus::Seed => &[0, 1, 2],
        StageFocus::Early => &[3, 4, 5, 6],
        StageFocus::Late => &[9, 10, 11],
        StageFocus::Multi => &[7, 8],
    };
    let i = rng.pick(options).copied().unwrap_or(0);
    vocab::INVESTMENT_STAGES.get(i).copied().unwrap_or("Seed")
}

fn website(domain: &str, rng: &mut Rng) -> String {
    match rng.index(3) {
        0 => format!("https://www.{domain}"),
        1 => format!("https://{domain}/"),
        _ => format!("https://www.{domain}/"),
    }
}

fn headcount(f: usize, firms: usize, rng: &mut Rng) -> Headcount {
    let rank = f as f64 / firms.max(1) as f64;
    let base = if rank < 0.02 {
        2
    } else if rank < 0.1 {
        1
    } else {
        0
    };
    Headcount::ALL[(base + rng.weighted(&[0.6, 0.3, 0.1])).min(Headcount::ALL.len() - 1)]
}

/// `+44 20 5550 1234`-style numbers in the 555 range.
pub fn phone(iso: &str, rng: &mut Rng) -> String {
    format!(
        "{} {} 555 {:04}",
        vocab::dialling_code(iso),
        rng.range(200, 989),
        rng.below(10_000)
    )
}

/// Draws the firms of a deal: Zipf over ranks, half the time among the firms
/// focused on the company's sector.
pub struct FirmPicker {
    global: Weighted,
    by_sector: Vec<(Vec<u32>, Weighted)>,
}

impl FirmPicker {
    pub fn new(firms: &[FirmFacts], sectors: usize) -> FirmPicker {
        let mut lists: Vec<Vec<u32>> = vec![Vec::new(); sectors];
        for (f, firm) in firms.iter().enumerate() {
            for s in &firm.focus {
                if let Some(list) = lists.get_mut(*s as usize) {
                    if list.last() != Some(&(f as u32)) {
                        list.push(f as u32);
                    }
                }
            }
        }
        let by_sector = lists.into_iter().map(|l| {
            let w = Weighted::zipf(l.len(), 1.0, 30.0);
            (l, w)
        });
        FirmPicker {
            global: Weighted::zipf(firms.len(), 1.0, 30.0),
            by_sector: by_sector.collect(),
        }
    }

    /// A firm not in `taken`; a lead must be willing to lead at `stage`.
    pub fn pick(
        &self,
        firms: &[FirmFacts],
        sector: usize,
        lead: Option<usize>,
        taken: &[u32],
        rng: &mut Rng,
    ) -> Option<u32> {
        for attempt in 0..12 {
            let candidate = self.draw(sector, rng)?;
            if taken.contains(&candidate) {
                continue;
            }
            let firm = &firms[candidate as usize];
            let fits = match lead {
                Some(stage) => !firm.follow_only && (attempt >= 8 || firm.stage.leads(stage)),
                None => true,
            };
            if fits {
                return Some(candidate);
            }
        }
        None
    }

    fn draw(&self, sector: usize, rng: &mut Rng) -> Option<u32> {
        if let Some((list, weights)) = self.by_sector.get(sector).filter(|(l, _)| !l.is_empty()) {
            if rng.chance(0.5) {
                return weights.sample(rng).and_then(|i| list.get(i).copied());
            }
        }
        self.global.sample(rng).map(|f| f as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::generate::world::small_world;

    #[test]
    fn leads_never_follow_only_and_the_top_firms_dominate() {
        let world = small_world(10, 500);
        let picker = FirmPicker::new(&world.firms, world.taxonomy.sectors.len());
        let mut rng = Rng::new(8);
        let mut counts = vec![0u32; world.firms.len()];
        for i in 0..20_000 {
            let lead = picker.pick(&world.firms, i % 40, Some(1), &[], &mut rng);
            let Some(lead) = lead else { continue };
            assert!(!world.firms[lead as usize].follow_only);
            let other = picker.pick(&world.firms, i % 40, None, &[lead], &mut rng);
            assert_ne!(other, Some(lead));
            counts[lead as usize] += 1;
        }
        let head: u32 = counts[..25].iter().sum();
        let tail: u32 = counts[475..].iter().sum();
        assert!(head > 3 * tail.max(1), "head {head} tail {tail}");
    }

    #[test]
    fn permalinks_follow_the_sequential_rule() {
        let world = small_world(10, 3_000);
        let want = names::unique_permalinks(world.firms.iter().map(|f| f.name.as_str()));
        let got: Vec<&str> = world.firms.iter().map(|f| f.permalink.as_str()).collect();
        assert_eq!(got, want);
        assert!(
            got.iter().any(|p| p.ends_with("-2")),
            "some firm names repeat"
        );
    }

    #[test]
    fn firm_one_shares_the_domain_of_firm_zero() {
        let world = small_world(10, 40);
        assert!(world.firms[1].sibling && world.firms[0].domain.is_some());
        assert_eq!(world.firms[0].domain, world.firms[1].domain);
        let mut permalinks: Vec<_> = world.firms.iter().map(|f| f.permalink.as_str()).collect();
        permalinks.sort_unstable();
        permalinks.dedup();
        assert_eq!(permalinks.len(), world.firms.len());
    }
}
