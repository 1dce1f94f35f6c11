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
pub mod known_failure_reported;
pub mod log_evidence;
mod next_steps;
pub mod node_runtime;
pub mod pod_spec;
pub mod quota_admission;
pub mod readiness_endpoints;
pub mod scheduling;
pub mod shell;
mod table_status;
pub mod zone_network_storage;

use faultline_model::Model;
use faultline_report::{Boundary, Evidence, Finding, ObjectRef, Sentence, Severity};

/// A diagnosis rule: an id naming the condition observed, its boundary, its docs, and its check.
pub struct Rule {
    pub id: &'static str,
    pub boundary: Boundary,
    /// The rule's doc comment, in Markdown, with the sections listed in [`DOC_SECTIONS`].
    pub docs: &'static str,
    /// The same documentation in Chinese (`docs/zh/<id>.md` in this crate), with the sections listed in
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
        let mut cannot_establish: Vec<Sentence> = cannot_establish.into_iter().map(Sentence::new).collect();
        // Commands that hold a placeholder say so (issue 38): the input does not state it.
        let namespace = next_steps.iter().any(|s| s.contains(UNKNOWN_NAMESPACE));
        let name = next_steps.iter().any(|s| s.contains(shell::UNKNOWN_NAME));
        use faultline_report::message::common::Msg as Common;
        if namespace || name {
            cannot_establish.push(Sentence::new(Common::NotStated {
                subject: subject.clone(),
                namespace,
                name,
            }));
        }
        if next_steps.iter().any(|s| s.contains(shell::UNKNOWN_NODE_WORD)) {
            cannot_establish.push(Sentence::new(Common::NodeNotStated {
                subject: subject.clone(),
            }));
        }
        // Where a command runs is said in words, never as a `#` comment after it (zsh passes
        // that to the program as arguments).
        for program in ["kubeadm", "etcdctl"] {
            if next_steps.iter().any(|s| s.starts_with(program)) {
                cannot_establish.push(Sentence::new(Common::OnControlPlane {
                    program: program.to_string(),
                }));
            }
        }
        Finding {
            rule: self.id.to_string(),
            boundary: self.boundary,
            severity,
            subject,
            summary: Sentence::new(summary),
            evidence,
            cannot_establish,
            next_steps,
            explained_by: None,
            affects: Vec::new(),
            components: Vec::new(),
            node: None,
            confidence: Default::default(),
            confidence_note: Sentence::default(),
            details: Vec::new(),
        }
    }
}

/// The namespace a command names where the input does not state the object's (issue 38): a
/// placeholder the user fills in, never a guess such as `default`. Quoted in a command
/// (`-n '<namespace>'`), so that a command copied unchanged fails with kubectl's own "not found"
/// rather than as a shell redirection; the finding says the input does not state it.
pub const UNKNOWN_NAMESPACE: &str = "<namespace>";

