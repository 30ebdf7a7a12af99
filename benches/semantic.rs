//! Semantic search: quality per model, and latency, recall and cost at scale.
//!
//! **Quality** (`--eval`, the default): `benches/data/semantic_eval.tsv`
//! (hand-written queries paired with the company they should find) is run
//! through the real pipeline, per model: the real YC 2014 descriptions
//! (imported and indexed with that model) for the `yc` (paraphrases) and
//! `yc-keyword` sets, a 3,000-company synthetic dataset for the
//! `synthetic` set (a hit is a company whose description has the target's
//! product and customers, ignoring case and the product's article; queries
//! whose pair the corpus does not hold are left out, `queries` says how
//! many remain). Printed: MRR (over the 150 returned, 0 when the
//! target is not among them) and recall@10.
//!
//! **Scale** (`--latency`): a synthetic dataset of `--companies N`, indexed
//! with `--model` (default: MiniLM up to 5,000 companies, WordLlama above:
//! MiniLM embeds ~40 texts/s, so 1e6 texts would take hours). Printed, each
//! against its target at M (1e6): end-to-end latency of `POST /companies`
//! with a `search_query` (query embedding, search, page of 25 hydrated),
//! p50 / p99, without and with other filters; the query embedding alone;
//! recall@150 of the index's search (int8 rows, sign-sketch first pass)
//! against exact f32 scoring of the same texts; the corpus embedding rate
//! of the build; and the bytes `companies.vectors` adds to the index.
//!
//! ```text
//! cargo bench --bench semantic -- [--eval] [--latency] [--companies 100000]
//!     [--model minilm|wordllama] [--queries 1000] [--recall-queries 50]
//!     [--tuning 8:16384,4:8192]   (recall of other share:rescore tunings too)
//! ```
//! Data goes to `<target>/bench-data/semantic/` and is reused (embedding
//! cache included). Pin it for stable figures: `taskset -c 1 cargo bench ...`.

mod support;

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use fundsearch::api::body::parse_companies;
use fundsearch::embed::{dot, files::default_models_dir, CachedEmbedder, Embedder, ModelKind};
use fundsearch::index::build::vectors::company_text;
use fundsearch::index::build::{build_index, BuildOptions, SemanticOptions};
use fundsearch::index::Index;
use fundsearch::ingest::generate::{generate, GenerateOptions};
use fundsearch::ingest::import::{import, ImportOptions};
use fundsearch::query::exec::search_companies;
use fundsearch::query::semantic::{embed_query, semantic_set, semantic_set_tuned, Tuning};
use fundsearch::schema::{CompanyRow, Date};

use support::stats::{fmt_us, Summary};

const AS_OF: &str = "2026-11-01";
const EVAL_SYNTHETIC: u64 = 3_000;
const SEED: u64 = 42;

struct Args {
    eval: bool,
    latency: bool,
    companies: u64,
    model: Option<ModelKind>,
    queries: usize,
    recall_queries: usize,
    /// Extra sketch-pass sizes `(coarse, rescore)` whose recall to print
    /// (the server's is always printed).
    tunings: Vec<(usize, usize)>,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        eval: false,
        latency: false,
        companies: 100_000,
        model: None,
        queries: 1_000,
        recall_queries: 50,
        tunings: Vec::new(),
    };
    let mut it = std::env::args().skip(1).filter(|s| s != "--bench");
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--eval" => a.eval = true,
            "--latency" => a.latency = true,
            "--companies" => {
                a.companies = value()?.parse().map_err(|e| format!("--companies: {e}"))?
            }
            "--model" => {
                a.model = Some(ModelKind::parse(&value()?).ok_or("--model: minilm or wordllama")?)
            }
            "--queries" => a.queries = value()?.parse().map_err(|e| format!("--queries: {e}"))?,
            "--tuning" => a.tunings = parse_tunings(&value()?)?,
            "--recall-queries" => {
                a.recall_queries = value()?
                    .parse()
                    .map_err(|e| format!("--recall-queries: {e}"))?
            }
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if !a.eval && !a.latency {
        a.eval = true;
    }
    Ok(a)
}

