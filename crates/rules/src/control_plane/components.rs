//! The control plane's own Pods (kubeadm's static Pods in `kube-system`): which component a Pod is,
//! and whether it is failing, with the fields that say so. Shared by the control-plane and etcd rules.

use crate::containers::containers;
use crate::history;
use crate::Rule;
use faultline_ingest::{Object, Typed};
use faultline_model::views::pod_running::{kubectl_printed_status, pod_component_label, pod_node_name};
use faultline_model::Model;
use faultline_report::message::Message;
use faultline_report::{Detail, Evidence, Finding, ObjectRef, Severity, Text};

pub const APISERVER: &str = "kube-apiserver";
pub const ETCD: &str = "etcd";
pub const SCHEDULER: &str = "kube-scheduler";
pub const CONTROLLER_MANAGER: &str = "kube-controller-manager";
/// The control plane's components, as `rules::cluster_components::TABLE` lists them too (a test
/// keeps the two in step).
pub const COMPONENTS: [&str; 4] = [APISERVER, CONTROLLER_MANAGER, SCHEDULER, ETCD];

/// The component a Pod runs: its `component` label (kubeadm, kOps), else its name
/// (`kube-apiserver-<node>`), only in `kube-system`.
pub fn component(object: &Object) -> Option<&'static str> {
    if object.id.kind != "Pod" || object.id.namespace.as_deref() != Some("kube-system") {
        return None;
    }
    let label = pod_component_label(object);
    COMPONENTS.into_iter().find(|c| {
        label == Some(*c)
            || object
                .id
                .name
                .strip_prefix(c)
                .is_some_and(|rest| rest.starts_with('-') && rest.len() > 1)
    })
}

/// Why the component's Pod is failing, a clause per container, and the fields that show it; `None`
/// when it runs.
pub fn failing(model: &Model<'_>, object: &Object) -> Option<(Vec<Message>, Vec<Evidence>)> {
    let mut evidence = Vec::new();
    let mut said: Vec<Message> = Vec::new();
    if let Typed::Pod(pod) = &object.typed {
        for c in containers(pod) {
            let waiting = c
                .waiting_reason()
                .filter(|r| *r != "ContainerCreating" && *r != "PodInitializing");
            let terminated = c.termination().filter(|(_, t)| t.exit_code != 0);
            if waiting.is_none() && terminated.is_none() && c.status.ready {
                continue;
            }
            if waiting.is_none() && terminated.is_none() && c.status.restart_count == 0 {
                // Not ready, never restarted, nothing waiting: still starting.
                continue;
            }
            if waiting.is_some() {
                evidence.extend(model.evidence(object, &format!("{}.state.waiting.reason", c.status_path)));
                evidence.extend(model.evidence(object, &format!("{}.state.waiting.message", c.status_path)));
            } else if !c.status.ready {
                evidence.extend(model.evidence(object, &format!("{}.ready", c.status_path)));
            }
            let mut exit = None;
            if let Some((key, t)) = terminated {
                evidence
                    .extend(model.evidence(object, &format!("{}.{key}.terminated.exitCode", c.status_path)));
                evidence
                    .extend(model.evidence(object, &format!("{}.{key}.terminated.message", c.status_path)));
                let last_words = t
                    .message
                    .as_deref()
                    .map(str::trim)
                    .filter(|m| !m.is_empty())
                    .map(|m| m.chars().take(200).collect());
                exit = Some(Box::new(Message::from(Msg::Exit {
                    code: t.exit_code,
                    reason: t.reason.as_deref().map(Text::from),
                    last_words,
                })));
            }
            let restarts = u32::try_from(c.status.restart_count).unwrap_or(0);
            if restarts > 0 {
                evidence.extend(model.evidence(object, &format!("{}.restartCount", c.status_path)));
            }
            said.push(
                Msg::Container {
                    name: c.status.name.as_str().into(),
                    waiting: waiting.map(Text::from),
                    ready: c.status.ready,
                    exit,
                    restarts,
                }
                .into(),
            );
        }
        let phase = pod.status.as_ref().and_then(|s| s.phase.as_deref());
        if said.is_empty() && matches!(phase, Some("Failed")) {
            said.push(Msg::PodFailed {}.into());
            evidence.extend(model.evidence(object, "status.phase"));
        }
    }
    if said.is_empty() {
        // A `kubectl get pods` row: its STATUS column.
        let printed = kubectl_printed_status(object)?;
        if matches!(
            printed,
            "Running" | "Completed" | "Succeeded" | "ContainerCreating" | "PodInitializing"
        ) {
            return None;
        }
        said.push(
            Msg::KubectlShows {
                status: printed.into(),
            }
            .into(),
        );
        evidence.extend(model.evidence(object, "kubectl.status"));
    }
    (!said.is_empty()).then_some((said, evidence))
}

