//! One fault, one finding: the same rule about the same object said once, and the same template
//! fault of a workload's Pods said once about the workload.

use faultline_model::owners::stated_workload;
use faultline_model::Model;
use faultline_report::{Finding, ObjectRef, Severity};

/// One fault, one finding: the findings of one rule about one object (the same Pod pasted as YAML,
/// as `kubectl describe` and in an events table is read as three objects, and a rule that looks at
/// each says the same thing three times) become one, with the evidence of each, in input order.
/// The most severe of them is kept (the first of equals), and the others add what it lacks:
/// evidence (after its own), what cannot be established, next steps, affected objects. A subject
/// without a name (a fragment's Pod) is never the same object as another.
pub(crate) fn merge_duplicates(findings: Vec<Finding>) -> Vec<Finding> {
    let mut kept: Vec<Finding> = Vec::with_capacity(findings.len());
    let mut at: faultline_report::hash::Map<(String, ObjectRef), usize> =
        faultline_report::hash::Map::default();
    for finding in findings {
        if finding.subject.name.is_empty() {
            kept.push(finding);
            continue;
        }
        let key = (finding.rule.clone(), finding.subject.clone());
        let Some(&i) = at.get(&key) else {
            at.insert(key, kept.len());
            kept.push(finding);
            continue;
        };
        let mut other = finding;
        if other.severity > kept[i].severity {
            std::mem::swap(&mut kept[i], &mut other);
        }
        let base = &mut kept[i];
        add_missing(&mut base.evidence, other.evidence);
        add_missing(&mut base.cannot_establish, other.cannot_establish);
        add_missing(&mut base.next_steps, other.next_steps);
        add_missing(&mut base.affects, other.affects);
        add_missing(&mut base.details, other.details);
    }
    kept
}

pub(crate) fn add_missing<T: PartialEq>(to: &mut Vec<T>, from: Vec<T>) {
    for item in from {
        if !to.contains(&item) {
            to.push(item);
        }
    }
}

/// The rules whose fault lies in what the Pods of a workload share, their template: the image, the
/// command, the configuration it references, the limits, the probes.
const TEMPLATE_RULES: [&str; 8] = [
    "container-config-invalid",
    "container-crash-looping",
    "container-init-oom-killed",
    "container-oom-killed",
    "container-start-failed",
    "image-pull-failed",
    "liveness-probe-failing",
    "startup-probe-failing",
];

/// One template fault, one finding: when two or more Pods of one workload (its owner as the input
/// states it, [`stated_workload`]; a Deployment known only from generated names is not enough) fail
/// by the same template rule at the same severity, and no other finding explains them, the finding
/// is about the workload, with the evidence of each Pod, in the place of its first Pod. The fault
/// is in what they share; one Pod or one node is not the answer (a DaemonSet whose Pods crash on
/// every node).
pub(crate) fn one_finding_per_template_fault(model: &Model<'_>, findings: Vec<Finding>) -> Vec<Finding> {
    let workload_of = |f: &Finding| -> Option<ObjectRef> {
        if f.subject.kind != "Pod"
            || f.severity == Severity::Info
            || f.explained_by.is_some()
            || !TEMPLATE_RULES.contains(&f.rule.as_str())
        {
            return None;
        }
        stated_workload(model, &f.subject).filter(|w| w.kind != "Pod" && !w.name.is_empty())
    };
    let mut groups: faultline_report::hash::Map<(String, Severity, ObjectRef), Vec<usize>> =
        faultline_report::hash::Map::default();
    let keys: Vec<Option<(String, Severity, ObjectRef)>> = findings
        .iter()
        .map(|f| workload_of(f).map(|w| (f.rule.clone(), f.severity, w)))
        .collect();
    for (i, key) in keys.iter().enumerate() {
        if let Some(key) = key {
            groups.entry(key.clone()).or_default().push(i);
        }
    }
    let mut slots: Vec<Option<Finding>> = findings.into_iter().map(Some).collect();
    for (i, key) in keys.iter().enumerate() {
        let Some(key) = key else { continue };
        let members = &groups[key];
        if members.len() < 2 || members[0] != i {
            continue;
        }
        let mut base = slots[i]
            .take()
            .unwrap_or_else(|| unreachable!("each finding is taken once"));
        let mut pods = vec![base.subject.clone()];
        for &j in &members[1..] {
            let Some(other) = slots[j].take() else { continue };
            pods.push(other.subject.clone());
            // The node of the finding is that of all its Pods, or none.
            if other.node != base.node {
                base.node = None;
            }
            // Each Pod's evidence; what cannot be established and the next steps stay the first
            // Pod's (the others' say the same of another Pod).
            add_missing(&mut base.evidence, other.evidence);
            add_missing(&mut base.affects, other.affects);
            add_missing(&mut base.details, other.details);
        }
        let workload = key.2.clone();
        base.summary.wrap(|summary| {
            faultline_report::message::common::Msg::SamePodsFault {
                workload: workload.clone(),
                count: pods.len(),
                pods: pods.iter().take(5).cloned().collect(),
                summary: Box::new(summary),
            }
            .into()
        });
        base.affects.retain(|o| *o != workload);
        base.subject = workload;
        slots[i] = Some(base);
    }
    slots.into_iter().flatten().collect()
}
