//! The terminal bars: one `indicatif` bar per running stage, in the style
//! of the plain lines (count/total, rate, ETA, elapsed).

use indicatif::{ProgressBar, ProgressState, ProgressStyle};

use super::{line, Unit};

const ITEMS: &str =
    "{prefix:>24} [{bar:28}] {counted} ({percent}%) {rate} ETA {eta} elapsed {elapsed}";
const BYTES: &str = "{prefix:>24} [{bar:28}] {decimal_bytes}/{decimal_total_bytes} ({percent}%) \
     {decimal_bytes_per_sec} ETA {eta} elapsed {elapsed}";

/// A bar for a stage of `total` units named `name` (not yet drawn anywhere).
pub(super) fn bar(name: &str, total: u64, unit: Unit) -> ProgressBar {
    ProgressBar::new(total)
        .with_style(style(unit))
        .with_prefix(name.to_string())
}

fn style(unit: Unit) -> ProgressStyle {
    let (template, what) = match unit {
        Unit::Bytes => (BYTES, ""),
        Unit::Items(what) => (ITEMS, what),
    };
    ProgressStyle::with_template(template)
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ")
        .with_key(
            "counted",
            move |s: &ProgressState, w: &mut dyn std::fmt::Write| {
                let total = s.len().unwrap_or(0);
                let _ = write!(w, "{}/{} {what}", line::count(s.pos()), line::count(total));
            },
        )
        .with_key(
            "rate",
            move |s: &ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{} {what}/s", line::count(s.per_sec().round() as u64));
            },
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_templates_parse() {
        assert!(ProgressStyle::with_template(ITEMS).is_ok());
        assert!(ProgressStyle::with_template(BYTES).is_ok());
    }
}