/// `share:rescore,share:rescore` (the Hamming pass keeps 1/share of the rows).
fn parse_tunings(text: &str) -> Result<Vec<(usize, usize)>, String> {
    text.split(',')
        .map(|pair| {
            let (c, r) = pair
                .split_once(':')
                .ok_or("--tuning: share:rescore pairs")?;
            Ok((
                c.parse().map_err(|e| format!("--tuning: {e}"))?,
                r.parse().map_err(|e| format!("--tuning: {e}"))?,
            ))
        })
        .collect()
}

fn main() -> ExitCode {
    match parse_args().and_then(run) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("semantic bench: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: Args) -> Result<(), String> {
    fundsearch::embed::files::fetch(&default_models_dir())?;
    if args.eval {
        eval()?;
    }
    if args.latency {
        latency(&args)?;
    }
    Ok(())
}

fn base() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target"));
    target.join("bench-data/semantic")
}

fn load_model(kind: ModelKind) -> Result<Arc<dyn Embedder>, String> {
    kind.load(&default_models_dir())
        .map(Arc::from)
        .map_err(|e| e.to_string())
}

/// What building an index cost (only when it was built in this run).
struct Built {
    index: Index,
    embedded: usize,
    embed_time: Option<Duration>,
}

/// Opens `out` if it holds vectors of `model`, else builds it from `dump`.
fn index_of(dump: &Path, out: &Path, model: &Arc<dyn Embedder>) -> Result<Built, String> {
    if let Ok(index) = Index::open(out) {
        if index
            .vectors
            .as_ref()
            .is_some_and(|v| v.meta.model.id == model.info().id)
        {
            return Ok(Built {
                index,
                embedded: 0,
                embed_time: None,
            });
        }
    }
    eprintln!("bench: building {} with {}", out.display(), model.info().id);
    let report = build_index(&BuildOptions {
        dump: dump.into(),
        out: out.into(),
        as_of: Date::parse(AS_OF),
        strict: false,
        quiet: false,
        memory: fundsearch::index::build::DEFAULT_BUILD_MEMORY,
        store_codec: Default::default(),
        semantic: Some(SemanticOptions {
            embedder: model.clone(),
            cache_dir: Some(base().join(".embed-cache")),
        }),
    })
    .map_err(|e| e.to_string())?;
    let embed_time = report
        .timings
        .iter()
        .find(|(s, _)| s == "company vectors")
        .map(|(_, d)| *d);
    let embedded = report.embed.map_or(0, |e| e.embedded);
    let index = Index::open(out).map_err(|e| e.to_string())?;
    Ok(Built {
        index,
        embedded,
        embed_time,
    })
}

fn synthetic_dump(companies: u64) -> Result<PathBuf, String> {
    let dump = base().join(format!("synth-{companies}-dump"));
    if !dump.join("dump.json").exists() {
        eprintln!(
            "bench: generating {companies} companies into {}",
            dump.display()
        );
        let as_of = Date::parse(AS_OF).ok_or("as-of")?;
        generate(&GenerateOptions {
            companies,
            seed: SEED,
            out: dump.clone(),
            as_of,
            compress: false,
        })
        .map_err(|e| e.to_string())?;
    }
    Ok(dump)
}

fn yc_dump() -> Result<PathBuf, String> {
    let dump = base().join("yc-dump");
    if !dump.join("dump.json").exists() {
        let yc = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/yc-2014");
        import(&ImportOptions {
            crunchbase_2013: None,
            yc_2014: Some(yc),
            out: dump.clone(),
        })
        .map_err(|e| e.to_string())?;
    }
    Ok(dump)
}

/// `(set, query, target)` rows of the evaluation file.
fn eval_rows() -> Result<Vec<(String, String, String)>, String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("benches/data/semantic_eval.tsv");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("set\t") && !l.trim().is_empty())
        .filter_map(|l| {
            let mut f = l.split('\t');
            Some((
                f.next()?.to_string(),
                f.next()?.to_string(),
                f.next()?.to_string(),
            ))
        })
        .collect())
}

