//! Report -> the logical architecture diagram: which components are lit, and which nodes' kubelets
//! to draw. The engine decides which components each finding implicates (each rule declares them,
//! DESIGN.md, "Fault boundaries", the diagram components column); this only places them on the
//! picture.

use std::collections::{BTreeMap, BTreeSet};

use faultline_report::{Finding, Report, Severity};

/// A component of the logical architecture: the engine's, which each finding names
/// ([`Finding::components`]).
pub use faultline_report::Component as Part;

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

/// The components a finding implicates, as the report says ([`Finding::components`]): a kubelet
/// is the one of the finding's node, or the unnamed one.
pub fn implicated(finding: &Finding) -> Vec<Target> {
    finding
        .components
        .iter()
        .map(|&part| Target {
            part,
            node: match part {
                Part::Kubelet => finding.node.as_ref().map(|n| n.to_string()),
                _ => None,
            },
        })
        .collect()
}

/// A lit component: its worst severity and the findings (indices into the report) behind it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lit {
    pub severity: Severity,
    pub findings: Vec<usize>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagram {
    /// Kubelets to draw, one per node: implicated nodes first (the worst first), then the others by
    /// name.
    pub nodes: Vec<String>,
    /// Nodes present but collapsed into one box: `N kubelets (k implicated)`.
    pub hidden_nodes: usize,
    /// How many of the hidden nodes findings implicate.
    pub hidden_implicated: usize,
    /// Whether the unnamed kubelet (a finding that cannot name its node) is drawn.
    pub unnamed: bool,
    /// Lit components; the collapsed box's is under [`MORE_NODES`], the findings of every node in it.
    pub lit: BTreeMap<Target, Lit>,
}

/// How many kubelet boxes the row holds, the collapsed box and the unnamed kubelet included: a
/// fifth would run into kube-proxy / CNI.
pub const MAX_KUBELETS: usize = 4;

/// The node name of the collapsed box (no node is named this: names are DNS labels).
pub const MORE_NODES: &str = "…";

/// The nodes the input names: Node objects on the timeline, Node subjects, and `nodeName`s cited.
pub fn nodes_in(report: &Report) -> BTreeSet<String> {
    let mut nodes: BTreeSet<String> = report
        .timeline
        .iter()
        .filter(|e| e.subject.kind == "Node")
        .map(|e| e.subject.name.to_string())
        .collect();
    nodes.extend(
        report
            .findings
            .iter()
            .filter_map(|f| f.node.as_ref().map(|n| n.to_string())),
    );
    nodes
}

