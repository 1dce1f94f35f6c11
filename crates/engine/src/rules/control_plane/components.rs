//! The control plane's own Pods (kubeadm's static Pods in `kube-system`): which component a Pod is,
//! and whether it is failing, with the fields that say so. Shared by the control-plane and etcd rules.

use crate::ingest::{Object, Typed};
use crate::model::Model;
use crate::report::{Evidence, Finding, ObjectRef, Severity};
use crate::rules::containers::containers;
use crate::rules::Rule;

pub const APISERVER: &str = "kube-apiserver";
pub const ETCD: &str = "etcd";
const COMPONENTS: [&str; 4] = [APISERVER, "kube-controller-manager", "kube-scheduler", ETCD];

/// The component a Pod runs: its `component` label (kubeadm, kOps), else its name
/// (`kube-apiserver-<node>`), only in `kube-system`.
pub fn component(object: &Object) -> Option<&'static str> {
    if object.id.kind != "Pod" || object.id.namespace.as_deref() != Some("kube-system") {
        return None;
    }
    let label = object
        .locate("metadata.labels.component")
        .and_then(|(_, n)| n.as_str());
    COMPONENTS.into_iter().find(|c| {
        label == Some(*c)
            || object
                .id
                .name
                .strip_prefix(c)
                .is_some_and(|rest| rest.starts_with('-') && rest.len() > 1)
    })
}

/// Why the component's Pod is failing, in words, and the fields that show it; `None` when it runs.
fn failing(model: &Model<'_>, object: &Object) -> Option<(String, Vec<Evidence>)> {
    let mut evidence = Vec::new();
    let mut said = Vec::new();
    if let Typed::Pod(pod) = &object.typed {
        for c in containers(pod) {
            let waiting = c
                .waiting_reason()
                .filter(|r| *r != "ContainerCreating" && *r != "PodInitializing");
            let terminated = c.termination().filter(|(_, t)| t.exit_code != 0);
            if waiting.is_none() && terminated.is_none() && c.status.ready {
                continue;
            }
            if waiting.is_none() && terminated.is_none() && c.status.restart_count == 0 {
                // Not ready, never restarted, nothing waiting: still starting.
                continue;
            }
            let mut words = format!("container {}", c.status.name);
            if let Some(reason) = waiting {
                words.push_str(&format!(" is {reason}"));
                evidence.extend(model.evidence(object, &format!("{}.state.waiting.reason", c.status_path)));
                evidence.extend(model.evidence(object, &format!("{}.state.waiting.message", c.status_path)));
            } else if !c.status.ready {
                words.push_str(" is not ready");
                evidence.extend(model.evidence(object, &format!("{}.ready", c.status_path)));
            }
            if let Some((key, t)) = terminated {
                words.push_str(&format!(
                    ", last exit code {}{}",
                    t.exit_code,
                    t.reason.as_deref().map(|r| format!(" ({r})")).unwrap_or_default()
                ));
                evidence
                    .extend(model.evidence(object, &format!("{}.{key}.terminated.exitCode", c.status_path)));
                evidence
                    .extend(model.evidence(object, &format!("{}.{key}.terminated.message", c.status_path)));
                if let Some(last) = t.message.as_deref().map(str::trim).filter(|m| !m.is_empty()) {
                    let last: String = last.chars().take(200).collect();
                    words.push_str(&format!(", its last words {last:?}"));
                }
            }
            if c.status.restart_count > 0 {
                words.push_str(&format!(", restarted {} times", c.status.restart_count));
                evidence.extend(model.evidence(object, &format!("{}.restartCount", c.status_path)));
            }
            said.push(words);
        }
        let phase = pod.status.as_ref().and_then(|s| s.phase.as_deref());
        if said.is_empty() && matches!(phase, Some("Failed")) {
            said.push("the Pod has failed".to_string());
            evidence.extend(model.evidence(object, "status.phase"));
        }
    }
    if said.is_empty() {
        // A `kubectl get pods` row: its STATUS column.
        let printed = object.locate("kubectl.status").and_then(|(_, n)| n.as_str())?;
        if matches!(
            printed,
            "Running" | "Completed" | "Succeeded" | "ContainerCreating" | "PodInitializing"
        ) {
            return None;
        }
        said.push(format!("kubectl shows it {printed}"));
        evidence.extend(model.evidence(object, "kubectl.status"));
    }
    (!said.is_empty()).then(|| (said.join("; "), evidence))
}

/// One finding per failing Pod of the components `wanted` accepts.
pub fn check_components(
    model: &Model<'_>,
    rule: &Rule,
    wanted: fn(&str) -> bool,
    findings: &mut Vec<Finding>,
) {
    for object in model.objects {
        let Some(component) = component(object).filter(|c| wanted(c)) else {
            continue;
        };
        let Some((state, mut evidence)) = failing(model, object) else {
            continue;
        };
        for event in model
            .events_for(&object.id)
            .iter()
            .filter(|e| e.is_warning())
            .rev()
            .take(2)
        {
            evidence.extend(model.event_evidence(event));
        }
        let name = &object.id.name;
        let node = object
            .locate("spec.nodeName")
            .and_then(|(_, n)| n.as_str())
            .map(str::to_string);
        let consequence = match component {
            APISERVER => "while it is down, kubectl, controllers and kubelets cannot reach the API",
            ETCD => "the API server cannot read or write the cluster's state through this member",
            "kube-scheduler" => "new Pods stay Pending with no scheduling events at all",
            _ => "Deployments, ReplicaSets, endpoints and node health are not reconciled",
        };
        let summary =
            format!("The control plane's {component} is failing: Pod {name}: {state}; {consequence}.");
        // Where the node is not known, a placeholder to fill in.
        let where_ = node.as_deref().unwrap_or("NODE");
        // etcd is not its own dependency: its log names a data directory or its peers instead.
        let causes = if component == ETCD {
            "a bad flag, an expired certificate, a damaged data directory, peers unreachable"
        } else {
            "a bad flag, an expired certificate, etcd unreachable"
        };
        let cannot_establish = vec![
            format!("Why {component} exits: its own log says ({causes}), and no status field carries it."),
            "Whether the other control-plane nodes' copies are healthy, unless their Pods were pasted too."
                .to_string(),
        ];
        let next_steps = vec![
            command!("kubectl -n kube-system logs {} --previous", name),
            command!("kubectl -n kube-system describe pod {}", name),
            command!("ssh {} sudo crictl ps -a --name {}", where_, component),
            command!(
                "ssh {} sudo crictl logs $(sudo crictl ps -a -q --name {} | head -1)",
                where_,
                component
            ),
        ];
        let subject: ObjectRef = object.id.clone();
        findings.push(rule.finding(
            Severity::Error,
            subject,
            summary,
            evidence,
            cannot_establish,
            next_steps,
        ));
    }
}

crate::messages! {
    /// The words of `components`.
    pub enum Msg {}
}
