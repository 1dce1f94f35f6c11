//! Every string the app shows, one table per language (`en.rs`, `zh.rs`). A [`Texts`] value is a
//! struct, not a map, so a language that lacks a string does not compile.
//!
//! The report's texts (finding summaries, what evidence cannot establish, input errors, unread
//! reasons, the engine's timeline descriptions) are the engine's, rendered in the page's language
//! from their messages: by the worker for a report it made (a switch of language asks it for the
//! texts again), at build time for the built-in samples. The reports the page makes itself (input
//! too large, an analysis that stopped) are written here. What Kubernetes wrote (names, reasons,
//! event messages, field values) and the commands to run are shown as they are. All report data is
//! marked `translate="no"`: a browser's translator would garble the names in it.

mod en;
mod zh;

use faultline_report::{Boundary, Severity};

/// The engine's language: one type for the app's words, the engine's renderings and the rules' docs.
pub use faultline_report::Lang;

/// The strings of a language.
pub fn texts(lang: Lang) -> &'static Texts {
    match lang {
        Lang::En => &en::EN,
        Lang::Zh => &zh::ZH,
    }
}

/// The strings of one language. Functions build the strings that hold a value.
pub struct Texts {
    /// The language's own name, for the switch.
    pub language_name: &'static str,
    pub language_label: &'static str,
    /// The document's title (the browser tab).
    pub page_title: &'static str,
    pub tagline: &'static str,
    /// The skip link, the first thing Tab reaches: to the diagnosis, past the inputs.
    pub skip_to_diagnosis: &'static str,
    pub sample_label: &'static str,
    pub sample_none: &'static str,
    pub sample_title: fn(&str) -> &'static str,
    pub clear_all: &'static str,
    pub inputs_aria: &'static str,
    pub results_aria: &'static str,

    // Input panel and list.
    pub paste_label: &'static str,
    pub paste_placeholder: &'static str,
    pub drop_prefix: &'static str,
    pub choose_files: &'static str,
    pub or: &'static str,
    pub a_folder: &'static str,
    pub choose_files_aria: &'static str,
    pub choose_folder_aria: &'static str,
    pub no_input_yet: &'static str,
    pub input_problems: &'static str,
    pub remove: fn(&str) -> String,
    pub documents: fn(usize) -> String,
    /// How many lines of an input no reader could use (`12 lines not read`).
    pub lines_not_read: fn(u32) -> String,
    /// The tooltip of a line of the input viewer that was not read.
    pub unread_line: &'static str,
    pub no_objects: &'static str,
    pub container_log: &'static str,
    pub show_input: &'static str,
    /// The input viewer's button back to the report (Esc does the same).
    pub viewer_back: &'static str,
    /// Under the paste box, for a paste too large for it: its size in MB and the input it became.
    pub large_paste_kept: fn(&str, f64) -> String,
    pub large_paste_show: &'static str,
    pub large_paste_edit: &'static str,
    /// A file whose analysis has not finished (or was cancelled).
    pub input_waiting: &'static str,

    // Views.
    pub views_aria: &'static str,
    pub view_findings: &'static str,
    pub view_diagram: &'static str,
    pub view_timeline: &'static str,
    pub view_table: &'static str,
    pub view_rules: &'static str,
    pub rules_title: &'static str,
    pub rules_intro: &'static str,
    pub open_rule_sample: &'static str,
    /// The Rules page's index of every rule, and each rule's way back to it.
    pub rules_index: &'static str,
    pub rules_back_to_index: &'static str,