/// The diagram of the findings `filter` keeps (every node of the input is still drawn).
pub fn diagram(report: &Report, filter: &crate::view_model::summary::Filter) -> Diagram {
    let mut lit: BTreeMap<Target, Lit> = BTreeMap::new();
    for index in crate::view_model::summary::kept(report, filter) {
        let finding = &report.findings[index];
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
    let kubelet = |node: &str| {
        lit.get(&Target {
            part: Part::Kubelet,
            node: Some(node.to_string()),
        })
    };
    // Implicated first, the worst first; then the others; by name within each.
    let mut nodes: Vec<String> = all.iter().cloned().collect();
    nodes.sort_by_key(|n| std::cmp::Reverse(kubelet(n).map(|l| l.severity)));
    let unnamed = nodes.is_empty() || lit.keys().any(|k| k.part == Part::Kubelet && k.node.is_none());
    let room = MAX_KUBELETS - usize::from(unnamed);
    let mut hidden_nodes = 0;
    let mut hidden_implicated = 0;
    if nodes.len() > room {
        let hidden = nodes.split_off(room - 1);
        hidden_nodes = hidden.len();
        let mut more: Option<Lit> = None;
        for node in &hidden {
            if let Some(l) = kubelet(node) {
                hidden_implicated += 1;
                let m = more.get_or_insert(Lit {
                    severity: l.severity,
                    findings: Vec::new(),
                });
                m.severity = m.severity.max(l.severity);
                m.findings.extend(&l.findings);
            }
        }
        if let Some(mut m) = more {
            m.findings.sort_unstable();
            m.findings.dedup();
            lit.insert(
                Target {
                    part: Part::Kubelet,
                    node: Some(MORE_NODES.to_string()),
                },
                m,
            );
        }
    }
    Diagram {
        nodes,
        hidden_nodes,
        hidden_implicated,
        unnamed,
        lit,
    }
}

/// Every component, in the drawing's order (top to bottom): the list a phone shows names the quiet
/// ones in this order.
pub const PARTS: [Part; 12] = [
    Part::Client,
    Part::ApiServer,
    Part::Etcd,
    Part::ControllerManager,
    Part::Scheduler,
    Part::CloudControllerManager,
    Part::Kubelet,
    Part::ProxyCni,
    Part::Runtime,
    Part::Volumes,
    Part::ServiceSlice,
    Part::Containers,
];

impl Diagram {
    /// The lit components as a phone lists them: the worst first, in the drawing's order within a
    /// severity (a kubelet by its node's name, the unnamed one and the collapsed box last).
    pub fn implicated(&self) -> Vec<(&Target, &Lit)> {
        let place = |t: &Target| PARTS.iter().position(|&p| p == t.part).unwrap_or(PARTS.len());
        let mut lit: Vec<(&Target, &Lit)> = self.lit.iter().collect();
        lit.sort_by_key(|(t, l)| {
            (
                std::cmp::Reverse(l.severity),
                place(t),
                t.node.is_none() || t.node.as_deref() == Some(MORE_NODES),
                t.node.clone(),
            )
        });
        lit
    }

    /// The components no finding implicates (a kubelet counts as implicated if any node's is).
    pub fn quiet(&self) -> Vec<Part> {
        PARTS
            .into_iter()
            .filter(|&p| !self.lit.keys().any(|t| t.part == p))
            .collect()
    }

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
        diagram(report, &Default::default())
            .lit
            .keys()
            .map(|t| match &t.node {
                Some(n) => format!("{}[{n}]", t.part.id()),
                None => t.part.id().to_string(),
            })
            .collect()
    }

    /// The phone's list: the worst first, every lit component once, the others named as quiet.
    #[test]
    fn a_phone_lists_the_implicated_components_worst_first_and_names_the_quiet_ones() {
        let state = State::with_sample("readiness");
        let model = diagram(&state.report, &Default::default());
        let listed = model.implicated();
        assert_eq!(listed.len(), model.lit.len());
        assert!(listed.windows(2).all(|w| w[0].1.severity >= w[1].1.severity));
        // The errors in the drawing's order (the kubelet of a node not named, then the Service),
        // then the warnings (the kubelets of the nodes whose Pods fail their probe, by name).
        let ids: Vec<(Part, Option<&str>, Severity)> = listed
            .iter()
            .map(|(t, l)| (t.part, t.node.as_deref(), l.severity))
            .collect();
        assert_eq!(
            ids,
            [
                (Part::Kubelet, None, Severity::Error),
                (Part::ServiceSlice, None, Severity::Error),
                (Part::Kubelet, Some("lab-worker"), Severity::Warning),
                (Part::Kubelet, Some("lab-worker2"), Severity::Warning),
            ]
        );
        let quiet = model.quiet();
        assert_eq!(quiet.len() + 2, PARTS.len(), "{quiet:?}");
        assert!(quiet.iter().all(|p| listed.iter().all(|(t, _)| t.part != *p)));
    }

    #[test]
    fn each_sample_lights_the_components_of_its_boundary() {
        let cases: [(&str, &[&str]); 7] = [
            ("node-label", &["kube-scheduler"]),
            ("image-pull", &["kubelet[lab-worker2]", "container-runtime"]),
            ("readiness", &["kubelet", "service-endpointslice"]),
            ("publish-not-ready", &["service-endpointslice"]),
            ("quota-403", &["kube-apiserver"]),
            ("dependency", &["containers"]),
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

    /// The report names the components and the node; the app only places the kubelet on its node.
    #[test]
    fn a_findings_kubelet_is_the_one_of_its_node() {
        let state = State::with_sample("image-pull");
        let finding = &state.report.findings[0];
        assert_eq!(finding.components, [Part::Kubelet, Part::Runtime]);
        assert_eq!(
            implicated(finding),
            vec![
                Target {
                    part: Part::Kubelet,
                    node: Some("lab-worker2".into())
                },
                Target {
                    part: Part::Runtime,
                    node: None
                }
            ]
        );
        let readiness = State::with_sample("readiness");
        let unnamed = readiness
            .report
            .findings
            .iter()
            .flat_map(implicated)
            .any(|t| t.part == Part::Kubelet && t.node.is_none());
        assert!(
            unnamed,
            "a readiness finding without a nodeName lights the unnamed kubelet"
        );
    }

    #[test]
    fn many_nodes_collapse_but_the_implicated_one_stays() {
        let mut report = State::with_sample("image-pull").report.as_ref().clone();
        let template = report.timeline[0].clone();
        for i in 0..9 {
            let mut entry = template.clone();
            entry.subject = faultline_report::ObjectRef {
                kind: "Node".into(),
                name: format!("a-node-{i}").into(),
                ..Default::default()
            };
            report.timeline.push(entry);
        }
        let d = diagram(&report, &Default::default());
        // Three boxes and the collapsed one: four in the row, the implicated node first.
        assert_eq!(d.nodes.len(), MAX_KUBELETS - 1);
        assert_eq!(d.nodes[0], "lab-worker2");
        assert_eq!(d.hidden_nodes, 10 - (MAX_KUBELETS - 1));
        assert_eq!(d.hidden_implicated, 0);
        assert!(d.lit(Part::Kubelet, Some(MORE_NODES)).is_none());
    }

    #[test]
    fn seventeen_implicated_nodes_take_four_boxes_and_the_collapsed_one_is_lit_by_the_rest() {
        let mut report = State::with_sample("image-pull").report.as_ref().clone();
        let template = report.findings[0].clone();
        for i in 0..17 {
            let mut f = template.clone();
            f.node = Some(format!("node-{i:02}").into());
            f.severity = if i == 16 {
                Severity::Error
            } else {
                Severity::Warning
            };
            report.findings.push(f);
        }
        let d = diagram(&report, &Default::default());
        let boxes = d.nodes.len() + usize::from(d.unnamed) + usize::from(d.hidden_nodes > 0);
        assert!(boxes <= MAX_KUBELETS, "{d:?}");
        // The worst first: the image-pull node and node-16 are errors.
        assert!(d.nodes[..2].contains(&"node-16".to_string()), "{:?}", d.nodes);
        assert_eq!(d.hidden_nodes, 18 - d.nodes.len());
        assert_eq!(d.hidden_implicated, d.hidden_nodes);
        let more = d.lit(Part::Kubelet, Some(MORE_NODES)).unwrap();
        assert_eq!(more.severity, Severity::Warning);
        assert_eq!(more.findings.len(), d.hidden_nodes);
    }
}
