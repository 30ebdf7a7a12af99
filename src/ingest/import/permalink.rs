//! Permalink allocation: the first free spelling of a slug.
//!
//! Sources can produce the same slug for two different things (a YC startup
//! named like an unrelated Crunchbase company, a city whose name plus state
//! spells another place). The first claimant keeps the plain slug; later ones
//! get `-<suffix>`, then `-<suffix>-2`, `-<suffix>-3`… Claims are made in
//! input order, so the outcome is deterministic.

/// The first of `base`, `base-suffix`, `base-suffix-2`, … that `taken` rejects not.
pub(crate) fn first_free(base: &str, suffix: &str, taken: impl Fn(&str) -> bool) -> String {
    if !taken(base) {
        return base.to_string();
    }
    let suffixed = format!("{base}-{suffix}");
    let mut candidate = suffixed.clone();
    let mut n = 2;
    while taken(&candidate) {
        candidate = format!("{suffixed}-{n}");
        n += 1;
    }
    candidate
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn later_claimants_get_numbered_suffixes() {
        let taken = ["insoshi", "insoshi-yc"];
        assert_eq!(first_free("lob", "yc", |p| taken.contains(&p)), "lob");
        assert_eq!(
            first_free("insoshi", "yc", |p| taken[..1].contains(&p)),
            "insoshi-yc"
        );
        assert_eq!(
            first_free("insoshi", "yc", |p| taken.contains(&p)),
            "insoshi-yc-2"
        );
    }
}
