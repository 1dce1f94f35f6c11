//! The tools without a client: errors with their position, the size limit named, nothing secret
//! in a result, and the catalogue tools.

use super::*;
use crate::catalogue::{self, PasteParams, RuleParams, RulesParams};

const POD: &str = "apiVersion: v1\nkind: Pod\nmetadata: {name: web, namespace: shop}\nspec:\n  containers:\n  - name: web\n    image: shop/web:9\n    env:\n    - {name: DB_PASSWORD, value: hunter2-hunter2-hunter2}\nstatus:\n  phase: Pending\n  containerStatuses:\n  - {name: web, image: \"shop/web:9\", imageID: '', ready: false, restartCount: 0, state: {waiting: {reason: ErrImagePull, message: 'manifest unknown'}}}\n";

fn text(name: &str, text: &str) -> AnalyzeParams {
    AnalyzeParams {
        inputs: vec![NamedText {
            name: name.into(),
            text: text.into(),
        }],
        ..AnalyzeParams::default()
    }
}

#[test]
fn analyze_gives_the_report_of_the_redacted_copy_and_counts_what_it_withheld() {
    let (analysis, rendered) = analyze(&text("pod.yaml", POD), DEFAULT_MAX_BYTES).unwrap();
    assert_eq!(analysis.verdict, "fault");
    assert_eq!(analysis.findings[0].rule, "image-pull-failed");
    assert_eq!(analysis.findings[0].evidence[0].source, "pod.yaml");
    assert_eq!(analysis.withheld.values, 1);
    assert_eq!(analysis.withheld.kinds.get("env-secret"), Some(&1));
    let everything = serde_json::to_string(&analysis).unwrap() + &rendered;
    assert!(!everything.contains("hunter2"), "{everything}");
    assert!(rendered.starts_with("Verdict: fault. Diagnosis: "), "{rendered}");
    assert!(rendered.contains("Withheld: 1 secret value(s)"));
    // The hash is of the text analysed: the redacted copy.
    let copy = redact::redact(&[Source::new("pod.yaml", POD)], &ScanOptions::default());
    assert_eq!(
        analysis.inputs[0].sha256,
        faultline_engine::sha256_hex(copy.sources[0].text.as_bytes())
    );
}

#[test]
fn bad_input_is_an_error_with_its_position() {
    let error = analyze(&text("bad.json", "{\"kind\": "), DEFAULT_MAX_BYTES).unwrap_err();
    assert!(
        error
            .0
            .starts_with("nothing could be read from the input:\nbad.json line 1, column 10: "),
        "{error}"
    );
    let mut since = text("pod.yaml", POD);
    since.since = Some(serde_json::Value::String("{\"findings\": [".into()));
    let error = analyze(&since, DEFAULT_MAX_BYTES).unwrap_err();
    assert!(error.0.starts_with("since: not JSON: "), "{error}");
    assert!(error.0.contains("line 1 column 14"), "{error}");
    let mut when = text("pod.yaml", POD);
    when.captured_at = Some("yesterday".into());
    assert!(analyze(&when, DEFAULT_MAX_BYTES)
        .unwrap_err()
        .0
        .starts_with("captured_at: `yesterday` is not an RFC 3339 time"));
    let mut zh = text("pod.yaml", POD);
    zh.lang = Some("fr".into());
    assert_eq!(
        analyze(&zh, DEFAULT_MAX_BYTES).unwrap_err().0,
        "lang: takes en or zh, not `fr`"
    );
    assert!(analyze(&AnalyzeParams::default(), DEFAULT_MAX_BYTES)
        .unwrap_err()
        .0
        .starts_with("no input"));
    let missing = AnalyzeParams {
        paths: vec!["/nonexistent/pods.yaml".into()],
        ..AnalyzeParams::default()
    };
    assert!(analyze(&missing, DEFAULT_MAX_BYTES)
        .unwrap_err()
        .0
        .starts_with("`/nonexistent/pods.yaml`: cannot read it"));
    assert!(analyze(&text("x.bin", "PK\u{3}\u{4}\0\0"), DEFAULT_MAX_BYTES)
        .unwrap_err()
        .0
        .contains("looks like a binary file"));
}

