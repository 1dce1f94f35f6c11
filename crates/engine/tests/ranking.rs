//! The report's order (issue 22): a current fault outranks superseded history; an info note is never
//! first while an error or a warning is reported; the diagnosis line never comes from an info note;
//! a cause comes before the symptoms it explains; a finding about what the rest of the input shows
//! failing outranks one about an object nothing else refers to; the subject is the object at fault.
//!
//! Every rule is in one of three lists, which a test holds against the registry:
//!
//! - [`RECOVERS`]: the rules whose failure a later state can supersede, which judge it so and have a
//!   `*-recovered-*` fixture (a failure followed by recovery: at most an info line, never an error
//!   or a warning). `admission-webhook-unreachable`, `cluster-component-failing` (a component Pod
//!   running and ready past the kubelet's back-off reset is not failing), `container-config-invalid`,
//!   `container-crash-looping` (running and ready 10 minutes or more since the last restart; a
//!   warning that says so when the input cannot tell), `container-init-oom-killed`,
//!   `container-start-failed`, `control-plane-component-failing` and `etcd-member-failing` (as
//!   crash loops), `image-pull-failed`, `ingress-not-admitted` (a later row with an address),
//!   `liveness-probe-failing`, `node-not-ready` (from its events), `pod-evicted` (the workload runs a
//!   replacement), `pod-sandbox-failed`, `pod-unschedulable`, `pvc-pending` (from its events),
//!   `quota-exceeded-on-create`, `readiness-probe-failing`, `replica-creation-failed`,
//!   `rollout-not-progressing` (a newer copy with `NewReplicaSetAvailable`; without times to order
//!   the copies, the finding says it cannot tell), `scheduler-not-running` (a later row shows the Pod
//!   placed), `service-endpoints-not-serving` (a later describe scaled up again),
//!   `startup-probe-failing`, `volume-mount-failed`.
//! - [`CURRENT_STATE`]: the rules that read a state or a spec as it is now, where a later state is the
//!   same field saying otherwise, so the rule is quiet on it (its quiet fixture shows it).
//!   `node-pod-capacity-reached` (the Pod count now), `node-under-pressure` and
//!   `node-network-unavailable` (the condition now: `quiet-pressure-passed`, `quiet-route-created`),
//!   `job-failed` (`quiet-failed-then-completed`), `container-oom-killed` (a termination of a
//!   container that runs again is its last state, the fault: corpus case 10), `replicas-in-one-zone`
//!   (where the replicas run now), `resource-quota-exhausted` (used = hard now),
//!   `metrics-api-unavailable` (the HPA's ScalingActive condition now:
//!   `quiet-hpa-pods-unready-not-the-api`), `volume-reclaim-failed` (the PV's phase now:
//!   `quiet-released-retain-pv`); and the spec and
//!   configuration rules, whose evidence is no failure in time: `readiness-probe-missing`,
//!   `component-status-unhealthy` (a `get cs` row now), `dns-policy-bypasses-cluster-dns`,
//!   `env-host-not-a-service`, `env-port-not-a-service-port`, `gateway-route-not-accepted` (the
//!   route's conditions now),
//!   `probe-port-not-declared`,
//!   `referenced-object-missing` (the references and the listing now), `runtime-memory-over-limit`,
//!   `service-target-port-mismatch`.
//! - [`CLIENT_OUTPUT`]: what a command printed (`apiserver-request-failed`, `authorization-denied`,
//!   `etcd-request-failed`, `http-server-errors`, `proxy-found-no-endpoints`,
//!   `admission-denied-on-create`, `service-proxy-refused`, `service-proxy-unreachable`, and
//!   `known-failure-reported`, a line a component printed that no other rule reads): no later state
//!   in the input supersedes it, what the command printed is the newest.

// Test code: panicking on a broken fixture is the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::{Path, PathBuf};

use faultline_engine::{analyze, render, rules::RULES, Lang, Report, Severity, Source, Verdict};

