//! A deal in the shape alerts report it (`SimplifiedDeal`, reference
//! §10.1): a few keys of the deal and of its company, the amount in
//! millions of USD, the location as plain names, and the reasoning.

use crate::schema::alert::{SimplifiedArticle, SimplifiedDeal, SimplifiedLocation};
use crate::schema::record::{ArticleRecord, CompanyRecord, DealRecord, LocationRecord, NamedRef};

/// USD as millions, to the nearest $100 (`25000000` → `25`).
pub fn millions(usd: f64) -> f64 {
    (usd / 100.0).round() / 10_000.0
}

fn name(level: &Option<NamedRef>) -> Option<String> {
    level.as_ref().map(|l| l.name.clone())
}

fn location(l: &LocationRecord) -> SimplifiedLocation {
    SimplifiedLocation {
        city: name(&l.city),
        state: name(&l.state),
        country: name(&l.country),
        region: name(&l.region),
    }
}

/// An article with a link; a bare day becomes that day's midnight UTC.
fn article(a: &ArticleRecord) -> Option<SimplifiedArticle> {
    let published = a.date.as_ref().map(|d| {
        if d.len() == 10 {
            format!("{d}T00:00:00.000Z")
        } else {
            d.clone()
        }
    });
    Some(SimplifiedArticle {
        link: a.link.clone()?,
        is_primary: a.is_primary,
        published_date: published,
    })
}

/// `deal` of `company`, reported with `reasoning`.
pub fn simplified_deal(
    deal: DealRecord,
    company: &CompanyRecord,
    reasoning: String,
) -> SimplifiedDeal {
    SimplifiedDeal {
        id: deal.id,
        company_id: deal.company_id,
        company_name: Some(company.name.clone()),
        company_guru_permalink: Some(company.guru_permalink.clone()),
        round_type: deal.round_type,
        date: deal.date,
        total_round_raised: deal.total_round_raised.map(|m| millions(m.0)),
        company_website: company.domain.clone(),
        company_linkedin: company.linkedin.clone(),
        location: location(&company.location),
        deal_short_description: deal.deal_descriptions.short_description,
        deal_long_description: deal.deal_descriptions.long_description,
        reasoning,
        articles: deal.articles.iter().filter_map(article).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_are_millions_to_the_nearest_hundred_dollars() {
        assert_eq!(millions(25_000_000.0), 25.0);
        assert_eq!(millions(2_500_000.0), 2.5);
        assert_eq!(millions(1_234_567.0), 1.2346);
        assert_eq!(millions(50.0), 0.0001);
    }

    #[test]
    fn articles_need_a_link_and_get_a_date_time() {
        let a = |link: Option<&str>, date: Option<&str>| ArticleRecord {
            is_primary: true,
            link: link.map(str::to_string),
            date: date.map(str::to_string),
        };
        assert_eq!(article(&a(None, Some("2024-01-15"))), None);
        let shown = article(&a(Some("https://x.test/a"), Some("2024-01-15"))).unwrap();
        assert_eq!(
            shown.published_date.as_deref(),
            Some("2024-01-15T00:00:00.000Z")
        );
        assert_eq!(
            article(&a(Some("https://x.test/a"), None))
                .unwrap()
                .published_date,
            None
        );
    }
}
