//! Every rule has at least one `fires-*` fixture and one `quiet-*` near miss under
//! `tests/fixtures/rules/<rule>/`; the expectation is in the fixture (`# expect: <rule or none>` on
//! its first line, or, for JSON, which has no comments, the file-name prefix alone).

// Test code: panicking on a broken fixture is the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use faultline_engine::{analyze, rules::RULES, Lang, Source};

/// What a fixture expects: `fires-*` the folder's rule; `quiet-*` that the folder's rule stays silent,
/// and either no finding at all (`# expect: none`) or only the other rule it names (a near miss that
/// is another rule's case).
enum Expect {
    Fires,
    QuietNone,
    QuietOther(String),
}

fn expectation(rule: &str, file_name: &str, text: &str) -> Expect {
    let declared = text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("# expect: "))
        .map(str::trim);
    if file_name.starts_with("fires-") {
        if let Some(d) = declared {
            assert_eq!(
                d, rule,
                "{rule}/{file_name}: a fires- fixture expects its folder's rule"
            );
        }
        Expect::Fires
    } else if file_name.starts_with("quiet-") {
        match declared {
            None | Some("none") => Expect::QuietNone,
            Some(other) => {
                assert_ne!(
                    other, rule,
                    "{rule}/{file_name}: a quiet- fixture cannot expect its own rule"
                );
                Expect::QuietOther(other.to_string())
            }
        }
    } else {
        panic!("{rule}/{file_name}: fixture names start with fires- or quiet-");
    }
}

#[test]
fn every_rule_fires_on_its_fixtures_and_stays_quiet_on_its_near_misses() {
    let root = common::repo().join("tests/fixtures/rules");
    for rule in RULES {
        let dir = root.join(rule.id);
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|_| panic!("rule {} has no fixture folder {}", rule.id, dir.display()))
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        let (mut fires, mut quiet) = (0, 0);
        for path in files {
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            let text = std::fs::read_to_string(&path).unwrap();
            let report = analyze(&[Source::new(name.clone(), text.clone())]);
            assert!(
                report.errors.is_empty(),
                "{}/{name}: input errors {:?}",
                rule.id,
                report.errors
            );
            match expectation(rule.id, &name, &text) {
                Expect::Fires => {
                    fires += 1;
                    let finding = report.findings.iter().find(|f| f.rule == rule.id);
                    let finding =
                        finding.unwrap_or_else(|| panic!("{}/{name}: the rule did not fire", rule.id));
                    // A symptom listed under its cause may take the cause's boundary (a rollout);
                    // otherwise a finding carries its rule's boundary.
                    match &finding.explained_by {
                        None => assert!(
                            finding.boundary == rule.boundary || rule.also_at.contains(&finding.boundary),
                            "{}/{name}",
                            rule.id
                        ),
                        Some(cause) => {
                            let at = |f: &faultline_engine::Finding| {
                                report.findings.iter().position(|g| g == f).unwrap()
                            };
                            let c = report
                                .findings
                                .iter()
                                .find(|f| f.rule == cause.rule && f.subject == cause.subject)
                                .unwrap_or_else(|| panic!("{}/{name}: its cause is not reported", rule.id));
                            assert!(
                                at(c) < at(finding),
                                "{}/{name}: the cause is listed first",
                                rule.id
                            );
                            assert!(
                                finding.boundary == rule.boundary || finding.boundary == c.boundary,
                                "{}/{name}",
                                rule.id
                            );
                        }
                    }
                    assert!(
                        !finding.evidence.is_empty(),
                        "{}/{name}: a finding without evidence",
                        rule.id
                    );
                    for e in &finding.evidence {
                        assert_eq!(e.source, name);
                        assert!(e.line > 0);
                    }
                    assert!(!finding.cannot_establish.is_empty() && !finding.next_steps.is_empty());
                }
                Expect::QuietNone => {
                    quiet += 1;
                    assert_eq!(report.findings, vec![], "{}/{name}: expected no finding", rule.id);
                }
                Expect::QuietOther(other) => {
                    quiet += 1;
                    let rules: Vec<&str> = report.findings.iter().map(|f| f.rule.as_str()).collect();
                    assert_eq!(
                        rules,
                        [other.as_str()],
                        "{}/{name}: expected only {other}",
                        rule.id
                    );
                }
            }
        }
        assert!(
            fires > 0 && quiet > 0,
            "rule {} needs a fires and a quiet fixture ({fires} / {quiet})",
            rule.id
        );
    }
}

