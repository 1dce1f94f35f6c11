//! One analysis, as the worker runs it: redact (when asked), analyse with progress and send the report
//! in parts ([`run`]); then, when the page asks (once it has shown the report, so that its render
//! does not share the CPU with the scan), scan the same reading of the inputs for secrets and send
//! those ([`scan`]). The report's messages stay in the worker: the page asks for its texts in
//! another language ([`localize`]) rather than for another analysis.

use faultline_engine::ingest::Ingested;
use faultline_engine::message::Message;
use faultline_engine::redact::{self, ScanOptions, SecretHit};
use faultline_engine::{
    analyze_for_scan, analyze_read_for_scan, Digests, Lang, Options, Phase, Progress, Reading, Report, Source,
};

use crate::protocol::{self, Excerpt, Head, Job, Reply, Secret, Timing, Warmed};
use crate::texts::{self, Texts};

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

/// What the worker keeps of a report it sent: its messages, each with its sentence's place in the
/// report ([`texts::messages`]), and nothing else of the report. The report sent is without them
/// ([`Report::strip_messages`]).
#[derive(Default)]
struct Kept {
    messages: Vec<(u32, Message)>,
}

impl Kept {
    /// Takes the messages out of `report`.
    fn take(report: &mut Report) -> Kept {
        let messages = texts::messages(report);
        report.strip_messages();
        Kept { messages }
    }

    /// The report's texts in `lang`.
    fn texts(&self, lang: Lang) -> Texts {
        Texts::of(&self.messages, lang)
    }
}

thread_local! {
    /// The values of every redaction this worker made, with their tokens (issue 42): a value
    /// redacted once is found, and replaced by the same token, in an input added later, where
    /// nothing else may say it is a secret. Kept as long as the worker lives (the page's
    /// originals are kept as long, for "Undo redaction").
    static KNOWN: std::cell::RefCell<redact::Known> = std::cell::RefCell::default();
}

/// Runs `f` with the values of this worker's redactions so far.
fn known<T>(f: impl FnOnce(&redact::Known) -> T) -> T {
    KNOWN.with(|k| f(&k.borrow()))
}

/// Runs `job` over `sources` (the job's inputs that are text; `unreadable` are the others, by name
/// and why) up to its report, sent in parts and ended by [`Reply::Reported`]. `clock` tells the time
/// in milliseconds; the steps' durations go with it, after `timings` (the steps before this call).
pub fn run(
    job: &Job,
    sources: Vec<Source>,
    unreadable: Vec<(String, protocol::Unreadable)>,
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
    unreadable: Vec<(String, protocol::Unreadable)>,
    timings: Vec<Timing>,
    clock: &dyn Fn() -> f64,
    send: &mut Send<'_>,
) -> Analysed {
    run_read(last, job, sources, None, unreadable, timings, clock, send)
}

/// A job analysed whose report is not sent yet: [`analyse_read`] then [`report`], for a caller that
/// hashes the inputs meanwhile ([`Pending::needs_digests`]).
pub struct Pending<'c> {
    id: u64,
    sources: Vec<Source>,
    reading: Reading,
    report: Report,
    unreadable: Vec<(String, protocol::Unreadable)>,
    redacted_input: bool,
    options: ScanOptions,
    steps: Steps<'c>,
    needs_digests: bool,
}

impl Pending<'_> {
    /// Whether [`report`] needs the SHA-256 of each input's text from the caller: the caller asked
    /// for it with [`Digests::Caller`] and analysed the texts it gave. When the job redacted them,
    /// the texts analysed are the redacted copy, and the engine hashed those itself.
    pub fn needs_digests(&self) -> bool {
        self.needs_digests
    }
}

/// [`run_after`] with the reading of `sources` made already (a big List read in parts by several
/// workers, [`faultline_engine::ingest::split`]): the report sent, as [`report`] sends it.
#[allow(clippy::too_many_arguments)]
pub fn run_read(
    last: Option<Analysed>,
    job: &Job,
    sources: Vec<Source>,
    read: Option<Ingested>,
    unreadable: Vec<(String, protocol::Unreadable)>,
    timings: Vec<Timing>,
    clock: &dyn Fn() -> f64,
    send: &mut Send<'_>,
) -> Analysed {
    let pending = analyse_read(
        last,
        job,
        sources,
        read,
        unreadable,
        timings,
        clock,
        Digests::Engine,
        send,
    );
    report(pending, Vec::new(), send)
}

