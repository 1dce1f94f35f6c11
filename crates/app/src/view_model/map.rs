//! Report -> the object map: which objects to draw in which column and row, which are lit by
//! findings, and which are collapsed. Two sections over the report's object graph: workloads
//! (Deployment ▸ ReplicaSet ▸ Pod ▸ Node) and Services (Service ▸ EndpointSlice ▸ endpoint ▸ Pod).
//!
//! Only a bounded number of boxes is ever produced, whatever the input: bands (one per top owner or
//! Service) are paged, failing first, and an owner with many Pods (a slice with many endpoints)
//! shows its failing ones beside one box for the rest, until expanded.

use std::collections::{BTreeSet, HashMap};

use faultline_engine::{FactKind, FactState, MapObject, ObjectRef, RelationKind, Report, Severity};

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
pub fn lit(report: &Report) -> HashMap<usize, Lit> {
    let mut by_key: HashMap<&ObjectRef, Vec<usize>> = HashMap::new();
    for (i, o) in report.objects.iter().enumerate() {
        by_key.entry(&o.object).or_default().push(i);
    }
    let mut out: HashMap<usize, Lit> = HashMap::new();
    for (f, finding) in report.findings.iter().enumerate() {
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

/// Whether an object is failing as its status states it; `None`: the input does not say.
pub fn failing(o: &MapObject) -> Option<bool> {
    if o.missing {
        return None;
    }
    let fact = |kind: FactKind| o.facts.iter().find(|f| f.fact == kind).map(|f| f.state);
    match o.object.kind.as_str() {
        "Pod" => {
            if o.phase.as_deref() == Some("Succeeded") {
                return Some(false);
            }
            if o.reason.is_some()
                || matches!(o.phase.as_deref(), Some("Pending" | "Failed" | "Unknown"))
                || fact(FactKind::PodReady) == Some(FactState::No)
            {
                return Some(true);
            }
            match (fact(FactKind::PodReady), o.containers) {
                (Some(FactState::Yes), _) => Some(false),
                (_, Some([ready, all])) if all > 0 => Some(ready < all),
                _ => None,
            }
        }
        "Node" => o.phase.as_deref().map(|p| p != "Ready"),
        "Job" => o.phase.as_deref().map(|p| p == "Failed"),
        "Service" => match fact(FactKind::EligibleForTraffic) {
            Some(FactState::No) => Some(true),
            Some(FactState::Yes) => Some(false),
            _ => None,
        },
        "EndpointSlice" | "Endpoints" if !o.endpoints.is_empty() => {
            Some(o.endpoints.iter().any(|e| e.ready == Some(false)))
        }
        _ => match o.replicas {
            Some(r) => match (r.desired, r.ready) {
                (Some(desired), Some(ready)) => Some(ready < desired),
                _ => None,
            },
            None => None,
        },
    }
}

const TOP_KINDS: [&str; 5] = ["Deployment", "StatefulSet", "DaemonSet", "Job", "CronJob"];

fn is_workload(kind: &str) -> bool {
    TOP_KINDS.contains(&kind) || kind == "ReplicaSet"
}

/// The kinds the two sections draw; everything else is listed as another object.
pub fn drawn_kind(kind: &str) -> bool {
    is_workload(kind) || matches!(kind, "Pod" | "Node" | "Service" | "EndpointSlice" | "Endpoints")
}

/// The graph's relations by kind, for walking it.
struct Graph<'a> {
    report: &'a Report,
    owner: HashMap<usize, usize>,
    children: HashMap<usize, Vec<usize>>,
    node_of: HashMap<usize, usize>,
    slices_of: HashMap<usize, Vec<usize>>,
    selected_by: HashMap<usize, Vec<usize>>,
}

impl<'a> Graph<'a> {
    fn new(report: &'a Report) -> Self {
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

    fn kind(&self, i: usize) -> &str {
        self.report.objects.get(i).map_or("", |o| o.object.kind.as_str())
    }

    fn namespace(&self, i: usize) -> Option<&str> {
        self.report.objects.get(i)?.object.namespace.as_deref()
    }

    fn name(&self, i: usize) -> &str {
        self.report.objects.get(i).map_or("", |o| o.object.name.as_str())
    }

    /// The workload owner of a Pod or workload, if its owner is a workload.
    fn workload_owner(&self, i: usize) -> Option<usize> {
        self.owner.get(&i).copied().filter(|&o| is_workload(self.kind(o)))
    }
}

/// Failing first, then not known, then fine; by name within each.
fn order_members(report: &Report, members: &mut [usize]) {
    members.sort_by_key(|&i| {
        let o = &report.objects[i];
        let rank = match failing(o) {
            Some(true) => 0,
            None => 1,
            Some(false) => 2,
        };
        (rank, o.object.name.clone())
    });
}

/// A band: items per column, rows relative to the band, links between its items.
#[derive(Default)]
struct Band {
    placed: Vec<(Item, usize, usize)>,
    links: Vec<(usize, usize, LinkKind, bool)>,
    rows: usize,
    /// For ordering: the worst severity lit in it, and how many of its objects fail.
    severity: Option<Severity>,
    bad: usize,
    sort_name: (String, String),
}

impl Band {
    fn put(&mut self, item: Item, column: usize, row: usize) -> usize {
        self.rows = self.rows.max(row + 1);
        self.placed.push((item, column, row));
        self.placed.len() - 1
    }

    fn link(&mut self, from: usize, to: usize, kind: LinkKind, inferred: bool) {
        self.links.push((from, to, kind, inferred));
    }

    fn note(&mut self, report: &Report, lit: &HashMap<usize, Lit>, object: usize) {
        if let Some(l) = lit.get(&object) {
            self.severity = self.severity.max(Some(l.severity));
        }
        if report.objects.get(object).and_then(failing) == Some(true) {
            self.bad += 1;
        }
    }
}

/// Places a group's members from `row` on: all when few or expanded (up to the cap), else the
/// failing few and one box for the rest. Returns the (placed index, member) pairs and the rows used.
fn place_members(
    band: &mut Band,
    key: GroupKey,
    mut members: Vec<usize>,
    (column, row): (usize, usize),
    expanded: &BTreeSet<GroupKey>,
    is_bad: &dyn Fn(usize) -> bool,
    item: &dyn Fn(usize) -> Item,
) -> (Vec<(usize, usize)>, usize) {
    let total = members.len();
    let bad = members.iter().filter(|&&m| is_bad(m)).count();
    let is_expanded = expanded.contains(&key);
    let shown: Vec<usize> = if total <= COLLAPSE_OVER {
        members
    } else if is_expanded {
        members.truncate(EXPANDED_MAX);
        members
    } else {
        members
            .into_iter()
            .filter(|&m| is_bad(m))
            .take(FAILING_SHOWN)
            .collect()
    };
    let mut out = Vec::new();
    let mut r = row;
    for &m in &shown {
        out.push((band.put(item(m), column, r), m));
        r += 1;
    }
    if shown.len() < total {
        let hidden_bad = bad - shown.iter().filter(|&&m| is_bad(m)).count();
        band.put(
            Item::Group {
                key,
                hidden: total - shown.len(),
                hidden_bad,
                total,
                bad,
                expanded: is_expanded,
            },
            column,
            r,
        );
        r += 1;
    }
    (out, (r - row).max(1))
}

fn in_namespace(namespace: Option<&str>, options: &Options) -> bool {
    options
        .namespace
        .as_deref()
        .is_none_or(|ns| namespace == Some(ns))
}

fn workloads(g: &Graph<'_>, lit: &HashMap<usize, Lit>, options: &Options) -> Vec<Band> {
    let report = g.report;
    let pod_bad = |p: usize| report.objects.get(p).and_then(failing) == Some(true);
    let mut bands = Vec::new();
    let mut used_nodes: BTreeSet<usize> = BTreeSet::new();
    let tops: Vec<usize> = (0..report.objects.len())
        .filter(|&i| is_workload(g.kind(i)) && g.workload_owner(i).is_none())
        .filter(|&i| in_namespace(g.namespace(i), options))
        .collect();
    // Pods that no workload owns (bare Pods, static Pods owned by their Node).
    let mut ownerless: Vec<usize> = (0..report.objects.len())
        .filter(|&i| g.kind(i) == "Pod" && g.workload_owner(i).is_none())
        .filter(|&i| in_namespace(g.namespace(i), options))
        .collect();
    order_members(report, &mut ownerless);

    let mut place_pods = |band: &mut Band,
                          owner: Option<usize>,
                          owner_at: Option<usize>,
                          pods: Vec<usize>,
                          row: usize|
     -> usize {
        for &p in &pods {
            band.note(report, lit, p);
        }
        let key = GroupKey {
            section: Section::Workloads,
            owner,
        };
        let (shown, rows) = place_members(
            band,
            key,
            pods,
            (2, row),
            &options.expanded,
            &pod_bad,
            &Item::Object,
        );
        for (at, pod) in shown {
            if let Some(from) = owner_at {
                band.link(from, at, LinkKind::OwnedBy, false);
            }
            if let Some(&node) = g.node_of.get(&pod) {
                band.note(report, lit, node);
                used_nodes.insert(node);
                let existing = band
                    .placed
                    .iter()
                    .position(|(item, column, _)| *column == 3 && *item == Item::Object(node));
                let row = band.placed[at].2;
                let node_at = existing.unwrap_or_else(|| band.put(Item::Object(node), 3, row));
                band.link(at, node_at, LinkKind::RunsOn, false);
            }
        }
        rows
    };

    for top in tops {
        let mut band = Band {
            sort_name: (
                g.namespace(top).unwrap_or_default().to_string(),
                g.name(top).to_string(),
            ),
            ..Band::default()
        };
        band.note(report, lit, top);
        let top_column = if g.kind(top) == "ReplicaSet" { 1 } else { 0 };
        let top_at = band.put(Item::Object(top), top_column, 0);
        let mut row = 0;
        let children = g.children.get(&top).cloned().unwrap_or_default();
        let mut middle: Vec<usize> = children
            .iter()
            .copied()
            .filter(|&c| is_workload(g.kind(c)))
            .collect();
        middle.sort_by_key(|&c| g.name(c).to_string());
        let mut direct: Vec<usize> = children.iter().copied().filter(|&c| g.kind(c) == "Pod").collect();
        order_members(report, &mut direct);
        if top_column == 1 {
            row += place_pods(&mut band, Some(top), Some(top_at), direct, row);
        } else {
            for m in middle {
                band.note(report, lit, m);
                let at = band.put(Item::Object(m), 1, row);
                band.link(top_at, at, LinkKind::OwnedBy, false);
                let mut pods: Vec<usize> = g
                    .children
                    .get(&m)
                    .into_iter()
                    .flatten()
                    .copied()
                    .filter(|&c| g.kind(c) == "Pod")
                    .collect();
                order_members(report, &mut pods);
                row += if pods.is_empty() {
                    1
                } else {
                    place_pods(&mut band, Some(m), Some(at), pods, row)
                };
            }
            if !direct.is_empty() {
                row += place_pods(&mut band, Some(top), Some(top_at), direct, row);
            }
        }
        band.rows = band.rows.max(row).max(1);
        bands.push(band);
    }
    if !ownerless.is_empty() {
        let mut band = Band {
            // Sorted after the named bands with the same standing.
            sort_name: ("\u{10ffff}".into(), String::new()),
            ..Band::default()
        };
        let rows = place_pods(&mut band, None, None, ownerless, 0);
        band.rows = band.rows.max(rows);
        bands.push(band);
    }
    // Nodes no Pod of the input runs on, in one band of their own (their state matters too).
    if options.namespace.is_none() {
        let mut idle: Vec<usize> = (0..report.objects.len())
            .filter(|&i| g.kind(i) == "Node" && !used_nodes.contains(&i))
            .collect();
        if !idle.is_empty() {
            order_members(report, &mut idle);
            let mut band = Band {
                sort_name: ("\u{10ffff}".into(), "\u{10ffff}".into()),
                ..Band::default()
            };
            for &n in &idle {
                band.note(report, lit, n);
            }
            let node_bad = |n: usize| report.objects.get(n).and_then(failing) == Some(true);
            let key = GroupKey {
                section: Section::Workloads,
                owner: None,
            };
            // Keyed apart from the ownerless Pods by its column.
            let (_, rows) = place_members(
                &mut band,
                GroupKey {
                    owner: Some(usize::MAX),
                    ..key
                },
                idle,
                (3, 0),
                &options.expanded,
                &node_bad,
                &Item::Object,
            );
            band.rows = rows;
            bands.push(band);
        }
    }
    bands
}

fn services(g: &Graph<'_>, lit: &HashMap<usize, Lit>, options: &Options) -> Vec<Band> {
    let report = g.report;
    let mut bands = Vec::new();
    for service in (0..report.objects.len())
        .filter(|&i| g.kind(i) == "Service")
        .filter(|&i| in_namespace(g.namespace(i), options))
    {
        let mut band = Band {
            sort_name: (
                g.namespace(service).unwrap_or_default().to_string(),
                g.name(service).to_string(),
            ),
            ..Band::default()
        };
        band.note(report, lit, service);
        let service_at = band.put(Item::Object(service), 0, 0);
        let mut slices = g.slices_of.get(&service).cloned().unwrap_or_default();
        slices.sort_by_key(|&s| (g.kind(s) != "EndpointSlice", g.name(s).to_string()));
        let mut row = 0;
        if slices.is_empty() {
            band.put(Item::NoSlice { service }, 1, 0);
            let mut pods = g.selected_by.get(&service).cloned().unwrap_or_default();
            order_members(report, &mut pods);
            for (i, pod) in pods.into_iter().take(EXPANDED_MAX).enumerate() {
                band.note(report, lit, pod);
                let at = band.put(Item::Object(pod), 3, i);
                band.link(service_at, at, LinkKind::Selects, false);
            }
        }
        for slice in slices {
            band.note(report, lit, slice);
            let slice_at = band.put(Item::Object(slice), 1, row);
            band.link(slice_at, service_at, LinkKind::EndpointsOf, false);
            let endpoints = &report.objects[slice].endpoints;
            let mut members: Vec<usize> = (0..endpoints.len()).collect();
            // Not ready first, then by address.
            members.sort_by_key(|&e| {
                (
                    endpoints[e].ready != Some(false),
                    endpoints[e].addresses.first().cloned().unwrap_or_default(),
                )
            });
            for &e in &members {
                if let Some(pod) = endpoints[e].target {
                    band.note(report, lit, pod);
                }
            }
            if members.is_empty() {
                row += 1;
                continue;
            }
            let key = GroupKey {
                section: Section::Services,
                owner: Some(slice),
            };
            let not_ready = |e: usize| endpoints.get(e).is_some_and(|e| e.ready == Some(false));
            let (shown, rows) = place_members(
                &mut band,
                key,
                members,
                (2, row),
                &options.expanded,
                &not_ready,
                &|index| Item::Endpoint { slice, index },
            );
            for (at, e) in shown {
                band.link(slice_at, at, LinkKind::Lists, false);
                if let Some(pod) = endpoints[e].target {
                    let pod_at = band.put(Item::Object(pod), 3, band.placed[at].2);
                    band.link(at, pod_at, LinkKind::EndpointIs, endpoints[e].inferred);
                }
            }
            row += rows;
        }
        band.rows = band.rows.max(row).max(1);
        bands.push(band);
    }
    bands
}

/// Orders bands failing first and lays out the first `shown` of them.
fn layout(mut bands: Vec<Band>, shown: usize) -> Layout {
    bands.sort_by(|a, b| {
        b.severity
            .cmp(&a.severity)
            .then(b.bad.cmp(&a.bad))
            .then_with(|| a.sort_name.cmp(&b.sort_name))
    });
    let total_bands = bands.len();
    let mut out = Layout {
        total_bands,
        ..Layout::default()
    };
    for (number, band) in bands.into_iter().take(shown).enumerate() {
        let base = out.placed.len();
        for (item, column, row) in band.placed {
            out.placed.push(Placed {
                item,
                column,
                row: out.rows + row,
                band: number,
            });
        }
        for (from, to, kind, inferred) in band.links {
            out.links.push(Link {
                from: base + from,
                to: base + to,
                kind,
                inferred,
            });
        }
        out.rows += band.rows;
        out.bands = number + 1;
    }
    out
}

pub fn object_map(report: &Report, lit: &HashMap<usize, Lit>, options: &Options) -> ObjectMap {
    let g = Graph::new(report);
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
        workloads: layout(workloads(&g, lit, options), options.bands),
        services: layout(services(&g, lit, options), options.bands),
        others,
        others_total,
    }
}

/// The namespaces of the graph's objects, for the filter.
pub fn namespaces(report: &Report) -> Vec<String> {
    let set: BTreeSet<&str> = report
        .objects
        .iter()
        .filter_map(|o| o.object.namespace.as_deref())
        .collect();
    set.into_iter().map(str::to_string).collect()
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Up,
    Down,
    Left,
    Right,
}

/// The item the arrow keys move to from `at`: up and down in its column, left and right to the
/// nearest row of the next column that has items.
pub fn neighbor(placed: &[Placed], at: usize, direction: Direction) -> Option<usize> {
    let here = placed.get(at)?;
    let distance = |p: &Placed| p.row.abs_diff(here.row);
    let candidates = placed.iter().enumerate().filter(|(i, _)| *i != at);
    match direction {
        Direction::Up => candidates
            .filter(|(_, p)| p.column == here.column && p.row < here.row)
            .max_by_key(|(_, p)| p.row)
            .map(|(i, _)| i),
        Direction::Down => candidates
            .filter(|(_, p)| p.column == here.column && p.row > here.row)
            .min_by_key(|(_, p)| p.row)
            .map(|(i, _)| i),
        Direction::Left | Direction::Right => {
            let columns: Vec<usize> = if direction == Direction::Left {
                (0..here.column).rev().collect()
            } else {
                (here.column + 1..4).collect()
            };
            columns.into_iter().find_map(|column| {
                placed
                    .iter()
                    .enumerate()
                    .filter(|(_, p)| p.column == column)
                    .min_by_key(|(_, p)| (distance(p), p.row))
                    .map(|(i, _)| i)
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::State;

    fn objects_in(report: &Report, layout: &Layout) -> Vec<String> {
        layout
            .placed
            .iter()
            .filter_map(|p| match p.item {
                Item::Object(i) => Some(format!(
                    "{}:{} {}",
                    p.column, report.objects[i].object.kind, report.objects[i].object.name
                )),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn readiness_sample_draws_service_slice_endpoints_and_pods() {
        let report = State::with_sample("readiness").report;
        let lit = lit(&report);
        let map = object_map(&report, &lit, &Options::default());
        assert_eq!(
            objects_in(&report, &map.services),
            [
                "0:Service echo",
                "1:EndpointSlice echo-tq8fz",
                "3:Pod echo-5f9b7d6c4-6c8d7",
                "3:Pod echo-5f9b7d6c4-k2m9x"
            ]
        );
        let endpoints = map
            .services
            .placed
            .iter()
            .filter(|p| matches!(p.item, Item::Endpoint { .. }))
            .count();
        assert_eq!(endpoints, 2);
        // Workloads: the ReplicaSet is not pasted (drawn all the same, as missing) with its Pods
        // and their nodes.
        let workloads = objects_in(&report, &map.workloads);
        assert_eq!(workloads[0], "1:ReplicaSet echo-5f9b7d6c4");
        assert!(
            workloads.contains(&"3:Node lab-worker".to_string()),
            "{workloads:?}"
        );
        let service = report
            .objects
            .iter()
            .position(|o| o.object.kind == "Service")
            .unwrap();
        assert_eq!(lit[&service].severity, Severity::Error);
        assert_eq!(failing(&report.objects[service]), Some(true));
        // Links: endpoint → Pod, stated by targetRef.
        let endpoint_links: Vec<&Link> = map
            .services
            .links
            .iter()
            .filter(|l| l.kind == LinkKind::EndpointIs)
            .collect();
        assert_eq!(endpoint_links.len(), 2);
        assert!(endpoint_links.iter().all(|l| !l.inferred));
    }

    /// A ReplicaSet of 500 Pods, 4 of them failing: 3 failing shown and one box for 497; expanded,
    /// the cap holds.
    #[test]
    fn many_pods_collapse_failing_first_and_expand() {
        use std::fmt::Write;
        let mut text = String::from("apiVersion: v1\nkind: List\nitems:\n- kind: ReplicaSet\n  metadata: {name: web-7d9, namespace: shop}\n");
        for i in 0..500 {
            let ready = if i % 125 == 7 { "'False'" } else { "'True'" };
            write!(
                text,
                "- kind: Pod\n  metadata:\n    name: web-7d9-p{i:03}\n    namespace: shop\n    ownerReferences: [{{kind: ReplicaSet, name: web-7d9}}]\n  spec: {{containers: []}}\n  status:\n    phase: Running\n    conditions: [{{type: Ready, status: {ready}}}]\n"
            )
            .unwrap();
        }
        let report = faultline_engine::analyze(&[faultline_engine::Source::new("big.yaml", text)]);
        let lit = lit(&report);
        let map = object_map(&report, &lit, &Options::default());
        let pods: Vec<&Placed> = map.workloads.placed.iter().filter(|p| p.column == 2).collect();
        assert_eq!(pods.len(), FAILING_SHOWN + 1);
        let Item::Group {
            hidden,
            hidden_bad,
            total,
            bad,
            key,
            expanded,
        } = pods[FAILING_SHOWN].item.clone()
        else {
            panic!("a group box last: {pods:?}");
        };
        assert_eq!(
            (hidden, hidden_bad, total, bad, expanded),
            (497, 1, 500, 4, false)
        );
        for p in &pods[..FAILING_SHOWN] {
            let Item::Object(i) = p.item else { panic!() };
            assert_eq!(failing(&report.objects[i]), Some(true));
        }
        let mut options = Options::default();
        options.expanded.insert(key);
        let open = object_map(&report, &lit, &options);
        let shown = open.workloads.placed.iter().filter(|p| p.column == 2).count();
        assert_eq!(shown, EXPANDED_MAX + 1, "the cap and one box for the rest");
        assert!(open.workloads.placed.len() < 2 * EXPANDED_MAX);
    }

    #[test]
    fn the_namespace_filter_and_paging_bound_the_bands() {
        let report = State::with_sample("healthy").report;
        let lit = lit(&report);
        let all = object_map(&report, &lit, &Options::default());
        assert!(all.workloads.total_bands >= 1 && all.services.total_bands >= 1);
        let none = object_map(
            &report,
            &lit,
            &Options {
                namespace: Some("no-such".into()),
                ..Options::default()
            },
        );
        assert!(none.workloads.placed.is_empty() && none.services.placed.is_empty());
        let one = object_map(
            &report,
            &lit,
            &Options {
                bands: 1,
                ..Options::default()
            },
        );
        assert_eq!(one.workloads.bands, 1);
        assert_eq!(one.workloads.total_bands, all.workloads.total_bands);
    }

    #[test]
    fn arrow_keys_move_along_columns_and_rows() {
        let at = |column, row| Placed {
            item: Item::Object(0),
            column,
            row,
            band: 0,
        };
        let placed = [at(0, 0), at(1, 0), at(2, 0), at(2, 1), at(3, 1)];
        assert_eq!(neighbor(&placed, 2, Direction::Down), Some(3));
        assert_eq!(neighbor(&placed, 3, Direction::Up), Some(2));
        assert_eq!(neighbor(&placed, 3, Direction::Right), Some(4));
        assert_eq!(neighbor(&placed, 4, Direction::Left), Some(3));
        assert_eq!(neighbor(&placed, 0, Direction::Left), None);
        assert_eq!(neighbor(&placed, 0, Direction::Up), None);
    }
}
