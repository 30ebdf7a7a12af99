//! Calendar dates and instants as the dumps, the index and the API carry them.
//!
//! A [`Date`] is a day count since 1970-01-01 (fits the `i32` date columns);
//! a [`Timestamp`] is milliseconds since the epoch, UTC (the `i64` columns).
//! Both parse strictly and render in the API's ISO 8601 forms.

use chrono::{DateTime, Datelike, NaiveDate, Utc};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

const MS_PER_DAY: i64 = 86_400_000;

/// A calendar day, stored as days since 1970-01-01.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date(pub i32);

impl Date {
    /// Parses exactly `YYYY-MM-DD`.
    pub fn parse(text: &str) -> Option<Date> {
        if text.len() != 10 {
            return None;
        }
        let day = NaiveDate::parse_from_str(text, "%Y-%m-%d").ok()?;
        Some(Date::from_naive(day))
    }

    pub fn from_naive(day: NaiveDate) -> Date {
        Date((day - NaiveDate::from_ymd_opt(1970, 1, 1).unwrap()).num_days() as i32)
    }

    pub fn to_naive(self) -> NaiveDate {
        NaiveDate::from_ymd_opt(1970, 1, 1).unwrap() + chrono::Duration::days(self.0 as i64)
    }

    pub fn from_ymd(y: i32, m: u32, d: u32) -> Option<Date> {
        NaiveDate::from_ymd_opt(y, m, d).map(Date::from_naive)
    }

    /// Today, UTC.
    pub fn today() -> Date {
        Date::from_naive(Utc::now().date_naive())
    }

    /// The same calendar day one year earlier (Feb 29 becomes Feb 28).
    pub fn one_year_before(self) -> Date {
        let d = self.to_naive();
        let year = d.year() - 1;
        let day = NaiveDate::from_ymd_opt(year, d.month(), d.day())
            .or_else(|| NaiveDate::from_ymd_opt(year, d.month(), d.day() - 1))
            .unwrap();
        Date::from_naive(day)
    }

    pub fn year(self) -> i32 {
        self.to_naive().year()
    }

    /// `2024-01-15`
    pub fn iso(self) -> String {
        self.to_naive().format("%Y-%m-%d").to_string()
    }

    /// `2024-01-15T00:00:00.000Z`, the API's date-time rendering of a day.
    pub fn iso_datetime(self) -> String {
        format!("{}T00:00:00.000Z", self.iso())
    }

    /// The first millisecond of this day.
    pub fn start_ms(self) -> i64 {
        self.0 as i64 * MS_PER_DAY
    }

    /// The last millisecond of this day.
    pub fn end_ms(self) -> i64 {
        self.start_ms() + MS_PER_DAY - 1
    }
}

/// An instant, milliseconds since the epoch (UTC).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp(pub i64);

impl Timestamp {
    /// Parses RFC 3339 (`2024-01-16T12:30:00Z`, offsets allowed) or a bare
    /// `YYYY-MM-DD` (midnight UTC).
    pub fn parse(text: &str) -> Option<Timestamp> {
        if let Some(day) = Date::parse(text) {
            return Some(Timestamp(day.start_ms()));
        }
        let at = DateTime::parse_from_rfc3339(text).ok()?;
        Some(Timestamp(at.timestamp_millis()))
    }

    pub fn date(self) -> Date {
        Date(self.0.div_euclid(MS_PER_DAY) as i32)
    }

    /// `2024-01-16T12:30:00.000Z`
    pub fn iso(self) -> String {
        let at = DateTime::<Utc>::from_timestamp_millis(self.0).unwrap_or_default();
        at.format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string()
    }
}

/// ISO text in text formats; the number itself in compact binary ones.
impl Serialize for Date {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if s.is_human_readable() {
            s.serialize_str(&self.iso())
        } else {
            s.serialize_i32(self.0)
        }
    }
}

impl<'de> Deserialize<'de> for Date {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        if !d.is_human_readable() {
            return i32::deserialize(d).map(Date);
        }
        let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        Date::parse(&text).ok_or_else(|| {
            serde::de::Error::custom(format!("bad date '{text}' (expected YYYY-MM-DD)"))
        })
    }
}

/// ISO text in text formats; the number itself in compact binary ones.
impl Serialize for Timestamp {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if s.is_human_readable() {
            s.serialize_str(&self.iso())
        } else {
            s.serialize_i64(self.0)
        }
    }
}

impl<'de> Deserialize<'de> for Timestamp {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        if !d.is_human_readable() {
            return i64::deserialize(d).map(Timestamp);
        }
        let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        Timestamp::parse(&text).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "bad timestamp '{text}' (expected RFC 3339 or YYYY-MM-DD)"
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_parse_strictly_and_render_iso() {
        let d = Date::parse("2024-01-15").unwrap();
        assert_eq!(d.iso(), "2024-01-15");
        assert_eq!(d.iso_datetime(), "2024-01-15T00:00:00.000Z");
        assert_eq!(Date::parse("1970-01-01"), Some(Date(0)));
        for bad in [
            "2024-1-15",
            "2024-02-30",
            "15/01/2024",
            "",
            "2024-01-15T00:00:00Z",
        ] {
            assert_eq!(Date::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn one_year_before_handles_leap_days() {
        assert_eq!(
            Date::parse("2024-02-29").unwrap().one_year_before(),
            Date::parse("2023-02-28").unwrap()
        );
        assert_eq!(
            Date::parse("2026-11-21").unwrap().one_year_before(),
            Date::parse("2025-11-21").unwrap()
        );
    }

    #[test]
    fn timestamps_accept_rfc3339_and_bare_dates() {
        let t = Timestamp::parse("2024-01-16T12:30:00Z").unwrap();
        assert_eq!(t.iso(), "2024-01-16T12:30:00.000Z");
        assert_eq!(t.date(), Date::parse("2024-01-16").unwrap());
        assert_eq!(
            Timestamp::parse("2024-01-16").unwrap().iso(),
            "2024-01-16T00:00:00.000Z"
        );
        assert_eq!(Timestamp::parse("2024-01-16T14:30:00+02:00").unwrap(), t);
        assert!(Timestamp::parse("yesterday").is_none());
    }

    #[test]
    fn day_bounds_cover_the_whole_day() {
        let d = Date::parse("2024-01-16").unwrap();
        let t = Timestamp::parse("2024-01-16T23:59:59.999Z").unwrap();
        assert!(d.start_ms() <= t.0 && t.0 <= d.end_ms());
        assert_eq!(d.end_ms() + 1, Date(d.0 + 1).start_ms());
    }
}
