//! `server`: serves the funding-data API from an index directory.
//!
//! ```text
//! server --index DIR --listen ADDR --state DIR
//! server --demo [--listen ADDR] [--state DIR]
//!        [--semantic-model minilm|wordllama|none] [--models DIR] [--semantic-timeout-ms MS]
//! server keys create --state DIR --user NAME --plan PLAN
//! server keys add-credits --state DIR --user NAME --credits N
//! server keys deactivate --state DIR --key-id ID
//! server alerts create --state DIR --user NAME --config JSON|@FILE
//! server alerts list --state DIR --user NAME
//! server alerts delete --state DIR --user NAME --id UUID
//! server reload --state DIR
//! ```
//! A running server serves one index *generation* at a time and swaps to
//! what `--index` names on SIGHUP, on `server reload`, and with `--watch
//! true` by itself (see `api::reload`).
//! Every flag can also be set through the environment variable named in
//! `--help`. The `keys` and `alerts` commands work whether or not a server
//! is running on the state directory (see `api::admin`).

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use clap::{Args, Parser, Subcommand};

use fundsearch::accounts::{lock_state_dir, AccountStore, Allowances, JournalStore, PgStore, Plan};
use fundsearch::api::admin::{self, AdminOp};
use fundsearch::api::app::App;
use fundsearch::api::metrics::Metrics;
use fundsearch::api::reload;
use fundsearch::api::semantic::{SemanticService, QUERY_CACHE};
use fundsearch::api::server::{bind, serve, ServerConfig};
use fundsearch::cli::{parse_or_usage_error, ModelArgs};
use fundsearch::embed::CachedEmbedder;
use fundsearch::index::build::{build_index, BuildOptions, SemanticOptions};
use fundsearch::index::generation::Generations;
use fundsearch::index::Index;
use fundsearch::ingest::generate::{generate, GenerateOptions};
use fundsearch::schema::Date;

/// Companies in the built-in demo dataset.
const DEMO_COMPANIES: u64 = 3_000;
const DEMO_SEED: u64 = 42;
/// The demo data's "today": fixed, so the demo is the same everywhere.
const DEMO_AS_OF: &str = "2026-11-01";

#[derive(Parser)]
#[command(
    name = "server",
    version,
    about = "Serves the funding-data search API (/v1) from an index directory"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    serve: ServeArgs,
}

