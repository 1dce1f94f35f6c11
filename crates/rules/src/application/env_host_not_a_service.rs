use crate::pod_spec::{listed, pod_specs};
use faultline_model::Model;
use faultline_report::{Boundary, Evidence, Finding, ObjectRef, Severity, Text};

crate::declare_rule! {
    /// ## What it finds
    /// A container whose environment names an in-cluster host that is no Service: a value such as
    /// `REDIS_ADDR: redis-cart-invalid:6379`, `http://orders.shop.svc.cluster.local:8080/api` or
    /// `DB_HOST: postgres` whose Service name is not among the Services pasted for that namespace.
    /// It speaks only when that namespace's Services were pasted as a listing (two or more of them,
    /// from a `kubectl get svc` table or objects): one Service alone is the one asked about, not the
    /// namespace. Hosts with a port, URLs, `NAME.NAMESPACE[.svc[.cluster.local]]` and single names
    /// in `*_HOST` variables are read; other dotted names may be outside the cluster and are left.
    ///
    /// ## Why it matters
    /// A Service name that does not exist does not resolve: the application's connection fails with
    /// a DNS error, it crash-loops or serves errors, and its Pod looks like the fault while the cause
    /// is one line of its configuration.
    ///
    /// ## Evidence
    /// The env var's `value` by its line, and the pasted Services of the namespace.
    ///
    /// ## Fault boundary
    /// `application`: the application's own configuration names a dependency that is not there; the
    /// cluster's DNS and network are doing what they should.
    ///
    /// ## What this evidence cannot establish
    /// Whether the listing was the whole namespace, and whether the host is meant to resolve outside
    /// the cluster (a search domain, `hostAliases`, a resolver of the node).
    ///
    /// ## Next evidence to collect
    /// `kubectl get svc -n NAMESPACE`, the container's logs around its connection attempt, and a
    /// lookup from inside the Pod (`nslookup HOST`).
    ///
    /// ## Example
    /// ```yaml
    /// env:
    /// - name: REDIS_ADDR
    ///   value: redis-cart-invalid:6379
    /// ```
    pub const RULE = { id: "env-host-not-a-service", boundary: Boundary::Application, components: [Containers], check: check };
}

pub use faultline_model::callers::service_of;

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    let namespaces = crate::pod_spec::namespaces(model);
    for spec in pod_specs(model) {
        let (object, own) = (spec.object, spec.namespace());
        for container in spec.containers() {
            for (i, name, value) in container.env() {
                let Some((service, namespace)) = service_of(name, value, own, &namespaces) else {
                    continue;
                };
                let count = listed(model, "Service", namespace);
                let services = || {
                    model
                        .objects_in(Some(namespace))
                        .filter(|o| o.id.kind == "Service")
                };
                if count < 2 || services().any(|o| o.id.name == service) {
                    continue;
                }
                let at = format!("{}.env[{i}].value", container.path);
                let mut evidence: Vec<Evidence> = model.evidence(object, &at).into_iter().collect();
                evidence.extend(
                    services()
                        .take(5)
                        .filter_map(|o| model.evidence(o, "metadata.name")),
                );
                let id = &object.id;
                let summary = Msg::NotAService {
                    subject: id.clone(),
                    container: container.name.into(),
                    name: name.into(),
                    value: value.into(),
                    service: service.into(),
                    namespace: namespace.into(),
                    count,
                };
                let cannot = [
                    Msg::WholeListing {
                        namespace: namespace.into(),
                    },
                    Msg::Outside {},
                ];
                let steps = vec![
                    command!("kubectl get svc -n {}", namespace),
                    command!("kubectl logs {} -n {} -c {}", id.name, own, container.name),
                ];
                findings.push(RULE.finding(Severity::Warning, id.clone(), summary, evidence, cannot, steps));
            }
        }
    }
}

faultline_report::messages! {
    /// The words of `env-host-not-a-service`.
    pub enum Msg {
        NotAService { subject: ObjectRef, container: Text, name: Text, value: Text, service: Text, namespace: Text, count: usize } = "env-host-not-a-service.not-a-service" {
            en: "{subject}: container {container} is configured to reach {value} ({name}), but no Service named {service} is among the {count} Services of namespace {namespace} pasted: the name does not resolve in the cluster's DNS, so its connections fail.",
            zh: "{subject}：容器 {container} 被配置为连接 {value}（{name}），但命名空间 {namespace} 粘贴的 {count} 个 Service 中没有名为 {service} 的：这个名字在集群 DNS 中无法解析，因此它的连接会失败。",
        },
        WholeListing { namespace: Text } = "env-host-not-a-service.whole-listing" {
            en: "Whether the Services pasted are all of namespace {namespace}: a Service left out of the paste may exist.",
            zh: "粘贴的 Service 是否就是命名空间 {namespace} 的全部：粘贴时漏掉的 Service 可能存在。",
        },
        Outside {} = "env-host-not-a-service.outside" {
            en: "Whether the host is meant to resolve outside the cluster's Services (a search domain, hostAliases, the node's resolver).",
            zh: "这个主机是否本来就要在集群的 Service 之外解析（搜索域、hostAliases、节点的解析器）。",
        },
    }
}
