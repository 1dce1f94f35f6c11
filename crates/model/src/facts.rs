//! The article's five facts (experiment 3): container running, Pod ready, address present, eligible
//! for traffic, business response — each proven, disproven or unknown from the input, with the
//! evidence that states it. Computed once here, for every Service (the chain Service → EndpointSlice
//! → endpoint → Pod) and for every Pod (its side of the same chain), and read both by the rule
//! `service-endpoints-not-serving` and by the report's object graph, so the two never disagree.

use faultline_report::hash::Map;

use crate::client_output::{http_statuses, lines_containing, output_line, Scope};
use crate::graph::{EdgeKind, Graph, Target};
use crate::Model;
use faultline_ingest::node::{Node, NodeValue};
use faultline_ingest::{Object, Typed};
use faultline_report::{Evidence, Fact, FactKind, FactState};

/// Evidence listed per fact at most: the disproving first, so a Service of 120 Pods stays short.
const EVIDENCE_PER_FACT: usize = 3;

/// One endpoint of an EndpointSlice, its conditions read with the API's defaults for absent ones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Endpoint {
    /// The slice (index into the model's objects).
    pub slice: usize,
    /// `endpoints[i]`.
    pub path: String,
    /// Absent reads as true.
    pub ready: bool,
    /// Absent reads as true.
    pub serving: bool,
    /// The Pod its `targetRef` names, when pasted.
    pub pod: Option<usize>,
}

/// A Service and what it reaches: the Pods its selector matches, its EndpointSlices and their
/// endpoints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServiceChain {
    pub service: usize,
    pub pods: Vec<usize>,
    pub slices: Vec<usize>,
    pub endpoints: Vec<Endpoint>,
    pub publish_not_ready: bool,
}

/// Reads an endpoint condition: `true`/`false` as written, `None` when absent or unreadable.
pub fn condition(node: Option<&Node>) -> Option<bool> {
    match node.and_then(Node::as_str) {
        Some("true") => Some(true),
        Some("false") => Some(false),
        _ => None,
    }
}

/// Whether a Service has a selector (one without has hand-made endpoints: no chain to follow).
pub fn has_selector(service: &Object) -> bool {
    service
        .locate("spec.selector")
        .is_some_and(|(_, s)| !matches!(s.value, NodeValue::Null) && s.entry_count() > 0)
}

/// Every Service with a selector, with its chain, in input order.
pub fn service_chains(objects: &[Object], graph: &Graph) -> Vec<ServiceChain> {
    // EndpointSlices by the Service they belong to, once (not a scan of every edge per Service).
    let mut slices_of: Map<usize, Vec<usize>> = Map::default();
    for edge in &graph.edges {
        if let (EdgeKind::EndpointsOf, Target::Object(service)) = (edge.kind, &edge.to) {
            if objects[edge.from].id.kind == "EndpointSlice" {
                slices_of.entry(*service).or_default().push(edge.from);
            }
        }
    }
    objects
        .iter()
        .enumerate()
        .filter(|(_, o)| o.id.kind == "Service" && has_selector(o))
        .map(|(service, object)| {
            let pods = graph
                .edges_from(service)
                .filter(|e| e.kind == EdgeKind::Selects)
                .filter_map(|e| match e.to {
                    Target::Object(i) => Some(i),
                    Target::Missing(_) => None,
                })
                .collect();
            let slices = slices_of.remove(&service).unwrap_or_default();
            let mut endpoints = Vec::new();
            for &slice in &slices {
                for (i, endpoint) in objects[slice]
                    .locate("endpoints")
                    .map(|(_, e)| e.items())
                    .unwrap_or_default()
                    .iter()
                    .enumerate()
                {
                    let path = format!("endpoints[{i}]");
                    let target_path = format!("{path}.targetRef");
                    let conditions = endpoint.get("conditions");
                    let pod = graph
                        .edges_from(slice)
                        .find(|e| e.kind == EdgeKind::EndpointIs && e.path == target_path)
                        .and_then(|e| match e.to {
                            Target::Object(p) => Some(p),
                            Target::Missing(_) => None,
                        });
                    endpoints.push(Endpoint {
                        slice,
                        ready: condition(conditions.and_then(|c| c.get("ready"))).unwrap_or(true),
                        serving: condition(conditions.and_then(|c| c.get("serving"))).unwrap_or(true),
                        pod,
                        path,
                    });
                }
            }
            ServiceChain {
                service,
                pods,
                slices,
                endpoints,
                publish_not_ready: condition(object.locate("spec.publishNotReadyAddresses").map(|(_, n)| n))
                    .unwrap_or(false),
            }
        })
        .collect()
}

