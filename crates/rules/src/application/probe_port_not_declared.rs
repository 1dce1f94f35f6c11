use crate::next_steps;
use crate::pod_spec::{declared_ports, pod_specs, port_names_known, ports_text};
use faultline_model::signals::probe::Probe;
use faultline_model::views::probe_port::probe_ports;
use faultline_model::Model;
use faultline_report::{Boundary, Finding, ObjectRef, Severity, Text};

crate::declare_rule! {
    /// ## What it finds
    /// A liveness, readiness or startup probe (`httpGet`, `tcpSocket`, `grpc`) aimed at a port its
    /// container does not have: a named port (`port: http`) that is no `ports[].name` of the
    /// container (an error), or a number that is none of its `containerPort`s while it declares some
    /// (a note, an error when the kubelet's `Unhealthy` event says the dial to it was refused: a
    /// health port left out of `ports` is common and works, as the OpenTelemetry chart's
    /// maintainers answer in open-telemetry/opentelemetry-helm-charts#172).
    ///
    /// ## Why it matters
    /// The kubelet resolves a named probe port in the container's own ports; a name it cannot find
    /// fails the probe every time, so the Pod never becomes Ready (readiness) or is restarted again
    /// and again (liveness, startup) while the application is fine. A probe on a port nothing listens
    /// on fails the same way with `connection refused`.
    ///
    /// ## Evidence
    /// The probe's `port` and the container's `ports`, each by its line, in a Pod (also as describe
    /// prints them: `Port:`, `Liveness:`, `Readiness:`, `Startup:`).
    ///
    /// ## Fault boundary
    /// `application`: the probe is part of the application's own Pod spec, and it disagrees with the
    /// ports the same spec declares.
    ///
    /// ## What this evidence cannot establish
    /// Which port the process listens on: a `containerPort` is informational, so a numeric probe port
    /// the container does not declare may still be served (a management port, a sidecar's).
    ///
    /// ## Next evidence to collect
    /// The probe's `Unhealthy` events (`connection refused`, the port the kubelet dialled), and the
    /// container's listening sockets.
    ///
    /// ## Example
    /// ```yaml
    /// ports:
    /// - {name: web, containerPort: 8080}
    /// readinessProbe:
    ///   httpGet: {path: /healthz, port: http}
    /// ```
    pub const RULE = { id: "probe-port-not-declared", boundary: Boundary::Application, components: [Kubelet, Containers], check: check };
}

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    for spec in pod_specs(model) {
        let (object, id) = (spec.object, &spec.object.id);
        let events = model.events_for(id);
        for container in spec.containers() {
            let declared = declared_ports(container.node);
            for p in probe_ports(container.node) {
                let (port, numeric) = (p.port, p.numeric());
                // The kubelet's own word that nothing listens there: a probe failure refused on
                // that port (`dial tcp 10.244.1.9:9090: connect: connection refused`).
                let refused = events.iter().copied().find(|e| e.probe_refused_on(p.probe, port));
                let severity = if numeric {
                    if declared.is_empty() || declared.iter().any(|d| d.number == Some(port)) {
                        continue;
                    }
                    // A `containerPort` is informational: an undeclared health port is served
                    // as often as not (open-telemetry/opentelemetry-helm-charts#172).
                    [Severity::Info, Severity::Error][usize::from(refused.is_some())]
                } else {
                    if !port_names_known(container.node) || declared.iter().any(|d| d.name == Some(port)) {
                        continue;
                    }
                    Severity::Error
                };
                let mut evidence = p.evidence(model, object, &container.path, declared.len());
                evidence.extend(refused.and_then(|e| model.event_evidence(e)));
                let probe = match p.probe {
                    Probe::Liveness => Msg::Liveness {},
                    Probe::Readiness => Msg::Readiness {},
                    Probe::Startup => Msg::Startup {},
                }
                .into_box();
                let (subject, container, port) = (id.clone(), container.name.into(), port.into());
                let summary = match (numeric, declared.is_empty()) {
                    (true, _) => Msg::NumberNotDeclared {
                        subject,
                        container,
                        probe,
                        port,
                        declared: ports_text(&declared),
                    },
                    (false, true) => Msg::NoPorts {
                        subject,
                        container,
                        probe,
                        port,
                    },
                    (false, false) => Msg::NameNotDefined {
                        subject,
                        container,
                        probe,
                        port,
                        declared: ports_text(&declared),
                    },
                };
                let cannot = match (numeric, refused.is_some()) {
                    (true, true) => Msg::WhichPortMeant {},
                    (true, false) => Msg::ListeningPort {},
                    (false, _) => Msg::WhyNamed {},
                };
                let pod = (id.kind == "Pod").then_some(id.name.as_str());
                let next = next_steps::events_of_reason(spec.command_namespace(), pod, "Unhealthy");
                findings.push(RULE.finding(severity, id.clone(), summary, evidence, [cannot], vec![next]));
            }
        }
    }
}

