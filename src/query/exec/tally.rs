//! Per-entity counters filled while walking a set of deals: dense (a slot
//! per doc id) when many entities will be touched, a hash map otherwise, so
//! a selective query never pays for zeroing a counter per doc.

use std::collections::HashMap;

/// Counts of one entity over the qualifying deals.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Acc {
    pub deals: u32,
    pub leads: u32,
    /// Latest deal date (days), `i32::MIN` when none.
    pub latest: i32,
}

impl Acc {
    const EMPTY: Acc = Acc { deals: 0, leads: 0, latest: i32::MIN };

    pub fn add(&mut self, lead: bool, date: Option<i32>) {
        self.deals += 1;
        self.leads += lead as u32;
        if let Some(d) = date {
            self.latest = self.latest.max(d);
        }
    }
}

pub enum Tally {
    Dense(Vec<Acc>),
    Sparse(HashMap<u32, Acc>),
}

impl Tally {
    /// A tally over `docs` entities expecting about `touches` updates.
    pub fn new(docs: usize, touches: usize) -> Tally {
        if touches.saturating_mul(8) >= docs {
            Tally::Dense(vec![Acc::EMPTY; docs])
        } else {
            Tally::Sparse(HashMap::with_capacity(touches))
        }
    }

    pub fn entry(&mut self, doc: u32) -> &mut Acc {
        match self {
            Tally::Dense(v) => &mut v[doc as usize],
            Tally::Sparse(m) => m.entry(doc).or_insert(Acc::EMPTY),
        }
    }

    pub fn get(&self, doc: u32) -> Acc {
        match self {
            Tally::Dense(v) => v.get(doc as usize).copied().unwrap_or(Acc::EMPTY),
            Tally::Sparse(m) => m.get(&doc).copied().unwrap_or(Acc::EMPTY),
        }
    }

    /// Doc ids with at least one counted deal, ascending.
    pub fn touched(&self) -> Vec<u32> {
        match self {
            Tally::Dense(v) => (0..v.len() as u32).filter(|&d| v[d as usize].deals > 0).collect(),
            Tally::Sparse(m) => {
                let mut docs: Vec<u32> = m.iter().filter(|(_, a)| a.deals > 0).map(|(&d, _)| d).collect();
                docs.sort_unstable();
                docs
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dense_and_sparse_agree() {
        for mut t in [Tally::new(10, 10), Tally::new(1000, 3)] {
            t.entry(3).add(true, Some(5));
            t.entry(3).add(false, Some(2));
            t.entry(7).add(false, None);
            assert_eq!(t.get(3), Acc { deals: 2, leads: 1, latest: 5 });
            assert_eq!(t.get(7).latest, i32::MIN);
            assert_eq!(t.get(4).deals, 0);
            assert_eq!(t.touched(), vec![3, 7]);
        }
    }
}
