//! Renders dump rows plus derived aggregates into the API's records
//! (`schema::record`), exactly once, at index time.

use crate::ingest::derive::{InvestorStats, PersonAgg};
use crate::ingest::facts::{Catalog, Employer, Facts, Places};
use crate::schema::record::*;
use crate::schema::{
    CompanyRow, Date, DealRow, EmploymentRow, FirmRow, Intermediate, LocationType, PersonRole,
    PersonRow,
};

use crate::ingest::derive::{CompanyAgg, FirmAgg};

/// How many history entries a list row of `POST /people` carries.
pub const LIST_HISTORY_LIMIT: usize = 3;

pub fn deal_record(row: &DealRow) -> DealRecord {
    DealRecord {
        id: row.id,
        round_type: row.round_type.as_str().to_string(),
        extension: row.extension,
        intermediate: row
            .intermediate
            .unwrap_or(Intermediate::None)
            .as_str()
            .to_string(),
        pre: row.pre,
        date: row.date.map(Date::iso_datetime),
        created_at: row.created_at.map(|t| t.iso()),
        total_round_raised: row.total_round_raised.map(Money),
        deal_descriptions: Descriptions {
            short_description: row.short_description.clone(),
            long_description: row.long_description.clone(),
        },
        company_id: row.company_id,
        investor_ids: row.investors.iter().map(|f| f.firm_id).collect(),
        angel_investor_ids: row.angels.iter().map(|a| a.person_id).collect(),
        financings: row
            .financings
            .iter()
            .map(|f| FinancingRecord {
                id: f.id,
                financing_type: f.financing_type.as_str().to_string(),
                size_usd: f.size_usd.map(Money),
                size_native: f.size_native.map(Money),
                currency: f.currency.clone(),
            })
            .collect(),
        valuation: row.valuation.as_ref().map(|v| ValuationRecord {
            valuation_currency: v.currency.clone(),
            valuation_usd: v.usd.map(Money),
            valuation_native: v.native.map(Money),
            valuation_type: v.valuation_type.as_str().to_string(),
        }),
        articles: row
            .articles
            .iter()
            .map(|a| ArticleRecord {
                is_primary: a.is_primary,
                link: a.link.clone(),
                date: a.date.map(Date::iso),
            })
            .collect(),
    }
}

/// Every level of a place, filled from the ancestors of the given levels.
pub fn effective_places(places: &Places, catalog: &Catalog) -> Places {
    let mut out = *places;
    for loc in places.iter().flatten() {
        for &a in &catalog.location_ancestors[*loc as usize] {
            let slot = level_slot(catalog.locations[a as usize].location_type);
            out[slot].get_or_insert(a);
        }
    }
    out
}

fn level_slot(t: LocationType) -> usize {
    match t {
        LocationType::City => 0,
        LocationType::State => 1,
        LocationType::Region => 2,
        LocationType::Country => 3,
    }
}

pub fn location_record(places: &Places, catalog: &Catalog) -> LocationRecord {
    let p = effective_places(places, catalog);
    let named = |slot: usize| {
        p[slot].map(|l| {
            let loc = &catalog.locations[l as usize];
            NamedRef {
                name: loc.name.clone(),
                permalink: loc.permalink.clone(),
            }
        })
    };
    LocationRecord {
        city: named(0),
        state: named(1),
        region: named(2),
        country: named(3),
    }
}

