//! Swapping index generations while serving: on SIGHUP, on the admin
//! socket's `reload`, and (with `--watch true`) whenever the `--index` path
//! comes to name another directory. Each trigger calls [`reload`], which
//! opens and verifies the new directory off the reactor and swaps it in
//! (see [`crate::index::generation`]); a refused directory is logged and
//! counted, and the current generation keeps serving.

use std::sync::Arc;
use std::time::Duration;

use super::state::App;
use crate::index::generation::{Generation, Identity, Refused};

/// Opens what `--index` names now and serves it; `trigger` is for the log.
pub fn reload(app: &App, trigger: &str) -> Result<Arc<Generation>, Refused> {
    let outcome = app.generations.reload();
    app.metrics.reloaded(outcome.is_ok());
    if let Ok(g) = &outcome {
        if let Err(e) = crate::query::exec::start_derivations(&g.index) {
            tracing::warn!(error = %e, "derivations not started");
        }
    }
    match &outcome {
        Ok(g) => tracing::info!(
            trigger, generation = g.number, dir = %g.dir.display(),
            as_of = %g.index.manifest.as_of, built_at = %g.index.manifest.built_at,
            "serving a new index generation"
        ),
        Err(refused) => tracing::warn!(trigger, %refused, "index generation refused"),
    }
    outcome
}

/// [`reload`] on the blocking pool (opening and verifying reads the whole index).
pub async fn reload_async(
    app: Arc<App>,
    trigger: &'static str,
) -> Result<Arc<Generation>, Refused> {
    let source = app.generations.source().to_path_buf();
    tokio::task::spawn_blocking(move || reload(&app, trigger))
        .await
        .unwrap_or_else(|e| {
            Err(Refused {
                dir: source,
                reason: format!("the reload task failed: {e}"),
            })
        })
}

/// Reloads on every SIGHUP until the task is dropped.
pub async fn on_hangup(app: Arc<App>) {
    use tokio::signal::unix::{signal, SignalKind};
    let mut hangups = match signal(SignalKind::hangup()) {
        Ok(s) => s,
        Err(e) => return tracing::warn!(error = %e, "SIGHUP will not reload the index"),
    };
    while hangups.recv().await.is_some() {
        let _ = reload_async(app.clone(), "SIGHUP").await;
    }
}

/// Checks every `every` whether `--index` names another directory and
/// reloads when it does; a directory once refused is not retried until
/// the path names yet another one.
pub async fn watch(app: Arc<App>, every: Duration) {
    let mut refused: Option<Identity> = None;
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let Some(pending) = app.generations.pending() else {
            continue;
        };
        if refused.as_ref() == Some(&pending) {
            continue;
        }
        refused = reload_async(app.clone(), "watch")
            .await
            .err()
            .map(|_| pending);
    }
}
