use faultline_ingest::Typed;
use faultline_model::signals::container_config::ConfigError;
use faultline_model::Model;
use faultline_report::message::Message;
use faultline_report::{Boundary, Evidence, Finding, ObjectRef, Severity, Text};

use crate::containers::containers;

crate::declare_rule! {
    /// ## What it finds
    /// A container the kubelet cannot create because its configuration cannot be assembled:
    /// `state.waiting.reason` is `CreateContainerConfigError`. The message (in the waiting state or
    /// the `Failed` event, `Error: secret "x" not found`) is read for the cause: a missing Secret or
    /// ConfigMap, a missing key in one, or `runAsNonRoot` with an image that runs as root.
    ///
    /// ## Why it matters
    /// The Pod is scheduled and the image is usually pulled, yet the container never starts: the
    /// kubelet could not build its environment or volumes. The application was never run, so its logs
    /// are empty and looking at the code wastes time.
    ///
    /// ## Evidence
    /// The container's waiting reason and message, the `Failed` events for the Pod (matched by kind,
    /// namespace and name), and the Pod's references to the named Secret or ConfigMap. With the Pod
    /// not pasted, its `Failed` events alone (`Error: secret "x" not found`): a hint, which says so;
    /// a later `Started` event means it passed.
    ///
    /// ## Fault boundary
    /// `node-runtime`: the kubelet on the chosen node assembles the container's configuration.
    ///
    /// ## What this evidence cannot establish
    /// Whether the object was never created, deleted, renamed, or lives in another namespace; whether
    /// the application would run once it exists. A Secret's content is never in this evidence.
    ///
    /// ## Next evidence to collect
    /// `kubectl get secret NAME -n NS` (or configmap), the Pod's `env`/`envFrom`/`volumes` references,
    /// and `kubectl describe pod` for the latest message.
    ///
    /// ## Example
    /// ```text
    ///     State:          Waiting
    ///       Reason:       CreateContainerConfigError
    ///   Warning  Failed  9s (x21 over 4m16s)  kubelet  Error: secret "smtp-credentials" not found
    /// ```
    pub const RULE = { id: "container-config-invalid", boundary: Boundary::NodeRuntime, components: [Kubelet, Runtime], check: check };
}

/// kubectl's STATUS for a container the kubelet cannot create from its configuration.
const TABLE: crate::table_status::TableFault = crate::table_status::TableFault {
    statuses: &["CreateContainerConfigError", "CreateContainerError"],
    meaning: || Msg::TableMeaning {}.into(),
    cannot: || Msg::TableCannot {}.into(),
    with_log: false,
};

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    check_events(model, findings);
    crate::table_status::check(&RULE, &TABLE, model, findings);
    for (index, object) in model.objects.iter().enumerate() {
        let Typed::Pod(pod) = &object.typed else { continue };
        let failing: Vec<_> = containers(pod)
            .into_iter()
            .filter(|c| c.waiting_reason() == Some("CreateContainerConfigError"))
            .collect();
        let Some(first) = failing.first() else { continue };
        let id = &object.id;
        let events = model.events_for(id);
        let failed = events.iter().rfind(|e| e.is_kubelet_error());
        let message = first
            .waiting_message()
            .or_else(|| failed.map(|e| e.message.as_str()))
            .unwrap_or_default();
        let cause = ConfigError::read(message);

        let mut evidence: Vec<Evidence> = Vec::new();
        for c in &failing {
            evidence.extend(model.evidence(object, &format!("{}.state.waiting.reason", c.status_path)));
            evidence.extend(model.evidence(object, &format!("{}.state.waiting.message", c.status_path)));
        }
        evidence.extend(model.evidence(object, "spec.nodeName"));
        evidence.extend(failed.and_then(|e| model.event_evidence(e)));
        // The Pod's own reference to the missing object, when the spec was pasted.
        let uses = match &cause {
            ConfigError::Missing { kind, name } => model.uses_of(index, kind, name),
            _ => Vec::new(),
        };
        evidence.extend(uses.iter().filter_map(|u| model.evidence(object, u.path)));

        let summary = Msg::CannotCreate {
            subject: id.clone(),
            container: first.status.name.as_str().into(),
            cause: Box::new(what(
                &cause,
                id.namespace.as_ref().map(ToString::to_string),
                false,
            )),
        };
        let mut cannot_establish: Vec<Message> = vec![Msg::WouldStart {}.into()];
        match &cause {
            ConfigError::Missing { kind, .. } => {
                cannot_establish.push(Msg::WhyAbsent { kind }.into());
                if uses.iter().any(|u| u.pasted) {
                    cannot_establish.push(Msg::SameNameInInput { kind }.into());
                }
                if uses.is_empty() && pod.spec.is_some() {
                    cannot_establish.push(Msg::ReferenceNotInSpec {}.into());
                }
            }
            ConfigError::MissingKey { .. } => cannot_establish.push(Msg::KeysNotPasted {}.into()),
            _ => {}
        }
        if events.is_empty() {
            cannot_establish.push(Msg::NoEvents { subject: id.clone() }.into());
        }
        let (name, cmd_ns) = (
            &id.name,
            id.namespace.as_deref().unwrap_or(crate::UNKNOWN_NAMESPACE),
        );
        let mut next_steps = vec![command!("kubectl describe pod {} -n {}", name, cmd_ns)];
        match &cause {
            ConfigError::Missing { kind, name: object_name } => {
                next_steps.push(command!("kubectl get {} {} -n {}", kind.to_ascii_lowercase(), object_name, cmd_ns));
                next_steps.push(command!("kubectl get {} -A --field-selector metadata.name={}", kind.to_ascii_lowercase(), object_name));
            }
            ConfigError::MissingKey { .. } => next_steps.push(command!("kubectl get pod {} -n {} -o jsonpath='{{range .spec.containers[*]}}{{.name}}: {{.env}} {{.envFrom}}{{\"\\n\"}}{{end}}'", name, cmd_ns)),
            ConfigError::RunAsNonRoot => next_steps.push(command!("kubectl get pod {} -n {} -o jsonpath='{{.spec.securityContext}} {{.spec.containers[*].securityContext}}'", name, cmd_ns)),
            ConfigError::Unknown => next_steps.push(command!("kubectl events -n {} --for pod/{}", cmd_ns, name)),
        }
        findings.push(RULE.finding(
            Severity::Error,
            id.clone(),
            summary,
            evidence,
            cannot_establish,
            next_steps,
        ));
    }
}

