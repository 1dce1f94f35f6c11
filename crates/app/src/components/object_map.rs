use std::rc::Rc;

use faultline_report::{Evidence, Fact, MapEndpoint, MapObject, Report};
use yew::prelude::*;

use crate::hooks::use_narrow::use_narrow;
use crate::hooks::use_texts::use_texts;
use crate::i18n::Texts;
use crate::view_model::map::{self, Direction, Item, Layout, Lit, Options, Section};

mod panels;
use panels::*;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub report: Rc<Report>,
    pub on_show_finding: Callback<usize>,
    pub on_show_line: Callback<(String, u32)>,
    /// The filter every view shares: its namespace narrows the map, and only the findings it keeps
    /// light objects.
    #[prop_or_default]
    pub filter: crate::view_model::summary::Filter,
}

const WIDTH: i32 = 960;
const BOX_W: i32 = 224;
const BOX_H: i32 = 44;
const PITCH: i32 = 54;
const BAND_GAP: i32 = 14;
const TOP: i32 = 40;
const COLUMN_X: [i32; 4] = [8, 248, 488, 728];
/// The width of a box's name, in ems of its font (12.5 px): the box's 224 less its margins (10 and
/// 8). Longer names lose their middle to `…` (the whole name is in the panel, the box's title and its
/// label); each column's clip keeps a wider font's text inside its box all the same.
const NAME_EM: f64 = 16.4;

use crate::view_model::short_name as short;

fn px(v: i32) -> String {
    v.to_string()
}

/// The id of a section's column clip: the text of the boxes in column `column`.
fn clip_id(section: Section, column: usize) -> String {
    format!("map-clip-{}-{column}", section.id())
}

fn severity_class(lit: Option<&Lit>) -> Option<String> {
    lit.map(|l| format!("{:?}", l.severity).to_lowercase())
}

/// `Pod shop/web-1`, `Node n1`.
fn title(o: &MapObject) -> String {
    o.object.to_string()
}

/// The status line's data part: phase, reason, Service type and ports (as the input writes them).
fn status_data(o: &MapObject) -> String {
    let mut parts: Vec<String> = Vec::new();
    parts.extend(o.phase.clone());
    parts.extend(o.reason.clone());
    parts.extend(o.service_type.clone());
    if !o.ports.is_empty() {
        parts.push(o.ports.join(", "));
    }
    parts.join(" · ")
}

/// The status line's words: readiness, restarts, replicas (in the UI's language).
fn status_words(t: &Texts, o: &MapObject) -> String {
    if o.missing {
        return t.map_missing.to_string();
    }
    let mut parts: Vec<String> = Vec::new();
    if let Some([ready, all]) = o.containers {
        parts.push((t.map_ready)(ready, all));
    }
    if o.restarts > 0 {
        parts.push((t.map_restarts)(o.restarts));
    }
    if let Some(r) = o.replicas {
        parts.push((t.map_replicas)(r.desired, r.ready, r.available));
    }
    parts.join(" · ")
}

/// The box's short status (the panel says it all): the reason or else the phase, or a Service's
/// type and first port; and how many are ready. It must fit a box's width beside the kind.
fn box_status(t: &Texts, o: &MapObject) -> (String, String) {
    if o.missing {
        return (String::new(), t.map_missing.to_string());
    }
    let data = o
        .reason
        .clone()
        .or_else(|| o.phase.clone())
        .or_else(|| {
            o.service_type
                .clone()
                .map(|ty| o.ports.first().map_or(ty.clone(), |p| format!("{ty} {p}")))
        })
        .map(|d| short(&d, 18))
        .unwrap_or_default();
    let words = match (o.containers, o.replicas) {
        (Some([ready, all]), _) => (t.map_ready)(ready, all),
        (None, Some(r)) => match (r.ready, r.desired) {
            (Some(ready), Some(desired)) => (t.map_ready)(ready, desired),
            _ => String::new(),
        },
        _ => String::new(),
    };
    (data, words)
}

/// An endpoint's conditions as the slice writes them (`ready=false serving=false`).
fn conditions(e: &MapEndpoint) -> Vec<(&'static str, bool)> {
    [
        ("ready", e.ready),
        ("serving", e.serving),
        ("terminating", e.terminating),
    ]
    .into_iter()
    .filter_map(|(name, value)| value.map(|v| (name, v)))
    .collect()
}

