use super::quota_exceeded_on_create::is_quota;
use super::rejections::{by_subject, evidence_of, rejections, resolved, Rejection};
use crate::model::Model;
use crate::report::{Boundary, Evidence, Finding, Severity};

crate::declare_rule! {
    /// ## What it finds
    /// An object the API server's admission refused to create for a reason other than a quota: Pod
    /// Security (`violates PodSecurity "restricted:latest": …`), a validating or mutating webhook
    /// (`admission webhook "x" denied the request: …`), a LimitRange (`maximum memory usage per
    /// Container is …`), seen in kubectl's 403 line, a controller's `FailedCreate` events or its
    /// `ReplicaFailure` condition. Refusals by authorization (`User "x" cannot create resource`) are
    /// not admission and are left out.
    ///
    /// ## Why it matters
    /// The Pods were never created: nothing is Pending, nothing crashes, and `kubectl get pods` shows
    /// fewer replicas than desired with no clue why. The evidence sits on the controller (the
    /// ReplicaSet's events), and the fix is in the Pod template or the namespace's policy.
    ///
    /// ## Evidence
    /// The refusal messages with the policy's own explanation, the controller's `ReplicaFailure`
    /// condition and replica counts. A `SuccessfulCreate` newer than the last refusal (and no standing
    /// condition) means it has passed: no finding.
    ///
    /// ## Fault boundary
    /// `quota-admission`: the API server's admission chain (Pod Security admission, webhooks,
    /// LimitRanger) and the controller creating Pods.
    ///
    /// ## What this evidence cannot establish
    /// Whether the policy is the one intended for the namespace (its labels, the webhook's
    /// configuration) and whether the Pod would run once admitted.
    ///
    /// ## Next evidence to collect
    /// The namespace's `pod-security.kubernetes.io/*` labels, the webhook configurations, the Pod
    /// template's `securityContext`, and the controller's events.
    ///
    /// ## Example
    /// ```text
    /// Warning  FailedCreate  5m30s  replicaset-controller  Error creating: pods "web-84b6-m4kzt" is
    /// forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false
    /// ```
    pub const RULE = { id: "admission-denied-on-create", boundary: Boundary::QuotaAdmission, components: [ApiServer, ControllerManager if ByController], docs_zh: DOCS_ZH, check: check };
}

/// [`crate::rules::Rule::docs_zh`]: this rule's documentation in Chinese, each line after one space as in
/// the doc comment, with the English example unchanged.
const DOCS_ZH: &str = r#"
 ## 检测内容
 API 服务器的准入因配额以外的原因拒绝创建的对象：Pod 安全（`violates PodSecurity "restricted:latest": …`），验证性或变更性 Webhook（`admission webhook "x" denied the request: …`），LimitRange（`maximum memory usage per Container is …`），可见于 kubectl 的 403 错误行、控制器的 `FailedCreate` 事件或其 `ReplicaFailure` 状况。因鉴权被拒绝（`User "x" cannot create resource`）不属于准入，不在此列。

 ## 为什么重要
 这些 Pod 从未被创建：没有什么处于 Pending，也没有什么在崩溃，`kubectl get pods` 显示的副本数少于期望值，却看不出原因。证据在控制器上（ReplicaSet 的事件），修复要在 Pod 模板或命名空间的策略中进行。

 ## 证据
 拒绝消息及策略自身给出的解释，控制器的 `ReplicaFailure` 状况和副本计数。如果有一个比最后一次拒绝更新的 `SuccessfulCreate`（且没有仍然存在的状况），说明问题已经过去：不报告发现。

 ## 故障边界
 `quota-admission`：API 服务器的准入链（Pod 安全准入、Webhook、LimitRanger），以及负责创建 Pod 的控制器。

 ## 这些证据无法确定的内容
 该策略是否就是为这个命名空间设定的那一个（命名空间的标签、Webhook 的配置），以及 Pod 被准入后能否运行。

 ## 下一步应收集的证据
 命名空间的 `pod-security.kubernetes.io/*` 标签，Webhook 配置，Pod 模板中的 `securityContext`，以及控制器的事件。

 ## 示例
 ```text
 Warning  FailedCreate  5m30s  replicaset-controller  Error creating: pods "web-84b6-m4kzt" is
 forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false
 ```
"#;

fn is_admission(reason: &str) -> bool {
    !reason.is_empty()
        && !is_quota(reason)
        && !reason.contains("cannot create resource")
        && !reason.starts_with("User \"")
}

