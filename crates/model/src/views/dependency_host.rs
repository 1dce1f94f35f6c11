//! What the pasted objects say of a host an application's log names as a dependency: the Service of
//! that name or ClusterIP (its ports, its ready endpoints), the Pods of the workload named like it, and
//! the ConfigMap keys that hold the name; and the port an env var's address names.

use faultline_ingest::node::{Node, NodeValue};
use faultline_ingest::Object;
use faultline_report::ObjectRef;

use crate::Model;

impl<'m> Model<'m> {
    /// The namespace of the input's objects, when they all have one and the same.
    pub fn only_namespace(&self) -> Option<String> {
        let mut namespaces = self.objects.iter().filter_map(|o| o.id.namespace.as_deref());
        let first = namespaces.next()?;
        namespaces.all(|n| n == first).then(|| first.to_string())
    }

    /// The pasted Service a host names, as a name (`prod-db`, `prod-db.shop`,
    /// `prod-db.shop.svc.cluster.local`) or as a ClusterIP.
    pub fn service_of_host(&self, host: &str, namespace: Option<&str>) -> Option<&'m Object> {
        if host.parse::<std::net::IpAddr>().is_ok() {
            return self
                .objects_of_kind("Service")
                .find(|s| s.node.locate("spec.clusterIP").and_then(|(_, n)| n.as_str()) == Some(host));
        }
        let (name, ns) = self.in_cluster_host(host, namespace)?;
        self.objects_in(Some(ns.as_str()))
            .find(|o| o.id.kind == "Service" && o.id.name == name)
    }

    /// The Service name and namespace of a host that names an in-cluster Service: one label (in
    /// `namespace`), `name.namespace` (a namespace the input holds objects of), or a `….svc…` name.
    pub fn in_cluster_host(&self, host: &str, namespace: Option<&str>) -> Option<(String, String)> {
        let labels: Vec<&str> = host.split('.').collect();
        let svc = labels.iter().position(|l| *l == "svc");
        match (labels.as_slice(), svc) {
            ([name], _) => Some((name.to_string(), namespace?.to_string())),
            ([name, ns, ..], Some(2)) => Some((name.to_string(), ns.to_string())),
            ([name, ns], None) if self.objects_in(Some(ns)).next().is_some() => {
                Some((name.to_string(), ns.to_string()))
            }
            _ => None,
        }
    }

    /// How many of a pasted Service's endpoints are ready, and whether any EndpointSlice of it is
    /// pasted (`None`: the Service is not in [`Model::services`], it has no selector).
    pub fn service_ready_endpoints(&self, service: &Object) -> (Option<usize>, bool) {
        let chain = self
            .services
            .iter()
            .find(|c| self.objects[c.service].id == service.id);
        let ready = chain.map(|c| c.endpoints.iter().filter(|e| e.ready).count());
        (ready, chain.is_some_and(|c| !c.slices.is_empty()))
    }

    /// The pasted Pods of the workload a host is named after (`katib-mysql` →
    /// `katib-mysql-6d8b7f5d9-x2k9p`, `redis` → `redis-0`), other than the caller's own.
    pub fn pods_named_after(&self, name: &str, namespace: &str, who: Option<&ObjectRef>) -> Vec<&'m Object> {
        let generated = |rest: &str| {
            let parts: Vec<&str> = rest.split('-').collect();
            (1..=2).contains(&parts.len())
                && parts.iter().all(|p| {
                    !p.is_empty()
                        && p.len() <= 10
                        && p.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
                })
        };
        self.objects_in(Some(namespace))
            .filter(|o| o.id.kind == "Pod" && Some(&o.id) != who)
            .filter(|o| {
                o.id.name == name
                    || o.id
                        .name
                        .strip_prefix(name)
                        .and_then(|r| r.strip_prefix('-'))
                        .is_some_and(generated)
            })
            .collect()
    }

    /// The keys of the ConfigMaps (of `namespace`, or all when none is known) whose value holds `host`
    /// as a word ([`holds_host`]), each with the ConfigMap and the key's path.
    pub fn config_map_keys_holding(
        &self,
        host: &str,
        namespace: Option<&str>,
    ) -> Vec<(&'m Object, String, String)> {
        let config_maps: Vec<&Object> = match namespace {
            Some(ns) => self
                .objects_in(Some(ns))
                .filter(|o| o.id.kind == "ConfigMap")
                .collect(),
            None => self.objects_of_kind("ConfigMap").collect(),
        };
        let mut out = Vec::new();
        for object in config_maps {
            if let Some((_, NodeValue::Map(entries))) = object.node.locate("data").map(|(p, n)| (p, &n.value))
            {
                for e in entries.iter() {
                    if e.value.as_str().is_some_and(|v| holds_host(v, host)) {
                        out.push((object, format!("data.{}", e.key), e.key.to_string()));
                    }
                }
            }
        }
        out
    }
}

/// Whether `value` holds `host` as a word: `prod-db` is in `postgres://prod-db:5432` and in
/// `prod-db.shop`, not in `prod-db-replica`.
pub fn holds_host(value: &str, host: &str) -> bool {
    value.match_indices(host).any(|(at, _)| {
        let before = value[..at].chars().next_back();
        let after = value[at + host.len()..].chars().next();
        let edge = |c: Option<char>| c.is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '-' || c == '.'));
        edge(before) && (edge(after) || after == Some('.'))
    })
}

