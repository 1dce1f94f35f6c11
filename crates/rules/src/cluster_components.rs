//! The cluster's own components that serve other workloads, as data: how each is recognised (the
//! names of its DaemonSet, Deployment or Pods and the namespaces it runs in, as `*` patterns) and the
//! names its dependents' errors carry (a CSI driver's name in mount errors, a CNI plugin's type or
//! files in sandbox errors, a webhook's Service). What a family's failure breaks, at which boundary,
//! and which findings it explains are the family's ([`Family`]); the rule that reads the table is
//! `cluster-component-failing`. Adding a component is adding a row here.
//!
//! The driver, plugin and file names come from the projects' own manifests and messages:
//! `ebs.csi.aws.com` (aws-ebs-csi-driver's `ebs-csi-node` DaemonSet), `stat /var/lib/calico/nodename:
//! no such file or directory: check that the calico/node container is running` (Calico's CNI
//! plugin), `open /run/flannel/subnet.env: no such file or directory` (flannel's), and so on.

use faultline_report::{Boundary, Component};

/// What a component does for the workloads around it; decides its finding's boundary, the
/// architecture component it lights, and which other findings its failure can explain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// A CSI node plugin (a DaemonSet): registers its driver with each node's kubelet, which mounts
    /// the driver's volumes through it.
    CsiNode,
    /// A CSI controller plugin (a Deployment): provisions and attaches the driver's volumes.
    CsiController,
    /// A CNI agent (a DaemonSet): sets up each Pod's network on its node.
    Cni,
    /// kube-proxy: programs Service virtual IPs on each node.
    KubeProxy,
    /// The cluster DNS (CoreDNS, kube-dns): resolves Service and Pod names.
    Dns,
    /// metrics-server: serves the resource metrics API (`metrics.k8s.io`) the HPA and `kubectl top` read.
    MetricsServer,
    /// An ingress controller: gives Ingresses an address and routes their traffic.
    IngressController,
    /// The backend of an admission webhook: the API server calls it on every matching request.
    AdmissionWebhook,
    /// The control plane's static Pods, reported by their own rules ([`Family::reported_by`]).
    ControlPlane,
}

impl Family {
    /// The boundary of what the component serves: where its failure is the root.
    pub const fn boundary(self) -> Boundary {
        match self {
            Family::CsiNode
            | Family::CsiController
            | Family::Cni
            | Family::KubeProxy
            | Family::Dns
            | Family::IngressController => Boundary::ZoneNetworkStorage,
            // The HPA controller reads the metrics API through the API server's aggregation layer.
            Family::MetricsServer | Family::ControlPlane => Boundary::ControlPlane,
            Family::AdmissionWebhook => Boundary::QuotaAdmission,
        }
    }

    /// The part of the logical architecture its failure takes away.
    pub const fn serves(self) -> Component {
        match self {
            Family::CsiNode | Family::CsiController => Component::Volumes,
            Family::Cni | Family::KubeProxy | Family::Dns => Component::ProxyCni,
            Family::MetricsServer => Component::ControllerManager,
            Family::IngressController => Component::ServiceSlice,
            Family::AdmissionWebhook | Family::ControlPlane => Component::ApiServer,
        }
    }

    /// The rule that already reports this family's failures (the control plane's own Pods), if any.
    pub const fn reported_by(self) -> Option<&'static str> {
        match self {
            Family::ControlPlane => Some("control-plane-component-failing"),
            _ => None,
        }
    }
}

/// One component: its name, family, the `*` patterns its workload (or Pod, without the generated
/// suffix) is named by, the namespaces it runs in, and the names its dependents' errors carry.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub name: &'static str,
    pub family: Family,
    pub workloads: &'static [&'static str],
    pub namespaces: &'static [&'static str],
    /// CSI: the driver names it registers. CNI: the plugin type and the files of its CNI binary,
    /// as its errors print them. Webhooks: the Services the API server calls. Ingress: its class.
    pub serves: &'static [&'static str],
}

