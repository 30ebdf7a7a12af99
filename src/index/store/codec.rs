//! The record codec. Every record is one zstd frame (magic number, content
//! size, no checksum: the file's CRC-32 covers the bytes; no dictionary id:
//! a store has one dictionary), compressed against a dictionary trained on
//! the store's own first records (`zstd`'s trainer). A record of a few
//! kilobytes shares most of its keys and phrases with every other record of
//! its variant, so the dictionary carries what per-record frames could not,
//! and a record is still decompressed alone. An empty record is stored as
//! zero bytes, no frame. A store whose sample is too small to train on (a
//! small catalogue, a test fixture) gets an empty dictionary, and its frames
//! are plain zstd.
//!
//! A store's dictionary is at most 1 MiB ([`DICT_DEFAULT`]), people's
//! full records' 4 MiB ([`DICT_MAX`]): where a larger one saves little
//! space, it costs time, as most of a record's bytes are matches copied
//! out of the dictionary, at random places in it. With 4 MiB dictionaries
//! everywhere, more than a core's L2 holds (1 MiB or 2 MiB on the machines
//! measured), a page of company records stalled on those loads (17 % of
//! the HTTP server's CPU at M sat in the `memmove` of such matches).
//!
//! zstd has a decoder that prefetches each match's source a few sequences
//! ahead, and picks it for a dictionary it takes to be *cold*: one that
//! the context did not use last. The decoder makes every dictionary look
//! cold ([`forget_dictionary`]) so that the prefetching decoder runs.

use std::borrow::Cow;
use std::cell::RefCell;
use std::io;

use rayon::prelude::*;
use zstd::zstd_safe::{self, CCtx, CDict, CParameter, DCtx, DDict};

/// How a store keeps its records: the one byte of its `store.V.codec`
/// array (a store without the array, written before it existed, is zstd).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum StoreCodec {
    /// One zstd frame a record, against the store's trained dictionary.
    #[default]
    Zstd = 0,
    /// The records' bytes as rendered.
    Plain = 1,
}

impl StoreCodec {
    /// Every codec with its name on the command line.
    pub const NAMES: [(&'static str, StoreCodec); 2] =
        [("zstd", StoreCodec::Zstd), ("none", StoreCodec::Plain)];

    /// The codec named `name` (one of [`StoreCodec::NAMES`]).
    pub fn named(name: &str) -> Option<StoreCodec> {
        Self::NAMES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, c)| c)
    }

    /// The codec stored as `tag`.
    pub fn from_tag(tag: u8) -> Option<StoreCodec> {
        Self::NAMES
            .iter()
            .map(|&(_, c)| c)
            .find(|&c| c as u8 == tag)
    }
}

/// Compression level: with a 4 MiB dictionary, level 15 frames of people
/// records are 5–6 % smaller than level 9's for 2.6 times the compression
/// time; level 19 takes 10 times level 15's.
pub const LEVEL: i32 = 15;

/// Bytes of records sampled from the front of a store to train its
/// dictionary (32 samples a dictionary byte).
pub const TRAIN_BYTES: usize = 128 << 20;

/// Most records sampled: a store of small records (e-mails) stops
/// sampling here rather than hold 12 bytes of bookkeeping for each of
/// millions of them (above the 3 million people of M, so that its stores
/// are as before).
pub const TRAIN_RECORDS: usize = 4 << 20;

/// Largest dictionary, for the stores that ask for it (people's full
/// records; every other store's is [`DICT_DEFAULT`]). Measured on M stores
/// (a dictionary trained on 40,000 records, frames of 20,000 others):
/// 1 MiB frames are 13–19 % smaller than with zstd's default 112 KiB for
/// the full records (people, deals, companies; 0.9–1.9 KB each) and 5 %
/// for cards, as fast to decompress:
/// records share more long phrases (places, industries, employers, round
/// descriptions) than a small dictionary holds. With UUIDs as references
/// (format v7), 4 MiB (trained on 100,000 S person records, 157 MB)
/// shrinks level-15 frames by another 6 % (174 → 163 bytes) and costs
/// about 2 µs more a record to decompress (2.3 → 4.3 µs, measured with a
/// 1 MiB L2 that the dictionary no longer fits).
pub const DICT_MAX: usize = 4 << 20;

