use crate::pod_spec::pod_specs;
use faultline_model::views::container_env_values::container_env_values;
use faultline_model::views::pod_dns_settings::pod_dns_settings;
use faultline_model::views::service_cluster_ip::cluster_ip;
use faultline_model::Model;
use faultline_report::{Boundary, Evidence, Finding, ObjectRef, Severity, Text};

crate::declare_rule! {
    /// ## What it finds
    /// A Pod whose DNS settings take it off the cluster's DNS: `dnsPolicy: None` with
    /// `dnsConfig.nameservers` none of which is the cluster's DNS (the `kube-dns` Service's
    /// `clusterIP` when it was pasted, else the addresses the usual installers give it and
    /// NodeLocal DNSCache's `169.254.20.10`), a warning; or `dnsPolicy: Default` in a Pod that is
    /// not on the host's network, which takes the node's resolver: a note (info), because Pods that
    /// call only names outside the cluster choose it on purpose; or a Pod on the host's network with
    /// `dnsPolicy: ClusterFirst` (or none, the default), which there falls back to the node's
    /// resolver, while its environment names an in-cluster host (`redis-cart:6379`,
    /// `orders.shop.svc`): a note too (the fix of sysdig-cloud-scripts#168 and
    /// csi-driver-nfs#440 is `ClusterFirstWithHostNet`).
    ///
    /// ## Why it matters
    /// Service names (`redis-cart`, `orders.shop.svc.cluster.local`) are answered by the cluster's
    /// DNS only. A Pod that asks another resolver gets `no such host` (NXDOMAIN) for every Service it
    /// calls, while external names still resolve, so it looks like a broken dependency or a network
    /// fault.
    ///
    /// ## Evidence
    /// `spec.dnsPolicy`, `spec.dnsConfig.nameservers`, `spec.hostNetwork` by their lines, and the
    /// `kube-dns` Service's `clusterIP` when pasted.
    ///
    /// ## Fault boundary
    /// `zone-network-storage`: name resolution is the Pod's network path to the Services it calls;
    /// the setting that breaks it is in the Pod's spec, and the finding cites it, but the failure an
    /// SRE sees (`no such host`, `i/o timeout` to port 53) is a network one and is checked there.
    ///
    /// ## What this evidence cannot establish
    /// Whether the nameserver forwards `cluster.local` to the cluster's DNS (a resolver set up so
    /// works), and whether this Pod calls any Service by name at all.
    ///
    /// ## Next evidence to collect
    /// `kubectl get svc -n kube-system kube-dns`, the Pod's `/etc/resolv.conf` (`kubectl exec POD --
    /// cat /etc/resolv.conf`), and a lookup of a Service name from inside the Pod.
    ///
    /// ## Example
    /// ```yaml
    /// dnsPolicy: "None"
    /// dnsConfig:
    ///   nameservers: ["8.8.8.8"]
    /// ```
    pub const RULE = { id: "dns-policy-bypasses-cluster-dns", boundary: Boundary::ZoneNetworkStorage, components: [ProxyCni], check: check };
}

/// The cluster DNS Service's address as the common installers set it: kubeadm and kind
/// (`10.96.0.10`), AKS (`10.0.0.10`), EKS (`10.100.0.10`, `172.20.0.10`), k3s and RKE2
/// (`10.43.0.10`), MicroK8s (`10.152.183.10`), and NodeLocal DNSCache's link-local `169.254.20.10`.
const USUAL_CLUSTER_DNS: [&str; 7] = [
    "10.96.0.10",
    "10.0.0.10",
    "10.100.0.10",
    "172.20.0.10",
    "10.43.0.10",
    "10.152.183.10",
    "169.254.20.10",
];

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    let kube_dns = model
        .objects_in(Some("kube-system"))
        .find(|o| o.id.kind == "Service" && matches!(o.id.name.as_str(), "kube-dns" | "coredns"));
    let kube_dns_ip = kube_dns.and_then(cluster_ip);
    for spec in pod_specs(model) {
        let object = spec.object;
        let dns = pod_dns_settings(spec.node);
        let at = |field: &str| format!("{}.{field}", spec.path);
        let mut evidence: Vec<Evidence> = model.evidence(object, &at("dnsPolicy")).into_iter().collect();
        let id = &object.id;
        let mut severity = Severity::Warning;
        let (summary, cannot): (Msg, Vec<faultline_report::message::Message>) = match dns.policy {
            "None" => {
                let nameservers = &dns.nameservers;
                if nameservers.is_empty() {
                    continue;
                }
                let cluster = |ip: &&str| match kube_dns_ip {
                    Some(known) => *ip == known || *ip == "169.254.20.10",
                    None => USUAL_CLUSTER_DNS.contains(ip),
                };
                if nameservers.iter().any(cluster) {
                    continue;
                }
                for i in 0..nameservers.len() {
                    evidence.extend(model.evidence(object, &at(&format!("dnsConfig.nameservers[{i}]"))));
                }
                let mut cannot: Vec<faultline_report::message::Message> = vec![Msg::Forwards {}.into()];
                match (kube_dns, kube_dns_ip) {
                    (Some(service), Some(_)) => evidence.extend(model.evidence(service, "spec.clusterIP")),
                    _ => cannot.push(Msg::KubeDnsNotPasted {}.into()),
                }
                (
                    Msg::NoneElsewhere {
                        subject: id.clone(),
                        nameservers: nameservers.iter().map(|s| Text::from(*s)).collect(),
                        cluster: kube_dns_ip.map(Text::from),
                    },
                    cannot,
                )
            }
            "Default" => {
                if dns.host_network {
                    continue;
                }
                // Chosen on purpose by Pods that call only names outside the cluster (the
                // Kubernetes documentation's init-container example): a note, not a warning.
                severity = Severity::Info;
                (
                    Msg::NodeResolver { subject: id.clone() },
                    vec![Msg::Forwards {}.into()],
                )
            }
            "ClusterFirst" => {
                // On the host's network ClusterFirst falls back to the node's resolver; only
                // ClusterFirstWithHostNet keeps the cluster's DNS. Said only when the Pod names an
                // in-cluster host in its environment (hostNetwork agents that call nothing by
                // Service name are many and fine).
                if !dns.host_network {
                    continue;
                }
                let Some((path, value)) = in_cluster_env(model, &spec) else {
                    continue;
                };
                evidence.extend(model.evidence(object, &at("hostNetwork")));
                evidence.extend(model.evidence(object, &path));
                severity = Severity::Info;
                (
                    Msg::HostNetworkClusterFirst {
                        subject: id.clone(),
                        value: value.into(),
                    },
                    vec![Msg::Forwards {}.into()],
                )
            }
            _ => continue,
        };
        let mut cannot = cannot;
        cannot.push(Msg::CallsByName {}.into());
        let ns = spec.command_namespace();
        let next = if id.kind == "Pod" {
            vec![
                command!("kubectl exec {} -n {} -- cat /etc/resolv.conf", id.name, ns),
                command!("kubectl get svc -n kube-system kube-dns"),
            ]
        } else {
            vec![command!("kubectl get svc -n kube-system kube-dns")]
        };
        findings.push(RULE.finding(severity, id.clone(), summary, evidence, cannot, next));
    }
}

