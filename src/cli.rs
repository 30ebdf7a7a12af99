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

/// A size on the command line: bytes, or a number with `K`, `M`, `G` or `T`
/// (powers of 1024, an optional `B` or `iB` after): `4096`, `256M`, `1.5G`.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let bad = || format!("'{text}' is not a size (bytes, or a number with K, M, G or T: 256M, 4G)");
    let t = text.trim();
    let t = t
        .strip_suffix("iB")
        .or_else(|| t.strip_suffix('B'))
        .unwrap_or(t);
    let (number, unit) = match t.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => (&t[..i], c.to_ascii_uppercase()),
        _ => (t, ' '),
    };
    let shift = match unit {
        ' ' => 0,
        'K' => 10,
        'M' => 20,
        'G' => 30,
        'T' => 40,
        _ => return Err(bad()),
    };
    let value: f64 = number.trim().parse().map_err(|_| bad())?;
    let bytes = value * (1u64 << shift) as f64;
    if !bytes.is_finite() || bytes < 0.0 || bytes >= u64::MAX as f64 {
        return Err(bad());
    }
    Ok(bytes as u64)
}

#[cfg(test)]
mod tests {
    use super::parse_size;

    #[test]
    fn sizes_parse_with_binary_units() {
        assert_eq!(parse_size("4096"), Ok(4096));
        assert_eq!(parse_size("256M"), Ok(256 << 20));
        assert_eq!(parse_size("4G"), Ok(4 << 30));
        assert_eq!(parse_size("1.5G"), Ok(3 << 29));
        assert_eq!(parse_size("2GiB"), Ok(2 << 30));
        assert_eq!(parse_size("3g"), Ok(3 << 30));
        assert_eq!(parse_size("512KB"), Ok(512 << 10));
        assert_eq!(parse_size("0"), Ok(0));
        for bad in ["", "G", "4X", "-1G", "four", "1e30T", "NaN"] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
    }
}
