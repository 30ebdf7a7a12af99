//! The numbers that shape generated data, and where each comes from.
//!
//! Fitted on the real data in `shared/data/` (computed once with a short
//! Python script over `crunchbase-2013/rounds.csv.gz`, 31,679 rounds; medians
//! of `raised_amount_usd` per `funding_round_type`, sigma = IQR of
//! ln(amount) / 1.349, a robust log-normal fit):
//!
//! | 2013 type | rounds | no amount | median USD | sigma |
//! |---|---|---|---|---|
//! | angel | 6,644 | 19.4 % | 330,000 | 1.49 |
//! | series-a | 6,523 | 5.5 % | 3,380,732 | 0.85 |
//! | series-b | 3,460 | 3.2 % | 9,000,000 | 0.81 |
//! | series-c+ | 3,361 | 2.3 % | 14,500,000 | 0.85 |
//! | venture | 7,941 | 8.4 % | 3,000,000 | 1.82 |
//! | other | 2,921 | 1.3 % | 1,000,000 | 1.78 |
//! | private-equity | 757 | 5.7 % | 6,689,285 | 0.98 |
//! | post-ipo | 42 | 2.4 % | 35,000,000 | 2.26 |
//! | crowdfunding | 30 | 3.3 % | 500,000 | 2.46 |
//!
//! Overall 8.1 % of rounds have no amount. Types the 2013 export lumps
//! together are extrapolated and marked as such below. Other shapes (headcount,
//! listing status, modifiers) are not in the real data and are hand-set.

use crate::schema::{Headcount, IpoStatus, RoundType};

/// Share of rounds announced without an amount (rounds.csv: 2,579 / 31,679).
pub const AMOUNT_MISSING: f64 = 0.081;

/// Log-normal (median USD, sigma) of a round's size.
pub fn round_size(round_type: RoundType, pre: bool, extension: bool) -> (f64, f64) {
    let (median, sigma) = base_size(round_type);
    let factor = match (pre, extension) {
        (true, _) => 0.5,     // hand-set: a pre-round is about half the round it precedes
        (false, true) => 0.4, // hand-set: extensions top up a round
        _ => 1.0,
    };
    (median * factor, sigma)
}

fn base_size(round_type: RoundType) -> (f64, f64) {
    use RoundType::*;
    match round_type {
        Seed | Safe => (330_000.0, 1.49),          // angel
        SeriesA => (3_380_732.0, 0.85),            // series-a
        SeriesB => (9_000_000.0, 0.81),            // series-b
        SeriesC => (14_500_000.0, 0.85),           // series-c+
        FundingRound => (3_000_000.0, 1.82),       // venture
        Equity | Preferred => (6_689_285.0, 0.98), // private-equity
        SecondaryMarket => (35_000_000.0, 2.26),   // post-ipo
        Crowdfunding => (500_000.0, 2.46),         // crowdfunding
        ConvertibleNote | DebtFinancing | Grant | NonEquityAssistance | InitialCoinOffering => {
            (1_000_000.0, 1.78)
        } // other
        later => (series_beyond_c(later), 0.85),
    }
}

/// Series D and later: not separated in the 2013 export ("series-c+");
/// extrapolated as ×1.6 per letter from the series-c+ median.
fn series_beyond_c(round_type: RoundType) -> f64 {
    let letters_after_c = SERIES
        .iter()
        .position(|t| *t == round_type)
        .map_or(1, |i| i.saturating_sub(2));
    14_500_000.0 * 1.6f64.powi(letters_after_c as i32)
}

/// The priced series, in order.
pub const SERIES: [RoundType; 13] = [
    RoundType::SeriesA,
    RoundType::SeriesB,
    RoundType::SeriesC,
    RoundType::SeriesD,
    RoundType::SeriesE,
    RoundType::SeriesF,
    RoundType::SeriesG,
    RoundType::SeriesH,
    RoundType::SeriesI,
    RoundType::SeriesJ,
    RoundType::SeriesK,
    RoundType::SeriesL,
    RoundType::SeriesM,
];

/// Rounds per company: geometric on 0..=10, `P(k) ∝ q^k` with q chosen so the
/// mean is 2.5 (deals ≈ 2.5 × companies, performance.md §4.2).
pub const ROUNDS_RATIO: f64 = 0.748_255;
pub const MAX_ROUNDS: u32 = 10;

/// First round's stage on the ladder (0 = pre-seed, 1 = seed, 2 = Series A,
/// ... 14 = Series M), hand-set so that SEED and SERIES_A dominate while a
/// few companies enter the data at a late stage (the long tail to SERIES_M).
pub const FIRST_STAGE_WEIGHTS: [f64; 15] = [
    0.20, 0.50, 0.17, 0.05, 0.025, 0.015, 0.01, 0.007, 0.005, 0.004, 0.003, 0.002, 0.002, 0.001,
    0.001,
];

/// Probability that a round after one at ladder `stage` is off the ladder
/// (debt, note, grant...): late-stage companies raise fewer priced rounds.
pub fn off_ladder(stage: usize) -> f64 {
    (0.18 + 0.04 * stage as f64).min(0.6)
}