fn focus(id: &str) {
    let Some(element) = gloo::utils::document().get_element_by_id(id) else {
        return;
    };
    if let Ok(function) = js_sys::Reflect::get(&element, &"focus".into()) {
        if let Ok(function) = wasm_bindgen::JsCast::dyn_into::<js_sys::Function>(function) {
            let _ = function.call0(&element);
        }
    }
}

fn box_id(section: Section, index: usize) -> String {
    format!("map-{}-{index}", section.id())
}

/// The evidence of a fact or a finding: each `file:line` opens the input viewer there.
fn evidence_list(t: &Texts, evidence: &[Evidence], on_show_line: &Callback<(String, u32)>) -> Html {
    html! {
        <ul class="evidence">
            { for evidence.iter().map(|e| {
                let on_show_line = on_show_line.clone();
                let (source, line) = (e.source.clone(), e.line);
                html! {
                    <li>
                        <button class="where link" translate="no" aria-label={(t.show_in_input)(&e.source, e.line)}
                            onclick={move |_| on_show_line.emit((source.to_string(), line))}>
                            { format!("{}:{}", e.source, e.line) }</button>{ " " }
                        <code class="path" translate="no">{ (t.evidence_label)(&e.path) }</code>
                        if !e.value.is_empty() { { " " }<span class="value" translate="no">{ &e.value }</span> }
                    </li>
                }
            }) }
        </ul>
    }
}

