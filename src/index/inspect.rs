//! `indexer inspect`: counts and bytes per structure of an index.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;

use super::format::Bundle;
use super::manifest::Manifest;
use super::open::Index;
use super::IndexError;

/// A human-readable report of an index directory.
pub fn inspect_index(dir: &Path) -> Result<String, IndexError> {
    let index = Index::open(dir)?;
    let m = &index.manifest;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "index {} (format {} v{}, as-of {}, built {} by {})",
        dir.display(),
        m.format,
        m.format_version,
        m.as_of,
        m.built_at,
        m.builder
    );
    let _ = writeln!(out, "dump: {}", m.dump_source);
    let c = &m.counts;
    let _ = writeln!(
        out,
        "counts: {} companies, {} deals, {} investors, {} people, {} locations, {} industries",
        c.companies, c.deals, c.investors, c.people, c.locations, c.industries
    );
    let _ = writeln!(out, "\n{:<44} {:>14}", "structure", "bytes");
    for bundle in [
        &index.companies.bundle,
        &index.deals.bundle,
        &index.firms.bundle,
        &index.people.bundle,
        &index.catalog.bundle,
    ] {
        structure_sizes(bundle, &mut out);
    }
    if let Some(v) = &index.vectors {
        let m = &v.meta.model;
        let _ = writeln!(
            out,
            "\nsemantic vectors: {} of {} companies, model {} ({} dimensions, relevance = (cos - {}) / {})",
            v.rows(), c.companies, m.id, m.dim, m.calibration.floor, m.calibration.span
        );
        structure_sizes(&v.bundle, &mut out);
    }
    let _ = writeln!(out, "\n{:<44} {:>14}", "file", "bytes");
    for (group, bytes) in file_groups(m) {
        let _ = writeln!(out, "{group:<44} {bytes:>14}");
    }
    let total: u64 = m.files.iter().map(|f| f.bytes).sum();
    let stores: u64 = m
        .files
        .iter()
        .filter(|f| f.path.ends_with(".store"))
        .map(|f| f.bytes)
        .sum();
    let _ = writeln!(out, "{:<44} {:>14}", "total", total);
    let _ = writeln!(
        out,
        "{:<44} {:>14}",
        "total without record stores",
        total - stores
    );
    Ok(out)
}

/// Bytes per structure (`facet.location`, `column.total_raised`…) of a bundle.
fn structure_sizes(bundle: &Bundle, out: &mut String) {
    let mut sizes: BTreeMap<String, u64> = BTreeMap::new();
    for e in bundle.entries() {
        let parts: Vec<&str> = e.name.split('.').collect();
        let key = match parts.as_slice() {
            [kind, name, ..] => format!("{kind}.{name}"),
            _ => e.name.clone(),
        };
        *sizes.entry(key).or_default() += e.len;
    }
    for (name, bytes) in sizes {
        let _ = writeln!(
            out,
            "{:<44} {:>14}",
            format!("{}: {name}", bundle.name()),
            bytes
        );
    }
}

fn file_groups(m: &Manifest) -> BTreeMap<String, u64> {
    let mut groups = BTreeMap::new();
    for f in &m.files {
        let group = match f.path.split('/').collect::<Vec<_>>().as_slice() {
            ["text", kind, ..] => format!("text/{kind}/"),
            _ => f.path.clone(),
        };
        *groups.entry(group).or_insert(0) += f.bytes;
    }
    groups
}
