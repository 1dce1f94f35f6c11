//! Faultline's engine: text that `kubectl` printed in, a [`Report`] out.
//!
//! Pure and deterministic: no I/O, no clock, no randomness; the same inputs always give the same
//! report in the same order. Data flows one way: ingest -> model -> rules -> report.

pub mod messages;

pub use faultline_ingest as ingest;
pub use faultline_model as model;
pub use faultline_redact as redact;
pub use faultline_render as render;
pub use faultline_render::changes;
pub use faultline_report as report;
pub use faultline_report::{lang, message};
pub use faultline_report::{Phase, Progress};
pub use faultline_rules as rules;

use std::collections::BTreeMap;

pub use ingest::Source;
pub use k8s_openapi::jiff::Timestamp;
pub use lang::Lang;
pub use report::{
    AgeAnchor, Boundary, Capture, CaptureBasis, Component, Confidence, Decider, Evidence, Fact, FactKind,
    FactState, Finding, InputError, InputSummary, MapEndpoint, MapObject, ObjectRef, ObjectState, Relation,
    RelationKind, Replicas, Report, RuledOut, Severity, Text, TimelineEntry, Unread, Verdict, WorkloadOf,
};

/// Choices the user can make about an analysis.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// When the pasted output was captured, to place ages (`4m31s`) on the timeline. Without it, the
    /// newest absolute timestamp in the input is used, and each placed entry says so.
    pub captured_at: Option<k8s_openapi::jiff::Timestamp>,
    /// The language of the report's texts ([`Report::localize`] renders them in another).
    pub lang: Lang,
    /// Who computes each input's SHA-256 for the report ([`report::InputSummary::sha256`]).
    pub digests: Digests,
}

/// Who computes the SHA-256 of each input the report names.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Digests {
    /// The engine, before it returns the report.
    #[default]
    Engine,
    /// The caller, who has a faster hash than this code compiled to wasm: the app's worker asks the
    /// browser's WebCrypto, which hashes on a thread of its own while the engine analyses (wasm has
    /// no SHA instructions: on the 1k-pod JSON dump the hash was most of the timeline stage). The
    /// report's `sha256` fields are left empty for the caller to fill before anyone sees them.
    Caller,
}

/// Analyses every input together and returns the report.
pub fn analyze(sources: &[Source]) -> Report {
    analyze_with(sources, &Options::default())
}

/// [`analyze`] with options.
pub fn analyze_with(sources: &[Source], options: &Options) -> Report {
    analyze_observed(sources, options, &mut |_| {})
}

/// [`analyze_with`], telling `progress` how far it has got. The callback cannot stop the analysis:
/// the app cancels by terminating the worker the engine runs in, which frees everything at once.
pub fn analyze_observed(sources: &[Source], options: &Options, progress: &mut dyn FnMut(Progress)) -> Report {
    let ingested = read(sources, progress);
    diagnose(sources, &ingested, None, options, None, progress)
}

/// [`analyze_observed`], keeping the reading of the inputs for a secret scan later
/// ([`Reading::scan`]): what the app's worker runs, so that the report goes to the page before the
/// scan starts and the inputs are read once for both.
pub fn analyze_for_scan(
    sources: &[Source],
    options: &Options,
    progress: &mut dyn FnMut(Progress),
) -> (Report, Reading) {
    let ingested = read(sources, progress);
    let report = diagnose(sources, &ingested, None, options, None, progress);
    (report, Reading { ingested })
}

/// [`analyze_for_scan`] of inputs already read, as [`ingest::ingest_observed`] reads them: the app's
/// worker reads a big List in parts on several threads and merges them ([`ingest::split`]); the rest
/// of the analysis is the same. Progress starts past reading ([`Phase::Relating`]).
pub fn analyze_read_for_scan(
    sources: &[Source],
    ingested: ingest::Ingested,
    options: &Options,
    progress: &mut dyn FnMut(Progress),
) -> (Report, Reading) {
    let report = diagnose(sources, &ingested, None, options, None, progress);
    (report, Reading { ingested })
}

