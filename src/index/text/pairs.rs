//! The pair stage: the first, cheap stage of a search of two to
//! [`MAX_PAIR_TOKENS`] tokens, which answers most of them exactly without
//! touching the postings of single words.
//!
//! Names such as "Carlos Fisher" or "Hearst Capital" are made of frequent
//! words: walking, or even seeking, the postings of "carlos" or "capital"
//! among millions of names is what a search used to spend its time on. The
//! `pairs` field (`analyzer.rs`) indexes every ordered pair of words of a
//! name, so the documents holding two of the query tokens are a few short
//! posting lists, one per *pair clause*:
//!
//! - for every two tokens, the [`PAIR_EXPANSIONS`] best whole-word
//!   expansions (exact, typos, long completions) of one times those of the
//!   other give the terms `a␟b`;
//! - when the second token may be a prefix (it is the last one, or long
//!   enough; of two tokens the one that may be a prefix comes second),
//!   `a␟b␞` (for a prefix of up to 3 characters) or the terms `a␟b…` it
//!   starts (at most [`MAX_PAIR_COMPLETIONS`] per `a`) add the names it
//!   begins;
//! - the word two adjacent tokens spell ("drop box" → "dropbox") is a term
//!   of the `names` field, as in the main stage.
//!
//! Each clause has an upper bound of the similarity of the names it holds
//! (its two words' similarities, the other tokens counted as exact
//! matches, the whole name covered). Token pairs are walked cheapest
//! first (fewest postings), the clauses of one pair by decreasing bound,
//! every document's folded names scored once (the same names are scored
//! once per search), and the walk stops when `limit` hits beat the bound
//! of every clause left. The hits are exact — the best names among
//! all those matching two query tokens through these expansions — and
//! tantivy's scorers are not involved. Ties keep the lowest doc ids.
//!
//! A long clause ("capital␟partners", "john␟smith": at least
//! [`RANKED_PAIR_MIN`] postings) is read from the ranked postings
//! (`ranked.rs`) instead, shortest names first: names of `w` words can
//! score at most [`ScoringQuery::names_bound`], so the walk of the clause
//! stops once the hits beat that, or tie it with lower doc ids, instead of
//! scoring thousands of "X Capital Partners".
//!
//! A name matching at most one query token cannot score above
//! [`ScoringQuery::one_token_bound`]. So when `limit` hits beat that bound
//! too, they are the answer; otherwise the word stage (`words.rs`) adds the
//! best names matching one token. The walk returns the highest similarity
//! of a name holding two tokens that no clause holds, which the answer
//! must beat; with more than [`MAX_PAIR_POSTINGS`] postings to read it
//! gives up and the search runs the main stage.
//!
//! Names spelling the query with other word breaks are found only when two
//! adjacent tokens spell one of their words, as in the main stage.

use tantivy::postings::TermInfo;
use tantivy::schema::IndexRecordOption;
use tantivy::termdict::TermDictionary;
use tantivy::{DocSet, InvertedIndexReader, Searcher, SegmentReader, TantivyError, TERMINATED};

use super::analyzer::{
    pair_prefix_term, pair_term, PAIR_PREFIX_CHARS, PAIR_SEPARATOR, PREFIX_MARK,
};
use super::collector::SegmentColumns;
use super::error::TextError;
use super::expand::{prefix_end, Expansion};
use super::fields::Fields;
use super::names::NamesStore;
use super::plan::QueryTerms;
use super::ranked::{
    class_end, posting_class, posting_docid, Placement, RankedPostings, RANKED_PAIR_MIN,
};
use super::scored::{Batch, Scored};
use super::similarity::ScoringQuery;

