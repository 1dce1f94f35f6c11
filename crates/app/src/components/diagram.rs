use std::rc::Rc;

use faultline_report::Report;
use yew::prelude::*;

use crate::hooks::use_narrow::use_narrow;
use crate::hooks::use_texts::use_texts;
use crate::i18n::Texts;
use crate::view_model::diagram::{self, Diagram, Flow, Lit, Part, Target};

#[derive(Properties, PartialEq)]
pub struct Props {
    pub report: Rc<Report>,
    pub on_show_finding: Callback<usize>,
    pub on_show_line: Callback<(String, u32)>,
    /// The filter every view shares: only the findings it keeps light components.
    #[prop_or_default]
    pub filter: crate::view_model::summary::Filter,
}

/// A box's place in the drawing's coordinates.
#[derive(Clone, Copy)]
struct Rect {
    x: i32,
    y: i32,
    w: i32,
    h: i32,
}

const fn rect(x: i32, y: i32, w: i32, h: i32) -> Rect {
    Rect { x, y, w, h }
}

const KUBELET_Y: i32 = 300;
const KUBELET_W: i32 = 118;
const KUBELET_GAP: i32 = 10;

fn place(part: Part) -> Rect {
    match part {
        Part::Client => rect(20, 30, 160, 48),
        Part::ApiServer => rect(380, 30, 200, 48),
        Part::Etcd => rect(780, 30, 160, 48),
        Part::ControllerManager => rect(20, 150, 230, 48),
        Part::Scheduler => rect(270, 150, 170, 48),
        Part::CloudControllerManager => rect(700, 150, 240, 48),
        Part::Kubelet => rect(20, KUBELET_Y, KUBELET_W, 48),
        Part::Runtime => rect(20, 410, 260, 44),
        Part::Volumes => rect(320, 410, 170, 44),
        Part::Containers => rect(20, 500, 260, 44),
        Part::ProxyCni => rect(690, 300, 250, 48),
        Part::ServiceSlice => rect(690, 410, 250, 48),
    }
}

/// An edge with what flows along it; `anchor` is where its label sits.
fn edge(t: &Texts, from: (i32, i32), to: (i32, i32), flow: Flow, label_at: (i32, i32), dashed: bool) -> Html {
    let lines: Vec<&str> = (t.edge)(flow).split(" / ").collect();
    let text = if lines.len() > 1 && flow == Flow::WatchAssignedPods {
        html! {
            <text class="edge-label" x={label_at.0.to_string()} y={label_at.1.to_string()}>
                <tspan x={label_at.0.to_string()}>{ lines[0] }</tspan>
                <tspan x={label_at.0.to_string()} dy="16">{ lines[1..].join(" / ") }</tspan>
            </text>
        }
    } else {
        html! {
            <text class="edge-label" x={label_at.0.to_string()} y={label_at.1.to_string()}>{ (t.edge)(flow) }</text>
        }
    };
    html! {
        <g class={classes!("edge", dashed.then_some("dashed"))}>
            <line x1={from.0.to_string()} y1={from.1.to_string()} x2={to.0.to_string()} y2={to.1.to_string()}
                marker-end="url(#arrow)" />
            { text }
        </g>
    }
}