    // Findings.
    pub diagnosis: &'static str,
    pub headline_before: &'static str,
    pub headline_after: &'static str,
    pub headline_end: &'static str,
    pub paste_to_start: &'static str,
    pub no_findings: &'static str,
    /// `3 independent faults.` before the headline of a report with more than one.
    pub independent_faults: fn(usize) -> String,
    /// Above the one paste an inconclusive report asks for.
    pub paste_next_label: &'static str,
    /// Before the most severe boundary, after the count of faults at several boundaries.
    pub headline_most_severe: &'static str,
    /// The summary's first line: faults and the boundaries they are at.
    pub faults_count: fn(usize, usize) -> String,
    /// A boundary's counts in the summary: faults, findings.
    pub boundary_faults: fn(usize, usize) -> String,
    pub summary_aria: &'static str,
    pub by_rule: &'static str,
    /// A group's title: count, the members' kind, the workload they hurt.
    pub group_title: fn(usize, &str, &str) -> String,
    pub group_show: fn(usize) -> String,
    pub group_hide: &'static str,
    pub no_match: &'static str,
    // The shared filter.
    pub filter_aria: &'static str,
    pub filter_severity: &'static str,
    pub search_label: &'static str,
    pub search_placeholder: &'static str,
    /// `135 findings`, or `12 of 135 findings` while a filter hides some.
    pub findings_shown: fn(usize, usize) -> String,
    pub clear_filter: &'static str,
    pub evidence: &'static str,
    pub cannot_establish: &'static str,
    pub next_steps: &'static str,
    pub about_rule: &'static str,
    /// The rules' documentation is on its way from the engine's worker.
    pub docs_loading: &'static str,
    // Secrets panel.
    pub secrets_aria: &'static str,
    pub secrets_title: &'static str,
    pub secrets_none: &'static str,
    /// While the worker looks for secrets, after the report is shown.
    pub secrets_scanning: &'static str,
    pub secrets_all_redacted: &'static str,
    pub secrets_found: fn(usize) -> String,
    pub redact: &'static str,
    pub undo_redaction: &'static str,
    pub include_network: &'static str,
    /// A kind of secret, by its id (`secret-data`, `jwt`, …).
    pub secret_kind: fn(&str) -> &'static str,
    /// The export buttons' group.
    pub export_label: &'static str,
    pub copy_markdown: &'static str,
    /// Next to the export buttons when the input was redacted.
    pub export_redacted: &'static str,
    /// Under a symptom: which finding (its number) explains it.
    pub symptom_of: fn(&str) -> String,
    /// A finding's confidence (issue 39): the label, and the word for each level.
    pub confidence: &'static str,
    pub confidence_level: fn(faultline_report::Confidence) -> &'static str,
    /// "The command that decides": its title, which findings it is between, and the two answers.
    pub decide_title: &'static str,
    pub decide_between: fn(&str, &str) -> String,
    pub decide_if_shown: fn(&str) -> String,
    pub decide_if_not: &'static str,
    /// "Considered and ruled out": its title and the line under it.
    pub ruled_out_title: &'static str,
    pub ruled_out_intro: &'static str,
    pub copy: &'static str,
    pub copied: &'static str,
    pub copy_aria: fn(&str) -> String,
    pub show_in_input: fn(&str, u32) -> String,
    pub doc_section: fn(&str) -> Option<&'static str>,
    pub severity: fn(Severity) -> &'static str,
    pub boundary: fn(Boundary) -> &'static str,

    // Boundary table.
    pub table_caption: &'static str,
    pub col_boundary: &'static str,
    pub col_symptoms: &'static str,
    pub col_first_evidence: &'static str,
    pub col_cannot: &'static str,
    pub col_next: &'static str,
    pub no_evidence: &'static str,
    /// A link to a finding by its number as the findings view shows it (`2`, `1.1`).
    pub finding_link: fn(&str) -> String,
    /// The article's "first evidence" for a boundary: where to look when this input has none.
    pub where_to_look: fn(Boundary) -> &'static str,
    /// The article's "what this evidence cannot establish" for a boundary.
    pub article_limits: fn(Boundary) -> &'static str,

    // Diagram.
    pub diagram_title: &'static str,
    pub diagram_note: &'static str,
    pub component: fn(crate::view_model::diagram::Part) -> &'static str,
    pub edge: fn(crate::view_model::diagram::Flow) -> &'static str,
    pub optional: &'static str,
    /// The collapsed kubelets' box: how many, and how many of them findings implicate.
    pub more_nodes: fn(usize, usize) -> String,
    /// Under a kubelet whose node the input does not name.
    pub node_unnamed: &'static str,
    pub pick_component: &'static str,
    pub component_quiet: &'static str,
    pub component_findings: fn(&str, usize) -> String,
    /// The diagram's note on a phone, where it is a list of the implicated components.
    pub parts_list_note: &'static str,
    pub parts_none_lit: &'static str,
    /// The components no finding implicates, named in one line under the list.
    pub parts_quiet: fn(&[&str]) -> String,