fn fixture(rule: &str, name: &str) -> Source {
    let path = common::repo().join("tests/fixtures/rules").join(rule).join(name);
    Source::new(name, std::fs::read_to_string(path).unwrap())
}

/// Regression test for a peer tool's bug (k8sgpt #1752): events matched to objects by name alone.
/// The fixture has an x509 event for a Pod of the same name in another namespace; it must not be cited.
#[test]
fn events_are_matched_by_namespace_not_by_name_alone() {
    let report = analyze(&[fixture(
        "image-pull-failed",
        "fires-imagepullbackoff-unauthorized.json",
    )]);
    let finding = &report.findings[0];
    assert!(
        finding.summary.contains("refused the credentials"),
        "{}",
        finding.summary
    );
    assert!(!finding.summary.contains("x509"));
    assert!(
        finding.evidence.iter().all(|e| !e.value.contains("x509")),
        "{:?}",
        finding.evidence
    );
    assert!(finding
        .evidence
        .iter()
        .any(|e| e.value.contains("401 Unauthorized")));
    assert!(finding.next_steps.iter().any(|s| s.contains("imagePullSecrets")));
    assert!(finding
        .next_steps
        .iter()
        .any(|s| s == "kubectl get serviceaccount web -n shop -o yaml"));
}

#[test]
fn init_containers_are_covered_and_cited_at_their_own_paths() {
    let report = analyze(&[fixture(
        "image-pull-failed",
        "fires-init-container-invalid-image-name.yaml",
    )]);
    let finding = &report.findings[0];
    assert_eq!(finding.subject.name, "migrate-5c7d9-kx2lp");
    assert!(
        finding.summary.contains("not a valid name"),
        "{}",
        finding.summary
    );
    let reason = &finding.evidence[0];
    assert_eq!(
        reason.path,
        "status.initContainerStatuses[0].state.waiting.reason"
    );
    assert_eq!((reason.line, reason.value.as_str()), (27, "InvalidImageName"));
    assert!(finding
        .evidence
        .iter()
        .any(|e| e.path == "spec.initContainers[0].image" && e.line == 13));
}

#[test]
fn unschedulable_pods_name_the_nodes_and_say_when_only_events_were_pasted() {
    let report = analyze(&[fixture(
        "pod-unschedulable",
        "fires-condition-untolerated-taint.yaml",
    )]);
    let finding = &report.findings[0];
    assert!(
        finding.summary.contains("0/2 nodes are available"),
        "{}",
        finding.summary
    );
    assert!(
        finding
            .summary
            .contains("Pasted nodes with a taint the Pod does not tolerate, {dedicated: gpu}: gpu-1."),
        "{}",
        finding.summary
    );
    assert!(
        finding.summary.contains("1 node without enough free memory"),
        "{}",
        finding.summary
    );
    let paths: Vec<(&str, u32)> = finding
        .evidence
        .iter()
        .map(|e| (e.path.as_str(), e.line))
        .collect();
    assert!(paths.contains(&("status.conditions[0].reason", 20)), "{paths:?}");
    assert!(paths.contains(&("spec.taints[0].key", 29)), "{paths:?}");
    assert!(finding
        .next_steps
        .iter()
        .any(|s| s.contains("custom-columns=NAME:.metadata.name,TAINTS")));
    assert!(!finding
        .cannot_establish
        .iter()
        .any(|c| c.contains("No Nodes were pasted")));

    let report = analyze(&[fixture("pod-unschedulable", "fires-events-only-no-pod.yaml")]);
    let finding = &report.findings[0];
    assert_eq!(finding.subject.name, "web-5d4f");
    assert!(
        finding.summary.contains("PersistentVolumeClaim is not bound"),
        "{}",
        finding.summary
    );
    assert!(finding
        .cannot_establish
        .iter()
        .any(|c| c.contains("rests on the scheduler's events alone")));
    assert!(finding
        .cannot_establish
        .iter()
        .any(|c| c.contains("No Nodes were pasted")));
    assert!(finding
        .next_steps
        .contains(&"kubectl get pvc -n shop".to_string()));
    assert_eq!(
        finding.evidence[0].path, "note",
        "events.k8s.io/v1 keeps its text in `note`"
    );
}

