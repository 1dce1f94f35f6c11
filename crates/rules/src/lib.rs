//! Diagnosis rules: one per file under `rules/<boundary>/`, each declared with [`declare_rule!`] so its
//! doc comment (with fixed sections) becomes the documentation the app and CLI show.

/// A command for a finding's `next_steps`: `format!` with every argument shell-quoted where it needs
/// it ([`shell::ShellArg`]), because names come from the input and the command is pasted into a
/// shell. Only `{}` placeholders: a name captured inline (`{ns}`) would not be quoted (a test reads
/// the rules' sources for that).
macro_rules! command {
    ($fmt:literal $(, $arg:expr)* $(,)?) => {
        format!($fmt $(, $crate::shell::ShellArg::shell_arg(&$arg))*)
    };
}

pub mod application;
pub mod cluster_components;
pub mod components;
mod containers;
pub mod control_plane;
pub use faultline_report::docs;
pub mod etcd;
pub mod history;
pub mod log_evidence;
pub mod node_runtime;
pub mod pod_spec;
pub mod quota_admission;
pub mod readiness_endpoints;
pub mod scheduling;
pub mod shell;
mod table_status;
pub mod zone_network_storage;

use faultline_model::owners::{
    descends_from, pods_hurt_by, runs_on, selects, stated_workload, top_workload, uses,
};
use faultline_model::Model;
use faultline_report::{Boundary, Cause, Detail, Evidence, Finding, ObjectRef, Severity, Text};

/// A diagnosis rule: an id naming the condition observed, its boundary, its docs, and its check.
pub struct Rule {
    pub id: &'static str,
    pub boundary: Boundary,
    /// The rule's doc comment, in Markdown, with the sections listed in [`DOC_SECTIONS`].
    pub docs: &'static str,
    /// The same documentation in Chinese (the rule's `DOCS_ZH`), with the sections listed in
    /// [`DOC_SECTIONS_ZH`]: written like the doc comment (each line after one space), with every
    /// identifier, field, reason, message and command as in English and the example unchanged.
    pub docs_zh: &'static str,
    pub check: fn(&Model<'_>, &mut Vec<Finding>),
    /// The components of the logical architecture its findings implicate ([`components`]).
    pub components: &'static [components::Implicates],
    /// The other boundaries a finding of it may be at: a cluster component's failure is at the
    /// boundary of what it serves (`cluster-component-failing`); empty for the other rules.
    pub also_at: &'static [Boundary],
}

impl Rule {
    /// The rule's documentation, without its check.
    pub const fn doc(&self) -> docs::RuleDoc {
        docs::RuleDoc {
            id: self.id,
            boundary: self.boundary,
            docs: self.docs,
            docs_zh: self.docs_zh,
        }
    }

    /// The documentation in a language: [`Rule::docs_zh`] for [`faultline_report::lang::Lang::Zh`], the doc
    /// comment otherwise.
    pub fn docs_in(&self, lang: faultline_report::lang::Lang) -> &'static str {
        match lang {
            faultline_report::lang::Lang::En => self.docs,
            faultline_report::lang::Lang::Zh => self.docs_zh,
        }
    }

    /// The titles of the documentation's sections in a language.
    pub fn doc_sections(lang: faultline_report::lang::Lang) -> [&'static str; 7] {
        match lang {
            faultline_report::lang::Lang::En => DOC_SECTIONS,
            faultline_report::lang::Lang::Zh => DOC_SECTIONS_ZH,
        }
    }

    /// A finding of this rule: its id and boundary are the rule's own, never retyped by hand.
    pub fn finding(
        &self,
        severity: Severity,
        subject: ObjectRef,
        summary: impl Into<faultline_report::message::Message>,
        evidence: Vec<Evidence>,
        cannot_establish: impl IntoIterator<Item = impl Into<faultline_report::message::Message>>,
        next_steps: Vec<String>,
    ) -> Finding {
        Finding {
            rule: self.id.to_string(),
            boundary: self.boundary,
            severity,
            subject,
            summary: String::new(),
            message: Some(summary.into()),
            evidence,
            cannot_establish: Vec::new(),
            cannot_establish_messages: cannot_establish.into_iter().map(Into::into).collect(),
            next_steps,
            explained_by: None,
            affects: Vec::new(),
            components: Vec::new(),
            node: None,
            details: Vec::new(),
        }
    }
}

