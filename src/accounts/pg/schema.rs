//! The database schema as an ordered list of migrations, applied at open.
//!
//! Migration `i` (0-based in [`MIGRATIONS`]) brings the schema to version
//! `i + 1`; each applied version is a row of `fundsearch_schema(version,
//! applied_at)`. [`migrate`] runs in one transaction that first takes
//! `pg_advisory_xact_lock(`[`MIGRATION_LOCK`]`)`, so servers starting
//! together apply each migration once, one after the other, and a failed
//! migration leaves the database as it was. A database at a version this
//! binary does not know (a newer server migrated it) is refused: its tables
//! may mean something this code would get wrong. Migrations are only ever
//! appended; a released one is never edited.
//!
//! The tables and what each column means are documented with the store
//! (`accounts::pg`); the SQL below is their definition.

use std::io;

use postgres::Client;

use super::pool::Failure;

/// The advisory lock key migrations hold ("fundsear" in ASCII).
pub const MIGRATION_LOCK: i64 = 0x6675_6e64_7365_6172;

/// Version 1: users, keys, charges, unlocks, alerts, rate windows.
const V1: &str = "
CREATE TABLE users (
    name          text PRIMARY KEY CHECK (name <> ''),
    plan          text NOT NULL
                  CHECK (plan IN ('trial', 'pro', 'pro_plus', 'enterprise', 'api')),
    month         text CHECK (month ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
    monthly_used  bigint NOT NULL DEFAULT 0 CHECK (monthly_used >= 0),
    month_credits bigint NOT NULL DEFAULT 0 CHECK (month_credits >= 0),
    purchased     bigint NOT NULL DEFAULT 0 CHECK (purchased >= 0),
    semantic_used bigint NOT NULL DEFAULT 0 CHECK (semantic_used >= 0),
    created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE api_keys (
    key_id     text PRIMARY KEY,
    user_name  text NOT NULL REFERENCES users (name),
    salt       bytea NOT NULL CHECK (length(salt) = 16),
    digest     bytea NOT NULL CHECK (length(digest) = 32),
    active     boolean NOT NULL DEFAULT true,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX api_keys_by_user ON api_keys (user_name);
CREATE TABLE charges (
    id        bigserial PRIMARY KEY,
    user_name text NOT NULL REFERENCES users (name),
    key_id    text NOT NULL,
    kind      text NOT NULL CHECK (kind IN ('charge', 'unlock')),
    person    uuid CHECK ((kind = 'unlock') = (person IS NOT NULL)),
    month     text NOT NULL,
    credits   bigint NOT NULL CHECK (credits >= 0),
    monthly   bigint NOT NULL CHECK (monthly >= 0),
    purchased bigint NOT NULL CHECK (purchased >= 0),
    semantic  bigint NOT NULL CHECK (semantic >= 0),
    at        timestamptz NOT NULL
);
CREATE INDEX charges_by_user ON charges (user_name, month);
CREATE TABLE unlocks (
    user_name text NOT NULL REFERENCES users (name),
    person    uuid NOT NULL,
    PRIMARY KEY (user_name, person)
);
CREATE TABLE alerts (
    position  bigserial PRIMARY KEY,
    id        uuid NOT NULL UNIQUE,
    user_name text NOT NULL REFERENCES users (name),
    config    jsonb NOT NULL
);
CREATE INDEX alerts_by_user ON alerts (user_name, position);
CREATE UNLOGGED TABLE rate_windows (
    key_id       text NOT NULL,
    window_start bigint NOT NULL,
    n            bigint NOT NULL,
    PRIMARY KEY (key_id, window_start)
);
";

/// Every migration, oldest first: entry `i` makes version `i + 1`.
pub const MIGRATIONS: &[&str] = &[V1];

const VERSION_TABLE: &str = "
CREATE TABLE IF NOT EXISTS fundsearch_schema (
    version    int PRIMARY KEY,
    applied_at timestamptz NOT NULL DEFAULT now()
)";

/// Brings the schema to the latest version this binary knows, or refuses
/// a newer one; returns the version the database is now at.
pub fn migrate(client: &mut Client) -> Result<usize, Failure> {
    let mut tx = client.transaction()?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])?;
    tx.batch_execute(VERSION_TABLE)?;
    let row = tx.query_one(
        "SELECT coalesce(max(version), 0) FROM fundsearch_schema",
        &[],
    )?;
    let current = known_version(row.get::<_, i32>(0))?;
    for (version, sql) in MIGRATIONS.iter().enumerate().skip(current) {
        tx.batch_execute(sql)?;
        let version = (version + 1) as i32;
        tx.execute(
            "INSERT INTO fundsearch_schema (version) VALUES ($1)",
            &[&version],
        )?;
    }
    tx.commit()?;
    Ok(MIGRATIONS.len())
}

/// `version` as an index into [`MIGRATIONS`]; an error if this binary does
/// not know it.
fn known_version(version: i32) -> Result<usize, Failure> {
    let known = MIGRATIONS.len();
    match usize::try_from(version) {
        Ok(v) if v <= known => Ok(v),
        _ => Err(Failure::Io(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "the accounts database is at schema version {version}; this server knows \
                 versions up to {known}: run a server at least as new as the one that migrated it"
            ),
        ))),
    }
}