/// Longest query (in tokens) searched by pairs first.
pub(crate) const MAX_PAIR_TOKENS: usize = 4;
/// Whole-word expansions per token combined into pairs.
pub(crate) const PAIR_EXPANSIONS: usize = 4;
/// Completions of a prefix read per first word.
pub(crate) const MAX_PAIR_COMPLETIONS: usize = 32;
/// Postings the stage reads at most before leaving the query to the main
/// stage. Reading one costs a fraction of a microsecond, at most a few
/// milliseconds in all; the main stage costs 1–3 ms on a query this long
/// ("Robert A" reads some thousands of "robert␟a␞" postings at M) and is
/// not exact.
pub(crate) const MAX_PAIR_POSTINGS: u32 = 8_192;

/// One pair clause of a segment: where its postings are and the sum of
/// the similarities of its two words with their tokens.
struct PairClause {
    term: String,
    info: TermInfo,
    /// In the `names` field (a concatenation), else in `pairs`.
    names_field: bool,
    /// Whether the word of the first / second token is a whole-word
    /// expansion (else a completion: `a␟b␞`, `a␟b…`, or the same with the
    /// tokens' words swapped).
    whole: [bool; 2],
    similarity: f32,
}

/// The clauses of two query tokens (`None`: the concatenations), best
/// similarity first.
struct PairGroup {
    tokens: Option<(usize, usize)>,
    clauses: Vec<PairClause>,
    postings: u64,
}

/// What a search brings to the stage.
pub(crate) struct PairSearch<'a> {
    pub(crate) searcher: &'a Searcher,
    pub(crate) fields: Fields,
    pub(crate) columns: &'a [SegmentColumns],
    pub(crate) names: &'a NamesStore,
    pub(crate) query: &'a ScoringQuery,
    pub(crate) terms: &'a QueryTerms,
    /// Ranked postings of the long pair terms, when the index has them.
    pub(crate) ranked: Option<&'a RankedPostings>,
}

impl<'a> PairSearch<'a> {
    /// Walks the pair clauses into `scored` (see the module docs);
    /// returns the highest similarity of a name holding two tokens that no
    /// clause holds (see [`PairSearch::pair_clauses`]), or `None` when more
    /// than [`MAX_PAIR_POSTINGS`] postings would have to be read. The
    /// caller (`NameIndex::exact_stages`) runs it only for queries of 2 to
    /// [`MAX_PAIR_TOKENS`] tokens none of which reads as two words.
    pub(crate) fn walk(
        &self,
        scored: &mut Scored<'a>,
        category: Option<u8>,
    ) -> Result<Option<f32>, TextError> {
        debug_assert!((2..=MAX_PAIR_TOKENS).contains(&self.query.len()));
        debug_assert!(!self.terms.has_splits());
        let mut walk = Walk { scored, read: 0 };
        let mut floor = 0f32;
        for (ordinal, segment) in self.searcher.segment_readers().iter().enumerate() {
            let columns = self.columns.get(ordinal).ok_or_else(|| {
                TantivyError::InternalError(format!("no fast-field columns for segment {ordinal}"))
            })?;
            let (groups, uncovered) = self.groups(segment)?;
            if !walk.segment(self, segment, columns, &groups, category)? {
                return Ok(None);
            }
            floor = floor.max(uncovered);
        }
        Ok(Some(floor))
    }

