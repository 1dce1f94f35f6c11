//! One analysis, as the worker runs it: redact (when asked), analyse with progress and send the report
//! in parts ([`run`]); then, when the page asks (once it has shown the report, so that its render
//! does not share the CPU with the scan), scan the same reading of the inputs for secrets and send
//! those ([`scan`]). The report's messages stay in the worker: the page asks for its texts in
//! another language ([`localize`]) rather than for another analysis.

use faultline_engine::redact::{self, ScanOptions, SecretHit};
use faultline_engine::report::{ObjectRef, Text};
use faultline_engine::{
    analyze_for_scan, Lang, Options, Phase, Progress, Reading, Report, Source, TimelineEntry,
};

use crate::protocol::{self, Excerpt, Head, Job, Reply, Secret, Timing, Warmed};
use crate::texts::{strip_messages, Texts};

/// Sends one encoded reply, with the byte arrays that travel beside it (a redacted copy's texts).
pub type Send<'a> = dyn FnMut(Vec<u8>, Vec<String>) + 'a;

/// A job whose report was sent: the texts it analysed — the redacted copy when it redacted — which the
/// worker keeps for excerpts, and their reading: until [`scan`], and after it when the scan found
/// secrets, for the redaction the page then offers ([`run_after`]: the same inputs are not read again).
pub struct Analysed {
    pub id: u64,
    pub sources: Vec<Source>,
    reading: Option<Reading>,
    scanned: bool,
    options: ScanOptions,
    timings: Vec<Timing>,
    /// The report's messages, for its texts in another language ([`localize`]).
    kept: Kept,
}

impl Analysed {
    /// Whether the reading of the inputs is still held (for a redaction of them).
    pub fn holds_reading(&self) -> bool {
        self.reading.is_some()
    }
}

/// What the worker keeps of a report it sent: its messages, in a report of their own that holds
/// nothing else of the report's (no objects, evidence or commands; of the timeline, only the entries
/// the engine wrote, whose indices in the report's timeline are `timeline_at`). The report sent is
/// without them ([`strip_messages`]).
#[derive(Default)]
struct Kept {
    report: Report,
    timeline_at: Vec<usize>,
}

impl Kept {
    /// Takes the messages out of `report`.
    fn take(report: &mut Report) -> Kept {
        let findings = report
            .findings
            .iter()
            .map(|f| {
                let mut kept = f.clone();
                kept.evidence = Vec::new();
                kept.next_steps = Vec::new();
                kept
            })
            .collect();
        let (mut timeline, mut timeline_at) = (Vec::new(), Vec::new());
        for (index, entry) in report.timeline.iter_mut().enumerate() {
            if entry.structured.is_none() && entry.estimated_from_message.is_none() {
                continue;
            }
            timeline_at.push(index);
            timeline.push(TimelineEntry {
                time: Text::default(),
                subject: ObjectRef::default(),
                source: Text::default(),
                reason: Text::default(),
                message: String::new(),
                structured: entry.structured.take(),
                count: 0,
                warning: false,
                estimated_from: None,
                estimated_from_message: entry.estimated_from_message.take(),
                age: None,
                first_age: None,
                before_object_existed: false,
                at: None,
            });
        }
        let kept = Report {
            findings,
            errors: report.errors.clone(),
            unread: report.unread.clone(),
            timeline,
            ..Report::default()
        };
        strip_messages(report);
        Kept {
            report: kept,
            timeline_at,
        }
    }

    /// The report's texts in `lang`.
    fn texts(&self, lang: Lang) -> Texts {
        let mut texts = Texts::render(&self.report, lang);
        for entry in &mut texts.timeline {
            entry.index = self.timeline_at.get(entry.index).copied().unwrap_or(usize::MAX);
        }
        texts
    }
}

/// Runs `job` over `sources` (the job's inputs that are text; `unreadable` are the others, by name
/// and why) up to its report, sent in parts and ended by [`Reply::Reported`]. `clock` tells the time
/// in milliseconds; the steps' durations go with it, after `timings` (the steps before this call).
pub fn run(
    job: &Job,
    sources: Vec<Source>,
    unreadable: Vec<(String, String)>,
    timings: Vec<Timing>,
    clock: &dyn Fn() -> f64,
    send: &mut Send<'_>,
) -> Analysed {
    run_after(None, job, sources, unreadable, timings, clock, send)
}