const ANY: &[&str] = &["*"];
const KUBE_SYSTEM: &[&str] = &["kube-system"];

/// The table, most specific rows first (the first row that matches a name is the component).
pub const TABLE: &[Entry] = &[
    // CSI node plugins, with the driver each registers.
    csi_node(
        "aws-ebs-csi-driver node",
        &["ebs-csi-node", "ebs-csi-node-windows"],
        &["ebs.csi.aws.com"],
    ),
    csi_node("aws-efs-csi-driver node", &["efs-csi-node"], &["efs.csi.aws.com"]),
    csi_node(
        "secrets-store-csi-driver",
        &["secrets-store-csi-driver", "csi-secrets-store*"],
        &["secrets-store.csi.k8s.io"],
    ),
    csi_node(
        "azuredisk-csi-driver node",
        &["csi-azuredisk-node", "csi-azuredisk-node-win"],
        &["disk.csi.azure.com"],
    ),
    csi_node(
        "azurefile-csi-driver node",
        &["csi-azurefile-node", "csi-azurefile-node-win"],
        &["file.csi.azure.com"],
    ),
    csi_node(
        "gcp-compute-persistent-disk-csi-driver node",
        &["pdcsi-node", "pdcsi-node-windows"],
        &["pd.csi.storage.gke.io"],
    ),
    csi_node(
        "vsphere-csi-driver node",
        &["vsphere-csi-node", "vsphere-csi-node-windows"],
        &["csi.vsphere.vmware.com"],
    ),
    csi_node(
        "ceph-csi rbd node plugin",
        &["csi-rbdplugin"],
        &["rbd.csi.ceph.com"],
    ),
    csi_node(
        "ceph-csi cephfs node plugin",
        &["csi-cephfsplugin"],
        &["cephfs.csi.ceph.com"],
    ),
    csi_node(
        "longhorn-csi-plugin",
        &["longhorn-csi-plugin"],
        &["driver.longhorn.io"],
    ),
    csi_node(
        "CSI node plugin",
        &[
            "*-csi-node",
            "csi-*-node",
            "*-csi-nodeplugin",
            "csi-*-nodeplugin",
            "csi-*-node-*",
        ],
        &[],
    ),
    // CSI controller plugins.
    csi_controller(
        "aws-ebs-csi-driver controller",
        &["ebs-csi-controller"],
        &["ebs.csi.aws.com"],
    ),
    csi_controller(
        "aws-efs-csi-driver controller",
        &["efs-csi-controller"],
        &["efs.csi.aws.com"],
    ),
    csi_controller(
        "azuredisk-csi-driver controller",
        &["csi-azuredisk-controller"],
        &["disk.csi.azure.com"],
    ),
    csi_controller(
        "vsphere-csi-driver controller",
        &["vsphere-csi-controller"],
        &["csi.vsphere.vmware.com"],
    ),
    csi_controller(
        "ceph-csi rbd provisioner",
        &["csi-rbdplugin-provisioner"],
        &["rbd.csi.ceph.com"],
    ),
    csi_controller(
        "ceph-csi cephfs provisioner",
        &["csi-cephfsplugin-provisioner"],
        &["cephfs.csi.ceph.com"],
    ),
    // Ember-CSI's controller is a StatefulSet named `csi-controller` in its own namespace (its
    // OpenShift example, embercsi/ember-csi#28); its driver was `io.ember-csi`, now `ember-csi.io`.
    Entry {
        name: "ember-csi controller",
        family: Family::CsiController,
        workloads: &["csi-controller"],
        namespaces: &["ember-csi", "ember-csi-*"],
        serves: &["io.ember-csi", "ember-csi.io"],
    },
    csi_controller(
        "CSI controller plugin",
        &[
            "*-csi-controller",
            "csi-*-controller",
            "csi-*-controllerplugin",
            "*-csi-provisioner",
        ],
        &[],
    ),
    // CNI agents: the plugin type (`plugin type="calico"`) and the files their CNI binary reads.
    cni(
        "calico-node",
        &["calico-node"],
        &["calico", "/var/lib/calico/", "calico/node"],
    ),
    cni(
        "canal",
        &["canal"],
        &["calico", "/var/lib/calico/", "flannel", "/run/flannel/"],
    ),
    cni(
        "aws-node (Amazon VPC CNI)",
        &["aws-node"],
        &["aws-cni", "aws-node", "ipamd"],
    ),
    cni("cilium", &["cilium"], &["cilium"]),
    cni(
        "kube-flannel",
        &["kube-flannel-ds", "kube-flannel-ds-*", "flannel"],
        &["flannel", "/run/flannel/"],
    ),
    cni("weave-net", &["weave-net"], &["weave"]),
    cni("antrea-agent", &["antrea-agent"], &["antrea"]),
    cni(
        "ovnkube-node",
        &["ovnkube-node"],
        &["ovn-k8s-cni-overlay", "ovn-kubernetes", "ovnkube"],
    ),
    cni("kube-router", &["kube-router"], &["kube-router"]),
    // kube-proxy serves no name an error carries: what its failure explains is read from the
    // Services pasted (a connection to one's cluster IP failing), in the rule.
    Entry {
        name: "kube-proxy",
        family: Family::KubeProxy,
        // `kube-proxy-windows` (sig-windows-tools), `kube-proxy-worker` (per-pool DaemonSets).
        workloads: &["kube-proxy", "kube-proxy-*"],
        namespaces: KUBE_SYSTEM,
        serves: &[],
    },
    Entry {
        name: "CoreDNS",
        family: Family::Dns,
        workloads: &["coredns", "rke2-coredns-rke2-coredns"],
        namespaces: KUBE_SYSTEM,
        serves: &["kube-dns"],
    },
    Entry {
        name: "kube-dns",
        family: Family::Dns,
        workloads: &["kube-dns"],
        namespaces: KUBE_SYSTEM,
        serves: &["kube-dns"],
    },
    Entry {
        name: "metrics-server",
        family: Family::MetricsServer,
        workloads: &["metrics-server", "*-metrics-server"],
        namespaces: ANY,
        serves: &["metrics.k8s.io"],
    },
    // Ingress controllers; ingress-nginx also serves its admission webhook.
    Entry {
        name: "ingress-nginx controller",
        family: Family::IngressController,
        workloads: &[
            "ingress-nginx-controller",
            "*-ingress-nginx-controller",
            "nginx-ingress-controller",
            "nginx-ingress-ingress-nginx-controller",
        ],
        namespaces: ANY,
        serves: &["nginx", "ingress-nginx-controller-admission"],
    },
    Entry {
        name: "traefik",
        family: Family::IngressController,
        workloads: &["traefik"],
        namespaces: ANY,
        serves: &["traefik"],
    },
    Entry {
        name: "haproxy-ingress",
        family: Family::IngressController,
        workloads: &["haproxy-ingress", "haproxy-kubernetes-ingress"],
        namespaces: ANY,
        serves: &["haproxy"],
    },
    // Admission webhook backends: the Services the API server calls.
    webhook(
        "cert-manager webhook",
        &["cert-manager-webhook"],
        &["cert-manager-webhook"],
    ),
    webhook(
        "Gatekeeper",
        &["gatekeeper-controller-manager"],
        &["gatekeeper-webhook-service"],
    ),
    webhook(
        "Kyverno",
        &["kyverno", "kyverno-admission-controller"],
        &["kyverno-svc"],
    ),
    webhook(
        "AWS Load Balancer Controller",
        &["aws-load-balancer-controller"],
        &["aws-load-balancer-webhook-service"],
    ),
    webhook("istiod", &["istiod", "istiod-*"], &["istiod"]),
    // The control plane's static Pods (`<component>-<node>`), reported by their own rules.
    control_plane("kube-apiserver", &["kube-apiserver", "kube-apiserver-*"]),
    control_plane(
        "kube-controller-manager",
        &["kube-controller-manager", "kube-controller-manager-*"],
    ),
    control_plane("kube-scheduler", &["kube-scheduler", "kube-scheduler-*"]),
    control_plane("etcd", &["etcd", "etcd-*"]),
];

