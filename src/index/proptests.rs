//! Property tests: every on-disk structure returns exactly what was written,
//! for arbitrary inputs (round trips through a real bundle file).

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use proptest::prelude::*;
use roaring::RoaringBitmap;
use uuid::Uuid;

use super::column::{write_sorted_column, Column, SortOrder, NULL_I64};
use super::facet::{Facet, FacetBuilder};
use super::format::{Bundle, BundleWriter};
use super::keymap::{write_ids, write_keymap, IdMap, KeyMap, KeyPairs};
use super::relation::Relation;
use super::relation_builder::RelationBuilder;
use super::store::{Store, StoreWriter, STORE_TAG};
use super::value_counts::{ValueCounts, ValueCountsBuilder};

fn temp_file(tag: &str) -> PathBuf {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("fundsearch-prop-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(format!("{tag}-{n}.bin"))
}

fn reopen(path: &std::path::Path) -> Bundle {
    Bundle::open(path, *b"PROP", true).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Value counts hold, per value and entity, the number of edges added
    /// and how many were led: the naive aggregation of the same edges.
    #[test]
    fn value_counts_aggregate_their_edges(edges in prop::collection::vec(("[A-D]{1,2}", 0u32..40, any::<bool>()), 0..300)) {
        let path = temp_file("counts");
        let mut builder = ValueCountsBuilder::default();
        let mut naive: BTreeMap<&str, BTreeMap<u32, (u32, u32)>> = BTreeMap::new();
        for (value, entity, led) in &edges {
            builder.add(value, *entity, *led);
            let slot = naive.entry(value.as_str()).or_default().entry(*entity).or_default();
            slot.0 += 1;
            slot.1 += u32::from(*led);
        }
        let mut w = BundleWriter::create(&path, *b"PROP").unwrap();
        builder.write(&mut w, "round_firms").unwrap();
        w.finish().unwrap();
        let counts = ValueCounts::open(&reopen(&path), "round_firms").unwrap();
        prop_assert!(counts.check(40).is_ok());
        for (value, per_entity) in &naive {
            let c = counts.of(value);
            let got: Vec<(u32, (u32, u32))> = (0..c.docs.len()).map(|i| (c.docs[i], (c.deals[i], c.leads[i]))).collect();
            prop_assert_eq!(got, per_entity.iter().map(|(&e, &n)| (e, n)).collect::<Vec<_>>());
        }
        prop_assert!(counts.of("absent").docs.is_empty());
        let values: Vec<String> = naive.keys().map(|v| v.to_string()).collect();
        prop_assert_eq!(counts.entries(&values), naive.values().map(|m| m.len()).sum::<usize>());
        if let Some(max) = edges.iter().map(|e| e.1).max() {
            prop_assert!(counts.check(max as usize).is_err(), "an entity at the limit is refused");
        }
        std::fs::remove_file(path).unwrap();
    }

    #[test]
    fn facets_round_trip(
        values in prop::collection::btree_map("[a-z0-9/-]{0,12}", prop::collection::btree_set(0u32..5000, 0..60), 0..20),
        limit in prop_oneof![Just(usize::MAX), 0usize..3000],
    ) {
        let path = temp_file("facet");
        let mut w = BundleWriter::create(&path, *b"PROP").unwrap();
        let mut builder = FacetBuilder::with_limit(w.dir(), limit);
        for (value, docids) in &values {
            builder.declare(value);
            docids.iter().for_each(|&d| builder.add(value, d));
        }
        builder.write(&mut w, "f").unwrap();
        w.finish().unwrap();
        let bundle = reopen(&path);
        let facet = Facet::open(&bundle, "f").unwrap();
        prop_assert_eq!(facet.len(), values.len());
        for (i, (value, docids)) in values.iter().enumerate() {
            prop_assert_eq!(facet.value(i), value.as_str());
            let got = facet.docids(value).unwrap().unwrap();
            prop_assert_eq!(got.iter().collect::<BTreeSet<u32>>(), docids.clone());
        }
        let absent = facet.docids("~absent~").unwrap();
        prop_assert!(absent.is_none());
        let all: RoaringBitmap = values.values().flatten().copied().collect();
        prop_assert_eq!(facet.union_of(values.keys().map(String::as_str)).unwrap(), all);
        // No value, one value (and an unknown one), the first two: shared or not, the same sets.
        let first: Vec<&str> = values.keys().take(2).map(String::as_str).collect();
        for picked in [&first[..0], &first[..first.len().min(1)], &first[..]] {
            let expected: RoaringBitmap = picked.iter().flat_map(|v| values[*v].iter().copied()).collect();
            let shared = facet.shared_union_of(picked.iter().copied().chain(["~absent~"])).unwrap();
            prop_assert_eq!(shared.as_ref(), &expected);
        }
        std::fs::remove_file(path).unwrap();
    }

    /// A facet held in memory and one spilled through its sorter after
    /// every few values write the same arrays, whatever order the (value,
    /// doc) pairs come in.
    #[test]
    fn spilled_facets_write_the_bytes_of_held_ones(
        pairs in prop::collection::vec(("[a-c]{0,2}", 0u32..300_000), 0..400),
        limit in 0usize..2000,
    ) {
        let arrays = |limit: usize| {
            let path = temp_file("facet-spill");
            let mut w = BundleWriter::create(&path, *b"PROP").unwrap();
            let mut builder = FacetBuilder::with_limit(w.dir(), limit);
            builder.declare("declared");
            pairs.iter().for_each(|(v, d)| builder.add(v, *d));
            builder.write(&mut w, "f").unwrap();
            w.finish().unwrap();
            let bundle = reopen(&path);
            let named = |a: &str| bundle.array::<u8>(&format!("facet.f.{a}")).unwrap().to_vec();
            let offsets = |a: &str| bundle.array::<u64>(&format!("facet.f.{a}")).unwrap().to_vec();
            let all = (named("keys"), offsets("key_offsets"), offsets("bitmap_offsets"), named("bitmaps"));
            std::fs::remove_file(path).unwrap();
            all
        };
        prop_assert_eq!(arrays(limit), arrays(usize::MAX));
    }

    #[test]
    fn columns_and_sort_orders_round_trip(values in prop::collection::vec(prop::option::of(-1000i64..1000), 0..300)) {
        let path = temp_file("column");
        let raw: Vec<i64> = values.iter().map(|v| v.unwrap_or(NULL_I64)).collect();
        let mut w = BundleWriter::create(&path, *b"PROP").unwrap();
        write_sorted_column(&mut w, "c", &raw).unwrap();
        w.finish().unwrap();
        let bundle = reopen(&path);
        let col = Column::<i64>::open(&bundle, "c", raw.len()).unwrap();
        for (d, v) in values.iter().enumerate() {
            prop_assert_eq!(col.get(d as u32), *v);
            prop_assert_eq!(col.in_range(d as u32, Some(-10), Some(10)), v.is_some_and(|v| (-10..=10).contains(&v)));
        }
        let order = SortOrder::open(&bundle, "c", raw.len()).unwrap();
        let mut expected: Vec<(i64, u32)> = values.iter().enumerate().filter_map(|(d, v)| v.map(|v| (v, d as u32))).collect();
        expected.sort();
        prop_assert_eq!(order.non_null().to_vec(), expected.iter().map(|e| e.1).collect::<Vec<_>>());
        let nulls: Vec<u32> = values.iter().enumerate().filter(|(_, v)| v.is_none()).map(|(d, _)| d as u32).collect();
        prop_assert_eq!(order.nulls().to_vec(), nulls);
        std::fs::remove_file(path).unwrap();
    }

    #[test]
    fn relations_round_trip(edges in prop::collection::vec((0u32..40, 0u32..1000, any::<u8>()), 0..400)) {
        let path = temp_file("relation");
        let sources = 40;
        let mut w = BundleWriter::create(&path, *b"PROP").unwrap();
        let mut builder = RelationBuilder::new_in(w.dir(), sources, true).unwrap();
        let mut expected: BTreeMap<u32, BTreeMap<u32, u8>> = BTreeMap::new();
        let mut by_source = edges.clone();
        by_source.sort_by_key(|e| e.0);
        for &(s, t, p) in &by_source {
            builder.add(s, t, p);
            expected.entry(s).or_default().entry(t).or_insert(p);
        }
        builder.write(&mut w, "r").unwrap();
        w.finish().unwrap();
        let bundle = reopen(&path);
        let rel = Relation::open(&bundle, "r", sources).unwrap();
        for s in 0..sources as u32 {
            let want = expected.get(&s).cloned().unwrap_or_default();
            prop_assert_eq!(rel.targets(s).to_vec(), want.keys().copied().collect::<Vec<_>>());
            prop_assert_eq!(rel.payload(s).to_vec(), want.values().copied().collect::<Vec<_>>());
            prop_assert_eq!(rel.degree(s), want.len());
        }
        std::fs::remove_file(path).unwrap();
    }

    #[test]
    fn key_maps_and_id_maps_round_trip(
        pairs in prop::collection::vec(("[a-z.]{1,8}", 0u32..100), 0..80),
        ids in prop::collection::btree_set(any::<u128>(), 0..80),
    ) {
        let path = temp_file("keymap");
        // Doc order is not UUID order: every other id from the back.
        let mut ids: Vec<Uuid> = ids.into_iter().map(Uuid::from_u128).collect();
        ids.sort_by_key(|id| (id.as_u128() % 2, std::cmp::Reverse(id.as_u128())));
        let mut w = BundleWriter::create(&path, *b"PROP").unwrap();
        let key_pairs = KeyPairs::from_pairs(w.dir(), pairs.iter().cloned());
        write_keymap(&mut w, "k", key_pairs).unwrap();
        write_ids(&mut w, ids.iter().copied()).unwrap();
        w.finish().unwrap();
        let bundle = reopen(&path);
        let map = KeyMap::open(&bundle, "k").unwrap();
        let mut expected: BTreeMap<String, BTreeSet<u32>> = BTreeMap::new();
        pairs.iter().for_each(|(k, d)| { expected.entry(k.clone()).or_default().insert(*d); });
        for (k, docs) in &expected {
            prop_assert_eq!(map.get(k), docs.iter().copied().collect::<Vec<_>>());
        }
        prop_assert!(map.get("zzzzzzzzz").is_empty());
        prop_assert_eq!(map.len(), expected.len());
        prop_assert!(map.check(100).is_ok());
        prop_assert_eq!(map.check(0).is_ok(), expected.is_empty());
        let idmap = IdMap::open(&bundle, ids.len()).unwrap();
        for (d, id) in ids.iter().enumerate() {
            prop_assert_eq!(idmap.uuid(d as u32), *id);
            prop_assert_eq!(idmap.docid(id), Some(d as u32));
            prop_assert_eq!(idmap.docid(&Uuid::from_u128(id.as_u128() ^ 1 << 127)).map(|d| ids[d as usize]), ids.iter().copied().find(|x| x.as_u128() == id.as_u128() ^ 1 << 127));
        }
        std::fs::remove_file(path).unwrap();
    }

    #[test]
    fn stores_round_trip_in_any_write_order(records in prop::collection::vec(prop::collection::vec(any::<u8>(), 0..50), 0..40), seed in any::<u64>()) {
        let path = temp_file("store");
        let mut order: Vec<usize> = (0..records.len()).collect();
        let n = order.len().max(1);
        order.rotate_left((seed as usize) % n);
        let mut w = StoreWriter::create(&path, "a", records.len()).unwrap();
        for &d in &order {
            w.set(d as u32, &records[d]).unwrap();
        }
        w.finish().unwrap();
        let bundle = Bundle::open(&path, STORE_TAG, true).unwrap();
        let a = Store::open(&bundle, "a", records.len(), std::sync::Arc::new(super::store::refs::NoUuids)).unwrap();
        for (d, record) in records.iter().enumerate() {
            prop_assert_eq!(&a.get(d as u32).unwrap()[..], &record[..]);
        }
        std::fs::remove_file(path).unwrap();
    }
}

/// `Edges::each_of` visits every source of its set, almost every source
/// or a few, full run containers included (roaring 0.12's `next_many` skips those: see
/// `index::docs`).
#[test]
fn each_of_visits_every_source_of_a_run() {
    let sources = 70_000usize;
    let path = temp_file("each-of");
    let mut w = BundleWriter::create(&path, *b"PROP").unwrap();
    let mut builder = RelationBuilder::new_in(w.dir(), sources, true).unwrap();
    for s in 0..sources as u32 {
        builder.add(s, s % 7, (s % 3) as u8);
    }
    builder.write(&mut w, "r").unwrap();
    w.finish().unwrap();
    let bundle = reopen(&path);
    let rel = Relation::open(&bundle, "r", sources).unwrap();
    // Most sources and a few, each set with a run container.
    let mut most = RoaringBitmap::new();
    most.insert_range(0..sources as u32);
    most.remove(3);
    let mut few: RoaringBitmap = (0..sources as u32).step_by(97).collect();
    few.insert_range(1_000..6_000);
    few.optimize();
    for set in [most, few] {
        assert!(set.statistics().n_run_containers > 0);
        let mut seen = Vec::new();
        rel.edges().each_of(&set, |s, targets, payload| {
            assert_eq!((targets, payload), (&[s % 7][..], &[(s % 3) as u8][..]));
            seen.push(s);
        });
        assert_eq!(seen, set.iter().collect::<Vec<u32>>());
    }
    std::fs::remove_file(path).unwrap();
}
