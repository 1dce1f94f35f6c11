//! Report -> the logical architecture diagram: which component each finding implicates, and which
//! nodes' kubelets to draw. The engine decides the boundary; this only places it on the picture
//! (DESIGN.md, "Fault boundaries", the diagram components column).

use std::collections::{BTreeMap, BTreeSet};

use faultline_engine::{Boundary, Finding, Report, Severity};

/// A component of the logical architecture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Part {
    Client,
    ApiServer,
    Etcd,
    ControllerManager,
    Scheduler,
    CloudControllerManager,
    Kubelet,
    Runtime,
    Containers,
    ProxyCni,
    ServiceSlice,
    Volumes,
}

impl Part {
    /// Stable id for the DOM and tests.
    pub fn id(self) -> &'static str {
        match self {
            Part::Client => "client",
            Part::ApiServer => "kube-apiserver",
            Part::Etcd => "etcd",
            Part::ControllerManager => "kube-controller-manager",
            Part::Scheduler => "kube-scheduler",
            Part::CloudControllerManager => "cloud-controller-manager",
            Part::Kubelet => "kubelet",
            Part::Runtime => "container-runtime",
            Part::Containers => "containers",
            Part::ProxyCni => "kube-proxy-cni",
            Part::ServiceSlice => "service-endpointslice",
            Part::Volumes => "volumes",
        }
    }
}

/// What flows along an edge of the diagram.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    DesiredState,
    Store,
    WatchWriteStatus,
    WatchBind,
    WatchAssignedPods,
    CriCalls,
    RunsContainers,
    Mounts,
    WatchServices,
    Traffic,
}

/// One thing on the picture: a component, and for a kubelet the node it runs on (`None`: a kubelet
/// whose node the input does not name).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Target {
    pub part: Part,
    pub node: Option<String>,
}

impl Target {
    fn of(part: Part) -> Self {
        Target { part, node: None }
    }
}

/// The node a finding is about: a Node subject, or a `nodeName` its evidence cites.
pub fn finding_node(finding: &Finding) -> Option<String> {
    if finding.subject.kind == "Node" {
        return Some(finding.subject.name.to_string());
    }
    finding
        .evidence
        .iter()
        .find(|e| e.path.ends_with("nodeName") && !e.value.trim().is_empty())
        .map(|e| e.value.trim().to_string())
}

/// The components a finding implicates, from its boundary, rule and evidence.
pub fn implicated(finding: &Finding) -> Vec<Target> {
    let node = finding_node(finding);
    let kubelet = Target {
        part: Part::Kubelet,
        node: node.clone(),
    };
    let rule = finding.rule.as_str();
    match finding.boundary {
        Boundary::ControlPlane => vec![Target::of(Part::ApiServer)],
        Boundary::Etcd => vec![Target::of(Part::Etcd)],
        Boundary::Scheduling => vec![Target::of(Part::Scheduler)],
        Boundary::NodeRuntime if finding.subject.kind == "Node" => vec![kubelet],
        Boundary::NodeRuntime => vec![kubelet, Target::of(Part::Runtime)],
        Boundary::QuotaAdmission => {
            let by_controller = matches!(
                finding.subject.kind.as_str(),
                "ReplicaSet" | "Deployment" | "StatefulSet" | "DaemonSet" | "Job"
            ) || finding.evidence.iter().any(|e| e.value.contains("FailedCreate"));
            let mut parts = vec![Target::of(Part::ApiServer)];
            if by_controller {
                parts.push(Target::of(Part::ControllerManager));
            }
            parts
        }
        Boundary::ZoneNetworkStorage => {
            let network = rule.contains("sandbox") || rule.contains("network") || rule.contains("cni");
            let storage = rule.contains("pvc") || rule.contains("volume") || rule.contains("csi");
            let mut parts = Vec::new();
            if network || !storage {
                parts.push(Target::of(Part::ProxyCni));
            }
            if storage {
                parts.push(Target::of(Part::Volumes));
            }
            if node.is_some() {
                parts.push(kubelet);
            }
            parts
        }
        Boundary::ReadinessEndpoints => vec![Target::of(Part::ServiceSlice), kubelet],
        Boundary::Application => vec![Target::of(Part::Containers)],
    }
}

/// A lit component: its worst severity and the findings (indices into the report) behind it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lit {
    pub severity: Severity,
    pub findings: Vec<usize>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagram {
    /// Kubelets to draw, one per node: implicated nodes first, then the others by name.
    pub nodes: Vec<String>,
    /// Nodes present but collapsed into a "more" box.
    pub hidden_nodes: usize,
    pub lit: BTreeMap<Target, Lit>,
}

/// How many kubelets are drawn before the rest collapse into one box.
pub const MAX_KUBELETS: usize = 4;

/// The nodes the input names: Node objects on the timeline, Node subjects, and `nodeName`s cited.
pub fn nodes_in(report: &Report) -> BTreeSet<String> {
    let mut nodes: BTreeSet<String> = report
        .timeline
        .iter()
        .filter(|e| e.subject.kind == "Node")
        .map(|e| e.subject.name.to_string())
        .collect();
    nodes.extend(report.findings.iter().filter_map(finding_node));
    nodes
}

