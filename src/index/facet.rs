//! Facet fields: categorical value → roaring bitmap of doc ids
//! (`location_docids`, `round_docids`…).
//!
//! Arrays of field `F` in a bundle:
//!
//! | array | type | content |
//! |---|---|---|
//! | `facet.F.keys` | u8 | the values, UTF-8, concatenated in sorted order |
//! | `facet.F.key_offsets` | u64 × (n+1) | value `i` is `keys[off[i]..off[i+1]]` |
//! | `facet.F.bitmap_offsets` | u64 × (n+1) | bitmap `i` is `bitmaps[off[i]..off[i+1]]` |
//! | `facet.F.bitmaps` | u8 | each value's doc ids: a tag byte, then a portable roaring serialisation (tag 0) or the sorted ids as u32 LE (tag 1) |
//!
//! A value's ids are a plain list when that is smaller: a value of a few
//! docs spread over the doc id space costs a roaring container (8 bytes of
//! header) per doc. `linkedin_company` at M (1.05 M values, 2.9 docs each)
//! took 59 MB as bitmaps and 13 MB as lists.
//!
//! Lookup is a binary search over the sorted values. Bitmaps are decoded on
//! first use and the large ones are cached (small ones decode in well under a
//! microsecond, so caching them would only cost memory).

use std::borrow::Cow;
use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

use rayon::prelude::*;
use roaring::{MultiOps, RoaringBitmap};

use super::format::{ArrayRef, Bundle, BundleWriter};
use super::scratch::{self, ScratchArray, ScratchChunks};
use super::IndexError;

/// Serialized bitmaps larger than this are decoded once and cached.
const CACHE_MIN_BYTES: usize = 4096;

/// A value's doc ids while building: a plain list while it is short (most
/// values of a free-text facet such as `linkedin_company` hold a handful of
/// docs, and a list costs less than a bitmap's containers), a roaring
/// bitmap past [`LIST_MAX`] ids (a dense value then costs about a bit per
/// doc instead of four bytes).
#[derive(Debug, Clone)]
enum DocIds {
    List(Vec<u32>),
    Bitmap(RoaringBitmap),
}

/// The longest list kept before a value's ids move into a bitmap.
const LIST_MAX: usize = 4096;

impl Default for DocIds {
    fn default() -> DocIds {
        DocIds::List(Vec::new())
    }
}

impl DocIds {
    /// Adds `docid`; returns about how many bytes that may have taken (a
    /// list's 4, a bitmap's container entry of 2).
    fn add(&mut self, docid: u32) -> usize {
        match self {
            DocIds::List(ids) if ids.len() < LIST_MAX => {
                ids.push(docid);
                4
            }
            DocIds::List(ids) => {
                let mut bitmap = RoaringBitmap::from_iter(ids.iter().copied());
                bitmap.insert(docid);
                *self = DocIds::Bitmap(bitmap);
                2
            }
            DocIds::Bitmap(bitmap) => {
                bitmap.insert(docid);
                2
            }
        }
    }

    /// The set of ids, optimised for its serialisation.
    fn into_bitmap(self) -> io::Result<RoaringBitmap> {
        let mut bitmap = match self {
            DocIds::List(mut ids) => {
                ids.sort_unstable();
                ids.dedup();
                RoaringBitmap::from_sorted_iter(ids).map_err(io::Error::other)?
            }
            DocIds::Bitmap(bitmap) => bitmap,
        };
        bitmap.optimize();
        Ok(bitmap)
    }
}

/// Bytes the value → doc ids map of a [`FacetBuilder`] may hold (as
/// estimated by [`DocIds::add`] and [`VALUE_BYTES`]) before they are
/// moved into its external sorter.
pub const FACET_HELD_BYTES: usize = 32 << 20;

/// Estimated bytes of a value's entry in the map besides its ids: the
/// key's `String`, the ids' enum, the hash slot and the allocations' overhead.
const VALUE_BYTES: usize = 96;

/// Memory the external sorter of a [`FacetBuilder`] fills before it writes
/// a sorted chunk beside the bundle.
const FACET_SORT_BYTES: usize = 16 << 20;

