use crate::model::client_output::{lines_containing, Scope};
use crate::model::facts::{business_response, pod_ready, ready_evidence};
use crate::model::Model;
use crate::report::{Boundary, Evidence, FactKind, FactState, Finding, Severity};

crate::declare_rule! {
    /// ## What it finds
    /// A Service whose selected Pods are not eligible for traffic: every endpoint of its
    /// EndpointSlices is not `serving` (nil counts as true, as in the API), or the Pods it selects are
    /// not Ready, or it selects no Pod at all. With `publishNotReadyAddresses: true` the slice marks
    /// not-ready endpoints `ready: true`, so traffic reaches Pods whose readiness fails; that is
    /// reported too. The article's five facts are stated for the Service: container running, Pod
    /// ready, address present, eligible for traffic, business response — each proven, disproven or
    /// unknown from the input.
    ///
    /// ## Why it matters
    /// "The Pod is Running" and "the Service has endpoints" are not "requests succeed". A readiness
    /// probe that fails keeps Pods out of rotation (or, with `publishNotReadyAddresses`, lets traffic
    /// in anyway); each fact needs its own evidence.
    ///
    /// ## Evidence
    /// The EndpointSlices' endpoint conditions (`ready`, `serving`, `terminating`) and `targetRef`s,
    /// the Service's selector and `publishNotReadyAddresses`, the Pods' container states and Ready
    /// condition, readiness-probe `Unhealthy` events, and request output when pasted.
    ///
    /// ## Fault boundary
    /// `readiness-endpoints`: kubelet probes, the EndpointSlice controller and what routes by them.
    ///
    /// ## What this evidence cannot establish
    /// Whether traffic flows through the data plane (kube-proxy, CNI, NetworkPolicy, DNS), and why the
    /// probe fails: a probe aimed at the wrong path or port and an application that is not ready look
    /// the same.
    ///
    /// ## Next evidence to collect
    /// The Pods' readiness probe definition and the application's answer on that path and port, the
    /// EndpointSlices (`kubectl get endpointslices -l kubernetes.io/service-name=NAME -o yaml`), and a
    /// request from inside the cluster.
    ///
    /// ## Example
    /// ```yaml
    /// endpoints:
    /// - addresses: [10.244.1.7]
    ///   conditions: {ready: false, serving: false, terminating: false}
    ///   targetRef: {kind: Pod, name: echo-5f9b7d6c4-6c8d7}
    /// ```
    pub const RULE = { id: "service-endpoints-not-serving", boundary: Boundary::ReadinessEndpoints, components: [ServiceSlice, Kubelet], docs_zh: DOCS_ZH, check: check };
}

/// [`crate::rules::Rule::docs_zh`]: this rule's documentation in Chinese, each line after one space as in
/// the doc comment, with the English example unchanged.
const DOCS_ZH: &str = r#"
 ## 检测内容
 所选 Pod 不具备接收流量资格的 Service：其 EndpointSlice 中的每个端点都不是 `serving`（与 API 一致，nil 视为 true），或者它选中的 Pod 未处于 Ready，或者它根本没有选中任何 Pod。设置了 `publishNotReadyAddresses: true` 时，EndpointSlice 会把未就绪的端点标记为 `ready: true`，于是流量会到达就绪检查失败的 Pod；这种情况也会报告。规则会针对该 Service 给出文章中的五个事实：容器在运行、Pod 已就绪、地址存在、具备接收流量的资格、业务响应正常，并根据输入逐一判定为已证实、已否定或未知。

 ## 为什么重要
 “Pod 处于 Running” 和 “Service 有端点” 都不等于 “请求成功”。失败的就绪探针会让 Pod 退出轮转（或者在设置了 `publishNotReadyAddresses` 时，仍然让流量进来）；每个事实都需要各自的证据。

 ## 证据
 EndpointSlice 中端点的状况（`ready`、`serving`、`terminating`）和 `targetRef`，Service 的选择算符和 `publishNotReadyAddresses`，Pod 的容器状态和 Ready 状况，就绪探针的 `Unhealthy` 事件，以及粘贴了的请求输出。

 ## 故障边界
 `readiness-endpoints`：kubelet 的探针、EndpointSlice 控制器，以及依据它们进行路由的组件。

 ## 这些证据无法确定的内容
 流量能否经由数据面（kube-proxy、CNI、NetworkPolicy、DNS）正常流动，以及探针为什么失败：探针指向了错误的路径或端口，和应用确实没有就绪，看起来是一样的。

 ## 下一步应收集的证据
 Pod 的就绪探针定义以及应用在该路径和端口上的响应，EndpointSlice（`kubectl get endpointslices -l kubernetes.io/service-name=NAME -o yaml`），以及从集群内部发出的请求。

 ## 示例
 ```yaml
 endpoints:
 - addresses: [10.244.1.7]
   conditions: {ready: false, serving: false, terminating: false}
   targetRef: {kind: Pod, name: echo-5f9b7d6c4-6c8d7}
 ```
