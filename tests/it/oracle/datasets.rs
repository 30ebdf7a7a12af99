//! The worlds the oracle answers on, each loaded once per run: the
//! hand-written fixture dump (as of 2026-11-01, like `common::fixture_index`).

use std::sync::OnceLock;

use fundsearch::schema::Date;

use super::World;
use crate::common::repo;

/// The fixture dump's facts and aggregates as of 2026-11-01.
pub fn fixture_world() -> &'static World {
    static WORLD: OnceLock<World> = OnceLock::new();
    WORLD.get_or_init(|| World::load(&repo().join("fixtures/dump"), Date::parse("2026-11-01").unwrap()))
}