/// Each company's stored `full` record.
fn records(index: &Index) -> Result<Vec<serde_json::Value>, String> {
    let store = index.companies.records("full").map_err(|e| e.to_string())?;
    (0..index.companies.docs as u32)
        .map(|d| {
            let record = store.get(d).map_err(|e| e.to_string())?;
            serde_json::from_slice(&record).map_err(|e| e.to_string())
        })
        .collect()
}

/// 1-based rank of the first hit among the 150 returned.
fn rank(
    index: &Index,
    embedder: &CachedEmbedder,
    query: &str,
    hit: impl Fn(u32) -> bool,
) -> Result<Option<usize>, String> {
    let qv = embed_query(Some(embedder), index, query, None).map_err(|e| e.to_string())?;
    let vectors = index.vectors.as_ref().ok_or("no vectors")?;
    let hits = semantic_set(vectors, &qv, None, 0.0).map_err(|e| e.to_string())?;
    Ok(hits.iter().position(|h| hit(h.doc)).map(|p| p + 1))
}

#[derive(Default)]
struct Quality {
    n: usize,
    rr: f64,
    at10: usize,
}

impl Quality {
    fn add(&mut self, rank: Option<usize>) {
        self.n += 1;
        self.rr += rank.map_or(0.0, |r| 1.0 / r as f64);
        self.at10 += rank.is_some_and(|r| r <= 10) as usize;
    }

    fn line(&self, model: &str, set: &str, corpus: usize) {
        println!(
            "{model:<18} {set:<11} {corpus:>7} {:>8} {:>7.3} {:>10.3}",
            self.n,
            self.rr / self.n.max(1) as f64,
            self.at10 as f64 / self.n.max(1) as f64
        );
    }
}

fn eval() -> Result<(), String> {
    let rows = eval_rows()?;
    println!("\nQuality on benches/data/semantic_eval.tsv (MRR over the 150 returned; recall@10)");
    println!(
        "{:<18} {:<11} {:>7} {:>8} {:>7} {:>10}",
        "model", "set", "corpus", "queries", "MRR", "recall@10"
    );
    for kind in ModelKind::ALL {
        let model = load_model(kind)?;
        let embedder = CachedEmbedder::new(model.clone(), 1);
        let yc = index_of(
            &yc_dump()?,
            &base().join(format!("yc-{}", kind.id())),
            &model,
        )?
        .index;
        let names: Vec<String> = records(&yc)?
            .iter()
            .map(|r| r["name"].as_str().unwrap_or_default().to_string())
            .collect();
        let with_text = yc.vectors.as_ref().map_or(0, |v| v.rows());
        for set in ["yc", "yc-keyword"] {
            let mut q = Quality::default();
            for (_, query, target) in rows.iter().filter(|r| r.0 == set) {
                q.add(rank(&yc, &embedder, query, |d| {
                    names[d as usize] == *target
                })?);
            }
            q.line(kind.id(), set, with_text);
        }
        let synth = index_of(
            &synthetic_dump(EVAL_SYNTHETIC)?,
            &base().join(format!("synth-{EVAL_SYNTHETIC}-{}", kind.id())),
            &model,
        )?
        .index;
        let texts: Vec<String> = records(&synth)?
            .iter()
            .map(|r| {
                let short = r["short_description"].as_str().unwrap_or("");
                format!("{short} {}", r["long_description"].as_str().unwrap_or("")).to_lowercase()
            })
            .collect();
        let mut q = Quality::default();
        for (_, query, target) in rows.iter().filter(|r| r.0 == "synthetic") {
            let (product, customers) = target
                .split_once(" @ ")
                .ok_or("synthetic target without ' @ '")?;
            let (product, customers) = (product.to_lowercase(), customers.to_lowercase());
            let bare = product
                .strip_prefix("a ")
                .or_else(|| product.strip_prefix("an "))
                .unwrap_or(&product);
            let hit = |d: u32| {
                let t = &texts[d as usize];
                t.contains(bare) && t.contains(customers.as_str())
            };
            // A pair the generator never drew for this corpus cannot be found.
            if (0..texts.len() as u32).any(hit) {
                q.add(rank(&synth, &embedder, query, hit)?);
            }
        }
        q.line(
            kind.id(),
            "synthetic",
            synth.vectors.as_ref().map_or(0, |v| v.rows()),
        );
    }
    Ok(())
}

