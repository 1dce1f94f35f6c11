//! Who calls whom: a Pod whose container environment names a Service (`PRODUCT_CATALOG_ADDR=
//! productcatalogservice:3550`, `http://cart.shop.svc:7070`) calls it. Read once per model, for every
//! Pod, on first use ([`crate::Model::services_called`]).

use faultline_ingest::node::Node;
use faultline_report::hash::Map;
use faultline_report::ObjectRef;

use crate::Model;

/// The Service and namespace a value names, if it names an in-cluster host: `redis-cart:6379`,
/// `redis://redis-cart:6379/0`, `orders.shop.svc.cluster.local`, `orders.shop:80`; a single name
/// only in a `*_HOST` variable. `namespaces` are those the input has objects in (a two-label name is
/// a Service only when its second label is one of them).
pub fn service_of<'v>(
    name: &str,
    value: &'v str,
    own: &'v str,
    namespaces: &[&str],
) -> Option<(&'v str, &'v str)> {
    let value = value.trim();
    if value.contains("$(") || value.contains(char::is_whitespace) || value.contains(',') {
        return None;
    }
    let (scheme, rest) = match value.split_once("://") {
        Some((_, rest)) => (true, rest),
        None => (false, value),
    };
    let rest = rest.rsplit_once('@').map_or(rest, |(_, r)| r);
    let authority = rest.split(['/', '?', '#']).next()?;
    let (host, port) = match authority.rsplit_once(':') {
        Some((h, p)) if !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) => (h, true),
        Some(_) => return None,
        None => (authority, false),
    };
    let label = |l: &str| {
        !l.is_empty()
            && l.len() <= 63
            && l.starts_with(|c: char| c.is_ascii_lowercase())
            && l.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
            && !l.ends_with('-')
    };
    let labels: Vec<&str> = host.split('.').collect();
    if !labels.iter().all(|l| label(l)) || host == "localhost" {
        return None;
    }
    match labels.as_slice() {
        [service] => {
            let host_var = name.ends_with("_HOST") || name.ends_with("_HOSTNAME");
            (port || scheme || host_var).then_some((*service, own))
        }
        [service, namespace] => namespaces.contains(namespace).then_some((*service, *namespace)),
        _ => {
            let svc = labels.iter().position(|l| *l == "svc")?;
            match &labels[..svc] {
                [service, namespace] | [_, service, namespace] => Some((*service, *namespace)),
                _ => None,
            }
        }
    }
}

/// The pasted Services each Pod names in its containers' environment (init containers first), each
/// once, in the order named; Pods that name none are not in the map.
pub fn build(model: &Model<'_>) -> Map<ObjectRef, Vec<ObjectRef>> {
    let mut namespaces: Vec<&str> = model
        .objects
        .iter()
        .filter_map(|o| o.id.namespace.as_deref())
        .collect();
    namespaces.sort_unstable();
    namespaces.dedup();
    let mut out: Map<ObjectRef, Vec<ObjectRef>> = Map::default();
    for pod in model.objects_of_kind("Pod") {
        let own = pod.id.namespace.as_deref().unwrap_or("default");
        let Some(spec) = pod.node.get("spec") else {
            continue;
        };
        let mut called: Vec<ObjectRef> = Vec::new();
        for key in ["initContainers", "containers"] {
            for container in spec.get(key).map(Node::items).unwrap_or_default() {
                for env in container.get("env").map(Node::items).unwrap_or_default() {
                    let (Some(name), Some(value)) = (
                        env.get("name").and_then(Node::as_str),
                        env.get("value").and_then(Node::as_str),
                    ) else {
                        continue;
                    };
                    let Some((service, namespace)) = service_of(name, value, own, &namespaces) else {
                        continue;
                    };
                    let found = model
                        .objects_in(Some(namespace))
                        .find(|o| o.id.kind == "Service" && o.id.name == service);
                    if let Some(s) = found {
                        if !called.contains(&s.id) {
                            called.push(s.id.clone());
                        }
                    }
                }
            }
        }
        if !called.is_empty() {
            out.insert(pod.id.clone(), called);
        }
    }
    out
}
