//! The route table: every endpoint with its method, path pattern, price and
//! handler. The dispatcher (`api::app`) applies auth, rate limit and
//! charging uniformly; handlers only answer.

pub mod collections;
pub mod detail;
pub mod history;
pub mod lookup;
mod support;

use super::app::{Ctx, Reply};
use super::errors::ApiError;
use super::params::Query;

/// How a route is priced (reference §1.11).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cost {
    Free,
    PerCall(u64),
    /// One credit per row returned.
    PerRow,
}

pub type Handler = fn(&Ctx) -> Result<Reply, ApiError>;

/// How much work a route's handler does, for the HTTP layer: light
/// handlers (in-memory lookups of a few microseconds, no disk write) run on
/// the reactor thread, saving two thread switches; the others run on the
/// bounded blocking pool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Weight {
    Light,
    /// A lookup: light by identifier; by `name` (a fuzzy search), tried on
    /// the reactor with bounded work first (see [`RunsOn::ReactorFirst`]).
    HeavyByName,
    Heavy,
}

pub struct Route {
    pub method: &'static str,
    /// Segments; `{}` matches one path segment, handed to the handler.
    pub path: &'static str,
    pub cost: Cost,
    pub weight: Weight,
    pub handler: Handler,
}

/// Every endpoint served under `/v1`.
pub static ROUTES: &[Route] = &[
    Route {
        method: "GET",
        path: "/v1/location/search",
        cost: Cost::Free,
        weight: Weight::Light,
        handler: lookup::locations,
    },
    Route {
        method: "GET",
        path: "/v1/industry/search",
        cost: Cost::Free,
        weight: Weight::Light,
        handler: lookup::industries,
    },
    Route {
        method: "GET",
        path: "/v1/company/search",
        cost: Cost::Free,
        weight: Weight::HeavyByName,
        handler: lookup::companies,
    },
    Route {
        method: "GET",
        path: "/v1/investor/search",
        cost: Cost::Free,
        weight: Weight::HeavyByName,
        handler: lookup::investors,
    },
    Route {
        method: "GET",
        path: "/v1/person/search",
        cost: Cost::Free,
        weight: Weight::HeavyByName,
        handler: lookup::people,
    },
    Route {
        method: "GET",
        path: "/v1/company",
        cost: Cost::PerCall(1),
        weight: Weight::Heavy,
        handler: detail::company,
    },
    Route {
        method: "GET",
        path: "/v1/investor",
        cost: Cost::PerCall(1),
        weight: Weight::Heavy,
        handler: detail::investor,
    },
    Route {
        method: "GET",
        path: "/v1/person",
        cost: Cost::PerCall(1),
        weight: Weight::Heavy,
        handler: detail::person,
    },
    Route {
        method: "GET",
        path: "/v1/deals/{}",
        cost: Cost::PerCall(1),
        weight: Weight::Heavy,
        handler: detail::deal,
    },
    Route {
        method: "GET",
        path: "/v1/deals/{}/investors",
        cost: Cost::PerCall(1),
        weight: Weight::Heavy,
        handler: detail::deal_investors,
    },
    Route {
        method: "GET",
        path: "/v1/company/deals",
        cost: Cost::PerRow,
        weight: Weight::Heavy,
        handler: history::company_deals,
    },
    Route {
        method: "GET",
        path: "/v1/investor/deals",
        cost: Cost::PerRow,
        weight: Weight::Heavy,
        handler: history::investor_deals,
    },
    Route {
        method: "GET",
        path: "/v1/person/deals",
        cost: Cost::PerRow,
        weight: Weight::Heavy,
        handler: history::person_deals,
    },
    Route {
        method: "POST",
        path: "/v1/companies",
        cost: Cost::PerRow,
        weight: Weight::Heavy,
        handler: collections::companies,
    },
    Route {
        method: "POST",
        path: "/v1/deals",
        cost: Cost::PerRow,
        weight: Weight::Heavy,
        handler: collections::deals,
    },
    Route {
        method: "POST",
        path: "/v1/investors",
        cost: Cost::PerRow,
        weight: Weight::Heavy,
        handler: collections::investors,
    },
    Route {
        method: "POST",
        path: "/v1/people",
        cost: Cost::PerRow,
        weight: Weight::Heavy,
        handler: collections::people,
    },
];