/// [`run`], after the `last` job: a job that redacts the very inputs `last` analysed and scanned
/// redacts them from `last`'s reading instead of reading them again (issue 26: one ingest, shared).
pub fn run_after(
    last: Option<Analysed>,
    job: &Job,
    sources: Vec<Source>,
    unreadable: Vec<(String, String)>,
    timings: Vec<Timing>,
    clock: &dyn Fn() -> f64,
    send: &mut Send<'_>,
) -> Analysed {
    let scan_options = ScanOptions {
        include_network: job.include_network,
    };
    let mut steps = Steps::new(timings, clock);
    let mut sources = sources;
    let last_reading = last
        .filter(|last| job.redact && last.sources == sources)
        .and_then(|last| last.reading);
    if job.redact {
        let redacted = match last_reading {
            Some(reading) => reading.redact(&sources, &scan_options),
            None => redact::redact(&sources, &scan_options),
        };
        if !redacted.hits.is_empty() {
            let texts = redacted.sources.iter().map(|s| s.text.clone()).collect();
            send(
                protocol::encode(&Reply::Redacted {
                    tokens: redacted.tokens,
                }),
                texts,
            );
            sources = redacted.sources;
        }
        steps.done("redacting");
    }
    let redacted_input = sources.iter().any(|s| s.text.contains("<redacted:"));
    let mut throttle = Throttle::default();
    let options = Options {
        lang: job.lang,
        ..Options::default()
    };
    let (mut report, reading) = analyze_for_scan(&sources, &options, &mut |progress| {
        steps.enter(progress.phase);
        if throttle.due(&progress, clock) {
            send(protocol::encode(&Reply::Progress(progress)), Vec::new());
        }
    });
    steps.leave();
    let kept = Kept::take(&mut report);
    for message in messages(&report, head(&report, unreadable, redacted_input)) {
        send(message, Vec::new());
    }
    steps.done("sending");
    send(
        protocol::encode(&Reply::Reported(steps.timings.clone())),
        Vec::new(),
    );
    // Freed once the page has all of it, while the page draws it: a 10k-pod report is about a
    // million allocations (95 ms to free natively), time the page need not wait for.
    drop(report);
    Analysed {
        id: job.id,
        sources,
        reading: Some(reading),
        scanned: false,
        options: scan_options,
        timings: steps.timings,
        kept,
    }
}

/// The texts of an analysed job's report in `lang` ([`protocol::Request::Localize`]), rendered from
/// the messages kept, not analysed again: [`Reply::Texts`] parts of about [`protocol::PART_BYTES`]
/// (the first with the input errors and unread reasons), then [`Reply::Localized`].
pub fn localize(analysed: &Analysed, lang: Lang, send: &mut Send<'_>) {
    let texts = analysed.kept.texts(lang);
    let mut part = Texts {
        lang,
        errors: texts.errors,
        unread: texts.unread,
        ..Texts::default()
    };
    let mut findings = texts.findings.into_iter().peekable();
    let mut timeline = texts.timeline.into_iter().peekable();
    loop {
        while protocol::texts_bytes(&part) < protocol::PART_BYTES {
            match (findings.next(), timeline.peek()) {
                (Some(f), _) => part.findings.push(f),
                (None, Some(_)) => part.timeline.extend(timeline.next()),
                (None, None) => break,
            }
        }
        let next = Texts {
            lang,
            ..Texts::default()
        };
        let json = serde_json::to_string(&std::mem::replace(&mut part, next)).unwrap_or_default();
        send(protocol::encode(&Reply::Texts(json)), Vec::new());
        if findings.peek().is_none() && timeline.peek().is_none() {
            break;
        }
    }
    send(protocol::encode(&Reply::Localized), Vec::new());
}

/// The secret scan of an analysed job, sent as [`Reply::Secrets`] parts and [`Reply::Done`] with every
/// step's duration, the scan's last. Once only: a second call sends nothing.
pub fn scan(analysed: &mut Analysed, clock: &dyn Fn() -> f64, send: &mut Send<'_>) {
    if std::mem::replace(&mut analysed.scanned, true) {
        return;
    }
    let Some(reading) = analysed.reading.take() else {
        return;
    };
    let mut steps = Steps::new(std::mem::take(&mut analysed.timings), clock);
    let hits = reading.scan(&analysed.sources, &analysed.options, &mut |progress| {
        steps.enter(progress.phase);
        send(protocol::encode(&Reply::Progress(progress)), Vec::new());
    });
    // Kept only when the page will offer to redact what was found; freed at once otherwise.
    if !hits.is_empty() {
        analysed.reading = Some(reading);
    }
    for part in protocol::parts("secrets", &secrets(hits)) {
        send(part, Vec::new());
    }
    steps.leave();
    send(protocol::encode(&Reply::Done(steps.timings)), Vec::new());
}