    /// The pair clauses of every two tokens, and the concatenations, that
    /// are indexed in `segment`, by token pair: the concatenations first,
    /// then the token pairs with the fewest postings first. The order
    /// changes no answer (the walk stops on the bound of every clause
    /// left) but what it costs: a token pair walked whole rules its tokens
    /// out of the clauses of later pairs (see [`PairSearch::clause_bound`]),
    /// so after the few names of "esperanza␟capital" and
    /// "esperanza␟partners", the thousands of "X Capital Partners" can no
    /// longer match "esperanza" and stop at a bound the hits already beat.
    fn groups(&self, segment: &SegmentReader) -> Result<(Vec<PairGroup>, f32), TextError> {
        let mut groups = Vec::new();
        let mut uncovered = 0f32;
        let names = segment.inverted_index(self.fields.names)?;
        let mut concatenations = Vec::new();
        for group in self.terms.groups() {
            let Some(concatenation) = &group.concatenation else {
                continue;
            };
            if let Some(info) = term_info(names.terms(), &concatenation.term)? {
                concatenations.push(PairClause {
                    term: concatenation.term.clone(),
                    info,
                    names_field: true,
                    whole: [true, true],
                    similarity: 2.0,
                });
            }
        }
        groups.push(PairGroup::new(None, concatenations));
        let pairs = segment.inverted_index(self.fields.pairs)?;
        let n = self.query.len();
        let mut token_pairs = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                let (first, second) = orient(self.query, i, j);
                let mut clauses = Vec::new();
                let missed = self.pair_clauses(pairs.terms(), first, second, &mut clauses)?;
                uncovered = uncovered.max(missed);
                token_pairs.push(PairGroup::new(Some((first, second)), clauses));
            }
        }
        token_pairs.sort_by_key(|g| g.postings);
        groups.extend(token_pairs);
        Ok((groups, uncovered))
    }

    /// The highest similarity of a name not seen yet that holds `clause`
    /// of the token pair `tokens` (see [`PairSearch::bound`]), once the
    /// token pairs `walked` have been walked whole: a name holding the
    /// clause's words matches no token `k` whose pair with the token of a
    /// whole word of the clause was walked, or it would have been seen
    /// (a walked pair holds its names where at most one of the two words
    /// is a completion).
    fn clause_bound(
        &self,
        tokens: Option<(usize, usize)>,
        clause: &PairClause,
        walked: &[(usize, usize)],
    ) -> f32 {
        match self.clause_matched(tokens, clause, walked) {
            Some(reach) => self.query.matched_bound(reach.matched),
            None => 1.0,
        }
    }

    /// What a name not seen yet that holds `clause` may match (see
    /// [`PairSearch::clause_bound`]); `None` for a concatenation, which may
    /// spell the whole query.
    fn clause_matched(
        &self,
        tokens: Option<(usize, usize)>,
        clause: &PairClause,
        walked: &[(usize, usize)],
    ) -> Option<Reach> {
        let (i, j) = tokens?;
        let done = |x: usize, k: usize| walked.contains(&(x, k)) || walked.contains(&(k, x));
        let ruled_out =
            |k: usize| (clause.whole[0] && done(i, k)) || (clause.whole[1] && done(j, k));
        let free = |k: usize| k != i && k != j && !ruled_out(k);
        let others = (0..self.query.len()).filter(|&k| free(k)).count();
        Some(Reach {
            matched: clause.similarity + others as f32,
            others,
            first_token: i == 0 || j == 0 || free(0),
        })
    }

    /// The highest score of a name of `words` words at least that holds a
    /// clause whose names not seen yet may match `reach`. Without other
    /// tokens the bound is computed as the score is, so that a name
    /// reaching it ties with it exactly; with them the sums may round
    /// differently, and the bound is raised by one ulp.
    fn clause_bound_in(&self, reach: &Reach, words: usize) -> f32 {
        let bound = self
            .query
            .names_bound(reach.matched, words, reach.first_token);
        if reach.others > 0 {
            bound.next_up()
        } else {
            bound
        }
    }

    /// Adds the indexed pair clauses of tokens `first` and `second`: their
    /// whole words two by two, and each one's completions with the other's
    /// whole words; returns the highest similarity of a name that holds
    /// both tokens but none of these clauses because a completion scan
    /// stopped at [`MAX_PAIR_COMPLETIONS`] (0 when none did). Names in
    /// which both words are completions are left out.
    fn pair_clauses(
        &self,
        terms: &TermDictionary,
        first: usize,
        second: usize,
        clauses: &mut Vec<PairClause>,
    ) -> Result<f32, TextError> {
        let query = self.query;
        let words = |qi: usize| {
            self.terms.groups()[qi]
                .expansions
                .iter()
                .filter(|e| !e.prefix)
                .take(PAIR_EXPANSIONS)
        };
        let seconds: Vec<(&Expansion, f32)> = words(second)
            .map(|b| (b, query.token_similarity(second, &b.term)))
            .collect();
        let mut missed = 0f32;
        for a in words(first) {
            let a_similarity = query.token_similarity(first, &a.term);
            for &(b, b_similarity) in &seconds {
                let term = pair_term(&a.term, &b.term);
                push_clause(
                    terms,
                    term,
                    a_similarity + b_similarity,
                    [true, true],
                    clauses,
                )?;
            }
            if query.prefix_ok(second) {
                let whole = (a, a_similarity, Side::First);
                missed = missed.max(self.completing(terms, whole, second, clauses)?);
            }
        }
        let completes = self.terms.groups()[first]
            .expansions
            .iter()
            .any(|e| e.prefix);
        if query.prefix_ok(first) && completes {
            for &(b, b_similarity) in &seconds {
                let whole = (b, b_similarity, Side::Second);
                missed = missed.max(self.completing(terms, whole, first, clauses)?);
            }
        }
        Ok(missed)
    }

    /// Adds the clauses of the whole word `whole` (its expansion,
    /// similarity and side) with the words token `token` starts: one
    /// `w␟p␞` term when the token is at most [`PAIR_PREFIX_CHARS`] long,
    /// else the terms `w␟…` it starts; returns the bound of the names
    /// missed when there were more of those than it reads (else 0).
    fn completing(
        &self,
        terms: &TermDictionary,
        (word, similarity, side): (&Expansion, f32, Side),
        token: usize,
        clauses: &mut Vec<PairClause>,
    ) -> Result<f32, TextError> {
        let whole = [side == Side::First, side == Side::Second];
        let typed = self.query.token(token);
        if typed.chars().count() <= PAIR_PREFIX_CHARS {
            // A completion may be the typed word itself: similarity 1 at best.
            let term = pair_prefix_term(&word.term, typed);
            push_clause(terms, term, similarity + 1.0, whole, clauses)?;
            return Ok(0.0);
        }
        if self.completions(terms, word, similarity, token, whole, clauses)? {
            return Ok(0.0);
        }
        let rest = self.query.len() - 2;
        Ok(self.bound(similarity + self.query.completion_bound(token), rest))
    }

    /// Adds the pair terms `a␟…` whose second word starts with token
    /// `second` (`whole`: see [`PairClause::whole`]); `false` when there
    /// were more than it reads.
    fn completions(
        &self,
        terms: &TermDictionary,
        a: &Expansion,
        a_similarity: f32,
        second: usize,
        whole: [bool; 2],
        clauses: &mut Vec<PairClause>,
    ) -> Result<bool, TextError> {
        let start = pair_term(&a.term, self.query.token(second));
        let mut range = terms.range().ge(start.as_bytes());
        if let Some(end) = prefix_end(start.as_bytes()) {
            range = range.lt(end);
        }
        let mut stream = range.into_stream().map_err(TantivyError::from)?;
        for _ in 0..MAX_PAIR_COMPLETIONS {
            if !stream.advance() {
                return Ok(true);
            }
            let Some((term, word)) = std::str::from_utf8(stream.key())
                .ok()
                .and_then(|term| Some((term, term.split_once(PAIR_SEPARATOR)?.1)))
            else {
                continue;
            };
            let similarity = self.query.token_similarity(second, word);
            if word.ends_with(PREFIX_MARK) || similarity <= 0.0 || known(clauses, term) {
                continue;
            }
            clauses.push(PairClause {
                term: term.to_string(),
                info: stream.value().clone(),
                names_field: false,
                whole,
                similarity: a_similarity + similarity,
            });
        }
        Ok(!stream.advance())
    }

    /// The ranked postings of a long `pairs` clause (`ranked.rs`), if the
    /// index has them.
    fn ranked_list(
        &self,
        pairs: &InvertedIndexReader,
        clause: &PairClause,
    ) -> Result<Option<&'a [u32]>, TextError> {
        let Some(ranked) = self.ranked else {
            return Ok(None);
        };
        if clause.names_field || clause.info.doc_freq < RANKED_PAIR_MIN {
            return Ok(None);
        }
        let ord = pairs
            .terms()
            .term_ord(clause.term.as_bytes())
            .map_err(TantivyError::from)?;
        Ok(ord.and_then(|ord| ranked.pair_list(ord)))
    }

    /// The highest similarity of a name in which two tokens match with
    /// similarities summing to `pair` and at most `free` other tokens
    /// match: those exactly, the whole name covered, in the query's order.
    fn bound(&self, pair: f32, free: usize) -> f32 {
        self.query.matched_bound(pair + free as f32)
    }
}

