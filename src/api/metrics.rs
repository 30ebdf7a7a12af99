//! The server's Prometheus metrics (`GET /metrics`, switched by
//! `--metrics`), kept with the official Prometheus client
//! (`prometheus-client`) in one registry per [`Metrics`] value, so that
//! servers in one process (tests) never mix their figures.
//!
//! | metric | kind | labels |
//! |---|---|---|
//! | `fundsearch_http_requests_total` | counter | `route`, `status` |
//! | `fundsearch_http_request_duration_seconds` | histogram | `route`, `status` |
//! | `fundsearch_credits_charged_total` | counter | `route` |
//! | `fundsearch_rate_limit_refusals_total` | counter | |
//! | `fundsearch_worker_queue_depth` | gauge: requests waiting for a worker | |
//! | `fundsearch_workers_busy` | gauge: handlers running on the pool | |
//! | `fundsearch_index_info` | info: `as_of`, `built_at`, `format_version` | |
//! | `fundsearch_index_documents` | gauge | `kind` |
//! | `fundsearch_process_resident_memory_bytes` | gauge | |
//!
//! `route` is the declared path pattern (`/v1/company/{id}`), a public
//! resource's path, or `unmatched`: its values are bounded by the route
//! table, whatever paths clients send. The text is OpenMetrics, which
//! Prometheus scrapes natively. A disabled [`Metrics`] records nothing.

use std::time::Duration;

use prometheus_client::encoding::text::encode;
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{exponential_buckets, Histogram};
use prometheus_client::registry::Registry;

use crate::index::manifest::Manifest;
use crate::progress::memory::resident_bytes;

