use crate::ingest::node::Node;
use crate::model::Model;
use crate::report::{Boundary, Evidence, Finding, ObjectRef, Severity, Text};
use crate::rules::pod_spec::{listed, pod_specs};

crate::declare_rule! {
    /// ## What it finds
    /// A Pod that names a Secret or ConfigMap that is not among those pasted for its namespace:
    /// `imagePullSecrets`, `env[].valueFrom.secretKeyRef` / `configMapKeyRef`, `envFrom[].secretRef`
    /// / `configMapRef`, and `volumes[]` of type `secret`, `configMap` or `projected` (each unless
    /// `optional: true`). It speaks only when that kind was pasted for that namespace as a listing
    /// (two or more of them: a `kubectl get secrets` table, a List, objects): one object alone is
    /// the one asked about, not the namespace.
    ///
    /// ## Why it matters
    /// The kubelet cannot start a container whose env or volume names a missing object
    /// (`CreateContainerConfigError`, `FailedMount`); a missing pull secret leaves a private image
    /// unpullable (`ErrImagePull`, with the kubelet's `Unable to retrieve some image pull secrets`).
    /// The name in the spec is where the fix is.
    ///
    /// ## Evidence
    /// The referencing field (`imagePullSecrets[i].name`, `…secretKeyRef.name`, `volumes[i].secret.
    /// secretName`…) by its line, and the pasted objects of that kind in the namespace.
    ///
    /// ## Fault boundary
    /// `node-runtime`: the kubelet assembles the container from these objects before the runtime can
    /// start it; a missing one stops it there (as `container-config-invalid` reports from the kubelet's
    /// own words).
    ///
    /// ## What this evidence cannot establish
    /// Whether the paste holds the whole namespace's objects of that kind, and whether the object was
    /// created after the paste (or deleted after the Pod started, which a running Pod does not notice).
    ///
    /// ## Next evidence to collect
    /// `kubectl get secrets -n NAMESPACE` / `kubectl get configmaps -n NAMESPACE`, and the Pod's events.
    ///
    /// ## Example
    /// ```yaml
    /// imagePullSecrets:
    /// - name: regcred-old
    /// ```
    pub const RULE = { id: "referenced-object-missing", boundary: Boundary::NodeRuntime, components: [Kubelet], docs_zh: DOCS_ZH, check: check };
}

/// [`crate::rules::Rule::docs_zh`]: this rule's documentation in Chinese.
const DOCS_ZH: &str = r#"
 ## 检测内容
 Pod 引用了一个 Secret 或 ConfigMap，而它不在为该命名空间粘贴的对象之中：`imagePullSecrets`、`env[].valueFrom.secretKeyRef` / `configMapKeyRef`、`envFrom[].secretRef` / `configMapRef`，以及类型为 `secret`、`configMap` 或 `projected` 的 `volumes[]`（设置了 `optional: true` 的除外）。只有粘贴了该命名空间中这一类对象的列表（两个或更多：`kubectl get secrets` 表格、List、对象）时才会报告：单独一个对象只是被问到的那个，不代表整个命名空间。

 ## 为什么重要
 env 或卷引用了不存在的对象时，kubelet 无法启动容器（`CreateContainerConfigError`、`FailedMount`）；缺少拉取凭据会让私有镜像无法拉取（`ErrImagePull`，kubelet 会报 `Unable to retrieve some image pull secrets`）。要修的正是 spec 中的这个名字。

 ## 证据
 引用所在的字段（`imagePullSecrets[i].name`、`…secretKeyRef.name`、`volumes[i].secret.secretName`……）及其所在行，以及该命名空间中粘贴的这一类对象。

 ## 故障边界
 `node-runtime`：kubelet 在容器运行时启动容器之前，要用这些对象组装容器；缺少其中一个，就会停在这里（`container-config-invalid` 依据 kubelet 自己的原话报告的也是这种情况）。

 ## 这些证据无法确定的内容
 粘贴的内容是否包含该命名空间中这一类对象的全部，以及这个对象是否在粘贴之后才创建（或者在 Pod 启动之后才被删除，运行中的 Pod 不会察觉）。

 ## 下一步应收集的证据
 `kubectl get secrets -n NAMESPACE` / `kubectl get configmaps -n NAMESPACE`，以及 Pod 的事件。

 ## 示例
 ```yaml
 imagePullSecrets:
 - name: regcred-old
 ```
