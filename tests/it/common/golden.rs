//! Golden JSON files under `tests/golden/`: a response must equal its file.
//! Run with `UPDATE_GOLDEN=1` to (re)write the files, then review the diff.

use std::path::PathBuf;

use serde_json::Value;

fn path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(format!("{name}.json"))
}

/// Asserts that `actual` equals the golden file `name` (or writes it).
pub fn assert_golden(name: &str, actual: &Value) {
    let file = path(name);
    let pretty = serde_json::to_string_pretty(actual).unwrap() + "\n";
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(&file, pretty).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&file).unwrap_or_else(|_| {
        panic!(
            "missing golden file {} (run with UPDATE_GOLDEN=1)",
            file.display()
        )
    });
    let expected: Value = serde_json::from_str(&expected).unwrap();
    assert_eq!(
        actual,
        &expected,
        "response differs from golden file {}",
        file.display()
    );
}
