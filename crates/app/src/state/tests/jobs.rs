//! Secrets, the worker's jobs, cancellation and failures, large inputs.

use super::*;

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
    assert_eq!(
        state.unreadable[0].1,
        Unreadable::Binary,
        "{:?}",
        state.unreadable
    );
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
        unreadable: vec![("dump.yaml".into(), Unreadable::Binary)],
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
