use std::rc::Rc;

use faultline_report::Report;
use yew::prelude::*;

use super::differential::{Decide, RuledOut};
use super::finding_card::FindingCard;
use super::show_more::ShowMore;
use super::summary::SummaryPanel;
use crate::hooks::use_show_more::use_show_more_staged;
use crate::hooks::use_texts::use_texts;
use crate::view_model::summary::{self as model, Filter};

/// Findings rendered at first, and per "show more": a 10k-pod dump can have thousands.
const PAGE: usize = 25;
/// Findings per render while a new report's first page comes in: three in its first render, three more
/// a frame after (25 cards at once took 50–110 ms in Chromium; six a frame, 25–45 ms, up to 77 ms in a
/// fresh tab, where text is shaped for the first time).
const STAGE: usize = 3;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub report: Rc<Report>,
    /// The report's summary ([`model::summary`]): the page computes it once for the filter bar and
    /// this view (on a 10k-Pod dump's report, half of the page's render when the report arrives).
    pub summary: Rc<model::Summary>,
    /// The finding to bring into view (from the boundary table or the diagram).
    #[prop_or_default]
    pub selected: Option<usize>,
    pub on_show_line: Callback<(String, u32)>,
    #[prop_or_default]
    pub on_follow_up: Callback<String>,
    /// Opens "What should I paste?" (at a symptom).
    #[prop_or_default]
    pub on_guide: Callback<Option<&'static str>>,
    /// The filter every view shares.
    #[prop_or_default]
    pub filter: Filter,
    #[prop_or_default]
    pub on_filter: Callback<Filter>,
    /// Brings a finding into view (the summary's links to each boundary's top cause).
    #[prop_or_default]
    pub on_show_finding: Callback<usize>,
}

