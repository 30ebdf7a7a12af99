//! The server's request core, in process: an [`App`] over the benchmark
//! index with a fresh state directory holding one `api`-plan key (unmetered,
//! so a run never runs out of credits) and the rate limit disabled. Charged
//! routes still append to the accounts journal and fsync it, exactly as the
//! server does.

use std::env;
use std::fs;
use std::path::PathBuf;
use std::process;
use std::sync::Arc;

use fundsearch::api::accounts::{Accounts, Allowances, Plan};
use fundsearch::api::app::{App, Request, Response};
use fundsearch::api::rate_limit::RateLimiter;
use fundsearch::index::Index;

use super::requests::Get;

pub struct BenchApp {
    pub app: App,
    authorization: String,
    state: PathBuf,
}

impl BenchApp {
    pub fn new(index: Arc<Index>) -> Result<BenchApp, String> {
        let state = env::temp_dir().join(format!("fundsearch-bench-state-{}", process::id()));
        let _ = fs::remove_dir_all(&state);
        let accounts = Accounts::open(&state, Allowances::default()).map_err(|e| format!("{}: {e}", state.display()))?;
        let key = accounts.create_key("bench", Plan::Api).map_err(|e| format!("creating a key: {e}"))?;
        let app = App { index, accounts: Arc::new(accounts), limiter: RateLimiter::new(0) };
        Ok(BenchApp { app, authorization: format!("Bearer {key}"), state })
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

impl Drop for BenchApp {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.state);
    }
}
