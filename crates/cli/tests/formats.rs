//! The CLI's renderings and exit status, run as a user would: the built binary on fixtures.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;
use std::process::Command;

fn fixture(rule: &str, name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/rules")
        .join(rule)
        .join(name)
        .display()
        .to_string()
}

fn run(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_faultline"))
        .args(args)
        .output()
        .unwrap();
    (out.status.code().unwrap(), String::from_utf8(out.stdout).unwrap())
}

#[test]
fn fail_on_sets_the_exit_status_for_pipelines() {
    let error = fixture(
        "image-pull-failed",
        "fires-init-container-invalid-image-name.yaml",
    );
    let info_only = fixture(
        "readiness-probe-missing",
        "fires-service-sends-traffic-on-started.yaml",
    );
    let healthy = fixture("node-not-ready", "quiet-ready-node.txt");
    assert_eq!(
        run(&["analyze", &error]).0,
        0,
        "without --fail-on an analysis exits 0"
    );
    assert_eq!(run(&["analyze", "--fail-on", "error", &error]).0, 1);
    assert_eq!(run(&["analyze", "--fail-on=warning", &error]).0, 1);
    assert_eq!(
        run(&["analyze", "--fail-on", "warning", &info_only]).0,
        0,
        "info is below warning"
    );
    assert_eq!(run(&["analyze", "--fail-on", "error", &healthy]).0, 0);
    assert_eq!(run(&["analyze", "--fail-on", "fatal", &healthy]).0, 2);
}

/// The JSON report is written while it is serialised (the inputs dropped first): the same exit
/// status, and the whole report, ending in a line break.
#[test]
fn the_streamed_json_report_is_whole_and_keeps_the_exit_status() {
    let error = fixture(
        "image-pull-failed",
        "fires-init-container-invalid-image-name.yaml",
    );
    let (status, json) = run(&["analyze", "--format", "json", "--fail-on", "error", &error]);
    assert_eq!(status, 1);
    assert!(json.ends_with("}\n"), "{json}");
    let report: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(report["findings"][0]["rule"], "image-pull-failed", "{json}");
    assert_eq!(run(&["analyze", "--format", "json", &error]).0, 0);
}

#[test]
fn text_marks_the_cited_value_on_its_source_line() {
    let path = fixture(
        "image-pull-failed",
        "fires-init-container-invalid-image-name.yaml",
    );
    let (_, text) = run(&["analyze", &path]);
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.contains("| ") && l.contains("reason: InvalidImageName"))
        .unwrap_or_else(|| panic!("the source line is shown:\n{text}"));
    let source = lines[at];
    let mark = lines[at + 1];
    let value_at = source.find("InvalidImageName").unwrap();
    assert_eq!(
        mark.find('^'),
        Some(value_at),
        "the mark starts under the value:\n{source}\n{mark}"
    );
    assert_eq!(mark.trim_end().len() - value_at, "InvalidImageName".len());
}