/// Largest dictionary of every other store: one that a core's L2 holds
/// (2 MiB on the machine measured). A whole M index built with 1 MiB
/// dictionaries instead of 4 MiB (2026-12-05, prefetching decoder, below)
/// read C1's pages about 0.2 µs a company record faster (99 → 94 µs a
/// page of 25; C1's and C2's hydrated means 5–6 % lower over five
/// alternations), and its stores' sizes changed by: people's full records
/// +4.3 % (22.7 MB), companies' +1.9 %, deals' +0.5 %, e-mails −0.9 %,
/// the investors' full records −44 % (a store of 50,000 records, whose
/// 4 MiB dictionary was a third of it). Only people's full records gain
/// enough from 4 MiB to keep it.
pub const DICT_DEFAULT: usize = 1 << 20;

/// Fewer sampled records than this train no dictionary.
const MIN_SAMPLES: usize = 32;

/// A frame may not declare more than this (a corrupt header must not
/// allocate gigabytes).
const MAX_RECORD: u64 = 64 << 20;

/// Records compressed by one context in a batch.
const CHUNK: usize = 64;

/// Records end to end, as the trainer reads them: a store's first
/// records, held until its dictionary is trained.
#[derive(Debug, Default)]
pub struct Sample {
    bytes: Vec<u8>,
    /// Where each record ends in `bytes`.
    ends: Vec<usize>,
}

impl Sample {
    pub fn push(&mut self, record: &[u8]) {
        self.bytes.extend_from_slice(record);
        self.ends.push(self.bytes.len());
    }

    pub fn bytes(&self) -> usize {
        self.bytes.len()
    }

    /// The records, in the order pushed.
    pub fn records(&self) -> Vec<&[u8]> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts
            .zip(&self.ends)
            .map(|(s, &e)| &self.bytes[s..e])
            .collect()
    }
}

/// Trains a dictionary of at most `max` bytes on the sample's records;
/// empty when they are too few or too small for the trainer.
pub fn train(sample: &Sample, max: usize) -> Vec<u8> {
    let sizes: Vec<usize> = sample
        .records()
        .iter()
        .map(|r| r.len())
        .filter(|&n| n > 0)
        .collect();
    let total = sample.bytes();
    if sizes.len() < MIN_SAMPLES || total < 64 * 1024 {
        return Vec::new();
    }
    zstd::dict::from_continuous(&sample.bytes, &sizes, max.min(total / 16)).unwrap_or_default()
}

/// Compresses records against one dictionary, or keeps them plain.
pub enum Encoder {
    Zstd(Option<CDict<'static>>),
    Plain,
}

impl Encoder {
    /// A zstd encoder with `dict` (empty: none).
    pub fn new(dict: &[u8]) -> Encoder {
        Encoder::Zstd((!dict.is_empty()).then(|| CDict::create(dict, LEVEL)))
    }

    /// Every record made its frame (compressed in parallel), in order; a
    /// plain record is its own frame, borrowed.
    pub fn compress_all<'r, R: AsRef<[u8]> + Sync>(
        &self,
        records: &'r [R],
    ) -> io::Result<Vec<Cow<'r, [u8]>>> {
        if let Encoder::Plain = self {
            return Ok(records.iter().map(|r| Cow::Borrowed(r.as_ref())).collect());
        }
        let chunks: Vec<Vec<Vec<u8>>> = records
            .par_chunks(CHUNK)
            .map(|chunk| {
                let mut cctx = self.context()?;
                chunk
                    .iter()
                    .map(|r| compress(&mut cctx, r.as_ref()))
                    .collect()
            })
            .collect::<io::Result<_>>()?;
        Ok(chunks.into_iter().flatten().map(Cow::Owned).collect())
    }

    fn context(&self) -> io::Result<CCtx<'_>> {
        let mut cctx = CCtx::create();
        cctx.set_parameter(CParameter::DictIdFlag(false))
            .map_err(zstd_error)?;
        match self {
            Encoder::Zstd(Some(dict)) => cctx.ref_cdict(dict).map_err(zstd_error)?,
            _ => cctx
                .set_parameter(CParameter::CompressionLevel(LEVEL))
                .map_err(zstd_error)?,
        };
        Ok(cctx)
    }
}

