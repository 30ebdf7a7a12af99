//! Synthetic dumps: the deterministic generator and the test tooling that
//! proves dumps (generated or the hand-written `fixtures/dump/`) obey the
//! canonical dump rules.

#[cfg(test)]
mod check;
#[cfg(test)]
mod fixture;
