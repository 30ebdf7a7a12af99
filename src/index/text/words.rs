//! The word stage: the best names matching a single query token, read from
//! the ranked postings (`ranked.rs`) rather than by scoring every name that
//! holds a frequent word.
//!
//! Every expansion of every token (`expand.rs`: the exact word, typos,
//! completions, and the `prefixes` term of a short prefix) is one *list*:
//! the ranked postings of its term, walked a placement class at a time.
//! The bound of a list is the highest score a name in which only that token
//! matches can reach through the list's term, given the class of its next
//! posting ([`ScoringQuery::single_match_bound`] with the term's similarity
//! and the class's word count and first-word flag; see [`rest_bound`]).
//! The walk always takes the list with the highest bound, scores every
//! document of its current class (each once per search; `scored.rs`) and
//! stops when the best `limit` beat every list's bound. Within a class
//! documents come by doc id, so once the `limit`-th hit ties the class's
//! bound the rest of the class is skipped: it could only tie, and ties go
//! to the lower doc id.
//!
//! The hits are exact among the names matching one token through these
//! expansions. Names matching two or more tokens are the pair stage's
//! (`pairs.rs`), which runs first and leaves its hits in `scored`; so a
//! name is found by one stage or the other, and the two together answer
//! the query, unless more than [`MAX_WORD_POSTINGS`] documents would have
//! to be scored: then the main stage runs.

use tantivy::{Searcher, TantivyError};

use super::error::TextError;
use super::fields::Fields;
use super::names::NamesStore;
use super::plan::QueryTerms;
use super::ranked::{
    class_end, posting_class, posting_docid, Placement, RankedField, RankedPostings,
};
use super::scored::{Batch, Scored};
use super::similarity::{ScoringQuery, MAX_NAME_TOKENS};

/// Documents the stage scores at most before leaving the query to the main
/// stage.
pub(crate) const MAX_WORD_POSTINGS: usize = 2_048;
/// Postings the stage reads at most (skipped ones included: seen, or of
/// another category).
pub(crate) const MAX_WORD_VISITS: usize = 32_768;

/// What a search brings to the stage.
pub(crate) struct WordSearch<'a> {
    pub(crate) searcher: &'a Searcher,
    pub(crate) fields: Fields,
    pub(crate) ranked: &'a RankedPostings,
    pub(crate) names: &'a NamesStore,
    pub(crate) query: &'a ScoringQuery,
    pub(crate) terms: &'a QueryTerms,
}

/// The ranked postings of one expansion, and how far they are walked.
struct WordList<'t, 'r> {
    qi: usize,
    /// Highest similarity of a word of the list with token `qi`.
    similarity: f32,
    field: RankedField,
    term: &'t str,
    /// `None` until the list is first needed.
    postings: Option<&'r [u32]>,
    at: usize,
}

impl<'a> WordSearch<'a> {
    /// Walks the lists into `scored`; `false` when the index has several
    /// segments or more than [`MAX_WORD_POSTINGS`] documents would have to
    /// be scored. The caller (`NameIndex::exact_stages`) runs it only for
    /// queries none of whose tokens reads as two words.
    pub(crate) fn walk(
        &self,
        scored: &mut Scored<'a>,
        category: Option<u8>,
    ) -> Result<bool, TextError> {
        let [segment] = self.searcher.segment_readers() else {
            return Ok(false);
        };
        debug_assert!(!self.terms.has_splits());
        let names = segment.inverted_index(self.fields.names)?;
        let prefixes = segment.inverted_index(self.fields.prefixes)?;
        let mut lists = self.lists();
        let (mut budget, mut visits) = (MAX_WORD_POSTINGS, MAX_WORD_VISITS);
        while let Some((i, bound)) = self.best_list(&lists) {
            if scored.beats(bound) {
                break;
            }
            let list = &mut lists[i];
            let Some(postings) = list.postings else {
                let inverted = match list.field {
                    RankedField::Names => &names,
                    RankedField::Prefixes => &prefixes,
                };
                let ord = inverted
                    .terms()
                    .term_ord(list.term.as_bytes())
                    .map_err(TantivyError::from)?;
                list.postings = Some(ord.map_or(&[], |ord| self.ranked.list(list.field, ord)));
                continue;
            };
            let end = class_end(postings, list.at);
            let mut batch = Batch::default();
            for &posting in &postings[list.at..end] {
                let docid = posting_docid(posting);
                if scored.excludes(bound, docid) {
                    break;
                }
                if visits == 0 {
                    return Ok(false);
                }
                visits -= 1;
                if self.ranked.has_category(docid, category)
                    && batch.push(docid)
                    && !self.offer(scored, &mut batch, &mut budget)
                {
                    return Ok(false);
                }
            }
            if !self.offer(scored, &mut batch, &mut budget) {
                return Ok(false);
            }
            list.at = end;
        }
        Ok(true)
    }

    /// Offers `batch` to `scored`, counting the new documents against
    /// `budget`; `false` once it is spent.
    fn offer(&self, scored: &mut Scored<'a>, batch: &mut Batch, budget: &mut usize) -> bool {
        let new = scored.offer_batch(self.names, self.query, batch);
        *budget = budget.saturating_sub(new);
        *budget > 0
    }

    /// One list per whole-word or `prefixes` expansion of every token.
    fn lists(&self) -> Vec<WordList<'a, 'a>> {
        let mut lists = Vec::new();
        for (qi, group) in self.terms.groups().iter().enumerate() {
            for expansion in group.expansions.iter() {
                let (field, similarity) = if expansion.prefix {
                    (RankedField::Prefixes, self.query.completion_bound(qi))
                } else {
                    let similarity = self.query.token_similarity(qi, &expansion.term);
                    (RankedField::Names, similarity)
                };
                if similarity > 0.0 {
                    lists.push(WordList {
                        qi,
                        similarity,
                        field,
                        term: &expansion.term,
                        postings: None,
                        at: 0,
                    });
                }
            }
        }
        lists
    }

    /// The list whose remaining postings may score highest, and that bound
    /// (`None` when every list is walked).
    fn best_list(&self, lists: &[WordList<'_, '_>]) -> Option<(usize, f32)> {
        lists
            .iter()
            .enumerate()
            .filter_map(|(i, list)| Some((i, self.list_bound(list)?)))
            .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)))
    }

    /// The highest score of a name matching one token through the postings
    /// of `list` not walked yet (`None`: none left).
    fn list_bound(&self, list: &WordList<'_, '_>) -> Option<f32> {
        let placement = match list.postings {
            None => Placement::of_class(0),
            Some(postings) => Placement::of_class(posting_class(*postings.get(list.at)?)),
        };
        Some(rest_bound(self.query, list.qi, list.similarity, placement))
    }
}

/// The highest score, through a word of similarity `similarity` with token
/// `qi`, of a document whose best placement of the word is `placement`: its
/// names holding the word are no shorter, and one of the same length has it
/// first only if `placement` says so; a longer one may have it first.
fn rest_bound(query: &ScoringQuery, qi: usize, similarity: f32, placement: Placement) -> f32 {
    let bound = |words: usize, first: bool| query.single_match_bound(qi, similarity, words, first);
    let here = bound(placement.words, !placement.not_first);
    if placement.not_first && placement.words < MAX_NAME_TOKENS {
        here.max(bound(placement.words + 1, true))
    } else {
        here
    }
}