/// Collects value → doc ids while building (see [`DocIds`]) in bounded
/// memory. The map is held while it is small (a facet of a few values, or
/// a small index, never touches the disk); past [`FACET_HELD_BYTES`] its
/// entries are serialised, handed to an external sorter (`grenad`, whose
/// chunks are files beside the bundle) and the map starts over. At write,
/// the sorter's merged stream (a value's serialisations from every flush,
/// united) goes through scratch arrays into the bundle. Both ways write the
/// same bytes.
pub struct FacetBuilder {
    values: HashMap<String, DocIds>,
    held: usize,
    limit: usize,
    dir: PathBuf,
    sorter: Option<grenad::Sorter<UnionIds, ScratchChunks>>,
    /// The first failure to spill, reported by [`FacetBuilder::write`].
    failure: Option<io::Error>,
}

impl FacetBuilder {
    /// A builder keeping its scratch files in `dir`.
    pub fn new_in(dir: &Path) -> FacetBuilder {
        FacetBuilder::with_limit(dir, FACET_HELD_BYTES)
    }

    /// A builder holding at most about `limit` bytes of map.
    pub fn with_limit(dir: &Path, limit: usize) -> FacetBuilder {
        FacetBuilder {
            values: HashMap::new(),
            held: 0,
            limit,
            dir: dir.to_path_buf(),
            sorter: None,
            failure: None,
        }
    }

    pub fn add(&mut self, value: &str, docid: u32) {
        if self.failure.is_some() {
            return;
        }
        self.held += match self.values.get_mut(value) {
            Some(ids) => ids.add(docid),
            None => {
                self.values
                    .insert(value.to_string(), DocIds::List(vec![docid]));
                VALUE_BYTES + value.len()
            }
        };
        self.spill_if_full();
    }

    /// Makes sure `value` exists even with no documents (e.g. every enum value).
    pub fn declare(&mut self, value: &str) {
        if !self.values.contains_key(value) {
            self.values.insert(value.to_string(), DocIds::default());
            self.held += VALUE_BYTES + value.len();
        }
        self.spill_if_full();
    }

    /// Moves the map into the sorter when it holds its limit; a failure
    /// is kept for [`FacetBuilder::write`] to report.
    fn spill_if_full(&mut self) {
        if self.held >= self.limit && self.failure.is_none() {
            if let Err(e) = self.spill() {
                self.failure = Some(e);
            }
        }
    }

    fn spill(&mut self) -> io::Result<()> {
        let sorter = self.sorter.get_or_insert_with(|| {
            let mut builder = grenad::SorterBuilder::new(UnionIds);
            builder.dump_threshold(FACET_SORT_BYTES);
            builder
                .chunk_creator(ScratchChunks::new_in(&self.dir))
                .build()
        });
        for (value, bytes) in serialized(self.values.drain())? {
            sorter.insert(value, bytes).map_err(scratch::io_error)?;
        }
        self.held = 0;
        Ok(())
    }

    /// Writes the field `field` into `out`.
    pub fn write(mut self, out: &mut BundleWriter, field: &str) -> io::Result<()> {
        if let Some(e) = self.failure.take() {
            return Err(e);
        }
        match self.sorter.take() {
            None => write_facet(out, field, serialized(self.values.drain())?),
            Some(sorter) => self.write_merged(sorter, out, field),
        }
    }