/// One finding per failing Pod of the components `wanted` accepts.
pub fn check_components(
    model: &Model<'_>,
    rule: &Rule,
    wanted: fn(&str) -> bool,
    findings: &mut Vec<Finding>,
) {
    for object in model.objects {
        let Some(component) = component(object).filter(|c| wanted(c)) else {
            continue;
        };
        let Some((state, mut evidence)) = failing(model, object) else {
            continue;
        };
        for event in model
            .events_for(&object.id)
            .iter()
            .filter(|e| e.is_warning())
            .rev()
            .take(2)
        {
            evidence.extend(model.event_evidence(event));
        }
        let name = &object.id.name;
        let node = pod_node_name(object).map(str::to_string);
        let consequence = match component {
            APISERVER => Msg::ApiUnreachable {},
            ETCD => Msg::MemberLost {},
            SCHEDULER => Msg::NotScheduled {},
            _ => Msg::NotReconciled {},
        };
        let summary = Msg::Failing {
            component: component.into(),
            pod: object.id.clone(),
            state,
            consequence: Box::new(consequence.into()),
        };
        // Where the node is not known, a placeholder to fill in (the finding says so).
        let where_ = node.as_deref().unwrap_or(crate::UNKNOWN_NODE);
        // etcd is not its own dependency: its log names a data directory or its peers instead.
        let causes = if component == ETCD {
            Msg::EtcdCauses {}
        } else {
            Msg::ComponentCauses {}
        };
        let cannot_establish: Vec<Message> = vec![
            Msg::WhyExits {
                component: component.into(),
                causes: Box::new(causes.into()),
            }
            .into(),
            Msg::OtherCopies {}.into(),
        ];
        let next_steps = vec![
            command!("kubectl -n kube-system logs {} --previous", name),
            command!("kubectl -n kube-system describe pod {}", name),
            command!("ssh {} sudo crictl ps -a --name {}", where_, component),
            // In single quotes: the node's shell, not the user's, runs the inner `crictl ps`.
            command!(
                "ssh {} 'sudo crictl logs $(sudo crictl ps -a -q --name {} | head -1)'",
                where_,
                crate::shell::InQuotes(component)
            ),
        ];
        let subject: ObjectRef = object.id.clone();
        let ran_again = ran_again(model, object);
        let mut cannot_establish = cannot_establish;
        if let Some((false, line, _)) = &ran_again {
            cannot_establish.insert(0, line.clone());
        }
        let mut finding = rule.finding(
            Severity::Error,
            subject,
            summary,
            evidence,
            cannot_establish,
            next_steps,
        );
        // Which component: the one the diagram lights ([`crate::components::When`]).
        finding.details.push(Detail::ControlPlaneComponent(component));
        // Every failing container runs and is ready again and has run past the kubelet's back-off
        // reset since its last restart: the exits are history (a restart after a certificate
        // renewal, a manifest fixed since).
        if let Some((true, _, Some((until, recovery)))) = ran_again {
            history::record(&mut finding, until, recovery);
        }
        findings.push(finding);
    }
}

/// When the component's Pod failed only before — each container that exited runs and is ready
/// now, none waits — whether the input shows each has stayed up since ([`history::stayed_up`]):
/// `(stayed up, what cannot be established when not, the first recovery with when its last run
/// ended)`. `None` when a container is failing now.
pub type RanAgain = (bool, Message, Option<(Option<Message>, history::Recovery)>);

pub fn ran_again(model: &Model<'_>, object: &Object) -> Option<RanAgain> {
    let Typed::Pod(pod) = &object.typed else {
        return None;
    };
    let mut unsettled: Option<Message> = None;
    let mut first: Option<(Option<Message>, history::Recovery)> = None;
    let mut any = false;
    for c in containers(pod) {
        let Some((key, t)) = c.termination().filter(|(_, t)| t.exit_code != 0) else {
            if c.waiting_reason().is_some() {
                return None;
            }
            continue;
        };
        let running = c.status.state.as_ref().is_some_and(|s| s.running.is_some());
        if key != "lastState" || !running || !c.status.ready {
            return None;
        }
        any = true;
        match history::stayed_up(model, object, &c) {
            Some(mut recovery) => match &mut first {
                Some((_, kept)) => kept.evidence.append(&mut recovery.evidence),
                None => {
                    let until = t.finished_at.as_ref().map(|at| {
                        faultline_report::message::common::Msg::Time { at: at.0.to_string() }.into()
                    });
                    first = Some((until, recovery));
                }
            },
            None => {
                unsettled.get_or_insert_with(|| history::restarts_may_rise(model, object, &c));
            }
        }
    }
    if !any {
        return None;
    }
    match unsettled {
        Some(line) => Some((false, line, None)),
        None => {
            let first = first?;
            let line = faultline_report::message::common::Msg::HistoryCannot {}.into();
            Some((true, line, Some(first)))
        }
    }
}

