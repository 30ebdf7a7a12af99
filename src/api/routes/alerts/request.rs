//! The query of `GET /alerts` (reference §10.1), checked in this order:
//! every parameter present and non-empty (`MISSING_PARAMETERS` lists the
//! missing ones), every id a UUID (`INVALID_ALERT_ID` lists the bad ones),
//! at most [`MAX_ALERT_IDS`] distinct ids, both dates ISO 8601 date-times
//! (`INVALID_DATE_FORMAT`; a bare day is refused), start before end,
//! neither in the future (`FUTURE_DATE`), and the end at most one calendar
//! year after the start (`DATE_RANGE_TOO_LARGE`; 2024-01-01T00:00Z to
//! 2024-12-31T23:59:59.999Z is allowed). Unknown parameters were refused
//! by the dispatcher (422 `UNKNOWN_PARAMETER`).

use chrono::{DateTime, Months, Utc};
use serde_json::json;
use uuid::Uuid;

use crate::api::declare::endpoints::MAX_ALERT_IDS;
use crate::api::errors::{ApiError, Code};
use crate::api::params::Query;
use crate::query::request::Range;
use crate::query::resolve::parse_uuid;
use crate::schema::Date;

const PARAMS: [&str; 3] = ["alert_ids", "start_date", "end_date"];
const EXPECTED: &str = "ISO 8601 format (YYYY-MM-DDTHH:mm:ss.sssZ)";

/// A valid `GET /alerts` query.
#[derive(Debug, Clone, PartialEq)]
pub struct AlertsRequest {
    /// Distinct ids, in request order.
    pub ids: Vec<Uuid>,
    pub start: DateTime<Utc>,
    pub end: DateTime<Utc>,
}

impl AlertsRequest {
    /// The UTC days the range covers.
    pub fn days(&self) -> Range<Date> {
        let day = |t: DateTime<Utc>| Date::from_naive(t.date_naive());
        Range {
            min: Some(day(self.start)),
            max: Some(day(self.end)),
        }
    }
}

fn missing(query: &Query) -> Result<(), ApiError> {
    let absent: Vec<&str> = PARAMS
        .into_iter()
        .filter(|p| query.non_empty(p).is_none())
        .collect();
    if absent.is_empty() {
        return Ok(());
    }
    let help = format!(
        "Please provide all required parameters: {}",
        PARAMS.join(", ")
    );
    Err(ApiError::of(
        Code::MissingParameters,
        &[],
        json!({ "missingParams": absent, "help": help }),
    ))
}

fn ids(raw: &str) -> Result<Vec<Uuid>, ApiError> {
    let parts: Vec<(&str, Option<Uuid>)> = raw
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| (p, parse_uuid(p)))
        .collect();
    let bad: Vec<&str> = parts
        .iter()
        .filter(|(_, id)| id.is_none())
        .map(|(p, _)| *p)
        .collect();
    if !bad.is_empty() || parts.is_empty() {
        let shown = if bad.is_empty() {
            raw.to_string()
        } else {
            bad.join(", ")
        };
        let details = json!({ "provided": raw, "help": "Please provide valid UUID format for all alert IDs" });
        return Err(ApiError::of(
            Code::InvalidAlertId,
            &[("ids", &shown)],
            details,
        ));
    }
    let mut ids: Vec<Uuid> = Vec::new();
    for id in parts.into_iter().filter_map(|(_, id)| id) {
        if !ids.contains(&id) {
            ids.push(id);
        }
    }
    if ids.len() > MAX_ALERT_IDS {
        let (max, count) = (MAX_ALERT_IDS.to_string(), ids.len().to_string());
        let help = format!("Split the request: at most {MAX_ALERT_IDS} alerts per call.");
        return Err(ApiError::of(
            Code::TooManyAlertIds,
            &[("max", &max), ("count", &count)],
            json!({ "provided": ids.len(), "help": help }),
        ));
    }
    Ok(ids)
}

/// A date-time with a time and a zone (`2024-01-01T00:00:00.000Z`).
fn instant(field: &str, raw: &str) -> Result<DateTime<Utc>, ApiError> {
    DateTime::parse_from_rfc3339(raw.trim())
        .map(|t| t.with_timezone(&Utc))
        .map_err(|_| {
            let help = "Please provide dates in ISO 8601 format, e.g., 2024-01-01T00:00:00.000Z";
            ApiError::of(
                Code::InvalidDateFormat,
                &[],
                json!({ "field": field, "provided": raw, "expected": EXPECTED, "help": help }),
            )
        })
}

fn not_future(
    field: &str,
    which: &str,
    raw: &str,
    t: DateTime<Utc>,
    now: DateTime<Utc>,
) -> Result<(), ApiError> {
    if t <= now {
        return Ok(());
    }
    let help = format!(
        "Please provide a {} date that is not in the future",
        which.to_lowercase()
    );
    Err(ApiError::of(
        Code::FutureDate,
        &[("which", which)],
        json!({ "field": field, "provided": raw, "help": help }),
    ))
}

