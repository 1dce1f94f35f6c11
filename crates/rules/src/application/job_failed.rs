use faultline_model::Model;
use faultline_report::message::Message;
use faultline_report::{Boundary, Evidence, Finding, ObjectRef, Severity, Text};

crate::declare_rule! {
    /// ## What it finds
    /// A Job that has failed for good: its `Failed` condition is `True` with reason
    /// `BackoffLimitExceeded` (its Pods failed more times than `spec.backoffLimit` allows) or
    /// `DeadlineExceeded` (it ran longer than `spec.activeDeadlineSeconds`), or — when the Job itself
    /// was not pasted — the Job controller's `BackoffLimitExceeded` / `DeadlineExceeded` events.
    /// `status.failed` (how many Pods failed) is cited with it.
    ///
    /// ## Why it matters
    /// A failed Job creates no more Pods, and its failed Pods may already be gone: the failure is
    /// easy to miss in `kubectl get pods`. Its Pods ran and exited non-zero (or too slowly): the
    /// container's own work is what failed, not the cluster around it.
    ///
    /// ## Evidence
    /// `status.conditions[type=Failed]` (reason and message), `status.failed`, `spec.backoffLimit`,
    /// then the controller's events; and the log of its Pods when pasted (`kubectl logs job/JOB`,
    /// `-l job-name=JOB`, or a Pod named after it): its terminal error, cited by line, what kind of
    /// error it is and the dependency it names.
    ///
    /// ## Fault boundary
    /// `application`: the Job's Pods ran and their command failed.
    ///
    /// ## What this evidence cannot establish
    /// Why the Pods failed (their exit codes and logs, which the Job does not keep), and whether a
    /// dependency they needed was down; with `DeadlineExceeded`, whether the work was slow or stuck.
    /// A pasted log's last line is what the process said, not proof of why.
    ///
    /// ## Next evidence to collect
    /// `kubectl get pods -n NS -l job-name=JOB` (the failed Pods, if kept), `kubectl logs -n NS
    /// -l job-name=JOB --previous`, and `kubectl describe job JOB -n NS`.
    ///
    /// ## Example
    /// ```text
    /// status:
    ///   conditions:
    ///   - type: Failed
    ///     status: "True"
    ///     reason: BackoffLimitExceeded
    ///     message: Job has reached the specified backoff limit
    ///   failed: 5
    /// ```
    pub const RULE = { id: "job-failed", boundary: Boundary::Application, components: [Containers], check: check };
}

const REASONS: [&str; 2] = ["BackoffLimitExceeded", "DeadlineExceeded"];

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    let mut seen: Vec<&ObjectRef> = Vec::new();
    for job in model.failed_jobs() {
        seen.push(&job.job.id);
        findings.push(finding(
            model,
            &job.job.id,
            job.reason,
            job.failed_pods,
            job.evidence(model),
            true,
        ));
    }
    // A Job known only from its controller's events (or pasted without its failure).
    for job in model.event_subjects("Job", |e| REASONS.contains(&e.reason.as_str())) {
        let Some(event) = job.first_read().filter(|_| !seen.contains(&job.subject)) else {
            continue;
        };
        let evidence = model.event_evidence(event).into_iter().collect();
        findings.push(finding(model, job.subject, &event.reason, None, evidence, false));
    }
}

fn finding(
    model: &Model<'_>,
    id: &ObjectRef,
    reason: &str,
    failed_pods: Option<&str>,
    mut evidence: Vec<Evidence>,
    pasted: bool,
) -> Finding {
    // The log of its Pods, when pasted (`kubectl logs job/NAME`, `-l job-name=NAME`, a Pod of it).
    let log = crate::log_evidence::for_job(model, id);
    evidence.extend(log.iter().flat_map(|l| l.evidence.iter().cloned()));
    let ns = id.namespace.as_deref().unwrap_or(crate::UNKNOWN_NAMESPACE);
    let what = match reason {
        "DeadlineExceeded" => Msg::DeadlineExceeded {},
        _ => Msg::BackoffLimitExceeded {},
    };
    let summary = Msg::Failed {
        subject: id.clone(),
        what: Box::new(what.into()),
        failed_pods: failed_pods.map(Into::into),
        log: log.as_ref().map(|l| Box::new(l.said.clone())),
    };
    let mut cannot = log
        .as_ref()
        .map_or_else(|| vec![Msg::WhyPodsFailed {}.into()], |l| l.cannot.clone());
    cannot.push(Msg::DependencyDown {}.into());
    cannot.extend((!pasted).then(|| Msg::NotPasted { subject: id.clone() }.into()));
    let name = &id.name;
    let mut steps = vec![
        command!("kubectl get pods -n {} -l job-name={}", ns, name),
        command!("kubectl logs -n {} -l job-name={} --previous --tail=50", ns, name),
        command!("kubectl describe job {} -n {}", name, ns),
    ];
    steps.extend(log.and_then(|l| l.next));
    RULE.finding(Severity::Error, id.clone(), summary, evidence, cannot, steps)
}

faultline_report::messages! {
    /// The words of `job-failed`.
    pub enum Msg {
        /// A Job that failed for good: why (`what`), and `status.failed` as the Job states it.
        Failed { subject: ObjectRef, what: Box<Message>, failed_pods: Option<Text>, log: Option<Box<Message>> } = "job-failed.failed" {
            en: {
                let pods = failed_pods.0.as_ref().map(|n| format!(" {n} Pod(s) failed.")).unwrap_or_default();
                let log = log.0.as_ref().map(|l| format!(" {}", l.render(faultline_report::lang::Lang::En))).unwrap_or_default();
                format!("{subject} has failed: {what}, and it creates no more Pods.{pods}{log}")
            },
            zh: {
                let pods = failed_pods.0.as_ref().map(|n| format!("已有 {n} 个 Pod 失败。")).unwrap_or_default();
                let log = log.0.as_ref().map(|l| l.render(faultline_report::lang::Lang::Zh)).unwrap_or_default();
                format!("{subject} 已经失败：{what}，不会再创建新的 Pod。{pods}{log}")
            },
        },
        DeadlineExceeded {} = "job-failed.deadline-exceeded" {
            en: "it ran longer than its activeDeadlineSeconds (DeadlineExceeded), so its Pods were stopped",
            zh: "它的运行时间超过了 activeDeadlineSeconds（DeadlineExceeded），因此它的 Pod 被停止了",
        },
        BackoffLimitExceeded {} = "job-failed.backoff-limit-exceeded" {
            en: "its Pods failed more times than its backoffLimit allows (BackoffLimitExceeded)",
            zh: "它的 Pod 失败的次数超过了 backoffLimit 允许的上限（BackoffLimitExceeded）",
        },
        WhyPodsFailed {} = "job-failed.why-pods-failed" {
            en: "Why its Pods failed: their exit codes and logs are not in the Job (the failed Pods may already be deleted).",
            zh: "它的 Pod 为什么失败：Job 里没有这些 Pod 的退出码和日志（失败的 Pod 可能已经被删除）。",
        },
        DependencyDown {} = "job-failed.dependency-down" {
            en: "Whether a dependency the work needs (a database, a file, an endpoint) was down when it ran.",
            zh: "任务运行时，它所需要的某个依赖（数据库、文件、某个端点）是否不可用。",
        },
        NotPasted { subject: ObjectRef } = "job-failed.not-pasted" {
            en: "{subject} itself was not pasted: this rests on its controller's event alone.",
            zh: "输入中没有 {subject} 本身：这只基于它的控制器发出的事件。",
        },
    }
}