/// All true: yes; any false: no; nothing known (or nothing to know): unknown.
fn all(values: impl IntoIterator<Item = Option<bool>>) -> FactState {
    let values: Vec<Option<bool>> = values.into_iter().collect();
    if values.contains(&Some(false)) {
        FactState::No
    } else if !values.is_empty() && values.iter().all(|v| *v == Some(true)) {
        FactState::Yes
    } else {
        FactState::Unknown
    }
}

/// The Pod's `Ready` condition: true, false, or not stated.
pub fn pod_ready(model: &Model<'_>, pod: usize) -> Option<bool> {
    let Typed::Pod(typed) = &model.objects.get(pod)?.typed else {
        return None;
    };
    typed
        .status
        .as_ref()?
        .conditions
        .as_ref()?
        .iter()
        .find(|c| c.type_ == "Ready")
        .map(|c| c.status == "True")
}

/// Whether every container of the Pod is running; not stated without container statuses.
pub fn containers_running(model: &Model<'_>, pod: usize) -> Option<bool> {
    let Typed::Pod(typed) = &model.objects.get(pod)?.typed else {
        return None;
    };
    let statuses = typed.status.as_ref()?.container_statuses.as_ref()?;
    Some(
        !statuses.is_empty()
            && statuses
                .iter()
                .all(|c| c.state.as_ref().is_some_and(|s| s.running.is_some())),
    )
}

/// Evidence of the Ready condition's status.
pub fn ready_evidence(model: &Model<'_>, pod: usize) -> Option<Evidence> {
    let object = model.objects.get(pod)?;
    let Typed::Pod(typed) = &object.typed else {
        return None;
    };
    let i = typed
        .status
        .as_ref()?
        .conditions
        .as_ref()?
        .iter()
        .position(|c| c.type_ == "Ready")?;
    model.evidence(object, &format!("status.conditions[{i}].status"))
}

/// Evidence of the first container that is not running (or, when all run, of the first one).
fn running_evidence(model: &Model<'_>, pod: usize) -> Option<Evidence> {
    let object = model.objects.get(pod)?;
    let (_, statuses) = object.locate("status.containerStatuses")?;
    let state_of = |i: usize, status: &Node| -> Option<Evidence> {
        let at = format!("status.containerStatuses[{i}].state");
        [
            "waiting.reason",
            "terminated.reason",
            "running.startedAt",
            "running",
        ]
        .iter()
        .filter(|field| status.locate(&format!("state.{field}")).is_some())
        .find_map(|field| model.evidence(object, &format!("{at}.{field}")))
        // No state written (a container not created yet): the container itself.
        .or_else(|| model.evidence(object, &format!("status.containerStatuses[{i}].name")))
    };
    let items = statuses.items();
    items
        .iter()
        .enumerate()
        .find(|(_, s)| s.locate("state.running").is_none())
        .or_else(|| items.iter().enumerate().next())
        .and_then(|(i, s)| state_of(i, s))
}

/// Evidence for a fact over several Pods: the ones with `bad` first, at most a few.
fn pods_evidence(
    pods: &[usize],
    value: impl Fn(usize) -> Option<bool>,
    evidence: impl Fn(usize) -> Option<Evidence>,
) -> Vec<Evidence> {
    let mut ordered: Vec<usize> = pods
        .iter()
        .copied()
        .filter(|&p| value(p) == Some(false))
        .collect();
    ordered.extend(pods.iter().copied().filter(|&p| value(p) == Some(true)));
    ordered
        .into_iter()
        .filter_map(evidence)
        .take(EVIDENCE_PER_FACT)
        .collect()
}

fn fact(fact: FactKind, state: FactState, evidence: Vec<Evidence>, objects: Vec<usize>) -> Fact {
    // An unknown fact cites nothing: evidence is what states a yes or a no.
    let evidence = if state == FactState::Unknown {
        Vec::new()
    } else {
        evidence
    };
    Fact {
        fact,
        state,
        evidence,
        objects,
    }
}

