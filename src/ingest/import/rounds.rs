//! Crunchbase round vocabulary: `funding_round_type` → [`RoundType`], amounts,
//! the de-duplication key, and the factual one-line deal description.
//!
//! | source type | round type | described as |
//! |---|---|---|
//! | `series-a`, `series-b` | `SERIES_A`, `SERIES_B` | a Series A / B round |
//! | `series-c+` | `SERIES_C` (lossy: C and later are lumped) | a Series C or later round |
//! | `angel` | `SEED` | an angel round |
//! | `venture`, `other` | `FUNDING_ROUND` | a venture round / a funding round |
//! | `private-equity`, `post-ipo` | `EQUITY` | a private equity / post-IPO round |
//! | `crowdfunding` | `CROWDFUNDING` | a crowdfunding round |
//!
//! Descriptions only restate the row: `Waywire raised $1.75M in a Series A
//! round.`, or `Dropbox raised an angel round.` when no amount is given.

use crate::schema::RoundType;

/// Source type → (round type, noun phrase for descriptions).
const ROUND_TYPES: [(&str, RoundType, &str); 9] = [
    ("series-a", RoundType::SeriesA, "a Series A round"),
    ("series-b", RoundType::SeriesB, "a Series B round"),
    ("series-c+", RoundType::SeriesC, "a Series C or later round"),
    ("angel", RoundType::Seed, "an angel round"),
    ("venture", RoundType::FundingRound, "a venture round"),
    ("other", RoundType::FundingRound, "a funding round"),
    (
        "private-equity",
        RoundType::Equity,
        "a private equity round",
    ),
    ("post-ipo", RoundType::Equity, "a post-IPO round"),
    (
        "crowdfunding",
        RoundType::Crowdfunding,
        "a crowdfunding round",
    ),
];

/// The round type of a Crunchbase `funding_round_type`.
pub(crate) fn round_type(source: &str) -> Option<RoundType> {
    ROUND_TYPES
        .iter()
        .find(|(s, _, _)| *s == source)
        .map(|(_, t, _)| *t)
}

/// A USD amount: `None` when blank, an error text when not a non-negative number.
pub(crate) fn parse_amount(text: &str) -> Result<Option<f64>, String> {
    if text.is_empty() {
        return Ok(None);
    }
    match text.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(Some(v)),
        _ => Err(format!(
            "bad amount '{text}' (expected a non-negative number)"
        )),
    }
}

/// The key under which identical rounds collapse, hashed into the deal id:
/// `<company slug>|<funded_at>|<funding_round_type>|<raised_amount_usd>`.
pub(crate) fn deal_key(slug: &str, funded_at: &str, source_type: &str, amount: &str) -> String {
    format!("{slug}|{funded_at}|{source_type}|{amount}")
}

/// `Waywire raised $1.75M in a Series A round.`
pub(crate) fn describe(company: &str, source_type: &str, amount: Option<f64>) -> String {
    let phrase = ROUND_TYPES
        .iter()
        .find(|(s, _, _)| *s == source_type)
        .map_or("a funding round", |(_, _, p)| *p);
    match amount {
        Some(usd) => format!("{company} raised {} in {phrase}.", money(usd)),
        None => format!("{company} raised {phrase}."),
    }
}

/// Compact dollars: `$750`, `$20K`, `$1.75M`, `$3.84B`.
pub(crate) fn money(usd: f64) -> String {
    crate::schema::record::Money(usd).compact()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_source_type_maps_as_the_readme_suggests() {
        assert_eq!(round_type("series-a"), Some(RoundType::SeriesA));
        assert_eq!(round_type("series-c+"), Some(RoundType::SeriesC));
        assert_eq!(round_type("angel"), Some(RoundType::Seed));
        assert_eq!(round_type("venture"), Some(RoundType::FundingRound));
        assert_eq!(round_type("other"), Some(RoundType::FundingRound));
        assert_eq!(round_type("post-ipo"), Some(RoundType::Equity));
        assert_eq!(round_type("crowdfunding"), Some(RoundType::Crowdfunding));
        assert_eq!(round_type("series-d"), None);
    }

    #[test]
    fn amounts_parse_strictly() {
        assert_eq!(parse_amount(""), Ok(None));
        assert_eq!(parse_amount("1750000"), Ok(Some(1_750_000.0)));
        assert!(parse_amount("-5").is_err());
        assert!(parse_amount("$5").is_err());
        assert!(parse_amount("NaN").is_err());
    }

    #[test]
    fn money_is_compact() {
        assert_eq!(money(750.0), "$750");
        assert_eq!(money(20_000.0), "$20K");
        assert_eq!(money(1_750_000.0), "$1.75M");
        assert_eq!(money(12_700_000.0), "$12.7M");
        assert_eq!(money(3_835_050_000.0), "$3.84B");
        assert_eq!(money(999_999.0), "$1M");
    }

    #[test]
    fn descriptions_restate_the_row() {
        assert_eq!(
            describe("#waywire", "series-a", Some(1_750_000.0)),
            "#waywire raised $1.75M in a Series A round."
        );
        assert_eq!(
            describe("Dropbox", "angel", None),
            "Dropbox raised an angel round."
        );
        assert_eq!(
            deal_key("waywire", "2012-06-30", "series-a", "1750000"),
            "waywire|2012-06-30|series-a|1750000"
        );
    }
}
