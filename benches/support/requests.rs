//! API requests for the in-process (`App::handle`) and HTTP benchmarks: one
//! class per lookup or detail route, each a deterministic list of
//! `GET path?query` drawn from the index, plus the weighted lookup mix that
//! `scripts/bench/http_load.sh` replays with wrk.
//!
//! Name searches rotate through the three query variants (exact, one typo,
//! prefix); detail routes take uniformly drawn companies and deals.

use fundsearch::index::Index;

use super::entity::Entity;
use super::queries::{docids, domains, names, Variant};
use fundsearch::ingest::generate::rng::SplitMix64 as Rng;

/// One GET request: `path` and the query string (without `?`).
#[derive(Clone, Debug)]
pub struct Get {
    pub path: String,
    pub query: Option<String>,
}

impl Get {
    /// `path?query`, as written to the wrk paths file.
    pub fn line(&self) -> String {
        match &self.query {
            Some(q) => format!("{}?{q}", self.path),
            None => self.path.clone(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Route {
    /// `/v1/{kind}/search?name=` (exact, typo, prefix in turn).
    Search(Entity),
    /// `/v1/company/search?domain=`.
    Domain,
    /// `/v1/company?id=`.
    Company,
    /// `/v1/company/deals?id=`.
    CompanyDeals,
    /// `/v1/deals/{id}/investors`.
    DealInvestors,
}

impl Route {
    pub const ALL: [Route; 9] = [
        Route::Search(Entity::Company),
        Route::Search(Entity::Investor),
        Route::Search(Entity::Person),
        Route::Search(Entity::Location),
        Route::Search(Entity::Industry),
        Route::Domain,
        Route::Company,
        Route::CompanyDeals,
        Route::DealInvestors,
    ];

    pub fn label(self) -> String {
        match self {
            Route::Search(e) => format!("GET {}?name=", e.search_path()),
            Route::Domain => "GET /v1/company/search?domain=".into(),
            Route::Company => "GET /v1/company?id=".into(),
            Route::CompanyDeals => "GET /v1/company/deals?id=".into(),
            Route::DealInvestors => "GET /v1/deals/{id}/investors".into(),
        }
    }

    /// A file-name-safe name (criterion benchmark ids).
    pub fn slug(self) -> String {
        match self {
            Route::Search(e) => format!("{}_search_name", e.label()),
            Route::Domain => "company_search_domain".into(),
            Route::Company => "company_by_id".into(),
            Route::CompanyDeals => "company_deals".into(),
            Route::DealInvestors => "deal_investors".into(),
        }
    }

    /// `n` requests of this route.
    pub fn requests(self, index: &Index, n: usize, seed: u64) -> Result<Vec<Get>, String> {
        let get = |path: &str, query: Option<String>| Get {
            path: path.to_string(),
            query,
        };
        Ok(match self {
            Route::Search(entity) => {
                let per = n.div_ceil(Variant::ALL.len());
                let lists = Variant::ALL
                    .iter()
                    .map(|&v| names(index, entity, v, per, seed))
                    .collect::<Result<Vec<_>, _>>()?;
                (0..n)
                    .map(|i| &lists[i % lists.len()][i / lists.len()])
                    .map(|s| {
                        get(
                            entity.search_path(),
                            Some(format!("name={}", encode(&s.text))),
                        )
                    })
                    .collect()
            }
            Route::Domain => domains(index, n, seed)?
                .into_iter()
                .map(|s| {
                    get(
                        "/v1/company/search",
                        Some(format!("domain={}", encode(&s.text))),
                    )
                })
                .collect(),
            Route::Company | Route::CompanyDeals => {
                let path = if self == Route::Company {
                    "/v1/company"
                } else {
                    "/v1/company/deals"
                };
                docids(index.companies.docs, n, seed)
                    .into_iter()
                    .map(|d| get(path, Some(format!("id={}", index.companies.ids.uuid(d)))))
                    .collect()
            }
            Route::DealInvestors => docids(index.deals.docs, n, seed)
                .into_iter()
                .map(|d| {
                    get(
                        &format!("/v1/deals/{}/investors", index.deals.ids.uuid(d)),
                        None,
                    )
                })
                .collect(),
        })
    }
}

/// The lookup mix replayed over HTTP, in percent: company, investor and
/// person name searches (exact / typo / prefix), company domains, and a few
/// location and industry searches.
pub const LOOKUP_MIX: [(Route, usize); 6] = [
    (Route::Search(Entity::Company), 30),
    (Route::Search(Entity::Investor), 15),
    (Route::Search(Entity::Person), 25),
    (Route::Domain, 20),
    (Route::Search(Entity::Location), 5),
    (Route::Search(Entity::Industry), 5),
];

/// Only domain lookups: the cheapest route, i.e. the HTTP stack's ceiling.
pub const DOMAIN_MIX: [(Route, usize); 1] = [(Route::Domain, 100)];

/// A named request mix (`lookups` or `domain`).
pub fn mix_by_name(name: &str) -> Option<&'static [(Route, usize)]> {
    match name {
        "lookups" => Some(&LOOKUP_MIX),
        "domain" => Some(&DOMAIN_MIX),
        _ => None,
    }
}

/// `total` requests of `mix` (route, percent), deterministically shuffled.
pub fn mixed(
    index: &Index,
    mix: &[(Route, usize)],
    total: usize,
    seed: u64,
) -> Result<Vec<Get>, String> {
    let mut all = Vec::with_capacity(total);
    for &(route, percent) in mix {
        all.extend(route.requests(index, total * percent / 100, seed)?);
    }
    let mut rng = Rng::new(seed ^ 0x5EED);
    for i in (1..all.len()).rev() {
        all.swap(i, rng.below(i + 1));
    }
    Ok(all)
}

/// Percent-encodes everything but RFC 3986 unreserved characters.
pub fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len() * 3);
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}