/// The object graph drawn as two sections of columns, with the panel of the selected object.
#[function_component(ObjectMapView)]
pub fn object_map_view(props: &Props) -> Html {
    let t = use_texts();
    let narrow = use_narrow();
    let report = props.report.clone();
    let options = use_state(Options::default);
    let selected = use_state(|| None::<Item>);
    // Keyed by the report's address, like the timeline: a new analysis is a new report.
    let key = Rc::as_ptr(&report) as usize;
    let lit = {
        let report = report.clone();
        use_memo((key, props.filter.clone()), move |(_, filter)| {
            map::lit(&report, filter)
        })
    };
    // The shared filter's namespace is the map's.
    let drawn = {
        let (report, lit) = (report.clone(), lit.clone());
        use_memo(
            (key, (*options).clone(), props.filter.clone()),
            move |(_, options, filter)| {
                let options = Options {
                    namespace: filter.namespace.clone(),
                    ..options.clone()
                };
                map::object_map(&report, &lit, &options)
            },
        )
    };
    // A new report (an edit, another sample) starts from the top, nothing selected.
    {
        let (options, selected) = (options.clone(), selected.clone());
        use_effect_with(key, move |_| {
            options.set(Options::default());
            selected.set(None);
        });
    }

    let activate = {
        let (options, selected) = (options.clone(), selected.clone());
        Callback::from(move |item: Item| match item {
            Item::Group { key, .. } => {
                let mut next = (*options).clone();
                if !next.expanded.remove(&key) {
                    next.expanded.insert(key);
                }
                options.set(next);
            }
            item => selected.set(Some(item)),
        })
    };

    let section = |section: Section, layout: &Layout, heading: &'static str, columns: [Html; 4]| -> Html {
        if layout.placed.is_empty() {
            return html! {
                <section class="map-section" data-section={section.id()}>
                    <h3>{ heading }</h3>
                    <p class="muted">{ t.map_section_empty }</p>
                </section>
            };
        }
        let y_of = |p: &map::Placed| {
            TOP + i32::try_from(p.row).unwrap_or(0) * PITCH + i32::try_from(p.band).unwrap_or(0) * BAND_GAP
        };
        let height = TOP
            + i32::try_from(layout.rows).unwrap_or(0) * PITCH
            + i32::try_from(layout.bands).unwrap_or(0) * BAND_GAP;
        let links = layout.links.iter().filter_map(|link| {
            let (a, b) = (layout.placed.get(link.from)?, layout.placed.get(link.to)?);
            let (left, right) = if a.column <= b.column { (a, b) } else { (b, a) };
            let x1 = COLUMN_X[left.column.min(3)] + BOX_W;
            let y1 = y_of(left) + BOX_H / 2;
            let x2 = COLUMN_X[right.column.min(3)];
            let y2 = y_of(right) + BOX_H / 2;
            let mid = (x1 + x2) / 2;
            let object = |p: &map::Placed| match p.item {
                Item::Object(i) => Some(i.to_string()),
                _ => None,
            };
            let to_missing = [a, b].iter().any(|p| {
                matches!(p.item, Item::Object(i) if report.objects.get(i).is_some_and(|o| o.missing))
            });
            Some(html! {
                <path class={classes!("map-link", link.kind.id(), link.inferred.then_some("inferred"), to_missing.then_some("to-missing"))}
                    d={format!("M{x1},{y1} C{mid},{y1} {mid},{y2} {x2},{y2}")}
                    data-rel={link.kind.id()} data-from={object(a)} data-to={object(b)} />
            })
        });
        let separators = (1..layout.bands).filter_map(|band| {
            let first = layout.placed.iter().find(|p| p.band == band)?;
            let y = y_of(first) - (PITCH - BOX_H) / 2 - BAND_GAP / 2;
            Some(html! { <line class="map-band" x1="0" x2={px(WIDTH)} y1={px(y)} y2={px(y)} /> })
        });
        let boxes = layout.placed.iter().enumerate().map(|(index, p)| {
            let x = COLUMN_X[p.column.min(3)];
            let y = y_of(p);
            let id = box_id(section, index);
            let is_selected = selected.as_ref() == Some(&p.item);
            let onclick = {
                let (activate, item) = (activate.clone(), p.item.clone());
                Callback::from(move |_: MouseEvent| activate.emit(item.clone()))
            };
            let onkeydown = {
                let (activate, item) = (activate.clone(), p.item.clone());
                let placed = layout.placed.clone();
                Callback::from(move |e: KeyboardEvent| {
                    let direction = match e.key().as_str() {
                        "Enter" | " " => {
                            e.prevent_default();
                            activate.emit(item.clone());
                            return;
                        }
                        "ArrowUp" => Direction::Up,
                        "ArrowDown" => Direction::Down,
                        "ArrowLeft" => Direction::Left,
                        "ArrowRight" => Direction::Right,
                        _ => return,
                    };
                    e.prevent_default();
                    if let Some(next) = map::neighbor(&placed, index, direction) {
                        focus(&box_id(section, next));
                    }
                })
            };
            let text_x = px(x + 10);
            let clip = format!("url(#{})", clip_id(section, p.column.min(3)));
            let (line1_y, line2_y) = (px(y + 18), px(y + 35));
            let rect = html! {
                <rect x={px(x)} y={px(y)} width={px(BOX_W)} height={px(BOX_H)} rx="6" />
            };
            match &p.item {
                Item::Object(i) => {
                    let Some(o) = report.objects.get(*i) else { return html! {} };
                    let l = lit.get(i);
                    let severity = severity_class(l);
                    let severity_attr = severity.clone();
                    let words = status_words(t, o);
                    let data = status_data(o);
                    let (box_data, box_words) = box_status(t, o);
                    let name = match &o.object.namespace {
                        Some(ns) => format!("{} {ns}/{}", o.object.kind, o.object.name),
                        None => format!("{} {}", o.object.kind, o.object.name),
                    };
                    let aria = match l {
                        Some(l) => format!("{} · {}", (t.component_findings)(&name, l.findings.len()), words),
                        None => format!("{name} · {data} {words}"),
                    };
                    let failing = map::failing(o) == Some(true);
                    html! {
                        <g id={id} class={classes!("map-box", "object", l.map(|_| "lit"), severity,
                                o.missing.then_some("missing"), failing.then_some("failing"), is_selected.then_some("selected"))}
                            data-index={i.to_string()} data-kind={o.object.kind.to_string()}
                            data-ref={format!("{}/{}/{}", o.object.kind, o.object.namespace.clone().unwrap_or_default(), o.object.name)}
                            data-severity={severity_attr} data-missing={o.missing.then_some("true")}
                            role="button" tabindex="0" aria-label={aria} aria-pressed={is_selected.to_string()}
                            {onclick} {onkeydown}>
                            <title translate="no">{ title(o) }</title>
                            { rect }
                            <text class="map-name" x={text_x.clone()} y={line1_y} translate="no" clip-path={clip.clone()}>{ crate::view_model::fit_name(&o.object.name, NAME_EM) }</text>
                            <text class="map-status" x={text_x} y={line2_y} clip-path={clip}>
                                <tspan class="map-kind" translate="no">{ o.object.kind.as_str() }</tspan>
                                if !box_data.is_empty() { <tspan translate="no">{ format!(" · {box_data}") }</tspan> }
                                if !box_words.is_empty() { <tspan>{ format!(" · {box_words}") }</tspan> }
                            </text>
                        </g>
                    }
                }
                Item::Endpoint { slice, index: e } => {
                    let Some(endpoint) = report.objects.get(*slice).and_then(|s| s.endpoints.get(*e)) else {
                        return html! {};
                    };
                    let address = endpoint.addresses.join(", ");
                    let not_ready = endpoint.ready == Some(false);
                    let conds = conditions(endpoint);
                    // The box has room for two; `terminating` is shown when it is true (the panel
                    // and the label always say all three).
                    let shown_conds: Vec<(&str, bool)> = conds
                        .iter()
                        .copied()
                        .filter(|(name, value)| *name != "terminating" || *value)
                        .collect();
                    let aria = format!(
                        "{} {} · {}",
                        t.map_col_endpoints,
                        address,
                        conds.iter().map(|(n, v)| format!("{n}={v}")).collect::<Vec<_>>().join(" ")
                    );
                    html! {
                        <g id={id} class={classes!("map-box", "endpoint", not_ready.then_some("not-ready"), endpoint.inferred.then_some("inferred"), is_selected.then_some("selected"))}
                            data-slice={slice.to_string()} data-endpoint={e.to_string()}
                            data-ready={endpoint.ready.map(|r| r.to_string())} data-serving={endpoint.serving.map(|r| r.to_string())}
                            data-terminating={endpoint.terminating.map(|r| r.to_string())}
                            role="button" tabindex="0" aria-label={aria} aria-pressed={is_selected.to_string()}
                            {onclick} {onkeydown}>
                            { rect }
                            <text class="map-name" x={text_x.clone()} y={line1_y} translate="no" clip-path={clip.clone()}>{ crate::view_model::fit_name(&address, NAME_EM) }</text>
                            <text class="map-status" x={text_x} y={line2_y} translate="no" clip-path={clip}>
                                { for shown_conds.iter().enumerate().map(|(n, (name, value))| html! {
                                    <tspan class={if *value == (*name == "terminating") { "cond-bad" } else { "cond-ok" }}>
                                        { format!("{}{name}={value}", if n > 0 { " " } else { "" }) }</tspan>
                                }) }
                            </text>
                        </g>
                    }
                }
                Item::Group { key, hidden, hidden_bad, expanded, .. } => {
                    let label = match (key.section, p.column) {
                        (Section::Services, _) => (t.map_more_endpoints)(*hidden, *hidden_bad),
                        (_, 3) => (t.map_more_nodes)(*hidden, *hidden_bad),
                        _ => (t.map_more_pods)(*hidden, *hidden_bad),
                    };
                    let sub = if *expanded { (t.map_capped)(*hidden) } else { t.map_expand.to_string() };
                    html! {
                        <g id={id} class={classes!("map-box", "group", (*hidden_bad > 0).then_some("failing"))}
                            data-group={key.owner.map(|o| o.to_string())} data-hidden={hidden.to_string()}
                            data-hidden-bad={hidden_bad.to_string()}
                            role="button" tabindex="0" aria-label={format!("{label} · {sub}")} aria-expanded={expanded.to_string()}
                            {onclick} {onkeydown}>
                            { rect }
                            <text class="map-name" x={text_x.clone()} y={line1_y} clip-path={clip.clone()}>{ label }</text>
                            <text class="map-status" x={text_x} y={line2_y} clip-path={clip}>{ sub }</text>
                        </g>
                    }
                }
                Item::NoSlice { .. } => html! {
                    <g id={id} class="map-box note missing" role="note" tabindex="0" aria-label={t.map_no_slice} {onkeydown}>
                        { rect }
                        <text class="map-status" x={text_x} y={px(y + 27)}>{ t.map_no_slice }</text>
                    </g>
                },
            }
        });
        // The same items as a list, for a phone (CSS shows it under 600 px instead of the drawing):
        // band by band, each chain in column order (Service, slice, endpoints, Pods; or workload,
        // ReplicaSet, Pods, nodes), indented by its column, each a button that selects as a box does.
        let mut order: Vec<usize> = (0..layout.placed.len()).collect();
        order.sort_by_key(|&n| {
            let p = &layout.placed[n];
            (p.band, p.column, p.row)
        });
        let list = order.into_iter().filter_map(|n| {
            let p = layout.placed.get(n)?;
            let onclick = {
                let (activate, item) = (activate.clone(), p.item.clone());
                Callback::from(move |_: MouseEvent| activate.emit(item.clone()))
            };
            let is_selected = selected.as_ref() == Some(&p.item);
            let (class, words): (Option<String>, Html) = match &p.item {
                Item::Object(i) => {
                    let o = report.objects.get(*i)?;
                    let (box_data, box_words) = box_status(t, o);
                    let status = [box_data, box_words].into_iter().filter(|w| !w.is_empty()).collect::<Vec<_>>().join(" · ");
                    let name = match &o.object.namespace {
                        Some(ns) => format!("{ns}/{}", o.object.name),
                        None => o.object.name.to_string(),
                    };
                    (severity_class(lit.get(i)), html! { <>
                        <span class="map-kind" translate="no">{ o.object.kind.as_str() }</span>{ " " }
                        <span class="map-name" translate="no">{ name }</span>
                        if !status.is_empty() { <span class="map-status">{ format!(" · {status}") }</span> }
                    </> })
                }
                Item::Endpoint { slice, index: e } => {
                    let endpoint = report.objects.get(*slice).and_then(|s| s.endpoints.get(*e))?;
                    let conds = conditions(endpoint).iter().map(|(n, v)| format!("{n}={v}")).collect::<Vec<_>>().join(" ");
                    let bad = (endpoint.ready == Some(false)).then(|| "warning".to_string());
                    (bad, html! { <>
                        <span class="map-kind">{ t.map_col_endpoints }</span>{ " " }
                        <span class="map-name" translate="no">{ endpoint.addresses.join(", ") }</span>
                        <span class="map-status" translate="no">{ format!(" · {conds}") }</span>
                    </> })
                }
                Item::Group { key, hidden, hidden_bad, expanded, .. } => {
                    let label = match (key.section, p.column) {
                        (Section::Services, _) => (t.map_more_endpoints)(*hidden, *hidden_bad),
                        (_, 3) => (t.map_more_nodes)(*hidden, *hidden_bad),
                        _ => (t.map_more_pods)(*hidden, *hidden_bad),
                    };
                    let sub = if *expanded { (t.map_capped)(*hidden) } else { t.map_expand.to_string() };
                    (None, html! { <>{ label }<span class="map-status">{ format!(" · {sub}") }</span></> })
                }
                Item::NoSlice { .. } => return Some(html! {
                    <li class={format!("map-item col-{} note", p.column)}>{ t.map_no_slice }</li>
                }),
            };
            Some(html! {
                <li class={classes!("map-item", format!("col-{}", p.column), class, p.column.eq(&0).then_some("chain-start"))}>
                    <button type="button" class="map-item-button" aria-pressed={is_selected.to_string()} {onclick}>{ words }</button>
                </li>
            })
        });
        html! {
            <section class="map-section" data-section={section.id()}>
                <h3>{ heading }</h3>
                if narrow {
                    <ol class="map-list" aria-label={heading}>{ for list }</ol>
                } else {
                <svg class="object-map" viewBox={format!("0 0 {WIDTH} {height}")} role="group" aria-label={heading}
                    data-section={section.id()}>
                    // A box's text never reaches past its box into the next column.
                    <defs>{ for (0..4).map(|c| html! {
                        <clipPath id={clip_id(section, c)}>
                            <rect x={px(COLUMN_X[c] + 2)} y="0" width={px(BOX_W - 8)} height={px(height)} />
                        </clipPath>
                    }) }</defs>
                    { for columns.into_iter().enumerate().map(|(c, label)| html! {
                        <text class="map-column" x={px(COLUMN_X[c] + 2)} y="30">{ label }</text>
                    }) }
                    { for separators }
                    { for links }
                    { for boxes }
                </svg>
                }
                if layout.bands < layout.total_bands {
                    <button class="map-more" onclick={
                        let options = options.clone();
                        move |_| {
                            let mut next = (*options).clone();
                            next.bands += map::BANDS_PER_PAGE;
                            options.set(next);
                        }
                    }>{ (t.map_show_more)((layout.total_bands - layout.bands).min(map::BANDS_PER_PAGE)) }</button>
                }
            </section>
        }
    };
    let kind = |k: &'static str| html! { <tspan translate="no">{ k }</tspan> };

    let panel = match selected.as_ref() {
        None => html! { <p class="muted">{ t.map_pick }</p> },
        Some(Item::Object(i)) => match report.objects.get(*i) {
            None => html! {},
            Some(o) => object_panel(
                t,
                &report,
                *i,
                o,
                lit.get(i),
                &props.on_show_finding,
                &props.on_show_line,
                &activate,
            ),
        },
        Some(Item::Endpoint { slice, index }) => {
            endpoint_panel(t, &report, *slice, *index, &props.on_show_line, &activate)
        }
        Some(_) => html! {},
    };

    let others = (!drawn.others.is_empty()).then(|| {
        html! {
            <section class="map-section map-others" data-section="others">
                <h3>{ (t.map_others)(drawn.others_total) }</h3>
                if drawn.others.len() < drawn.others_total {
                    <p class="muted">{ (t.map_others_note)(drawn.others.len()) }</p>
                }
                <ul>
                    { for drawn.others.iter().filter_map(|&i| report.objects.get(i).map(|o| (i, o))).map(|(i, o)| {
                        let l = lit.get(&i);
                        let activate = activate.clone();
                        html! {
                            <li>
                                <button class={classes!("map-other", l.map(|_| "lit"), severity_class(l), o.missing.then_some("missing"))}
                                    data-index={i.to_string()} translate="no" aria-pressed={(selected.as_ref() == Some(&Item::Object(i))).to_string()}
                                    onclick={move |_| activate.emit(Item::Object(i))}>{ title(o) }</button>
                            </li>
                        }
                    }) }
                </ul>
            </section>
        }
    });

    html! {
        <div class="object-map-view">
            <h2>{ t.view_map }</h2>
            <p class="note">{ t.map_note }</p>
            if report.objects.is_empty() {
                <p class="muted map-empty">{ t.map_empty }</p>
            } else {
                <div class="map-controls">
                    <ul class="map-legend">
                        <li><svg width="22" height="12" aria-hidden="true"><rect class="legend-lit" x="1" y="1" width="20" height="10" rx="2" /></svg>{ t.map_legend_lit }</li>
                        <li><svg width="22" height="12" aria-hidden="true"><rect class="legend-missing" x="1" y="1" width="20" height="10" rx="2" /></svg>{ t.map_legend_missing }</li>
                        <li><svg width="22" height="12" aria-hidden="true"><line class="map-link inferred" x1="0" y1="6" x2="22" y2="6" /></svg>{ t.map_legend_inferred }</li>
                        <li><svg width="22" height="12" aria-hidden="true"><line class="map-link selects" x1="0" y1="6" x2="22" y2="6" /></svg>{ t.map_legend_selector }</li>
                    </ul>
                </div>
                <p class="muted map-help">{ t.map_help }</p>
                <section class="map-panel part-panel" aria-live="polite">{ panel }</section>
                { section(Section::Workloads, &drawn.workloads, t.map_workloads,
                    [html! {
                        // Two lines: the four kinds do not fit one column's width.
                        <>
                            <tspan translate="no" x={px(COLUMN_X[0] + 2)} y="14">{ "Deployment · StatefulSet" }</tspan>
                            <tspan translate="no" x={px(COLUMN_X[0] + 2)} y="30">{ "DaemonSet · Job" }</tspan>
                        </>
                    }, kind("ReplicaSet"), kind("Pod"), kind("Node")]) }
                { section(Section::Services, &drawn.services, t.map_services,
                    [kind("Service"), kind("EndpointSlice"), html! { <tspan>{ t.map_col_endpoints }</tspan> }, kind("Pod")]) }
                { for others }
            }
        </div>
    }
}