pub fn diagram(report: &Report) -> Diagram {
    let mut lit: BTreeMap<Target, Lit> = BTreeMap::new();
    for (index, finding) in report.findings.iter().enumerate() {
        for target in implicated(finding) {
            let entry = lit.entry(target).or_insert(Lit {
                severity: finding.severity,
                findings: Vec::new(),
            });
            entry.severity = entry.severity.max(finding.severity);
            if !entry.findings.contains(&index) {
                entry.findings.push(index);
            }
        }
    }
    let all = nodes_in(report);
    let implicated_nodes: Vec<String> = lit
        .keys()
        .filter_map(|t| t.node.clone())
        .filter(|n| all.contains(n))
        .collect();
    let mut nodes: Vec<String> = implicated_nodes.clone();
    nodes.extend(all.iter().filter(|n| !implicated_nodes.contains(n)).cloned());
    let hidden_nodes = nodes.len().saturating_sub(MAX_KUBELETS);
    // Implicated nodes are never hidden: the box shown is the one that is lit.
    nodes.truncate(MAX_KUBELETS.max(implicated_nodes.len()));
    Diagram {
        nodes,
        hidden_nodes,
        lit,
    }
}

impl Diagram {
    /// The lit state of a component; for kubelets, of one node (or the unnamed kubelet).
    pub fn lit(&self, part: Part, node: Option<&str>) -> Option<&Lit> {
        self.lit.get(&Target {
            part,
            node: node.map(str::to_string),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::samples;
    use crate::state::State;

    fn lit_ids(report: &Report) -> Vec<String> {
        diagram(report)
            .lit
            .keys()
            .map(|t| match &t.node {
                Some(n) => format!("{}[{n}]", t.part.id()),
                None => t.part.id().to_string(),
            })
            .collect()
    }

    #[test]
    fn each_sample_lights_the_components_of_its_boundary() {
        let cases: [(&str, &[&str]); 6] = [
            ("node-label", &["kube-scheduler"]),
            ("image-pull", &["kubelet[lab-worker2]", "container-runtime"]),
            ("readiness", &["kubelet", "service-endpointslice"]),
            ("publish-not-ready", &["service-endpointslice"]),
            ("quota-403", &["kube-apiserver"]),
            ("healthy", &[]),
        ];
        for (id, expected) in cases {
            let state = State::with_sample(samples::find(id).map(|s| s.id).unwrap());
            let lit = lit_ids(&state.report);
            for part in expected {
                assert!(
                    lit.iter().any(|l| l.starts_with(part)),
                    "{id}: {part} not lit in {lit:?}"
                );
            }
            if expected.is_empty() {
                assert!(lit.is_empty(), "{id}: {lit:?}");
            }
        }
    }

    #[test]
    fn a_node_finding_lights_that_nodes_kubelet_only() {
        let finding = Finding {
            rule: "node-not-ready".into(),
            boundary: Boundary::NodeRuntime,
            severity: Severity::Error,
            subject: faultline_engine::ObjectRef {
                kind: "Node".into(),
                name: "n3".into(),
                ..Default::default()
            },
            summary: String::new(),
            evidence: Vec::new(),
            cannot_establish: Vec::new(),
            next_steps: Vec::new(),
            explained_by: None,
            details: Vec::new(),
        };
        assert_eq!(
            implicated(&finding),
            vec![Target {
                part: Part::Kubelet,
                node: Some("n3".into())
            }]
        );
        let mut storage = finding.clone();
        storage.rule = "pvc-pending".into();
        storage.boundary = Boundary::ZoneNetworkStorage;
        storage.subject.kind = "PersistentVolumeClaim".into();
        assert_eq!(implicated(&storage), vec![Target::of(Part::Volumes)]);
        storage.rule = "pod-sandbox-failed".into();
        storage.subject.kind = "Pod".into();
        storage.evidence.push(faultline_engine::Evidence {
            source: "p.yaml".into(),
            line: 9,
            path: "spec.nodeName".into(),
            value: "n3".into(),
        });
        assert_eq!(
            implicated(&storage),
            vec![
                Target::of(Part::ProxyCni),
                Target {
                    part: Part::Kubelet,
                    node: Some("n3".into())
                }
            ]
        );
    }

    #[test]
    fn many_nodes_collapse_but_the_implicated_one_stays() {
        let mut report = State::with_sample("image-pull").report.as_ref().clone();
        let template = report.timeline[0].clone();
        for i in 0..9 {
            let mut entry = template.clone();
            entry.subject = faultline_engine::ObjectRef {
                kind: "Node".into(),
                name: format!("a-node-{i}").into(),
                ..Default::default()
            };
            report.timeline.push(entry);
        }
        let d = diagram(&report);
        assert_eq!(d.nodes.len(), MAX_KUBELETS);
        assert_eq!(d.nodes[0], "lab-worker2");
        assert_eq!(d.hidden_nodes, 10 - MAX_KUBELETS);
    }
}
