//! Funding rounds of one company, in date order.
//!
//! A company climbs a ladder — pre-seed, seed, Series A … Series M — with
//! extensions, series suffixes (`PLUS`, `TWO`…) and off-ladder rounds (debt,
//! notes, grants…) in between (`calibration.rs` holds the mix). Dates start
//! after the company's founding and are spaced 8–30 months apart, squeezed to
//! fit before `as_of`. Sizes are log-normal per round type. Each round gets
//! 0–6 firms drawn by [`FirmPicker`] with exactly one lead, 0–2 named partners
//! per firm (people employed at that firm), 0–3 angels from a Zipf over the
//! angel pool, one financing (sometimes a second, debt), sometimes a
//! valuation, 0–3 articles and short/long descriptions.

use uuid::Uuid;

use super::calibration::{self as cal, SERIES};
use super::companies;
use super::firms::FirmPicker;
use super::rng::{Rng, Stream};
use super::text::{self, DealStory, Pitch};
use super::vocab;
use super::weighted::Weighted;
use super::world::{CompanyFacts, World};
use crate::schema::{
    ArticleRow, Date, DealAngelRow, DealFirmRow, DealRow, FinancingRow, Intermediate, RoundType,
    Timestamp, ValuationRow, ValuationType,
};

/// The ladder's top stage (Series M).
const TOP_STAGE: usize = 14;

/// What deals draw participants from.
pub struct DealContext<'a> {
    world: &'a World,
    picker: FirmPicker,
    partner_ids: Vec<Vec<Uuid>>,
    angels: Vec<Uuid>,
    angel_weights: Weighted,
}

