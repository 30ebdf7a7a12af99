//! The pages in a real browser: `scripts/browser-test.sh` starts the real
//! server binary on a small synthetic index with a demo key and drives
//! headless Chromium (Debian's `chromium`, through Python Playwright) over
//! the explorer and the reference: every form control labelled, a company
//! search with a location filter picked through the autocomplete by
//! keyboard, paged forward and back, its table,
//! total count and credits checked against the API's own answer; an API
//! error shown from its envelope; the key kept across a reload; `/docs`
//! listing every operation of `/openapi.json`; no request to another origin.
//!
//! Chromium (apt, when missing and running as root) and the pinned
//! Playwright (into `target/browser/venv`) are installed on first use;
//! `.ci/run` installs them up front.

use std::process::Command;

#[test]
fn the_explorer_and_the_reference_work_in_a_real_browser() {
    let out = Command::new("bash")
        .arg("scripts/browser-test.sh")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("SERVER_BIN", env!("CARGO_BIN_EXE_server"))
        .env("INDEXER_BIN", env!("CARGO_BIN_EXE_indexer"))
        .output()
        .expect("bash runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let summary: Vec<&str> = stdout
        .lines()
        .chain(stderr.lines())
        .filter(|l| l.starts_with("browser:"))
        .collect();
    println!("{}", summary.join("\n"));
    let tail: Vec<&str> = stderr.lines().rev().take(60).collect();
    assert!(
        out.status.success(),
        "browser test failed ({}):\n{}\n--- stderr tail ---\n{}",
        out.status,
        summary.join("\n"),
        tail.into_iter().rev().collect::<Vec<_>>().join("\n")
    );
    for check in [
        "has a label",
        "page 2:",
        "/docs lists all",
        "an invalid page_size shows",
        "passed in",
    ] {
        assert!(
            summary.iter().any(|l| l.contains(check)),
            "no {check:?} in {summary:?}"
        );
    }
}
