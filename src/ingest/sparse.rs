//! [`Sparse`]: per-row values where most rows hold the default.
//!
//! Most people never invested, yet a `Vec<PersonAgg>` pays the full
//! aggregate (lists, counts, top lists: about 170 bytes) for each of them.
//! A sparse vector pays 4 bytes per row (the position of its value, or
//! [`NONE`]) plus the values that differ from the default, packed in a
//! [`Table`] (their encoding, spilled past a build's budget); reading a row
//! without one returns the default.

use super::packed::{Row, Table};

/// Slot of a row that holds the default.
const NONE: u32 = u32::MAX;

#[derive(Debug, Default)]
pub struct Sparse<T> {
    slots: Vec<u32>,
    values: Table<T>,
}

impl<T: Row + Default> Sparse<T> {
    /// `len` rows; `rows` (ascending) hold the values of `values`, in order.
    pub fn new(len: usize, rows: &[u32], values: Table<T>) -> Sparse<T> {
        assert_eq!(rows.len(), values.len(), "one value per listed row");
        let mut slots = vec![NONE; len];
        for (slot, &row) in rows.iter().enumerate() {
            slots[row as usize] = slot as u32;
        }
        Sparse { slots, values }
    }

    /// The value of `row`, decoded (the default when it holds none).
    pub fn get(&self, row: u32) -> T {
        match self.slots[row as usize] {
            NONE => T::default(),
            slot => self.values.get(slot),
        }
    }

    /// Whether `row` holds a value other than the default.
    pub fn holds(&self, row: u32) -> bool {
        self.slots[row as usize] != NONE
    }

    pub fn len(&self) -> usize {
        self.slots.len()
    }

    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Rows holding a value other than the default.
    pub fn stored(&self) -> usize {
        self.values.len()
    }

    /// Every row's value in row order, decoded one at a time.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = T> + '_ {
        (0..self.len() as u32).map(|r| self.get(r))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde::{Deserialize, Serialize};
    use uuid::Uuid;

    #[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
    struct Tag(Option<u32>);

    impl Row for Tag {
        fn id(&self) -> Option<Uuid> {
            None
        }
    }

    proptest! {
        #[test]
        fn reads_back_every_row(rows in prop::collection::vec(prop::option::of(0u32..5), 0..300)) {
            let held: Vec<u32> = (0..rows.len() as u32).filter(|&r| rows[r as usize].is_some()).collect();
            let values: Table<Tag> = held.iter().map(|&r| Tag(rows[r as usize])).collect();
            let sparse = Sparse::new(rows.len(), &held, values);
            prop_assert_eq!(sparse.len(), rows.len());
            prop_assert_eq!(sparse.stored(), held.len());
            for (r, value) in rows.iter().enumerate() {
                prop_assert_eq!(sparse.get(r as u32), Tag(*value));
                prop_assert_eq!(sparse.holds(r as u32), value.is_some());
            }
            prop_assert_eq!(sparse.iter().map(|t| t.0).collect::<Vec<_>>(), rows);
        }
    }
}