pub use crate::protocol::WARM_STEPS;

/// What warm-up step `step` analyses: a small `kubectl get -A` dump, in JSON on even steps and YAML on
/// odd ones, with some of the built-in samples' tables and `describe` texts. The dumps are
/// `python3 ../shared/tools/gen-dump.py --pods 3 --format json|yaml` (46 objects: Pods, Events,
/// ReplicaSets, Deployments, Services, EndpointSlices, Nodes; 219 KB and 105 KB).
pub fn warm_sources(step: u32) -> Vec<Source> {
    const JSON: [(&str, &str); 3] = [
        ("dump-3.json", include_str!("../warm/dump-3.json")),
        (
            "nodes.txt",
            include_str!("../../../static/samples/node-label/nodes.txt"),
        ),
        (
            "input.txt",
            include_str!("../../../static/samples/node-label/input.txt"),
        ),
    ];
    const YAML: [(&str, &str); 3] = [
        ("dump-3.yaml", include_str!("../warm/dump-3.yaml")),
        (
            "events.txt",
            include_str!("../../../static/samples/image-pull/events.txt"),
        ),
        (
            "objects.json",
            include_str!("../../../static/samples/publish-not-ready/objects.json"),
        ),
    ];
    let files = if step % 2 == 0 { JSON } else { YAML };
    files
        .iter()
        .map(|(name, text)| Source::new(*name, *text))
        .collect()
}

/// One warm-up step of a fresh worker, before it has a job: the whole path of a job over
/// [`warm_sources`] — analysis, the report encoded and sent in parts (the page decodes them as it
/// would a job's, then drops them: they carry no job's id), the secret scan — ended by
/// [`Reply::Warmed`]. The first big analysis in a fresh worker runs 2–3× slower than the next ones:
/// the browser compiles each wasm function on its first call and optimises it once it has run
/// enough (in the worker and on the page alike), and the memory is touched for the first time. A
/// few steps on small inputs pay much of that before the user's first input arrives.
pub fn warm(step: u32, send: &mut Send<'_>) {
    let sources = warm_sources(step);
    let (mut report, reading) = analyze_for_scan(&sources, &Options::default(), &mut |_| {});
    // Sent as a job's report is: without its messages.
    drop(Kept::take(&mut report));
    let mut bytes = 0;
    for message in messages(&report, head(&report, Vec::new(), false)) {
        bytes += message.len();
        send(message, Vec::new());
    }
    let secrets = reading.scan(&sources, &ScanOptions::default(), &mut |_| {}).len();
    let warmed = Warmed {
        step,
        objects: report.objects.len(),
        errors: report.errors.len(),
        bytes,
        secrets,
    };
    send(protocol::encode(&Reply::Warmed(warmed)), Vec::new());
}

/// The report's small parts, and how many items each large part list holds.
fn head(report: &Report, unreadable: Vec<(String, String)>, redacted_input: bool) -> Head {
    Head {
        inputs: report.inputs.clone(),
        counts: report.counts.clone(),
        errors: report.errors.clone(),
        verdict: report.verdict,
        unread: report.unread.clone(),
        workloads: report.workloads.clone(),
        capture: report.capture.clone().map(Box::new),
        unreadable,
        redacted_input,
        findings: report.findings.len(),
        timeline: report.timeline.len(),
        objects: report.objects.len(),
        relations: report.relations.len(),
    }
}

/// The report as the page receives it: its head, then its large lists in parts.
fn messages(report: &Report, head: Head) -> impl Iterator<Item = Vec<u8>> + '_ {
    std::iter::once(protocol::encode(&Reply::Head(head))).chain(parts(report))
}

/// The report's large lists, in parts.
fn parts(report: &Report) -> impl Iterator<Item = Vec<u8>> + '_ {
    protocol::parts("findings", &report.findings)
        .chain(protocol::parts("timeline", &report.timeline))
        .chain(protocol::parts("objects", &report.objects))
        .chain(protocol::parts("relations", &report.relations))
}

/// The secrets as the page lists them: kind, where, a masked preview.
fn secrets(hits: Vec<SecretHit>) -> Vec<Secret> {
    hits.into_iter()
        .map(|hit| Secret {
            kind: hit.kind.id().to_string(),
            input: hit.input,
            line: hit.line,
            column: hit.column,
            preview: hit.preview,
        })
        .collect()
}

