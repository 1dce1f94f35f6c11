//! The fast reader of kubectl's YAML subset must give exactly what the general YAML parser gives
//! (values, styles and every position) for each document it accepts, and must accept what kubectl
//! prints. Run over every YAML-looking input we have: the shared corpus (pasted incidents and real
//! captures), the rule fixtures, the app's samples and a generated `kubectl get -A -o yaml` dump.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use faultline_engine::ingest::kubectl_yaml;
use faultline_engine::ingest::yaml;

/// (Kubernetes objects the fast reader took, those it left to the general parser) for one text;
/// panics on any disagreement, on any document.
fn compare(name: &str, text: &str) -> (usize, usize) {
    let (mut fast, mut general) = (0, 0);
    for (first_line, chunk) in yaml::split_documents(text, 1) {
        if let Some(diff) = kubectl_yaml::disagreement(chunk, first_line) {
            panic!("{name}: the readers disagree on the document at line {first_line}:\n{diff}");
        }
        let object = usize::from(chunk.contains("kind:"));
        match kubectl_yaml::parse(chunk, first_line) {
            Some(_) => fast += object,
            None => general += object,
        }
    }
    (fast, general)
}

#[test]
fn the_fast_reader_agrees_with_the_general_parser_on_every_input_we_have() {
    let paths = common::input_files(|p| p.extension().is_some_and(|e| e != "json" && e != "png"));
    assert!(paths.len() > 100, "{}", paths.len());
    let (mut fast, mut general) = (0, 0);
    for path in &paths {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        // Each segment of a paste (prompts and fences split them) as ingest would see it.
        for segment in faultline_engine::ingest::segment::split(&text) {
            let (f, g) = compare(&path.display().to_string(), segment.text);
            fast += f;
            general += g;
        }
    }
    // Most objects are kubectl's own output and take the fast path; those left to the general parser
    // are hand-written fixtures in flow style (`metadata: {name: a}`).
    assert!(fast >= 40 && fast > 2 * general, "fast {fast}, general {general}");
}

#[test]
fn a_generated_dump_is_read_entirely_by_the_fast_reader() {
    let path = common::repo().join("tests/fixtures/ingest/gen-dump-6-pods.yaml");
    let text = std::fs::read_to_string(path).unwrap();
    assert_eq!(compare("gen-dump", &text), (1, 0));
}

#[test]
fn the_subset_edges_agree_with_the_general_parser() {
    let fast = [
        "a:\nb: 1\n",
        "a:\n  x: 1\n",
        "a:\n- x: 1\n  y: 2\n-\n  z: 3\n",
        "a:   \nb: 1\n",
        "a: {}\nb: []\n",
        "- a\n- c\n",
        "a: |\n  line1\n  line2\nb: 'x\n  y'\n",
        "a: |-\n  l1\n\n  l2\n\n\nb: 1\n",
        "a: |+\n  l1\n\nb: 1\n",
        "a: |\n\n  x\n     \n  y\n",
        // Lines of only spaces after the text: empty lines, chomped, up to the indentation; text
        // beyond it (found by the fuzz target).
        "a: |\n  x\n  \nb: 1\n",
        "a: |+\n  x\n  \n\nb: 1\n",
        "a: |\n  x\n     \nb: 1\n",
        "a: |\n  x\n  ",
        "a: x\n  y\n\n  z\nb: 1\n",
        "k:\n  # c\n  x: 1\n",
        "---\na: 1\n",
        "---\n# only a comment\n",
        "# only a comment\n",
        "a: \"x\\ty \\u00e9 \\\"q\\\"\"\nb: ~\nc: null\nd: 'it''s'\n",
        "a: \"one\n  two \\\n  three\n\n  four\"\n",
        "a: 'long\n\n\n  text '\n",
        "\"quoted key\": 1\n'other': 2\nnull: 3\n",
        "a:\n  - x\n  - y: 1\n    z: 2\n  -\n    w: 3\n",
        "a:\n- \n  x: 1\n",
        "  a: 1\n  b: 2\n",
        "a: 1\nmanagedFields:\n- f: 1\n  g:\n    h: {}\nb: 2\n",
        "metadata:\n  managedFields:\n  - x: 'a\n      b'\n  name: n\n",
        // A skipped value's syntax is checked only as far as its indentation: these brackets are
        // never closed, and the general parser fails at the end of the document (found by the fuzz
        // target); the fast reader reads what is around them.
        "m:\n  managedFields: [\n    x,\n # c\n",
        "a: 1\nmanagedFields:\n- f: {\n    g: 1\n\n# c\nb: 2\n",
        "a: é\nb: 'ü'\n  \nc: 1\r\nd:\r\n- x\r\n",
        "a: http://x:80/y\nb: -1\nc: -x\nd: 12:30\n",
    ];
    // Outside the subset: left to the general parser, which reads them or reports the error.
    let general = [
        "a: [x]\n",
        "a: &x 1\nb: *x\n",
        "a: x # comment\n",
        "a: b: c\n",
        "a: 1\n  b: 2\n",
        "- - x\n",
        "a: >\n  folded\n",
        "a: !!str 1\n",
        "a:\n\tb: 1\n",
        "a: 'unclosed\n",
        "a: |\nb: 1\n",
        "# a comment\rb: 1\na: 2\n",
        "\u{feff}a: 1\n",
    ];
    for text in fast {
        assert!(kubectl_yaml::parse(text, 1).is_some(), "not taken: {text:?}");
        compare(text, text);
    }
    for text in general {
        assert_eq!(kubectl_yaml::parse(text, 1), None, "{text:?}");
    }
}