fn endpoint_evidence(model: &Model<'_>, endpoints: &[&Endpoint]) -> Vec<Evidence> {
    let mut ordered: Vec<&&Endpoint> = endpoints.iter().filter(|e| !e.ready).collect();
    ordered.extend(endpoints.iter().filter(|e| e.ready));
    ordered
        .into_iter()
        .filter_map(|e| {
            let slice = &model.objects[e.slice];
            model
                .evidence(slice, &format!("{}.conditions.ready", e.path))
                .or_else(|| model.evidence(slice, &e.path))
        })
        .take(EVIDENCE_PER_FACT)
        .collect()
}

/// Whether pasted request output shows the application answering: any failure disproves it.
///
/// HTTP statuses are ingest's records ([`http_statuses`]), the same the rule `http-server-errors`
/// reads: a 5xx disproves it — a proxy's no-backend page too, since the client got no answer either
/// way (the rule leaves those to the endpoint rules; this fact is about what the client got) — and a
/// 2xx or 3xx proves it. A request that got no answer at all (curl's own error, a refused
/// connection, the client Pod ending in error) disproves it too: those are read from the text.
pub fn business_response(model: &Model<'_>) -> (FactState, Vec<Evidence>) {
    let status_evidence = |(output, status): (
        &faultline_ingest::CommandOutput,
        &faultline_ingest::http::HttpStatus,
    )| { output_line(model, output, status.offset) };
    let mut failed: Vec<Evidence> = http_statuses(model)
        .filter(|(_, s)| s.is_server_error())
        .map(status_evidence)
        .collect();
    failed.extend(lines_containing(
        model,
        &["curl: (", "Connection refused", "terminated (Error)"],
        Scope::ClientOutput,
    ));
    if !failed.is_empty() {
        failed.sort_by(|a, b| (&a.source, a.line).cmp(&(&b.source, b.line)));
        failed.dedup();
        return (
            FactState::No,
            failed.into_iter().take(EVIDENCE_PER_FACT).collect(),
        );
    }
    let succeeded: Vec<Evidence> = http_statuses(model)
        .filter(|(_, s)| s.is_answer())
        .map(status_evidence)
        .take(EVIDENCE_PER_FACT)
        .collect();
    if succeeded.is_empty() {
        (FactState::Unknown, Vec::new())
    } else {
        (FactState::Yes, succeeded)
    }
}

impl ServiceChain {
    /// The Service's five facts, in the article's order. Object indices are the model's.
    pub fn facts(&self, model: &Model<'_>, business: &(FactState, Vec<Evidence>)) -> Vec<Fact> {
        let pods = &self.pods;
        let running = fact(
            FactKind::ContainerRunning,
            all(pods.iter().map(|&p| containers_running(model, p))),
            pods_evidence(
                pods,
                |p| containers_running(model, p),
                |p| running_evidence(model, p),
            ),
            Vec::new(),
        );
        let ready = fact(
            FactKind::PodReady,
            all(pods.iter().map(|&p| pod_ready(model, p))),
            pods_evidence(pods, |p| pod_ready(model, p), |p| ready_evidence(model, p)),
            Vec::new(),
        );
        let listed = |p: usize| self.endpoints.iter().any(|e| e.pod == Some(p));
        let address = if self.slices.is_empty() {
            fact(
                FactKind::AddressPresent,
                FactState::Unknown,
                Vec::new(),
                Vec::new(),
            )
        } else {
            let state = all(pods.iter().map(|&p| Some(listed(p))));
            let cited: Vec<Evidence> = self
                .endpoints
                .iter()
                .filter_map(|e| {
                    let slice = &model.objects[e.slice];
                    model
                        .evidence(slice, &format!("{}.targetRef.name", e.path))
                        .or_else(|| model.evidence(slice, &e.path))
                })
                .take(EVIDENCE_PER_FACT)
                .collect();
            let cited = if cited.is_empty() {
                // No endpoint at all: the slice itself says so.
                self.slices
                    .iter()
                    .filter_map(|&s| model.evidence(&model.objects[s], "metadata.name"))
                    .take(EVIDENCE_PER_FACT)
                    .collect()
            } else {
                cited
            };
            fact(FactKind::AddressPresent, state, cited, self.slices.clone())
        };
        let eligible = if self.endpoints.is_empty() {
            fact(
                FactKind::EligibleForTraffic,
                FactState::Unknown,
                Vec::new(),
                Vec::new(),
            )
        } else {
            // kube-proxy routes to `ready` endpoints (`serving` matters only while terminating):
            // with publishNotReadyAddresses a not-ready Pod is eligible.
            let endpoints: Vec<&Endpoint> = self.endpoints.iter().collect();
            fact(
                FactKind::EligibleForTraffic,
                all(self.endpoints.iter().map(|e| Some(e.ready))),
                endpoint_evidence(model, &endpoints),
                self.slices.clone(),
            )
        };
        let business = fact(
            FactKind::BusinessResponse,
            business.0,
            business.1.clone(),
            Vec::new(),
        );
        vec![running, ready, address, eligible, business]
    }
}

