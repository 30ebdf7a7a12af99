//! Runs a `scripts/*.sh` check that starts the real binaries (built for
//! this test run) and reports lines prefixed with its name.

use std::process::Command;

/// What a script run said.
pub struct ScriptRun {
    pub ok: bool,
    pub status: String,
    /// Its `<prefix>:` lines, from stdout then stderr.
    pub summary: Vec<String>,
    pub stdout: String,
    pub stderr: String,
}

impl ScriptRun {
    /// The summary, then the last `n` lines of `text`, for a failure message.
    pub fn report(&self, text: &str, n: usize) -> String {
        let lines: Vec<&str> = text.lines().collect();
        let tail = lines[lines.len().saturating_sub(n)..].join("\n");
        format!(
            "({}):\n{}\n--- output tail ---\n{tail}",
            self.status,
            self.summary.join("\n")
        )
    }
}

/// Runs `bash script` in the repository with `SERVER_BIN` and
/// `INDEXER_BIN` set to this build's binaries; prints its summary.
pub fn run_with_binaries(script: &str, prefix: &str) -> ScriptRun {
    let out = Command::new("bash")
        .arg(script)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("SERVER_BIN", env!("CARGO_BIN_EXE_server"))
        .env("INDEXER_BIN", env!("CARGO_BIN_EXE_indexer"))
        .output()
        .expect("bash runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let tag = format!("{prefix}:");
    let summary: Vec<String> = stdout
        .lines()
        .chain(stderr.lines())
        .filter(|l| l.starts_with(&tag))
        .map(str::to_string)
        .collect();
    println!("{}", summary.join("\n"));
    ScriptRun {
        ok: out.status.success(),
        status: out.status.to_string(),
        summary,
        stdout,
        stderr,
    }
}