pub fn company_record(
    row: &CompanyRow,
    agg: &CompanyAgg,
    latest_deal: Option<LatestDealRecord>,
    facts: &Facts,
) -> CompanyRecord {
    let catalog = &facts.catalog;
    let location = location_record(&places_of(row, catalog), catalog);
    CompanyRecord {
        id: row.id,
        name: row.name.clone(),
        legal_name: row.legal_name.clone(),
        guru_permalink: row.permalink.clone(),
        domain: row.domain.clone(),
        region: location.region.as_ref().map(|r| r.name.clone()),
        short_description: row.short_description.clone(),
        long_description: row.long_description.clone(),
        num_employees: row.num_employees.map(|h| h.as_str().to_string()),
        linkedin: row.linkedin.clone(),
        twitter: row.twitter.clone(),
        facebook: row.facebook.clone(),
        pitchbook: row.pitchbook.clone(),
        crunchbase: row.crunchbase.clone(),
        address: row.address.clone(),
        ipo_status: row.ipo_status.map(|s| s.as_str().to_string()),
        num_funding_rounds: agg.deals.len() as u32,
        num_investors: agg.num_investors,
        total_raised: agg.total_raised.map(Money),
        latest_valuation_usd: agg.latest_valuation.map(|v| Money(v.0)),
        latest_valuation_date: agg
            .latest_valuation
            .and_then(|v| v.1)
            .map(Date::iso_datetime),
        industries: row
            .industries
            .iter()
            .filter_map(|p| catalog.industry(p))
            .map(|i| {
                let ind = &catalog.industries[i as usize];
                NamedRef {
                    name: ind.name.clone(),
                    permalink: ind.permalink.clone(),
                }
            })
            .collect(),
        location,
        latest_deal,
        all_investor_ids: agg
            .all_investors
            .iter()
            .map(|&f| facts.firms.id(f))
            .collect(),
    }
}

fn places_of(row: &CompanyRow, catalog: &Catalog) -> Places {
    let slot = |p: &Option<String>| p.as_deref().and_then(|p| catalog.location(p));
    [
        slot(&row.location.city),
        slot(&row.location.state),
        slot(&row.location.region),
        slot(&row.location.country),
    ]
}

pub fn investor_record(row: &FirmRow, agg: &FirmAgg, facts: &Facts) -> InvestorRecord {
    let catalog = &facts.catalog;
    let place = |p: &Option<String>| p.as_deref().and_then(|p| catalog.location(p));
    let places = [
        place(&row.location.city),
        place(&row.location.state),
        place(&row.location.region),
        place(&row.location.country),
    ];
    let s = &agg.stats;
    InvestorRecord {
        id: row.id,
        name: row.name.clone(),
        legal_name: row.legal_name.clone(),
        description: row.description.clone(),
        guru_permalink: row.permalink.clone(),
        total_deal_count: s.total_deal_count,
        lead_deal_count: s.lead_deal_count,
        deal_count_last_12_months: s.deal_count_last_12_months,
        lead_deal_count_last_12_months: s.lead_deal_count_last_12_months,
        most_recent_deal_date: s.most_recent_deal_date.map(Date::iso_datetime),
        domain: row.domain.clone(),
        website: row.website.clone(),
        linkedin: row.linkedin.clone(),
        pitchbook: row.pitchbook.clone(),
        crunchbase: row.crunchbase.clone(),
        num_employees: row.num_employees.map(|h| h.as_str().to_string()),
        investment_stage: row.investment_stage.clone(),
        contact_email: row.contact_email.clone(),
        contact_phone: row.contact_phone.clone(),
        location: location_record(&places, catalog),
        top_industries: top_industries(s, catalog),
        top_locations: top_locations(s, catalog),
        top_round_types: top_round_types(s),
    }
}

pub fn firm_card(row: &FirmRow) -> FirmCard {
    FirmCard {
        id: row.id,
        guru_permalink: row.permalink.clone(),
        name: row.name.clone(),
        description: row.description.clone(),
        image: row.image.clone(),
        domain: row.domain.clone(),
        website: row.website.clone(),
        linkedin: row.linkedin.clone(),
        crunchbase: row.crunchbase.clone(),
    }
}

fn top_industries(s: &InvestorStats, catalog: &Catalog) -> Vec<TopIndustry> {
    s.top_industries
        .iter()
        .map(|&(i, count)| {
            let ind = &catalog.industries[i as usize];
            TopIndustry {
                name: ind.name.clone(),
                permalink: ind.permalink.clone(),
                count,
            }
        })
        .collect()
}

fn top_locations(s: &InvestorStats, catalog: &Catalog) -> Vec<TopLocation> {
    s.top_locations
        .iter()
        .map(|&(l, count)| {
            let loc = &catalog.locations[l as usize];
            TopLocation {
                name: loc.name.clone(),
                full_name: catalog.location_full_name(l),
                permalink: loc.permalink.clone(),
                location_type: loc.location_type.as_str().to_string(),
                count,
            }
        })
        .collect()
}

