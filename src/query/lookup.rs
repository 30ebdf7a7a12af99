//! Fuzzy name lookups: limits and the person pools. The name indexes
//! themselves are `index::text`; categories are assigned by
//! `index::build::text`.

use crate::index::build::text::{PERSON_COMPANY, PERSON_INVESTOR};

/// Most results a name lookup returns.
pub const MAX_NAME_RESULTS: usize = 10;

/// The person pools of `/person/search`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PersonPool {
    Investor,
    Company,
}

impl PersonPool {
    pub fn parse(text: &str) -> Option<PersonPool> {
        match text {
            "investor" => Some(PersonPool::Investor),
            "company" => Some(PersonPool::Company),
            _ => None,
        }
    }

    pub fn category(self) -> u8 {
        match self {
            PersonPool::Investor => PERSON_INVESTOR,
            PersonPool::Company => PERSON_COMPANY,
        }
    }
}
