use yew::prelude::*;

use crate::components::findings::Findings;
use crate::components::input_panel::InputPanel;
use crate::components::inputs_list::InputsList;
use crate::components::secrets_panel::SecretsPanel;
use crate::hooks::use_leave_guard::use_leave_guard;
use crate::samples::SAMPLES;
use crate::state::{Action, State};

/// A callback that turns its value into an action and dispatches it.
fn dispatcher<T: 'static>(state: &UseReducerHandle<State>, make: fn(T) -> Action) -> Callback<T> {
    let state = state.clone();
    Callback::from(move |value| state.dispatch(make(value)))
}

#[function_component(App)]
pub fn app() -> Html {
    let state = use_reducer(State::default);
    let on_paste = dispatcher(&state, Action::EditPaste);
    let on_file = dispatcher(&state, Action::AddFile);
    let on_remove = dispatcher(&state, Action::RemoveFile);
    let on_unreadable = dispatcher(&state, |(name, reason)| Action::FileUnreadable { name, reason });
    let on_sample = dispatcher(&state, Action::LoadSample);
    let on_redact = dispatcher(&state, |()| Action::Redact);
    let on_undo = dispatcher(&state, |()| Action::UndoRedaction);
    let on_include_network = dispatcher(&state, Action::SetIncludeNetwork);
    use_leave_guard(state.has_own_input());
    let input_names = state.input_names();
    let on_clear = {
        let state = state.clone();
        Callback::from(move |_: MouseEvent| state.dispatch(Action::Clear))
    };
    let sample_buttons = SAMPLES.iter().map(|sample| {
        let on_sample = on_sample.clone();
        let id = sample.id;
        let active = state.sample == Some(id);
        html! {
            <button class={classes!("sample", active.then_some("active"))} aria-pressed={active.to_string()}
                onclick={move |_| on_sample.emit(id)}>{ sample.title }</button>
        }
    });
    html! {
        <div class="app">
            <header class="top">
                <h1>{ "Faultline" }</h1>
                <p class="tagline">{ "Paste kubectl output; see which fault boundary the evidence points to. Nothing leaves this page." }</p>
            </header>
            <main class="columns">
                <section class="inputs" aria-label="Inputs">
                    <div class="samples"><span class="label">{ "Samples:" }</span>{ for sample_buttons }
                        <button class="clear" onclick={on_clear}>{ "Clear all" }</button>
                    </div>
                    <InputPanel paste={state.paste.clone()} {on_paste} {on_file} {on_unreadable} />
                    <InputsList files={state.files.clone()} unreadable={state.unreadable.clone()} report={state.report.clone()} {on_remove} />
                </section>
                <section class="results" aria-label="Diagnosis">
                    if !input_names.is_empty() {
                        <SecretsPanel secrets={state.secrets.clone()} inputs={input_names} include_network={state.include_network}
                            can_undo={state.before_redaction.is_some()} {on_redact} {on_undo} {on_include_network} />
                    }
                    <Findings report={state.report.clone()} />
                </section>
            </main>
        </div>
    }
}
