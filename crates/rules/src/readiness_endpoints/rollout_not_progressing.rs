use crate::history;
use faultline_model::owners::descends_from;
use faultline_model::views::workload_rollout::{failed_at, match_labels};
use faultline_model::Model;
use faultline_report::lang::Lang;
use faultline_report::message::{common, Message};
use faultline_report::{Boundary, Finding, ObjectRef, Severity};

crate::declare_rule! {
    /// ## What it finds
    /// A workload whose rollout is stuck: a Deployment with `Progressing=False`
    /// (`ProgressDeadlineExceeded`, "ReplicaSet \"web-7d9f\" has timed out progressing."), a
    /// `ReplicaFailure=True` condition, or `Available=False` (`MinimumReplicasUnavailable`); and a
    /// Deployment, StatefulSet or DaemonSet with replicas not ready while a finding below it (its
    /// ReplicaSets and Pods, followed down the owner references) says why, including a Deployment that
    /// says `Available=True` while the Pods of its new ReplicaSet fail.
    ///
    /// ## Why it matters
    /// The rollout is what the user sees ("the deploy hangs"), but it is a symptom: the controller
    /// only counts Pods that are not available. The cause is below it, so the finding follows the
    /// owners down (Deployment → ReplicaSet → Pod, or the ReplicaSet's `FailedCreate`) and is listed
    /// under the finding that explains it, taking that finding's boundary. `Available=True` during a
    /// rollout only says enough *old* Pods still serve.
    ///
    /// ## Evidence
    /// The workload's conditions (`Progressing`, `Available`, `ReplicaFailure`) and replica counts
    /// (`replicas`, `updatedReplicas`, `readyReplicas`, `availableReplicas`), then the finding about a
    /// ReplicaSet or Pod it owns. A rollout still within its progress deadline with no failing Pod
    /// pasted is not reported: Pods take time to start. When the input holds another copy of the
    /// workload whose rollout completed (`Progressing=True`, `NewReplicaSetAvailable`, every replica
    /// available) and the conditions' times show it is the newer one, the stall is history (an
    /// info line); without times to order the copies, the finding says it cannot tell.
    ///
    /// ## Fault boundary
    /// The boundary of the finding that explains it. When nothing pasted explains it, `readiness-endpoints`:
    /// availability is Pods becoming Ready, and why they do not is what is missing.
    ///
    /// ## What this evidence cannot establish
    /// Why the new Pods are not available, unless the ReplicaSets, the Pods or their events are pasted;
    /// whether the progress deadline (600 s by default) is simply too short for this workload.
    ///
    /// ## Next evidence to collect
    /// `kubectl rollout status deployment/NAME`, `kubectl get rs,pods -l SELECTOR -o yaml`, and
    /// `kubectl describe` of the newest ReplicaSet (its `FailedCreate` events) and of a Pod that is not
    /// ready.
    ///
    /// ## Example
    /// ```yaml
    /// status:
    ///   conditions:
    ///   - type: Progressing
    ///     status: "False"
    ///     reason: ProgressDeadlineExceeded
    ///     message: ReplicaSet "web-7d9f8c6b5" has timed out progressing.
    /// ```
    pub const RULE = { id: "rollout-not-progressing", boundary: Boundary::ReadinessEndpoints, components: [ServiceSlice, Kubelet], check: check };
}

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    for rollout in model.rollouts() {
        let (object, id) = (rollout.object, &rollout.object.id);
        let (stalled, unavailable) = (rollout.stalled(), rollout.unavailable());
        // Not stalled and nothing behind: healthy, or scaled to zero.
        if !stalled && !unavailable && !rollout.behind() {
            continue;
        }
        // Still progressing with nothing failing pasted: Pods take time to start; only report it when
        // a finding below explains it (decided in `relate`) — so only when one of its Pods or
        // ReplicaSets has a finding.
        let has_cause_below = findings.iter().any(|f| {
            f.rule != RULE.id
                && std::iter::once(&f.subject)
                    .chain(&f.affects)
                    .any(|s| descends_from(model, s, id))
        });
        if !stalled && !has_cause_below {
            continue;
        }
        let (ready, desired) = (rollout.ready, rollout.desired);
        let subject = id.clone();
        // The conditions' own words, verbatim.
        let verbatim = |m: &str| (!m.is_empty()).then(|| m.to_string());
        let state = if let Some(c) = rollout.deadline_exceeded() {
            Msg::Deadline {
                subject,
                message: verbatim(c.message),
            }
        } else if let Some(c) = &rollout.replica_failure {
            let (reason, message) = (c.reason.to_string(), verbatim(c.message));
            Msg::ReplicaFailure {
                subject,
                reason,
                message,
            }
        } else if unavailable {
            let reason = rollout.available.as_ref().and_then(|c| verbatim(c.reason));
            Msg::Unavailable { subject, reason }
        } else {
            Msg::RollingOut {
                subject,
                updated: rollout.updated,
                ready,
                desired,
            }
        };
        let available = rollout.short() && (stalled || unavailable);
        let previous = rollout.says_available() && (stalled || rollout.behind());
        let summary = Msg::Summary {
            state: Box::new(state.into()),
            available: available.then(|| Box::new(Msg::Available { ready, desired }.into())),
            previous: previous.then(|| Box::new(Msg::PreviousStillServes {}.into())),
        };
        let mut cannot_establish: Vec<Message> =
            vec![Msg::WhyNotAvailable {}.into(), Msg::DeadlineTooShort {}.into()];
        if !model.owns_any(object) {
            cannot_establish.push(Msg::NothingBelow { subject: id.clone() }.into());
        }
        let ns = id.namespace.as_deref().unwrap_or(crate::UNKNOWN_NAMESPACE);
        let (resource, name) = (id.kind.to_ascii_lowercase(), &id.name);
        let next_steps = vec![
            command!("kubectl rollout status {}/{} -n {}", resource, name, ns),
            match match_labels(object) {
                Some(sel) => command!("kubectl get rs,pods -n {} -l {} -o wide", ns, sel),
                None => command!("kubectl describe {} {} -n {}", resource, name, ns),
            },
            command!(
                "kubectl get events -n {} --field-selector type=Warning --sort-by=.lastTimestamp",
                ns
            ),
        ];
        // Another copy of the workload in the input (a later `get -o yaml`) whose rollout completed:
        // history when its condition is newer by the conditions' own times; else which is newer
        // the input cannot tell.
        let later = model.completed_copy(object);
        if matches!(later, Some((_, None))) {
            cannot_establish.insert(0, Msg::WhichCopyIsNewer { subject: id.clone() }.into());
        }
        let severity = if stalled {
            Severity::Error
        } else {
            Severity::Warning
        };
        let evidence = rollout.evidence(model);
        let mut finding = RULE.finding(
            severity,
            id.clone(),
            summary,
            evidence,
            cannot_establish,
            next_steps,
        );
        if let Some((copy, Some(at))) = later {
            let by = Msg::CompletedSince {
                subject: id.clone(),
                at: at.to_string(),
            }
            .into();
            let recovery = history::Recovery {
                by,
                evidence: model.completed_evidence(copy),
            };
            let until = failed_at(object).map(|t| common::Msg::Time { at: t.to_string() }.into());
            history::record(&mut finding, until, recovery);
        }
        findings.push(finding);
    }
}