#[test]
fn an_input_over_the_limit_is_refused_with_the_limit_named() {
    let error = analyze(&text("pod.yaml", POD), 100).unwrap_err();
    assert_eq!(
        error.0,
        format!(
            "the input is {} bytes, over this server's limit of 100 bytes (`faultline mcp --max-bytes`); give less, or run `faultline analyze` on the command line",
            POD.len()
        )
    );
    let error = redact_text(
        &RedactParams {
            text: POD.into(),
            include_network: false,
        },
        100,
    )
    .unwrap_err();
    assert!(error.0.contains("limit of 100 bytes"), "{error}");
}

#[test]
fn since_says_what_changed_and_brings_no_value_back() {
    let events = "LAST SEEN   TYPE      REASON    OBJECT    MESSAGE\n90s         Warning   Failed    pod/web   Error: ErrImagePull\n";
    let (first, _) = analyze(&text("events.txt", events), DEFAULT_MAX_BYTES).unwrap();
    let mut later = text("pod.yaml", POD);
    later.inputs.push(NamedText {
        name: "events.txt".into(),
        text: events.into(),
    });
    later.since = Some(serde_json::to_value(&first).unwrap());
    let (analysis, rendered) = analyze(&later, DEFAULT_MAX_BYTES).unwrap();
    let changes = analysis.changes.unwrap();
    assert!(!changes.is_empty());
    assert!(rendered.contains("What changed:"));
    // An earlier report holding a value (made elsewhere, unredacted) is read from its redacted copy.
    let leaky = serde_json::json!({"verdict": "fault", "findings": [], "note": "password: hunter2-hunter2"});
    later.since = Some(leaky);
    let (analysis, rendered) = analyze(&later, DEFAULT_MAX_BYTES).unwrap();
    assert!(!format!("{analysis:?}{rendered}").contains("hunter2"));
}

#[test]
fn redact_lists_kinds_and_positions_never_values() {
    let result = redact_text(
        &RedactParams {
            text: POD.into(),
            include_network: false,
        },
        DEFAULT_MAX_BYTES,
    )
    .unwrap();
    assert!(result.text.contains("value: <redacted:env-secret:1>"));
    assert_eq!(result.replaced.len(), 1);
    assert_eq!(
        (result.replaced[0].kind.as_str(), result.replaced[0].line),
        ("env-secret", 9)
    );
    assert!(!serde_json::to_string(&result).unwrap().contains("hunter2"));
}

#[test]
fn the_catalogue_tools() {
    let all = catalogue::catalogue(&RulesParams::default()).unwrap();
    assert_eq!(all.rules.len(), faultline_engine::rules::docs_all().len());
    let pull = all.rules.iter().find(|r| r.id == "image-pull-failed").unwrap();
    assert_eq!(pull.boundary, "node-runtime");
    assert!(pull.finds.ends_with('.'), "{}", pull.finds);
    let doc = catalogue::rule(&RuleParams {
        id: "pvc-pending".into(),
        lang: Some("zh".into()),
    })
    .unwrap();
    assert_eq!(doc.boundary, "zone-network-storage");
    let unknown = catalogue::rule(&RuleParams {
        id: "image-pull".into(),
        lang: None,
    })
    .unwrap_err();
    assert!(
        unknown.0.starts_with("id: no rule `image-pull` (close: "),
        "{unknown}"
    );
    assert!(unknown.0.contains("image-pull-failed"));
    let guide = |symptom: &str| {
        catalogue::what_to_paste(&PasteParams {
            symptom: symptom.into(),
            lang: None,
        })
        .unwrap()
    };
    assert_eq!(guide("pod stuck Pending").entries[0].id, "pending");
    assert_eq!(guide("CrashLoopBackOff").entries[0].id, "pod-not-starting");
    assert_eq!(guide("storage").entries[0].id, "storage");
    let unknown = guide("weird");
    assert!(!unknown.matched);
    assert_eq!(
        unknown.entries.len(),
        faultline_engine::render::guide::ENTRIES.len()
    );
}
