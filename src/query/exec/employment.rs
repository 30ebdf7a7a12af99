//! A `/people` `company` block without `search_query`, applied the way
//! estimated cheaper:
//! - **on people**: the employer company's facets and columns, copied onto
//!   its people by the indexer (`employer_…`), become clauses of the
//!   people plan ([`employer_on_people`]). Each range clause there costs up
//!   to a scan of a people column (3M people at M: 12 MB of days, 24 MB of
//!   amounts), since people's doc ids follow their own deals, not their
//!   employer's;
//! - **as a join**: the block is evaluated on companies
//!   ([`employers`]), where a latest-deal date range is one block of doc
//!   ids, and the people kept are those the companies employ
//!   ([`employed_by`]): about 2 ns an employee, marked in a bit set.
//!
//! The join is taken when its employees (estimated from the relation's
//! mean degree) cost less than the people side's range scans plus a
//! fixed margin. At M this halved C5's mean and took its p99 from 7.7 to
//! about 4.6 ms (in the base match, both ways measured per request).

use roaring::RoaringBitmap;

use crate::index::docs::docs;
use crate::index::{Index, IndexError};
use crate::query::filter::evaluate;
use crate::query::plan::{Clause, Plan};
use crate::query::range::scan_cost;
use crate::query::request::EmployerFilter;

use super::blocks::{company_on_companies, employer_on_people, latest_deal_on_companies};
use super::joins::{companies_of_deals, deals_of_people, targets_among};

/// Marking one employee of the joined companies (M, one core).
const EMPLOYEE_NS: f64 = 2.0;
/// What the people side costs beyond its range scans: facet unions on
/// people (the margin the join must beat).
const PEOPLE_SIDE_NS: f64 = 50_000.0;

/// How a company block is applied.
pub struct Employment {
    /// The block's clauses on people: evaluated with the people plan
    /// unless the block is joined, and then still the bounds every match
    /// lies within (for paging by a column they constrain).
    pub on_people: Plan,
    /// The employer companies to join, when that is cheaper.
    pub join: Option<RoaringBitmap>,
}

impl Employment {
    /// The cheaper way to apply `c` (see the module documentation).
    pub fn of(index: &Index, c: &EmployerFilter) -> Result<Employment, IndexError> {
        let mut on_people = Plan::default();
        employer_on_people(&mut on_people, index, c)?;
        let scans: f64 = on_people
            .clauses
            .iter()
            .map(|clause| match clause {
                Clause::Range { width, .. } => scan_cost(index.people.docs, *width),
                _ => 0.0,
            })
            .sum();
        if scans == 0.0 {
            return Ok(Employment {
                on_people,
                join: None,
            });
        }
        let companies = employers(index, c)?;
        let join = staff_estimate(index, &companies)? as f64 * EMPLOYEE_NS;
        Ok(Employment {
            on_people,
            join: (join < scans + PEOPLE_SIDE_NS).then_some(companies),
        })
    }
}

/// Employer companies matching the `company` block.
pub fn employers(index: &Index, c: &EmployerFilter) -> Result<RoaringBitmap, IndexError> {
    let mut plan = Plan::default();
    company_on_companies(&mut plan, index, &c.company);
    latest_deal_on_companies(&mut plan, index, &c.latest_deal)?;
    if let Some(ids) = &c.investor_people_ids {
        plan.docs(companies_of_deals(index, &deals_of_people(index, ids)?)?);
    }
    evaluate(&index.companies, &plan)
}

/// The number of people `companies` employ, by the relation's mean degree.
fn staff_estimate(index: &Index, companies: &RoaringBitmap) -> Result<usize, IndexError> {
    let staff = index.companies.relation("people")?;
    Ok(companies.len() as usize * staff.total_edges() / index.companies.docs.max(1))
}