"#;

/// A reference: the kind it names, the name, and the field it is at.
struct Reference<'a> {
    kind: &'static str,
    name: &'a str,
    path: String,
    use_: Use,
}

#[derive(Clone, Copy)]
enum Use {
    PullSecret,
    Env,
    Volume,
}

fn optional(node: &Node) -> bool {
    node.get("optional").and_then(Node::as_str) == Some("true")
}

fn references<'a>(spec: &'a Node, base: &str, containers: &[(String, &'a Node)]) -> Vec<Reference<'a>> {
    let mut out = Vec::new();
    let mut push = |kind, node: Option<&'a Node>, key: &str, path: String, use_| {
        if let Some(node) = node.filter(|n| !optional(n)) {
            if let Some(name) = node.get(key).and_then(Node::as_str) {
                out.push(Reference {
                    kind,
                    name,
                    path: format!("{path}.{key}"),
                    use_,
                });
            }
        }
    };
    for (i, s) in spec
        .get("imagePullSecrets")
        .map(Node::items)
        .unwrap_or_default()
        .iter()
        .enumerate()
    {
        push(
            "Secret",
            Some(s),
            "name",
            format!("{base}.imagePullSecrets[{i}]"),
            Use::PullSecret,
        );
    }
    for (path, c) in containers {
        for (i, e) in c
            .get("env")
            .map(Node::items)
            .unwrap_or_default()
            .iter()
            .enumerate()
        {
            let from = e.get("valueFrom");
            for (key, kind) in [("secretKeyRef", "Secret"), ("configMapKeyRef", "ConfigMap")] {
                push(
                    kind,
                    from.and_then(|f| f.get(key)),
                    "name",
                    format!("{path}.env[{i}].valueFrom.{key}"),
                    Use::Env,
                );
            }
        }
        for (i, e) in c
            .get("envFrom")
            .map(Node::items)
            .unwrap_or_default()
            .iter()
            .enumerate()
        {
            for (key, kind) in [("secretRef", "Secret"), ("configMapRef", "ConfigMap")] {
                push(
                    kind,
                    e.get(key),
                    "name",
                    format!("{path}.envFrom[{i}].{key}"),
                    Use::Env,
                );
            }
        }
    }
    for (i, v) in spec
        .get("volumes")
        .map(Node::items)
        .unwrap_or_default()
        .iter()
        .enumerate()
    {
        let at = format!("{base}.volumes[{i}]");
        push(
            "Secret",
            v.get("secret"),
            "secretName",
            format!("{at}.secret"),
            Use::Volume,
        );
        push(
            "ConfigMap",
            v.get("configMap"),
            "name",
            format!("{at}.configMap"),
            Use::Volume,
        );
        let sources = v
            .get("projected")
            .and_then(|p| p.get("sources"))
            .map(Node::items)
            .unwrap_or_default();
        for (j, s) in sources.iter().enumerate() {
            let at = format!("{at}.projected.sources[{j}]");
            push(
                "Secret",
                s.get("secret"),
                "name",
                format!("{at}.secret"),
                Use::Volume,
            );
            push(
                "ConfigMap",
                s.get("configMap"),
                "name",
                format!("{at}.configMap"),
                Use::Volume,
            );
        }
    }
    out
}

/// The distinct names of the Secrets and of the ConfigMaps pasted in a namespace, sorted (what
/// [`listed`] counts), read once per namespace rather than once per reference.
struct Pasted<'a> {
    secrets: Vec<&'a str>,
    config_maps: Vec<&'a str>,
}

impl<'a> Pasted<'a> {
    fn of(model: &Model<'a>, namespace: &str) -> Self {
        Pasted {
            secrets: crate::rules::pod_spec::names_pasted(model, "Secret", namespace),
            config_maps: crate::rules::pod_spec::names_pasted(model, "ConfigMap", namespace),
        }
    }

    fn names(&self, kind: &str) -> &[&'a str] {
        if kind == "Secret" {
            &self.secrets
        } else {
            &self.config_maps
        }
    }