/// [`analyze_read_for_scan`] with the inputs' [`model::Prescan`], found while they were read: the
/// command line reads on one core and prescans (and hashes) on another. The report is the same.
///
/// The rules' and the timeline's halves of the analysis run as `join` runs them ([`Join`]).
pub fn analyze_read_prescanned(
    sources: &[Source],
    ingested: ingest::Ingested,
    prescan: model::Prescan,
    options: &Options,
    join: &impl Join,
    progress: &mut dyn FnMut(Progress),
) -> (Report, Reading) {
    let halves = |model: &model::Model<'_>| {
        join.join(
            || faultline_judge::judge(model, rules::check_all(model)),
            || timeline_half(model, options),
        )
    };
    let report = diagnose(
        sources,
        &ingested,
        Some(prescan),
        options,
        Some(&halves),
        progress,
    );
    (report, Reading { ingested })
}

/// The inputs as [`analyze_for_scan`] read them, kept for [`Reading::scan`].
pub struct Reading {
    ingested: ingest::Ingested,
}

impl Reading {
    /// [`redact::scan`] of the inputs this reading is of (`sources` must be the same), without
    /// reading them again; the last phase of an analysis ([`Phase::Scanning`]).
    pub fn scan(
        &self,
        sources: &[Source],
        scan: &redact::ScanOptions,
        progress: &mut dyn FnMut(Progress),
    ) -> Vec<redact::SecretHit> {
        stage(sources, &self.ingested, Phase::Scanning, progress);
        redact::scan_ingested(sources, &self.ingested, scan)
    }

    /// [`redact::redact`] of the inputs this reading is of (`sources` must be the same), without
    /// reading them again: the app's worker redacts what it analysed and scanned from this one
    /// reading when the user asks for a redacted copy of the same inputs.
    pub fn redact(&self, sources: &[Source], scan: &redact::ScanOptions) -> redact::Redacted {
        redact::redact_ingested(sources, &self.ingested, scan)
    }

    /// [`Reading::scan`], also finding the values of earlier redactions ([`redact::scan_known`]).
    pub fn scan_known(
        &self,
        sources: &[Source],
        scan: &redact::ScanOptions,
        known: &redact::Known,
        progress: &mut dyn FnMut(Progress),
    ) -> Vec<redact::SecretHit> {
        stage(sources, &self.ingested, Phase::Scanning, progress);
        redact::scan_known(sources, &self.ingested, scan, known)
    }

    /// [`Reading::redact`], also replacing the values of earlier redactions by their tokens
    /// ([`redact::redact_known`]).
    pub fn redact_known(
        &self,
        sources: &[Source],
        scan: &redact::ScanOptions,
        known: &redact::Known,
    ) -> redact::Redacted {
        redact::redact_known(sources, &self.ingested, scan, known)
    }
}

fn read(sources: &[Source], progress: &mut dyn FnMut(Progress)) -> ingest::Ingested {
    let bytes_total = sources.iter().map(|s| s.text.len() as u64).sum();
    ingest::ingest_observed(sources, &mut |bytes_done, documents| {
        progress(Progress {
            phase: Phase::Reading,
            bytes_done,
            bytes_total,
            documents,
        })
    })
}

/// Tells `progress` that the analysis, past reading, is at `phase`.
fn stage(sources: &[Source], ingested: &ingest::Ingested, phase: Phase, progress: &mut dyn FnMut(Progress)) {
    let bytes_total = sources.iter().map(|s| s.text.len() as u64).sum();
    progress(Progress {
        phase,
        bytes_done: bytes_total,
        bytes_total,
        documents: ingested.inputs.iter().map(|i| i.documents as u64).sum(),
    })
}

/// Runs the two halves of an analysis that only read the model, and gives both results: the rules
/// and judging ([`Phase::Diagnosing`]), and the timeline and the object map. The engine has no
/// threads: [`Sequential`] runs one half, then the other; a caller with threads may run them at
/// once (the command line does, with `std::thread::scope`). The report is the same either way.
pub trait Join {
    fn join<A: Send, B: Send>(&self, a: impl FnOnce() -> A + Send, b: impl FnOnce() -> B + Send) -> (A, B);
}

