//! Report -> the timeline's rows: filtering, grouping into lanes, and placing entries on a time axis.
//! Pure functions over indices into `report.timeline`, so a 100k-entry timeline is filtered without
//! copying entries, and only the visible rows are ever rendered.

use std::collections::{BTreeMap, HashMap};

use faultline_report::{Boundary, ObjectRef, Report, TimelineEntry};

/// Milliseconds since the Unix epoch of an RFC 3339 UTC time as the engine writes it
/// (`2026-10-27T08:00:03Z`, `2026-10-27T08:00:03.25Z`); `None` for an empty or other string.
pub fn parse_millis(time: &str) -> Option<i64> {
    faultline_report::instant::Instant::parse(time).map(|t| t.millis())
}

/// The filters and grouping the user chose.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    pub namespace: Option<String>,
    pub kind: Option<String>,
    /// Only entries about objects that a finding at this boundary names.
    pub boundary: Option<Boundary>,
    pub warnings_only: bool,
    /// Words that must all be in an entry's subject, reason or message (case-insensitive).
    pub text: String,
    /// Lanes: group entries by object (owner chain, then node) instead of one time order.
    pub by_object: bool,
    /// Oldest entry first; by default the newest is (what an incident is about is recent).
    pub oldest_first: bool,
}

/// The first and last dated moment, in milliseconds.
pub fn extent(report: &Report) -> Option<(i64, i64)> {
    let mut times = report.timeline.iter().filter_map(|e| parse_millis(&e.time));
    let first = times.next()?;
    let (lo, hi) = times.fold((first, first), |(lo, hi), t| (lo.min(t), hi.max(t)));
    Some((lo, hi))
}

/// The workload of each object the report knows one of ([`Report::workloads`]): by ownerReferences,
/// or guessed by the engine from the names controllers generate.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Owners {
    /// By identity: the workload's name and whether it was guessed.
    top: HashMap<ObjectRef, (String, bool)>,
}

pub fn owners(report: &Report) -> Owners {
    let top = report
        .workloads
        .iter()
        .map(|w| (w.object.clone(), (w.workload.to_string(), w.guessed)))
        .collect();
    Owners { top }
}

impl Owners {
    /// The group of an object's lane and whether it was guessed from the name (no ownerReferences);
    /// an object of no workload is its own group.
    pub fn group(&self, subject: &ObjectRef) -> (String, bool) {
        self.top
            .get(subject)
            .cloned()
            .unwrap_or_else(|| (subject.name.to_string(), false))
    }
}

fn kind_rank(kind: &str) -> u8 {
    match kind {
        "Deployment" | "StatefulSet" | "DaemonSet" | "Job" | "CronJob" => 0,
        "ReplicaSet" => 1,
        "Pod" => 2,
        "Service" => 3,
        "EndpointSlice" | "Endpoints" => 4,
        "Node" => 6,
        _ => 5,
    }
}

/// The lane an entry is drawn in: Nodes after everything else, then namespace, owner chain, kind
/// in owner order (Deployment ▸ ReplicaSet ▸ Pod), name.
pub fn lane_key(owners: &Owners, subject: &ObjectRef) -> (u8, String, String, u8, String) {
    let node = subject.kind == "Node";
    (
        u8::from(node),
        subject.namespace.as_deref().unwrap_or_default().to_string(),
        owners.group(subject).0,
        kind_rank(&subject.kind),
        subject.name.to_string(),
    )
}

/// The lane's label: `shop ▸ web ▸ ReplicaSet web-6d8f7b9c4`; a group guessed from generated
/// names (the input states no owner) is marked `≈`: `shop ▸ ≈web ▸ Pod web-6d8f7b9c4-q2w8x`.
pub fn lane_label(owners: &Owners, subject: &ObjectRef) -> String {
    let (group, guessed) = owners.group(subject);
    let mark = if guessed { "≈" } else { "" };
    match &subject.namespace {
        Some(ns) if group != subject.name => {
            format!("{ns} ▸ {mark}{group} ▸ {} {}", subject.kind, subject.name)
        }
        Some(ns) => format!("{ns} ▸ {} {}", subject.kind, subject.name),
        None => format!("{} {}", subject.kind, subject.name),
    }
}

/// Whether an entry falls inside the shown time window; undated entries only when not zoomed.
fn in_window(entry: &TimelineEntry, window: Option<(i64, i64)>) -> bool {
    match (window, parse_millis(&entry.time)) {
        (None, _) => true,
        (Some((lo, hi)), Some(t)) => lo <= t && t <= hi,
        (Some(_), None) => false,
    }
}

