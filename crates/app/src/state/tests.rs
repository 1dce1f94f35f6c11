use super::*;
use yew::Reducible;

use super::input::MAX_INPUT_BYTES;

const CRASH_POD: &str = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  namespace: shop\nspec:\n  nodeName: n1\n  containers:\n  - name: app\n    image: shop/web:9.9\nstatus:\n  phase: Pending\n  containerStatuses:\n  - name: app\n    image: shop/web:9.9\n    imageID: \"\"\n    ready: false\n    restartCount: 0\n    state:\n      waiting:\n        reason: ImagePullBackOff\n        message: 'Back-off pulling image \"shop/web:9.9\"'\n";

/// The worker, natively: it keeps its last analysis (as the wasm glue does) and counts the analyses
/// it ran.
#[derive(Default)]
pub(crate) struct Worker {
    last: Option<faultline_worker::job::Analysed>,
    pub analyses: usize,
}

impl Worker {
    /// The replies to the pending job, as actions (the secret scan included).
    pub(crate) fn analyse(&mut self, state: &State) -> Vec<Action> {
        let Some((job, inputs)) = state.job() else {
            return Vec::new();
        };
        let sources = inputs
            .iter()
            .map(|i| faultline_engine::Source::new(i.name.clone(), i.text.inline().unwrap_or_default()))
            .collect();
        let mut assembly = crate::replies::Assembly::default();
        let mut actions = Vec::new();
        let clock = || 0.0;
        let mut send = |bytes: Vec<u8>, texts: Vec<String>| {
            let reply = faultline_render::protocol::decode(&bytes).unwrap();
            let texts = texts.into_iter().map(Text::from).collect();
            actions.extend(assembly.take(job.id, reply, texts));
        };
        let mut analysed =
            faultline_worker::job::run(&job, sources, Vec::new(), Vec::new(), &clock, &mut send);
        faultline_worker::job::scan(&mut analysed, &clock, &mut send);
        self.analyses += 1;
        self.last = Some(analysed);
        actions
    }

    /// The replies to what the state asks of it in another language (none when it asks nothing,
    /// or for a report the worker no longer has).
    pub(crate) fn localize(&mut self, state: &State) -> Vec<Action> {
        let Some((id, lang)) = state.localize_request() else {
            return Vec::new();
        };
        let Some(analysed) = self.last.as_ref().filter(|a| a.id == id) else {
            return Vec::new();
        };
        let mut assembly = crate::replies::Assembly::default();
        let mut actions = Vec::new();
        faultline_worker::job::localize(analysed, lang, &mut |bytes, _| {
            let reply = faultline_render::protocol::decode(&bytes).unwrap();
            actions.extend(assembly.take(id, reply, Vec::new()));
        });
        actions
    }
}

/// The worker's replies to the pending job, as the page receives them, run natively.
pub(crate) fn worker_actions(state: &State) -> Vec<Action> {
    Worker::default().analyse(state)
}

/// The state once the worker has answered its pending job.
pub(crate) fn settled(state: State) -> State {
    let actions = worker_actions(&state);
    actions
        .into_iter()
        .fold(state, |state, action| (*Rc::new(state).reduce(action)).clone())
}

/// One action, then the worker's answer.
fn reduce(state: State, action: Action) -> State {
    settled((*Rc::new(state).reduce(action)).clone())
}

fn reduce_only(state: State, action: Action) -> State {
    (*Rc::new(state).reduce(action)).clone()
}

fn paste_of(state: &State) -> &str {
    &state.paste
}

#[test]
fn opens_with_the_sample_already_diagnosed() {
    let state = State::default();
    assert_eq!(state.sample, Some("image-pull"));
    assert_eq!(state.files.len(), 2);
    let top = &state.report.findings[0];
    assert_eq!(top.rule, "image-pull-failed");
    assert_eq!(top.subject.name, "tag-probe");
}

#[test]
fn a_paste_is_analysed_with_the_files_and_named_paste() {
    let state = reduce(State::default(), Action::Clear);
    assert!(state.report.findings.is_empty());
    assert!(state.report.inputs.is_empty());
    let state = reduce(state, Action::EditPaste(CRASH_POD.into()));
    assert_eq!(state.report.inputs[0].source, "paste");
    let finding = &state.report.findings[0];
    assert_eq!(finding.subject.namespace.as_deref(), Some("shop"));
    assert_eq!(finding.evidence[0].source, "paste");
    assert_eq!(state.sample, None);
}

