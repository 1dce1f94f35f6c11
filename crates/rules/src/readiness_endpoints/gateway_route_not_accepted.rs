use faultline_ingest::node::Node;
use faultline_ingest::Object;
use faultline_model::Model;
use faultline_report::{Boundary, Evidence, Finding, ObjectRef, Severity, Text};

crate::declare_rule! {
    /// ## What it finds
    /// Gateway API routes (`HTTPRoute`, `GRPCRoute`, `TLSRoute`, `TCPRoute`, `UDPRoute`) that a
    /// Gateway's controller did not take: a parent's `Accepted` condition `False`
    /// (`NoMatchingParent`, `NotAllowedByListeners`, `NoMatchingListenerHostname`), or its
    /// `ResolvedRefs` condition `False` (`BackendNotFound`, `RefNotPermitted`, `InvalidKind`,
    /// `UnsupportedProtocol`), with the controller's own message. A Gateway whose `Accepted` or
    /// `Programmed` condition is `False` (an unknown class, an address it could not get) too.
    ///
    /// ## Why it matters
    /// A route that is not accepted, or whose backend does not resolve, sends no traffic where it
    /// should: clients get 404s or 500s from the gateway while every Pod behind it is healthy, and
    /// the probes and the Services say nothing is wrong.
    ///
    /// ## Evidence
    /// The route's `status.parents[].conditions[]` (type, status, reason, message) and the parent
    /// Gateway it names; a Gateway's `status.conditions[]`.
    ///
    /// ## Fault boundary
    /// `readiness-endpoints`: the path from the gateway to the Service is not wired; the Pods and
    /// the nodes are not at fault.
    ///
    /// ## What this evidence cannot establish
    /// Whether the backend it names exists under another name or namespace (a ReferenceGrant
    /// missing), and whether the controller has reconciled the route's latest generation.
    ///
    /// ## Next evidence to collect
    /// `kubectl describe httproute NAME -n NAMESPACE`, the Gateway and its listeners
    /// (`kubectl get gateway -A -o wide`), the backend Service and any ReferenceGrant.
    ///
    /// ## Example
    /// ```yaml
    /// status:
    ///   parents:
    ///   - parentRef: {name: eg}
    ///     conditions:
    ///     - type: ResolvedRefs
    ///       status: "False"
    ///       reason: BackendNotFound
    /// ```
    pub const RULE = { id: "gateway-route-not-accepted", boundary: Boundary::ReadinessEndpoints, components: [ServiceSlice], check: check };
}

const ROUTES: [&str; 5] = ["HTTPRoute", "GRPCRoute", "TLSRoute", "TCPRoute", "UDPRoute"];

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    for object in model.objects.iter() {
        let kind = object.id.kind.as_str();
        let failed: Vec<(String, &Node)> = if ROUTES.contains(&kind) {
            let parents = object
                .locate("status.parents")
                .map(|(_, p)| p.items())
                .unwrap_or_default();
            parents
                .iter()
                .enumerate()
                .flat_map(|(i, parent)| {
                    failing(parent.get("conditions"), &["Accepted", "ResolvedRefs"])
                        .into_iter()
                        .map(move |(j, c)| (format!("status.parents[{i}].conditions[{j}]"), c))
                })
                .collect()
        } else if kind == "Gateway" {
            failing(
                object.locate("status.conditions").map(|(_, c)| c),
                &["Accepted", "Programmed"],
            )
            .into_iter()
            .map(|(j, c)| (format!("status.conditions[{j}]"), c))
            .collect()
        } else {
            continue;
        };
        let Some((path, condition)) = failed.first() else {
            continue;
        };
        findings.push(finding(model, object, path, condition));
    }
}

/// The conditions of `types` whose status is `False`, with their index.
fn failing<'n>(conditions: Option<&'n Node>, types: &[&str]) -> Vec<(usize, &'n Node)> {
    conditions
        .map(Node::items)
        .unwrap_or_default()
        .iter()
        .enumerate()
        .filter(|(_, c)| {
            c.get("type")
                .and_then(Node::as_str)
                .is_some_and(|t| types.contains(&t))
                && c.get("status").and_then(Node::as_str) == Some("False")
        })
        .collect()
}

fn finding(model: &Model<'_>, object: &Object, path: &str, condition: &Node) -> Finding {
    let field = |k: &str| condition.get(k).and_then(Node::as_str).unwrap_or_default();
    let mut evidence: Vec<Evidence> = Vec::new();
    for key in ["type", "status", "reason", "message"] {
        evidence.extend(model.evidence(object, &format!("{path}.{key}")));
    }
    let id = &object.id;
    let ns = id.namespace.as_deref().unwrap_or(crate::UNKNOWN_NAMESPACE);
    let kind = id.kind.to_lowercase();
    RULE.finding(
        Severity::Error,
        id.clone(),
        Msg::NotTaken {
            subject: id.clone(),
            condition: field("type").into(),
            reason: field("reason").into(),
            message: Some(field("message").to_string()).filter(|m| !m.is_empty()),
        },
        evidence,
        [Msg::Cannot {}],
        vec![
            command!("kubectl describe {} {} -n {}", kind, id.name, ns),
            "kubectl get gateway -A -o wide".to_string(),
            command!("kubectl get svc,referencegrant -n {}", ns),
        ],
    )
}

faultline_report::messages! {
    /// The words of `gateway-route-not-accepted`.
    pub enum Msg {
        NotTaken { subject: ObjectRef, condition: Text, reason: Text, message: Option<String> } = "gateway-route-not-accepted.not-taken" {
            en: {
                let message = message.0.as_ref().map(|m| format!(": \"{m}\"")).unwrap_or_default();
                format!("{subject} is not wired through its gateway: its {condition} condition is False ({reason}){message}. Traffic for it gets the gateway's 404 or 500, however healthy the Pods behind it are.")
            },
            zh: {
                let message = message.0.as_ref().map(|m| format!("：“{m}”")).unwrap_or_default();
                format!("{subject} 没有通过它的网关接通：它的 {condition} 状况为 False（{reason}）{message}。发往它的流量会得到网关的 404 或 500，无论后面的 Pod 多么健康。")
            },
        },
        Cannot {} = "gateway-route-not-accepted.cannot" {
            en: "Whether the backend exists under another name or namespace (a ReferenceGrant missing), and whether the controller has reconciled the latest generation.",
            zh: "后端是否以别的名字或在别的命名空间中存在（缺少 ReferenceGrant），以及控制器是否已经处理了最新版本。",
        },
    }
}