/// What a name holding a clause, and not seen yet, may match.
struct Reach {
    /// Highest sum of its token similarities: the clause's two words and
    /// the `others` tokens, those exactly.
    matched: f32,
    /// Tokens besides the clause's two that it may match.
    others: usize,
    /// Whether the first query token may be among them.
    first_token: bool,
}

/// Which token of a pair a whole word stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    First,
    Second,
}

/// (first, second): of two tokens, the one that may be a prefix comes
/// second when only one may; otherwise the later one.
fn orient(query: &ScoringQuery, i: usize, j: usize) -> (usize, usize) {
    if query.prefix_ok(i) && !query.prefix_ok(j) {
        (j, i)
    } else {
        (i, j)
    }
}

/// The term's postings info, if it is indexed.
fn term_info(terms: &TermDictionary, term: &str) -> Result<Option<TermInfo>, TextError> {
    Ok(terms.get(term.as_bytes()).map_err(TantivyError::from)?)
}

/// Whether `term` is already among `clauses`.
fn known(clauses: &[PairClause], term: &str) -> bool {
    clauses.iter().any(|c| c.term == term)
}

/// Adds `term` as a clause when it is indexed and new.
fn push_clause(
    terms: &TermDictionary,
    term: String,
    similarity: f32,
    whole: [bool; 2],
    clauses: &mut Vec<PairClause>,
) -> Result<(), TextError> {
    if known(clauses, &term) {
        return Ok(());
    }
    if let Some(info) = term_info(terms, &term)? {
        clauses.push(PairClause {
            term,
            info,
            names_field: false,
            whole,
            similarity,
        });
    }
    Ok(())
}

