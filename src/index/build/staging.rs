//! The build's working directories, all beside `--out` and named after it
//! and the building process's id:
//!
//! - `.NAME.building-PID/`: the index being written, renamed to `NAME`
//!   once its manifest is synced;
//! - `.NAME.building-PID.spill/`: packed facts past half the `--memory`
//!   budget (`ingest::packed`);
//! - `.NAME.building-PID.old/`: the replaced index, for the moment between
//!   the two renames of publishing.
//!
//! A build removes its own whichever way it ends, but a build that is
//! killed (`kill -9`, the OOM killer, a power cut) cannot: at 1e7 companies
//! that leaves tens of GB behind, enough to make the next build run out of
//! disk. So every build first sweeps the ones whose process is no longer
//! running ([`sweep_stale`]); those of a build still running (another
//! process writing the same `NAME`) are left alone. A build killed between
//! publishing's two renames leaves `NAME` absent and the last index in
//! `.old`: that one is moved back, not removed. Where liveness cannot be
//! told (no `/proc`), nothing is swept.

use std::fs;
use std::path::{Path, PathBuf};

/// The directories of the build running in this process.
#[derive(Debug, Clone)]
pub struct Staging {
    /// Where the index is written before being published.
    pub dir: PathBuf,
    /// Where spilled facts go.
    pub spill: PathBuf,
}

impl Staging {
    /// This process's directories for the index published at `out`.
    pub fn for_output(out: &Path) -> Staging {
        let dir = out.with_file_name(format!(
            "{}{}",
            prefix(&output_name(out)),
            std::process::id()
        ));
        let spill = with_suffix(&dir, ".spill");
        Staging { dir, spill }
    }
}

/// Where the replaced index sits while `dir` is renamed into its place.
pub fn old_for(dir: &Path) -> PathBuf {
    with_suffix(dir, ".old")
}

/// What [`sweep_stale`] did with one directory a dead build left.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Swept {
    /// Removed: a partial index, spilled facts, or a replaced index.
    Removed(PathBuf),
    /// A replaced index moved back to the output, which a build killed in
    /// the middle of publishing had left absent.
    Restored(PathBuf),
}

impl std::fmt::Display for Swept {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Swept::Removed(p) => write!(
                f,
                "removed {} (left by a build no longer running)",
                p.display()
            ),
            Swept::Restored(p) => write!(
                f,
                "restored the index from {} (a build was killed while publishing)",
                p.display()
            ),
        }
    }
}

/// Which of a build's working directories a name is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Part {
    /// `.old`: the replaced index (swept first, so it can be put back).
    Old,
    /// No suffix: the partial index.
    Index,
    /// `.spill`: spilled facts.
    Spill,
}

/// Clears what builds of `out` left behind whose process is gone: a
/// replaced index (`.old`) goes back to `out` if `out` is absent, and every
/// other such directory is removed. Errors (a directory that cannot be
/// read, moved or removed) leave things as they are: the build goes on.
pub fn sweep_stale(out: &Path) -> Vec<Swept> {
    let mut stale = stale_dirs(out);
    stale.sort_by_key(|(_, part)| *part);
    stale
        .into_iter()
        .filter_map(|(dir, part)| sweep_one(dir, part, out))
        .collect()
}

fn sweep_one(dir: PathBuf, part: Part, out: &Path) -> Option<Swept> {
    if part == Part::Old && !out.exists() {
        return fs::rename(&dir, out).ok().map(|_| Swept::Restored(dir));
    }
    fs::remove_dir_all(&dir).ok().map(|_| Swept::Removed(dir))
}

/// The working directories beside `out` of builds no longer running.
fn stale_dirs(out: &Path) -> Vec<(PathBuf, Part)> {
    if !liveness_known() {
        return Vec::new();
    }
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let Ok(entries) = fs::read_dir(&parent) else {
        return Vec::new();
    };
    let prefix = prefix(&output_name(out));
    entries
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter_map(|e| {
            let (pid, part) = owner(&e.file_name().to_string_lossy(), &prefix)?;
            (!running(pid)).then(|| (e.path(), part))
        })
        .collect()
}

