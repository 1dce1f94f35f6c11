//! Helpers shared by the engine's integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use faultline_engine::Source;

/// The repository root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `../shared/corpus` beside the repository, as on every developer machine and in CI. Missing is a
/// failure, not a skip: a corpus test that silently runs on nothing proves nothing.
pub fn corpus() -> PathBuf {
    let path = repo().join("../shared/corpus");
    assert!(
        path.is_dir(),
        "the shared corpus is missing at {}",
        path.display()
    );
    path
}

/// The entries of a folder, in path order.
pub fn sorted_entries(dir: &Path) -> Vec<PathBuf> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    entries
}

/// Every file under the shared corpus (pasted incidents and real captures), the rule fixtures and the
/// app's built-in samples that `keep` accepts: all the real input there is, walked in path order.
pub fn input_files(keep: impl Fn(&Path) -> bool) -> Vec<PathBuf> {
    fn walk(dir: &Path, keep: &dyn Fn(&Path) -> bool, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(&path, keep, out);
            } else if keep(&path) {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    for dir in [
        corpus(),
        repo().join("tests/fixtures"),
        repo().join("static/samples"),
    ] {
        walk(&dir, &keep, &mut out);
    }
    out
}

/// Each of `files` read alone, as the only input (a file that is not UTF-8 is left out).
pub fn alone(files: &[PathBuf]) -> Vec<Vec<Source>> {
    files
        .iter()
        .filter_map(|path| {
            let text = std::fs::read_to_string(path).ok()?;
            Some(vec![Source::new(path.display().to_string(), text)])
        })
        .collect()
}

/// Each case of the corpus's `cases/` and `wild/` with all its inputs ([`case_sources`]), in path
/// order.
pub fn by_case() -> Vec<Vec<Source>> {
    ["cases", "wild"]
        .iter()
        .flat_map(|group| sorted_entries(&corpus().join(group)))
        .filter(|dir| dir.is_dir())
        .map(|dir| case_sources(&dir))
        .collect()
}

/// Every input file of a corpus case (all but expect.json), named by file name, in name order.
pub fn case_sources(dir: &Path) -> Vec<Source> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file() && p.file_name().is_some_and(|n| n != "expect.json"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|p| {
            let text = std::fs::read_to_string(p).unwrap();
            Source::new(p.file_name().unwrap().to_string_lossy(), text)
        })
        .collect()
}

/// The reviewed snapshots under `tests/snapshots/` (the one helper, shared with the app's tests).
pub fn snapshots() -> faultline_snapshot::Snapshots {
    faultline_snapshot::Snapshots::new(repo().join("tests/snapshots"))
}

/// Compares `actual` with the reviewed snapshot `tests/snapshots/<name>`; with UPDATE_SNAPSHOTS=1 it
/// writes the snapshot instead (review the diff before committing it).
pub fn assert_snapshot(name: &str, actual: &str) {
    snapshots().assert(name, actual);
}