fn ordered_within_a_year(
    start: DateTime<Utc>,
    end: DateTime<Utc>,
    raw: (&str, &str),
) -> Result<(), ApiError> {
    if start >= end {
        let details = json!({ "start_date": raw.0, "end_date": raw.1, "help": "Please provide a start_date earlier than end_date" });
        return Err(ApiError::of(Code::InvalidDateRange, &[], details));
    }
    if start
        .checked_add_months(Months::new(12))
        .is_some_and(|limit| end <= limit)
    {
        return Ok(());
    }
    let days = ((end - start).num_milliseconds() + 86_399_999) / 86_400_000;
    let details = json!({ "providedRange": format!("{days} days"), "maxRange": "365 days", "help": "Please reduce the date range to 1 year or less" });
    Err(ApiError::of(Code::DateRangeTooLarge, &[], details))
}

/// Checks `query` as of `now`.
pub fn parse(query: &Query, now: DateTime<Utc>) -> Result<AlertsRequest, ApiError> {
    missing(query)?;
    let value = |name| query.non_empty(name).unwrap_or_default();
    let ids = ids(value("alert_ids"))?;
    let (raw_start, raw_end) = (value("start_date"), value("end_date"));
    let start = instant("start_date", raw_start)?;
    let end = instant("end_date", raw_end)?;
    not_future("start_date", "Start", raw_start, start, now)?;
    ordered_within_a_year(start, end, (raw_start, raw_end))?;
    not_future("end_date", "End", raw_end, end, now)?;
    Ok(AlertsRequest { ids, start, end })
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    const A: &str = "550e8400-e29b-41d4-a716-446655440000";
    const B: &str = "660e8400-e29b-41d4-a716-446655440001";

    fn now() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 25, 12, 0, 0).unwrap()
    }

    fn run(query: &str) -> Result<AlertsRequest, ApiError> {
        parse(&Query::parse(Some(query)).unwrap(), now())
    }

    fn code(query: &str) -> String {
        run(query).unwrap_err().code.as_str().to_string()
    }

    #[test]
    fn the_documented_request_is_valid_and_covers_whole_days() {
        let r = run(&format!("alert_ids={A},{B},{A}&start_date=2024-01-01T00:00:00.000Z&end_date=2024-12-31T23:59:59.999Z")).unwrap();
        assert_eq!(r.ids.len(), 2, "duplicates collapse");
        assert_eq!(
            r.days(),
            Range {
                min: Date::from_ymd(2024, 1, 1),
                max: Date::from_ymd(2024, 12, 31)
            }
        );
        let offset = run(&format!(
            "alert_ids={A}&start_date=2024-01-01T23:00:00-02:00&end_date=2024-02-01T00:00:00Z"
        ))
        .unwrap();
        assert_eq!(
            offset.days().min,
            Date::from_ymd(2024, 1, 2),
            "days are UTC days"
        );
    }

    #[test]
    fn each_rule_has_its_code() {
        let e = run("start_date=2024-01-01T00:00:00Z").unwrap_err();
        assert_eq!(e.details["missingParams"], json!(["alert_ids", "end_date"]));
        assert_eq!(
            code("alert_ids=&start_date=x&end_date=y"),
            "MISSING_PARAMETERS"
        );
        let e = run("alert_ids=not-a-uuid,invalid-id&start_date=x&end_date=y").unwrap_err();
        assert_eq!(
            e.message,
            "Invalid alert ID(s): not-a-uuid, invalid-id. All alert IDs must be valid UUIDs."
        );
        assert_eq!(
            code("alert_ids=,&start_date=x&end_date=y"),
            "INVALID_ALERT_ID"
        );
        assert!(run(&format!(
            "alert_ids={A}&start_date=2025-12-01T00:00:00.000Z&end_date=2025-12-02T00:00:00Z"
        ))
        .is_ok());
        let eleven: Vec<String> = (0..11)
            .map(|i| format!("00000000-0000-0000-0000-0000000000{i:02}"))
            .collect();
        assert_eq!(
            code(&format!(
                "alert_ids={}&start_date=x&end_date=y",
                eleven.join(",")
            )),
            "TOO_MANY_ALERT_IDS"
        );
        let e = run(&format!(
            "alert_ids={A}&start_date=2024-01-01&end_date=2024-02-01T00:00:00Z"
        ))
        .unwrap_err();
        assert_eq!(
            (e.code, e.details["field"].as_str()),
            (Code::InvalidDateFormat, Some("start_date"))
        );
        assert_eq!(
            code(&format!(
                "alert_ids={A}&start_date=2024-02-01T00:00:00Z&end_date=2024-01-01T00:00:00Z"
            )),
            "INVALID_DATE_RANGE"
        );
        let e = run(&format!(
            "alert_ids={A}&start_date=2023-01-01T00:00:00Z&end_date=2024-02-05T00:00:00Z"
        ))
        .unwrap_err();
        assert_eq!(e.details["providedRange"], "400 days");
        let e = run(&format!(
            "alert_ids={A}&start_date=2026-12-01T00:00:00.000Z&end_date=2026-12-02T00:00:00Z"
        ))
        .unwrap_err();
        assert_eq!(
            (e.code, e.message.as_str()),
            (Code::FutureDate, "Start date cannot be in the future")
        );
        let e = run(&format!(
            "alert_ids={A}&start_date=2026-11-01T00:00:00.000Z&end_date=2026-12-02T00:00:00Z"
        ))
        .unwrap_err();
        assert_eq!(
            (e.code, e.details["field"].as_str()),
            (Code::FutureDate, Some("end_date"))
        );
    }
}
