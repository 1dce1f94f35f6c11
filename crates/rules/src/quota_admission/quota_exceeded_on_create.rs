use super::rejections::{by_subject, evidence_of, refusals, rejections, resolved, Rejection};
use faultline_model::signals::quota_refusal::{self, is_quota};
use faultline_model::Model;
use faultline_report::message::Message;
use faultline_report::{Boundary, Evidence, Finding, ObjectRef, Severity, Text};

crate::declare_rule! {
    /// ## What it finds
    /// An object the API server refused to create because of a ResourceQuota: kubectl's own
    /// `Error from server (Forbidden): … exceeded quota: NAME, requested: …, used: …, limited: …`, a
    /// controller's `FailedCreate` event or a `ReplicaFailure` condition with the same text, or the
    /// quota's `must specify` refusal of a Pod without the requests or limits it requires. With the
    /// ResourceQuota pasted, its used and hard values for the resource are cited.
    ///
    /// ## Why it matters
    /// The refused object does not exist: there is no Pod to describe, no logs, no events of its own.
    /// The evidence is the API error, the controller's event and the namespace's quota, and the fix is
    /// in the quota or in the requests, not in the node or the application.
    ///
    /// ## Evidence
    /// The 403 message with the requested, used and limited amounts; the controller's `FailedCreate`
    /// events and `ReplicaFailure` condition; the ResourceQuota's `used` and `hard`; kubectl's
    /// `NotFound` / `No resources found` answers for the refused object. A `SuccessfulCreate` newer
    /// than the last refusal (the refused ReplicaSet's, or a newer ReplicaSet's of the same
    /// Deployment) with no standing condition means it has passed: no finding.
    ///
    /// ## Fault boundary
    /// `quota-admission`: the API server's ResourceQuota admission and the controllers creating Pods.
    ///
    /// ## What this evidence cannot establish
    /// Which other workloads consume the quota (unless their Pods were pasted), whether the quota is
    /// sized as intended, and whether other admission checks would pass once the quota allows it.
    ///
    /// ## Next evidence to collect
    /// `kubectl describe resourcequota -n NS`, the requests of the namespace's Pods, and the
    /// controller's events (`kubectl get events -n NS --field-selector reason=FailedCreate`).
    ///
    /// ## Example
    /// ```text
    /// Error from server (Forbidden): error when creating "pod.yaml": pods "monthly-rollup" is
    /// forbidden: exceeded quota: team-reports-quota, requested: requests.memory=6Gi,
    /// used: requests.memory=11Gi, limited: requests.memory=16Gi
    /// ```
    pub const RULE = { id: "quota-exceeded-on-create", boundary: Boundary::QuotaAdmission, components: [ApiServer, ControllerManager if ByController], check: check };
}

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    // Grouped first, so a subject's condition without a message joins its events' group.
    for group in by_subject(rejections(model)) {
        if resolved(model, &group) {
            continue;
        }
        if group.iter().any(|r| is_quota(&r.reason)) {
            let explained: Vec<Rejection> = group
                .into_iter()
                .filter(|r| r.reason.is_empty() || is_quota(&r.reason))
                .collect();
            findings.push(finding(model, &explained));
        }
    }
}

fn finding(model: &Model<'_>, group: &[Rejection]) -> Finding {
    let first = group.iter().find(|r| !r.reason.is_empty()).unwrap_or(&group[0]);
    let id = &first.subject;
    // The namespace the input states, or none: never `default` (a `kubectl get events` table without
    // `-n` lists the user's context namespace, which the input does not name).
    let ns = id.namespace.as_deref();
    let cmd_ns = id.namespace.as_deref().unwrap_or(crate::UNKNOWN_NAMESPACE);
    let mut evidence: Vec<Evidence> = evidence_of(group);
    let parsed = group.iter().find_map(|r| quota_refusal::exceeded(&r.reason));
    // The quota object itself, when pasted: its used and hard values for the refused resources.
    if let Some(exceeded) = &parsed {
        let resources = exceeded.amounts.iter().map(|a| a.resource.as_str());
        evidence.extend(model.quota_amount_evidence(ns, &exceeded.quota, resources));
    }
    // kubectl's own answers that the refused object is absent.
    if first.from_client {
        evidence.extend(model.absent_answers(&id.name, ns));
    }
    let what: Message = match &parsed {
        Some(exceeded) => Msg::Exhausted {
            quota: exceeded.quota.as_str().into(),
            amounts: exceeded
                .amounts
                .iter()
                .map(|a| {
                    Msg::Amount {
                        resource: a.resource.as_str().into(),
                        requested: a.requested.clone(),
                        used: a.used.clone(),
                        limited: a.limited.clone(),
                    }
                    .into()
                })
                .collect(),
        }
        .into(),
        None => Msg::Undeclared {
            reason: first.reason.clone(),
        }
        .into(),
    };
    let summary = if first.from_client {
        let (kind, name) = first.refused.clone().unwrap_or_default();
        Msg::Refused {
            object: ObjectRef {
                kind: kind.into(),
                namespace: ns.map(Into::into),
                name: name.into(),
                uid: None,
            },
            what: Box::new(what),
        }
    } else {
        let refusals = refusals(group);
        Msg::CannotCreatePods {
            subject: id.clone(),
            what: Box::new(what),
            refusals,
        }
    };
    let mut cannot_establish: Vec<Message> =
        vec![Msg::SizedAsIntended {}.into(), Msg::OtherAdmission {}.into()];
    if model.objects_in(ns).all(|o| o.id.kind != "Pod") {
        cannot_establish.push(
            Msg::NoPodsPasted {
                namespace: ns.unwrap_or_default().into(),
            }
            .into(),
        );
    }
    if model.objects_in(ns).all(|o| o.id.kind != "ResourceQuota") {
        cannot_establish.push(
            Msg::NoQuotaPasted {
                namespace: ns.unwrap_or_default().into(),
            }
            .into(),
        );
    }
    let next_steps = vec![
        command!("kubectl describe resourcequota -n {}", cmd_ns),
        command!("kubectl get pods -n {} -o 'custom-columns=NAME:.metadata.name,CPU:.spec.containers[*].resources.requests.cpu,MEMORY:.spec.containers[*].resources.requests.memory'", cmd_ns),
        command!("kubectl get events -n {} --field-selector reason=FailedCreate", cmd_ns),
    ];
    // The object at fault is the quota that refused, when the message names it (`exceeded quota:
    // NAME`); the refused object or controller is what it hurts. A `must specify` refusal names the
    // object's own missing requests as the fault: the refused object stays the subject.
    let quota = parsed.as_ref().map(|exceeded| ObjectRef {
        kind: "ResourceQuota".into(),
        namespace: ns.map(Into::into),
        name: exceeded.quota.as_str().into(),
        uid: None,
    });
    let mut finding = RULE.finding(
        Severity::Error,
        quota.clone().unwrap_or_else(|| id.clone()),
        summary,
        evidence,
        cannot_establish,
        next_steps,
    );
    if quota.is_some() {
        finding.affects.push(id.clone());
    }
    finding
}