    /// Whether either kind was pasted as a listing (two or more): else no reference is judged.
    fn any_listing(&self) -> bool {
        self.secrets.len() >= 2 || self.config_maps.len() >= 2
    }
}

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    let mut pasted: std::collections::BTreeMap<&str, Pasted<'_>> = std::collections::BTreeMap::new();
    for spec in pod_specs(model) {
        let object = spec.object;
        let ns = spec.namespace();
        let here = pasted.entry(ns).or_insert_with(|| Pasted::of(model, ns));
        if !here.any_listing() {
            continue;
        }
        let containers: Vec<(String, &Node)> =
            spec.containers().into_iter().map(|c| (c.path, c.node)).collect();
        let mut said: Vec<(&str, &str)> = Vec::new();
        for r in references(spec.node, spec.path, &containers) {
            let names = here.names(r.kind);
            let count = names.len();
            debug_assert_eq!(count, listed(model, r.kind, ns));
            if count < 2 || said.contains(&(r.kind, r.name)) {
                continue;
            }
            if names.binary_search(&r.name).is_ok() {
                continue;
            }
            said.push((r.kind, r.name));
            let mut evidence: Vec<Evidence> = model.evidence(object, &r.path).into_iter().collect();
            evidence.extend(
                model
                    .objects_in(Some(ns))
                    .filter(|o| o.id.kind == r.kind)
                    .take(5)
                    .filter_map(|o| model.evidence(o, "metadata.name")),
            );
            let id = &object.id;
            let missing = ObjectRef {
                kind: r.kind.into(),
                namespace: Some(ns.into()),
                name: r.name.into(),
                uid: None,
            };
            let consequence = match r.use_ {
                Use::PullSecret => Msg::PullSecret {},
                Use::Env => Msg::Env {},
                Use::Volume => Msg::Volume {},
            }
            .into_box();
            let plural: Text = if r.kind == "Secret" {
                "secrets".into()
            } else {
                "configmaps".into()
            };
            findings.push(RULE.finding(
                Severity::Warning,
                id.clone(),
                Msg::Missing {
                    subject: id.clone(),
                    missing,
                    count,
                    consequence,
                },
                evidence,
                [
                    Msg::WholeListing {
                        kind: r.kind.into(),
                        namespace: ns.into(),
                    },
                    Msg::CreatedLater {},
                ],
                vec![
                    command!("kubectl get {} -n {}", plural, ns),
                    command!(
                        "kubectl get events -n {} --field-selector involvedObject.name={}",
                        ns,
                        id.name
                    ),
                ],
            ));
        }
    }
}

crate::messages! {
    /// The words of `referenced-object-missing`.
    pub enum Msg {
        Missing { subject: ObjectRef, missing: ObjectRef, count: usize, consequence: Box<crate::message::Message> } = "referenced-object-missing.missing" {
            en: "{subject} names {missing}, which is not among the {count} pasted of its kind in that namespace: {consequence}.",
            zh: "{subject} 引用了 {missing}，但它不在该命名空间粘贴的 {count} 个同类对象之中：{consequence}。",
        },
        PullSecret {} = "referenced-object-missing.pull-secret" {
            en: "without that pull secret a private image cannot be pulled",
            zh: "没有这个拉取凭据，私有镜像就无法拉取",
        },
        Env {} = "referenced-object-missing.env" {
            en: "the kubelet cannot set the container's environment from it, so the container is not created (CreateContainerConfigError)",
            zh: "kubelet 无法据此设置容器的环境变量，所以容器不会被创建（CreateContainerConfigError）",
        },
        Volume {} = "referenced-object-missing.volume" {
            en: "the kubelet cannot mount the volume made from it, so the Pod does not start (FailedMount)",
            zh: "kubelet 无法挂载由它构成的卷，所以 Pod 无法启动（FailedMount）",
        },
        WholeListing { kind: Text, namespace: Text } = "referenced-object-missing.whole-listing" {
            en: "Whether the {kind} objects pasted are all of namespace {namespace}: one left out of the paste may exist.",
            zh: "粘贴的 {kind} 对象是否就是命名空间 {namespace} 的全部：粘贴时漏掉的对象可能存在。",
        },
        CreatedLater {} = "referenced-object-missing.created-later" {
            en: "Whether it was created after this was captured, or deleted after the Pod started (a running Pod does not notice).",
            zh: "它是否在这些输出采集之后才创建，或者在 Pod 启动之后才被删除（运行中的 Pod 不会察觉）。",
        },
    }
}