    /// The map's last entries into the sorter, then the sorter's merged
    /// stream into the bundle.
    fn write_merged(
        mut self,
        mut sorter: grenad::Sorter<UnionIds, ScratchChunks>,
        out: &mut BundleWriter,
        field: &str,
    ) -> io::Result<()> {
        for (value, bytes) in serialized(self.values.drain())? {
            sorter.insert(value, bytes).map_err(scratch::io_error)?;
        }
        let dir = &self.dir;
        let mut keys = ScratchArray::<u8>::new_in(dir)?;
        let (mut key_offsets, mut bitmap_offsets) = (
            ScratchArray::<u64>::new_in(dir)?,
            ScratchArray::<u64>::new_in(dir)?,
        );
        let mut bitmaps = ScratchArray::<u8>::new_in(dir)?;
        key_offsets.push(0)?;
        bitmap_offsets.push(0)?;
        let mut merged = sorter
            .into_stream_merger_iter()
            .map_err(scratch::io_error)?;
        while let Some((value, bytes)) = merged.next().map_err(scratch::io_error)? {
            keys.extend(value)?;
            bitmaps.extend(bytes)?;
            key_offsets.push(keys.len())?;
            bitmap_offsets.push(bitmaps.len())?;
        }
        keys.copy_into(out, &format!("facet.{field}.keys"))?;
        key_offsets.copy_into(out, &format!("facet.{field}.key_offsets"))?;
        bitmap_offsets.copy_into(out, &format!("facet.{field}.bitmap_offsets"))?;
        bitmaps.copy_into(out, &format!("facet.{field}.bitmaps"))
    }
}

/// The entries sorted by value, each value's ids serialised
/// ([`serialize_ids`], in parallel).
fn serialized(
    values: impl Iterator<Item = (String, DocIds)>,
) -> io::Result<Vec<(String, Vec<u8>)>> {
    let mut sorted: Vec<(String, DocIds)> = values.collect();
    sorted.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    sorted
        .into_par_iter()
        .map(|(value, ids)| Ok((value, serialize_ids(ids)?)))
        .collect()
}

/// Writes a facet's arrays from its sorted values and their serialised ids.
fn write_facet(
    out: &mut BundleWriter,
    field: &str,
    entries: Vec<(String, Vec<u8>)>,
) -> io::Result<()> {
    let (mut keys, mut key_offsets) = (Vec::new(), vec![0u64]);
    let mut bitmap_offsets = vec![0u64];
    for (value, bytes) in &entries {
        keys.extend_from_slice(value.as_bytes());
        key_offsets.push(keys.len() as u64);
        bitmap_offsets.push(bitmap_offsets[bitmap_offsets.len() - 1] + bytes.len() as u64);
    }
    out.put_bytes(&format!("facet.{field}.keys"), &keys)?;
    out.put(&format!("facet.{field}.key_offsets"), &key_offsets)?;
    out.put(&format!("facet.{field}.bitmap_offsets"), &bitmap_offsets)?;
    let bitmaps = out.begin_stream(&format!("facet.{field}.bitmaps"))?;
    for (_, bytes) in entries {
        out.stream(&bytes)?;
    }
    out.end_stream(bitmaps)
}

/// Merge function of a facet's sorter: a value's serialised id sets
/// (from several flushes) become the serialisation of their union.
struct UnionIds;

impl grenad::MergeFunction for UnionIds {
    type Error = String;

    fn merge<'a>(&self, _value: &[u8], sets: &[Cow<'a, [u8]>]) -> Result<Cow<'a, [u8]>, String> {
        if let [one] = sets {
            return Ok(one.clone());
        }
        let mut union = RoaringBitmap::new();
        for set in sets {
            union |= deserialize_ids(set)?;
        }
        serialize_ids(DocIds::Bitmap(union))
            .map(Cow::Owned)
            .map_err(|e| e.to_string())
    }
}

/// Tag of a value's ids serialised as a roaring bitmap.
const TAG_BITMAP: u8 = 0;
/// Tag of a value's ids listed as u32 LE.
const TAG_LIST: u8 = 1;

/// A value's doc ids, tagged: as a list of u32 when that is smaller than
/// the bitmap's portable roaring serialisation.
fn serialize_ids(ids: DocIds) -> io::Result<Vec<u8>> {
    let bitmap = ids.into_bitmap()?;
    let size = bitmap.serialized_size();
    let mut out = Vec::with_capacity(1 + size);
    if 4 * bitmap.len() < size as u64 {
        out.push(TAG_LIST);
        bitmap
            .iter()
            .for_each(|d| out.extend_from_slice(&d.to_le_bytes()));
    } else {
        out.push(TAG_BITMAP);
        bitmap.serialize_into(&mut out)?;
    }
    Ok(out)
}

