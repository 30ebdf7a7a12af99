//! The data sets the oracle is compared on, each built once per run: the
//! hand-written fixture dump (as of 2026-11-01), the real Crunchbase 2013 +
//! YC 2014 import (as of 2014-09-05, shared with `real_data.rs`) and a
//! synthetic dump of 2,000 companies from the generator (as of 2026-11-01),
//! and a larger one (no vectors) with more than 65,536 deals, so that deal
//! sets span whole roaring containers (full runs among them: every deal,
//! the deals outside a date block).

use std::sync::OnceLock;

use fundsearch::index::Index;
use fundsearch::ingest::generate::{generate, GenerateOptions};
use fundsearch::schema::Date;

use super::World;
use crate::common::{build_with, fixture_index, repo, scratch, semantic};
use fundsearch::embed::ModelKind;

/// An index and the oracle's view of the same dump.
pub struct Dataset {
    pub name: &'static str,
    pub index: &'static Index,
    pub world: &'static World,
}

const SYNTHETIC_COMPANIES: u64 = 2_000;
const SYNTHETIC_SEED: u64 = 20_261_101;
const LARGE_COMPANIES: u64 = 30_000;
/// Ids per roaring container: the large data set has more deals than this.
const CONTAINER_IDS: usize = 1 << 16;

/// The fixture dump's facts and aggregates as of 2026-11-01.
pub fn fixture_world() -> &'static World {
    static WORLD: OnceLock<World> = OnceLock::new();
    WORLD.get_or_init(|| World::load(&repo().join("fixtures/dump"), day("2026-11-01")))
}

pub fn fixture() -> Dataset {
    Dataset {
        name: "fixture",
        index: fixture_index(),
        world: fixture_world(),
    }
}

pub fn real() -> Dataset {
    static WORLD: OnceLock<World> = OnceLock::new();
    let real = crate::real_data::real();
    let world = WORLD.get_or_init(|| World::load(&real.dump, day("2014-09-05")));
    Dataset {
        name: "real",
        index: &real.index,
        world,
    }
}

pub fn synthetic() -> Dataset {
    static BUILT: OnceLock<(Index, World)> = OnceLock::new();
    let (index, world) = BUILT.get_or_init(|| {
        generated(
            "oracle-synthetic",
            SYNTHETIC_COMPANIES,
            semantic(ModelKind::WordLlama),
        )
    });
    Dataset {
        name: "synthetic",
        index,
        world,
    }
}

pub fn large() -> Dataset {
    static BUILT: OnceLock<(Index, World)> = OnceLock::new();
    let (index, world) = BUILT.get_or_init(|| {
        let built = generated("oracle-large", LARGE_COMPANIES, None);
        assert!(
            built.0.deals.docs > CONTAINER_IDS,
            "the large data set has {} deals, not more than {CONTAINER_IDS}",
            built.0.deals.docs
        );
        built
    });
    Dataset {
        name: "large",
        index,
        world,
    }
}

/// A generated dump of `companies` (as of 2026-11-01), its index and world.
fn generated(
    name: &str,
    companies: u64,
    semantic: Option<fundsearch::index::build::SemanticOptions>,
) -> (Index, World) {
    let dir = scratch(name);
    let as_of = day("2026-11-01");
    let opts = GenerateOptions {
        companies,
        seed: SYNTHETIC_SEED,
        out: dir.join("dump"),
        as_of,
        compress: false,
    };
    generate(&opts).expect("the synthetic dump generates");
    build_with(
        &dir.join("dump"),
        &dir.join("index"),
        "2026-11-01",
        semantic,
    );
    (
        Index::open(&dir.join("index")).expect("the synthetic index opens"),
        World::load(&dir.join("dump"), as_of),
    )
}

fn day(text: &str) -> Date {
    Date::parse(text).expect("a valid day")
}
