//! The small command line of the in-process latency benches: `--name N`
//! options and a `main` that reports a failure on stderr with its bench's name.

use std::process::ExitCode;

/// The value of `--name N` on the command line, or `default`.
pub fn arg(name: &str, default: usize) -> usize {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Runs a bench, printing `<bench> bench: <error>` and failing on error.
pub fn exit_with(bench: &str, result: Result<(), String>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{bench} bench: {e}");
            ExitCode::FAILURE
        }
    }
}