/// What is wrong, as a clause of the summary (`events_only`: in the events-only finding's words).
fn what(cause: &ConfigError, namespace: Option<String>, events_only: bool) -> Message {
    match cause {
        ConfigError::Missing { kind, name } => Msg::MissingObject {
            kind,
            name: name.clone(),
            namespace,
        }
        .into(),
        ConfigError::MissingKey { key, what } if events_only => Msg::KeyNotIn {
            key: key.clone(),
            what: what.clone(),
        }
        .into(),
        ConfigError::MissingKey { key, what } => Msg::MissingKey {
            key: key.clone(),
            what: what.clone(),
        }
        .into(),
        ConfigError::RunAsNonRoot if events_only => Msg::ImageRunsAsRoot {}.into(),
        ConfigError::RunAsNonRoot => Msg::RunAsNonRoot {}.into(),
        ConfigError::Unknown => Msg::NotSaid {}.into(),
    }
}

/// Pods known only from their events: the kubelet's `Failed` event `Error: secret "x" not found`
/// (a hint, not proof). A later `Started` event means it passed.
fn check_events(model: &Model<'_>, findings: &mut Vec<Finding>) {
    for (event, cause) in model.config_error_pods() {
        let id = &event.subject;
        if model
            .events_for(id)
            .iter()
            .any(|e| e.reason == "Started" && e.is_after(event))
        {
            continue;
        }
        let summary = Msg::FromEvents {
            subject: id.clone(),
            message: event.message.clone(),
            cause: Box::new(what(&cause, None, true)),
        };
        let cannot_establish: Vec<Message> = vec![
            Msg::NotPasted { subject: id.clone() }.into(),
            Msg::WhichReference {}.into(),
        ];
        let cmd_ns = id.namespace.as_deref().unwrap_or(crate::UNKNOWN_NAMESPACE);
        let mut next_steps = vec![command!("kubectl describe pod {} -n {}", id.name, cmd_ns)];
        if let ConfigError::Missing { kind, name } = &cause {
            next_steps.push(command!(
                "kubectl get {} {} -n {}",
                kind.to_ascii_lowercase(),
                name,
                cmd_ns
            ));
        }
        findings.push(RULE.finding(
            Severity::Error,
            id.clone(),
            summary,
            model.event_evidence(event).into_iter().collect(),
            cannot_establish,
            next_steps,
        ));
    }
}