#[derive(Args)]
struct ServeArgs {
    /// Index directory built by `indexer build`, or a symlink to one (a
    /// generation: SIGHUP, `server reload` or `--watch` swap in what it
    /// names then, without dropping a request).
    #[arg(long, env = "FUNDSEARCH_INDEX")]
    index: Option<PathBuf>,
    /// Swap generations by itself: check every --watch-interval-ms whether
    /// --index names another directory (a symlink swapped atomically, or a
    /// directory renamed over it) and serve it once it verifies.
    #[arg(long, env = "FUNDSEARCH_WATCH", default_value_t = false, action = clap::ArgAction::Set)]
    watch: bool,
    /// How often --watch looks, milliseconds.
    #[arg(long, env = "FUNDSEARCH_WATCH_INTERVAL_MS", default_value_t = 1_000)]
    watch_interval_ms: u64,
    /// Address to listen on.
    #[arg(long, env = "FUNDSEARCH_LISTEN", default_value = "127.0.0.1:8080")]
    listen: SocketAddr,
    /// State directory (created if missing): the admin socket, and with
    /// the journal the accounts, key hashes and balances. One server each.
    #[arg(long, env = "FUNDSEARCH_STATE")]
    state: Option<PathBuf>,
    /// Where accounts, balances, unlocks, alerts and rate limits live:
    /// `journal` (default: in the state directory, one server) or a
    /// `postgres://user@host/db` URL that replicas share.
    #[arg(long, env = "FUNDSEARCH_ACCOUNTS")]
    accounts: Option<String>,
    /// Connections to the accounts database (with a postgres:// --accounts).
    #[arg(long, env = "FUNDSEARCH_ACCOUNTS_CONNECTIONS", default_value_t = 8)]
    accounts_connections: usize,
    /// Generate (once) and serve a small synthetic dataset, with a demo key.
    #[arg(long, env = "FUNDSEARCH_DEMO")]
    demo: bool,
    /// Where --demo keeps its dump and index.
    #[arg(long, env = "FUNDSEARCH_DEMO_DIR", default_value = "data/demo")]
    demo_dir: PathBuf,
    /// Requests per minute per key (0 = unlimited).
    #[arg(long, env = "FUNDSEARCH_RATE_LIMIT", default_value_t = 200)]
    rate_limit: u32,
    /// Concurrent request handlers (default: 4 × cores, at least 8).
    #[arg(long, env = "FUNDSEARCH_WORKERS")]
    workers: Option<usize>,
    /// Tokio reactor threads (default: cores).
    #[arg(long, env = "FUNDSEARCH_THREADS")]
    threads: Option<usize>,
    /// Largest accepted request body, bytes.
    #[arg(long, env = "FUNDSEARCH_MAX_BODY", default_value_t = 1 << 20)]
    max_body_bytes: usize,
    /// Before serving, read the whole index once: check every checksum and
    /// every structure (slower startup; without it structures are checked
    /// on first use).
    #[arg(long, env = "FUNDSEARCH_VERIFY_ON_START")]
    verify_on_start: bool,
    /// Log one access event per request (status, duration, credits).
    #[arg(long, env = "FUNDSEARCH_ACCESS_LOG", default_value_t = true, action = clap::ArgAction::Set)]
    access_log: bool,
    /// Log format on stderr: `text` (human-readable) or `json` (one object per line).
    #[arg(long, env = "FUNDSEARCH_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    log_format: LogFormat,
    /// What to log: a level (`info`, `warn`, `debug`) or per-target
    /// directives (`info,access=warn`), as tracing's `EnvFilter` reads them.
    #[arg(long, env = "FUNDSEARCH_LOG", default_value = "info")]
    log: String,
    /// Serve Prometheus metrics at `GET /metrics` (unauthenticated; on with `--demo`).
    #[arg(long, env = "FUNDSEARCH_METRICS", action = clap::ArgAction::Set)]
    metrics: Option<bool>,
    #[command(flatten)]
    allowances: AllowanceArgs,
    #[command(flatten)]
    model: ModelArgs,
    /// Time budget of the semantic part of one request (query embedding
    /// and vector search), milliseconds; past it the request answers 504.
    #[arg(
        long = "semantic-timeout-ms",
        env = "FUNDSEARCH_SEMANTIC_TIMEOUT_MS",
        default_value_t = 5_000
    )]
    semantic_timeout_ms: u64,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum LogFormat {
    Text,
    Json,
}

/// Installs the log subscriber of a serving process.
fn init_logging(args: &ServeArgs) -> Result<(), String> {
    use std::io::IsTerminal;
    let filter = tracing_subscriber::EnvFilter::try_new(&args.log)
        .map_err(|e| format!("--log {:?}: {e}", args.log))?;
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal());
    match args.log_format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder.json().try_init(),
    }
    .map_err(|e| e.to_string())
}

#[derive(Args, Clone)]
struct AllowanceArgs {
    /// Monthly credits of the trial plan.
    #[arg(long, env = "FUNDSEARCH_ALLOWANCE_TRIAL", default_value_t = 200)]
    allowance_trial: u64,
    /// Monthly credits of the pro plan.
    #[arg(long, env = "FUNDSEARCH_ALLOWANCE_PRO", default_value_t = 1_000)]
    allowance_pro: u64,
    /// Monthly credits of the pro_plus plan.
    #[arg(long, env = "FUNDSEARCH_ALLOWANCE_PRO_PLUS", default_value_t = 5_000)]
    allowance_pro_plus: u64,
    /// Monthly credits of the enterprise plan.
    #[arg(
        long,
        env = "FUNDSEARCH_ALLOWANCE_ENTERPRISE",
        default_value_t = 25_000
    )]
    allowance_enterprise: u64,
    /// Monthly semantic searches of the trial plan (0 = none allowed).
    #[arg(long, env = "FUNDSEARCH_SEMANTIC_LIMIT_TRIAL", default_value_t = 100)]
    semantic_limit_trial: u64,
    /// Monthly semantic searches of the pro plan.
    #[arg(long, env = "FUNDSEARCH_SEMANTIC_LIMIT_PRO", default_value_t = 1_000)]
    semantic_limit_pro: u64,
    /// Monthly semantic searches of the pro_plus plan.
    #[arg(
        long,
        env = "FUNDSEARCH_SEMANTIC_LIMIT_PRO_PLUS",
        default_value_t = 5_000
    )]
    semantic_limit_pro_plus: u64,
    /// Monthly semantic searches of the enterprise plan (the api plan has no ceiling).
    #[arg(
        long,
        env = "FUNDSEARCH_SEMANTIC_LIMIT_ENTERPRISE",
        default_value_t = 25_000
    )]
    semantic_limit_enterprise: u64,
}

