//! Which findings a failing cluster component explains, and the failures its clients print (DNS
//! lookups, requests to a Service's cluster IP, the metrics API) that point at it.

use super::*;

/// How a symptom is linked to the component: the message (evidence or inference, as it says).
pub(super) fn link(
    model: &Model<'_>,
    component: &Failing<'_>,
    symptom: &Finding,
    drivers: &[String],
) -> Option<Message> {
    let own = OWN.contains(&symptom.rule.as_str())
        && (symptom.subject == component.subject || component.pods.iter().any(|p| p.id == symptom.subject));
    if own {
        return Some(Msg::Own {}.into());
    }
    let family = component.entry.family;
    if !dependents(family).contains(&symptom.rule.as_str()) {
        return None;
    }
    let messages = || symptom_messages(model, symptom);
    match family {
        Family::CsiNode | Family::CsiController => {
            let controller = family == Family::CsiController;
            for message in messages() {
                // Attaching and provisioning are the controller's; mounting after registration the node plugin's.
                let controllers = message.contains("external-attacher")
                    || message.contains("AttachVolume")
                    || message.contains("external provisioner");
                if controllers != controller {
                    continue;
                }
                if let Some(driver) = drivers.iter().find(|d| message.contains(d.as_str())) {
                    return Some(
                        Msg::DriverNamed {
                            symptom: symptom.subject.clone(),
                            driver: driver.clone(),
                        }
                        .into(),
                    );
                }
                if !drivers.is_empty() {
                    continue;
                }
                // The plugin's driver is not known: a name that matches, or the same node, is a guess.
                if let Some(driver) = named_driver(&message).filter(|d| named_for_driver(&component.name, d))
                {
                    return Some(
                        Msg::NameMatches {
                            symptom: symptom.subject.clone(),
                            driver: driver.to_string(),
                        }
                        .into(),
                    );
                }
                if message.contains("kubernetes.io/csi") {
                    if let Some(node) = same_node(model, component, &symptom.subject) {
                        return Some(
                            Msg::SameNode {
                                symptom: symptom.subject.clone(),
                                node,
                            }
                            .into(),
                        );
                    }
                }
            }
            None
        }
        Family::Cni => {
            for message in messages() {
                if let Some(plugin) = component.entry.serves.iter().find(|s| message.contains(*s)) {
                    return Some(
                        Msg::PluginNamed {
                            symptom: symptom.subject.clone(),
                            plugin: (*plugin).into(),
                        }
                        .into(),
                    );
                }
                // Another plugin named: not this one's.
                if message.contains("plugin type=\"") {
                    continue;
                }
                let generic = [
                    "cni plugin not initialized",
                    "NetworkPluginNotReady",
                    "networkPlugin cni",
                    "cni config uninitialized",
                    "network is not ready",
                ];
                if generic.iter().any(|g| message.contains(g)) {
                    if let Some(node) = same_node(model, component, &symptom.subject) {
                        return Some(
                            Msg::SameNode {
                                symptom: symptom.subject.clone(),
                                node,
                            }
                            .into(),
                        );
                    }
                }
            }
            None
        }
        Family::IngressController if symptom.rule == readiness_endpoints::ingress_not_admitted::RULE.id => {
            // The class the Ingress names, from any copy of it that was pasted.
            let class = model
                .objects_of_kind("Ingress")
                .filter(|i| i.id.name == symptom.subject.name)
                .find_map(|i| {
                    [
                        "spec.ingressClassName",
                        "metadata.annotations[\"kubernetes.io/ingress.class\"]",
                    ]
                    .iter()
                    .find_map(|path| i.locate(path).and_then(|(_, v)| v.as_str()).map(str::to_string))
                });
            match class {
                Some(class) if component.entry.serves.contains(&class.as_str()) => Some(
                    Msg::ClassServed {
                        symptom: symptom.subject.clone(),
                        class,
                    }
                    .into(),
                ),
                Some(_) => None,
                None => Some(
                    Msg::NoClassNamed {
                        symptom: symptom.subject.clone(),
                    }
                    .into(),
                ),
            }
        }
        Family::AdmissionWebhook | Family::IngressController => {
            let service = if symptom.rule == quota_admission::admission_webhook_unreachable::RULE.id {
                quota_admission::admission_webhook_unreachable::service_of(symptom)?
            } else {
                symptom.subject.clone()
            };
            if component.pods.iter().any(|p| selects(model, &service, &p.id)) {
                return Some(Msg::ServiceSelects { service }.into());
            }
            (service.namespace == component.namespace
                && component.entry.serves.contains(&service.name.as_ref()))
            .then(|| Msg::ServiceNamed { service }.into())
        }
        Family::KubeProxy | Family::Dns | Family::MetricsServer | Family::ControlPlane => None,
    }
}

