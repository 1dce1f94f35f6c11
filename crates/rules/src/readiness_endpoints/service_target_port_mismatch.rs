use crate::pod_spec::{declared_ports, port_names_known, ports_text, DeclaredPort};
use faultline_ingest::node::Node;
use faultline_model::views::service_ports::{pod_containers, service_port_targets};
use faultline_model::Model;
use faultline_report::{Boundary, Finding, ObjectRef, Severity, Text};

crate::declare_rule! {
    /// ## What it finds
    /// A Service port whose `targetPort` no container of the Pods it selects declares: a name
    /// (`targetPort: http`) that no container's `ports[].name` is, a number that is no
    /// `containerPort`, or a number declared with another `protocol`. Only Pods whose container ports
    /// were pasted are compared; a Service without `targetPort` targets its `port`.
    ///
    /// ## Why it matters
    /// A named `targetPort` the Pod does not define leaves the Pod out of that port's endpoints: the
    /// Service has no endpoints although its Pods are Ready. A number the container does not listen
    /// on gives endpoints that refuse connections. Both look like a Service that is "up" and does not
    /// answer.
    ///
    /// ## Evidence
    /// The Service's `spec.ports[i].targetPort` (or `port`) and `protocol`, and the selected Pods'
    /// `containers[j].ports`, each by its line.
    ///
    /// ## Fault boundary
    /// `readiness-endpoints`: the Service's ports are how the EndpointSlice controller turns selected
    /// Pods into endpoints; a port that resolves to nothing is an endpoints fault, whatever the Pods do.
    ///
    /// ## What this evidence cannot establish
    /// Which port the process really listens on: `containerPort` is informational for a number, so a
    /// process may listen on a port it does not declare; Pods selected but not pasted may declare it.
    ///
    /// ## Next evidence to collect
    /// The EndpointSlices of the Service (their `ports`), the container's listening sockets, and a
    /// request to a Pod's IP on the target port from inside the cluster.
    ///
    /// ## Example
    /// ```yaml
    /// ports:
    /// - port: 80
    ///   targetPort: http   # the Pod's container declares only "web: 8080"
    /// ```
    pub const RULE = { id: "service-target-port-mismatch", boundary: Boundary::ReadinessEndpoints, components: [ServiceSlice], check: check };
}

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    for chain in &model.services {
        let Some(service) = model.objects.get(chain.service) else {
            continue;
        };
        // The selected Pods' containers that declare ports, with their paths.
        let mut declaring: Vec<(&faultline_ingest::Object, String, &Node)> = Vec::new();
        let mut pods_declaring = 0;
        for object in chain.pods.iter().filter_map(|&pod| model.objects.get(pod)) {
            let containers = pod_containers(object).into_iter();
            let before = declaring.len();
            declaring.extend(
                containers
                    .filter(|(_, c)| !declared_ports(c).is_empty())
                    .map(|(p, c)| (object, p, c)),
            );
            pods_declaring += usize::from(declaring.len() > before);
        }
        if declaring.is_empty() {
            continue;
        }
        let names_known = declaring.iter().all(|(_, _, c)| port_names_known(c));
        let all: Vec<_> = declaring.iter().flat_map(|(_, _, c)| declared_ports(c)).collect();
        for port in service_port_targets(service) {
            let (target, protocol, numeric) = (port.target, port.protocol, port.numeric());
            if !numeric && !names_known {
                continue;
            }
            let matches = |p: &&DeclaredPort<'_>| {
                if numeric {
                    p.number == Some(target)
                } else {
                    p.name == Some(target)
                }
            };
            let kind = if all.iter().filter(matches).any(|p| p.protocol == protocol) {
                continue;
            } else if let Some(other) = all.iter().find(matches) {
                Mismatch::Protocol(other.protocol.into())
            } else if numeric {
                Mismatch::Number
            } else {
                Mismatch::Name
            };
            let id = &service.id;
            let ns = id.namespace.as_deref().unwrap_or(crate::UNKNOWN_NAMESPACE);
            let (pod, container_path, container) = &declaring[0];
            let mut evidence = model.port_target_evidence(service, &port);
            evidence.extend(model.container_ports_evidence(pod, container_path, container));
            let (subject, target, pod_id) = (id.clone(), Text::from(target), pod.id.clone());
            let declared = ports_text(&declared_ports(container));
            let (severity, summary) = match kind {
                Mismatch::Name => (
                    Severity::Error,
                    Msg::NameNotDefined {
                        subject,
                        target,
                        pod: pod_id,
                        declared,
                    },
                ),
                Mismatch::Number => (
                    Severity::Warning,
                    Msg::NumberNotDeclared {
                        subject,
                        target,
                        pod: pod_id,
                        declared,
                    },
                ),
                Mismatch::Protocol(declared) => {
                    let protocol = protocol.into();
                    (
                        Severity::Warning,
                        Msg::ProtocolDiffers {
                            subject,
                            target,
                            protocol,
                            declared,
                        },
                    )
                }
            };
            let mut cannot: Vec<faultline_report::message::Message> = match summary {
                Msg::NameNotDefined { .. } => Vec::new(),
                _ => vec![Msg::ListeningPort {}.into()],
            };
            if chain.pods.len() > pods_declaring {
                cannot.push(Msg::SomePodsWithoutPorts {}.into());
            }
            cannot.push(Msg::PodsNotPasted {}.into());
            let next_steps = vec![
                command!(
                    "kubectl get endpointslices -n {} -l kubernetes.io/service-name={} -o yaml",
                    ns,
                    id.name
                ),
                command!(
                    "kubectl get pod {} -n {} -o jsonpath='{{.spec.containers[*].ports}}'",
                    pod.id.name,
                    ns
                ),
            ];
            findings.push(RULE.finding(severity, id.clone(), summary, evidence, cannot, next_steps));
        }
    }
}

