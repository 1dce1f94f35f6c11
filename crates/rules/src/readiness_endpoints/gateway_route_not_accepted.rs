use faultline_model::Model;
use faultline_report::{Boundary, Finding, ObjectRef, Severity, Text};

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

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    for rejection in model.gateway_rejections() {
        let id = &rejection.object.id;
        let ns = id.namespace.as_deref().unwrap_or(crate::UNKNOWN_NAMESPACE);
        let summary = Msg::NotTaken {
            subject: id.clone(),
            condition: rejection.type_.into(),
            reason: rejection.reason.into(),
            message: Some(rejection.message.to_string()).filter(|m| !m.is_empty()),
        };
        let next_steps = vec![
            command!(
                "kubectl describe {} {} -n {}",
                id.kind.to_lowercase(),
                id.name,
                ns
            ),
            "kubectl get gateway -A -o wide".to_string(),
            command!("kubectl get svc,referencegrant -n {}", ns),
        ];
        let evidence = rejection.evidence(model);
        findings.push(RULE.finding(
            Severity::Error,
            id.clone(),
            summary,
            evidence,
            [Msg::Cannot {}],
            next_steps,
        ));
    }
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