fn latency(args: &Args) -> Result<(), String> {
    let kind = args.model.unwrap_or(if args.companies <= 5_000 {
        ModelKind::MiniLm
    } else {
        ModelKind::WordLlama
    });
    let model = load_model(kind)?;
    let dump = synthetic_dump(args.companies)?;
    let built = index_of(
        &dump,
        &base().join(format!("synth-{}-{}", args.companies, kind.id())),
        &model,
    )?;
    let index = &built.index;
    index.warm().map_err(|e| e.to_string())?;
    let vectors = index.vectors.as_ref().ok_or("no vectors")?;
    let queries: Vec<String> = eval_rows()?.into_iter().map(|r| r.1).collect();
    // Capacity 1 with distinct texts in turn: every query is embedded.
    let embedder = CachedEmbedder::new(model.clone(), 1);
    println!(
        "\nSemantic search at {} companies ({} with a vector), model {} ({} dimensions), one thread per request",
        args.companies, vectors.rows(), kind.id(), vectors.dim()
    );
    let filters = [
        ("no other filter", serde_json::json!({})),
        (
            "+ country, headcount",
            serde_json::json!({"locations": ["united-states"], "employee_count": ["11-50", "51-100", "101-250"]}),
        ),
        (
            "+ rare industry",
            serde_json::json!({"industries": ["robotics"], "locations": ["germany"]}),
        ),
    ];
    println!(
        "{:<28} {:>8} {:>10} {:>10} {:>10} {:>10}  target (M) p50 ≤ 15 ms, p99 ≤ 40 ms",
        "request", "n", "p50", "p99", "embed p50", "mean total"
    );
    for (label, company) in filters {
        let mut total = Vec::new();
        let mut embed = Vec::new();
        let mut counts = 0u64;
        for i in 0..args.queries {
            let mut company = company.clone();
            company["search_query"] = serde_json::json!(queries[i % queries.len()]);
            let body = serde_json::json!({"company": company, "page_size": 25}).to_string();
            let started = Instant::now();
            let mut q = parse_companies(body.as_bytes()).map_err(|e| format!("{e:?}"))?;
            let semantic = q.semantic.as_mut().ok_or("no semantic block")?;
            let t = Instant::now();
            semantic.vector = Some(
                embed_query(Some(&embedder), index, &semantic.query, None)
                    .map_err(|e| e.to_string())?,
            );
            embed.push(t.elapsed());
            let page = search_companies(index, &q).map_err(|e| e.to_string())?;
            let store = index.companies.records("full").map_err(|e| e.to_string())?;
            let records = store
                .get_many(page.docs.iter().copied())
                .map_err(|e| e.to_string())?;
            let bytes: usize = records.iter().map(|r| r.len()).sum();
            std::hint::black_box(bytes);
            total.push(started.elapsed());
            counts += page.total_count;
        }
        let (t, e) = (
            Summary::of(&mut total).ok_or("no samples")?,
            Summary::of(&mut embed).ok_or("no samples")?,
        );
        let holds = t.p50 <= 15_000.0 && t.p99 <= 40_000.0;
        println!(
            "{label:<28} {:>8} {:>10} {:>10} {:>10} {:>10.1}  {}",
            t.n,
            fmt_us(t.p50),
            fmt_us(t.p99),
            fmt_us(e.p50),
            counts as f64 / args.queries as f64,
            if holds { "holds" } else { "MISSED" }
        );
    }
    recall(args, index, &model, &embedder, &dump, &queries)?;
    let bytes = std::fs::metadata(index.dir.join("companies.vectors"))
        .map_err(|e| e.to_string())?
        .len();
    let total: u64 = index.manifest.files.iter().map(|f| f.bytes).sum();
    println!(
        "index bytes added: companies.vectors {} bytes ({:.1} per company with a vector, {:.1} % of the index)",
        bytes,
        bytes as f64 / vectors.rows().max(1) as f64,
        100.0 * bytes as f64 / total as f64
    );
    match built.embed_time {
        Some(t) => println!(
            "corpus embedding ({}): {} texts in {:.1} s = {:.0} texts/s (build step 'company vectors', cache misses only)",
            kind.id(), built.embedded, t.as_secs_f64(), built.embedded as f64 / t.as_secs_f64().max(1e-9)
        ),
        None => println!("corpus embedding: index reused from an earlier run (delete {} to re-measure)", index.dir.display()),
    }
    Ok(())
}

