//! Account administration (`server keys …`) while a server runs.
//!
//! One process owns a state directory at a time (its `LOCK`). The `keys`
//! commands open the state themselves when it is free; when a server holds
//! it, they send the same operation to that server through a Unix socket in
//! the state directory, `admin.sock` (mode 0600: whoever may read the state
//! directory's owner files may administer it, nobody else). The server
//! applies it with the same [`AccountStore`] calls, durably, and answers.
//!
//! Protocol: one JSON line each way per connection.
//!
//! ```text
//! → {"op":"create_key","user":"acme","plan":"pro"}
//! ← {"ok":true,"reply":{"key":"vg_…"}}
//! → {"op":"add_credits","user":"acme","credits":500}
//! ← {"ok":true,"reply":{"user":"acme","monthly_remaining":200,"purchased_remaining":500}}
//! → {"op":"deactivate","key_id":"0f3a9c2b1d4e"}
//! ← {"ok":false,"error":"no key with id 0f3a9c2b1d4e"}
//! → {"op":"create_alert","user":"acme","configuration":{"configuration_name":"AI seed","filters":{…}}}
//! ← {"ok":true,"reply":{"alert":{"id":"<uuid>","name":"AI seed",…}}}
//! → {"op":"list_alerts","user":"acme"}
//! ← {"ok":true,"reply":{"alerts":[…]}}
//! → {"op":"delete_alert","user":"acme","id":"<uuid>"}
//! ← {"ok":true,"reply":{"deleted_alert":"<uuid>"}}
//! → {"op":"reload"}
//! ← {"ok":true,"reply":{"generation":2,"dir":"/srv/index/gen-0002"}}
//! ```
//!
//! `reload` (`server reload`) exists only on a running server: it swaps in
//! what the server's `--index` names now (see `api::reload`).
//!
//! An alert configuration is the body of `POST /v1/alerts/configurations`,
//! validated by the same parser (its problems are listed in the error).
//!
//! An answer means the change is durable. A connection that breaks after
//! the request was sent leaves the outcome unknown; the client says so.

use std::io::{self, BufRead, BufReader, Write};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt};
use tokio::net::UnixListener;

use uuid::Uuid;

use super::reload::reload;
use super::state::App;
use crate::accounts::{AccountStore, Plan};
use crate::api::body::parse_alert_configuration;
use crate::schema::alert::AlertConfig;

/// File name of the socket inside the state directory.
pub const SOCKET_FILE: &str = "admin.sock";
/// Longest request line accepted (an alert configuration fits).
const MAX_LINE: usize = 64 * 1024;
/// How long the client waits for the server's answer.
const CLIENT_TIMEOUT: Duration = Duration::from_secs(30);

/// One administrative operation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum AdminOp {
    /// A new key, creating the user with `plan` if new.
    CreateKey { user: String, plan: Plan },
    /// Purchased credits added to an existing user.
    AddCredits { user: String, credits: u64 },
    /// A key deactivated by its id.
    Deactivate { key_id: String },
    /// An alert configuration saved for an existing user.
    CreateAlert {
        user: String,
        configuration: serde_json::Value,
    },
    /// A user's alert configurations.
    ListAlerts { user: String },
    /// One of a user's alert configurations removed.
    DeleteAlert { user: String, id: Uuid },
    /// The running server reopens what its `--index` names now and serves
    /// it as a new generation (see `api::reload`).
    Reload,
}

/// What an operation produced.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum AdminReply {
    Key {
        key: String,
    },
    Balance {
        user: String,
        monthly_remaining: u64,
        purchased_remaining: u64,
    },
    Deactivated {
        deactivated: String,
    },
    Alert {
        alert: Box<AlertConfig>,
    },
    Alerts {
        alerts: Vec<AlertConfig>,
    },
    AlertDeleted {
        deleted_alert: Uuid,
    },
    Reloaded {
        generation: u64,
        dir: String,
    },
}

impl AdminReply {
    /// The line the CLI prints.
    pub fn line(&self) -> String {
        match self {
            AdminReply::Key { key } => key.clone(),
            AdminReply::Balance {
                user,
                monthly_remaining,
                purchased_remaining,
            } => {
                format!("{user}: {monthly_remaining} monthly + {purchased_remaining} purchased credits remaining")
            }
            AdminReply::Deactivated { deactivated } => format!("deactivated {deactivated}"),
            AdminReply::Alert { alert } => pretty(alert),
            AdminReply::Alerts { alerts } => pretty(alerts),
            AdminReply::AlertDeleted { deleted_alert } => format!("deleted alert {deleted_alert}"),
            AdminReply::Reloaded { generation, dir } => {
                format!("serving generation {generation} from {dir}")
            }
        }
    }
}

