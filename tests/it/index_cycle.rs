//! build → verify → inspect on the fixture dump, damage detection, and the
//! derived aggregates checked by hand against `fixtures/README.md`.

use fundsearch::index::build::{build_index, BuildOptions};
use fundsearch::index::format::FORMAT_VERSION;
use fundsearch::index::inspect::inspect_index;
use fundsearch::index::verify::verify_index;
use fundsearch::index::{Index, IndexError};
use serde_json::json;

use crate::common::*;

#[test]
fn build_verify_inspect_cycle() {
    let dir = scratch("cycle");
    let out = dir.join("index");
    let report = build(&repo().join("fixtures/dump"), &out, "2026-11-01");
    assert_eq!(report.ingest.total_rejected(), 0);
    let c = &report.manifest.counts;
    assert_eq!(
        (
            c.companies,
            c.deals,
            c.investors,
            c.people,
            c.locations,
            c.industries
        ),
        (25, 56, 8, 32, 15, 17)
    );
    assert_eq!(report.manifest.as_of, "2026-11-01");
    let verified = verify_index(&out).unwrap();
    assert_eq!(verified.files, report.manifest.files.len());
    let text = inspect_index(&out).unwrap();
    assert!(
        text.contains("25 companies, 56 deals, 8 investors, 32 people"),
        "{text}"
    );
    assert!(text.contains("companies.idx: facet.location"), "{text}");
    assert!(
        text.contains(
            "semantic vectors: 24 of 25 companies, model all-minilm-l6-v2 (384 dimensions"
        ),
        "{text}"
    );
    assert!(text.contains("companies.vectors: vectors.codes"), "{text}");
    let embed = report
        .embed
        .expect("a build with a model reports its embedding");
    assert_eq!((embed.companies_with_text, embed.distinct_texts), (24, 24));
    assert!(!dir.read_dir().unwrap().any(|e| e
        .unwrap()
        .file_name()
        .to_string_lossy()
        .contains("building")));

    // Rebuilding over an existing index replaces it atomically, and clears
    // what a killed build (a pid above the kernel's maximum) left beside it.
    let left = [".index.building-4999999", ".index.building-4999999.spill"];
    for name in left {
        std::fs::create_dir_all(dir.join(name).join("text")).unwrap();
    }
    build(&repo().join("fixtures/dump"), &out, "2026-01-01");
    assert_eq!(Index::open(&out).unwrap().manifest.as_of, "2026-01-01");
    assert!(left.iter().all(|name| !dir.join(name).exists()));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn verify_detects_damage_and_open_refuses_other_versions() {
    let dir = scratch("damage");
    let out = dir.join("index");
    build(&repo().join("fixtures/dump"), &out, "2026-11-01");

    for (file, at) in [("people.full.store", 100), ("companies.vectors", 200)] {
        let path = out.join(file);
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[at] ^= 0x55;
        std::fs::write(&path, &bytes).unwrap();
        let err = verify_index(&out).unwrap_err().to_string();
        assert!(err.contains(file), "{err}");
        bytes[at] ^= 0x55;
        std::fs::write(&path, &bytes).unwrap();
        verify_index(&out).unwrap();
    }

    let idx = out.join("deals.idx");
    let mut bytes = std::fs::read(&idx).unwrap();
    let other = FORMAT_VERSION + 1;
    bytes[8..12].copy_from_slice(&other.to_le_bytes());
    std::fs::write(&idx, &bytes).unwrap();
    match Index::open(&out) {
        Err(IndexError::Version {
            found,
            expected: FORMAT_VERSION,
            ..
        }) if found == other => {}
        Err(e) => panic!("expected a version error, got {e}"),
        Ok(_) => panic!("an index of another version must be refused"),
    }
    std::fs::write(out.join("stray.txt"), "x").unwrap();
    assert!(verify_index(&out).is_err());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_failed_build_leaves_nothing_under_the_final_name() {
    let dir = scratch("failed");
    let dump = copy_fixture_dump(&dir);
    std::fs::write(dump.join("deals.jsonl"), "{\"broken\n").unwrap();
    let opts = BuildOptions {
        as_of: None,
        ..strict_build(&dump, dir.join("index"))
    };
    let err = build_index(&opts).unwrap_err().to_string();
    assert!(err.contains("deals.jsonl:1"), "{err}");
    assert!(!dir.join("index").exists());
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        1,
        "no temporary directory is left behind"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

/// Every file of an index but the manifest and tantivy's own (whose segment
/// names are random), with its bytes.
fn own_files(index: &std::path::Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = fundsearch::index::manifest::list_files(index)
        .unwrap()
        .into_iter()
        .filter(|f| f != "manifest.json" && !f.contains("tantivy"))
        .map(|f| (f.clone(), std::fs::read(index.join(&f)).unwrap()))
        .collect();
    files.sort();
    files
}

/// Generates the spill tests' dump into `dir/name`, compressed or not.
fn generate_dump(dir: &std::path::Path, name: &str, compress: bool) -> std::path::PathBuf {
    let dump = dir.join(name);
    fundsearch::ingest::generate::generate(&fundsearch::ingest::generate::GenerateOptions {
        companies: 400,
        seed: 11,
        out: dump.clone(),
        as_of: fundsearch::schema::Date::parse("2026-11-01").unwrap(),
        compress,
    })
    .unwrap();
    dump
}

fn assert_same_files(a: &std::path::Path, b: &std::path::Path, why: &str) {
    let (a, b) = (own_files(a), own_files(b));
    assert!(a.len() > 10, "{} files", a.len());
    assert_eq!(a.len(), b.len());
    for ((name, x), (other, y)) in a.iter().zip(&b) {
        assert_eq!(name, other);
        assert!(x == y, "{name} differs {why}");
    }
}

/// Options of a strict, quiet build of `dump` into `out` as of
/// 2026-11-01, no vectors, the default memory budget and store codec.
fn strict_build(dump: &std::path::Path, out: std::path::PathBuf) -> BuildOptions {
    BuildOptions {
        dump: dump.to_path_buf(),
        out,
        as_of: fundsearch::schema::Date::parse("2026-11-01"),
        strict: true,
        quiet: true,
        memory: fundsearch::index::build::DEFAULT_BUILD_MEMORY,
        store_codec: Default::default(),
        semantic: None,
    }
}

/// The same dump written compressed (`*.jsonl.zst`) builds the same index.
#[test]
fn a_compressed_dump_builds_the_same_index() {
    let dir = scratch("zst");
    let (plain, zst) = (
        generate_dump(&dir, "plain", false),
        generate_dump(&dir, "zst", true),
    );
    assert!(zst.join("deals.jsonl.zst").is_file() && !zst.join("deals.jsonl").exists());
    let options = |dump: &std::path::Path, out: &str| strict_build(dump, dir.join(out));
    build_index(&options(&plain, "from-plain")).unwrap();
    build_index(&options(&zst, "from-zst")).unwrap();
    let how = "when the dump is compressed";
    assert_same_files(&dir.join("from-plain"), &dir.join("from-zst"), how);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_build_whose_facts_and_aggregates_all_spill_writes_the_same_index() {
    let dir = scratch("spill");
    let dump = generate_dump(&dir, "dump", false);
    let options = |out: &str, memory: u64| BuildOptions {
        memory,
        ..strict_build(&dump, dir.join(out))
    };
    build_index(&options(
        "held",
        fundsearch::index::build::DEFAULT_BUILD_MEMORY,
    ))
    .unwrap();
    build_index(&options("spilled", 0)).unwrap();
    let how = "when the facts and aggregates spill";
    assert_same_files(&dir.join("held"), &dir.join("spilled"), how);
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left.len(), 3, "no spill folder is left behind: {left:?}");
    std::fs::remove_dir_all(dir).unwrap();
}

/// An index built with `--store-compression none` differs from the
/// default only in its record stores, and those hold the same records.
#[test]
fn plain_record_stores_hold_the_same_records() {
    use fundsearch::index::store::StoreCodec;
    let dir = scratch("plain-stores");
    let dump = generate_dump(&dir, "dump", false);
    let options = |out: &str, store_codec: StoreCodec| BuildOptions {
        store_codec,
        ..strict_build(&dump, dir.join(out))
    };
    build_index(&options("zstd", StoreCodec::Zstd)).unwrap();
    build_index(&options("plain", StoreCodec::Plain)).unwrap();
    let (zstd, plain) = (dir.join("zstd"), dir.join("plain"));
    verify_index(&plain).unwrap();
    let not_stores = |files: Vec<(String, Vec<u8>)>| -> Vec<(String, Vec<u8>)> {
        files
            .into_iter()
            .filter(|(f, _)| !f.ends_with(".store"))
            .collect()
    };
    assert_eq!(not_stores(own_files(&zstd)), not_stores(own_files(&plain)));
    let (a, b) = (Index::open(&zstd).unwrap(), Index::open(&plain).unwrap());
    let (ka, kb) = (
        [&a.companies, &a.deals, &a.firms, &a.people],
        [&b.companies, &b.deals, &b.firms, &b.people],
    );
    let mut compared = 0;
    for (ka, kb) in ka.into_iter().zip(kb) {
        for variant in ka.stores_by_variant.keys() {
            let (ra, rb) = (ka.records(variant).unwrap(), kb.records(variant).unwrap());
            for doc in 0..ka.docs as u32 {
                assert_eq!(
                    ra.get(doc).unwrap(),
                    rb.get(doc).unwrap(),
                    "{variant} doc {doc}"
                );
                compared += 1;
            }
        }
    }
    assert!(compared > 1_000, "{compared} records compared");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn company_aggregates_match_the_fixture() {
    let index = fixture_index();
    let helix = record(&index.companies, "full", fixture_id("company", "helix-bio"));
    assert_eq!(helix["num_funding_rounds"], 6);
    assert_eq!(helix["total_raised"], 625_000_000);
    assert_eq!(helix["num_investors"], 4);
    assert_eq!(helix["ipo_status"], "public");
    let latest = &helix["latest_deal"];
    assert_eq!(latest["id"], json!(fixture_id("deal", "helix-bio:6")));
    assert_eq!(
        (latest["type"].as_str(), latest["intermediate"].as_str()),
        (Some("SERIES_E"), Some("TWO"))
    );
    assert_eq!(latest["date"], "2024-05-05T00:00:00.000Z");
    let firm = |k: &str| json!(fixture_id("firm", k));
    assert_eq!(
        helix["all_investor_ids"],
        json!([
            firm("harbor-point-growth"),
            firm("alpine-partners"),
            firm("northwind-capital"),
            firm("harbor-point-ventures")
        ])
    );
    assert_eq!(helix["location"]["city"]["permalink"], "palo-alto");
    assert_eq!(
        helix["location"]["region"]["permalink"],
        "san-francisco-bay-area"
    );

    // Two deals on the company's latest date: the tie goes to the smaller id.
    let pixel = record(
        &index.companies,
        "full",
        fixture_id("company", "pixel-forge"),
    );
    let (a, b) = (
        fixture_id("deal", "pixel-forge:2"),
        fixture_id("deal", "pixel-forge:3"),
    );
    assert_eq!(pixel["latest_deal"]["id"], json!(a.min(b)));

    let quiet = record(
        &index.companies,
        "full",
        fixture_id("company", "quiet-harbor-software"),
    );
    assert_eq!(
        (
            quiet["latest_deal"].clone(),
            quiet["total_raised"].clone(),
            quiet["num_funding_rounds"].clone()
        ),
        (json!(null), json!(null), json!(0))
    );
}

#[test]
fn firm_aggregates_count_the_last_twelve_months_inclusively() {
    let index = fixture_index();
    let nw = record(
        &index.firms,
        "full",
        fixture_id("firm", "northwind-capital"),
    );
    assert_eq!(
        (
            nw["total_deal_count"].clone(),
            nw["lead_deal_count"].clone()
        ),
        (json!(19), json!(10))
    );
    assert_eq!(
        (
            nw["deal_count_last_12_months"].clone(),
            nw["lead_deal_count_last_12_months"].clone()
        ),
        (json!(5), json!(2))
    );
    // Thames led lumen-labs:3 on 2025-11-01, exactly one year before as-of.
    let thames = record(&index.firms, "full", fixture_id("firm", "thames-ventures"));
    assert_eq!(
        (
            thames["deal_count_last_12_months"].clone(),
            thames["lead_deal_count_last_12_months"].clone()
        ),
        (json!(5), json!(3))
    );
    assert_eq!(thames["most_recent_deal_date"], "2026-09-30T00:00:00.000Z");
    let seedling = record(&index.firms, "full", fixture_id("firm", "seedling-fund"));
    assert_eq!(seedling["lead_deal_count"], 0);
    let top = &nw["top_round_types"];
    assert!(top.as_array().unwrap().len() <= 5);
}

#[test]
fn person_aggregates_and_histories() {
    let index = fixture_index();
    let priya = record(&index.people, "full", fixture_id("person", "priya-raman"));
    assert_eq!(
        (
            priya["is_investor"].clone(),
            priya["is_angel"].clone(),
            priya["has_led_deal"].clone()
        ),
        (json!(true), json!(true), json!(false))
    );
    assert_eq!(priya["investor_highlights"]["total_deal_count"], 6);
    assert_eq!(priya["investor_highlights"]["deal_count_last_12_months"], 2);
    assert_eq!(priya["current_company"], json!(null));

    let daniel = record(&index.people, "full", fixture_id("person", "daniel-kim"));
    let firms = daniel["investment_firms"].as_array().unwrap();
    let counts: Vec<(String, u64)> = firms
        .iter()
        .map(|f| {
            (
                f["permalink"].as_str().unwrap().to_string(),
                f["deal_count"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        counts,
        vec![
            ("harbor-point-ventures".to_string(), 6),
            ("northwind-capital".to_string(), 3)
        ]
    );
    assert_eq!(daniel["has_led_deal"], true);
    assert_eq!(
        daniel["current_company"]["permalink"],
        "harbor-point-ventures"
    );

    let sofia = record(&index.people, "full", fixture_id("person", "sofia-almeida"));
    assert_eq!(
        (
            sofia["is_investor"].clone(),
            sofia["investor_highlights"].clone()
        ),
        (json!(false), json!(null))
    );
    assert_eq!(sofia["investment_firms"], json!([]));

    let full = record(&index.people, "full", fixture_id("person", "lena-huber"));
    assert_eq!(full["employment_history"].as_array().unwrap().len(), 4);
    assert_eq!(full["education_history"].as_array().unwrap().len(), 4);
    assert_eq!(full["employment_history"][0]["is_current"], true);
    assert_eq!(full["is_founder"], true);
}

#[test]
fn identifier_maps_return_every_match() {
    let index = fixture_index();
    let domain = index.firms.keymap("domain").unwrap();
    let firms: Vec<_> = domain
        .get("harborpoint.vc")
        .into_iter()
        .map(|d| index.firms.ids.uuid(d))
        .collect();
    let mut expected = vec![
        fixture_id("firm", "harbor-point-ventures"),
        fixture_id("firm", "harbor-point-growth"),
    ];
    let mut got = firms.clone();
    got.sort();
    expected.sort();
    assert_eq!(got, expected);
    let linkedin = index.people.keymap("linkedin").unwrap();
    let lena = linkedin.get("in/lena-huber");
    assert_eq!(lena.len(), 1, "www + trailing slash URL is normalised");
}

#[test]
fn doc_ids_follow_the_default_sort() {
    let index = fixture_index();
    let dates = index.deals.column_i32("date").unwrap();
    let dated: Vec<i32> = (0..index.deals.docs as u32)
        .filter_map(|d| dates.get(d))
        .collect();
    assert!(
        dated.windows(2).all(|w| w[0] >= w[1]),
        "deals are newest first"
    );
    let undated_first = (0..index.deals.docs as u32)
        .position(|d| dates.get(d).is_none())
        .unwrap();
    assert!(
        (undated_first..index.deals.docs).all(|d| dates.get(d as u32).is_none()),
        "undated deals come last"
    );
    let latest = index.companies.column_i32("latest_deal_date").unwrap();
    let company_dates: Vec<Option<i32>> = (0..index.companies.docs as u32)
        .map(|d| latest.get(d))
        .collect();
    let with: Vec<i32> = company_dates.iter().flatten().copied().collect();
    assert!(with.windows(2).all(|w| w[0] >= w[1]));
}

#[test]
fn a_rebuild_embeds_only_new_texts() {
    let dir = scratch("embed-cache");
    let dump = copy_fixture_dump(&dir);
    let options = |out: &str| BuildOptions {
        semantic: Some(fundsearch::index::build::SemanticOptions {
            embedder: model(fundsearch::embed::ModelKind::MiniLm),
            cache_dir: Some(dir.join(".embed-cache")),
        }),
        ..strict_build(&dump, dir.join(out))
    };
    let first = build_index(&options("a")).unwrap().embed.unwrap();
    assert_eq!((first.from_cache, first.embedded), (0, 24));
    // One company's description changes: only it is embedded again.
    let companies = std::fs::read_to_string(dump.join("companies.jsonl")).unwrap();
    let changed = companies.replacen(
        "Autonomous mobile robots for warehouse picking.",
        "Robot arms that sort parcels.",
        1,
    );
    assert_ne!(changed, companies);
    std::fs::write(dump.join("companies.jsonl"), changed).unwrap();
    let second = build_index(&options("b")).unwrap().embed.unwrap();
    assert_eq!((second.from_cache, second.embedded), (23, 1));
    let a = Index::open(&dir.join("a")).unwrap();
    let b = Index::open(&dir.join("b")).unwrap();
    let (va, vb) = (a.vectors.unwrap(), b.vectors.unwrap());
    let same = (0..va.rows() as u32)
        .filter(|&r| va.codes(r) == vb.codes(r))
        .count();
    assert_eq!(
        same, 23,
        "cached vectors are the vectors of the first build"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

/// A copy of the fixture dump in `dir/dump`, to damage or edit.
fn copy_fixture_dump(dir: &std::path::Path) -> std::path::PathBuf {
    let dump = dir.join("dump");
    std::fs::create_dir_all(&dump).unwrap();
    for f in std::fs::read_dir(repo().join("fixtures/dump")).unwrap() {
        let f = f.unwrap();
        std::fs::copy(f.path(), dump.join(f.file_name())).unwrap();
    }
    dump
}
