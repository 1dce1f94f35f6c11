use gloo::events::EventListener;
use std::rc::Rc;
use yew::prelude::*;

use crate::components::analysis_status::AnalysisStatus;
use crate::components::boundary_table::BoundaryTable;
use crate::components::diagnosis_cue::DiagnosisCue;
use crate::components::diagram::ArchitectureDiagram;
use crate::components::export_menu::ExportMenu;
use crate::components::filter_bar::FilterBar;
use crate::components::findings::Findings;
use crate::components::follow_up::FollowUpInput;
use crate::components::input_panel::{InputPanel, LargePaste};
use crate::components::input_viewer::InputViewer;
use crate::components::inputs_list::InputsList;
use crate::components::language_switch::LanguageSwitch;
use crate::components::object_map::ObjectMapView;
use crate::components::paste_guide::PasteGuide;
use crate::components::rules_page::RulesPage;
use crate::components::sample_menu::SampleMenu;
use crate::components::secrets_panel::SecretsPanel;
use crate::components::timeline::Timeline;
use crate::components::view_switcher::ViewSwitcher;
use crate::components::what_changed::WhatChanged;
use crate::hooks::use_engine_worker::{use_engine_worker, viewed_input};
use crate::hooks::use_leave_guard::use_leave_guard;
use crate::i18n::Lang;
use crate::route::{self, View};
use crate::state::input::is_large_paste;
use crate::state::{Action, State, Text};

/// A callback that turns its value into an action and dispatches it.
fn dispatcher<T: 'static>(state: &UseReducerHandle<State>, make: fn(T) -> Action) -> Callback<T> {
    let state = state.clone();
    Callback::from(move |value| state.dispatch(make(value)))
}

fn location_hash() -> String {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default()
}

/// The browser's language; nothing remembers a choice (the page stores nothing).
fn browser_lang() -> Lang {
    web_sys::window()
        .and_then(|w| w.navigator().language())
        .map_or(Lang::En, |tag| Lang::from_tag(&tag))
}

