//! Readers of the key groups several bodies share: paging, company facets,
//! deal facets, semantic search, investor participation. The key names
//! differ per endpoint (`deal_size_min` on `/investors`, `portfolio_locations`
//! on `/people`…), so each reader takes the names it reads.

use crate::query::request::{CompanyFilter, DealFilter, InvestorsFilter, PageRequest, Semantic};
use crate::schema::{Headcount, IpoStatus};

use super::reader::{spellings, Obj};

/// `page` and `page_size`, within their declared bounds.
pub fn paging(obj: &Obj) -> PageRequest {
    let default = PageRequest::default();
    PageRequest {
        page: obj.int("page").map_or(default.page, |p| p as usize),
        page_size: obj
            .int("page_size")
            .map_or(default.page_size, |p| p as usize),
    }
}

/// Which `ipo_status` values a block accepts (reference §1.9).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IpoChoices {
    /// `public`, `private`.
    Listed,
    /// Also `acquired`, `delisted` (`/people` `company` only).
    All,
}

impl IpoChoices {
    fn values(self) -> &'static [IpoStatus] {
        match self {
            IpoChoices::Listed => &[IpoStatus::Public, IpoStatus::Private],
            IpoChoices::All => IpoStatus::ALL,
        }
    }
}

/// The key names of a company block.
pub struct CompanyKeys {
    /// `company_ids`, `ids`, or none.
    pub ids: Option<&'static str>,
    pub locations: &'static str,
    pub employee_count: &'static str,
    pub ipo: IpoChoices,
}

impl CompanyKeys {
    /// `locations`, `employee_count`, public/private, with the given ids key.
    pub const fn plain(ids: Option<&'static str>) -> CompanyKeys {
        CompanyKeys {
            ids,
            locations: "locations",
            employee_count: "employee_count",
            ipo: IpoChoices::Listed,
        }
    }
}

/// A headcount bucket array.
pub fn headcounts(obj: &Obj, key: &str) -> Option<Vec<Headcount>> {
    obj.enums(key, &spellings(Headcount::ALL, Headcount::as_str))
}

/// Company facets: ids, locations, industries, super categories, headcount,
/// listing status, total raised.
pub fn company_filter(obj: &Obj, keys: &CompanyKeys) -> CompanyFilter {
    CompanyFilter {
        ids: keys.ids.and_then(|k| obj.uuids(k)),
        locations: obj.strings(keys.locations),
        industries: obj.strings("industries"),
        super_categories: obj.strings("super_categories"),
        employee_count: headcounts(obj, keys.employee_count),
        ipo_status: obj.enums(
            "ipo_status",
            &spellings(keys.ipo.values(), IpoStatus::as_str),
        ),
        total_raised: obj.money_range("total_raised_min", "total_raised_max"),
    }
}

/// The key names of a deal block.
pub struct DealKeys {
    pub size: (&'static str, &'static str),
    pub date: (&'static str, &'static str),
    pub created: Option<(&'static str, &'static str)>,
}

/// `size_*`, `date_*` and `created_*`.
pub const DEAL_KEYS: DealKeys = DealKeys {
    size: ("size_min", "size_max"),
    date: ("date_start", "date_end"),
    created: Some(("created_start", "created_end")),
};

/// `size_*` and `date_*` only.
pub const DEAL_KEYS_NO_CREATED: DealKeys = DealKeys {
    created: None,
    ..DEAL_KEYS
};

/// Deal facets: financing types, size, date, creation day.
pub fn deal_filter(obj: &Obj, keys: &DealKeys) -> DealFilter {
    DealFilter {
        financing_types: obj.financing_types("financing_types"),
        size: obj.money_range(keys.size.0, keys.size.1),
        date: obj.date_range(keys.date.0, keys.date.1),
        created: keys
            .created
            .map(|(start, end)| obj.date_range(start, end))
            .unwrap_or_default(),
    }
}

/// `search_query` (non-blank) with `min_relevance` (0..=1, default 0).
/// `min_relevance` without `search_query` is validated and ignored.
pub fn semantic(obj: &Obj) -> Option<Semantic> {
    let min_relevance = obj.fraction("min_relevance");
    let query = obj.text("search_query")?;
    Some(Semantic {
        query,
        min_relevance: min_relevance.unwrap_or(0.0),
        vector: None,
    })
}

/// `investor_ids` and `people_ids`.
pub fn investors_filter(obj: &Obj) -> InvestorsFilter {
    InvestorsFilter {
        investor_ids: obj.uuids("investor_ids"),
        people_ids: obj.uuids("people_ids"),
    }
}
