//! A name lookup that failed, as Go's resolver words it (`net.DNSError.Error()` in the Go standard
//! library's net/net.go: `lookup <name> on <server>: <error>`), printed by any Go client that dials
//! a host name: `dial tcp: lookup redis.shop.svc.cluster.local on 10.96.0.10:53: … i/o timeout`.

use crate::EventRecord;

/// A failed lookup through a DNS server, of a cluster name or through port 53.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DnsLookupFailure<'t> {
    /// The name looked up.
    pub name: &'t str,
    /// The server asked (`10.96.0.10:53`), when the line names one.
    pub server: Option<&'t str>,
}

impl DnsLookupFailure<'_> {
    /// Whether the name is a cluster name (`svc.svc`, `….svc.…`, `….cluster.local`).
    pub fn is_cluster_name(&self) -> bool {
        let name = self.name;
        name.ends_with(".svc") || name.contains(".svc.") || name.ends_with(".cluster.local")
    }

    /// Whether the server asked is `ip` on port 53 (the kube-dns Service's address).
    pub fn asked(&self, ip: &str) -> bool {
        self.server.and_then(|s| s.strip_suffix(":53")) == Some(ip)
    }
}

/// The failed lookup `text` reports (`no such host`, `i/o timeout`, `server misbehaving`,
/// `connection refused`): through a server on port 53 or of a cluster name, else none.
pub fn read(text: &str) -> Option<DnsLookupFailure<'_>> {
    let (_, rest) = text.split_once("lookup ")?;
    let name = rest.split_whitespace().next()?.trim_end_matches(':');
    let failed = [
        "no such host",
        "i/o timeout",
        "server misbehaving",
        "connection refused",
    ]
    .iter()
    .any(|f| rest.contains(f));
    let server = rest
        .split_once(" on ")
        .and_then(|(_, s)| s.split_whitespace().next())
        .map(|s| s.trim_end_matches(':'));
    let lookup = DnsLookupFailure { name, server };
    let port_53 = server.is_some_and(|s| s.ends_with(":53"));
    (failed && (port_53 || lookup.is_cluster_name())).then_some(lookup)
}

/// Whether an event is about pulling an image: the kubelet resolves registries with the node's
/// resolver, not the cluster's DNS, so its failed lookups are not the cluster DNS's.
pub fn resolved_by_the_node(event: &EventRecord) -> bool {
    event.message.contains("pull") || event.message.contains("Pull")
}

#[cfg(test)]
mod tests {
    use super::read;

    #[test]
    fn reads_gos_failed_lookups() {
        let l = read("dial tcp: lookup redis.shop.svc.cluster.local on 10.96.0.10:53: read udp 10.244.1.5:41234->10.96.0.10:53: i/o timeout").unwrap();
        assert_eq!(l.name, "redis.shop.svc.cluster.local");
        assert!(l.is_cluster_name() && l.asked("10.96.0.10"));
        let l = read("dial tcp: lookup db.example.com on 10.96.0.10:53: no such host").unwrap();
        assert!(!l.is_cluster_name() && !l.asked("10.96.0.11"));
        assert!(read("dial tcp 10.0.0.1:443: i/o timeout").is_none());
        assert!(read("lookup db.example.com: answered").is_none());
    }
}
