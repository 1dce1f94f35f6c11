//! "What should I paste?": for each common symptom, the kubectl commands whose output lets Faultline
//! judge it — the object, its owners, its events sorted by time and, where it helps, the previous
//! container's logs. Upper-case words (`NS`, `POD`, …) are the user's names. The commands are
//! kubectl's own and the same in every language; the titles are in `i18n` (`guide_symptom`).

use faultline_report::{Report, Verdict};

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

/// The entry that fits what an inconclusive report did read: its kinds (a claim is about storage,
/// a Service about traffic…), else a Pod's. `None` for a report that is not inconclusive.
pub fn matching(report: &Report) -> Option<&'static str> {
    if report.verdict != Verdict::Inconclusive {
        return None;
    }
    let has = |kind: &str| report.counts.get(kind).is_some_and(|n| *n > 0);
    let pending = report
        .objects
        .iter()
        .any(|o| o.object.kind == "Pod" && o.phase.as_deref() == Some("Pending"));
    Some(if has("PersistentVolumeClaim") || has("PersistentVolume") {
        "storage"
    } else if has("Service") || has("EndpointSlice") || has("Endpoints") {
        "service-not-answering"
    } else if has("Deployment") || has("ReplicaSet") {
        "rollout-stuck"
    } else if has("Node") {
        "node-problems"
    } else if pending {
        "pending"
    } else if has("Pod") {
        "pod-not-starting"
    } else if report.inputs.iter().all(|i| i.objects == 0) && !report.errors.is_empty() {
        "api-errors"
    } else {
        "pod-not-starting"
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_collects_the_events_sorted_by_time() {
        for entry in ENTRIES {
            assert!(
                entry
                    .commands
                    .iter()
                    .any(|c| c.contains("get events") && c.contains("--sort-by=.lastTimestamp")),
                "{}",
                entry.id
            );
            for command in entry.commands {
                assert!(command.starts_with("kubectl "), "{command}");
                // The field selectors events support (involvedObject.*, reason, type, source) and Pods'
                // spec.nodeName.
                for selector in command.split("--field-selector ").skip(1) {
                    let selector = selector.split(' ').next().unwrap_or_default();
                    for term in selector.split(',') {
                        let field = term.split('=').next().unwrap_or_default();
                        assert!(
                            field.starts_with("involvedObject.")
                                || ["reason", "type", "spec.nodeName"].contains(&field),
                            "{command}"
                        );
                    }
                }
            }
        }
        assert!(
            ENTRIES
                .iter()
                .filter(|e| e.commands.iter().any(|c| c.contains("--previous")))
                .count()
                >= 3
        );
    }

    #[test]
    fn an_inconclusive_report_is_matched_by_what_it_read() {
        let mut report = Report {
            verdict: Verdict::Inconclusive,
            ..Report::default()
        };
        assert_eq!(matching(&report), Some("pod-not-starting"));
        report.counts.insert("Service".into(), 1);
        assert_eq!(matching(&report), Some("service-not-answering"));
        report.counts.insert("PersistentVolumeClaim".into(), 2);
        assert_eq!(matching(&report), Some("storage"));
        report.verdict = Verdict::Fault;
        assert_eq!(matching(&report), None);
    }
}