    // Timeline.
    pub timeline_title: &'static str,
    pub filter_namespace: &'static str,
    pub filter_kind: &'static str,
    pub filter_boundary: &'static str,
    pub filter_all: &'static str,
    pub warnings_only: &'static str,
    pub group_by_object: &'static str,
    pub zoom_in: &'static str,
    pub zoom_out: &'static str,
    pub pan_earlier: &'static str,
    pub pan_later: &'static str,
    pub zoom_reset: &'static str,
    pub shown_of: fn(usize, usize) -> String,
    pub no_entries: &'static str,
    pub undated: &'static str,
    pub estimated: &'static str,
    pub entry_source: fn(&str) -> &'static str,
    pub source_line: &'static str,
    pub count: &'static str,
    pub timeline_help: &'static str,
    pub timeline_aria: &'static str,
    /// Under the timeline's filters while lanes are on: what groups them.
    pub lanes_note: &'static str,
    /// A row known only by its age: `21m before capture`.
    pub age_before_capture: fn(&str) -> String,
    /// A row placed before its object's creation: the mark's label, and the details' explanation.
    pub before_created: &'static str,
    pub before_created_note: &'static str,
    /// The time zone switch: its label, UTC, and the browser's zone with its offset (`+08:00`).
    pub zone_label: &'static str,
    pub zone_utc: &'static str,
    pub zone_local: fn(&str) -> String,
    /// The order switch.
    pub order_label: &'static str,
    pub order_newest: &'static str,
    pub order_oldest: &'static str,
    /// The capture moment: label, how it is known (set, newest timestamp, age anchor, unknown).
    pub capture_label: &'static str,
    pub capture_basis: [&'static str; 4],
    /// The age that puts the capture moment where it is: subject, its creation, reason, age.
    pub capture_anchor: fn(&str, &str, &str, &str) -> String,
    /// The capture-time field: its label, placeholder, buttons, and the error for what is not a time.
    pub capture_input: &'static str,
    pub capture_placeholder: &'static str,
    pub capture_set: &'static str,
    pub capture_reset: &'static str,
    pub capture_invalid: &'static str,

    // Object map.
    pub view_map: &'static str,
    pub map_note: &'static str,
    pub map_help: &'static str,
    pub map_workloads: &'static str,
    pub map_services: &'static str,
    pub map_col_endpoints: &'static str,
    pub map_legend_lit: &'static str,
    pub map_legend_missing: &'static str,
    pub map_legend_inferred: &'static str,
    pub map_legend_selector: &'static str,
    pub map_empty: &'static str,
    pub map_section_empty: &'static str,
    pub map_show_more: fn(usize) -> String,
    /// A collapsed group: (members not drawn, of which failing), by what they are.
    pub map_more_pods: fn(usize, usize) -> String,
    pub map_more_endpoints: fn(usize, usize) -> String,
    pub map_more_nodes: fn(usize, usize) -> String,
    /// Past an expanded group's cap.
    pub map_capped: fn(usize) -> String,
    pub map_expand: &'static str,
    pub map_no_slice: &'static str,
    pub map_missing: &'static str,
    pub map_ready: fn(u32, u32) -> String,
    pub map_restarts: fn(u32) -> String,
    pub map_replicas: fn(Option<u32>, Option<u32>, Option<u32>) -> String,
    pub map_pick: &'static str,
    pub map_read_at: &'static str,
    pub map_not_in_input: &'static str,
    pub map_findings: fn(usize) -> String,
    pub map_no_findings: &'static str,
    pub facts_title: &'static str,
    pub facts_note: &'static str,
    pub fact_name: fn(faultline_report::FactKind) -> &'static str,
    pub fact_state: fn(faultline_report::FactState) -> &'static str,
    pub fact_objects: &'static str,
    pub map_endpoint_of: &'static str,
    pub map_endpoint_is: &'static str,
    pub map_inferred: &'static str,
    pub map_conditions_note: &'static str,
    pub map_others: fn(usize) -> String,
    pub map_others_note: fn(usize) -> String,

    // Analysis in the worker: progress, cancel, a stale report.
    pub analysis_aria: &'static str,
    /// What the analysis is doing: `starting`, or a phase of the engine (`reading`, `scanning` for
    /// secrets, `relating`, `diagnosing`, `timeline`).
    pub analysis_step: fn(&str) -> &'static str,
    /// Bytes read (MB) of the total, and documents read.
    pub analysis_progress: fn(f64, f64, u64) -> String,
    /// How long the last analysis took in the worker, in seconds.
    /// Seconds to the report, and the secret scan's seconds after it once it is done.
    pub analysed_in: fn(f64, Option<f64>) -> String,
    pub cancel: &'static str,
    /// While an analysis runs: what the results below are.
    pub stale_running: &'static str,
    pub stale_cancelled: &'static str,
    pub reanalyse: &'static str,
    /// A large file's lines are being fetched from the worker.
    pub excerpt_loading: &'static str,
    /// The worker no longer has the file's text (restarted since).
    pub excerpt_gone: &'static str,
    /// Long lists show their first part: "Show N more (M not shown)".
    pub show_more: fn(usize, usize) -> String,

    // The reports the page makes without the engine (state/error_reports.rs).
    /// Input too large for the page: MB in all, MB of this input, the page's limit in MB.
    pub too_large: fn(u64, u64, u64) -> String,
    /// The worker stopped before its report; why, as the browser or the page says it.
    pub analysis_stopped: fn(&str) -> String,
    /// Why the analysis stopped, in the page's words: no worker could be started.
    pub worker_not_started: &'static str,
    /// … the worker stopped without saying why.
    pub worker_stopped: &'static str,
    /// Why a file was not read: the engine's and the worker's reasons (written in English, as
    /// they come) in this language; any other as it is.
    pub unreadable_reason: fn(&faultline_render::protocol::Unreadable) -> String,
    /// An object of the report: `Kind ns/name`, or the engine's words for one whose name the input
    /// does not give.
    pub object: fn(&faultline_report::ObjectRef) -> String,

    // A newcomer's first paste, and the evidence loop (issue 25).
    /// Under the paste box: the layouts read.
    pub paste_reads: &'static str,
    pub example_before: &'static str,
    pub example_link: &'static str,
    /// Under the paste box when the diagnosis is below it (one column): the findings and the
    /// boundaries they are at (the boundary's name when there is one), a tap away.
    pub diagnosis_cue: fn(usize, usize, &str) -> String,
    /// An input's format badge (`events-table`), by the engine's id.
    pub input_format: fn(&str) -> String,
    /// An evidence line's label, as the engine writes it (`events table: Warning Failed Pod/web`,
    /// `log of pod/web: terminal error`): its words in this language, field paths as they are.
    pub evidence_label: fn(&str) -> String,
    /// Over a sample's inputs and report.
    pub sample_note: &'static str,
    pub sample_note_more: &'static str,
    pub sample_removed: &'static str,
    pub restore: &'static str,
    /// The investigation a new one replaced ([`crate::state::investigation`]): its input count.
    pub previous_incident: fn(usize) -> String,
    pub restore_previous: &'static str,
    pub join_previous: &'static str,
    /// Beside an input that is a next step's output, and its title.
    pub follow_up_badge: &'static str,
    pub follow_up_badge_title: &'static str,
    /// Asked before a sample replaces the user's own input.
    pub confirm_sample: &'static str,
    pub paste_its_output: &'static str,
    pub paste_its_output_aria: fn(&str) -> String,
    /// The follow-up input's label, before its command.
    pub output_of: &'static str,
    pub follow_up_placeholder: &'static str,
    pub follow_up_done: &'static str,
    pub what_changed: &'static str,
    pub guide_title: &'static str,
    pub guide_intro: &'static str,
    pub guide_redact: &'static str,
    pub guide_close: &'static str,
    /// A symptom's title, by its id (`guide.rs`).
    pub guide_symptom: fn(&str) -> &'static str,
    /// What the commands of a symptom collect.
    pub guide_collects: fn(&str) -> &'static str,
    pub unread_title: &'static str,
    /// An unread range: input, first and last line.
    pub unread_range: fn(&str, u32, u32) -> String,
    pub inconclusive_offer: &'static str,
}

impl Texts {
    /// The language these texts are in, for the engine's renderings (the verdict sentence).
    pub fn lang(&'static self) -> Lang {
        if std::ptr::eq(self, &zh::ZH) {
            Lang::Zh
        } else {
            Lang::En
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reasons_a_file_was_not_read_are_written_in_each_language() {
        use faultline_render::protocol::Unreadable;
        let reasons = [
            Unreadable::Binary,
            Unreadable::TooLarge,
            Unreadable::NotAFile,
            Unreadable::ReadFailed("NotReadableError".into()),
            Unreadable::DropFailed("NotFoundError".into()),
        ];
        let chinese = |s: &str| s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c));
        for reason in &reasons {
            let en = (texts(Lang::En).unreadable_reason)(reason);
            let zh = (texts(Lang::Zh).unreadable_reason)(reason);
            assert!(!en.is_empty() && !chinese(&en), "{en}");
            assert!(chinese(&zh), "{zh}");
        }
        assert_eq!(
            (texts(Lang::En).unreadable_reason)(&reasons[0]),
            faultline_report::input::BINARY_REASON
        );
        assert!((texts(Lang::Zh).unreadable_reason)(&reasons[3]).contains("NotReadableError"));
    }