fn policy(reason: &str) -> String {
    if let Some(at) = reason.find("violates PodSecurity ") {
        let rest = &reason[at + "violates PodSecurity ".len()..];
        let level = rest.trim_start_matches('"').split('"').next().unwrap_or(rest);
        return format!("Pod Security admission (level {level:?})");
    }
    if let Some(at) = reason.find("admission webhook \"") {
        let rest = &reason[at + "admission webhook \"".len()..];
        return format!(
            "the admission webhook {:?}",
            rest.split('"').next().unwrap_or(rest)
        );
    }
    if reason.contains("per Container") || reason.contains("per Pod") {
        return "the namespace's LimitRange".to_string();
    }
    "admission".to_string()
}

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    // Grouped first, so a subject's condition without a message joins its events' group.
    for group in by_subject(rejections(model)) {
        if resolved(model, &group) {
            continue;
        }
        if group.iter().any(|r| is_admission(&r.reason)) && !group.iter().any(|r| is_quota(&r.reason)) {
            let explained: Vec<Rejection> = group
                .into_iter()
                .filter(|r| r.reason.is_empty() || is_admission(&r.reason))
                .collect();
            findings.push(finding(model, &explained));
        }
    }
}

fn finding(model: &Model<'_>, group: &[Rejection]) -> Finding {
    let first = group.iter().find(|r| !r.reason.is_empty()).unwrap_or(&group[0]);
    let id = &first.subject;
    let ns = id.namespace.as_deref().unwrap_or("default");
    let mut evidence: Vec<Evidence> = evidence_of(group);
    if let Some(object) = model.object(id) {
        evidence.extend(model.evidence(object, "spec.replicas"));
        evidence.extend(model.evidence(object, "status.replicas"));
    }
    let by = policy(&first.reason);
    // The policy's explanation often follows on later lines: collapse them, keep it readable.
    let collapsed = first.reason.split_whitespace().collect::<Vec<_>>().join(" ");
    let first_reason = match collapsed.char_indices().nth(300) {
        Some((cut, _)) => format!("{}…", &collapsed[..cut]),
        None => collapsed,
    };
    let summary = if first.from_client {
        let (kind, name) = first.refused.clone().unwrap_or_default();
        let at = if crate::ingest::events_table::is_cluster_scoped(&kind) {
            name
        } else {
            format!("{ns}/{name}")
        };
        format!("Creating {kind} {at} was refused by {by}: {first_reason}. The {kind} does not exist.")
    } else {
        let refusals: u32 = group
            .iter()
            .filter(|r| !r.reason.is_empty())
            .map(|r| r.count)
            .sum();
        format!("{id} cannot create its Pods: {by} refuses them ({refusals} {} seen): {first_reason}. Those Pods do not exist.", if refusals == 1 { "refusal" } else { "refusals" })
    };
    let cannot_establish = vec![
        "Whether the policy is the one intended for this namespace (its labels, the webhook's configuration).".to_string(),
        "Whether the Pod would schedule and run once admitted.".to_string(),
    ];
    let mut next_steps = vec![command!(
        "kubectl get events -n {} --field-selector reason=FailedCreate",
        ns
    )];
    if by.starts_with("Pod Security") {
        next_steps.push(command!("kubectl get namespace {} --show-labels", ns));
    }
    if by.contains("webhook") {
        next_steps
            .push("kubectl get validatingwebhookconfigurations,mutatingwebhookconfigurations".to_string());
    }
    if by.contains("LimitRange") {
        next_steps.push(command!("kubectl describe limitrange -n {}", ns));
    }
    let lower_kind = id.kind.to_ascii_lowercase();
    // A Pod's spec is `.spec`; a workload's Pods are specified by its template.
    next_steps.push(if id.kind == "Pod" {
        command!("kubectl get pod {} -n {} -o jsonpath='{{.spec}}'", id.name, ns)
    } else {
        command!(
            "kubectl get {} {} -n {} -o jsonpath='{{.spec.template.spec}}'",
            lower_kind,
            id.name,
            ns
        )
    });
    RULE.finding(
        Severity::Error,
        id.clone(),
        summary,
        evidence,
        cannot_establish,
        next_steps,
    )
}

crate::messages! {
    /// The words of `admission-denied-on-create`.
    pub enum Msg {}
}

#[cfg(test)]
mod tests {
    #[test]
    fn policies() {
        assert_eq!(
            super::policy("violates PodSecurity \"restricted:latest\": allowPrivilegeEscalation != false"),
            "Pod Security admission (level \"restricted:latest\")"
        );
        assert_eq!(
            super::policy("admission webhook \"validate.kyverno.svc\" denied the request: nope"),
            "the admission webhook \"validate.kyverno.svc\""
        );
        assert!(!super::is_admission(
            "User \"dev\" cannot create resource \"pods\""
        ));
        assert!(!super::is_admission("exceeded quota: q"));
    }
}