/// A symptom explained by a root cause is ranked under it: the Pod that cannot be scheduled because
/// its claim is unbound comes after the claim's own failure, as a warning naming it.
#[test]
fn a_pending_claim_explains_the_unschedulable_pod_that_uses_it() {
    let report = analyze(&[fixture("pvc-pending", "fires-provisioning-failed.yaml")]);
    let rules: Vec<(&str, faultline_engine::Severity)> = report
        .findings
        .iter()
        .map(|f| (f.rule.as_str(), f.severity))
        .collect();
    assert_eq!(
        rules,
        [
            ("pvc-pending", faultline_engine::Severity::Error),
            ("pod-unschedulable", faultline_engine::Severity::Warning)
        ]
    );
    assert!(
        report.findings[0].summary.contains("quota exceeded for disks"),
        "{}",
        report.findings[0].summary
    );
    assert!(report.findings[1]
        .summary
        .contains("follows from PersistentVolumeClaim db/data-db-0 (pvc-pending)"));
}

/// A symptom is listed right after the finding that explains it and names it; a rollout takes the
/// boundary of what explains it (DESIGN.md: traced down its owners).
#[test]
fn symptoms_are_grouped_under_their_causes() {
    let cases = [
        (
            "rollout-not-progressing",
            "fires-traced-to-image-pull.yaml",
            "rollout-not-progressing",
            ("image-pull-failed", "checkout-6f9c4b7d85-x7k2p"),
            faultline_engine::Boundary::NodeRuntime,
        ),
        (
            "rollout-not-progressing",
            "fires-describe-replica-failure.txt",
            "rollout-not-progressing",
            ("replica-creation-failed", "reports"),
            faultline_engine::Boundary::QuotaAdmission,
        ),
        (
            "control-plane-component-failing",
            "fires-scheduler-static-pod.yaml",
            "container-crash-looping",
            ("control-plane-component-failing", "kube-scheduler-cp-1"),
            faultline_engine::Boundary::Application,
        ),
        (
            "node-network-unavailable",
            "fires-cni-not-initialized.yaml",
            "node-not-ready",
            ("node-network-unavailable", "worker-7"),
            faultline_engine::Boundary::NodeRuntime,
        ),
    ];
    for (folder, file, symptom_rule, (cause_rule, cause_name), boundary) in cases {
        let report = analyze(&[fixture(folder, file)]);
        let at = report
            .findings
            .iter()
            .position(|f| f.rule == symptom_rule)
            .unwrap_or_else(|| panic!("{file}: no {symptom_rule}"));
        let symptom = &report.findings[at];
        let cause = symptom
            .explained_by
            .as_ref()
            .unwrap_or_else(|| panic!("{file}: {symptom_rule} is not grouped"));
        assert_eq!(
            (cause.rule.as_str(), cause.subject.name.as_str()),
            (cause_rule, cause_name),
            "{file}"
        );
        assert_eq!(
            report.findings[at - 1].rule,
            cause_rule,
            "{file}: the cause comes just before"
        );
        assert_eq!(symptom.boundary, boundary, "{file}");
        assert_ne!(
            symptom.severity,
            faultline_engine::Severity::Error,
            "{file}: a symptom is not a top error"
        );
        assert!(symptom.summary.contains("This is a symptom"), "{file}");
    }
}

