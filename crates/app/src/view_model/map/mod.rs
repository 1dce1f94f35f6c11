//! Report -> the object map: which objects to draw in which column and row, which are lit by
//! findings, and which are collapsed. Two sections over the report's object graph: workloads
//! (Deployment ▸ ReplicaSet ▸ Pod ▸ Node) and Services (Service ▸ EndpointSlice ▸ endpoint ▸ Pod).
//!
//! Only a bounded number of boxes is ever produced, whatever the input: bands (one per top owner or
//! Service) are paged, failing first, and an owner with many Pods (a slice with many endpoints)
//! shows its failing ones beside one box for the rest, until expanded.

use std::collections::{BTreeSet, HashMap};

use faultline_report::{MapObject, ObjectRef, Report, Severity};

mod band;
use band::in_namespace;

mod graph;
mod navigation;
mod services;
#[cfg(test)]
mod tests;
mod workloads;

pub use graph::drawn_kind;
pub use navigation::{neighbor, Direction};

/// An owner with more Pods than this (a slice with more endpoints) is collapsed.
pub const COLLAPSE_OVER: usize = 6;
/// The failing members shown beside a collapsed group.
pub const FAILING_SHOWN: usize = 3;
/// The members an expanded group shows at most; the rest stay counted in one box.
pub const EXPANDED_MAX: usize = 200;
/// Bands shown per section before "show more".
pub const BANDS_PER_PAGE: usize = 25;
/// Other objects (ConfigMaps, quotas, …) listed at most.
pub const OTHERS_MAX: usize = 60;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Section {
    Workloads,
    Services,
}

impl Section {
    pub fn id(self) -> &'static str {
        match self {
            Section::Workloads => "workloads",
            Section::Services => "services",
        }
    }
}

/// A group of Pods (under an owner) or endpoints (of a slice) that can be collapsed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GroupKey {
    pub section: Section,
    /// The owner (or slice) object; `None` for Pods without an owner.
    pub owner: Option<usize>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    /// An object of the report (index into `report.objects`).
    Object(usize),
    /// The members of a group not drawn: `hidden` of `total`, of which `bad` fail. Expandable
    /// unless already `expanded` (then it only counts what is past the cap).
    Group {
        key: GroupKey,
        hidden: usize,
        hidden_bad: usize,
        total: usize,
        bad: usize,
        expanded: bool,
    },
    /// An endpoint of an EndpointSlice or Endpoints object: (slice, index in its endpoints).
    Endpoint { slice: usize, index: usize },
    /// A Service with no EndpointSlice in this input.
    NoSlice { service: usize },
}

/// An item at its place: column (0–3), row (within the section) and band.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placed {
    pub item: Item,
    pub column: usize,
    pub row: usize,
    pub band: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkKind {
    OwnedBy,
    RunsOn,
    EndpointsOf,
    /// A slice to one of its endpoints.
    Lists,
    EndpointIs,
    /// A Service's selector to a Pod, drawn only when no EndpointSlice of it was pasted.
    Selects,
}

impl LinkKind {
    pub fn id(self) -> &'static str {
        match self {
            LinkKind::OwnedBy => "owned-by",
            LinkKind::RunsOn => "runs-on",
            LinkKind::EndpointsOf => "endpoints-of",
            LinkKind::Lists => "lists",
            LinkKind::EndpointIs => "endpoint-is",
            LinkKind::Selects => "selects",
        }
    }
}

/// A line between two placed items (indices into `Layout::placed`), drawn from left to right.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    pub from: usize,
    pub to: usize,
    pub kind: LinkKind,
    pub inferred: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Layout {
    pub placed: Vec<Placed>,
    pub links: Vec<Link>,
    pub rows: usize,
    /// Bands drawn, and bands in all (the rest are behind "show more").
    pub bands: usize,
    pub total_bands: usize,
}

/// What the user chose: a namespace, expanded groups, and how many bands to show per section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub namespace: Option<String>,
    pub expanded: BTreeSet<GroupKey>,
    pub bands: usize,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            namespace: None,
            expanded: BTreeSet::new(),
            bands: BANDS_PER_PAGE,
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ObjectMap {
    pub workloads: Layout,
    pub services: Layout,
    /// Objects of other kinds (ConfigMaps, Secrets, claims, quotas), lit ones first.
    pub others: Vec<usize>,
    pub others_total: usize,
}

/// An object lit by findings about it: their worst severity, and the findings (report indices).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lit {
    pub severity: Severity,
    pub findings: Vec<usize>,
}

/// The objects findings are about (their subject), by identity (kind, namespace and name; the map's
/// objects carry no uid), with the worst severity.
pub fn lit(report: &Report, filter: &crate::view_model::summary::Filter) -> HashMap<usize, Lit> {
    let mut by_key: HashMap<&ObjectRef, Vec<usize>> = HashMap::new();
    for (i, o) in report.objects.iter().enumerate() {
        by_key.entry(&o.object).or_default().push(i);
    }
    let mut out: HashMap<usize, Lit> = HashMap::new();
    for f in crate::view_model::summary::kept(report, filter) {
        let finding = &report.findings[f];
        for &i in by_key.get(&finding.subject).into_iter().flatten() {
            let lit = out.entry(i).or_insert(Lit {
                severity: finding.severity,
                findings: Vec::new(),
            });
            lit.severity = lit.severity.max(finding.severity);
            lit.findings.push(f);
        }
    }
    out
}

/// Whether an object is failing as its status states it, as the report says
/// ([`MapObject::state`]); `None`: the input does not say.
pub fn failing(o: &MapObject) -> Option<bool> {
    o.state.failing()
}

pub fn object_map(report: &Report, lit: &HashMap<usize, Lit>, options: &Options) -> ObjectMap {
    let g = graph::Graph::new(report);
    let mut others: Vec<usize> = (0..report.objects.len())
        .filter(|&i| !drawn_kind(g.kind(i)) && in_namespace(g.namespace(i), options))
        .collect();
    let others_total = others.len();
    others.sort_by_key(|&i| {
        (
            std::cmp::Reverse(lit.get(&i).map(|l| l.severity)),
            !report.objects[i].missing,
            g.kind(i).to_string(),
            g.name(i).to_string(),
        )
    });
    others.truncate(OTHERS_MAX);
    ObjectMap {
        workloads: band::layout(workloads::workloads(&g, lit, options), options.bands),
        services: band::layout(services::services(&g, lit, options), options.bands),
        others,
        others_total,
    }
}
