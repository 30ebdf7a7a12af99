//! The five searchable kinds, and how to read a sampled document's name or
//! domain back from the index's own stored cards (so queries always match
//! what the index holds, whatever dump it was built from).

use fundsearch::index::records::Records;
use fundsearch::index::text::NameIndex;
use fundsearch::index::Index;
use serde::Deserialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entity {
    Company,
    Investor,
    Person,
    Location,
    Industry,
}

/// The fields of a card the benchmarks need (every card has a `name`).
#[derive(Deserialize)]
pub struct CardFields {
    pub name: String,
    #[serde(default)]
    pub domain: Option<String>,
}

impl Entity {
    pub const ALL: [Entity; 5] = [
        Entity::Company,
        Entity::Investor,
        Entity::Person,
        Entity::Location,
        Entity::Industry,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Entity::Company => "company",
            Entity::Investor => "investor",
            Entity::Person => "person",
            Entity::Location => "location",
            Entity::Industry => "industry",
        }
    }

    /// The lookup route of this kind.
    pub fn search_path(self) -> &'static str {
        match self {
            Entity::Company => "/v1/company/search",
            Entity::Investor => "/v1/investor/search",
            Entity::Person => "/v1/person/search",
            Entity::Location => "/v1/location/search",
            Entity::Industry => "/v1/industry/search",
        }
    }

    pub fn names(self, index: &Index) -> &NameIndex {
        match self {
            Entity::Company => &index.company_names,
            Entity::Investor => &index.firm_names,
            Entity::Person => &index.person_names,
            Entity::Location => &index.location_names,
            Entity::Industry => &index.industry_names,
        }
    }

    /// Number of documents of this kind.
    pub fn docs(self, index: &Index) -> usize {
        match self {
            Entity::Company => index.companies.docs,
            Entity::Investor => index.firms.docs,
            Entity::Person => index.people.docs,
            Entity::Location => index.catalog.locations,
            Entity::Industry => index.catalog.industries,
        }
    }

    /// The stored card of `doc`, parsed.
    pub fn card(self, index: &Index, doc: u32) -> Result<CardFields, String> {
        let bytes = match self {
            Entity::Location => index.catalog.location_cards.get(doc),
            Entity::Industry => index.catalog.industry_cards.get(doc),
            Entity::Company | Entity::Investor | Entity::Person => {
                card_store(index, self)?.get(doc)
            }
        }
        .map_err(|e| e.to_string())?;
        serde_json::from_slice(&bytes).map_err(|e| format!("{} card {doc}: {e}", self.label()))
    }
}

fn card_store(index: &Index, entity: Entity) -> Result<std::sync::Arc<Records>, String> {
    let kind = match entity {
        Entity::Company => &index.companies,
        Entity::Investor => &index.firms,
        _ => &index.people,
    };
    kind.records("card")
        .map_err(|e| format!("{} cards: {e}", entity.label()))
}
