//! Which findings a failing cluster component explains, and the failures its clients print (DNS
//! lookups, requests to a Service's cluster IP, the metrics API) that point at it.

use super::*;
use faultline_model::signals::{cluster_dns, cni_plugin, csi_driver, metrics_api, service_vip};
use faultline_model::views::csi_registrar::registered_drivers;
use faultline_model::views::ingress_class_name::ingress_class_name;
use faultline_model::views::pod_running::pod_node_name;
use faultline_model::views::service_cluster_ip::ServiceClusterIp;

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
                if csi_driver::by_the_controller(&message) != controller {
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
                if let Some(driver) =
                    csi_driver::driver_named(&message).filter(|d| named_for_driver(&component.name, d))
                {
                    return Some(
                        Msg::NameMatches {
                            symptom: symptom.subject.clone(),
                            driver: driver.to_string(),
                        }
                        .into(),
                    );
                }
                if csi_driver::by_the_csi_volume_plugin(&message) {
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
                if cni_plugin::names_a_plugin_type(&message) {
                    continue;
                }
                if cni_plugin::network_not_ready(&message) {
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
                .find_map(|i| ingress_class_name(i).map(str::to_string));
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

/// The node a symptom's Pod (or the Node itself) is on, when a failing Pod of the component is there.
pub(super) fn same_node(model: &Model<'_>, component: &Failing<'_>, subject: &ObjectRef) -> Option<String> {
    let node = if subject.kind == "Node" {
        Some(subject.name.to_string())
    } else {
        model.object(subject).and_then(pod_node_name).map(str::to_string)
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
        for (driver, path) in registered_drivers(pod) {
            if !drivers.iter().any(|d| d == driver) {
                drivers.push(driver.to_string());
                evidence.extend(model.evidence(pod, &path));
            }
        }
    }
    // A controller's sidecars report events as `<driver>_<pod>_<uuid>` (external-provisioner,
    // external-attacher: `ebs.csi.aws.com_ebs-csi-controller-f5d9c9475-wh2t9_e2ee…`): the driver name
    // the controller's own Pod reports.
    if component.entry.family == Family::CsiController {
        for event in &model.events {
            let Some((driver, pod)) = event.reporter.as_deref().and_then(csi_driver::sidecar_reporter) else {
                continue;
            };
            let ours = component.pods.iter().any(|p| p.id.name == pod)
                || pod
                    .strip_prefix(component.name.as_str())
                    .is_some_and(|t| t.starts_with('-'));
            if ours && !drivers.iter().any(|d| d == driver) {
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

/// DNS, metrics and Service-address failures are read where they are written (events, pasted
/// output), not from other findings: lines that show the component's service failing, with
/// whether they name it.
pub(super) fn service_failures(model: &Model<'_>, component: &Failing<'_>) -> Vec<(Message, Evidence)> {
    let family = component.entry.family;
    if !matches!(family, Family::Dns | Family::MetricsServer | Family::KubeProxy) {
        return Vec::new();
    }
    let vips = if family == Family::KubeProxy {
        model.service_cluster_ips()
    } else {
        Vec::new()
    };
    if family == Family::KubeProxy && vips.is_empty() {
        // Without a Service's cluster IP pasted, a failed connection is to no known virtual IP.
        return Vec::new();
    }
    let dns_ip = model.cluster_dns_ip();
    let judge = |text: &str| -> Option<Msg> {
        match family {
            Family::Dns => dns_failure(text, dns_ip),
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
        if cluster_dns::resolved_by_the_node(event) || component.pods.iter().any(|p| p.id == event.subject) {
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

/// A failed lookup through a DNS server: evidence when the server is the kube-dns Service's address
/// or the name is a cluster name.
pub(super) fn dns_failure(text: &str, dns_ip: Option<&str>) -> Option<Msg> {
    let lookup = cluster_dns::read(text)?;
    Some(Msg::LookupFails {
        name: lookup.name.to_string(),
        evidence: dns_ip.is_some_and(|ip| lookup.asked(ip)) || lookup.is_cluster_name(),
    })
}

/// A connection to a pasted Service's cluster IP that failed: the address is the Service's
/// (evidence); that the connection went through a failing kube-proxy is an inference.
pub(super) fn vip_failure(text: &str, vips: &[ServiceClusterIp]) -> Option<Msg> {
    service_vip::failed_connection(text)
        .into_iter()
        .find_map(|dialled| {
            let vip = vips.iter().find(|v| v.is(dialled.host, dialled.port))?;
            Some(Msg::VipFails {
                address: dialled.address.to_string(),
                service: vip.service.clone(),
                endpoints: vip.endpoints.clone(),
            })
        })
}

/// The HPA's or kubectl's words for the resource metrics API not answering.
pub(super) fn metrics_failure(text: &str) -> Option<Msg> {
    metrics_api::read(text).map(|f| Msg::MetricsFail {
        evidence: f.names_api,
    })
}