enum Mismatch {
    Name,
    Number,
    Protocol(Text),
}

faultline_report::messages! {
    /// The words of `service-target-port-mismatch`.
    pub enum Msg {
        NameNotDefined { subject: ObjectRef, target: Text, pod: ObjectRef, declared: String } = "service-target-port-mismatch.name-not-defined" {
            en: "{subject} sends traffic to the named port {target}, which no container of the Pods it selects defines ({pod} declares {declared}): the EndpointSlice controller finds no port for it, so those Pods are no endpoints of it, Ready or not.",
            zh: "{subject} 把流量发往具名端口 {target}，但它选中的 Pod 中没有任何容器定义这个名字（{pod} 声明的是 {declared}）：EndpointSlice 控制器找不到对应的端口，所以无论这些 Pod 是否就绪，都不会成为它的端点。",
        },
        NumberNotDeclared { subject: ObjectRef, target: Text, pod: ObjectRef, declared: String } = "service-target-port-mismatch.number-not-declared" {
            en: "{subject} sends traffic to port {target}, which no container of the Pods it selects declares ({pod} declares {declared}): unless the process listens on it anyway, its endpoints refuse connections.",
            zh: "{subject} 把流量发往端口 {target}，但它选中的 Pod 中没有任何容器声明这个端口（{pod} 声明的是 {declared}）：除非进程实际上也监听它，否则这些端点会拒绝连接。",
        },
        ProtocolDiffers { subject: ObjectRef, target: Text, protocol: Text, declared: Text } = "service-target-port-mismatch.protocol-differs" {
            en: "{subject} sends {protocol} to port {target}, which the selected Pods' containers declare as {declared}.",
            zh: "{subject} 向端口 {target} 发送 {protocol} 流量，而选中 Pod 的容器把这个端口声明为 {declared}。",
        },
        ListeningPort {} = "service-target-port-mismatch.listening-port" {
            en: "Which port the process really listens on: a containerPort is informational, so a process can listen on a port it does not declare.",
            zh: "进程实际监听的是哪个端口：containerPort 只是说明性的，进程可以监听一个没有声明的端口。",
        },
        PodsNotPasted {} = "service-target-port-mismatch.pods-not-pasted" {
            en: "Whether it selects Pods beyond those pasted that define the port: only the pasted Pods were compared.",
            zh: "它是否还选中了粘贴内容之外、定义了这个端口的 Pod：只比较了粘贴的 Pod。",
        },
        SomePodsWithoutPorts {} = "service-target-port-mismatch.some-pods-without-ports" {
            en: "Some selected Pods were pasted without their container ports: they were not compared.",
            zh: "部分被选中的 Pod 粘贴时没有带上容器端口：它们没有参与比较。",
        },
    }
}
