//! A roaring bitmap's bits written into flat 64-bit words container by
//! container, read from its portable serialized form (`serialize_into`,
//! the format shared with the C and Java implementations): setting one
//! bit per doc costs about 2 ms for a million deals, copying a bitmap
//! container's 1,024 words a few hundred nanoseconds.
//!
//! The form, little-endian throughout:
//!
//! | part | content |
//! |---|---|
//! | cookie | u32 12346, then u32 n: no run containers; or u16 12347 and u16 n − 1, then ⌈n / 8⌉ bytes, bit i set when container i is a run container |
//! | descriptions | n × (u16 key: the high 16 bits of its values, u16 cardinality − 1) |
//! | offsets | n × u32, absent when there are run containers and n < 4 |
//! | containers | in key order: a run container is u16 r then r × (u16 start, u16 length − 1); otherwise more than 4,096 values are a bitmap of 1,024 u64, fewer an array of u16 |

use roaring::RoaringBitmap;

const COOKIE_NO_RUNS: u32 = 12346;
const COOKIE_RUNS: u32 = 12347;
/// With run containers, fewer containers than this have no offsets.
const NO_OFFSETS_BELOW: usize = 4;
/// A container with more values than this is a bitmap (when not runs).
const ARRAY_LIMIT: usize = 4096;
/// Words of one container (65,536 bits).
const CONTAINER_WORDS: usize = 1024;

/// Sets `set`'s bits in `words` (bit `d % 64` of word `d / 64`); values
/// past the words are dropped. `None` when the serialized form could not
/// be read (the words are then partly written).
pub fn set_bits(set: &RoaringBitmap, words: &mut [u64]) -> Option<()> {
    let mut bytes = Vec::with_capacity(set.serialized_size());
    set.serialize_into(&mut bytes).ok()?;
    let mut form = Reader(&bytes);
    let (n, runs) = header(&mut form)?;
    let descriptions = (0..n)
        .map(|_| Some((form.u16()? as usize, form.u16()? as usize + 1)))
        .collect::<Option<Vec<_>>>()?;
    if runs.is_empty() || n >= NO_OFFSETS_BELOW {
        form.skip(4 * n)?;
    }
    for (i, &(key, len)) in descriptions.iter().enumerate() {
        let base = key * CONTAINER_WORDS;
        match (runs.get(i / 8).is_some_and(|b| b >> (i % 8) & 1 != 0), len) {
            (true, _) => set_runs(&mut form, base, words)?,
            (false, len) if len > ARRAY_LIMIT => copy_bitmap(&mut form, base, words)?,
            (false, len) => set_array(&mut form, base, len, words)?,
        }
    }
    Some(())
}

/// The container count and the run containers' bits (empty without runs).
fn header<'a>(form: &mut Reader<'a>) -> Option<(usize, &'a [u8])> {
    let cookie = form.u32()?;
    if cookie == COOKIE_NO_RUNS {
        return Some((form.u32()? as usize, &[]));
    }
    if cookie & 0xFFFF != COOKIE_RUNS {
        return None;
    }
    let n = (cookie >> 16) as usize + 1;
    Some((n, form.take(n.div_ceil(8))?))
}

fn copy_bitmap(form: &mut Reader, base: usize, words: &mut [u64]) -> Option<()> {
    let bytes = form.take(CONTAINER_WORDS * 8)?;
    let to = words.iter_mut().skip(base).take(CONTAINER_WORDS);
    for (w, b) in to.zip(bytes.chunks_exact(8)) {
        *w |= u64::from_le_bytes(b.try_into().ok()?);
    }
    Some(())
}

fn set_array(form: &mut Reader, base: usize, len: usize, words: &mut [u64]) -> Option<()> {
    let values = form.take(2 * len)?;
    for v in values.chunks_exact(2) {
        set_range(
            words,
            base * 64 + u16::from_le_bytes([v[0], v[1]]) as usize,
            1,
        );
    }
    Some(())
}

fn set_runs(form: &mut Reader, base: usize, words: &mut [u64]) -> Option<()> {
    let runs = form.u16()?;
    for _ in 0..runs {
        let (start, len) = (form.u16()? as usize, form.u16()? as usize + 1);
        set_range(words, base * 64 + start, len);
    }
    Some(())
}

/// Sets bits `from..from + len` (those within `words`).
fn set_range(words: &mut [u64], from: usize, len: usize) {
    let end = (from + len).min(words.len() * 64);
    let mut bit = from;
    while bit < end {
        let (word, shift) = (bit / 64, bit % 64);
        let n = (64 - shift).min(end - bit);
        words[word] |= (u64::MAX >> (64 - n)) << shift;
        bit += n;
    }
}

/// Reads the serialized form front to back.
struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let (taken, rest) = self.0.split_at_checked(n)?;
        self.0 = rest;
        Some(taken)
    }

    fn skip(&mut self, n: usize) -> Option<()> {
        self.take(n).map(|_| ())
    }

    fn u16(&mut self) -> Option<u16> {
        Some(u16::from_le_bytes(self.take(2)?.try_into().ok()?))
    }

    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Words set one doc at a time, the reference.
    fn one_by_one(set: &RoaringBitmap, n: usize) -> Vec<u64> {
        let mut words = vec![0u64; n];
        for d in set.iter().map(|d| d as usize).filter(|&d| d < n * 64) {
            words[d / 64] |= 1 << (d % 64);
        }
        words
    }

    /// Sets over a few containers: each sparse (an array), dense (a
    /// bitmap) or ranges (runs, once optimized).
    fn sets() -> impl Strategy<Value = RoaringBitmap> {
        let container = (
            0u32..6,
            0u8..3,
            proptest::collection::vec(0u32..65_536, 0..6_000),
        );
        let shape = |(key, kind, values): (u32, u8, Vec<u32>)| match kind {
            0 => values
                .into_iter()
                .take(300)
                .map(|v| key << 16 | v)
                .collect::<Vec<_>>(),
            1 => values.into_iter().map(|v| key << 16 | v).collect(),
            _ => values
                .iter()
                .take(20)
                .flat_map(|&v| (v..(v + 900).min(65_536)).map(move |x| key << 16 | x))
                .collect(),
        };
        proptest::collection::vec(container.prop_map(shape), 0..5)
            .prop_map(|parts| parts.into_iter().flatten().collect::<RoaringBitmap>())
    }

    proptest! {
        /// The copied words equal the words set one doc at a time, with and
        /// without run containers, when the words end within the set too.
        #[test]
        fn copies_every_container(set in sets(), optimize: bool, n in 0usize..7_000) {
            let mut set = set;
            if optimize {
                set.optimize();
            }
            let mut words = vec![0u64; n];
            prop_assert!(set_bits(&set, &mut words).is_some());
            prop_assert_eq!(words, one_by_one(&set, n));
        }
    }

    #[test]
    fn runs_across_words_and_containers() {
        let mut set: RoaringBitmap = (60..200).chain(65_530..65_600).chain([131_072]).collect();
        set.optimize();
        let mut words = vec![0u64; 2_100];
        assert!(set_bits(&set, &mut words).is_some());
        assert_eq!(words, one_by_one(&set, 2_100));
        assert_eq!(
            words.iter().map(|w| w.count_ones()).sum::<u32>(),
            140 + 70 + 1
        );
    }
}
