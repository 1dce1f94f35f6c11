use crate::cluster_components::{entry_named, named_for_driver, Entry, Family};
use crate::control_plane::components::{failing, ran_again};
use crate::{application, node_runtime, quota_admission, readiness_endpoints, zone_network_storage};
use faultline_ingest::Object;
use faultline_model::owners::{named_workload, selects, workload_of};
use faultline_model::{EventRecord, Model};
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
        docs_zh: DOCS_ZH,
        check: check,
    };
}

/// [`crate::Rule::docs_zh`]: this rule's documentation in Chinese, each line after one space as in
/// the doc comment, with the English example unchanged.
const DOCS_ZH: &str = r#"
 ## 检测内容
 其他工作负载所依赖的集群组件出现故障：它的 Pod 处于崩溃循环、未就绪或 Pending，或者它的 DaemonSet、Deployment 没有全部可用。这些组件是一张表中的行（`rules/cluster_components.rs`）：CSI 节点插件和控制器插件（`ebs-csi-node`、`efs-csi-node`、`*-csi-node`、`csi-rbdplugin`、`secrets-store-csi-driver` 等），CNI 代理（`calico-node`、`aws-node`、`cilium`、`kube-flannel-ds`、`weave-net`、`antrea-agent`、`ovnkube-node`、`kube-router`），kube-proxy，CoreDNS 和 kube-dns，metrics-server，Ingress 控制器，以及准入 Webhook 的后端。随后规则在输入的所有命名空间中查找它的故障能够解释的症状，并把它们列在它下面：指名其 CSI 驱动的挂载错误（`driver name ebs.csi.aws.com not found in the list of registered CSI drivers`），其 CNI 插件无法建立的沙箱（`plugin type="calico"`、`/var/lib/calico/nodename`、`/run/flannel/subnet.env`），网络未就绪的节点，等待其 CSI 驱动制备卷的 PVC（`waiting for a volume to be created, either by external provisioner "ebs.csi.aws.com"`），访问 53 端口失败的域名解析，访问输入中某个 Service 的集群 IP 失败的连接，且输入没有显示它没有端点（kube-proxy），无法从 `metrics.k8s.io` 获取指标的 HPA，API 服务器无法调用的 Webhook。

 ## 为什么重要
 这类故障的症状出现在远离原因的地方：其他命名空间中卡在 `ContainerCreating` 的 Pod、不扩缩容的 HPA、拒绝所有请求的 Webhook。逐条看像是许多个故障，其实只有一个，位于该组件所服务对象的故障边界。组件自身容器层面的发现（崩溃循环）是它的细节，也列在它下面。

 ## 证据
 组件 Pod 的状态（等待原因、上次退出、重启次数，或 STATUS 列）以及其工作负载的就绪数量；对每个症状，说明这条关联是证据（错误消息指名了该组件的驱动或插件，Webhook 的 Service 选中了它的 Pod）还是推断（症状出现在该组件 Pod 出故障的同一节点上，或者名称相符）。如果组件 Pod 的容器之前退出过、现在都在运行并已就绪，且输入显示每个容器自上次重启以来都已运行 10 分钟或更久，则它现在并没有故障（这些退出由 `container-crash-looping` 记为历史）。对 kube-proxy 而言，所连接的地址是输入中某个 Service 的集群 IP，这是证据；连接是否经过出故障的 kube-proxy 则始终是推断（日志行不会说明连接是从哪个节点发起的）。

 ## 故障边界
 该组件所服务对象的故障边界：存储（CSI）、网络（CNI、kube-proxy、DNS）和 Ingress 控制器为 `zone-network-storage`；metrics-server 为 `control-plane`（API 服务器聚合的指标 API）；Webhook 的后端为 `quota-admission`。控制平面自身的 Pod 由 `control-plane-component-failing` 负责，etcd 的由 `etcd-member-failing` 负责。

 ## 这些证据无法确定的内容
 组件为什么出故障（要看它自己的日志）；对于标为推断的关联，症状是否确实经过这个出故障的 Pod；症状是否在它出故障时开始。

 ## 下一步应收集的证据
 `kubectl -n NS logs POD --all-containers --previous`、`kubectl -n NS describe pod POD`；CSI 插件看 `kubectl get csinode NODE -o yaml`；DNS 看 `kube-dns` Service 的端点；metrics-server 看 `kubectl get apiservice v1beta1.metrics.k8s.io`。

 ## 示例
 ```text
 kube-system   ebs-csi-node-cx7tf   2/3   CrashLoopBackOff   19   1m
 Warning  FailedMount  9s (x7 over 40s)  kubelet  MountVolume.MountDevice failed for volume
 "pv" : kubernetes.io/csi: attacher.MountDevice failed to create newCsiDriverClient: driver name
 ebs.csi.aws.com not found in the list of registered CSI drivers
 ```
