//! [`Table`]: the rows of one kind of fact, packed.
//!
//! A build holds every row of a dump at once (companies, deals, investors,
//! people), so the per-row cost decides how large a dump fits in memory. A
//! `Vec<PersonFacts>` pays a fixed struct of about 200 bytes plus a heap
//! allocation per string and list; a table pays the row's compact encoding
//! and 20 bytes of bookkeeping (4 without an id):
//!
//! - `ids`: each row's UUID (16 B), the one field sorts and key maps need
//!   for every row, so it is read without decoding (facts only: the derived
//!   aggregates, packed the same way, have none);
//! - `starts`: where each row begins in its chunk (4 B), and the first row
//!   of each chunk (`chunk_rows`, a few hundred at most: a row's chunk is
//!   found by binary search);
//! - `chunks`: arenas of at most [`CHUNK_BYTES`], each row whole in one, in
//!   serde's compact binary form (postcard: varint integers, enums as their
//!   index, dates as day numbers, strings as length + bytes).
//!
//! Chunks are never reallocated once full, so filling a table never copies
//! what it holds (a single growing arena would briefly need twice its size).
//! Reading a row decodes it into an owned value: callers that need a row
//! several times keep the decoded value.
//!
//! **Spilling.** Tables made with a shared [`SpillBudget`] hold full chunks
//! in memory only while all their tables together hold less than the
//! budget; past it, each full chunk is appended to the table's spill file
//! (`facts-N.spill` in the budget's folder: the chunks' bytes, nothing
//! else, valid for the life of the build) and its rows are read back with
//! one positioned read each. The operating system's page cache keeps hot
//! spilled rows fast without counting them in the process's memory. Ids
//! and starts (20 bytes a row) always stay in memory.

use std::cell::RefCell;
use std::fs::File;
use std::marker::PhantomData;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde::Serialize;
use uuid::Uuid;

/// The largest arena of a table; a row is never split across two.
pub const CHUNK_BYTES: usize = 16 << 20;

/// A row kind that can be packed: serialisable, with or without an id.
pub trait Row: Serialize + DeserializeOwned {
    /// The row's id, kept beside the packed bytes so that it is read without
    /// decoding; `None` for rows without one (the derived aggregates), which
    /// then cost only their encoding and start. A table's rows either all
    /// have an id or none has.
    fn id(&self) -> Option<Uuid>;
}

/// How many bytes of full chunks the tables sharing it may hold in memory,
/// and where they spill the rest.
#[derive(Debug)]
pub struct SpillBudget {
    dir: PathBuf,
    limit: u64,
    held: AtomicU64,
    files: AtomicU64,
}

impl SpillBudget {
    /// Tables sharing this budget hold at most `limit` bytes of full chunks
    /// in memory and spill into `dir` (created when first needed).
    pub fn new(dir: &Path, limit: u64) -> Arc<SpillBudget> {
        Arc::new(SpillBudget {
            dir: dir.to_path_buf(),
            limit,
            held: AtomicU64::new(0),
            files: AtomicU64::new(0),
        })
    }

    /// The folder of the spill files.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Bytes of full chunks held in memory now.
    pub fn held(&self) -> u64 {
        self.held.load(Ordering::Relaxed)
    }

    fn new_file(&self) -> std::io::Result<File> {
        std::fs::create_dir_all(&self.dir)?;
        let n = self.files.fetch_add(1, Ordering::Relaxed);
        File::options()
            .read(true)
            .write(true)
            .create_new(true)
            .open(self.dir.join(format!("facts-{n}.spill")))
    }
}

/// A chunk of rows: in memory, or at `at` in the table's spill file.
enum Chunk {
    Held(Vec<u8>),
    Spilled { at: u64, len: u64 },
}

/// A table's part of a budget: what it counts against it, where it spills.
struct Spill {
    budget: Arc<SpillBudget>,
    file: Option<File>,
    /// Bytes in the spill file.
    bytes: u64,
    /// Bytes of held chunks counted against the budget.
    counted: u64,
    /// Chunks before this one are retired (counted or spilled).
    retired: usize,
}

