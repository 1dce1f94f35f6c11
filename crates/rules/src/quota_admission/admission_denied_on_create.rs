use super::rejections::{by_subject, evidence_of, refusals, rejections, resolved, Rejection};
use faultline_model::signals::admission_refusal::{is_admission, AdmissionPolicy};
use faultline_model::signals::quota_refusal::is_quota;
use faultline_model::Model;
use faultline_report::lang::Lang;
use faultline_report::message::Message;
use faultline_report::{Boundary, Evidence, Finding, ObjectRef, Severity};

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
    pub const RULE = { id: "admission-denied-on-create", boundary: Boundary::QuotaAdmission, components: [ApiServer, ControllerManager if ByController], check: check };
}

/// The words of the policy that refused.
fn policy_message(policy: &AdmissionPolicy) -> Message {
    match policy {
        AdmissionPolicy::PodSecurity(level) => Msg::PodSecurity { level: level.clone() },
        AdmissionPolicy::Webhook(name) => Msg::Webhook { name: name.clone() },
        AdmissionPolicy::LimitRange => Msg::LimitRange {},
        AdmissionPolicy::Other => Msg::Admission {},
    }
    .into()
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
    let cmd_ns = id.namespace.as_deref().unwrap_or(crate::UNKNOWN_NAMESPACE);
    let mut evidence: Vec<Evidence> = evidence_of(group);
    if let Some(object) = model.object(id) {
        evidence.extend(model.evidence(object, "spec.replicas"));
        evidence.extend(model.evidence(object, "status.replicas"));
    }
    let by = AdmissionPolicy::of(&first.reason);
    // The policy's explanation often follows on later lines: collapse them, keep it readable.
    let first_reason = first.reason_on_one_line(300);
    let summary = if first.from_client {
        let (kind, name) = first.refused.clone().unwrap_or_default();
        let namespace = (!faultline_ingest::events_table::is_cluster_scoped(&kind))
            .then(|| id.namespace.clone())
            .flatten();
        Msg::Refused {
            object: ObjectRef {
                kind: kind.into(),
                namespace,
                name: name.into(),
                uid: None,
            },
            by: Box::new(policy_message(&by)),
            reason: first_reason,
        }
    } else {
        let refusals = refusals(group);
        Msg::CannotCreatePods {
            subject: id.clone(),
            by: Box::new(policy_message(&by)),
            refusals,
            reason: first_reason,
        }
    };
    let cannot_establish: Vec<Message> = vec![Msg::PolicyIntended {}.into(), Msg::WouldRun {}.into()];
    let mut next_steps = vec![command!(
        "kubectl get events -n {} --field-selector reason=FailedCreate",
        cmd_ns
    )];
    if matches!(by, AdmissionPolicy::PodSecurity(_)) {
        next_steps.push(command!("kubectl get namespace {} --show-labels", cmd_ns));
    }
    if matches!(by, AdmissionPolicy::Webhook(_)) {
        next_steps
            .push("kubectl get validatingwebhookconfigurations,mutatingwebhookconfigurations".to_string());
    }
    if by == AdmissionPolicy::LimitRange {
        next_steps.push(command!("kubectl describe limitrange -n {}", cmd_ns));
    }
    let lower_kind = id.kind.to_ascii_lowercase();
    // A Pod's spec is `.spec`; a workload's Pods are specified by its template. Not for an object
    // kubectl was refused: it does not exist to get (and where kubectl's line names only its
    // manifest, `deploy.yaml` is a file, not a name of kind `object`).
    if !first.from_client {
        next_steps.push(spec_command(id, &lower_kind, cmd_ns));
    }
    RULE.finding(
        Severity::Error,
        id.clone(),
        summary,
        evidence,
        cannot_establish,
        next_steps,
    )
}

/// The command that shows what the refused Pods are specified by.
fn spec_command(id: &ObjectRef, lower_kind: &str, cmd_ns: &str) -> String {
    if id.kind == "Pod" {
        command!(
            "kubectl get pod {} -n {} -o jsonpath='{{.spec}}'",
            id.name,
            cmd_ns
        )
    } else {
        command!(
            "kubectl get {} {} -n {} -o jsonpath='{{.spec.template.spec}}'",
            lower_kind,
            id.name,
            cmd_ns
        )
    }
}