faultline_report::messages! {
    /// The words of `quota-exceeded-on-create`.
    pub enum Msg {
        /// An object kubectl was refused (403 Forbidden) by a quota: it does not exist.
        Refused { object: ObjectRef, what: Box<Message> } = "quota-exceeded-on-create.refused" {
            en: {
                let kind = &object.0.kind;
                format!("Creating {object} was refused with 403 Forbidden: {what}. The {kind} does not exist, so there is nothing to describe or log.")
            },
            zh: {
                let kind = &object.0.kind;
                format!("创建 {object} 的请求被拒绝，返回 403 Forbidden：{what}。这个 {kind} 并不存在，所以没有对象可以查看，也没有日志。")
            },
        },
        /// A controller whose Pods a quota refuses, and how many refusals were seen.
        CannotCreatePods { subject: ObjectRef, what: Box<Message>, refusals: u32 } = "quota-exceeded-on-create.cannot-create-pods" {
            en: {
                let seen = if *refusals.0 == 1 { "1 refusal seen".to_string() } else { format!("{refusals} refusals seen") };
                format!("{subject} cannot create its Pods: {what}. The API server refused them ({seen}), so those Pods do not exist.")
            },
            zh: "{subject} 无法创建它的 Pod：{what}。API 服务器拒绝了这些 Pod（共看到 {refusals} 次拒绝），所以它们并不存在。",
        },
        /// A ResourceQuota without room, with the refused request's amounts when the message gives them.
        Exhausted { quota: Text, amounts: Vec<Message> } = "quota-exceeded-on-create.exhausted" {
            en: {
                if amounts.0.is_empty() {
                    format!("ResourceQuota {quota} is exhausted")
                } else {
                    format!("ResourceQuota {quota} is exhausted ({amounts})")
                }
            },
            zh: {
                if amounts.0.is_empty() {
                    format!("ResourceQuota {quota} 已经用尽")
                } else {
                    format!("ResourceQuota {quota} 已经用尽（{amounts}）")
                }
            },
        },
        /// One resource of a refused request: requested, already used, the quota's limit.
        Amount { resource: Text, requested: String, used: String, limited: String } = "quota-exceeded-on-create.amount" {
            en: "{resource}: {requested} requested, {used} of {limited} already used",
            zh: "{resource}：本次申请 {requested}，上限 {limited} 中已用 {used}",
        },
        /// A quota that requires requests or limits the object does not declare (the API server's reason).
        Undeclared { reason: String } = "quota-exceeded-on-create.undeclared" {
            en: "the namespace's ResourceQuota requires resources the object does not declare ({reason})",
            zh: "命名空间的 ResourceQuota 要求声明某些资源，而该对象没有声明（{reason}）",
        },
        SizedAsIntended {} = "quota-exceeded-on-create.sized-as-intended" {
            en: "Whether the quota is sized as intended, or the request is larger than it needs to be.",
            zh: "配额的大小是否符合预期，还是请求的资源超出了实际需要。",
        },
        OtherAdmission {} = "quota-exceeded-on-create.other-admission" {
            en: "Whether other admission checks (PodSecurity, webhooks, LimitRange) would also refuse it once the quota allows it.",
            zh: "配额放行之后，其他准入检查（PodSecurity、Webhook、LimitRange）是否也会拒绝它。",
        },
        /// `namespace` is empty where the input does not state it.
        NoPodsPasted { namespace: Text } = "quota-exceeded-on-create.no-pods-pasted" {
            en: {
                if namespace.0.is_empty() {
                    "Which workloads consume the quota: no Pods of its namespace were pasted.".to_string()
                } else {
                    format!("Which workloads consume the quota: no Pods of namespace {namespace} were pasted.")
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
        NoQuotaPasted { namespace: Text } = "quota-exceeded-on-create.no-quota-pasted" {
            en: {
                if namespace.0.is_empty() {
                    "The ResourceQuota objects of its namespace were not pasted: only the refusal's numbers are known.".to_string()
                } else {
                    format!("The ResourceQuota objects of namespace {namespace} were not pasted: only the refusal's numbers are known.")
                }
            },
            zh: {
                if namespace.0.is_empty() {
                    "输入中没有它所在命名空间的 ResourceQuota 对象：只知道拒绝消息中的数字。".to_string()
                } else {
                    format!("输入中没有命名空间 {namespace} 的 ResourceQuota 对象：只知道拒绝消息中的数字。")
                }
            },
        },
    }
}