/// recall@150 of the index search (unfiltered) against exact f32 scoring.
fn recall(
    args: &Args,
    index: &Index,
    model: &Arc<dyn Embedder>,
    embedder: &CachedEmbedder,
    dump: &Path,
    queries: &[String],
) -> Result<(), String> {
    if args.recall_queries == 0 {
        return Ok(());
    }
    if model.info().id == ModelKind::MiniLm.id() && args.companies > 20_000 {
        println!(
            "recall@150: skipped (re-embedding {} texts with MiniLM in f32 would take hours)",
            args.companies
        );
        return Ok(());
    }
    let texts = texts_by_doc(index, dump)?;
    eprintln!(
        "bench: embedding {} texts in f32 for the exact reference",
        texts.len()
    );
    let mut exact_vectors = Vec::with_capacity(texts.len());
    for chunk in texts.chunks(64) {
        let refs: Vec<&str> = chunk.iter().map(|(_, t)| t.as_str()).collect();
        exact_vectors.extend(model.embed(&refs).map_err(|e| e.to_string())?);
    }
    let vectors = index.vectors.as_ref().ok_or("no vectors")?;
    let mut tunings = vec![("server", Tuning::DEFAULT)];
    tunings.extend(args.tunings.iter().map(|&(coarse_share, rescore)| {
        (
            "--tuning",
            Tuning {
                coarse: 16_384,
                coarse_share,
                rescore,
                ..Tuning::DEFAULT
            },
        )
    }));
    tunings.push((
        "exact int8",
        Tuning {
            exact_limit: usize::MAX,
            ..Tuning::DEFAULT
        },
    ));
    let mut overlap = vec![Vec::new(); tunings.len()];
    for query in queries.iter().take(args.recall_queries) {
        let qv = embed_query(Some(embedder), index, query, None).map_err(|e| e.to_string())?;
        let mut exact: Vec<(f32, u32)> = exact_vectors
            .iter()
            .zip(&texts)
            .map(|(v, (d, _))| (dot(v, &qv.vector), *d))
            .collect();
        exact.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        let want: HashSet<u32> = exact.iter().take(150).map(|e| e.1).collect();
        for (i, (_, tuning)) in tunings.iter().enumerate() {
            let got =
                semantic_set_tuned(vectors, &qv, None, 0.0, *tuning).map_err(|e| e.to_string())?;
            let found = got.iter().filter(|h| want.contains(&h.doc)).count();
            overlap[i].push(found as f64 / want.len().max(1) as f64);
        }
    }
    for ((label, tuning), o) in tunings.iter().zip(&overlap) {
        let mean = o.iter().sum::<f64>() / o.len().max(1) as f64;
        let worst = o.iter().copied().fold(1.0, f64::min);
        let holds = if mean >= 0.97 { "holds" } else { "MISSED" };
        let how = match tuning.exact_limit {
            usize::MAX => "every row scored (int8)".to_string(),
            _ => format!(
                "sketch keeps 1/{} (at least {}) then {}",
                tuning.coarse_share, tuning.coarse, tuning.rescore
            ),
        };
        println!(
            "recall@150 vs exact f32 ({} queries), {label} ({how}): mean {mean:.4}, worst {worst:.4}  target ≥ 0.97: {holds}",
            o.len()
        );
    }
    Ok(())
}

/// (doc, text) of every company with text, read back from the dump.
fn texts_by_doc(index: &Index, dump: &Path) -> Result<Vec<(u32, String)>, String> {
    let file = std::fs::read_to_string(dump.join("companies.jsonl")).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    for line in file.lines() {
        let row: CompanyRow = serde_json::from_str(line).map_err(|e| e.to_string())?;
        if let (Some(doc), Some(text)) = (index.companies.ids.docid(&row.id), company_text(&row)) {
            out.push((doc, text));
        }
    }
    out.sort_by_key(|(d, _)| *d);
    Ok(out)
}