/// `Content-Type` of [`Metrics::render`].
pub const CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    route: &'static str,
    status: u16,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RouteLabel {
    route: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct KindLabel {
    kind: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct OutcomeLabel {
    outcome: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct IndexLabels {
    as_of: String,
    built_at: String,
    format_version: u32,
}

type LatencyFamily = Family<RequestLabels, Histogram, fn() -> Histogram>;

/// Latency buckets: 50 µs to about 7.5 s, ×2.5 each.
fn latency_histogram() -> Histogram {
    Histogram::new(exponential_buckets(0.000_05, 2.5, 14))
}

/// Every figure of one server.
pub struct Metrics {
    enabled: bool,
    registry: Registry,
    requests: Family<RequestLabels, Counter>,
    latency: LatencyFamily,
    credits: Family<RouteLabel, Counter>,
    rate_limited: Counter,
    queued: Gauge,
    busy: Gauge,
    index: Family<IndexLabels, Gauge>,
    documents: Family<KindLabel, Gauge>,
    generation: Gauge,
    reloads: Family<OutcomeLabel, Counter>,
    resident: Gauge,
}

impl Metrics {
    /// Metrics that record and render.
    pub fn enabled() -> Metrics {
        Metrics::new(true)
    }

    /// Metrics that record nothing; `/metrics` answers 404.
    pub fn disabled() -> Metrics {
        Metrics::new(false)
    }

    pub fn is_enabled(&self) -> bool {
        self.enabled
    }

    fn new(enabled: bool) -> Metrics {
        let mut m = Metrics {
            enabled,
            registry: Registry::with_prefix("fundsearch"),
            requests: Family::default(),
            latency: Family::new_with_constructor(latency_histogram),
            credits: Family::default(),
            rate_limited: Counter::default(),
            queued: Gauge::default(),
            busy: Gauge::default(),
            index: Family::default(),
            documents: Family::default(),
            generation: Gauge::default(),
            reloads: Family::default(),
            resident: Gauge::default(),
        };
        m.register();
        m
    }

    fn register(&mut self) {
        let r = &mut self.registry;
        r.register("http_requests", "Requests answered", self.requests.clone());
        r.register(
            "http_request_duration_seconds",
            "Time from the request's arrival to its response",
            self.latency.clone(),
        );
        r.register("credits_charged", "Credits charged", self.credits.clone());
        r.register(
            "rate_limit_refusals",
            "Requests refused by a key's rate limit",
            self.rate_limited.clone(),
        );
        r.register(
            "worker_queue_depth",
            "Requests waiting for a worker",
            self.queued.clone(),
        );
        r.register(
            "workers_busy",
            "Handlers running on the worker pool",
            self.busy.clone(),
        );
        r.register(
            "index_info",
            "The index generation being served (value 1)",
            self.index.clone(),
        );
        r.register(
            "index_documents",
            "Documents per kind in the served index",
            self.documents.clone(),
        );
        r.register(
            "index_generation",
            "Number of the index generation being served (1 at start, +1 per swap)",
            self.generation.clone(),
        );
        r.register(
            "index_reloads",
            "Index reloads, swapped or refused (the old generation kept serving)",
            self.reloads.clone(),
        );
        r.register(
            "process_resident_memory_bytes",
            "Resident memory of the process",
            self.resident.clone(),
        );
    }

    /// One answered request.
    pub fn observe(&self, route: &'static str, status: u16, credits: u64, took: Duration) {
        if !self.enabled {
            return;
        }
        let labels = RequestLabels { route, status };
        self.requests.get_or_create(&labels).inc();
        self.latency
            .get_or_create(&labels)
            .observe(took.as_secs_f64());
        if credits > 0 {
            self.credits
                .get_or_create(&RouteLabel { route })
                .inc_by(credits);
        }
    }

    /// A request refused by its key's rate limit.
    pub fn rate_limited(&self) {
        if self.enabled {
            self.rate_limited.inc();
        }
    }

    /// A reload: the new generation swapped in, or refused.
    pub fn reloaded(&self, swapped: bool) {
        if self.enabled {
            let outcome = if swapped { "swapped" } else { "refused" };
            self.reloads.get_or_create(&OutcomeLabel { outcome }).inc();
        }
    }

    /// The worker queue: `+1` when a request starts waiting, `-1` when it
    /// got a worker or gave up.
    pub fn queued(&self, delta: i64) {
        if self.enabled {
            self.queued.inc_by(delta);
        }
    }

    /// Handlers on the pool: `+1` when one starts, `-1` when it ends.
    pub fn busy(&self, delta: i64) {
        if self.enabled {
            self.busy.inc_by(delta);
        }
    }

    /// The text exposition, with the index and memory gauges read now.
    pub fn render(&self, manifest: &Manifest, generation: u64) -> String {
        self.set_index(manifest);
        self.generation.set(generation as i64);
        if let Some(bytes) = resident_bytes() {
            self.resident.set(bytes as i64);
        }
        let mut text = String::new();
        // Writing into a String cannot fail.
        let _ = encode(&mut text, &self.registry);
        text
    }

    fn set_index(&self, manifest: &Manifest) {
        self.index.clear();
        let labels = IndexLabels {
            as_of: manifest.as_of.clone(),
            built_at: manifest.built_at.clone(),
            format_version: manifest.format_version,
        };
        self.index.get_or_create(&labels).set(1);
        let c = &manifest.counts;
        let kinds = [
            ("companies", c.companies),
            ("deals", c.deals),
            ("investors", c.investors),
            ("people", c.people),
        ];
        for (kind, n) in kinds {
            self.documents
                .get_or_create(&KindLabel { kind })
                .set(n as i64);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::manifest::Counts;

    fn manifest() -> Manifest {
        Manifest {
            format: "fundsearch-index".into(),
            format_version: 5,
            as_of: "2026-11-01".into(),
            built_at: "2026-11-02T00:00:00Z".into(),
            builder: "test".into(),
            dump_source: "test".into(),
            counts: Counts {
                companies: 3,
                deals: 5,
                investors: 2,
                people: 7,
                ..Counts::default()
            },
            files: Vec::new(),
        }
    }

    #[test]
    fn requests_credits_and_refusals_are_counted_per_route_and_status() {
        let m = Metrics::enabled();
        m.observe("/v1/companies", 200, 25, Duration::from_millis(2));
        m.observe("/v1/companies", 200, 10, Duration::from_millis(3));
        m.observe("/v1/companies", 402, 0, Duration::from_micros(90));
        m.rate_limited();
        let text = m.render(&manifest(), 1);
        assert!(
            text.contains(
                r#"fundsearch_http_requests_total{route="/v1/companies",status="200"} 2"#
            ),
            "{text}"
        );
        assert!(text
            .contains(r#"fundsearch_http_requests_total{route="/v1/companies",status="402"} 1"#));
        assert!(text.contains(r#"fundsearch_credits_charged_total{route="/v1/companies"} 35"#));
        assert!(text.contains("fundsearch_rate_limit_refusals_total 1"));
        assert!(text.contains(r#"fundsearch_http_request_duration_seconds_count{route="/v1/companies",status="200"} 2"#));
        assert!(text.ends_with("# EOF\n"));
    }

    #[test]
    fn index_generation_counts_and_memory_are_read_at_render_time() {
        let m = Metrics::enabled();
        m.reloaded(true);
        m.reloaded(false);
        m.reloaded(true);
        let text = m.render(&manifest(), 3);
        assert!(text.contains("fundsearch_index_generation 3"), "{text}");
        assert!(text.contains(r#"fundsearch_index_reloads_total{outcome="swapped"} 2"#));
        assert!(text.contains(r#"fundsearch_index_reloads_total{outcome="refused"} 1"#));
        assert!(text.contains(r#"fundsearch_index_info{as_of="2026-11-01",built_at="2026-11-02T00:00:00Z",format_version="5"} 1"#), "{text}");
        assert!(text.contains(r#"fundsearch_index_documents{kind="people"} 7"#));
        if cfg!(target_os = "linux") {
            let line = text
                .lines()
                .find(|l| l.starts_with("fundsearch_process_resident_memory_bytes "))
                .unwrap();
            assert!(line.split(' ').nth(1).unwrap().parse::<i64>().unwrap() > 0);
        }
    }

    #[test]
    fn gauges_follow_the_queue_and_the_pool() {
        let m = Metrics::enabled();
        m.queued(1);
        m.queued(1);
        m.queued(-1);
        m.busy(1);
        let text = m.render(&manifest(), 1);
        assert!(text.contains("fundsearch_worker_queue_depth 1\n"), "{text}");
        assert!(text.contains("fundsearch_workers_busy 1\n"));
    }

    #[test]
    fn a_disabled_registry_records_nothing() {
        let m = Metrics::disabled();
        m.observe("/v1/deals", 200, 5, Duration::from_millis(1));
        m.rate_limited();
        let text = m.render(&manifest(), 1);
        assert!(!text.contains("fundsearch_http_requests_total{"));
        assert!(text.contains("fundsearch_rate_limit_refusals_total 0"));
    }
}
