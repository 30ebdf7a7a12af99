//! The container every index file uses: a *bundle* of named, aligned arrays.
//!
//! ```text
//! offset 0   magic "FUNDSRCH" (8 bytes)
//!        8   format version, u32 LE            (FORMAT_VERSION)
//!       12   file tag, 4 ASCII bytes           ("CMPY", "DEAL", "STOR"…)
//!       16   array 0 bytes, zero-padded to a multiple of 16
//!       ..   array 1 …
//!   dir_off  directory: JSON list of {name, dtype, offset, len, count}
//!   end-32   footer: dir_off u64, dir_len u64, crc32 u32, pad u32, "FUNDEND\0"
//! ```
//!
//! The CRC-32 covers every byte before the footer. Arrays start on 16-byte
//! boundaries, so a reader casts them to `&[u32]`, `&[i64]`, `&[u128]`…
//! in place (through `bytemuck`, no `unsafe`). Higher-level structures
//! (facets, columns, relations, stores, key maps) are naming conventions
//! over arrays of one bundle; see their modules.

use std::collections::HashMap;
use std::fs::File;
use std::io::{self, BufWriter, Seek, Write};
use std::marker::PhantomData;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::mmap::Bytes;
use super::IndexError;

/// Leading magic of every bundle.
pub const MAGIC: &[u8; 8] = b"FUNDSRCH";
/// Trailing magic of every bundle.
pub const END_MAGIC: &[u8; 8] = b"FUNDEND\0";
/// Version of the on-disk format; bumped on any incompatible change
/// (2: the name indexes gained the `pairs` field; 3: their ranked word
/// postings, `ranked.bin`; 4: company vectors for semantic search,
/// `companies.vectors`; 5: record stores zstd-compressed per record; 6: record stores keep one packed span a
/// record, UUID maps no second sorted copy of the UUIDs, key maps are FSTs;
/// 7: records hold entity UUIDs as doc id references, `store.V.refs`;
/// 8: per-round counts of firms and people on deals, `counts.round_*`).
pub const FORMAT_VERSION: u32 = 9;

const HEADER_LEN: u64 = 16;
const FOOTER_LEN: usize = 32;
const ALIGN: u64 = 16;

/// Element type of an array.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Dtype {
    U8,
    I8,
    U32,
    I32,
    I64,
    U64,
    F64,
    U128,
    F32,
}

impl Dtype {
    pub fn width(self) -> usize {
        match self {
            Dtype::U8 | Dtype::I8 => 1,
            Dtype::U32 | Dtype::I32 | Dtype::F32 => 4,
            Dtype::I64 | Dtype::U64 | Dtype::F64 => 8,
            Dtype::U128 => 16,
        }
    }
}

/// Element types that can be stored in a bundle.
pub trait Element: bytemuck::Pod {
    const DTYPE: Dtype;
}

impl Element for u8 {
    const DTYPE: Dtype = Dtype::U8;
}
impl Element for u32 {
    const DTYPE: Dtype = Dtype::U32;
}
impl Element for i8 {
    const DTYPE: Dtype = Dtype::I8;
}
impl Element for f32 {
    const DTYPE: Dtype = Dtype::F32;
}
impl Element for i32 {
    const DTYPE: Dtype = Dtype::I32;
}
impl Element for i64 {
    const DTYPE: Dtype = Dtype::I64;
}
impl Element for u64 {
    const DTYPE: Dtype = Dtype::U64;
}
impl Element for f64 {
    const DTYPE: Dtype = Dtype::F64;
}
impl Element for u128 {
    const DTYPE: Dtype = Dtype::U128;
}

/// One directory entry.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ArrayEntry {
    pub name: String,
    pub dtype: Dtype,
    pub offset: u64,
    pub len: u64,
    pub count: u64,
}

/// Streams arrays into a new bundle file.
pub struct BundleWriter {
    path: PathBuf,
    out: BufWriter<File>,
    crc: crc32fast::Hasher,
    pos: u64,
    entries: Vec<ArrayEntry>,
}

/// A `u8` array being streamed into a bundle.
#[derive(Debug)]
pub struct StreamedArray {
    name: String,
    offset: u64,
}

/// What a finished bundle looks like, for the manifest.
#[derive(Debug, Clone, PartialEq)]
pub struct WrittenFile {
    pub path: PathBuf,
    pub bytes: u64,
    /// CRC-32 of the body (what the footer records).
    pub crc32: u32,
    /// CRC-32 of the whole file, footer included (what the manifest records).
    pub file_crc32: u32,
    pub arrays: Vec<ArrayEntry>,
}