/// Rows of one kind, packed; see the module docs.
pub struct Table<T> {
    /// Shared once the table is filled ([`Table::shared_ids`]).
    ids: Arc<Vec<Uuid>>,
    starts: Vec<u32>,
    /// The first row of each chunk.
    chunk_rows: Vec<u32>,
    chunks: Vec<Chunk>,
    spill: Option<Spill>,
    _rows: PhantomData<fn() -> T>,
}

impl<T> Default for Table<T> {
    fn default() -> Table<T> {
        Table {
            ids: Arc::default(),
            starts: Vec::new(),
            chunk_rows: Vec::new(),
            chunks: Vec::new(),
            spill: None,
            _rows: PhantomData,
        }
    }
}

impl<T> std::fmt::Debug for Table<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("rows", &self.starts.len())
            .field("bytes", &self.packed_bytes())
            .field("spilled", &self.spilled_bytes())
            .finish()
    }
}

thread_local! {
    /// The bytes of a spilled row being decoded.
    static READ_BUFFER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

impl<T: Row> Table<T> {
    /// An empty table whose full chunks count against `budget`.
    pub fn spilling(budget: &Arc<SpillBudget>) -> Table<T> {
        let mut table = Table::default();
        table.spill = Some(Spill {
            budget: budget.clone(),
            file: None,
            bytes: 0,
            counted: 0,
            retired: 0,
        });
        table
    }

    /// Appends `row`; its row number is the previous `len()`.
    pub fn push(&mut self, row: &T) -> std::io::Result<()> {
        let encoded = postcard::to_stdvec(row).expect("facts always encode");
        let (chunks, rows) = (self.chunks.len(), self.starts.len() as u32);
        let chunk = self.chunk_with_room(encoded.len())?;
        let start = chunk.len() as u32;
        chunk.extend_from_slice(&encoded);
        if self.chunks.len() > chunks {
            self.chunk_rows.push(rows);
        }
        self.starts.push(start);
        if let Some(id) = row.id() {
            Arc::make_mut(&mut self.ids).push(id);
        }
        Ok(())
    }

    /// The row at `row`, decoded.
    pub fn get(&self, row: u32) -> T {
        let chunk = self.chunk_rows.partition_point(|&first| first <= row) - 1;
        let offset = self.starts[row as usize] as u64;
        match &self.chunks[chunk] {
            Chunk::Held(bytes) => decode(&bytes[offset as usize..]),
            Chunk::Spilled { at, len } => {
                let next_chunk = self.chunk_rows.get(chunk + 1).copied();
                let end = match self.starts.get(row as usize + 1) {
                    Some(&next) if Some(row + 1) != next_chunk => next as u64,
                    _ => *len,
                };
                self.read_spilled(at + offset, (end - offset) as usize)
            }
        }
    }

    fn read_spilled(&self, at: u64, len: usize) -> T {
        let file = self.spill.as_ref().and_then(|s| s.file.as_ref());
        let file = file.expect("a spilled chunk has a spill file");
        READ_BUFFER.with_borrow_mut(|buf| {
            buf.resize(len, 0);
            file.read_exact_at(buf, at)
                .unwrap_or_else(|e| panic!("reading the indexer's spill file: {e}"));
            decode(buf)
        })
    }

    /// Every row in row order, decoded one at a time.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = T> + '_ {
        (0..self.len() as u32).map(|r| self.get(r))
    }

    /// Every row decoded at once (tests and small tables).
    pub fn to_vec(&self) -> Vec<T> {
        self.iter().collect()
    }

    fn chunk_with_room(&mut self, bytes: usize) -> std::io::Result<&mut Vec<u8>> {
        let fits =
            matches!(self.chunks.last(), Some(Chunk::Held(c)) if c.len() + bytes <= c.capacity());
        if !fits {
            self.retire_last_chunk()?;
            let chunk = Vec::with_capacity(bytes.max(CHUNK_BYTES));
            self.chunks.push(Chunk::Held(chunk));
        }
        match self.chunks.last_mut() {
            Some(Chunk::Held(chunk)) => Ok(chunk),
            _ => unreachable!("a held chunk was just ensured"),
        }
    }

    /// The last chunk is full: it counts against the budget, and past the
    /// budget it goes to the spill file.
    fn retire_last_chunk(&mut self) -> std::io::Result<()> {
        let chunks = self.chunks.len();
        let (Some(spill), Some(Chunk::Held(bytes))) = (&mut self.spill, self.chunks.last_mut())
        else {
            return Ok(());
        };
        if spill.retired == chunks {
            return Ok(());
        }
        spill.retired = chunks;
        let size = bytes.len() as u64;
        if spill.budget.held.fetch_add(size, Ordering::Relaxed) + size <= spill.budget.limit {
            bytes.shrink_to_fit();
            spill.counted += size;
            return Ok(());
        }
        spill.budget.held.fetch_sub(size, Ordering::Relaxed);
        if spill.file.is_none() {
            spill.file = Some(spill.budget.new_file()?);
        }
        let file = spill.file.as_ref().expect("just opened");
        file.write_all_at(bytes, spill.bytes)?;
        let at = spill.bytes;
        spill.bytes += size;
        *self.chunks.last_mut().expect("the last chunk") = Chunk::Spilled { at, len: size };
        Ok(())
    }

    /// Ends filling: the last chunk is retired like the others.
    pub fn finish(mut self) -> std::io::Result<Table<T>> {
        self.retire_last_chunk()?;
        Ok(self)
    }
}