    /// The engine renders an object in a message as the page does (`Texts::object`), in every
    /// language: a sentence that names one and the page's label of it say the same.
    #[test]
    fn an_object_is_named_as_the_engine_names_it() {
        use faultline_report::message::Arg;
        use faultline_report::ObjectRef;
        let named = ObjectRef {
            kind: "Pod".into(),
            namespace: Some("shop".into()),
            name: "web".into(),
            uid: None,
        };
        let unnamed = ObjectRef {
            name: "".into(),
            ..named.clone()
        };
        let cluster = ObjectRef {
            namespace: None,
            ..unnamed.clone()
        };
        for lang in Lang::ALL {
            for object in [&named, &unnamed, &cluster] {
                let mut engine = String::new();
                object.put(lang, &mut engine).unwrap();
                assert_eq!((texts(lang).object)(object), engine, "{lang:?}");
            }
        }
    }

    /// The labels the engine writes in words (issue 40.8) read as Chinese; a field path, a kubectl
    /// message and a command stay as they are written.
    #[test]
    fn evidence_labels_and_format_badges_are_chinese_in_chinese() {
        let zh = texts(Lang::Zh);
        let cases = [
            (
                "events table: Warning Failed Pod/web",
                "事件表：Warning Failed Pod/web",
            ),
            (
                "log of pod/web-1 container app: terminal error",
                "pod/web-1 容器 app 的日志：终止错误",
            ),
            ("log of job/backup: last line", "job/backup 的日志：最后一行"),
            (
                "log (recognised by its shape): first frame",
                "日志（按其形态识别）：第一个栈帧",
            ),
            ("log: context", "日志：上下文"),
            (
                "kubectl logs web-1 -n shop: top of the exception chain",
                "kubectl logs web-1 -n shop：异常链顶端",
            ),
            (
                "kubectl: Error from server (Forbidden)",
                "kubectl 消息：Error from server (Forbidden)",
            ),
            ("known:oom-java-heap", "已知故障：oom-java-heap"),
            (
                "status.containerStatuses[0].state.waiting.reason",
                "status.containerStatuses[0].state.waiting.reason",
            ),
        ];
        for (label, chinese) in cases {
            assert_eq!((zh.evidence_label)(label), chinese);
            assert_eq!((texts(Lang::En).evidence_label)(label), label);
        }
        let han = |s: &str| s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c));
        for id in [
            "yaml-list",
            "events-table",
            "describe",
            "get-table",
            "container-log",
            "command-output",
            "text",
        ] {
            assert!(han(&(zh.input_format)(id)), "{id}");
            assert_eq!((texts(Lang::En).input_format)(id), id);
        }
        assert_eq!((zh.input_format)("yaml"), "YAML");
    }

    #[test]
    fn every_kind_of_secret_has_a_name_in_every_language() {
        for lang in Lang::ALL {
            for kind in faultline_report::SecretKind::ALL {
                assert_ne!(
                    (texts(lang).secret_kind)(kind.id()),
                    "?",
                    "{lang:?} {}",
                    kind.id()
                );
            }
        }
        assert_eq!(
            (texts(Lang::En).secret_kind)("jwt"),
            faultline_report::SecretKind::Jwt.title()
        );
        // A token rule's id is named as a token of a known service, in each language.
        for lang in Lang::ALL {
            assert_eq!(
                (texts(lang).secret_kind)("github-pat"),
                (texts(lang).secret_kind)("token"),
                "{lang:?}"
            );
        }
    }
}