impl BundleWriter {
    /// Creates `path` with a header carrying `tag`.
    pub fn create(path: &Path, tag: [u8; 4]) -> io::Result<BundleWriter> {
        let file = File::create(path)?;
        let mut w = BundleWriter {
            path: path.to_path_buf(),
            out: BufWriter::with_capacity(1 << 20, file),
            crc: crc32fast::Hasher::new(),
            pos: 0,
            entries: Vec::new(),
        };
        w.write_raw(MAGIC)?;
        w.write_raw(&FORMAT_VERSION.to_le_bytes())?;
        w.write_raw(&tag)?;
        Ok(w)
    }

    /// Appends a typed array under `name` (names are unique per bundle).
    pub fn put<T: Element>(&mut self, name: &str, values: &[T]) -> io::Result<()> {
        self.put_bytes_as(
            name,
            T::DTYPE,
            bytemuck::cast_slice(values),
            values.len() as u64,
        )
    }

    /// Appends raw bytes as a `u8` array.
    pub fn put_bytes(&mut self, name: &str, bytes: &[u8]) -> io::Result<()> {
        self.put_bytes_as(name, Dtype::U8, bytes, bytes.len() as u64)
    }

    /// Starts a `u8` array whose bytes are streamed with
    /// [`BundleWriter::stream`] (for data too large to hold in memory).
    pub fn begin_stream(&mut self, name: &str) -> io::Result<StreamedArray> {
        if self.entries.iter().any(|e| e.name == name) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("duplicate array name {name}"),
            ));
        }
        Ok(StreamedArray {
            name: name.to_string(),
            offset: self.pos,
        })
    }

    /// Appends bytes to the array being streamed.
    pub fn stream(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.write_raw(bytes)
    }

    /// Ends a streamed array; no other array may be written while one is open.
    pub fn end_stream(&mut self, array: StreamedArray) -> io::Result<()> {
        self.end_stream_as::<u8>(array)
    }

    /// Ends a streamed array of `T` (its bytes streamed as `T`'s in memory
    /// form, little-endian); fails when they are not a whole number of `T`.
    pub fn end_stream_as<T: Element>(&mut self, array: StreamedArray) -> io::Result<()> {
        let len = self.pos - array.offset;
        let width = T::DTYPE.width() as u64;
        if !len.is_multiple_of(width) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "{}: {len} bytes are not a whole number of {width}-byte values",
                    array.name
                ),
            ));
        }
        self.pad()?;
        self.entries.push(ArrayEntry {
            name: array.name,
            dtype: T::DTYPE,
            offset: array.offset,
            len,
            count: len / width,
        });
        Ok(())
    }

    /// The folder the bundle is written in: where its builders keep
    /// scratch files ([`super::scratch`]) on the same disk.
    pub fn dir(&self) -> &Path {
        self.path.parent().unwrap_or(Path::new("."))
    }

    fn put_bytes_as(
        &mut self,
        name: &str,
        dtype: Dtype,
        bytes: &[u8],
        count: u64,
    ) -> io::Result<()> {
        if self.entries.iter().any(|e| e.name == name) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("duplicate array name {name}"),
            ));
        }
        let offset = self.pos;
        self.write_raw(bytes)?;
        self.pad()?;
        self.entries.push(ArrayEntry {
            name: name.to_string(),
            dtype,
            offset,
            len: bytes.len() as u64,
            count,
        });
        Ok(())
    }

    /// Writes the directory and footer, fsyncs, and reports the file.
    pub fn finish(mut self) -> io::Result<WrittenFile> {
        let dir = serde_json::to_vec(&self.entries)?;
        let dir_off = self.pos;
        self.write_raw(&dir)?;
        let mut footer = Vec::with_capacity(FOOTER_LEN);
        footer.extend_from_slice(&dir_off.to_le_bytes());
        footer.extend_from_slice(&(dir.len() as u64).to_le_bytes());
        let crc = self.crc.clone().finalize();
        footer.extend_from_slice(&crc.to_le_bytes());
        footer.extend_from_slice(&0u32.to_le_bytes());
        footer.extend_from_slice(END_MAGIC);
        self.out.write_all(&footer)?;
        self.crc.update(&footer);
        self.out.flush()?;
        self.out.get_ref().sync_all()?;
        let bytes = self.out.stream_position()?;
        let file_crc32 = self.crc.finalize();
        Ok(WrittenFile {
            path: self.path,
            bytes,
            crc32: crc,
            file_crc32,
            arrays: self.entries,
        })
    }

    fn write_raw(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.out.write_all(bytes)?;
        self.crc.update(bytes);
        self.pos += bytes.len() as u64;
        Ok(())
    }

    fn pad(&mut self) -> io::Result<()> {
        let rem = self.pos % ALIGN;
        if rem != 0 {
            let zeros = [0u8; ALIGN as usize];
            self.write_raw(&zeros[..(ALIGN - rem) as usize])?;
        }
        Ok(())
    }
}