/// The doc ids of a tagged serialisation ([`serialize_ids`]).
fn deserialize_ids(raw: &[u8]) -> Result<RoaringBitmap, String> {
    match raw.split_first() {
        Some((&TAG_BITMAP, bitmap)) => {
            RoaringBitmap::deserialize_from(bitmap).map_err(|e| e.to_string())
        }
        Some((&TAG_LIST, list)) if list.len() % 4 == 0 => {
            let ids = list
                .chunks_exact(4)
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
            RoaringBitmap::from_sorted_iter(ids).map_err(|e| e.to_string())
        }
        _ => Err("bad doc id set tag or length".into()),
    }
}

/// A facet field read from a bundle.
pub struct Facet {
    bundle: Bundle,
    field: String,
    keys: ArrayRef<u8>,
    key_offsets: ArrayRef<u64>,
    bitmaps: ArrayRef<u8>,
    bitmap_offsets: ArrayRef<u64>,
    cache: RwLock<HashMap<u32, Arc<RoaringBitmap>>>,
}

impl Facet {
    /// Opens field `field` of `bundle`, checking that its arrays are consistent.
    pub fn open(bundle: &Bundle, field: &str) -> Result<Facet, IndexError> {
        let facet = Facet {
            bundle: bundle.clone(),
            field: field.to_string(),
            keys: bundle.array_ref(&format!("facet.{field}.keys"))?,
            key_offsets: bundle.array_ref(&format!("facet.{field}.key_offsets"))?,
            bitmaps: bundle.array_ref(&format!("facet.{field}.bitmaps"))?,
            bitmap_offsets: bundle.array_ref(&format!("facet.{field}.bitmap_offsets"))?,
            cache: RwLock::new(HashMap::new()),
        };
        let (keys, key_offsets) = (facet.keys(), facet.key_offsets());
        let (bitmaps, bitmap_offsets) = (facet.bitmaps(), facet.bitmap_offsets());
        let consistent = key_offsets.len() == bitmap_offsets.len()
            && offsets_valid(key_offsets, keys.len())
            && offsets_valid(bitmap_offsets, bitmaps.len());
        if !consistent {
            return Err(IndexError::corrupt(
                bundle.name(),
                format!("facet {field}: inconsistent offsets"),
            ));
        }
        Ok(facet)
    }

    /// Number of distinct values.
    pub fn len(&self) -> usize {
        self.key_offsets().len() - 1
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The `i`-th value in sorted order.
    pub fn value(&self, i: usize) -> &str {
        let (keys, off) = (self.keys(), self.key_offsets());
        std::str::from_utf8(&keys[off[i] as usize..off[i + 1] as usize]).unwrap_or("")
    }

    /// Position of `value` among the sorted values.
    pub fn find(&self, value: &str) -> Option<usize> {
        let n = self.len();
        let (mut lo, mut hi) = (0, n);
        while lo < hi {
            let mid = (lo + hi) / 2;
            match self.value(mid).cmp(value) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return Some(mid),
            }
        }
        None
    }

    /// Doc ids having `value`; `None` when the value is unknown.
    pub fn docids(&self, value: &str) -> Result<Option<Arc<RoaringBitmap>>, IndexError> {
        match self.find(value) {
            Some(i) => self.docids_at(i).map(Some),
            None => Ok(None),
        }
    }

    /// Doc ids of the `i`-th value.
    pub fn docids_at(&self, i: usize) -> Result<Arc<RoaringBitmap>, IndexError> {
        if let Some(hit) = self
            .cache
            .read()
            .ok()
            .and_then(|c| c.get(&(i as u32)).cloned())
        {
            return Ok(hit);
        }
        let raw = self.raw_bitmap(i);
        let bitmap = Arc::new(deserialize_ids(raw).map_err(|e| {
            IndexError::corrupt(
                self.bundle.name(),
                format!("facet {} value {}: {e}", self.field, self.value(i)),
            )
        })?);
        if raw.len() >= CACHE_MIN_BYTES {
            if let Ok(mut cache) = self.cache.write() {
                cache.insert(i as u32, bitmap.clone());
            }
        }
        Ok(bitmap)
    }

