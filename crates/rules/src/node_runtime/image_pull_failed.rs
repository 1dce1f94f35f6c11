use faultline_ingest::api::Pod;
use faultline_ingest::{Object, Typed};
use faultline_model::dispatch::EventSubject;
use faultline_model::signals::image_pull::{registry_host, RegistryHint, PULL_WAITING_REASONS};
use faultline_model::views::pod_placement::PodPlacement;
use faultline_model::{EventRecord, Model};
use faultline_report::lang::Lang;
use faultline_report::message::Message;
use faultline_report::{Boundary, Evidence, Finding, ObjectRef, Severity, Text};

use crate::containers::containers;
use crate::history::{self, Supersedes};

crate::declare_rule! {
    /// ## What it finds
    /// A container or init container of a Pod that the kubelet cannot start because its image cannot
    /// be pulled or resolved: `state.waiting.reason` is `ErrImagePull`, `ImagePullBackOff`,
    /// `InvalidImageName`, `ErrImageNeverPull`, `ImageInspectError`, `RegistryUnavailable` or
    /// `SignatureValidationFailed`. The waiting message and the Pod's `Failed` events are read for
    /// the registry's answer: not found, unauthorized, x509 certificate, timeout or rate limit.
    ///
    /// ## Why it matters
    /// The Pod was scheduled (it usually has `spec.nodeName`), yet it stays `Pending`: the scheduler's
    /// part is done and the failure is between the node's container runtime and the registry. Looking
    /// at scheduling, quotas or the application wastes time here.
    ///
    /// ## Evidence
    /// Structured status first: the container's `state.waiting.reason` and `message`, the image in the
    /// Pod spec, `spec.nodeName` and `status.phase`. Then the Pod's events (`Failed`, `BackOff`), matched
    /// by kind, namespace and name; an event alone is a hint, not proof.
    ///
    /// ## Fault boundary
    /// `node-runtime`: the kubelet and the CRI runtime on the chosen node, and the registry they pull from.
    ///
    /// ## What this evidence cannot establish
    /// One node's pull attempt does not show whether other nodes can pull the image, and the runtime's
    /// message is a summary of the registry's answer: a "not found" can also be a private repository
    /// that hides itself from unauthenticated clients. Whether the application would start once the
    /// image is there is not shown at all.
    ///
    /// ## Next evidence to collect
    /// `kubectl describe pod` for the pull attempts, `kubectl events --for pod/NAME` for their history,
    /// the image reference and `imagePullSecrets` from the Pod spec, and for network errors the node's
    /// view of the registry (`kubectl debug node/NODE`).
    ///
    /// ## Example
    /// ```yaml
    /// spec:
    ///   nodeName: lab-worker2
    ///   containers:
    ///   - name: probe
    ///     image: registry.lab.example/demo/hello-http:1.4.7
    /// status:
    ///   phase: Pending
    ///   containerStatuses:
    ///   - name: probe
    ///     state:
    ///       waiting:
    ///         reason: ErrImagePull
    ///         message: '... registry.lab.example/demo/hello-http:1.4.7: not found'
    /// ```
    pub const RULE = { id: "image-pull-failed", boundary: Boundary::NodeRuntime, components: [Kubelet, Runtime], check: check };
}