/// The rules whose failure a later state can supersede (see the module doc).
const RECOVERS: &[&str] = &[
    "admission-webhook-unreachable",
    "cluster-component-failing",
    "container-config-invalid",
    "container-crash-looping",
    "container-init-oom-killed",
    "container-start-failed",
    "control-plane-component-failing",
    "etcd-member-failing",
    "image-pull-failed",
    "ingress-not-admitted",
    "liveness-probe-failing",
    "node-not-ready",
    "pod-evicted",
    "pod-sandbox-failed",
    "pod-unschedulable",
    "pvc-pending",
    "quota-exceeded-on-create",
    "readiness-probe-failing",
    "replica-creation-failed",
    "rollout-not-progressing",
    "scheduler-not-running",
    "service-endpoints-not-serving",
    "startup-probe-failing",
    "volume-mount-failed",
];

/// The rules that read a state or a spec as it is now (see the module doc).
const CURRENT_STATE: &[&str] = &[
    "component-status-unhealthy",
    "container-oom-killed",
    "dns-policy-bypasses-cluster-dns",
    "env-host-not-a-service",
    "env-port-not-a-service-port",
    "gateway-route-not-accepted",
    "job-failed",
    "metrics-api-unavailable",
    "node-network-unavailable",
    "node-pod-capacity-reached",
    "node-under-pressure",
    "probe-port-not-declared",
    "readiness-probe-missing",
    "referenced-object-missing",
    "replicas-in-one-zone",
    "resource-quota-exhausted",
    "runtime-memory-over-limit",
    "service-target-port-mismatch",
    "volume-reclaim-failed",
];

/// The rules that read what a command printed (see the module doc).
const CLIENT_OUTPUT: &[&str] = &[
    "admission-denied-on-create",
    "dependency-failing",
    "known-failure-reported",
    "apiserver-request-failed",
    "authorization-denied",
    "etcd-request-failed",
    "http-server-errors",
    "proxy-found-no-endpoints",
    "service-proxy-refused",
    "service-proxy-unreachable",
];

fn source(path: &Path) -> Source {
    let name = path.file_name().unwrap().to_string_lossy().to_string();
    Source::new(name, std::fs::read_to_string(path).unwrap())
}

/// Every rule fixture, in path order.
fn fixtures() -> Vec<PathBuf> {
    let root = common::repo().join("tests/fixtures/rules");
    common::sorted_entries(&root)
        .into_iter()
        .filter(|d| d.is_dir())
        .flat_map(|d| common::sorted_entries(&d))
        .collect()
}

/// The fixtures where a failure is followed by recovery (`*-recovered-*`).
fn recovered() -> Vec<PathBuf> {
    let found: Vec<PathBuf> = fixtures()
        .into_iter()
        .filter(|p| p.file_name().unwrap().to_string_lossy().contains("-recovered-"))
        .collect();
    assert!(found.len() >= 10, "{} recovered fixtures", found.len());
    found
}

fn serious(report: &Report) -> bool {
    report
        .findings
        .iter()
        .any(|f| matches!(f.severity, Severity::Error | Severity::Warning))
}

/// The orderings every report holds.
fn assert_ranked(what: &str, report: &Report) {
    if serious(report) {
        let first = &report.findings[0];
        assert_ne!(first.severity, Severity::Info, "{what}: an info note is first");
        assert_eq!(report.verdict, Verdict::Fault, "{what}");
    }
    // Every info note after every error and warning.
    let last_serious = report.findings.iter().rposition(|f| f.severity != Severity::Info);
    let first_info = report.findings.iter().position(|f| f.severity == Severity::Info);
    if let (Some(serious), Some(info)) = (last_serious, first_info) {
        assert!(info > serious, "{what}: an info note ranks above a fault");
    }
    match report.diagnosis() {
        Some(top) => {
            assert_ne!(top.severity, Severity::Info, "{what}");
            assert_eq!(
                Some(top),
                report.findings.iter().find(|f| f.severity != Severity::Info)
            );
        }
        None => assert!(!serious(report), "{what}: a fault without a diagnosis"),
    }
}

#[test]
fn a_recovered_failure_is_history_never_an_error_or_a_warning() {
    for path in recovered() {
        let report = analyze(&[source(&path)]);
        let name = path.display();
        for f in &report.findings {
            assert_eq!(f.severity, Severity::Info, "{name}: {} is not history", f.rule);
        }
        for f in report
            .findings
            .iter()
            .filter(|f| f.summary.starts_with("History"))
        {
            assert!(f.summary.contains("recovered ("), "{name}: {}", f.summary);
            assert!(!f.evidence.is_empty(), "{name}: history without evidence");
        }
        assert_ne!(report.verdict, Verdict::Fault, "{name}");
        assert!(report.diagnosis().is_none(), "{name}");
    }
}

