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

use crate::common::script::run_with_binaries;

#[test]
fn the_explorer_and_the_reference_work_in_a_real_browser() {
    let run = run_with_binaries("scripts/browser-test.sh", "browser");
    assert!(
        run.ok,
        "browser test failed {}",
        run.report(&run.stderr, 60)
    );
    for check in [
        "has a label",
        "page 2:",
        "/docs lists all",
        "an invalid page_size shows",
        "passed in",
    ] {
        assert!(
            run.summary.iter().any(|l| l.contains(check)),
            "no {check:?} in {:?}",
            run.summary
        );
    }
}