/// The Service chains seen from the Pods' side: which chains select each Pod, which endpoints name
/// it, which namespaces have Services. Built once, so each Pod's facts do not scan every chain (that
/// was quadratic on a large cluster). Lists keep the chains' order.
pub struct PodSide<'c> {
    selecting: Map<usize, Vec<&'c ServiceChain>>,
    listed: Map<usize, Vec<&'c Endpoint>>,
    namespaces: faultline_report::hash::Set<Option<&'c str>>,
}

impl<'c> PodSide<'c> {
    pub fn new(model: &'c Model<'_>, chains: &'c [ServiceChain]) -> Self {
        let mut side = PodSide {
            selecting: Map::default(),
            listed: Map::default(),
            namespaces: faultline_report::hash::Set::default(),
        };
        for chain in chains {
            for &pod in &chain.pods {
                let list = side.selecting.entry(pod).or_default();
                if !list.iter().any(|c| std::ptr::eq(*c, chain)) {
                    list.push(chain);
                }
            }
            for endpoint in &chain.endpoints {
                if let Some(pod) = endpoint.pod {
                    side.listed.entry(pod).or_default().push(endpoint);
                }
            }
            side.namespaces
                .insert(model.objects[chain.service].id.namespace.as_deref());
        }
        side
    }
}

