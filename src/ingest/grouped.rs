//! [`Grouped`]: values grouped by owner row, in one array (CSR).
//!
//! Deriving aggregates groups every deal under its company, firms, partners
//! and angels. A `Vec<Vec<_>>` per kind pays 24 bytes per owner (most people
//! own nothing) and an allocation per non-empty group; here the values of
//! all owners sit in one array sorted by owner, with one offset per owner.

use rayon::prelude::*;

#[derive(Debug, Clone, PartialEq)]
pub struct Grouped<E> {
    /// Group `k` is `values[offsets[k]..offsets[k + 1]]`.
    offsets: Vec<u32>,
    values: Vec<E>,
}

impl<E: Send> Grouped<E> {
    /// Groups `(owner, value)` pairs for owners `0..owners`; within a group
    /// values keep the order they came in. Owners must be `< owners`.
    pub fn by_owner(owners: usize, mut pairs: Vec<(u32, E)>) -> Grouped<E> {
        pairs.par_sort_by_key(|p| p.0);
        let mut offsets = Vec::with_capacity(owners + 1);
        let mut at = 0;
        for owner in 0..owners as u32 {
            offsets.push(at as u32);
            while at < pairs.len() && pairs[at].0 == owner {
                at += 1;
            }
        }
        offsets.push(at as u32);
        assert_eq!(at, pairs.len(), "every owner is below the owner count");
        Grouped {
            offsets,
            values: pairs.into_iter().map(|p| p.1).collect(),
        }
    }
}

impl<E> Grouped<E> {
    /// The values of `owner`, in arrival order.
    pub fn group(&self, owner: usize) -> &[E] {
        &self.values[self.offsets[owner] as usize..self.offsets[owner + 1] as usize]
    }

    /// Number of owners.
    pub fn owners(&self) -> usize {
        self.offsets.len() - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn groups_equal_a_vec_per_owner(pairs in prop::collection::vec((0u32..20, any::<u16>()), 0..300)) {
            let mut naive = vec![Vec::new(); 20];
            pairs.iter().for_each(|&(o, v)| naive[o as usize].push(v));
            let grouped = Grouped::by_owner(20, pairs);
            prop_assert_eq!(grouped.owners(), 20);
            for (owner, values) in naive.iter().enumerate() {
                prop_assert_eq!(grouped.group(owner), values.as_slice());
            }
        }
    }
}