/// A fixture's findings as its reviewed snapshot shows them: each finding's rule, boundary, severity,
/// subject and summary, its evidence by `file:line` with the field and the input line's text, what it
/// cannot establish and its next steps; `no finding` for a quiet fixture that is silent. The prose is
/// printed as it is, unwrapped, so that a stray run of spaces or a broken sentence shows in review.
fn snapshot_of(report: &faultline_engine::Report, name: &str, text: &str) -> String {
    use std::fmt::Write;
    let lines: Vec<&str> = text.lines().collect();
    let mut out = String::new();
    if report.findings.is_empty() {
        out.push_str("no finding\n");
    }
    for (i, f) in report.findings.iter().enumerate() {
        let severity = format!("{:?}", f.severity).to_lowercase();
        writeln!(
            out,
            "{}. [{severity}] {} ({}) — {}",
            i + 1,
            f.rule,
            f.boundary.id(),
            f.subject
        )
        .unwrap();
        if let Some(cause) = &f.explained_by {
            writeln!(out, "explained by: {} {}", cause.rule, cause.subject).unwrap();
        }
        writeln!(out, "summary:\n  {}", f.summary).unwrap();
        // The same sentence in Chinese (issue 24), reviewed with the English.
        if let Some(m) = f.summary.message() {
            writeln!(out, "summary (zh):\n  {}", m.render(Lang::Zh)).unwrap();
        }
        writeln!(out, "evidence:").unwrap();
        for e in &f.evidence {
            writeln!(out, "  {}:{} {} = {}", e.source, e.line, e.path, e.value).unwrap();
            if e.source == name {
                let at = lines.get(e.line as usize - 1).copied().unwrap_or_default();
                writeln!(out, "    | {}", at.trim_end()).unwrap();
            }
        }
        writeln!(out, "cannot establish:").unwrap();
        for c in &f.cannot_establish {
            writeln!(out, "  - {c}").unwrap();
        }
        writeln!(out, "cannot establish (zh):").unwrap();
        for c in f.cannot_establish.iter().filter_map(|c| c.message()) {
            writeln!(out, "  - {}", c.render(Lang::Zh)).unwrap();
        }
        writeln!(out, "next steps:").unwrap();
        for s in &f.next_steps {
            writeln!(out, "  $ {s}").unwrap();
        }
        out.push('\n');
    }
    out
}

/// Prose a rule wrote that a reader would stumble on: a run of spaces (a line continuation lost
/// inside a string literal), space before punctuation, a space at either end, or a doubled word.
/// Text the rule quotes from the input (between double quotes) is the input's, and not judged.
fn prose_defects(prose: &str) -> Vec<&'static str> {
    let mut own = String::new();
    let (mut quoted, mut escaped, mut code) = (false, false, false);
    for c in prose.chars() {
        match c {
            // A code span quotes what a component printed, as it printed it.
            '`' if !quoted => {
                code = !code;
                own.push('`');
            }
            _ if code => {}
            '"' if !escaped => {
                quoted = !quoted;
                own.push('"');
            }
            _ if !quoted => own.push(c),
            _ => {}
        }
        escaped = c == '\\' && !escaped;
    }
    let mut defects = Vec::new();
    if own.contains("  ") {
        defects.push("a run of spaces");
    }
    if prose != prose.trim() {
        defects.push("a space at an end");
    }
    if [" .", " ,", " :", " ;"].iter().any(|p| own.contains(p)) {
        defects.push("a space before punctuation");
    }
    let words: Vec<&str> = own.split(' ').collect();
    if words
        .windows(2)
        .any(|w| w[0] == w[1] && !w[0].is_empty() && w[0].chars().all(char::is_alphabetic))
    {
        defects.push("a doubled word");
    }
    defects
}