/// The entries to show, as indices into `report.timeline`, in the order to draw them.
/// Whether every word is in the entry's subject, reason or message.
fn has_words(e: &TimelineEntry, words: &[String]) -> bool {
    let mut text = format!("{} {} {} {}", e.subject.kind, e.subject.name, e.reason, e.message);
    if let Some(ns) = &e.subject.namespace {
        text.push(' ');
        text.push_str(ns);
    }
    let text = text.to_lowercase();
    words.iter().all(|w| text.contains(w.as_str()))
}

pub fn rows(report: &Report, filter: &Filter, window: Option<(i64, i64)>) -> Vec<usize> {
    let words: Vec<String> = filter
        .text
        .to_lowercase()
        .split_whitespace()
        .map(str::to_string)
        .collect();
    let subjects: Vec<&ObjectRef> = match filter.boundary {
        Some(b) => report
            .findings
            .iter()
            .filter(|f| f.boundary == b)
            .map(|f| &f.subject)
            .collect(),
        None => Vec::new(),
    };
    let mut out: Vec<usize> = report
        .timeline
        .iter()
        .enumerate()
        .filter(|(_, e)| {
            filter
                .namespace
                .as_ref()
                .is_none_or(|ns| e.subject.namespace.as_deref() == Some(ns.as_str()))
                && filter.kind.as_ref().is_none_or(|k| e.subject.kind == *k)
                && (!filter.warnings_only || e.warning)
                && (filter.boundary.is_none() || subjects.contains(&&e.subject))
                && (words.is_empty() || has_words(e, &words))
                && in_window(e, window)
        })
        .map(|(i, _)| i)
        .collect();
    if !filter.oldest_first {
        out.reverse();
    }
    if filter.by_object {
        let owners = owners(report);
        let keys: BTreeMap<usize, _> = out
            .iter()
            .map(|&i| (i, lane_key(&owners, &report.timeline[i].subject)))
            .collect();
        // Stable: within a lane, the chosen time order stays.
        out.sort_by(|a, b| keys[a].cmp(&keys[b]));
    }
    out
}

/// An entry's position on the axis, 0.0 (window start) to 1.0 (end); `None` when undated.
pub fn position(entry: &TimelineEntry, window: (i64, i64)) -> Option<f64> {
    let t = parse_millis(&entry.time)?;
    let span = (window.1 - window.0).max(1) as f64;
    Some(((t - window.0) as f64 / span).clamp(0.0, 1.0))
}

/// The window after zooming by `factor` (< 1 zooms in) around its centre, kept inside the extent.
pub fn zoom(window: (i64, i64), extent: (i64, i64), factor: f64) -> (i64, i64) {
    let centre = (window.0 + window.1) / 2;
    let half = (((window.1 - window.0) as f64 * factor / 2.0) as i64).max(500);
    clamp_window((centre - half, centre + half), extent)
}

/// The window moved by `fraction` of its width (negative: earlier), kept inside the extent.
pub fn pan(window: (i64, i64), extent: (i64, i64), fraction: f64) -> (i64, i64) {
    let shift = ((window.1 - window.0) as f64 * fraction) as i64;
    clamp_window((window.0 + shift, window.1 + shift), extent)
}

fn clamp_window(window: (i64, i64), extent: (i64, i64)) -> (i64, i64) {
    let width = (window.1 - window.0).min(extent.1 - extent.0);
    let start = window.0.clamp(extent.0, extent.1 - width);
    (start, start + width)
}

/// `08:00:03` within a day, with the date when the window spans days.
pub fn clock(millis: i64, with_date: bool) -> String {
    let secs = millis.div_euclid(1000);
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let hms = format!("{:02}:{:02}:{:02}", rem / 3600, rem % 3600 / 60, rem % 60);
    if !with_date {
        return hms;
    }
    // Civil from days (Hinnant).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02} {hms}")
}

/// `10-27 08:00:03`: a row's time when the shown window spans days (the year is on the axis).
pub fn short_clock(millis: i64) -> String {
    clock(millis, true).get(5..).unwrap_or_default().to_string()
}

/// How much of a date the rows show: the time of day, the month and day too, or the whole date.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    Time,
    Day,
    Year,
}

/// The scope of the rows' times over `window` (in the zone shown): the whole date when the window
/// spans years or is not in `this_year` (when known), the day when it spans days.
pub fn scope(window: (i64, i64), this_year: Option<i64>) -> Scope {
    let (lo, hi) = (clock(window.0, true), clock(window.1, true));
    let year = |c: &str| c.get(..4).and_then(|y| y.parse::<i64>().ok());
    if year(&lo) != year(&hi) || this_year.is_some_and(|y| year(&lo) != Some(y)) {
        Scope::Year
    } else if lo.get(..10) != hi.get(..10) {
        Scope::Day
    } else {
        Scope::Time
    }
}