/// The node a command names where the input does not state it (`ssh '<node>' …`): a placeholder
/// like [`UNKNOWN_NAMESPACE`], quoted in a command ([`shell::UNKNOWN_NODE_WORD`]).
pub const UNKNOWN_NODE: &str = "<node>";

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
/// its Chinese translation is `docs/zh/<id>.md` in this crate ([`Rule::docs_zh`]), so a rule's file
/// holds its docs, its messages and its check.
/// `components: [Kubelet, Runtime if NotNodeSubject]` names the [`faultline_report::Component`]s its
/// findings implicate, each with an optional [`components::When`] condition; a rule without one
/// does not compile (and a test checks the registry's).
#[macro_export]
macro_rules! declare_rule {
    ($(#[doc = $doc:literal])+ pub const $name:ident = { id: $id:literal, boundary: $boundary:expr, components: [$($component:ident $(if $when:ident)?),+ $(,)?], $(also_at: [$($also:expr),* $(,)?],)? check: $check:path $(,)? };) => {
        $(#[doc = $doc])+
        pub const $name: $crate::Rule = $crate::Rule {
            id: $id,
            boundary: $boundary,
            docs: concat!($($doc, "\n"),+),
            docs_zh: include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/zh/", $id, ".md")),
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
    control_plane::component_status_unhealthy::RULE,
    node_runtime::container_config_invalid::RULE,
    application::container_crash_looping::RULE,
    application::container_init_oom_killed::RULE,
    application::container_oom_killed::RULE,
    node_runtime::container_start_failed::RULE,
    control_plane::control_plane_component_failing::RULE,
    application::dependency_failing::RULE,
    zone_network_storage::dns_policy_bypasses_cluster_dns::RULE,
    application::env_host_not_a_service::RULE,
    application::env_port_not_a_service_port::RULE,
    etcd::etcd_member_failing::RULE,
    etcd::etcd_request_failed::RULE,
    readiness_endpoints::gateway_route_not_accepted::RULE,
    application::http_server_errors::RULE,
    node_runtime::image_pull_failed::RULE,
    readiness_endpoints::ingress_not_admitted::RULE,
    application::job_failed::RULE,
    known_failure_reported::RULE,
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

/// Runs every rule in the registry's order, those that read the other rules' findings ([`LATE`])
/// last, and returns their findings as the rules emitted them: ranking, merging and explaining them
/// is the judge's (`faultline-judge`).
pub fn check_all(model: &Model<'_>) -> Vec<Finding> {
    let mut findings = Vec::new();
    let late = |r: &&Rule| LATE.contains(&r.id) || r.id == LAST;
    let last = RULES.iter().filter(|r| r.id == LAST);
    let rest = RULES.iter().filter(late).filter(|r| r.id != LAST);
    for rule in RULES.iter().filter(|r| !late(r)).chain(rest).chain(last) {
        (rule.check)(model, &mut findings);
    }
    findings
}

/// The rules that check a spec or a configuration for a risk: a warning of theirs has no evidence
/// that anything fails, and such a lint never outranks a fault (the judge ranks it after every error
/// and warning of the others). An error of theirs is a cause the input shows at work (a probe on an
/// undeclared port, and the probe failing).
pub const LINTS: &[&str] = &[
    application::probe_port_not_declared::RULE.id,
    application::readiness_probe_missing::RULE.id,
    application::runtime_memory_over_limit::RULE.id,
    zone_network_storage::replicas_in_one_zone::RULE.id,
];

/// Rules whose findings are generic symptoms: what fails, not why. A probe failing, a server
/// answering 5xx, a container restarting or a rollout not progressing follow from many causes; a
/// component's explicit refusal or reason at the same severity is the likelier cause (issue 39: the
/// judge ranks them after it, and `known-failure-reported` still reads a network or DNS line beside
/// them).
pub const GENERIC: &[&str] = &[
    readiness_endpoints::readiness_probe_failing::RULE.id,
    application::liveness_probe_failing::RULE.id,
    application::startup_probe_failing::RULE.id,
    application::http_server_errors::RULE.id,
    application::container_crash_looping::RULE.id,
    readiness_endpoints::rollout_not_progressing::RULE.id,
];

/// Whether `finding` is a lint: a warning or a note of a [`LINTS`] rule.
pub fn is_lint(finding: &Finding) -> bool {
    finding.severity != Severity::Error && LINTS.contains(&finding.rule.as_str())
}

/// The rule that runs after every other: it reports a known failure line only where no rule found
/// a fault.
pub const LAST: &str = known_failure_reported::RULE.id;

/// Rules that read the other rules' findings, so run after them.
pub const LATE: &[&str] = &[
    // Reads the findings about what a cluster component serves, to say which it explains.
    zone_network_storage::cluster_component_failing::RULE.id,
    quota_admission::replica_creation_failed::RULE.id,
    readiness_endpoints::rollout_not_progressing::RULE.id,
];

#[cfg(test)]
mod tests {
    use super::*;

    /// The rules index shows each rule's first sentence (issue 40): one sentence of a reasonable
    /// length, in both languages, never the paragraph.
    #[test]
    fn every_rule_has_a_first_sentence_for_the_index() {
        for rule in RULES {
            for (lang, docs) in [("en", rule.docs), ("zh", rule.docs_zh)] {
                let first = docs::first_sentence(docs).unwrap_or_default();
                eprintln!("{} {lang} {}: {first}", rule.id, first.chars().count());
                let limit = if lang == "en" { 240 } else { 200 };
                assert!(
                    first.ends_with(['.', '。']) && first.chars().count() <= limit,
                    "{} ({lang}): {first}",
                    rule.id
                );
            }
        }
    }

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