/// The sections every rule's documentation has, in this order (STYLE.md).
pub const DOC_SECTIONS: [&str; 7] = [
    "What it finds",
    "Why it matters",
    "Evidence",
    "Fault boundary",
    "What this evidence cannot establish",
    "Next evidence to collect",
    "Example",
];

/// [`DOC_SECTIONS`] in Chinese: the titles of the sections of [`Rule::docs_zh`], in the same order.
pub const DOC_SECTIONS_ZH: [&str; 7] = [
    "检测内容",
    "为什么重要",
    "证据",
    "故障边界",
    "这些证据无法确定的内容",
    "下一步应收集的证据",
    "示例",
];

/// Declares a rule: the doc comment is turned into [`Rule::docs`] with `concat!`, never synced by hand;
/// `docs_zh` is its Chinese translation ([`Rule::docs_zh`], a `DOCS_ZH` const in the rule's file).
/// `components: [Kubelet, Runtime if NotNodeSubject]` names the [`faultline_report::Component`]s its
/// findings implicate, each with an optional [`components::When`] condition; a rule without one
/// does not compile (and a test checks the registry's).
#[macro_export]
macro_rules! declare_rule {
    ($(#[doc = $doc:literal])+ pub const $name:ident = { id: $id:literal, boundary: $boundary:expr, components: [$($component:ident $(if $when:ident)?),+ $(,)?], $(also_at: [$($also:expr),* $(,)?],)? docs_zh: $docs_zh:expr, check: $check:path $(,)? };) => {
        $(#[doc = $doc])+
        pub const $name: $crate::Rule = $crate::Rule {
            id: $id,
            boundary: $boundary,
            docs: concat!($($doc, "\n"),+),
            docs_zh: $docs_zh,
            check: $check,
            also_at: &[$($($also),*)?],
            components: &[$($crate::components::Implicates {
                component: ::faultline_report::Component::$component,
                when: $crate::declare_rule!(@when $($when)?),
            }),+],
        };
    };
    (@when) => { $crate::components::When::Always };
    (@when $when:ident) => { $crate::components::When::$when };
}

/// Every rule, sorted by id (a test keeps it sorted).
pub const RULES: &[Rule] = &[
    quota_admission::admission_denied_on_create::RULE,
    quota_admission::admission_webhook_unreachable::RULE,
    control_plane::apiserver_request_failed::RULE,
    quota_admission::authorization_denied::RULE,
    zone_network_storage::cluster_component_failing::RULE,
    node_runtime::container_config_invalid::RULE,
    application::container_crash_looping::RULE,
    application::container_init_oom_killed::RULE,
    application::container_oom_killed::RULE,
    node_runtime::container_start_failed::RULE,
    control_plane::control_plane_component_failing::RULE,
    zone_network_storage::dns_policy_bypasses_cluster_dns::RULE,
    application::env_host_not_a_service::RULE,
    etcd::etcd_member_failing::RULE,
    etcd::etcd_request_failed::RULE,
    application::http_server_errors::RULE,
    node_runtime::image_pull_failed::RULE,
    readiness_endpoints::ingress_not_admitted::RULE,
    application::job_failed::RULE,
    application::liveness_probe_failing::RULE,
    control_plane::metrics_api_unavailable::RULE,
    zone_network_storage::node_network_unavailable::RULE,
    node_runtime::node_not_ready::RULE,
    scheduling::node_pod_capacity_reached::RULE,
    node_runtime::node_under_pressure::RULE,
    node_runtime::pod_evicted::RULE,
    zone_network_storage::pod_sandbox_failed::RULE,
    scheduling::pod_unschedulable::RULE,
    application::probe_port_not_declared::RULE,
    readiness_endpoints::proxy_found_no_endpoints::RULE,
    zone_network_storage::pvc_pending::RULE,
    quota_admission::quota_exceeded_on_create::RULE,
    readiness_endpoints::readiness_probe_failing::RULE,
    application::readiness_probe_missing::RULE,
    node_runtime::referenced_object_missing::RULE,
    quota_admission::replica_creation_failed::RULE,
    zone_network_storage::replicas_in_one_zone::RULE,
    quota_admission::resource_quota_exhausted::RULE,
    readiness_endpoints::rollout_not_progressing::RULE,
    application::runtime_memory_over_limit::RULE,
    control_plane::scheduler_not_running::RULE,
    readiness_endpoints::service_endpoints_not_serving::RULE,
    readiness_endpoints::service_proxy_refused::RULE,
    zone_network_storage::service_proxy_unreachable::RULE,
    readiness_endpoints::service_target_port_mismatch::RULE,
    application::startup_probe_failing::RULE,
    zone_network_storage::volume_mount_failed::RULE,
    zone_network_storage::volume_reclaim_failed::RULE,
];

/// Every rule's documentation, in the registry's order.
pub fn docs_all() -> Vec<docs::RuleDoc> {
    RULES.iter().map(Rule::doc).collect()
}

pub fn find(id: &str) -> Option<&'static Rule> {
    RULES.iter().find(|r| r.id == id)
}

/// The `spec.nodeName` of a pasted Pod (the node whose kubelet runs it).
fn pod_node(model: &Model<'_>, subject: &ObjectRef) -> Option<Text> {
    if subject.kind != "Pod" {
        return None;
    }
    let object = model.object(subject)?;
    model
        .evidence(object, "spec.nodeName")
        .map(|e| e.value.trim().to_string())
        .filter(|n| !n.is_empty())
        .map(Text::from)
}

/// Runs every rule, groups explained symptoms under their causes, and orders the findings: errors
/// before warnings before info, structured evidence before events alone, then in the order the rules
/// emitted them (which follows input order), so the report is deterministic. A symptom follows the
/// finding that explains it (and that finding's own symptoms follow it in turn).
pub fn run(model: &Model<'_>) -> Vec<Finding> {
    let mut findings = Vec::new();
    let late = |r: &&Rule| LATE.contains(&r.id);
    for rule in RULES.iter().filter(|r| !late(r)).chain(RULES.iter().filter(late)) {
        (rule.check)(model, &mut findings);
    }
    let mut findings = merge_duplicates(findings);
    for finding in &mut findings {
        if let Some(rule) = find(&finding.rule) {
            let pod_node = pod_node(model, &finding.subject);
            components::implicate(rule.components, finding, pod_node);
        }
        affected(model, finding);
    }
    // Most likely root cause first: by severity; then findings about what the rest of the input
    // shows failing (another finding is about the same object or workload) before findings about an
    // object nothing else refers to; then findings about an object that was pasted (structured
    // status) before findings that rest on events or messages alone.
    let touched = touched_by_others(&findings);
    let mut ranked: Vec<(usize, Finding)> = findings.into_iter().enumerate().collect();
    ranked.sort_by_cached_key(|(i, f)| {
        let pasted = model.graph.find(&f.subject).is_some();
        (std::cmp::Reverse(f.severity), !touched[*i], !pasted)
    });
    let mut findings: Vec<Finding> = ranked.into_iter().map(|(_, f)| f).collect();
    named_first(&mut findings);
    relate(model, &mut findings);
    let mut findings = one_finding_per_template_fault(model, findings);
    carry_affects(&mut findings);
    for finding in &mut findings {
        finding.details = Vec::new();
    }
    group(findings)
}

/// Within a run of findings of one rule and severity, those that name their subject before those
/// about an object the input leaves unnamed (a log line's `Multi-Attach error` before the events
/// that name the Pods it is about): the same diagnosis, but one the reader can act on. Runs keep
/// their place, so the order of boundaries is unchanged.
fn named_first(findings: &mut [Finding]) {
    let mut start = 0;
    while start < findings.len() {
        let same = |f: &Finding| f.rule == findings[start].rule && f.severity == findings[start].severity;
        let end = start + findings[start..].iter().take_while(|f| same(f)).count();
        findings[start..end].sort_by_key(|f| f.subject.name.is_empty());
        start = end;
    }
}

/// The rules whose fault lies in what the Pods of a workload share, their template: the image, the
/// command, the configuration it references, the limits, the probes.
const TEMPLATE_RULES: [&str; 8] = [
    "container-config-invalid",
    "container-crash-looping",
    "container-init-oom-killed",
    "container-oom-killed",
    "container-start-failed",
    "image-pull-failed",
    "liveness-probe-failing",
    "startup-probe-failing",
];

/// One template fault, one finding: when two or more Pods of one workload (its owner as the input
/// states it, [`stated_workload`]; a Deployment known only from generated names is not enough) fail
/// by the same template rule at the same severity, and no other finding explains them, the finding
/// is about the workload, with the evidence of each Pod, in the place of its first Pod. The fault
/// is in what they share; one Pod or one node is not the answer (a DaemonSet whose Pods crash on
/// every node).
fn one_finding_per_template_fault(model: &Model<'_>, findings: Vec<Finding>) -> Vec<Finding> {
    let workload_of = |f: &Finding| -> Option<ObjectRef> {
        if f.subject.kind != "Pod"
            || f.severity == Severity::Info
            || f.explained_by.is_some()
            || !TEMPLATE_RULES.contains(&f.rule.as_str())
        {
            return None;
        }
        stated_workload(model, &f.subject).filter(|w| w.kind != "Pod" && !w.name.is_empty())
    };
    let mut groups: faultline_report::hash::Map<(String, Severity, ObjectRef), Vec<usize>> =
        faultline_report::hash::Map::default();
    let keys: Vec<Option<(String, Severity, ObjectRef)>> = findings
        .iter()
        .map(|f| workload_of(f).map(|w| (f.rule.clone(), f.severity, w)))
        .collect();
    for (i, key) in keys.iter().enumerate() {
        if let Some(key) = key {
            groups.entry(key.clone()).or_default().push(i);
        }
    }
    let mut slots: Vec<Option<Finding>> = findings.into_iter().map(Some).collect();
    for (i, key) in keys.iter().enumerate() {
        let Some(key) = key else { continue };
        let members = &groups[key];
        if members.len() < 2 || members[0] != i {
            continue;
        }
        let mut base = slots[i]
            .take()
            .unwrap_or_else(|| unreachable!("each finding is taken once"));
        let mut pods = vec![base.subject.clone()];
        for &j in &members[1..] {
            let Some(other) = slots[j].take() else { continue };
            pods.push(other.subject.clone());
            // The node of the finding is that of all its Pods, or none.
            if other.node != base.node {
                base.node = None;
            }
            // Each Pod's evidence; what cannot be established and the next steps stay the first
            // Pod's (the others' say the same of another Pod).
            add_missing(&mut base.evidence, other.evidence);
            add_missing(&mut base.affects, other.affects);
            add_missing(&mut base.details, other.details);
        }
        let workload = key.2.clone();
        if let Some(summary) = base.message.take() {
            base.message = Some(
                faultline_report::message::common::Msg::SamePodsFault {
                    workload: workload.clone(),
                    count: pods.len(),
                    pods: pods.iter().take(5).cloned().collect(),
                    summary: Box::new(summary),
                }
                .into(),
            );
        }
        base.affects.retain(|o| *o != workload);
        base.subject = workload;
        slots[i] = Some(base);
    }
    slots.into_iter().flatten().collect()
}

/// One fault, one finding: the findings of one rule about one object (the same Pod pasted as YAML,
/// as `kubectl describe` and in an events table is read as three objects, and a rule that looks at
/// each says the same thing three times) become one, with the evidence of each, in input order.
/// The most severe of them is kept (the first of equals), and the others add what it lacks:
/// evidence (after its own), what cannot be established, next steps, affected objects. A subject
/// without a name (a fragment's Pod) is never the same object as another.
fn merge_duplicates(findings: Vec<Finding>) -> Vec<Finding> {
    let mut kept: Vec<Finding> = Vec::with_capacity(findings.len());
    let mut at: faultline_report::hash::Map<(String, ObjectRef), usize> =
        faultline_report::hash::Map::default();
    for finding in findings {
        if finding.subject.name.is_empty() {
            kept.push(finding);
            continue;
        }
        let key = (finding.rule.clone(), finding.subject.clone());
        let Some(&i) = at.get(&key) else {
            at.insert(key, kept.len());
            kept.push(finding);
            continue;
        };
        let mut other = finding;
        if other.severity > kept[i].severity {
            std::mem::swap(&mut kept[i], &mut other);
        }
        let base = &mut kept[i];
        add_missing(&mut base.evidence, other.evidence);
        add_missing(
            &mut base.cannot_establish_messages,
            other.cannot_establish_messages,
        );
        add_missing(&mut base.cannot_establish, other.cannot_establish);
        add_missing(&mut base.next_steps, other.next_steps);
        add_missing(&mut base.affects, other.affects);
        add_missing(&mut base.details, other.details);
    }
    kept
}

fn add_missing<T: PartialEq>(to: &mut Vec<T>, from: Vec<T>) {
    for item in from {
        if !to.contains(&item) {
            to.push(item);
        }
    }
}

/// For each finding, whether a current finding of another rule is about the same objects: its
/// subject, or a workload either affects. A Pending claim that a Pod waits for is touched by the
/// Pod's finding; a lone warning about an object nothing else mentions is not, nor are the Pods of
/// one Deployment failing the same way (one fault, repeated).
fn touched_by_others(findings: &[Finding]) -> Vec<bool> {
    let names = |f: &Finding| -> Vec<ObjectRef> {
        std::iter::once(&f.subject)
            .chain(&f.affects)
            .filter(|o| !o.name.is_empty())
            .cloned()
            .collect()
    };
    let mut by_object: faultline_report::hash::Map<ObjectRef, Vec<usize>> =
        faultline_report::hash::Map::default();
    for (i, f) in findings.iter().enumerate() {
        for o in names(f) {
            by_object.entry(o).or_default().push(i);
        }
    }
    findings
        .iter()
        .map(|f| {
            names(f).iter().any(|o| {
                by_object.get(o).is_some_and(|all| {
                    all.iter()
                        .any(|&j| findings[j].rule != f.rule && findings[j].severity != Severity::Info)
                })
            })
        })
        .collect()
}

/// Sets [`Finding::affects`]: the workloads of what the rule named as refused or hurt, of the
/// subject itself (a Pod's Deployment), and of the Pods the input shows the subject hurting (a
/// Node's, a claim's, a Service's: [`pods_hurt_by`]); never the subject, each once, in that order.
fn affected(model: &Model<'_>, finding: &mut Finding) {
    let named = std::mem::take(&mut finding.affects);
    let hurt = pods_hurt_by(model, &finding.subject);
    let mut affects = Vec::new();
    for object in named
        .iter()
        .chain(std::iter::once(&finding.subject))
        .chain(hurt.iter())
    {
        let workload = top_workload(model, object);
        if workload != finding.subject && !affects.contains(&workload) {
            affects.push(workload);
        }
    }
    finding.affects = affects;
}

/// A cause affects what its symptoms affect (a node's pressure, the Deployment of the Pod it keeps
/// from being scheduled), or a symptom's subject that is a workload itself (the Deployment whose
/// rollout a quota stops), up the chain of causes.
fn carry_affects(findings: &mut [Finding]) {
    for i in 0..findings.len() {
        let mut carried: Vec<ObjectRef> = Vec::new();
        let symptom = &findings[i];
        if symptom.explained_by.is_none() {
            continue;
        }
        // The symptom's workloads, or its subject when it is a workload itself (a rollout).
        carried.extend(symptom.affects.iter().cloned());
        if carried.is_empty() {
            carried.push(symptom.subject.clone());
        }
        let mut cause = symptom.explained_by.clone();
        for _ in 0..findings.len() {
            let Some(c) = cause else { break };
            let Some(j) = findings
                .iter()
                .position(|f| f.rule == c.rule && f.subject == c.subject)
            else {
                break;
            };
            for object in &carried {
                let target = &mut findings[j];
                if *object != target.subject && !target.affects.contains(object) {
                    target.affects.push(object.clone());
                }
            }
            cause = findings[j].explained_by.clone();
        }
    }
}

/// Rules that read the other rules' findings, so run after them.
const LATE: &[&str] = &[
    // Reads the findings about what a cluster component serves, to say which it explains.
    zone_network_storage::cluster_component_failing::RULE.id,
    quota_admission::replica_creation_failed::RULE.id,
    readiness_endpoints::rollout_not_progressing::RULE.id,
];

/// Rules whose subject is the object that refused a create (a ResourceQuota, a webhook's Service),
/// the refused objects being in [`Finding::affects`].
const REFUSERS: &[&str] = &[
    quota_admission::quota_exceeded_on_create::RULE.id,
    quota_admission::admission_webhook_unreachable::RULE.id,
];

/// Whether `cause` explains `symptom` (both findings of the same analysis).
type Explains = fn(&Model<'_>, &Finding, &Finding) -> bool;

/// A symptom another finding explains.
struct Explanation {
    /// The symptom's rule id.
    symptom: &'static str,
    /// The cause's rule id; `None` for a finding of any other rule.
    cause: Option<&'static str>,
    /// Whether the symptom takes the cause's boundary: a symptom whose own evidence cannot say
    /// where the fault is (a Deployment's rollout) does; the others keep their own boundary and say
    /// what they follow from.
    takes_boundary: bool,
    explains: Explains,
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

/// The links from symptoms to causes, by the rules' ids and the findings' typed [`Detail`]s and
/// subjects, never by their summaries' wording.
const EXPLANATIONS: &[Explanation] = &[
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

fn same_subject(_: &Model<'_>, symptom: &Finding, cause: &Finding) -> bool {
    symptom.subject == cause.subject
}

/// Marks each symptom with the first (best-ranked) finding that explains it. A finding already
/// explained cannot become a cause of its own cause, so the relation has no cycles.
fn relate(model: &Model<'_>, findings: &mut [Finding]) {
    for i in 0..findings.len() {
        let found = EXPLANATIONS.iter().find_map(|link| {
            if findings[i].rule != link.symptom {
                return None;
            }
            findings
                .iter()
                .enumerate()
                .find(|(j, c)| {
                    *j != i
                        && link.cause.is_none_or(|rule| c.rule == rule)
                        // History (info) explains nothing current: listed under it, an error or a
                        // warning would follow an info line, and the info line could head the report.
                        && (c.severity != Severity::Info || findings[i].severity == Severity::Info)
                        && !explained_by_chain(findings, c, &findings[i])
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
            if let Some(summary) = symptom.message.take() {
                symptom.message = Some(
                    faultline_report::message::common::Msg::Symptom {
                        summary: Box::new(summary),
                        cause: subject.clone(),
                        rule: rule.clone(),
                    }
                    .into(),
                );
            }
            symptom.explained_by = Some(Cause { rule, subject });
        }
    }
}

/// Whether `finding` is (transitively) explained by `by`.
fn explained_by_chain(findings: &[Finding], finding: &Finding, by: &Finding) -> bool {
    let mut current = finding;
    for _ in 0..findings.len() {
        let Some(cause) = &current.explained_by else {
            return false;
        };
        if cause.rule == by.rule && cause.subject == by.subject {
            return true;
        }
        match findings
            .iter()
            .find(|f| f.rule == cause.rule && f.subject == cause.subject)
        {
            Some(next) => current = next,
            None => return false,
        }
    }
    false
}

/// Puts each symptom right after the finding that explains it, keeping the ranked order otherwise.
fn group(findings: Vec<Finding>) -> Vec<Finding> {
    // The first finding of each (rule, subject): what a symptom's `explained_by` names.
    let mut first: faultline_report::hash::Map<(&str, &ObjectRef), usize> =
        faultline_report::hash::Map::default();
    for (i, f) in findings.iter().enumerate() {
        first.entry((f.rule.as_str(), &f.subject)).or_insert(i);
    }
    let parents: Vec<Option<usize>> = findings
        .iter()
        .map(|f| {
            let c = f.explained_by.as_ref()?;
            first.get(&(c.rule.as_str(), &c.subject)).copied()
        })
        .collect();
    let mut children = vec![Vec::new(); findings.len()];
    for (j, parent) in parents.iter().enumerate() {
        if let Some(p) = parent {
            children[*p].push(j);
        }
    }
    let mut order = Vec::with_capacity(findings.len());
    let mut placed = vec![false; findings.len()];
    fn place(i: usize, children: &[Vec<usize>], placed: &mut [bool], order: &mut Vec<usize>) {
        if placed[i] {
            return;
        }
        placed[i] = true;
        order.push(i);
        for &j in &children[i] {
            place(j, children, placed, order);
        }
    }
    for (i, parent) in parents.iter().enumerate() {
        if parent.is_none() {
            place(i, &children, &mut placed, &mut order);
        }
    }
    // Anything left (a cause that is itself missing) keeps its rank.
    for i in 0..findings.len() {
        place(i, &children, &mut placed, &mut order);
    }
    let mut slots: Vec<Option<Finding>> = findings.into_iter().map(Some).collect();
    order.into_iter().filter_map(|i| slots[i].take()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use faultline_engine::{analyze, Source};

    #[test]
    fn every_rule_reads_as_its_sections_with_code_for_the_example() {
        use docs::{sections, DocBlock};
        for rule in RULES {
            let sections = sections(rule.docs);
            let titles: Vec<&str> = sections.iter().map(|(t, _)| t.as_str()).collect();
            assert_eq!(titles, DOC_SECTIONS, "{}", rule.id);
            assert!(
                sections.iter().all(|(_, b)| !b.is_empty()),
                "{}: an empty section",
                rule.id
            );
            let (_, example) = &sections[sections.len() - 1];
            assert!(
                example.iter().any(|b| matches!(b, DocBlock::Code(_))),
                "{}",
                rule.id
            );
        }
    }

    #[test]
    fn every_rule_the_links_name_is_in_the_registry() {
        let named = EXPLANATIONS
            .iter()
            .flat_map(|link| [Some(link.symptom), link.cause])
            .flatten()
            .chain(LATE.iter().copied());
        for id in named {
            assert!(find(id).is_some(), "{id} is linked but not in RULES");
        }
        assert!(EXPLANATIONS.iter().any(|link| link.cause.is_none()));
        // Every rule a cluster component may explain has its link.
        for id in zone_network_storage::cluster_component_failing::EXPLAINED {
            assert!(
                EXPLANATIONS.iter().any(|link| link.symptom == *id
                    && link.cause == Some(zone_network_storage::cluster_component_failing::RULE.id)),
                "{id} has no link to cluster-component-failing"
            );
        }
    }

    /// (rule, explained by which rule about which object) for each finding.
    fn links(sources: &[Source]) -> Vec<(String, Option<(String, String)>)> {
        analyze(sources)
            .findings
            .into_iter()
            .map(|f| {
                let cause = f.explained_by.map(|c| (c.rule, c.subject.to_string()));
                (f.rule, cause)
            })
            .collect()
    }

    /// The old link let any Service without ready endpoints "explain" every 5xx that was not
    /// addressed to a Service by name: a request to a public URL, or to a Pod the Service does not
    /// select, was listed as a symptom of an unrelated Service.
    #[test]
    fn an_unrelated_services_finding_does_not_explain_a_5xx() {
        let service = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/fixtures/rules/service-endpoints-not-serving/fires-selector-matches-nothing.yaml"
        ))
        .unwrap();
        let curl = |target: &str| {
            format!("$ kubectl exec -n shop deploy/frontend -- curl -sS -i {target}\nHTTP/1.1 500 Internal Server Error\n\n{{\"error\":\"boom\"}}\n")
        };
        let http = |sources: &[Source]| -> Vec<Option<(String, String)>> {
            links(sources)
                .into_iter()
                .filter(|(rule, _)| rule == application::http_server_errors::RULE.id)
                .map(|(_, cause)| cause)
                .collect()
        };
        for unrelated in ["https://shop.example.com/api", "http://checkout.shop.svc:8080/x"] {
            let sources = [
                Source::new("svc.yaml", &service),
                Source::new("curl.txt", curl(unrelated)),
            ];
            assert_eq!(http(&sources), [None], "{unrelated}");
        }
        // The Service's own requests are still its symptoms.
        let sources = [
            Source::new("svc.yaml", &service),
            Source::new("curl.txt", curl("http://api.shop.svc:80/x")),
        ];
        assert_eq!(
            http(&sources),
            [Some((
                readiness_endpoints::service_endpoints_not_serving::RULE
                    .id
                    .to_string(),
                "Service shop/api".to_string()
            ))]
        );
    }

    /// The pressure link reads the findings' typed details: the node's pressure taint and the taint
    /// the scheduler refused, not the summaries' wording.
    #[test]
    fn a_node_under_pressure_explains_the_pod_refused_for_that_pressure_only() {
        let input = |refused: &str| {
            format!(
                "\
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Node
  metadata: {{name: worker-7}}
  status:
    conditions:
    - {{type: DiskPressure, status: \"True\", reason: KubeletHasDiskPressure}}
- apiVersion: v1
  kind: Pod
  metadata: {{name: web-1, namespace: shop}}
  spec: {{containers: [{{name: web, image: web:1}}]}}
  status:
    phase: Pending
    conditions:
    - {{type: PodScheduled, status: \"False\", reason: Unschedulable, message: \"0/1 nodes are available: 1 node(s) had untolerated taint {{{refused}: }}. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.\"}}
"
            )
        };
        let unschedulable = |refused: &str| {
            links(&[Source::new("in.yaml", input(refused))])
                .into_iter()
                .find(|(rule, _)| rule == scheduling::pod_unschedulable::RULE.id)
                .map(|(_, cause)| cause)
        };
        assert_eq!(
            unschedulable("node.kubernetes.io/disk-pressure"),
            Some(Some((
                node_runtime::node_under_pressure::RULE.id.to_string(),
                "Node worker-7".to_string()
            )))
        );
        assert_eq!(unschedulable("node.kubernetes.io/memory-pressure"), Some(None));
    }

    #[test]
    fn registry_is_sorted_and_ids_are_unique() {
        let ids: Vec<_> = RULES.iter().map(|r| r.id).collect();
        let mut sorted = ids.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(ids, sorted);
    }

    #[test]
    fn rule_ids_name_the_condition_not_the_check() {
        for rule in RULES {
            assert!(
                rule.id.chars().all(|c| c.is_ascii_lowercase() || c == '-'),
                "{} is not kebab-case",
                rule.id
            );
            for prefix in ["check-", "detect-", "find-"] {
                assert!(
                    !rule.id.starts_with(prefix),
                    "{} names the check, not the condition",
                    rule.id
                );
            }
        }
    }

    #[test]
    fn every_rule_documents_every_section_in_chinese_with_the_english_example() {
        use docs::{sections, DocBlock};
        let cjk = |t: &str| t.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c));
        let code = |blocks: &[DocBlock]| -> Vec<DocBlock> {
            blocks
                .iter()
                .filter(|b| matches!(b, DocBlock::Code(_)))
                .cloned()
                .collect()
        };
        for rule in RULES {
            let en = sections(rule.docs);
            let zh = sections(rule.docs_zh);
            let titles: Vec<&str> = zh.iter().map(|(t, _)| t.as_str()).collect();
            assert_eq!(titles, DOC_SECTIONS_ZH, "{}: the zh sections, in order", rule.id);
            for ((title, blocks), (_, en_blocks)) in zh.iter().zip(&en) {
                assert!(!blocks.is_empty(), "{}: zh section `{title}` is empty", rule.id);
                assert_eq!(
                    code(blocks),
                    code(en_blocks),
                    "{}: zh section `{title}` must keep the English code unchanged",
                    rule.id
                );
                for block in blocks {
                    if let DocBlock::Text(text) = block {
                        assert!(cjk(text), "{}: `{title}` has untranslated text: {text}", rule.id);
                    }
                }
            }
            for (title, blocks) in &zh[..6] {
                assert!(
                    blocks
                        .iter()
                        .any(|b| matches!(b, DocBlock::Text(t) if t.chars().count() > 10)),
                    "{}: zh section `{title}` has no prose",
                    rule.id
                );
            }
            let boundary = format!("`{}`", rule.boundary.id());
            assert!(
                zh[3]
                    .1
                    .iter()
                    .any(|b| matches!(b, DocBlock::Text(t) if t.contains(&boundary))),
                "{}: the zh fault boundary section must name {boundary}",
                rule.id
            );
            // The example, as written: byte for byte the English one.
            let example = |docs: &'static str, title: &str| {
                docs.find(&format!(" ## {title}\n"))
                    .map(|at| docs[at..].split_once('\n').map_or("", |(_, rest)| rest))
            };
            assert_eq!(
                example(rule.docs_zh, DOC_SECTIONS_ZH[6]).map(str::trim_end),
                example(rule.docs, DOC_SECTIONS[6]).map(str::trim_end),
                "{}: the zh example differs from the English one",
                rule.id
            );
            assert_eq!(rule.docs_in(faultline_report::lang::Lang::Zh), rule.docs_zh);
            assert_eq!(rule.docs_in(faultline_report::lang::Lang::En), rule.docs);
        }
    }

    #[test]
    fn every_rule_documents_every_section_in_order() {
        for rule in RULES {
            let mut at = 0;
            for section in DOC_SECTIONS {
                let heading = format!("## {section}\n");
                let found = rule.docs[at..].find(&heading);
                assert!(
                    found.is_some(),
                    "rule {} lacks the section `{section}` (or it is out of order)",
                    rule.id
                );
                at += found.unwrap_or_default() + heading.len();
                let body_end = rule.docs[at..].find("\n## ").map_or(rule.docs.len(), |i| at + i);
                assert!(
                    rule.docs[at..body_end].trim().len() > 20,
                    "rule {}: section `{section}` is empty",
                    rule.id
                );
            }
            assert!(
                rule.docs.contains(&format!("`{}`", rule.boundary.id())),
                "rule {} docs must name its boundary id",
                rule.id
            );
        }
    }
}