fn top_round_types(s: &InvestorStats) -> Vec<TopRoundType> {
    s.top_round_types
        .iter()
        .map(|&(t, count)| TopRoundType {
            round_type: t.as_str().to_string(),
            count,
        })
        .collect()
}

/// The full person record (list rows of `POST /people` cut its histories to
/// [`LIST_HISTORY_LIMIT`] entries when serving).
pub fn person_record(
    row: &PersonRow,
    agg: &PersonAgg,
    employer: Option<Employer>,
    facts: &Facts,
) -> PersonRecord {
    let mut jobs: Vec<&EmploymentRow> = row.employment.iter().collect();
    jobs.sort_by(|a, b| {
        b.is_current
            .cmp(&a.is_current)
            .then_with(|| crate::ingest::derive::desc_nulls_last(a.start_date, b.start_date))
    });
    PersonRecord {
        id: row.id,
        name: row.name.clone(),
        title: row.title.clone(),
        linkedin_url: row.linkedin_url.clone(),
        crunchbase_url: row.crunchbase_url.clone(),
        twitter_url: row.twitter_url.clone(),
        location: row.location.clone(),
        city: row.city.clone(),
        country_code: row.country_code.clone(),
        about: row.about.clone(),
        is_founder: row.roles.contains(&PersonRole::Founder),
        current_company: employer.map(|e| current_company(e, facts)),
        employment_history: jobs.into_iter().map(employment_record).collect(),
        education_history: row.education.iter().map(education_record).collect(),
        is_investor: agg.is_investor(),
        is_angel: agg.is_angel(),
        has_led_deal: agg.has_led_deal(),
        investment_firms: agg
            .firms
            .iter()
            .map(|pf| {
                let f = &facts.firms.get(pf.firm);
                InvestmentFirmRecord {
                    id: f.id,
                    name: f.name.to_string(),
                    permalink: f.permalink.to_string(),
                    domain: f.domain.as_deref().map(str::to_string),
                    deal_count: pf.deal_count,
                    last_deal_date: pf.last_deal_date.map(Date::iso),
                }
            })
            .collect(),
        investor_highlights: agg
            .is_investor()
            .then(|| highlights(&agg.stats, &facts.catalog)),
    }
}

fn current_company(employer: Employer, facts: &Facts) -> CurrentCompany {
    let (id, name, permalink, domain) = match employer {
        Employer::Company(c) => {
            let c = facts.companies.get(c);
            (c.id, c.name, c.permalink, c.domain)
        }
        Employer::Firm(f) => {
            let f = facts.firms.get(f);
            (f.id, f.name, f.permalink, f.domain)
        }
    };
    CurrentCompany {
        id,
        name: name.into(),
        permalink: permalink.into(),
        domain: domain.map(String::from),
    }
}

fn employment_record(j: &EmploymentRow) -> EmploymentRecord {
    EmploymentRecord {
        title: j.title.clone(),
        company_name: j.company_name.clone(),
        company_id: j.company_id,
        company_url: j.company_url.clone(),
        location: j.location.clone(),
        description: j.description.clone(),
        start_date: j.start_date.map(Date::iso),
        end_date: j.end_date.map(Date::iso),
        is_current: j.is_current,
    }
}

fn education_record(e: &crate::schema::EducationRow) -> EducationRecord {
    EducationRecord {
        school_name: e.school_name.clone(),
        school_id: e.school_id.clone(),
        school_url: e.school_url.clone(),
        degree: e.degree.clone(),
        field_of_study: e.field_of_study.clone(),
        start_date: e.start_date.clone(),
        end_date: e.end_date.clone(),
        description: e.description.clone(),
    }
}

fn highlights(s: &InvestorStats, catalog: &Catalog) -> InvestorHighlights {
    InvestorHighlights {
        total_deal_count: s.total_deal_count,
        lead_deal_count: s.lead_deal_count,
        deal_count_last_12_months: s.deal_count_last_12_months,
        lead_deal_count_last_12_months: s.lead_deal_count_last_12_months,
        most_recent_deal_date: s.most_recent_deal_date.map(Date::iso),
        top_industries: top_industries(s, catalog),
        top_locations: top_locations(s, catalog),
        top_round_types: top_round_types(s),
    }
}