/// An entry whose workloads may run in any namespace (installers pick their own).
const fn in_any_namespace(
    family: Family,
    name: &'static str,
    workloads: &'static [&'static str],
    serves: &'static [&'static str],
) -> Entry {
    Entry {
        name,
        family,
        workloads,
        namespaces: ANY,
        serves,
    }
}

const fn csi_node(
    name: &'static str,
    workloads: &'static [&'static str],
    serves: &'static [&'static str],
) -> Entry {
    in_any_namespace(Family::CsiNode, name, workloads, serves)
}

const fn csi_controller(
    name: &'static str,
    workloads: &'static [&'static str],
    serves: &'static [&'static str],
) -> Entry {
    in_any_namespace(Family::CsiController, name, workloads, serves)
}

const fn cni(
    name: &'static str,
    workloads: &'static [&'static str],
    serves: &'static [&'static str],
) -> Entry {
    in_any_namespace(Family::Cni, name, workloads, serves)
}

const fn webhook(
    name: &'static str,
    workloads: &'static [&'static str],
    serves: &'static [&'static str],
) -> Entry {
    in_any_namespace(Family::AdmissionWebhook, name, workloads, serves)
}

const fn control_plane(name: &'static str, workloads: &'static [&'static str]) -> Entry {
    Entry {
        name,
        family: Family::ControlPlane,
        workloads,
        namespaces: KUBE_SYSTEM,
        serves: &[],
    }
}

/// Whether `text` matches `pattern`, where `*` stands for any run of characters (none included).
pub fn glob(pattern: &str, text: &str) -> bool {
    let Some((first, tail)) = pattern.split_once('*') else {
        return pattern == text;
    };
    let Some(mut rest) = text.strip_prefix(first) else {
        return false;
    };
    let (middle, last) = tail.rsplit_once('*').unwrap_or(("", tail));
    for part in middle.split('*').filter(|p| !p.is_empty()) {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

/// Whether `pattern` may match `text`, by their first bytes: a pattern that starts with a literal
/// can only match a text that starts with it (a cheap test before [`glob`], run for every row).
fn may_match(pattern: &str, text: &str) -> bool {
    match pattern.as_bytes().first() {
        Some(b'*') => true,
        Some(b) => text.as_bytes().first() == Some(b),
        None => text.is_empty(),
    }
}

/// The entry a workload named `name` in `namespace` is, if any: the first row one of whose
/// patterns matches the name and one of whose namespace patterns matches the namespace.
pub fn entry_named(namespace: &str, name: &str) -> Option<&'static Entry> {
    TABLE.iter().find(|e| {
        e.workloads.iter().any(|w| may_match(w, name) && glob(w, name))
            && e.namespaces.iter().any(|n| *n == "*" || glob(n, namespace))
    })
}

/// The words of a CSI driver's name a plugin's name may carry (`rbd` of `rbd.csi.ceph.com` in
/// `csi-rbdplugin`, `cinder` of `cinder.csi.openstack.org` in `csi-cinder-nodeplugin`): the labels
/// of the driver name other than the generic ones.
pub fn driver_words(driver: &str) -> impl Iterator<Item = &str> {
    driver
        .split('.')
        .filter(|w| w.len() > 2 && !matches!(*w, "csi" | "com" | "io" | "org" | "k8s" | "driver" | "storage"))
}

/// Whether a plugin named `workload` carries a word of `driver`'s name (a guess from names).
pub fn named_for_driver(workload: &str, driver: &str) -> bool {
    let words: Vec<&str> = workload
        .split('-')
        .map(|w| {
            w.strip_suffix("nodeplugin")
                .or_else(|| w.strip_suffix("plugin"))
                .unwrap_or(w)
        })
        .filter(|w| !w.is_empty() && !matches!(*w, "csi" | "node" | "controller" | "driver" | "provisioner"))
        .collect();
    driver_words(driver).any(|d| words.contains(&d))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns() {
        assert!(glob("*-csi-node", "ebs-csi-node"));
        assert!(glob("csi-*-node", "csi-cinder-node"));
        assert!(!glob("csi-*-node", "csi-node"));
        assert!(glob("kube-flannel-ds-*", "kube-flannel-ds-amd64"));
        assert!(!glob("calico-node", "calico-node-x"));
        assert!(glob("*", "anything"));
        assert!(glob("*", ""));
        assert!(glob("a*b*c", "abc"));
        assert!(glob("a*b*c", "a-b-b-c"));
        assert!(!glob("a*b*c", "a-c-b"));
        assert!(!glob("ab*ba", "aba"));
        assert!(glob("kube-proxy", "kube-proxy"));
        assert!(!glob("kube-proxy", "kube-proxy-x"));
    }

    #[test]
    fn rows_recognise_their_components_and_nothing_else() {
        let name = |ns: &str, n: &str| entry_named(ns, n).map(|e| e.name);
        assert_eq!(
            name("kube-system", "ebs-csi-node"),
            Some("aws-ebs-csi-driver node")
        );
        assert_eq!(name("kube-system", "foo-csi-node"), Some("CSI node plugin"));
        assert_eq!(name("kube-system", "calico-node"), Some("calico-node"));
        assert_eq!(name("calico-system", "calico-node"), Some("calico-node"));
        assert_eq!(name("kube-system", "coredns"), Some("CoreDNS"));
        // CoreDNS and kube-proxy are recognised in kube-system only: an application's own `coredns`
        // elsewhere is not the cluster's DNS.
        assert_eq!(name("default", "coredns"), None);
        assert_eq!(name("default", "granulate-gprofiler"), None);
        assert_eq!(name("kube-system", "cilium-operator"), None);
        assert_eq!(name("kube-system", "kube-apiserver"), Some("kube-apiserver"));
        assert_eq!(name("ember-csi", "csi-controller"), Some("ember-csi controller"));
        // A plain `csi-controller` elsewhere is no known driver's.
        assert_eq!(name("default", "csi-controller"), None);
        assert_eq!(name("kube-system", "kube-proxy"), Some("kube-proxy"));
        assert_eq!(name("kube-system", "kube-proxy-worker"), Some("kube-proxy"));
        assert_eq!(name("default", "kube-proxy"), None);
    }

    /// The control plane's rows are the components `control-plane-component-failing` and
    /// `etcd-member-failing` recognise (`rules/control_plane/components.rs`), so the two lists agree.
    #[test]
    fn control_plane_rows_are_the_control_plane_rules_components() {
        let rows: Vec<&str> = TABLE
            .iter()
            .filter(|e| e.family == Family::ControlPlane)
            .map(|e| e.name)
            .collect();
        assert_eq!(rows, crate::control_plane::components::COMPONENTS);
        for row in TABLE.iter().filter(|e| e.family == Family::ControlPlane) {
            assert!(row.family.reported_by().is_some());
        }
    }

    #[test]
    fn driver_names_and_plugin_names() {
        assert!(named_for_driver("csi-rbdplugin", "rbd.csi.ceph.com"));
        assert!(named_for_driver(
            "csi-cinder-nodeplugin",
            "cinder.csi.openstack.org"
        ));
        assert!(named_for_driver("ebs-csi-node", "ebs.csi.aws.com"));
        assert!(!named_for_driver("ebs-csi-node", "efs.csi.aws.com"));
        assert!(!named_for_driver("foo-csi-node", "csi.vsphere.vmware.com"));
    }
}
