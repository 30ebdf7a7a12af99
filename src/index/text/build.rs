//! Building a name index from plain entries.
//!
//! Every entry's names are folded (`analyzer.rs`) into one tantivy document
//! holding their distinct words (`names`), the prefixes of those words
//! (`prefixes`), the pairs of words of each name (`pairs`), the doc id and the optional category; the folded names
//! also go to `names.bin`. Entries whose names yield no token at all
//! (punctuation only, empty) cannot match anything and are skipped. The
//! writer gets a 200 MB heap and one thread per core (≤ 4); after the single
//! commit all segments are merged into one, so term expansion walks a
//! single term dictionary at query time. The segments are read back (for
//! the merge and the ranked postings) through a directory that does not
//! keep their pages resident (`build_dir.rs`). The index is sorted by doc id
//! (tantivy index sorting), so tantivy's document order is our doc id order
//! whatever the input order and thread count: the collector relies on it to
//! break ties without looking at tied documents (`collector.rs`).

use std::borrow::Cow;
use std::fs;
use std::path::Path;

use tantivy::indexer::NoMergePolicy;
use tantivy::tokenizer::TextAnalyzer;
use tantivy::{Index, IndexSettings, IndexSortByField, IndexWriter, Order, TantivyDocument};

use super::analyzer::{folded_name, name_analyzer, pair_list, register, word_lists};
use super::build_dir::BuildDirectory;
use super::error::TextError;
use super::fields::{schema, tantivy_dir, Fields, DOCID};
use super::names::{NamesStore, NamesWriter, FILE_NAME};
use super::ranked::{write_ranked, FILE_NAME as RANKED_FILE};

/// Writer heap shared by all indexing threads.
pub const WRITER_HEAP_BYTES: usize = 200_000_000;
const MAX_WRITER_THREADS: usize = 4;

/// One searchable entity: its dense doc id and the names it answers to
/// (primary name first; aliases such as a legal name or permalink optional).
#[derive(Clone, Debug, PartialEq)]
pub struct NameEntry<'a> {
    pub docid: u32,
    pub names: Vec<Cow<'a, str>>,
    pub category: Option<u8>,
}

/// What a build wrote.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NameIndexStats {
    /// Entries indexed (searchable documents).
    pub docs: u64,
    /// Names indexed over all documents.
    pub names: u64,
    /// Entries skipped because none of their names has a token.
    pub skipped: u64,
    /// tantivy segments after the final merge (1 unless the index is empty).
    pub segments: usize,
    /// Bytes on disk (tantivy files and `names.bin`).
    pub bytes: u64,
}

/// Builds a name index in `dir`, which must not exist or be empty.
pub fn build_name_index<'a>(
    dir: &Path,
    entries: impl Iterator<Item = NameEntry<'a>>,
) -> Result<NameIndexStats, TextError> {
    prepare_dir(dir)?;
    let by_docid = IndexSortByField {
        field: DOCID.to_string(),
        order: Order::Asc,
    };
    let settings = IndexSettings {
        sort_by_field: Some(by_docid),
        ..IndexSettings::default()
    };
    let directory = BuildDirectory::open(&tantivy_dir(dir))?;
    let index = Index::create(directory, schema(), settings)?;
    register(&index);
    let fields = Fields::of(&index.schema())?;
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(MAX_WRITER_THREADS);
    let mut writer: IndexWriter = index.writer_with_num_threads(threads, WRITER_HEAP_BYTES)?;
    writer.set_merge_policy(Box::new(NoMergePolicy));
    let mut stats = NameIndexStats::default();
    let mut names = NamesWriter::new_in(dir);
    let mut analyzer = name_analyzer();
    for entry in entries {
        add_entry(
            &writer,
            fields,
            &mut analyzer,
            &mut names,
            &entry,
            &mut stats,
        )?;
    }
    names.write(&dir.join(FILE_NAME))?;
    writer.commit()?;
    stats.segments = merge_segments(&index, writer)?;
    write_ranked_postings(dir, &index, fields)?;
    stats.bytes = dir_bytes(dir)?;
    Ok(stats)
}

/// Creates `dir`, or checks that it is an empty directory.
fn prepare_dir(dir: &Path) -> Result<(), TextError> {
    if dir.exists() {
        let mut listing = fs::read_dir(dir).map_err(|e| TextError::io(dir, e))?;
        if listing.next().is_some() {
            return Err(TextError::DirectoryNotEmpty(dir.to_path_buf()));
        }
    }
    fs::create_dir_all(tantivy_dir(dir)).map_err(|e| TextError::io(dir, e))
}

