//! Ranked word postings `ranked.bin`: for every term of the `names` and
//! `prefixes` fields, the documents holding it, best placed first.
//!
//! A name that matches one query token scores higher the fewer words it has
//! and when that word comes first (`similarity.rs`). tantivy's postings are
//! in doc id order, so finding the best such names for a frequent word
//! ("capital", "john") meant scoring most of its postings. Here each term's
//! postings are sorted by *placement class*, then doc id: the class of a
//! (term, document) is the shortest name of the document holding the term
//! (its word count, cut at [`MAX_NAME_TOKENS`]) and whether the term is that
//! name's first word (first before not). The word stage (`words.rs`) walks
//! a list class by class and stops as soon as no later class can beat the
//! hits it has; within a class a later posting can only tie, and ties go to
//! the lower doc id, which comes first.
//!
//! For the `prefixes` field, "holding the term" means holding a word that
//! starts with it.
//!
//! The `pairs` field (`analyzer.rs`) is ranked too, but only its terms
//! held by at least [`RANKED_PAIR_MIN`] documents: the pair stage
//! (`pairs.rs`) walks those long lists ("capital␟partners") by name
//! length and stops early, and reads the short ones from tantivy. The
//! class of a (pair, document) is the word count of the shortest name
//! holding both words (the second one as a prefix for `a␟p␞` terms).
//!
//! Layout: one bundle (`format.rs`, tag `RANK`) of arrays
//!
//! ```text
//! names.offsets     u32 [terms + 1]   term ordinal t (in the segment's
//! names.postings    u32 [..]          term dictionary order) owns
//!                                     postings[offsets[t] .. offsets[t+1]]
//! prefixes.offsets  u32 [terms + 1]   the same for the `prefixes` field
//! prefixes.postings u32 [..]
//! pairs.ords        u32 [n]           the ranked `pairs` terms' ordinals,
//! pairs.offsets     u32 [n + 1]       ascending; ords[i] owns
//! pairs.postings    u32 [..]          postings[offsets[i] .. offsets[i+1]]
//! categories        u8  [slots]       category of each doc id (NO_CATEGORY:
//!                                     none, or not indexed)
//! ```
//!
//! A posting is `class << 27 | docid`, so a list is sorted as plain `u32`s
//! and a class boundary is found by binary search. Doc ids must be below
//! 2^27 (134 M entities a name index). The file exists for single-segment
//! indexes (every build merges into one segment); an index without it is
//! searched without the word stage.

use std::io;
use std::path::Path;

use tantivy::postings::TermInfo;
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::{
    DocId, DocSet, InvertedIndexReader, Searcher, SegmentReader, TantivyError, TERMINATED,
};

use crate::index::format::{ArrayRef, Bundle, BundleWriter, StreamedArray};
use crate::index::IndexError;

use super::analyzer::{PAIR_SEPARATOR, PREFIX_MARK};
use super::collector::SegmentColumns;
use super::error::TextError;
use super::fields::Fields;
use super::names::NamesStore;
use super::similarity::MAX_NAME_TOKENS;

/// File name inside the index directory.
pub(crate) const FILE_NAME: &str = "ranked.bin";
const TAG: [u8; 4] = *b"RANK";

/// Bits of a posting that hold the doc id.
const DOCID_BITS: u32 = 27;
const DOCID_MASK: u32 = (1 << DOCID_BITS) - 1;
/// Number of placement classes: word counts 1..=MAX_NAME_TOKENS, first or not.
pub(crate) const CLASSES: u32 = 2 * MAX_NAME_TOKENS as u32;
/// Fewest documents of a `pairs` term whose postings are ranked.
pub(crate) const RANKED_PAIR_MIN: u32 = 128;
/// Category byte of a document without one.
pub(crate) const NO_CATEGORY: u8 = u8::MAX;

/// Where a term sits in a document's best name holding it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Placement {
    /// Words in the name (1..=MAX_NAME_TOKENS).
    pub(crate) words: usize,
    /// The term is not the name's first word.
    pub(crate) not_first: bool,
}

impl Placement {
    const WORST: Placement = Placement {
        words: MAX_NAME_TOKENS,
        not_first: true,
    };

    fn class(self) -> u32 {
        (self.words as u32 - 1) * 2 + u32::from(self.not_first)
    }

    pub(crate) fn of_class(class: u32) -> Placement {
        let class = class.min(CLASSES - 1);
        Placement {
            words: class as usize / 2 + 1,
            not_first: class % 2 == 1,
        }
    }

