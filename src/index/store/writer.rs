//! Writing a store: records arrive in any doc order (their UUIDs made
//! references first, if the store has them: [`StoreWriter::with_references`])
//! and are taken in batches. Until [`TRAIN_BYTES`] of them or
//! [`TRAIN_RECORDS`] records have come (or the store ends), each batch is
//! appended, made references, to the training sample, records end to end;
//! then the dictionary is trained on the sample, the sample is compressed
//! and written a batch at a time, and from then on each batch is compressed
//! (in parallel) and streamed into the file. Memory holds the offsets, the
//! sample and one batch of frames: a store writer holds about `TRAIN_BYTES`
//! (plus 12 bytes a sampled record) at its peak, whatever the number of
//! records.
//!
//! A plain store ([`StoreCodec::Plain`]) has no sample, no dictionary and
//! no references: each batch is written as it came.
//!
//! Until 2026-11-28 the whole sample was compressed at once: for a store of
//! small records (e-mails, about 11 bytes) that was 11 million frames, each
//! its own allocation, held twice: a spike of about 1 GB at the end of the
//! 4e6 person stores.

use std::io;
use std::mem;
use std::path::Path;
use std::sync::Arc;

use rayon::prelude::*;

use super::codec::{train, Encoder, Sample, StoreCodec, DICT_DEFAULT, TRAIN_BYTES, TRAIN_RECORDS};
use super::refs::{encode, RefKind, References};
use super::span::Span;
use super::STORE_TAG;
use crate::index::format::{BundleWriter, StreamedArray, WrittenFile};

/// Records compressed together.
const BATCH: usize = 4096;

/// Streams one variant's records, compressed, into its store file.
pub struct StoreWriter {
    out: BundleWriter,
    data: Option<StreamedArray>,
    variant: String,
    spans: Vec<u64>,
    len: u64,
    /// Records not yet taken: one batch at most, as they came.
    held: Vec<(u32, Vec<u8>)>,
    /// Until the dictionary is trained: the records taken so far (made
    /// references), and their doc ids.
    sample: Option<(Vec<u32>, Sample)>,
    /// Set once the dictionary is trained.
    encoder: Option<(Vec<u8>, Encoder)>,
    /// Largest dictionary trained.
    dictionary_max: usize,
    /// Set when records are stored with references: what makes them, and
    /// the kind of the store's entities.
    refs: Option<(Arc<dyn References>, RefKind)>,
}

impl StoreWriter {
    /// A store of variant `variant` at `path` with `docs` records.
    pub fn create(path: &Path, variant: &str, docs: usize) -> io::Result<StoreWriter> {
        let mut out = BundleWriter::create(path, STORE_TAG)?;
        let data = Some(out.begin_stream(&format!("store.{variant}.data"))?);
        Ok(StoreWriter {
            out,
            data,
            variant: variant.to_string(),
            spans: vec![0; docs],
            len: 0,
            held: Vec::new(),
            sample: Some(Default::default()),
            encoder: None,
            dictionary_max: DICT_DEFAULT,
            refs: None,
        })
    }

    /// Stores every indexed entity's UUID of the (JSON) records, which are
    /// those of entities of `kind`, as a reference that `refs` makes (a
    /// plain store keeps its records as they come: no references).
    pub fn with_references(mut self, refs: Arc<dyn References>, kind: RefKind) -> StoreWriter {
        if self.codec() == StoreCodec::Zstd {
            self.refs = Some((refs, kind));
        }
        self
    }

    /// Keeps the records as `codec` says (zstd unless told).
    pub fn with_codec(mut self, codec: StoreCodec) -> StoreWriter {
        if codec == StoreCodec::Plain {
            (self.sample, self.refs) = (None, None);
            self.encoder = Some((Vec::new(), Encoder::Plain));
        }
        self
    }

    /// Trains a dictionary of up to `bytes` ([`DICT_DEFAULT`] unless told).
    pub fn with_dictionary_max(mut self, bytes: usize) -> StoreWriter {
        self.dictionary_max = bytes;
        self
    }

    fn codec(&self) -> StoreCodec {
        match &self.encoder {
            Some((_, Encoder::Plain)) => StoreCodec::Plain,
            _ => StoreCodec::Zstd,
        }
    }

