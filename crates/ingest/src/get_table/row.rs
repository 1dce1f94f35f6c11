//! One row of a `get` table as the object it shows: the cells a kind's columns hold, put where the
//! object's YAML would hold them (a Pod's READY and STATUS as container and phase status, a
//! Service's CLUSTER-IP as its spec), each at the cell's position.

use crate::node::{MapBuilder as Obj, Node, NodeValue, Pos};

type Getter<'a> = dyn Fn(&str) -> Option<(&'a str, Pos)> + 'a;

pub(super) fn row_object<'a>(kind: &str, get: &Getter<'a>, pos: Pos, hint_namespace: Option<&str>) -> Node {
    let mut object = Obj::new(pos);
    object.str("kind", kind, pos);
    let mut meta = Obj::new(pos);
    if let Some((name, at)) = get("NAME") {
        // A StorageClass's NAME cell carries kubectl's `(default)` marker: `local-path (default)`.
        let name = match kind {
            "StorageClass" => name.strip_suffix(" (default)").unwrap_or(name),
            _ => name,
        };
        meta.str("name", name, at);
    }
    match get("NAMESPACE") {
        Some((ns, at)) => meta.str("namespace", ns, at),
        None if kind != "Node" => {
            if let Some(ns) = hint_namespace {
                meta.str("namespace", ns, pos);
            }
        }
        None => {}
    }
    object.put("metadata", meta.node(), pos);
    let mut spec = Obj::new(pos);
    let mut status = Obj::new(pos);
    match kind {
        "Pod" => {
            if let Some((printed, at)) = get("STATUS") {
                // kubectl's summary of the pod (and its RESTARTS column, `19 (75s ago)` read as
                // printed); a phase only when it is one of the phases.
                let mut printed_by_kubectl = Obj::new(at);
                printed_by_kubectl.str("status", printed, at);
                if let Some((restarts, at)) = get("RESTARTS") {
                    printed_by_kubectl.str("restarts", restarts, at);
                }
                // READY, `1/1`: the containers ready out of all (a replacement Pod that runs).
                if let Some((ready, at)) = get("READY") {
                    printed_by_kubectl.str("ready", ready, at);
                }
                object.put("kubectl", printed_by_kubectl.node(), at);
                if matches!(
                    printed,
                    "Pending" | "Running" | "Succeeded" | "Failed" | "Unknown"
                ) {
                    status.str("phase", printed, at);
                }
            }
            if let Some((node, at)) = get("NODE").filter(|(n, _)| !is_none(n)) {
                spec.str("nodeName", node, at);
            }
            if let Some((ip, at)) = get("IP").filter(|(n, _)| !is_none(n)) {
                status.str("podIP", ip, at);
            }
            // The table does not list containers; the field is required by the Pod schema.
            spec.put("containers", Node::new(NodeValue::Seq(Box::default()), pos), pos);
        }
        "Node" => {
            if let Some((printed, at)) = get("STATUS") {
                let ready = match printed.split(',').next().unwrap_or_default() {
                    "Ready" => "True",
                    "NotReady" => "False",
                    _ => "Unknown",
                };
                let mut condition = Obj::new(at);
                condition.str("type", "Ready", at);
                condition.str("status", ready, at);
                status.put(
                    "conditions",
                    Node::new(NodeValue::Seq(Box::new([condition.node()])), at),
                    at,
                );
                if printed.contains("SchedulingDisabled") {
                    spec.plain("unschedulable", "true", at);
                }
            }
        }
        "Deployment" | "StatefulSet" => {
            if let Some((ready, at)) = get("READY") {
                if let Some((have, want)) = ready.split_once('/') {
                    status.plain("readyReplicas", have, at);
                    spec.plain("replicas", want, at);
                }
            }
            if let Some((n, at)) = get("AVAILABLE") {
                status.plain("availableReplicas", n, at);
            }
            if let Some((n, at)) = get("UP-TO-DATE") {
                status.plain("updatedReplicas", n, at);
            }
        }
        "ReplicaSet" | "DaemonSet" => {
            if let Some((n, at)) = get("DESIRED") {
                spec.plain("replicas", n, at);
            }
            if let Some((n, at)) = get("READY") {
                status.plain("readyReplicas", n, at);
            }
        }
        "PersistentVolumeClaim" => {
            if let Some((phase, at)) = get("STATUS") {
                status.str("phase", phase, at);
            }
            if let Some((volume, at)) = get("VOLUME").filter(|(v, _)| !v.is_empty()) {
                spec.str("volumeName", volume, at);
            }
            if let Some((class, at)) = get("STORAGECLASS").filter(|(v, _)| !is_none(v)) {
                spec.str("storageClassName", class, at);
            }
        }
        "PersistentVolume" => {
            if let Some((phase, at)) = get("STATUS") {
                status.str("phase", phase, at);
            }
            // CLAIM is `namespace/name`, empty while the volume is Available.
            if let Some(((namespace, name), at)) =
                get("CLAIM").and_then(|(c, at)| Some((c.split_once('/')?, at)))
            {
                let mut claim = Obj::new(at);
                claim.str("kind", "PersistentVolumeClaim", at);
                claim.str("namespace", namespace, at);
                claim.str("name", name, at);
                spec.put("claimRef", claim.node(), at);
            }
            if let Some((class, at)) = get("STORAGECLASS").filter(|(v, _)| !is_none(v)) {
                spec.str("storageClassName", class, at);
            }
            if let Some((policy, at)) = get("RECLAIM POLICY") {
                spec.str("persistentVolumeReclaimPolicy", policy, at);
            }
        }
        "Job" => {
            // COMPLETIONS is `succeeded/completions` (`1/1 of 3` for an indexed Job's parallel
            // ones is not printed); STATUS (kubectl 1.30+) is the condition that holds.
            if let Some((done, at)) = get("COMPLETIONS") {
                if let Some((have, want)) = done.split_once('/') {
                    status.plain("succeeded", have, at);
                    spec.plain("completions", want.split(' ').next().unwrap_or(want), at);
                }
            }
            if let Some((state, at)) = get("STATUS").filter(|(s, _)| {
                matches!(
                    *s,
                    "Complete" | "Failed" | "Suspended" | "FailureTarget" | "SuccessCriteriaMet"
                )
            }) {
                let mut condition = Obj::new(at);
                condition.str("type", state, at);
                condition.str("status", "True", at);
                status.put(
                    "conditions",
                    Node::new(NodeValue::Seq(Box::new([condition.node()])), at),
                    at,
                );
            }
        }
        "CronJob" => {
            if let Some((schedule, at)) = get("SCHEDULE") {
                spec.str("schedule", schedule, at);
            }
            if let Some((suspend, at)) = get("SUSPEND").filter(|(v, _)| matches!(*v, "True" | "False")) {
                spec.plain("suspend", &suspend.to_ascii_lowercase(), at);
            }
        }
        "Namespace" => {
            if let Some((phase, at)) = get("STATUS") {
                status.str("phase", phase, at);
            }
        }
        "Ingress" => {
            if let Some((class, at)) = get("CLASS").filter(|(v, _)| !is_none(v)) {
                spec.str("ingressClassName", class, at);
            }
            // ADDRESS as printed: empty until an ingress controller publishes one.
            if let Some((address, at)) = get("ADDRESS") {
                let mut kubectl = Obj::new(at);
                kubectl.str("address", address, at);
                object.put("kubectl", kubectl.node(), at);
            }
        }
        "Endpoints" => {
            // ENDPOINTS as printed: `10.244.1.7:8080,10.244.2.9:8080`, `<none>` without a ready
            // address.
            if let Some((printed, at)) = get("ENDPOINTS") {
                let mut kubectl = Obj::new(at);
                kubectl.str("endpoints", printed, at);
                object.put("kubectl", kubectl.node(), at);
            }
        }
        "IngressClass" => {
            if let Some((controller, at)) = get("CONTROLLER") {
                spec.str("controller", controller, at);
            }
        }
        "ComponentStatus" => {
            // `kubectl get cs`: STATUS Healthy/Unhealthy and the check's MESSAGE and ERROR, as the
            // object's one `Healthy` condition (the API's shape).
            if let Some((printed, at)) = get("STATUS") {
                let mut condition = Obj::new(at);
                condition.str("type", "Healthy", at);
                condition.str("status", if printed == "Healthy" { "True" } else { "False" }, at);
                for (column, key) in [("MESSAGE", "message"), ("ERROR", "error")] {
                    if let Some((text, at)) = get(column).filter(|(v, _)| !v.is_empty()) {
                        condition.str(key, text, at);
                    }
                }
                object.put(
                    "conditions",
                    Node::new(NodeValue::Seq(Box::new([condition.node()])), at),
                    at,
                );
            }
        }
        "StorageClass" => {
            if let Some((provisioner, at)) = get("PROVISIONER") {
                // `standard (default)`: the marker is kubectl's, from an annotation.
                let provisioner = provisioner.split(' ').next().unwrap_or(provisioner);
                object.str("provisioner", provisioner, at);
            }
            if let Some((mode, at)) = get("VOLUMEBINDINGMODE") {
                object.str("volumeBindingMode", mode, at);
            }
        }
        "Secret" => {
            if let Some((t, at)) = get("TYPE") {
                object.str("type", t, at);
            }
        }
        "ResourceQuota" => {
            // REQUEST and LIMIT: `pods: 10/10, requests.cpu: 500m/2` (used/hard per resource).
            let mut used = Obj::new(pos);
            let mut hard = Obj::new(pos);
            for column in ["REQUEST", "LIMIT"] {
                let Some((cell, at)) = get(column) else { continue };
                for part in cell.split(", ") {
                    let Some((resource, amounts)) = part.split_once(": ") else {
                        continue;
                    };
                    if let Some((u, h)) = amounts.trim().split_once('/') {
                        used.str(resource.trim(), u, at);
                        hard.str(resource.trim(), h, at);
                    }
                }
            }
            status.put("used", used.node(), pos);
            status.put("hard", hard.node(), pos);
        }
        "Service" => {
            if let Some((t, at)) = get("TYPE") {
                spec.str("type", t, at);
            }
            if let Some((ip, at)) = get("CLUSTER-IP") {
                spec.str("clusterIP", ip, at);
            }
            // PORT(S), `5432/TCP,8008/TCP` or `80:31380/TCP`: each port (and its node port) as
            // `spec.ports`, so that a caller's port can be checked against them.
            if let Some((printed, at)) = get("PORT(S)").filter(|(p, _)| !is_none(p)) {
                let ports: Vec<Node> = printed
                    .split(',')
                    .filter_map(|p| {
                        let (numbers, protocol) = p.split_once('/').unwrap_or((p, "TCP"));
                        let (port, node_port) = numbers
                            .split_once(':')
                            .map_or((numbers, None), |(a, b)| (a, Some(b)));
                        port.parse::<u16>().ok()?;
                        let mut entry = Obj::new(at);
                        entry.plain("port", port, at);
                        entry.str("protocol", protocol, at);
                        if let Some(node_port) = node_port {
                            entry.plain("nodePort", node_port, at);
                        }
                        Some(entry.node())
                    })
                    .collect();
                if !ports.is_empty() {
                    spec.put(
                        "ports",
                        Node::new(NodeValue::Seq(ports.into_boxed_slice()), at),
                        at,
                    );
                }
            }
        }
        _ => {}
    }
    object.put("spec", spec.node(), pos);
    object.put("status", status.node(), pos);
    object.node()
}

pub(super) fn is_none(text: &str) -> bool {
    matches!(text, "<none>" | "" | "<unknown>" | "<pending>")
}