#[test]
fn html_is_one_self_contained_page_with_every_pasted_string_escaped() {
    let dir = std::env::temp_dir().join(format!("faultline-html-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let hostile = dir.join("hostile.yaml");
    std::fs::write(
        &hostile,
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\n  namespace: shop\nspec:\n  containers:\n  - name: app\n    image: \"<script>alert(1)</script>\"\nstatus:\n  phase: Pending\n  containerStatuses:\n  - name: app\n    image: \"<script>alert(1)</script>\"\n    imageID: ''\n    ready: false\n    restartCount: 0\n    state:\n      waiting:\n        reason: InvalidImageName\n        message: 'Failed to apply default image tag \"<img src=x onerror=alert(2)>\": couldn''t parse image name'\n",
    )
    .unwrap();
    let (status, html) = run(&["analyze", "--format", "html", hostile.to_str().unwrap()]);
    assert_eq!(status, 0);
    assert!(html.starts_with("<!doctype html>"));
    assert!(html.contains("image-pull-failed"), "{html}");
    assert!(!html.contains("<script"), "no script, pasted or ours");
    assert!(!html.contains("<img"), "pasted markup is escaped");
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    for external in ["src=\"http", "href=\"http", "@import", "url("] {
        assert!(!html.contains(external), "no external resource ({external})");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_rules_page_lists_every_rule_with_every_doc_section() {
    let (status, page) = run(&["rules"]);
    assert_eq!(status, 0);
    for rule in faultline_engine::rules::RULES {
        let at = page
            .find(&format!("### `{}`", rule.id))
            .unwrap_or_else(|| panic!("{} is missing", rule.id));
        let section = &page[at..];
        let end = section[4..].find("### ").map_or(section.len(), |i| i + 4);
        for title in faultline_engine::rules::DOC_SECTIONS {
            assert!(
                section[..end].contains(&format!("**{title}**")),
                "{}: {title}",
                rule.id
            );
        }
    }
}

#[test]
fn the_rules_page_in_chinese_lists_every_rule_with_every_zh_doc_section() {
    let (status, page) = run(&["rules", "--lang", "zh"]);
    assert_eq!(status, 0);
    assert!(page.starts_with("# Faultline 的规则"), "{page}");
    assert!(page.contains("## 节点 / 容器运行时 (`node-runtime`)"));
    for rule in faultline_engine::rules::RULES {
        let at = page
            .find(&format!("### `{}`", rule.id))
            .unwrap_or_else(|| panic!("{} is missing", rule.id));
        let section = &page[at..];
        let end = section[4..].find("### ").map_or(section.len(), |i| i + 4);
        for title in faultline_engine::rules::DOC_SECTIONS_ZH {
            assert!(
                section[..end].contains(&format!("**{title}**")),
                "{}: {title}",
                rule.id
            );
        }
        for title in faultline_engine::rules::DOC_SECTIONS {
            assert!(
                !section[..end].contains(&format!("**{title}**")),
                "{}: {title}",
                rule.id
            );
        }
        assert!(section[..end].contains(&format!("`{}`", rule.boundary.id())));
    }
    let (status, en) = run(&["rules", "--lang=en"]);
    assert_eq!(status, 0);
    assert_eq!(en, run(&["rules"]).1, "English is the default");
    assert_eq!(run(&["rules", "--lang", "fr"]).0, 2);
}

#[test]
fn lang_zh_renders_the_report_s_own_words_in_chinese() {
    let path = fixture(
        "image-pull-failed",
        "fires-init-container-invalid-image-name.yaml",
    );
    let (_, en) = run(&["analyze", &path]);
    let (_, zh) = run(&["analyze", "--lang", "zh", &path]);
    assert!(en.contains("   evidence:") && en.contains("   next steps:"));
    assert!(
        zh.contains("   证据:") && zh.contains("   下一步:") && zh.contains("[错误]"),
        "{zh}"
    );
    assert!(!zh.contains("evidence:") && !zh.contains("next steps:") && !zh.contains("[error]"));
    assert!(
        zh.starts_with("说明："),
        "the zh report says Kubernetes' own words stay as they are"
    );
    let (_, html) = run(&["analyze", "--lang=zh", "--format", "html", &path]);
    assert!(html.contains("<html lang=\"zh\">") && html.contains("<h3>证据</h3>"));
    let (_, md) = run(&["analyze", "--lang", "zh", "--format", "markdown", &path]);
    assert!(
        md.starts_with("# Faultline 诊断") && md.contains("**故障边界:** `node-runtime` (节点 / 容器运行时)"),
        "{md}"
    );
}

#[test]
fn analyze_redact_writes_the_copy_and_reports_from_it() {
    let fixtures = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/redact");
    let expected: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(fixtures.join("expected.json")).unwrap()).unwrap();
    let out = std::env::temp_dir().join(format!("faultline-redact-{}", std::process::id()));
    let input = fixtures.join("secrets.yaml");
    let (status, json) = run(&[
        "analyze",
        "--format",
        "json",
        "--redact",
        out.to_str().unwrap(),
        input.to_str().unwrap(),
    ]);
    assert_eq!(status, 0);
    let report: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(
        report["redacted"], true,
        "the report says it was made from the redacted copy"
    );
    let copies: Vec<PathBuf> = walk(&out);
    assert_eq!(copies.len(), 1, "{copies:?}");
    let copy = std::fs::read_to_string(&copies[0]).unwrap();
    let seeded: Vec<&str> = expected
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["input"] == "secrets.yaml")
        .map(|e| e["secret"].as_str().unwrap())
        .collect();
    assert!(!seeded.is_empty());
    for secret in seeded {
        assert!(!copy.contains(secret), "a seeded secret survived in the copy");
        assert!(!json.contains(secret), "a seeded secret is in the report");
    }
    assert!(copy.contains("<redacted:secret-data:1>"));
    let (_, md) = run(&[
        "analyze",
        "--format",
        "markdown",
        "--redact",
        out.to_str().unwrap(),
        input.to_str().unwrap(),
    ]);
    assert!(
        md.lines()
            .nth(2)
            .unwrap_or_default()
            .starts_with("> Made from the redacted copy"),
        "{md}"
    );
    std::fs::remove_dir_all(&out).unwrap();
}

fn walk(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}

/// `--since`: the image-pull sample's events analysed first, then with its Pod's YAML: what the Pod
/// changed is printed before the report (standard output for text, standard error for json).
#[test]
fn since_prints_what_the_new_evidence_changed() {
    let case = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/corpus/cases/02-exp2-nonexistent-image-tag-yaml");
    let events = case.join("events.txt").display().to_string();
    let pod = case.join("pod.yaml").display().to_string();
    let dir = std::env::temp_dir().join(format!("faultline-since-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for lang in ["en", "zh"] {
        let earlier = dir.join(format!("before-{lang}.json"));
        let (code, json) = run(&["analyze", "--format", "json", "--lang", lang, &events]);
        assert_eq!(code, 0);
        std::fs::write(&earlier, json).unwrap();
        let earlier = earlier.display().to_string();
        let (code, text) = run(&["analyze", "--lang", lang, "--since", &earlier, &events, &pod]);
        assert_eq!(code, 0);
        let (heading, confirmed, answered) = match lang {
            "en" => (
                "What changed since the earlier report:",
                "Confirmed: image-pull-failed about Pod exp-runtime/tag-probe",
                "Answered for image-pull-failed",
            ),
            _ => (
                "自上次报告以来的变化：",
                "已证实：关于 Pod exp-runtime/tag-probe 的 image-pull-failed",
                "新的证据回答了",
            ),
        };
        let block = text.split("\n\n").next().unwrap();
        assert!(block.starts_with(heading), "{text}");
        assert!(block.contains(confirmed), "{block}");
        assert!(block.contains(answered), "{block}");
        // Nothing new: the same inputs again.
        let (_, same) = run(&["analyze", "--lang", lang, "--since", &earlier, &events]);
        assert!(!same.split("\n\n").next().unwrap().contains(confirmed), "{same}");
    }
    // JSON stays the report alone; what changed goes to standard error.
    let earlier = dir.join("before-en.json").display().to_string();
    let out = Command::new(env!("CARGO_BIN_EXE_faultline"))
        .args(["analyze", "--format", "json", "--since", &earlier, &events, &pod])
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["verdict"], "fault");
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("Confirmed: image-pull-failed"));
    let (code, _) = run(&["analyze", "--since", "/nonexistent/report.json", &events]);
    assert_eq!(code, 2);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The app's image-pull sample: a Pod created at 09:35:34 and a table of event ages. Without
/// `--captured-at` the capture is the earliest the ages allow; with one too early, the events it
/// puts before the Pod's creation are flagged, not moved. Every rendering says when the input was
/// captured; the exports also when they were made, and by which version.
#[test]
fn the_capture_moment_is_inferred_or_set_and_every_rendering_says_it() {
    let sample = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../static/samples/image-pull");
    let pod = sample.join("pod.yaml").display().to_string();
    let events = sample.join("events.txt").display().to_string();
    let (_, json) = run(&["analyze", "--format", "json", &pod, &events]);
    let report: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(report["capture"]["time"], "2025-02-11T09:40:05Z");
    assert_eq!(report["capture"]["basis"], "age-anchor");
    assert_eq!(report["faultline_version"], env!("CARGO_PKG_VERSION"));
    let exported = report["exported_at"].as_str().unwrap();
    assert!(exported.len() == 20 && exported.ends_with('Z'), "{exported}");
    let timeline = report["timeline"].as_array().unwrap();
    let created = timeline.iter().position(|e| e["source"] == "created").unwrap();
    let backoff = timeline.iter().position(|e| e["reason"] == "BackOff").unwrap();
    assert!(backoff > created, "the pulls come after the Pod's creation");
    assert_eq!(timeline[backoff]["age"], 26);
    assert!(timeline.iter().all(|e| e.get("before_object_existed").is_none()));

    let (_, json) = run(&[
        "analyze",
        "--format",
        "json",
        "--captured-at",
        "2025-02-11T09:36:00Z",
        &pod,
        &events,
    ]);
    let report: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(report["capture"]["basis"], "set");
    let timeline = report["timeline"].as_array().unwrap();
    let scheduled = timeline.iter().find(|e| e["reason"] == "Scheduled").unwrap();
    assert_eq!(scheduled["time"], "2025-02-11T09:31:29Z");
    assert_eq!(scheduled["before_object_existed"], true);
    let pulling = timeline.iter().find(|e| e["reason"] == "Pulling").unwrap();
    assert!(
        pulling.get("before_object_existed").is_none(),
        "09:35:48 is after the creation"
    );

    let (_, text) = run(&["analyze", "--captured-at=2025-02-11T09:41:00Z", &pod, &events]);
    assert!(
        text.contains("\nCaptured: 2025-02-11 09:41:00 UTC set by you\nFaultline "),
        "{text}"
    );
    let (_, md) = run(&["analyze", "--format", "markdown", "--lang", "zh", &pod, &events]);
    let lines: Vec<&str> = md.lines().collect();
    assert!(
        lines[2].starts_with("采集时间: 2025-02-11 09:40:05 UTC 或更晚"),
        "{md}"
    );
    assert!(
        lines[3].starts_with("导出时间: ") && lines[3].contains(" · Faultline "),
        "{md}"
    );
}

/// `analyze` parses on one thread while another prescans and hashes the inputs (`main.rs`,
/// `analyze_on_two_cores`): its JSON report is the engine's own report of the same inputs, each
/// input named by its SHA-256.
#[test]
fn the_report_made_on_two_threads_is_the_engine_s_report() {
    let files = [
        fixture(
            "image-pull-failed",
            "fires-init-container-invalid-image-name.yaml",
        ),
        fixture("node-not-ready", "quiet-ready-node.txt"),
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../../shared/corpus/wild/19-multi-attach-azure-disk-controller-manager-log/input.txt")
            .display()
            .to_string(),
    ];
    let args: Vec<&str> = ["analyze", "--format", "json"]
        .into_iter()
        .chain(files.iter().map(String::as_str))
        .collect();
    let (status, json) = run(&args);
    assert_eq!(status, 0, "{json}");
    let mut written: serde_json::Value = serde_json::from_str(&json).unwrap();
    let sources: Vec<faultline_engine::Source> = files
        .iter()
        .map(|f| faultline_engine::Source::new(f.clone(), std::fs::read_to_string(f).unwrap()))
        .collect();
    for (input, source) in written["inputs"].as_array().unwrap().iter().zip(&sources) {
        assert_eq!(
            input["sha256"],
            faultline_engine::sha256_hex(source.text.as_bytes()),
            "{}",
            source.name
        );
    }
    let engine = serde_json::to_value(faultline_engine::analyze(&sources)).unwrap();
    let written = written.as_object_mut().unwrap();
    for stamp in ["exported_at", "faultline_version", "lang", "redacted"] {
        written.remove(stamp);
    }
    assert!(
        !engine["findings"].as_array().unwrap().is_empty(),
        "the inputs hold findings"
    );
    assert_eq!(serde_json::Value::Object(written.clone()), engine);
}
