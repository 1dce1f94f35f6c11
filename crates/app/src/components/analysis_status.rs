use faultline_report::Phase;
use yew::prelude::*;

use crate::hooks::use_texts::use_texts;
use crate::state::Pending;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub pending: Option<Pending>,
    /// The report shown is of earlier inputs (their analysis was cancelled).
    pub stale: bool,
    pub on_cancel: Callback<()>,
    pub on_reanalyse: Callback<()>,
}

/// The step an analysis is at, as the i18n tables name it.
pub fn step(pending: &Pending) -> &'static str {
    match pending.progress.map(|p| p.phase) {
        None => "starting",
        Some(Phase::Reading) => "reading",
        Some(Phase::Scanning) => "scanning",
        Some(Phase::Relating) => "relating",
        Some(Phase::Diagnosing) => "diagnosing",
        Some(Phase::Judging) => "judging",
        Some(Phase::Timeline) => "timeline",
    }
}

/// While the worker analyses: what it is doing, a bar of the bytes read, the documents read, and
/// Cancel. After a cancel: that the report shown is of earlier inputs, and "Analyse again".
#[function_component(AnalysisStatus)]
pub fn analysis_status(props: &Props) -> Html {
    let t = use_texts();
    if let Some(pending) = &props.pending {
        let step = step(pending);
        let (done, total, documents) = pending.progress.map_or((0, pending.bytes, 0), |p| {
            (p.bytes_done, p.bytes_total, p.documents)
        });
        let mb = |bytes: u64| bytes as f64 / (1024.0 * 1024.0);
        let on_cancel = props.on_cancel.reform(|_: MouseEvent| ());
        return html! {
            <section class="analysis-status running" role="status" aria-label={t.analysis_aria} data-step={step}>
                <div class="analysis-line">
                    <span class="analysis-step">{ (t.analysis_step)(step) }</span>
                    <span class="analysis-counts">{ (t.analysis_progress)(mb(done), mb(total), documents) }</span>
                    <button class="cancel-analysis" onclick={on_cancel}>{ t.cancel }</button>
                </div>
                <progress class="analysis-bar" max={total.max(1).to_string()} value={done.to_string()}
                    aria-label={t.analysis_aria} />
                <p class="stale-note">{ t.stale_running }</p>
            </section>
        };
    }
    if props.stale {
        let on_reanalyse = props.on_reanalyse.reform(|_: MouseEvent| ());
        return html! {
            <section class="analysis-status stale" role="status" aria-label={t.analysis_aria}>
                <p class="stale-note">{ t.stale_cancelled }</p>
                <button class="reanalyse" onclick={on_reanalyse}>{ t.reanalyse }</button>
            </section>
        };
    }
    html! {}
}
