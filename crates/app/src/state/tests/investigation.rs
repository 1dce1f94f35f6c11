//! Issue 40: one incident at a time. Replacing the paste starts a new investigation, and the
//! follow-ups of the old one go with it, one click away.

use super::*;
use crate::state::investigation::replaces;

fn sample_file(id: &str, name: &str) -> &'static str {
    samples::find(id)
        .unwrap()
        .files
        .iter()
        .find(|(n, _)| *n == name)
        .unwrap()
        .1
}

/// The image-pull sample's events pasted, and its Pod given as the output of a next step.
fn with_a_follow_up() -> (State, String) {
    let events = sample_file("image-pull", "events.txt");
    let state = reduce(State::default(), Action::Pasted(events.into()));
    let command = state.report.findings[0]
        .next_steps
        .iter()
        .find(|s| s.ends_with("-o yaml"))
        .unwrap()
        .clone();
    let state = reduce(state, Action::OpenFollowUp(command.clone()));
    let state = reduce(
        state,
        Action::EditFollowUp(sample_file("image-pull", "pod.yaml").into()),
    );
    assert_eq!(state.follow_ups, std::slice::from_ref(&command));
    (state, command)
}

fn subjects(state: &State) -> Vec<&str> {
    state
        .report
        .findings
        .iter()
        .map(|f| f.subject.name.as_str())
        .collect()
}

#[test]
fn a_paste_over_the_box_is_a_new_incident_and_its_follow_ups_go_with_the_old_one() {
    let (state, command) = with_a_follow_up();
    let state = reduce(state, Action::Pasted(CRASH_POD.into()));
    assert_eq!(state.input_names(), ["paste"]);
    assert!(state.follow_ups.is_empty() && state.follow_up.is_none());
    assert_eq!(
        subjects(&state),
        ["web"],
        "the old incident's Pod is not in the new report"
    );
    assert_eq!(
        state.changes, None,
        "a new incident is not new evidence of the old one"
    );
    let previous = state.previous.clone().unwrap();
    assert_eq!(previous.inputs(), 2);
    assert_eq!(previous.follow_ups, std::slice::from_ref(&command));
    // Restore swaps them back; the new one is set aside in its turn.
    let state = reduce(state, Action::RestorePrevious);
    assert_eq!(state.input_names(), ["paste".to_string(), command.clone()]);
    assert_eq!(state.follow_ups, [command]);
    assert!(subjects(&state).contains(&"tag-probe"));
    assert_eq!(&*state.previous.clone().unwrap().paste, CRASH_POD);
    assert!(state.has_own_input());
}

#[test]
fn evidence_added_inside_the_incident_keeps_it() {
    let (state, command) = with_a_follow_up();
    let paste = state.paste.to_string();
    // Pasted below what the box holds, typed into it, typed over a few lines: the same incident.
    let state = reduce(state, Action::Pasted(format!("{paste}\n{CRASH_POD}")));
    assert!(state.previous.is_none());
    assert_eq!(state.follow_ups, std::slice::from_ref(&command));
    let state = reduce(
        state,
        Action::EditPaste(format!("{paste}\n{CRASH_POD}# checked\n")),
    );
    assert!(state.previous.is_none());
    let state = reduce(state, Action::EditPaste(paste.clone()));
    assert!(state.previous.is_none(), "deleting what was added is an edit");
    assert_eq!(state.input_names(), ["paste".to_string(), command]);
    // Typed over: select all, then a first key.
    let state = reduce(state, Action::EditPaste("k".into()));
    assert_eq!(state.input_names(), ["paste"]);
    assert_eq!(state.previous.clone().unwrap().inputs(), 2);
}

#[test]
fn emptied_then_pasted_beside_the_old_inputs_is_a_new_incident() {
    let (state, _) = with_a_follow_up();
    let state = reduce(state, Action::EditPaste(String::new()));
    assert!(state.previous.is_none(), "an emptied box alone ends nothing");
    let state = reduce(state, Action::Pasted(CRASH_POD.into()));
    assert_eq!(state.input_names(), ["paste"]);
    assert_eq!(subjects(&state), ["web"]);
    // "Add to it": the new paste joins the old incident as new evidence of its report.
    let state = reduce(state, Action::JoinPrevious);
    assert!(state.previous.is_none());
    assert_eq!(state.input_names().len(), 2);
    assert!(state.paste.contains("name: web"));
    assert_eq!(state.follow_ups.len(), 1);
    let changes = state.changes.clone().unwrap();
    assert!(
        changes
            .iter()
            .any(|c| c.kind.id() == "added" && c.finding.as_ref().is_some_and(|(_, s)| s.name == "web")),
        "{changes:?}"
    );
}

