//! [`Table`]: the rows of one kind of fact, packed.
//!
//! A build holds every row of a dump at once (companies, deals, investors,
//! people), so the per-row cost decides how large a dump fits in memory. A
//! `Vec<PersonFacts>` pays a fixed struct of about 200 bytes plus a heap
//! allocation per string and list; a table pays the row's compact encoding
//! and nine bytes of bookkeeping:
//!
//! - `ids`: each row's UUID (16 B), the one field sorts and key maps need
//!   for every row, so it is read without decoding;
//! - `starts`: where each row begins, `chunk << 32 | offset` (8 B);
//! - `chunks`: arenas of at most [`CHUNK_BYTES`], each row whole in one, in
//!   serde's compact binary form (postcard: varint integers, enums as their
//!   index, dates as day numbers, strings as length + bytes).
//!
//! Chunks are never reallocated once full, so filling a table never copies
//! what it holds (a single growing arena would briefly need twice its size).
//! Reading a row decodes it into an owned value: callers that need a row
//! several times keep the decoded value.

use std::marker::PhantomData;

use serde::de::DeserializeOwned;
use serde::Serialize;
use uuid::Uuid;

/// The largest arena of a table; a row is never split across two.
pub const CHUNK_BYTES: usize = 64 << 20;

/// A row kind that can be packed: serialisable, with an id.
pub trait Row: Serialize + DeserializeOwned {
    fn id(&self) -> Uuid;
}

/// Rows of one kind, packed; see the module docs.
pub struct Table<T> {
    ids: Vec<Uuid>,
    starts: Vec<u64>,
    chunks: Vec<Vec<u8>>,
    _rows: PhantomData<fn() -> T>,
}

impl<T> Default for Table<T> {
    fn default() -> Table<T> {
        Table {
            ids: Vec::new(),
            starts: Vec::new(),
            chunks: Vec::new(),
            _rows: PhantomData,
        }
    }
}

impl<T> Clone for Table<T> {
    fn clone(&self) -> Table<T> {
        Table {
            ids: self.ids.clone(),
            starts: self.starts.clone(),
            chunks: self.chunks.clone(),
            _rows: PhantomData,
        }
    }
}

impl<T> std::fmt::Debug for Table<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("rows", &self.ids.len())
            .field("bytes", &self.packed_bytes())
            .finish()
    }
}

impl<T: Row> Table<T> {
    /// Appends `row`; its row number is the previous `len()`.
    pub fn push(&mut self, row: &T) {
        let encoded = postcard::to_stdvec(row).expect("facts always encode");
        let chunks = self.chunks.len() as u64;
        let chunk = self.chunk_with_room(encoded.len());
        let index = if chunk.is_empty() { chunks } else { chunks - 1 };
        let start = index << 32 | chunk.len() as u64;
        chunk.extend_from_slice(&encoded);
        self.starts.push(start);
        self.ids.push(row.id());
    }

    /// The row at `row`, decoded.
    pub fn get(&self, row: u32) -> T {
        let start = self.starts[row as usize];
        let chunk = &self.chunks[(start >> 32) as usize];
        let (value, _) = postcard::take_from_bytes(&chunk[(start & 0xffff_ffff) as usize..])
            .expect("a table decodes what it encoded");
        value
    }

    /// Every row in row order, decoded one at a time.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = T> + '_ {
        (0..self.len() as u32).map(|r| self.get(r))
    }

    /// Every row decoded at once (tests and small tables).
    pub fn to_vec(&self) -> Vec<T> {
        self.iter().collect()
    }

    fn chunk_with_room(&mut self, bytes: usize) -> &mut Vec<u8> {
        let fits = self.chunks.last().is_some_and(|c| c.len() + bytes <= c.capacity());
        if !fits {
            self.chunks.push(Vec::with_capacity(bytes.max(CHUNK_BYTES)));
        }
        self.chunks.last_mut().expect("a chunk was just ensured")
    }
}

impl<T> Table<T> {
    pub fn len(&self) -> usize {
        self.ids.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// The id of `row`, without decoding it.
    pub fn id(&self, row: u32) -> Uuid {
        self.ids[row as usize]
    }

    /// Every row's id, in row order.
    pub fn ids(&self) -> &[Uuid] {
        &self.ids
    }

    /// Bytes of the encoded rows (not counting ids and starts).
    pub fn packed_bytes(&self) -> usize {
        self.chunks.iter().map(Vec::len).sum()
    }
}

impl<T: Row> FromIterator<T> for Table<T> {
    fn from_iter<I: IntoIterator<Item = T>>(rows: I) -> Table<T> {
        let mut table = Table::default();
        rows.into_iter().for_each(|r| table.push(&r));
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
        fn id(&self) -> Uuid {
            self.id
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
            table.push(&thing(n, &big, vec![n as u32], None));
        }
        let huge = "y".repeat(CHUNK_BYTES + 10);
        table.push(&thing(99, &huge, vec![], Some(1.5)));
        table.push(&thing(100, "small", vec![1, 2], None));
        assert!(table.chunks.len() >= 4, "{} chunks", table.chunks.len());
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
}
