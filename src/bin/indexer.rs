//! `indexer`: turns data dumps into an immutable, versioned index directory.
//!
//! ```text
//! indexer import --crunchbase-2013 DIR --yc-2014 DIR --out DUMP_DIR [--quiet]
//! indexer generate --companies N --seed S --out DUMP_DIR [--quiet]
//! indexer build --dump DUMP_DIR --out INDEX_DIR [--as-of YYYY-MM-DD] [--strict] [--quiet]
//!               [--semantic-model minilm|wordllama|none] [--models DIR] [--embed-cache DIR|none]
//!               [--memory SIZE] [--store-compression zstd|none]
//! indexer verify INDEX_DIR
//! indexer inspect INDEX_DIR
//! ```
//! Exit status 0 on success; otherwise non-zero with a one-line reason.
//! `import`, `generate` and `build` show their progress on stderr: bars on a
//! terminal, plain lines otherwise, nothing with `--quiet` (see
//! `fundsearch::progress`); their summaries go to stdout.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use fundsearch::cli::{parse_or_usage_error, parse_size, ModelArgs};
use fundsearch::index::build::{build_index, BuildOptions, SemanticOptions};
use fundsearch::index::inspect::inspect_index;
use fundsearch::index::store::StoreCodec;
use fundsearch::index::verify::verify_index;
use fundsearch::ingest::generate::{generate_with_progress, GenerateOptions};
use fundsearch::ingest::import::{import_with_progress, ImportOptions};
use fundsearch::progress::Progress;
use fundsearch::schema::Date;

/// Builds free tens of millions of small allocations from several threads;
/// jemalloc returns freed pages where glibc's arenas kept them resident
/// (S build peak: 664 MB with glibc, 481 MB with jemalloc as configured).
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// jemalloc's start-up options (read before `main`): dirty pages go back to
/// the system within a second, and none are kept as "muzzy".
#[allow(unsafe_code)]
#[export_name = "_rjem_malloc_conf"]
pub static MALLOC_CONF: &[u8; 37] = b"dirty_decay_ms:1000,muzzy_decay_ms:0\0";

/// Default "today" of generated dumps.
const GENERATE_AS_OF: &str = "2026-11-01";

#[derive(Parser)]
#[command(
    name = "indexer",
    version,
    about = "Builds fundsearch index directories from data dumps"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Convert real public exports into a canonical dump (either source, or both merged).
    Import {
        /// The crunchbase-2013/ folder (October 2013 export + 2013 snapshot edges).
        #[arg(long = "crunchbase-2013")]
        crunchbase_2013: Option<PathBuf>,
        /// The yc-2014/ folder (startups.csv, founders.csv).
        #[arg(long = "yc-2014")]
        yc_2014: Option<PathBuf>,
        /// The dump directory to write.
        #[arg(long)]
        out: PathBuf,
        /// No progress output.
        #[arg(long)]
        quiet: bool,
    },
    /// Write a deterministic synthetic dump (same seed, same bytes).
    Generate {
        /// Number of companies; deals, firms and people scale with it.
        #[arg(long)]
        companies: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The dump directory to write.
        #[arg(long)]
        out: PathBuf,
        /// Latest date in the data. Fixed by default so that the same seed
        /// always gives the same bytes.
        #[arg(long, value_parser = parse_date, default_value = GENERATE_AS_OF)]
        as_of: Date,
        /// Write each file compressed with zstd (`deals.jsonl.zst`…), about
        /// a fifth of the plain size; `build` reads either form.
        #[arg(long)]
        compress: bool,
        /// No progress output.
        #[arg(long)]
        quiet: bool,
    },
    /// Build an index directory from a canonical dump.
    Build {
        /// The dump directory (dump.json + *.jsonl, each plain or as *.jsonl.zst).
        #[arg(long)]
        dump: PathBuf,
        /// Where to write the index (replaced atomically if it is an index).
        #[arg(long)]
        out: PathBuf,
        /// Reference date of "last 12 months" metrics (default: today).
        #[arg(long, value_parser = parse_date)]
        as_of: Option<Date>,
        /// Fail on the first bad row instead of skipping it.
        #[arg(long)]
        strict: bool,
        /// No progress output.
        #[arg(long)]
        quiet: bool,
        #[command(flatten)]
        model: ModelArgs,
        /// Embedding cache folder (default: `.embed-cache` beside the output), or `none`.
        #[arg(long = "embed-cache", env = "FUNDSEARCH_EMBED_CACHE")]
        embed_cache: Option<PathBuf>,
        /// Memory budget (256M, 4G…): the dump's facts and the derived
        /// aggregates keep at most half of it in memory and spill the rest to
        /// a folder beside the output.
        #[arg(long, value_parser = parse_size, default_value = "4G", env = "FUNDSEARCH_BUILD_MEMORY")]
        memory: u64,
        /// How record stores keep their records: `zstd` (compressed against
        /// a dictionary trained per store) or `none` (as rendered: about
        /// eight times the disk, no decompression when read).
        #[arg(long = "store-compression", value_parser = parse_store_codec, default_value = "zstd")]
        store_codec: StoreCodec,
    },
    /// Check every file and structure of an index; exit 0 only for a sound index.
    Verify { index: PathBuf },
    /// Print counts and bytes per structure.
    Inspect { index: PathBuf },
}