impl AllowanceArgs {
    fn allowances(&self) -> Allowances {
        let mut a = Allowances::default();
        a.set(Plan::Trial, Some(self.allowance_trial));
        a.set(Plan::Pro, Some(self.allowance_pro));
        a.set(Plan::ProPlus, Some(self.allowance_pro_plus));
        a.set(Plan::Enterprise, Some(self.allowance_enterprise));
        a.set_semantic(Plan::Trial, Some(self.semantic_limit_trial));
        a.set_semantic(Plan::Pro, Some(self.semantic_limit_pro));
        a.set_semantic(Plan::ProPlus, Some(self.semantic_limit_pro_plus));
        a.set_semantic(Plan::Enterprise, Some(self.semantic_limit_enterprise));
        a
    }
}

#[derive(Subcommand)]
enum Command {
    /// Manage accounts and API keys (also while a server runs on the state).
    Keys {
        #[command(subcommand)]
        action: KeysCommand,
    },
    /// Manage users' alert configurations (also while a server runs on the state).
    Alerts {
        #[command(subcommand)]
        action: AlertsCommand,
    },
    /// Make the server running on a state directory serve what its --index
    /// names now (as SIGHUP does); prints the generation it serves.
    Reload {
        #[arg(long, env = "FUNDSEARCH_STATE")]
        state: PathBuf,
    },
}

/// Where a `keys` or `alerts` command finds the accounts.
#[derive(Args)]
struct StoreArgs {
    /// State directory: the journal's accounts, or the running server's admin socket.
    #[arg(long, env = "FUNDSEARCH_STATE")]
    state: Option<PathBuf>,
    /// `journal` (the state directory's own) or a `postgres://…` URL shared by replicas.
    #[arg(long, env = "FUNDSEARCH_ACCOUNTS")]
    accounts: Option<String>,
    #[command(flatten)]
    allowances: AllowanceArgs,
}

#[derive(Subcommand)]
enum AlertsCommand {
    /// Save an alert configuration for a user; prints it with its id.
    Create {
        #[command(flatten)]
        store: StoreArgs,
        #[arg(long)]
        user: String,
        /// The configuration as the body of POST /v1/alerts/configurations:
        /// inline JSON, or @FILE.
        #[arg(long)]
        config: String,
    },
    /// Print a user's alert configurations (JSON).
    List {
        #[command(flatten)]
        store: StoreArgs,
        #[arg(long)]
        user: String,
    },
    /// Delete one of a user's alert configurations.
    Delete {
        #[command(flatten)]
        store: StoreArgs,
        #[arg(long)]
        user: String,
        #[arg(long)]
        id: uuid::Uuid,
    },
}

#[derive(Subcommand)]
enum KeysCommand {
    /// Create a key (and the user, if new); prints the key once.
    Create {
        #[command(flatten)]
        store: StoreArgs,
        #[arg(long)]
        user: String,
        /// trial, pro, pro_plus, enterprise or api.
        #[arg(long, value_parser = parse_plan)]
        plan: Plan,
    },
    /// Add purchased credits to a user.
    AddCredits {
        #[command(flatten)]
        store: StoreArgs,
        #[arg(long)]
        user: String,
        #[arg(long)]
        credits: u64,
    },
    /// Deactivate a key by its id (the 12 hex characters after `vg_`).
    Deactivate {
        #[command(flatten)]
        store: StoreArgs,
        #[arg(long)]
        key_id: String,
    },
}

fn parse_plan(text: &str) -> Result<Plan, String> {
    Plan::parse(text)
        .ok_or_else(|| format!("unknown plan '{text}' (trial, pro, pro_plus, enterprise, api)"))
}

