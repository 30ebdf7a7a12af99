//! The served OpenAPI document, checked by machines: `scripts/conformance.sh`
//! starts the real server binary on a small synthetic index, fetches
//! `/openapi.json` without a key, validates it as OpenAPI 3.1
//! (openapi-spec-validator) and fuzzes every operation from it with
//! schemathesis: positive and negative cases, every check but
//! `positive_data_acceptance` (see the script). Any 5xx, any status, body,
//! content type or header the document does not describe, or any invalid
//! request accepted, fails this test.
//!
//! The Python tools are pinned and installed into `target/conformance/venv`
//! on first use (`.ci/run` installs them up front).

use std::process::Command;

#[test]
fn the_served_document_is_valid_and_the_fuzzer_finds_no_divergence() {
    let out = Command::new("bash")
        .arg("scripts/conformance.sh")
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
        .filter(|l| l.starts_with("conformance:"))
        .collect();
    println!("{}", summary.join("\n"));
    assert!(
        out.status.success(),
        "conformance failed ({}):\n{}\n--- output tail ---\n{}",
        out.status,
        summary.join("\n"),
        stdout
            .lines()
            .rev()
            .take(80)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(
        summary
            .iter()
            .any(|l| l.contains("operations tested") && l.contains("0 unique failures")),
        "{summary:?}"
    );
}