impl PairGroup {
    fn new(tokens: Option<(usize, usize)>, mut clauses: Vec<PairClause>) -> PairGroup {
        clauses.sort_by(|a, b| b.similarity.total_cmp(&a.similarity));
        let postings = clauses.iter().map(|c| u64::from(c.info.doc_freq)).sum();
        PairGroup {
            tokens,
            clauses,
            postings,
        }
    }

    /// The token pair (first, second), for the walked list.
    fn walked_key(&self) -> Option<(usize, usize)> {
        self.tokens
    }
}

/// The state of the walk over the clauses of all segments.
struct Walk<'s, 'n> {
    scored: &'s mut Scored<'n>,
    read: u32,
}

impl<'n> Walk<'_, 'n> {
    /// Walks the clause groups of one segment, stopping when `limit` hits
    /// beat every clause left; `false` when the postings budget ran out.
    fn segment(
        &mut self,
        search: &PairSearch<'n>,
        segment: &SegmentReader,
        columns: &SegmentColumns,
        groups: &[PairGroup],
        category: Option<u8>,
    ) -> Result<bool, TextError> {
        let pairs = segment.inverted_index(search.fields.pairs)?;
        let names = segment.inverted_index(search.fields.names)?;
        let mut walked: Vec<(usize, usize)> = Vec::new();
        for (g, group) in groups.iter().enumerate() {
            let rest = rest_bounds(search, group, &groups[g + 1..], &walked);
            for (c, clause) in group.clauses.iter().enumerate() {
                if self.scored.beats(rest[c]) {
                    return Ok(true);
                }
                if let Some(list) = search.ranked_list(&pairs, clause)? {
                    let all = Reach {
                        matched: search.query.len() as f32,
                        others: search.query.len(),
                        first_token: true,
                    };
                    let reach = search
                        .clause_matched(group.tokens, clause, &walked)
                        .unwrap_or(all);
                    if !self.ranked(search, list, &reach, category) {
                        return Ok(false);
                    }
                    continue;
                }
                self.read += clause.info.doc_freq;
                if self.read > MAX_PAIR_POSTINGS {
                    return Ok(false);
                }
                let inverted: &InvertedIndexReader =
                    if clause.names_field { &names } else { &pairs };
                let mut postings = inverted
                    .read_postings_from_terminfo(&clause.info, IndexRecordOption::Basic)
                    .map_err(|e| TextError::Tantivy(e.into()))?;
                let mut batch = Batch::default();
                let mut doc = postings.doc();
                while doc != TERMINATED {
                    if columns.has_category(doc, category) {
                        if let Some(docid) = columns.docid(doc) {
                            if batch.push(docid) {
                                self.scored
                                    .offer_batch(search.names, search.query, &mut batch);
                            }
                        }
                    }
                    doc = postings.advance();
                }
                self.scored
                    .offer_batch(search.names, search.query, &mut batch);
            }
            walked.extend(group.walked_key());
        }
        Ok(true)
    }
}