#[test]
fn a_file_with_the_same_name_replaces_the_old_one_and_removal_reanalyses() {
    let state = reduce(
        State::default(),
        Action::AddFile(Input {
            name: "events.txt".into(),
            text: samples::find("image-pull").unwrap().files[1].1.into(),
        }),
    );
    let state = reduce(
        state,
        Action::AddFile(Input {
            name: "pod.yaml".into(),
            text: SECRET_POD.into(),
        }),
    );
    let state = reduce(
        state,
        Action::AddFile(Input {
            name: "pod.yaml".into(),
            text: CRASH_POD.into(),
        }),
    );
    assert_eq!(state.files.len(), 2);
    assert_eq!(state.report.findings[0].subject.name, "web");
    let state = reduce(state, Action::RemoveFile(1));
    assert_eq!(state.files.len(), 1);
    assert!(
        state.report.findings.iter().all(|f| f.subject.name != "web"),
        "the removed file's finding is gone"
    );
}

#[test]
fn an_unreadable_file_is_listed_not_analysed() {
    let state = reduce(
        State::default(),
        Action::FileUnreadable {
            name: "bundle".into(),
            reason: "could not be read".into(),
        },
    );
    assert_eq!(
        state.unreadable,
        vec![("bundle".to_string(), "could not be read".to_string())]
    );
    assert_eq!(state.files.len(), 2, "nothing was added as input");
    let state = reduce(state, Action::Clear);
    assert!(state.unreadable.is_empty());
}

#[test]
fn editing_keeps_the_view_and_a_route_opens_sample_and_view() {
    let state = reduce(State::default(), Action::SetView(View::Timeline));
    let state = reduce(state, Action::EditPaste(CRASH_POD.into()));
    assert_eq!(state.view, View::Timeline, "re-analysis keeps the view");
    let state = reduce(
        state,
        Action::Route(Route {
            sample: Some("quota-403"),
            view: Some(View::Table),
        }),
    );
    assert_eq!((state.sample, state.view), (Some("quota-403"), View::Table));
    assert!(state.paste.is_empty());
    assert_eq!(state.report.findings[0].boundary.id(), "quota-admission");
    let opened = State::open(crate::route::parse("#sample=healthy&view=diagram"), Lang::Zh);
    assert_eq!(
        (opened.sample, opened.view, opened.lang),
        (Some("healthy"), View::Diagram, Lang::Zh)
    );
    assert_eq!(State::open(Route::default(), Lang::En).sample, Some("image-pull"));
}

#[test]
fn evidence_and_findings_are_shown_without_reanalysis() {
    let state = State::default();
    let report = state.report.clone();
    let state = reduce(
        state,
        Action::ShowLine {
            source: "pod.yaml".into(),
            line: 111,
        },
    );
    assert_eq!(state.focus, Some(("pod.yaml".to_string(), 111)));
    assert!(Rc::ptr_eq(&report, &state.report));
    let state = reduce(
        reduce(state, Action::SetView(View::Table)),
        Action::ShowFinding(0),
    );
    assert_eq!((state.view, state.selected_finding), (View::Findings, Some(0)));
    let state = reduce(state, Action::LoadSample("healthy"));
    assert_eq!((state.focus, state.selected_finding), (None, None));
}

#[test]
fn bad_input_keeps_the_text_as_typed() {
    let broken = "kind: Pod\nmetadata: [unclosed\n";
    let state = reduce(State::default(), Action::EditPaste(broken.into()));
    assert_eq!(paste_of(&state), broken);
    let error = state.report.errors.iter().find(|e| e.source == "paste").unwrap();
    assert_eq!(error.line, 3, "{error:?}");
    assert!(
        state.files.is_empty(),
        "the sample's files made way for the paste"
    );
}

