//! The report's object graph by relation kind, for walking it, and the kinds the map draws.

use std::collections::HashMap;

use faultline_report::{RelationKind, Report};

pub(super) const TOP_KINDS: [&str; 5] = ["Deployment", "StatefulSet", "DaemonSet", "Job", "CronJob"];

pub(super) fn is_workload(kind: &str) -> bool {
    TOP_KINDS.contains(&kind) || kind == "ReplicaSet"
}

/// The kinds the two sections draw; everything else is listed as another object.
pub fn drawn_kind(kind: &str) -> bool {
    is_workload(kind) || matches!(kind, "Pod" | "Node" | "Service" | "EndpointSlice" | "Endpoints")
}

/// The graph's relations by kind, for walking it.
pub(super) struct Graph<'a> {
    pub(super) report: &'a Report,
    pub(super) owner: HashMap<usize, usize>,
    pub(super) children: HashMap<usize, Vec<usize>>,
    pub(super) node_of: HashMap<usize, usize>,
    pub(super) slices_of: HashMap<usize, Vec<usize>>,
    pub(super) selected_by: HashMap<usize, Vec<usize>>,
}

impl<'a> Graph<'a> {
    pub(super) fn new(report: &'a Report) -> Self {
        let mut g = Graph {
            report,
            owner: HashMap::new(),
            children: HashMap::new(),
            node_of: HashMap::new(),
            slices_of: HashMap::new(),
            selected_by: HashMap::new(),
        };
        for r in &report.relations {
            match r.kind {
                RelationKind::OwnedBy => {
                    // The first owner: the controller that manages an object is listed first.
                    if let std::collections::hash_map::Entry::Vacant(entry) = g.owner.entry(r.from) {
                        entry.insert(r.to);
                        g.children.entry(r.to).or_default().push(r.from);
                    }
                }
                RelationKind::RunsOn => {
                    g.node_of.entry(r.from).or_insert(r.to);
                }
                RelationKind::EndpointsOf => g.slices_of.entry(r.to).or_default().push(r.from),
                RelationKind::Selects => g.selected_by.entry(r.from).or_default().push(r.to),
                _ => {}
            }
        }
        g
    }

    pub(super) fn kind(&self, i: usize) -> &str {
        self.report.objects.get(i).map_or("", |o| o.object.kind.as_str())
    }

    pub(super) fn namespace(&self, i: usize) -> Option<&str> {
        self.report.objects.get(i)?.object.namespace.as_deref()
    }

    pub(super) fn name(&self, i: usize) -> &str {
        self.report.objects.get(i).map_or("", |o| o.object.name.as_str())
    }

    /// The workload owner of a Pod or workload, if its owner is a workload.
    pub(super) fn workload_owner(&self, i: usize) -> Option<usize> {
        self.owner.get(&i).copied().filter(|&o| is_workload(self.kind(o)))
    }
}
