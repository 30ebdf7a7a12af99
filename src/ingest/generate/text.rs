//! Prose: company, firm and deal descriptions, round labels and article links.
//!
//! Descriptions are assembled from the per-sector vocabulary of
//! `data/industries.txt` (what the company builds, for whom, to what end), so
//! that a semantic search for "voice agents for customer support" finds the
//! companies generated with that pitch, and a deal's description agrees with
//! its company's.

use super::rng::Rng;
use super::taxonomy::Sector;
use super::vocab;
use crate::schema::ids::slugify;
use crate::schema::{Date, Intermediate, RoundType};

/// The three phrases of a pitch: product, customers, outcome.
pub struct Pitch<'a> {
    pub product: &'a str,
    pub customers: &'a str,
    pub outcome: &'a str,
}

impl<'a> Pitch<'a> {
    pub fn of(sector: &'a Sector, pitch: [u8; 3]) -> Pitch<'a> {
        let at = |list: &'a [String], i: u8| {
            list.get(i as usize % list.len().max(1))
                .map_or("", |s| s.as_str())
        };
        Pitch {
            product: at(&sector.products, pitch[0]),
            customers: at(&sector.customers, pitch[1]),
            outcome: at(&sector.outcomes, pitch[2]),
        }
    }
}

/// `a payments API` → `A payments API`.
pub fn capitalize(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

/// Drops a leading article: `a payments API` → `payments API`.
fn bare(product: &str) -> &str {
    product
        .strip_prefix("a ")
        .or_else(|| product.strip_prefix("an "))
        .unwrap_or(product)
}

/// How a product is delivered or built: varies the phrasing across sectors.
const ANGLES: &[&str] = &[
    "through a simple API",
    "with a mobile app",
    "on a usage-based subscription",
    "using machine learning",
    "built on open-source software",
    "with on-premise deployment for regulated industries",
    "through a self-serve web dashboard",
    "with integrations into the tools they already use",
    "backed by a team of specialists",
    "with real-time alerts",
];

/// One sentence: what the company sells and to whom, in one of eight phrasings.
pub fn company_short(pitch: &Pitch, industry: &str, rng: &mut Rng) -> String {
    let product = bare(pitch.product);
    let angle = ANGLES[rng.index(ANGLES.len())];
    match rng.index(8) {
        0 => format!("{} for {}.", capitalize(pitch.product), pitch.customers),
        1 => format!(
            "{industry} company building {product} for {}.",
            pitch.customers
        ),
        2 => format!("Helps {} {}.", pitch.customers, pitch.outcome),
        3 => format!(
            "{} that helps {} {}.",
            capitalize(pitch.product),
            pitch.customers,
            pitch.outcome
        ),
        4 => format!(
            "{} for {}, delivered {angle}.",
            capitalize(product),
            pitch.customers
        ),
        5 => format!("We help {} {} {angle}.", pitch.customers, pitch.outcome),
        6 => format!(
            "The {product} {} rely on to {}.",
            pitch.customers, pitch.outcome
        ),
        _ => format!(
            "{} {angle}, so {} can {}.",
            capitalize(pitch.product),
            pitch.customers,
            pitch.outcome
        ),
    }
}

/// Two to four sentences about what the company does, where and since when.
pub fn company_long(
    name: &str,
    pitch: &Pitch,
    sector: &Sector,
    city: Option<&str>,
    founded: Option<Date>,
    rng: &mut Rng,
) -> String {
    let mut text = match rng.index(4) {
        0 => format!("{name} builds {} for {}. ", pitch.product, pitch.customers),
        1 => format!(
            "{name} makes {} used by {}. ",
            pitch.product, pitch.customers
        ),
        2 => format!(
            "{name} offers {} to {}, {}. ",
            pitch.product,
            pitch.customers,
            ANGLES[rng.index(ANGLES.len())]
        ),
        _ => format!(
            "At {name}, we build {} for {}. ",
            pitch.product, pitch.customers
        ),
    };
    let second = rng
        .pick(&sector.outcomes)
        .map_or(pitch.outcome, |s| s.as_str());
    if second != pitch.outcome {
        text.push_str(&format!(
            "Its customers use it to {} and {}. ",
            pitch.outcome, second
        ));
    } else {
        text.push_str(&format!("Its customers use it to {}. ", pitch.outcome));
    }
    match (founded, city) {
        (Some(d), Some(c)) => text.push_str(&format!(
            "Founded in {}, the company is headquartered in {c}.",
            d.year()
        )),
        (None, Some(c)) => text.push_str(&format!("The company is headquartered in {c}.")),
        (Some(d), None) => text.push_str(&format!("The company was founded in {}.", d.year())),
        (None, None) => text.push_str(&format!(
            "The company works in {}.",
            sector.name.to_lowercase()
        )),
    }
    text
}

/// A firm's one-paragraph description.
pub fn firm_description(name: &str, stage: &str, sectors: &[&str], city: Option<&str>) -> String {
    let focus = match sectors {
        [] => "technology".to_string(),
        [one] => one.to_lowercase(),
        [rest @ .., last] => format!(
            "{} and {}",
            rest.join(", ").to_lowercase(),
            last.to_lowercase()
        ),
    };
    let place = city.map_or(String::new(), |c| format!(" based in {c}"));
    format!(
        "{name} is a venture capital firm{place}. It backs {focus} companies at the {stage} stage."
    )
}

/// `Series E-2`, `Pre-Seed`, `Series A extension`, `Debt Financing`.
pub fn round_label(
    round_type: RoundType,
    pre: bool,
    extension: bool,
    intermediate: Option<Intermediate>,
) -> String {
    let base = match round_type {
        RoundType::Seed => "Seed".to_string(),
        RoundType::Safe => "SAFE".to_string(),
        RoundType::InitialCoinOffering => "Initial Coin Offering".to_string(),
        t => title_case(t.as_str()),
    };
    let base = match intermediate {
        Some(Intermediate::Plus) => format!("{base}+"),
        Some(i) => match intermediate_number(i) {
            Some(n) => format!("{base}-{n}"),
            None => base,
        },
        None => base,
    };
    let base = if pre { format!("Pre-{base}") } else { base };
    if extension {
        format!("{base} extension")
    } else {
        base
    }
}

fn intermediate_number(i: Intermediate) -> Option<u8> {
    Intermediate::ALL
        .iter()
        .position(|x| *x == i)
        .and_then(|p| (p >= 2).then_some(p as u8 - 1))
}

fn title_case(wire: &str) -> String {
    wire.split('_')
        .map(|w| capitalize(&w.to_lowercase()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `$12M`, `$850K`, `$1.2B`.
pub fn money(usd: f64) -> String {
    let (value, unit) = match usd {
        x if x >= 1e9 => (x / 1e9, "B"),
        x if x >= 1e6 => (x / 1e6, "M"),
        x => (x / 1e3, "K"),
    };
    let shown = format!("{value:.1}");
    format!(
        "${}{unit}",
        shown.trim_end_matches('0').trim_end_matches('.')
    )
}

/// The facts a deal's prose is written from.
pub struct DealStory<'a> {
    pub company: &'a str,
    pub label: &'a str,
    pub amount: Option<f64>,
    pub lead: Option<&'a str>,
    pub others: &'a [&'a str],
    pub industry: &'a str,
    pub city: Option<&'a str>,
    pub pitch: Pitch<'a>,
}

pub fn deal_short(story: &DealStory) -> String {
    let amount = story
        .amount
        .map_or("undisclosed funding".to_string(), money);
    match story.lead {
        Some(lead) => format!(
            "{} raises {amount} {} led by {lead}.",
            story.company, story.label
        ),
        None => format!("{} raises {amount} {}.", story.company, story.label),
    }
}

pub fn deal_long(story: &DealStory, rng: &mut Rng) -> String {
    let place = story
        .city
        .map_or(String::new(), |c| format!(" based in {c}"));
    let amount = story
        .amount
        .map_or("an undisclosed amount".to_string(), money);
    let industry = mid_sentence(story.industry);
    let mut text = format!(
        "{}, {} {industry} company{place}, has raised {amount} in {} funding",
        story.company,
        article(&industry),
        story.label
    );
    if let Some(lead) = story.lead {
        text.push_str(&format!(" led by {lead}"));
    }
    match story.others {
        [] => text.push('.'),
        [one] => text.push_str(&format!(", with participation from {one}.")),
        [rest @ .., last] => text.push_str(&format!(
            ", with participation from {} and {last}.",
            rest.join(", ")
        )),
    }
    let used_for = rng.pick(vocab::USES_OF_FUNDS).copied().unwrap_or("grow");
    text.push_str(&format!(
        " The company builds {} for {} and will use the new capital to {used_for}.",
        story.pitch.product, story.pitch.customers
    ));
    text
}

/// A name as it reads inside a sentence: `Machine Learning` → `machine
/// learning`, while `FinTech`, `CRM` and `E-Commerce` keep their capitals.
pub fn mid_sentence(name: &str) -> String {
    let word = |w: &str| {
        let mut chars = w.chars();
        match chars.next() {
            Some(c) if chars.all(|c| !c.is_uppercase()) => {
                c.to_lowercase().chain(w.chars().skip(1)).collect()
            }
            _ => w.to_string(),
        }
    };
    name.split(' ').map(word).collect::<Vec<_>>().join(" ")
}

/// `a` or `an` before `word` (by its first letter).
pub fn article(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u', 'A', 'E', 'I', 'O', 'U']) {
        "an"
    } else {
        "a"
    }
}

/// A plausible article URL about a round on `host`, published on `date`.
pub fn article_link(
    host: &str,
    company_slug: &str,
    label: &str,
    amount: Option<f64>,
    date: Date,
    rng: &mut Rng,
) -> String {
    let amount_slug = amount.map_or(String::new(), |a| {
        format!("-{}", slugify(&money(a).replace('.', "-")))
    });
    let slug = format!("{company_slug}-raises{amount_slug}-{}", slugify(label));
    let day = date.to_naive();
    match host {
        "techcrunch.com" | "venturebeat.com" => {
            format!("https://{host}/{}/{slug}/", day.format("%Y/%m/%d"))
        }
        "www.businesswire.com" => {
            format!(
                "https://{host}/news/home/{}{:06}/en/{slug}",
                day.format("%Y%m%d"),
                rng.below(1_000_000)
            )
        }
        "www.prnewswire.com" => format!(
            "https://{host}/news-releases/{slug}-{}.html",
            300_000_000 + rng.below(99_999_999)
        ),
        "www.reuters.com" | "www.bloomberg.com" => format!(
            "https://{host}/technology/{slug}-{}/",
            day.format("%Y-%m-%d")
        ),
        _ => format!("https://{host}/{slug}-{}/", rng.below(100_000)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_labels_read_naturally() {
        assert_eq!(
            round_label(RoundType::SeriesE, false, false, Some(Intermediate::Two)),
            "Series E-2"
        );
        assert_eq!(round_label(RoundType::Seed, true, false, None), "Pre-Seed");
        assert_eq!(
            round_label(RoundType::SeriesA, false, true, None),
            "Series A extension"
        );
        assert_eq!(
            round_label(RoundType::SeriesB, false, false, Some(Intermediate::Plus)),
            "Series B+"
        );
        assert_eq!(
            round_label(RoundType::DebtFinancing, false, false, None),
            "Debt Financing"
        );
    }

    #[test]
    fn money_is_compact() {
        assert_eq!(money(12_000_000.0), "$12M");
        assert_eq!(money(850_000.0), "$850K");
        assert_eq!(money(1_250_000_000.0), "$1.2B");
        assert_eq!(money(3_400_000.0), "$3.4M");
    }

    #[test]
    fn descriptions_use_the_pitch() {
        let sector = Sector {
            name: "Payments".into(),
            products: vec!["a payments API".into()],
            customers: vec!["online merchants".into()],
            outcomes: vec!["get paid faster".into()],
            ..Sector::default()
        };
        let pitch = Pitch::of(&sector, [0, 0, 0]);
        let mut rng = Rng::new(1);
        let long = company_long(
            "Acme Pay",
            &pitch,
            &sector,
            Some("London"),
            Date::from_ymd(2020, 5, 1),
            &mut rng,
        );
        assert!(
            long.contains("a payments API") && long.contains("online merchants"),
            "{long}"
        );
        assert!(
            long.ends_with("Its customers use it to get paid faster. Founded in 2020, the company is headquartered in London."),
            "{long}"
        );
        let openings: std::collections::HashSet<String> = (0..40)
            .map(|_| {
                let text = company_long("Acme Pay", &pitch, &sector, None, None, &mut rng);
                text.split(". ").next().unwrap_or_default().to_string()
            })
            .collect();
        assert!(
            openings.len() >= 3,
            "several phrasings of the opening: {openings:?}"
        );
        let shorts: Vec<String> = (0..60)
            .map(|_| company_short(&pitch, "Payments", &mut rng))
            .collect();
        let distinct: std::collections::HashSet<&String> = shorts.iter().collect();
        assert!(
            distinct.len() >= 10,
            "phrasings and delivery angles vary: {}",
            distinct.len()
        );
        assert!(shorts
            .iter()
            .all(|s| s.contains("payments API") || s.contains("online merchants")));
        assert!(shorts.contains(&"A payments API for online merchants.".to_string()));
        assert!(shorts
            .contains(&"Payments company building payments API for online merchants.".to_string()));
    }

    #[test]
    fn deal_prose_names_the_lead_and_participants() {
        let sector = Sector {
            products: vec!["a CRM".into()],
            customers: vec!["sales teams".into()],
            ..Sector::default()
        };
        let story = DealStory {
            company: "Acme",
            label: "Series A",
            amount: Some(12_000_000.0),
            lead: Some("North Ventures"),
            others: &["Ridge Capital", "Oak Fund"],
            industry: "CRM",
            city: Some("Austin"),
            pitch: Pitch::of(&sector, [0, 0, 0]),
        };
        assert_eq!(
            deal_short(&story),
            "Acme raises $12M Series A led by North Ventures."
        );
        let long = deal_long(&story, &mut Rng::new(1));
        assert!(long.starts_with(
            "Acme, a CRM company based in Austin, has raised $12M in Series A funding led by North Ventures, \
             with participation from Ridge Capital and Oak Fund. The company builds a CRM for sales teams"
        ), "{long}");
    }

    #[test]
    fn firm_descriptions_list_the_focus() {
        let text = firm_description(
            "Oak Ventures",
            "early",
            &["Software", "Health Care"],
            Some("Boston"),
        );
        assert_eq!(text, "Oak Ventures is a venture capital firm based in Boston. It backs software and health care companies at the early stage.");
    }

    #[test]
    fn names_read_naturally_mid_sentence() {
        assert_eq!(mid_sentence("Machine Learning"), "machine learning");
        assert_eq!(mid_sentence("FinTech"), "FinTech");
        assert_eq!(mid_sentence("E-Commerce Platforms"), "E-Commerce platforms");
        assert_eq!(article("internet"), "an");
        assert_eq!(article("SaaS"), "a");
    }

    #[test]
    fn article_links_are_urls() {
        let mut rng = Rng::new(1);
        let date = Date::from_ymd(2025, 3, 4).unwrap_or(Date(0));
        let link = article_link(
            "techcrunch.com",
            "acme",
            "Series A",
            Some(3_400_000.0),
            date,
            &mut rng,
        );
        assert_eq!(
            link,
            "https://techcrunch.com/2025/03/04/acme-raises-3-4m-series-a/"
        );
    }
}