"#;

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
struct Failing<'m> {
    entry: &'static Entry,
    namespace: Option<Text>,
    /// The workload's name as stated (owner references, a pasted object) or as the Pods are named.
    name: String,
    subject: ObjectRef,
    pods: Vec<&'m Object>,
    state: Vec<Message>,
    evidence: Vec<Evidence>,
    nodes: Vec<String>,
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
            if let Some(node) = object.locate("spec.nodeName").and_then(|(_, n)| n.as_str()) {
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
        let printed = object.locate("kubectl.status").and_then(|(_, n)| n.as_str());
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
    let number = |path: &str| -> Option<(u32, Evidence)> {
        let (_, node) = object.locate(path)?;
        let n = node.as_str()?.trim().parse::<u32>().ok()?;
        Some((n, model.evidence(object, path)?))
    };
    let first = |paths: &[&str]| paths.iter().find_map(|p| number(p));
    let desired = first(&["status.desiredNumberScheduled", "spec.replicas"]);
    let ready = first(&[
        "status.numberReady",
        "status.readyReplicas",
        "status.availableReplicas",
    ]);
    let unavailable = first(&["status.numberUnavailable", "status.unavailableReplicas"]);
    let (desired_n, ready_n) = match (&desired, &ready, &unavailable) {
        (Some((d, _)), Some((r, _)), _) if r < d => (*d, *r),
        (Some((d, _)), None, Some((u, _))) if *u > 0 && u <= d => (*d, d - u),
        (Some((d, _)), None, None) if *d > 0 && object.locate("status").is_none() => return None,
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

/// How a symptom is linked to the component: the message (evidence or inference, as it says).
fn link(
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
fn symptom_messages(model: &Model<'_>, symptom: &Finding) -> Vec<String> {
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
fn named_driver(message: &str) -> Option<&str> {
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
fn same_node(model: &Model<'_>, component: &Failing<'_>, subject: &ObjectRef) -> Option<String> {
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
fn drivers(model: &Model<'_>, component: &Failing<'_>) -> (Vec<String>, Vec<Evidence>) {
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
fn registered_driver(arg: &str) -> Option<&str> {
    let (_, rest) = arg.split_once("/plugins/")?;
    let (driver, tail) = rest.split_once('/')?;
    (tail.starts_with("csi.sock") && driver.contains('.')).then_some(driver)
}

/// DNS, metrics and Service-address failures are read where they are written (events, pasted
/// output), not from other findings: lines that show the component's service failing, with
/// whether they name it.
fn service_failures(model: &Model<'_>, component: &Failing<'_>) -> Vec<(Message, Evidence)> {
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

fn is_pull(event: &EventRecord) -> bool {
    event.message.contains("pull") || event.message.contains("Pull")
}

/// A failed lookup through a DNS server: `lookup NAME on IP:53: no such host`, `… i/o timeout`;
/// evidence when the server is the kube-dns Service's address or the name is a cluster name.
fn dns_failure(text: &str, dns_ip: Option<&str>) -> Option<Msg> {
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
struct ClusterIp {
    ip: String,
    ports: Vec<String>,
    service: ObjectRef,
    /// The endpoints `kubectl describe service` printed for it, when it was described.
    endpoints: Option<String>,
}

/// The cluster IPs of the Services pasted (a headless Service has none).
fn cluster_ips(model: &Model<'_>) -> Vec<ClusterIp> {
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
fn vip_failure(text: &str, vips: &[ClusterIp]) -> Option<Msg> {
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
fn metrics_failure(text: &str) -> Option<Msg> {
    let api = text.contains("metrics.k8s.io")
        || text.contains("resource metrics API")
        || text.contains("Metrics API not available");
    let unable = text.contains("unable to get metrics") || text.contains("unable to fetch metrics");
    (api || unable).then_some(Msg::MetricsFail { evidence: api })
}

fn finding(model: &Model<'_>, component: &Failing<'_>, findings: &[Finding]) -> Finding {
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

faultline_report::messages! {
    /// The words of `cluster-component-failing`.
    pub enum Msg {
        /// A cluster component failing: which, what it does, how it fails, what it breaks, and the
        /// symptoms of it in the input (or none).
        Failing { component: Text, role: Box<Message>, state: Vec<Message>, breaks: Box<Message>, explained: Box<Message> } = "cluster-component-failing.failing" {
            en: "{component}, {role}, is failing: {state}. {breaks} {explained}",
            zh: "{component}（{role}）出现故障：{state}。{breaks}{explained}",
        },
        /// One failing Pod of the component and its state.
        PodState { pod: ObjectRef, state: Vec<Message> } = "cluster-component-failing.pod-state" {
            en: { format!("Pod {}: {state}", pod.0.name) },
            zh: { format!("Pod {} 的状态：{state}", pod.0.name) },
        },
        /// The workload's ready count below its desired count.
        NotAvailable { workload: ObjectRef, ready: u32, desired: u32 } = "cluster-component-failing.not-available" {
            en: "{workload} has {ready} of {desired} ready",
            zh: "{workload} 只有 {ready}/{desired} 就绪",
        },
        RoleCsiNode {} = "cluster-component-failing.role-csi-node" {
            en: "the CSI node plugin that registers its driver with each node's kubelet",
            zh: "向各节点 kubelet 注册驱动的 CSI 节点插件",
        },
        RoleCsiController {} = "cluster-component-failing.role-csi-controller" {
            en: "the CSI controller plugin that provisions and attaches its driver's volumes",
            zh: "负责为其驱动创建和挂接卷的 CSI 控制器插件",
        },
        RoleCni {} = "cluster-component-failing.role-cni" {
            en: "the CNI agent that sets up each Pod's network on its node",
            zh: "在各节点上为 Pod 配置网络的 CNI 代理",
        },
        RoleKubeProxy {} = "cluster-component-failing.role-kube-proxy" {
            en: "the node agent that programs Service virtual IPs",
            zh: "在节点上配置 Service 虚拟 IP 的节点代理",
        },
        RoleDns {} = "cluster-component-failing.role-dns" {
            en: "the cluster DNS that resolves Service and Pod names",
            zh: "解析 Service 和 Pod 名称的集群 DNS",
        },
        RoleMetrics {} = "cluster-component-failing.role-metrics" {
            en: "the server of the resource metrics API (metrics.k8s.io)",
            zh: "资源指标 API（metrics.k8s.io）的服务端",
        },
        RoleIngress {} = "cluster-component-failing.role-ingress" {
            en: "the ingress controller that gives Ingresses their address and routes their traffic",
            zh: "为 Ingress 分配地址并转发其流量的 Ingress 控制器",
        },
        RoleWebhook {} = "cluster-component-failing.role-webhook" {
            en: "the backend of an admission webhook the API server calls",
            zh: "API 服务器调用的准入 Webhook 的后端",
        },
        /// What a failing CSI node plugin breaks; `drivers` when known.
        BreaksMounts { drivers: Option<String> } = "cluster-component-failing.breaks-mounts" {
            en: {
                match drivers.0 {
                    Some(d) => format!("While it is down, Pods on its nodes cannot mount volumes of {d}: the kubelet does not find the driver registered."),
                    None => "While it is down, Pods on its nodes cannot mount its driver's volumes: the kubelet does not find the driver registered.".to_string(),
                }
            },
            zh: {
                match drivers.0 {
                    Some(d) => format!("在它恢复之前，它所在节点上的 Pod 无法挂载 {d} 的卷：kubelet 找不到已注册的驱动。"),
                    None => "在它恢复之前，它所在节点上的 Pod 无法挂载其驱动的卷：kubelet 找不到已注册的驱动。".to_string(),
                }
            },
        },
        BreaksProvisioning { drivers: Option<String> } = "cluster-component-failing.breaks-provisioning" {
            en: {
                match drivers.0 {
                    Some(d) => format!("While it is down, volumes of {d} are not created or attached: claims stay Pending and attachments time out."),
                    None => "While it is down, its driver's volumes are not created or attached: claims stay Pending and attachments time out.".to_string(),
                }
            },
            zh: {
                match drivers.0 {
                    Some(d) => format!("在它恢复之前，{d} 的卷不会被创建或挂接：PVC 一直 Pending，挂接会超时。"),
                    None => "在它恢复之前，其驱动的卷不会被创建或挂接：PVC 一直 Pending，挂接会超时。".to_string(),
                }
            },
        },
        BreaksSandboxes {} = "cluster-component-failing.breaks-sandboxes" {
            en: "While it is down, new Pods on its nodes get no sandbox (FailedCreatePodSandBox) and the nodes' network may not be ready.",
            zh: "在它恢复之前，它所在节点上的新 Pod 无法建立沙箱（FailedCreatePodSandBox），节点的网络也可能未就绪。",
        },
        BreaksServices {} = "cluster-component-failing.breaks-services" {
            en: "While it is down, Service addresses on its nodes are not updated: connections to ClusterIPs may fail or reach old endpoints.",
            zh: "在它恢复之前，它所在节点上的 Service 地址规则得不到更新：访问 ClusterIP 可能失败，或者到达已失效的端点。",
        },
        BreaksLookups {} = "cluster-component-failing.breaks-lookups" {
            en: "While it is down, lookups of Service names fail (no such host, or an i/o timeout to port 53).",
            zh: "在它恢复之前，Service 名称的解析会失败（no such host，或访问 53 端口 i/o timeout）。",
        },
        BreaksMetrics {} = "cluster-component-failing.breaks-metrics" {
            en: "While it is down, HPAs cannot get resource metrics (FailedGetResourceMetric) and do not scale, and kubectl top fails.",
            zh: "在它恢复之前，HPA 无法获取资源指标（FailedGetResourceMetric），不会扩缩容，kubectl top 也会失败。",
        },
        BreaksIngress {} = "cluster-component-failing.breaks-ingress" {
            en: "While it is down, the Ingresses of its class get no address and their traffic is not routed.",
            zh: "在它恢复之前，属于它的 Ingress 类的 Ingress 拿不到地址，其流量也得不到转发。",
        },
        BreaksAdmission {} = "cluster-component-failing.breaks-admission" {
            en: "While it is down, the API server cannot call its webhook: requests it covers are refused, or admitted unchecked if its failurePolicy is Ignore.",
            zh: "在它恢复之前，API 服务器无法调用它的 Webhook：它覆盖的请求会被拒绝；如果 failurePolicy 为 Ignore，则不经检查直接放行。",
        },
        /// The symptoms of the component's failure in the input, each with how it is linked.
        Explains { links: Vec<Message> } = "cluster-component-failing.explains" {
            en: "It explains what is listed under it: {links}.",
            zh: "它解释了列在其下的症状：{links}。",
        },
        NoSymptom {} = "cluster-component-failing.no-symptom" {
            en: "No symptom of it is in the input.",
            zh: "输入中没有它造成的症状。",
        },
        /// The component's own Pod's finding (a detail of its failure; not listed in the text).
        Own {} = "cluster-component-failing.own" {
            en: "its own Pod",
            zh: "它自己的 Pod",
        },
        /// Evidence: the symptom's error names the driver the plugin registers.
        DriverNamed { symptom: ObjectRef, driver: String } = "cluster-component-failing.driver-named" {
            en: "{symptom}, whose message names the driver {driver} this plugin serves (evidence)",
            zh: "{symptom}，其消息指名了这个插件所服务的驱动 {driver}（证据）",
        },
        /// Inference: the driver in the error matches the plugin's name; which driver it registers was not pasted.
        NameMatches { symptom: ObjectRef, driver: String } = "cluster-component-failing.name-matches" {
            en: "{symptom}, whose error names the driver {driver}, which this plugin's name suggests (inference: by name)",
            zh: "{symptom}，其错误消息指名了驱动 {driver}，与这个插件的名称相符（推断：依据名称）",
        },
        /// Evidence: the sandbox or node error names the CNI plugin.
        PluginNamed { symptom: ObjectRef, plugin: Text } = "cluster-component-failing.plugin-named" {
            en: "{symptom}, whose network error names {plugin} (evidence)",
            zh: "{symptom}，其网络错误消息指名了 {plugin}（证据）",
        },
        /// Inference: the symptom is on a node where the component's Pod is failing.
        SameNode { symptom: ObjectRef, node: String } = "cluster-component-failing.same-node" {
            en: "{symptom}, on node {node} where this component's Pod is failing (inference: same node; its error does not name the component)",
            zh: "{symptom}，位于该组件 Pod 出故障的节点 {node} 上（推断：同一节点；其错误消息没有指名该组件）",
        },
        /// Evidence: the Ingress names the class this ingress controller serves.
        ClassServed { symptom: ObjectRef, class: String } = "cluster-component-failing.class-served" {
            en: "{symptom}, whose class {class} is the one this controller serves (evidence)",
            zh: "{symptom}，它的类 {class} 正是该控制器负责的类（证据）",
        },
        /// Inference: the Ingress names no class; this failing controller would be the one to admit it.
        NoClassNamed { symptom: ObjectRef } = "cluster-component-failing.no-class-named" {
            en: "{symptom}, which names no class (inference: this is a failing ingress controller of the input, not shown to be the one meant to admit it)",
            zh: "{symptom}，它没有指定类（推断：这是输入中一个出故障的 Ingress 控制器，但不能证明它就是应当接纳该 Ingress 的那个）",
        },
        /// Evidence: the webhook's Service selects the component's failing Pod.
        ServiceSelects { service: ObjectRef } = "cluster-component-failing.service-selects" {
            en: "the calls to {service}, which selects this component's failing Pod (evidence)",
            zh: "对 {service} 的调用，它选中了该组件出故障的 Pod（证据）",
        },
        /// Inference: the Service is the one this component serves, by the table's names.
        ServiceNamed { service: ObjectRef } = "cluster-component-failing.service-named" {
            en: "the calls to {service}, the Service this component is known to serve (inference: by name; its selector was not pasted)",
            zh: "对 {service} 的调用，已知这是该组件提供的 Service（推断：依据名称；输入中没有它的选择器）",
        },
        /// A failed lookup of `name`; evidence when the server is the cluster DNS's or the name a cluster name.
        LookupFails { name: String, evidence: bool } = "cluster-component-failing.lookup-fails" {
            en: {
                let how = if *evidence.0 { "evidence: a cluster name, or the kube-dns address" } else { "inference: the resolver is not shown to be the cluster DNS" };
                format!("the failed lookup of {} ({how})", name.0)
            },
            zh: {
                let how = if *evidence.0 { "证据：集群内名称，或 kube-dns 的地址" } else { "推断：无法确认解析器就是集群 DNS" };
                format!("对 {} 的解析失败（{how}）", name.0)
            },
        },
        /// A connection to a Service's cluster IP failed: the address is the Service's (evidence),
        /// that it went through this kube-proxy is inferred (a log line does not say from which node).
        VipFails { address: String, service: ObjectRef, endpoints: Option<String> } = "cluster-component-failing.vip-fails" {
            en: {
                let behind = endpoints.0.as_ref().map_or_else(String::new, |e| format!(", which has endpoints ({e})"));
                format!("the failed connection to {}, the cluster IP of {service}{behind} (evidence: the address is that Service's virtual IP, which kube-proxy programs on every node; inference: that it was made from a node whose kube-proxy is failing, which the line does not say)", address.0)
            },
            zh: {
                let behind = endpoints.0.as_ref().map_or_else(String::new, |e| format!("，而它有端点（{e}）"));
                format!("对 {} 的连接失败，这是 {service} 的集群 IP{behind}（证据：该地址就是这个 Service 的虚拟 IP，由 kube-proxy 在每个节点上配置；推断：连接是从 kube-proxy 出故障的节点发起的，这一行没有说明）", address.0)
            },
        },
        /// The HPA or kubectl cannot read the metrics API; evidence when the message names it.
        MetricsFail { evidence: bool } = "cluster-component-failing.metrics-fail" {
            en: {
                if *evidence.0 { "metrics that cannot be read from the resource metrics API (evidence: the message names it)".to_string() } else { "metrics that cannot be read (inference: the message does not name the metrics API)".to_string() }
            },
            zh: {
                if *evidence.0 { "无法从资源指标 API 读取的指标（证据：消息指名了该 API）".to_string() } else { "无法读取的指标（推断：消息没有指名指标 API）".to_string() }
            },
        },
        WhyFails { component: Text } = "cluster-component-failing.why-fails" {
            en: "Why {component} fails: its own log says (kubectl logs --previous of each container), no status field does.",
            zh: "{component} 为什么出故障：要看它自己的日志（每个容器的 kubectl logs --previous），没有哪个状态字段记录了原因。",
        },
        InferenceOnly {} = "cluster-component-failing.inference-only" {
            en: "For a link marked inference, that the symptom really goes through this failing Pod: the error does not name the component.",
            zh: "对于标为推断的关联，症状是否确实经过这个出故障的 Pod：错误消息没有指名该组件。",
        },
        /// The drivers came from the table's row, not from the plugin's spec.
        DriverFromTable { component: Text, drivers: String } = "cluster-component-failing.driver-from-table" {
            en: "That this {component} registers {drivers}: that is the driver a plugin of this name registers; its Pod's spec (the registrar's --kubelet-registration-path) was not pasted.",
            zh: "这个 {component} 注册的是否是 {drivers}：这是这个名称的插件所注册的驱动，但输入中没有它的 Pod 规格（registrar 的 --kubelet-registration-path）。",
        },
        /// A controller's drivers came from the table's row: no spec field names them.
        ControllerDriverFromTable { component: Text, drivers: String } = "cluster-component-failing.controller-driver-from-table" {
            en: "That this {component} serves {drivers}: that is the driver a controller of this name serves; nothing pasted shows the name it reports (its provisioner's and attacher's events come From <driver>_<pod>_…).",
            zh: "这个 {component} 服务的是否是 {drivers}：这是这个名称的控制器所服务的驱动，但输入中没有任何内容显示它报告的驱动名（它的 provisioner 和 attacher 发出的事件，From 为 <driver>_<pod>_…）。",
        },
        DriverUnknown {} = "cluster-component-failing.driver-unknown" {
            en: "Which CSI driver this plugin registers: neither its name nor its pasted spec says.",
            zh: "这个插件注册的是哪个 CSI 驱动：它的名称和输入中的规格都没有说明。",
        },
        WhenBegan {} = "cluster-component-failing.when-began" {
            en: "Whether the symptoms began when the component failed: compare the events' times with its restarts.",
            zh: "症状是否在该组件出故障时开始：需要对比事件的时间和它的重启时间。",
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use faultline_engine::{analyze, Source};

    /// A calico-node Pod crash-looping on `w1`, and a Pod on `node` whose sandbox fails with the
    /// runtime's generic words (no plugin named): linked only when it is on the same node, and then
    /// as an inference.
    fn cni_on(node: &str) -> faultline_report::Report {
        let input = format!(
            "\
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Pod
  metadata:
    name: calico-node-x7k2p
    namespace: kube-system
    ownerReferences:
    - apiVersion: apps/v1
      kind: DaemonSet
      name: calico-node
      controller: true
  spec:
    nodeName: w1
    containers:
    - name: calico-node
      image: calico/node:v3.26.1
  status:
    phase: Running
    containerStatuses:
    - name: calico-node
      ready: false
      restartCount: 9
      state:
        waiting:
          reason: CrashLoopBackOff
      lastState:
        terminated:
          exitCode: 1
          reason: Error
- apiVersion: v1
  kind: Pod
  metadata:
    name: web-0
    namespace: shop
  spec:
    nodeName: {node}
    containers:
    - name: web
      image: web:1
  status:
    phase: Pending
    containerStatuses:
    - name: web
      ready: false
      restartCount: 0
      state:
        waiting:
          reason: ContainerCreating
- apiVersion: v1
  kind: Event
  metadata:
    name: web-0.1
    namespace: shop
  involvedObject:
    kind: Pod
    name: web-0
    namespace: shop
  type: Warning
  reason: NetworkNotReady
  message: 'network is not ready: container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized'
  count: 12
"
        );
        analyze(&[Source::new("in.yaml", input)])
    }

    #[test]
    fn a_generic_cni_error_on_the_components_node_is_an_inference_and_elsewhere_nothing() {
        let report = cni_on("w1");
        let component = report.findings.iter().find(|f| f.rule == RULE.id).unwrap();
        assert_eq!(component.subject.to_string(), "DaemonSet kube-system/calico-node");
        assert!(
            component.summary.contains("on node w1") && component.summary.contains("inference: same node")
        );
        let sandbox = report
            .findings
            .iter()
            .find(|f| f.rule == zone_network_storage::pod_sandbox_failed::RULE.id)
            .unwrap();
        assert_eq!(
            sandbox.explained_by.as_ref().map(|c| c.rule.as_str()),
            Some(RULE.id)
        );
        assert!(component.cannot_establish.iter().any(|c| c.contains("inference")));

        let report = cni_on("w2");
        let component = report.findings.iter().find(|f| f.rule == RULE.id).unwrap();
        assert!(
            component.summary.contains("No symptom of it is in the input"),
            "{}",
            component.summary
        );
        let sandbox = report
            .findings
            .iter()
            .find(|f| f.rule == zone_network_storage::pod_sandbox_failed::RULE.id)
            .unwrap();
        assert_eq!(sandbox.explained_by, None);
    }

    /// The plugin's spec names its driver (the registrar's registration path): a mount of that
    /// driver is linked as evidence, a mount of another driver is not, whatever the plugin is called.
    #[test]
    fn the_driver_in_the_plugins_spec_decides_which_mounts_it_explains() {
        let input = |driver: &str| {
            format!(
                "\
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Pod
  metadata:
    name: acme-csi-node-4xk9z
    namespace: storage
    ownerReferences:
    - apiVersion: apps/v1
      kind: DaemonSet
      name: acme-csi-node
      controller: true
  spec:
    nodeName: w1
    containers:
    - name: node-driver-registrar
      image: registry.k8s.io/sig-storage/csi-node-driver-registrar:v2.9.0
      args:
      - --csi-address=/csi/csi.sock
      - --kubelet-registration-path=/var/lib/kubelet/plugins/block.acme.io/csi.sock
  status:
    phase: Running
    containerStatuses:
    - name: node-driver-registrar
      ready: false
      restartCount: 4
      state:
        waiting:
          reason: CrashLoopBackOff
- apiVersion: v1
  kind: Event
  metadata:
    name: db-0.1
    namespace: shop
  involvedObject:
    kind: Pod
    name: db-0
    namespace: shop
  type: Warning
  reason: FailedMount
  message: 'MountVolume.MountDevice failed for volume \"pvc-1\" : kubernetes.io/csi: attacher.MountDevice failed to create newCsiDriverClient: driver name {driver} not found in the list of registered CSI drivers'
  count: 3
"
            )
        };
        let run = |driver: &str| {
            let report = analyze(&[Source::new("in.yaml", input(driver))]);
            let component = report
                .findings
                .iter()
                .find(|f| f.rule == RULE.id)
                .cloned()
                .unwrap();
            let mount = report
                .findings
                .iter()
                .find(|f| f.rule == zone_network_storage::volume_mount_failed::RULE.id)
                .cloned()
                .unwrap();
            (component, mount)
        };
        let (component, mount) = run("block.acme.io");
        assert_eq!(
            mount.explained_by.map(|c| c.subject),
            Some(component.subject.clone())
        );
        assert!(component
            .summary
            .contains("names the driver block.acme.io this plugin serves (evidence)"));
        assert!(component
            .evidence
            .iter()
            .any(|e| e.value.contains("kubelet-registration-path")));
        let (component, mount) = run("ebs.csi.aws.com");
        assert_eq!(mount.explained_by, None);
        assert!(component.summary.contains("No symptom"));
    }

    /// A failed dial to a pasted Service's cluster IP (and one of its ports) is linked to a failing
    /// kube-proxy; another address, another port, or a line that does not fail is not.
    #[test]
    fn connections_to_a_services_cluster_ip() {
        let vips = [ClusterIp {
            ip: "10.32.0.1".into(),
            ports: vec!["443".into()],
            service: ObjectRef {
                kind: "Service".into(),
                namespace: Some("default".into()),
                name: "kubernetes".into(),
                uid: None,
            },
            endpoints: None,
        }];
        let line = "plugin/kubernetes: Get \"https://10.32.0.1:443/version?timeout=32s\": dial tcp 10.32.0.1:443: i/o timeout";
        assert!(matches!(
            vip_failure(line, &vips),
            Some(Msg::VipFails { ref address, .. }) if address == "10.32.0.1:443"
        ));
        assert!(vip_failure("dial tcp 10.32.0.1:8443: i/o timeout", &vips).is_none());
        assert!(vip_failure("dial tcp 10.96.0.1:443: connect: connection refused", &vips).is_none());
        assert!(vip_failure("GET https://10.32.0.1:443/healthz 200 OK", &vips).is_none());
    }

    /// A kube-proxy crash loop beside a Service whose describe shows no endpoints: the failed
    /// connection to its address is not kube-proxy's to explain.
    #[test]
    fn a_service_without_endpoints_is_not_kube_proxys() {
        let input = |endpoints: &str| {
            format!(
                "$ kubectl get pods -n kube-system\nNAME               READY   STATUS             RESTARTS   AGE\nkube-proxy-7vpcs   0/1     CrashLoopBackOff   5          8h\n$ kubectl describe service kubernetes\nName:              kubernetes\nNamespace:         default\nSelector:          <none>\nType:              ClusterIP\nIP:                10.32.0.1\nPort:              https  443/TCP\nTargetPort:        6443/TCP\nEndpoints:         {endpoints}\nEvents:            <none>\n$ kubectl logs web-1 -n shop\ndial tcp 10.32.0.1:443: i/o timeout\n"
            )
        };
        let summary = |endpoints: &str| {
            let report = analyze(&[Source::new("in.txt", input(endpoints))]);
            report
                .findings
                .iter()
                .find(|f| f.rule == RULE.id)
                .map(|f| f.summary.clone())
                .unwrap()
        };
        assert!(summary("10.240.0.10:6443").contains("the failed connection to 10.32.0.1:443"));
        assert!(summary("<none>").contains("No symptom of it is in the input"));
    }

    #[test]
    fn drivers_and_lookups() {
        assert_eq!(
            registered_driver(
                "--kubelet-registration-path=/var/lib/kubelet/plugins/ebs.csi.aws.com/csi.sock"
            ),
            Some("ebs.csi.aws.com")
        );
        assert_eq!(registered_driver("--csi-address=/csi/csi.sock"), None);
        // Both wordings of the persistentvolume controller's ExternalProvisioning event.
        assert_eq!(
            named_driver("waiting for a volume to be created, either by external provisioner \"ebs.csi.aws.com\" or manually created by system administrator"),
            Some("ebs.csi.aws.com")
        );
        assert_eq!(
            named_driver("Waiting for a volume to be created either by the external provisioner 'rbd.csi.ceph.com' or manually by the system administrator."),
            Some("rbd.csi.ceph.com")
        );
        assert_eq!(
            named_driver("attacher.MountDevice failed to create newCsiDriverClient: driver name efs.csi.aws.com not found in the list of registered CSI drivers"),
            Some("efs.csi.aws.com")
        );
        assert!(matches!(
            dns_failure("dial tcp: lookup redis.shop.svc.cluster.local on 10.96.0.10:53: read udp 10.244.1.5:41234->10.96.0.10:53: i/o timeout", None),
            Some(Msg::LookupFails { evidence: true, .. })
        ));
        assert!(matches!(
            dns_failure(
                "dial tcp: lookup db.example.com on 10.96.0.10:53: no such host",
                None
            ),
            Some(Msg::LookupFails { evidence: false, .. })
        ));
        assert!(matches!(
            dns_failure(
                "dial tcp: lookup db.example.com on 10.96.0.10:53: no such host",
                Some("10.96.0.10")
            ),
            Some(Msg::LookupFails { evidence: true, .. })
        ));
        assert!(dns_failure("dial tcp 10.0.0.1:443: i/o timeout", None).is_none());
        assert!(metrics_failure("unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: the server is currently unable to handle the request (get pods.metrics.k8s.io)").is_some());
        assert!(metrics_failure("failed to get cpu utilization: did not receive metrics for targeted pods (pods might be unready)").is_none());
    }
}