/// The three lists of the module doc hold every rule exactly once, and each rule that recovers has a
/// `*-recovered-*` fixture of its own.
#[test]
fn every_rule_is_classified_and_each_that_recovers_has_a_recovered_fixture() {
    let listed: Vec<&str> = RECOVERS
        .iter()
        .chain(CURRENT_STATE)
        .chain(CLIENT_OUTPUT)
        .copied()
        .collect();
    for rule in RULES {
        let times = listed.iter().filter(|id| **id == rule.id).count();
        assert_eq!(times, 1, "{} is listed {times} times", rule.id);
    }
    assert_eq!(listed.len(), RULES.len(), "a listed id is no rule");
    let recovered = recovered();
    for id in RECOVERS {
        assert!(
            recovered
                .iter()
                .any(|p| p.parent().unwrap().file_name().unwrap() == *id),
            "{id} has no -recovered- fixture"
        );
    }
}

/// Each recovered failure pasted with each current fault of another fixture: the fault comes first,
/// the history after it, and the diagnosis is the fault's.
#[test]
fn a_current_fault_outranks_superseded_history() {
    let faults: Vec<PathBuf> = fixtures()
        .into_iter()
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with("fires-"))
        .filter(|p| serious(&analyze(&[source(p)])))
        .collect();
    assert!(faults.len() > 20);
    let mut pairs = 0;
    for history in recovered() {
        for fault in &faults {
            if fault == &history {
                continue;
            }
            let alone = analyze(&[source(fault)]);
            let report = analyze(&[source(&history), source(fault)]);
            let what = format!("{} + {}", history.display(), fault.display());
            assert_ranked(&what, &report);
            let top = report.diagnosis().unwrap();
            assert_eq!(
                (top.rule.as_str(), &top.subject),
                (alone.findings[0].rule.as_str(), &alone.findings[0].subject),
                "{what}: history changed the diagnosis"
            );
            pairs += 1;
        }
    }
    assert!(pairs > 100, "{pairs}");
}

/// Every fixture and every corpus case, as pasted.
#[test]
fn info_is_never_first_and_never_the_diagnosis() {
    for path in fixtures() {
        assert_ranked(&path.display().to_string(), &analyze(&[source(&path)]));
    }
    let corpus = common::corpus();
    for group in ["cases", "real/troubleshoot", "wild"] {
        for dir in common::sorted_entries(&corpus.join(group))
            .into_iter()
            .filter(|d| d.is_dir())
        {
            let sources: Vec<Source> = common::sorted_entries(&dir)
                .iter()
                .filter(|p| p.is_file() && p.file_name().is_some_and(|n| n != "expect.json"))
                .map(|p| source(p))
                .collect();
            assert_ranked(&dir.display().to_string(), &analyze(&sources));
        }
    }
}

/// Info notes only: no boundary line in the exports, and the verdict is not a fault.
#[test]
fn the_diagnosis_line_never_names_an_info_note() {
    let path = recovered()
        .into_iter()
        .find(|p| p.to_string_lossy().contains("liveness-probe-failing"))
        .unwrap();
    let report = analyze(&[source(&path)]);
    assert!(!report.findings.is_empty());
    assert!(report.findings.iter().all(|f| f.severity == Severity::Info));
    assert!(report.diagnosis().is_none());
    let words = render::words(Lang::En);
    let markdown = render::markdown(&report, Lang::En);
    assert!(
        !markdown.contains(&format!("**{}:**", words.boundary)),
        "{markdown}"
    );
    let html = render::html(&report, Lang::En);
    assert!(!html.contains("<p class=\"boundary\">"), "{html}");
}

fn fixture(path: &str) -> Source {
    source(&common::repo().join("tests/fixtures/rules").join(path))
}

