use std::rc::Rc;

use faultline_report::Report;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::hooks::use_texts::use_texts;
use crate::view_model::timeline::{self as model, Filter};

#[derive(Properties, PartialEq)]
pub struct Props {
    pub report: Rc<Report>,
    pub on_show_line: Callback<(String, u32)>,
    /// The capture moment is the user's ([`crate::state::State::captured_at`]).
    #[prop_or_default]
    pub captured_set: bool,
    /// The user set the capture moment (`None`: back to the inferred one).
    #[prop_or_default]
    pub on_capture: Callback<Option<faultline_report::instant::Instant>>,
    /// The filter every view shares: its namespace, kind, boundary and words narrow the entries.
    #[prop_or_default]
    pub filter: crate::view_model::summary::Filter,
}

/// The browser zone's offset from UTC at `millis`, in minutes east (`+480` for UTC+08:00); 0 where
/// there is no browser (the native tests).
fn local_offset(millis: i64) -> i32 {
    #[cfg(target_arch = "wasm32")]
    {
        #[allow(clippy::cast_precision_loss, clippy::cast_possible_truncation)]
        let west = js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(millis as f64)).get_timezone_offset();
        #[allow(clippy::cast_possible_truncation)]
        return -(west as i32);
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = millis;
        0
    }
}

/// This year (UTC), from the browser's clock; `None` without a browser.
fn this_year() -> Option<i64> {
    #[cfg(target_arch = "wasm32")]
    let year = Some(i64::from(js_sys::Date::new_0().get_utc_full_year()));
    #[cfg(not(target_arch = "wasm32"))]
    let year = None;
    year
}

/// Height of one row in pixels: rows are positioned, not flowed, so only the visible ones exist.
const ROW: i32 = 30;
/// Height of the scrolling viewport in pixels.
const VIEWPORT: i32 = 420;
/// Width in pixels of an entry's place on the time axis.
const TRACK: f64 = 150.0;
/// Rows drawn above and below the visible ones, so fast scrolling shows no gap.
const OVERSCAN: i32 = 6;

/// The row whose details are shown (a position in the filtered rows), and whether the keyboard
/// moved it there (then the list scrolls to it; a hovered row is already in view).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Active {
    row: Option<usize>,
    by_keyboard: bool,
}

enum Move {
    Clear,
    Point(usize),
    Step { delta: i64, total: usize },
}

impl Reducible for Active {
    type Action = Move;

    // A reducer, not a state: several keys pressed before a render each move from the latest row.
    fn reduce(self: Rc<Self>, action: Move) -> Rc<Self> {
        Rc::new(match action {
            Move::Clear => Active::default(),
            Move::Point(row) => Active {
                row: Some(row),
                by_keyboard: false,
            },
            Move::Step { delta, total } => {
                let last = i64::try_from(total).unwrap_or(i64::MAX) - 1;
                let from = self.row.map_or(-1, |r| i64::try_from(r).unwrap_or(0));
                let to = if self.row.is_none() && delta < 0 {
                    0
                } else {
                    from.saturating_add(delta)
                };
                Active {
                    row: usize::try_from(to.clamp(0, last.max(0))).ok(),
                    by_keyboard: true,
                }
            }
        })
    }
}