/// The durations of the steps so far, each measured from the end of the one before; `phase` is the
/// engine's phase under way.
struct Steps<'c> {
    timings: Vec<Timing>,
    since: f64,
    clock: &'c dyn Fn() -> f64,
    phase: Option<Phase>,
}

impl<'c> Steps<'c> {
    fn new(timings: Vec<Timing>, clock: &'c dyn Fn() -> f64) -> Self {
        Steps {
            timings,
            since: clock(),
            clock,
            phase: None,
        }
    }

    /// The engine is at `phase`: the phase before it, if another, is done.
    fn enter(&mut self, phase: Phase) {
        if self.phase != Some(phase) {
            self.leave();
            self.phase = Some(phase);
        }
    }

    /// The phase under way, if any, is done.
    fn leave(&mut self) {
        if let Some(done) = self.phase.take() {
            self.done(phase_id(done));
        }
    }

    fn done(&mut self, step: &str) {
        let now = (self.clock)();
        self.timings.push(Timing {
            step: step.to_string(),
            ms: (now - self.since).max(0.0),
        });
        self.since = now;
    }
}

/// A phase's id, as its progress messages name it.
fn phase_id(phase: Phase) -> &'static str {
    match phase {
        Phase::Reading => "reading",
        Phase::Scanning => "scanning",
        Phase::Relating => "relating",
        Phase::Diagnosing => "diagnosing",
        Phase::Timeline => "timeline",
    }
}

/// Progress often enough for a smooth bar, not for every document: each phase, the end of the input,
/// and in between a message when the bytes have moved by half a per cent and [`PROGRESS_MS`] have
/// passed. Each message costs the page a task and a render: by bytes alone, 200 of them took the
/// page's main thread 113 ms of a 0.5 s analysis (a Chromium trace of the 1k-pod JSON dump).
#[derive(Default)]
struct Throttle {
    /// The last message's phase, bytes and time.
    last: Option<(Phase, u64, f64)>,
}

/// The least time between two progress messages of a phase, in milliseconds: about 25 a second.
const PROGRESS_MS: f64 = 40.0;

impl Throttle {
    /// Whether to send `progress`. The clock is read only when the bytes have moved enough.
    fn due(&mut self, progress: &Progress, clock: &dyn Fn() -> f64) -> bool {
        let step = (progress.bytes_total / 200).max(1);
        let (bytes, at) = match self.last {
            Some((phase, bytes, at)) if phase == progress.phase => (bytes, at),
            // The first message of a phase; the next may follow as soon as the bytes move.
            _ => {
                self.last = Some((progress.phase, progress.bytes_done, f64::NEG_INFINITY));
                return true;
            }
        };
        if progress.bytes_done == progress.bytes_total && bytes < progress.bytes_total {
            self.last = Some((progress.phase, progress.bytes_done, at));
            return true;
        }
        if progress.bytes_done < bytes + step {
            return false;
        }
        let now = clock();
        let due = now - at >= PROGRESS_MS;
        if due {
            self.last = Some((progress.phase, progress.bytes_done, now));
        }
        due
    }
}

