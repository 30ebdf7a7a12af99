//! A stored alert configuration in the reference's `AlertConfiguration`
//! shape: firms and companies named from the index (null when the index
//! no longer holds the id), the description combined with the semantic
//! one.

use uuid::Uuid;

use crate::index::open::Kind;
use crate::index::{Index, IndexError};
use crate::schema::alert::{AlertConfig, AlertConfiguration, ConfigurationFilters, NamedId};
use crate::schema::record::{CompanyCard, FirmCard};

fn named<T: serde::de::DeserializeOwned>(
    kind: &Kind,
    ids: &[Uuid],
    name: fn(T) -> String,
) -> Result<Vec<NamedId>, IndexError> {
    ids.iter()
        .map(|id| {
            let record = kind
                .ids
                .docid(id)
                .map(|doc| kind.record::<T>("card", doc))
                .transpose()?;
            Ok(NamedId {
                id: *id,
                name: record.map(name),
            })
        })
        .collect()
}

/// `config` as `GET /alerts/configurations` lists it.
pub fn configuration_of(
    index: &Index,
    config: &AlertConfig,
) -> Result<AlertConfiguration, IndexError> {
    let f = &config.filters;
    Ok(AlertConfiguration {
        configuration_id: config.id,
        configuration_name: config.name.clone(),
        frequency: config.frequency,
        description: config.combined_description(),
        filters: ConfigurationFilters {
            industries: f.industries.clone(),
            super_categories: f.super_categories.clone(),
            locations: f.locations.clone(),
            financing_types: f.financing_types.clone(),
            deal_size_min: f.deal_size_min,
            deal_size_max: f.deal_size_max,
            num_employees: f
                .num_employees
                .iter()
                .map(|h| h.as_str().to_string())
                .collect(),
            investors: named(&index.firms, &f.investors, |c: FirmCard| c.name)?,
            companies: named(&index.companies, &f.companies, |c: CompanyCard| c.name)?,
            search_query: f.search_query.clone(),
            min_relevance: f.min_relevance,
        },
        created_at: config.created_at.clone(),
    })
}
