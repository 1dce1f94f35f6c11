use faultline_model::owners::workload_of;
use faultline_model::Model;
use faultline_report::hash::Map;
use faultline_report::{Boundary, Evidence, Finding, ObjectRef, Severity, Text};

crate::declare_rule! {
    /// ## What it finds
    /// Pods that are `Ready=True` while a container has no `readinessProbe`, and that receive traffic:
    /// a pasted Service selects them (or no Service was pasted, outside `kube-system`). One finding
    /// per workload, as information.
    ///
    /// ## Why it matters
    /// Without a readiness probe the kubelet marks a container ready as soon as it has started, so
    /// `Ready=True` and the EndpointSlice's `ready: true` prove only that the process is running: the
    /// Service sends traffic to it while it is still warming up or after it has stopped answering.
    /// In the article's terms, Ready proves nothing here about the business response.
    ///
    /// ## Evidence
    /// The Pod's `Ready` condition and the container specs without `readinessProbe`.
    ///
    /// ## Fault boundary
    /// `application`: what the application declares about its own readiness.
    ///
    /// ## What this evidence cannot establish
    /// Whether the application answers correctly now: only a request (or a probe) shows that. Whether
    /// the workload needs a probe at all (a batch worker that serves no traffic does not).
    ///
    /// ## Next evidence to collect
    /// A request to one Pod directly (`kubectl port-forward pod/NAME`), and the workload's template
    /// (`kubectl get deploy NAME -o yaml`) to add a `readinessProbe` that checks what the business
    /// needs.
    ///
    /// ## Example
    /// ```yaml
    /// containers:
    /// - name: web
    ///   image: shop/web:3.1   # no readinessProbe: Ready only means "started"
    /// ```
    pub const RULE = { id: "readiness-probe-missing", boundary: Boundary::Application, components: [Containers], check: check };
}

/// A workload, its Pods' names, the evidence of its first Pod, its containers without a probe.
type Group = (ObjectRef, Vec<String>, Vec<Evidence>, Vec<String>);

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    let services_pasted = model.objects.iter().any(|o| o.id.kind == "Service");
    // Workload -> (pods, evidence, containers without a probe), in input order.
    let mut groups: Vec<Group> = Vec::new();
    let mut group_of: Map<ObjectRef, usize> = Map::default();
    for p in model.unprobed_ready_pods() {
        let pod = p.pod;
        if !(p.selected || (!services_pasted && pod.id.namespace.as_deref() != Some("kube-system"))) {
            continue;
        }
        let workload = workload_of(pod);
        let at = *group_of.entry(workload.clone()).or_insert_with(|| {
            groups.push((workload, Vec::new(), Vec::new(), Vec::new()));
            groups.len() - 1
        });
        let (_, pods, evidence, containers) = &mut groups[at];
        pods.push(pod.id.name.to_string());
        if evidence.is_empty() {
            evidence.extend(model.evidence(pod, &format!("status.conditions[{}].status", p.ready_condition)));
            for (i, _) in &p.unprobed {
                evidence.extend(model.evidence(pod, &format!("spec.containers[{i}].name")));
            }
        }
        for (_, name) in p.unprobed {
            if !containers.iter().any(|n| n == name) {
                containers.push(name.to_string());
            }
        }
    }
    for (workload, pods, evidence, containers) in groups.into_iter().filter(|g| !g.2.is_empty()) {
        let ns = workload.namespace.as_deref().unwrap_or(crate::UNKNOWN_NAMESPACE);
        let summary = Msg::NoProbe {
            workload: workload.clone(),
            pods: pods.len(),
            first_pod: pods[0].as_str().into(),
            containers,
        };
        let cannot = [Msg::AnswersNow {}, Msg::NeedsProbe {}];
        let resource = workload.kind.to_ascii_lowercase();
        let steps = vec![
            command!("kubectl port-forward -n {} pod/{} 8080:8080", ns, pods[0]),
            command!("kubectl get {} {} -n {} -o yaml", resource, workload.name, ns),
        ];
        findings.push(RULE.finding(Severity::Info, workload, summary, evidence, cannot, steps));
    }
}

faultline_report::messages! {
    /// The words of `readiness-probe-missing`.
    pub enum Msg {
        /// A workload's Ready Pods (how many, the first's name) whose listed containers have no
        /// readiness probe.
        NoProbe { workload: ObjectRef, pods: usize, first_pod: Text, containers: Vec<String> } = "readiness-probe-missing.no-probe" {
            en: {
                let pods = if *pods.0 == 1 { format!("Pod {first_pod}") } else { format!("{pods} Pods ({first_pod}…)") };
                format!("{workload}: {pods} Ready=True, but container {containers} has no readiness probe, so Ready only means the process started: Ready proves nothing here about whether it answers.")
            },
            zh: {
                let pods = if *pods.0 == 1 { format!("Pod {first_pod} ") } else { format!("{pods} 个 Pod（{first_pod}…）") };
                format!("{workload}：{pods}为 Ready=True，但容器 {containers} 没有就绪探针，所以 Ready 只说明进程已经启动：在这里，Ready 证明不了它能否响应请求。")
            },
        },
        AnswersNow {} = "readiness-probe-missing.answers-now" {
            en: "Whether the application answers correctly now: only a request or a probe shows that.",
            zh: "应用现在能否正确响应：只有实际发一次请求或配置一个探针才能说明。",
        },
        NeedsProbe {} = "readiness-probe-missing.needs-probe" {
            en: "Whether this workload serves traffic that needs a probe at all.",
            zh: "这个工作负载承载的流量究竟是否需要探针。",
        },
    }
}
