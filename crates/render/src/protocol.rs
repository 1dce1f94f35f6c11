//! The messages between the page and the worker. Each is JSON (UTF-8 bytes in a transferred
//! `Uint8Array`); input texts and redacted copies travel beside them as raw bytes or `Blob`s, never
//! inside the JSON.
//!
//! A report is sent in parts ([`Reply::Head`], then [`Reply::Findings`], [`Reply::RuledOut`],
//! [`Reply::Workloads`], [`Reply::Timeline`], [`Reply::Objects`] and [`Reply::Relations`] chunks of
//! at most [`PART_BYTES`], then [`Reply::Reported`]) so that the page decodes it across many short
//! tasks: a 10k-pod dump's timeline alone is ~45 MB of JSON, which decoded in one go would freeze the
//! page for a good part of a second, and even its ruled-out list and workloads (3.4 MB together) took
//! 40–50 ms in the head. The secret scan runs after the report is shown, when the page asks for it: its
//! [`Reply::Secrets`] parts and [`Reply::Done`] follow.
//!
//! The report's texts are in the job's language ([`Job::lang`]). In another language
//! ([`Request::Localize`]) the worker sends the texts only, not the report again: [`Reply::Texts`]
//! parts, then [`Reply::Localized`].

use std::collections::BTreeMap;

use faultline_report::docs::RuleDoc;
use faultline_report::{Finding, InputError, InputSummary, Lang, Progress, TimelineEntry};
use faultline_report::{MapObject, Relation, Unread, Verdict, WorkloadOf};
use serde::{Deserialize, Serialize};

use crate::texts::lang_tag;
pub use crate::texts::{Said, Texts};

/// Roughly how much JSON one message carries: decoded on the page in one short task (measured in
/// Chromium: 256 KiB took 40–50 ms to decode in the page's size-optimised wasm, over the 50 ms a
/// task may take; 64 KiB takes about a quarter of that).
pub const PART_BYTES: usize = 64 * 1024;

/// One analysis the page asks for. The inputs follow in the same order as `names`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Job {
    /// Chosen by the page; every reply carries it, so replies to a superseded job are recognised.
    pub id: u64,
    pub names: Vec<String>,
    /// Whether IP addresses, internal host names and e-mail addresses count as secrets.
    pub include_network: bool,
    /// Redact the inputs first ([`Reply::Redacted`]), then analyse the redacted copy.
    pub redact: bool,
    /// The language of the report's texts (the page's, when it asked).
    #[serde(default, with = "lang_tag")]
    pub lang: Lang,
}

/// One secret found, as the page shows it: kind, input and line, a masked preview — never the value.
/// The same fields as the engine's `SecretHit` serialises.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Secret {
    /// The kind's stable id (`env-secret`, `private-key`, `token`, ...).
    pub kind: String,
    /// For a `token`, the rule that found it (`github-pat`, `aws-access-token`: gitleaks' ids).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// Index of the input, in the job's order.
    pub input: usize,
    pub line: u32,
    pub column: u32,
    pub preview: String,
}

/// What the worker tells the page, in this order: [`Reply::Progress`]es, [`Reply::Redacted`] (only
/// for a job that redacts and found something), [`Reply::Head`], the report's parts,
/// [`Reply::Reported`]; then, once the page asks ([`Request::Scan`]), the scan's progress,
/// [`Reply::Secrets`] parts, [`Reply::Done`]. Excerpts and warm-up steps are answered on their own.
///
/// Encoded by serde (`{"type":"findings","data":[…]}`), decoded by [`decode`] by hand: a derived
/// `Deserialize` of an adjacently tagged enum holds every variant's decoding twice (the content
/// before or after its tag), ~50 KB of the page's wasm.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", content = "data", rename_all = "kebab-case")]
pub enum Reply {
    Progress(Progress),
    /// The redacted copy of every input follows as bytes, in the job's order; the analysis that
    /// follows is of that copy.
    Redacted {
        tokens: usize,
    },
    /// The report's small parts, and how many of the large ones follow.
    Head(Head),
    Findings(Vec<Finding>),
    /// What was considered and ruled out ([`faultline_report::Report::ruled_out`]).
    RuledOut(Vec<faultline_report::RuledOut>),
    /// The report's workloads ([`faultline_report::Report::workloads`]): one per owned object.
    Workloads(Vec<WorkloadOf>),
    Secrets(Vec<Secret>),
    Timeline(Vec<TimelineEntry>),
    /// The object graph ([`faultline_report::Report::objects`] and `relations`), in parts too.
    Objects(Vec<MapObject>),
    Relations(Vec<Relation>),
    /// The report is complete (the page can show it); how long each step took so far. The secret
    /// scan follows.
    Reported(Vec<Timing>),
    /// The secret scan is done too; how long each step took, the scan included.
    Done(Vec<Timing>),
    /// An input excerpt the page asked for ([`Request::Excerpt`]); `lines` is empty when the worker no
    /// longer has that input (it was restarted since).
    Excerpt(Excerpt),
    /// A warm-up step is done ([`Request::Warm`]).
    Warmed(Warmed),
    /// The last report's texts in another language ([`Request::Localize`]), in parts of about
    /// [`PART_BYTES`]: each a [`Texts`] as JSON, with the texts of some of the report's sentences,
    /// in order ([`Texts::merge`]). As JSON in a
    /// string, the page decodes them with the code that decodes the built-in samples' texts: a
    /// variant's own content is decoding code of its own in the page's wasm (adjacently tagged, twice).
    Texts(String),
    /// Every part of [`Reply::Texts`] is sent.
    Localized,
    /// The rules' documentation ([`Request::Docs`]): [`docs_json`] of every rule, decoded on the page
    /// by [`decode_docs`].
    Docs(String),
}