/// The messages a symptom rests on: its subject's events, and for a Node its conditions' messages.
pub(super) fn symptom_messages(model: &Model<'_>, symptom: &Finding) -> Vec<String> {
    let mut out: Vec<String> = model
        .events_for(&symptom.subject)
        .iter()
        .filter(|e| e.is_warning())
        .map(|e| e.message.clone())
        .collect();
    out.extend(symptom.evidence.iter().map(|e| e.value.clone()));
    out
}

/// The CSI driver a mount, attach or provisioning message names.
pub(super) fn named_driver(message: &str) -> Option<&str> {
    if let Some(p) = zone_network_storage::pvc_pending::provisioner_named(message) {
        return Some(p);
    }
    for marker in ["driver name ", "external-attacher of "] {
        if let Some((_, rest)) = message.split_once(marker) {
            return rest
                .split(|c: char| c.is_whitespace() || c == '\'' || c == '"')
                .next()
                .filter(|d| !d.is_empty());
        }
    }
    None
}

/// The node a symptom's Pod (or the Node itself) is on, when a failing Pod of the component is there.
pub(super) fn same_node(model: &Model<'_>, component: &Failing<'_>, subject: &ObjectRef) -> Option<String> {
    let node = if subject.kind == "Node" {
        Some(subject.name.to_string())
    } else {
        model
            .object(subject)
            .and_then(|o| o.locate("spec.nodeName"))
            .and_then(|(_, n)| n.as_str())
            .map(str::to_string)
    }?;
    component.nodes.contains(&node).then_some(node)
}

/// The CSI drivers a plugin registers: from its Pods' spec (the registrar's
/// `--kubelet-registration-path=/var/lib/kubelet/plugins/<driver>/csi.sock`) or, for a controller,
/// the events its sidecars reported; else the table's row.
pub(super) fn drivers(model: &Model<'_>, component: &Failing<'_>) -> (Vec<String>, Vec<Evidence>) {
    let mut drivers: Vec<String> = Vec::new();
    let mut evidence = Vec::new();
    for pod in &component.pods {
        let Some((_, containers)) = pod.locate("spec.containers") else {
            continue;
        };
        for (i, container) in containers.items().iter().enumerate() {
            for key in ["args", "command"] {
                let Some(args) = container.get(key) else {
                    continue;
                };
                for (j, arg) in args.items().iter().enumerate() {
                    let Some(text) = arg.as_str() else {
                        continue;
                    };
                    let Some(driver) = registered_driver(text) else {
                        continue;
                    };
                    if !drivers.iter().any(|d| d == driver) {
                        drivers.push(driver.to_string());
                        evidence.extend(model.evidence(pod, &format!("spec.containers[{i}].{key}[{j}]")));
                    }
                }
            }
        }
    }
    // A controller's sidecars report events as `<driver>_<pod>_<uuid>` (external-provisioner,
    // external-attacher: `ebs.csi.aws.com_ebs-csi-controller-f5d9c9475-wh2t9_e2ee…`): the driver name
    // the controller's own Pod reports.
    if component.entry.family == Family::CsiController {
        for event in &model.events {
            let Some((driver, rest)) = event.reporter.as_deref().and_then(|r| r.split_once('_')) else {
                continue;
            };
            let pod = rest.rsplit_once('_').map_or(rest, |(pod, _)| pod);
            let ours = component.pods.iter().any(|p| p.id.name == pod)
                || pod
                    .strip_prefix(component.name.as_str())
                    .is_some_and(|t| t.starts_with('-'));
            if ours && driver.contains('.') && !drivers.iter().any(|d| d == driver) {
                drivers.push(driver.to_string());
                evidence.extend(model.event_evidence(event));
            }
        }
    }
    if drivers.is_empty() {
        drivers.extend(component.entry.serves.iter().map(|s| s.to_string()));
    }
    (drivers, evidence)
}

