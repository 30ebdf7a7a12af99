//! The data sets the oracle is compared on, each built once per run: the
//! hand-written fixture dump (as of 2026-11-01), the real Crunchbase 2013 +
//! YC 2014 import (as of 2014-09-05, shared with `real_data.rs`) and a
//! synthetic dump of 2,000 companies from the generator (as of 2026-11-01).

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
        let dir = scratch("oracle-synthetic");
        let as_of = day("2026-11-01");
        let opts = GenerateOptions {
            companies: SYNTHETIC_COMPANIES,
            seed: SYNTHETIC_SEED,
            out: dir.join("dump"),
            as_of,
        };
        generate(&opts).expect("the synthetic dump generates");
        build_with(
            &dir.join("dump"),
            &dir.join("index"),
            "2026-11-01",
            semantic(ModelKind::WordLlama),
        );
        (
            Index::open(&dir.join("index")).expect("the synthetic index opens"),
            World::load(&dir.join("dump"), as_of),
        )
    });
    Dataset {
        name: "synthetic",
        index,
        world,
    }
}

fn day(text: &str) -> Date {
    Date::parse(text).expect("a valid day")
}