fn main() -> ExitCode {
    let cli = match parse_or_usage_error::<Cli>("server") {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    let serving = cli.command.is_none();
    let result = match cli.command {
        Some(Command::Keys { action }) => keys(action),
        Some(Command::Alerts { action }) => alerts(action),
        Some(Command::Reload { state }) => admin::request(&state, &AdminOp::Reload)
            .map(|reply| println!("{}", reply.line()))
            .map_err(|e| format!("{}: {e}", state.display())),
        None => init_logging(&cli.serve).and_then(|()| run_server(cli.serve)),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(reason) if serving && tracing::dispatcher::has_been_set() => {
            tracing::error!(%reason, "server stopped");
            ExitCode::FAILURE
        }
        Err(reason) => {
            eprintln!("server: {reason}");
            ExitCode::FAILURE
        }
    }
}

/// Runs a `keys` command on the state directory itself, or, when a running
/// server holds it, through that server's admin socket (`api::admin`).
fn keys(action: KeysCommand) -> Result<(), String> {
    let (store, op) = match action {
        KeysCommand::Create { store, user, plan } => (store, AdminOp::CreateKey { user, plan }),
        KeysCommand::AddCredits {
            store,
            user,
            credits,
        } => (store, AdminOp::AddCredits { user, credits }),
        KeysCommand::Deactivate { store, key_id } => (store, AdminOp::Deactivate { key_id }),
    };
    administer(&store, &op)
}

/// The JSON of `--config`: inline, or the file after `@`.
fn config_json(config: &str) -> Result<serde_json::Value, String> {
    let text = match config.strip_prefix('@') {
        Some(path) => std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?,
        None => config.to_string(),
    };
    serde_json::from_str(&text).map_err(|e| format!("--config is not valid JSON: {e}"))
}

/// Runs an `alerts` command like a `keys` command.
fn alerts(action: AlertsCommand) -> Result<(), String> {
    let (store, op) = match action {
        AlertsCommand::Create {
            store,
            user,
            config,
        } => (
            store,
            AdminOp::CreateAlert {
                user,
                configuration: config_json(&config)?,
            },
        ),
        AlertsCommand::List { store, user } => (store, AdminOp::ListAlerts { user }),
        AlertsCommand::Delete { store, user, id } => (store, AdminOp::DeleteAlert { user, id }),
    };
    administer(&store, &op)
}

/// Applies `op` to the accounts database; or to the state directory
/// itself, or, when a running server holds it, through that server's admin
/// socket. Prints the answer.
fn administer(store: &StoreArgs, op: &AdminOp) -> Result<(), String> {
    let allowances = store.allowances.allowances();
    let reply = match (Accounts::parse(store.accounts.as_deref())?, &store.state) {
        (Accounts::Postgres(url), _) => admin::execute(&open_postgres(url, allowances, 2)?, op)?,
        (Accounts::Journal, None) => {
            return Err("--state DIR is required (or --accounts postgres://…)".into())
        }
        (Accounts::Journal, Some(state)) => match JournalStore::open(state, allowances) {
            Ok(accounts) => admin::execute(&accounts, op)?,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                admin::request(state, op).map_err(|e| format!("{}: {e}", state.display()))?
            }
            Err(e) => return Err(format!("{}: {e}", state.display())),
        },
    };
    println!("{}", reply.line());
    Ok(())
}

/// Where the accounts live (`--accounts`).
enum Accounts<'a> {
    /// The state directory's journal and snapshot (one server).
    Journal,
    /// A PostgreSQL database shared by every replica.
    Postgres(&'a str),
}

