//! "What should I paste?": for each common symptom, the kubectl commands whose output lets Faultline
//! judge it — the object, its owners, its events sorted by time and, where it helps, the previous
//! container's logs. Upper-case words (`NS`, `POD`, …) are the user's names. The commands are
//! kubectl's own and the same in every language; each symptom's title and what its commands
//! collect are in English and Chinese here, for the app's guide and the MCP tool `what_to_paste`.

use faultline_report::{Lang, Report, Verdict};

/// One symptom and its commands.
pub struct Entry {
    /// Stable id (the DOM, `i18n`'s titles).
    pub id: &'static str,
    pub commands: &'static [&'static str],
}

pub const ENTRIES: &[Entry] = &[
    Entry {
        id: "pod-not-starting",
        commands: &[
            "kubectl get pod POD -n NS -o yaml",
            "kubectl describe pod POD -n NS",
            "kubectl get events -n NS --field-selector involvedObject.name=POD --sort-by=.lastTimestamp",
            "kubectl get $(kubectl get pod POD -n NS -o jsonpath='{.metadata.ownerReferences[0].kind}/{.metadata.ownerReferences[0].name}') -n NS -o yaml",
            "kubectl logs POD -n NS --all-containers --previous --tail=100",
        ],
    },
    Entry {
        id: "pending",
        commands: &[
            "kubectl get pod POD -n NS -o yaml",
            "kubectl get events -n NS --field-selector involvedObject.name=POD --sort-by=.lastTimestamp",
            "kubectl get $(kubectl get pod POD -n NS -o jsonpath='{.metadata.ownerReferences[0].kind}/{.metadata.ownerReferences[0].name}') -n NS -o yaml",
            "kubectl describe nodes",
            "kubectl get pvc -n NS",
            "kubectl describe resourcequota -n NS",
        ],
    },
    Entry {
        id: "service-not-answering",
        commands: &[
            "kubectl get service SVC -n NS -o yaml",
            "kubectl get endpointslices -n NS -l kubernetes.io/service-name=SVC -o yaml",
            "kubectl get pods -n NS -l KEY=VALUE -o yaml",
            "kubectl get events -n NS --field-selector involvedObject.kind=Pod --sort-by=.lastTimestamp",
            "kubectl logs -n NS -l KEY=VALUE --all-containers --previous --tail=100",
        ],
    },
    Entry {
        id: "rollout-stuck",
        commands: &[
            "kubectl get deployment DEPLOY -n NS -o yaml",
            "kubectl get replicasets -n NS -l KEY=VALUE -o yaml",
            "kubectl get pods -n NS -l KEY=VALUE -o wide",
            "kubectl get events -n NS --field-selector involvedObject.name=DEPLOY --sort-by=.lastTimestamp",
            "kubectl get events -n NS --field-selector reason=FailedCreate --sort-by=.lastTimestamp",
        ],
    },
    Entry {
        id: "node-problems",
        commands: &[
            "kubectl get nodes -o wide",
            "kubectl describe node NODE",
            "kubectl get events -A --field-selector involvedObject.kind=Node,involvedObject.name=NODE --sort-by=.lastTimestamp",
            "kubectl get pods -A --field-selector spec.nodeName=NODE -o wide",
        ],
    },
    Entry {
        id: "api-errors",
        commands: &[
            "kubectl get --raw='/readyz?verbose'",
            "kubectl get pods -n kube-system -o wide",
            "kubectl get events -n kube-system --sort-by=.lastTimestamp",
            "kubectl get pods -n NS -v=6",
            "kubectl logs -n kube-system kube-apiserver-NODE --previous --tail=100",
        ],
    },
    Entry {
        id: "storage",
        commands: &[
            "kubectl get pvc PVC -n NS -o yaml",
            "kubectl describe pvc PVC -n NS",
            "kubectl get events -n NS --field-selector involvedObject.name=PVC --sort-by=.lastTimestamp",
            "kubectl get storageclass",
            "kubectl get volumeattachments",
            "kubectl get events -n NS --field-selector involvedObject.name=POD --sort-by=.lastTimestamp",
        ],
    },
];