/// Whether a pasted Pod is ready, as far as its listing (`kubectl.ready`, `kubectl.status`), phase
/// or `Ready` condition says.
pub fn listed_pod_ready(pod: &Object) -> Option<bool> {
    let text = |path: &str| {
        pod.node
            .locate(path)
            .and_then(|(_, n)| n.as_str().map(str::to_string))
    };
    if matches!(
        text("status.phase").as_deref(),
        Some("Pending" | "Failed" | "Unknown")
    ) {
        return Some(false);
    }
    if let Some((have, want)) = text("kubectl.ready").as_deref().and_then(|r| r.split_once('/')) {
        return Some(have == want && want != "0");
    }
    if let Some((_, conditions)) = pod.node.locate("status.conditions") {
        for c in conditions.items() {
            if c.get("type").and_then(Node::as_str) == Some("Ready") {
                return c.get("status").and_then(Node::as_str).map(|s| s == "True");
            }
        }
    }
    match text("kubectl.status").as_deref() {
        Some("Running" | "Completed") | None => None,
        Some(_) => Some(false),
    }
}

/// A Service's `spec.ports[].port`, each with its path.
pub fn service_ports(service: &Object) -> Vec<(u16, String)> {
    let Some((_, ports)) = service.node.locate("spec.ports") else {
        return Vec::new();
    };
    ports
        .items()
        .iter()
        .enumerate()
        .filter_map(|(i, p)| {
            Some((
                p.get("port")?.as_str()?.parse().ok()?,
                format!("spec.ports[{i}].port"),
            ))
        })
        .collect()
}

/// A Service's `spec.ports[].port` as numbers, each with its index in `spec.ports`.
pub fn service_port_numbers(service: &Object) -> Vec<(usize, u32)> {
    service
        .node
        .get("spec")
        .and_then(|s| s.get("ports"))
        .map(Node::items)
        .unwrap_or_default()
        .iter()
        .enumerate()
        .filter_map(|(j, p)| Some((j, p.get("port")?.as_str()?.parse().ok()?)))
        .collect()
}

/// The port of an address an env var holds: `host:port` or a URL's authority
/// (`http://orders.shop:8080/x` -> 8080, `redis://:pw@redis-cart:6379/0` -> 6379).
pub fn port_in_address(value: &str) -> Option<u32> {
    let rest = value.trim().split_once("://").map_or(value.trim(), |(_, r)| r);
    let rest = rest.rsplit_once('@').map_or(rest, |(_, r)| r);
    let authority = rest.split(['/', '?', '#']).next()?;
    authority.rsplit_once(':')?.1.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::{holds_host, port_in_address};
    use crate::callers::service_of;

    #[test]
    fn a_host_is_held_as_a_word() {
        assert!(holds_host("postgres://prod-db:5432/app", "prod-db"));
        assert!(holds_host("prod-db.shop.svc.cluster.local", "prod-db"));
        assert!(!holds_host("prod-db-replica:5432", "prod-db"));
        assert!(!holds_host("myprod-db", "prod-db"));
    }

    #[test]
    fn ports_in_every_form() {
        assert_eq!(port_in_address("cartservice:7071"), Some(7071));
        assert_eq!(port_in_address("http://orders.shop.svc:8080/api"), Some(8080));
        assert_eq!(port_in_address("redis://:pw@redis-cart:6379/0"), Some(6379));
        assert_eq!(port_in_address("postgres"), None);
        assert_eq!(port_in_address("http://orders.shop/api"), None);
    }

    /// The Service an env value names ([`service_of`]), as `env-host-not-a-service` and
    /// `env-port-not-a-service-port` read it.
    #[test]
    fn hosts_in_every_form() {
        let ns = ["shop", "data"];
        let of = |name, value| service_of(name, value, "shop", &ns);
        assert_eq!(of("REDIS_ADDR", "redis-cart:6379"), Some(("redis-cart", "shop")));
        assert_eq!(
            of("URL", "redis://:pw@redis-cart:6379/0"),
            Some(("redis-cart", "shop"))
        );
        assert_eq!(
            of("API", "http://orders.data.svc.cluster.local:8080/x"),
            Some(("orders", "data"))
        );
        assert_eq!(of("API", "orders.data.svc:80"), Some(("orders", "data")));
        assert_eq!(
            of("DB", "db-0.db.data.svc.cluster.local:5432"),
            Some(("db", "data"))
        );
        assert_eq!(of("API", "orders.data:80"), Some(("orders", "data")));
        assert_eq!(of("DB_HOST", "postgres"), Some(("postgres", "shop")));
        // Not an in-cluster host, or not said to be one.
        assert_eq!(of("MODE", "production"), None);
        assert_eq!(of("API", "api.example.com:443"), None);
        assert_eq!(of("API", "https://api.example.com/v1"), None);
        assert_eq!(of("ADDR", "10.0.0.7:6379"), None);
        assert_eq!(of("ADDR", "localhost:6379"), None);
        assert_eq!(of("ADDR", "$(REDIS_HOST):6379"), None);
        assert_eq!(of("TIME", "12:30"), None);
    }
}