/// Issue 25: the first paste while a sample is shown replaces it, and "restore" brings it back.
#[test]
fn the_first_paste_replaces_the_sample_and_restore_brings_it_back() {
    let state = reduce(State::default(), Action::EditPaste("  \n".into()));
    assert_eq!(
        state.sample,
        Some("image-pull"),
        "whitespace is not the user's input"
    );
    let state = reduce(state, Action::EditPaste(CRASH_POD.into()));
    assert_eq!(state.sample, None);
    assert_eq!(state.removed_sample, Some("image-pull"));
    assert_eq!(state.input_names(), ["paste"]);
    assert!(
        state.report.findings.iter().all(|f| f.subject.name == "web"),
        "diagnosed alone"
    );
    assert!(state.has_own_input());
    let state = reduce(state, Action::RestoreSample);
    assert_eq!(state.sample, Some("image-pull"));
    assert_eq!(state.removed_sample, None);
    assert_eq!(state.input_names(), ["pod.yaml", "events.txt"]);
    assert_eq!(state.report.findings[0].subject.name, "tag-probe");
    // A dropped file replaces it as well.
    let state = reduce(
        state,
        Action::AddFile(Input {
            name: "web.yaml".into(),
            text: CRASH_POD.into(),
        }),
    );
    assert_eq!(state.input_names(), ["web.yaml"]);
    assert_eq!(state.removed_sample, Some("image-pull"));
}

/// Issue 25: a next step's output, pasted into the input named after its command, is compared with
/// the report before it.
#[test]
fn a_next_steps_output_says_what_it_changed() {
    let sample = samples::find("image-pull").unwrap();
    let events = sample.files.iter().find(|(n, _)| *n == "events.txt").unwrap().1;
    let pod = sample.files.iter().find(|(n, _)| *n == "pod.yaml").unwrap().1;
    let state = reduce(State::default(), Action::EditPaste(events.into()));
    assert_eq!(state.changes, None, "a first paste has nothing to compare with");
    let command = state.report.findings[0]
        .next_steps
        .iter()
        .find(|s| s.ends_with("-o yaml"))
        .unwrap()
        .clone();
    let state = reduce(state, Action::OpenFollowUp(command.clone()));
    assert_eq!(state.follow_up.as_deref(), Some(command.as_str()));
    let state = reduce(state, Action::EditFollowUp(pod.into()));
    assert_eq!(state.input_names(), ["paste".to_string(), command.clone()]);
    let changes = state.changes.clone().unwrap();
    let kinds: Vec<_> = changes.iter().map(|c| c.kind.id()).collect();
    assert_eq!(kinds, ["confirmed", "answered"]);
    assert!(state.report.findings[0]
        .evidence
        .iter()
        .any(|e| e.source == command));
    // Emptied: the input goes, and the comparison says the report is back where it was.
    let state = reduce(state, Action::EditFollowUp(String::new()));
    assert_eq!(state.input_names(), ["paste"]);
    assert_eq!(state.changes.as_deref().map(Vec::len), Some(0));
    // A main-paste edit is not new evidence of a report.
    let state = reduce(state, Action::EditPaste(format!("{events}\n")));
    assert_eq!(state.changes, None);
}

const SECRET_POD: &str = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  namespace: shop\nspec:\n  nodeName: n1\n  containers:\n  - name: app\n    image: shop/web:9.9\n    env:\n    - name: DB_PASSWORD\n      value: hunter2-hunter2\nstatus:\n  phase: Pending\n  containerStatuses:\n  - name: app\n    image: shop/web:9.9\n    imageID: \"\"\n    ready: false\n    restartCount: 0\n    state:\n      waiting:\n        reason: ImagePullBackOff\n";

#[test]
fn secrets_are_listed_redacted_in_one_action_and_the_redaction_can_be_undone_until_an_edit() {
    let state = reduce(State::default(), Action::Clear);
    let state = reduce(state, Action::EditPaste(SECRET_POD.into()));
    assert_eq!(state.secrets.len(), 1);
    assert_eq!(
        (state.secrets[0].kind.as_str(), state.secrets[0].line),
        ("env-secret", 13)
    );
    let before = state.report.findings[0].clone();
    let state = reduce(state, Action::Redact);
    assert!(!state.paste.contains("hunter2-hunter2"));
    assert!(state.paste.contains("value: <redacted:env-secret:1>"));
    assert!(state.secrets.is_empty(), "nothing left to redact");
    assert_eq!(state.report.findings[0].rule, before.rule);
    assert_eq!(state.report.findings[0].subject, before.subject);
    let undone = reduce(state.clone(), Action::UndoRedaction);
    assert_eq!(paste_of(&undone), SECRET_POD);
    assert_eq!(undone.secrets.len(), 1);
    // An edit ends the chance to undo.
    let edited = reduce(state, Action::EditPaste("kind: Pod\n".into()));
    assert_eq!(edited.before_redaction, None);
    assert_eq!(reduce(edited.clone(), Action::UndoRedaction).paste, edited.paste);
}

