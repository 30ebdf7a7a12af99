//! A real server on an ephemeral port, and a minimal HTTP/1.1 client
//! (std only) to talk to it.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use fundsearch::accounts::{Allowances, JournalStore, Plan};
use fundsearch::api::app::App;
use fundsearch::api::metrics::Metrics;
use fundsearch::api::semantic::SemanticService;
use fundsearch::api::server::{serve, ServerConfig};
use fundsearch::index::generation::Generations;
use fundsearch::index::Index;
use serde_json::Value;

pub struct TestServer {
    pub addr: SocketAddr,
    pub accounts: Arc<JournalStore>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// Server settings for a test.
pub struct Setup {
    pub rate_limit: u32,
    pub allowances: Allowances,
    pub config: ServerConfig,
    /// The server's semantic search (default: MiniLM, the fixture's model).
    pub semantic: fn() -> SemanticService,
    /// `GET /metrics` served (default: off, as `--metrics` defaults).
    pub metrics: bool,
}

impl Default for Setup {
    fn default() -> Setup {
        let config = ServerConfig {
            header_timeout: Duration::from_millis(500),
            body_timeout: Duration::from_millis(500),
            access_log: false,
            ..ServerConfig::default()
        };
        Setup {
            rate_limit: 0,
            allowances: Allowances::default(),
            config,
            semantic: super::semantic_service,
            metrics: false,
        }
    }
}

impl TestServer {
    pub fn start(index_dir: &Path, state_dir: &Path, setup: Setup) -> TestServer {
        let index = Index::open(index_dir).expect("index opens");
        index.warm().expect("index warms");
        let accounts =
            Arc::new(JournalStore::open(state_dir, setup.allowances).expect("state opens"));
        let app = Arc::new(App {
            metrics: if setup.metrics {
                Metrics::enabled()
            } else {
                Metrics::disabled()
            },
            generations: Generations::new(index_dir, Arc::new(index)),
            accounts: accounts.clone(),
            rate_limit: setup.rate_limit,
            semantic: (setup.semantic)(),
        });
        let (addr_tx, addr_rx) = std::sync::mpsc::channel();
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let config = setup.config;
        let thread = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async move {
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
                addr_tx.send(listener.local_addr().unwrap()).unwrap();
                serve(app, listener, config, async move {
                    let _ = stop_rx.await;
                })
                .await;
            });
        });
        let addr = addr_rx
            .recv_timeout(Duration::from_secs(10))
            .expect("server starts");
        TestServer {
            addr,
            accounts,
            stop: Some(stop_tx),
            thread: Some(thread),
        }
    }

    pub fn key(&self, user: &str, plan: Plan) -> String {
        self.accounts.create_key(user, plan).unwrap()
    }

    /// `GET path` with an optional bearer key.
    pub fn get(&self, path: &str, key: Option<&str>) -> Reply {
        Client(self.addr).get(path, key)
    }

    pub fn request(&self, method: &str, path: &str, key: Option<&str>, body: &[u8]) -> Reply {
        Client(self.addr).request(method, path, key, body)
    }

    /// Stops the server and waits for it.
    pub fn stop(mut self) {
        self.shutdown();
    }

    fn shutdown(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// A one-request-per-connection HTTP/1.1 client.
#[derive(Debug, Clone, Copy)]
pub struct Client(pub SocketAddr);

impl Client {
    /// `GET path` with an optional bearer key.
    pub fn get(&self, path: &str, key: Option<&str>) -> Reply {
        self.request("GET", path, key, b"")
    }

    pub fn request(&self, method: &str, path: &str, key: Option<&str>, body: &[u8]) -> Reply {
        self.send_raw(&Client::raw(method, path, key, body))
    }

    /// [`Client::request`], or why there is no answer (a killed server).
    pub fn try_request(
        &self,
        method: &str,
        path: &str,
        key: Option<&str>,
        body: &[u8],
    ) -> Result<Reply, Unanswered> {
        let mut stream = TcpStream::connect(self.0).map_err(|_| Unanswered::Unreachable)?;
        let lost = |_| Unanswered::Lost;
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .map_err(lost)?;
        stream
            .write_all(&Client::raw(method, path, key, body))
            .map_err(lost)?;
        let mut out = Vec::new();
        stream.read_to_end(&mut out).map_err(lost)?;
        Some(Reply::parse(&out))
            .filter(|r| r.status != 0)
            .ok_or(Unanswered::Lost)
    }

    fn raw(method: &str, path: &str, key: Option<&str>, body: &[u8]) -> Vec<u8> {
        let mut head = format!(
            "{method} {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\nContent-Length: {}\r\n",
            body.len()
        );
        if let Some(k) = key {
            head.push_str(&format!("Authorization: Bearer {k}\r\n"));
        }
        head.push_str("\r\n");
        let mut raw = head.into_bytes();
        raw.extend_from_slice(body);
        raw
    }

    pub fn send_raw(&self, raw: &[u8]) -> Reply {
        let mut stream = TcpStream::connect(self.0).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
        // The server may answer (413) and close before reading everything.
        let _ = stream.write_all(raw);
        let mut out = Vec::new();
        let _ = stream.read_to_end(&mut out);
        Reply::parse(&out)
    }
}

/// Why [`Client::try_request`] has no answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unanswered {
    /// No connection: the request never reached a server.
    Unreachable,
    /// Connected, then no (whole) answer: the request may have run.
    Lost,
}

#[derive(Debug, Clone)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Value,
    /// The body as text (for the responses that are not JSON).
    pub text: String,
}

impl Reply {
    fn parse(raw: &[u8]) -> Reply {
        let text = String::from_utf8_lossy(raw);
        let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
        let mut lines = head.lines();
        let status = lines
            .next()
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        let headers = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
            .collect();
        Reply {
            status,
            headers,
            body: serde_json::from_str(body).unwrap_or(Value::Null),
            text: body.to_string(),
        }
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn code(&self) -> &str {
        self.body["error"]["code"].as_str().unwrap_or("")
    }
}