/// `<driver>` of `…/plugins/<driver>/csi.sock` (or `/var/lib/kubelet/plugins_registry/<driver>-reg.sock`).
pub(super) fn registered_driver(arg: &str) -> Option<&str> {
    let (_, rest) = arg.split_once("/plugins/")?;
    let (driver, tail) = rest.split_once('/')?;
    (tail.starts_with("csi.sock") && driver.contains('.')).then_some(driver)
}

/// DNS, metrics and Service-address failures are read where they are written (events, pasted
/// output), not from other findings: lines that show the component's service failing, with
/// whether they name it.
pub(super) fn service_failures(model: &Model<'_>, component: &Failing<'_>) -> Vec<(Message, Evidence)> {
    let family = component.entry.family;
    if !matches!(family, Family::Dns | Family::MetricsServer | Family::KubeProxy) {
        return Vec::new();
    }
    let vips = if family == Family::KubeProxy {
        cluster_ips(model)
    } else {
        Vec::new()
    };
    if family == Family::KubeProxy && vips.is_empty() {
        // Without a Service's cluster IP pasted, a failed connection is to no known virtual IP.
        return Vec::new();
    }
    let dns_ip = model
        .object(&ObjectRef {
            kind: "Service".into(),
            namespace: Some("kube-system".into()),
            name: "kube-dns".into(),
            uid: None,
        })
        .and_then(|s| s.locate("spec.clusterIP"))
        .and_then(|(_, n)| n.as_str())
        .map(str::to_string);
    let judge = |text: &str| -> Option<Msg> {
        match family {
            Family::Dns => dns_failure(text, dns_ip.as_deref()),
            Family::KubeProxy => vip_failure(text, &vips),
            _ => metrics_failure(text),
        }
    };
    let mut out = Vec::new();
    for event in &model.events {
        if out.len() >= 3 {
            break;
        }
        // The kubelet resolves registries with the node's resolver, not the cluster's DNS.
        if is_pull(event) || component.pods.iter().any(|p| p.id == event.subject) {
            continue;
        }
        if let (Some(msg), Some(evidence)) = (judge(&event.message), model.event_evidence(event)) {
            out.push((msg.into(), evidence));
        }
    }
    for output in model.outputs {
        for (i, line) in output.text.lines().enumerate() {
            if out.len() >= 3 {
                break;
            }
            if let Some(msg) = judge(line) {
                let line_no = output.first_line + u32::try_from(i).unwrap_or(0);
                out.push((
                    msg.into(),
                    Evidence {
                        source: model.source_name(output.source),
                        line: line_no,
                        path: "output".to_string(),
                        value: line.trim().to_string(),
                    },
                ));
            }
        }
    }
    out
}

pub(super) fn is_pull(event: &EventRecord) -> bool {
    event.message.contains("pull") || event.message.contains("Pull")
}

/// A failed lookup through a DNS server: `lookup NAME on IP:53: no such host`, `… i/o timeout`;
/// evidence when the server is the kube-dns Service's address or the name is a cluster name.
pub(super) fn dns_failure(text: &str, dns_ip: Option<&str>) -> Option<Msg> {
    let (_, rest) = text.split_once("lookup ")?;
    let name = rest.split_whitespace().next()?.trim_end_matches(':');
    let failed = [
        "no such host",
        "i/o timeout",
        "server misbehaving",
        "connection refused",
    ]
    .iter()
    .any(|f| rest.contains(f));
    let server = rest
        .split_once(" on ")
        .and_then(|(_, s)| s.split_whitespace().next())
        .map(|s| s.trim_end_matches(':'));
    let port_53 = server.is_some_and(|s| s.ends_with(":53"));
    let cluster_name = name.ends_with(".svc") || name.contains(".svc.") || name.ends_with(".cluster.local");
    if !failed || !(port_53 || cluster_name) {
        return None;
    }
    let at_cluster_dns = match (server, dns_ip) {
        (Some(s), Some(ip)) => s.strip_suffix(":53") == Some(ip),
        _ => false,
    };
    Some(Msg::LookupFails {
        name: name.to_string(),
        evidence: at_cluster_dns || cluster_name,
    })
}