/// The first env value of the Pod's containers that names an in-cluster host (as
/// `env-host-not-a-service` reads them: `redis-cart:6379`, `http://orders.shop.svc:8080`, a single
/// name in a `*_HOST` variable), with its path.
fn in_cluster_env(model: &Model<'_>, spec: &crate::pod_spec::PodSpec<'_>) -> Option<(String, String)> {
    let namespaces = crate::pod_spec::namespaces(model);
    let own = spec.namespace();
    for container in spec.containers() {
        for (i, name, value) in container_env_values(container.node) {
            if crate::application::env_host_not_a_service::service_of(name, value, own, &namespaces).is_some()
            {
                return Some((format!("{}.env[{i}].value", container.path), value.to_string()));
            }
        }
    }
    None
}

faultline_report::messages! {
    /// The words of `dns-policy-bypasses-cluster-dns`.
    pub enum Msg {
        NoneElsewhere { subject: ObjectRef, nameservers: Vec<Text>, cluster: Option<Text> } = "dns-policy-bypasses-cluster-dns.none-elsewhere" {
            en: {
                let cluster = cluster.0.as_ref().map(|c| format!(" (the cluster's DNS is {c})")).unwrap_or_default();
                format!("{subject}: dnsPolicy None sends its DNS queries to {nameservers} only, not to the cluster's DNS{cluster}: Service names do not resolve from it (no such host), while external names do.")
            },
            zh: {
                let cluster = cluster.0.as_ref().map(|c| format!("（集群 DNS 是 {c}）")).unwrap_or_default();
                format!("{subject}：dnsPolicy None 让它只向 {nameservers} 发送 DNS 查询，而不是集群 DNS{cluster}：在它里面 Service 名无法解析（no such host），外部域名却可以。")
            },
        },
        NodeResolver { subject: ObjectRef } = "dns-policy-bypasses-cluster-dns.node-resolver" {
            en: "{subject}: dnsPolicy Default gives it the node's resolver instead of the cluster's DNS (the default policy is ClusterFirst): Service names do not resolve from it (no such host).",
            zh: "{subject}：dnsPolicy Default 让它使用节点的解析器，而不是集群 DNS（默认策略是 ClusterFirst）：在它里面 Service 名无法解析（no such host）。",
        },
        /// hostNetwork with ClusterFirst (or no dnsPolicy): the node's resolver, while an env value names a Service.
        HostNetworkClusterFirst { subject: ObjectRef, value: Text } = "dns-policy-bypasses-cluster-dns.host-network-cluster-first" {
            en: "{subject}: it is on the host's network with dnsPolicy ClusterFirst, which there falls back to the node's resolver (only ClusterFirstWithHostNet keeps the cluster's DNS), while its environment names an in-cluster host ({value}): that name does not resolve from it (no such host).",
            zh: "{subject}：它使用主机网络，dnsPolicy 为 ClusterFirst，在主机网络下会退回到节点的解析器（只有 ClusterFirstWithHostNet 才会继续使用集群 DNS），而它的环境变量指名了集群内的主机（{value}）：在它里面这个名字无法解析（no such host）。",
        },
        Forwards {} = "dns-policy-bypasses-cluster-dns.forwards" {
            en: "Whether that resolver forwards cluster.local to the cluster's DNS (then names resolve).",
            zh: "这个解析器是否把 cluster.local 转发给了集群 DNS（那样名字是可以解析的）。",
        },
        KubeDnsNotPasted {} = "dns-policy-bypasses-cluster-dns.kube-dns-not-pasted" {
            en: "The kube-dns Service was not pasted: the nameservers were compared with the addresses the usual installers give it.",
            zh: "没有粘贴 kube-dns Service：这些 nameserver 是与常见安装工具分配给它的地址比较的。",
        },
        CallsByName {} = "dns-policy-bypasses-cluster-dns.calls-by-name" {
            en: "Whether the Pod calls any Service by name.",
            zh: "这个 Pod 是否按名字调用了任何 Service。",
        },
    }
}