/// Chinese prose a reader would stumble on: a run of spaces, a space at an end or beside a
/// full-width mark, a doubled mark, or an ASCII sentence mark right after a Chinese character (a
/// sentence written in English punctuation). Quoted input is the input's, and not judged: between
/// “ and ” (how a Chinese text quotes it) or between ASCII double quotes (inside words it carries).
fn chinese_defects(prose: &str) -> Vec<&'static str> {
    let mut own = String::new();
    let (mut in_chinese, mut in_ascii) = (false, false);
    for c in prose.chars() {
        match c {
            '“' if !in_chinese && !in_ascii => {
                in_chinese = true;
                own.push(c);
            }
            '”' if in_chinese => {
                in_chinese = false;
                own.push(c);
            }
            '"' if !in_chinese => {
                in_ascii = !in_ascii;
                own.push(c);
            }
            _ if !in_chinese && !in_ascii => own.push(c),
            _ => {}
        }
    }
    let mut defects = Vec::new();
    if own.contains("  ") {
        defects.push("a run of spaces");
    }
    if prose != prose.trim() {
        defects.push("a space at an end");
    }
    let marks = ['。', '，', '：', '；', '、', '）'];
    let chars: Vec<char> = own.chars().collect();
    for w in chars.windows(2) {
        let chinese = |c: char| ('\u{4e00}'..='\u{9fff}').contains(&c);
        if w[0] == ' ' && marks.contains(&w[1]) || w[0] == '（' && w[1] == ' ' {
            defects.push("a space beside a full-width mark");
        }
        if w[0] == w[1] && (marks.contains(&w[0]) || w[0] == '（') {
            defects.push("a doubled mark");
        }
        if chinese(w[0]) && [',', ';', '.'].contains(&w[1]) {
            defects.push("an ASCII mark after a Chinese character");
        }
    }
    defects.dedup();
    defects
}

/// A next step is a command: only its ends are judged (a shell comment may be aligned, and
/// jsonpath templates put spaces before colons).
fn command_defects(command: &str) -> Vec<&'static str> {
    if command != command.trim() || command.contains('\n') {
        vec!["a space or a line break at an end"]
    } else {
        Vec::new()
    }
}

/// ruff's habit: every fixture's findings in a reviewed snapshot (`tests/snapshots/rules/<rule>/
/// <fixture>.snap`), and no snapshot without its fixture. UPDATE_SNAPSHOTS=1 rewrites them and
/// removes orphans; review the diff.
#[test]
fn every_fixture_matches_its_reviewed_snapshot_and_no_snapshot_is_an_orphan() {
    let root = common::repo().join("tests/fixtures/rules");
    let snapshots = common::snapshots();
    let mut names = Vec::new();
    let mut defects = Vec::new();
    for dir in common::sorted_entries(&root) {
        let rule = dir.file_name().unwrap().to_string_lossy().to_string();
        for path in common::sorted_entries(&dir) {
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            let text = std::fs::read_to_string(&path).unwrap();
            let report = analyze(&[Source::new(name.clone(), text.clone())]);
            for f in &report.findings {
                let prose = std::iter::once(&f.summary).chain(&f.cannot_establish);
                let prose = prose.map(|p| (p.as_str(), prose_defects(p)));
                let commands = f.next_steps.iter().map(|s| (s.as_str(), command_defects(s)));
                for (p, found) in prose.chain(commands) {
                    for d in found {
                        defects.push(format!("{rule}/{name}: {} — {d}: {p:?}", f.rule));
                    }
                }
                let chinese = std::iter::once(&f.summary)
                    .chain(&f.cannot_establish)
                    .filter_map(|s| s.message())
                    .map(|m| m.render(Lang::Zh));
                for p in chinese {
                    for d in chinese_defects(&p) {
                        defects.push(format!("{rule}/{name}: {} (zh) — {d}: {p:?}", f.rule));
                    }
                }
            }
            let snapshot = format!("rules/{rule}/{name}.snap");
            snapshots.assert(&snapshot, &snapshot_of(&report, &name, &text));
            names.push(snapshot);
        }
    }
    snapshots.assert_no_orphans("rules", &names);
    assert!(defects.is_empty(), "{}", defects.join("\n"));
}