fn compress(cctx: &mut CCtx<'_>, record: &[u8]) -> io::Result<Vec<u8>> {
    if record.is_empty() {
        return Ok(Vec::new());
    }
    let mut frame = Vec::with_capacity(zstd_safe::compress_bound(record.len()));
    cctx.compress2(&mut frame, record).map_err(zstd_error)?;
    frame.shrink_to_fit();
    Ok(frame)
}

fn zstd_error(code: usize) -> io::Error {
    io::Error::other(format!("zstd: {}", zstd_safe::get_error_name(code)))
}

/// A frame of no content (single segment, one empty last block).
const EMPTY_FRAME: [u8; 9] = [0x28, 0xb5, 0x2f, 0xfd, 0x20, 0x00, 0x01, 0x00, 0x00];

/// Makes `dctx` forget the dictionary it last used, so that zstd takes the
/// next one as cold and decodes its frame with the decoder that prefetches
/// match sources (`ZSTD_decompressSequencesLong`). Decompressing a frame
/// without a dictionary clears the context's record of it; an empty frame
/// costs about 0.1 µs. C1 at M, 1,000 requests × 3, two pairs: the sum of
/// each request's best (25 hydrated records a page) 310.7 → 277.3 ms, its
/// records' part about 18 % faster.
fn forget_dictionary(dctx: &mut DCtx<'static>) {
    let mut nothing = Vec::new();
    let forgotten = dctx.decompress(&mut nothing, &EMPTY_FRAME);
    debug_assert_eq!(forgotten, Ok(0));
}

thread_local! {
    /// One decompression context per thread, shared by every store.
    static DCTX: RefCell<DCtx<'static>> = RefCell::new(DCtx::create());
}

/// Decompresses the frames of one store.
pub enum Decoder {
    Zstd(Option<DDict<'static>>),
    Plain,
}

impl Decoder {
    /// A decoder for frames made by `codec`, zstd's against `dict` (empty:
    /// no dictionary).
    pub fn new(codec: StoreCodec, dict: &[u8]) -> Result<Decoder, String> {
        Ok(match (codec, dict.is_empty()) {
            (StoreCodec::Plain, _) => Decoder::Plain,
            (StoreCodec::Zstd, true) => Decoder::Zstd(None),
            (StoreCodec::Zstd, false) => Decoder::Zstd(Some(
                DDict::try_create(dict).ok_or("unreadable dictionary")?,
            )),
        })
    }