    /// The best placement of `term` among `names` (folded, tokens joined by
    /// spaces): a word equal to it or, for a prefix term, starting with it.
    /// A term in no name (within its first [`MAX_NAME_TOKENS`] words) gets
    /// the worst placement: the document cannot match through it anyway.
    pub(crate) fn best<'n>(
        names: impl Iterator<Item = &'n str>,
        term: &str,
        prefix: bool,
    ) -> Placement {
        let holds = |word: &str| {
            if prefix {
                word.starts_with(term)
            } else {
                word == term
            }
        };
        let mut best = Placement::WORST;
        for name in names {
            let words = name.split(' ').take(MAX_NAME_TOKENS);
            let count = words.clone().count().max(1);
            if let Some(at) = words.clone().position(holds) {
                best = best.min(Placement {
                    words: count,
                    not_first: at != 0,
                });
            }
        }
        best
    }
}

/// The best placement of the pair term `first␟second` (`second` a prefix
/// when `prefix`) among `names`: the fewest words of a name holding
/// `first` and another word that is (or starts with) `second`.
pub(crate) fn pair_placement<'n>(
    names: impl Iterator<Item = &'n str>,
    first: &str,
    second: &str,
    prefix: bool,
) -> Placement {
    let mut best = Placement::WORST;
    for name in names {
        let words = || name.split(' ').take(MAX_NAME_TOKENS);
        let Some(at) = words().position(|w| w == first) else {
            continue;
        };
        let other = words().enumerate().any(|(i, w)| {
            i != at
                && w != first
                && if prefix {
                    w.starts_with(second)
                } else {
                    w == second
                }
        });
        if other {
            best = best.min(Placement {
                words: words().count(),
                not_first: false,
            });
        }
    }
    best
}

/// Packs a posting.
fn posting(placement: Placement, docid: u32) -> u32 {
    placement.class() << DOCID_BITS | docid
}

/// The doc id of a posting.
pub(crate) fn posting_docid(posting: u32) -> u32 {
    posting & DOCID_MASK
}

/// The placement class of a posting.
pub(crate) fn posting_class(posting: u32) -> u32 {
    posting >> DOCID_BITS
}

/// The postings of `list` from `at` that are in the same class as
/// `list[at]`, as the end of that run.
pub(crate) fn class_end(list: &[u32], at: usize) -> usize {
    let next = posting_class(list[at]) + 1;
    if next >= CLASSES {
        return list.len();
    }
    at + list[at..].partition_point(|&p| p < next << DOCID_BITS)
}

/// The two ranked fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RankedField {
    Names,
    Prefixes,
}

impl RankedField {
    const ALL: [RankedField; 2] = [RankedField::Names, RankedField::Prefixes];

    fn label(self) -> &'static str {
        match self {
            RankedField::Names => "names",
            RankedField::Prefixes => "prefixes",
        }
    }

    fn field(self, fields: Fields) -> Field {
        match self {
            RankedField::Names => fields.names,
            RankedField::Prefixes => fields.prefixes,
        }
    }
}

/// Writes `ranked.bin` for the single segment of `searcher` (no file for
/// an index without exactly one segment).
pub(crate) fn write_ranked(
    path: &Path,
    searcher: &Searcher,
    fields: Fields,
    names: &NamesStore,
) -> Result<(), TextError> {
    let [segment] = searcher.segment_readers() else {
        return Ok(());
    };
    let columns = SegmentColumns::of(searcher)?;
    let columns = &columns[0];
    let io = |e| TextError::io(path, e);
    let mut out = BundleWriter::create(path, TAG).map_err(io)?;
    let mut categories = vec![NO_CATEGORY; names.slots()];
    for field in RankedField::ALL {
        let inverted = segment.inverted_index(field.field(fields))?;
        let mut lists = ListStream::begin(&mut out, field.label()).map_err(io)?;
        let mut stream = inverted.terms().stream().map_err(TantivyError::from)?;
        while stream.advance() {
            let term = String::from_utf8_lossy(stream.key());
            let prefix = field == RankedField::Prefixes;
            push_ranked(
                &inverted,
                stream.value(),
                columns,
                &mut lists.list,
                |doc, docid| {
                    if let Some(slot) = categories.get_mut(docid as usize) {
                        *slot = columns.category(doc).unwrap_or(NO_CATEGORY);
                    }
                    Placement::best(names.names(docid), &term, prefix)
                },
            )?;
            lists.end_list(&mut out, path)?;
        }
        lists.end(&mut out).map_err(io)?;
    }
    write_ranked_pairs(path, &mut out, segment, fields, columns, names)?;
    out.put("categories", &categories).map_err(io)?;
    out.finish().map_err(io)?;
    Ok(())
}

