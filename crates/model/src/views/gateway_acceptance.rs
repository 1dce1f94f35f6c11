//! Whether a Gateway API controller took a route or a Gateway, as their status says it: a route's
//! `status.parents[i].conditions` (`Accepted`, `ResolvedRefs`) and a Gateway's `status.conditions`
//! (`Accepted`, `Programmed`), which the controller of its class writes.

use faultline_ingest::node::Node;
use faultline_ingest::Object;
use faultline_report::Evidence;

use crate::Model;

/// The route kinds of the Gateway API.
const ROUTES: [&str; 5] = ["HTTPRoute", "GRPCRoute", "TLSRoute", "TCPRoute", "UDPRoute"];

/// The first condition of a route or Gateway that says its controller did not take it
/// (`status: "False"`), with its path (`status.parents[0].conditions[1]`) and words.
#[derive(Debug)]
pub struct GatewayRejection<'a> {
    pub object: &'a Object,
    pub path: String,
    pub type_: &'a str,
    pub reason: &'a str,
    pub message: &'a str,
}

impl GatewayRejection<'_> {
    /// The condition's type, status, reason and message, as evidence.
    pub fn evidence(&self, model: &Model<'_>) -> Vec<Evidence> {
        ["type", "status", "reason", "message"]
            .into_iter()
            .filter_map(|key| model.evidence(self.object, &format!("{}.{key}", self.path)))
            .collect()
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

/// The first condition of `object` that says it was not taken, if it is a route or a Gateway.
fn rejection(object: &Object) -> Option<GatewayRejection<'_>> {
    let kind = object.id.kind.as_str();
    let (path, condition) = if ROUTES.contains(&kind) {
        let parents = object
            .locate("status.parents")
            .map(|(_, p)| p.items())
            .unwrap_or_default();
        parents.iter().enumerate().find_map(|(i, parent)| {
            let (j, c) = *failing(parent.get("conditions"), &["Accepted", "ResolvedRefs"]).first()?;
            Some((format!("status.parents[{i}].conditions[{j}]"), c))
        })?
    } else if kind == "Gateway" {
        let conditions = object.locate("status.conditions").map(|(_, c)| c);
        let (j, c) = *failing(conditions, &["Accepted", "Programmed"]).first()?;
        (format!("status.conditions[{j}]"), c)
    } else {
        return None;
    };
    let field = |k: &str| condition.get(k).and_then(Node::as_str).unwrap_or_default();
    Some(GatewayRejection {
        object,
        path,
        type_: field("type"),
        reason: field("reason"),
        message: field("message"),
    })
}

impl<'a> Model<'a> {
    /// Every route and Gateway whose controller did not take it, with its first such condition, in
    /// input order.
    pub fn gateway_rejections(&self) -> Vec<GatewayRejection<'a>> {
        self.objects.iter().filter_map(rejection).collect()
    }
}

#[cfg(test)]
mod tests {
    use faultline_ingest::{ingest, Source};

    use crate::Model;

    const ROUTE: &str = "\
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: web, namespace: shop}
status:
  parents:
  - parentRef: {name: public}
    conditions:
    - type: Accepted
      status: \"True\"
      reason: Accepted
    - type: ResolvedRefs
      status: \"False\"
      reason: BackendNotFound
      message: Service shop/web-v2 not found
";

    #[test]
    fn reads_the_first_condition_not_taken() {
        let sources = vec![Source::new("route.yaml", ROUTE)];
        let ingested = ingest(&sources);
        let model = Model::build(&sources, &ingested);
        let rejections = model.gateway_rejections();
        assert_eq!(rejections.len(), 1);
        let r = &rejections[0];
        assert_eq!(r.path, "status.parents[0].conditions[1]");
        assert_eq!((r.type_, r.reason), ("ResolvedRefs", "BackendNotFound"));
        assert_eq!(r.message, "Service shop/web-v2 not found");
    }
}
