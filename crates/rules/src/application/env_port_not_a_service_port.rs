use crate::pod_spec::pod_specs;
use faultline_model::callers::service_of;
use faultline_model::views::dependency_host::{port_in_address, service_port_numbers};
use faultline_model::Model;
use faultline_report::{Boundary, Evidence, Finding, ObjectRef, Severity, Text};

crate::declare_rule! {
    /// ## What it finds
    /// A container whose environment names a pasted Service with a port that Service does not
    /// have: `CART_SERVICE_ADDR: cartservice:7071` while Service `cartservice` exposes only 7070.
    /// The host is read as `env-host-not-a-service` reads it (`host:port`, a URL,
    /// `NAME.NAMESPACE[.svc…]:port`); the Service must be pasted with its `spec.ports`.
    ///
    /// ## Why it matters
    /// A Service only forwards the ports it lists: a connection to any other port of its ClusterIP
    /// is refused or times out, while the Service, its endpoints and the callee are healthy. The
    /// caller crash-loops or fails its probes, and looks like the fault.
    ///
    /// ## Evidence
    /// The env var's `value` by its line, and the Service's `spec.ports[].port`.
    ///
    /// ## Fault boundary
    /// `application`: the caller's configuration names a port its dependency does not serve; the
    /// Service, DNS and the network do what they should.
    ///
    /// ## What this evidence cannot establish
    /// Whether the application uses this variable for its connection (it may read another one), and
    /// whether a port was since added to the Service.
    ///
    /// ## Next evidence to collect
    /// The Service's ports (`kubectl get svc NAME -n NAMESPACE -o jsonpath='{.spec.ports}'`) and the
    /// caller's log around its connection attempt.
    ///
    /// ## Example
    /// ```yaml
    /// env:
    /// - name: CART_SERVICE_ADDR
    ///   value: cartservice:7071   # Service cartservice: port 7070
    /// ```
    pub const RULE = { id: "env-port-not-a-service-port", boundary: Boundary::Application, components: [Containers], check: check };
}

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    let namespaces = crate::pod_spec::namespaces(model);
    for spec in pod_specs(model) {
        let object = spec.object;
        for container in spec.containers() {
            for (i, name, value) in container.env() {
                let Some((host, namespace)) = service_of(name, value, spec.namespace(), &namespaces) else {
                    continue;
                };
                let Some(port) = port_in_address(value) else {
                    continue;
                };
                let mut services = model.objects_in(Some(namespace));
                let Some(service) = services.find(|o| o.id.kind == "Service" && o.id.name == host) else {
                    continue;
                };
                let ports = service_port_numbers(service);
                if ports.is_empty() || ports.iter().any(|(_, p)| *p == port) {
                    continue;
                }
                let at = format!("{}.env[{i}].value", container.path);
                let mut evidence: Vec<Evidence> = model.evidence(object, &at).into_iter().collect();
                let port_paths = ports.iter().map(|(j, _)| format!("spec.ports[{j}].port"));
                evidence.extend(port_paths.filter_map(|at| model.evidence(service, &at)));
                let (id, ns) = (&object.id, spec.command_namespace());
                let summary = Msg::NotAPort {
                    subject: id.clone(),
                    container: container.name.into(),
                    name: name.into(),
                    port,
                    service: service.id.clone(),
                    ports: ports
                        .iter()
                        .map(|(_, p)| p.to_string())
                        .collect::<Vec<_>>()
                        .join(", "),
                };
                let steps = vec![
                    command!(
                        "kubectl get svc {} -n {} -o jsonpath='{{.spec.ports}}'",
                        service.id.name,
                        namespace
                    ),
                    command!("kubectl logs {} -n {} -c {}", id.name, ns, container.name),
                ];
                findings.push(RULE.finding(
                    Severity::Error,
                    id.clone(),
                    summary,
                    evidence,
                    [Msg::UsesIt {}],
                    steps,
                ));
            }
        }
    }
}

faultline_report::messages! {
    /// The words of `env-port-not-a-service-port`.
    pub enum Msg {
        NotAPort { subject: ObjectRef, container: Text, name: Text, port: u32, service: ObjectRef, ports: String } = "env-port-not-a-service-port.not-a-port" {
            en: "{subject}: container {container} is configured to reach {service} on port {port} ({name}), but that Service exposes only {ports}: connections to any other port of it are refused or time out, however healthy the Service's Pods are.",
            zh: "{subject}：容器 {container} 被配置为通过端口 {port} 连接 {service}（{name}），但该 Service 只暴露 {ports}：连接它的其他端口会被拒绝或超时，无论它背后的 Pod 多么健康。",
        },
        UsesIt {} = "env-port-not-a-service-port.uses-it" {
            en: "Whether the application connects with this variable (it may read another), and whether the Service gained that port since.",
            zh: "应用是否用这个变量建立连接（它可能读取另一个变量），以及 Service 之后是否加上了这个端口。",
        },
    }
}