#[test]
fn network_details_are_secrets_only_when_asked() {
    let state = reduce(State::default(), Action::Clear);
    let state = reduce(
        state,
        Action::EditPaste("IP: 10.244.1.17\nNode: ip-10-0-1-2.ec2.internal\n".into()),
    );
    assert!(state.secrets.is_empty());
    let state = reduce(state, Action::SetIncludeNetwork(true));
    let kinds: Vec<&str> = state.secrets.iter().map(|h| h.kind.as_str()).collect();
    assert_eq!(kinds, ["ip-address", "internal-hostname"]);
    let state = reduce(state, Action::Redact);
    assert!(!state.paste.contains("10.244.1.17"));
}

#[test]
fn a_binary_file_is_listed_as_unreadable_not_analysed() {
    let state = reduce(
        State::default(),
        Action::AddFile(Input {
            name: "core.bin".into(),
            text: "\u{7f}ELF\u{2}\u{1}\u{1}\0\0\0".into(),
        }),
    );
    assert_eq!(state.files.len(), 2, "not added");
    assert!(state.unreadable[0].1.contains("binary"), "{:?}", state.unreadable);
    let invalid_utf8 = String::from_utf8_lossy(&[0xff, 0xfe, 0xfd, b'a', 0xc3, 0x28]).into_owned();
    assert!(looks_binary(&invalid_utf8));
    assert!(!looks_binary(CRASH_POD));
}

#[test]
fn input_over_the_limit_gets_a_message_and_is_kept_as_typed() {
    let big = Input {
        name: "cluster-dump.json".into(),
        text: Text::File {
            id: 1,
            bytes: MAX_INPUT_BYTES + 1,
        },
    };
    let state = reduce(State::default(), Action::AddFile(big.clone()));
    assert_eq!(state.pending, None, "nothing is sent to the worker");
    assert!(state.report.findings.is_empty());
    let error = state.report.errors.iter().find(|e| e.source == big.name).unwrap();
    assert!(error.message.contains("too large"), "{error:?}");
    assert!(error.message.contains("`faultline` command line"), "{error:?}");
    assert!(state.files.contains(&big));
    assert!(state.has_own_input());
    // A switch of language writes it again, in the page's words; nothing is analysed.
    let zh = reduce_only(state, Action::SetLang(Lang::Zh));
    assert_eq!(zh.pending, None);
    let error = zh.report.errors.iter().find(|e| e.source == big.name).unwrap();
    assert!(
        error.message.starts_with("输入太大，无法在本页中分析"),
        "{error:?}"
    );
    assert!(error.message.contains("`faultline` 命令行工具"), "{error:?}");
}

#[test]
fn an_edit_asks_the_worker_and_the_previous_report_stays_until_the_answer() {
    let opened = State::default();
    assert_eq!(
        opened.pending, None,
        "the sample's report was computed at build time"
    );
    let asked = reduce_only(opened.clone(), Action::EditPaste(CRASH_POD.into()));
    let pending = asked.pending.clone().unwrap();
    assert!(
        Rc::ptr_eq(&asked.report, &opened.report),
        "the old report stays, marked by `pending`"
    );
    let (job, inputs) = asked.job().unwrap();
    assert_eq!(job.id, pending.id);
    assert_eq!(job.names, ["paste"], "the first paste replaces the sample");
    assert_eq!(inputs[0].text, Text::from(CRASH_POD));
    let actions = worker_actions(&asked);
    let mut state = asked;
    for action in actions {
        if let Action::Progress { progress, .. } = action {
            state = reduce_only(
                state,
                Action::Progress {
                    id: pending.id,
                    progress,
                },
            );
            let shown = state.pending.as_ref().and_then(|p| p.progress).unwrap();
            assert!(shown.bytes_done <= shown.bytes_total);
        } else {
            state = reduce_only(state, action);
        }
    }
    assert_eq!(state.pending, None);
    assert_eq!(state.report.findings[0].subject.name, "web");
}

