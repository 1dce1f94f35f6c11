//! When the verdict is inconclusive, the one paste most likely to decide (issue 40, item 3): a
//! command about an object the input names, chosen by the symptom it shows in the order the paste
//! guide's entries are matched (`faultline_render::guide::matching`: storage, a Service, a rollout,
//! a node, a Pod), built as the rules build theirs (names quoted, `'<namespace>'` where the input
//! states none) and never one whose output is pasted already.

use faultline_model::Model;
use faultline_report::ObjectRef;
use faultline_rules::shell::quote;

/// The kinds whose describe or listing decides, most telling first, each with the commands to try
/// in order (`{name}`, `{ns}` filled in).
const BY_KIND: [(&str, &[&str]); 11] = [
    ("PersistentVolumeClaim", &["kubectl describe pvc {name} -n {ns}"]),
    (
        "Service",
        &[
            "kubectl get endpointslices -n {ns} -l kubernetes.io/service-name={name} -o yaml",
            "kubectl describe service {name} -n {ns}",
        ],
    ),
    (
        "Endpoints",
        &["kubectl get endpointslices -n {ns} -l kubernetes.io/service-name={name} -o yaml"],
    ),
    ("Deployment", &["kubectl describe deployment {name} -n {ns}"]),
    ("StatefulSet", &["kubectl describe statefulset {name} -n {ns}"]),
    ("DaemonSet", &["kubectl describe daemonset {name} -n {ns}"]),
    ("ReplicaSet", &["kubectl describe replicaset {name} -n {ns}"]),
    ("Job", &["kubectl describe job {name} -n {ns}"]),
    ("Node", &["kubectl describe node {name}"]),
    (
        "Pod",
        &[
            "kubectl describe pod {name} -n {ns}",
            "kubectl get pod {name} -n {ns} -o yaml",
        ],
    ),
    ("PersistentVolume", &["kubectl describe pv {name}"]),
];

/// What to paste when nothing in the input names an object: the cluster's warnings, newest last.
const ANYTHING: &str = "kubectl get events -A --field-selector type=Warning --sort-by=.lastTimestamp";

/// The command for an inconclusive report, `None` only when every candidate is pasted already.
pub fn paste_next(model: &Model<'_>) -> Option<String> {
    let named = |o: &&ObjectRef| !o.name.is_empty();
    let objects: Vec<&ObjectRef> = model.objects.iter().map(|o| &o.id).filter(named).collect();
    let subjects: Vec<&ObjectRef> = model.events.iter().map(|e| &e.subject).filter(named).collect();
    // Objects read first (their state was read and told nothing), then what events are about.
    for (kind, commands) in BY_KIND {
        for object in objects.iter().chain(&subjects).filter(|o| o.kind == kind) {
            let ns = object
                .namespace
                .as_deref()
                .unwrap_or(faultline_rules::UNKNOWN_NAMESPACE);
            for template in commands {
                let command = fill(template, &object.name, ns);
                if !model.already_pasted(&command) {
                    return Some(command);
                }
            }
        }
    }
    (!model.already_pasted(ANYTHING)).then(|| ANYTHING.to_string())
}

/// `template` with `{name}` and `{ns}` replaced by the shell-quoted values, in one pass (a name
/// holding `{ns}` stays a name).
fn fill(template: &str, name: &str, ns: &str) -> String {
    let mut out = String::new();
    let mut rest = template;
    while let Some(at) = rest.find('{') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        if let Some(after) = rest.strip_prefix("{name}") {
            out.push_str(&quote(name));
            rest = after;
        } else if let Some(after) = rest.strip_prefix("{ns}") {
            out.push_str(&quote(ns));
            rest = after;
        } else {
            out.push('{');
            rest = &rest[1..];
        }
    }
    out.push_str(rest);
    out
}