fn parse_store_codec(text: &str) -> Result<StoreCodec, String> {
    StoreCodec::named(text).ok_or_else(|| {
        let names: Vec<&str> = StoreCodec::NAMES.iter().map(|(n, _)| *n).collect();
        format!(
            "'{text}' is not a store compression (one of: {})",
            names.join(", ")
        )
    })
}

fn parse_date(text: &str) -> Result<Date, String> {
    Date::parse(text).ok_or_else(|| format!("'{text}' is not a date (YYYY-MM-DD)"))
}

fn main() -> ExitCode {
    let cli = match parse_or_usage_error::<Cli>("indexer") {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(reason) => {
            eprintln!("indexer: {reason}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Import {
            crunchbase_2013,
            yc_2014,
            out,
            quiet,
        } => {
            let opts = ImportOptions {
                crunchbase_2013,
                yc_2014,
                out,
            };
            let report = import_with_progress(&opts, &Progress::to_stderr(quiet))
                .map_err(|e| e.to_string())?;
            print!("{report}");
            Ok(())
        }
        Command::Generate {
            companies,
            seed,
            out,
            as_of,
            compress,
            quiet,
        } => {
            let opts = GenerateOptions {
                companies,
                seed,
                out,
                as_of,
                compress,
            };
            let report = generate_with_progress(&opts, &Progress::to_stderr(quiet))
                .map_err(|e| e.to_string())?;
            println!("{report}");
            Ok(())
        }
        Command::Build {
            dump,
            out,
            as_of,
            strict,
            quiet,
            model,
            embed_cache,
            memory,
            store_codec,
        } => {
            let semantic = semantic_options(&model, embed_cache, &out)?;
            let report = build_index(&BuildOptions {
                dump,
                out: out.clone(),
                as_of,
                strict,
                quiet,
                semantic,
                memory,
                store_codec,
            })
            .map_err(|e| e.to_string())?;
            print!("{}", report.ingest);
            if let Some(e) = &report.embed {
                println!(
                    "company vectors: {} companies with text, {} distinct texts, {} from the cache, {} embedded",
                    e.companies_with_text, e.distinct_texts, e.from_cache, e.embedded
                );
            }
            let c = &report.manifest.counts;
            println!(
                "built {} in {:.1}s: {} companies, {} deals, {} investors, {} people, {} locations, {} industries (as-of {})",
                out.display(),
                report.elapsed.as_secs_f64(),
                c.companies,
                c.deals,
                c.investors,
                c.people,
                c.locations,
                c.industries,
                report.manifest.as_of
            );
            Ok(())
        }
        Command::Verify { index } => {
            let r = verify_index(&index).map_err(|e| e.to_string())?;
            println!(
                "ok: {} files, {} bytes, {} arrays, {} bitmap entries decoded",
                r.files, r.bytes, r.arrays, r.bitmaps_decoded
            );
            Ok(())
        }
        Command::Inspect { index } => {
            print!("{}", inspect_index(&index).map_err(|e| e.to_string())?);
            Ok(())
        }
    }
}

/// The build's model (MiniLM unless told otherwise) and embedding cache.
fn semantic_options(
    model: &ModelArgs,
    cache: Option<PathBuf>,
    out: &std::path::Path,
) -> Result<Option<SemanticOptions>, String> {
    let Some(embedder) = model.load(Some("minilm"))? else {
        return Ok(None);
    };
    let cache_dir = match cache {
        Some(dir) if dir.as_os_str() == "none" => None,
        Some(dir) => Some(dir),
        None => Some(
            out.parent()
                .unwrap_or(std::path::Path::new("."))
                .join(".embed-cache"),
        ),
    };
    Ok(Some(SemanticOptions {
        embedder: embedder.into(),
        cache_dir,
    }))
}
