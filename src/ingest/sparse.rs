//! [`Sparse`]: per-row values where most rows hold the default.
//!
//! Most people never invested, yet a `Vec<PersonAgg>` pays the full
//! aggregate (lists, counts, top lists: about 170 bytes) for each of them.
//! A sparse vector pays 4 bytes per row (the position of its value, or
//! [`NONE`]) plus the values that differ from the default; reading a row
//! without one returns the shared default.

use std::ops::Index;

/// Slot of a row that holds the default.
const NONE: u32 = u32::MAX;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Sparse<T> {
    slots: Vec<u32>,
    values: Vec<T>,
    default: T,
}

impl<T: Default + PartialEq> Sparse<T> {
    /// Collects `rows` in order, keeping only values unlike the default.
    pub fn from_rows(rows: impl IntoIterator<Item = T>) -> Sparse<T> {
        let mut len = 0;
        let pairs = rows.into_iter().enumerate().filter_map(|(row, value)| {
            len = row + 1;
            (value != T::default()).then_some((row as u32, value))
        });
        let pairs: Vec<(u32, T)> = pairs.collect();
        Sparse::from_pairs(len, pairs)
    }

    /// `len` rows; `pairs` (rows ascending) hold the values unlike the default.
    pub fn from_pairs(len: usize, pairs: Vec<(u32, T)>) -> Sparse<T> {
        let mut slots = vec![NONE; len];
        let mut values = Vec::with_capacity(pairs.len());
        for (row, value) in pairs {
            slots[row as usize] = values.len() as u32;
            values.push(value);
        }
        Sparse {
            slots,
            values,
            default: T::default(),
        }
    }
}

impl<T> Sparse<T> {
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

    pub fn iter(&self) -> impl ExactSizeIterator<Item = &T> + '_ {
        (0..self.len()).map(|r| &self[r])
    }
}

impl<T> Index<usize> for Sparse<T> {
    type Output = T;

    fn index(&self, row: usize) -> &T {
        match self.slots[row] {
            NONE => &self.default,
            slot => &self.values[slot as usize],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn reads_back_every_row(rows in prop::collection::vec(prop::option::of(0u32..5), 0..300)) {
            let sparse = Sparse::from_rows(rows.iter().copied());
            prop_assert_eq!(sparse.len(), rows.len());
            prop_assert_eq!(sparse.stored(), rows.iter().filter(|r| r.is_some()).count());
            for (r, value) in rows.iter().enumerate() {
                prop_assert_eq!(&sparse[r], value);
            }
            prop_assert_eq!(sparse.iter().copied().collect::<Vec<_>>(), rows);
        }
    }
}