faultline_report::messages! {
    /// The words of `container-config-invalid`.
    pub enum Msg {
        /// A Pod's container the kubelet cannot create, from its status: `cause` says why.
        CannotCreate { subject: ObjectRef, container: Text, cause: Box<Message> } = "container-config-invalid.cannot-create" {
            en: "{subject}: the kubelet cannot create container {container} (CreateContainerConfigError): {cause}. The application never started.",
            zh: "{subject}：kubelet 无法创建容器 {container}（CreateContainerConfigError）：{cause}。应用从未启动过。",
        },
        /// A Pod known from the kubelet's `Failed` events only: the event's message, verbatim.
        FromEvents { subject: ObjectRef, message: String, cause: Box<Message> } = "container-config-invalid.from-events" {
            en: {
                format!("{subject}: the kubelet cannot create its container (\"{}\"): {cause}. From the kubelet's events only.", message.0)
            },
            zh: "{subject}：kubelet 无法创建它的容器（事件消息为 “{message}”）：{cause}。仅依据 kubelet 的事件。",
        },
        /// A Secret or ConfigMap the Pod references is absent (in its namespace, when known).
        MissingObject { kind: &'static str, name: String, namespace: Option<String> } = "container-config-invalid.missing-object" {
            en: {
                let namespace = namespace.0.as_ref().map(|ns| format!(" in namespace {ns}")).unwrap_or_default();
                format!("the {kind} \"{}\" it references does not exist{namespace}", name.0)
            },
            zh: {
                match namespace.0 {
                    Some(ns) => format!("它引用的 {kind} “{name}” 在命名空间 {ns} 中不存在"),
                    None => format!("它引用的 {kind} “{name}” 不存在"),
                }
            },
        },
        /// A key the Pod reads is missing from a Secret or ConfigMap (`what`: the kubelet's words, `ConfigMap ns/x`).
        MissingKey { key: String, what: String } = "container-config-invalid.missing-key" {
            en: { format!("the key \"{}\" is missing from {what}", key.0) },
            zh: "{what} 中缺少键 “{key}”",
        },
        /// [`Msg::MissingKey`] as the events-only finding says it.
        KeyNotIn { key: String, what: String } = "container-config-invalid.key-not-in" {
            en: { format!("the key \"{}\" is not in {what}", key.0) },
            zh: "{what} 中没有键 “{key}”",
        },
        RunAsNonRoot {} = "container-config-invalid.run-as-non-root" {
            en: "it must run as non-root (runAsNonRoot) but its image runs as root",
            zh: "它必须以非 root 用户运行（runAsNonRoot），但它的镜像以 root 用户运行",
        },
        /// [`Msg::RunAsNonRoot`] as the events-only finding says it.
        ImageRunsAsRoot {} = "container-config-invalid.image-runs-as-root" {
            en: "it must run as non-root but the image runs as root",
            zh: "它必须以非 root 用户运行，但镜像以 root 用户运行",
        },
        NotSaid {} = "container-config-invalid.not-said" {
            en: "its configuration could not be assembled; the message does not say why",
            zh: "它的配置无法组装；消息没有说明原因",
        },
        WouldStart {} = "container-config-invalid.would-start" {
            en: "Whether the application would start once the configuration exists.",
            zh: "配置就位之后应用能否启动。",
        },
        /// Why a Secret or ConfigMap (`kind`) is absent.
        WhyAbsent { kind: &'static str } = "container-config-invalid.why-absent" {
            en: "Whether the {kind} was never created, was deleted or renamed, or exists in another namespace: the kubelet only reports that it is absent here.",
            zh: "这个 {kind} 是从未创建、已被删除或改名，还是位于另一个命名空间：kubelet 只报告它在这里不存在。",
        },
        /// An object of the missing one's kind and name is in the input.
        SameNameInInput { kind: &'static str } = "container-config-invalid.same-name-in-input" {
            en: "A {kind} with that name is in the input; if it is the same namespace, the kubelet's view was older than the paste.",
            zh: "输入中有一个同名的 {kind}；如果它在同一个命名空间，说明 kubelet 看到的状态比粘贴的内容更旧。",
        },
        ReferenceNotInSpec {} = "container-config-invalid.reference-not-in-spec" {
            en: "The reference was not found in the pasted spec (describe output lists env sources only as text).",
            zh: "在粘贴的 spec 中没有找到这个引用（describe 的输出只以文本列出环境变量的来源）。",
        },
        KeysNotPasted {} = "container-config-invalid.keys-not-pasted" {
            en: "Which key names the object does have: its data was not pasted (and should not be).",
            zh: "这个对象实际有哪些键：它的数据没有粘贴（也不应该粘贴）。",
        },
        NoEvents { subject: ObjectRef } = "container-config-invalid.no-events" {
            en: "No events about {subject} were found in the input, so how long this has been failing is unknown.",
            zh: "输入中没有找到 {subject} 的事件，因此不清楚它已经失败了多久。",
        },
        NotPasted { subject: ObjectRef } = "container-config-invalid.not-pasted" {
            en: "{subject} itself was not pasted: this rests on its events alone, which are a hint; whether it still fails is unknown.",
            zh: "输入中没有 {subject} 本身：这只基于它的事件，事件只是线索；它是否仍在失败并不清楚。",
        },
        WhichReference {} = "container-config-invalid.which-reference" {
            en: "Which container and which reference (env, envFrom or a volume) names it: the Pod spec says.",
            zh: "是哪个容器、哪个引用（env、envFrom 或卷）指向它：要看 Pod spec。",
        },
        TableMeaning {} = "container-config-invalid.table-meaning" {
            en: "the kubelet cannot create a container from its configuration (a Secret or ConfigMap it refers to, or a key in one, is missing, or the runtime refused it)",
            zh: "kubelet 无法按容器的配置创建容器（它引用的 Secret 或 ConfigMap 或其中的某个键不存在，或者容器运行时拒绝了它）",
        },
        TableCannot {} = "container-config-invalid.table-cannot" {
            en: "Which Secret, ConfigMap or key is missing: the Pod's events (`Error: secret \"x\" not found`) say.",
            zh: "缺少的是哪个 Secret、ConfigMap 或键：要看 Pod 的事件（`Error: secret \"x\" not found`）。",
        },
    }
}