fn pretty<T: Serialize>(value: &T) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

/// Saves the alert configuration `body` (a `POST /alerts/configurations` body) for `user`.
fn create_alert(
    accounts: &dyn AccountStore,
    user: &str,
    body: &serde_json::Value,
) -> Result<AdminReply, String> {
    let draft = parse_alert_configuration(body.to_string().as_bytes()).map_err(|e| {
        let problems = e.details["errors"].as_array().map_or(Vec::new(), |items| {
            items
                .iter()
                .map(|i| {
                    format!(
                        "{}: {}",
                        i["field"].as_str().unwrap_or(""),
                        i["message"].as_str().unwrap_or("")
                    )
                })
                .collect()
        });
        format!(
            "invalid alert configuration: {}",
            if problems.is_empty() {
                e.message
            } else {
                problems.join("; ")
            }
        )
    })?;
    let alert = draft.into_config(chrono::Utc::now());
    match accounts
        .create_alert(user, alert.clone())
        .map_err(|e| e.to_string())?
    {
        Ok(()) => Ok(AdminReply::Alert {
            alert: Box::new(alert),
        }),
        Err(limit) => Err(format!(
            "{user} already has {} alert configurations",
            limit.limit
        )),
    }
}

/// Applies `op` to `accounts` (durably); the error is for the operator.
/// Without a server only account operations can run.
pub fn execute(accounts: &dyn AccountStore, op: &AdminOp) -> Result<AdminReply, String> {
    match op {
        AdminOp::Reload => Err("no server is running on this state directory (a server opens the newest index when it starts)".into()),
        AdminOp::CreateAlert {
            user,
            configuration,
        } => create_alert(accounts, user, configuration),
        AdminOp::ListAlerts { user } => accounts
            .alerts_of(user)
            .map(|alerts| AdminReply::Alerts { alerts })
            .map_err(|e| e.to_string()),
        AdminOp::DeleteAlert { user, id } => match accounts.delete_alert(user, *id) {
            Ok(Some(_)) => Ok(AdminReply::AlertDeleted { deleted_alert: *id }),
            Ok(None) => Err(format!("{user} has no alert {id}")),
            Err(e) => Err(e.to_string()),
        },
        AdminOp::CreateKey { user, plan } => accounts
            .create_key(user, *plan)
            .map(|key| AdminReply::Key { key })
            .map_err(|e| e.to_string()),
        AdminOp::AddCredits { user, credits } => {
            let b = accounts
                .add_purchased(user, *credits)
                .map_err(|e| e.to_string())?;
            Ok(AdminReply::Balance {
                user: user.clone(),
                monthly_remaining: b.monthly_remaining,
                purchased_remaining: b.purchased_remaining,
            })
        }
        AdminOp::Deactivate { key_id } => match accounts.deactivate_key(key_id) {
            Ok(true) => Ok(AdminReply::Deactivated {
                deactivated: key_id.clone(),
            }),
            Ok(false) => Err(format!("no key with id {key_id}")),
            Err(e) => Err(e.to_string()),
        },
    }
}

/// One answer line.
#[derive(Debug, Serialize, Deserialize)]
struct Answer {
    ok: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    reply: Option<AdminReply>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

impl Answer {
    fn of(result: Result<AdminReply, String>) -> Answer {
        match result {
            Ok(reply) => Answer {
                ok: true,
                reply: Some(reply),
                error: None,
            },
            Err(error) => Answer {
                ok: false,
                reply: None,
                error: Some(error),
            },
        }
    }
}

/// The socket path of `state_dir`.
pub fn socket_path(state_dir: &Path) -> PathBuf {
    state_dir.join(SOCKET_FILE)
}

/// Binds the admin socket of `state_dir`, whose `LOCK` the caller holds
/// (so a socket file left there is stale and is replaced), owner-only.
pub fn bind(state_dir: &Path) -> io::Result<UnixListener> {
    let path = socket_path(state_dir);
    match std::fs::remove_file(&path) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
        _ => {}
    }
    let listener = UnixListener::bind(&path)?;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600))?;
    Ok(listener)
}

/// Applies `op` on the running server `app`: a reload, or an account operation.
fn execute_on(app: &App, op: &AdminOp) -> Result<AdminReply, String> {
    match op {
        AdminOp::Reload => reload(app, "admin socket")
            .map(|g| AdminReply::Reloaded {
                generation: g.number,
                dir: g.dir.display().to_string(),
            })
            .map_err(|refused| refused.to_string()),
        op => execute(&*app.accounts, op),
    }
}

