//! Alert configurations in `alerts`: one JSON document each (the serde form
//! of [`AlertConfig`], as the journal stores it), listed by `position`, a
//! sequence that makes "oldest first" the insertion order. Saving locks the
//! user's row, so the [`MAX_ALERTS`] check and the insert are one decision
//! even when replicas save for the same user at once.

use std::io;

use postgres::types::Json;
use postgres::Row;
use uuid::Uuid;

use super::super::account_store::{AlertLimit, MAX_ALERTS};
use super::pool::Failure;
use super::session::{Session, Sql};
use super::users::unknown_user;
use crate::schema::alert::AlertConfig;

/// Saves `alert` for an existing `user` unless they have [`MAX_ALERTS`].
pub fn create(
    client: &mut Session,
    user: &str,
    alert: &AlertConfig,
) -> Result<Result<(), AlertLimit>, Failure> {
    let mut tx = client.transaction()?;
    let locked = tx.query_opt("SELECT 1 FROM users WHERE name = $1 FOR UPDATE", &[&user])?;
    locked.ok_or_else(|| unknown_user(user))?;
    let count = tx.query_one("SELECT count(*) FROM alerts WHERE user_name = $1", &[&user])?;
    if usize::try_from(count.get::<_, i64>(0)).unwrap_or(usize::MAX) >= MAX_ALERTS {
        return Ok(Err(AlertLimit { limit: MAX_ALERTS }));
    }
    tx.execute(
        "INSERT INTO alerts (id, user_name, config) VALUES ($1, $2, $3)",
        &[&alert.id, &user, &Json(alert)],
    )?;
    tx.commit()?;
    Ok(Ok(()))
}

/// Removes `user`'s alert `id`; `None` if the user has no such alert.
pub fn delete(client: &mut Session, user: &str, id: Uuid) -> Result<Option<AlertConfig>, Failure> {
    let row = client.query_opt(
        "DELETE FROM alerts WHERE user_name = $1 AND id = $2 RETURNING config",
        &[&user, &id],
    )?;
    row.map(|row| config(&row)).transpose()
}

/// `user`'s alerts, oldest first.
pub fn of_user(client: &mut Session, user: &str) -> Result<Vec<AlertConfig>, Failure> {
    let sql = "SELECT config FROM alerts WHERE user_name = $1 ORDER BY position";
    let rows = client.query(sql, &[&user])?;
    rows.iter().map(config).collect()
}

fn config(row: &Row) -> Result<AlertConfig, Failure> {
    let Json(config) = row.try_get::<_, Json<AlertConfig>>(0).map_err(|e| {
        let message = format!("an alert configuration in the database: {e}");
        io::Error::new(io::ErrorKind::InvalidData, message)
    })?;
    Ok(config)
}