/// A bundle opened for reading.
#[derive(Clone)]
pub struct Bundle {
    name: String,
    bytes: Bytes,
    tag: [u8; 4],
    crc32: u32,
    entries: HashMap<String, ArrayEntry>,
}

impl Bundle {
    /// Maps and validates `path`: magic, version, tag, directory bounds and,
    /// when `check_crc`, the checksum of the whole file.
    pub fn open(path: &Path, tag: [u8; 4], check_crc: bool) -> Result<Bundle, IndexError> {
        let bytes = Bytes::map_file(path).map_err(|e| IndexError::io(path, e))?;
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        Bundle::from_bytes(&name, bytes, tag, check_crc)
    }

    /// Drops the bundle's mapped pages from the resident set
    /// ([`Bytes::release_pages`]).
    pub fn release_pages(&self) -> io::Result<()> {
        self.bytes.release_pages()
    }

    /// Validates a bundle held in memory.
    pub fn from_bytes(
        name: &str,
        bytes: Bytes,
        tag: [u8; 4],
        check_crc: bool,
    ) -> Result<Bundle, IndexError> {
        let corrupt = |why: &str| IndexError::Corrupt {
            file: name.to_string(),
            reason: why.to_string(),
        };
        if bytes.len() < HEADER_LEN as usize + FOOTER_LEN || &bytes[..8] != MAGIC {
            return Err(corrupt("not a fundsearch index file (bad magic)"));
        }
        let version = u32::from_le_bytes(bytes[8..12].try_into().unwrap());
        if version != FORMAT_VERSION {
            return Err(IndexError::Version {
                file: name.to_string(),
                found: version,
                expected: FORMAT_VERSION,
            });
        }
        if bytes[12..16] != tag {
            return Err(corrupt(&format!(
                "wrong file tag {:?}",
                String::from_utf8_lossy(&bytes[12..16])
            )));
        }
        let footer = &bytes[bytes.len() - FOOTER_LEN..];
        if &footer[24..32] != END_MAGIC {
            return Err(corrupt("truncated file (bad end magic)"));
        }
        let dir_off = u64::from_le_bytes(footer[0..8].try_into().unwrap());
        let dir_len = u64::from_le_bytes(footer[8..16].try_into().unwrap());
        let crc32 = u32::from_le_bytes(footer[16..20].try_into().unwrap());
        let body_end = bytes.len() - FOOTER_LEN;
        if dir_off.checked_add(dir_len) != Some(body_end as u64) {
            return Err(corrupt("directory out of bounds"));
        }
        if check_crc && crc32fast::hash(&bytes[..body_end]) != crc32 {
            return Err(corrupt("checksum mismatch"));
        }
        let dir: Vec<ArrayEntry> = serde_json::from_slice(&bytes[dir_off as usize..body_end])
            .map_err(|_| corrupt("unreadable directory"))?;
        let mut entries = HashMap::with_capacity(dir.len());
        for e in dir {
            let in_bounds = e
                .offset
                .checked_add(e.len)
                .is_some_and(|end| end <= dir_off);
            if !in_bounds || e.offset % ALIGN != 0 || e.len != e.count * e.dtype.width() as u64 {
                return Err(corrupt(&format!("array {} out of bounds", e.name)));
            }
            entries.insert(e.name.clone(), e);
        }
        Ok(Bundle {
            name: name.to_string(),
            bytes,
            tag,
            crc32,
            entries,
        })
    }