/// The process id and part in `.NAME.building-PID[.spill|.old]`, for
/// `prefix` `.NAME.building-`; `None` for any other name.
fn owner(file_name: &str, prefix: &str) -> Option<(u32, Part)> {
    let rest = file_name.strip_prefix(prefix)?;
    let digits = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    let (pid, suffix) = rest.split_at(digits);
    let part = match suffix {
        "" => Part::Index,
        ".spill" => Part::Spill,
        ".old" => Part::Old,
        _ => return None,
    };
    Some((pid.parse().ok()?, part))
}

fn output_name(out: &Path) -> String {
    out.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "index".into())
}

fn prefix(name: &str) -> String {
    format!(".{name}.building-")
}

fn with_suffix(dir: &Path, suffix: &str) -> PathBuf {
    let mut name = dir.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

fn liveness_known() -> bool {
    Path::new("/proc/self").exists()
}

fn running(pid: u32) -> bool {
    Path::new("/proc").join(pid.to_string()).exists()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn owner_reads_the_pid_of_every_working_directory_and_nothing_else() {
        let p = ".idx.building-";
        assert_eq!(owner(".idx.building-123", p), Some((123, Part::Index)));
        assert_eq!(
            owner(".idx.building-123.spill", p),
            Some((123, Part::Spill))
        );
        assert_eq!(owner(".idx.building-123.old", p), Some((123, Part::Old)));
        for other in [
            "idx",
            ".idx.building-",
            ".idx.building-12x",
            ".idx.building-123.tmp",
            ".idx2.building-123",
            ".other.building-123",
        ] {
            assert_eq!(owner(other, p), None, "{other}");
        }
    }

    #[test]
    fn staging_names_follow_the_output_and_this_process() {
        let s = Staging::for_output(Path::new("/data/idx"));
        let pid = std::process::id();
        assert_eq!(s.dir, PathBuf::from(format!("/data/.idx.building-{pid}")));
        assert_eq!(
            s.spill,
            PathBuf::from(format!("/data/.idx.building-{pid}.spill"))
        );
        assert_eq!(
            old_for(&s.dir),
            PathBuf::from(format!("/data/.idx.building-{pid}.old"))
        );
    }

    /// A pid above the kernel's maximum (2^22) is never running.
    const DEAD: u32 = 4_999_999;

    #[test]
    fn sweep_removes_what_dead_builds_left_and_keeps_the_rest() {
        let root = tempfile::tempdir().unwrap();
        let out = root.path().join("idx");
        let ours = Staging::for_output(&out);
        let dead = [
            format!(".idx.building-{DEAD}"),
            format!(".idx.building-{DEAD}.spill"),
            format!(".idx.building-{DEAD}.old"),
        ];
        let kept = [".other.building-4999999".to_string(), "idx".to_string()];
        for name in dead.iter().chain(&kept) {
            fs::create_dir_all(root.path().join(name).join("sub")).unwrap();
        }
        fs::create_dir_all(&ours.dir).unwrap();
        fs::create_dir_all(&ours.spill).unwrap();
        fs::create_dir_all(&out).unwrap();
        let mut swept = sweep_stale(&out);
        swept.sort_by_key(|s| format!("{s:?}"));
        let mut expected: Vec<Swept> = dead
            .iter()
            .map(|n| Swept::Removed(root.path().join(n)))
            .collect();
        expected.sort_by_key(|s| format!("{s:?}"));
        assert_eq!(swept, expected);
        for name in &kept {
            assert!(root.path().join(name).is_dir(), "{name} kept");
        }
        assert!(
            ours.dir.is_dir() && ours.spill.is_dir(),
            "a running build's directories kept"
        );
    }

    #[test]
    fn sweep_puts_back_an_index_a_killed_publish_left_aside() {
        let root = tempfile::tempdir().unwrap();
        let out = root.path().join("idx");
        let old = root.path().join(format!(".idx.building-{DEAD}.old"));
        let partial = root.path().join(format!(".idx.building-{DEAD}"));
        fs::create_dir_all(&old).unwrap();
        fs::write(old.join("manifest.json"), b"{}").unwrap();
        fs::create_dir_all(&partial).unwrap();
        let swept = sweep_stale(&out);
        assert_eq!(
            swept,
            vec![Swept::Restored(old.clone()), Swept::Removed(partial)]
        );
        assert_eq!(fs::read(out.join("manifest.json")).unwrap(), b"{}");
        assert!(!old.exists());
    }
}
