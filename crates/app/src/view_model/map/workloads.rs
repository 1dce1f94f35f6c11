//! The workloads section: Deployment ▸ ReplicaSet ▸ Pod ▸ Node, ownerless Pods, and idle Nodes.

use std::collections::{BTreeSet, HashMap};

use super::band::{in_namespace, order_members, place_members, Band};
use super::graph::{is_workload, Graph};
use super::{failing, GroupKey, Item, LinkKind, Lit, Options, Section};

pub(super) fn workloads(g: &Graph<'_>, lit: &HashMap<usize, Lit>, options: &Options) -> Vec<Band> {
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