    /// Union of the doc ids of `values`; unknown values are ignored.
    pub fn union_of<'v>(
        &self,
        values: impl IntoIterator<Item = &'v str>,
    ) -> Result<RoaringBitmap, IndexError> {
        self.shared_union_of(values).map(Arc::unwrap_or_clone)
    }

    /// [`Facet::union_of`], shared rather than copied when it is one
    /// value's doc ids (a value's bitmap may be most of the docs: copying
    /// it cost as much as intersecting it).
    pub fn shared_union_of<'v>(
        &self,
        values: impl IntoIterator<Item = &'v str>,
    ) -> Result<Arc<RoaringBitmap>, IndexError> {
        Ok(shared_union(self.value_docids(values)?))
    }

    /// The doc ids of each known value of `values` (unknown ones skipped).
    pub fn value_docids<'v>(
        &self,
        values: impl IntoIterator<Item = &'v str>,
    ) -> Result<Vec<Arc<RoaringBitmap>>, IndexError> {
        let mut sets = Vec::new();
        for v in values {
            sets.extend(self.docids(v)?);
        }
        Ok(sets)
    }

    /// The doc ids of `values` among `within`: each value's doc ids
    /// intersected with it, then united (the cost of the containers
    /// `within` has, not of every doc of each value).
    pub fn union_within<'v>(
        &self,
        values: impl IntoIterator<Item = &'v str>,
        within: &RoaringBitmap,
    ) -> Result<RoaringBitmap, IndexError> {
        let mut parts = Vec::new();
        for v in values {
            if let Some(docs) = self.docids(v)? {
                parts.push(Cow::Owned(docs.as_ref() & within));
            }
        }
        Ok(unite(parts))
    }

    /// Decodes every bitmap (used by `verify`).
    pub fn validate_all(&self) -> Result<u64, IndexError> {
        let mut total = 0;
        for i in 0..self.len() {
            let bitmap = deserialize_ids(self.raw_bitmap(i)).map_err(|e| {
                IndexError::corrupt(self.bundle.name(), format!("facet {}: {e}", self.field))
            })?;
            total += bitmap.len();
        }
        Ok(total)
    }

    fn raw_bitmap(&self, i: usize) -> &[u8] {
        let off = self.bitmap_offsets();
        &self.bitmaps()[off[i] as usize..off[i + 1] as usize]
    }
    fn keys(&self) -> &[u8] {
        self.bundle.get(self.keys)
    }
    fn key_offsets(&self) -> &[u64] {
        self.bundle.get(self.key_offsets)
    }
    fn bitmaps(&self) -> &[u8] {
        self.bundle.get(self.bitmaps)
    }
    fn bitmap_offsets(&self) -> &[u64] {
        self.bundle.get(self.bitmap_offsets)
    }
}

/// Offsets start at 0, never decrease and end at `len`.
pub(crate) fn offsets_valid(offsets: &[u64], len: usize) -> bool {
    offsets.first() == Some(&0)
        && offsets.last() == Some(&(len as u64))
        && offsets.windows(2).all(|w| w[0] <= w[1])
}

/// The union of values' doc ids ([`Facet::value_docids`]), shared rather
/// than copied when there is one.
pub fn shared_union(mut sets: Vec<Arc<RoaringBitmap>>) -> Arc<RoaringBitmap> {
    match sets.len() {
        0 => Arc::default(),
        1 => sets.swap_remove(0),
        _ => Arc::new(unite(
            sets.iter().map(|s| Cow::Borrowed(s.as_ref())).collect(),
        )),
    }
}

/// Sets united one at a time, at most; more go through roaring's
/// multi-way union.
const ONE_AT_A_TIME: usize = 4;