faultline_report::messages! {
    /// The words of `rollout-not-progressing`.
    pub enum Msg {
        /// The summary: the rollout's state, then how many replicas are available and what an
        /// `Available=True` does not say, when they apply.
        Summary { state: Box<Message>, available: Option<Box<Message>>, previous: Option<Box<Message>> } = "rollout-not-progressing.summary" {
            en: {
                let mut text = state.to_string();
                for sentence in [available.0, previous.0].into_iter().flatten() {
                    text.push(' ');
                    text.push_str(&sentence.render(Lang::En));
                }
                text
            },
            zh: "{state}{available}{previous}",
        },
        /// A later copy of the workload shows its rollout completed, at the condition's time.
        CompletedSince { subject: ObjectRef, at: String } = "rollout-not-progressing.completed-since" {
            en: "another copy of {subject} in the input shows Progressing=True, NewReplicaSetAvailable, updated {at}, with every replica available",
            zh: "输入中 {subject} 的另一份副本显示 Progressing=True、NewReplicaSetAvailable，更新于 {at}，所有副本都可用",
        },
        /// Two copies of the workload, one stalled and one completed, and no times to order them.
        WhichCopyIsNewer { subject: ObjectRef } = "rollout-not-progressing.which-copy-is-newer" {
            en: "Whether this is still stalled: another copy of {subject} in the input shows its rollout complete (NewReplicaSetAvailable), and no condition time says which copy is newer.",
            zh: "它是否仍然卡住：输入中 {subject} 的另一份副本显示发布已完成（NewReplicaSetAvailable），而没有哪个状况时间能说明哪一份更新。",
        },
        /// `Progressing=False` with `ProgressDeadlineExceeded`; `message` is the condition's, verbatim.
        Deadline { subject: ObjectRef, message: Option<String> } = "rollout-not-progressing.deadline" {
            en: {
                let message = message.0.as_ref().map(|m| format!(": \"{m}\"")).unwrap_or_default();
                format!("{subject} has stopped progressing (Progressing=False, ProgressDeadlineExceeded{message}).")
            },
            zh: {
                let message = message.0.as_ref().map(|m| format!("：“{m}”")).unwrap_or_default();
                format!("{subject} 已停止推进（Progressing=False，ProgressDeadlineExceeded{message}）。")
            },
        },
        /// `ReplicaFailure=True`, with the condition's reason and message verbatim.
        ReplicaFailure { subject: ObjectRef, reason: String, message: Option<String> } = "rollout-not-progressing.replica-failure" {
            en: {
                let message = message.0.as_ref().map(|m| format!(": \"{m}\"")).unwrap_or_default();
                format!("{subject} cannot create its Pods (ReplicaFailure=True, {reason}{message}).")
            },
            zh: {
                let message = message.0.as_ref().map(|m| format!("：“{m}”")).unwrap_or_default();
                format!("{subject} 无法创建它的 Pod（ReplicaFailure=True，{reason}{message}）。")
            },
        },
        /// `Available=False`, with the condition's reason when it has one.
        Unavailable { subject: ObjectRef, reason: Option<String> } = "rollout-not-progressing.unavailable" {
            en: {
                let reason = reason.0.as_ref().map(|r| format!(", {r}")).unwrap_or_default();
                format!("{subject} is not available (Available=False{reason}).")
            },
            zh: {
                let reason = reason.0.as_ref().map(|r| format!("，{r}")).unwrap_or_default();
                format!("{subject} 不可用（Available=False{reason}）。")
            },
        },
        /// A rollout under way whose replicas are not all updated or available.
        RollingOut { subject: ObjectRef, updated: Option<u64>, ready: u64, desired: u64 } = "rollout-not-progressing.rolling-out" {
            en: {
                let updated = updated.0.map(|u| format!("{u} of {desired} replicas updated, ")).unwrap_or_default();
                format!("{subject} is rolling out: {updated}{ready} of {desired} available.")
            },
            zh: {
                let updated = updated.0.map(|u| format!("已更新 {u} 个，")).unwrap_or_default();
                format!("{subject} 正在滚动更新：{desired} 个副本中{updated}可用 {ready} 个。")
            },
        },
        Available { ready: u64, desired: u64 } = "rollout-not-progressing.available" {
            en: "{ready} of {desired} replicas are available.",
            zh: "{desired} 个副本中有 {ready} 个可用。",
        },
        /// The workload says `Available=True` while its rollout is stalled or behind.
        PreviousStillServes {} = "rollout-not-progressing.previous-still-serves" {
            en: "Its Available=True only says enough Pods of the previous ReplicaSet still serve; the new ones are the problem.",
            zh: "它的 Available=True 只说明旧 ReplicaSet 仍有足够的 Pod 在提供服务；出问题的是新的 Pod。",
        },
        WhyNotAvailable {} = "rollout-not-progressing.why-not-available" {
            en: "Why the new Pods are not available: the rollout's conditions only count them.",
            zh: "新的 Pod 为什么不可用：滚动更新的状况只统计了它们的数量。",
        },
        DeadlineTooShort {} = "rollout-not-progressing.deadline-too-short" {
            en: "Whether the progress deadline (600 s unless spec.progressDeadlineSeconds says otherwise) is simply too short for this workload's start-up.",
            zh: "推进期限（默认 600 秒，除非 spec.progressDeadlineSeconds 另有设置）是否只是对这个工作负载的启动来说太短了。",
        },
        NothingBelow { subject: ObjectRef } = "rollout-not-progressing.nothing-below" {
            en: "No ReplicaSets or Pods of {subject} were pasted, so the cause below it is unknown.",
            zh: "输入中没有 {subject} 的 ReplicaSet 或 Pod，因此它下层的原因不清楚。",
        },
    }
}
