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

/// The Services each Pod calls, each once, in the order named: those its containers' environment
/// names (init containers first; the pasted Service, or the name alone where the input has no
/// Service of that name — one that was never created, say), then the host its log's last error
/// could not reach (`lookup cartservice on 10.96.0.10:53: no such host`). Pods that name none are
/// not in the map.
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
        // A Pod known from a table row has no spec: its log alone may say what it calls.
        let spec = pod.node.get("spec");
        let mut called: Vec<ObjectRef> = Vec::new();
        for key in ["initContainers", "containers"] {
            for container in spec.and_then(|s| s.get(key)).map(Node::items).unwrap_or_default() {
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
                    let id = found.map_or_else(|| named(service, Some(namespace)), |s| s.id.clone());
                    if !called.contains(&id) {
                        called.push(id);
                    }
                }
            }
        }
        logged(model, &pod.id, &mut called);
        if !called.is_empty() {
            out.insert(pod.id.clone(), called);
        }
    }
    out
}

/// The Service of the host a Pod's log ends unable to reach (its last error's dependency: a host
/// that did not resolve, an address refused), when it is an in-cluster name (one label, or
/// `name.namespace[.svc…]`).
fn logged(model: &Model<'_>, pod: &ObjectRef, called: &mut Vec<ObjectRef>) {
    use faultline_ingest::log_errors::DepKind;
    for (block, _) in model.logs_for(pod, "", true) {
        let Some((DepKind::Host | DepKind::Address, dependency)) =
            block.terminal.as_ref().and_then(|t| t.dependency.as_ref())
        else {
            continue;
        };
        let host = dependency
            .rsplit_once(':')
            .map_or(dependency.as_str(), |(h, _)| h);
        let mut labels = host.split('.');
        let (Some(service), namespace) = (labels.next(), labels.next()) else {
            continue;
        };
        let in_cluster = namespace.is_none() || host.contains(".svc");
        if service.is_empty()
            || !in_cluster
            || service.parse::<std::net::Ipv4Addr>().is_ok()
            || service.bytes().all(|b| b.is_ascii_digit())
        {
            continue;
        }
        let namespace = namespace.or(pod.namespace.as_deref());
        let found = model
            .objects_in(namespace)
            .find(|o| o.id.kind == "Service" && o.id.name == service);
        let id = found.map_or_else(|| named(service, namespace), |s| s.id.clone());
        if !called.contains(&id) {
            called.push(id);
        }
    }
}

fn named(service: &str, namespace: Option<&str>) -> ObjectRef {
    ObjectRef {
        kind: "Service".into(),
        namespace: namespace.map(Into::into),
        name: service.into(),
        uid: None,
    }
}