/// After a seed: another plain seed round instead of moving up (hand-set).
pub const SEED_AGAIN: f64 = 0.25;
/// After a ladder round: repeat the stage as an extension / with a series
/// suffix (`PLUS`, `TWO`...); otherwise move up one stage.
pub const EXTENSION: f64 = 0.10;
pub const INTERMEDIATE: f64 = 0.04;
/// A priced series announced as a "pre-" round (pre-Series A...).
pub const PRE_SERIES: f64 = 0.02;

/// Off-ladder round types and their weights (the 2013 venture/other buckets, split by hand).
pub const OFF_LADDER_TYPES: &[(RoundType, f64)] = &[
    (RoundType::FundingRound, 0.30),
    (RoundType::DebtFinancing, 0.18),
    (RoundType::ConvertibleNote, 0.15),
    (RoundType::Safe, 0.07),
    (RoundType::Grant, 0.06),
    (RoundType::Equity, 0.06),
    (RoundType::SecondaryMarket, 0.04),
    (RoundType::Preferred, 0.03),
    (RoundType::Crowdfunding, 0.06),
    (RoundType::NonEquityAssistance, 0.03),
    (RoundType::InitialCoinOffering, 0.02),
];

/// Headcount buckets, skewed small; `Headcount::ALL` order. Hand-set.
pub const HEADCOUNT_WEIGHTS: [f64; 9] = [0.36, 0.30, 0.12, 0.09, 0.055, 0.035, 0.025, 0.01, 0.005];

/// Listing status: mostly private. Hand-set; the 2013 `status` column gives
/// operating 85.5 %, acquired 9.4 %, ipo 1.9 % (closed 3.1 % has no enum value).
pub const IPO_WEIGHTS: [(IpoStatus, f64); 4] = [
    (IpoStatus::Private, 0.86),
    (IpoStatus::Acquired, 0.095),
    (IpoStatus::Public, 0.035),
    (IpoStatus::Delisted, 0.01),
];

/// Bucket index shift for companies with many rounds (bigger companies raise more).
pub fn headcount_shift(rounds: u32) -> usize {
    (rounds as usize).saturating_sub(2) / 2
}

pub fn headcount_bucket(index: usize) -> Headcount {
    Headcount::ALL[index.min(Headcount::ALL.len() - 1)]
}

/// US dollars per unit of each currency: fixed 2025 averages, rounded
/// (only used to pair `size_usd` with `size_native`).
pub fn usd_per_unit(currency: &str) -> Option<f64> {
    Some(match currency {
        "USD" => 1.0,
        "EUR" => 1.10,
        "GBP" => 1.30,
        "CHF" => 1.15,
        "INR" => 0.012,
        "CAD" => 0.73,
        "CNY" => 0.14,
        "SGD" => 0.75,
        "BRL" => 0.18,
        "SEK" => 0.097,
        "AUD" => 0.66,
        "DKK" => 0.147,
        "NOK" => 0.094,
        "JPY" => 0.0067,
        "KRW" => 0.00072,
        "HKD" => 0.128,
        "MXN" => 0.054,
        "ZAR" => 0.055,
        "PLN" => 0.26,
        "NZD" => 0.60,
        _ => return None,
    })
}

/// Rounds a positive amount to two significant digits (announced figures are round).
pub fn round_amount(x: f64) -> f64 {
    if x <= 0.0 || !x.is_finite() {
        return 0.0;
    }
    let magnitude = 10f64.powi(x.log10().floor() as i32 - 1);
    ((x / magnitude).round() * magnitude).max(1_000.0).round()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn later_series_are_larger() {
        let median = |t| round_size(t, false, false).0;
        let sizes: Vec<f64> = SERIES.iter().map(|t| median(*t)).collect();
        assert!(sizes.windows(2).all(|w| w[0] < w[1]), "{sizes:?}");
        assert!(median(RoundType::Seed) < median(RoundType::SeriesA));
        assert!(round_size(RoundType::Seed, true, false).0 < median(RoundType::Seed));
    }

    #[test]
    fn rounds_ratio_gives_a_mean_of_two_and_a_half() {
        let weights: Vec<f64> = (0..=MAX_ROUNDS)
            .map(|k| ROUNDS_RATIO.powi(k as i32))
            .collect();
        let total: f64 = weights.iter().sum();
        let mean: f64 = weights
            .iter()
            .enumerate()
            .map(|(k, w)| k as f64 * w)
            .sum::<f64>()
            / total;
        assert!((mean - 2.5).abs() < 1e-3, "{mean}");
    }

    #[test]
    fn amounts_round_to_two_significant_digits() {
        assert_eq!(round_amount(3_380_732.0), 3_400_000.0);
        assert_eq!(round_amount(987.0), 1_000.0);
        assert_eq!(round_amount(-5.0), 0.0);
        assert!(usd_per_unit("EUR").is_some() && usd_per_unit("XXX").is_none());
    }
}
