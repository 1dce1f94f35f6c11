use faultline_model::Model;
use faultline_report::lang::Lang;
use faultline_report::message::Message;
use faultline_report::{Boundary, Evidence, Finding, ObjectRef, Severity};

crate::declare_rule! {
    /// ## What it finds
    /// A request the API server's authorization refused, as a client prints it: `Error from server
    /// (Forbidden): pods is forbidden: User "system:serviceaccount:ci:deployer" cannot list resource
    /// "pods" in API group "" in the namespace "prod"`, or the same words in a controller's log (a
    /// client-go reflector's `failed to list`). It names the verb, the resource, the API group, the
    /// namespace (or the cluster scope) and the identity: a ServiceAccount
    /// (`system:serviceaccount:NS:NAME`) or a user. Quota and admission refusals, also `403
    /// Forbidden`, are the rules `quota-exceeded-on-create` and `admission-denied-on-create`; an
    /// authentication failure (401) is `apiserver-request-failed`. A line the catalog knows as
    /// another component's, which quotes the refusal as the cause of its own failure (a cloud
    /// controller's `Error syncing load balancer: …`), is left to that component's entry (the rule
    /// `known-failure-reported`).
    ///
    /// ## Why it matters
    /// The API server answered: the control plane is up, authenticated the client and refused this
    /// one request because no rule of the authorizers (RBAC) grants it to this identity. The fix is a
    /// Role or ClusterRole and its binding, not the API server.
    ///
    /// ## Evidence
    /// The refusal's text, which carries the identity, the verb, the resource, its API group and the
    /// namespace. Message text is the weakest evidence, but this message's form is stable.
    ///
    /// ## Fault boundary
    /// `quota-admission`: the API server refused the request after it arrived (authorization, before
    /// admission).
    ///
    /// ## What this evidence cannot establish
    /// Which Role or ClusterRole was meant to grant it, and whether it is bound to this identity (a
    /// binding in another namespace, or to another ServiceAccount, is the usual mistake).
    ///
    /// ## Next evidence to collect
    /// `kubectl auth can-i VERB RESOURCE --as=USER -n NS` (the same question, asked again), and
    /// `kubectl get rolebindings,clusterrolebindings -A -o wide | grep NAME` (the bindings that name
    /// the identity).
    ///
    /// ## Example
    /// ```text
    /// Error from server (Forbidden): pods is forbidden: User "system:serviceaccount:ci:deployer"
    /// cannot list resource "pods" in API group "" in the namespace "prod"
    /// ```
    pub const RULE = { id: "authorization-denied", boundary: Boundary::QuotaAdmission, components: [ApiServer], check: check };
}

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    for (who, list) in model.authorization_denials() {
        let (first, _) = &list[0];
        let others = list.iter().filter(|(d, _)| d != first).count() as u32;
        let mut evidence: Vec<Evidence> = Vec::new();
        for (_, e) in &list {
            if !evidence.iter().any(|x| x.value == e.value) && evidence.len() < 4 {
                evidence.push(e.clone());
            }
        }
        let anonymous = first.user == "system:anonymous";
        let request = Msg::Request {
            verb: first.verb.clone(),
            resource: first.resource.clone(),
            group: first.group.clone(),
            namespace: first.namespace.clone(),
            path: first.path,
        };
        let summary = Msg::Denied {
            who: who.clone(),
            request: Box::new(request.into()),
            others,
            anonymous: anonymous.then(|| Msg::Anonymous {}.into_box()),
        };
        let cannot_establish = vec![
            Msg::WhichRole {
                verb: first.verb.clone(),
                resource: first.resource.clone(),
            },
            Msg::WhetherBound { who: who.clone() },
        ];
        // `kubectl auth can-i` takes the group after the resource: `deployments.apps`, `pods/exec`.
        let resource = first.qualified_resource();
        let as_user = format!("--as={}", first.user);
        let mut next_steps = vec![match &first.namespace {
            Some(ns) => command!(
                "kubectl auth can-i {} {} {} -n {}",
                first.verb,
                resource,
                as_user,
                ns
            ),
            None => command!("kubectl auth can-i {} {} {}", first.verb, resource, as_user),
        }];
        next_steps.push(command!(
            "kubectl get rolebindings,clusterrolebindings -A -o wide | grep {}",
            who.name.to_string()
        ));
        findings.push(RULE.finding(
            Severity::Error,
            who,
            summary,
            evidence,
            cannot_establish,
            next_steps,
        ));
    }
}

