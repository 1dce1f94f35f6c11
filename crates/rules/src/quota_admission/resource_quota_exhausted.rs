use faultline_model::views::resource_quota::{exhausted_resources, ExhaustedResource};
use faultline_model::Model;
use faultline_report::message::Message;
use faultline_report::{Boundary, Evidence, Finding, Severity, Text};

crate::declare_rule! {
    /// ## What it finds
    /// A ResourceQuota whose `status.used` equals or exceeds its `status.hard` for a resource: the
    /// quota is full before anything has been refused. Read from the object's YAML or JSON, from
    /// `kubectl describe quota` (its `Resource  Used  Hard` table) and from `kubectl get quota`
    /// rows (`REQUEST` and `LIMIT` cells such as `pods: 10/10`). The amounts are compared as
    /// Kubernetes quantities (`1Gi` equals `1024Mi`, `500m` equals `0.5`). A hard limit of `0` is a
    /// resource the quota forbids on purpose and is not reported.
    ///
    /// ## Why it matters
    /// The next object in that namespace that asks for the resource will be refused by the API
    /// server with `exceeded quota`: a Deployment scaling up, a rollout's new ReplicaSet or a Job's
    /// next Pod will not get its Pods, and the refusal shows only in the controller's events.
    ///
    /// ## Evidence
    /// The ResourceQuota's `status.used` and `status.hard` (or `spec.hard`) for each resource at the
    /// limit. When the input also shows a refusal by that quota, `quota-exceeded-on-create` reports
    /// the refusal with the same numbers and this rule stays quiet.
    ///
    /// ## Fault boundary
    /// `quota-admission`: the API server's ResourceQuota admission will refuse the next create.
    ///
    /// ## What this evidence cannot establish
    /// Whether anything needs more of the resource soon (a quota can be full by design), which
    /// workloads use it (unless their Pods were pasted), and whether `status.used` is current: the
    /// quota controller recalculates it, and a paste is one moment.
    ///
    /// ## Next evidence to collect
    /// `kubectl describe resourcequota -n NS`, the controllers' `FailedCreate` events
    /// (`kubectl get events -n NS --field-selector reason=FailedCreate`) and the requests of the
    /// namespace's Pods.
    ///
    /// ## Example
    /// ```text
    /// Name:       pod-quota
    /// Namespace:  batch-jobs
    /// Resource    Used  Hard
    /// --------    ----  ----
    /// pods        10    10
    /// ```
    pub const RULE = { id: "resource-quota-exhausted", boundary: Boundary::QuotaAdmission, components: [ApiServer], check: check };
}

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    for quota in model.objects_of_kind("ResourceQuota") {
        let (hard_path, full) = exhausted_resources(quota);
        if full.is_empty() || model.refused_by_quota(quota) {
            continue;
        }
        // The namespace the input states, or none (never a guessed `default`).
        let ns = quota.id.namespace.as_deref();
        let cmd_ns = quota.id.namespace.as_deref().unwrap_or(crate::UNKNOWN_NAMESPACE);
        let mut evidence: Vec<Evidence> = Vec::new();
        for ExhaustedResource { resource, .. } in &full {
            evidence.extend(model.evidence(quota, &format!("status.used[\"{resource}\"]")));
            evidence.extend(model.evidence(quota, &format!("{hard_path}[\"{resource}\"]")));
        }
        evidence.dedup();
        let summary = Msg::AtLimit {
            subject: quota.id.clone(),
            resources: full
                .iter()
                .map(|ExhaustedResource { resource, used, hard }| {
                    Msg::Amount {
                        resource: resource.as_str().into(),
                        used: used.clone(),
                        hard: hard.clone(),
                    }
                    .into()
                })
                .collect(),
            namespace: ns.unwrap_or_default().into(),
        };
        let mut cannot_establish: Vec<Message> = vec![Msg::ByDesign {}.into(), Msg::UsedIsAMoment {}.into()];
        if model.objects_in(ns).all(|o| o.id.kind != "Pod") {
            cannot_establish.push(
                Msg::NoPodsPasted {
                    namespace: ns.unwrap_or_default().into(),
                }
                .into(),
            );
        }
        let next_steps = vec![
            command!("kubectl describe resourcequota {} -n {}", quota.id.name, cmd_ns),
            command!("kubectl get events -n {} --field-selector reason=FailedCreate", cmd_ns),
            command!("kubectl get pods -n {} -o 'custom-columns=NAME:.metadata.name,CPU:.spec.containers[*].resources.requests.cpu,MEMORY:.spec.containers[*].resources.requests.memory'", cmd_ns),
        ];
        findings.push(RULE.finding(
            Severity::Warning,
            quota.id.clone(),
            summary,
            evidence,
            cannot_establish,
            next_steps,
        ));
    }
}

faultline_report::messages! {
    /// The words of `resource-quota-exhausted`.
    pub enum Msg {
        /// A ResourceQuota with no room left for some resources, and the next create it will refuse.
        AtLimit { subject: faultline_report::ObjectRef, resources: Vec<Message>, namespace: Text } = "resource-quota-exhausted.at-limit" {
            en: {
                let namespace = if namespace.0.is_empty() { "its namespace".to_string() } else { format!("namespace {namespace}") };
                format!("{subject} is at its limit ({resources}): the next object in {namespace} that asks for these resources will be refused with \"exceeded quota\".")
            },
            zh: {
                let namespace = if namespace.0.is_empty() { "它所在的命名空间".to_string() } else { format!("命名空间 {namespace} ") };
                format!("{subject} 已经达到上限（{resources}）：{namespace}中下一个申请这些资源的对象会被拒绝（exceeded quota）。")
            },
        },
        /// One resource at the limit: used of hard.
        Amount { resource: Text, used: String, hard: String } = "resource-quota-exhausted.amount" {
            en: "{resource}: {used} used of {hard}",
            zh: "{resource}：上限 {hard}，已用 {used}",
        },
        ByDesign {} = "resource-quota-exhausted.by-design" {
            en: "Whether anything needs more of these resources soon: a quota can be full by design.",
            zh: "近期是否真的需要更多这些资源：配额可能是有意用满的。",
        },
        UsedIsAMoment {} = "resource-quota-exhausted.used-is-a-moment" {
            en: "Whether status.used is still current: the quota controller recalculates it, and the paste shows one moment.",
            zh: "status.used 是否仍是最新的：它由配额控制器重新计算，而粘贴的内容只是某一时刻。",
        },
        NoPodsPasted { namespace: Text } = "resource-quota-exhausted.no-pods-pasted" {
            en: {
                if namespace.0.is_empty() {
                    "Which workloads use the quota: no Pods of its namespace were pasted.".to_string()
                } else {
                    format!("Which workloads use the quota: no Pods of namespace {namespace} were pasted.")
                }
            },
            zh: {
                if namespace.0.is_empty() {
                    "是哪些工作负载占用了配额：输入中没有它所在命名空间的 Pod。".to_string()
                } else {
                    format!("是哪些工作负载占用了配额：输入中没有命名空间 {namespace} 的 Pod。")
                }
            },
        },
    }
}
