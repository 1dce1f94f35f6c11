//! "Considered and ruled out": every loud signal that is not the cause, with the line that demotes
//! it — a symptom by its cause's first evidence, a lint by the fault beside it — and the boundaries
//! a line of the input shows working for the Pod the diagnosis is about.

use faultline_model::Model;
use faultline_report::instant::Instant;
use faultline_report::{Boundary, Cause, Finding, ObjectRef, RuledOut, Sentence, Severity, TimelineEntry};

use super::words::Msg;

pub(crate) fn ruled_out(
    model: &Model<'_>,
    findings: &[Finding],
    timeline: &[TimelineEntry],
) -> Vec<RuledOut> {
    let mut out = Vec::new();
    let Some(top) = findings
        .iter()
        .find(|f| f.severity != Severity::Info && !faultline_rules::is_lint(f))
    else {
        return out;
    };
    // Each finding by (rule, subject), and each subject's first warning, once: a dump's report holds
    // a thousand symptoms and a timeline of ten thousand entries.
    let mut by_id: faultline_report::hash::Map<(&str, &ObjectRef), &Finding> =
        faultline_report::hash::Map::default();
    for f in findings {
        by_id.entry((f.rule.as_str(), &f.subject)).or_insert(f);
    }
    let mut first_warning: faultline_report::hash::Map<&ObjectRef, i64> =
        faultline_report::hash::Map::default();
    for e in timeline.iter().filter(|e| e.warning) {
        if let Some(t) = Instant::parse(&e.time) {
            let at = first_warning.entry(&e.subject).or_insert(i64::MAX);
            *at = (*at).min(t.secs());
        }
    }
    for f in findings {
        if let Some(cause) = &f.explained_by {
            let by = by_id.get(&(cause.rule.as_str(), &cause.subject)).copied();
            let after = by.and_then(|c| lag(&first_warning, c, f));
            out.push(RuledOut {
                boundary: f.boundary,
                finding: Some(cause_of(f)),
                because: Sentence::new(Msg::ExplainedBy {
                    symptom: f.subject.clone(),
                    rule: f.rule.clone(),
                    cause: cause.subject.clone(),
                    cause_rule: cause.rule.clone(),
                    after,
                }),
                evidence: by.and_then(|c| c.evidence.first().cloned()),
            });
        } else if faultline_rules::is_lint(f) {
            out.push(RuledOut {
                boundary: f.boundary,
                finding: Some(cause_of(f)),
                because: Sentence::new(Msg::LintBesideFault {
                    rule: f.rule.clone(),
                    object: f.subject.clone(),
                    fault: top.subject.clone(),
                    fault_rule: top.rule.clone(),
                }),
                evidence: f.evidence.first().cloned(),
            });
        }
    }
    out.extend(working(model, top, findings));
    out
}

fn cause_of(f: &Finding) -> Cause {
    Cause {
        rule: f.rule.clone(),
        subject: f.subject.clone(),
    }
}

/// How long after the cause's first warning the symptom's first came (`40s`), when both are dated
/// and the symptom's is later. A creation or a start is no sign of failure: only warnings count.
fn lag(
    first_warning: &faultline_report::hash::Map<&ObjectRef, i64>,
    cause: &Finding,
    symptom: &Finding,
) -> Option<String> {
    let (cause, symptom) = (
        first_warning.get(&cause.subject)?,
        first_warning.get(&symptom.subject)?,
    );
    let seconds = symptom - cause;
    (seconds > 0).then(|| faultline_report::timeline::human(seconds))
}

/// The boundaries a line of the input shows working for the diagnosis' Pod, where no finding sits
/// at that boundary: it was scheduled, its node is Ready, its containers were started.
fn working(model: &Model<'_>, top: &Finding, findings: &[Finding]) -> Vec<RuledOut> {
    let mut out = Vec::new();
    let pod = match top.subject.kind.as_str() {
        "Pod" => model.object(&top.subject),
        _ => None,
    };
    let Some(pod) = pod else {
        return out;
    };
    let faulted = |b: Boundary| {
        findings
            .iter()
            .any(|f| f.boundary == b && f.severity != Severity::Info)
    };
    let node = pod
        .locate("spec.nodeName")
        .and_then(|(_, n)| n.as_str())
        .map(str::trim)
        .filter(|n| !n.is_empty());
    if let Some(node) = node {
        if !faulted(Boundary::Scheduling) {
            out.push(RuledOut {
                boundary: Boundary::Scheduling,
                finding: None,
                because: Sentence::new(Msg::Scheduled {
                    pod: top.subject.clone(),
                    node: node.into(),
                }),
                evidence: model.evidence(pod, "spec.nodeName"),
            });
        }
        if !faulted(Boundary::NodeRuntime) {
            out.extend(node_ready(model, node));
        }
    }
    if !faulted(Boundary::NodeRuntime) && !faulted(Boundary::ZoneNetworkStorage) {
        out.extend(started(model, pod, &top.subject));
    }
    out
}

/// The pasted Node `name` reporting Ready, with its condition's line.
fn node_ready(model: &Model<'_>, name: &str) -> Option<RuledOut> {
    let node = model.objects_of_kind("Node").find(|n| n.id.name == name)?;
    let (_, conditions) = node.locate("status.conditions")?;
    let i = conditions
        .items()
        .iter()
        .position(|c| c.get("type").and_then(|t| t.as_str()) == Some("Ready"))?;
    let status = conditions.items()[i].get("status").and_then(|s| s.as_str());
    (status == Some("True")).then(|| RuledOut {
        boundary: Boundary::NodeRuntime,
        finding: None,
        because: Sentence::new(Msg::NodeReady { node: name.into() }),
        evidence: model.evidence(node, &format!("status.conditions[{i}].status")),
    })
}

/// A container of the Pod the runtime started (running now, or terminated after it started).
fn started(
    model: &Model<'_>,
    pod: &faultline_ingest::Object,
    subject: &faultline_report::ObjectRef,
) -> Option<RuledOut> {
    let (_, statuses) = pod.locate("status.containerStatuses")?;
    for (i, status) in statuses.items().iter().enumerate() {
        for state in ["state.running", "lastState.terminated", "state.terminated"] {
            let path = format!("status.containerStatuses[{i}].{state}.startedAt");
            let Some((_, at)) = pod.locate(&path) else {
                continue;
            };
            if at.as_str().is_none_or(|s| s.trim().is_empty()) {
                continue;
            }
            let container = status.get("name").and_then(|n| n.as_str()).unwrap_or_default();
            return Some(RuledOut {
                boundary: Boundary::NodeRuntime,
                finding: None,
                because: Sentence::new(Msg::ContainerStarted {
                    pod: subject.clone(),
                    container: container.into(),
                }),
                evidence: model.evidence(pod, &path),
            });
        }
    }
    None
}