/// The union of `sets`. A few are united one at a time into the largest
/// (copied only when borrowed): arrays merge as arrays, a container
/// becomes a bitmap only when it outgrows one. Roaring's multi-way union
/// first makes every container a bitmap and turns the small ones back into
/// arrays at the end, which cost 7–9 % of the server's time on the C1 mix
/// at M (unions of two or three locations or employee counts, 2026-11-29);
/// with many sets, merging arrays one set at a time would cost more.
pub(crate) fn unite(mut sets: Vec<Cow<'_, RoaringBitmap>>) -> RoaringBitmap {
    if sets.len() > ONE_AT_A_TIME {
        return sets.iter().map(|s| s.as_ref()).union();
    }
    let Some(largest) = (0..sets.len()).max_by_key(|&i| sets[i].len()) else {
        return RoaringBitmap::new();
    };
    let mut union = sets.swap_remove(largest).into_owned();
    for set in &sets {
        union |= set.as_ref();
    }
    union
}

#[cfg(test)]
mod doc_ids_tests {
    use super::*;

    fn collected(ids: impl IntoIterator<Item = u32>) -> DocIds {
        let mut doc_ids = DocIds::default();
        ids.into_iter().for_each(|id| {
            doc_ids.add(id);
        });
        doc_ids
    }

    #[test]
    fn short_values_stay_lists_and_long_ones_become_bitmaps() {
        assert!(matches!(collected(0..LIST_MAX as u32), DocIds::List(_)));
        assert!(matches!(collected(0..=LIST_MAX as u32), DocIds::Bitmap(_)));
    }

    #[test]
    fn both_forms_give_the_same_set_in_any_order_with_repeats() {
        let ids: Vec<u32> = (0..3 * LIST_MAX as u32)
            .map(|i| (i * 7919) % 10_000)
            .collect();
        let mut expected: Vec<u32> = ids.clone();
        expected.sort_unstable();
        expected.dedup();
        for take in [1, 10, LIST_MAX, LIST_MAX + 1, ids.len()] {
            let bitmap = collected(ids[..take].iter().copied())
                .into_bitmap()
                .unwrap();
            let mut want = ids[..take].to_vec();
            want.sort_unstable();
            want.dedup();
            assert_eq!(bitmap.iter().collect::<Vec<_>>(), want, "{take} ids");
        }
        let all = collected(ids.iter().copied()).into_bitmap().unwrap();
        assert_eq!(all.iter().collect::<Vec<_>>(), expected);
    }

    #[test]
    fn sparse_values_are_listed_dense_ones_are_bitmaps_both_read_back() {
        let sparse = collected([7, 70_000, 140_000, 5_000_000]);
        let dense = collected(0..50_000);
        for (ids, tag) in [
            (sparse, TAG_LIST),
            (dense, TAG_BITMAP),
            (DocIds::default(), TAG_LIST),
        ] {
            let want = ids.clone().into_bitmap().unwrap();
            let raw = serialize_ids(ids).unwrap();
            assert_eq!(raw[0], tag);
            assert_eq!(deserialize_ids(&raw).unwrap(), want);
        }
        assert!(deserialize_ids(&[TAG_LIST, 1, 2]).is_err(), "ragged list");
        assert!(
            deserialize_ids(&[TAG_LIST, 2, 0, 0, 0, 1, 0, 0, 0]).is_err(),
            "unsorted"
        );
        assert!(deserialize_ids(&[9]).is_err() && deserialize_ids(&[]).is_err());
    }
}

#[cfg(test)]
mod unite_tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// One at a time or multi-way, borrowed or owned, the union is
        /// every set's docs.
        #[test]
        fn unite_is_the_union(
            sets in proptest::collection::vec(
                proptest::collection::btree_set(0u32..300_000, 0..6_000), 0..8),
            dense in proptest::collection::vec(0u32..4, 0..3),
        ) {
            let mut sets: Vec<RoaringBitmap> = sets.into_iter().map(|s| s.into_iter().collect()).collect();
            for key in dense {
                sets.push(RoaringBitmap::from_iter((key << 16)..(key << 16) + 30_000));
            }
            let want: std::collections::BTreeSet<u32> = sets.iter().flatten().collect();
            let borrowed = unite(sets.iter().map(Cow::Borrowed).collect());
            prop_assert_eq!(borrowed.len(), want.len() as u64);
            prop_assert!(borrowed.iter().eq(want.iter().copied()));
            let owned = unite(sets.into_iter().map(Cow::Owned).collect());
            prop_assert_eq!(owned, borrowed);
        }
    }
}