/// What a warm-up step analysed: its step, and the size of what it read, reported and found.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Warmed {
    pub step: u32,
    pub objects: usize,
    pub errors: usize,
    /// The report's encoded parts, which a job would have sent.
    pub bytes: usize,
    pub secrets: usize,
}

/// How long one step of an analysis took in the worker, in milliseconds: `files` (reading the
/// dropped files), `redacting`, the engine's phases (`reading`, `relating`, `diagnosing`,
/// `timeline`), `sending` (encoding the report's parts), then `scanning` (the secret scan, its
/// parts sent). Shown as "analysed in" and printed by the Chromium benchmark.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Timing {
    pub step: String,
    pub ms: f64,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Head {
    pub inputs: Vec<InputSummary>,
    pub counts: BTreeMap<String, usize>,
    pub errors: Vec<InputError>,
    pub verdict: Verdict,
    pub unread: Vec<Unread>,
    /// The capture moment ([`faultline_report::Report::capture`]).
    #[serde(default)]
    pub capture: Option<Box<faultline_report::Capture>>,
    /// The command that decides ([`faultline_report::Report::decide`]).
    #[serde(default)]
    pub decide: Option<Box<faultline_report::Decider>>,
    /// The paste an inconclusive report asks for ([`faultline_report::Report::paste_next`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paste_next: Option<String>,
    /// Inputs that were not analysed because they are not text (name, why).
    pub unreadable: Vec<(String, Unreadable)>,
    /// Whether the analysed text holds redaction tokens (`<redacted:...>`).
    pub redacted_input: bool,
    pub findings: usize,
    pub ruled_out: usize,
    pub workloads: usize,
    pub timeline: usize,
    pub objects: usize,
    pub relations: usize,
}

/// What the page can ask besides an analysis.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Request {
    Analyze(Job),
    /// The secret scan of job `id`, whose report the page has received and shown
    /// ([`Reply::Reported`]): asked for then, so that the scan does not compete with the page's
    /// render for the CPU. Answered by [`Reply::Secrets`] parts and [`Reply::Done`].
    Scan {
        id: u64,
    },
    /// Lines around `line` of the last analysed input named `name` (for inputs whose text the page
    /// does not hold: large files stay `Blob`s on the page).
    Excerpt {
        name: String,
        line: u32,
        context: u32,
    },
    /// One warm-up step of a worker that has no job yet (the worker's `job::warm`), answered by
    /// [`Reply::Warmed`]. The page asks for one step at a time, so a job it sends waits for one
    /// step at most.
    Warm {
        step: u32,
    },
    /// The texts of job `id`'s report in `lang`, when that is the last report the worker made: the
    /// same report in another language, not analysed again (the worker keeps its messages). Answered
    /// by [`Reply::Texts`] parts and [`Reply::Localized`]; by nothing when the worker no longer has that
    /// report (a newer job's replaced it, or the worker was restarted since).
    Localize {
        id: u64,
        #[serde(with = "lang_tag")]
        lang: Lang,
    },
    /// The rules' documentation, in both languages, answered by [`Reply::Docs`]: the page's own wasm
    /// holds none of it (its first load stays small), and asks for it when it first shows some.
    Docs,
}

/// One rule's documentation as it travels: [`RuleDoc`] with its texts owned.
#[derive(Serialize, Deserialize)]
struct DocWire<'a> {
    id: &'a str,
    boundary: faultline_report::Boundary,
    docs: &'a str,
    docs_zh: &'a str,
}

