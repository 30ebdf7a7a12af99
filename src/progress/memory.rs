//! The process's resident memory, as the kernel counts it
//! (`/proc/self/status`): `VmRSS` now and `VmHWM`, its peak so far. Read by
//! the build's step lines and the server's `/metrics`; `None` where there is
//! no such file (off Linux).

/// Resident bytes now.
pub fn resident_bytes() -> Option<u64> {
    status_kib("VmRSS:").map(|kib| kib * 1024)
}

/// The largest resident size of the process so far, in bytes.
pub fn peak_resident_bytes() -> Option<u64> {
    status_kib("VmHWM:").map(|kib| kib * 1024)
}

/// `, 2.05 GB resident (peak 2.71 GB)`, or nothing when unknown.
pub fn resident_note() -> String {
    match (resident_bytes(), peak_resident_bytes()) {
        (Some(now), Some(peak)) => format!(", {} resident (peak {})", gb(now), gb(peak)),
        _ => String::new(),
    }
}

fn gb(bytes: u64) -> String {
    format!("{:.2} GB", bytes as f64 / 1e9)
}

fn status_kib(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_peak_is_at_least_what_is_resident() {
        let (now, peak) = (resident_bytes().unwrap(), peak_resident_bytes().unwrap());
        assert!(now > 0 && peak >= now, "{now} {peak}");
        assert!(
            resident_note().starts_with(", ") && resident_note().contains(" GB resident (peak ")
        );
    }

    #[test]
    fn sizes_are_decimal_gigabytes_with_two_decimals() {
        assert_eq!(gb(2_713_228_000), "2.71 GB");
        assert_eq!(gb(0), "0.00 GB");
    }
}
