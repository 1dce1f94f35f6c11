use faultline_model::facts::{business_response, pod_ready, ready_evidence};
use faultline_model::views::service_endpoints::LegacyAddresses;
use faultline_model::Model;
use faultline_report::message::Message;
use faultline_report::{Boundary, Fact, FactKind, FactState, Finding, ObjectRef, Severity};

crate::declare_rule! {
    /// ## What it finds
    /// A Service whose selected Pods are not eligible for traffic: every endpoint of its
    /// EndpointSlices is not `serving` (nil counts as true, as in the API), or the Pods it selects are
    /// not Ready, or it selects no Pod at all (then the pasted Pods that match every label of its
    /// selector but one are named, with the label: a Service wired to another version of its Pods,
    /// `version: v1` after a rollout to `v2`). With `publishNotReadyAddresses: true` the slice marks
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
    pub const RULE = { id: "service-endpoints-not-serving", boundary: Boundary::ReadinessEndpoints, components: [ServiceSlice, Kubelet], check: check };
}

/// How the summary states a fact (the article's words) and what the input says of it.
fn fact(fact: &Fact) -> Message {
    let state = Box::new(match fact.state {
        FactState::Yes => Msg::Proven {}.into(),
        FactState::No => Msg::Disproven {}.into(),
        FactState::Unknown => Msg::Unknown {}.into(),
    });
    match fact.fact {
        FactKind::Scheduled => Msg::Scheduled { state },
        FactKind::ContainerRunning => Msg::ContainerRunning { state },
        FactKind::PodReady => Msg::PodReady { state },
        FactKind::SelectedByService => Msg::SelectedByService { state },
        FactKind::AddressPresent => Msg::AddressPresent { state },
        FactKind::EligibleForTraffic => Msg::EligibleForTraffic { state },
        FactKind::BusinessResponse => Msg::BusinessResponse { state },
    }
    .into()
}

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    let business = business_response(model);
    // Failed requests in pasted client output: searched once, not once per Service (a paste with
    // hundreds of Services and megabytes of text made that quadratic).
    let request_failures = model.failed_request_lines();
    // The chains and their five facts are the model's (`model::facts`), which the report's object
    // graph shows too: the finding and the object map cannot disagree.
    for chain in &model.services {
        let service = &model.objects[chain.service];
        let (pods, endpoints) = (&chain.pods, &chain.endpoints);
        let none_serving = !endpoints.is_empty() && endpoints.iter().all(|e| !e.serving);
        let not_ready_pods = !pods.is_empty() && pods.iter().all(|&p| pod_ready(model, p) == Some(false));
        // No Pod selected and no slice lists an endpoint. A workload scaled to 0 whose Pods the
        // selector would select: nothing matches because nothing runs, not because the labels are
        // wrong (the Pods need not be pasted to say so).
        let no_endpoints = pods.is_empty() && endpoints.is_empty();
        let scaled_to_zero = no_endpoints
            .then(|| model.workload_scaled_to_zero(service))
            .flatten();
        let selects_nothing = no_endpoints && (model.graph.inventory.has("Pod") || scaled_to_zero.is_some());
        if !(none_serving || not_ready_pods || selects_nothing) {
            continue;
        }
        let facts: Vec<Message> = chain.facts(model, &business).iter().map(fact).collect();
        let mut evidence = model.selector_evidence(service);
        if chain.publish_not_ready {
            evidence.extend(model.evidence(service, "spec.publishNotReadyAddresses"));
        }
        evidence.extend(model.endpoint_condition_evidence(chain));
        evidence.extend(pods.iter().filter_map(|&p| ready_evidence(model, p)));
        let probes = model.readiness_failures_of(pods);
        evidence.extend(probes.iter().take(3).filter_map(|e| model.event_evidence(e)));
        evidence.extend(request_failures.iter().take(2).cloned());
        // The kubelet's words after its prefix, verbatim.
        let probe = probes
            .first()
            .map(|e| e.readiness_failure_words().unwrap_or(&e.message).to_string());
        let id = &service.id;
        let ns = id.namespace.as_deref().unwrap_or(crate::UNKNOWN_NAMESPACE);
        let subject = id.clone();
        let summary = if let Some(workload) = scaled_to_zero {
            evidence.extend(model.evidence(workload, "spec.replicas"));
            Msg::ScaledToZero {
                subject,
                workload: workload.id.clone(),
                facts,
            }
        } else if selects_nothing {
            // Pods that miss the selector by one label: another version's, a renamed app.
            let near = faultline_model::selectors::near_misses(model, service, 3);
            evidence.extend(model.near_miss_evidence(&near));
            let pods = near.iter().map(|m| m.pod.clone()).collect();
            let near = near.first().map(|m| {
                let (key, wanted, has) = (m.key.clone(), m.wanted.clone(), m.has.clone());
                Msg::NearMiss {
                    pods,
                    key,
                    wanted,
                    has,
                }
                .into_box()
            });
            Msg::SelectsNothing { subject, facts, near }
        } else if chain.publish_not_ready && endpoints.iter().any(|e| e.ready && !e.serving) {
            Msg::NotReadyButRouted {
                subject,
                probe,
                facts,
            }
        } else {
            Msg::NoEligibleEndpoint {
                subject,
                pods: pods.len(),
                probe,
                facts,
            }
        };
        // With no Pod selected there is no probe to doubt: what is unknown is the Pods not pasted.
        let mut cannot_establish: Vec<Message> = vec![Msg::DataPlane {}.into()];
        cannot_establish.extend(selects_nothing.then(|| Msg::PodsNotPasted {}.into()));
        cannot_establish.extend((!selects_nothing).then(|| Msg::WhyProbeFails {}.into()));
        cannot_establish.extend((business.0 == FactState::Unknown).then(|| Msg::NoRequestOutput {}.into()));
        let no_slice = chain
            .slices
            .is_empty()
            .then(|| Msg::NoSlice { subject: id.clone() });
        cannot_establish.extend(no_slice.map(Message::from));
        let slices = command!(
            "kubectl get endpointslices -n {} -l kubernetes.io/service-name={} -o yaml",
            ns,
            id.name
        );
        let request = command!("kubectl -n {} run probe-check --rm -i --restart=Never --image=curlimages/curl -- curl -sS -m 3 -o /dev/null -w '%{{http_code}}' http://{}/", ns, id.name);
        let next_steps = if let Some(workload) = scaled_to_zero {
            let (kind, name) = (workload.id.kind.to_ascii_lowercase(), &workload.id.name);
            vec![
                command!("kubectl get {} {} -n {}", kind, name, ns),
                command!("kubectl scale {} {} -n {} --replicas=1", kind, name, ns),
                slices,
            ]
        } else if selects_nothing {
            // No Pod to name: the Pods of the namespace with their labels, against the selector.
            let selector = command!(
                "kubectl get service {} -n {} -o jsonpath='{{.spec.selector}}'",
                id.name,
                ns
            );
            vec![
                slices,
                selector,
                command!("kubectl get pods -n {} --show-labels", ns),
                request,
            ]
        } else {
            let pod = pods.first().map_or("POD", |&p| model.objects[p].id.name.as_str());
            vec![
                slices,
                command!(
                    "kubectl get pod {} -n {} -o jsonpath='{{.spec.containers[*].readinessProbe}}'",
                    pod,
                    ns
                ),
                command!("kubectl describe pod {} -n {}", pod, ns),
                request,
            ]
        };
        findings.push(RULE.finding(
            Severity::Error,
            id.clone(),
            summary,
            evidence,
            cannot_establish,
            next_steps,
        ));
    }
    legacy_endpoints(model, findings);
}