/// The report is shown as soon as it arrives, current, not stale; the job stays pending while the
/// worker looks for secrets, which cannot be cancelled and come with every step's time.
#[test]
fn the_report_is_shown_before_the_secret_scan_ends() {
    let asked = reduce_only(State::default(), Action::EditPaste(SECRET_POD.into()));
    let actions = worker_actions(&asked);
    let reported = actions
        .iter()
        .position(|a| matches!(a, Action::Reported { .. }))
        .unwrap();
    assert!(matches!(actions.last(), Some(Action::Scanned { .. })));
    let state = actions[..=reported].iter().cloned().fold(asked, reduce_only);
    assert!(state.scanning() && !state.analysing());
    assert!(!state.report.findings.is_empty(), "the report is shown");
    assert!(state.secrets.is_empty(), "no secrets yet");
    assert!(state.timings.iter().all(|t| t.step != "scanning"));
    assert_eq!(
        reduce_only(state.clone(), Action::Cancel),
        state,
        "the scan is not cancelled"
    );
    let state = actions[reported + 1..].iter().cloned().fold(state, reduce_only);
    assert_eq!(state.pending, None);
    assert_eq!(state.secrets.len(), 1);
    assert_eq!(state.timings.last().map(|t| t.step.as_str()), Some("scanning"));
}

#[test]
fn a_newer_edit_supersedes_a_running_analysis_and_late_replies_are_ignored() {
    let first = reduce_only(State::default(), Action::EditPaste(CRASH_POD.into()));
    let late = worker_actions(&first);
    let second = reduce_only(first, Action::EditPaste(SECRET_POD.into()));
    let state = late.into_iter().fold(second.clone(), reduce_only);
    assert_eq!(state, second, "replies to the superseded job change nothing");
    let state = settled(state);
    assert_eq!(state.secrets.len(), 1, "the newer text's analysis arrived");
}

#[test]
fn cancel_keeps_the_text_and_the_previous_report_marked_stale() {
    let opened = State::default();
    let asked = reduce_only(opened.clone(), Action::EditPaste(CRASH_POD.into()));
    let late = worker_actions(&asked);
    let cancelled = reduce_only(asked, Action::Cancel);
    assert_eq!((cancelled.pending.as_ref(), cancelled.stale), (None, true));
    assert_eq!(paste_of(&cancelled), CRASH_POD);
    assert!(Rc::ptr_eq(&cancelled.report, &opened.report));
    let state = late.into_iter().fold(cancelled.clone(), reduce_only);
    assert_eq!(state, cancelled, "the cancelled job's replies are ignored");
    let again = reduce(state, Action::Reanalyse);
    assert!(!again.stale);
    assert_eq!(again.report.findings[0].subject.name, "web");
}

#[test]
fn a_worker_failure_is_reported_on_each_input_with_the_text_kept() {
    let asked = reduce_only(State::default(), Action::EditPaste(CRASH_POD.into()));
    let id = asked.pending.as_ref().unwrap().id;
    let failed = reduce_only(
        asked,
        Action::AnalysisFailed {
            id,
            failure: Failure::Error("out of memory".into()),
        },
    );
    assert_eq!(failed.pending, None);
    assert_eq!(
        failed.report.errors.len(),
        1,
        "the paste (it replaced the sample)"
    );
    assert!(failed.report.errors[0]
        .message
        .contains("`faultline` command line"));
    assert!(failed.report.errors[0].message.contains("(out of memory)"));
    assert_eq!(paste_of(&failed), CRASH_POD);
    // In Chinese, the page's words in Chinese; the browser's as they are.
    let zh = reduce_only(failed, Action::SetLang(Lang::Zh));
    assert!(zh.report.errors[0]
        .message
        .starts_with("分析在完成之前停止了（out of memory）"));
    assert!(zh.localize_request().is_none(), "nothing to ask the worker");
}

#[test]
fn a_large_file_is_a_handle_the_worker_reads_and_a_binary_one_is_listed_unreadable() {
    let state = reduce_only(
        State::default(),
        Action::AddFile(Input {
            name: "dump.yaml".into(),
            text: Text::File {
                id: 3,
                bytes: 200 * 1024 * 1024,
            },
        }),
    );
    assert!(state.pending.is_some(), "200 MB is analysed in the page");
    assert_eq!(state.file_ids(), [3]);
    let id = state.pending.as_ref().unwrap().id;
    let analysis = Analysis {
        unreadable: vec![("dump.yaml".into(), "looks like a binary file".into())],
        ..Analysis::default()
    };
    let state = reduce_only(
        state,
        Action::Reported {
            id,
            analysis: Rc::new(analysis),
        },
    );
    assert!(state.files.iter().all(|f| f.name != "dump.yaml"));
    assert_eq!(state.unreadable[0].0, "dump.yaml");
}