/// Answers administrative requests on `listener` until the task is dropped;
/// each operation runs on the blocking pool (it waits for an fsync, or
/// reads a whole index).
pub async fn serve(listener: UnixListener, app: Arc<App>) {
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        let app = app.clone();
        tokio::spawn(async move {
            if let Err(e) = answer(stream, app).await {
                tracing::warn!(error = %e, "admin socket request failed");
            }
        });
    }
}

async fn answer(stream: tokio::net::UnixStream, app: Arc<App>) -> io::Result<()> {
    let (read, mut write) = stream.into_split();
    let mut line = String::new();
    let mut reader = tokio::io::BufReader::new(read).take(MAX_LINE as u64);
    tokio::time::timeout(Duration::from_secs(10), reader.read_line(&mut line))
        .await
        .map_err(|_| io::Error::new(io::ErrorKind::TimedOut, "no request line"))??;
    let result = match serde_json::from_str::<AdminOp>(line.trim()) {
        Err(e) => Err(format!("bad request: {e}")),
        Ok(op) => {
            let done = tokio::task::spawn_blocking(move || {
                let result = execute_on(&app, &op);
                match &result {
                    Ok(_) => tracing::info!(op = %describe(&op), "admin command done"),
                    Err(reason) => {
                        tracing::warn!(op = %describe(&op), %reason, "admin command refused")
                    }
                }
                result
            });
            done.await
                .unwrap_or_else(|e| Err(format!("internal error: {e}")))
        }
    };
    let mut out = serde_json::to_vec(&Answer::of(result)).map_err(io::Error::other)?;
    out.push(b'\n');
    write.write_all(&out).await?;
    write.shutdown().await
}

/// The operation without secrets, for the log.
fn describe(op: &AdminOp) -> String {
    match op {
        AdminOp::CreateKey { user, plan } => {
            format!("create_key user={user:?} plan={}", plan.as_str())
        }
        AdminOp::AddCredits { user, credits } => {
            format!("add_credits user={user:?} credits={credits}")
        }
        AdminOp::Deactivate { key_id } => format!("deactivate key_id={key_id}"),
        AdminOp::CreateAlert { user, .. } => format!("create_alert user={user:?}"),
        AdminOp::ListAlerts { user } => format!("list_alerts user={user:?}"),
        AdminOp::DeleteAlert { user, id } => format!("delete_alert user={user:?} id={id}"),
        AdminOp::Reload => "reload".into(),
    }
}

/// Sends `op` to the server that holds `state_dir` and returns its answer.
pub fn request(state_dir: &Path, op: &AdminOp) -> Result<AdminReply, String> {
    let path = socket_path(state_dir);
    let mut stream = UnixStream::connect(&path).map_err(|e| {
        format!(
            "the state is in use but no server answers on {} ({e})",
            path.display()
        )
    })?;
    stream
        .set_read_timeout(Some(CLIENT_TIMEOUT))
        .map_err(|e| e.to_string())?;
    let mut line = serde_json::to_vec(op).map_err(|e| e.to_string())?;
    line.push(b'\n');
    stream
        .write_all(&line)
        .map_err(|e| format!("sending to {}: {e}", path.display()))?;
    let mut answer = String::new();
    BufReader::new(stream).read_line(&mut answer).map_err(|e| {
        format!("the request was sent to the running server but its answer was lost ({e}); check before retrying")
    })?;
    let answer: Answer = serde_json::from_str(answer.trim()).map_err(|e| {
        format!("the running server's answer is unreadable ({e}); check before retrying")
    })?;
    match (answer.ok, answer.reply, answer.error) {
        (true, Some(reply), _) => Ok(reply),
        (_, _, Some(error)) => Err(error),
        _ => Err("the running server gave an empty answer".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operations_and_answers_are_one_json_line_each() {
        let op = AdminOp::CreateKey {
            user: "acme".into(),
            plan: Plan::Pro,
        };
        let json = serde_json::to_string(&op).unwrap();
        assert_eq!(json, r#"{"op":"create_key","user":"acme","plan":"pro"}"#);
        assert_eq!(serde_json::from_str::<AdminOp>(&json).unwrap(), op);
        let answer = Answer::of(Ok(AdminReply::Deactivated {
            deactivated: "0f3a9c2b1d4e".into(),
        }));
        let json = serde_json::to_string(&answer).unwrap();
        assert_eq!(
            json,
            r#"{"ok":true,"reply":{"deactivated":"0f3a9c2b1d4e"}}"#
        );
        let back: Answer = serde_json::from_str(&json).unwrap();
        assert_eq!(back.reply, answer.reply);
        assert!(serde_json::from_str::<AdminOp>(r#"{"op":"drop_all"}"#).is_err());
    }
}