/// One time axis for every dated fact: filters, zoom and pan, and a virtualised list of entries.
#[function_component(Timeline)]
pub fn timeline(props: &Props) -> Html {
    let t = use_texts();
    let report = props.report.clone();
    let filter = use_state(Filter::default);
    // The shown time window; `None`: the whole extent.
    let window = use_state(|| None::<(i64, i64)>);
    let scroll_top = use_state(|| 0_i32);
    let active = use_reducer(Active::default);
    let viewport = use_node_ref();
    // Times in the browser's zone instead of UTC.
    let local = use_state(|| false);
    // The capture-time field's text while typed, and whether it failed to read as a time.
    let capture_text = use_state(String::new);
    let capture_bad = use_state(|| false);

    // Keyed by the report's address: comparing 100k entries on every render would be the slow part.
    let key = Rc::as_ptr(&report) as usize;
    let extent = {
        let report = report.clone();
        use_memo(key, move |_| model::extent(&report))
    };
    let owners = {
        let report = report.clone();
        use_memo(key, move |_| model::owners(&report))
    };
    // The shared filter's namespace, kind, boundary and words, with this view's own switches.
    let effective = Filter {
        namespace: props.filter.namespace.clone(),
        kind: props.filter.kind.clone(),
        boundary: props.filter.boundary,
        text: props.filter.text.clone(),
        ..(*filter).clone()
    };
    let rows = {
        let report = report.clone();
        use_memo((key, effective, *window), move |(_, f, w)| {
            model::rows(&report, f, *w)
        })
    };
    let shown = (*window).or(*extent);
    let total = rows.len();
    let active_row = active.row.filter(|&i| i < total);

    let check = |label: &'static str, class: &'static str, checked: bool, change: fn(&mut Filter, bool)| {
        let filter = filter.clone();
        let onchange = Callback::from(move |e: Event| {
            if let Some(input) = e.target_dyn_into::<HtmlInputElement>() {
                let mut next = (*filter).clone();
                change(&mut next, input.checked());
                filter.set(next);
            }
        });
        html! {
            <label class={classes!("tl-check", class)}><input type="checkbox" {checked} {onchange} />{ label }</label>
        }
    };

    // Moves the window; `None` for an action resets it.
    let move_window = {
        let window = window.clone();
        let extent = *extent;
        Rc::new(move |how: Option<(bool, f64)>| {
            let Some(ext) = extent else { return };
            let current = (*window).unwrap_or(ext);
            let next = match how {
                None => None,
                Some((true, factor)) => Some(model::zoom(current, ext, factor)),
                Some((false, fraction)) => Some(model::pan(current, ext, fraction)),
            };
            window.set(next.filter(|w| *w != ext));
        })
    };
    let button = |label: &'static str, class: &'static str, how: Option<(bool, f64)>| {
        let move_window = move_window.clone();
        html! {
            <button class={classes!("tl-zoom", class)} disabled={extent.is_none()}
                onclick={move |_| move_window(how)}>{ label }</button>
        }
    };

    // Keeps the active row inside the viewport after a keyboard move.
    {
        let viewport = viewport.clone();
        use_effect_with((active.row, active.by_keyboard), move |(row, by_keyboard)| {
            let (Some(row), true) = (row, by_keyboard) else {
                return;
            };
            if let Some(element) = viewport.cast::<web_sys::Element>() {
                let top = i32::try_from(*row).unwrap_or(i32::MAX).saturating_mul(ROW);
                let current = element.scroll_top();
                if top < current {
                    element.set_scroll_top(top);
                } else if top + ROW > current + VIEWPORT {
                    element.set_scroll_top(top + ROW - VIEWPORT);
                }
            }
        });
    }
    let onkeydown = {
        let active = active.clone();
        let move_window = move_window.clone();
        Callback::from(move |e: KeyboardEvent| {
            let page = i64::from(VIEWPORT / ROW);
            let step = |delta: i64| Some(Move::Step { delta, total });
            let next = match e.key().as_str() {
                "ArrowDown" => step(1),
                "ArrowUp" => step(-1),
                "PageDown" => step(page),
                "PageUp" => step(-page),
                "Home" => step(i64::MIN / 2),
                "End" => step(i64::MAX / 2),
                "+" | "=" => {
                    move_window(Some((true, 0.5)));
                    None
                }
                "-" => {
                    move_window(Some((true, 2.0)));
                    None
                }
                "ArrowLeft" => {
                    move_window(Some((false, -0.25)));
                    None
                }
                "ArrowRight" => {
                    move_window(Some((false, 0.25)));
                    None
                }
                _ => return,
            };
            e.prevent_default();
            if let Some(step) = next.filter(|_| total > 0) {
                active.dispatch(step);
            }
        })
    };
    let onscroll = {
        let scroll_top = scroll_top.clone();
        Callback::from(move |e: Event| {
            if let Some(element) = e.target_dyn_into::<web_sys::Element>() {
                scroll_top.set(element.scroll_top());
            }
        })
    };

    let first = usize::try_from((*scroll_top / ROW - OVERSCAN).max(0)).unwrap_or(0);
    let count = usize::try_from(VIEWPORT / ROW + 2 * OVERSCAN).unwrap_or(30);
    let visible = first.min(total)..(first + count).min(total);
    // A time in the zone shown: UTC, or the browser's at that moment.
    let zoned = |ms: i64| {
        if *local {
            ms + i64::from(local_offset(ms)) * 60_000
        } else {
            ms
        }
    };
    let zone = if *local {
        (t.zone_local)(&model::offset_label(local_offset(shown.map_or(0, |w| w.1))))
    } else {
        t.zone_utc.to_string()
    };
    let scope = shown.map_or(model::Scope::Year, |(lo, hi)| {
        model::scope((zoned(lo), zoned(hi)), this_year())
    });
    let spacer = |rows: usize| (i64::try_from(rows).unwrap_or(0) * i64::from(ROW)).to_string();
    let row_html = |position: usize| {
        let index = rows[position];
        let entry = &report.timeline[index];
        let dot = shown.and_then(|w| model::position(entry, w));
        // Known only by age: the age, as kubectl printed it, before the capture moment; else the
        // time, with as much of its date as the window needs (the zone is above the list).
        let time = match (entry.age, model::parse_millis(&entry.time)) {
            (Some(age), _) => (t.age_before_capture)(&faultline_report::timeline::human(age)),
            (None, Some(ms)) => model::stamp(zoned(ms), scope),
            (None, None) => t.undated.to_string(),
        };
        let placed =
            model::parse_millis(&entry.time).map(|ms| format!("{} {zone}", model::clock(zoned(ms), true)));
        let lane = if filter.by_object {
            model::lane_label(&owners, &entry.subject)
        } else {
            // The namespace is in the details; the row keeps the width for the name.
            format!("{} {}", entry.subject.kind, entry.subject.name)
        };
        let new_lane =
            filter.by_object && position > 0 && report.timeline[rows[position - 1]].subject != entry.subject;
        let is_active = active_row == Some(position);
        let onmouseenter = {
            let active = active.clone();
            move |_| active.dispatch(Move::Point(position))
        };
        let onclick = {
            let active = active.clone();
            let on_show_line = props.on_show_line.clone();
            let at = entry.at.clone();
            move |_| {
                active.dispatch(Move::Point(position));
                if let Some(at) = &at {
                    on_show_line.emit((at.source.to_string(), at.line));
                }
            }
        };
        html! {
            <div id={format!("tl-row-{position}")} role="option" aria-selected={is_active.to_string()}
                class={classes!("tl-row", entry.source.to_string(), entry.warning.then_some("warning"),
                    is_active.then_some("active"), new_lane.then_some("new-lane"),
                    entry.age.is_some().then_some("aged"), entry.before_object_existed.then_some("before-created"))}
                data-index={index.to_string()} {onmouseenter} {onclick}>
                <span class="tl-time" title={placed}>
                    if entry.before_object_existed {
                        <span class="tl-flag" role="img" aria-label={t.before_created} title={t.before_created}>{ "⚠ " }</span>
                    }
                    { time }</span>
                <svg class="tl-track" width={TRACK.to_string()} height="12" aria-hidden="true">
                    <line class="tl-axis-line" x1="0.5" y1="6" x2={(TRACK - 0.5).to_string()} y2="6" />
                    if let Some(p) = dot {
                        <circle class="tl-dot" cx={format!("{:.1}", 6.0 + p * (TRACK - 12.0))} cy="6" r="5" />
                    }
                </svg>
                <span class="tl-source">{ (t.entry_source)(&entry.source) }</span>
                <span class="tl-subject" translate="no">{ super::middle_cut(&lane) }</span>
                <span class="tl-what" translate="no">
                    <strong>{ entry.reason.as_str() }</strong>
                    if entry.count > 1 { { format!(" ×{}", entry.count) } }
                    if !entry.message.is_empty() { { " — " }{ entry.message.as_str() } }
                </span>
            </div>
        }
    };
    let details = active_row.map(|position| {
        let entry = &report.timeline[rows[position]];
        let at = entry.at.clone().map(|at| {
            let on_show_line = props.on_show_line.clone();
            let label = format!("{}:{}", at.source, at.line);
            html! {
                <p><span class="muted">{ t.source_line }{ ": " }</span>
                    <button class="link where" translate="no" aria-label={(t.show_in_input)(&at.source, at.line)}
                        onclick={move |_| on_show_line.emit((at.source.to_string(), at.line))}>{ label }</button></p>
            }
        });
        html! {
            <>
                <p><strong translate="no">{ match (entry.age, model::parse_millis(&entry.time)) {
                        (Some(age), Some(ms)) => format!("{} · ≈ {} {zone}",
                            (t.age_before_capture)(&faultline_report::timeline::human(age)), model::clock(zoned(ms), true)),
                        (Some(age), None) => (t.age_before_capture)(&faultline_report::timeline::human(age)),
                        (None, Some(ms)) => format!("{} {zone}", model::clock(zoned(ms), true)),
                        (None, None) => t.undated.to_string(),
                    } }</strong>
                    { " · " }{ (t.entry_source)(&entry.source) }
                    if entry.count > 1 { { format!(" · {} {}", t.count, entry.count) } }</p>
                if let Some(basis) = &entry.estimated_from {
                    <p class="muted">{ t.estimated }{ " " }<span translate="no">{ basis.as_str() }</span></p>
                }
                if entry.before_object_existed {
                    <p class="tl-before-created">{ "⚠ " }{ t.before_created_note }</p>
                }
                <p translate="no"><span class="subject">{ (t.object)(&entry.subject) }</span>{ " · " }<strong>{ entry.reason.as_str() }</strong></p>
                if !entry.message.is_empty() { <p class="tl-message" translate="no">{ entry.message.as_str() }</p> }
                { for at }
            </>
        }
    });
    let axis = shown.map(|(lo, hi)| {
        html! {
            <div class="tl-axis" aria-hidden="true">
                <span class="tl-range" translate="no">{ format!("{} → {} {zone}", model::clock(zoned(lo), true), model::clock(zoned(hi), true)) }</span>
            </div>
        }
    });
    let order_change = {
        let filter = filter.clone();
        let active = active.clone();
        Callback::from(move |e: Event| {
            if let Some(select) = e.target_dyn_into::<HtmlSelectElement>() {
                let mut next = (*filter).clone();
                next.oldest_first = select.value() == "oldest";
                filter.set(next);
                active.dispatch(Move::Clear);
            }
        })
    };
    let zone_change = {
        let local = local.clone();
        Callback::from(move |e: Event| {
            if let Some(select) = e.target_dyn_into::<HtmlSelectElement>() {
                local.set(select.value() == "local");
            }
        })
    };
    // The capture moment, how it is known, and a field to set it: ages are placed against it again
    // from the report alone.
    let capture_html = {
        let (when, how) = match &report.capture {
            Some(c) => {
                let how = match c.basis {
                    faultline_report::CaptureBasis::Set => t.capture_basis[0],
                    faultline_report::CaptureBasis::NewestTimestamp => t.capture_basis[1],
                    faultline_report::CaptureBasis::AgeAnchor => t.capture_basis[2],
                };
                let when = model::parse_millis(&c.time).map_or_else(
                    || c.time.to_string(),
                    |ms| format!("{} {zone}", model::clock(zoned(ms), true)),
                );
                (when, how)
            }
            None => (String::new(), t.capture_basis[3]),
        };
        let anchor = report.capture.as_ref().and_then(|c| c.anchor.as_ref()).map(|a| {
            let created = model::parse_millis(&a.created).map_or_else(
                || a.created.to_string(),
                |ms| format!("{} {zone}", model::clock(zoned(ms), true)),
            );
            (t.capture_anchor)(
                &a.subject.to_string(),
                &created,
                &a.reason,
                &faultline_report::timeline::human(a.age),
            )
        });
        let apply = {
            let capture_text = capture_text.clone();
            let capture_bad = capture_bad.clone();
            let on_capture = props.on_capture.clone();
            Rc::new(move || match model::parse_capture(&capture_text) {
                Some(at) => {
                    capture_bad.set(false);
                    on_capture.emit(Some(at));
                }
                None => capture_bad.set(true),
            })
        };
        let oninput = {
            let capture_text = capture_text.clone();
            Callback::from(move |e: InputEvent| {
                if let Some(input) = e.target_dyn_into::<HtmlInputElement>() {
                    capture_text.set(input.value());
                }
            })
        };
        let onkeydown = {
            let apply = apply.clone();
            Callback::from(move |e: KeyboardEvent| {
                if e.key() == "Enter" {
                    e.prevent_default();
                    apply();
                }
            })
        };
        let onset = {
            let apply = apply.clone();
            Callback::from(move |_: MouseEvent| apply())
        };
        let onreset = {
            let on_capture = props.on_capture.clone();
            let capture_text = capture_text.clone();
            let capture_bad = capture_bad.clone();
            Callback::from(move |_: MouseEvent| {
                capture_text.set(String::new());
                capture_bad.set(false);
                on_capture.emit(None);
            })
        };
        let placeholder = report
            .capture
            .as_ref()
            .map_or(t.capture_placeholder.to_string(), |c| c.time.to_string());
        html! {
            <div class="tl-capture">
                <p class="tl-capture-now"><strong>{ t.capture_label }{ ": " }</strong>
                    <span translate="no">{ when }</span>{ " " }{ how }
                    if let Some(anchor) = anchor { <span class="muted" translate="no">{ anchor }</span> }</p>
                <label class="tl-capture-field">{ t.capture_input }{ " " }
                    <input type="text" class="tl-capture-input" value={(*capture_text).clone()} {placeholder}
                        spellcheck="false" aria-invalid={capture_bad.to_string()} {oninput} {onkeydown} />
                </label>
                <button type="button" class="tl-capture-set" onclick={onset}>{ t.capture_set }</button>
                if props.captured_set {
                    <button type="button" class="tl-capture-reset" onclick={onreset}>{ t.capture_reset }</button>
                }
                if *capture_bad { <p class="tl-capture-error" role="alert">{ t.capture_invalid }</p> }
            </div>
        }
    };
    html! {
        <div class="timeline">
            <h2>{ t.timeline_title }</h2>
            <div class="tl-controls">
                { check(t.warnings_only, "warnings", filter.warnings_only, |f, on| f.warnings_only = on) }
                { check(t.group_by_object, "lanes", filter.by_object, |f, on| f.by_object = on) }
            </div>
            <div class="tl-controls">
                <label class="tl-filter order">{ t.order_label }
                    <select onchange={order_change}>
                        <option value="newest" selected={!filter.oldest_first}>{ t.order_newest }</option>
                        <option value="oldest" selected={filter.oldest_first}>{ t.order_oldest }</option>
                    </select>
                </label>
                <label class="tl-filter zone">{ t.zone_label }
                    <select onchange={zone_change}>
                        <option value="utc" selected={!*local}>{ t.zone_utc }</option>
                        <option value="local" selected={*local}>{ (t.zone_local)(&model::offset_label(local_offset(shown.map_or(0, |w| w.1)))) }</option>
                    </select>
                </label>
            </div>
            { capture_html }
            <div class="tl-controls">
                { button(t.zoom_in, "in", Some((true, 0.5))) }
                { button(t.zoom_out, "out", Some((true, 2.0))) }
                { button(t.pan_earlier, "earlier", Some((false, -0.25))) }
                { button(t.pan_later, "later", Some((false, 0.25))) }
                { button(t.zoom_reset, "reset", None) }
                <span class="tl-count">{ (t.shown_of)(total, report.timeline.len()) }</span>
            </div>
            <p class="muted tl-help">{ t.timeline_help }</p>
            if filter.by_object { <p class="muted tl-lanes-note">{ t.lanes_note }</p> }
            { for axis }
            if total == 0 {
                <p class="muted tl-empty">{ t.no_entries }</p>
            } else {
                <div class="tl-viewport" ref={viewport} tabindex="0" role="listbox" aria-label={t.timeline_aria}
                    aria-activedescendant={active_row.map(|p| format!("tl-row-{p}"))}
                    {onscroll} {onkeydown}>
                    // Spacers stand for the rows not drawn. They are SVGs sized by attributes, not
                    // inline styles, so a Content-Security-Policy without 'unsafe-inline' styles holds.
                    <div class="tl-canvas">
                        <svg class="tl-spacer" width="1" height={spacer(visible.start)} aria-hidden="true"></svg>
                        { for visible.clone().map(row_html) }
                        <svg class="tl-spacer" width="1" height={spacer(total - visible.end)} aria-hidden="true"></svg>
                    </div>
                </div>
            }
            // Always present, so that showing details never shifts the list (which would lose focus).
            <div class="tl-details" aria-live="polite">{ for details }</div>
        </div>
    }
}