faultline_report::messages! {
    /// The words of `components`, shared by `control-plane-component-failing` and `etcd-member-failing`.
    pub enum Msg {
        /// A control-plane component's Pod failing: how (a clause per container) and what follows.
        Failing { component: Text, pod: ObjectRef, state: Vec<Message>, consequence: Box<Message> } = "control-plane-components.failing" {
            en: {
                let name = &pod.0.name;
                format!("The control plane's {component} is failing: Pod {name}: {state}; {consequence}.")
            },
            zh: {
                let name = &pod.0.name;
                format!("控制平面的 {component} 出现故障：Pod {name}：{state}；{consequence}。")
            },
        },
        /// A container of the Pod: waiting (its reason) or not ready, its last exit, its restarts.
        Container { name: Text, waiting: Option<Text>, ready: bool, exit: Option<Box<Message>>, restarts: u32 } = "control-plane-components.container" {
            en: {
                let state = match (waiting.0, ready.0) {
                    (Some(reason), _) => format!(" is {reason}"),
                    (None, false) => " is not ready".to_string(),
                    (None, true) => String::new(),
                };
                let exit = exit.0.as_ref().map(|e| format!(", {}", e.render(faultline_report::lang::Lang::En))).unwrap_or_default();
                let restarts = match *restarts.0 {
                    0 => String::new(),
                    1 => ", restarted 1 time".to_string(),
                    n => format!(", restarted {n} times"),
                };
                format!("container {name}{state}{exit}{restarts}")
            },
            zh: {
                let state = match (waiting.0, ready.0) {
                    (Some(reason), _) => format!(" 处于 {reason}"),
                    (None, false) => " 未就绪".to_string(),
                    (None, true) => String::new(),
                };
                let exit = exit.0.as_ref().map(|e| format!("，{}", e.render(faultline_report::lang::Lang::Zh))).unwrap_or_default();
                let restarts = match *restarts.0 {
                    0 => String::new(),
                    n => format!("，已重启 {n} 次"),
                };
                format!("容器 {name}{state}{exit}{restarts}")
            },
        },
        /// A container's last run that ended with a non-zero exit code: its reason and last words.
        Exit { code: i32, reason: Option<Text>, last_words: Option<String> } = "control-plane-components.exit" {
            en: {
                let reason = reason.0.as_ref().map(|r| format!(" ({r})")).unwrap_or_default();
                let words = last_words.0.as_ref().map(|w| format!(", its last words \"{w}\"")).unwrap_or_default();
                format!("last exit code {code}{reason}{words}")
            },
            zh: {
                let reason = reason.0.as_ref().map(|r| format!("（{r}）")).unwrap_or_default();
                let words = last_words.0.as_ref().map(|w| format!("，最后的输出是 “{w}”")).unwrap_or_default();
                format!("上次退出码为 {code}{reason}{words}")
            },
        },
        /// The Pod's phase is `Failed` and no container says more.
        PodFailed {} = "control-plane-components.pod-failed" {
            en: "the Pod has failed",
            zh: "Pod 已经失败（Failed）",
        },
        /// A `kubectl get pods` row's STATUS.
        KubectlShows { status: Text } = "control-plane-components.kubectl-shows" {
            en: "kubectl shows it {status}",
            zh: "kubectl 显示它为 {status}",
        },
        ApiUnreachable {} = "control-plane-components.api-unreachable" {
            en: "while it is down, kubectl, controllers and kubelets cannot reach the API",
            zh: "在它恢复之前，kubectl、各个控制器和 kubelet 都无法访问 API",
        },
        MemberLost {} = "control-plane-components.member-lost" {
            en: "the API server cannot read or write the cluster's state through this member",
            zh: "API 服务器无法通过这个成员读写集群状态",
        },
        NotScheduled {} = "control-plane-components.not-scheduled" {
            en: "new Pods stay Pending with no scheduling events at all",
            zh: "新的 Pod 会一直 Pending，而且没有任何调度事件",
        },
        NotReconciled {} = "control-plane-components.not-reconciled" {
            en: "Deployments, ReplicaSets, endpoints and node health are not reconciled",
            zh: "Deployment、ReplicaSet、端点和节点健康状态都得不到调谐",
        },
        /// Why a component exits is in its log, with the usual causes.
        WhyExits { component: Text, causes: Box<Message> } = "control-plane-components.why-exits" {
            en: "Why {component} exits: its own log says ({causes}), and no status field carries it.",
            zh: "{component} 为什么退出：要看它自己的日志（{causes}），没有哪个状态字段记录了原因。",
        },
        /// The usual causes of a control-plane component's exit.
        ComponentCauses {} = "control-plane-components.component-causes" {
            en: "a bad flag, an expired certificate, etcd unreachable",
            zh: "参数错误、证书过期、无法连接 etcd",
        },
        /// The usual causes of an etcd member's exit (etcd is not its own dependency).
        EtcdCauses {} = "control-plane-components.etcd-causes" {
            en: "a bad flag, an expired certificate, a damaged data directory, peers unreachable",
            zh: "参数错误、证书过期、数据目录损坏、无法连接其他成员",
        },
        OtherCopies {} = "control-plane-components.other-copies" {
            en: "Whether the other control-plane nodes' copies are healthy, unless their Pods were pasted too.",
            zh: "其他控制平面节点上的副本是否健康：除非也粘贴了它们的 Pod，否则无法确定。",
        },
    }
}