"#;

/// How the summary words a fact.
fn word(state: FactState) -> &'static str {
    match state {
        FactState::Yes => "proven",
        FactState::No => "disproven",
        FactState::Unknown => "unknown",
    }
}

/// How the summary names a fact (the article's words).
fn name(kind: FactKind) -> &'static str {
    match kind {
        FactKind::Scheduled => "scheduled",
        FactKind::ContainerRunning => "container running",
        FactKind::PodReady => "Pod ready",
        FactKind::SelectedByService => "selected by a Service",
        FactKind::AddressPresent => "address present",
        FactKind::EligibleForTraffic => "eligible for traffic",
        FactKind::BusinessResponse => "business response",
    }
}

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    let business = business_response(model);
    // Failed requests in pasted client output: searched once, not once per Service (a paste with
    // hundreds of Services and megabytes of text made that quadratic).
    let request_failures = lines_containing(
        model,
        &[
            "curl: (",
            "HTTP/1.1 5",
            "HTTP/2 5",
            "HTTP/1.1 4",
            "Connection refused",
        ],
        Scope::ClientOutput,
    );
    // The chains and their five facts are the model's (`model::facts`), which the report's object
    // graph shows too: the finding and the object map cannot disagree.
    for chain in &model.services {
        let service = &model.objects[chain.service];
        let pods = &chain.pods;
        let slices = &chain.slices;
        let endpoints = &chain.endpoints;
        let none_serving = !endpoints.is_empty() && endpoints.iter().all(|e| !e.serving);
        let not_ready_pods = !pods.is_empty() && pods.iter().all(|&p| pod_ready(model, p) == Some(false));
        let selects_nothing = pods.is_empty()
            && model.graph.inventory.has("Pod")
            && slices.iter().all(|&s| {
                model.objects[s]
                    .locate("endpoints")
                    .is_none_or(|(_, e)| e.items().is_empty())
            });
        let ready_but_not_serving =
            chain.publish_not_ready && endpoints.iter().any(|e| e.ready && !e.serving);
        if !(none_serving || not_ready_pods || selects_nothing) {
            continue;
        }

        let facts = chain.facts(model, &business);

        let mut evidence: Vec<Evidence> = Vec::new();
        if let Some(crate::ingest::node::NodeValue::Map(entries)) =
            service.locate("spec.selector").map(|(_, n)| &n.value)
        {
            for entry in entries {
                evidence.extend(model.evidence(service, &format!("spec.selector[\"{}\"]", entry.key)));
            }
        }
        if chain.publish_not_ready {
            evidence.extend(model.evidence(service, "spec.publishNotReadyAddresses"));
        }
        for e in endpoints {
            let slice = &model.objects[e.slice];
            evidence.extend(model.evidence(slice, &format!("{}.conditions.ready", e.path)));
            evidence.extend(model.evidence(slice, &format!("{}.conditions.serving", e.path)));
        }
        for &p in pods {
            evidence.extend(ready_evidence(model, p));
        }
        let probes: Vec<_> = pods
            .iter()
            .flat_map(|&p| model.events_for(&model.objects[p].id))
            .filter(|e| e.reason == "Unhealthy" && e.message.starts_with("Readiness probe"))
            .collect();
        for event in probes.iter().take(3) {
            evidence.extend(model.event_evidence(event));
        }
        evidence.extend(request_failures.iter().take(2).cloned());

        let id = &service.id;
        let ns = id.namespace.as_deref().unwrap_or("default");
        let probe_text = probes.first().map(|e| {
            format!(
                " (the readiness probe fails: {})",
                e.message.trim_start_matches("Readiness probe failed: ")
            )
        });
        let mut summary = if selects_nothing {
            format!("{id} selects no Pod among those pasted: its selector matches no labels, so it has no endpoints.")
        } else if ready_but_not_serving {
            format!(
                "{id} sends traffic to Pods that are not ready: with publishNotReadyAddresses=true its EndpointSlice marks their endpoints ready=true while serving=false{}.",
                probe_text.clone().unwrap_or_default()
            )
        } else {
            format!(
                "{id} has no endpoint eligible for traffic: the {} Pod(s) it selects are not Ready{}, so its EndpointSlice lists them with ready=false, serving=false.",
                pods.len(),
                probe_text.clone().unwrap_or_default()
            )
        };
        let fact_text: Vec<String> = facts
            .iter()
            .map(|f| format!("{}: {}", name(f.fact), word(f.state)))
            .collect();
        summary.push_str(&format!(" Five facts — {}.", fact_text.join("; ")));

        let mut cannot_establish = vec![
            "Whether traffic flows through the data plane (kube-proxy, CNI, NetworkPolicy, DNS): endpoint conditions say what should receive traffic, not that it arrives.".to_string(),
        ];
        // With no Pod selected there is no probe to doubt: what is unknown is the Pods not pasted.
        cannot_establish.push(if selects_nothing {
            "Whether Pods with the selector's labels exist but were not pasted: only the pasted Pods were compared with it.".to_string()
        } else {
            "Why the readiness probe fails: a probe aimed at the wrong path or port and an application that is not ready look the same from here.".to_string()
        });
        if business.0 == FactState::Unknown {
            cannot_establish.push("The business response: no request output was pasted, so whether clients get correct answers is unknown.".to_string());
        }
        if slices.is_empty() {
            cannot_establish.push(format!("No EndpointSlice of {id} was pasted, so which addresses it lists and their conditions are unknown."));
        }
        let pod_name = pods
            .first()
            .map(|&p| model.objects[p].id.name.clone())
            .unwrap_or_else(|| "POD".into());
        let subject = id.clone();
        let endpoint_slices = command!(
            "kubectl get endpointslices -n {} -l kubernetes.io/service-name={} -o yaml",
            ns,
            id.name
        );
        let request = command!("kubectl -n {} run probe-check --rm -i --restart=Never --image=curlimages/curl -- curl -sS -m 3 -o /dev/null -w '%{{http_code}}' http://{}/", ns, id.name);
        let next_steps = if selects_nothing {
            // No Pod to name: the Pods of the namespace with their labels, against the selector.
            vec![
                endpoint_slices,
                command!(
                    "kubectl get service {} -n {} -o jsonpath='{{.spec.selector}}'",
                    id.name,
                    ns
                ),
                command!("kubectl get pods -n {} --show-labels", ns),
                request,
            ]
        } else {
            vec![
                endpoint_slices,
                command!(
                    "kubectl get pod {} -n {} -o jsonpath='{{.spec.containers[*].readinessProbe}}'",
                    pod_name,
                    ns
                ),
                command!("kubectl describe pod {} -n {}", pod_name, ns),
                request,
            ]
        };
        findings.push(RULE.finding(
            Severity::Error,
            subject,
            summary,
            evidence,
            cannot_establish,
            next_steps,
        ));
    }
}

crate::messages! {
    /// The words of `service-endpoints-not-serving`.
    pub enum Msg {}
}
