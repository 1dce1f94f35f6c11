//! The finding about one failing component: what it serves, what it explains, and the evidence.

use super::*;

pub(super) fn finding(model: &Model<'_>, component: &Failing<'_>, findings: &[Finding]) -> Finding {
    let entry = component.entry;
    let family = entry.family;
    let (drivers, driver_evidence) = if matches!(family, Family::CsiNode | Family::CsiController) {
        drivers(model, component)
    } else {
        (Vec::new(), Vec::new())
    };
    let mut evidence = component.evidence.clone();
    evidence.extend(driver_evidence.iter().cloned());
    let mut details = vec![Detail::Serves(family.serves())];
    let mut links: Vec<Message> = Vec::new();
    let mut inferred = false;
    for symptom in findings {
        if symptom.rule == RULE.id {
            continue;
        }
        let Some(link) = link(model, component, symptom, &drivers) else {
            continue;
        };
        details.push(Detail::Explains {
            rule: symptom.rule.clone(),
            subject: symptom.subject.clone(),
        });
        if matches!(link.get::<Msg>(), Some(Msg::Own {})) {
            continue;
        }
        inferred |= matches!(
            link.get::<Msg>(),
            Some(
                Msg::SameNode { .. }
                    | Msg::NameMatches { .. }
                    | Msg::ServiceNamed { .. }
                    | Msg::NoClassNamed { .. }
            )
        );
        if !links.contains(&link) {
            links.push(link);
        }
    }
    for (link, e) in service_failures(model, component) {
        // The address is the Service's: its cluster IP, by its line, is the evidence of that.
        if let Some(Msg::VipFails { service, .. }) = link.get::<Msg>() {
            for path in ["spec.clusterIP", "kubectl.endpoints"] {
                if let Some(e) = model.object(service).and_then(|s| model.evidence(s, path)) {
                    if !evidence.contains(&e) {
                        evidence.push(e);
                    }
                }
            }
        }
        inferred |= matches!(
            link.get::<Msg>(),
            Some(
                Msg::LookupFails { evidence: false, .. }
                    | Msg::MetricsFail { evidence: false }
                    | Msg::VipFails { .. }
            )
        );
        links.push(link);
        evidence.push(e);
    }
    let namespace = component.namespace.as_deref().unwrap_or("kube-system");
    let role = role(family);
    let breaks = breaks(family, &drivers);
    let explained: Box<Message> = if links.is_empty() {
        Msg::NoSymptom {}.into_box()
    } else {
        Msg::Explains { links }.into_box()
    };
    let summary = Msg::Failing {
        component: component.name.as_str().into(),
        role: role.into_box(),
        state: component.state.clone(),
        breaks: breaks.into_box(),
        explained,
    };
    let mut cannot_establish: Vec<Message> = vec![Msg::WhyFails {
        component: component.name.as_str().into(),
    }
    .into()];
    if inferred {
        cannot_establish.push(Msg::InferenceOnly {}.into());
    }
    // A Pod that runs and is ready again after its exits, for a time the input does not show to
    // outlast the kubelet's back-off reset: whether it still fails is open.
    if let Some((_, line, _)) = component
        .pods
        .iter()
        .find_map(|pod| ran_again(model, pod).filter(|(settled, ..)| !settled))
    {
        cannot_establish.insert(0, line);
    }
    if matches!(family, Family::CsiNode | Family::CsiController) {
        if driver_evidence.is_empty() && !drivers.is_empty() {
            let component_name: Text = component.name.as_str().into();
            let drivers = drivers.join(", ");
            cannot_establish.push(if family == Family::CsiController {
                Msg::ControllerDriverFromTable {
                    component: component_name,
                    drivers,
                }
                .into()
            } else {
                Msg::DriverFromTable {
                    component: component_name,
                    drivers,
                }
                .into()
            });
        } else if drivers.is_empty() {
            cannot_establish.push(Msg::DriverUnknown {}.into());
        }
    }
    cannot_establish.push(Msg::WhenBegan {}.into());
    let pod = component.pods.first().map(|p| p.id.name.to_string());
    let mut next_steps = Vec::new();
    if let Some(pod) = &pod {
        next_steps.push(command!(
            "kubectl -n {} logs {} --all-containers --previous",
            namespace,
            pod
        ));
        next_steps.push(command!("kubectl -n {} describe pod {}", namespace, pod));
    } else {
        next_steps.push(command!(
            "kubectl -n {} get pods -o wide | grep {}",
            namespace,
            component.name
        ));
    }
    match family {
        Family::CsiNode => {
            next_steps.push(match component.nodes.first() {
                Some(node) => command!("kubectl get csinode {} -o yaml", node),
                None => "kubectl get csinodes -o yaml".to_string(),
            });
            next_steps.push("kubectl get csidrivers".to_string());
        }
        Family::CsiController => {
            // A controller provisions and attaches: its own events name it (`From` <driver>_<pod>_…).
            next_steps.push("kubectl get csidrivers".to_string());
            next_steps.push("kubectl get volumeattachments".to_string());
        }
        Family::Cni | Family::KubeProxy => {
            next_steps.push(command!(
                "kubectl -n {} get pods -o wide | grep {}",
                namespace,
                component.name
            ));
        }
        Family::Dns => {
            next_steps.push(
                "kubectl -n kube-system get endpointslices -l kubernetes.io/service-name=kube-dns"
                    .to_string(),
            );
        }
        Family::MetricsServer => {
            next_steps.push("kubectl get apiservice v1beta1.metrics.k8s.io".to_string());
        }
        Family::AdmissionWebhook | Family::IngressController => {
            next_steps.push(
                "kubectl get validatingwebhookconfigurations,mutatingwebhookconfigurations".to_string(),
            );
        }
        Family::ControlPlane => {}
    }
    let mut finding = RULE.finding(
        Severity::Error,
        component.subject.clone(),
        summary,
        evidence,
        cannot_establish,
        next_steps,
    );
    finding.boundary = family.boundary();
    finding.details = details;
    finding
}