/// [`run_after`] up to the report, not sent: with [`Digests::Caller`] and a job that does not redact,
/// the report's inputs have no SHA-256 yet, and [`report`] takes them. `read` is the reading of
/// `sources` when it was made already (by several workers): the analysis goes on from it. A job that redacts something analyses the redacted copy, which that reading is not of: it
/// reads the copy again.
#[allow(clippy::too_many_arguments)]
pub fn analyse_read<'c>(
    last: Option<Analysed>,
    job: &Job,
    sources: Vec<Source>,
    read: Option<Ingested>,
    unreadable: Vec<(String, protocol::Unreadable)>,
    timings: Vec<Timing>,
    clock: &'c dyn Fn() -> f64,
    digests: Digests,
    send: &mut Send<'_>,
) -> Pending<'c> {
    let mut read = read;
    let scan_options = ScanOptions {
        include_network: job.include_network,
    };
    let mut steps = Steps::new(timings, clock);
    let mut sources = sources;
    let mut digests = digests;
    let last_reading = last
        .filter(|last| job.redact && last.sources == sources)
        .and_then(|last| last.reading);
    if job.redact {
        let redacted = known(|known| match last_reading {
            Some(reading) => reading.redact_known(&sources, &scan_options, known),
            None => redact::redact_known(
                &sources,
                &faultline_engine::ingest::ingest_trees(&sources),
                &scan_options,
                known,
            ),
        });
        KNOWN.with(|k| *k.borrow_mut() = redacted.known.clone());
        if !redacted.hits.is_empty() {
            let texts = redacted.sources.iter().map(|s| s.text.clone()).collect();
            send(
                protocol::encode(&Reply::Redacted {
                    tokens: redacted.tokens,
                }),
                texts,
            );
            sources = redacted.sources;
            // The caller hashed the texts it sent, not this copy.
            digests = Digests::Engine;
            read = None;
        }
        steps.done("redacting");
    }
    let redacted_input = sources.iter().any(|s| s.text.contains("<redacted:"));
    let mut throttle = Throttle::default();
    let options = Options {
        lang: job.lang,
        digests,
        ..Options::default()
    };
    let mut progress = |progress: Progress| {
        steps.enter(progress.phase);
        if throttle.due(&progress, clock) {
            send(protocol::encode(&Reply::Progress(progress)), Vec::new());
        }
    };
    let (report, reading) = match read {
        Some(ingested) => analyze_read_for_scan(&sources, ingested, &options, &mut progress),
        None => analyze_for_scan(&sources, &options, &mut progress),
    };
    steps.leave();
    Pending {
        id: job.id,
        sources,
        reading,
        report,
        unreadable,
        redacted_input,
        options: scan_options,
        steps,
        needs_digests: digests == Digests::Caller,
    }
}

/// Sends the report of `pending`, with `digests` (the SHA-256 of each input's text, in lower-case
/// hex, in the order of its sources) when it [needs them](Pending::needs_digests); ends with
/// [`Reply::Reported`]. A digest missing or malformed is computed here: the report never names an
/// input by a wrong hash.
pub fn report(pending: Pending<'_>, digests: Vec<String>, send: &mut Send<'_>) -> Analysed {
    let Pending {
        id,
        sources,
        reading,
        mut report,
        unreadable,
        redacted_input,
        options,
        mut steps,
        needs_digests,
    } = pending;
    if needs_digests {
        let mut digests = digests.into_iter();
        for (input, source) in report.inputs.iter_mut().zip(&sources) {
            input.sha256 = match digests.next() {
                Some(d) if d.len() == 64 && d.bytes().all(|b| b.is_ascii_hexdigit()) => d,
                _ => faultline_engine::sha256_hex(source.text.as_bytes()),
            };
        }
        steps.done("hashing");
    }
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
        id,
        sources,
        reading: Some(reading),
        scanned: false,
        options,
        timings: steps.timings,
        kept,
    }
}

