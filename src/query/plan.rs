//! A query plan: plain data saying which doc ids of one kind match.
//!
//! A plan is a conjunction of clauses. A [`Clause::Facet`] is the union of
//! the bitmaps of some facet values; a [`Clause::Docs`] is a set already
//! computed by a join (firm → deals → companies…); a [`Clause::Range`] is an
//! inclusive bound on a numeric column. `query::filter` evaluates it:
//! bitmaps first, smallest first, then each range either probed per
//! candidate or turned into a bitmap from the column's sort order,
//! whichever touches fewer doc ids.

use roaring::RoaringBitmap;

use super::request::Range;
use crate::schema::Date;

/// Width of a numeric column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Width {
    I32,
    I64,
}

/// One condition on the doc ids of a kind.
#[derive(Debug, Clone, PartialEq)]
pub enum Clause {
    /// Docs having any of `values` in facet `field`.
    Facet {
        field: &'static str,
        values: Vec<String>,
    },
    /// Docs whose `column` value lies in `[min, max]` (nulls never match).
    Range {
        column: &'static str,
        width: Width,
        min: i64,
        max: i64,
    },
    /// An explicit doc set (identifiers, joins).
    Docs(RoaringBitmap),
}

/// A conjunction of clauses; no clause means every doc.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Plan {
    pub clauses: Vec<Clause>,
}

impl Plan {
    /// Adds a facet clause when `values` is given.
    pub fn facet<S: AsRef<str>>(&mut self, field: &'static str, values: Option<&[S]>) {
        if let Some(values) = values {
            let values = values.iter().map(|v| v.as_ref().to_string()).collect();
            self.clauses.push(Clause::Facet { field, values });
        }
    }

    /// Adds a doc-set clause.
    pub fn docs(&mut self, docs: RoaringBitmap) {
        self.clauses.push(Clause::Docs(docs));
    }

    /// Adds a money range on an `i64` column (whole USD): the smallest
    /// whole amount ≥ min, the largest ≤ max.
    pub fn money(&mut self, column: &'static str, range: &Range<f64>) {
        if let Some((min, max)) = money_bounds(range) {
            self.clauses.push(Clause::Range {
                column,
                width: Width::I64,
                min,
                max,
            });
        }
    }

    /// Adds a day range on an `i32` column of days.
    pub fn days(&mut self, column: &'static str, range: &Range<Date>) {
        if range.is_set() {
            let min = range.min.map_or(i32::MIN as i64 + 1, |d| d.0 as i64);
            let max = range.max.map_or(i32::MAX as i64, |d| d.0 as i64);
            self.clauses.push(Clause::Range {
                column,
                width: Width::I32,
                min,
                max,
            });
        }
    }

    /// Adds a range of whole UTC days on an `i64` column of instants (ms).
    pub fn instants(&mut self, column: &'static str, range: &Range<Date>) {
        if range.is_set() {
            let min = range.min.map_or(i64::MIN + 1, |d| d.start_ms());
            let max = range.max.map_or(i64::MAX, |d| d.end_ms());
            self.clauses.push(Clause::Range {
                column,
                width: Width::I64,
                min,
                max,
            });
        }
    }

    pub fn is_empty(&self) -> bool {
        self.clauses.is_empty()
    }

    /// The values every match has on `column`: the intersection of the
    /// range clauses on it (`None` without any).
    pub fn bounds_of(&self, column: &str) -> Option<(i64, i64)> {
        let ranges = self.clauses.iter().filter_map(|clause| match clause {
            Clause::Range {
                column: c,
                min,
                max,
                ..
            } if *c == column => Some((*min, *max)),
            _ => None,
        });
        ranges.reduce(|a, b| (a.0.max(b.0), a.1.min(b.1)))
    }
}

/// The whole amounts (USD) a money range keeps, `min..=max`, when it is
/// set: the smallest whole amount ≥ min, the largest ≤ max.
pub fn money_bounds(range: &Range<f64>) -> Option<(i64, i64)> {
    range.is_set().then(|| {
        let min = range.min.map_or(i64::MIN + 1, |m| m.ceil() as i64);
        let max = range.max.map_or(i64::MAX, |m| m.floor() as i64);
        (min, max)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn money_bounds_round_inwards() {
        let mut plan = Plan::default();
        plan.money(
            "size",
            &Range {
                min: Some(1.5),
                max: Some(10.9),
            },
        );
        assert_eq!(
            plan.clauses,
            vec![Clause::Range {
                column: "size",
                width: Width::I64,
                min: 2,
                max: 10
            }]
        );
    }

    #[test]
    fn unset_filters_add_nothing() {
        let mut plan = Plan::default();
        plan.money("size", &Range::default());
        plan.days("date", &Range::default());
        plan.facet::<String>("round", None);
        assert!(plan.is_empty());
    }

    #[test]
    fn bounds_intersect_the_ranges_on_a_column() {
        let mut plan = Plan::default();
        assert_eq!(plan.bounds_of("size"), None);
        let range = |min, max| Range {
            min: Some(min),
            max: Some(max),
        };
        plan.money("size", &range(10.0, 50.0));
        plan.money("total_raised", &range(0.0, 5.0));
        assert_eq!(plan.bounds_of("size"), Some((10, 50)));
        plan.money("size", &range(20.0, 80.0));
        assert_eq!(plan.bounds_of("size"), Some((20, 50)));
        assert_eq!(plan.bounds_of("total_raised"), Some((0, 5)));
        assert_eq!(plan.bounds_of("date"), None);
    }

    #[test]
    fn created_bounds_cover_whole_days() {
        let day = Date::parse("2026-07-01").unwrap();
        let mut plan = Plan::default();
        plan.instants(
            "created_at",
            &Range {
                min: Some(day),
                max: Some(day),
            },
        );
        let Clause::Range { min, max, .. } = plan.clauses[0] else {
            panic!()
        };
        assert_eq!(max - min, 86_400_000 - 1);
    }
}
