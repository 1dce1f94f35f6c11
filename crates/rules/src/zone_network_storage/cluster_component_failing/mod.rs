use crate::cluster_components::{entry_named, named_for_driver, Entry, Family};
use crate::control_plane::components::{failing, ran_again};
use crate::{application, node_runtime, quota_admission, readiness_endpoints, zone_network_storage};
use faultline_ingest::Object;
use faultline_model::owners::{named_workload, selects, workload_of};
use faultline_model::views::pod_running::{kubectl_printed_status, pod_node_name};
use faultline_model::views::workload_availability::WorkloadAvailability;
use faultline_model::Model;
use faultline_report::message::Message;
use faultline_report::{Boundary, Detail, Evidence, Finding, ObjectRef, Severity, Text};

crate::declare_rule! {
    /// ## What it finds
    /// A component of the cluster that other workloads depend on failing: its Pods crash-looping, not
    /// ready or pending, or its DaemonSet or Deployment not fully available. The components are rows
    /// of one table (`rules/cluster_components.rs`): CSI node and controller plugins (`ebs-csi-node`,
    /// `efs-csi-node`, `*-csi-node`, `csi-rbdplugin`, `secrets-store-csi-driver`, …), CNI agents
    /// (`calico-node`, `aws-node`, `cilium`, `kube-flannel-ds`, `weave-net`, `antrea-agent`,
    /// `ovnkube-node`, `kube-router`), kube-proxy, CoreDNS and kube-dns, metrics-server, ingress
    /// controllers and admission webhook backends. Then it looks, in every namespace of the input, for
    /// the symptoms its failure explains, and lists them under it: mounts that name its CSI driver
    /// (`driver name ebs.csi.aws.com not found in the list of registered CSI drivers`), sandboxes its
    /// CNI plugin cannot set up (`plugin type="calico"`, `/var/lib/calico/nodename`,
    /// `/run/flannel/subnet.env`), nodes whose network is not ready, claims waiting for its CSI
    /// driver to provision them (`waiting for a volume to be created, either by external provisioner
    /// "ebs.csi.aws.com"`), lookups to port 53 that fail, connections to a pasted Service's cluster
    /// IP that fail while it is not shown without endpoints (kube-proxy), HPAs that cannot get
    /// metrics from `metrics.k8s.io`, webhooks the API server cannot call.
    ///
    /// ## Why it matters
    /// These failures surface far from their cause: Pods in other namespaces stuck in
    /// `ContainerCreating`, an HPA that does not scale, a webhook that refuses every request. Read one
    /// at a time they look like many faults; they are one, at the boundary of what the component
    /// serves. Its own container findings (the crash loop) are its details and are listed under it too.
    ///
    /// ## Evidence
    /// The component's Pod states (waiting reason, last exit, restarts, or the STATUS column) and its
    /// workload's ready counts; for each symptom, whether the link is evidence (the error names the
    /// component's driver or plugin, the webhook's Service selects its Pod) or inference (the symptom
    /// is on a node where the component's Pod is failing, or a name matches), as the finding says.
    /// A component Pod whose containers exited before and all run and are ready now, each for 10
    /// minutes or more since its last restart as the input shows, is not failing now
    /// (`container-crash-looping` records the exits as history).
    /// For kube-proxy the dialled address being a pasted Service's cluster IP is the evidence; that
    /// the connection went through the failing kube-proxy is always inference (a log line does not
    /// say from which node it was made).
    ///
    /// ## Fault boundary
    /// The boundary of what the component serves: `zone-network-storage` for storage (CSI), the
    /// network (CNI, kube-proxy, DNS) and ingress controllers; `control-plane` for metrics-server
    /// (the API server's aggregated metrics API); `quota-admission` for a webhook's backend. The
    /// control plane's own Pods are `control-plane-component-failing`'s and etcd's are
    /// `etcd-member-failing`'s.
    ///
    /// ## What this evidence cannot establish
    /// Why the component fails (its own log says), and, for a link marked as inference, that the
    /// symptom really goes through the failing Pod; whether the symptoms began when it failed.
    ///
    /// ## Next evidence to collect
    /// `kubectl -n NS logs POD --all-containers --previous`, `kubectl -n NS describe pod POD`; for a
    /// CSI plugin `kubectl get csinode NODE -o yaml`; for DNS the `kube-dns` Service's endpoints; for
    /// metrics-server `kubectl get apiservice v1beta1.metrics.k8s.io`.
    ///
    /// ## Example
    /// ```text
    /// kube-system   ebs-csi-node-cx7tf   2/3   CrashLoopBackOff   19   1m
    /// Warning  FailedMount  9s (x7 over 40s)  kubelet  MountVolume.MountDevice failed for volume
    /// "pv" : kubernetes.io/csi: attacher.MountDevice failed to create newCsiDriverClient: driver name
    /// ebs.csi.aws.com not found in the list of registered CSI drivers
    /// ```
    pub const RULE = {
        id: "cluster-component-failing",
        boundary: Boundary::ZoneNetworkStorage,
        components: [Volumes if Serves, ProxyCni if Serves, ControllerManager if Serves, ServiceSlice if Serves, ApiServer if Serves, Kubelet if NodeNamed],
        also_at: [Boundary::ControlPlane, Boundary::QuotaAdmission],
        check: check,
    };
}

