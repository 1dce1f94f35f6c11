//! The components of the logical architecture a rule implicates, declared with the rule
//! (`declare_rule!`'s `components: [...]`), and the ones a finding of it implicates: the report says
//! which parts of the picture to light, so the app only draws ([`Finding::components`]).

use crate::control_plane::components::{APISERVER, CONTROLLER_MANAGER, SCHEDULER};
use faultline_report::{Component, Detail, Finding, ObjectRef, Text};

/// A component a rule declares, and when a finding of the rule implicates it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Implicates {
    pub component: Component,
    pub when: When,
}

/// The condition on a declared component (`Kubelet if NodeNamed`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum When {
    Always,
    /// The finding names its node ([`Finding::node`]): a claim or a sandbox is not a kubelet's fault
    /// unless the input says which kubelet.
    NodeNamed,
    /// The subject is not the Node itself: a Node's own finding is its kubelet's, not its runtime's.
    NotNodeSubject,
    /// A controller made the refused request (the subject is a workload, or the evidence is its
    /// `FailedCreate` event), not a client.
    ByController,
    /// The finding says its subject serves this component ([`faultline_report::Detail::Serves`]): a
    /// cluster component lights what its failure takes away.
    Serves,
    /// The finding is about kube-apiserver's own Pod, or names no control-plane component.
    OfApiServer,
    /// The finding is about kube-scheduler's own Pod.
    OfScheduler,
    /// The finding is about kube-controller-manager's own Pod.
    OfControllerManager,
}

/// The node a finding is about: a Node subject, or a `nodeName` its evidence cites.
pub fn finding_node(finding: &Finding) -> Option<Text> {
    if finding.subject.kind == "Node" {
        return Some(finding.subject.name.clone());
    }
    finding
        .evidence
        .iter()
        .find(|e| e.path.ends_with("nodeName") && !e.value.trim().is_empty())
        .map(|e| e.value.trim().into())
}

/// Sets the finding's node and the components it implicates, of those its rule declares. `pod_node`
/// is the `spec.nodeName` of the finding's subject when that is a pasted Pod: a finding whose evidence
/// does not cite the node (a readiness probe's events) is still about that node's kubelet.
pub fn implicate(declared: &[Implicates], finding: &mut Finding, pod_node: Option<Text>) {
    finding.node = finding_node(finding).or(pod_node);
    let holds = |when: When, component: Component| match when {
        When::Serves => finding
            .details
            .iter()
            .any(|d| matches!(d, faultline_report::Detail::Serves(c) if *c == component)),
        When::Always => true,
        When::NodeNamed => finding.node.is_some(),
        When::NotNodeSubject => finding.subject.kind != "Node",
        When::ByController => {
            let controller = |o: &ObjectRef| {
                matches!(
                    o.kind.as_str(),
                    "ReplicaSet" | "Deployment" | "StatefulSet" | "DaemonSet" | "Job"
                )
            };
            // The refused object when the subject is the refuser (a quota's refused ReplicaSet).
            controller(&finding.subject)
                || finding.affects.iter().any(controller)
                || finding.evidence.iter().any(|e| e.value.contains("FailedCreate"))
        }
        When::OfApiServer => !finding
            .details
            .iter()
            .any(|d| matches!(d, Detail::ControlPlaneComponent(c) if *c != APISERVER)),
        When::OfScheduler => finding
            .details
            .contains(&Detail::ControlPlaneComponent(SCHEDULER)),
        When::OfControllerManager => finding
            .details
            .contains(&Detail::ControlPlaneComponent(CONTROLLER_MANAGER)),
    };
    let components = declared
        .iter()
        .filter(|d| holds(d.when, d.component))
        .map(|d| d.component)
        .collect();
    finding.components = components;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RULES;
    use faultline_report::{Boundary, Evidence, ObjectRef, Severity};

    #[test]
    fn every_rule_declares_at_least_one_component_and_none_twice() {
        for rule in RULES {
            assert!(!rule.components.is_empty(), "{} declares no component", rule.id);
            for (i, c) in rule.components.iter().enumerate() {
                assert!(
                    !rule.components[..i].iter().any(|d| d.component == c.component),
                    "{} declares {:?} twice",
                    rule.id,
                    c.component
                );
            }
        }
    }

    fn finding(rule: &str, kind: &str) -> Finding {
        let rule = crate::find(rule).unwrap();
        let mut f = rule.finding(
            Severity::Error,
            ObjectRef {
                kind: kind.into(),
                name: "n3".into(),
                ..Default::default()
            },
            faultline_report::message::common::Msg::HistoryCannot {},
            Vec::new(),
            Vec::<faultline_report::message::Message>::new(),
            Vec::new(),
        );
        implicate(rule.components, &mut f, None);
        f
    }

    #[test]
    fn conditions_on_declared_components_follow_the_finding() {
        let node = finding("node-not-ready", "Node");
        assert_eq!(node.boundary, Boundary::NodeRuntime);
        assert_eq!(node.components, [Component::Kubelet]);
        assert_eq!(node.node.as_deref(), Some("n3"));
        assert_eq!(finding("pod-evicted", "Node").components, [Component::Kubelet]);
        assert_eq!(
            finding("pod-evicted", "Pod").components,
            [Component::Kubelet, Component::Runtime]
        );
        let claim = finding("pvc-pending", "PersistentVolumeClaim");
        assert_eq!(claim.components, [Component::Volumes]);
        assert_eq!(claim.node, None);
        let mut sandbox = finding("pod-sandbox-failed", "Pod");
        assert_eq!(sandbox.components, [Component::ProxyCni]);
        sandbox.evidence.push(Evidence {
            source: "p.yaml".into(),
            line: 9,
            path: "spec.nodeName".into(),
            value: "n3".into(),
        });
        implicate(
            crate::find("pod-sandbox-failed").unwrap().components,
            &mut sandbox,
            None,
        );
        assert_eq!(sandbox.components, [Component::ProxyCni, Component::Kubelet]);
        assert_eq!(sandbox.node.as_deref(), Some("n3"));
        // The evidence does not cite the node, the Pod's spec does: the same kubelet.
        let mut probe = finding("readiness-probe-failing", "Pod");
        assert_eq!(probe.node, None);
        implicate(
            crate::find("readiness-probe-failing").unwrap().components,
            &mut probe,
            Some("n7".into()),
        );
        assert_eq!(probe.node.as_deref(), Some("n7"));
        assert!(probe.components.contains(&Component::Kubelet));
        assert_eq!(
            finding("quota-exceeded-on-create", "Pod").components,
            [Component::ApiServer]
        );
        assert_eq!(
            finding("quota-exceeded-on-create", "ReplicaSet").components,
            [Component::ApiServer, Component::ControllerManager]
        );
    }
}