/// The texts of an analysed job's report in `lang` ([`protocol::Request::Localize`]), rendered from
/// the messages kept, not analysed again: [`Reply::Texts`] parts of about [`protocol::PART_BYTES`]
/// (the texts in the order of their sentences), then [`Reply::Localized`].
pub fn localize(analysed: &Analysed, lang: Lang, send: &mut Send<'_>) {
    let texts = analysed.kept.texts(lang);
    let mut said = texts.texts.into_iter().peekable();
    loop {
        let mut part = Texts {
            lang,
            texts: Vec::new(),
        };
        while part.bytes() < protocol::PART_BYTES {
            match said.next() {
                Some(s) => part.texts.push(s),
                None => break,
            }
        }
        let json = serde_json::to_string(&part).unwrap_or_default();
        send(protocol::encode(&Reply::Texts(json)), Vec::new());
        if said.peek().is_none() {
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
    let hits = known(|known| {
        reading.scan_known(&analysed.sources, &analysed.options, known, &mut |progress| {
            steps.enter(progress.phase);
            send(protocol::encode(&Reply::Progress(progress)), Vec::new());
        })
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

/// How many copies of the warm-up dump a step analyses: each an input of its own, with its namespaces
/// renamed so that its objects are others. The browser compiles a wasm function fast and slow on its
/// first call, and again, optimised, once it has run enough; on the 2-core machine here the first
/// 1,000-Pod analyses after a warm-up of one copy ran 1.1, 0.8 and 0.7 s before the optimised code
/// was all there (0.47 s), the compiler taking the second core meanwhile.
pub const WARM_COPIES: usize = 8;

/// What warm-up step `step` analyses: a small `kubectl get -A` dump ([`WARM_COPIES`] times), in JSON
/// on even steps and YAML on odd ones, with some of the built-in samples' tables and `describe`
/// texts. The dumps are `python3 ../shared/tools/gen-dump.py --pods 3 --format json|yaml` (46
/// objects: Pods, Events, ReplicaSets, Deployments, Services, EndpointSlices, Nodes; 219 KB and 105
/// KB).
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
    let (files, namespace) = if step % 2 == 0 {
        (JSON, "\"namespace\": \"")
    } else {
        (YAML, "namespace: ")
    };
    let mut sources: Vec<Source> = files
        .iter()
        .map(|(name, text)| Source::new(*name, *text))
        .collect();
    let (name, dump) = files[0];
    for copy in 1..WARM_COPIES {
        let renamed = dump.replace(namespace, &format!("{namespace}copy{copy}-"));
        sources.push(Source::new(format!("{copy}-{name}"), renamed));
    }
    sources
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
fn head(report: &Report, unreadable: Vec<(String, protocol::Unreadable)>, redacted_input: bool) -> Head {
    Head {
        inputs: report.inputs.clone(),
        counts: report.counts.clone(),
        errors: report.errors.clone(),
        verdict: report.verdict,
        unread: report.unread.clone(),
        capture: report.capture.clone().map(Box::new),
        decide: report.decide.clone().map(Box::new),
        paste_next: report.paste_next.clone(),
        unreadable,
        redacted_input,
        findings: report.findings.len(),
        ruled_out: report.ruled_out.len(),
        workloads: report.workloads.len(),
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
        .chain(protocol::parts("ruled-out", &report.ruled_out))
        .chain(protocol::parts("workloads", &report.workloads))
        .chain(protocol::parts("timeline", &report.timeline))
        .chain(protocol::parts("objects", &report.objects))
        .chain(protocol::parts("relations", &report.relations))
}

/// The secrets as the page lists them: kind, where, a masked preview.
fn secrets(hits: Vec<SecretHit>) -> Vec<Secret> {
    hits.into_iter()
        .map(|hit| Secret {
            kind: hit.kind.id().to_string(),
            rule: hit.rule.map(str::to_string),
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
        Phase::Judging => "judging",
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

/// [`Reply::Docs`]: every rule's documentation, in both languages, in the engine's order.
pub fn docs() -> Vec<u8> {
    let rules: Vec<_> = faultline_engine::rules::RULES.iter().map(|r| r.doc()).collect();
    protocol::encode(&Reply::Docs(protocol::docs_json(&rules)))
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
mod tests;