/// The rules whose findings about the component's own Pods are details of its failure.
const OWN: &[&str] = &[
    application::container_crash_looping::RULE.id,
    application::container_oom_killed::RULE.id,
    application::liveness_probe_failing::RULE.id,
    application::startup_probe_failing::RULE.id,
    node_runtime::container_start_failed::RULE.id,
    node_runtime::container_config_invalid::RULE.id,
    node_runtime::image_pull_failed::RULE.id,
    readiness_endpoints::readiness_probe_failing::RULE.id,
];

/// The rules whose findings a component's failure can explain, by family, besides its own Pods'.
/// An ingress controller's symptom, an Ingress not admitted (no address), is `ingress-not-admitted`'s:
/// linked as evidence when the Ingress names the class the controller serves, as inference when it
/// names none.
pub fn dependents(family: Family) -> &'static [&'static str] {
    match family {
        Family::CsiNode => &[zone_network_storage::volume_mount_failed::RULE.id],
        Family::CsiController => &[
            zone_network_storage::volume_mount_failed::RULE.id,
            zone_network_storage::pvc_pending::RULE.id,
        ],
        Family::Cni => &[
            zone_network_storage::pod_sandbox_failed::RULE.id,
            zone_network_storage::node_network_unavailable::RULE.id,
        ],
        Family::AdmissionWebhook => &[
            quota_admission::admission_webhook_unreachable::RULE.id,
            readiness_endpoints::service_endpoints_not_serving::RULE.id,
        ],
        Family::IngressController => &[
            quota_admission::admission_webhook_unreachable::RULE.id,
            readiness_endpoints::service_endpoints_not_serving::RULE.id,
            readiness_endpoints::ingress_not_admitted::RULE.id,
        ],
        Family::KubeProxy | Family::Dns | Family::MetricsServer | Family::ControlPlane => &[],
    }
}

/// Every rule a finding of this rule may explain (for the links in `rules/mod.rs`).
pub const EXPLAINED: &[&str] = &[
    readiness_endpoints::ingress_not_admitted::RULE.id,
    application::container_crash_looping::RULE.id,
    application::container_oom_killed::RULE.id,
    application::liveness_probe_failing::RULE.id,
    application::startup_probe_failing::RULE.id,
    node_runtime::container_start_failed::RULE.id,
    node_runtime::container_config_invalid::RULE.id,
    node_runtime::image_pull_failed::RULE.id,
    readiness_endpoints::readiness_probe_failing::RULE.id,
    zone_network_storage::volume_mount_failed::RULE.id,
    zone_network_storage::pvc_pending::RULE.id,
    zone_network_storage::pod_sandbox_failed::RULE.id,
    zone_network_storage::node_network_unavailable::RULE.id,
    quota_admission::admission_webhook_unreachable::RULE.id,
    readiness_endpoints::service_endpoints_not_serving::RULE.id,
];