/// A cause before its symptoms: the claim a Pod waits for, then the Pod that cannot be scheduled
/// for it, whatever order the inputs come in.
#[test]
fn a_root_cause_comes_before_its_symptoms() {
    for order in [[0, 1], [1, 0]] {
        let inputs = [
            fixture("pvc-pending/fires-provisioning-failed.yaml"),
            fixture("image-pull-failed/fires-docker-era-events-only.txt"),
        ];
        let sources: Vec<Source> = order.iter().map(|&i| inputs[i].clone()).collect();
        let report = analyze(&sources);
        assert_ranked("pvc + pull", &report);
        for (i, f) in report.findings.iter().enumerate() {
            if let Some(cause) = &f.explained_by {
                let at = report
                    .findings
                    .iter()
                    .position(|c| c.rule == cause.rule && c.subject == cause.subject)
                    .unwrap();
                assert!(at < i, "{} is listed after its symptom {}", cause.rule, f.rule);
            }
        }
        assert!(report.findings.iter().any(|f| f.explained_by.is_some()));
    }
}

/// Two errors of equal weight, both about pasted objects: the one another finding is about (the
/// refused creation of a Deployment's Pods, which its stalled rollout follows from) outranks an error
/// about a Pod nothing else in the input refers to (emitted first, by a rule earlier in the
/// registry), whichever input comes first.
#[test]
fn a_finding_the_rest_of_the_input_refers_to_outranks_a_lone_one() {
    let quota = fixture("rollout-not-progressing/fires-describe-replica-failure.txt");
    let lone = fixture("container-crash-looping/fires-exit-2-usage.yaml");
    let alone = analyze(std::slice::from_ref(&quota));
    let cause = &alone.findings[0];
    assert!(
        alone.findings.iter().any(|f| f
            .explained_by
            .as_ref()
            .is_some_and(|c| c.subject == cause.subject)),
        "the fixture's cause explains a symptom: {:#?}",
        alone.findings
    );
    for sources in [[lone.clone(), quota.clone()], [quota.clone(), lone.clone()]] {
        let report = analyze(&sources);
        assert_ranked("referred + lone", &report);
        let top = report.diagnosis().unwrap();
        assert_eq!((&top.rule, &top.subject), (&cause.rule, &cause.subject));
    }
}

/// The subject is the object at fault (the ResourceQuota that refused, the webhook's Service, the
/// claim that does not bind, the full Node), not the workload it hurts: that is in its `affects`,
/// and a finding about the victim itself comes after it, explained by it.
#[test]
fn the_subject_is_the_object_at_fault_and_its_victims_follow() {
    let cases = [
        (
            "quota-exceeded-on-create/fires-replicaset-failedcreate-with-quota.yaml",
            "ResourceQuota",
            "Deployment",
        ),
        (
            "admission-webhook-unreachable/fires-kyverno-timeout-describe-rs.txt",
            "Service",
            "Deployment",
        ),
        (
            "pvc-pending/fires-provisioning-failed.yaml",
            "PersistentVolumeClaim",
            "Pod",
        ),
        (
            "node-pod-capacity-reached/fires-too-many-pods-and-node-at-capacity.txt",
            "Node",
            "Deployment",
        ),
    ];
    for (path, at_fault, victim) in cases {
        let report = analyze(&[fixture(path)]);
        assert_ranked(path, &report);
        let top = report.diagnosis().unwrap();
        assert_eq!(top.subject.kind, at_fault, "{path}: {}", top.subject);
        assert!(
            top.affects.iter().any(|a| a.kind == victim),
            "{path}: {:?}",
            top.affects
        );
        for f in report.findings.iter().skip(1) {
            if f.subject.kind == victim || top.affects.contains(&f.subject) {
                let cause = f.explained_by.as_ref();
                assert!(
                    cause.is_some_and(|c| c.subject == top.subject),
                    "{path}: {} about the victim is not listed under its cause",
                    f.rule
                );
            }
        }
    }
}