impl<'n> Walk<'_, 'n> {
    /// Walks the ranked postings `list` of a clause (`reach`: see
    /// [`PairSearch::clause_matched`]) a name length at a time, until
    /// `limit` hits beat what names that long can score; within a length,
    /// until the hits beat or tie (with a lower doc id) the bound. `false`
    /// when the postings budget ran out.
    fn ranked(
        &mut self,
        search: &PairSearch<'n>,
        list: &[u32],
        reach: &Reach,
        category: Option<u8>,
    ) -> bool {
        let Some(ranked) = search.ranked else {
            return true;
        };
        let mut at = 0;
        while at < list.len() {
            let words = Placement::of_class(posting_class(list[at])).words;
            let bound = search.clause_bound_in(reach, words);
            if self.scored.beats(bound) {
                break;
            }
            let end = class_end(list, at);
            let mut batch = Batch::default();
            for &posting in &list[at..end] {
                let docid = posting_docid(posting);
                if self.scored.excludes(bound, docid) {
                    break;
                }
                self.read += 1;
                if self.read > MAX_PAIR_POSTINGS {
                    return false;
                }
                if ranked.has_category(docid, category) && batch.push(docid) {
                    self.scored
                        .offer_batch(search.names, search.query, &mut batch);
                }
            }
            self.scored
                .offer_batch(search.names, search.query, &mut batch);
            at = end;
        }
        true
    }
}

/// For each clause `c` of `group`, the highest bound of the clauses not
/// walked yet when it comes: clause `c` onwards and every clause of the
/// `later` groups (bounds only change when a group is done).
fn rest_bounds(
    search: &PairSearch<'_>,
    group: &PairGroup,
    later: &[PairGroup],
    walked: &[(usize, usize)],
) -> Vec<f32> {
    let later = later
        .iter()
        .flat_map(|g| {
            g.clauses
                .iter()
                .map(|c| search.clause_bound(g.tokens, c, walked))
        })
        .fold(0.0, f32::max);
    let mut rest: Vec<f32> = group
        .clauses
        .iter()
        .map(|c| search.clause_bound(group.tokens, c, walked))
        .collect();
    let mut best = later;
    for bound in rest.iter_mut().rev() {
        best = best.max(*bound);
        *bound = best;
    }
    rest
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_token_that_may_be_a_prefix_comes_second() {
        // "ab" (2 characters, not last) may not be a prefix; "cde" may.
        let query = ScoringQuery::of_words;
        assert_eq!(orient(&query("cde ab x"), 0, 1), (1, 0));
        assert_eq!(orient(&query("ab cde"), 0, 1), (0, 1));
        assert_eq!(orient(&query("carlos fisher"), 0, 1), (0, 1));
    }
}
