//! The server's request core, in process: an [`App`] over the benchmark
//! index with a fresh state directory holding one `api`-plan key (unmetered,
//! so a run never runs out of credits) and the rate limit disabled. Charged
//! routes still append to the accounts journal and fsync it, exactly as the
//! server does; [`BenchApp::handler_only`] runs the same route without
//! authentication and charge, to separate the handler's own cost.

use std::env;
use std::fs;
use std::path::PathBuf;
use std::process;
use std::sync::Arc;

use fundsearch::accounts::{Allowances, Charge, JournalStore, Plan, Principal};
use fundsearch::api::app::{App, Request, Response};
use fundsearch::api::envelope::success_body;
use fundsearch::api::handler::{Ctx, Effort};
use fundsearch::api::params::Query;
use fundsearch::api::routes::{match_route, RouteMatch};
use fundsearch::api::semantic::SemanticService;
use fundsearch::index::generation::Generations;
use fundsearch::index::Index;

use super::requests::Get;

pub struct BenchApp {
    pub app: App,
    authorization: String,
    principal: Principal,
    state: PathBuf,
}

impl BenchApp {
    pub fn new(index: Arc<Index>) -> Result<BenchApp, String> {
        let state = env::temp_dir().join(format!("fundsearch-bench-state-{}", process::id()));
        let _ = fs::remove_dir_all(&state);
        let accounts = JournalStore::open(&state, Allowances::default())
            .map_err(|e| format!("{}: {e}", state.display()))?;
        let key = accounts
            .create_key("bench", Plan::Api)
            .map_err(|e| format!("creating a key: {e}"))?;
        let principal = accounts
            .authenticate(&key)
            .map_err(|e| format!("authenticating the bench key: {e:?}"))?;
        let app = App {
            metrics: fundsearch::api::metrics::Metrics::disabled(),
            generations: Generations::new(&index.dir.clone(), index),
            accounts: Arc::new(accounts),
            rate_limit: 0,
            semantic: SemanticService::none("benchmarks of the non-semantic API"),
        };
        Ok(BenchApp {
            app,
            authorization: format!("Bearer {key}"),
            principal,
            state,
        })
    }

    pub fn get(&self, get: &Get) -> Response {
        self.app.handle(&Request {
            method: "GET",
            path: &get.path,
            query: get.query.as_deref(),
            authorization: Some(&self.authorization),
            body: b"",
            request_id: "bench",
        })
    }
}

impl BenchApp {
    /// Routing, the handler and the JSON body, without authentication, rate
    /// limit and charge: the body, or the error status.
    pub fn handler_only(&self, get: &Get) -> Result<Vec<u8>, u16> {
        let RouteMatch { route, params } = match_route("GET", &get.path).map_err(|e| e.status)?;
        let query = Query::parse(get.query.as_deref()).map_err(|e| e.status)?;
        let ctx = Ctx {
            app: &self.app,
            index: &self.app.generations.current().index,
            effort: Effort::Full,
            query,
            params,
            body: b"",
            principal: &self.principal,
        };
        let reply = (route.handler)(&ctx).map_err(|e| e.status)?;
        let free = Charge {
            credits_used: 0,
            source: None,
            balance: None,
        };
        Ok(success_body(
            &reply.data,
            &reply.meta.to_value(route.endpoint.meta, &free),
            reply.message.as_deref(),
        ))
    }
}

impl Drop for BenchApp {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.state);
    }
}