impl<'a> Accounts<'a> {
    fn parse(flag: Option<&'a str>) -> Result<Accounts<'a>, String> {
        match flag.map(str::trim) {
            None | Some("" | "journal") => Ok(Accounts::Journal),
            Some(url) if url.starts_with("postgres://") || url.starts_with("postgresql://") => {
                Ok(Accounts::Postgres(url))
            }
            Some(other) => Err(format!(
                "--accounts {other:?}: expected `journal` or a postgres://… URL"
            )),
        }
    }
}

fn open_postgres(url: &str, allowances: Allowances, connections: usize) -> Result<PgStore, String> {
    PgStore::open_with(url, allowances, connections)
        .map_err(|e| format!("the accounts database: {e}"))
}

/// Generates and indexes the demo dataset unless it is already there
/// (semantic search included: the model files are fetched first).
fn prepare_demo(dir: &Path, model: &ModelArgs) -> Result<PathBuf, String> {
    let index = dir.join("index");
    let wants_vectors = model.kind(Some("minilm"))?.is_some();
    if Index::open(&index).is_ok_and(|i| i.vectors.is_some() || !wants_vectors) {
        return Ok(index);
    }
    let semantic = demo_model(dir, model)?;
    let as_of = Date::parse(DEMO_AS_OF);
    let dump = dir.join("dump");
    tracing::info!(companies = DEMO_COMPANIES, seed = DEMO_SEED, dump = %dump.display(), "demo: generating the synthetic dataset");
    let opts = GenerateOptions {
        companies: DEMO_COMPANIES,
        seed: DEMO_SEED,
        out: dump.clone(),
        as_of: as_of.unwrap_or_else(Date::today),
        compress: false,
    };
    generate(&opts).map_err(|e| format!("generating the demo dataset: {e}"))?;
    tracing::info!(index = %index.display(), "demo: building the index");
    build_index(&BuildOptions {
        dump,
        out: index.clone(),
        as_of,
        strict: true,
        quiet: false,
        memory: fundsearch::index::build::DEFAULT_BUILD_MEMORY,
        store_codec: Default::default(),
        semantic,
    })
    .map_err(|e| e.to_string())?;
    Ok(index)
}

/// The demo's model (MiniLM unless told otherwise), fetched if missing.
fn demo_model(dir: &Path, model: &ModelArgs) -> Result<Option<SemanticOptions>, String> {
    if model.kind(Some("minilm"))?.is_none() {
        return Ok(None);
    }
    fundsearch::embed::files::fetch(&model.models_dir())?;
    let embedder = model.load(Some("minilm"))?;
    Ok(embedder.map(|e| SemanticOptions {
        embedder: e.into(),
        cache_dir: Some(dir.join(".embed-cache")),
    }))
}

/// The server's semantic search: the model of `--semantic-model`, else the
/// one that embedded the index. A missing model is reported and serving
/// goes on without semantic search.
fn semantic_service(index: &Index, args: &ServeArgs) -> Result<SemanticService, String> {
    let index_model = index.vectors.as_ref().map(|v| v.meta.model.id.clone());
    let budget = std::time::Duration::from_millis(args.semantic_timeout_ms);
    let loaded = match args.model.load(index_model.as_deref()) {
        Ok(Some(model)) => model,
        Ok(None) => {
            return Ok(SemanticService::none(
                "semantic search is switched off (--semantic-model none)",
            ))
        }
        Err(e) => {
            tracing::warn!(error = %e, "semantic search is off");
            return Ok(SemanticService::none(format!(
                "the server has no semantic model ({e})"
            )));
        }
    };
    match &index_model {
        Some(id) if *id != loaded.info().id => tracing::warn!(
            index_model = %id, loaded = %loaded.info().id,
            "the index was embedded with another model than --semantic-model loaded; semantic queries will be refused"
        ),
        None => {
            tracing::warn!("the index has no company vectors; semantic queries will be refused")
        }
        _ => {}
    }
    Ok(SemanticService::new(
        Arc::new(CachedEmbedder::new(loaded, QUERY_CACHE)),
        budget,
    ))
}

/// The server's accounts, and the lock on its state directory (held by the
/// journal store itself, or alone when the accounts are in a database).
fn open_accounts(
    args: &ServeArgs,
    state: &Path,
) -> Result<(Arc<dyn AccountStore>, Option<std::fs::File>), String> {
    let allowances = args.allowances.allowances();
    let in_state = |e: std::io::Error| format!("{}: {e}", state.display());
    match Accounts::parse(args.accounts.as_deref())? {
        Accounts::Journal => Ok((
            Arc::new(JournalStore::open(state, allowances).map_err(in_state)?),
            None,
        )),
        Accounts::Postgres(url) => {
            let lock = lock_state_dir(state).map_err(in_state)?;
            let store = open_postgres(url, allowances, args.accounts_connections)?;
            tracing::info!(
                connections = args.accounts_connections.max(1),
                "accounts in PostgreSQL"
            );
            Ok((Arc::new(store), Some(lock)))
        }
    }
}

fn run_server(args: ServeArgs) -> Result<(), String> {
    let started = Instant::now();
    let index_dir = match (&args.index, args.demo) {
        (Some(dir), _) => dir.clone(),
        (None, true) => prepare_demo(&args.demo_dir, &args.model)?,
        (None, false) => return Err("--index DIR is required (or --demo)".into()),
    };
    let state = args.state.clone().unwrap_or_else(|| {
        if args.demo {
            args.demo_dir.join("state")
        } else {
            PathBuf::from("state")
        }
    });
    tracing::info!(index = %index_dir.display(), "opening the index");
    // At its real path, like every later generation: a swap of the link
    // must never reach files under an open generation.
    let real_dir =
        std::fs::canonicalize(&index_dir).map_err(|e| format!("{}: {e}", index_dir.display()))?;
    let index = Index::open(&real_dir).map_err(|e| format!("{}: {e}", index_dir.display()))?;
    if args.verify_on_start {
        index.verify_checksums().map_err(|e| e.to_string())?;
        index.warm().map_err(|e| e.to_string())?;
    }
    // A structure that cannot be read fails the requests that need it, as
    // it would without this: the server still starts.
    if let Err(e) = fundsearch::query::exec::start_derivations(&index) {
        tracing::warn!(error = %e, "derivations not started");
    }
    let semantic = semantic_service(&index, &args)?;
    let (accounts, _state_lock) = open_accounts(&args, &state)?;
    let demo_key = if args.demo {
        Some(
            accounts
                .create_key("demo", Plan::Enterprise)
                .map_err(|e| e.to_string())?,
        )
    } else {
        None
    };
    let metrics = args.metrics.unwrap_or(args.demo);
    let app = Arc::new(App {
        metrics: if metrics {
            Metrics::enabled()
        } else {
            Metrics::disabled()
        },
        generations: Generations::new(&index_dir, Arc::new(index)),
        accounts: accounts.clone(),
        rate_limit: args.rate_limit,
        semantic,
    });
    let config = ServerConfig {
        max_body_bytes: args.max_body_bytes,
        workers: args
            .workers
            .unwrap_or_else(|| ServerConfig::default().workers),
        access_log: args.access_log,
        ..ServerConfig::default()
    };
    let mut runtime = tokio::runtime::Builder::new_multi_thread();
    runtime.enable_all();
    if let Some(t) = args.threads {
        runtime.worker_threads(t.max(1));
    }
    let runtime = runtime.build().map_err(|e| e.to_string())?;
    runtime.block_on(async move {
        let listener = bind(args.listen).await.map_err(|e| format!("listening on {}: {e}", args.listen))?;
        match admin::bind(&state) {
            Ok(socket) => drop(tokio::spawn(admin::serve(socket, app.clone()))),
            Err(e) => tracing::warn!(
                state = %state.display(), error = %e,
                "no admin socket; `server keys` commands will need the server stopped"
            ),
        }
        drop(tokio::spawn(reload::on_hangup(app.clone())));
        if args.watch {
            let every = std::time::Duration::from_millis(args.watch_interval_ms.max(10));
            drop(tokio::spawn(reload::watch(app.clone(), every)));
        }
        let local = listener.local_addr().map_err(|e| e.to_string())?;
        log_ready(&app, &index_dir, args.watch, started, local);
        if let Some(key) = demo_key {
            println!("Demo API key (enterprise plan):");
            println!("{key}");
            println!("Try: curl -H 'Authorization: Bearer {key}' 'http://{local}/v1/company/search?name=lab'");
        }
        serve(app, listener, config, shutdown_signal()).await;
        tracing::info!("stopped");
        Ok(())
    })
}

/// The start-up line: what is served, and where. (The generation is
/// borrowed here only, so that a swap can unmap it.)
fn log_ready(app: &App, index_dir: &Path, watch: bool, started: Instant, local: SocketAddr) {
    let generation = app.generations.current();
    let manifest = &generation.index.manifest;
    let c = &manifest.counts;
    tracing::info!(
        index = %index_dir.display(), companies = c.companies, deals = c.deals, investors = c.investors,
        people = c.people, as_of = %manifest.as_of, built_at = %manifest.built_at,
        generation = generation.number, watch, metrics = app.metrics.is_enabled(),
        startup_ms = started.elapsed().as_millis() as u64,
        "ready on http://{local}"
    );
}

async fn shutdown_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut term =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(t) => t,
                Err(_) => return ctrl_c.await.unwrap_or(()),
            };
        tokio::select! {
            _ = ctrl_c => tracing::info!(signal = "SIGINT", "shutting down"),
            _ = term.recv() => tracing::info!(signal = "SIGTERM", "shutting down"),
        }
    }
    #[cfg(not(unix))]
    let _ = ctrl_c.await;
}
