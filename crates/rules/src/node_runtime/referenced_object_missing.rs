use faultline_ingest::node::Node;
use faultline_model::views::pod_references::{pull_secret_paths, references, ReferenceUse};
use faultline_model::Model;
use faultline_report::{Boundary, Evidence, Finding, ObjectRef, Severity, Text};

use crate::pod_spec::{listed, pod_specs};

crate::declare_rule! {
    /// ## What it finds
    /// A Pod that names a Secret or ConfigMap that is not among those pasted for its namespace:
    /// `imagePullSecrets`, `env[].valueFrom.secretKeyRef` / `configMapKeyRef`, `envFrom[].secretRef`
    /// / `configMapRef`, and `volumes[]` of type `secret`, `configMap` or `projected` (each unless
    /// `optional: true`). It speaks only when that kind was pasted for that namespace as a listing
    /// (two or more of them: a `kubectl get secrets` table, a List, objects): one object alone is
    /// the one asked about, not the namespace. Listing or not, the kubelet's own event that it
    /// could not retrieve a pull secret (`FailedToRetrieveImagePullSecret`: `Unable to retrieve some
    /// image pull secrets (regcred)`) is a note (info) naming the Secret, unless the Secret is pasted
    /// (created since).
    ///
    /// ## Why it matters
    /// The kubelet cannot start a container whose env or volume names a missing object
    /// (`CreateContainerConfigError`, `FailedMount`); a missing pull secret leaves a private image
    /// unpullable (`ErrImagePull`, with the kubelet's `Unable to retrieve some image pull secrets`).
    /// The name in the spec is where the fix is.
    ///
    /// ## Evidence
    /// The referencing field (`imagePullSecrets[i].name`, `…secretKeyRef.name`, `volumes[i].secret.
    /// secretName`…) by its line, and the pasted objects of that kind in the namespace; or the
    /// kubelet's `FailedToRetrieveImagePullSecret` event, with the Pod's `imagePullSecrets[i].name`
    /// when the Pod was pasted.
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
    pub const RULE = { id: "referenced-object-missing", boundary: Boundary::NodeRuntime, components: [Kubelet], check: check };
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
            secrets: crate::pod_spec::names_pasted(model, "Secret", namespace),
            config_maps: crate::pod_spec::names_pasted(model, "ConfigMap", namespace),
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
    // (Pod, Secret) pairs reported from a listing, so the kubelet's own event does not repeat them.
    let mut reported: Vec<(ObjectRef, String)> = Vec::new();
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
            if count < 2 || said.contains(&(r.kind, r.name)) || names.binary_search(&r.name).is_ok() {
                continue;
            }
            said.push((r.kind, r.name));
            if r.kind == "Secret" && r.use_ == ReferenceUse::PullSecret {
                reported.push((object.id.clone(), r.name.to_string()));
            }
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
                namespace: object.id.namespace.clone(),
                name: r.name.into(),
                uid: None,
            };
            let consequence = match r.use_ {
                ReferenceUse::PullSecret => Msg::PullSecret {},
                ReferenceUse::Env => Msg::Env {},
                ReferenceUse::Volume => Msg::Volume {},
            }
            .into_box();
            let plural: Text = if r.kind == "Secret" {
                "secrets"
            } else {
                "configmaps"
            }
            .into();
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
                // The namespace the input states (`ns` is `default` where it states none, to look
                // up listings as the API server would place the Pod; a command must not guess it).
                vec![
                    command!("kubectl get {} -n {}", plural, spec.command_namespace()),
                    command!(
                        "kubectl get events -n {} --field-selector involvedObject.name={}",
                        spec.command_namespace(),
                        id.name
                    ),
                ],
            ));
        }
    }
    kubelet_pull_secret_events(model, &reported, findings);
}

/// The kubelet's own event that it could not retrieve a pull secret a Pod names: a finding even
/// when the namespace's Secrets were not pasted (the kubelet looked them up), unless a listing
/// reported it already or the Secret is pasted now (created since the event).
fn kubelet_pull_secret_events(
    model: &Model<'_>,
    reported: &[(ObjectRef, String)],
    findings: &mut Vec<Finding>,
) {
    for (event, name) in model.pull_secrets_not_retrieved() {
        let pod = &event.subject;
        // Rare events: the namespace's pasted Secrets are read for each (cheap beside a dump's Pods).
        let ns = pod.namespace.as_deref().unwrap_or("default");
        if Pasted::of(model, ns).names("Secret").binary_search(&name).is_ok()
            || reported.iter().any(|(p, n)| p == pod && n == name)
        {
            continue; // the Secret is pasted (created since the event), or a listing said it
        }
        let cmd_ns = pod.namespace.as_deref().unwrap_or(crate::UNKNOWN_NAMESPACE);
        let mut evidence: Vec<Evidence> = model.event_evidence(event).into_iter().collect();
        // The Pod's own reference, when the Pod was pasted.
        if let Some(object) = model.object(pod) {
            evidence.extend(
                pull_secret_paths(object, name)
                    .iter()
                    .filter_map(|p| model.evidence(object, p)),
            );
        }
        let missing = ObjectRef {
            kind: "Secret".into(),
            namespace: pod.namespace.clone(),
            name: name.into(),
            uid: None,
        };
        findings.push(RULE.finding(
            Severity::Info,
            pod.clone(),
            Msg::KubeletCannotRetrieve {
                subject: pod.clone(),
                missing,
            },
            evidence,
            [Msg::ImageNeedsIt {}, Msg::CreatedLater {}],
            vec![
                command!("kubectl get secrets -n {}", cmd_ns),
                command!(
                    "kubectl get pod {} -n {} -o jsonpath='{{.spec.imagePullSecrets}}'",
                    pod.name,
                    cmd_ns
                ),
            ],
        ));
    }
}

faultline_report::messages! {
    /// The words of `referenced-object-missing`.
    pub enum Msg {
        Missing { subject: ObjectRef, missing: ObjectRef, count: usize, consequence: Box<faultline_report::message::Message> } = "referenced-object-missing.missing" {
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
        /// The kubelet's `FailedToRetrieveImagePullSecret`: its words are the evidence.
        KubeletCannotRetrieve { subject: ObjectRef, missing: ObjectRef } = "referenced-object-missing.kubelet-cannot-retrieve" {
            en: "The kubelet could not retrieve {missing}, which {subject} names in imagePullSecrets (FailedToRetrieveImagePullSecret): the Secret is not in that namespace (or its name is misspelt), or the kubelet could not read it. The kubelet still tries to pull without it, so only a private image fails (ErrImagePull).",
            zh: "kubelet 无法获取 {missing}，而 {subject} 在 imagePullSecrets 中引用了它（FailedToRetrieveImagePullSecret）：该命名空间中没有这个 Secret（或者名字写错了），或者 kubelet 无法读取它。kubelet 仍会在没有它的情况下尝试拉取，所以只有私有镜像会拉取失败（ErrImagePull）。",
        },
        ImageNeedsIt {} = "referenced-object-missing.image-needs-it" {
            en: "Whether the image needs this Secret: a public image, or a registry the node's own credentials reach, pulls without it.",
            zh: "镜像是否需要这个 Secret：公开镜像，或节点自身凭据能访问的镜像仓库，没有它也能拉取。",
        },
        CreatedLater {} = "referenced-object-missing.created-later" {
            en: "Whether it was created after this was captured, or deleted after the Pod started (a running Pod does not notice).",
            zh: "它是否在这些输出采集之后才创建，或者在 Pod 启动之后才被删除（运行中的 Pod 不会察觉）。",
        },
    }
}