impl<'a> DealContext<'a> {
    pub fn new(world: &'a World, angels: Vec<Uuid>) -> DealContext<'a> {
        let partner_ids = world
            .firms
            .iter()
            .enumerate()
            .map(|(f, firm)| {
                (0..firm.partners as usize)
                    .map(|k| world.firm_person_id(f, k))
                    .collect()
            })
            .collect();
        DealContext {
            world,
            picker: FirmPicker::new(&world.firms, world.taxonomy.sectors.len()),
            partner_ids,
            angel_weights: Weighted::zipf(angels.len(), 1.0, 50.0),
            angels,
        }
    }
}

/// A round's type and modifiers, and its ladder stage (0 = pre-seed).
#[derive(Debug, Clone, Copy)]
struct Kind {
    round_type: RoundType,
    pre: bool,
    extension: bool,
    intermediate: Option<Intermediate>,
    stage: usize,
    on_ladder: bool,
}

/// The deals of company `n`.
pub fn company_deals(ctx: &DealContext, n: usize) -> Vec<DealRow> {
    let Some(company) = companies::facts(ctx.world, n) else {
        return Vec::new();
    };
    let mut rng = Rng::for_entity(ctx.world.seed, Stream::Deals, n as u64);
    let kinds = kinds(company.rounds as usize, &mut rng);
    let dates = dates(company.born, ctx.world.as_of, &kinds, &mut rng);
    kinds
        .iter()
        .zip(dates)
        .enumerate()
        .map(|(i, (kind, date))| deal(ctx, &company, n, i, *kind, date, &mut rng))
        .collect()
}

fn kinds(count: usize, rng: &mut Rng) -> Vec<Kind> {
    let mut out: Vec<Kind> = Vec::with_capacity(count);
    let mut stage: Option<usize> = None;
    let mut repeats = 0;
    for i in 0..count {
        let off_ladder = rng.chance(if i == 0 {
            0.10
        } else {
            cal::off_ladder(stage.unwrap_or(1))
        });
        let kind = match stage {
            _ if off_ladder => off_ladder_kind(stage.unwrap_or(1), rng),
            None => ladder(rng.weighted(&cal::FIRST_STAGE_WEIGHTS)),
            Some(s) => next_on_ladder(s, &mut repeats, rng),
        };
        if kind.on_ladder && !(kind.pre && kind.stage >= 2) {
            stage = Some(kind.stage);
        }
        out.push(kind);
    }
    out
}

fn next_on_ladder(stage: usize, repeats: &mut usize, rng: &mut Rng) -> Kind {
    let u = rng.unit();
    if u < cal::EXTENSION {
        return Kind {
            extension: true,
            ..ladder(stage.max(1))
        };
    }
    if stage <= 1 && u < cal::EXTENSION + cal::SEED_AGAIN {
        return ladder(1);
    }
    if u < cal::EXTENSION + cal::INTERMEDIATE && stage >= 2 {
        *repeats += 1;
        let intermediate = if rng.chance(0.3) {
            Intermediate::Plus
        } else {
            suffix_number(*repeats)
        };
        return Kind {
            intermediate: Some(intermediate),
            ..ladder(stage)
        };
    }
    if stage >= TOP_STAGE {
        return off_ladder_kind(stage, rng);
    }
    *repeats = 0;
    let next = ladder(stage + 1);
    let pre = next.stage >= 2 && rng.chance(cal::PRE_SERIES);
    Kind { pre, ..next }
}

/// `TWO` for the first repeat of a series, then `THREE`… up to `EIGHT`.
fn suffix_number(repeats: usize) -> Intermediate {
    let all = Intermediate::ALL;
    let two = all
        .iter()
        .position(|i| *i == Intermediate::Two)
        .unwrap_or(3);
    all[(two + repeats - 1).min(all.len() - 1)]
}

fn ladder(stage: usize) -> Kind {
    let stage = stage.min(TOP_STAGE);
    let round_type = match stage {
        0 | 1 => RoundType::Seed,
        s => SERIES[s - 2],
    };
    Kind {
        round_type,
        pre: stage == 0,
        extension: false,
        intermediate: None,
        stage,
        on_ladder: true,
    }
}

fn off_ladder_kind(stage: usize, rng: &mut Rng) -> Kind {
    let weights: Vec<f64> = cal::OFF_LADDER_TYPES.iter().map(|(_, w)| *w).collect();
    let round_type = cal::OFF_LADDER_TYPES[rng.weighted(&weights)].0;
    Kind {
        round_type,
        pre: false,
        extension: false,
        intermediate: None,
        stage,
        on_ladder: false,
    }
}

/// Dates from founding to `as_of`: gaps of 2–18 months before the first round
/// and 8–30 months between rounds (3–10 for extensions), scaled down to fit;
/// 2 % of rounds are undated.
fn dates(born: Date, as_of: Date, kinds: &[Kind], rng: &mut Rng) -> Vec<Option<Date>> {
    let gaps: Vec<f64> = kinds
        .iter()
        .enumerate()
        .map(|(i, k)| match (i, k.extension) {
            (0, _) => rng.range(60, 540) as f64,
            (_, true) => rng.range(90, 300) as f64,
            _ => rng.range(240, 900) as f64,
        })
        .collect();
    let span = (as_of.0 - born.0 - 1).max(0) as f64;
    let total: f64 = gaps.iter().sum();
    let scale = if total > span { span / total } else { 1.0 };
    let mut at = born.0 as f64;
    gaps.iter()
        .map(|g| {
            at += g * scale;
            (!rng.chance(0.02)).then_some(Date((at as i32).min(as_of.0)))
        })
        .collect()
}

fn deal(
    ctx: &DealContext,
    company: &CompanyFacts,
    n: usize,
    i: usize,
    kind: Kind,
    date: Option<Date>,
    rng: &mut Rng,
) -> DealRow {
    let world = ctx.world;
    let country = company
        .city
        .and_then(|c| world.places.country_of(c as usize));
    let currency = country.map_or("USD", |c| c.currency.as_str());
    let financings = financings(world, n, i, kind, currency, rng);
    let total: Option<f64> = {
        let sizes: Vec<f64> = financings.iter().filter_map(|f| f.size_usd).collect();
        (!sizes.is_empty()).then(|| sizes.iter().sum())
    };
    let (mut investors, firm_indices) = firms(ctx, company, kind, rng);
    if financings.len() > 1 {
        if let Some(follower) = investors.iter_mut().find(|f| !f.lead) {
            follower.financing_type = Some(RoundType::DebtFinancing);
        }
    }
    let angels = angels(ctx, kind, rng);
    let label = text::round_label(kind.round_type, kind.pre, kind.extension, kind.intermediate);
    let (short, long) = descriptions(world, company, &label, total, &firm_indices, rng);
    DealRow {
        id: world.id("deal", &format!("{n}:{i}")),
        company_id: company.id,
        round_type: kind.round_type,
        pre: kind.pre,
        extension: kind.extension,
        intermediate: kind.intermediate,
        date,
        created_at: created_at(company.born, date, world.as_of, rng),
        total_round_raised: total,
        short_description: short,
        long_description: long,
        investors,
        angels,
        valuation: total.and_then(|t| valuation(kind, t, financings.first(), rng)),
        articles: date.map_or_else(Vec::new, |d| {
            articles(world, company, &label, total, d, rng)
        }),
        financings,
    }
}

fn created_at(born: Date, date: Option<Date>, as_of: Date, rng: &mut Rng) -> Option<Timestamp> {
    if rng.chance(0.02) {
        return None;
    }
    let start = match date {
        Some(d) => d.start_ms() + (rng.log_normal(3.0, 1.0).min(90.0) * 86_400_000.0) as i64,
        None if rng.chance(0.5) => Date(rng.range(born.0 as i64, as_of.0 as i64) as i32).start_ms(),
        None => return None,
    };
    Some(Timestamp(
        (start + rng.below(86_400_000) as i64).min(as_of.end_ms()),
    ))
}

fn financings(
    world: &World,
    n: usize,
    i: usize,
    kind: Kind,
    currency: &str,
    rng: &mut Rng,
) -> Vec<FinancingRow> {
    let id = |j: usize| world.id("financing", &format!("{n}:{i}:{j}"));
    if rng.chance(cal::AMOUNT_MISSING) {
        return if rng.chance(0.3) {
            vec![FinancingRow {
                id: id(0),
                financing_type: kind.round_type,
                size_usd: None,
                size_native: None,
                currency: None,
            }]
        } else {
            vec![]
        };
    }
    let (median, sigma) = cal::round_size(kind.round_type, kind.pre, kind.extension);
    let usd = cal::round_amount(rng.log_normal(median, sigma));
    let rate = cal::usd_per_unit(currency).filter(|_| currency != "USD" && rng.chance(0.55));
    let main = match rate {
        Some(rate) => {
            let native = cal::round_amount(usd / rate);
            financing(
                id(0),
                kind.round_type,
                (native * rate).round(),
                native,
                currency,
            )
        }
        None => financing(id(0), kind.round_type, usd, usd, "USD"),
    };
    let mut out = vec![main];
    if kind.on_ladder && kind.stage >= 2 && rng.chance(0.04) {
        let debt = cal::round_amount(usd * (0.1 + 0.2 * rng.unit()));
        out.push(financing(
            id(1),
            RoundType::DebtFinancing,
            debt,
            debt,
            "USD",
        ));
    }
    out
}

fn financing(
    id: Uuid,
    financing_type: RoundType,
    usd: f64,
    native: f64,
    currency: &str,
) -> FinancingRow {
    FinancingRow {
        id,
        financing_type,
        size_usd: Some(usd),
        size_native: Some(native),
        currency: Some(currency.to_string()),
    }
}

/// Chance that a round has no firm at all.
fn no_firm_chance(kind: Kind) -> f64 {
    use RoundType::*;
    match kind.round_type {
        Grant | Crowdfunding | NonEquityAssistance | InitialCoinOffering => 0.9,
        SecondaryMarket => 0.5,
        _ if !kind.on_ladder => 0.35,
        _ => [0.6, 0.25][..].get(kind.stage).copied().unwrap_or(0.03),
    }
}

/// The firms of a round, lead first, with their indices in `World::firms`.
fn firms(
    ctx: &DealContext,
    company: &CompanyFacts,
    kind: Kind,
    rng: &mut Rng,
) -> (Vec<DealFirmRow>, Vec<u32>) {
    if rng.chance(no_firm_chance(kind)) {
        return (Vec::new(), Vec::new());
    }
    let mut count = 1 + rng.weighted(&[1.0, 0.55, 0.35, 0.22, 0.14, 0.09]);
    if kind.on_ladder && kind.stage >= 3 && rng.chance(0.3) {
        count = (count + 1).min(6);
    }
    let sector = company.sector as usize;
    let firms = &ctx.world.firms;
    let Some(lead) = ctx.picker.pick(firms, sector, Some(kind.stage), &[], rng) else {
        return (Vec::new(), Vec::new());
    };
    let mut taken = vec![lead];
    while taken.len() < count {
        match ctx.picker.pick(firms, sector, None, &taken, rng) {
            Some(f) => taken.push(f),
            None => break,
        }
    }
    let rows = taken
        .iter()
        .enumerate()
        .map(|(j, f)| participation(ctx, *f as usize, j == 0, kind, rng))
        .collect();
    (rows, taken)
}

fn participation(
    ctx: &DealContext,
    f: usize,
    lead: bool,
    kind: Kind,
    rng: &mut Rng,
) -> DealFirmRow {
    let partners = &ctx.partner_ids[f];
    let named = rng.weighted(if lead {
        &[0.25, 0.55, 0.2]
    } else {
        &[0.6, 0.35, 0.05]
    });
    let mut partner_ids: Vec<Uuid> = Vec::new();
    for _ in 0..named {
        let weights: Vec<f64> = (0..partners.len())
            .map(|k| 1.0 / (k as f64 + 1.0))
            .collect();
        let Some(id) = partners.get(rng.weighted(&weights)) else {
            break;
        };
        if !partner_ids.contains(id) {
            partner_ids.push(*id);
        }
    }
    DealFirmRow {
        firm_id: ctx.world.firms[f].id,
        lead,
        partner_ids,
        financing_type: rng.chance(0.12).then_some(kind.round_type),
    }
}

fn angels(ctx: &DealContext, kind: Kind, rng: &mut Rng) -> Vec<DealAngelRow> {
    let early = matches!(
        kind.round_type,
        RoundType::Safe | RoundType::ConvertibleNote
    ) || (kind.on_ladder && kind.stage <= 1);
    let weights: &[f64] = match (early, kind.on_ladder && kind.stage == 2) {
        (true, _) => &[0.35, 0.3, 0.2, 0.15],
        (false, true) => &[0.7, 0.18, 0.08, 0.04],
        _ => &[0.9, 0.07, 0.02, 0.01],
    };
    let mut out: Vec<DealAngelRow> = Vec::new();
    for _ in 0..rng.weighted(weights) {
        let Some(person_id) = ctx
            .angel_weights
            .sample(rng)
            .and_then(|a| ctx.angels.get(a))
            .copied()
        else {
            break;
        };
        if out.iter().all(|a| a.person_id != person_id) {
            out.push(DealAngelRow {
                person_id,
                financing_type: rng.chance(0.08).then_some(kind.round_type),
            });
        }
    }
    out
}

fn valuation(
    kind: Kind,
    total: f64,
    main: Option<&FinancingRow>,
    rng: &mut Rng,
) -> Option<ValuationRow> {
    let p = match (kind.on_ladder, kind.stage) {
        (false, _) | (true, 0..=1) => 0.05,
        (true, 2..=3) => 0.15,
        _ => 0.3,
    };
    if !rng.chance(p) {
        return None;
    }
    let post = cal::round_amount(total * (4.0 + 8.0 * rng.unit()));
    let (valuation_type, usd) = match rng.weighted(&[0.6, 0.25, 0.15]) {
        0 => (ValuationType::PostMoney, post),
        1 => (ValuationType::PreMoney, post - total),
        _ => (ValuationType::Default, post),
    };
    let currency = main
        .and_then(|f| f.currency.clone())
        .unwrap_or_else(|| "USD".into());
    let native = cal::usd_per_unit(&currency).map(|rate| cal::round_amount(usd / rate));
    Some(ValuationRow {
        valuation_type,
        currency: Some(currency),
        usd: Some(usd),
        native,
    })
}

fn descriptions(
    world: &World,
    company: &CompanyFacts,
    label: &str,
    total: Option<f64>,
    firm_indices: &[u32],
    rng: &mut Rng,
) -> (Option<String>, Option<String>) {
    let (want_short, want_long) = (rng.chance(0.55), rng.chance(0.35));
    if !want_short && !want_long {
        return (None, None);
    }
    let name_of = |f: &u32| world.firms.get(*f as usize).map(|x| x.name.as_str());
    let lead = firm_indices.first().and_then(name_of);
    let others: Vec<&str> = firm_indices.iter().skip(1).filter_map(name_of).collect();
    let sector = &world.taxonomy.sectors[company.sector as usize];
    let story = DealStory {
        company: &company.name,
        label,
        amount: total,
        lead,
        others: &others,
        industry: &sector.name,
        city: world.city_name(company.city),
        pitch: Pitch::of(sector, company.pitch),
    };
    let short = want_short.then(|| text::deal_short(&story));
    let long = want_long.then(|| text::deal_long(&story, rng));
    (short, long)
}

fn articles(
    world: &World,
    company: &CompanyFacts,
    label: &str,
    total: Option<f64>,
    date: Date,
    rng: &mut Rng,
) -> Vec<ArticleRow> {
    let count = rng.weighted(&[0.35, 0.35, 0.2, 0.1]);
    let iso = world.country_iso(company.city).unwrap_or("US");
    let outlets: Vec<&str> = vocab::OUTLETS
        .iter()
        .filter(|(_, covers)| covers.is_empty() || covers.split(' ').any(|c| c == iso))
        .map(|(h, _)| *h)
        .collect();
    (0..count)
        .map(|j| {
            let published = Date(date.0 + rng.range(0, 3) as i32);
            let link = match company.domain.as_deref().filter(|_| rng.chance(0.1)) {
                Some(domain) => format!(
                    "https://{domain}/blog/{}",
                    crate::schema::ids::slugify(label)
                ),
                None => {
                    let host = rng.pick(&outlets).copied().unwrap_or("techcrunch.com");
                    text::article_link(host, &company.permalink, label, total, published, rng)
                }
            };
            ArticleRow {
                link: Some(link),
                date: Some(published),
                is_primary: j == 0,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn series_suffixes_count_from_two() {
        assert_eq!(suffix_number(1), Intermediate::Two);
        assert_eq!(suffix_number(2), Intermediate::Three);
        assert_eq!(suffix_number(40), Intermediate::Eight);
    }

    #[test]
    fn the_ladder_reaches_series_m_and_modifiers_stay_consistent() {
        let mut rng = Rng::new(17);
        let mut seen = HashSet::new();
        for _ in 0..20_000 {
            for k in kinds(10, &mut rng) {
                assert!(
                    !k.pre || k.round_type == RoundType::Seed || SERIES.contains(&k.round_type),
                    "{k:?}"
                );
                assert!(
                    k.intermediate.is_none() || SERIES.contains(&k.round_type),
                    "{k:?}"
                );
                assert!(!(k.pre && k.extension), "{k:?}");
                seen.insert((k.round_type, k.pre, k.extension, k.intermediate));
            }
        }
        for key in [
            (RoundType::Seed, true, false, None),
            (RoundType::SeriesA, false, true, None),
            (RoundType::SeriesE, false, false, Some(Intermediate::Two)),
            (RoundType::SeriesM, false, false, None),
            (RoundType::DebtFinancing, false, false, None),
        ] {
            assert!(seen.contains(&key), "{key:?} never generated");
        }
    }

    #[test]
    fn dates_are_ordered_and_inside_the_company_life() {
        let mut rng = Rng::new(5);
        let born = Date::from_ymd(2024, 6, 1).unwrap_or(Date(19_875));
        let as_of = Date::from_ymd(2026, 11, 1).unwrap_or(Date(20_758));
        for _ in 0..1_000 {
            let kinds = kinds(8, &mut rng);
            let dates: Vec<Date> = dates(born, as_of, &kinds, &mut rng)
                .into_iter()
                .flatten()
                .collect();
            assert!(dates.windows(2).all(|w| w[0] <= w[1]));
            assert!(dates.iter().all(|d| born < *d && *d <= as_of));
        }
    }
}