/// Whether `cause` (a finding of this rule) decided that it explains `symptom`.
pub fn explains(symptom: &Finding, cause: &Finding) -> bool {
    cause.details.iter().any(|d| {
        matches!(d, Detail::Explains { rule, subject } if *rule == symptom.rule && *subject == symptom.subject)
    })
}

/// A failing component: its table row, its workload, the failing Pods and what shows it.
pub(super) struct Failing<'m> {
    pub(super) entry: &'static Entry,
    pub(super) namespace: Option<Text>,
    /// The workload's name as stated (owner references, a pasted object) or as the Pods are named.
    pub(super) name: String,
    pub(super) subject: ObjectRef,
    pub(super) pods: Vec<&'m Object>,
    pub(super) state: Vec<Message>,
    pub(super) evidence: Vec<Evidence>,
    pub(super) nodes: Vec<String>,
}

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    let mut failing_components: Vec<Failing<'_>> = Vec::new();
    for object in model.objects {
        let Some((entry, name, stated)) = recognise(model, object) else {
            continue;
        };
        if entry.family.reported_by().is_some() {
            continue;
        }
        let Some((state, evidence)) = failing_state(model, object) else {
            continue;
        };
        let namespace = object.id.namespace.clone();
        let at = failing_components
            .iter()
            .position(|f| f.entry.name == entry.name && f.namespace == namespace && f.name == name);
        let component = match at {
            Some(i) => &mut failing_components[i],
            None => {
                failing_components.push(Failing {
                    entry,
                    namespace: namespace.clone(),
                    name: name.clone(),
                    subject: stated.unwrap_or_else(|| object.id.clone()),
                    pods: Vec::new(),
                    state: Vec::new(),
                    evidence: Vec::new(),
                    nodes: Vec::new(),
                });
                let last = failing_components.len() - 1;
                &mut failing_components[last]
            }
        };
        if object.id.kind == "Pod" {
            component.pods.push(object);
            if let Some(node) = pod_node_name(object) {
                if !component.nodes.iter().any(|n| n == node) {
                    component.nodes.push(node.to_string());
                }
            }
            component.state.push(
                Msg::PodState {
                    pod: object.id.clone(),
                    state,
                }
                .into(),
            );
        } else {
            component.subject = object.id.clone();
            component.state.extend(state);
        }
        component.evidence.extend(evidence);
        if object.id.kind == "Pod" {
            // Where it fails: the node its Pod is on (and the kubelet there).
            component.evidence.extend(model.evidence(object, "spec.nodeName"));
        }
    }
    let mut new = Vec::new();
    for component in &failing_components {
        new.push(finding(model, component, findings));
    }
    findings.extend(new);
}

/// The table row an object is (a Pod of a component, or its DaemonSet or Deployment), the
/// workload's name, and the workload as the input states it (owner references, a pasted object).
fn recognise(model: &Model<'_>, object: &Object) -> Option<(&'static Entry, String, Option<ObjectRef>)> {
    let namespace = object.id.namespace.as_deref()?;
    match object.id.kind.as_str() {
        "DaemonSet" | "Deployment" => {
            let entry = entry_named(namespace, &object.id.name)?;
            Some((entry, object.id.name.to_string(), Some(object.id.clone())))
        }
        "Pod" => {
            let owner = workload_of(object);
            let stated = (owner != object.id).then_some(owner);
            let mut names: Vec<&str> = Vec::new();
            if let Some(owner) = &stated {
                names.push(&owner.name);
            } else {
                names.extend(named_workload("Pod", &object.id.name));
                names.extend(object.id.name.rsplit_once('-').map(|(head, _)| head));
            }
            let (entry, name) = names
                .into_iter()
                .find_map(|n| entry_named(namespace, n).map(|e| (e, n.to_string())))?;
            // The workload, when pasted, is the subject: the Pods are its.
            let pasted = ["DaemonSet", "Deployment"].into_iter().find_map(|kind| {
                let id = ObjectRef {
                    kind: kind.into(),
                    namespace: object.id.namespace.clone(),
                    name: name.as_str().into(),
                    uid: None,
                };
                model.object(&id).map(|o| o.id.clone())
            });
            let stated = stated
                .filter(|s| s.kind != "ReplicaSet" || pasted.is_none())
                .or(pasted);
            Some((entry, name, stated))
        }
        _ => None,
    }
}

