//! The company vectors of an index (`companies.vectors`, see
//! `index::vectors`): each company's own text (short description, then long
//! description) embedded once with the build's model. Companies without
//! text get no vector.
//!
//! Embedding is the expensive step of a build (tens of texts per second
//! with MiniLM), so:
//! - identical texts are embedded once;
//! - texts are embedded in batches of similar length (little padding);
//! - an embedding cache keyed by (model id, SHA-256 of the text) keeps
//!   every vector of the last build (`embed_cache`), so a rebuild over a
//!   mostly unchanged dump embeds only the new texts;
//! - progress is two stages: `read company texts` (bytes of
//!   `companies.jsonl`) and `embed company texts` (texts missing from the
//!   cache, counted per batch).

use std::collections::HashMap;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use sha2::{Digest, Sha256};

use super::bundles::Inputs;
use super::embed_cache::EmbedCache;
use crate::embed::Embedder;
use crate::index::format::WrittenFile;
use crate::index::vectors::{write_vectors, Quantized};
use crate::ingest::dump_file::locate;
use crate::ingest::load::KeptLines;
use crate::ingest::scan::scan_jsonl_map;
use crate::progress::{Progress, Unit};
use crate::schema::CompanyRow;

/// Texts per model call (guide: batches ≤ 32 keep memory near 200 MB).
const BATCH: usize = 16;

/// How a build embeds company texts.
#[derive(Clone)]
pub struct SemanticOptions {
    pub embedder: Arc<dyn Embedder>,
    /// Folder of the embedding cache (`<model id>.cache` inside); `None`: no cache.
    pub cache_dir: Option<PathBuf>,
}

impl fmt::Debug for SemanticOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SemanticOptions")
            .field("model", &self.embedder.info().id)
            .field("cache_dir", &self.cache_dir)
            .finish()
    }
}

/// What embedding the companies did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EmbedReport {
    pub companies_with_text: usize,
    pub distinct_texts: usize,
    pub from_cache: usize,
    pub embedded: usize,
}

/// The text of a company that semantic search scores: its descriptions.
pub fn company_text(row: &CompanyRow) -> Option<String> {
    let parts: Vec<&str> = [&row.short_description, &row.long_description]
        .into_iter()
        .flatten()
        .map(|s| s.trim())
        .filter(|s| !s.is_empty())
        .collect();
    (!parts.is_empty()).then(|| parts.join("\n"))
}

/// First 16 bytes of the text's SHA-256.
pub fn text_hash(text: &str) -> u128 {
    let digest = Sha256::digest(text.as_bytes());
    u128::from_le_bytes(digest[..16].try_into().unwrap_or_default())
}

/// Embeds the companies' texts and writes `path`.
pub fn write_company_vectors(
    path: &Path,
    dump: &Path,
    kept: &KeptLines,
    inp: &Inputs,
    opts: &SemanticOptions,
    progress: &Progress,
) -> io::Result<(WrittenFile, EmbedReport)> {
    let texts = company_texts(dump, kept, inp, progress)?;
    let model = opts.embedder.info().clone();
    let cache_path = opts
        .cache_dir
        .as_ref()
        .map(|d| d.join(format!("{}.cache", model.id)));
    let old = cache_path
        .as_deref()
        .and_then(|p| EmbedCache::open(p, &model));
    let mut distinct: HashMap<u128, &str> = HashMap::new();
    for (_, text) in &texts {
        distinct.entry(text_hash(text)).or_insert(text);
    }
    let mut vectors: HashMap<u128, Quantized> = HashMap::with_capacity(distinct.len());
    let mut missing: Vec<(u128, &str)> = Vec::new();
    for (&hash, &text) in &distinct {
        match old.as_ref().and_then(|c| c.get(hash)) {
            Some(q) => {
                vectors.insert(hash, q);
            }
            None => missing.push((hash, text)),
        }
    }
    let report = EmbedReport {
        companies_with_text: texts.len(),
        distinct_texts: distinct.len(),
        from_cache: vectors.len(),
        embedded: missing.len(),
    };
    embed_missing(&*opts.embedder, missing, &mut vectors, progress)?;
    drop(old);
    if let Some(p) = &cache_path {
        EmbedCache::write(p, &model, &vectors)?;
    }
    let rows: Vec<(u32, Quantized)> = texts
        .iter()
        .map(|(doc, text)| {
            let q = &vectors[&text_hash(text)];
            (
                *doc,
                Quantized {
                    codes: q.codes.clone(),
                    scale: q.scale,
                },
            )
        })
        .collect();
    let written = write_vectors(path, &model, inp.orders.companies.len(), &rows)?;
    Ok((written, report))
}

/// (doc id, text) of every company with text, in doc order.
fn company_texts(
    dump: &Path,
    kept: &KeptLines,
    inp: &Inputs,
    progress: &Progress,
) -> io::Result<Vec<(u32, String)>> {
    let file = "companies.jsonl";
    let found = locate(dump, file)?;
    let read = progress.stage("read company texts", found.size(), Unit::Bytes);
    let mut out = Vec::new();
    scan_jsonl_map::<CompanyRow, Option<(u32, String)>, _, _>(
        &found,
        &read,
        |line, parsed| {
            let row = kept.row_of_line(file, line)?;
            let text = company_text(&parsed.ok()?)?;
            Some((inp.orders.companies.doc(row), text))
        },
        |_, found| out.extend(found),
    )?;
    read.finish();
    out.sort_unstable_by_key(|(doc, _)| *doc);
    Ok(out)
}

/// Embeds `missing` in length-sorted batches into `vectors`.
fn embed_missing(
    embedder: &dyn Embedder,
    mut missing: Vec<(u128, &str)>,
    vectors: &mut HashMap<u128, Quantized>,
    progress: &Progress,
) -> io::Result<()> {
    missing.sort_by_key(|(hash, text)| (text.len(), *hash));
    let total = missing.len() as u64;
    let done = progress.stage("embed company texts", total, Unit::Items("texts"));
    for batch in missing.chunks(BATCH) {
        let texts: Vec<&str> = batch.iter().map(|(_, t)| *t).collect();
        let embedded = embedder.embed(&texts).map_err(io::Error::other)?;
        for ((hash, _), v) in batch.iter().zip(embedded) {
            vectors.insert(*hash, Quantized::of(&v));
        }
        done.inc(batch.len() as u64);
    }
    done.finish();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn company_text_joins_the_descriptions() {
        let mut row: CompanyRow = serde_json::from_value(serde_json::json!({
            "id": "00000000-0000-0000-0000-000000000001", "name": "A", "permalink": "a"
        }))
        .unwrap();
        assert_eq!(company_text(&row), None);
        row.short_description = Some("  ".into());
        assert_eq!(company_text(&row), None);
        row.long_description = Some("Long.".into());
        assert_eq!(company_text(&row).as_deref(), Some("Long."));
        row.short_description = Some("Short.".into());
        assert_eq!(company_text(&row).as_deref(), Some("Short.\nLong."));
        assert_ne!(text_hash("a"), text_hash("b"));
    }
}