faultline_report::messages! {
    /// The words of `image-pull-failed`.
    pub enum Msg {
        /// A Pod's container that cannot pull its image, from its status.
        Pull { subject: ObjectRef, image: Option<String>, container: Text, reason: Text, cause: Box<Message>, placement: Option<Box<Message>> } = "image-pull-failed.pull" {
            en: {
                let image = image.0.as_deref().unwrap_or("its image");
                let placement = placement.0.as_ref().map(|p| format!(" {}", p.render(Lang::En))).unwrap_or_default();
                format!("{subject} cannot pull {image} for container {container} ({reason}): {cause}.{placement}")
            },
            zh: {
                let image = image.0.as_deref().map_or_else(|| "它的镜像".to_string(), |i| format!("镜像 {i}"));
                let placement = placement.0.as_ref().map(|p| p.render(Lang::Zh)).unwrap_or_default();
                format!("{subject} 无法为容器 {container} 拉取{image}（{reason}）：{cause}。{placement}")
            },
        },
        ScheduledButPending { node: Text } = "image-pull-failed.scheduled-but-pending" {
            en: "It was scheduled to {node} but is still Pending: the node was chosen, the pull failed.",
            zh: "它已被调度到 {node}，却仍是 Pending：节点已经选定，失败的是镜像拉取。",
        },
        RunsOn { node: Text } = "image-pull-failed.runs-on" {
            en: "It runs on node {node}.",
            zh: "它运行在节点 {node} 上。",
        },
        /// A Pod known from its pull failures' events only.
        FromEvents { subject: ObjectRef, image: Option<String>, times: u32, cause: Box<Message> } = "image-pull-failed.from-events" {
            en: {
                let image = image.0.as_deref().unwrap_or("its image");
                let attempts = if *times.0 == 1 { "1 failed attempt or back-off".to_string() } else { format!("{times} failed attempts or back-offs") };
                format!("{subject} cannot pull {image} ({attempts} in its events): {cause}. From the kubelet's events only.")
            },
            zh: {
                let image = image.0.as_deref().map_or_else(|| "它的镜像".to_string(), |i| format!("镜像 {i}"));
                format!("{subject} 无法拉取{image}（事件中有 {times} 次失败的尝试或退避）：{cause}。仅依据 kubelet 的事件。")
            },
        },
        NotFound {} = "image-pull-failed.not-found" {
            en: "the registry answered that this image tag or digest does not exist",
            zh: "镜像仓库答复这个镜像标签或摘要不存在",
        },
        Unauthorized {} = "image-pull-failed.unauthorized" {
            en: "the registry refused the credentials (or none were sent)",
            zh: "镜像仓库拒绝了凭据（或者根本没有发送凭据）",
        },
        Certificate {} = "image-pull-failed.certificate" {
            en: "the node does not trust the registry's TLS certificate (x509)",
            zh: "节点不信任镜像仓库的 TLS 证书（x509）",
        },
        Network {} = "image-pull-failed.network" {
            en: "the node could not reach the registry (DNS, routing or timeout)",
            zh: "节点连不上镜像仓库（DNS、路由或超时）",
        },
        RateLimited {} = "image-pull-failed.rate-limited" {
            en: "the registry is rate-limiting pulls",
            zh: "镜像仓库正在对拉取限流",
        },
        InvalidName {} = "image-pull-failed.invalid-name" {
            en: "the image reference is not a valid name",
            zh: "镜像引用不是合法的名称",
        },
        NeverPull {} = "image-pull-failed.never-pull" {
            en: "imagePullPolicy is Never and the image is not present on the node",
            zh: "imagePullPolicy 为 Never，而节点上没有这个镜像",
        },
        MessageSaysNotWhy {} = "image-pull-failed.message-says-not-why" {
            en: "the message does not say why",
            zh: "消息没有说明原因",
        },
        EventsSayNotWhy {} = "image-pull-failed.events-say-not-why" {
            en: "the events do not say why",
            zh: "事件没有说明原因",
        },
        NotPasted { subject: ObjectRef } = "image-pull-failed.not-pasted" {
            en: "{subject} itself was not pasted: this rests on its events alone, which are a hint rather than proof; whether it is still failing is unknown.",
            zh: "输入中没有 {subject} 本身：这只基于它的事件，事件只是线索而不是证明；它是否仍在失败并不清楚。",
        },
        OtherNodes {} = "image-pull-failed.other-nodes" {
            en: "Whether other nodes can pull the same image: this is one node's attempt.",
            zh: "其他节点能否拉取同一个镜像：这只是一个节点的尝试。",
        },
        WouldStart {} = "image-pull-failed.would-start" {
            en: "Whether the application would start once the image is pulled.",
            zh: "镜像拉取成功之后应用能否启动。",
        },
        MissingOrPrivate {} = "image-pull-failed.missing-or-private" {
            en: "Whether the tag is really missing or the repository is private and hides itself from unauthenticated pulls: registries answer both with \"not found\".",
            zh: "是标签确实不存在，还是仓库是私有的、对未认证的拉取隐藏了自己：这两种情况镜像仓库都答复 \"not found\"。",
        },
        CauseNotSaid {} = "image-pull-failed.cause-not-said" {
            en: "Whether the cause is a wrong tag, credentials, the network or rate limiting: the message pasted does not say.",
            zh: "原因是标签错误、凭据、网络还是限流：粘贴的消息没有说。",
        },
        NoEvents { subject: ObjectRef } = "image-pull-failed.no-events" {
            en: "No events about {subject} were found in the input that could be read, so the pull attempts and their back-off history are unknown.",
            zh: "在能读取的输入中没有找到 {subject} 的事件，因此拉取尝试及其退避历史都不清楚。",
        },
        TableMeaning {} = "image-pull-failed.table-meaning" {
            en: "the kubelet cannot pull a container's image on the node the Pod was scheduled to",
            zh: "kubelet 在 Pod 被调度到的节点上无法拉取某个容器的镜像",
        },
        TableCannot {} = "image-pull-failed.table-cannot" {
            en: "Which image and why (a wrong tag, credentials, the registry's reachability): the Pod's events say.",
            zh: "是哪个镜像、为什么失败（标签错误、凭据、镜像仓库是否可达）：要看 Pod 的事件。",
        },
    }
}