/// The entry that fits the symptom an inconclusive report shows: the kinds it read (a claim is
/// about storage, a Service or its endpoints about traffic…), else what its events say (a
/// `FailedMount` is storage's, a `FailedScheduling` a Pending Pod's), else a Pod's. "API errors"
/// only when what was read is kubectl's own messages: an input error (a describe whose kind was
/// not told) is no API error (issue 40). `None` for a report that is not inconclusive.
pub fn matching(report: &Report) -> Option<&'static str> {
    if report.verdict != Verdict::Inconclusive {
        return None;
    }
    let has = |kind: &str| report.counts.get(kind).is_some_and(|n| *n > 0);
    let pending = report
        .objects
        .iter()
        .any(|o| o.object.kind == "Pod" && o.phase.as_deref() == Some("Pending"));
    let said = |reasons: &[&str]| {
        report
            .timeline
            .iter()
            .any(|e| reasons.contains(&e.reason.as_str()))
    };
    let about = |kind: &str| report.timeline.iter().any(|e| e.subject.kind == kind);
    Some(
        if has("PersistentVolumeClaim") || has("PersistentVolume") || about("PersistentVolumeClaim") {
            "storage"
        } else if has("Service") || has("EndpointSlice") || has("Endpoints") || about("Service") {
            "service-not-answering"
        } else if has("Deployment") || has("ReplicaSet") || has("StatefulSet") || about("Deployment") {
            "rollout-stuck"
        } else if has("Node") || about("Node") {
            "node-problems"
        } else if said(&["FailedMount", "FailedAttachVolume", "ProvisioningFailed"]) {
            "storage"
        } else if pending || said(&["FailedScheduling"]) {
            "pending"
        } else if has("Pod") || about("Pod") {
            "pod-not-starting"
        } else if report.inputs.iter().any(|i| i.format == "kubectl-messages") {
            "api-errors"
        } else {
            "pod-not-starting"
        },
    )
}

/// The symptom's title (`Pod stays Pending`).
pub fn symptom(id: &str, lang: Lang) -> &'static str {
    match lang {
        Lang::En => match id {
            "pod-not-starting" => {
                "Pod not starting (CrashLoopBackOff, ImagePullBackOff, CreateContainerConfigError)"
            }
            "pending" => "Pod stays Pending",
            "service-not-answering" => "Service not answering",
            "rollout-stuck" => "Rollout stuck",
            "node-problems" => "Node problems (NotReady, pressure, evictions)",
            "api-errors" => "API errors (kubectl fails, the control plane)",
            "storage" => "Storage (PVC Pending, mount or attach errors)",
            _ => "Other",
        },
        Lang::Zh => match id {
            "pod-not-starting" => {
                "Pod 无法启动（CrashLoopBackOff、ImagePullBackOff、CreateContainerConfigError）"
            }
            "pending" => "Pod 一直处于 Pending",
            "service-not-answering" => "Service 没有响应",
            "rollout-stuck" => "滚动发布卡住",
            "node-problems" => "节点问题（NotReady、资源压力、驱逐）",
            "api-errors" => "API 报错（kubectl 失败，控制平面）",
            "storage" => "存储（PVC Pending，挂载或挂接错误）",
            _ => "其他",
        },
    }
}

/// What the symptom's commands collect, in one sentence.
pub fn collects(id: &str, lang: Lang) -> &'static str {
    match lang {
        Lang::En => {
            match id {
                    "pod-not-starting" => "The Pod, its events by time, its owner, and the logs of the container that crashed before (--previous).",
                    "pending" => "The Pod, its events by time (FailedScheduling says why), its owner, the nodes with their taints and capacity, claims and quota.",
                    "service-not-answering" => "The Service, its EndpointSlices, the Pods its selector picks, their events by time and previous logs.",
                    "rollout-stuck" => "The Deployment, its ReplicaSets and Pods, their events by time, and FailedCreate events (quota, admission).",
                    "node-problems" => "The nodes, the node's conditions and events by time, and the Pods on it.",
                    "api-errors" => "The API server's health checks, the control plane Pods and their events, a request with its responses (-v=6), the API server's previous logs.",
                    "storage" => "The claim, its events by time, storage classes, volume attachments, and the Pod's events.",
                    _ => "",
                }
        }
        Lang::Zh => {
            match id {
                    "pod-not-starting" => "Pod 本身、按时间排序的事件、它的属主，以及上一次崩溃的容器的日志（--previous）。",
                    "pending" => "Pod 本身、按时间排序的事件（FailedScheduling 会说明原因）、它的属主、节点的污点和容量、存储卷声明和配额。",
                    "service-not-answering" => "Service、它的 EndpointSlice、选择算符选中的 Pod，以及这些 Pod 按时间排序的事件和上一次的日志。",
                    "rollout-stuck" => "Deployment、它的 ReplicaSet 和 Pod、按时间排序的事件，以及 FailedCreate 事件（配额、准入）。",
                    "node-problems" => "节点列表、该节点的状况和按时间排序的事件，以及运行在它上面的 Pod。",
                    "api-errors" => "API 服务器的健康检查、控制平面的 Pod 及其事件、一次带响应的请求（-v=6），以及 API 服务器上一次的日志。",
                    "storage" => "存储卷声明及其按时间排序的事件、存储类、卷挂接，以及 Pod 的事件。",
                    _ => "",
                }
        }
    }
}
