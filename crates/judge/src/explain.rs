//! Symptoms and their causes: the links by which one finding explains another, by the rules' ids
//! and the findings' typed details, never by their wording.

use crate::pod_node;
use faultline_model::owners::{descends_from, runs_on, selects, uses};
use faultline_model::Model;
use faultline_report::{Cause, Detail, Finding, Severity};
use faultline_rules::{
    application, components, control_plane, etcd, find, node_runtime, quota_admission, readiness_endpoints,
    scheduling, zone_network_storage,
};

/// Rules whose subject is the object that refused a create (a ResourceQuota, a webhook's Service),
/// the refused objects being in [`Finding::affects`].
const REFUSERS: &[&str] = &[
    quota_admission::quota_exceeded_on_create::RULE.id,
    quota_admission::admission_webhook_unreachable::RULE.id,
];

/// Whether `cause` explains `symptom` (both findings of the same analysis).
type Explains = fn(&Model<'_>, &Finding, &Finding) -> bool;

/// A symptom another finding explains.
pub(crate) struct Explanation {
    /// The symptom's rule id.
    pub(crate) symptom: &'static str,
    /// The cause's rule id; `None` for a finding of any other rule.
    pub(crate) cause: Option<&'static str>,
    /// Whether the symptom takes the cause's boundary: a symptom whose own evidence cannot say
    /// where the fault is (a Deployment's rollout) does; the others keep their own boundary and say
    /// what they follow from.
    pub(crate) takes_boundary: bool,
    pub(crate) explains: Explains,
}

/// `symptom` is explained by a failing cluster component, as that component's finding decided
/// (`cluster-component-failing` reads the other findings and names the ones it explains).
const fn by_a_cluster_component(symptom: &'static str) -> Explanation {
    Explanation {
        symptom,
        cause: Some(zone_network_storage::cluster_component_failing::RULE.id),
        takes_boundary: false,
        explains: |_, symptom, cause| {
            zone_network_storage::cluster_component_failing::explains(symptom, cause)
        },
    }
}

/// `symptom` is explained by a finding of `cause` about the same object.
const fn on_the_same_object(symptom: &'static str, cause: &'static str) -> Explanation {
    Explanation {
        symptom,
        cause: Some(cause),
        takes_boundary: false,
        explains: same_subject,
    }
}

/// `symptom` is explained by an error of `cause` about the same object (a warning of that rule is a
/// hint, which explains nothing).
const fn proven_on_the_same_object(symptom: &'static str, cause: &'static str) -> Explanation {
    Explanation {
        symptom,
        cause: Some(cause),
        takes_boundary: false,
        explains: |_, symptom, cause| symptom.subject == cause.subject && cause.severity == Severity::Error,
    }
}

/// `symptom` (a caller's probe failure or restarts) is explained by an error of `cause` about a
/// Service the caller names in its environment, or about what that Service selects (issue 39).
const fn by_a_callee(symptom: &'static str, cause: &'static str) -> Explanation {
    Explanation {
        symptom,
        cause: Some(cause),
        takes_boundary: false,
        explains: |model, symptom, cause| {
            cause.severity == Severity::Error && crate::callers::explains_caller(model, symptom, cause)
        },
    }
}

/// `symptom` (an OOM kill, restarts) of a Pod on a node whose kubelet recorded a SystemOOM: the
/// node's memory pressure explains it.
const fn by_a_system_oom(symptom: &'static str) -> Explanation {
    Explanation {
        symptom,
        cause: Some(node_runtime::node_under_pressure::RULE.id),
        takes_boundary: false,
        explains: |model, symptom, cause| {
            runs_on(model, &symptom.subject, &cause.subject) && system_oom(model, &cause.subject)
        },
    }
}

/// `symptom` (a caller's restarts, probe failures or 5xx) is explained by a refused create whose
/// refused objects hold a Service the caller calls (`quota-exceeded-on-create`,
/// `admission-denied-on-create`: their subject is the refuser, the refused in `affects`).
const fn by_a_refused_callee(symptom: &'static str, cause: &'static str) -> Explanation {
    Explanation {
        symptom,
        cause: Some(cause),
        takes_boundary: false,
        explains: |model, symptom, cause| {
            cause.severity == Severity::Error
                && symptom.subject.kind == "Pod"
                && model
                    .services_called(&symptom.subject)
                    .iter()
                    .any(|s| cause.affects.contains(s))
        },
    }
}

/// `symptom` (a Pod the scheduler cannot place) is explained by a refused create of a claim it
/// uses, or that its `FailedScheduling` says does not exist (`cause`: a refuser's rule).
const fn by_a_refused_claim(cause: &'static str) -> Explanation {
    Explanation {
        symptom: scheduling::pod_unschedulable::RULE.id,
        cause: Some(cause),
        takes_boundary: false,
        explains: |model, symptom, cause| {
            cause.severity == Severity::Error
                && cause.affects.iter().any(|claim| {
                    claim.kind == "PersistentVolumeClaim"
                        && claim.namespace == symptom.subject.namespace
                        && (uses(model, &symptom.subject, claim) == Some(true)
                            || model
                                .events_for(&symptom.subject)
                                .iter()
                                .any(|e| e.claim_not_found() == Some(claim.name.as_str())))
                })
        },
    }
}

/// The links from symptoms to causes, by the rules' ids and the findings' typed [`Detail`]s and
/// subjects, never by their summaries' wording.
pub(crate) const EXPLANATIONS: &[Explanation] = &[
    // A cluster component's failure explains its own Pods' findings and what it serves, listed
    // first so that it is the root (its links are in `cluster_component_failing::EXPLAINED`).
    by_a_cluster_component(application::container_crash_looping::RULE.id),
    by_a_cluster_component(application::container_oom_killed::RULE.id),
    by_a_cluster_component(application::liveness_probe_failing::RULE.id),
    by_a_cluster_component(application::startup_probe_failing::RULE.id),
    by_a_cluster_component(node_runtime::container_start_failed::RULE.id),
    by_a_cluster_component(node_runtime::container_config_invalid::RULE.id),
    by_a_cluster_component(node_runtime::image_pull_failed::RULE.id),
    by_a_cluster_component(readiness_endpoints::readiness_probe_failing::RULE.id),
    by_a_cluster_component(zone_network_storage::volume_mount_failed::RULE.id),
    by_a_cluster_component(readiness_endpoints::ingress_not_admitted::RULE.id),
    by_a_cluster_component(zone_network_storage::pvc_pending::RULE.id),
    by_a_cluster_component(zone_network_storage::pod_sandbox_failed::RULE.id),
    by_a_cluster_component(zone_network_storage::node_network_unavailable::RULE.id),
    by_a_cluster_component(readiness_endpoints::service_endpoints_not_serving::RULE.id),
    // A caller failing its probes or restarting because a Service it calls has nothing ready behind
    // it: the callee's fault is the cause (its Pods cannot be scheduled, pulled, configured or kept
    // running, or the Service selects none ready).
    by_a_callee(
        readiness_endpoints::readiness_probe_failing::RULE.id,
        readiness_endpoints::service_endpoints_not_serving::RULE.id,
    ),
    by_a_callee(
        readiness_endpoints::readiness_probe_failing::RULE.id,
        scheduling::pod_unschedulable::RULE.id,
    ),
    by_a_callee(
        readiness_endpoints::readiness_probe_failing::RULE.id,
        node_runtime::image_pull_failed::RULE.id,
    ),
    by_a_callee(
        readiness_endpoints::readiness_probe_failing::RULE.id,
        node_runtime::container_config_invalid::RULE.id,
    ),
    by_a_callee(
        readiness_endpoints::readiness_probe_failing::RULE.id,
        application::container_crash_looping::RULE.id,
    ),
    by_a_callee(
        readiness_endpoints::readiness_probe_failing::RULE.id,
        application::container_oom_killed::RULE.id,
    ),
    by_a_callee(
        application::liveness_probe_failing::RULE.id,
        readiness_endpoints::service_endpoints_not_serving::RULE.id,
    ),
    by_a_callee(
        application::liveness_probe_failing::RULE.id,
        scheduling::pod_unschedulable::RULE.id,
    ),
    by_a_callee(
        application::liveness_probe_failing::RULE.id,
        node_runtime::image_pull_failed::RULE.id,
    ),
    by_a_callee(
        application::liveness_probe_failing::RULE.id,
        node_runtime::container_config_invalid::RULE.id,
    ),
    by_a_callee(
        application::liveness_probe_failing::RULE.id,
        application::container_crash_looping::RULE.id,
    ),
    by_a_callee(
        application::liveness_probe_failing::RULE.id,
        application::container_oom_killed::RULE.id,
    ),
    by_a_callee(
        application::container_crash_looping::RULE.id,
        readiness_endpoints::service_endpoints_not_serving::RULE.id,
    ),
    // What a dependency its log cannot reach is itself failing with (issue 44).
    by_a_callee(
        application::dependency_failing::RULE.id,
        readiness_endpoints::service_endpoints_not_serving::RULE.id,
    ),
    by_a_callee(
        application::dependency_failing::RULE.id,
        scheduling::pod_unschedulable::RULE.id,
    ),
    by_a_callee(
        application::dependency_failing::RULE.id,
        node_runtime::image_pull_failed::RULE.id,
    ),
    by_a_callee(
        application::dependency_failing::RULE.id,
        node_runtime::container_config_invalid::RULE.id,
    ),
    by_a_callee(
        application::dependency_failing::RULE.id,
        application::container_crash_looping::RULE.id,
    ),
    by_a_callee(
        application::dependency_failing::RULE.id,
        application::container_oom_killed::RULE.id,
    ),
    by_a_callee(
        application::container_crash_looping::RULE.id,
        scheduling::pod_unschedulable::RULE.id,
    ),
    by_a_callee(
        application::container_crash_looping::RULE.id,
        node_runtime::image_pull_failed::RULE.id,
    ),
    by_a_callee(
        application::container_crash_looping::RULE.id,
        node_runtime::container_config_invalid::RULE.id,
    ),
    by_a_callee(
        application::container_crash_looping::RULE.id,
        application::container_crash_looping::RULE.id,
    ),
    by_a_callee(
        application::container_crash_looping::RULE.id,
        application::container_oom_killed::RULE.id,
    ),
    // A caller failing because a Service it calls was never created: the API server refused it
    // (a quota, an admission webhook or policy), so its name does not resolve.
    by_a_refused_callee(
        application::container_crash_looping::RULE.id,
        quota_admission::quota_exceeded_on_create::RULE.id,
    ),
    // A dependency its log cannot reach whose Service a quota or an admission refused to create.
    by_a_refused_callee(
        application::dependency_failing::RULE.id,
        quota_admission::quota_exceeded_on_create::RULE.id,
    ),
    by_a_refused_callee(
        application::dependency_failing::RULE.id,
        quota_admission::admission_denied_on_create::RULE.id,
    ),
    by_a_refused_callee(
        application::container_crash_looping::RULE.id,
        quota_admission::admission_denied_on_create::RULE.id,
    ),
    by_a_refused_callee(
        application::container_crash_looping::RULE.id,
        quota_admission::admission_webhook_unreachable::RULE.id,
    ),
    by_a_refused_callee(
        application::liveness_probe_failing::RULE.id,
        quota_admission::quota_exceeded_on_create::RULE.id,
    ),
    by_a_refused_callee(
        application::liveness_probe_failing::RULE.id,
        quota_admission::admission_denied_on_create::RULE.id,
    ),
    by_a_refused_callee(
        application::liveness_probe_failing::RULE.id,
        quota_admission::admission_webhook_unreachable::RULE.id,
    ),
    by_a_refused_callee(
        readiness_endpoints::readiness_probe_failing::RULE.id,
        quota_admission::quota_exceeded_on_create::RULE.id,
    ),
    by_a_refused_callee(
        readiness_endpoints::readiness_probe_failing::RULE.id,
        quota_admission::admission_denied_on_create::RULE.id,
    ),
    by_a_refused_callee(
        readiness_endpoints::readiness_probe_failing::RULE.id,
        quota_admission::admission_webhook_unreachable::RULE.id,
    ),
    by_a_refused_callee(
        application::http_server_errors::RULE.id,
        quota_admission::quota_exceeded_on_create::RULE.id,
    ),
    by_a_refused_callee(
        application::http_server_errors::RULE.id,
        quota_admission::admission_denied_on_create::RULE.id,
    ),
    by_a_refused_callee(
        application::http_server_errors::RULE.id,
        quota_admission::admission_webhook_unreachable::RULE.id,
    ),
    // A Pod the scheduler cannot place because its claim does not exist, the claim's create having
    // been refused (a `requests.storage` quota, a policy): the refusal is the cause.
    by_a_refused_claim(quota_admission::quota_exceeded_on_create::RULE.id),
    by_a_refused_claim(quota_admission::admission_denied_on_create::RULE.id),
    // An admission webhook the API server cannot call, whose Service has no ready endpoints.
    Explanation {
        symptom: quota_admission::admission_webhook_unreachable::RULE.id,
        cause: Some(readiness_endpoints::service_endpoints_not_serving::RULE.id),
        takes_boundary: false,
        explains: |_, symptom, cause| {
            quota_admission::admission_webhook_unreachable::service_of(symptom)
                .is_some_and(|s| s == cause.subject)
        },
    },
    // The scheduler refusing a node for its pressure taint is explained by the node's pressure.
    Explanation {
        symptom: scheduling::pod_unschedulable::RULE.id,
        cause: Some(node_runtime::node_under_pressure::RULE.id),
        takes_boundary: false,
        explains: |_, symptom, cause| {
            cause.details.iter().any(|pressure| match pressure {
                Detail::NodePressure { taint } => symptom
                    .details
                    .iter()
                    .any(|d| matches!(d, Detail::UntoleratedTaint(key) if key == taint)),
                _ => false,
            })
        },
    },
    // "Too many pods" is explained by a node that holds as many Pods as its allocatable.
    Explanation {
        symptom: scheduling::pod_unschedulable::RULE.id,
        cause: Some(scheduling::node_pod_capacity_reached::RULE.id),
        takes_boundary: false,
        explains: |model, symptom, _| {
            scheduling::node_pod_capacity_reached::refused_for_pod_count(model, &symptom.subject)
        },
    },
    // "pod has unbound immediate PersistentVolumeClaims" is explained by the claim's own failure.
    Explanation {
        symptom: scheduling::pod_unschedulable::RULE.id,
        cause: Some(zone_network_storage::pvc_pending::RULE.id),
        takes_boundary: false,
        explains: |model, symptom, cause| {
            symptom.subject.namespace == cause.subject.namespace
                && symptom.details.contains(&Detail::UnboundClaim)
                && uses(model, &symptom.subject, &cause.subject).unwrap_or(true)
        },
    },
    // A rollout that is not progressing is explained by what is wrong with its ReplicaSets or Pods
    // (or by a refusal reported on the Deployment itself), followed down the owner references.
    Explanation {
        symptom: readiness_endpoints::rollout_not_progressing::RULE.id,
        cause: None,
        takes_boundary: true,
        explains: |model, symptom, cause| {
            cause.rule != symptom.rule
                && (descends_from(model, &cause.subject, &symptom.subject)
                    // A refusal whose subject is the refuser (a quota): what it refused.
                    || (REFUSERS.contains(&cause.rule.as_str())
                        && cause.affects.iter().any(|a| descends_from(model, a, &symptom.subject))))
        },
    },
    // Pods no scheduler has tried, while kube-scheduler's own Pod is failing: the scheduler's Pod
    // is the finding to read.
    Explanation {
        symptom: control_plane::scheduler_not_running::RULE.id,
        cause: Some(control_plane::control_plane_component_failing::RULE.id),
        takes_boundary: false,
        explains: |_, _, cause| {
            cause.details.contains(&Detail::ControlPlaneComponent(
                control_plane::components::SCHEDULER,
            ))
        },
    },
    // A control-plane component's Pod failing is the component failing: its container findings are
    // the details of that finding, not another fault at the application boundary.
    on_the_same_object(
        application::container_crash_looping::RULE.id,
        control_plane::control_plane_component_failing::RULE.id,
    ),
    on_the_same_object(
        application::container_oom_killed::RULE.id,
        control_plane::control_plane_component_failing::RULE.id,
    ),
    on_the_same_object(
        application::liveness_probe_failing::RULE.id,
        control_plane::control_plane_component_failing::RULE.id,
    ),
    on_the_same_object(
        node_runtime::container_start_failed::RULE.id,
        control_plane::control_plane_component_failing::RULE.id,
    ),
    on_the_same_object(
        application::container_crash_looping::RULE.id,
        etcd::etcd_member_failing::RULE.id,
    ),
    on_the_same_object(
        application::container_oom_killed::RULE.id,
        etcd::etcd_member_failing::RULE.id,
    ),
    // A Service with no ready endpoints explains failing requests to it: requests addressed to that
    // Service, or read from the log of a Pod it selects. A request to another Service, a URL or an
    // unknown target is not explained by it.
    Explanation {
        symptom: application::http_server_errors::RULE.id,
        cause: Some(readiness_endpoints::service_endpoints_not_serving::RULE.id),
        takes_boundary: false,
        explains: |model, symptom, cause| {
            symptom.subject == cause.subject
                || (symptom.subject.kind == "Pod" && selects(model, &cause.subject, &symptom.subject))
        },
    },
    // A container OOM-killed on a node whose kubelet recorded a SystemOOM: the kernel's OOM killer
    // acted for the whole node, so the node's memory pressure is the cause, not the container's
    // limit (the question the deciding command asks).
    by_a_system_oom(application::container_oom_killed::RULE.id),
    by_a_system_oom(application::container_crash_looping::RULE.id),
    // A Pod without a network sandbox on a node whose network is not ready.
    Explanation {
        symptom: zone_network_storage::pod_sandbox_failed::RULE.id,
        cause: Some(zone_network_storage::node_network_unavailable::RULE.id),
        takes_boundary: false,
        explains: |model, symptom, cause| runs_on(model, &symptom.subject, &cause.subject),
    },
    // A Pod out of a Service's endpoints because its readiness probe fails: the Service's finding
    // (the five facts) is the one to read first.
    Explanation {
        symptom: readiness_endpoints::readiness_probe_failing::RULE.id,
        cause: Some(readiness_endpoints::service_endpoints_not_serving::RULE.id),
        takes_boundary: false,
        explains: |model, symptom, cause| selects(model, &cause.subject, &symptom.subject),
    },
    // Restarts that are the kubelet's liveness kills: the probe is the finding to read.
    on_the_same_object(
        application::container_crash_looping::RULE.id,
        application::liveness_probe_failing::RULE.id,
    ),
    // Restarts that are the kubelet's startup-probe kills (a `Killing` event for it, or exit 137):
    // the startup probe is the finding to read.
    Explanation {
        symptom: application::container_crash_looping::RULE.id,
        cause: Some(application::startup_probe_failing::RULE.id),
        takes_boundary: false,
        explains: |model, symptom, cause| {
            symptom.subject == cause.subject
                && application::startup_probe_failing::kills_explain_restarts(model, &cause.subject)
        },
    },
    // A node not ready because its network plugin is not is a network fault first.
    on_the_same_object(
        node_runtime::node_not_ready::RULE.id,
        zone_network_storage::node_network_unavailable::RULE.id,
    ),
    on_the_same_object(
        application::liveness_probe_failing::RULE.id,
        etcd::etcd_member_failing::RULE.id,
    ),
    on_the_same_object(
        node_runtime::container_start_failed::RULE.id,
        etcd::etcd_member_failing::RULE.id,
    ),
    // After the Service's own link: the component is then the Service's cause.
    by_a_cluster_component(quota_admission::admission_webhook_unreachable::RULE.id),
    // A probe aimed at a port its container does not have: the probe's failures follow from it when
    // that is certain (a named port the container lacks, or a refused dial to an undeclared one: the
    // finding is an error); an undeclared number alone is a hint and explains nothing.
    proven_on_the_same_object(
        readiness_endpoints::readiness_probe_failing::RULE.id,
        application::probe_port_not_declared::RULE.id,
    ),
    proven_on_the_same_object(
        application::liveness_probe_failing::RULE.id,
        application::probe_port_not_declared::RULE.id,
    ),
    proven_on_the_same_object(
        application::startup_probe_failing::RULE.id,
        application::probe_port_not_declared::RULE.id,
    ),
    // An application that cannot reach what it depends on restarts, fails its probes, answers
    // 5xx: its log says why (issue 44).
    on_the_same_object(
        application::container_crash_looping::RULE.id,
        application::dependency_failing::RULE.id,
    ),
    on_the_same_object(
        application::liveness_probe_failing::RULE.id,
        application::dependency_failing::RULE.id,
    ),
    on_the_same_object(
        readiness_endpoints::readiness_probe_failing::RULE.id,
        application::dependency_failing::RULE.id,
    ),
    on_the_same_object(
        application::startup_probe_failing::RULE.id,
        application::dependency_failing::RULE.id,
    ),
    on_the_same_object(
        application::job_failed::RULE.id,
        application::dependency_failing::RULE.id,
    ),
    // A caller configured with a port its Service does not expose: its restarts and probe
    // failures follow from that line of its configuration.
    on_the_same_object(
        application::container_crash_looping::RULE.id,
        application::env_port_not_a_service_port::RULE.id,
    ),
    on_the_same_object(
        application::liveness_probe_failing::RULE.id,
        application::env_port_not_a_service_port::RULE.id,
    ),
    on_the_same_object(
        readiness_endpoints::readiness_probe_failing::RULE.id,
        application::env_port_not_a_service_port::RULE.id,
    ),
    // A Service whose named targetPort no selected container defines has no endpoints for it.
    proven_on_the_same_object(
        readiness_endpoints::service_endpoints_not_serving::RULE.id,
        readiness_endpoints::service_target_port_mismatch::RULE.id,
    ),
    proven_on_the_same_object(
        readiness_endpoints::proxy_found_no_endpoints::RULE.id,
        readiness_endpoints::service_target_port_mismatch::RULE.id,
    ),
];

/// Whether the kubelet of `node` recorded a `SystemOOM` event (the kernel's OOM killer acted).
fn system_oom(model: &Model<'_>, node: &faultline_report::ObjectRef) -> bool {
    model.events_for(node).iter().any(|e| e.reason == "SystemOOM")
}

pub(crate) fn same_subject(_: &Model<'_>, symptom: &Finding, cause: &Finding) -> bool {
    symptom.subject == cause.subject
}

/// Marks each symptom with the first (best-ranked) finding that explains it. A finding already
/// explained cannot become a cause of its own cause, so the relation has no cycles.
pub(crate) fn relate(model: &Model<'_>, findings: &mut [Finding]) {
    // The findings of each rule, in ranked order: a link that names its cause's rule looks at those
    // alone. Asking every link of every symptom about every finding was quadratic: on a 10k-Pod
    // dump's 4,500 findings it was most of judging's 200 ms.
    let mut by_rule: faultline_report::hash::Map<String, Vec<usize>> = faultline_report::hash::Map::default();
    for (j, f) in findings.iter().enumerate() {
        by_rule.entry(f.rule.clone()).or_default().push(j);
    }
    let all: Vec<usize> = (0..findings.len()).collect();
    let places = Places::of(findings);
    for i in 0..findings.len() {
        let found = EXPLANATIONS.iter().find_map(|link| {
            if findings[i].rule != link.symptom {
                return None;
            }
            let candidates = match link.cause {
                Some(rule) => by_rule.get(rule).map_or(&[][..], Vec::as_slice),
                None => &all[..],
            };
            candidates
                .iter()
                .map(|&j| (j, &findings[j]))
                .find(|(j, c)| {
                    *j != i
                        // History (info) explains nothing current: listed under it, an error or a
                        // warning would follow an info line, and the info line could head the report.
                        && (c.severity != Severity::Info || findings[i].severity == Severity::Info)
                        && !places.explained_by_chain(findings, c, &findings[i])
                        && (link.explains)(model, &findings[i], c)
                })
                .map(|(_, c)| (c.rule.clone(), c.subject.clone(), c.boundary, link.takes_boundary))
        });
        if let Some((rule, subject, boundary, takes_boundary)) = found {
            let symptom = &mut findings[i];
            if symptom.severity == Severity::Error {
                symptom.severity = Severity::Warning;
            }
            if takes_boundary {
                symptom.boundary = boundary;
                // Drawn where its cause is: the components the cause's rule declares.
                if let Some(cause) = find(&rule) {
                    let pod_node = pod_node(model, &symptom.subject);
                    components::implicate(cause.components, symptom, pod_node);
                }
            }
            symptom.summary.wrap(|summary| {
                faultline_report::message::common::Msg::Symptom {
                    summary: Box::new(summary),
                    cause: subject.clone(),
                    rule: rule.clone(),
                }
                .into()
            });
            symptom.explained_by = Some(Cause { rule, subject });
        }
    }
}

/// The findings about each subject, by place: where the cause a finding names (`explained_by`) is
/// found. Findings keep their places while they are related, so it is built once.
pub(crate) struct Places(faultline_report::hash::Map<faultline_report::ObjectRef, Vec<usize>>);

impl Places {
    pub(crate) fn of(findings: &[Finding]) -> Self {
        let mut about: faultline_report::hash::Map<faultline_report::ObjectRef, Vec<usize>> =
            faultline_report::hash::Map::default();
        for (i, f) in findings.iter().enumerate() {
            about.entry(f.subject.clone()).or_default().push(i);
        }
        Self(about)
    }

    /// The place of the first finding of `rule` about `subject`.
    pub(crate) fn get(
        &self,
        findings: &[Finding],
        rule: &str,
        subject: &faultline_report::ObjectRef,
    ) -> Option<usize> {
        self.0
            .get(subject)?
            .iter()
            .copied()
            .find(|&i| findings[i].rule == rule)
    }

    /// Whether `finding` is (transitively) explained by `by`, each cause looked up here.
    pub(crate) fn explained_by_chain(&self, findings: &[Finding], finding: &Finding, by: &Finding) -> bool {
        let mut current = finding;
        for _ in 0..findings.len() {
            let Some(cause) = &current.explained_by else {
                return false;
            };
            if cause.rule == by.rule && cause.subject == by.subject {
                return true;
            }
            match self.get(findings, &cause.rule, &cause.subject) {
                Some(next) => current = &findings[next],
                None => return false,
            }
        }
        false
    }
}