/// The logical architecture as SVG, with the components the findings implicate lit by severity.
#[function_component(ArchitectureDiagram)]
pub fn architecture_diagram(props: &Props) -> Html {
    let t = use_texts();
    let narrow = use_narrow();
    let model = use_memo(
        (props.report.clone(), props.filter.clone()),
        |(report, filter)| diagram::diagram(report, filter),
    );
    // Findings by the numbers the findings view shows (`1.1` for a symptom of finding 1).
    let labels = use_memo(props.report.clone(), |report| {
        faultline_render::labels(&report.findings)
    });
    let selected = use_state(|| None::<Target>);
    let report = &props.report;
    let (hidden_count, hidden_lit) = (model.hidden_nodes, model.hidden_implicated);

    let draw = |target: Target, at: Rect, label: String, sublabel: Option<String>, dashed: bool| -> Html {
        let lit: Option<&Lit> = model.lit(target.part, target.node.as_deref());
        let severity = lit.map(|l| format!("{:?}", l.severity).to_lowercase());
        let severity_attr = severity.clone();
        let is_selected = selected.as_ref() == Some(&target);
        let name = match &target.node {
            Some(node) if node == diagram::MORE_NODES => {
                format!("{label} · {}", (t.more_nodes)(hidden_count, hidden_lit))
            }
            Some(node) => format!("{label} · {node}"),
            None => label.clone(),
        };
        let aria = match lit {
            Some(l) => (t.component_findings)(&name, l.findings.len()),
            None => name,
        };
        let onclick = {
            let selected = selected.clone();
            let target = target.clone();
            Callback::from(move |_: MouseEvent| selected.set(Some(target.clone())))
        };
        let onkeydown = {
            let selected = selected.clone();
            let target = target.clone();
            Callback::from(move |e: KeyboardEvent| {
                if e.key() == "Enter" || e.key() == " " {
                    e.prevent_default();
                    selected.set(Some(target.clone()));
                }
            })
        };
        let cx = at.x + at.w / 2;
        let (label_y, sub_y) = if sublabel.is_some() {
            (at.y + 20, at.y + 37)
        } else {
            (at.y + at.h / 2 + 5, 0)
        };
        html! {
            <g class={classes!("part", lit.map(|_| "lit"), severity, is_selected.then_some("selected"), dashed.then_some("dashed"))}
                data-part={target.part.id()} data-node={target.node.clone()} data-severity={severity_attr}
                role="button" tabindex="0" aria-label={aria} aria-pressed={is_selected.to_string()}
                {onclick} {onkeydown}>
                <rect x={at.x.to_string()} y={at.y.to_string()} width={at.w.to_string()} height={at.h.to_string()} rx="8" />
                <text class="part-label" x={cx.to_string()} y={label_y.to_string()} text-anchor="middle">{ label }</text>
                if let Some(sub) = sublabel {
                    <text class="part-sub" x={cx.to_string()} y={sub_y.to_string()} text-anchor="middle"
                        translate={if target.node.is_some() { "no" } else { "yes" }}>{ sub }</text>
                }
            </g>
        }
    };
    let simple = |part: Part| {
        let dashed = part == Part::CloudControllerManager;
        let sub = dashed.then(|| format!("({})", t.optional));
        draw(
            Target { part, node: None },
            place(part),
            (t.component)(part).to_string(),
            sub,
            dashed,
        )
    };

    // One kubelet per node named in the input; an unnamed one when a finding cannot name its node.
    let Diagram {
        nodes,
        hidden_nodes,
        hidden_implicated,
        unnamed,
        ..
    } = model.as_ref();
    let mut kubelets: Vec<Option<String>> = nodes.iter().cloned().map(Some).collect();
    if *unnamed {
        kubelets.push(None);
    }
    // Beyond four, the rest are one box that lists their findings when selected.
    let more_at = i32::try_from(kubelets.len()).unwrap_or(i32::MAX);
    let kubelet_count = more_at + i32::from(*hidden_nodes > 0);
    let kubelet_boxes = kubelets.iter().enumerate().map(|(i, node)| {
        let x = 20 + i32::try_from(i).unwrap_or(0) * (KUBELET_W + KUBELET_GAP);
        let at = rect(x, KUBELET_Y, KUBELET_W, 48);
        draw(
            Target {
                part: Part::Kubelet,
                node: node.clone(),
            },
            at,
            (t.component)(Part::Kubelet).to_string(),
            // A box is 118 px wide: a long node name loses its middle (whole in the box's label).
            Some(node.as_deref().map_or_else(
                || t.node_unnamed.to_string(),
                |n| crate::view_model::short_name(n, 16),
            )),
            false,
        )
    });
    let more_x = 20 + more_at * (KUBELET_W + KUBELET_GAP);
    let more = (*hidden_nodes > 0).then(|| {
        draw(
            Target {
                part: Part::Kubelet,
                node: Some(diagram::MORE_NODES.to_string()),
            },
            rect(more_x, KUBELET_Y, KUBELET_W, 48),
            (t.component)(Part::Kubelet).to_string(),
            Some((t.more_nodes)(*hidden_nodes, *hidden_implicated)),
            false,
        )
    });
    let bus_end = 20 + (kubelet_count - 1) * (KUBELET_W + KUBELET_GAP) + KUBELET_W / 2;

    let panel = match selected.as_ref() {
        None => html! { <p class="muted">{ t.pick_component }</p> },
        Some(target) => {
            let name = match &target.node {
                Some(n) if n == diagram::MORE_NODES => {
                    format!(
                        "{} · {}",
                        (t.component)(target.part),
                        (t.more_nodes)(model.hidden_nodes, model.hidden_implicated)
                    )
                }
                Some(n) => format!("{} · {n}", (t.component)(target.part)),
                None => (t.component)(target.part).to_string(),
            };
            match model.lit(target.part, target.node.as_deref()) {
                None => html! { <><h3>{ name }</h3><p class="muted">{ t.component_quiet }</p></> },
                Some(l) => html! {
                    <>
                        <h3>{ (t.component_findings)(&name, l.findings.len()) }</h3>
                        <ul class="part-findings">
                            { for l.findings.iter().filter_map(|&i| report.findings.get(i).map(|f| (i, f))).map(|(i, f)| {
                                let on_show_finding = props.on_show_finding.clone();
                                let severity = format!("{:?}", f.severity).to_lowercase();
                                html! {
                                    <li class="part-finding" data-rule={f.rule.clone()}>
                                        <span class={classes!("severity", severity)}>{ (t.severity)(f.severity) }</span>{ " " }
                                        <code translate="no">{ &f.rule }</code>{ " " }
                                        <span class="subject" translate="no">{ (t.object)(&f.subject) }</span>{ " " }
                                        <button class="link finding-link" onclick={move |_| on_show_finding.emit(i)}>
                                            { (t.finding_link)(labels.get(i).map_or("", String::as_str)) }</button>
                                        <p class="summary" translate="no">{ f.summary.as_str() }</p>
                                        <ul class="evidence">
                                            { for f.evidence.iter().map(|e| {
                                                let on_show_line = props.on_show_line.clone();
                                                let (source, line) = (e.source.clone(), e.line);
                                                html! {
                                                    <li>
                                                        <button class="where link" translate="no" aria-label={(t.show_in_input)(&e.source, e.line)}
                                                            onclick={move |_| on_show_line.emit((source.to_string(), line))}>
                                                            { format!("{}:{}", e.source, e.line) }</button>
                                                        <code class="path" translate="no">{ (t.evidence_label)(&e.path) }</code>
                                                        <span class="value" translate="no">{ &e.value }</span>
                                                    </li>
                                                }
                                            }) }
                                        </ul>
                                    </li>
                                }
                            }) }
                        </ul>
                    </>
                },
            }
        }
    };

    // On a phone, a list instead of the drawing: the implicated components, the worst first, each
    // a button that selects it as its box does; the quiet ones named in one line.
    let list = narrow.then(|| {
        let items = model.implicated().into_iter().map(|(target, lit)| {
            let name = match &target.node {
                Some(n) if n == diagram::MORE_NODES => format!(
                    "{} · {}",
                    (t.component)(target.part),
                    (t.more_nodes)(hidden_count, hidden_lit)
                ),
                Some(n) => format!("{} · {n}", (t.component)(target.part)),
                None if target.part == Part::Kubelet => {
                    format!("{} · {}", (t.component)(target.part), t.node_unnamed)
                }
                None => (t.component)(target.part).to_string(),
            };
            let severity = format!("{:?}", lit.severity).to_lowercase();
            let is_selected = selected.as_ref() == Some(target);
            let onclick = {
                let (selected, target) = (selected.clone(), target.clone());
                Callback::from(move |_: MouseEvent| selected.set(Some(target.clone())))
            };
            html! {
                <li>
                    <button type="button" class={classes!("part-item", "lit", severity.clone())}
                        data-part={target.part.id()} data-node={target.node.clone()} data-severity={severity.clone()}
                        aria-pressed={is_selected.to_string()} {onclick}>
                        <span class={classes!("severity", severity)}>{ (t.severity)(lit.severity) }</span>{ " " }
                        <span class="part-name" translate={if target.node.is_some() { "no" } else { "yes" }}>{ name }</span>
                        { " · " }<span class="part-count">{ (t.findings_shown)(lit.findings.len(), lit.findings.len()) }</span>
                    </button>
                </li>
            }
        });
        let quiet: Vec<&str> = model.quiet().into_iter().map(|p| (t.component)(p)).collect();
        html! {
            <>
                if model.lit.is_empty() {
                    <p class="muted parts-none">{ t.parts_none_lit }</p>
                } else {
                    <ol class="part-list" aria-label={t.diagram_title}>{ for items }</ol>
                }
                if !quiet.is_empty() {
                    <p class="parts-quiet">{ (t.parts_quiet)(&quiet) }</p>
                }
            </>
        }
    });

    html! {
        <div class="diagram">
            <h2>{ t.diagram_title }</h2>
            <p class="note">{ if narrow { t.parts_list_note } else { t.diagram_note } }</p>
            if let Some(list) = list {
                { list }
            } else {
            <svg class="architecture" viewBox="0 0 960 560" role="group" aria-label={t.diagram_title}>
                <defs>
                    <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                        <path d="M0,0 L10,5 L0,10 z" class="arrow-head" />
                    </marker>
                </defs>
                { edge(t, (180, 54), (380, 54), Flow::DesiredState, (190, 46), false) }
                { edge(t, (580, 54), (780, 54), Flow::Store, (600, 46), false) }
                { edge(t, (135, 150), (410, 78), Flow::WatchWriteStatus, (150, 118), false) }
                { edge(t, (355, 150), (440, 78), Flow::WatchBind, (385, 118), false) }
                { edge(t, (820, 150), (560, 78), Flow::WatchWriteStatus, (700, 118), true) }
                <line class="bus" x1="79" y1="285" x2={bus_end.max(480).to_string()} y2="285" />
                { for (0..kubelet_count).map(|i| {
                    let x = (20 + i * (KUBELET_W + KUBELET_GAP) + KUBELET_W / 2).to_string();
                    html! { <line class="bus" x1={x.clone()} y1="285" x2={x} y2={KUBELET_Y.to_string()} /> }
                }) }
                { edge(t, (480, 285), (480, 80), Flow::WatchAssignedPods, (490, 220), false) }
                { edge(t, (700, 300), (565, 80), Flow::WatchServices, (640, 260), false) }
                <line class="bus" x1="79" y1="348" x2="79" y2="370" />
                <line class="bus" x1="79" y1="370" x2="405" y2="370" />
                { edge(t, (150, 370), (150, 408), Flow::CriCalls, (158, 395), false) }
                { edge(t, (405, 370), (405, 408), Flow::Mounts, (413, 395), false) }
                { edge(t, (150, 454), (150, 498), Flow::RunsContainers, (158, 482), false) }
                { edge(t, (690, 440), (282, 520), Flow::Traffic, (470, 500), false) }
                { for [Part::Client, Part::ApiServer, Part::Etcd, Part::ControllerManager, Part::Scheduler,
                    Part::CloudControllerManager, Part::Runtime, Part::Volumes, Part::Containers, Part::ProxyCni,
                    Part::ServiceSlice].into_iter().map(simple) }
                { for kubelet_boxes }
                { for more }
            </svg>
            }
            <section class="part-panel" aria-live="polite">{ panel }</section>
        </div>
    }
}
