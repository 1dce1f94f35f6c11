use faultline_model::client_output::{lines_containing, Scope};
use faultline_model::facts::{business_response, pod_ready, ready_evidence};
use faultline_model::Model;
use faultline_report::message::Message;
use faultline_report::{Boundary, Evidence, FactKind, FactState, Finding, ObjectRef, Severity};

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

/// How the summary words a fact's state.
fn word(state: FactState) -> Message {
    match state {
        FactState::Yes => Msg::Proven {},
        FactState::No => Msg::Disproven {},
        FactState::Unknown => Msg::Unknown {},
    }
    .into()
}

/// How the summary states a fact (the article's words) and what the input says of it.
fn fact(kind: FactKind, state: FactState) -> Message {
    let state = Box::new(word(state));
    match kind {
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
        let no_endpoints = pods.is_empty()
            && slices.iter().all(|&s| {
                model.objects[s]
                    .locate("endpoints")
                    .is_none_or(|(_, e)| e.items().is_empty())
            });
        // A workload scaled to 0 whose Pods the selector would select: nothing matches because
        // nothing runs, not because the labels are wrong (the Pods need not be pasted to say so).
        let scaled_to_zero = if no_endpoints {
            scaled_to_zero(model, service)
        } else {
            None
        };
        let selects_nothing = no_endpoints && (model.graph.inventory.has("Pod") || scaled_to_zero.is_some());
        let ready_but_not_serving =
            chain.publish_not_ready && endpoints.iter().any(|e| e.ready && !e.serving);
        if !(none_serving || not_ready_pods || selects_nothing) {
            continue;
        }

        let facts = chain.facts(model, &business);

        let mut evidence: Vec<Evidence> = Vec::new();
        if let Some(faultline_ingest::node::NodeValue::Map(entries)) =
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
        let ns = id.namespace.as_deref().unwrap_or(crate::UNKNOWN_NAMESPACE);
        // The kubelet's words after its prefix, verbatim.
        let probe = probes.first().map(|e| {
            e.message
                .trim_start_matches("Readiness probe failed: ")
                .to_string()
        });
        let facts: Vec<Message> = facts.iter().map(|f| fact(f.fact, f.state)).collect();
        if let Some(workload) = scaled_to_zero {
            evidence.extend(model.evidence(workload, "spec.replicas"));
        }
        let summary = if let Some(workload) = scaled_to_zero {
            Msg::ScaledToZero {
                subject: id.clone(),
                workload: workload.id.clone(),
                facts,
            }
        } else if selects_nothing {
            // Pods that miss the selector by one label: another version's, a renamed app.
            let near = faultline_model::selectors::near_misses(model, service, 3);
            for miss in &near {
                if let Some(pod) = model.object(&miss.pod) {
                    evidence.extend(model.evidence(pod, &format!("metadata.labels[\"{}\"]", miss.key)));
                }
            }
            Msg::SelectsNothing {
                subject: id.clone(),
                facts,
                near: near.first().map(|m| {
                    Msg::NearMiss {
                        pods: near.iter().map(|m| m.pod.clone()).collect(),
                        key: m.key.clone(),
                        wanted: m.wanted.clone(),
                        has: m.has.clone(),
                    }
                    .into_box()
                }),
            }
        } else if ready_but_not_serving {
            Msg::NotReadyButRouted {
                subject: id.clone(),
                probe,
                facts,
            }
        } else {
            Msg::NoEligibleEndpoint {
                subject: id.clone(),
                pods: pods.len(),
                probe,
                facts,
            }
        };

        let mut cannot_establish: Vec<Message> = vec![Msg::DataPlane {}.into()];
        // With no Pod selected there is no probe to doubt: what is unknown is the Pods not pasted.
        cannot_establish.push(if selects_nothing {
            Msg::PodsNotPasted {}.into()
        } else {
            Msg::WhyProbeFails {}.into()
        });
        if business.0 == FactState::Unknown {
            cannot_establish.push(Msg::NoRequestOutput {}.into());
        }
        if slices.is_empty() {
            cannot_establish.push(Msg::NoSlice { subject: id.clone() }.into());
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
        let next_steps = if let Some(workload) = scaled_to_zero {
            vec![
                command!(
                    "kubectl get {} {} -n {}",
                    workload.id.kind.to_ascii_lowercase(),
                    workload.id.name,
                    ns
                ),
                command!(
                    "kubectl scale {} {} -n {} --replicas=1",
                    workload.id.kind.to_ascii_lowercase(),
                    workload.id.name,
                    ns
                ),
                endpoint_slices,
            ]
        } else if selects_nothing {
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
    legacy_endpoints(model, findings);
}

/// What a legacy core/v1 Endpoints object says of its Service's addresses.
enum Addresses {
    /// None at all (`subsets` empty, `ENDPOINTS <none>`, `Addresses: <none>` without not-ready ones).
    None,
    /// Only `notReadyAddresses`: this many.
    OnlyNotReady(usize),
}

/// The legacy Endpoints of Services that the EndpointSlice chains did not judge: with no address or
/// only not-ready ones, the Service (of the same name) has no endpoint eligible for traffic. The
/// weakest evidence that proves it: the Endpoints alone, a `get endpoints` row's `<none>`.
fn legacy_endpoints(model: &Model<'_>, findings: &mut Vec<Finding>) {
    let judged: Vec<(Option<String>, String)> = findings
        .iter()
        .filter(|f| f.rule == RULE.id)
        .map(|f| {
            (
                f.subject.namespace.as_deref().map(str::to_string),
                f.subject.name.to_string(),
            )
        })
        .collect();
    let mut done: Vec<&ObjectRef> = Vec::new();
    for object in model.objects_of_kind("Endpoints") {
        let id = &object.id;
        if done.contains(&id)
            || judged.iter().any(|(ns, name)| *name == *id.name && ns.as_deref() == id.namespace.as_deref())
            // Leader election's lock object (old kube-scheduler, controller-manager): not a Service's.
            || (id.namespace.as_deref() == Some("kube-system")
                && matches!(id.name.as_str(), "kube-scheduler" | "kube-controller-manager"))
            || object
                .locate("metadata.annotations[\"control-plane.alpha.kubernetes.io/leader\"]")
                .is_some()
        {
            continue;
        }
        done.push(id);
        let mut evidence: Vec<Evidence> = Vec::new();
        let state = if let Some((_, printed)) = object.locate("kubectl.endpoints") {
            if printed.as_str().map(str::trim) != Some("<none>") {
                continue;
            }
            evidence.extend(model.evidence(object, "kubectl.endpoints"));
            Addresses::None
        } else {
            // YAML or JSON without `subsets`: the API omits the empty list.
            let subsets = object.locate("subsets").map_or(&[][..], |(_, s)| s.items());
            if subsets.is_empty() {
                evidence.extend(model.evidence(object, "metadata.name"));
            }
            let ready: usize = subsets
                .iter()
                .map(|s| s.get("addresses").map_or(0, |a| a.items().len()))
                .sum();
            let not_ready: usize = subsets
                .iter()
                .map(|s| s.get("notReadyAddresses").map_or(0, |a| a.items().len()))
                .sum();
            if ready > 0 {
                continue;
            }
            for i in 0..subsets.len() {
                evidence.extend(model.evidence(object, &format!("subsets[{i}].notReadyAddresses")));
            }
            evidence.extend(model.evidence(object, "subsets"));
            if not_ready > 0 {
                Addresses::OnlyNotReady(not_ready)
            } else {
                Addresses::None
            }
        };
        push(model, object, state, evidence, findings);
    }
}

fn push(
    model: &Model<'_>,
    object: &faultline_ingest::Object,
    state: Addresses,
    evidence: Vec<Evidence>,
    findings: &mut Vec<Finding>,
) {
    let id = &object.id;
    let service = model
        .objects_of_kind("Service")
        .find(|s| s.id.name == id.name && (s.id.namespace == id.namespace || id.namespace.is_none()))
        .map_or_else(
            || ObjectRef {
                kind: "Service".into(),
                namespace: id.namespace.clone(),
                name: id.name.clone(),
                uid: None,
            },
            |s| s.id.clone(),
        );
    let summary = match state {
        Addresses::None => Msg::LegacyNone {
            subject: service.clone(),
            endpoints: id.clone(),
        },
        Addresses::OnlyNotReady(count) => Msg::LegacyNotReady {
            subject: service.clone(),
            endpoints: id.clone(),
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
        evidence,
        cannot_establish,
        next_steps,
    ));
}

/// A Deployment or StatefulSet of the Service's namespace scaled to 0 (`spec.replicas: 0`, `READY
/// 0/0`, describe's `0 desired`) whose Pods the Service selects: its `matchLabels` hold every pair of
/// the Service's selector (its Pods carry them all, whatever else the template adds).
fn scaled_to_zero<'a>(
    model: &Model<'a>,
    service: &faultline_ingest::Object,
) -> Option<&'a faultline_ingest::Object> {
    use faultline_ingest::node::NodeValue;
    let pairs = |node: Option<&faultline_ingest::node::Node>| -> Vec<(String, String)> {
        match node.map(|n| &n.value) {
            Some(NodeValue::Map(entries)) => entries
                .iter()
                .filter_map(|e| Some((e.key.to_string(), e.value.as_str()?.to_string())))
                .collect(),
            _ => Vec::new(),
        }
    };
    let selector = pairs(service.locate("spec.selector").map(|(_, n)| n));
    if selector.is_empty() {
        return None;
    }
    let replicas = |o: &faultline_ingest::Object| {
        o.locate("spec.replicas")
            .and_then(|(_, n)| n.as_str())
            .and_then(|r| r.trim().parse::<u32>().ok())
    };
    let workloads = || {
        model
            .objects_in(service.id.namespace.as_deref())
            .filter(|o| matches!(o.id.kind.as_str(), "Deployment" | "StatefulSet"))
    };
    workloads().find(|o| {
        let labels = pairs(o.locate("spec.selector.matchLabels").map(|(_, n)| n));
        replicas(o) == Some(0)
            && selector.iter().all(|pair| labels.contains(pair))
            // Another paste of it (a later `get deploy`) scaled up again.
            && !workloads().any(|other| other.id == o.id && replicas(other).is_some_and(|r| r > 0))
    })
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
