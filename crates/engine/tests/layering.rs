//! The engine's layers point one way: ingest -> model -> rules -> report, with `render` (and the
//! app, the CLI) over all of them (DESIGN.md). The compiler does not stop a module of one crate from
//! importing any other, so this test reads the sources and fails on a reference that points upward.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};

/// (layer, modules of the crate it must not name). A layer is a directory under `src/`.
const FORBIDDEN: &[(&str, &[&str])] = &[
    ("ingest", &["model", "rules", "render"]),
    ("model", &["rules", "render"]),
    ("rules", &["render"]),
];

/// What `ingest` may still take from `report`, for now. `Text` is the one cycle left: `report`
/// re-exports `ingest::node::Text` and the typed API (`ingest/api/*`) names it through `report`.
/// The others are the vocabulary an input is described in (an object's identity, a read error, an
/// input's summary), defined with the report because they are its public contract. Anything else
/// ingest takes from report is upward and fails here.
const INGEST_MAY_USE_FROM_REPORT: &[&str] = &["Text", "InputError", "InputSummary", "ObjectRef"];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
}

/// The crate-level paths a source names, as their segments: `crate::rules::text::Scope`,
/// `crate::{report::Text, rules}` (each item of a group), `$crate::…` in macros, and `super::`
/// chains that climb to the crate root from `module` (the file's module path, `["model", "facts"]`).
/// Comments count: a doc link to an upper layer is a reference to it too.
fn crate_paths(source: &str, module: &[String]) -> Vec<Vec<String>> {
    let bytes = source.as_bytes();
    let boundary_before =
        |i: usize| i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
    let mut found = Vec::new();
    for (i, _) in source.match_indices("crate::") {
        if boundary_before(i) || (i > 0 && bytes[i - 1] == b'$') {
            paths_at(&source[i + "crate::".len()..], Vec::new(), &mut found);
        }
    }
    for (i, _) in source.match_indices("super::") {
        if !boundary_before(i) || source[..i].ends_with("super::") {
            continue;
        }
        let mut depth = 0;
        let mut rest = &source[i..];
        while let Some(r) = rest.strip_prefix("super::") {
            depth += 1;
            rest = r;
        }
        // A file's module is its path; each `super` drops one segment. A chain that stays below the
        // layer's own module cannot leave the layer, so only the two that reach it or the root count.
        if depth >= module.len() {
            paths_at(rest, Vec::new(), &mut found);
        } else if depth == module.len() - 1 {
            paths_at(rest, vec![module[0].clone()], &mut found);
        }
    }
    found
}

/// The paths written at the start of `rest`, each after `prefix`: `a::b::C`, or a group `{a, b::{c, d}}`.
fn paths_at(rest: &str, prefix: Vec<String>, found: &mut Vec<Vec<String>>) {
    let rest = rest.trim_start();
    if let Some(group) = rest.strip_prefix('{') {
        // Split the group at its top level; each item is a path of its own.
        let mut depth = 0;
        let mut start = 0;
        for (i, c) in group.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth > 0 => depth -= 1,
                '}' | ',' if depth == 0 => {
                    paths_at(&group[start..i], prefix.clone(), found);
                    start = i + 1;
                    if c == '}' {
                        return;
                    }
                }
                _ => {}
            }
        }
        return;
    }
    let end = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    let (ident, after) = rest.split_at(end);
    if ident.is_empty() {
        if !prefix.is_empty() {
            found.push(prefix);
        }
        return;
    }
    let mut path = prefix;
    path.push(ident.to_string());
    match after.strip_prefix("::") {
        Some(more) => paths_at(more, path, found),
        None => found.push(path),
    }
}

fn module_of(file: &Path) -> Vec<String> {
    let relative = file.strip_prefix(src()).unwrap();
    let mut parts: Vec<String> = relative
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// Every upward reference in the engine's sources, as `file: path`.
fn violations() -> Vec<String> {
    let mut out = Vec::new();
    for (layer, forbidden) in FORBIDDEN {
        let mut files = Vec::new();
        rust_files(&src().join(layer), &mut files);
        assert!(!files.is_empty(), "no sources under src/{layer}");
        for file in files {
            let source = std::fs::read_to_string(&file).unwrap();
            let module = module_of(&file);
            for path in crate_paths(&source, &module) {
                let upward = forbidden.contains(&path[0].as_str())
                    || (*layer == "ingest"
                        && path[0] == "report"
                        && !path
                            .get(1)
                            .is_some_and(|item| INGEST_MAY_USE_FROM_REPORT.contains(&item.as_str())));
                if upward {
                    out.push(format!(
                        "src/{}: crate::{}",
                        file.strip_prefix(src()).unwrap().display(),
                        path.join("::")
                    ));
                }
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

#[test]
fn layers_refer_only_downward() {
    let found = violations();
    assert!(
        found.is_empty(),
        "upward references (ingest -> model -> rules -> report; render above all):\n{}",
        found.join("\n")
    );
}

/// The reader itself must see each way of naming a module, or the test above proves nothing.
#[test]
fn every_way_of_naming_a_module_is_seen() {
    let module = |m: &[&str]| m.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let paths = |source: &str, m: &[&str]| {
        crate_paths(source, &module(m))
            .into_iter()
            .map(|p| p.join("::"))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        paths("use crate::rules::text::Scope;", &["model", "facts"]),
        ["rules::text::Scope"]
    );
    assert_eq!(
        paths("use crate::{report::Text, rules::{a, b::c}, render};", &["model"]),
        ["report::Text", "rules::a", "rules::b::c", "render"]
    );
    assert_eq!(
        paths("use crate::report::{InputError, ObjectRef};", &["ingest"]),
        ["report::InputError", "report::ObjectRef"]
    );
    assert_eq!(paths("x: $crate::render::Lang", &["rules"]), ["render::Lang"]);
    assert_eq!(
        paths("/// [`crate::render::Lang::Zh`]", &["rules"]),
        ["render::Lang::Zh"]
    );
    assert_eq!(
        paths("use super::super::rules::x;", &["model", "facts"]),
        ["rules::x"]
    );
    assert_eq!(
        paths("use super::graph::Edge;", &["model", "facts"]),
        ["model::graph::Edge"]
    );
    assert_eq!(paths("use super::Model;", &["model"]), ["Model"]);
    assert!(paths("let subcrate::x = 1; use super::y;", &["model", "facts"]) == ["model::y"]);
}
