//! `faultline verify`: the same inputs reproduce the report; a changed input, a changed finding
//! and another engine version are each said.

use super::*;
use faultline_engine::analyze_with;
use faultline_engine::render::{export, ExportFormat};

/// The image-pull sample: a Pod and its events table.
fn sample() -> Vec<Source> {
    vec![
        Source::new(
            "pod.yaml",
            include_str!("../../../static/samples/image-pull/pod.yaml"),
        ),
        Source::new(
            "events.txt",
            include_str!("../../../static/samples/image-pull/events.txt"),
        ),
    ]
}

/// The JSON export of an analysis of `sources`, as `faultline analyze --format json` writes it.
fn report_json(sources: &[Source], lang: Lang, redacted: bool) -> String {
    let options = Options {
        lang,
        ..Options::default()
    };
    let report = analyze_with(sources, &options);
    export(
        &report,
        ExportFormat::Json,
        lang,
        redacted,
        Some("2026-12-06T20:00:00Z"),
    )
    .unwrap()
}

#[test]
fn the_same_inputs_reproduce_the_report() {
    for lang in [Lang::En, Lang::Zh] {
        let sources = sample();
        let checked = verify(&report_json(&sources, lang, false), &sources).unwrap();
        assert!(checked.holds(), "{}", checked.render());
        assert!(!checked.other_version());
        assert_eq!(checked.inputs.len(), 2);
        assert!(matches!(&checked.inputs[0], InputCheck::Same { name, sha256 }
            if name == "pod.yaml" && *sha256 == sha256_hex(sources[0].text.as_bytes())));
        let text = checked.render();
        assert!(text.contains("Same findings"), "{text}");
        assert!(text.ends_with("Verified: the report is reproduced from these inputs.\n"));
    }
}

#[test]
fn a_changed_input_is_named_with_both_hashes_and_what_it_changed() {
    let sources = sample();
    let json = report_json(&sources, Lang::En, false);
    // The events table without its Failed/BackOff rows: the input is another, and so is the analysis.
    let mut changed = sample();
    changed[1].text = changed[1]
        .text
        .lines()
        .filter(|l| !l.contains("Failed") && !l.contains("BackOff"))
        .map(|l| format!("{l}\n"))
        .collect();
    let checked = verify(&json, &changed).unwrap();
    assert!(!checked.holds());
    assert_eq!(
        checked.inputs[1],
        InputCheck::Changed {
            name: "events.txt".into(),
            recorded: sha256_hex(sources[1].text.as_bytes()),
            now: sha256_hex(changed[1].text.as_bytes()),
        }
    );
    assert!(matches!(checked.inputs[0], InputCheck::Same { .. }));
    assert!(
        checked
            .differences
            .iter()
            .any(|d| d.starts_with("changed: image-pull-failed about Pod exp-runtime/tag-probe")),
        "{:?}",
        checked.differences
    );
    assert!(checked.render().ends_with("Not verified.\n"));
    // An input left out, and one the report does not name.
    let mut other = sample();
    other[1].name = "later-events.txt".into();
    let checked = verify(&json, &other).unwrap();
    assert!(!checked.holds());
    assert_eq!(
        checked.inputs[1..],
        [
            InputCheck::Missing {
                name: "events.txt".into()
            },
            InputCheck::Extra {
                name: "later-events.txt".into()
            }
        ]
    );
}

#[test]
fn another_engine_version_is_said_and_its_findings_are_still_compared() {
    let sources = sample();
    let mut stamp: serde_json::Value = serde_json::from_str(&report_json(&sources, Lang::En, false)).unwrap();
    stamp["faultline_version"] = "0.0.9".into();
    let checked = verify(&stamp.to_string(), &sources).unwrap();
    assert!(checked.other_version());
    assert_eq!(checked.made_by.as_deref(), Some("0.0.9"));
    assert!(checked.holds(), "the same findings from the same inputs");
    assert!(checked
        .render()
        .starts_with(&format!("Made by Faultline 0.0.9; this is Faultline {VERSION}")));
    // The other version's findings differed: each difference is named.
    stamp["findings"][0]["severity"] = "warning".into();
    stamp["findings"][0]["evidence"][0]["line"] = 1.into();
    stamp["verdict"] = "inconclusive".into();
    let checked = verify(&stamp.to_string(), &sources).unwrap();
    assert!(!checked.holds());
    assert_eq!(
        checked.differences,
        [
            "changed: image-pull-failed about Pod exp-runtime/tag-probe (warning): severity, evidence",
            "verdict: inconclusive in the report, fault now"
        ]
    );
    // A finding only one of them has.
    let removed = stamp["findings"].as_array_mut().unwrap().remove(0);
    let checked = verify(&stamp.to_string(), &sources).unwrap();
    assert!(checked.differences.contains(
        &"only in the re-run: image-pull-failed about Pod exp-runtime/tag-probe (error)".to_string()
    ));
    assert!(removed.is_object());
}

#[test]
fn a_report_of_the_redacted_copy_is_verified_from_the_originals() {
    let secret = "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\n  namespace: shop\ndata:\n  password: aHVudGVyMi1odW50ZXIy\n";
    let mut sources = sample();
    sources.push(Source::new("secret.yaml", secret));
    let copy = redact::redact(&sources, &ScanOptions::default()).sources;
    let json = report_json(&copy, Lang::En, true);
    assert!(!json.contains("aHVudGVyMi1odW50ZXIy"));
    let checked = verify(&json, &sources).unwrap();
    assert!(checked.holds(), "{}", checked.render());
    let checked = verify(&json, &copy).unwrap();
    assert!(
        checked.holds(),
        "the copy redacts to itself: {}",
        checked.render()
    );
}

#[test]
fn what_is_not_a_report_is_an_error() {
    assert!(verify("{\"findings\": ", &sample())
        .unwrap_err()
        .starts_with("not a JSON report: EOF while parsing"));
    assert!(verify("[1, 2]", &sample()).is_err());
}
