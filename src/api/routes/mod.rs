//! The route table: every declared endpoint (`api::declare::endpoints`)
//! paired with its handler and where it runs. The dispatcher (`api::app`)
//! applies auth, rate limit, parameter checks and charging uniformly;
//! handlers only answer.

pub mod alerts;
pub mod collections;
pub mod detail;
pub mod email;
pub mod history;
pub mod lookup;
mod support;

use super::declare::endpoint::Endpoint;
use super::declare::endpoints as e;
use super::errors::ApiError;
use super::handler::Handler;
use super::params::Query;

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
    pub endpoint: &'static Endpoint,
    pub weight: Weight,
    pub handler: Handler,
}

const fn route(endpoint: &'static Endpoint, weight: Weight, handler: Handler) -> Route {
    Route {
        endpoint,
        weight,
        handler,
    }
}

/// Every endpoint served under `/v1`.
pub static ROUTES: &[Route] = &[
    route(&e::LOCATION_SEARCH, Weight::Light, lookup::locations),
    route(&e::INDUSTRY_SEARCH, Weight::Light, lookup::industries),
    route(&e::COMPANY_SEARCH, Weight::HeavyByName, lookup::companies),
    route(&e::INVESTOR_SEARCH, Weight::HeavyByName, lookup::investors),
    route(&e::PERSON_SEARCH, Weight::HeavyByName, lookup::people),
    route(&e::COMPANY, Weight::Heavy, detail::company),
    route(&e::INVESTOR, Weight::Heavy, detail::investor),
    route(&e::PERSON, Weight::Heavy, detail::person),
    route(&e::DEAL, Weight::Heavy, detail::deal),
    route(&e::DEAL_INVESTORS, Weight::Heavy, detail::deal_investors),
    route(&e::COMPANY_DEALS, Weight::Heavy, history::company_deals),
    route(&e::INVESTOR_DEALS, Weight::Heavy, history::investor_deals),
    route(&e::PERSON_DEALS, Weight::Heavy, history::person_deals),
    route(&e::PERSON_EMAIL, Weight::Heavy, email::person_email),
    route(&e::COMPANIES, Weight::Heavy, collections::companies),
    route(&e::DEALS, Weight::Heavy, collections::deals),
    route(&e::INVESTORS, Weight::Heavy, collections::investors),
    route(&e::PEOPLE, Weight::Heavy, collections::people),
    route(&e::ALERTS, Weight::Heavy, alerts::alerts),
    route(
        &e::ALERT_CONFIGURATIONS,
        Weight::Heavy,
        alerts::configurations,
    ),
    route(
        &e::CREATE_ALERT_CONFIGURATION,
        Weight::Heavy,
        alerts::create_configuration,
    ),
    route(
        &e::DELETE_ALERT_CONFIGURATION,
        Weight::Heavy,
        alerts::delete_configuration,
    ),
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

/// The metrics label of `method path`: the declared pattern of its route
/// (`/v1/company/{id}`), the path of a public resource, or `unmatched`;
/// never the raw path, so labels stay few whatever clients send.
pub fn label(method: &str, path: &str) -> &'static str {
    let path = match path.trim_end_matches('/') {
        "" => "/",
        trimmed => trimmed,
    };
    if let Some(resource) = super::public::find(path) {
        return resource.path;
    }
    match match_route(method, path) {
        Ok(m) => m.route.endpoint.path,
        Err(_) => "unmatched",
    }
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
        let endpoint = route.endpoint;
        if let Some(params) = match_path(endpoint.path, path) {
            if endpoint.method == method || (method == "HEAD" && endpoint.method == "GET") {
                return Ok(RouteMatch { route, params });
            }
            allowed.push(endpoint.method);
            if endpoint.method == "GET" {
                allowed.push("HEAD");
            }
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
            (Some(p), Some(seg)) if p.starts_with('{') && !seg.is_empty() => params.push(seg),
            (Some(p), Some(seg)) if p == seg => {}
            _ => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_patterns_public_paths_or_unmatched() {
        assert_eq!(
            label("GET", "/v1/deals/abc/investors/"),
            "/v1/deals/{id}/investors"
        );
        assert_eq!(label("GET", "/health"), "/health");
        assert_eq!(label("GET", "/v1/no/such/thing"), "unmatched");
        assert_eq!(label("DELETE", "/v1/deals/abc"), "unmatched");
    }

    #[test]
    fn patterns_capture_segments_and_distinguish_methods() {
        let m = match_route("GET", "/v1/deals/abc/investors").unwrap();
        assert_eq!(m.route.endpoint.path, "/v1/deals/{id}/investors");
        assert_eq!(m.params, vec!["abc"]);
        assert_eq!(
            match_route("GET", "/v1/deals/abc")
                .unwrap()
                .route
                .endpoint
                .path,
            "/v1/deals/{id}"
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
                let (a, b) = (a.endpoint, b.endpoint);
                assert!(
                    !(a.method == b.method && a.path == b.path),
                    "{} {}",
                    a.method,
                    a.path
                );
                assert_ne!(a.id, b.id);
            }
        }
    }

    /// The route table and the declarations are the same set: a route
    /// without a declaration, or a declaration without a route, fails here.
    #[test]
    fn every_declared_endpoint_has_exactly_one_route_and_back() {
        for endpoint in e::ALL {
            let routes = ROUTES
                .iter()
                .filter(|r| std::ptr::eq(r.endpoint, *endpoint) || r.endpoint == *endpoint);
            assert_eq!(routes.count(), 1, "{} {}", endpoint.method, endpoint.path);
        }
        for route in ROUTES {
            assert!(e::ALL.contains(&route.endpoint), "{}", route.endpoint.path);
        }
        assert_eq!(ROUTES.len(), e::ALL.len());
    }
}