/// The documentation of `rules`, in their order, for [`Reply::Docs`].
pub fn docs_json(rules: &[RuleDoc]) -> String {
    let wire: Vec<DocWire<'_>> = rules
        .iter()
        .map(|r| DocWire {
            id: r.id,
            boundary: r.boundary,
            docs: r.docs,
            docs_zh: r.docs_zh,
        })
        .collect();
    serde_json::to_string(&wire).unwrap_or_default()
}

/// [`Reply::Docs`]'s documentation as (id, boundary, docs, docs_zh), in the worker's order.
pub fn decode_docs(json: &str) -> Result<Vec<(String, faultline_report::Boundary, String, String)>, String> {
    #[derive(Deserialize)]
    struct Owned {
        id: String,
        boundary: faultline_report::Boundary,
        docs: String,
        docs_zh: String,
    }
    let owned: Vec<Owned> = serde_json::from_str(json).map_err(|e| e.to_string())?;
    Ok(owned
        .into_iter()
        .map(|d| (d.id, d.boundary, d.docs, d.docs_zh))
        .collect())
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Excerpt {
    pub name: String,
    pub line: u32,
    /// The number of the first line in `lines`.
    pub first: u32,
    pub lines: Vec<String>,
}

/// Encodes a reply. A report part is built item by item, so no part grows past [`PART_BYTES`] by
/// more than one item.
pub fn encode(reply: &Reply) -> Vec<u8> {
    serde_json::to_vec(reply).unwrap_or_default()
}

/// A reply as [`encode`] and [`parts`] write it: `{"type":"TAG"}` or `{"type":"TAG","data":DATA}`,
/// the tag first (serde writes it first), each variant's data decoded as its own type.
pub fn decode(bytes: &[u8]) -> Result<Reply, String> {
    fn json<T: serde::de::DeserializeOwned>(data: &[u8]) -> Result<T, String> {
        serde_json::from_slice(data).map_err(|e| e.to_string())
    }
    #[derive(Deserialize)]
    struct Redacted {
        tokens: usize,
    }
    let not_a_reply = || "not a reply: it does not start with its type".to_string();
    let rest = bytes.strip_prefix(br#"{"type":""#).ok_or_else(not_a_reply)?;
    let end = rest.iter().position(|&b| b == b'"').ok_or_else(not_a_reply)?;
    let tag = std::str::from_utf8(&rest[..end]).map_err(|e| e.to_string())?;
    let after = &rest[end + 1..];
    let data: &[u8] = if after == b"}" {
        b"null"
    } else {
        after
            .strip_prefix(br#","data":"#)
            .and_then(|d| d.strip_suffix(b"}"))
            .ok_or_else(|| format!("reply {tag}: no data"))?
    };
    Ok(match tag {
        "progress" => Reply::Progress(json(data)?),
        "redacted" => Reply::Redacted {
            tokens: json::<Redacted>(data)?.tokens,
        },
        "head" => Reply::Head(json(data)?),
        "findings" => Reply::Findings(json(data)?),
        "ruled-out" => Reply::RuledOut(json(data)?),
        "workloads" => Reply::Workloads(json(data)?),
        "secrets" => Reply::Secrets(json(data)?),
        "timeline" => Reply::Timeline(json(data)?),
        "objects" => Reply::Objects(json(data)?),
        "relations" => Reply::Relations(json(data)?),
        "reported" => Reply::Reported(json(data)?),
        "done" => Reply::Done(json(data)?),
        "excerpt" => Reply::Excerpt(json(data)?),
        "warmed" => Reply::Warmed(json(data)?),
        "texts" => Reply::Texts(json(data)?),
        "localized" => Reply::Localized,
        "docs" => Reply::Docs(json(data)?),
        other => return Err(format!("not a reply: unknown type {other:?}")),
    })
}

/// `items` as [`Reply`] parts of about [`PART_BYTES`] each, of the variant tagged `tag`. Each
/// part is encoded when the iterator reaches it, so the worker posts it before encoding the next and
/// the page decodes one part while the worker encodes the next.
pub fn parts<'a, T: Serialize>(tag: &str, items: &'a [T]) -> impl Iterator<Item = Vec<u8>> + 'a {
    let start = format!("{{\"type\":\"{tag}\",\"data\":[");
    let mut items = items.iter();
    std::iter::from_fn(move || {
        let mut part = start.clone().into_bytes();
        let mut count = 0;
        for item in items.by_ref() {
            if count > 0 {
                part.push(b',');
            }
            let before = part.len();
            if serde_json::to_writer(&mut part, item).is_err() {
                part.truncate(before - usize::from(count > 0));
                continue;
            }
            count += 1;
            if part.len() >= PART_BYTES {
                break;
            }
        }
        (count > 0).then(|| {
            part.extend_from_slice(b"]}");
            part
        })
    })
}

/// How many warm-up steps (the worker's `job::warm`) the page asks a new worker for, one at a time
/// while it has no job for it.
pub const WARM_STEPS: u32 = 12;

/// Why a file was not read: the page says it in its language (the app's `i18n`,
/// `unreadable_reason`), from this value, never from words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "why", content = "detail", rename_all = "kebab-case")]
pub enum Unreadable {
    /// A binary file, not text kubectl printed ([`faultline_report::input::looks_binary`]).
    Binary,
    /// The file does not fit in the tab's memory.
    TooLarge,
    /// The page sent something that is not a file.
    NotAFile,
    /// The browser could not read it (in the worker), and says why.
    ReadFailed(String),
    /// The page could not read what was dropped (a folder, a file gone), and the browser says why.
    DropFailed(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reply_decodes_to_itself() {
        let report = faultline_engine::analyze(&[faultline_engine::Source::new(
            "pod.yaml",
            "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  namespace: shop\n  creationTimestamp: \"2026-03-02T10:00:00Z\"\nspec:\n  containers:\n  - name: app\n    image: shop/web:1\nstatus:\n  phase: Pending\n  containerStatuses:\n  - name: app\n    image: shop/web:1\n    imageID: \"\"\n    ready: false\n    restartCount: 0\n    state:\n      waiting:\n        reason: ImagePullBackOff\n        message: 'Back-off pulling image \"shop/web:1\"'\n",
        )]);
        assert!(!report.findings.is_empty() && !report.timeline.is_empty() && !report.objects.is_empty());
        let timing = Timing {
            step: "reading".into(),
            ms: 1.5,
        };
        let replies = vec![
            Reply::Progress(Progress {
                phase: faultline_engine::Phase::Reading,
                bytes_done: 10,
                bytes_total: 20,
                documents: 1,
            }),
            Reply::Redacted { tokens: 3 },
            Reply::Findings(report.findings.clone()),
            Reply::RuledOut(report.ruled_out.clone()),
            Reply::Workloads(report.workloads.clone()),
            Reply::Secrets(Vec::new()),
            Reply::Timeline(report.timeline.clone()),
            Reply::Objects(report.objects.clone()),
            Reply::Relations(report.relations.clone()),
            Reply::Reported(vec![timing.clone()]),
            Reply::Done(vec![timing]),
            Reply::Warmed(Warmed::default()),
            Reply::Texts("{\"texts\":[]}".into()),
            Reply::Localized,
            Reply::Docs(docs_json(&[])),
        ];
        // What the page gets is what was sent, but for the typed messages of findings and
        // timeline entries, which the page does not read (it gets their texts): so a decoded reply
        // decodes to itself again, and equals the original where nothing typed is in it.
        for reply in replies {
            let decoded = decode(&encode(&reply)).unwrap();
            assert_eq!(std::mem::discriminant(&decoded), std::mem::discriminant(&reply));
            let again = decode(&encode(&decoded)).unwrap();
            assert!(
                again == decoded,
                "{:?} is not decoded to itself",
                std::mem::discriminant(&reply)
            );
            if !matches!(reply, Reply::Findings(_) | Reply::Timeline(_)) {
                assert_eq!(decoded, reply);
            }
        }
        // The report's parts as the worker sends them.
        let sent: Vec<Vec<u8>> = parts("findings", &report.findings).collect();
        assert_eq!(sent.len(), 1);
        let Ok(Reply::Findings(findings)) = decode(&sent[0]) else {
            panic!("not findings")
        };
        assert_eq!(findings.len(), report.findings.len());
        assert_eq!(findings[0].summary.as_str(), report.findings[0].summary.as_str());
        for bad in [
            &b""[..],
            b"{}",
            b"{\"type\":\"nope\"}",
            b"{\"type\":\"findings\",\"data\":[}",
            b"{\"data\":[],\"type\":\"findings\"}",
        ] {
            assert!(decode(bad).is_err(), "{}", String::from_utf8_lossy(bad));
        }
    }

    #[test]
    fn the_rules_docs_travel_whole() {
        let rules: Vec<RuleDoc> = faultline_engine::rules::RULES.iter().map(|r| r.doc()).collect();
        let Ok(Reply::Docs(json)) = decode(&encode(&Reply::Docs(docs_json(&rules)))) else {
            panic!("not docs")
        };
        let decoded = decode_docs(&json).unwrap();
        assert_eq!(decoded.len(), rules.len());
        for (rule, (id, boundary, docs, docs_zh)) in rules.iter().zip(&decoded) {
            assert_eq!(
                (rule.id, rule.boundary, rule.docs, rule.docs_zh),
                (&**id, *boundary, &**docs, &**docs_zh)
            );
        }
        assert!(decode_docs("[{\"id\":1}]").is_err());
    }
}