    /// Sets the record of `docid` (each doc at most once).
    pub fn set(&mut self, docid: u32, record: &[u8]) -> io::Result<()> {
        self.held.push((docid, record.to_vec()));
        match self.held.len() >= BATCH {
            true => self.take_batch(),
            false => Ok(()),
        }
    }

    /// Makes the held records references and adds them to the sample, or
    /// compresses and writes them once the dictionary is trained.
    fn take_batch(&mut self) -> io::Result<()> {
        let held = mem::take(&mut self.held);
        let (docs, records) = self.referenced(held);
        match &mut self.sample {
            Some((sampled, sample)) => {
                sampled.extend(docs);
                records.iter().for_each(|r| sample.push(r));
                match sample.bytes() >= TRAIN_BYTES || sampled.len() >= TRAIN_RECORDS {
                    true => self.write_sample(),
                    false => Ok(()),
                }
            }
            None => self.write_frames(&docs, &records),
        }
    }

    /// The records' doc ids and their bytes as stored (with references).
    fn referenced(&self, held: Vec<(u32, Vec<u8>)>) -> (Vec<u32>, Vec<Vec<u8>>) {
        let (docs, records): (Vec<u32>, Vec<Vec<u8>>) = held.into_iter().unzip();
        match &self.refs {
            Some((refs, kind)) => {
                let made = (docs.par_iter().zip(&records))
                    .map(|(&doc, r)| encode(r, refs.as_ref(), (*kind, doc)))
                    .collect();
                (docs, made)
            }
            None => (docs, records),
        }
    }

    /// Trains the dictionary on the sample, then compresses and writes it.
    fn write_sample(&mut self) -> io::Result<()> {
        let Some((docs, sample)) = self.sample.take() else {
            return Ok(());
        };
        let dict = train(&sample, self.dictionary_max);
        self.encoder = Some((dict.clone(), Encoder::new(&dict)));
        let records = sample.records();
        (docs.chunks(BATCH).zip(records.chunks(BATCH)))
            .try_for_each(|(docs, records)| self.write_frames(docs, records))
    }

    /// Compresses `records` and appends their frames.
    fn write_frames<R: AsRef<[u8]> + Sync>(
        &mut self,
        docs: &[u32],
        records: &[R],
    ) -> io::Result<()> {
        let Some((_, encoder)) = &self.encoder else {
            return Err(io::Error::other(
                "store frames written before the dictionary",
            ));
        };
        let frames = encoder.compress_all(records)?;
        for (&doc, frame) in docs.iter().zip(frames) {
            self.spans[doc as usize] = Span::new(self.len, frame.len())?.0;
            self.out.stream(&frame)?;
            self.len += frame.len() as u64;
        }
        Ok(())
    }

    /// Writes the last records, the dictionary, the offsets and the footer.
    pub fn finish(mut self) -> io::Result<WrittenFile> {
        self.take_batch()?;
        self.write_sample()?;
        if let Some(data) = self.data.take() {
            self.out.end_stream(data)?;
        }
        let codec = self.codec();
        let dict = self.encoder.take().map(|(d, _)| d).unwrap_or_default();
        let v = &self.variant;
        self.out.put(&format!("store.{v}.dict"), &dict)?;
        self.out.put(&format!("store.{v}.spans"), &self.spans)?;
        let refs = [self.refs.as_ref().map_or(0, |(_, kind)| 1 + *kind as u8)];
        self.out.put(&format!("store.{v}.refs"), &refs)?;
        self.out.put(&format!("store.{v}.codec"), &[codec as u8])?;
        self.out.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Store, STORE_TAG};
    use super::*;
    use crate::index::format::Bundle;

    /// About 20 MB of JSON-like records: past the training sample, many batches.
    fn records() -> Vec<Vec<u8>> {
        (0..20_000u64)
            .map(|i| {
                let words: String = (0..40)
                    .map(|w| format!("word{} ", (i * 31 + w * 7) % 997))
                    .collect();
                format!(
                    r#"{{"id":{i},"name":"Entity {}","text":"{words}","empty":null}}"#,
                    i % 4999
                )
                .into_bytes()
            })
            .collect()
    }