/// Candidates whose current employer is one of `companies`: probing each
/// candidate's `employer` when the candidates are fewer than the employees
/// of those companies, else their staff (`companies.people`) marked in a
/// bit set.
pub fn employed_by(
    index: &Index,
    candidates: RoaringBitmap,
    companies: &RoaringBitmap,
) -> Result<RoaringBitmap, IndexError> {
    if (candidates.len() as usize) < staff_estimate(index, companies)? {
        let employer = index.people.column_i32("employer")?;
        let keep = docs(&candidates).filter(|&p| {
            employer
                .get(p)
                .is_some_and(|c| companies.contains(c as u32))
        });
        Ok(RoaringBitmap::from_sorted_iter(keep).unwrap_or_default())
    } else {
        let staff = targets_among(&index.companies, "people", companies, index.people.docs)?;
        Ok(candidates & staff)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::build::build_fixture;
    use crate::index::column::{NULL_I32, NULL_I64};
    use crate::query::filter::every_doc;
    use crate::query::request::Range;
    use crate::schema::Date;

    /// Values at the quartiles of a column's non-null values, as bounds.
    fn quartiles<T: Copy + Ord>(mut values: Vec<T>) -> Vec<Option<T>> {
        values.sort_unstable();
        let n = values.len();
        let at = |q: usize| values.get(q * n.saturating_sub(1) / 4).copied();
        vec![None, at(1), at(2), at(3)]
    }

    /// Company blocks with date and size ranges (alone, together, open on
    /// either side, with a location).
    fn blocks(index: &Index) -> Vec<EmployerFilter> {
        let dates = index.companies.column_i32("latest_deal_date").unwrap();
        let sizes = index.companies.column_i64("latest_deal_size").unwrap();
        let dates = quartiles(
            dates
                .values()
                .iter()
                .copied()
                .filter(|&d| d != NULL_I32)
                .collect(),
        );
        let sizes = quartiles(
            sizes
                .values()
                .iter()
                .copied()
                .filter(|&s| s != NULL_I64)
                .collect(),
        );
        let location = index
            .companies
            .facet("location")
            .unwrap()
            .value(0)
            .to_string();
        let mut out = Vec::new();
        for (i, &from) in dates.iter().enumerate() {
            for &to in &dates[i..] {
                for (j, &least) in sizes.iter().enumerate() {
                    let mut c = EmployerFilter::default();
                    let deal = &mut c.latest_deal.deal;
                    deal.date = Range {
                        min: from.map(Date),
                        max: to.map(Date),
                    };
                    deal.size = Range {
                        min: least.map(|s| s as f64),
                        max: None,
                    };
                    if j % 2 == 1 {
                        c.company.locations = Some(vec![location.clone()]);
                    }
                    out.push(c);
                }
            }
        }
        out
    }

    /// Joining from companies and filtering on people's `employer_`
    /// columns keep the same people, for every block; the fixture's
    /// ranges are cheap to join, so `Employment::of` joins them.
    #[test]
    fn the_join_and_the_people_side_agree() {
        let index = Index::open(&build_fixture("employment", "2026-11-01")).unwrap();
        let everyone = every_doc(index.people.docs);
        let (mut joined, mut some, mut all) = (0, 0, 0);
        for c in blocks(&index) {
            let employment = Employment::of(&index, &c).unwrap();
            let on_people = evaluate(&index.people, &employment.on_people).unwrap();
            let companies = employers(&index, &c).unwrap();
            let by_join = employed_by(&index, everyone.clone(), &companies).unwrap();
            assert_eq!(by_join, on_people, "{c:?}");
            let few = on_people.iter().step_by(2).collect::<RoaringBitmap>()
                | (&everyone - &on_people)
                    .iter()
                    .step_by(3)
                    .collect::<RoaringBitmap>();
            assert_eq!(
                employed_by(&index, few.clone(), &companies).unwrap(),
                &few & &on_people,
                "{c:?}"
            );
            joined += usize::from(employment.join.is_some());
            some += usize::from(!on_people.is_empty());
            all = all.max(on_people.len());
        }
        assert!(joined > 0 && some > 10, "{joined} joined, {some} matching");
        assert!(all < everyone.len(), "every block leaves someone out");
        let plain = Employment::of(&index, &EmployerFilter::default()).unwrap();
        assert!(plain.join.is_none(), "without a range, the people side");
    }
}
