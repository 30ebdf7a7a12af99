//! The searchable name index: open once, share through an `Arc`, search
//! from any thread.
//!
//! A search (1) folds and cuts the query (`analyzer.rs`) and expands its
//! tokens (`plan.rs`); a query of one to four tokens is answered by the
//! pair and word stages (`pairs.rs`, `words.rs`) when they can; otherwise
//! the search (2) retrieves
//! the best [`CANDIDATES`] documents with tantivy (`plan.rs`, `collector.rs`),
//! (3) re-scores each candidate against its folded names from `names.bin`
//! (`similarity.rs`), nudged by at most 1 % by the tantivy score so that
//! near-ties go to shorter names with more frequent words (see [`blend`]),
//! and (4) returns the best `limit` (at most [`MAX_HITS`]) by score
//! descending, then doc id ascending. The reader never reloads (the index
//! is immutable) and hands out cheap `Searcher` clones; a query allocates
//! only a few small vectors.

use std::path::Path;

use tantivy::directory::MmapDirectory;
use tantivy::query::Query;
use tantivy::tokenizer::TextAnalyzer;
use tantivy::{Index, IndexReader, ReloadPolicy, Searcher};

use super::analyzer::{name_analyzer, query_tokens, register};
use super::collector::{Candidate, SegmentColumns, TopCandidates};
use super::error::TextError;
use super::expansion_cache::ExpansionCache;
use super::fields::{tantivy_dir, Fields};
use super::names::{NamesStore, FILE_NAME};
use super::pairs::{PairSearch, MAX_PAIR_TOKENS};
use super::plan::{candidate_query, QueryTerms};
use super::ranked::{RankedPostings, FILE_NAME as RANKED_FILE};
use super::scored::Scored;
use super::similarity::{ScoringQuery, MIN_SCORE};
use super::words::WordSearch;

/// How many tantivy candidates are re-scored (at least `limit`).
pub(crate) const CANDIDATES: usize = 50;

/// Most hits one search returns, whatever `limit` asks.
pub const MAX_HITS: usize = 1_000;

/// One search result: the entity's doc id and its relevance in (0, 1].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NameHit {
    pub docid: u32,
    pub score: f32,
}

/// Which stages a search runs ([`NameIndex::search_in`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stages {
    /// The exact stages, then the main stage if they cannot answer.
    All,
    /// Only the exact stages: no answer when they cannot give one (a
    /// bounded amount of work, for callers that must not wait long).
    Exact,
    /// Only the main stage (after an `Exact` search gave no answer).
    Main,
}

/// A read-only name index (memory-mapped).
pub struct NameIndex {
    reader: IndexReader,
    /// Fast-field columns of the reader's segments (it never reloads).
    columns: Vec<SegmentColumns>,
    fields: Fields,
    names: NamesStore,
    /// Ranked word postings (`ranked.rs`), when the index has them.
    ranked: Option<RankedPostings>,
    analyzer: TextAnalyzer,
    expansions: ExpansionCache,
}

impl NameIndex {
    /// Opens the index that `build_name_index` wrote in `dir`.
    pub fn open(dir: &Path) -> Result<NameIndex, TextError> {
        let tantivy_path = tantivy_dir(dir);
        let directory = MmapDirectory::open(&tantivy_path)
            .map_err(|e| TextError::Tantivy(tantivy::TantivyError::from(e)))?;
        let index = Index::open(directory)?;
        register(&index);
        let fields = Fields::of(&index.schema())?;
        let reader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into()?;
        let names = NamesStore::open(&dir.join(FILE_NAME))?;
        let columns = SegmentColumns::of(&reader.searcher())?;
        let ranked = RankedPostings::open(&dir.join(RANKED_FILE))?;
        Ok(NameIndex {
            reader,
            columns,
            fields,
            names,
            ranked,
            analyzer: name_analyzer(),
            expansions: ExpansionCache::default(),
        })
    }