/// What the registry's answer says, as the summary says it.
fn explanation(hint: RegistryHint) -> Message {
    match hint {
        RegistryHint::NotFound => Msg::NotFound {},
        RegistryHint::Unauthorized => Msg::Unauthorized {},
        RegistryHint::Certificate => Msg::Certificate {},
        RegistryHint::Network => Msg::Network {},
        RegistryHint::RateLimited => Msg::RateLimited {},
    }
    .into()
}

/// kubectl's STATUS for an image that cannot be pulled.
const TABLE: crate::table_status::TableFault = crate::table_status::TableFault {
    statuses: &[
        "ImagePullBackOff",
        "ErrImagePull",
        "InvalidImageName",
        "ErrImageNeverPull",
    ],
    meaning: || Msg::TableMeaning {}.into(),
    cannot: || Msg::TableCannot {}.into(),
    with_log: false,
};

/// What shows a pull failure passed: the image pulled, or the container started, after it.
const SUPERSEDED_BY: Supersedes<'static> = Supersedes::Event {
    reasons: &["Pulled", "Started"],
    same_part: true,
};

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    crate::table_status::check(&RULE, &TABLE, model, findings);
    for object in model.objects {
        if let Typed::Pod(pod) = &object.typed {
            findings.extend(diagnose(model, object, pod));
        }
    }
    // Pods known only from their events (a `kubectl get events` pasted alone).
    for pod in model.event_only_subjects("Pod", EventRecord::is_image_pull_failure) {
        findings.extend(diagnose_events(model, &pod));
    }
}

/// A pull failure known from events alone: a hint, not proof. Later `Pulled` events mean it passed.
fn diagnose_events(model: &Model<'_>, pod: &EventSubject<'_>) -> Option<Finding> {
    let id = pod.subject;
    // A later pull or start of the same container: the pull failure is history.
    if history::superseded(model, id, Some(pod.last()?), &[SUPERSEDED_BY]).is_some() {
        return None;
    }
    let evidence = model.newest_events_evidence(&pod.events, 3);
    let hint = pod
        .events
        .iter()
        .find_map(|e| RegistryHint::from_message(&e.message));
    let summary = Msg::FromEvents {
        subject: id.clone(),
        image: pod
            .events
            .iter()
            .find_map(|e| e.quoted_image())
            .map(str::to_string),
        times: pod.times(),
        cause: Box::new(hint.map_or_else(|| Msg::EventsSayNotWhy {}.into(), explanation)),
    };
    let mut cannot_establish: Vec<Message> = vec![
        Msg::NotPasted { subject: id.clone() }.into(),
        Msg::OtherNodes {}.into(),
    ];
    if hint == Some(RegistryHint::NotFound) {
        cannot_establish.push(Msg::MissingOrPrivate {}.into());
    }
    let (name, ns) = (
        &id.name,
        id.namespace.as_deref().unwrap_or(crate::UNKNOWN_NAMESPACE),
    );
    let next_steps = vec![
        command!("kubectl describe pod {} -n {}", name, ns),
        command!("kubectl get pod {} -n {} -o yaml", name, ns),
        command!("kubectl events -n {} --for pod/{}", ns, name),
    ];
    Some(RULE.finding(
        Severity::Error,
        id.clone(),
        summary,
        evidence,
        cannot_establish,
        next_steps,
    ))
}