fn has_chinese(text: &str) -> bool {
    text.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

/// Issue 24: a switch of language shows the same report in the other language without analysing
/// again: the worker renders the texts of the report it made, and the page puts them into the report
/// it shows, keeping the secrets found, the view, the focus and the finding selected.
#[test]
fn a_switch_of_language_renders_the_report_again_without_analysing() {
    let mut worker = Worker::default();
    let fold = |state: State, actions: Vec<Action>| actions.into_iter().fold(state, reduce_only);
    // A job of the image-pull sample's files with a secret (a next step's output pasted beside the
    // sample): the worker's report, not the sample's.
    let opened = reduce_only(
        State::default(),
        Action::OpenFollowUp("kubectl get pod web -n shop -o yaml".into()),
    );
    let asked = reduce_only(opened, Action::EditFollowUp(SECRET_POD.into()));
    let actions = worker.analyse(&asked);
    let state = fold(asked, actions);
    assert_eq!((worker.analyses, state.pending.is_none()), (1, true));
    assert_eq!(state.secrets.len(), 1);
    let state = reduce_only(state, Action::SetView(View::Table));
    let state = reduce_only(state, Action::ShowFinding(1));
    let state = reduce_only(
        state,
        Action::ShowLine {
            source: "pod.yaml".into(),
            line: 12,
        },
    );
    let english = state.report.clone();
    let pulls = |report: &Report| -> Vec<String> {
        report
            .findings
            .iter()
            .filter(|f| f.rule == "image-pull-failed")
            .map(|f| f.summary.clone())
            .collect()
    };
    assert!(pulls(&english).len() >= 2 && pulls(&english).iter().all(|s| !has_chinese(s)));

    let switched = reduce_only(state.clone(), Action::SetLang(Lang::Zh));
    assert_eq!(switched.pending, None, "no new job");
    assert!(Rc::ptr_eq(&switched.report, &english), "until the texts come");
    let id = state.last_job;
    assert_eq!(switched.localize_request(), Some((id, Lang::Zh)));
    assert!(worker_actions(&switched).is_empty());
    let actions = worker.localize(&switched);
    assert!(
        matches!(actions[..], [Action::Localized { id: i, ref texts }] if i == id && texts.lang == Lang::Zh),
        "{actions:?}"
    );
    let zh = fold(switched, actions);
    assert_eq!(worker.analyses, 1, "nothing analysed again");
    assert_eq!(zh.localize_request(), None);
    // Every pull finding says it in Chinese, and so what its evidence cannot establish.
    for f in zh
        .report
        .findings
        .iter()
        .filter(|f| f.rule == "image-pull-failed")
    {
        assert!(has_chinese(&f.summary), "{}", f.summary);
        assert!(
            f.cannot_establish.iter().all(|c| has_chinese(c)),
            "{:?}",
            f.cannot_establish
        );
    }
    // The same report otherwise, and the user's state as it was.
    assert_eq!(zh.report.findings.len(), english.findings.len());
    assert_eq!(zh.report.timeline.len(), english.timeline.len());
    assert_eq!(zh.report.objects, english.objects);
    assert_eq!(
        (zh.view, zh.selected_finding, zh.focus.clone()),
        (state.view, state.selected_finding, state.focus.clone())
    );
    assert!(Rc::ptr_eq(&zh.secrets, &state.secrets));
    assert_eq!(zh.timings, state.timings);
    // The report the worker would have made in Chinese, as the page holds it.
    let options = faultline_engine::Options {
        lang: Lang::Zh,
        ..Default::default()
    };
    let sources: Vec<_> = zh
        .inputs()
        .iter()
        .map(|i| faultline_engine::Source::new(i.name.clone(), i.text.inline().unwrap_or_default()))
        .collect();
    let fresh = faultline_engine::analyze_with(&sources, &options);
    let fresh: Report = serde_json::from_str(&serde_json::to_string(&fresh).unwrap()).unwrap();
    assert_eq!(*zh.report, fresh);
    // And back to English: the English texts again, from the same worker, still one analysis.
    let back = reduce_only(zh, Action::SetLang(Lang::En));
    let actions = worker.localize(&back);
    let back = fold(back, actions);
    assert_eq!(*back.report, *english);
    assert_eq!(worker.analyses, 1);
}

/// A job asked in one language whose report arrives after a switch: the texts are asked for then;
/// texts for a report no longer shown change nothing.
#[test]
fn a_report_that_arrives_after_a_switch_is_rendered_in_the_new_language() {
    let mut worker = Worker::default();
    let asked = reduce_only(State::default(), Action::EditPaste(CRASH_POD.into()));
    let actions = worker.analyse(&asked);
    let switched = reduce_only(asked, Action::SetLang(Lang::Zh));
    let state = actions.into_iter().fold(switched, reduce_only);
    assert_eq!(state.lang, Lang::Zh);
    let request = state.localize_request().unwrap();
    assert_eq!(request.1, Lang::Zh);
    let late = worker.localize(&state);
    let zh = late.iter().cloned().fold(state.clone(), reduce_only);
    let pull = zh
        .report
        .findings
        .iter()
        .find(|f| f.rule == "image-pull-failed")
        .unwrap();
    assert!(has_chinese(&pull.summary), "{}", pull.summary);
    // A newer job's report replaces it: the older texts change nothing.
    let newer = settled(reduce_only(zh, Action::EditPaste(SECRET_POD.into())));
    let unchanged = late.into_iter().fold(newer.clone(), reduce_only);
    assert_eq!(unchanged, newer);
}

/// The built-in samples switch language from their precomputed texts, without a worker.
#[test]
fn a_sample_switches_language_without_the_worker() {
    let state = State::default();
    let zh = reduce_only(state.clone(), Action::SetLang(Lang::Zh));
    assert_eq!((zh.pending.as_ref(), zh.localize_request()), (None, None));
    let pull = &zh.report.findings[0];
    assert!(has_chinese(&pull.summary), "{}", pull.summary);
    assert_eq!(*zh.report, *State::open(Route::default(), Lang::Zh).report);
    assert_eq!(zh.secrets, state.secrets);
    let en = reduce_only(zh, Action::SetLang(Lang::En));
    assert_eq!(*en.report, *state.report);
}

#[test]
fn a_large_paste_is_an_input_of_its_own_and_can_move_into_the_paste_box() {
    // On the sample: the large paste replaces it, as a dropped file does.
    let state = reduce(State::default(), Action::PasteLarge(CRASH_POD.into()));
    assert_eq!(state.sample, None);
    assert_eq!(state.removed_sample, Some("image-pull"));
    assert_eq!(state.input_names(), ["paste-1"]);
    assert!(super::input::is_large_paste("paste-1"));
    assert_eq!(paste_of(&state), "", "the paste box is left as it was");
    assert!(state.report.findings.iter().all(|f| f.subject.name == "web"));
    assert_eq!(state.report.findings[0].evidence[0].source, "paste-1");
    // The next one is numbered after the highest; a file called `paste.yaml` is not a paste.
    let state = reduce(
        state,
        Action::AddFile(Input {
            name: "paste.yaml".into(),
            text: "".into(),
        }),
    );
    assert!(!super::input::is_large_paste("paste.yaml") && !super::input::is_large_paste("paste-"));
    let state = reduce(state, Action::PasteLarge("kind: List\n".into()));
    assert_eq!(state.input_names(), ["paste-1", "paste.yaml", "paste-2"]);
    // Edited in the box: the text goes after what the box holds, and the input is gone.
    let state = reduce(state, Action::EditPaste("# mine".into()));
    let state = reduce(
        state,
        Action::EditLargePaste {
            name: "paste-1".into(),
            text: CRASH_POD.into(),
        },
    );
    assert_eq!(paste_of(&state), format!("# mine\n{CRASH_POD}"));
    assert_eq!(state.input_names(), ["paste", "paste.yaml", "paste-2"]);
    assert_eq!(state.report.findings[0].evidence[0].source, "paste");
    // A name no input has changes nothing.
    let same = reduce_only(
        state.clone(),
        Action::EditLargePaste {
            name: "paste-9".into(),
            text: "x".into(),
        },
    );
    assert_eq!(same.input_names(), state.input_names());
}