#[test]
fn a_paste_too_large_for_the_box_and_dropped_files_are_new_incidents() {
    let (state, _) = with_a_follow_up();
    // Pasted into the box's text (not over all of it): the same incident.
    let state = reduce(state, Action::PasteLarge(CRASH_POD.into(), true));
    assert_eq!(state.input_names()[2], "paste-1");
    assert!(state.previous.is_none());
    // Over all of it (select all, then paste): a new incident.
    let state = reduce(state, Action::PasteLarge(CRASH_POD.into(), false));
    assert_eq!(state.input_names(), ["paste-1"]);
    assert_eq!(subjects(&state), ["web"]);
    assert_eq!(state.previous.clone().unwrap().inputs(), 3);
    // A drop: the files read after it are the new incident's.
    let state = reduce(state, Action::FilesArriving);
    assert!(state.input_names().is_empty());
    let state = reduce(
        state,
        Action::AddFile(Input {
            name: "events.txt".into(),
            text: sample_file("image-pull", "events.txt").into(),
        }),
    );
    let state = reduce(
        state,
        Action::AddFile(Input {
            name: "pod.yaml".into(),
            text: sample_file("image-pull", "pod.yaml").into(),
        }),
    );
    assert_eq!(state.input_names(), ["events.txt", "pod.yaml"]);
    assert_eq!(state.previous.clone().unwrap().files[0].name, "paste-1");
    // While a next step's output is asked for, a drop is that output: the incident stays.
    let command = state.report.findings[0].next_steps[0].clone();
    let state = reduce(state, Action::OpenFollowUp(command));
    let state = reduce(state, Action::FilesArriving);
    let state = reduce(
        state,
        Action::AddFile(Input {
            name: "web.yaml".into(),
            text: CRASH_POD.into(),
        }),
    );
    assert_eq!(state.input_names(), ["events.txt", "pod.yaml", "web.yaml"]);
    assert!(state.changes.is_some(), "compared with the report before it");
}

#[test]
fn a_sample_sets_the_users_incident_aside_and_clear_forgets_both() {
    let (state, command) = with_a_follow_up();
    let state = reduce(state, Action::LoadSample("quota-403"));
    assert_eq!(state.sample, Some("quota-403"));
    assert!(!state.has_own_input());
    let state = reduce(state, Action::RestorePrevious);
    assert_eq!(state.sample, None);
    assert_eq!(state.input_names(), ["paste".to_string(), command]);
    assert!(state.previous.is_none(), "a sample is not set aside");
    let state = reduce(state, Action::Pasted(CRASH_POD.into()));
    assert!(state.previous.is_some());
    let state = reduce(state, Action::Clear);
    assert!(state.previous.is_none() && state.input_names().is_empty());
}

#[test]
fn the_files_of_a_set_aside_incident_stay_registered() {
    let state = reduce(State::default(), Action::Clear);
    let state = reduce(
        state,
        Action::AddFile(Input {
            name: "dump.json".into(),
            text: Text::File {
                id: 7,
                bytes: 3_000_000,
            },
        }),
    );
    let state = reduce_only(state, Action::FilesArriving);
    assert!(state.input_names().is_empty());
    assert_eq!(state.file_ids(), [7], "the page keeps the file for a restore");
}

#[test]
fn replacing_is_most_of_the_old_text_gone() {
    let old = "line one\nline two\nline three\n";
    assert!(!replaces("", "anything"));
    assert!(!replaces(old, ""));
    assert!(!replaces(old, &format!("{old}more\n")));
    assert!(!replaces(old, &format!("more\n{old}")));
    assert!(!replaces(old, "line one\nline TWO\nline three\n"));
    assert!(replaces(old, "kind: Pod\n"));
    assert!(replaces(old, "l"));
    assert!(replaces(
        old,
        "line one\nsomething else entirely, longer than before\n"
    ));
}

#[test]
fn a_paste_into_the_empty_box_beside_dropped_files_adds_to_them() {
    let state = reduce(
        State::default(),
        Action::AddFile(Input {
            name: "events.txt".into(),
            text: sample_file("image-pull", "events.txt").into(),
        }),
    );
    let state = reduce(
        state,
        Action::Pasted(sample_file("image-pull", "pod.yaml").into()),
    );
    assert_eq!(state.input_names(), ["paste", "events.txt"]);
    assert!(state.previous.is_none());
    // A large one too, unless a large paste is already there.
    let state = reduce(state, Action::EditPaste(String::new()));
    let state = reduce(state, Action::PasteLarge(CRASH_POD.into(), false));
    assert_eq!(state.input_names(), ["events.txt", "paste-1"]);
    let state = reduce(state, Action::PasteLarge(CRASH_POD.into(), false));
    assert_eq!(state.input_names(), ["paste-1"]);
    assert_eq!(state.previous.clone().unwrap().inputs(), 2);
}