    /// The record in `frame`.
    pub fn decompress(&self, frame: &[u8]) -> Result<Vec<u8>, String> {
        let dict = match self {
            _ if frame.is_empty() => return Ok(Vec::new()),
            Decoder::Plain => return Ok(frame.to_vec()),
            Decoder::Zstd(dict) => dict,
        };
        let size = match zstd_safe::get_frame_content_size(frame) {
            Ok(Some(n)) if n <= MAX_RECORD => n as usize,
            _ => return Err("bad frame header".into()),
        };
        let mut out = Vec::with_capacity(size);
        let written = DCTX.with(|dctx| {
            let mut dctx = dctx.borrow_mut();
            match dict {
                Some(dict) => {
                    forget_dictionary(&mut dctx);
                    dctx.decompress_using_ddict(&mut out, frame, dict)
                }
                None => dctx.decompress(&mut out, frame),
            }
        });
        match written {
            Ok(n) if n == size => Ok(out),
            Ok(n) => Err(format!("frame holds {n} bytes, its header says {size}")),
            Err(code) => Err(format!("zstd: {}", zstd_safe::get_error_name(code))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(records: &[Vec<u8>]) -> Sample {
        let mut s = Sample::default();
        records.iter().for_each(|r| s.push(r));
        s
    }

    #[test]
    fn the_empty_frame_is_what_zstd_makes_of_nothing() {
        let mut frame = Vec::with_capacity(64);
        let mut cctx = CCtx::create();
        cctx.set_parameter(CParameter::ContentSizeFlag(true))
            .unwrap();
        cctx.compress2(&mut frame, b"").unwrap();
        let mut out = Vec::new();
        assert_eq!(zstd_safe::decompress(&mut out, &EMPTY_FRAME), Ok(0));
        assert_eq!(frame, EMPTY_FRAME);
    }

    #[test]
    fn a_sample_gives_its_records_back() {
        let recs = vec![b"ab".to_vec(), Vec::new(), b"cde".to_vec()];
        let s = sample(&recs);
        assert_eq!(s.records(), vec![&b"ab"[..], b"", b"cde"]);
        assert_eq!(s.bytes(), 5);
    }

    fn records(n: usize) -> Vec<Vec<u8>> {
        (0..n)
            .map(|i| {
                format!(r#"{{"id":"{i:08}","name":"Company {}","industries":["software","fintech"],"total_raised":{}}}"#, i * 7919 % 1000, i * 31)
                    .into_bytes()
            })
            .collect()
    }

    #[test]
    fn frames_round_trip_with_and_without_a_dictionary() {
        let recs = records(4000);
        let dict = train(&sample(&recs), DICT_MAX);
        assert!(!dict.is_empty(), "4,000 records train a dictionary");
        for dict in [dict, Vec::new()] {
            let frames = Encoder::new(&dict).compress_all(&recs).unwrap();
            let decoder = Decoder::new(StoreCodec::Zstd, &dict).unwrap();
            for (r, f) in recs.iter().zip(&frames) {
                assert_eq!(&decoder.decompress(f).unwrap(), r);
            }
        }
    }

    #[test]
    fn plain_frames_are_the_records() {
        let recs = records(100);
        let frames = Encoder::Plain.compress_all(&recs).unwrap();
        assert_eq!(
            frames,
            recs.iter().map(|r| r.as_slice()).collect::<Vec<_>>()
        );
        assert!(
            frames.iter().all(|f| matches!(f, Cow::Borrowed(_))),
            "not copied"
        );
        let decoder = Decoder::new(StoreCodec::Plain, b"ignored").unwrap();
        assert_eq!(decoder.decompress(&frames[7]).unwrap(), recs[7]);
    }

    #[test]
    fn codecs_round_trip_through_their_names_and_tags() {
        for (name, codec) in StoreCodec::NAMES {
            assert_eq!(StoreCodec::named(name), Some(codec));
            assert_eq!(StoreCodec::from_tag(codec as u8), Some(codec));
        }
        assert_eq!(
            (StoreCodec::named("lz4"), StoreCodec::from_tag(9)),
            (None, None)
        );
    }

    #[test]
    fn a_dictionary_shrinks_small_records() {
        let recs = records(4000);
        let dict = train(&sample(&recs), DICT_MAX);
        let size = |d: &[u8]| -> usize {
            Encoder::new(d)
                .compress_all(&recs)
                .unwrap()
                .iter()
                .map(|f| f.len())
                .sum()
        };
        let raw: usize = recs.iter().map(Vec::len).sum();
        assert!(size(&dict) * 3 < raw, "{} of {raw}", size(&dict));
        assert!(size(&dict) < size(&[]));
    }

    #[test]
    fn empty_records_are_empty_frames_and_few_samples_train_nothing() {
        let empty = [Vec::new()];
        let frames = Encoder::new(&[]).compress_all(&empty).unwrap();
        assert_eq!(frames, vec![&b""[..]]);
        let decoder = Decoder::new(StoreCodec::Zstd, &[]).unwrap();
        assert_eq!(decoder.decompress(&[]).unwrap(), b"");
        assert!(train(&sample(&records(10)), DICT_MAX).is_empty());
    }

    #[test]
    fn corrupt_frames_are_errors() {
        let recs = records(100);
        let frames = Encoder::new(&[]).compress_all(&recs).unwrap();
        let decoder = Decoder::new(StoreCodec::Zstd, &[]).unwrap();
        let frame = &frames[0];
        assert!(decoder.decompress(&frame[..frame.len() / 2]).is_err());
        assert!(decoder.decompress(b"not a frame").is_err());
    }
}