/// Adds one entry to the tantivy writer and to the folded names.
fn add_entry(
    writer: &IndexWriter,
    fields: Fields,
    analyzer: &mut TextAnalyzer,
    names: &mut NamesWriter,
    entry: &NameEntry<'_>,
    stats: &mut NameIndexStats,
) -> Result<(), TextError> {
    let folded: Vec<String> = entry
        .names
        .iter()
        .map(|name| folded_name(analyzer, name))
        .filter(|name| !name.is_empty())
        .collect();
    if folded.is_empty() {
        stats.skipped += 1;
        return Ok(());
    }
    let (words, prefixes) = word_lists(folded.iter().map(String::as_str));
    let mut doc = TantivyDocument::default();
    doc.add_text(fields.names, words);
    doc.add_text(fields.prefixes, prefixes);
    doc.add_text(fields.pairs, pair_list(folded.iter().map(String::as_str)));
    doc.add_u64(fields.docid, u64::from(entry.docid));
    if let Some(category) = entry.category {
        doc.add_u64(fields.category, u64::from(category));
    }
    writer.add_document(doc)?;
    names.push(entry.docid, folded.iter().map(String::as_str))?;
    stats.docs += 1;
    stats.names += folded.len() as u64;
    Ok(())
}

/// Merges all segments into one and waits for the writer to finish; returns
/// the number of segments left.
fn merge_segments(index: &Index, mut writer: IndexWriter) -> Result<usize, TextError> {
    let segments = index.searchable_segment_ids()?;
    if segments.len() > 1 {
        writer.merge(&segments).wait()?;
    }
    writer.garbage_collect_files().wait()?;
    writer.wait_merging_threads()?;
    Ok(index.searchable_segment_ids()?.len())
}

/// Writes `ranked.bin` (`ranked.rs`) from the merged index and `names.bin`.
fn write_ranked_postings(dir: &Path, index: &Index, fields: Fields) -> Result<(), TextError> {
    let reader = index.reader()?;
    let names = NamesStore::open(&dir.join(FILE_NAME))?;
    write_ranked(&dir.join(RANKED_FILE), &reader.searcher(), fields, &names)
}

/// Total size of the files under `dir` (two levels: ours and tantivy's).
fn dir_bytes(dir: &Path) -> Result<u64, TextError> {
    let mut total = 0;
    for entry in fs::read_dir(dir).map_err(|e| TextError::io(dir, e))? {
        let entry = entry.map_err(|e| TextError::io(dir, e))?;
        let meta = entry
            .metadata()
            .map_err(|e| TextError::io(entry.path(), e))?;
        total += if meta.is_dir() {
            dir_bytes(&entry.path())?
        } else {
            meta.len()
        };
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::super::tests_support::{fixture_entries, TempDir, FIXTURE};
    use super::*;

    #[test]
    fn builds_one_segment_and_counts_entries() {
        let dir = TempDir::new("build");
        let stats = build_name_index(dir.path(), fixture_entries()).expect("build");
        assert_eq!(stats.docs, FIXTURE.len() as u64 - 1);
        assert_eq!(stats.skipped, 1, "the punctuation-only entry");
        assert_eq!(
            stats.names,
            FIXTURE.iter().map(|e| e.1.len() as u64).sum::<u64>() - 2
        );
        assert_eq!(stats.segments, 1);
        assert!(stats.bytes > 0);
        assert!(dir.path().join(FILE_NAME).is_file());
    }

    #[test]
    fn builds_an_empty_index() {
        let dir = TempDir::new("build-empty");
        let stats = build_name_index(dir.path(), std::iter::empty()).expect("build");
        assert_eq!((stats.docs, stats.segments), (0, 0));
    }

    #[test]
    fn refuses_a_non_empty_directory() {
        let dir = TempDir::new("build-busy");
        fs::write(dir.path().join("other"), b"x").expect("write");
        let result = build_name_index(dir.path(), fixture_entries());
        assert!(matches!(result, Err(TextError::DirectoryNotEmpty(_))));
    }

    #[test]
    fn refuses_duplicate_doc_ids() {
        let dir = TempDir::new("build-dup");
        let entries = [7, 3, 7].map(|docid| NameEntry {
            docid,
            names: vec!["x y".into()],
            category: None,
        });
        let result = build_name_index(dir.path(), entries.into_iter());
        assert!(matches!(result, Err(TextError::DuplicateDocid(7))));
    }
}
