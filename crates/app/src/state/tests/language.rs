//! A switch of language: the same report in the other language, without analysing again.

use super::*;

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
            .map(|f| f.summary.to_string())
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
    let state = reduce(State::default(), Action::PasteLarge(CRASH_POD.into(), false));
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
    // Another large paste into the empty box beside them is another incident (issue 40); added to
    // the first, it is numbered after the highest.
    let state = reduce(state, Action::PasteLarge("kind: List\n".into(), false));
    assert_eq!(state.input_names(), ["paste-1"]);
    let state = reduce(state, Action::JoinPrevious);
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