#[function_component(App)]
pub fn app() -> Html {
    let state = use_reducer(|| State::open(route::parse(&location_hash()), browser_lang()));
    let on_paste = dispatcher(&state, Action::EditPaste);
    let on_pasted = dispatcher(&state, Action::Pasted);
    let on_files_arriving = dispatcher(&state, |()| Action::FilesArriving);
    let on_restore_previous = dispatcher(&state, |()| Action::RestorePrevious);
    let on_join_previous = dispatcher(&state, |()| Action::JoinPrevious);
    let on_file = dispatcher(&state, Action::AddFile);
    let on_large_paste = dispatcher(&state, |(text, into_text)| Action::PasteLarge(text, into_text));
    let on_edit_large = dispatcher(&state, |(name, text)| Action::EditLargePaste { name, text });
    let on_remove = dispatcher(&state, Action::RemoveFile);
    let on_unreadable = dispatcher(&state, |(name, reason)| Action::FileUnreadable { name, reason });
    let on_sample = dispatcher(&state, Action::LoadSample);
    let on_redact = dispatcher(&state, |()| Action::Redact);
    let on_undo = dispatcher(&state, |()| Action::UndoRedaction);
    let on_include_network = dispatcher(&state, Action::SetIncludeNetwork);
    let on_cancel = dispatcher(&state, |()| Action::Cancel);
    let on_reanalyse = dispatcher(&state, |()| Action::Reanalyse);
    use_engine_worker(&state);
    // The rules' documentation, for the views that show it: asked of the worker when first shown.
    let docs = {
        let dispatch = state.dispatcher();
        let want = (*use_memo((), move |()| {
            Callback::from(move |()| dispatch.dispatch(Action::WantDocs))
        }))
        .clone();
        crate::rule_docs::DocsContext {
            loaded: state.docs_loaded,
            want,
        }
    };
    // The user's input, and the incident they set aside, are theirs to lose.
    let guarded = state.has_own_input() || state.previous.is_some();
    use_leave_guard(guarded);
    let input_names = state.input_names();
    let on_view = dispatcher(&state, Action::SetView);
    let on_lang = dispatcher(&state, Action::SetLang);
    let on_show_line = dispatcher(&state, |(source, line)| Action::ShowLine { source, line });
    let on_show_finding = dispatcher(&state, Action::ShowFinding);
    let on_filter = dispatcher(&state, Action::SetFilter);
    let on_guide = dispatcher(&state, |entry| Action::Guide(Some(entry)));
    let on_close_guide = dispatcher(&state, |()| Action::Guide(None));
    let on_follow_up = dispatcher(&state, Action::OpenFollowUp);
    let on_edit_follow_up = dispatcher(&state, Action::EditFollowUp);
    let on_close_follow_up = dispatcher(&state, |()| Action::CloseFollowUp);
    let on_restore = {
        let state = state.clone();
        Callback::from(move |_: MouseEvent| state.dispatch(Action::RestoreSample))
    };
    // A sample replaces the user's own input only once they agree.
    let confirm = state
        .has_own_input()
        .then_some(crate::i18n::texts(state.lang).confirm_sample);
    let on_example = {
        let state = state.clone();
        Callback::from(move |()| {
            if crate::components::sample_menu::confirmed(confirm) {
                state.dispatch(Action::LoadSample(crate::samples::DEFAULT_SAMPLE));
            }
        })
    };
    let on_clear = {
        let state = state.clone();
        Callback::from(move |_: MouseEvent| state.dispatch(Action::Clear))
    };

    // The hash follows the sample and view (replaced, not pushed: no history entry per click).
    use_effect_with((state.sample, state.view), |(sample, view)| {
        let hash = route::format(*sample, *view);
        if location_hash() != hash {
            if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
                let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&hash));
            }
        }
    });
    // A link to another sample or view inside the page (`#sample=quota-403&view=table`).
    {
        let state = state.clone();
        use_effect_with((), move |_| {
            let listener = web_sys::window().map(|window| {
                EventListener::new(&window, "hashchange", move |_| {
                    state.dispatch(Action::Route(route::parse(&location_hash())));
                })
            });
            move || drop(listener)
        });
    }
    use_effect_with(state.lang, |lang| {
        let document = gloo::utils::document();
        if let Some(root) = document.document_element() {
            let _ = root.set_attribute("lang", lang.tag());
        }
        document.set_title(crate::i18n::texts(*lang).page_title);
    });

    let t = crate::i18n::texts(state.lang);
    let large_pastes: Vec<LargePaste> = state
        .files
        .iter()
        .filter(|f| is_large_paste(&f.name))
        .filter_map(|f| match f.text {
            Text::File { id, bytes } => Some(LargePaste {
                name: f.name.clone(),
                bytes,
                id,
            }),
            Text::Inline(_) => None,
        })
        .collect();
    let viewer = viewed_input(&state).map(|(input, line)| {
        let unread = crate::view_model::unread_ranges(&state.report, &input.name);
        let on_close = dispatcher(&state, |()| Action::CloseViewer);
        html! { <InputViewer {input} {line} excerpt={state.excerpt.clone()} {unread} {on_close} /> }
    });
    // The report as shown and exported: its ages placed against the capture moment the user set,
    // if any (only the timeline is placed again, from the report alone).
    let report = {
        let report = state.report.clone();
        let captured_at = state.captured_at;
        let key = (Rc::as_ptr(&report) as usize, captured_at);
        (*use_memo(key, move |(_, at)| match at {
            Some(_) => Rc::new(crate::state::anchored(&report, *at)),
            None => report.clone(),
        }))
        .clone()
    };
    let on_capture = {
        let state = state.clone();
        Callback::from(move |at| state.dispatch(Action::SetCapture(at)))
    };
    let shown = report.clone();
    let key = std::rc::Rc::as_ptr(&report) as usize;
    let summary = {
        let report = report.clone();
        use_memo(key, move |_| crate::view_model::summary::summary(&report))
    };
    let kept = {
        let report = report.clone();
        use_memo((key, state.filter.clone()), move |(_, filter)| {
            crate::view_model::summary::kept(&report, filter).len()
        })
    };
    let has_content =
        !report.findings.is_empty() || !report.objects.is_empty() || !report.timeline.is_empty();
    let filter_bar = (!matches!(state.view, View::Rules) && has_content).then(|| html! {
        <FilterBar filter={state.filter.clone()} namespaces={summary.namespaces.clone()} kinds={summary.kinds.clone()}
            shown={*kept} total={report.findings.len()} on_filter={on_filter.clone()} />
    });
    let view = match state.view {
        View::Findings => html! {
            <Findings report={report} summary={summary.clone()} selected={state.selected_finding} on_show_line={on_show_line.clone()}
                on_follow_up={on_follow_up.clone()} on_guide={on_guide.clone()}
                filter={state.filter.clone()} on_filter={on_filter.clone()} on_show_finding={on_show_finding.clone()} />
        },
        View::Diagram => html! {
            <ArchitectureDiagram report={report} on_show_finding={on_show_finding.clone()} on_show_line={on_show_line.clone()}
                filter={state.filter.clone()} />
        },
        View::Timeline => html! {
            <Timeline report={report} on_show_line={on_show_line.clone()}
                captured_set={state.captured_at.is_some()} {on_capture}
                filter={state.filter.clone()} />
        },
        View::Table => html! {
            <BoundaryTable report={report} on_show_finding={on_show_finding.clone()} on_show_line={on_show_line.clone()}
                filter={state.filter.clone()} />
        },
        View::Map => html! {
            <ObjectMapView report={report} on_show_finding={on_show_finding.clone()} on_show_line={on_show_line.clone()}
                filter={state.filter.clone()} />
        },
        View::Rules => html! { <RulesPage lang={state.lang} /> },
    };
    // `data-leave-guard` says whether leaving asks first: the guard is set in an effect after the
    // render, so a test that closes the page waits for it, not for its own keystrokes.
    // What the worker is doing, for tests and the benchmark: the report arrives while "running" ends,
    // the secrets while "scanning" ends.
    let analysis = if state.analysing() {
        "running"
    } else if state.scanning() {
        "scanning"
    } else {
        "idle"
    };
    html! {
        <ContextProvider<Lang> context={state.lang}>
        <ContextProvider<crate::rule_docs::DocsContext> context={docs}>
        <div class="app" data-analysis={analysis} data-leave-guard={guarded.to_string()}>
            <button type="button" class="skip-link" onclick={Callback::from(|_: MouseEvent| {
                if let Some(results) = gloo::utils::document().get_element_by_id("results")
                    .and_then(|e| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(e).ok()) {
                    let _ = results.focus();
                }
            })}>{ t.skip_to_diagnosis }</button>
            <header class="top">
                <div class="brand">
                    <h1 translate="no">{ "Faultline" }</h1>
                    <LanguageSwitch lang={state.lang} {on_lang} />
                </div>
                <p class="tagline">{ t.tagline }</p>
            </header>
            <main class={classes!("columns", matches!(state.view, View::Table | View::Timeline | View::Map | View::Rules).then_some("wide"))}>
                <section class="inputs" aria-label={t.inputs_aria}>
                    <div class="samples">
                        <SampleMenu current={state.sample} {on_sample} {confirm} />
                        <button class="clear" onclick={on_clear}>{ t.clear_all }</button>
                    </div>
                    if state.sample.is_some() {
                        <p class="sample-note" role="note"><strong>{ t.sample_note }</strong>{ " " }{ t.sample_note_more }</p>
                    } else if state.removed_sample.is_some() {
                        <p class="sample-removed" role="status">{ t.sample_removed }{ " — " }
                            <button type="button" class="link restore" onclick={on_restore}>{ t.restore }</button></p>
                    }
                    if let Some(previous) = &state.previous {
                        <p class="previous-incident" role="status">{ (t.previous_incident)(previous.inputs()) }{ " " }
                            <button type="button" class="link restore-previous" onclick={on_restore_previous.reform(|_: MouseEvent| ())}>{ t.restore_previous }</button>
                            if state.has_own_input() && state.sample.is_none() {
                                { " · " }
                                <button type="button" class="link join-previous" onclick={on_join_previous.reform(|_: MouseEvent| ())}>{ t.join_previous }</button>
                            }
                        </p>
                    }
                    <InputPanel paste={AttrValue::from(state.paste.clone())} {on_paste} {on_pasted} {on_files_arriving} {on_file} {on_unreadable}
                        {on_large_paste} large_pastes={large_pastes} {on_edit_large} on_show_line={on_show_line.clone()}
                        {on_example} on_guide={on_guide.reform(|()| None)} sample_open={state.sample.is_some()} />
                    <DiagnosisCue report={state.report.clone()} />
                    if let Some(command) = &state.follow_up {
                        <FollowUpInput command={AttrValue::from(command.clone())}
                            text={AttrValue::from(state.files.iter().find(|f| f.name == *command)
                                .and_then(|f| f.text.inline()).unwrap_or_default().to_string())}
                            on_edit={on_edit_follow_up} on_close={on_close_follow_up} />
                    }
                    <InputsList files={state.files.clone()} follow_ups={state.follow_ups.clone()} unreadable={state.unreadable.clone()} report={state.report.clone()}
                        timings={state.timings.clone()}
                        {on_remove} on_show_line={on_show_line.clone()} />
                    { for viewer }
                </section>
                <section id="results" tabindex="-1" class={classes!("results", (state.analysing() || state.stale).then_some("stale"))}
                    aria-label={t.results_aria} aria-busy={state.analysing().to_string()}>
                    <AnalysisStatus pending={state.pending.clone().filter(|p| !p.reported)} stale={state.stale}
                        {on_cancel} {on_reanalyse} />
                    if !input_names.is_empty() {
                        <SecretsPanel secrets={state.secrets.clone()} scanning={state.scanning()} inputs={input_names}
                            include_network={state.include_network}
                            can_undo={state.before_redaction.is_some()} {on_redact} {on_undo} {on_include_network} />
                    }
                    if let Some(entry) = state.guide {
                        <PasteGuide {entry} on_close={on_close_guide} />
                    }
                    if state.sample.is_some() {
                        <p class="sample-note results-note" role="note">{ t.sample_note }</p>
                    }
                    if let Some(changes) = state.changes.clone() {
                        <WhatChanged {changes} />
                    }
                    <ViewSwitcher view={state.view} {on_view} />
                    <ExportMenu report={shown} lang={state.lang} redacted={state.is_redacted()} />
                    // Always one element here: Yew matches unkeyed children from the end, so a child
                    // that came and went recreated the tabs before it (and lost their focus).
                    <div class="filter-slot">{ for filter_bar }</div>
                    <div class="view" role="tabpanel" aria-labelledby={format!("tab-{}", state.view.id())}
                        data-view={state.view.id()}>{ view }</div>
                </section>
            </main>
        </div>
        </ContextProvider<crate::rule_docs::DocsContext>>
        </ContextProvider<Lang>>
    }
}
