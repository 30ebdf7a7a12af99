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

use crate::common::script::run_with_binaries;

#[test]
fn the_served_document_is_valid_and_the_fuzzer_finds_no_divergence() {
    let run = run_with_binaries("scripts/conformance.sh", "conformance");
    assert!(run.ok, "conformance failed {}", run.report(&run.stdout, 80));
    assert!(
        run.summary
            .iter()
            .any(|l| l.contains("operations tested") && l.contains("0 unique failures")),
        "{:?}",
        run.summary
    );
}