/// One field's ranked lists, streamed into the bundle as they are made
/// (`{label}.postings`, then `{label}.offsets`): memory holds the offsets
/// and the list being made, not the field's postings (781 MB for the 12
/// million people of a 4e6 build).
struct ListStream {
    label: &'static str,
    array: StreamedArray,
    /// The postings of the term being ranked.
    list: Vec<u32>,
    offsets: Vec<u32>,
}

impl ListStream {
    fn begin(out: &mut BundleWriter, label: &'static str) -> io::Result<ListStream> {
        Ok(ListStream {
            label,
            array: out.begin_stream(&format!("{label}.postings"))?,
            list: Vec::new(),
            offsets: vec![0],
        })
    }

    /// Writes the term's list and its end offset.
    fn end_list(&mut self, out: &mut BundleWriter, path: &Path) -> Result<(), TextError> {
        let end = self.offsets.last().copied().unwrap_or(0) as usize + self.list.len();
        let end =
            u32::try_from(end).map_err(|_| TextError::Capacity("ranked postings exceed 2^32"))?;
        out.stream(bytemuck::cast_slice(&self.list))
            .map_err(|e| TextError::io(path, e))?;
        self.offsets.push(end);
        self.list.clear();
        Ok(())
    }

    fn end(self, out: &mut BundleWriter) -> io::Result<()> {
        out.end_stream_as::<u32>(self.array)?;
        out.put(&format!("{}.offsets", self.label), &self.offsets)
    }
}

/// Adds the ranked lists of the long `pairs` terms to `out`.
fn write_ranked_pairs(
    path: &Path,
    out: &mut BundleWriter,
    segment: &SegmentReader,
    fields: Fields,
    columns: &SegmentColumns,
    names: &NamesStore,
) -> Result<(), TextError> {
    let inverted = segment.inverted_index(fields.pairs)?;
    let io = |e| TextError::io(path, e);
    let mut ords = Vec::new();
    let mut lists = ListStream::begin(out, "pairs").map_err(io)?;
    let mut stream = inverted.terms().stream().map_err(TantivyError::from)?;
    let mut ord = 0u64;
    while stream.advance() {
        let this = ord;
        ord += 1;
        if stream.value().doc_freq < RANKED_PAIR_MIN {
            continue;
        }
        let term = String::from_utf8_lossy(stream.key());
        let Some((first, second)) = term.split_once(PAIR_SEPARATOR) else {
            continue;
        };
        let (second, prefix) = match second.strip_suffix(PREFIX_MARK) {
            Some(p) => (p, true),
            None => (second, false),
        };
        push_ranked(
            &inverted,
            stream.value(),
            columns,
            &mut lists.list,
            |_, docid| pair_placement(names.names(docid), first, second, prefix),
        )?;
        ords.push(u32::try_from(this).map_err(|_| TextError::Capacity("pair terms exceed 2^32"))?);
        lists.end_list(out, path)?;
    }
    lists.end(out).map_err(io)?;
    out.put("pairs.ords", &ords).map_err(io)
}

/// Appends the ranked postings of the term whose tantivy postings are at
/// `info`: each document's doc id with the placement `place` gives it
/// (from the segment document and the doc id), sorted.
fn push_ranked(
    inverted: &InvertedIndexReader,
    info: &TermInfo,
    columns: &SegmentColumns,
    postings: &mut Vec<u32>,
    mut place: impl FnMut(DocId, u32) -> Placement,
) -> Result<(), TextError> {
    let start = postings.len();
    let mut docs = inverted
        .read_postings_from_terminfo(info, IndexRecordOption::Basic)
        .map_err(|e| TextError::Tantivy(e.into()))?;
    let mut doc = docs.doc();
    while doc != TERMINATED {
        let docid = columns
            .docid(doc)
            .filter(|&d| d <= DOCID_MASK)
            .ok_or(TextError::Capacity("doc ids of a name index reach 2^27"))?;
        postings.push(posting(place(doc, docid), docid));
        doc = docs.advance();
    }
    postings[start..].sort_unstable();
    Ok(())
}

/// The memory-mapped, validated `ranked.bin`.
pub(crate) struct RankedPostings {
    bundle: Bundle,
    names: FieldLists,
    prefixes: FieldLists,
    /// The long `pairs` terms: their ordinals, and their lists in the same
    /// arrays as a field's.
    pair_ords: ArrayRef<u32>,
    pairs: FieldLists,
    categories: ArrayRef<u8>,
}

/// One field's arrays.
struct FieldLists {
    offsets: ArrayRef<u32>,
    postings: ArrayRef<u32>,
}