    /// Recomputes the checksum of the whole file.
    pub fn verify_crc(&self) -> bool {
        let body_end = self.bytes.len() - FOOTER_LEN;
        crc32fast::hash(&self.bytes[..body_end]) == self.crc32
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn tag(&self) -> [u8; 4] {
        self.tag
    }

    pub fn crc32(&self) -> u32 {
        self.crc32
    }

    pub fn len_bytes(&self) -> u64 {
        self.bytes.len() as u64
    }

    /// Directory entries, sorted by name.
    pub fn entries(&self) -> Vec<&ArrayEntry> {
        let mut all: Vec<_> = self.entries.values().collect();
        all.sort_by(|a, b| a.name.cmp(&b.name));
        all
    }

    pub fn has(&self, name: &str) -> bool {
        self.entries.contains_key(name)
    }

    /// The array `name` as a typed slice.
    pub fn array<T: Element>(&self, name: &str) -> Result<&[T], IndexError> {
        let r = self.array_ref::<T>(name)?;
        Ok(self.get(r))
    }

    /// Resolves the array `name` once, for allocation-free access with [`Bundle::get`].
    pub fn array_ref<T: Element>(&self, name: &str) -> Result<ArrayRef<T>, IndexError> {
        let e = self.entries.get(name).ok_or_else(|| IndexError::Corrupt {
            file: self.name.clone(),
            reason: format!("missing array {name}"),
        })?;
        if e.dtype != T::DTYPE {
            return Err(IndexError::Corrupt {
                file: self.name.clone(),
                reason: format!("array {name} has type {:?}", e.dtype),
            });
        }
        let r = ArrayRef {
            offset: e.offset as usize,
            count: e.count as usize,
            _t: PhantomData,
        };
        let raw = &self.bytes[r.offset..r.offset + r.count * T::DTYPE.width()];
        bytemuck::try_cast_slice::<u8, T>(raw).map_err(|_| IndexError::Corrupt {
            file: self.name.clone(),
            reason: format!("array {name} misaligned"),
        })?;
        Ok(r)
    }

    /// The slice behind a reference obtained from this bundle.
    pub fn get<T: Element>(&self, r: ArrayRef<T>) -> &[T] {
        bytemuck::cast_slice(&self.bytes[r.offset..r.offset + r.count * T::DTYPE.width()])
    }
}

/// Where a typed array lives in its bundle (validated when it was resolved).
#[derive(Debug)]
pub struct ArrayRef<T> {
    offset: usize,
    count: usize,
    _t: PhantomData<T>,
}

impl<T> Clone for ArrayRef<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for ArrayRef<T> {}

impl<T> ArrayRef<T> {
    pub fn len(&self) -> usize {
        self.count
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_path(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("fundsearch-format-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join("b.bin")
    }

    fn sample(path: &Path) -> WrittenFile {
        let mut w = BundleWriter::create(path, *b"TEST").unwrap();
        w.put::<u32>("a", &[1, 2, 3]).unwrap();
        w.put_bytes("s", b"hello").unwrap();
        w.put::<i64>("n", &[-5, i64::MIN]).unwrap();
        w.put::<u128>("u", &[u128::MAX, 7]).unwrap();
        w.finish().unwrap()
    }

    #[test]
    fn arrays_round_trip_through_a_file() {
        let path = temp_path("roundtrip");
        let written = sample(&path);
        assert_eq!(written.bytes, std::fs::metadata(&path).unwrap().len());
        assert_eq!(
            written.file_crc32,
            crc32fast::hash(&std::fs::read(&path).unwrap())
        );
        let b = Bundle::open(&path, *b"TEST", true).unwrap();
        assert_eq!(b.array::<u32>("a").unwrap(), &[1, 2, 3]);
        assert_eq!(b.array::<u8>("s").unwrap(), b"hello");
        assert_eq!(b.array::<i64>("n").unwrap(), &[-5, i64::MIN]);
        assert_eq!(b.array::<u128>("u").unwrap(), &[u128::MAX, 7]);
        assert!(b.array::<u64>("a").is_err(), "type is checked");
        assert!(b.array::<u32>("missing").is_err());
        assert_eq!(b.crc32(), written.crc32);
        std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
    }

    #[test]
    fn released_pages_read_back_the_same_bytes() {
        let path = temp_path("release");
        sample(&path);
        let b = Bundle::open(&path, *b"TEST", true).unwrap();
        assert_eq!(b.array::<u32>("a").unwrap(), &[1, 2, 3]);
        b.release_pages().unwrap();
        assert_eq!(b.array::<u32>("a").unwrap(), &[1, 2, 3]);
        assert_eq!(b.array::<u8>("s").unwrap(), b"hello");
        assert!(b.verify_crc(), "every byte reads back after a release");
        std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
    }

    #[test]
    fn corruption_version_and_tag_are_detected() {
        let path = temp_path("corrupt");
        sample(&path);
        let good = std::fs::read(&path).unwrap();
        assert!(matches!(
            Bundle::open(&path, *b"OTHR", true),
            Err(IndexError::Corrupt { .. })
        ));

        let mut flipped = good.clone();
        flipped[20] ^= 0xff;
        let err = Bundle::from_bytes("x", Bytes::from_vec(flipped.clone()), *b"TEST", true)
            .err()
            .unwrap();
        assert!(err.to_string().contains("checksum"), "{err}");
        assert!(Bundle::from_bytes("x", Bytes::from_vec(flipped), *b"TEST", false).is_ok());

        let mut old = good.clone();
        old[8..12].copy_from_slice(&99u32.to_le_bytes());
        let err = Bundle::from_bytes("x", Bytes::from_vec(old), *b"TEST", true)
            .err()
            .unwrap();
        assert!(
            matches!(err, IndexError::Version { found: 99, .. }),
            "{err}"
        );

        for cut in [0, 10, good.len() / 2, good.len() - 1] {
            assert!(
                Bundle::from_bytes("x", Bytes::from_vec(good[..cut].to_vec()), *b"TEST", true)
                    .is_err()
            );
        }
        std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
    }
}