/// The legacy Endpoints (with no ready address) of Services that the EndpointSlice chains did not
/// judge: the Service of the same name has no endpoint eligible for traffic.
fn legacy_endpoints(model: &Model<'_>, findings: &mut Vec<Finding>) {
    let judged: Vec<ObjectRef> = findings
        .iter()
        .filter(|f| f.rule == RULE.id)
        .map(|f| f.subject.clone())
        .collect();
    for legacy in model.endpoints_without_ready_address() {
        let id = &legacy.object.id;
        if judged
            .iter()
            .any(|s| s.name == id.name && s.namespace == id.namespace)
        {
            continue;
        }
        let service = model.service_of_endpoints(id);
        let (subject, endpoints) = (service.clone(), id.clone());
        let summary = match legacy.addresses {
            LegacyAddresses::None => Msg::LegacyNone { subject, endpoints },
            LegacyAddresses::OnlyNotReady(count) => Msg::LegacyNotReady {
                subject,
                endpoints,
                count,
            },
        };
        let ns = id.namespace.as_deref().unwrap_or(crate::UNKNOWN_NAMESPACE);
        let cannot_establish: Vec<Message> = vec![Msg::LegacyWhy {}.into(), Msg::DataPlane {}.into()];
        let next_steps = vec![
            command!("kubectl describe service {} -n {}", service.name, ns),
            command!(
                "kubectl get endpointslices -n {} -l kubernetes.io/service-name={} -o yaml",
                ns,
                service.name
            ),
            command!("kubectl get pods -n {} --show-labels", ns),
        ];
        findings.push(RULE.finding(
            Severity::Error,
            service,
            summary,
            legacy.evidence,
            cannot_establish,
            next_steps,
        ));
    }
}