/// A time (already in the zone shown) with as much of its date as `scope` asks for.
pub fn stamp(millis: i64, scope: Scope) -> String {
    match scope {
        Scope::Year => clock(millis, true),
        Scope::Day => short_clock(millis),
        Scope::Time => clock(millis, false),
    }
}

/// A zone's offset as people write it: `+08:00`, `-05:30`, `+00:00`.
pub fn offset_label(minutes_east: i32) -> String {
    let sign = if minutes_east < 0 { '-' } else { '+' };
    let m = minutes_east.unsigned_abs();
    format!("{sign}{:02}:{:02}", m / 60, m % 60)
}

/// A capture time as typed: RFC 3339 (`2025-02-11T09:40:05Z`, `…+08:00`), or a date and time
/// without a zone (`2025-02-11 09:40:05`, `2025-02-11T09:40`), read as UTC.
pub fn parse_capture(text: &str) -> Option<faultline_report::instant::Instant> {
    use faultline_report::instant::Instant;
    let text = text.trim();
    if let Some(t) = Instant::parse(text) {
        return Some(t);
    }
    let mut iso = text.replacen(' ', "T", 1);
    if iso.len() == 16 {
        iso.push_str(":00");
    }
    Instant::parse(&format!("{iso}Z"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::State;

    #[test]
    fn rows_show_the_year_across_years_or_when_not_this_year() {
        let ms = |t: &str| parse_millis(t).unwrap();
        let new_year = (ms("2025-12-31T23:58:00Z"), ms("2026-01-01T00:03:00Z"));
        assert_eq!(scope(new_year, Some(2026)), Scope::Year, "across a year boundary");
        assert_eq!(stamp(new_year.0, Scope::Year), "2025-12-31 23:58:00");
        let one_day = (ms("2025-02-11T09:35:34Z"), ms("2025-02-11T09:40:05Z"));
        assert_eq!(scope(one_day, Some(2026)), Scope::Year, "not this year");
        assert_eq!(scope(one_day, Some(2025)), Scope::Time);
        assert_eq!(scope(one_day, None), Scope::Time);
        let days = (ms("2026-03-01T23:00:00Z"), ms("2026-03-02T01:00:00Z"));
        assert_eq!(scope(days, Some(2026)), Scope::Day);
        assert_eq!(stamp(days.1, Scope::Day), "03-02 01:00:00");
        assert_eq!(offset_label(480), "+08:00");
        assert_eq!(offset_label(-330), "-05:30");
        assert_eq!(offset_label(0), "+00:00");
    }

    #[test]
    fn capture_times_are_read_as_typed() {
        let utc = |t: &str| parse_capture(t).map(|t| t.to_string());
        assert_eq!(
            utc("2025-02-11T09:40:05Z").as_deref(),
            Some("2025-02-11T09:40:05Z")
        );
        assert_eq!(
            utc("2025-02-11T17:40:05+08:00").as_deref(),
            Some("2025-02-11T09:40:05Z")
        );
        assert_eq!(
            utc("2025-02-11 09:40:05").as_deref(),
            Some("2025-02-11T09:40:05Z")
        );
        assert_eq!(utc("2025-02-11T09:40").as_deref(), Some("2025-02-11T09:40:00Z"));
        assert_eq!(utc("yesterday"), None);
    }

    /// The image-pull sample: its pulls are after the Pod's creation, and a capture time set too
    /// early places them again, before it, flagged, without analysing again.
    #[test]
    fn the_image_pull_samples_ages_are_placed_after_the_pod_and_again_when_the_capture_is_set() {
        let report = State::with_sample("image-pull").report;
        let capture = report.capture.clone().unwrap();
        assert_eq!(capture.time, "2025-02-11T09:40:05Z");
        let order = rows(
            &report,
            &Filter {
                oldest_first: true,
                ..Filter::default()
            },
            None,
        );
        let reasons: Vec<&str> = order
            .iter()
            .map(|&i| report.timeline[i].reason.as_str())
            .collect();
        let created = reasons.iter().position(|r| *r == "Created").unwrap();
        let failed = reasons.iter().position(|r| *r == "Failed").unwrap();
        assert!(created < failed, "{reasons:?}");
        let early = crate::state::anchored(&report, parse_capture("2025-02-11T09:36:00Z"));
        assert_eq!(
            early.capture.as_ref().unwrap().basis,
            faultline_report::CaptureBasis::Set
        );
        let scheduled = early.timeline.iter().find(|e| e.reason == "Scheduled").unwrap();
        assert_eq!(scheduled.time, "2025-02-11T09:31:29Z");
        assert!(scheduled.before_object_existed);
        assert!(early
            .timeline
            .iter()
            .filter(|e| e.reason == "Failed")
            .all(|e| !e.before_object_existed));
    }

    #[test]
    fn times_parse_as_the_engine_writes_them() {
        assert_eq!(parse_millis("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(parse_millis("1970-01-02T00:00:01.5Z"), Some(86_401_500));
        assert_eq!(parse_millis("2026-10-27T08:00:03Z"), Some(1_793_088_003_000));
        assert_eq!(parse_millis(""), None);
        assert_eq!(parse_millis("2026-10-27 08:00:03"), None);
        assert_eq!(clock(1_793_088_003_000, true), "2026-10-27 08:00:03");
        assert_eq!(clock(1_793_088_003_000, false), "08:00:03");
        assert_eq!(short_clock(1_793_088_003_000), "10-27 08:00:03");
    }

    /// The engine's one heuristic: `web-canary1` is not a Pod of `web` (the app once filed it
    /// there); generated names are.
    #[test]
    fn generated_names_group_under_their_workload_as_the_engine_reads_them() {
        let text = "apiVersion: v1\nkind: List\nitems:\n- kind: Pod\n  metadata: {name: web-6d8f7b9c4-q2w8x, namespace: shop, creationTimestamp: '2026-01-01T00:00:00Z'}\n  spec: {containers: []}\n- kind: Pod\n  metadata: {name: web-canary1, namespace: shop, creationTimestamp: '2026-01-01T00:00:01Z'}\n  spec: {containers: []}\n- kind: Pod\n  metadata: {name: db-0, namespace: shop, creationTimestamp: '2026-01-01T00:00:02Z'}\n  spec: {containers: []}\n";
        let report = faultline_engine::analyze(&[faultline_engine::Source::new("p.yaml", text)]);
        let owners = owners(&report);
        let pod = |name: &str| ObjectRef {
            kind: "Pod".into(),
            namespace: Some("shop".into()),
            name: name.into(),
            uid: None,
        };
        assert_eq!(
            owners.group(&pod("web-6d8f7b9c4-q2w8x")),
            ("web".to_string(), true)
        );
        assert_eq!(
            owners.group(&pod("web-canary1")),
            ("web-canary1".to_string(), false)
        );
        assert_eq!(owners.group(&pod("db-0")), ("db-0".to_string(), false));
        assert_eq!(lane_label(&owners, &pod("web-canary1")), "shop ▸ Pod web-canary1");
    }

    #[test]
    fn healthy_sample_rows_filter_and_group() {
        let report = State::with_sample("healthy").report;
        let all = rows(&report, &Filter::default(), None);
        assert_eq!(all.len(), report.timeline.len());
        assert!(
            all.windows(2).all(|w| w[0] > w[1]),
            "newest first by default: the engine's time order, reversed"
        );
        let oldest = rows(
            &report,
            &Filter {
                oldest_first: true,
                ..Filter::default()
            },
            None,
        );
        assert!(
            oldest.windows(2).all(|w| w[0] < w[1]),
            "oldest first: the engine's order"
        );
        let pods = rows(
            &report,
            &Filter {
                kind: Some("Pod".into()),
                ..Filter::default()
            },
            None,
        );
        assert!(!pods.is_empty() && pods.iter().all(|&i| report.timeline[i].subject.kind == "Pod"));
        let warnings = Filter {
            warnings_only: true,
            ..Filter::default()
        };
        assert!(
            rows(&report, &warnings, None).is_empty(),
            "a healthy cluster has no Warning events"
        );
        let grouped = rows(
            &report,
            &Filter {
                by_object: true,
                ..Filter::default()
            },
            None,
        );
        let owners = owners(&report);
        let lanes: Vec<_> = grouped
            .iter()
            .map(|&i| lane_key(&owners, &report.timeline[i].subject))
            .collect();
        assert!(lanes.windows(2).all(|w| w[0] <= w[1]));
        let kinds: Vec<&str> = grouped
            .iter()
            .map(|&i| report.timeline[i].subject.kind.as_str())
            .collect();
        let first = |k: &str| kinds.iter().position(|x| *x == k).unwrap();
        assert!(first("Deployment") < first("ReplicaSet") && first("ReplicaSet") < first("Pod"));
        assert_eq!(
            kinds.last(),
            Some(&"Node"),
            "nodes are their own lanes, after workloads"
        );
    }

    /// Owner references whose names a controller would not generate: the guess would put each
    /// object in its own lane; the graph puts them under their Deployment.
    const CHAIN: &str = "apiVersion: v1\nkind: List\nitems:\n- kind: Deployment\n  metadata: {name: storefront, namespace: shop, creationTimestamp: '2026-01-01T00:00:00Z'}\n- kind: ReplicaSet\n  metadata:\n    name: blue\n    namespace: shop\n    creationTimestamp: '2026-01-01T00:00:01Z'\n    ownerReferences: [{kind: Deployment, name: storefront}]\n- kind: Pod\n  metadata:\n    name: alpha\n    namespace: shop\n    creationTimestamp: '2026-01-01T00:00:02Z'\n    ownerReferences: [{kind: ReplicaSet, name: blue}]\n  spec: {containers: []}\n- kind: Pod\n  metadata: {name: aardvark-6d8f7b9c4-q2w8x, namespace: shop, creationTimestamp: '2026-01-01T00:00:03Z'}\n  spec: {containers: []}\n";

    #[test]
    fn lanes_follow_owner_references_and_guess_only_without_them() {
        let state = reduce_paste(CHAIN);
        let report = &state.report;
        let owners = owners(report);
        let pod = |name: &str| ObjectRef {
            kind: "Pod".into(),
            namespace: Some("shop".into()),
            name: name.into(),
            uid: None,
        };
        assert_eq!(owners.group(&pod("alpha")), ("storefront".to_string(), false));
        assert_eq!(
            lane_label(&owners, &pod("alpha")),
            "shop ▸ storefront ▸ Pod alpha"
        );
        assert_eq!(
            lane_label(&owners, &pod("aardvark-6d8f7b9c4-q2w8x")),
            "shop ▸ ≈aardvark ▸ Pod aardvark-6d8f7b9c4-q2w8x",
            "no ownerReferences: the guess, marked"
        );
        let grouped = rows(
            report,
            &Filter {
                by_object: true,
                ..Filter::default()
            },
            None,
        );
        let names: Vec<&str> = grouped
            .iter()
            .map(|&i| report.timeline[i].subject.name.as_str())
            .collect();
        // The guessed `aardvark` group sorts first by name; the stated chain stays together, in
        // owner order, though `alpha` and `blue` sort before `storefront`.
        assert_eq!(names, ["aardvark-6d8f7b9c4-q2w8x", "storefront", "blue", "alpha"]);
    }

    fn reduce_paste(text: &str) -> State {
        use crate::state::Action;
        use std::rc::Rc;
        use yew::Reducible;
        let state = Rc::new(State::default()).reduce(Action::Clear);
        // The worker's answer, run natively.
        crate::state::tests::settled((*state.reduce(Action::EditPaste(text.into()))).clone())
    }

    #[test]
    fn warning_and_boundary_filters_follow_the_report() {
        let report = State::with_sample("readiness").report;
        let warnings = rows(
            &report,
            &Filter {
                warnings_only: true,
                ..Filter::default()
            },
            None,
        );
        assert!(!warnings.is_empty());
        assert!(warnings.iter().all(|&i| report.timeline[i].warning));
        let boundary = report.findings[0].boundary;
        let related = rows(
            &report,
            &Filter {
                boundary: Some(boundary),
                ..Filter::default()
            },
            None,
        );
        assert!(related.iter().all(|&i| report
            .findings
            .iter()
            .any(|f| f.boundary == boundary && f.subject == report.timeline[i].subject)));
    }

    #[test]
    fn zoom_and_pan_stay_inside_the_extent() {
        let extent = (0, 100_000);
        let z = zoom(extent, extent, 0.5);
        assert_eq!(z, (25_000, 75_000));
        assert_eq!(pan(z, extent, 1.0), (50_000, 100_000));
        assert_eq!(pan(z, extent, -10.0), (0, 50_000));
        assert_eq!(zoom(z, extent, 4.0), extent);
        let report = State::with_sample("healthy").report;
        let (lo, hi) = extent_of(&report);
        let narrow = rows(&report, &Filter::default(), Some((hi, hi)));
        assert!(narrow.len() < report.timeline.len() && !narrow.is_empty());
        assert!(lo < hi);
    }

    fn extent_of(report: &Report) -> (i64, i64) {
        extent(report).unwrap()
    }
}
