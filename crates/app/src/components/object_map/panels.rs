//! The panel of one object of the map: where it was read, its facts, its endpoints.

use super::*;

/// Where an object was read (a button to that line), or that the input does not contain it.
pub(super) fn read_at(t: &Texts, o: &MapObject, on_show_line: &Callback<(String, u32)>) -> Html {
    match &o.at {
        Some(at) => {
            let on_show_line = on_show_line.clone();
            let (source, line) = (at.source.to_string(), at.line);
            html! {
                <p class="map-read-at"><span class="muted">{ t.map_read_at }{ ": " }</span>
                    <button class="where link" translate="no" aria-label={(t.show_in_input)(&at.source, at.line)}
                        onclick={move |_| on_show_line.emit((source.clone(), line))}>{ format!("{}:{}", at.source, at.line) }</button></p>
            }
        }
        None => html! { <p class="map-read-at muted">{ t.map_not_in_input }</p> },
    }
}

#[allow(clippy::too_many_arguments)]
pub(super) fn object_panel(
    t: &Texts,
    report: &Report,
    index: usize,
    o: &MapObject,
    lit: Option<&Lit>,
    on_show_finding: &Callback<usize>,
    on_show_line: &Callback<(String, u32)>,
    activate: &Callback<Item>,
) -> Html {
    let data = status_data(o);
    let words = status_words(t, o);
    // Findings by the numbers the findings view shows (`1.1` for a symptom of finding 1).
    let labels = faultline_render::labels(&report.findings);
    let findings = match lit {
        None => html! { <p class="muted">{ t.map_no_findings }</p> },
        Some(l) => html! {
            <>
                <h4>{ (t.map_findings)(l.findings.len()) }</h4>
                <ul class="part-findings">
                    { for l.findings.iter().filter_map(|&i| report.findings.get(i).map(|f| (i, f))).map(|(i, f)| {
                        let on_show_finding = on_show_finding.clone();
                        let severity = format!("{:?}", f.severity).to_lowercase();
                        html! {
                            <li class="part-finding" data-rule={f.rule.clone()}>
                                <span class={classes!("severity", severity)}>{ (t.severity)(f.severity) }</span>{ " " }
                                <code translate="no">{ &f.rule }</code>{ " " }
                                <button class="link finding-link" onclick={move |_| on_show_finding.emit(i)}>
                                    { (t.finding_link)(labels.get(i).map_or("", String::as_str)) }</button>
                                <p class="summary" translate="no">{ f.summary.as_str() }</p>
                                { evidence_list(t, &f.evidence, on_show_line) }
                            </li>
                        }
                    }) }
                </ul>
            </>
        },
    };
    html! {
        <div class="map-details" data-index={index.to_string()}>
            <h3 translate="no">{ o.object.to_string() }</h3>
            if !data.is_empty() || !words.is_empty() {
                <p class="map-status-line"><span translate="no">{ data }</span>
                    if !words.is_empty() { { " · " }{ words } }</p>
            }
            { read_at(t, o, on_show_line) }
            if !o.facts.is_empty() {
                { facts_table(t, report, &o.facts, on_show_line, activate) }
            }
            { findings }
        </div>
    }
}

pub(super) fn facts_table(
    t: &Texts,
    report: &Report,
    facts: &[Fact],
    on_show_line: &Callback<(String, u32)>,
    activate: &Callback<Item>,
) -> Html {
    html! {
        <div class="facts">
            <h4>{ t.facts_title }</h4>
            <p class="muted">{ t.facts_note }</p>
            <table class="facts-table">
                <tbody>
                    { for facts.iter().map(|f| {
                        let state = format!("{:?}", f.state).to_lowercase();
                        html! {
                            <tr class={classes!("fact", state.clone())} data-fact={serde_id(f)} data-state={state.clone()}>
                                <th scope="row">{ (t.fact_name)(f.fact) }</th>
                                <td class={classes!("fact-state", state)}>{ (t.fact_state)(f.state) }</td>
                                <td>
                                    { evidence_list(t, &f.evidence, on_show_line) }
                                    if !f.objects.is_empty() {
                                        <p class="fact-objects"><span class="muted">{ t.fact_objects }{ " " }</span>
                                            { for f.objects.iter().filter_map(|&i| report.objects.get(i).map(|o| (i, o))).map(|(i, o)| {
                                                let activate = activate.clone();
                                                html! {
                                                    <button class="link" translate="no" onclick={move |_| activate.emit(Item::Object(i))}>
                                                        { format!("{} {}", o.object.kind, o.object.name) }</button>
                                                }
                                            }) }
                                        </p>
                                    }
                                </td>
                            </tr>
                        }
                    }) }
                </tbody>
            </table>
        </div>
    }
}

/// A fact's id as in the report's JSON (`pod-ready`).
pub(super) fn serde_id(f: &Fact) -> String {
    let debug = format!("{:?}", f.fact);
    let mut out = String::new();
    for (i, c) in debug.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('-');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

pub(super) fn endpoint_panel(
    t: &Texts,
    report: &Report,
    slice: usize,
    index: usize,
    on_show_line: &Callback<(String, u32)>,
    activate: &Callback<Item>,
) -> Html {
    let Some(s) = report.objects.get(slice) else {
        return html! {};
    };
    let Some(e) = s.endpoints.get(index) else {
        return html! {};
    };
    let at = s.at.clone().map(|at| {
        let on_show_line = on_show_line.clone();
        let (source, line) = (at.source.to_string(), e.line);
        html! {
            <p class="map-read-at"><span class="muted">{ t.map_read_at }{ ": " }</span>
                <button class="where link" translate="no" aria-label={(t.show_in_input)(&at.source, e.line)}
                    onclick={move |_| on_show_line.emit((source.clone(), line))}>{ format!("{}:{}", at.source, e.line) }</button></p>
        }
    });
    let target = e.target.and_then(|p| report.objects.get(p).map(|o| (p, o))).map(|(p, o)| {
        let activate = activate.clone();
        html! {
            <p><span class="muted">{ t.map_endpoint_is }{ " " }</span>
                <button class="link" translate="no" onclick={move |_| activate.emit(Item::Object(p))}>{ title(o) }</button>
                if e.inferred { <span class="muted">{ " — " }{ t.map_inferred }</span> }
            </p>
        }
    });
    html! {
        <div class="map-details" data-slice={slice.to_string()} data-endpoint={index.to_string()}>
            <h3><span>{ t.map_endpoint_of }{ " " }</span><span translate="no">{ title(s) }</span></h3>
            <p translate="no"><code>{ e.addresses.join(", ") }</code>{ " " }
                { for conditions(e).into_iter().map(|(name, value)| html! { <code>{ format!(" {name}={value}") }</code> }) }</p>
            { for at }
            { for target }
            <p class="muted">{ t.map_conditions_note }</p>
        </div>
    }
}