    /// Fuzzy search; see the module docs. An empty or punctuation-only query
    /// returns no hit; `category` keeps only documents of that category.
    pub fn search(
        &self,
        query: &str,
        limit: usize,
        category: Option<u8>,
    ) -> Result<Vec<NameHit>, TextError> {
        Ok(self
            .search_in(query, limit, category, Stages::All)?
            .unwrap_or_default())
    }

    /// [`NameIndex::search`] through the given stages; `None` only when
    /// the exact stages alone were asked for and cannot answer.
    pub fn search_in(
        &self,
        query: &str,
        limit: usize,
        category: Option<u8>,
        stages: Stages,
    ) -> Result<Option<Vec<NameHit>>, TextError> {
        let tokens = query_tokens(&mut self.analyzer.clone(), query);
        if tokens.is_empty() || limit == 0 {
            return Ok(Some(Vec::new()));
        }
        let scoring = ScoringQuery::new(tokens);
        let searcher = self.reader.searcher();
        let terms = QueryTerms::of(&searcher, self.fields, &scoring, &self.expansions)?;
        let limit = limit.min(MAX_HITS);
        if stages != Stages::Main {
            let exact = self.exact_stages(&searcher, &scoring, &terms, limit, category)?;
            if exact.is_some() || stages == Stages::Exact {
                return Ok(exact);
            }
        }
        let hits = match candidate_query(self.fields, searcher.num_docs(), &terms) {
            Some(plan) => self.retrieve(&searcher, plan.as_ref(), &scoring, limit, category)?,
            None => Vec::new(),
        };
        Ok(Some(hits))
    }

    /// The answer of the pair and word stages (`pairs.rs`, `words.rs`), if
    /// they can answer alone.
    fn exact_stages(
        &self,
        searcher: &Searcher,
        scoring: &ScoringQuery,
        terms: &QueryTerms,
        limit: usize,
        category: Option<u8>,
    ) -> Result<Option<Vec<NameHit>>, TextError> {
        if scoring.len() > MAX_PAIR_TOKENS || terms.has_splits() {
            return Ok(None);
        }
        let mut scored = Scored::new(limit);
        let mut floor = 0f32;
        if scoring.len() >= 2 {
            let pairs = PairSearch {
                searcher,
                fields: self.fields,
                columns: &self.columns,
                names: &self.names,
                query: scoring,
                terms,
                ranked: self.ranked.as_ref(),
            };
            let Some(uncovered) = pairs.walk(&mut scored, category)? else {
                return Ok(None);
            };
            floor = uncovered;
            if scored.beats(scoring.one_token_bound().max(floor)) {
                return Ok(Some(final_hits(scored)));
            }
        }
        let Some(ranked) = &self.ranked else {
            return Ok(None);
        };
        let words = WordSearch {
            searcher,
            fields: self.fields,
            ranked,
            names: &self.names,
            query: scoring,
            terms,
        };
        if !words.walk(&mut scored, category)? {
            return Ok(None);
        }
        let complete = scored.beats(floor) || (!scored.is_full() && floor <= 0.0);
        Ok(complete.then(|| final_hits(scored)))
    }

    /// The best `limit` hits among the best [`CANDIDATES`] documents of
    /// `plan`, re-scored.
    fn retrieve(
        &self,
        searcher: &Searcher,
        plan: &dyn Query,
        scoring: &ScoringQuery,
        limit: usize,
        category: Option<u8>,
    ) -> Result<Vec<NameHit>, TextError> {
        let collector = TopCandidates::new(CANDIDATES.max(limit), category, &self.columns);
        let candidates = searcher.search(plan, &collector)?;
        Ok(self.rescore(scoring, &candidates, limit))
    }

    /// Scores `candidates` (best tantivy score first) against their names;
    /// returns the best `limit`, without the names that share nothing with
    /// the query (found only through one word of a two-word reading).
    fn rescore(
        &self,
        scoring: &ScoringQuery,
        candidates: &[Candidate],
        limit: usize,
    ) -> Vec<NameHit> {
        let best_retrieval = candidates.first().map_or(1.0, |c| c.score);
        let mut hits: Vec<NameHit> = candidates
            .iter()
            .filter_map(|c| {
                let similarity = scoring.best(self.names.names(c.docid));
                let score = blend(similarity, c.score / best_retrieval);
                (similarity > MIN_SCORE).then_some(NameHit {
                    docid: c.docid,
                    score,
                })
            })
            .collect();
        hits.sort_unstable_by(|a, b| b.score.total_cmp(&a.score).then(a.docid.cmp(&b.docid)));
        hits.truncate(limit);
        hits
    }

