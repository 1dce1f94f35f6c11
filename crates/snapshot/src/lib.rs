//! The one snapshot helper of Faultline's tests (a dev-dependency of the engine and the app).
//!
//! A snapshot is a reviewed text file under a folder of snapshots. [`Snapshots::assert`] compares
//! what a test produced with it; with `UPDATE_SNAPSHOTS=1` in the environment it writes the file
//! instead, and the developer reviews the diff before committing it. [`Snapshots::assert_no_orphans`]
//! fails on a snapshot that no test produced any more (its fixture was renamed or removed), so that
//! a stale file cannot pass for a reviewed expectation; with `UPDATE_SNAPSHOTS=1` it deletes them.
//! No dependency: the helper is small enough to own, and `insta` is not in the graph.

// Test support: a failed comparison is reported by panicking, as `assert_eq!` does.
#![allow(clippy::panic, clippy::print_stderr)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The environment variable that turns comparisons into writes.
pub const UPDATE: &str = "UPDATE_SNAPSHOTS";

fn updating() -> bool {
    std::env::var_os(UPDATE).is_some_and(|v| !v.is_empty() && v != "0")
}

/// A folder of reviewed snapshots; names are paths relative to it (`rules/x/fires-a.yaml.txt`).
#[derive(Clone, Debug)]
pub struct Snapshots {
    dir: PathBuf,
}

impl Snapshots {
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Snapshots { dir: dir.into() }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Compares `actual` with the snapshot `name`; with `UPDATE_SNAPSHOTS=1` writes it instead
    /// (creating its folder). The failure names the first line that differs, both ways.
    pub fn assert(&self, name: &str, actual: &str) {
        let path = self.dir.join(name);
        if updating() {
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)
                    .unwrap_or_else(|e| panic!("cannot create {}: {e}", parent.display()));
            }
            let unchanged = std::fs::read_to_string(&path).is_ok_and(|old| old == actual);
            if !unchanged {
                std::fs::write(&path, actual)
                    .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
                eprintln!("updated snapshot {}", path.display());
            }
            return;
        }
        let expected = std::fs::read_to_string(&path).unwrap_or_else(|_| {
            panic!(
                "no snapshot {}; run with {UPDATE}=1 and review it",
                path.display()
            )
        });
        if expected != actual {
            let (mut e, mut a) = (expected.lines(), actual.lines());
            let mut line = 1;
            loop {
                match (e.next(), a.next()) {
                    (Some(x), Some(y)) if x == y => line += 1,
                    (x, y) => panic!(
                        "snapshot {name} differs from line {line}:\n  expected: {x:?}\n  actual:   {y:?}\n({UPDATE}=1 rewrites it; review the diff)"
                    ),
                }
            }
        }
    }

    /// Fails when a file under `under` (a folder of this one, `""` for all of it) is not among
    /// `expected` (names as given to [`Snapshots::assert`]): a snapshot nothing produces any more.
    /// With `UPDATE_SNAPSHOTS=1` the orphans are deleted instead.
    pub fn assert_no_orphans<S: AsRef<str>>(&self, under: &str, expected: impl IntoIterator<Item = S>) {
        let expected: BTreeSet<PathBuf> = expected.into_iter().map(|n| self.dir.join(n.as_ref())).collect();
        let mut orphans = Vec::new();
        walk(&self.dir.join(under), &mut |path| {
            if !expected.contains(path) {
                orphans.push(path.to_path_buf());
            }
        });
        if orphans.is_empty() {
            return;
        }
        if updating() {
            for path in &orphans {
                std::fs::remove_file(path)
                    .unwrap_or_else(|e| panic!("cannot remove {}: {e}", path.display()));
                eprintln!("removed orphan snapshot {}", path.display());
            }
            return;
        }
        let names: Vec<String> = orphans.iter().map(|p| p.display().to_string()).collect();
        panic!(
            "orphan snapshots (no test produces them; {UPDATE}=1 removes them):\n  {}",
            names.join("\n  ")
        );
    }
}

/// Every file under `dir`, in path order; a missing folder has none.
fn walk(dir: &Path, found: &mut dyn FnMut(&Path)) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            walk(&path, found);
        } else {
            found(&path);
        }
    }
}