faultline_report::messages! {
    /// The words of `service-endpoints-not-serving`.
    pub enum Msg {
        /// The Service selects the Pods of a workload scaled to 0; `facts` are its five facts.
        /// The Service's legacy Endpoints list no address at all.
        LegacyNone { subject: ObjectRef, endpoints: ObjectRef } = "service-endpoints-not-serving.legacy-none" {
            en: "{subject} has no endpoint: {endpoints} lists no address, so no Pod is eligible for its traffic. Its selector matches no Pod, the Pods it selects are not Ready, or it has no ports: the Service and its Pods say which.",
            zh: "{subject} 没有端点：{endpoints} 中一个地址也没有，所以没有任何 Pod 具备接收它的流量的资格。可能是它的选择算符匹配不到 Pod，可能是它选中的 Pod 未就绪，也可能是它没有端口：要看 Service 和它的 Pod。",
        },
        /// The Service's legacy Endpoints list addresses only under `notReadyAddresses`.
        LegacyNotReady { subject: ObjectRef, endpoints: ObjectRef, count: usize } = "service-endpoints-not-serving.legacy-not-ready" {
            en: {
                let addresses = if *count.0 == 1 { "1 address".to_string() } else { format!("{count} addresses") };
                format!("{subject} has no endpoint eligible for traffic: {endpoints} lists {addresses} only under notReadyAddresses, so the Pods it selects exist but are not Ready (a failing readiness probe, or still starting).")
            },
            zh: "{subject} 没有具备流量资格的端点：{endpoints} 只在 notReadyAddresses 下列出了 {count} 个地址，所以它选中的 Pod 存在，但没有就绪（就绪探针失败，或者仍在启动）。",
        },
        LegacyWhy {} = "service-endpoints-not-serving.legacy-why" {
            en: "Why the addresses are missing or not ready: the Endpoints say which Pods are eligible, not why; the Service's selector and ports and its Pods' readiness say why.",
            zh: "地址为什么缺失或未就绪：Endpoints 只说明哪些 Pod 具备资格，不说明原因；原因要看 Service 的选择算符和端口，以及它的 Pod 的就绪状态。",
        },
        ScaledToZero { subject: ObjectRef, workload: ObjectRef, facts: Vec<Message> } = "service-endpoints-not-serving.scaled-to-zero" {
            en: "{subject} has no endpoints because {workload} is scaled to 0 replicas: its selector matches that workload's Pods, and none runs. Five facts — {facts}.",
            zh: "{subject} 没有端点，因为 {workload} 被缩容到了 0 个副本：它的选择算符匹配的正是这个工作负载的 Pod，而这些 Pod 一个也没有运行。五个事实——{facts}。",
        },
        /// The Service's selector matches none of the pasted Pods; `facts` are its five facts.
        SelectsNothing { subject: ObjectRef, facts: Vec<Message>, near: Option<Box<Message>> } = "service-endpoints-not-serving.selects-nothing" {
            en: {
                let near = near.0.as_ref().map(|n| format!(" {}", n.render(faultline_report::lang::Lang::En))).unwrap_or_default();
                format!("{subject} selects no Pod among those pasted: its selector matches no labels, so it has no endpoints.{near} Five facts — {facts}.")
            },
            zh: {
                let near = near.0.as_ref().map(|n| n.render(faultline_report::lang::Lang::Zh)).unwrap_or_default();
                format!("{subject} 在粘贴的 Pod 中一个也没有选中：它的选择算符匹配不到任何 Pod 的标签，所以它没有端点。{near}五个事实——{facts}。")
            },
        },
        /// Pods that match every label of the selector but one (the first's key and values).
        NearMiss { pods: Vec<ObjectRef>, key: String, wanted: String, has: Option<String> } = "service-endpoints-not-serving.near-miss" {
            en: {
                let one = pods.0.len() == 1;
                let (verb, who) = if one { ("matches", "it has") } else { ("match", "they have") };
                let has = has.0.as_ref().map_or_else(|| format!("{who} no label {key}"), |h| format!("{who} {key}={h}"));
                format!("{pods} {verb} every label of the selector but one: the selector wants {key}={wanted}, {has} — the Service is wired to another version or name.")
            },
            zh: {
                let has = has.0.as_ref().map_or_else(|| format!("它们没有标签 {key}"), |h| format!("它们的是 {key}={h}"));
                format!("{pods} 与选择算符的标签只差一个：选择算符要求 {key}={wanted}，{has}——这个 Service 连向的是另一个版本或名字。")
            },
        },
        /// `publishNotReadyAddresses: true` routes traffic to Pods that are not ready; `probe` is the
        /// kubelet's readiness failure, verbatim.
        NotReadyButRouted { subject: ObjectRef, probe: Option<String>, facts: Vec<Message> } = "service-endpoints-not-serving.not-ready-but-routed" {
            en: {
                let probe = probe.0.as_ref().map(|p| format!(" (the readiness probe fails: {p})")).unwrap_or_default();
                format!("{subject} sends traffic to Pods that are not ready: with publishNotReadyAddresses=true its EndpointSlice marks their endpoints ready=true while serving=false{probe}. Five facts — {facts}.")
            },
            zh: {
                let probe = probe.0.as_ref().map(|p| format!("（就绪探针失败：{p}）")).unwrap_or_default();
                format!("{subject} 把流量发给了未就绪的 Pod：由于 publishNotReadyAddresses=true，它的 EndpointSlice 把这些 Pod 的端点标记为 ready=true，而它们是 serving=false{probe}。五个事实——{facts}。")
            },
        },
        /// The selected Pods are not Ready, so no endpoint is eligible for traffic.
        NoEligibleEndpoint { subject: ObjectRef, pods: usize, probe: Option<String>, facts: Vec<Message> } = "service-endpoints-not-serving.no-eligible-endpoint" {
            en: {
                let probe = probe.0.as_ref().map(|p| format!(" (the readiness probe fails: {p})")).unwrap_or_default();
                let selected = if *pods.0 == 1 { "the 1 Pod it selects is".to_string() } else { format!("the {pods} Pods it selects are") };
                format!("{subject} has no endpoint eligible for traffic: {selected} not Ready{probe}, so its EndpointSlice lists them with ready=false, serving=false. Five facts — {facts}.")
            },
            zh: {
                let probe = probe.0.as_ref().map(|p| format!("（就绪探针失败：{p}）")).unwrap_or_default();
                let they = if *pods.0 == 1 { "它没有就绪" } else { "它们都没有就绪" };
                format!("{subject} 没有具备流量资格的端点：Service 选中了 {pods} 个 Pod，但{they}（Ready 不为 True）{probe}，所以它的 EndpointSlice 以 ready=false、serving=false 列出这些端点。五个事实——{facts}。")
            },
        },
        Proven {} = "service-endpoints-not-serving.proven" {
            en: "proven",
            zh: "已证实",
        },
        Disproven {} = "service-endpoints-not-serving.disproven" {
            en: "disproven",
            zh: "已否定",
        },
        Unknown {} = "service-endpoints-not-serving.unknown" {
            en: "unknown",
            zh: "未知",
        },
        /// A fact (the article's words) and what the input says of it: proven, disproven or unknown.
        Scheduled { state: Box<Message> } = "service-endpoints-not-serving.scheduled" {
            en: "scheduled: {state}",
            zh: "已调度：{state}",
        },
        ContainerRunning { state: Box<Message> } = "service-endpoints-not-serving.container-running" {
            en: "container running: {state}",
            zh: "容器运行：{state}",
        },
        PodReady { state: Box<Message> } = "service-endpoints-not-serving.pod-ready" {
            en: "Pod ready: {state}",
            zh: "Pod 就绪：{state}",
        },
        SelectedByService { state: Box<Message> } = "service-endpoints-not-serving.selected-by-service" {
            en: "selected by a Service: {state}",
            zh: "Service 选中了 Pod：{state}",
        },
        AddressPresent { state: Box<Message> } = "service-endpoints-not-serving.address-present" {
            en: "address present: {state}",
            zh: "地址存在：{state}",
        },
        EligibleForTraffic { state: Box<Message> } = "service-endpoints-not-serving.eligible-for-traffic" {
            en: "eligible for traffic: {state}",
            zh: "流量资格：{state}",
        },
        BusinessResponse { state: Box<Message> } = "service-endpoints-not-serving.business-response" {
            en: "business response: {state}",
            zh: "业务响应：{state}",
        },
        DataPlane {} = "service-endpoints-not-serving.data-plane" {
            en: "Whether traffic flows through the data plane (kube-proxy, CNI, NetworkPolicy, DNS): endpoint conditions say what should receive traffic, not that it arrives.",
            zh: "流量能否经由数据面（kube-proxy、CNI、NetworkPolicy、DNS）到达：端点的状况只说明哪些端点应当接收流量，并不说明流量真的到了。",
        },
        PodsNotPasted {} = "service-endpoints-not-serving.pods-not-pasted" {
            en: "Whether Pods with the selector's labels exist but were not pasted: only the pasted Pods were compared with it.",
            zh: "是否有带着选择算符所要标签的 Pod 存在、只是没有粘贴进来：只有粘贴的 Pod 与它做了比较。",
        },
        WhyProbeFails {} = "service-endpoints-not-serving.why-probe-fails" {
            en: "Why the readiness probe fails: a probe aimed at the wrong path or port and an application that is not ready look the same from here.",
            zh: "就绪探针为什么失败：探针指向了错误的路径或端口，和应用确实没有就绪，从这里看是一样的。",
        },
        NoRequestOutput {} = "service-endpoints-not-serving.no-request-output" {
            en: "The business response: no request output was pasted, so whether clients get correct answers is unknown.",
            zh: "业务响应：没有粘贴请求的输出，因此客户端是否得到了正确的答复并不清楚。",
        },
        NoSlice { subject: ObjectRef } = "service-endpoints-not-serving.no-slice" {
            en: "No EndpointSlice of {subject} was pasted, so which addresses it lists and their conditions are unknown.",
            zh: "输入中没有 {subject} 的 EndpointSlice，因此它列出了哪些地址、这些地址的状况如何，都不清楚。",
        },
    }
}
