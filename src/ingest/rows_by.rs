//! Rows of a packed table found by their id or by a string key, holding
//! nothing but row numbers.
//!
//! Reading a dump claims every id and permalink once (a second row with
//! either is rejected) and resolves every reference to a row kept earlier.
//! A `HashMap<Uuid, u32>` or a `HashSet<String>` holds a copy of each key:
//! 36 to 70 bytes a row at the tables' load factors, gigabytes at 1e7
//! companies. The tables already hold the keys, so these hash tables hold
//! only what finds them again:
//!
//! - [`RowsById`]: each entry is a row number (4 bytes and a control byte),
//!   hashed and compared through the table's id column (`ids[row]`), which
//!   stays in memory whatever spills;
//! - [`RowsByKey`]: each entry is a row number and 32 bits of its key's
//!   hash (8 bytes and a control byte). The hash table is keyed by those
//!   bits, so it can grow without the keys; a match of the bits is
//!   confirmed by the caller, who reads the row's key (decoding the row).
//!   Two different keys share 32 bits about once in 4·10⁹ comparisons.

use std::hash::BuildHasher;

use hashbrown::{DefaultHashBuilder, HashTable};
use uuid::Uuid;

/// Rows found by id, through the id column `ids` they were inserted with.
#[derive(Default)]
pub struct RowsById {
    rows: HashTable<u32>,
    hasher: DefaultHashBuilder,
}

impl RowsById {
    /// The row whose id is `id`.
    pub fn get(&self, ids: &[Uuid], id: &Uuid) -> Option<u32> {
        let hash = self.hasher.hash_one(id);
        self.rows.find(hash, |&r| ids[r as usize] == *id).copied()
    }

    /// Adds `row`, whose id is `ids[row]` and is not in the table yet.
    pub fn insert(&mut self, ids: &[Uuid], row: u32) {
        let hasher = &self.hasher;
        let hash_of = |r: &u32| hasher.hash_one(ids[*r as usize]);
        self.rows.insert_unique(hash_of(&row), row, hash_of);
    }

    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }
}

/// A finished table's id column and its [`RowsById`]: the map from id to row.
pub struct IdMap<'a> {
    pub ids: &'a [Uuid],
    pub rows: RowsById,
}

impl IdMap<'_> {
    pub fn get(&self, id: &Uuid) -> Option<u32> {
        self.rows.get(self.ids, id)
    }

    pub fn contains(&self, id: &Uuid) -> bool {
        self.get(id).is_some()
    }
}

/// Rows found by a string key they hold; see the module docs.
#[derive(Default)]
pub struct RowsByKey {
    /// `(32 bits of the key's hash, row)`.
    rows: HashTable<(u32, u32)>,
    hasher: DefaultHashBuilder,
}

impl RowsByKey {
    /// A row whose key is `key`: `is_key(row)` confirms a candidate.
    pub fn find(&self, key: &str, mut is_key: impl FnMut(u32) -> bool) -> Option<u32> {
        let bits = self.bits(key);
        let found = self
            .rows
            .find(spread(bits), |&(b, r)| b == bits && is_key(r));
        found.map(|&(_, r)| r)
    }

    /// Adds `row`, whose key is `key`.
    pub fn insert(&mut self, key: &str, row: u32) {
        let bits = self.bits(key);
        self.rows
            .insert_unique(spread(bits), (bits, row), |&(b, _)| spread(b));
    }

    fn bits(&self, key: &str) -> u32 {
        self.hasher.hash_one(key) as u32
    }
}

/// The table's 64-bit hash of 32 hash bits: the probe position comes from
/// the low bits and the control byte from the top 7, so both must vary.
fn spread(bits: u32) -> u64 {
    (u64::from(bits) << 32 | u64::from(bits)).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(n: u128) -> Vec<Uuid> {
        (0..n).map(|i| Uuid::from_u128(i * 7919 + 3)).collect()
    }

    #[test]
    fn every_inserted_id_is_found_and_no_other() {
        let ids = ids(50_000);
        let mut rows = RowsById::default();
        for r in 0..ids.len() as u32 {
            assert_eq!(rows.get(&ids, &ids[r as usize]), None);
            rows.insert(&ids, r);
        }
        assert_eq!(rows.len(), ids.len());
        let map = IdMap { ids: &ids, rows };
        for (r, id) in ids.iter().enumerate() {
            assert_eq!(map.get(id), Some(r as u32));
        }
        assert!(!map.contains(&Uuid::from_u128(1)));
        assert!(!map.contains(&Uuid::from_u128(u128::MAX)));
    }

    #[test]
    fn keys_are_found_through_their_rows() {
        let keys: Vec<String> = (0..50_000).map(|i| format!("company-{i}")).collect();
        let mut rows = RowsByKey::default();
        for (r, key) in keys.iter().enumerate() {
            let is_key = |row: u32| keys[row as usize] == *key;
            assert_eq!(rows.find(key, is_key), None);
            rows.insert(key, r as u32);
        }
        for (r, key) in keys.iter().enumerate() {
            let is_key = |row: u32| keys[row as usize] == *key;
            assert_eq!(rows.find(key, is_key), Some(r as u32));
        }
        assert_eq!(
            rows.find("company-x", |row| keys[row as usize] == "company-x"),
            None
        );
    }

    #[test]
    fn a_shared_fingerprint_is_told_apart_by_the_row() {
        let mut rows = RowsByKey::default();
        rows.insert("a", 0);
        // The caller's check decides: a row whose key differs is not a match.
        assert_eq!(rows.find("a", |_| false), None);
        assert_eq!(rows.find("a", |r| r == 0), Some(0));
    }
}