impl FieldLists {
    /// List number `at` (`None` past the last; the offsets were checked
    /// at open).
    fn nth<'b>(&self, bundle: &'b Bundle, at: usize) -> Option<&'b [u32]> {
        let offsets = bundle.get(self.offsets);
        let (start, end) = (*offsets.get(at)?, *offsets.get(at + 1)?);
        Some(&bundle.get(self.postings)[start as usize..end as usize])
    }
}

impl RankedPostings {
    /// Maps and validates `path`; `None` when the index has no such file.
    pub(crate) fn open(path: &Path) -> Result<Option<RankedPostings>, TextError> {
        if !path.exists() {
            return Ok(None);
        }
        let corrupt = |e: IndexError| TextError::corrupt(path, e.to_string());
        let bundle = Bundle::open(path, TAG, false).map_err(corrupt)?;
        let lists = |label: &str| -> Result<FieldLists, IndexError> {
            let lists = FieldLists {
                offsets: bundle.array_ref(&format!("{label}.offsets"))?,
                postings: bundle.array_ref(&format!("{label}.postings"))?,
            };
            let offsets = bundle.get(lists.offsets);
            let ordered = offsets.first() == Some(&0)
                && offsets.windows(2).all(|w| w[0] <= w[1])
                && offsets.last().map(|&end| end as usize) == Some(lists.postings.len());
            if !ordered {
                return Err(IndexError::corrupt(
                    bundle.name(),
                    format!("{label}.offsets out of order or out of bounds"),
                ));
            }
            Ok(lists)
        };
        let names = lists(RankedField::Names.label()).map_err(corrupt)?;
        let prefixes = lists(RankedField::Prefixes.label()).map_err(corrupt)?;
        let pairs = lists("pairs").map_err(corrupt)?;
        let pair_ords = bundle.array_ref::<u32>("pairs.ords").map_err(corrupt)?;
        let ords = bundle.get(pair_ords);
        if ords.len() + 1 != pairs.offsets.len() || ords.windows(2).any(|w| w[0] >= w[1]) {
            let reason = "pairs.ords out of order or not one per list";
            return Err(corrupt(IndexError::corrupt(bundle.name(), reason)));
        }
        let categories = bundle.array_ref("categories").map_err(corrupt)?;
        Ok(Some(RankedPostings {
            bundle,
            names,
            prefixes,
            pair_ords,
            pairs,
            categories,
        }))
    }

    /// The ranked postings of term ordinal `ord` of `field` (empty for an
    /// ordinal out of range).
    pub(crate) fn list(&self, field: RankedField, ord: u64) -> &[u32] {
        let lists = match field {
            RankedField::Names => &self.names,
            RankedField::Prefixes => &self.prefixes,
        };
        usize::try_from(ord)
            .ok()
            .and_then(|at| lists.nth(&self.bundle, at))
            .unwrap_or(&[])
    }

    /// The ranked postings of the `pairs` term of ordinal `ord`, if it is
    /// a long one (see [`RANKED_PAIR_MIN`]).
    pub(crate) fn pair_list(&self, ord: u64) -> Option<&[u32]> {
        let ord = u32::try_from(ord).ok()?;
        let at = self.bundle.get(self.pair_ords).binary_search(&ord).ok()?;
        self.pairs.nth(&self.bundle, at)
    }

    /// Number of ranked `pairs` lists.
    #[cfg(test)]
    pub(crate) fn pair_lists(&self) -> usize {
        self.pair_ords.len()
    }

    /// Whether `docid` is of `category` (always, for `None`).
    pub(crate) fn has_category(&self, docid: u32, category: Option<u8>) -> bool {
        let stored = || {
            self.bundle
                .get(self.categories)
                .get(docid as usize)
                .copied()
                .unwrap_or(NO_CATEGORY)
        };
        category.is_none_or(|c| stored() == c)
    }
}

#[cfg(test)]
mod tests {
    use super::super::build::{build_name_index, NameEntry};
    use super::super::tests_support::TempDir;
    use super::*;

    fn placement(words: usize, not_first: bool) -> Placement {
        Placement { words, not_first }
    }

    #[test]
    fn placement_is_the_shortest_name_holding_the_term_first_first() {
        let best =
            |names: &[&str], term, prefix| Placement::best(names.iter().copied(), term, prefix);
        assert_eq!(best(&["acme labs"], "acme", false), placement(2, false));
        assert_eq!(best(&["acme labs"], "labs", false), placement(2, true));
        assert_eq!(
            best(&["big acme labs", "acme"], "acme", false),
            placement(1, false)
        );
        assert_eq!(
            best(&["x acme", "acme y"], "acme", false),
            placement(2, false)
        );
        assert_eq!(best(&["acme labs"], "la", true), placement(2, true));
        assert_eq!(best(&["acme labs"], "lab", false), Placement::WORST);
        let long = vec!["w"; 40].join(" ") + " acme";
        assert_eq!(
            best(&[&long], "acme", false),
            Placement::WORST,
            "past the cut"
        );
        assert_eq!(
            best(&[&long], "w", false),
            placement(MAX_NAME_TOKENS, false)
        );
    }

