use super::*;
use faultline_render::protocol::Unreadable;
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
            reason: Unreadable::DropFailed("NotFoundError".into()),
        },
    );
    assert_eq!(
        state.unreadable,
        vec![(
            "bundle".to_string(),
            Unreadable::DropFailed("NotFoundError".into())
        )]
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

mod investigation;
mod jobs;
mod language;
