//! Loads `locations.jsonl` and `industries.jsonl` into a [`Catalog`].
//!
//! Both files may reference rows of the same file in any order (a city may
//! come before its state), so they are validated in two phases: parse and
//! de-duplicate every row, then check references. A row whose parent is
//! missing, rejected, or part of a cycle is rejected; so is an industry that
//! names a super category that is not one.

use std::collections::HashMap;
use std::path::Path;

use crate::schema::{IndustryRow, IndustryType, LocationRow};

use super::facts::Catalog;
use super::load::Loader;
use super::IngestError;

/// Reads both catalog files.
pub fn load_catalog(dir: &Path, loader: &mut Loader) -> Result<Catalog, IngestError> {
    let locations = load_locations(dir, loader)?;
    let industries = load_industries(dir, loader)?;
    Ok(build_catalog(locations, industries))
}

fn load_locations(dir: &Path, loader: &mut Loader) -> Result<Vec<LocationRow>, IngestError> {
    let rows = unique_rows::<LocationRow>(dir, "locations.jsonl", loader, |r| r.permalink.clone())?;
    let by_permalink: HashMap<&str, usize> = rows
        .iter()
        .enumerate()
        .map(|(i, (_, r))| (r.permalink.as_str(), i))
        .collect();
    let mut verdict: Vec<Option<Result<(), String>>> = vec![None; rows.len()];
    for i in 0..rows.len() {
        let _ = resolve_location(i, &rows, &by_permalink, &mut verdict, &mut Vec::new());
    }
    keep_valid(rows, verdict, "locations.jsonl", loader)
}

/// Decides row `i`: valid when it has no parent or its parent is valid.
fn resolve_location(
    i: usize,
    rows: &[(u64, LocationRow)],
    by_permalink: &HashMap<&str, usize>,
    verdict: &mut [Option<Result<(), String>>],
    path: &mut Vec<usize>,
) -> Result<(), String> {
    if let Some(v) = &verdict[i] {
        return v.clone();
    }
    if path.contains(&i) {
        return Err(format!(
            "location parent cycle through '{}'",
            rows[i].1.permalink
        ));
    }
    let result = match rows[i].1.parent.as_deref() {
        None => Ok(()),
        Some(parent) => match by_permalink.get(parent) {
            None => Err(format!("unknown parent location '{parent}'")),
            Some(&p) => {
                path.push(i);
                let r = resolve_location(p, rows, by_permalink, verdict, path).map_err(|e| {
                    if e.contains("cycle") {
                        e
                    } else {
                        format!("parent location '{parent}' was rejected")
                    }
                });
                path.pop();
                r
            }
        },
    };
    verdict[i] = Some(result.clone());
    result
}

fn load_industries(dir: &Path, loader: &mut Loader) -> Result<Vec<IndustryRow>, IngestError> {
    let rows =
        unique_rows::<IndustryRow>(dir, "industries.jsonl", loader, |r| r.permalink.clone())?;
    let types: HashMap<&str, IndustryType> = rows
        .iter()
        .map(|(_, r)| (r.permalink.as_str(), r.industry_type))
        .collect();
    let verdict = rows
        .iter()
        .map(|(_, r)| Some(check_supers(r, &types)))
        .collect();
    keep_valid(rows, verdict, "industries.jsonl", loader)
}

fn check_supers(row: &IndustryRow, types: &HashMap<&str, IndustryType>) -> Result<(), String> {
    if row.industry_type == IndustryType::SuperCategory && !row.super_categories.is_empty() {
        return Err("a super category cannot list super_categories".into());
    }
    for s in &row.super_categories {
        match types.get(s.as_str()) {
            Some(IndustryType::SuperCategory) => {}
            Some(IndustryType::Industry) => {
                return Err(format!("'{s}' is an industry, not a super category"))
            }
            None => return Err(format!("unknown super category '{s}'")),
        }
    }
    Ok(())
}

/// Parses a catalog file, rejecting malformed rows and duplicate keys.
fn unique_rows<R>(
    dir: &Path,
    file: &'static str,
    loader: &mut Loader,
    key: impl Fn(&R) -> String,
) -> Result<Vec<(u64, R)>, IngestError>
where
    R: serde::de::DeserializeOwned + Send,
{
    let mut seen = HashMap::new();
    let mut rows = Vec::new();
    loader.scan::<R>(dir, file, |line, row| {
        let k = key(&row);
        if seen.insert(k.clone(), line).is_some() {
            return Err(format!("duplicate permalink '{k}'"));
        }
        rows.push((line, row));
        Ok(())
    })?;
    Ok(rows)
}

fn keep_valid<R>(
    rows: Vec<(u64, R)>,
    verdict: Vec<Option<Result<(), String>>>,
    file: &'static str,
    loader: &mut Loader,
) -> Result<Vec<R>, IngestError> {
    let mut kept = Vec::with_capacity(rows.len());
    for ((line, row), v) in rows.into_iter().zip(verdict) {
        match v.unwrap_or(Ok(())) {
            Ok(()) => kept.push(row),
            Err(reason) => loader.reject_late(file, line, reason)?,
        }
    }
    Ok(kept)
}

fn build_catalog(locations: Vec<LocationRow>, industries: Vec<IndustryRow>) -> Catalog {
    let location_by_permalink: HashMap<String, u32> = locations
        .iter()
        .enumerate()
        .map(|(i, l)| (l.permalink.clone(), i as u32))
        .collect();
    let industry_by_permalink: HashMap<String, u32> = industries
        .iter()
        .enumerate()
        .map(|(i, l)| (l.permalink.clone(), i as u32))
        .collect();
    let location_ancestors = (0..locations.len() as u32)
        .map(|i| {
            let mut chain = vec![i];
            while let Some(parent) = locations[*chain.last().unwrap() as usize].parent.as_deref() {
                match location_by_permalink.get(parent) {
                    Some(&p) if !chain.contains(&p) => chain.push(p),
                    _ => break,
                }
            }
            chain
        })
        .collect();
    let industry_supers = industries
        .iter()
        .map(|r| {
            r.super_categories
                .iter()
                .filter_map(|s| industry_by_permalink.get(s).copied())
                .collect()
        })
        .collect();
    Catalog {
        locations,
        location_ancestors,
        industries,
        industry_supers,
        location_by_permalink,
        industry_by_permalink,
    }
}