faultline_report::messages! {
    /// The words of `probe-port-not-declared`.
    pub enum Msg {
        Liveness {} = "probe-port-not-declared.liveness" { en: "liveness probe", zh: "存活探针" },
        Readiness {} = "probe-port-not-declared.readiness" { en: "readiness probe", zh: "就绪探针" },
        Startup {} = "probe-port-not-declared.startup" { en: "startup probe", zh: "启动探针" },
        NameNotDefined { subject: ObjectRef, container: Text, probe: Box<faultline_report::message::Message>, port: Text, declared: String } = "probe-port-not-declared.name-not-defined" {
            en: "{subject}: the {probe} of container {container} is aimed at the named port {port}, which the container does not define (it declares {declared}): the kubelet cannot resolve it, so the probe fails every time.",
            zh: "{subject}：容器 {container} 的{probe}指向具名端口 {port}，但该容器没有定义这个名字（它声明的是 {declared}）：kubelet 无法解析它，所以探针每次都会失败。",
        },
        NoPorts { subject: ObjectRef, container: Text, probe: Box<faultline_report::message::Message>, port: Text } = "probe-port-not-declared.no-ports" {
            en: "{subject}: the {probe} of container {container} is aimed at the named port {port}, and the container's spec declares no ports at all: the kubelet cannot resolve it, so the probe fails every time.",
            zh: "{subject}：容器 {container} 的{probe}指向具名端口 {port}，而该容器的 spec 根本没有声明任何端口：kubelet 无法解析它，所以探针每次都会失败。",
        },
        NumberNotDeclared { subject: ObjectRef, container: Text, probe: Box<faultline_report::message::Message>, port: Text, declared: String } = "probe-port-not-declared.number-not-declared" {
            en: "{subject}: the {probe} of container {container} is aimed at port {port}, which the container does not declare (it declares {declared}): unless the process listens there anyway, the probe is refused.",
            zh: "{subject}：容器 {container} 的{probe}指向端口 {port}，但该容器没有声明这个端口（它声明的是 {declared}）：除非进程实际上也监听它，否则探针会被拒绝。",
        },
        ListeningPort {} = "probe-port-not-declared.listening-port" {
            en: "Which port the process listens on: a containerPort is informational, so the probe's port may be served although it is not declared.",
            zh: "进程实际监听的是哪个端口：containerPort 只是说明性的，探针的端口即使没有声明也可能有进程在服务。",
        },
        WhichPortMeant {} = "probe-port-not-declared.which-port-meant" {
            en: "Which port the probe was meant to dial (the process may have moved, or the probe was copied from another container): a spec shows only its current state.",
            zh: "探针本来要连接哪个端口（进程可能换了端口，或者探针是从别的容器复制来的）：spec 只反映它当前的状态。",
        },
        WhyNamed {} = "probe-port-not-declared.why-named" {
            en: "Whether the name is a typo or the port was renamed in a change: a spec shows only its current state.",
            zh: "这个名字是拼写错误，还是端口在某次变更中被改了名：spec 只反映它当前的状态。",
        },
    }
}