/// [`Join`] on one thread: `a`, then `b`.
pub struct Sequential;

impl Join for Sequential {
    fn join<A: Send, B: Send>(&self, a: impl FnOnce() -> A + Send, b: impl FnOnce() -> B + Send) -> (A, B) {
        let a = a();
        (a, b())
    }
}

/// The two halves of an analysis, as a [`Join`] runs them: the findings, and the timeline's half.
type Halves<'j> = dyn Fn(&model::Model<'_>) -> (Vec<Finding>, TimelineHalf) + 'j;

/// What the timeline half of an analysis makes ([`Join`]).
struct TimelineHalf {
    timeline: Vec<TimelineEntry>,
    capture: Option<Capture>,
    objects: Vec<MapObject>,
    relations: Vec<Relation>,
}

fn timeline_half(model: &model::Model<'_>, options: &Options) -> TimelineHalf {
    let (timeline, capture) = model::timeline::build(model, options.captured_at);
    let (objects, relations) = model::map::build(model);
    TimelineHalf {
        timeline,
        capture,
        objects,
        relations,
    }
}

/// Everything after reading: the model, the rules, the timeline and the object graph. Without a
/// [`Join`], each phase is told to `progress` as it starts; with one, the rules' and the timeline's
/// halves run as it runs them, told as one phase ([`Phase::Diagnosing`]).
fn diagnose(
    sources: &[Source],
    ingested: &ingest::Ingested,
    prescan: Option<model::Prescan>,
    options: &Options,
    join: Option<&Halves<'_>>,
    progress: &mut dyn FnMut(Progress),
) -> Report {
    let mut stage = |phase| stage(sources, ingested, phase, progress);
    stage(Phase::Relating);
    let model = match prescan {
        Some(prescan) => model::Model::build_prescanned(sources, ingested, prescan),
        None => model::Model::build(sources, ingested),
    };
    stage(Phase::Diagnosing);
    let (mut findings, half) = match join {
        Some(join) => {
            let both = join(&model);
            stage(Phase::Timeline);
            both
        }
        None => {
            let found = rules::check_all(&model);
            stage(Phase::Judging);
            let findings = faultline_judge::judge(&model, found);
            stage(Phase::Timeline);
            (findings, timeline_half(&model, options))
        }
    };
    let TimelineHalf {
        timeline,
        capture,
        objects,
        relations,
    } = half;
    let differential = faultline_judge::differential(&model, &mut findings, &timeline);
    let workloads = model::owners::workloads(&objects, &relations, &timeline);
    let mut counts = BTreeMap::new();
    for object in &ingested.objects {
        *counts.entry(object.id.kind.to_string()).or_insert(0) += 1;
    }
    // Rows of event tables are events too (counted as objects in their input's summary).
    if !ingested.table_events.is_empty() {
        *counts.entry("Event".to_string()).or_insert(0) += ingested.table_events.len();
    }
    let unread: Vec<report::Unread> = ingested
        .unread
        .iter()
        .map(|(source, u)| report::Unread {
            source: sources[*source].name.clone(),
            line: u.line,
            end_line: u.end_line,
            reason: report::Sentence::from_parts(u.reason.sentence().to_string(), Some(u.reason.message())),
            reason_id: u.reason.id().to_string(),
        })
        .collect();
    let mut unread = unread;
    // Where nothing was found, a line that reads like a failure and that nothing could read is
    // quoted: the report cannot call the input healthy while it says something failed.
    if !findings
        .iter()
        .any(|f| matches!(f.severity, report::Severity::Error | report::Severity::Warning))
    {
        let why = ingest::fragments::UnreadReason::FailureLooking;
        for (source, line) in model::known::unknown_failure_lines(&model, 5) {
            unread.push(report::Unread {
                source: sources[source].name.clone(),
                line,
                end_line: line,
                reason: report::Sentence::from_parts(why.sentence().to_string(), Some(why.message())),
                reason_id: why.id().to_string(),
            });
        }
    }
    let verdict = verdict(ingested, &findings, &unread);
    let paste_next = (verdict == report::Verdict::Inconclusive)
        .then(|| faultline_judge::paste_next(&model))
        .flatten();
    let mut inputs = ingested.inputs.clone();
    // One summary per source, in order: each names the text it was made from by its hash.
    if options.digests == Digests::Engine {
        for (input, source) in inputs.iter_mut().zip(sources) {
            input.sha256 = sha256_hex(source.text.as_bytes());
        }
    }
    let mut report = Report {
        inputs,
        counts,
        errors: ingested.errors.clone(),
        findings,
        timeline,
        objects,
        relations,
        verdict,
        unread,
        workloads,
        capture,
        ruled_out: differential.ruled_out,
        decide: differential.decide,
        paste_next,
    };
    report.localize(options.lang);
    report
}