/// Whether a Pod or a workload of a component is failing: the clauses that say how, and the fields.
fn failing_state(model: &Model<'_>, object: &Object) -> Option<(Vec<Message>, Vec<Evidence>)> {
    if object.id.kind == "Pod" {
        // A Pod being deleted is not failing: kubectl prints `Terminating` for it.
        let printed = kubectl_printed_status(object);
        if printed == Some("Terminating") {
            return None;
        }
        // Every container that exited runs and is ready again and has run past the kubelet's
        // back-off reset since: not failing now (`container-crash-looping` records the exits as
        // history).
        if matches!(ran_again(model, object), Some((true, ..))) {
            return None;
        }
        return failing(model, object);
    }
    let WorkloadAvailability {
        desired,
        ready,
        unavailable,
        status_shown,
    } = model.workload_availability(object);
    let (desired_n, ready_n) = match (&desired, &ready, &unavailable) {
        (Some((d, _)), Some((r, _)), _) if r < d => (*d, *r),
        (Some((d, _)), None, Some((u, _))) if *u > 0 && u <= d => (*d, d - u),
        (Some((d, _)), None, None) if *d > 0 && !status_shown => return None,
        (Some((d, _)), None, None) if *d > 0 => (*d, 0),
        _ => return None,
    };
    let mut evidence = Vec::new();
    evidence.extend(desired.map(|(_, e)| e));
    evidence.extend(ready.map(|(_, e)| e));
    evidence.extend(unavailable.map(|(_, e)| e));
    Some((
        vec![Msg::NotAvailable {
            workload: object.id.clone(),
            ready: ready_n,
            desired: desired_n,
        }
        .into()],
        evidence,
    ))
}

fn role(family: Family) -> Msg {
    match family {
        Family::CsiNode => Msg::RoleCsiNode {},
        Family::CsiController => Msg::RoleCsiController {},
        Family::Cni => Msg::RoleCni {},
        Family::KubeProxy => Msg::RoleKubeProxy {},
        Family::Dns => Msg::RoleDns {},
        Family::MetricsServer => Msg::RoleMetrics {},
        Family::IngressController => Msg::RoleIngress {},
        Family::AdmissionWebhook | Family::ControlPlane => Msg::RoleWebhook {},
    }
}

fn breaks(family: Family, drivers: &[String]) -> Msg {
    let drivers = (!drivers.is_empty()).then(|| drivers.join(", "));
    match family {
        Family::CsiNode => Msg::BreaksMounts { drivers },
        Family::CsiController => Msg::BreaksProvisioning { drivers },
        Family::Cni => Msg::BreaksSandboxes {},
        Family::KubeProxy => Msg::BreaksServices {},
        Family::Dns => Msg::BreaksLookups {},
        Family::MetricsServer => Msg::BreaksMetrics {},
        Family::IngressController => Msg::BreaksIngress {},
        Family::AdmissionWebhook | Family::ControlPlane => Msg::BreaksAdmission {},
    }
}

mod finding;
mod links;
mod messages;
#[cfg(test)]
mod tests;

use finding::*;
use links::*;
pub use messages::Msg;