/// A Chinese clause set between Chinese words: a space on each side that meets a Latin letter, a digit
/// or a quote (`被 Pod 安全准入（…）拒绝`, `被准入 Webhook “x” 拒绝`, `被准入控制拒绝`).
fn spaced(text: String) -> String {
    let before = if text.starts_with(|c: char| c.is_ascii_graphic() || c == '“') {
        " "
    } else {
        ""
    };
    let after = if text.ends_with(|c: char| c.is_ascii_graphic() || c == '”') {
        " "
    } else {
        ""
    };
    format!("{before}{text}{after}")
}

faultline_report::messages! {
    /// The words of `admission-denied-on-create`.
    pub enum Msg {
        /// An object kubectl was refused by admission: it does not exist.
        Refused { object: ObjectRef, by: Box<Message>, reason: String } = "admission-denied-on-create.refused" {
            en: {
                let kind = &object.0.kind;
                format!("Creating {object} was refused by {by}: {reason}. The {kind} does not exist.")
            },
            zh: {
                let kind = &object.0.kind;
                let by = spaced(by.0.render(Lang::Zh));
                format!("创建 {object} 的请求被{by}拒绝：{reason}。这个 {kind} 并不存在。")
            },
        },
        /// A controller whose Pods admission refuses, how many refusals were seen, and why.
        CannotCreatePods { subject: ObjectRef, by: Box<Message>, refusals: u32, reason: String } = "admission-denied-on-create.cannot-create-pods" {
            en: {
                let seen = if *refusals.0 == 1 { "1 refusal seen".to_string() } else { format!("{refusals} refusals seen") };
                format!("{subject} cannot create its Pods: {by} refuses them ({seen}): {reason}. Those Pods do not exist.")
            },
            zh: {
                let by = spaced(by.0.render(Lang::Zh)).trim_start().to_string();
                format!("{subject} 无法创建它的 Pod：{by}拒绝了它们（共看到 {refusals} 次拒绝）：{reason}。这些 Pod 并不存在。")
            },
        },
        /// Pod Security admission, at a level (`"restricted:latest"`).
        PodSecurity { level: String } = "admission-denied-on-create.pod-security" {
            en: { format!("Pod Security admission (level \"{}\")", level.0) },
            zh: { format!("Pod 安全准入（级别 “{}”）", level.0) },
        },
        /// A validating or mutating admission webhook, by name.
        Webhook { name: String } = "admission-denied-on-create.webhook" {
            en: { format!("the admission webhook \"{}\"", name.0) },
            zh: { format!("准入 Webhook “{}”", name.0) },
        },
        LimitRange {} = "admission-denied-on-create.limit-range" {
            en: "the namespace's LimitRange",
            zh: "命名空间的 LimitRange",
        },
        /// Admission whose step the reason does not name.
        Admission {} = "admission-denied-on-create.admission" {
            en: "admission",
            zh: "准入控制",
        },
        PolicyIntended {} = "admission-denied-on-create.policy-intended" {
            en: "Whether the policy is the one intended for this namespace (its labels, the webhook's configuration).",
            zh: "这个策略是否就是为该命名空间设定的那一个（命名空间的标签、Webhook 的配置）。",
        },
        WouldRun {} = "admission-denied-on-create.would-run" {
            en: "Whether the Pod would schedule and run once admitted.",
            zh: "Pod 被准入之后能否被调度并运行。",
        },
    }
}

#[cfg(test)]
mod tests {
    use faultline_model::signals::admission_refusal::AdmissionPolicy;

    #[test]
    fn policies_in_words() {
        let words = |reason: &str| super::policy_message(&AdmissionPolicy::of(reason)).to_string();
        assert_eq!(
            words("violates PodSecurity \"restricted:latest\": x"),
            "Pod Security admission (level \"restricted:latest\")"
        );
        assert_eq!(
            words("admission webhook \"validate.kyverno.svc\" denied the request: nope"),
            "the admission webhook \"validate.kyverno.svc\""
        );
    }
}