fn diagnose(model: &Model<'_>, object: &Object, pod: &Pod) -> Option<Finding> {
    let failing: Vec<_> = containers(pod)
        .into_iter()
        .filter(|c| {
            c.waiting_reason()
                .is_some_and(|r| PULL_WAITING_REASONS.contains(&r))
        })
        .collect();
    let first = failing.first()?;
    let reason = first.waiting_reason().unwrap_or_default();
    let id = &object.id;
    let node_name = PodPlacement::of(pod).node_name;
    let phase = pod.status.as_ref().and_then(|s| s.phase.as_deref());

    let mut paths: Vec<String> = Vec::new();
    for c in &failing {
        paths.push(format!("{}.state.waiting.reason", c.status_path));
        paths.push(format!("{}.state.waiting.message", c.status_path));
        paths.extend(c.spec_path.as_ref().map(|spec| format!("{spec}.image")));
    }
    paths.extend(["spec.nodeName".to_string(), "status.phase".to_string()]);
    let events = model.events_for(id);
    let pull_events: Vec<&EventRecord> = events
        .iter()
        .copied()
        .filter(|e| e.has_image_failure_reason())
        .collect();
    let mut evidence: Vec<Evidence> = Vec::new();
    let found = paths.iter().map(|p| model.evidence(object, p));
    for e in found
        .chain(pull_events.iter().map(|e| model.event_evidence(e)))
        .flatten()
    {
        if !evidence.contains(&e) {
            evidence.push(e);
        }
    }

    let hint = failing
        .iter()
        .filter_map(|c| c.waiting_message())
        .chain(pull_events.iter().map(|e| e.message.as_str()))
        .find_map(RegistryHint::from_message);
    let image = first.status.image.as_str();
    let cause: Message = match (reason, hint) {
        ("InvalidImageName", _) => Msg::InvalidName {}.into(),
        ("ErrImageNeverPull", _) => Msg::NeverPull {}.into(),
        (_, Some(hint)) => explanation(hint),
        (_, None) => Msg::MessageSaysNotWhy {}.into(),
    };
    let placement = node_name.map(|node| {
        Box::new(Message::from(if phase == Some("Pending") {
            Msg::ScheduledButPending { node: node.into() }
        } else {
            Msg::RunsOn { node: node.into() }
        }))
    });
    let summary = Msg::Pull {
        subject: id.clone(),
        image: (!image.is_empty()).then(|| image.to_string()),
        container: first.status.name.as_str().into(),
        reason: reason.into(),
        cause: Box::new(cause),
        placement,
    };

    let mut cannot_establish: Vec<Message> = vec![Msg::OtherNodes {}.into(), Msg::WouldStart {}.into()];
    match hint {
        Some(RegistryHint::NotFound) => cannot_establish.push(Msg::MissingOrPrivate {}.into()),
        None if reason != "InvalidImageName" && reason != "ErrImageNeverPull" => {
            cannot_establish.push(Msg::CauseNotSaid {}.into())
        }
        _ => {}
    }
    if events.is_empty() {
        cannot_establish.push(Msg::NoEvents { subject: id.clone() }.into());
    }

    let (name, ns) = (
        &id.name,
        id.namespace.as_deref().unwrap_or(crate::UNKNOWN_NAMESPACE),
    );
    let mut next_steps = vec![
        command!("kubectl describe pod {} -n {}", name, ns),
        command!("kubectl events -n {} --for pod/{}", ns, name),
    ];
    match (hint, node_name) {
        (Some(RegistryHint::Unauthorized), _) => {
            // Unset, it is `default`: the ServiceAccount admission plugin sets that one.
            let account = pod.spec.as_ref().and_then(|s| s.service_account_name.as_deref());
            next_steps.push(command!(
                "kubectl get pod {} -n {} -o jsonpath='{{.spec.imagePullSecrets}}'",
                name,
                ns
            ));
            next_steps.push(command!(
                "kubectl get serviceaccount {} -n {} -o yaml",
                account.unwrap_or("default"),
                ns
            ));
        }
        (Some(RegistryHint::Network | RegistryHint::Certificate), None) => {}
        (Some(hint @ (RegistryHint::Network | RegistryHint::Certificate)), Some(node)) => {
            let host = registry_host(image);
            next_steps.push(command!("kubectl get node {} -o wide", node));
            next_steps.push(if hint == RegistryHint::Network {
                command!("kubectl debug node/{} -it --image=busybox -- nslookup {}", node, host)
            } else {
                command!("kubectl debug node/{} -it --image=busybox -- wget -O /dev/null https://{}/v2/", node, host)
            });
        }
        // The list the failing container is in: an init container is not under `.spec.containers`.
        _ if first.init => next_steps.push(command!("kubectl get pod {} -n {} -o jsonpath='{{range .spec.initContainers[*]}}{{.name}}{{\"\\t\"}}{{.image}}{{\"\\n\"}}{{end}}'", name, ns)),
        _ => next_steps.push(command!("kubectl get pod {} -n {} -o jsonpath='{{range .spec.containers[*]}}{{.name}}{{\"\\t\"}}{{.image}}{{\"\\n\"}}{{end}}'", name, ns)),
    }

    Some(RULE.finding(
        Severity::Error,
        id.clone(),
        summary,
        evidence,
        cannot_establish,
        next_steps,
    ))
}