/// Issue 39: a lint (a risk in a spec, no evidence of failure) never outranks a fault. Each lint's
/// fires fixtures pasted with each fixture of another rule whose report has an error or warning
/// that is no lint: the diagnosis is never the lint's.
#[test]
fn a_lint_never_outranks_a_fault() {
    use faultline_engine::rules::{is_lint, LINTS};
    let rule_of = |p: &PathBuf| {
        p.parent()
            .and_then(|d| d.file_name())
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default()
    };
    let fires = |p: &PathBuf| p.file_name().unwrap().to_string_lossy().starts_with("fires-");
    // The fixtures where a lint is only a lint (a warning: no failure it explains).
    let lints: Vec<PathBuf> = fixtures()
        .into_iter()
        .filter(|p| fires(p) && LINTS.contains(&rule_of(p).as_str()))
        .filter(|p| analyze(&[source(p)]).findings.iter().any(is_lint))
        .collect();
    let faults: Vec<PathBuf> = fixtures()
        .into_iter()
        .filter(|p| fires(p) && !LINTS.contains(&rule_of(p).as_str()))
        .filter(|p| {
            analyze(&[source(p)])
                .findings
                .iter()
                .any(|f| f.severity != Severity::Info && !is_lint(f))
        })
        .collect();
    assert!(
        lints.len() >= 3 && faults.len() > 20,
        "{} {}",
        lints.len(),
        faults.len()
    );
    let mut pairs = 0;
    for lint in &lints {
        for fault in &faults {
            let report = analyze(&[source(lint), source(fault)]);
            let what = format!("{} + {}", lint.display(), fault.display());
            assert_ranked(&what, &report);
            // Fixtures that name the same objects can answer each other (a Service's Pods pasted
            // ready): then there is no fault left to rank.
            let Some(top) = report.diagnosis() else {
                continue;
            };
            assert!(!is_lint(top), "{what}: the lint {} heads", top.rule);
            // And the lint is listed as considered and ruled out, beside that fault.
            for lint in report.findings.iter().filter(|f| is_lint(f)) {
                let listed = report.ruled_out.iter().any(|r| {
                    r.finding
                        .as_ref()
                        .is_some_and(|c| c.rule == lint.rule && c.subject == lint.subject)
                });
                assert!(listed, "{what}: the lint {} is not ruled out", lint.rule);
            }
            pairs += 1;
        }
    }
    assert!(pairs > 80, "{pairs} pairs");
}

/// Issue 39: specificity. A component's explicit refusal or reason outranks a generic symptom (a
/// probe failing, 5xx, restarts, a rollout not progressing) of the same severity. Each fires fixture
/// whose diagnosis is a generic symptom, pasted with each whose diagnosis is an explicit reason of
/// the same severity: the explicit reason heads, or explains the symptom.
#[test]
fn an_explicit_reason_outranks_a_generic_symptom() {
    use faultline_judge::GENERIC;
    let diagnosis = |p: &PathBuf| {
        analyze(&[source(p)])
            .diagnosis()
            .map(|f| (f.rule.clone(), f.severity))
    };
    let fires = |p: &PathBuf| p.file_name().unwrap().to_string_lossy().starts_with("fires-");
    let all: Vec<(PathBuf, String, Severity)> = fixtures()
        .into_iter()
        .filter(|p| fires(p))
        .filter_map(|p| diagnosis(&p).map(|(r, s)| (p, r, s)))
        .filter(|(_, _, s)| *s == Severity::Error)
        .collect();
    let generic: Vec<_> = all
        .iter()
        .filter(|(_, r, _)| GENERIC.contains(&r.as_str()))
        .collect();
    let explicit: Vec<_> = all
        .iter()
        .filter(|(_, r, _)| {
            !GENERIC.contains(&r.as_str()) && !faultline_engine::rules::LINTS.contains(&r.as_str())
        })
        .collect();
    assert!(
        generic.len() >= 5 && explicit.len() > 20,
        "{} {}",
        generic.len(),
        explicit.len()
    );
    let mut pairs = 0;
    for (g, _, _) in &generic {
        for (e, _, _) in explicit.iter().step_by(3) {
            let report = analyze(&[source(g), source(e)]);
            let what = format!("{} + {}", g.display(), e.display());
            let Some(top) = report.diagnosis() else { continue };
            // Fixtures that name the same object can answer each other (a Pod pasted running
            // after its mount failed): only where an explicit reason is left is the order at stake.
            let explicit_left = report.findings.iter().any(|f| {
                f.severity == Severity::Error
                    && !GENERIC.contains(&f.rule.as_str())
                    && !faultline_engine::rules::is_lint(f)
            });
            if top.severity != Severity::Error || !explicit_left {
                continue;
            }
            assert!(
                !GENERIC.contains(&top.rule.as_str()),
                "{what}: the generic symptom {} heads",
                top.rule
            );
            pairs += 1;
        }
    }
    assert!(pairs > 40, "{pairs} pairs");
}