/// The findings, most likely root cause first.
#[function_component(Findings)]
pub fn findings(props: &Props) -> Html {
    let t = use_texts();
    let report = &props.report;
    let key = Rc::as_ptr(report) as usize;
    let summary = &props.summary;
    let labels = {
        let report = report.clone();
        use_memo(key, move |_| faultline_render::labels(&report.findings))
    };
    // The groups the filter keeps, each at its first member's place.
    let groups = {
        let report = report.clone();
        use_memo((key, props.filter.clone()), move |(_, filter)| {
            let kept = model::kept(&report, filter);
            let groups = model::groups(&report, &kept);
            (kept.len(), groups)
        })
    };
    let (kept_count, groups) = (&groups.0, &groups.1);
    let expanded = use_state(std::collections::HashSet::<usize>::new);
    // Paging restarts with a new report or filter.
    let page_key = key ^ {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        format!("{:?}", props.filter).hash(&mut h);
        h.finish() as usize
    };
    let (limit, on_more) = use_show_more_staged(page_key, STAGE, PAGE);
    // A finding picked elsewhere (the table, the diagram) is always rendered, its group open.
    let selected_group = props
        .selected
        .and_then(|s| groups.iter().position(|g| g.members.contains(&s)));
    let shown = limit.max(selected_group.map_or(0, |g| g + 1)).min(groups.len());
    // Each finding's index by (rule, subject), for naming a symptom's cause without a search per card.
    let index: std::collections::HashMap<(&str, &faultline_report::ObjectRef), usize> = report
        .findings
        .iter()
        .enumerate()
        .map(|(i, f)| ((f.rule.as_str(), &f.subject), i))
        .rev()
        .collect();
    let verdict = faultline_render::verdict_sentence(report, faultline_render::words(t.lang()));
    // The headline names the diagnosis: an error or warning, never an info note.
    let headline = match report.diagnosis() {
        Some(top) => html! {
            <p class="headline">
                // Faults at several boundaries: the count says so, and the boundary named is the
                // most severe one's, not the whole incident's (issue 40).
                if summary.faults > 1 && summary.boundaries.len() > 1 {
                    <strong class="fault-count">{ (t.faults_count)(summary.faults, summary.boundaries.len()) }{ t.headline_end }</strong>{ " " }
                    { t.headline_most_severe }
                } else if summary.faults > 1 {
                    <strong class="fault-count">{ (t.independent_faults)(summary.faults) }</strong>{ " " }
                    { t.headline_before }
                } else {
                    { t.headline_before }
                }
                <strong class="boundary-name">{ (t.boundary)(top.boundary) }</strong>
                { t.headline_after }<code translate="no">{ top.boundary.id() }</code>{ t.headline_end }</p>
        },
        None if report.inputs.is_empty() => {
            let on_guide = props.on_guide.reform(|_: MouseEvent| None);
            html! { <>
                <p class="headline muted">{ t.paste_to_start }</p>
                <p><button type="button" class="link open-guide" onclick={on_guide}>{ t.guide_title }</button></p>
            </> }
        }
        // No finding of weight (none, or info notes only): the verdict says whether the input was
        // read and shows no fault, or could not be read enough to judge (and where).
        None => {
            // Its `code spans` (a field name, a command) shown as code, the rest as text.
            let words = verdict.clone().unwrap_or_else(|| t.no_findings.to_string());
            html! { <p class="headline verdict">{ super::prose(&words) }</p> }
        }
    };
    // Inconclusive: what was not read, and the symptom of "What should I paste?" that fits.
    let inconclusive = crate::guide::matching(report).map(|entry| {
        let on_guide = props.on_guide.reform(move |_: MouseEvent| Some(entry));
        let unread = report.unread.iter().map(|u| {
            let on_show_line = props.on_show_line.clone();
            let (source, line) = (u.source.clone(), u.line);
            html! {
                <li>
                    <button class="where link" translate="no" onclick={move |_| on_show_line.emit((source.clone(), line))}>
                        { (t.unread_range)(&u.source, u.line, u.end_line) }</button>
                    { " " }<span translate="no">{ super::prose(&u.reason) }</span>
                </li>
            }
        });
        let errors = report.errors.iter().map(|e| html! {
            <li><span translate="no">{ format!("{}:{} ", e.source, e.line) }</span><span translate="no">{ e.message.as_str() }</span></li>
        });
        html! {
            <div class="inconclusive" data-entry={entry}>
                if !report.unread.is_empty() || !report.errors.is_empty() {
                    <h3>{ t.unread_title }</h3>
                    <ul class="unread-list">{ for unread }{ for errors }</ul>
                }
                if let Some(command) = &report.paste_next {
                    <p class="paste-next-label">{ t.paste_next_label }</p>
                    <super::command_row::CommandRow class="paste-next" command={AttrValue::from(command.clone())}
                        on_follow_up={props.on_follow_up.clone()} />
                }
                <p>{ t.inconclusive_offer }{ " " }
                    <button type="button" class="link open-guide" onclick={on_guide}>{ t.guide_title }{ " — " }{ (t.guide_symptom)(entry) }</button></p>
            </div>
        }
    });
    // Busy while the first page's cards still come in, stage by stage.
    let staging = limit < PAGE && limit < groups.len();
    html! {
        <div class="findings" aria-busy={staging.to_string()}>
            <h2>{ t.diagnosis }</h2>
            { headline }
            { for inconclusive }
            <Decide report={report.clone()} labels={labels.clone()} on_follow_up={props.on_follow_up.clone()} />
            // The cards in a fragment of their own: Yew diffs a list by keys only when every item of it
            // has one (the heading before them has none).
            if summary.faults > 1 || summary.boundaries.len() > 1 {
                <SummaryPanel report={report.clone()} summary={summary.clone()} labels={labels.clone()}
                    filter={props.filter.clone()} on_filter={props.on_filter.clone()}
                    on_show_finding={props.on_show_finding.clone()} />
            }
            if !props.filter.is_empty() && *kept_count == 0 {
                <p class="no-match muted">{ t.no_match }</p>
            }
            // The cards in a fragment of their own: Yew diffs a list by keys only when every item of it
            // has one (the heading before them has none).
            <>{ for groups.iter().take(shown).map(|group| {
                let first = group.first();
                let open = group.members.len() > 1
                    && (expanded.contains(&first) || props.selected.is_some_and(|s| group.members.contains(&s)));
                let card = |i: usize| {
                    let f = &report.findings[i];
                    let label = labels[i].clone();
                    // A symptom names its cause by the cause's number (the report lists it just before).
                    let cause = f.explained_by.as_ref().and_then(|c| index.get(&(c.rule.as_str(), &c.subject)).copied());
                    let symptom_of = cause.map(|c| label.rsplit_once('.').map_or_else(|| labels[c].clone(), |(parent, _)| parent.to_string()));
                    // Keyed: Yew matches unkeyed children from the end, so each stage that appended cards
                    // re-rendered every card already shown with another finding, and the browser restyled
                    // and laid out the whole list again (40-100 ms a stage in a fresh tab).
                    html! {
                        <FindingCard key={i} finding={f.clone()} rank={i + 1} {label} {symptom_of} selected={props.selected == Some(i)}
                            on_show_line={props.on_show_line.clone()} on_follow_up={props.on_follow_up.clone()} />
                    }
                };
                match &group.owner {
                    Some(owner) if group.members.len() > 1 => {
                        let toggle = {
                            let expanded = expanded.clone();
                            Callback::from(move |_: MouseEvent| {
                                let mut next = (*expanded).clone();
                                if !next.remove(&first) {
                                    next.insert(first);
                                }
                                expanded.set(next);
                            })
                        };
                        let f = &report.findings[first];
                        let others = group.members.len() - 1;
                        html! {
                            <div key={format!("group-{first}")} class="finding-group" data-members={group.members.len().to_string()}>
                                <p class="group-title">
                                    <strong translate="no">{ (t.group_title)(group.members.len(), &f.subject.kind, &(t.object)(owner)) }</strong>
                                    { ": " }<code translate="no">{ &f.rule }</code>{ " " }
                                    <button type="button" class="group-toggle" aria-expanded={open.to_string()} onclick={toggle}>
                                        { if open { t.group_hide.to_string() } else { (t.group_show)(others) } }</button>
                                </p>
                                { card(first) }
                                if open {
                                    <>{ for group.members[1..].iter().map(|&i| card(i)) }</>
                                }
                            </div>
                        }
                    }
                    _ => card(first),
                }
            }) }</>
            // Not while the first page comes in: the rest of it is on its way, not a click away.
            if limit >= PAGE {
                <ShowMore {shown} total={groups.len()} page={PAGE} {on_more} />
            }
            <RuledOut report={report.clone()} on_show_line={props.on_show_line.clone()} />
        </div>
    }
}