fn decode<T: DeserializeOwned>(bytes: &[u8]) -> T {
    let (value, _) = postcard::take_from_bytes(bytes).expect("a table decodes what it encoded");
    value
}

impl<T> Table<T> {
    pub fn len(&self) -> usize {
        self.starts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }

    /// The id of `row`, without decoding it (rows with ids only).
    pub fn id(&self, row: u32) -> Uuid {
        self.ids[row as usize]
    }

    /// Every row's id, in row order (empty for rows without ids).
    pub fn ids(&self) -> &[Uuid] {
        &self.ids
    }

    /// [`Table::ids`], shared with whatever outlives a borrow of the table
    /// (the build's references). Rows pushed after this copy the ids once.
    pub fn shared_ids(&self) -> Arc<Vec<Uuid>> {
        self.ids.clone()
    }

    /// Bytes of the encoded rows, held or spilled (not counting ids and starts).
    pub fn packed_bytes(&self) -> u64 {
        let held: usize = self
            .chunks
            .iter()
            .map(|c| match c {
                Chunk::Held(bytes) => bytes.len(),
                Chunk::Spilled { .. } => 0,
            })
            .sum();
        held as u64 + self.spilled_bytes()
    }

    /// Bytes of the encoded rows in the spill file.
    pub fn spilled_bytes(&self) -> u64 {
        self.spill.as_ref().map_or(0, |s| s.bytes)
    }
}

impl<T> Drop for Table<T> {
    fn drop(&mut self) {
        if let Some(spill) = &self.spill {
            spill
                .budget
                .held
                .fetch_sub(spill.counted, Ordering::Relaxed);
        }
    }
}