faultline_report::messages! {
    /// The words of `authorization-denied`.
    pub enum Msg {
        /// An identity refused by authorization: the request, how many other requests were refused,
        /// and whether it was anonymous.
        Denied { who: ObjectRef, request: Box<Message>, others: u32, anonymous: Option<Box<Message>> } = "authorization-denied.denied" {
            en: {
                let others = match *others.0 {
                    0 => String::new(),
                    1 => " (and 1 other request)".to_string(),
                    n => format!(" (and {n} other requests)"),
                };
                let anonymous = anonymous.0.as_ref().map(|a| format!(" {}", a.render(Lang::En))).unwrap_or_default();
                format!("The API server refused to let {who} {request}{others}: 403 Forbidden from authorization (RBAC). The API server answered, so the control plane is up; no rule bound to this identity grants the request.{anonymous}")
            },
            zh: {
                let others = match *others.0 {
                    0 => String::new(),
                    n => format!("（另有 {n} 个请求也被拒绝）"),
                };
                let anonymous = anonymous.0.as_ref().map(|a| a.render(Lang::Zh)).unwrap_or_default();
                format!("API 服务器拒绝了 {who} 的请求：{request}{others}。这是鉴权（RBAC）返回的 403 Forbidden。API 服务器做出了应答，说明控制平面是正常的；只是没有任何绑定到这个身份的规则授予这个权限。{anonymous}")
            },
        },
        /// The request refused: a verb on a resource in an API group and a namespace (or the cluster
        /// scope), or on a non-resource path.
        Request { verb: String, resource: String, group: Option<String>, namespace: Option<String>, path: bool } = "authorization-denied.request" {
            en: {
                let group = match group.0.as_deref() {
                    Some("") => " in the core API group".to_string(),
                    Some(g) => format!(" in API group \"{g}\""),
                    None => String::new(),
                };
                let scope = match namespace.0.as_deref() {
                    Some(ns) => format!(" in namespace {ns}"),
                    None if *path.0 => String::new(),
                    None => " at the cluster scope".to_string(),
                };
                let what = if *path.0 { "path" } else { "resource" };
                format!("{verb} {what} \"{}\"{group}{scope}", resource.0)
            },
            zh: {
                let group = match group.0.as_deref() {
                    Some("") => "（核心 API 组）".to_string(),
                    Some(g) => format!("（API 组 “{g}”）"),
                    None => String::new(),
                };
                let scope = match namespace.0.as_deref() {
                    Some(ns) => format!("在命名空间 {ns} 中"),
                    None if *path.0 => String::new(),
                    None => "在集群范围内".to_string(),
                };
                let what = if *path.0 { "路径" } else { "资源" };
                // `"pods"（核心 API 组）执行`, but `"secrets" 执行` (a space after the quote).
                let space = if group.is_empty() { " " } else { "" };
                format!("{scope}对{what} “{}”{group}{space}执行 {verb}", resource.0)
            },
        },
        /// The identity is `system:anonymous`: the client presented no credentials it accepted.
        Anonymous {} = "authorization-denied.anonymous" {
            en: "The request was anonymous (system:anonymous): the client sent no credentials the API server accepted, so check its kubeconfig or token first.",
            zh: "这个请求是匿名的（system:anonymous）：客户端没有发送 API 服务器能接受的凭据，应先检查它的 kubeconfig 或令牌。",
        },
        /// Which Role was meant to grant the verb on the resource.
        WhichRole { verb: String, resource: String } = "authorization-denied.which-role" {
            en: "Which Role or ClusterRole was meant to grant {verb} on {resource}.",
            zh: "本应授予对 {resource} 执行 {verb} 权限的是哪个 Role 或 ClusterRole。",
        },
        /// Whether that role is bound to the identity.
        WhetherBound { who: ObjectRef } = "authorization-denied.whether-bound" {
            en: "Whether it is bound to {who} (a RoleBinding in the right namespace, or a ClusterRoleBinding), or bound to another identity.",
            zh: "它是否绑定到了 {who}（在正确的命名空间中的 RoleBinding，或者 ClusterRoleBinding），还是绑定到了别的身份。",
        },
    }
}