    /// `recs` written last to first into a fresh store of `docs` docs
    /// (variant `full`) made by `setup`, and the store read back; the
    /// directory is the caller's to remove.
    fn written(
        name: &str,
        recs: &[Vec<u8>],
        docs: usize,
        setup: impl FnOnce(StoreWriter) -> StoreWriter,
    ) -> (std::path::PathBuf, Bundle, Store) {
        let dir = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("x.full.store");
        let mut w = setup(StoreWriter::create(&path, "full", docs).unwrap());
        for d in (0..recs.len()).rev() {
            w.set(d as u32, &recs[d]).unwrap();
        }
        w.finish().unwrap();
        let bundle = Bundle::open(&path, STORE_TAG, true).unwrap();
        let uuids = Arc::new(super::super::refs::NoUuids);
        let store = Store::open(&bundle, "full", docs, uuids).unwrap();
        (dir, bundle, store)
    }

    #[test]
    fn a_trained_store_reads_back_every_record_in_any_write_order() {
        let recs = records();
        let (dir, bundle, store) = written("store-writer", &recs, recs.len() + 1, |w| w);
        assert!(!bundle
            .get(bundle.array_ref::<u8>("store.full.dict").unwrap())
            .is_empty());
        let raw: usize = recs.iter().map(Vec::len).sum();
        let stored = bundle
            .get(bundle.array_ref::<u8>("store.full.data").unwrap())
            .len();
        assert!(stored * 4 < raw, "{stored} bytes for {raw}");
        for (d, r) in recs.iter().enumerate() {
            assert_eq!(&store.get(d as u32).unwrap()[..], &r[..]);
        }
        assert_eq!(
            &store.get(recs.len() as u32).unwrap()[..],
            b"",
            "never set: empty"
        );
        store.check_all().unwrap();
        let again = store.get_many([3, 1, 3]).unwrap();
        assert_eq!(
            again.iter().map(|r| r.to_vec()).collect::<Vec<_>>(),
            vec![recs[3].clone(), recs[1].clone(), recs[3].clone()]
        );
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_store_trains_a_dictionary_of_at_most_its_largest_size() {
        let recs = records();
        let sizes = [64 << 10, DICT_DEFAULT].map(|max| {
            let name = format!("store-dict-{max}");
            let (dir, bundle, store) =
                written(&name, &recs, recs.len(), |w| w.with_dictionary_max(max));
            let dict = bundle.get(bundle.array_ref::<u8>("store.full.dict").unwrap());
            assert!(
                !dict.is_empty() && dict.len() <= max,
                "{} for {max}",
                dict.len()
            );
            assert_eq!(&store.get(7).unwrap()[..], &recs[7][..]);
            std::fs::remove_dir_all(dir).unwrap();
            dict.len()
        });
        assert!(sizes[0] < sizes[1], "{sizes:?}");
    }

    /// Finds every UUID (as the first company): were the writer to make
    /// references, a record holding a UUID would change.
    struct EveryUuid;

    impl References for EveryUuid {
        fn find(&self, _: u128) -> Option<(RefKind, u32)> {
            Some((RefKind::Company, 0))
        }
    }

    #[test]
    fn a_plain_store_keeps_the_records_as_written() {
        let uuid = br#"{"id":"5f0c2d3e-8a7b-4c1d-9e2f-0a1b2c3d4e5f"}"#.to_vec();
        let recs: Vec<Vec<u8>> = records().into_iter().take(9_000).chain([uuid]).collect();
        let (dir, bundle, store) = written("store-plain", &recs, recs.len(), |w| {
            w.with_codec(StoreCodec::Plain)
                .with_references(Arc::new(EveryUuid), RefKind::Deal)
        });
        assert_eq!(store.codec(), StoreCodec::Plain);
        let stored = bundle.get(bundle.array_ref::<u8>("store.full.data").unwrap());
        assert_eq!(stored.len(), recs.iter().map(Vec::len).sum::<usize>());
        for (d, r) in recs.iter().enumerate() {
            assert_eq!(&store.get(d as u32).unwrap()[..], &r[..]);
        }
        store.check_all().unwrap();
        std::fs::remove_dir_all(dir).unwrap();
    }
}