/// Up to `context` lines either side of `line` (1-based) of the input named `name`.
pub fn excerpt(sources: &[Source], name: &str, line: u32, context: u32) -> Excerpt {
    let first = line.saturating_sub(context).max(1);
    let lines = sources
        .iter()
        .find(|s| s.name == name)
        .map(|s| {
            s.text
                .lines()
                .skip(first as usize - 1)
                .take((line + context + 1 - first) as usize)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    Excerpt {
        name: name.to_string(),
        line,
        first,
        lines,
    }
}

#[cfg(test)]
mod tests {
    use faultline_engine::{analyze, Report};

    use super::*;
    use crate::protocol::{decode, PART_BYTES};

    const POD: &str = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  namespace: shop\nspec:\n  nodeName: n1\n  containers:\n  - name: app\n    image: shop/web:9.9\n    env:\n    - name: DB_PASSWORD\n      value: hunter2-hunter2\nstatus:\n  phase: Pending\n  containerStatuses:\n  - name: app\n    image: shop/web:9.9\n    imageID: \"\"\n    ready: false\n    restartCount: 0\n    state:\n      waiting:\n        reason: ImagePullBackOff\n";

    fn job(redact: bool) -> Job {
        Job {
            id: 7,
            names: vec!["pod.yaml".into()],
            include_network: false,
            redact,
            lang: Lang::En,
        }
    }

    /// A report as the page holds it: decoded from JSON, without its messages.
    fn shown(mut report: Report) -> Report {
        strip_messages(&mut report);
        report
    }

    /// The image-pull sample (its rule speaks Chinese).
    fn image_pull() -> Vec<Source> {
        vec![
            Source::new(
                "pod.yaml",
                include_str!("../../../static/samples/image-pull/pod.yaml"),
            ),
            Source::new(
                "events.txt",
                include_str!("../../../static/samples/image-pull/events.txt"),
            ),
        ]
    }

    fn has_chinese(text: &str) -> bool {
        text.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
    }

    /// A clock that moves 1 ms each time it is read.
    fn tick() -> impl Fn() -> f64 {
        let now = std::cell::Cell::new(0.0);
        move || {
            now.set(now.get() + 1.0);
            now.get()
        }
    }

    /// Runs a job and reassembles what the page would: the replies in order and the report.
    fn replies(job: &Job, sources: Vec<Source>) -> (Vec<Reply>, Vec<Vec<String>>) {
        let mut replies = Vec::new();
        let mut texts = Vec::new();
        let clock = tick();
        let mut send = |bytes: Vec<u8>, extra| {
            replies.push(decode(&bytes).unwrap());
            texts.push(extra);
        };
        let mut analysed = run(job, sources, Vec::new(), Vec::new(), &clock, &mut send);
        scan(&mut analysed, &clock, &mut send);
        scan(&mut analysed, &clock, &mut send);
        (replies, texts)
    }

    fn assemble(replies: &[Reply]) -> (Report, Vec<Secret>) {
        let mut report = Report::default();
        let mut secrets = Vec::new();
        for reply in replies {
            match reply.clone() {
                Reply::Head(head) => {
                    report.inputs = head.inputs;
                    report.counts = head.counts;
                    report.errors = head.errors;
                    report.verdict = head.verdict;
                    report.unread = head.unread;
                    report.workloads = head.workloads;
                    report.capture = head.capture.map(|c| *c);
                }
                Reply::Findings(f) => report.findings.extend(f),
                Reply::Timeline(t) => report.timeline.extend(t),
                Reply::Objects(o) => report.objects.extend(o),
                Reply::Relations(r) => report.relations.extend(r),
                Reply::Secrets(s) => secrets.extend(s),
                _ => {}
            }
        }
        (report, secrets)
    }

    #[test]
    fn the_report_sent_in_parts_is_the_engines_report_and_the_secrets_follow_it() {
        let sources = vec![Source::new("pod.yaml", POD)];
        let (replies, _) = replies(&job(false), sources.clone());
        assert!(matches!(replies.first(), Some(Reply::Progress(_))), "{replies:?}");
        let Some(Reply::Done(timings)) = replies.last() else {
            panic!("not done: {:?}", replies.last())
        };
        // Each step once, in order, each 1 ms on a clock that ticks 1 ms per reading.
        let steps: Vec<_> = timings.iter().map(|t| (t.step.as_str(), t.ms)).collect();
        assert_eq!(
            steps,
            [
                ("reading", 1.0),
                ("relating", 1.0),
                ("diagnosing", 1.0),
                ("timeline", 1.0),
                ("sending", 1.0),
                ("scanning", 1.0)
            ]
        );
        // The report is complete before the scan starts: every report part, then `Reported` with the
        // steps so far, then the scan's progress and the secrets.
        let at = |p: fn(&Reply) -> bool| replies.iter().position(p).unwrap();
        let reported = at(|r| matches!(r, Reply::Reported(_)));
        let Reply::Reported(so_far) = &replies[reported] else {
            unreachable!()
        };
        assert_eq!(so_far[..], timings[..5]);
        let report_parts = |r: &Reply| {
            matches!(
                r,
                Reply::Head(_)
                    | Reply::Findings(_)
                    | Reply::Timeline(_)
                    | Reply::Objects(_)
                    | Reply::Relations(_)
            )
        };
        assert!(
            replies[reported..].iter().all(|r| !report_parts(r)),
            "{replies:?}"
        );
        let scanning = at(|r| matches!(r, Reply::Progress(p) if p.phase == Phase::Scanning));
        assert!(reported < scanning && scanning < at(|r| matches!(r, Reply::Secrets(_))));
        let (report, secrets) = assemble(&replies);
        assert_eq!(report, shown(analyze(&sources)));
        let done = replies.iter().filter(|r| matches!(r, Reply::Done(_))).count();
        assert_eq!(done, 1, "asked twice, scanned once");
        assert_eq!(secrets.len(), 1);
        assert_eq!((secrets[0].kind.as_str(), secrets[0].line), ("env-secret", 13));
    }

    #[test]
    fn a_redacting_job_sends_the_copy_first_then_the_analysis_of_the_copy() {
        let (replies, texts) = replies(&job(true), vec![Source::new("pod.yaml", POD)]);
        let at = replies
            .iter()
            .position(|r| matches!(r, Reply::Redacted { tokens: 1 }))
            .unwrap();
        assert!(texts[at][0].contains("value: <redacted:env-secret:1>"));
        assert!(!texts[at][0].contains("hunter2"));
        let Some(Reply::Head(head)) = replies.iter().find(|r| matches!(r, Reply::Head(_))) else {
            panic!("no head")
        };
        assert!(head.redacted_input);
        assert!(
            !replies.iter().any(|r| matches!(r, Reply::Secrets(_))),
            "nothing left to redact"
        );
    }

    /// Issue 26, one ingest: the redaction the page asks for after a scan that found secrets is made
    /// from that analysis's reading (kept for it), and is the same as a redaction that reads the
    /// inputs again; a scan that found nothing frees its reading.
    #[test]
    fn a_redaction_after_a_scan_uses_its_reading_and_is_the_same() {
        let sources = vec![Source::new("pod.yaml", POD)];
        let clock = tick();
        let mut ignore = |_: Vec<u8>, _: Vec<String>| {};
        let mut analysed = run(
            &job(false),
            sources.clone(),
            Vec::new(),
            Vec::new(),
            &clock,
            &mut ignore,
        );
        scan(&mut analysed, &clock, &mut ignore);
        assert!(analysed.holds_reading(), "secrets found: kept for the redaction");
        let record = |last: Option<Analysed>| {
            let mut replies = Vec::new();
            let mut send =
                |bytes: Vec<u8>, texts: Vec<String>| replies.push((decode(&bytes).unwrap(), texts));
            let clock = tick();
            run_after(
                last,
                &job(true),
                sources.clone(),
                Vec::new(),
                Vec::new(),
                &clock,
                &mut send,
            );
            replies
        };
        assert_eq!(record(Some(analysed)), record(None));
        // The kept reading is what redacts: given the reading of another text (which the worker
        // never keeps for these inputs), the copy is another one.
        let other = [Source::new(
            "pod.yaml",
            "kind: Secret\nmetadata:\n  name: s\ndata:\n  a: c2VjcmV0LXZhbHVl\n",
        )];
        let (_, reading) = analyze_for_scan(&other, &Options::default(), &mut |_| {});
        let wrong = Analysed {
            id: 1,
            sources: sources.clone(),
            reading: Some(reading),
            scanned: true,
            options: ScanOptions::default(),
            timings: Vec::new(),
            kept: Kept::default(),
        };
        assert_ne!(record(Some(wrong)), record(None));
        // Other inputs than the last job's are read again; and without secrets nothing is kept.
        let quiet = vec![Source::new("pod.yaml", POD.replace("DB_PASSWORD", "DB_HOST"))];
        let mut analysed = run(&job(false), quiet, Vec::new(), Vec::new(), &clock, &mut ignore);
        scan(&mut analysed, &clock, &mut ignore);
        assert!(!analysed.holds_reading());
    }

    #[test]
    fn parts_stay_near_their_size_and_progress_is_throttled() {
        // Many pods: a timeline bigger than one part.
        let text: String = (0..600)
            .map(|i| POD.replace("name: web", &format!("name: web-{i}")))
            .collect::<Vec<_>>()
            .join("---\n");
        let sources = vec![Source::new("pods.yaml", text.clone())];
        let mut sizes = Vec::new();
        let mut progress = 0;
        let clock = tick();
        let mut send = |bytes: Vec<u8>, _| match decode(&bytes).unwrap() {
            Reply::Progress(_) => progress += 1,
            Reply::Findings(_)
            | Reply::Timeline(_)
            | Reply::Secrets(_)
            | Reply::Objects(_)
            | Reply::Relations(_) => sizes.push(bytes.len()),
            _ => {}
        };
        let mut analysed = run(
            &job(false),
            sources.clone(),
            Vec::new(),
            Vec::new(),
            &clock,
            &mut send,
        );
        scan(&mut analysed, &clock, &mut send);
        assert!(sizes.len() > 2, "{sizes:?}");
        assert!(sizes.iter().all(|s| *s < PART_BYTES + 16 * 1024), "{sizes:?}");
        assert!(progress <= 210, "{progress} progress messages");
        // The texts in another language too.
        let mut texts = Vec::new();
        localize(&analysed, Lang::Zh, &mut |bytes, _| {
            if matches!(decode(&bytes), Ok(Reply::Texts(_))) {
                texts.push(bytes.len());
            }
        });
        assert!(texts.len() > 1, "{texts:?}");
        assert!(texts.iter().all(|s| *s < PART_BYTES + 16 * 1024), "{texts:?}");
    }

    #[test]
    fn progress_goes_at_most_every_40_ms_within_a_phase_and_at_once_at_its_end_or_a_new_phase() {
        let total = 1_000_000;
        let at = |phase, bytes_done| Progress {
            phase,
            bytes_done,
            bytes_total: total,
            documents: 0,
        };
        let mut throttle = Throttle::default();
        // 1,000 documents of 1,000 bytes, one a millisecond.
        let sent: Vec<u64> = (1..=1000)
            .filter(|i| throttle.due(&at(Phase::Reading, i * 1000), &|| *i as f64))
            .collect();
        // The first; the first after half a per cent of the bytes (5 documents); then one each 40 ms;
        // the end.
        let expected: Vec<u64> = [1]
            .into_iter()
            .chain((6..=966).step_by(40))
            .chain([1000])
            .collect();
        assert_eq!(sent, expected);
        // A new phase goes at once, whatever the time; then the same rule.
        assert!(throttle.due(&at(Phase::Relating, total), &|| 1000.5));
        assert!(!throttle.due(&at(Phase::Relating, total), &|| 1001.0));
        // Bytes that hardly moved wait, however long it has been.
        let mut throttle = Throttle::default();
        assert!(throttle.due(&at(Phase::Reading, 0), &|| 0.0));
        assert!(!throttle.due(&at(Phase::Reading, 4_999), &|| 500.0));
        assert!(throttle.due(&at(Phase::Reading, 5_000), &|| 500.0));
    }

    #[test]
    fn a_warm_up_step_is_a_whole_job_over_a_dump_in_json_then_yaml() {
        for step in 0..4 {
            let sources = warm_sources(step);
            let report = analyze(&sources);
            let format = if step % 2 == 0 { "json-list" } else { "yaml-list" };
            assert_eq!(report.inputs[0].format, format, "step {step}");
            // Every input is read: the dump's kinds, the tables and describe texts.
            assert!(report.errors.is_empty(), "step {step}: {:?}", report.errors);
            assert!(report.inputs.iter().all(|i| i.objects > 0), "{:?}", report.inputs);
            assert_eq!(report.inputs[0].kinds.len(), 7, "{:?}", report.inputs[0].kinds);
            let mut replies = Vec::new();
            warm(step, &mut |bytes, _| replies.push(decode(&bytes).unwrap()));
            let Some(Reply::Warmed(warmed)) = replies.pop() else {
                panic!("not ended by a warm-up reply: {replies:?}")
            };
            assert_eq!(warmed.step, step);
            assert_eq!((warmed.objects, warmed.errors), (report.objects.len(), 0));
            // Before it, the report in parts, as a job's would be sent: it is the engine's report.
            let (sent, _) = assemble(&replies);
            assert_eq!(sent, shown(report.clone()));
            assert!(replies
                .iter()
                .all(|r| !matches!(r, Reply::Reported(_) | Reply::Done(_))));
            // The parts of the report as sent: without its messages, which the worker keeps.
            let parts: usize = parts(&shown(report.clone())).map(|p| p.len()).sum();
            assert!(warmed.bytes > parts && parts > 10_000, "{} {parts}", warmed.bytes);
        }
    }

    /// The page's half of a switch of language: the texts' replies put together and applied to the
    /// report it holds.
    fn apply_texts(report: &Report, replies: &[Reply]) -> Report {
        let mut texts = Texts::default();
        for reply in replies {
            if let Reply::Texts(part) = reply {
                texts.merge(serde_json::from_str(part).unwrap());
            }
        }
        texts.applied(report)
    }

    #[test]
    fn a_job_is_analysed_in_its_language() {
        let zh = Job {
            lang: Lang::Zh,
            ..job(false)
        };
        let (replies, _) = replies(&zh, image_pull());
        let (report, _) = assemble(&replies);
        let options = Options {
            lang: Lang::Zh,
            ..Options::default()
        };
        assert_eq!(
            report,
            shown(faultline_engine::analyze_with(&image_pull(), &options))
        );
        let pull = report
            .findings
            .iter()
            .find(|f| f.rule == "image-pull-failed")
            .unwrap();
        assert!(has_chinese(&pull.summary), "{}", pull.summary);
        assert!(
            pull.cannot_establish.iter().all(|c| has_chinese(c)),
            "{:?}",
            pull.cannot_establish
        );
        // The messages stay in the worker: the page never reads them.
        let parts: Vec<u8> = replies.iter().flat_map(protocol::encode).collect();
        assert!(!String::from_utf8_lossy(&parts).contains("\"args\""));
    }

    /// Issue 24: a switch of language renders the last report's messages again, with no analysis,
    /// and sends its texts only; put into the report the page holds, they make the report the job
    /// would have made in that language.
    #[test]
    fn the_last_report_is_rendered_in_another_language_without_analysing_again() {
        let sources = image_pull();
        let clock = tick();
        let mut sent = Vec::new();
        let mut send = |bytes: Vec<u8>, _: Vec<String>| sent.push(decode(&bytes).unwrap());
        let analysed = run(
            &job(false),
            sources.clone(),
            Vec::new(),
            Vec::new(),
            &clock,
            &mut send,
        );
        let (english, _) = assemble(&sent);
        let zh = Options {
            lang: Lang::Zh,
            ..Options::default()
        };
        for lang in [Lang::Zh, Lang::En, Lang::Zh] {
            let mut replies = Vec::new();
            localize(&analysed, lang, &mut |bytes, _| {
                replies.push(decode(&bytes).unwrap())
            });
            let first = match replies.first() {
                Some(Reply::Texts(json)) => serde_json::from_str::<Texts>(json).unwrap(),
                other => panic!("{other:?}"),
            };
            assert_eq!(first.lang, lang);
            assert_eq!(replies.last(), Some(&Reply::Localized));
            assert!(
                replies
                    .iter()
                    .all(|r| matches!(r, Reply::Texts(_) | Reply::Localized)),
                "no progress, no report: nothing analysed: {replies:?}"
            );
            let localized = apply_texts(&english, &replies);
            let expected = match lang {
                Lang::Zh => faultline_engine::analyze_with(&sources, &zh),
                Lang::En => analyze(&sources),
            };
            assert_eq!(localized, shown(expected), "{lang:?}");
            let pull = localized
                .findings
                .iter()
                .find(|f| f.rule == "image-pull-failed")
                .unwrap();
            assert_eq!(has_chinese(&pull.summary), lang == Lang::Zh, "{}", pull.summary);
        }
    }

    /// The texts rendered from the messages are what [`Report::localize`] makes, in every language,
    /// for every built-in sample and a report with input errors.
    #[test]
    fn rendered_texts_are_the_localized_reports() {
        let broken = vec![Source::new("paste", "kind: Pod\nmetadata: [unclosed\n")];
        for sources in [image_pull(), warm_sources(0), warm_sources(1), broken] {
            let english = analyze(&sources);
            let mut kept = english.clone();
            let kept = Kept::take(&mut kept);
            for lang in Lang::ALL {
                let mut localized = english.clone();
                localized.localize(lang);
                let mut shown_then = shown(english.clone());
                Texts::render(&english, lang).apply(&mut shown_then);
                assert_eq!(shown_then, shown(localized.clone()), "{lang:?}");
                let mut from_kept = shown(english.clone());
                kept.texts(lang).apply(&mut from_kept);
                assert_eq!(from_kept, shown(localized), "{lang:?}");
                // The page's copy with the texts in it is the same.
                let copy = kept.texts(lang).applied(&shown(english.clone()));
                assert_eq!(copy, from_kept, "{lang:?}");
            }
        }
    }

    #[test]
    fn an_excerpt_is_the_lines_around_one_line() {
        let sources = vec![Source::new("pod.yaml", POD)];
        let e = excerpt(&sources, "pod.yaml", 3, 1);
        assert_eq!(e.first, 2);
        assert_eq!(e.lines, ["kind: Pod", "metadata:", "  name: web"]);
        assert!(excerpt(&sources, "other", 3, 1).lines.is_empty());
    }
}
