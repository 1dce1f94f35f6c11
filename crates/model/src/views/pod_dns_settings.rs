//! A Pod spec's DNS settings (`dnsPolicy`, `dnsConfig.nameservers`, `hostNetwork`), read from the
//! spec's node (a Pod's `spec` or a workload's `spec.template.spec`).

use faultline_ingest::node::Node;

/// What the spec says of its DNS.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PodDnsSettings<'a> {
    /// `dnsPolicy`, or the API server's default `ClusterFirst` when the spec does not say (a
    /// manifest, not a read-back Pod).
    pub policy: &'a str,
    /// `dnsConfig.nameservers`, in order.
    pub nameservers: Vec<&'a str>,
    /// `hostNetwork: true`.
    pub host_network: bool,
}

/// The DNS settings of the Pod spec `spec`.
pub fn pod_dns_settings(spec: &Node) -> PodDnsSettings<'_> {
    PodDnsSettings {
        policy: spec
            .get("dnsPolicy")
            .and_then(Node::as_str)
            .unwrap_or("ClusterFirst"),
        nameservers: spec
            .get("dnsConfig")
            .and_then(|c| c.get("nameservers"))
            .map(Node::items)
            .unwrap_or_default()
            .iter()
            .filter_map(Node::as_str)
            .collect(),
        host_network: spec.get("hostNetwork").and_then(Node::as_str) == Some("true"),
    }
}
