//! Components rendered to HTML natively (Yew's server renderer) and compared with reviewed snapshots
//! in `crates/app/tests/snapshots/`; `UPDATE_SNAPSHOTS=1` rewrites them (review the diff). Effects
//! and event handlers do not run here: the browser tests cover those.

use std::path::PathBuf;

use yew::prelude::*;

use super::boundary_table::BoundaryTable;
use super::diagram::ArchitectureDiagram;
use super::findings::Findings;
use super::inputs_list::InputsList;
use super::object_map::ObjectMapView;
use super::sample_menu::SampleMenu;
use super::timeline::Timeline;
use super::view_switcher::ViewSwitcher;
use crate::i18n::Lang;
use crate::route::View;
use crate::state::State;

#[derive(Properties, PartialEq)]
struct WrapProps {
    lang: Lang,
    content: Html,
}

/// The language context the app provides, around one component.
#[function_component(Wrap)]
fn wrap(props: &WrapProps) -> Html {
    html! { <ContextProvider<Lang> context={props.lang}>{ props.content.clone() }</ContextProvider<Lang>> }
}

fn render(lang: Lang, content: Html) -> String {
    let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
    let local = tokio::task::LocalSet::new();
    let html = local.block_on(
        &runtime,
        yew::LocalServerRenderer::<Wrap>::with_props(WrapProps { lang, content })
            .hydratable(false)
            .render(),
    );
    // One tag per line, so that a snapshot's diff shows what changed.
    html.replace("><", ">\n<") + "\n"
}

/// Every snapshot the tests below write: a file in `tests/snapshots/` not listed here is an orphan.
const SNAPSHOTS: &[&str] = &[
    "boundary-table-image-pull.en.html",
    "boundary-table-healthy.zh.html",
    "findings-quota-403.en.html",
    "diagram-image-pull.en.html",
    "timeline-readiness.zh.html",
    "object-map-readiness.en.html",
    "inputs-tabs-menu-node-label.en.html",
];

fn snapshots() -> faultline_snapshot::Snapshots {
    faultline_snapshot::Snapshots::new(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots"))
}

fn assert_snapshot(name: &str, actual: &str) {
    assert!(SNAPSHOTS.contains(&name), "{name} is not listed in SNAPSHOTS");
    snapshots().assert(name, actual);
}

#[test]
fn no_snapshot_is_an_orphan() {
    snapshots().assert_no_orphans("", SNAPSHOTS);
}

fn sample(id: &'static str) -> State {
    State::with_sample(id)
}

#[test]
fn boundary_table_of_the_image_pull_sample() {
    let report = sample("image-pull").report;
    let html = render(
        Lang::En,
        html! { <BoundaryTable {report} on_show_finding={Callback::noop()} on_show_line={Callback::noop()} /> },
    );
    assert_eq!(html.matches("class=\"boundary-row").count(), 8);
    assert_eq!(html.matches("no evidence in this input").count(), 7);
    assert!(!html.to_lowercase().contains("healthy"));
    assert_snapshot("boundary-table-image-pull.en.html", &html);
}

#[test]
fn boundary_table_of_the_healthy_sample_in_chinese() {
    let report = sample("healthy").report;
    let html = render(
        Lang::Zh,
        html! { <BoundaryTable {report} on_show_finding={Callback::noop()} on_show_line={Callback::noop()} /> },
    );
    assert_eq!(html.matches("本输入中没有证据").count(), 8);
    assert_snapshot("boundary-table-healthy.zh.html", &html);
}

#[test]
fn findings_of_the_quota_sample() {
    let report = sample("quota-403").report;
    let html = render(
        Lang::En,
        html! { <Findings summary={std::rc::Rc::new(crate::view_model::summary::summary(&report))} {report} on_show_line={Callback::noop()} /> },
    );
    assert!(html.contains("data-boundary=\"quota-admission\""));
    assert_snapshot("findings-quota-403.en.html", &html);
}

#[test]
fn diagram_of_the_image_pull_sample() {
    let report = sample("image-pull").report;
    let html = render(
        Lang::En,
        html! { <ArchitectureDiagram {report} on_show_finding={Callback::noop()} on_show_line={Callback::noop()} /> },
    );
    assert!(html.contains("data-part=\"kubelet\" data-node=\"lab-worker2\" data-severity=\"error\""));
    assert!(html.contains("data-part=\"container-runtime\" data-severity=\"error\""));
    assert_snapshot("diagram-image-pull.en.html", &html);
}

#[test]
fn timeline_of_the_readiness_sample_in_chinese() {
    let report = sample("readiness").report;
    let total = report.timeline.len();
    let html = render(
        Lang::Zh,
        html! { <Timeline {report} on_show_line={Callback::noop()} /> },
    );
    assert!(html.contains(&format!("显示 {total} / {total} 条")));
    assert_snapshot("timeline-readiness.zh.html", &html);
}

#[test]
fn object_map_of_the_readiness_sample() {
    let report = sample("readiness").report;
    let html = render(
        Lang::En,
        html! { <ObjectMapView {report} on_show_finding={Callback::noop()} on_show_line={Callback::noop()} /> },
    );
    // The Service the finding is about is lit; its slice's endpoints are not ready; the
    // ReplicaSet was not pasted.
    assert!(
        html.contains("data-kind=\"Service\" data-ref=\"Service/exp-ready/echo\" data-severity=\"error\"")
    );
    assert_eq!(html.matches("data-ready=\"false\"").count(), 2);
    assert!(html.contains("data-ref=\"ReplicaSet/exp-ready/echo-5f9b7d6c4\" data-missing=\"true\""));
    assert!(!html.contains("style="), "no inline style (the CSP forbids them)");
    assert_snapshot("object-map-readiness.en.html", &html);
}

#[test]
fn inputs_tabs_and_sample_menu() {
    let state = sample("node-label");
    let html = render(
        Lang::En,
        html! {
            <>
                <SampleMenu current={state.sample} on_sample={Callback::noop()} />
                <ViewSwitcher view={View::Table} on_view={Callback::noop()} />
                <InputsList files={state.files.clone()} unreadable={Vec::new()} report={state.report.clone()}
                    on_remove={Callback::noop()} on_show_line={Callback::noop()} />
            </>
        },
    );
    assert!(html.contains("aria-selected=\"true\" tabindex=\"0\""));
    assert_snapshot("inputs-tabs-menu-node-label.en.html", &html);
}