/// The SHA-256 of `bytes` in lower-case hex: what `sha256sum` prints for the same file (when the
/// file is UTF-8, as the text analysed is).
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    let digest = sha2::Sha256::digest(bytes);
    let mut hex = String::with_capacity(64);
    for byte in digest.iter() {
        hex.push(char::from(b"0123456789abcdef"[usize::from(byte >> 4)]));
        hex.push(char::from(b"0123456789abcdef"[usize::from(byte & 15)]));
    }
    hex
}

/// `fault` with an error or warning finding; else `inconclusive` when nothing judgeable was read
/// (no object, event or kubectl message) or part of the input was not (unread lines, documents
/// that failed to parse); else `no-fault`. Never "nothing points to a fault" about unread text.
fn verdict(
    ingested: &ingest::Ingested,
    findings: &[report::Finding],
    unread: &[report::Unread],
) -> report::Verdict {
    if findings
        .iter()
        .any(|f| matches!(f.severity, report::Severity::Error | report::Severity::Warning))
    {
        return report::Verdict::Fault;
    }
    let judgeable =
        !ingested.objects.is_empty() || !ingested.table_events.is_empty() || !ingested.messages.is_empty();
    if !judgeable || !unread.is_empty() || !ingested.errors.is_empty() {
        report::Verdict::Inconclusive
    } else {
        report::Verdict::NoFault
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each input is named by the hash of its text, as `sha256sum` gives it.
    #[test]
    fn every_input_carries_the_sha256_of_its_text() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        let sources = [
            Source::new("a.yaml", "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\n"),
            Source::new("b.txt", ""),
        ];
        let report = analyze(&sources);
        let hashes: Vec<&str> = report.inputs.iter().map(|i| i.sha256.as_str()).collect();
        assert_eq!(
            hashes,
            [
                sha256_hex(sources[0].text.as_bytes()).as_str(),
                "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
            ]
        );
    }

    /// A caller that hashes the inputs itself gets the same report with the hashes left to it.
    #[test]
    fn a_caller_that_hashes_gets_the_report_without_the_hashes() {
        let sources = [Source::new(
            "a.yaml",
            "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\n",
        )];
        let options = Options {
            digests: Digests::Caller,
            ..Options::default()
        };
        let mut left = analyze_with(&sources, &options);
        assert_eq!(left.inputs.len(), 1);
        assert!(left.inputs[0].sha256.is_empty(), "{:?}", left.inputs);
        left.inputs[0].sha256 = sha256_hex(sources[0].text.as_bytes());
        assert_eq!(left, analyze(&sources));
    }

    #[test]
    fn progress_moves_forward_through_every_phase_and_ends_at_the_total() {
        let pod = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n  namespace: x\n";
        let sources = [
            Source::new("one.yaml", pod),
            Source::new("two.yaml", pod.replace("a\n", "b\n")),
        ];
        let mut seen = Vec::new();
        let report = analyze_observed(&sources, &Options::default(), &mut |p| seen.push(p));
        assert_eq!(report, analyze(&sources), "observing must not change the report");
        let total = (pod.len() * 2) as u64;
        let reading: Vec<_> = seen.iter().filter(|p| p.phase == Phase::Reading).collect();
        assert_eq!(reading.len(), 2, "{seen:?}");
        assert!(reading.windows(2).all(|w| w[0].bytes_done < w[1].bytes_done));
        assert!(seen
            .iter()
            .all(|p| p.bytes_total == total && p.bytes_done <= total));
        let phases: Vec<Phase> = seen.iter().map(|p| p.phase).collect();
        let mut order = phases.clone();
        order.dedup();
        assert_eq!(
            order,
            [
                Phase::Reading,
                Phase::Relating,
                Phase::Diagnosing,
                Phase::Judging,
                Phase::Timeline
            ]
        );
        let last = seen.last().map(|p| (p.bytes_done, p.documents));
        assert_eq!(last, Some((total, 2)));
    }

    /// Reading once for both gives what the two did apart: the same report, the same secrets (a
    /// Secret's data found from its structure, an env value from its key), with the scan as the last
    /// phase, after the report was handed over.
    #[test]
    fn analysing_then_scanning_is_analysing_and_scanning_apart() {
        let secret = "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\n  namespace: shop\ndata:\n  password: aHVudGVyMi1odW50ZXIy\n";
        let pod = "{\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"metadata\": {\"name\": \"web\", \"namespace\": \"shop\"},\n \"spec\": {\"containers\": [{\"name\": \"app\", \"env\": [{\"name\": \"API_TOKEN\", \"value\": \"tok-0123456789abcdef\"}]}]}}\n";
        let sources = [Source::new("secret.yaml", secret), Source::new("pod.json", pod)];
        for include_network in [false, true] {
            let scan = redact::ScanOptions { include_network };
            let mut phases = Vec::new();
            let (report, reading) =
                analyze_for_scan(&sources, &Options::default(), &mut |p| phases.push(p.phase));
            let phases_before_report = phases.len();
            let secrets = reading.scan(&sources, &scan, &mut |p| phases.push(p.phase));
            assert_eq!(report, analyze(&sources));
            assert!(
                !phases[..phases_before_report].contains(&Phase::Scanning),
                "{phases:?}"
            );
            assert_eq!(secrets, redact::scan(&sources, &scan));
            let kinds: Vec<_> = secrets.iter().map(|s| (s.input, s.kind.id(), s.line)).collect();
            assert_eq!(kinds, [(0, "secret-data", 7), (1, "env-secret", 2)]);
            phases.dedup();
            assert_eq!(
                phases,
                [
                    Phase::Reading,
                    Phase::Relating,
                    Phase::Diagnosing,
                    Phase::Judging,
                    Phase::Timeline,
                    Phase::Scanning
                ]
            );
        }
    }

    /// One big List, as YAML and as JSON: reading reports progress as its items are read, not only
    /// at the end, with bytes and items growing.
    #[test]
    fn a_single_big_list_reports_progress_while_it_is_read() {
        let item = "- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: c\n    namespace: x\n  data:\n    k: v\n";
        let yaml = format!("apiVersion: v1\nkind: List\nitems:\n{}", item.repeat(12_000));
        let json_item = r#"{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c", "namespace": "x"}, "data": {"k": "v"}}"#;
        let json = format!(
            "{{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": [\n{}\n]}}\n",
            vec![json_item; 12_000].join(",\n")
        );
        for text in [yaml, json] {
            assert!(text.len() > 1_000_000);
            let sources = [Source::new("list", text.clone())];
            let mut seen = Vec::new();
            analyze_observed(&sources, &Options::default(), &mut |p| seen.push(p));
            let reading: Vec<_> = seen.iter().filter(|p| p.phase == Phase::Reading).collect();
            assert!(reading.len() >= 4, "{} reports", reading.len());
            assert!(reading
                .windows(2)
                .all(|w| w[0].bytes_done < w[1].bytes_done && w[0].documents < w[1].documents));
            assert!(reading[0].bytes_done < text.len() as u64 / 2);
            assert_eq!(reading.last().map(|p| p.bytes_done), Some(text.len() as u64));
        }
    }
}
