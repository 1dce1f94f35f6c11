//! Described objects other than Pods: phase, conditions, replica counts, taints, quota tables and
//! label maps, each to the field `kubectl get -o yaml` has it in.

use super::pod::condition_rows;
use super::{is_none, seq, Item};
use crate::node::{MapBuilder as Obj, Node, Pos};

/// Kinds other than Pod: the status phase and the conditions table, when the object shows them.
pub(super) fn generic(kind: &str, items: &[Item<'_>], object: &mut Obj) {
    let find = |key: &str| items.iter().find(|i| i.line.key == Some(key));
    let pos = Pos::new(items[0].line.line, 1);
    let mut spec = Obj::new(pos);
    let mut status = Obj::new(pos);
    if kind == "PersistentVolumeClaim" {
        if let Some(phase) = find("Status").and_then(|i| Some((i.pos(), i.text()?))) {
            status.str("phase", &phase.1, phase.0);
        }
        if let Some(class) = find("StorageClass").and_then(|i| Some((i.pos(), i.text()?))) {
            spec.str("storageClassName", &class.1, class.0);
        }
        if let Some(volume) = find("Volume").and_then(|i| Some((i.pos(), i.text()?))) {
            spec.str("volumeName", &volume.1, volume.0);
        }
    }
    let field = |key: &str| find(key).and_then(|i| Some((i.pos(), i.text()?)));
    match kind {
        "Node" => {
            if let Some(taints) = find("Taints") {
                spec.put("taints", taint_list(taints), taints.pos());
            }
            if let Some((at, value)) = field("Unschedulable") {
                spec.plain("unschedulable", &value, at);
            }
            for (key, field_name) in [("Capacity", "capacity"), ("Allocatable", "allocatable")] {
                if let Some(section) = find(key) {
                    let mut resources = Obj::new(section.pos());
                    for child in &section.children {
                        if let (Some(name), Some(value)) = (child.line.key, child.text()) {
                            resources.str(name, &value, child.pos());
                        }
                    }
                    status.put(field_name, resources.node(), section.pos());
                }
            }
            // `Non-terminated Pods:  (17 in total)`: kubectl's count of the Pods on the node
            // that count against its `pods` allocatable.
            if let Some(item) = find("Non-terminated Pods") {
                let at = item.pos();
                let count = item
                    .value()
                    .trim()
                    .strip_prefix('(')
                    .and_then(|v| v.strip_suffix(" in total)"))
                    .filter(|n| n.parse::<u32>().is_ok());
                if let Some(count) = count {
                    let mut kubectl = Obj::new(at);
                    kubectl.plain("nonTerminatedPods", count, at);
                    object.put("kubectl", kubectl.node(), at);
                }
            }
        }
        "PersistentVolume" => {
            // `Status:  Failed`, `Claim:  default/nfs`, `Reclaim Policy:  Recycle`, and the
            // `Message:` the PV controller writes when recycling or deleting fails.
            if let Some((at, phase)) = field("Status") {
                status.str("phase", &phase, at);
            }
            if let Some((at, message)) = field("Message") {
                status.str("message", &message, at);
            }
            if let Some((at, claim)) = field("Claim") {
                let mut reference = Obj::new(at);
                match claim.split_once('/') {
                    Some((ns, name)) => {
                        reference.str("namespace", ns, at);
                        reference.str("name", name, at);
                    }
                    None => reference.str("name", &claim, at),
                }
                spec.put("claimRef", reference.node(), at);
            }
            if let Some((at, policy)) = field("Reclaim Policy") {
                spec.str("persistentVolumeReclaimPolicy", &policy, at);
            }
            if let Some((at, class)) = field("StorageClass") {
                spec.str("storageClassName", &class, at);
            }
        }
        "HorizontalPodAutoscaler" => {
            // `Reference:  Deployment/worker`, `Min replicas:  1`, `Max replicas:  15`.
            if let Some((at, target)) = field("Reference") {
                if let Some((kind, name)) = target.split_once('/') {
                    let mut reference = Obj::new(at);
                    reference.str("kind", kind, at);
                    reference.str("name", name, at);
                    spec.put("scaleTargetRef", reference.node(), at);
                }
            }
            for (key, name) in [("Min replicas", "minReplicas"), ("Max replicas", "maxReplicas")] {
                if let Some((at, value)) = field(key).filter(|(_, v)| v.parse::<u32>().is_ok()) {
                    spec.plain(name, &value, at);
                }
            }
        }
        "Service" => {
            if let Some(selector) = find("Selector") {
                spec.put("selector", pairs_comma(selector), selector.pos());
            }
            if let Some((at, value)) = field("Type") {
                spec.str("type", &value, at);
            }
            if let Some((at, value)) = field("IP") {
                spec.str("clusterIP", &value, at);
            }
            // `Port: https  443/TCP` and `TargetPort: 8443/TCP` (one port; describe lists each
            // port as such a pair), and `Endpoints:` as kubectl printed it (its summary of the
            // ready addresses, `<none>` when there are none).
            if let Some((at, value)) = field("Port") {
                let mut port = Obj::new(at);
                let mut words = value.split_whitespace().rev();
                if let Some((number, protocol)) = words.next().and_then(|w| w.split_once('/')) {
                    port.plain("port", number, at);
                    port.str("protocol", protocol, at);
                }
                if let Some(name) = words.next().filter(|n| *n != "<unset>") {
                    port.str("name", name, at);
                }
                if let Some((at, target)) = field("TargetPort") {
                    let target = target.split('/').next().unwrap_or_default();
                    port.str("targetPort", target, at);
                }
                spec.put("ports", seq(vec![port.node()], at), at);
            }
            if let Some(item) = find("Endpoints") {
                let printed = item.value().trim();
                let mut kubectl = Obj::new(item.pos());
                kubectl.str(
                    "endpoints",
                    if printed.is_empty() { "<none>" } else { printed },
                    item.pos(),
                );
                object.put("kubectl", kubectl.node(), item.pos());
            }
        }
        "Endpoints" => {
            // `Subsets:` with `Addresses:  10.244.1.7,10.244.2.9` and `NotReadyAddresses:  <none>`
            // per subset -> `subsets[].addresses[].ip` and `notReadyAddresses[].ip`.
            if let Some(subsets) = find("Subsets") {
                let mut list = Vec::new();
                let mut subset: Option<Obj> = None;
                for child in &subsets.children {
                    let key = match child.line.key {
                        Some("Addresses") => "addresses",
                        Some("NotReadyAddresses") => "notReadyAddresses",
                        _ => continue,
                    };
                    if key == "addresses" {
                        if let Some(done) = subset.take() {
                            list.push(done.node());
                        }
                    }
                    let current = subset.get_or_insert_with(|| Obj::new(child.pos()));
                    let ips: Vec<Node> = child
                        .value()
                        .split(',')
                        .map(str::trim)
                        .filter(|ip| !is_none(ip))
                        .map(|ip| {
                            let mut address = Obj::new(child.pos());
                            address.str("ip", ip, child.pos());
                            address.node()
                        })
                        .collect();
                    if !ips.is_empty() {
                        current.put(key, seq(ips, child.pos()), child.pos());
                    }
                }
                if let Some(done) = subset {
                    list.push(done.node());
                }
                object.put("subsets", seq(list, subsets.pos()), subsets.pos());
            }
        }
        "Ingress" => {
            // `Ingress Class:  nginx` (kubectl 1.19+, `<none>` when unset) and `Address:` as
            // printed, empty until an ingress controller publishes one.
            if let Some((at, class)) = field("Ingress Class").filter(|(_, v)| !is_none(v)) {
                spec.str("ingressClassName", &class, at);
            }
            if let Some(item) = find("Address") {
                let mut kubectl = Obj::new(item.pos());
                kubectl.str("describedAddress", item.value().trim(), item.pos());
                object.put("kubectl", kubectl.node(), item.pos());
            }
        }
        "Deployment" | "ReplicaSet" | "StatefulSet" | "DaemonSet" | "Job" => {
            if let Some(selector) = find("Selector") {
                let mut label_selector = Obj::new(selector.pos());
                label_selector.put("matchLabels", pairs_comma(selector), selector.pos());
                spec.put("selector", label_selector.node(), selector.pos());
            }
            if let Some((at, value)) = field("Replicas") {
                replica_counts(&value, at, &mut spec, &mut status);
            }
            // A Job: `Pods Statuses:  0 Active (0 Ready) / 3 Succeeded / 5 Failed` (`Running`
            // before kubectl 1.22), `Completions:  4`, `Parallelism:  1`.
            if let Some((at, value)) = field("Pods Statuses") {
                for part in value.split('/') {
                    let mut words = part.split_whitespace();
                    let (Some(n), Some(what)) = (words.next(), words.next()) else {
                        continue;
                    };
                    if n.parse::<u32>().is_ok() {
                        match what {
                            "Active" | "Running" => status.plain("active", n, at),
                            "Succeeded" => status.plain("succeeded", n, at),
                            "Failed" => status.plain("failed", n, at),
                            _ => {}
                        }
                    }
                }
            }
            for (key, name) in [("Completions", "completions"), ("Parallelism", "parallelism")] {
                if let Some((at, value)) = field(key).filter(|(_, v)| v.parse::<u32>().is_ok()) {
                    spec.plain(name, &value, at);
                }
            }
        }
        _ => {}
    }
    if let Some(conditions) = find("Conditions") {
        status.put("conditions", condition_rows(conditions), conditions.pos());
    }
    if kind == "ResourceQuota" {
        quota_table(items, &mut status);
    }
    object.put("spec", spec.node(), pos);
    object.put("status", status.node(), pos);
}

/// `Replicas: 3 desired | 1 updated | 4 total | 2 available | 2 unavailable` (Deployment, StatefulSet)
/// or `Replicas: 0 current / 3 desired` (ReplicaSet) -> spec.replicas and the status counts.
pub(super) fn replica_counts(value: &str, at: Pos, spec: &mut Obj, status: &mut Obj) {
    for part in value.split(['|', '/']) {
        let mut words = part.split_whitespace();
        let (Some(n), Some(what)) = (words.next(), words.next()) else {
            continue;
        };
        if n.parse::<u32>().is_err() {
            continue;
        }
        match what {
            "desired" => spec.plain("replicas", n, at),
            "updated" => status.plain("updatedReplicas", n, at),
            "total" | "current" => status.plain("replicas", n, at),
            "available" => status.plain("availableReplicas", n, at),
            "unavailable" => status.plain("unavailableReplicas", n, at),
            "ready" => status.plain("readyReplicas", n, at),
            _ => {}
        }
    }
}

/// `Selector: app=web,tier=front` -> a map (set-based terms such as `env in (a,b)` are skipped).
pub(super) fn pairs_comma(item: &Item<'_>) -> Node {
    let mut map = Obj::new(item.pos());
    if let Some(text) = item.text() {
        for pair in text.split(',') {
            if let Some((k, v)) = pair.trim().split_once('=') {
                map.str(k, v, item.pos());
            }
        }
    }
    map.node()
}

/// `Taints: dedicated=ci:NoSchedule` + continuation lines -> spec.taints.
pub(super) fn taint_list(item: &Item<'_>) -> Node {
    let mut taints = Vec::new();
    for line in std::iter::once(&item.line).chain(item.more.iter()) {
        let text = line.value.trim();
        if is_none(text) {
            continue;
        }
        let Some((key_value, effect)) = text.rsplit_once(':') else {
            continue;
        };
        let pos = Pos::new(line.line, line.indent as u32 + 1);
        let mut taint = Obj::new(pos);
        match key_value.split_once('=') {
            Some((key, value)) => {
                taint.str("key", key, pos);
                taint.str("value", value, pos);
            }
            None => taint.str("key", key_value, pos),
        }
        taint.str("effect", effect, pos);
        taints.push(taint.node());
    }
    seq(taints, item.pos())
}

/// A ResourceQuota's `Resource  Used  Hard` table -> `status.used` and `status.hard`, each value at
/// its row's line.
pub(super) fn quota_table(items: &[Item<'_>], status: &mut Obj) {
    let Some(header) = items.iter().position(|i| {
        i.line.key.is_none()
            && i.value().starts_with("Resource")
            && i.value().contains("Used")
            && i.value().contains("Hard")
    }) else {
        return;
    };
    let header_pos = items[header].pos();
    let mut used = Obj::new(header_pos);
    let mut hard = Obj::new(header_pos);
    for row in items[header + 1..].iter().take_while(|i| i.line.key.is_none()) {
        let cells: Vec<&str> = row.value().split_whitespace().collect();
        if let [resource, used_value, hard_value] = cells[..] {
            if resource.starts_with('-') {
                continue;
            }
            used.str(resource, used_value, row.pos());
            hard.str(resource, hard_value, row.pos());
        }
    }
    status.put("used", used.node(), header_pos);
    status.put("hard", hard.node(), header_pos);
}

/// `Labels: app=web` + continuation lines -> a map (`<none>` -> empty).
pub(super) fn pairs(item: &Item<'_>, separator: char) -> Node {
    let mut map = Obj::new(item.pos());
    let lines = std::iter::once(&item.line).chain(item.more.iter());
    for line in lines {
        if is_none(line.value) {
            continue;
        }
        if let Some((k, v)) = line.value.trim().split_once(separator) {
            map.str(k, v, Pos::new(line.line, line.indent as u32 + 1));
        }
    }
    map.node()
}