/// Where a request runs (see [`Weight`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunsOn {
    /// On the reactor thread: a light route, a lookup by identifier, or
    /// anything unmatched (refused without work).
    Reactor,
    /// A lookup by name: first on the reactor through the exact stages of
    /// the name search (`Effort::Quick`), on the pool if they cannot answer.
    ReactorFirst,
    /// On the bounded worker pool.
    Pool,
}

/// Where the request `method path?query` runs.
pub fn runs_on(method: &str, path: &str, query: Option<&str>) -> RunsOn {
    let path = path.trim_end_matches('/');
    let by_name = || Query::parse(query).is_ok_and(|q| q.has("name"));
    match match_route(method, path) {
        Err(_) => RunsOn::Reactor,
        Ok(RouteMatch { route, .. }) => match route.weight {
            Weight::Light => RunsOn::Reactor,
            Weight::HeavyByName if by_name() => RunsOn::ReactorFirst,
            Weight::HeavyByName => RunsOn::Reactor,
            Weight::Heavy => RunsOn::Pool,
        },
    }
}

pub struct RouteMatch<'p> {
    pub route: &'static Route,
    pub params: Vec<&'p str>,
}

/// Finds the route of `path`; 404 when no pattern matches, 405 when only
/// the method differs.
pub fn match_route<'p>(method: &str, path: &'p str) -> Result<RouteMatch<'p>, ApiError> {
    let mut allowed: Vec<&str> = Vec::new();
    for route in ROUTES {
        if let Some(params) = match_path(route.path, path) {
            if route.method == method || (method == "HEAD" && route.method == "GET") {
                return Ok(RouteMatch { route, params });
            }
            allowed.push(route.method);
        }
    }
    if allowed.is_empty() {
        Err(ApiError::route_not_found(path))
    } else {
        Err(ApiError::method_not_allowed(method, &allowed.join(", ")))
    }
}

fn match_path<'p>(pattern: &str, path: &'p str) -> Option<Vec<&'p str>> {
    let (mut pat, mut got) = (pattern.split('/'), path.split('/'));
    let mut params = Vec::new();
    loop {
        match (pat.next(), got.next()) {
            (None, None) => return Some(params),
            (Some("{}"), Some(seg)) if !seg.is_empty() => params.push(seg),
            (Some(p), Some(seg)) if p == seg => {}
            _ => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_capture_segments_and_distinguish_methods() {
        let m = match_route("GET", "/v1/deals/abc/investors").unwrap();
        assert_eq!(m.route.path, "/v1/deals/{}/investors");
        assert_eq!(m.params, vec!["abc"]);
        assert_eq!(
            match_route("GET", "/v1/deals/abc").unwrap().route.path,
            "/v1/deals/{}"
        );
        assert_eq!(match_route("GET", "/v1/nope").err().unwrap().status, 404);
        assert_eq!(
            match_route("DELETE", "/v1/company").err().unwrap().status,
            405
        );
        assert_eq!(match_route("GET", "/v1/deals/").err().unwrap().status, 404);
    }

    #[test]
    fn lookups_by_identifier_run_on_the_reactor_by_name_reactor_first() {
        use RunsOn::*;
        let on = |method, path, query| runs_on(method, path, query);
        assert_eq!(
            on("GET", "/v1/company/search", Some("domain=stripe.com")),
            Reactor
        );
        assert_eq!(
            on("GET", "/v1/company/search/", Some("id=x&name2=y")),
            Reactor
        );
        assert_eq!(
            on(
                "GET",
                "/v1/company/search",
                Some("domain=a.com&name=stripe")
            ),
            ReactorFirst
        );
        assert_eq!(on("GET", "/v1/person/search", Some("name=")), ReactorFirst);
        assert_eq!(
            on("GET", "/v1/person/search", Some("n%61me=ann")),
            ReactorFirst
        );
        assert_eq!(on("GET", "/v1/person/search", Some("name=%zz")), Reactor);
        assert_eq!(
            on("GET", "/v1/location/search", Some("name=paris")),
            Reactor
        );
        assert_eq!(on("GET", "/v1/company", Some("domain=stripe.com")), Pool);
        assert_eq!(on("POST", "/v1/companies", None), Pool);
        assert_eq!(on("GET", "/v1/nope", None), Reactor);
        assert_eq!(on("GET", "/health", None), Reactor);
    }

    #[test]
    fn every_route_is_unique() {
        for (i, a) in ROUTES.iter().enumerate() {
            for b in &ROUTES[i + 1..] {
                assert!(
                    !(a.method == b.method && a.path == b.path),
                    "{} {}",
                    a.method,
                    a.path
                );
            }
        }
    }
}