    #[test]
    fn pair_placement_is_the_shortest_name_holding_both_words() {
        let best =
            |names: &[&str], a, b, prefix| pair_placement(names.iter().copied(), a, b, prefix);
        let names = ["alpha beta gamma", "beta alpha", "alpha alpha"];
        assert_eq!(best(&names, "alpha", "beta", false), placement(2, false));
        assert_eq!(best(&names, "alpha", "gam", true), placement(3, false));
        assert_eq!(
            best(&names, "alpha", "alpha", false),
            Placement::WORST,
            "two distinct words"
        );
        assert_eq!(best(&names, "alpha", "delta", false), Placement::WORST);
    }

    #[test]
    fn postings_sort_by_class_then_doc_id_and_runs_end_at_class_boundaries() {
        for class in 0..CLASSES {
            assert_eq!(Placement::of_class(class).class(), class);
        }
        assert!(placement(1, true).class() < placement(2, false).class());
        let mut list = vec![
            posting(placement(2, false), 9),
            posting(placement(1, false), 7),
            posting(placement(2, false), 3),
            posting(placement(MAX_NAME_TOKENS, true), DOCID_MASK),
            posting(placement(1, false), 8),
        ];
        list.sort_unstable();
        let docids: Vec<u32> = list.iter().map(|&p| posting_docid(p)).collect();
        assert_eq!(docids, [7, 8, 3, 9, DOCID_MASK]);
        assert_eq!(class_end(&list, 0), 2);
        assert_eq!(class_end(&list, 1), 2);
        assert_eq!(class_end(&list, 2), 4);
        assert_eq!(class_end(&list, 4), 5);
        assert_eq!(posting_class(list[4]), CLASSES - 1);
    }

    #[test]
    fn build_writes_ranked_lists_that_open_and_reject_corruption() {
        let dir = TempDir::new("ranked");
        let names = ["acme labs", "acme", "labs of acme", "zeta"];
        let entries = names.iter().enumerate().map(|(docid, name)| NameEntry {
            docid: docid as u32 * 2,
            names: vec![(*name).into()],
            category: (docid != 3).then_some(docid as u8),
        });
        build_name_index(dir.path(), entries).expect("build");
        let path = dir.path().join(FILE_NAME);
        let ranked = RankedPostings::open(&path)
            .expect("valid")
            .expect("present");
        let index = tantivy::Index::open_in_dir(dir.path().join("tantivy")).expect("tantivy");
        super::super::analyzer::register(&index);
        let reader = index.reader().expect("reader");
        let searcher = reader.searcher();
        let fields = Fields::of(&index.schema()).expect("fields");
        let ord = |field: RankedField, term: &str| {
            searcher.segment_readers()[0]
                .inverted_index(field.field(fields))
                .expect("inverted")
                .terms()
                .term_ord(term.as_bytes())
                .expect("term dictionary")
                .expect("indexed term")
        };
        let docids = |field, term| -> Vec<u32> {
            ranked
                .list(field, ord(field, term))
                .iter()
                .map(|&p| posting_docid(p))
                .collect()
        };
        assert_eq!(docids(RankedField::Names, "acme"), [2, 0, 4]);
        assert_eq!(docids(RankedField::Names, "labs"), [0, 4]);
        assert_eq!(docids(RankedField::Prefixes, "ac"), [2, 0, 4]);
        assert_eq!(docids(RankedField::Prefixes, "z"), [6]);
        assert!(ranked.list(RankedField::Names, u64::MAX).is_empty());
        assert!(ranked.has_category(4, Some(2)) && !ranked.has_category(4, Some(1)));
        assert!(ranked.has_category(6, None) && !ranked.has_category(6, Some(3)));
        assert!(!ranked.has_category(1_000, Some(0)));

        let good = std::fs::read(&path).expect("read");
        std::fs::write(&path, &good[..good.len() / 2]).expect("truncate");
        assert!(matches!(
            RankedPostings::open(&path),
            Err(TextError::Corrupt { .. })
        ));
        std::fs::remove_file(&path).expect("remove");
        assert!(RankedPostings::open(&path).expect("no file").is_none());
    }
}