impl<T: Row> FromIterator<T> for Table<T> {
    fn from_iter<I: IntoIterator<Item = T>>(rows: I) -> Table<T> {
        let mut table = Table::default();
        for row in rows {
            table
                .push(&row)
                .expect("a table without a budget never spills");
        }
        table
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde::Deserialize;

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    struct Thing {
        id: Uuid,
        name: Box<str>,
        tags: Vec<u32>,
        size: Option<f64>,
    }

    impl Row for Thing {
        fn id(&self) -> Option<Uuid> {
            Some(self.id)
        }
    }

    fn thing(n: u128, name: &str, tags: Vec<u32>, size: Option<f64>) -> Thing {
        Thing {
            id: Uuid::from_u128(n),
            name: name.into(),
            tags,
            size,
        }
    }

    proptest! {
        #[test]
        fn rows_come_back_as_pushed(rows in prop::collection::vec(
            (any::<u128>(), ".{0,40}", prop::collection::vec(any::<u32>(), 0..6), any::<Option<f64>>()),
            0..200,
        )) {
            let rows: Vec<Thing> = rows
                .into_iter()
                .map(|(n, name, tags, size)| thing(n, &name, tags, size.filter(|s| !s.is_nan())))
                .collect();
            let table: Table<Thing> = rows.iter().cloned().collect();
            prop_assert_eq!(table.len(), rows.len());
            prop_assert_eq!(table.to_vec(), rows.clone());
            for (r, row) in rows.iter().enumerate().rev() {
                prop_assert_eq!(table.id(r as u32), row.id);
                prop_assert_eq!(&table.get(r as u32), row);
            }
        }
    }

    #[test]
    fn rows_never_straddle_chunks_and_big_rows_get_their_own() {
        let mut table = Table::default();
        let big = "x".repeat(CHUNK_BYTES / 3);
        for n in 0..7 {
            table.push(&thing(n, &big, vec![n as u32], None)).unwrap();
        }
        let huge = "y".repeat(CHUNK_BYTES + 10);
        table.push(&thing(99, &huge, vec![], Some(1.5))).unwrap();
        table.push(&thing(100, "small", vec![1, 2], None)).unwrap();
        assert!(table.chunks.len() >= 4, "{} chunks", table.chunks.len());
        assert_eq!(table.spilled_bytes(), 0);
        for n in 0..7 {
            assert_eq!(table.get(n).tags, vec![n]);
        }
        assert_eq!(table.get(7).name.len(), CHUNK_BYTES + 10);
        assert_eq!(table.get(8).name.as_ref(), "small");
    }

    #[test]
    fn a_row_costs_its_encoding_not_a_struct_and_allocations() {
        let table: Table<Thing> = (0..1000)
            .map(|n| thing(n, "Acme Robotics", vec![3, 300], Some(2.5e6)))
            .collect();
        // id 1 + 16, name 1 + 13, tags 1 + 1 + 2 (varints), size 1 + 8
        assert_eq!(table.packed_bytes(), 1000 * 44);
    }

    fn spill_dir(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("fundsearch-spill-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    fn filled(budget: &Arc<SpillBudget>, rows: &[Thing]) -> Table<Thing> {
        let mut table = Table::spilling(budget);
        rows.iter().for_each(|r| table.push(r).unwrap());
        table.finish().unwrap()
    }

    #[test]
    fn past_the_budget_chunks_spill_and_read_back_the_same() {
        let dir = spill_dir("budget");
        let long = "n".repeat(CHUNK_BYTES / 5);
        let rows: Vec<Thing> = (0..23)
            .map(|n| thing(n, &format!("{n}{long}"), vec![n as u32; n as usize], None))
            .collect();
        let budget = SpillBudget::new(&dir, 3 * CHUNK_BYTES as u64);
        let first = filled(&budget, &rows[..12]);
        let second = filled(&budget, &rows[12..]);
        assert!(budget.held() <= 3 * CHUNK_BYTES as u64);
        assert_eq!(first.spilled_bytes(), 0, "the first table fits");
        assert!(second.spilled_bytes() > 0, "the second is past the budget");
        assert_eq!(first.to_vec(), rows[..12].to_vec());
        for (r, row) in rows[12..].iter().enumerate().rev() {
            assert_eq!(&second.get(r as u32), row);
        }
        drop((first, second));
        assert_eq!(budget.held(), 0, "dropped tables give their share back");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    proptest! {
        #[test]
        fn with_no_budget_every_row_is_read_from_the_spill_file(
            names in prop::collection::vec(".{0,30}", 1..100),
        ) {
            let dir = spill_dir("zero");
            let rows: Vec<Thing> = names
                .iter()
                .enumerate()
                .map(|(n, name)| thing(n as u128, name, vec![n as u32], Some(n as f64)))
                .collect();
            let table = filled(&SpillBudget::new(&dir, 0), &rows);
            prop_assert_eq!(table.spilled_bytes(), table.packed_bytes());
            prop_assert_eq!(table.to_vec(), rows);
            std::fs::remove_dir_all(&dir).unwrap();
        }
    }
}