/// A Service's virtual IP as pasted: its `spec.clusterIP`, its ports (`spec.ports[].port`) and the
/// Service.
pub(super) struct ClusterIp {
    pub(super) ip: String,
    pub(super) ports: Vec<String>,
    pub(super) service: ObjectRef,
    /// The endpoints `kubectl describe service` printed for it, when it was described.
    pub(super) endpoints: Option<String>,
}

/// The cluster IPs of the Services pasted (a headless Service has none).
pub(super) fn cluster_ips(model: &Model<'_>) -> Vec<ClusterIp> {
    let mut out: Vec<ClusterIp> = Vec::new();
    for service in model.objects_of_kind("Service") {
        let Some(ip) = service
            .locate("spec.clusterIP")
            .and_then(|(_, n)| n.as_str())
            .map(str::trim)
            .filter(|ip| !ip.is_empty() && *ip != "None" && ip.contains('.'))
        else {
            continue;
        };
        let ports = service
            .locate("spec.ports")
            .map(|(_, ports)| {
                ports
                    .items()
                    .iter()
                    .filter_map(|p| {
                        p.get("port")
                            .and_then(|n| n.as_str())
                            .map(|s| s.trim().to_string())
                    })
                    .collect()
            })
            .unwrap_or_default();
        let endpoints = service
            .locate("kubectl.endpoints")
            .and_then(|(_, n)| n.as_str())
            .map(str::trim)
            .map(str::to_string);
        // A Service with no endpoints has nothing behind its address: a failed connection to it is
        // the endpoints' finding (proxy-found-no-endpoints, service-endpoints-not-serving).
        if endpoints
            .as_deref()
            .is_some_and(|e| e.is_empty() || e == "<none>")
        {
            continue;
        }
        if !out.iter().any(|c| c.ip == ip) {
            out.push(ClusterIp {
                ip: ip.to_string(),
                ports,
                service: service.id.clone(),
                endpoints,
            });
        }
    }
    out
}

/// A connection to a pasted Service's cluster IP that failed: `dial tcp 10.32.0.1:443: i/o
/// timeout`, `connect: connection refused`, `no route to host`. The address is the Service's
/// (evidence); that the connection went through a failing kube-proxy is an inference.
pub(super) fn vip_failure(text: &str, vips: &[ClusterIp]) -> Option<Msg> {
    let failed = [
        "i/o timeout",
        "connection refused",
        "no route to host",
        "connection timed out",
        "ETIMEDOUT",
        "ECONNREFUSED",
    ]
    .iter()
    .any(|f| text.contains(f));
    if !failed {
        return None;
    }
    text.split(|c: char| c.is_whitespace() || matches!(c, '\'' | '"' | '(' | ')' | ',' | '/' | '='))
        .map(|t| t.trim_end_matches([':', '.', ';']))
        .find_map(|token| {
            let (host, port) = token.rsplit_once(':')?;
            let vip = vips
                .iter()
                .find(|v| v.ip == host && (v.ports.is_empty() || v.ports.iter().any(|p| p == port)))?;
            Some(Msg::VipFails {
                address: token.to_string(),
                service: vip.service.clone(),
                endpoints: vip.endpoints.clone(),
            })
        })
}

/// The HPA's or kubectl's words for the resource metrics API not answering.
pub(super) fn metrics_failure(text: &str) -> Option<Msg> {
    let api = text.contains("metrics.k8s.io")
        || text.contains("resource metrics API")
        || text.contains("Metrics API not available");
    let unable = text.contains("unable to get metrics") || text.contains("unable to fetch metrics");
    (api || unable).then_some(Msg::MetricsFail { evidence: api })
}
