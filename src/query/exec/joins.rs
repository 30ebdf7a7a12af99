//! Doc sets computed through the relation arrays and key maps: the joins
//! the plans of every endpoint share.

use roaring::RoaringBitmap;
use uuid::Uuid;

use crate::index::docs::{bitmap_of, docs, FLAT_FROM};
use crate::index::open::Kind;
use crate::index::{Index, IndexError};
use crate::query::request::OrgIdentifiers;

/// Doc ids of the entities with these UUIDs (unknown ones dropped).
pub fn docs_of_ids(kind: &Kind, ids: &[Uuid]) -> RoaringBitmap {
    bitmap_of(ids.iter().filter_map(|id| kind.ids.docid(id)).collect())
}

/// Targets of relation `name` over every source in `sources`.
pub fn targets_of(
    kind: &Kind,
    name: &str,
    sources: impl IntoIterator<Item = u32>,
) -> Result<RoaringBitmap, IndexError> {
    let relation = kind.relation(name)?;
    let rel = relation.edges();
    let mut all = Vec::new();
    for s in sources {
        all.extend_from_slice(rel.targets(s));
    }
    Ok(bitmap_of(all))
}

/// Targets of relation `name` over every source in `sources`, among
/// `target_docs` doc ids: set in one flat bit set when the sources' edges
/// are expected (by the relation's mean degree) to be at least one in
/// [`FLAT_FROM`] of those doc ids, else [`targets_of`]. Marking bits costs no copy of
/// each source's targets, which at hundreds of thousands of sources was
/// most of a join's time.
pub fn targets_among(
    kind: &Kind,
    name: &str,
    sources: &RoaringBitmap,
    target_docs: usize,
) -> Result<RoaringBitmap, IndexError> {
    let relation = kind.relation(name)?;
    let expected = sources.len() as usize * relation.total_edges() / kind.docs.max(1);
    if expected < target_docs / FLAT_FROM {
        return targets_of(kind, name, sources.iter());
    }
    let mut words = vec![0u64; target_docs.div_ceil(64)];
    relation.edges().mark_targets(sources, &mut words);
    Ok(RoaringBitmap::from_lsb0_bytes(
        0,
        bytemuck::cast_slice(&words),
    ))
}

/// Doc ids of the entities with any of `ids`, or any key of `keys` in the
/// key map named with it (one union; unknown ones dropped).
pub fn docs_of_keys(
    kind: &Kind,
    ids: &[Uuid],
    keys: &[(&str, &[String])],
) -> Result<RoaringBitmap, IndexError> {
    let mut docs: Vec<u32> = ids.iter().filter_map(|id| kind.ids.docid(id)).collect();
    for &(map, values) in keys {
        if !values.is_empty() {
            let keymap = kind.keymap(map)?;
            values.iter().for_each(|v| docs.extend(keymap.get(v)));
        }
    }
    Ok(bitmap_of(docs))
}

/// Doc ids of the organisations answering to any of `keys` (one union).
pub fn docs_of_org_identifiers(
    kind: &Kind,
    keys: &OrgIdentifiers,
) -> Result<RoaringBitmap, IndexError> {
    let maps: [(&str, &[String]); 4] = [
        ("domain", &keys.domains),
        ("linkedin", &keys.linkedin),
        ("crunchbase", &keys.crunchbase),
        ("permalink", &keys.permalinks),
    ];
    docs_of_keys(kind, &keys.ids, &maps)
}

/// Deals in which one of these firms took part.
pub fn deals_of_firms(index: &Index, firm_ids: &[Uuid]) -> Result<RoaringBitmap, IndexError> {
    let firms = docs_of_ids(&index.firms, firm_ids);
    targets_of(&index.firms, "deals", firms)
}

/// Deals in which one of these people was an angel or a partner of a participating firm.
pub fn deals_of_people(index: &Index, people_ids: &[Uuid]) -> Result<RoaringBitmap, IndexError> {
    let people = docs_of_ids(&index.people, people_ids);
    let mut deals = targets_of(&index.people, "angel_deals", people.iter())?;
    deals |= targets_of(&index.people, "partner_deals", people.iter())?;
    Ok(deals)
}

/// Companies of these deals.
pub fn companies_of_deals(
    index: &Index,
    deals: &RoaringBitmap,
) -> Result<RoaringBitmap, IndexError> {
    let company = index.deals.column_i32("company")?;
    Ok(bitmap_of(
        docs(deals)
            .filter_map(|d| company.get(d))
            .map(|c| c as u32)
            .collect(),
    ))
}

/// Companies whose latest deal is one of these deals.
pub fn companies_with_latest_deal_in(
    index: &Index,
    deals: &RoaringBitmap,
) -> Result<RoaringBitmap, IndexError> {
    let company = index.deals.column_i32("company")?;
    let latest = index.companies.column_i32("latest_deal")?;
    let hits = docs(deals)
        .filter_map(|d| company.get(d).map(|c| (d, c as u32)))
        .filter(|&(d, c)| latest.get(c) == Some(d as i32))
        .map(|(_, c)| c);
    Ok(bitmap_of(hits.collect()))
}
