//! Deterministic query sets sampled from the index itself.
//!
//! A name query starts from the stored card of a uniformly drawn document
//! (SplitMix64, fixed seed) and is then used as is (`exact`), with one
//! random edit (`typo`: substitution, deletion, insertion or transposition
//! of adjacent letters, at any position of a word of ≥ 4 letters when there
//! is one), or cut to its first 60 % of characters, at least 3 (`prefix`, a
//! search-as-you-type query). Each query remembers the document it came
//! from, so a run can report how often that document is among the hits.

use fundsearch::index::Index;

use super::entity::Entity;
use fundsearch::ingest::generate::rng::SplitMix64 as Rng;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    Exact,
    Typo,
    Prefix,
}

impl Variant {
    pub const ALL: [Variant; 3] = [Variant::Exact, Variant::Typo, Variant::Prefix];

    pub fn label(self) -> &'static str {
        match self {
            Variant::Exact => "exact",
            Variant::Typo => "typo",
            Variant::Prefix => "prefix",
        }
    }

    pub fn apply(self, name: &str, rng: &mut Rng) -> String {
        match self {
            Variant::Exact => name.to_string(),
            Variant::Typo => typo(name, rng),
            Variant::Prefix => prefix(name),
        }
    }
}

/// A query and the document it was drawn from.
#[derive(Clone, Debug)]
pub struct Sampled {
    pub text: String,
    pub target: u32,
}

/// `n` name queries of `entity`, all of one variant.
pub fn names(
    index: &Index,
    entity: Entity,
    variant: Variant,
    n: usize,
    seed: u64,
) -> Result<Vec<Sampled>, String> {
    let docs = entity.docs(index);
    if docs == 0 {
        return Err(format!("the index has no {} documents", entity.label()));
    }
    let mut rng = Rng::new(seed ^ ((entity as u64) << 8) ^ ((variant as u64) << 16));
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let target = rng.below(docs) as u32;
        let name = entity.card(index, target)?.name;
        let text = variant.apply(&name, &mut rng);
        if !text.trim().is_empty() {
            out.push(Sampled { text, target });
        }
    }
    Ok(out)
}

/// `n` company domains (as stored, e.g. `placedfarms.com.br`), drawn among
/// the companies that have one.
pub fn domains(index: &Index, n: usize, seed: u64) -> Result<Vec<Sampled>, String> {
    let docs = index.companies.docs;
    let mut rng = Rng::new(seed ^ 0xD0);
    let mut out = Vec::with_capacity(n);
    let mut draws = 0usize;
    while out.len() < n {
        draws += 1;
        if draws > 100 * n.max(1) {
            return Err(format!(
                "found only {} companies with a domain in {draws} draws",
                out.len()
            ));
        }
        let target = rng.below(docs.max(1)) as u32;
        if let Some(domain) = Entity::Company.card(index, target)?.domain {
            out.push(Sampled {
                text: domain,
                target,
            });
        }
    }
    Ok(out)
}

/// `n` doc ids of a kind with `docs` documents.
pub fn docids(docs: usize, n: usize, seed: u64) -> Vec<u32> {
    let mut rng = Rng::new(seed ^ 0x1D5);
    (0..n).map(|_| rng.below(docs.max(1)) as u32).collect()
}

/// One random edit inside a word of at least 4 letters (the longest word
/// when none is that long).
pub fn typo(name: &str, rng: &mut Rng) -> String {
    let mut chars: Vec<char> = name.chars().collect();
    let words = word_spans(&chars);
    let long: Vec<(usize, usize)> = words.iter().copied().filter(|(s, e)| e - s >= 4).collect();
    let pool = if long.is_empty() {
        words
            .iter()
            .copied()
            .max_by_key(|(s, e)| e - s)
            .into_iter()
            .collect()
    } else {
        long
    };
    let Some(&(start, end)) = pool.get(rng.below(pool.len())) else {
        return name.to_string();
    };
    let at = start + rng.below(end - start);
    let letter = (b'a' + rng.below(26) as u8) as char;
    match rng.below(4) {
        0 => {
            let current = chars[at].to_lowercase().next().unwrap_or(letter);
            chars[at] = if letter == current {
                if letter == 'z' {
                    'a'
                } else {
                    ((letter as u8) + 1) as char
                }
            } else {
                letter
            };
        }
        1 if end - start > 1 => {
            chars.remove(at);
        }
        2 if at + 1 < end => chars.swap(at, at + 1),
        _ => chars.insert(at, letter),
    }
    chars.into_iter().collect()
}

/// The first 60 % of the characters (at least 3), without trailing spaces.
pub fn prefix(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let keep = ((chars.len() * 6).div_ceil(10)).max(3).min(chars.len());
    chars[..keep]
        .iter()
        .collect::<String>()
        .trim_end()
        .to_string()
}

/// `[start, end)` of each run of alphanumeric characters.
fn word_spans(chars: &[char]) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut start = None;
    for (i, c) in chars.iter().enumerate() {
        match (c.is_alphanumeric(), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                spans.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        spans.push((s, chars.len()));
    }
    spans
}