/// A Pod's side of the chain: scheduled, containers running, Ready, selected by which Services,
/// listed as a ready endpoint in which EndpointSlices. Object indices are the model's.
pub fn pod_facts(model: &Model<'_>, side: &PodSide<'_>, pod: usize) -> Vec<Fact> {
    let object = &model.objects[pod];
    let node_name = model
        .evidence(object, "spec.nodeName")
        .filter(|e| !e.value.trim().is_empty());
    let scheduled_condition = match &object.typed {
        Typed::Pod(typed) => typed
            .status
            .as_ref()
            .and_then(|s| s.conditions.as_ref())
            .and_then(|c| {
                c.iter()
                    .position(|c| c.type_ == "PodScheduled")
                    .map(|i| (i, c[i].status == "True"))
            }),
        _ => None,
    };
    let scheduled = match (node_name, scheduled_condition) {
        (Some(e), _) => fact(FactKind::Scheduled, FactState::Yes, vec![e], Vec::new()),
        (None, Some((i, value))) => fact(
            FactKind::Scheduled,
            if value { FactState::Yes } else { FactState::No },
            model
                .evidence(object, &format!("status.conditions[{i}].status"))
                .into_iter()
                .collect(),
            Vec::new(),
        ),
        (None, None) => fact(FactKind::Scheduled, FactState::Unknown, Vec::new(), Vec::new()),
    };
    let one = [pod];
    let running = fact(
        FactKind::ContainerRunning,
        all([containers_running(model, pod)]),
        pods_evidence(
            &one,
            |p| containers_running(model, p),
            |p| running_evidence(model, p),
        ),
        Vec::new(),
    );
    let ready = fact(
        FactKind::PodReady,
        all([pod_ready(model, pod)]),
        pods_evidence(&one, |p| pod_ready(model, p), |p| ready_evidence(model, p)),
        Vec::new(),
    );
    let selecting: Vec<&ServiceChain> = side.selecting.get(&pod).cloned().unwrap_or_default();
    let selected = if !selecting.is_empty() {
        fact(
            FactKind::SelectedByService,
            FactState::Yes,
            selecting
                .iter()
                .filter_map(|c| model.evidence(&model.objects[c.service], "spec.selector"))
                .take(EVIDENCE_PER_FACT)
                .collect(),
            selecting.iter().map(|c| c.service).collect(),
        )
    } else if side.namespaces.contains(&object.id.namespace.as_deref()) {
        // Services of its namespace were pasted and none selects it (others may exist).
        fact(FactKind::SelectedByService, FactState::No, Vec::new(), Vec::new())
    } else {
        fact(
            FactKind::SelectedByService,
            FactState::Unknown,
            Vec::new(),
            Vec::new(),
        )
    };
    let listed: Vec<&Endpoint> = side.listed.get(&pod).cloned().unwrap_or_default();
    let mut slices: Vec<usize> = listed.iter().map(|e| e.slice).collect();
    slices.dedup();
    let eligible = if listed.iter().any(|e| e.ready) {
        fact(
            FactKind::EligibleForTraffic,
            FactState::Yes,
            endpoint_evidence(
                model,
                &listed.iter().copied().filter(|e| e.ready).collect::<Vec<_>>(),
            ),
            slices,
        )
    } else if !listed.is_empty() {
        fact(
            FactKind::EligibleForTraffic,
            FactState::No,
            endpoint_evidence(model, &listed),
            slices,
        )
    } else if selecting.iter().any(|c| !c.slices.is_empty()) {
        // Its Service's slices were pasted and do not list it.
        let slices: Vec<usize> = selecting.iter().flat_map(|c| c.slices.iter().copied()).collect();
        fact(
            FactKind::EligibleForTraffic,
            FactState::No,
            slices
                .iter()
                .filter_map(|&s| model.evidence(&model.objects[s], "metadata.name"))
                .take(EVIDENCE_PER_FACT)
                .collect(),
            slices,
        )
    } else {
        fact(
            FactKind::EligibleForTraffic,
            FactState::Unknown,
            Vec::new(),
            Vec::new(),
        )
    };
    vec![scheduled, running, ready, selected, eligible]
}

#[cfg(test)]
mod tests {
    use super::business_response;
    use crate::Model;
    use faultline_ingest::{ingest, Source};
    use faultline_report::FactState;

    fn business(text: &str) -> (FactState, Vec<u32>) {
        let sources = [Source::new("requests.txt", text)];
        let ingested = ingest(&sources);
        let model = Model::build(&sources, &ingested);
        let (state, evidence) = business_response(&model);
        (state, evidence.iter().map(|e| e.line).collect())
    }

    /// The fact reads the statuses the rule `http-server-errors` reads, so formats the old substring
    /// search missed (wget, a written-out code, an access log, HTTP/1.0) answer the same way.
    #[test]
    fn every_status_format_the_rule_reads_decides_the_business_response() {
        let wget = "$ kubectl exec -n shop deploy/frontend -- wget -O- http://checkout:8080/\n\
                    Connecting to checkout:8080\n\
                    wget: server returned error: HTTP/1.1 500 Internal Server Error\n";
        assert_eq!(business(wget), (FactState::No, vec![3]));
        let codes = "$ curl -s -o /dev/null -w '%{http_code}\\n' http://checkout.shop.svc:8080/\n204\n";
        assert_eq!(business(codes), (FactState::Yes, vec![2]));
        let old = "$ curl -i http://checkout.shop.svc:8080/\nHTTP/1.0 503 Service Unavailable\n";
        assert_eq!(business(old).0, FactState::No);
        // A proxy's no-backend page: the client got no answer, so the business response failed,
        // though the rule leaves it to the endpoint rules.
        let proxy =
            "$ curl -sS -i https://shop.example.com/api\nHTTP/2 503\nserver: envoy\n\nno healthy upstream\n";
        assert_eq!(business(proxy), (FactState::No, vec![2]));
        // A status line that is an API server's answer (`kubectl get --raw`) is not the application's.
        let api = "$ kubectl get --raw /readyz -v=8\nHTTP/1.1 500 Internal Server Error\n";
        assert_eq!(business(api).0, FactState::Unknown);
    }
}