    /// Number of searchable documents.
    pub fn num_docs(&self) -> u64 {
        self.reader.searcher().num_docs()
    }
}

/// The hits of the pair and word stages, best first.
fn final_hits(scored: Scored<'_>) -> Vec<NameHit> {
    scored
        .into_best()
        .into_iter()
        .map(|c| NameHit {
            docid: c.docid,
            score: blend(c.score, 1.0),
        })
        .collect()
}

/// Final score: an exact match (similarity 1) stays 1; any other
/// similarity is scaled by `0.99 + 0.01 × retrieval`, where `retrieval` is
/// the tantivy score relative to the best candidate's, in (0, 1].
fn blend(similarity: f32, retrieval: f32) -> f32 {
    if similarity >= 1.0 {
        return 1.0;
    }
    let retrieval = if retrieval.is_finite() {
        retrieval.clamp(0.0, 1.0)
    } else {
        0.0
    };
    (similarity * (0.99 + 0.01 * retrieval)).max(MIN_SCORE)
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, OnceLock};

    use super::super::analyzer::name_analyzer;
    use super::super::build::{build_name_index, NameEntry};
    use super::super::scored::Batch;
    use super::super::similarity::COMPACT_MATCH;
    use super::super::tests_support::{fixture_entries, TempDir, CITY, FIXTURE, PERSON};
    use super::*;

    /// One fixture index shared by all tests (built once, read-only).
    fn index() -> &'static NameIndex {
        static INDEX: OnceLock<(TempDir, NameIndex)> = OnceLock::new();
        let (_, index) = INDEX.get_or_init(|| {
            let dir = TempDir::new("search");
            build_name_index(dir.path(), fixture_entries()).expect("build fixture");
            let index = NameIndex::open(dir.path()).expect("open fixture");
            (dir, index)
        });
        index
    }

    fn search(query: &str) -> Vec<NameHit> {
        index().search(query, 10, None).expect("search")
    }

    fn ids(hits: &[NameHit]) -> Vec<u32> {
        hits.iter().map(|h| h.docid).collect()
    }

    fn top(query: &str) -> NameHit {
        search(query).first().copied().unwrap_or(NameHit {
            docid: u32::MAX,
            score: 0.0,
        })
    }

    fn position(hits: &[NameHit], docid: u32) -> usize {
        hits.iter()
            .position(|h| h.docid == docid)
            .unwrap_or(usize::MAX)
    }

    #[test]
    fn exact_stages_answer_or_leave_the_query_to_the_main_stage() {
        let stages =
            |query: &str, stages| index().search_in(query, 10, None, stages).expect("search");
        for query in [
            "stripe",
            "sequoia capital",
            "sequoia capital partners global",
        ] {
            let exact = stages(query, Stages::Exact).expect("the exact stages answer");
            assert_eq!(exact, search(query), "{query}");
            assert!(stages(query, Stages::Main).is_some());
        }
        let long = "sequoia capital partners global fund";
        assert_eq!(stages(long, Stages::Exact), None, "five tokens");
        assert_eq!(stages(long, Stages::Main), Some(search(long)));
        assert_eq!(stages("", Stages::Exact), Some(Vec::new()));
    }

    #[test]
    fn blend_only_breaks_near_ties() {
        assert_eq!(blend(1.0, 0.2), 1.0);
        assert!(blend(0.8, 1.0) > blend(0.8, 0.5));
        assert!(blend(0.8, 0.0) > blend(0.79, 1.0) - 0.01);
        assert!(blend(0.9, 1.0) <= 0.9 && blend(0.9, 0.0) >= 0.89);
        assert!(blend(0.5, f32::NAN) > 0.0 && blend(MIN_SCORE, 0.0) >= MIN_SCORE);
    }

    #[test]
    fn exact_full_name_scores_one() {
        for query in ["Stripe", "stripe", "  STRIPE!  "] {
            assert_eq!(
                top(query),
                NameHit {
                    docid: 0,
                    score: 1.0
                },
                "{query}"
            );
        }
        assert_eq!(
            top("sequoia capital"),
            NameHit {
                docid: 3,
                score: 1.0
            }
        );
        assert_eq!(top("sequoia-capital").docid, 3, "the permalink alias");
        assert!(search("stripe").iter().skip(1).all(|h| h.score < 1.0));
    }

    #[test]
    fn exact_beats_extra_words_beats_typos() {
        let hits = search("stripe");
        let (exact, longer, typo) = (position(&hits, 0), position(&hits, 1), position(&hits, 2));
        assert!(
            exact < longer && longer < typo && typo < hits.len(),
            "{hits:?}"
        );
    }

    #[test]
    fn word_order_does_not_matter() {
        let hit = top("capital sequoia");
        assert_eq!(hit.docid, 3);
        assert!(hit.score >= 0.89 && hit.score < 1.0, "{hit:?}");
        assert_eq!(top("francisco san").docid, 11);
    }

    #[test]
    fn one_typo_still_finds_the_name() {
        let hits = search("sequioa");
        assert_eq!(hits.first().map(|h| h.docid), Some(3), "{hits:?}");
        assert!(hits[0].score > 0.7, "{hits:?}");
        assert_eq!(top("sequioa capital").docid, 3);
        assert!(top("sequioa capital").score > 0.85);
        assert_eq!(
            top("andresen horowitz").docid,
            5,
            "two typos in a long word"
        );
        assert_eq!(top("datdog").docid, 19);
        assert_eq!(top("lightpseed").docid, 27);
    }

    #[test]
    fn accents_and_case_fold() {
        assert_eq!(
            top("zurich"),
            NameHit {
                docid: 8,
                score: 1.0
            }
        );
        assert_eq!(
            top("ZÜRICH"),
            NameHit {
                docid: 8,
                score: 1.0
            }
        );
        assert_eq!(
            top("sao paulo"),
            NameHit {
                docid: 10,
                score: 1.0
            }
        );
        assert_eq!(
            top("francois dupont"),
            NameHit {
                docid: 15,
                score: 1.0
            }
        );
        assert_eq!(top("jose garcia").docid, 18);
        assert_eq!(top("bjork").docid, 17);
    }

    #[test]
    fn cjk_names_and_aliases_match() {
        assert_eq!(
            top("字节跳动"),
            NameHit {
                docid: 13,
                score: 1.0
            }
        );
        assert_eq!(
            top("ByteDance"),
            NameHit {
                docid: 13,
                score: 1.0
            }
        );
        assert_eq!(top("北京").docid, 14);
        assert_eq!(top("字节").docid, 13, "a CJK prefix");
    }

    #[test]
    fn prefixes_match_while_typing() {
        assert_eq!(top("sequoia cap").docid, 3);
        assert_eq!(top("andree").docid, 5);
        assert_eq!(top("lightsp").docid, 27);
        assert_eq!(top("san francisco b").docid, 12);
        assert_eq!(
            top("air").docid,
            20,
            "Airbnb and Airtable tie, lower doc id first"
        );
        assert!(ids(&search("air")).contains(&21));
    }

    #[test]
    fn other_word_breaks_match() {
        let hit = top("data dog");
        assert_eq!((hit.docid, hit.score), (19, COMPACT_MATCH));
        assert_eq!(top("air bnb").docid, 20);
        assert_eq!(top("ycombinator").docid, 24);
        assert_eq!(top("open ai").docid, 22);
        assert_eq!(
            top("indexventures"),
            NameHit {
                docid: 26,
                score: COMPACT_MATCH
            }
        );
        assert_eq!(top("lightspeedventure partners").docid, 27);
    }

    #[test]
    fn category_filter_keeps_only_that_category() {
        let people = index().search("stripe", 10, Some(PERSON)).expect("search");
        assert_eq!(ids(&people), [32]);
        let cities = index().search("zurich", 10, Some(CITY)).expect("search");
        assert_eq!(ids(&cities), [8]);
        assert!(index()
            .search("stripe", 10, Some(200))
            .expect("search")
            .is_empty());
        let unfiltered = search("twin peaks");
        assert!(
            ids(&unfiltered).contains(&31),
            "uncategorised entries match without a filter"
        );
    }

    #[test]
    fn limit_caps_the_hits() {
        assert!(index().search("s", 3, None).expect("search").len() <= 3);
        assert_eq!(index().search("stripe", 2, None).expect("search").len(), 2);
        assert!(index()
            .search("stripe", 0, None)
            .expect("search")
            .is_empty());
        assert!(
            index()
                .search("stripe", 10_000, None)
                .expect("search")
                .len()
                <= FIXTURE.len()
        );
        assert!(index().search("s", usize::MAX, None).expect("search").len() <= FIXTURE.len());
    }

    #[test]
    fn ties_are_broken_by_doc_id_deterministically() {
        let hits = search("twin peaks");
        assert_eq!(
            &hits[..2],
            [
                NameHit {
                    docid: 30,
                    score: 1.0
                },
                NameHit {
                    docid: 31,
                    score: 1.0
                }
            ]
        );
        for _ in 0..5 {
            assert_eq!(search("twin peaks"), hits);
            assert_eq!(search("air"), search("air"));
        }
    }

    #[test]
    fn ties_beyond_the_candidate_pool_keep_the_lowest_doc_ids() {
        let dir = TempDir::new("ties");
        let count = 3 * CANDIDATES as u32;
        let shuffled = (0..count).map(|i| (i * 37) % count); // 37 is prime to count
        let entries = shuffled.map(|docid| NameEntry {
            docid,
            names: vec!["Acme Robotics".into()],
            category: None,
        });
        build_name_index(dir.path(), entries).expect("build");
        let index = NameIndex::open(dir.path()).expect("open");
        for query in ["acme robotics", "acme", "acme robo", "acme robotcs"] {
            let hits = index.search(query, 5, None).expect("search");
            assert_eq!(ids(&hits), [0, 1, 2, 3, 4], "{query}");
            assert!(
                hits.iter().all(|h| h.score == hits[0].score),
                "{query}: {hits:?}"
            );
        }
    }

    #[test]
    fn scores_are_in_range_and_sorted() {
        for query in [
            "stripe",
            "sequioa",
            "capital",
            "s",
            "air",
            "zurich group",
            "x",
        ] {
            let hits = search(query);
            assert!(
                hits.iter().all(|h| h.score > 0.0 && h.score <= 1.0),
                "{query}: {hits:?}"
            );
            assert!(
                hits.windows(2).all(|w| w[0].score > w[1].score
                    || (w[0].score == w[1].score && w[0].docid < w[1].docid)),
                "{query}: {hits:?}"
            );
        }
    }

    #[test]
    fn empty_queries_return_nothing() {
        for query in ["", "   ", "\t\n", "?!", "--- ///"] {
            assert!(search(query).is_empty(), "{query:?}");
        }
    }

    #[test]
    fn odd_input_never_panics() {
        let long = "stripe ".repeat(2000);
        let odd = [
            "\u{0}",
            "🦀🦀 🦀",
            "a",
            "ß",
            "İstanbul",
            "ﬁnance",
            "\u{200b}",
            "e\u{301}",
            "a-b-c",
            "ab cd ef gh ij kl mn op qr st uv wx yz",
            "%%%",
            "\u{10FFFF}",
            "x y",
            "0",
            "١٢٣",
            "ǅ",
            "ⅷ",
            "½",
            "\u{FEFF}stripe",
            &long,
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
        ];
        for query in odd {
            for category in [None, Some(CITY)] {
                let hits = index().search(query, 5, category).expect("search");
                assert!(hits.len() <= 5 && hits.iter().all(|h| h.score > 0.0 && h.score <= 1.0));
            }
        }
        assert_eq!(top(&long).docid, 0, "a long query is cut, not rejected");
    }

    #[test]
    fn counts_docs_and_is_shareable_across_threads() {
        assert_eq!(index().num_docs(), FIXTURE.len() as u64 - 1);
        fn assert_send_sync<T: Send + Sync>() {}
        assert_send_sync::<NameIndex>();
        let shared: Arc<&NameIndex> = Arc::new(index());
        let handles: Vec<_> = (0..4)
            .map(|_| {
                let shared = Arc::clone(&shared);
                std::thread::spawn(move || {
                    shared
                        .search("sequioa", 3, None)
                        .map(|h| ids(&h))
                        .unwrap_or_default()
                })
            })
            .collect();
        for handle in handles {
            assert_eq!(
                handle.join().ok().and_then(|ids| ids.first().copied()),
                Some(3)
            );
        }
    }

    #[test]
    fn the_pair_stage_finds_hits_as_good_as_the_main_stage() {
        let names = pair_corpus();
        let (_dir, index) = corpus_index("pairs", &names, |_| None);
        let (mut asked, mut answered) = (0, 0);
        for name in names.iter().step_by(37) {
            for query in query_variants(name) {
                asked += 1;
                let scoring = ScoringQuery::new(query_tokens(&mut name_analyzer(), &query));
                let searcher = index.reader.searcher();
                let terms = QueryTerms::of(&searcher, index.fields, &scoring, &index.expansions)
                    .expect("expand");
                let Some(pairs) = index
                    .exact_stages(&searcher, &scoring, &terms, 10, None)
                    .expect("pair stage")
                else {
                    continue;
                };
                answered += 1;
                let main = index
                    .search_in(&query, 10, None, Stages::Main)
                    .expect("main stage")
                    .expect("an answer");
                assert_eq!(pairs.len(), 10, "{query}");
                for (p, m) in pairs.iter().zip(&main) {
                    assert!(p.score >= m.score - 0.011, "{query}: {pairs:?} vs {main:?}");
                }
                assert_eq!(index.search(&query, 10, None).expect("search"), pairs);
            }
        }
        assert!(
            answered * 2 > asked,
            "{answered} of {asked} queries answered by pairs"
        );
    }

    /// The best `limit` hits of `query` by scoring every document: the
    /// oracle of the pair and word stages.
    fn scan_best(
        index: &NameIndex,
        query: &str,
        limit: usize,
        category: Option<u8>,
    ) -> Vec<NameHit> {
        let scoring = ScoringQuery::new(query_tokens(&mut name_analyzer(), query));
        let ranked = index.ranked.as_ref().expect("ranked postings");
        let mut scored = Scored::new(limit);
        let mut batch = Batch::default();
        for docid in 0..index.names.slots() as u32 {
            if ranked.has_category(docid, category) && batch.push(docid) {
                scored.offer_batch(&index.names, &scoring, &mut batch);
            }
        }
        scored.offer_batch(&index.names, &scoring, &mut batch);
        final_hits(scored)
    }

    #[test]
    fn the_pair_and_word_stages_find_what_a_full_scan_finds() {
        let names = pair_corpus();
        let (_dir, index) = corpus_index("words", &names, |docid| Some((docid % 3 == 0) as u8));
        let ranked = index.ranked.as_ref().expect("ranked postings");
        assert!(ranked.pair_lists() > 20, "long pair lists are ranked");
        let mut queries: Vec<String> = names
            .iter()
            .step_by(149)
            .flat_map(|n| query_variants(n))
            .collect();
        for name in names.iter().step_by(401) {
            for word in name.split(' ').filter(|w| w.len() >= 3) {
                queries.extend(query_variants(word));
            }
        }
        // Names spelling the query with other word breaks ("li garcia" for
        // "l igarcia") are found only through a concatenation of two tokens.
        let folded = |text: &str| query_tokens(&mut name_analyzer(), text).join(" ");
        let other_breaks = |query: &str| {
            let (joined, compact) = (folded(query), folded(query).replace(' ', ""));
            names.iter().any(|n| {
                let n = folded(n);
                n != joined && n.replace(' ', "") == compact
            })
        };
        queries.retain(|q| !other_breaks(q));
        let (mut asked, mut answered) = (0, 0);
        for query in &queries {
            for (category, limit) in [(None, 10), (Some(1), 10), (None, 3), (None, 40)] {
                asked += 1;
                let scoring = ScoringQuery::new(query_tokens(&mut name_analyzer(), query));
                let searcher = index.reader.searcher();
                let terms = QueryTerms::of(&searcher, index.fields, &scoring, &index.expansions)
                    .expect("expand");
                let Some(fast) = index
                    .exact_stages(&searcher, &scoring, &terms, limit, category)
                    .expect("fast stages")
                else {
                    continue;
                };
                answered += 1;
                let scan = scan_best(&index, query, limit, category);
                assert_eq!(fast, scan, "{query} ({category:?}, {limit})");
            }
        }
        assert!(
            answered * 10 > asked * 9,
            "{answered} of {asked} queries answered by the pair and word stages"
        );
    }

    /// An index of `names` (doc id = position) with the categories
    /// `category` gives.
    fn corpus_index(
        label: &str,
        names: &[String],
        category: impl Fn(usize) -> Option<u8>,
    ) -> (TempDir, NameIndex) {
        let dir = TempDir::new(label);
        let entries = names.iter().enumerate().map(|(docid, name)| NameEntry {
            docid: docid as u32,
            names: vec![name.as_str().into()],
            category: category(docid),
        });
        build_name_index(dir.path(), entries).expect("build");
        let index = NameIndex::open(dir.path()).expect("open");
        (dir, index)
    }

    /// ~6,000 names: people drawn from skewed first and last names (some
    /// with a middle initial), firms "<word> Capital|Partners|Ventures".
    fn pair_corpus() -> Vec<String> {
        const FIRST: [&str; 12] = [
            "carlos", "maria", "john", "camila", "wei", "sofia", "james", "ana", "li", "johnny",
            "fatima", "lucas",
        ];
        const LAST: [&str; 12] = [
            "fisher", "garcia", "smith", "martinez", "chen", "cox", "miller", "moore", "linton",
            "nasser", "kumar", "fischer",
        ];
        const SUFFIX: [&str; 3] = ["capital", "partners", "ventures"];
        let mut seed = 7u64;
        let mut next = move |n: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let r = (seed >> 33) as usize;
            (r % n).min(r % (n / 2 + 1) + r % 3) // skewed towards the first entries
        };
        (0..6_000)
            .map(|i| match i % 5 {
                0 => format!("{} {}", LAST[next(12)], SUFFIX[next(3)]),
                1 => format!(
                    "{} {}. {}",
                    FIRST[next(12)],
                    (b'a' + next(26) as u8) as char,
                    LAST[next(12)]
                ),
                _ => format!("{} {}", FIRST[next(12)], LAST[next(12)]),
            })
            .collect()
    }

    /// The name, with one typo, with its last word cut to 1–4 characters,
    /// and with its words swapped.
    fn query_variants(name: &str) -> Vec<String> {
        let words: Vec<&str> = name.split(' ').collect();
        let last = words[words.len() - 1];
        let head = words[..words.len() - 1].join(" ");
        let mut typo: Vec<char> = name.chars().collect();
        typo.swap(1, 2);
        let mut variants = vec![name.to_string(), typo.into_iter().collect()];
        for cut in 1..=4.min(last.len()) {
            variants.push(format!("{head} {}", &last[..cut]));
        }
        variants.push(words.iter().rev().copied().collect::<Vec<_>>().join(" "));
        variants
    }

    #[test]
    fn open_reports_missing_or_broken_indexes() {
        let dir = TempDir::new("open-missing");
        assert!(NameIndex::open(&dir.path().join("nope")).is_err());
        build_name_index(dir.path(), fixture_entries()).expect("build");
        std::fs::write(dir.path().join(FILE_NAME), b"garbage").expect("write");
        assert!(matches!(
            NameIndex::open(dir.path()),
            Err(TextError::Corrupt { .. })
        ));
    }
}
