//! API keys in `api_keys`: issued, checked, listed and deactivated.
//!
//! The format, the generation and the digest are the journal store's
//! (`accounts::key`): only the 16-byte salt and `SHA-256(salt ‖ key)` are
//! stored, and the presented key's digest is compared in constant time.
//! Checking a key is one SELECT joining the user's current plan.

use std::io;

use super::super::key::{self, constant_time_eq, AuthFailure, NewKey, Principal};
use super::super::plan::Plan;
use super::super::store::KeyInfo;
use super::pool::Failure;
use super::session::{Session, Sql, Tx};
use super::users;

/// A key's stored row with its user's plan, as `authenticate` reads it.
pub struct StoredKey {
    user: String,
    salt: Vec<u8>,
    digest: Vec<u8>,
    active: bool,
    plan: String,
}

/// Issues a key for `user`, creating the user with `plan` if new (an
/// existing user keeps their plan); returns the plaintext.
pub fn create(client: &mut Session, user: &str, plan: Plan) -> Result<String, Failure> {
    if user.is_empty() {
        let message = "user name must not be empty";
        return Err(io::Error::new(io::ErrorKind::InvalidInput, message).into());
    }
    let mut tx = client.transaction()?;
    tx.execute(
        "INSERT INTO users (name, plan) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
        &[&user, &plan.as_str()],
    )?;
    let new = loop {
        let candidate = key::generate()?;
        if insert(&mut tx, user, &candidate)? {
            break candidate;
        }
    };
    tx.commit()?;
    Ok(new.plaintext)
}

/// Inserts `new` unless its id is taken; whether it was inserted.
fn insert(tx: &mut Tx<'_>, user: &str, new: &NewKey) -> Result<bool, Failure> {
    let inserted = tx.execute(
        "INSERT INTO api_keys (key_id, user_name, salt, digest) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (key_id) DO NOTHING",
        &[
            &new.key_id,
            &user,
            &new.salt.as_slice(),
            &new.digest.as_slice(),
        ],
    )?;
    Ok(inserted == 1)
}

/// The stored key `key_id` and its user's plan, if issued.
pub fn find(client: &mut Session, key_id: &str) -> Result<Option<StoredKey>, Failure> {
    let row = client.query_opt(
        "SELECT k.user_name, k.salt, k.digest, k.active, u.plan \
         FROM api_keys k JOIN users u ON u.name = k.user_name WHERE k.key_id = $1",
        &[&key_id],
    )?;
    Ok(row.map(|row| StoredKey {
        user: row.get(0),
        salt: row.get(1),
        digest: row.get(2),
        active: row.get(3),
        plan: row.get(4),
    }))
}

/// Checks the presented `key` (id `key_id`) against its stored row.
pub fn verify(key: &str, key_id: &str, stored: StoredKey) -> Result<Principal, AuthFailure> {
    let salt = stored.salt.as_slice().try_into();
    let salt = salt.map_err(|_| AuthFailure::Unknown)?;
    if !constant_time_eq(&key::digest(salt, key), &stored.digest) {
        return Err(AuthFailure::Unknown);
    }
    if !stored.active {
        return Err(AuthFailure::Inactive);
    }
    let plan = users::plan(&stored.plan).map_err(|_| AuthFailure::Unknown)?;
    Ok(Principal {
        user: stored.user,
        key_id: key_id.to_string(),
        plan,
    })
}

/// Deactivates `key_id`; `false` if it is unknown or already inactive.
pub fn deactivate(client: &mut Session, key_id: &str) -> Result<bool, Failure> {
    let sql = "UPDATE api_keys SET active = false WHERE key_id = $1 AND active";
    Ok(client.execute(sql, &[&key_id])? == 1)
}

/// The keys of `user`, sorted by id.
pub fn of_user(client: &mut Session, user: &str) -> Result<Vec<KeyInfo>, Failure> {
    let rows = client.query(
        "SELECT key_id, active FROM api_keys WHERE user_name = $1 ORDER BY key_id COLLATE \"C\"",
        &[&user],
    )?;
    let key = |row: postgres::Row| KeyInfo {
        key_id: row.get(0),
        active: row.get(1),
    };
    Ok(rows.into_iter().map(key).collect())
}
