//! Shared by the two binaries: command-line parsing whose usage errors are
//! one line on stderr (scripts read the first line as the reason).

use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::Parser;

/// Parses the command line of binary `name`; `--help` and `--version`
/// print and exit as usual, usage errors print one line and give exit code 2.
pub fn parse_or_usage_error<C: Parser>(name: &str) -> Result<C, ExitCode> {
    C::try_parse().map_err(|e| match e.kind() {
        ErrorKind::DisplayHelp
        | ErrorKind::DisplayVersion
        | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => e.exit(),
        _ => {
            let text = e.to_string();
            let first = text
                .lines()
                .next()
                .unwrap_or("invalid arguments")
                .trim_start_matches("error: ");
            eprintln!("{name}: {first} (see --help)");
            ExitCode::from(2)
        }
    })
}

/// The semantic model options of both binaries.
#[derive(clap::Args, Debug, Clone)]
pub struct ModelArgs {
    /// Sentence-embedding model for semantic search: `minilm`
    /// (all-MiniLM-L6-v2), `wordllama` (static, fast) or `none`. The server
    /// defaults to the model that embedded its index.
    #[arg(long = "semantic-model", env = "FUNDSEARCH_SEMANTIC_MODEL")]
    pub semantic_model: Option<String>,
    /// Folder of the model files (default: ./models, fetched by scripts/fetch-models.sh).
    #[arg(long = "models", env = "FUNDSEARCH_MODELS")]
    pub models: Option<std::path::PathBuf>,
}

impl ModelArgs {
    pub fn models_dir(&self) -> std::path::PathBuf {
        self.models
            .clone()
            .unwrap_or_else(crate::embed::files::default_models_dir)
    }

    /// The model named by `--semantic-model`, else `default`; `None` for `none`.
    pub fn kind(&self, default: Option<&str>) -> Result<Option<crate::embed::ModelKind>, String> {
        match self.semantic_model.as_deref().or(default) {
            None | Some("none") => Ok(None),
            Some(name) => crate::embed::ModelKind::parse(name)
                .map(Some)
                .ok_or_else(|| {
                    format!("unknown semantic model '{name}' (minilm, wordllama or none)")
                }),
        }
    }

    /// Loads the chosen model.
    pub fn load(
        &self,
        default: Option<&str>,
    ) -> Result<Option<Box<dyn crate::embed::Embedder>>, String> {
        match self.kind(default)? {
            None => Ok(None),
            Some(kind) => kind
                .load(&self.models_dir())
                .map(Some)
                .map_err(|e| e.to_string()),
        }
    }
}
