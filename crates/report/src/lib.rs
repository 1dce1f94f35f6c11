//! The report contract: the serialisable result of an analysis, the public contract of `faultline
//! analyze --format json` and the only thing the app renders (DESIGN.md, "The report contract"), with
//! the types every layer shares — the sentence ([`message::Message`]), the language, short text
//! ([`Text`]), an input ([`Source`]), instants and the rules' documentation blocks. Types only: no
//! reading of kubectl output, no rule. Every other crate depends on this one, and it on none of
//! them. Field names are public: change them only on purpose, together with the contract test.

pub mod docs;
pub mod hash;
pub mod input;
pub mod instant;
pub mod lang;
pub mod message;
pub mod sentence;
mod serialize;
pub mod timeline;

mod graph;
mod hypothesis;
mod progress;
mod secret;

pub use graph::*;
pub use hypothesis::{Confidence, Decider, RuledOut};
pub use progress::{Phase, Progress};
pub use secret::SecretKind;

pub use lang::Lang;
pub use sentence::Sentence;

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

/// Short text of the report (kinds, names, times, reasons, source names), the same type as the
/// trees' keys and scalars: kept inline up to 24 bytes, without an allocation. A 1,000-Pod dump's
/// report holds about 40,000 object references and 14,000 timeline entries, each with several such
/// strings. Serialises as a plain string.
pub type Text = compact_str::CompactString;

/// A position in a source text: 1-based line and column (columns count characters, not bytes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Pos {
    pub line: u32,
    pub column: u32,
}

impl Pos {
    pub fn new(line: u32, column: u32) -> Self {
        Self { line, column }
    }
}

/// One input: pasted text or a dropped file. The name is what evidence cites ("pod.yaml", "paste").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    pub name: String,
    pub text: String,
}

impl Source {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            text: text.into(),
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    pub inputs: Vec<InputSummary>,
    /// Objects found, by kind, in kind order.
    pub counts: BTreeMap<String, usize>,
    pub errors: Vec<InputError>,
    /// Most likely root cause first.
    pub findings: Vec<Finding>,
    /// Dated facts in time order (ties keep input order).
    pub timeline: Vec<TimelineEntry>,
    /// The object graph: every pasted object but events (in input order, one per identity), then the
    /// objects they refer to that were not pasted (`missing`). Events are not in it: they are facts
    /// about objects (the timeline), and a dump holds a hundred thousand of them.
    #[serde(default)]
    pub objects: Vec<MapObject>,
    /// The relations between [`Report::objects`], by index, each with the field that states it.
    #[serde(default)]
    pub relations: Vec<Relation>,
    /// What the report amounts to: a fault was found, the input was read and shows none, or too
    /// little of it could be read to judge.
    #[serde(default)]
    pub verdict: Verdict,
    /// The lines no reader could use, by input, with why. Every other line was read into an object,
    /// event or message, or recognised as other text (prose, logs, shell output).
    #[serde(default)]
    pub unread: Vec<Unread>,
    /// The workload each object of [`Report::objects`] and each subject of [`Report::timeline`]
    /// belongs to, where it belongs to one: the top of its owner chain by ownerReferences, or, where
    /// the input states no owner, the workload its generated name is made from (`guessed`). Sorted
    /// by object.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub workloads: Vec<WorkloadOf>,
    /// When the pasted output was captured, and how that is known: the moment the entries known
    /// only by age ([`TimelineEntry::age`]) are placed against. Absent when the input has no
    /// absolute time and none was set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capture: Option<Capture>,
    /// What was considered and ruled out (issue 39): each symptom another finding explains, each
    /// lint beside a fault, and each boundary a line of the input shows working, with that line.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ruled_out: Vec<RuledOut>,
    /// When the two leading causes remain close: the command that tells them apart.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decide: Option<Decider>,
    /// When the verdict is inconclusive: the one command whose output is most likely to decide,
    /// built from the names the input states (`'<namespace>'` where it states none), never one
    /// whose output is pasted already (issue 40).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paste_next: Option<String>,
}

/// The capture moment ([`Report::capture`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Capture {
    /// RFC 3339, UTC.
    pub time: Text,
    pub basis: CaptureBasis,
    /// With [`CaptureBasis::AgeAnchor`]: the age that puts the capture this late.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub anchor: Option<AgeAnchor>,
}

/// How the capture moment is known (`"set"`, `"newest-timestamp"`, `"age-anchor"` in JSON).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CaptureBasis {
    /// The user gave it (`--captured-at`, the app's capture-time field).
    Set,
    /// The newest absolute timestamp in the input: the capture was at least that late.
    NewestTimestamp,
    /// Later than every absolute timestamp: an event known by its age cannot be older than the
    /// object it is about, so the capture was at least the object's creation plus that age.
    AgeAnchor,
}

/// The entry whose age and subject's creation give [`CaptureBasis::AgeAnchor`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgeAnchor {
    pub subject: ObjectRef,
    pub reason: Text,
    /// Seconds before the capture of the event's first occurrence (as its table says).
    pub age: i64,
    /// The subject's `metadata.creationTimestamp`.
    pub created: Text,
}

/// An object and the name of the workload it belongs to ([`Report::workloads`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorkloadOf {
    #[serde(rename = "ref")]
    pub object: ObjectRef,
    /// The top owner's name (the object's own when it is the top of a stated chain).
    pub workload: Text,
    /// Read from the names the controllers generate (`web-7d9f8c6b5-x2k4q` of `web`), not stated.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub guessed: bool,
}

impl Report {
    /// Every sentence of the report, in one fixed order: each finding's summary, what it cannot
    /// establish and its confidence note, each input error, each unread range's reason, each
    /// timeline entry's message then what its time was estimated from, each ruled-out signal's
    /// reason, and what each answer of the deciding command would mean. The one list of the report's sentences: rendering them in a
    /// language, taking their messages out and carrying their words to the page all walk it.
    pub fn sentences_mut(&mut self, visit: &mut dyn FnMut(&mut Sentence)) {
        for finding in &mut self.findings {
            visit(&mut finding.summary);
            finding.cannot_establish.iter_mut().for_each(&mut *visit);
            visit(&mut finding.confidence_note);
        }
        self.errors.iter_mut().for_each(|e| visit(&mut e.message));
        self.unread.iter_mut().for_each(|u| visit(&mut u.reason));
        for entry in &mut self.timeline {
            visit(&mut entry.message);
            if let Some(e) = &mut entry.estimated_from {
                visit(e);
            }
        }
        self.ruled_out.iter_mut().for_each(|r| visit(&mut r.because));
        if let Some(d) = &mut self.decide {
            visit(&mut d.if_shown);
            visit(&mut d.if_not);
        }
    }

    /// [`Report::sentences_mut`], reading.
    pub fn sentences(&self, visit: &mut dyn FnMut(&Sentence)) {
        for finding in &self.findings {
            visit(&finding.summary);
            finding.cannot_establish.iter().for_each(&mut *visit);
            visit(&finding.confidence_note);
        }
        self.errors.iter().for_each(|e| visit(&e.message));
        self.unread.iter().for_each(|u| visit(&u.reason));
        for entry in &self.timeline {
            visit(&entry.message);
            if let Some(e) = &entry.estimated_from {
                visit(e);
            }
        }
        self.ruled_out.iter().for_each(|r| visit(&r.because));
        if let Some(d) = &self.decide {
            visit(&d.if_shown);
            visit(&d.if_not);
        }
    }

    /// Renders every sentence that has a message in `lang`: the same report in another language,
    /// without analysing again.
    pub fn localize(&mut self, lang: crate::lang::Lang) {
        self.sentences_mut(&mut |s| s.localize(lang));
    }

    /// Takes every message out, the words left as they are: the report as the page holds it (the
    /// page never reads a message back; sent, they would only make the report's parts longer).
    pub fn strip_messages(&mut self) {
        self.sentences_mut(&mut |s| {
            s.take_message();
        });
    }

    /// The finding the report's diagnosis line names: the first error or warning, never an info note
    /// (history, or a remark such as "no readiness probe"), which says nothing is wrong now.
    pub fn diagnosis(&self) -> Option<&Finding> {
        self.findings
            .iter()
            .find(|f| matches!(f.severity, Severity::Error | Severity::Warning))
    }
}

/// The report's answer in one word (`"fault"`, `"no-fault"`, `"inconclusive"` in JSON).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// At least one finding of severity error or warning.
    Fault,
    /// The input was read and nothing in it points to a fault.
    #[default]
    NoFault,
    /// No error or warning finding, and the input held nothing Faultline could judge, or parts of
    /// it were not read (unread lines, or documents that failed to parse).
    Inconclusive,
}

impl Verdict {
    pub fn id(self) -> &'static str {
        match self {
            Verdict::Fault => "fault",
            Verdict::NoFault => "no-fault",
            Verdict::Inconclusive => "inconclusive",
        }
    }
}

/// A range of lines of one input that was not read (1-based, inclusive).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct Unread {
    pub source: String,
    pub line: u32,
    pub end_line: u32,
    /// Why, in plain words (in JSON `reason`, and its message as `reason_message`).
    pub reason: Sentence,
    /// Why, as a stable id (`describe-fragment`, `unknown-layout`).
    pub reason_id: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InputSummary {
    pub source: String,
    pub format: String,
    pub documents: usize,
    pub objects: usize,
    /// The objects of this input by kind (event-table rows count as `Event`).
    #[serde(default)]
    pub kinds: BTreeMap<String, usize>,
    /// The SHA-256 of the input's text as it was analysed (UTF-8, lower-case hex), so that a report
    /// names exactly what it was made from and `faultline verify` can tell a changed input. Set by
    /// the engine, or by its caller when it hashes faster (the app's worker asks WebCrypto); empty (and absent from JSON) in reports made before it was recorded.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub sha256: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct InputError {
    pub source: String,
    pub line: u32,
    pub column: u32,
    /// What is wrong (in JSON `message`, and its message as `structured`).
    pub message: Sentence,
}

impl InputError {
    /// An error at `pos` of input `source`; its text is the message in English until the report is
    /// localized.
    pub fn new(source: &str, pos: Pos, message: impl Into<crate::message::Message>) -> Self {
        InputError {
            source: source.to_string(),
            line: pos.line,
            column: pos.column,
            message: Sentence::rendered(message, crate::lang::Lang::En),
        }
    }
}

/// Identity of a Kubernetes object: kind + namespace + name. The uid is carried, never the key:
/// `==`, hashing and ordering look at kind, namespace and name only (as kube-rs's `ObjectRef` does),
/// so a reference read from an event (with the involved object's uid) and one from a table (without)
/// are the same key. Where two incarnations of one name must be told apart (a StatefulSet's `web-0`
/// recreated), [`ObjectRef::uid_contradicts`] says so explicitly.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct ObjectRef {
    pub kind: Text,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespace: Option<Text>,
    pub name: Text,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uid: Option<Text>,
}

impl ObjectRef {
    /// The key: what `==`, `Hash` and `Ord` compare (inlined: sorting and maps compare often).
    #[inline]
    fn key(&self) -> (&str, Option<&str>, &str) {
        (self.kind.as_str(), self.namespace.as_deref(), self.name.as_str())
    }

    /// Whether both references carry a uid and the uids differ: the same object by identity, but
    /// another incarnation of it (deleted and created again under its name). Lookups that attach one
    /// object's status or events to another use it; identity does not.
    pub fn uid_contradicts(&self, other: &ObjectRef) -> bool {
        matches!((&self.uid, &other.uid), (Some(a), Some(b)) if a != b)
    }
}

impl PartialEq for ObjectRef {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}

impl Eq for ObjectRef {}

impl std::hash::Hash for ObjectRef {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.key().hash(state);
    }
}

impl PartialOrd for ObjectRef {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for ObjectRef {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.key().cmp(&other.key())
    }
}

impl fmt::Display for ObjectRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // An object known from a fragment that does not name it (an Events section or a container's
        // State block pasted alone).
        if self.name.is_empty() {
            return match &self.namespace {
                Some(ns) => write!(f, "a {} in {ns} (its name is not in the input)", self.kind),
                None => write!(f, "a {} (its name is not in the input)", self.kind),
            };
        }
        match &self.namespace {
            Some(ns) => write!(f, "{} {}/{}", self.kind, ns, self.name),
            None => write!(f, "{} {}", self.kind, self.name),
        }
    }
}

/// The fault boundaries of the article's table; the ids are stable (code, JSON, URLs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Boundary {
    ControlPlane,
    Etcd,
    Scheduling,
    NodeRuntime,
    QuotaAdmission,
    ZoneNetworkStorage,
    ReadinessEndpoints,
    Application,
}

impl Boundary {
    pub const ALL: [Boundary; 8] = [
        Boundary::ControlPlane,
        Boundary::Etcd,
        Boundary::Scheduling,
        Boundary::NodeRuntime,
        Boundary::QuotaAdmission,
        Boundary::ZoneNetworkStorage,
        Boundary::ReadinessEndpoints,
        Boundary::Application,
    ];

    pub fn id(self) -> &'static str {
        match self {
            Boundary::ControlPlane => "control-plane",
            Boundary::Etcd => "etcd",
            Boundary::Scheduling => "scheduling",
            Boundary::NodeRuntime => "node-runtime",
            Boundary::QuotaAdmission => "quota-admission",
            Boundary::ZoneNetworkStorage => "zone-network-storage",
            Boundary::ReadinessEndpoints => "readiness-endpoints",
            Boundary::Application => "application",
        }
    }

    /// The article's row name.
    pub fn title(self) -> &'static str {
        match self {
            Boundary::ControlPlane => "API server / control plane",
            Boundary::Etcd => "etcd",
            Boundary::Scheduling => "Scheduling constraints",
            Boundary::NodeRuntime => "Node / container runtime",
            Boundary::QuotaAdmission => "ResourceQuota / admission",
            Boundary::ZoneNetworkStorage => "Zone / network / storage",
            Boundary::ReadinessEndpoints => "Readiness / Service endpoints",
            Boundary::Application => "Application",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    Error,
}

/// Serialised by hand (below): each sentence's message is written beside its words.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct Finding {
    pub rule: String,
    pub boundary: Boundary,
    pub severity: Severity,
    pub subject: ObjectRef,
    /// The finding in one sentence (in JSON `summary`, and its message beside it as `message`,
    /// `{"id", "args"}`, for tools that render their own words).
    pub summary: Sentence,
    pub evidence: Vec<Evidence>,
    /// What this evidence alone cannot prove (in JSON `cannot_establish`, with
    /// `cannot_establish_messages` beside it).
    pub cannot_establish: Vec<Sentence>,
    pub next_steps: Vec<String>,
    /// Set on a symptom that another finding explains (a Deployment not progressing because its
    /// Pods cannot pull their image): names that finding, which the report lists just before it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub explained_by: Option<Cause>,
    /// The workloads the finding hurts (DESIGN.md, "affected workloads"): the owning workload of a
    /// Pod or ReplicaSet subject (the top of its owner chain, by `ownerReferences` or the name its
    /// controller generated), the workloads of the Pods a Node, a claim, a Service, a quota or a
    /// webhook keeps from working, and those of the symptoms listed under it. The subject is the
    /// object at fault; these are the ones that suffer for it. Never the subject itself.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub affects: Vec<ObjectRef>,
    /// The components of the logical architecture the finding implicates: those its rule declares
    /// (`declare_rule!`), kept where the finding meets their condition (a controller manager only when
    /// a controller made the refused request). A kubelet is the one of [`Finding::node`] when set.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub components: Vec<Component>,
    /// The node the finding is about: its subject when that is a Node, else the `spec.nodeName` its
    /// evidence cites.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node: Option<Text>,
    /// How sure the report is of it (the judge's, from what kind of evidence it rests on and
    /// whether another cause competes).
    #[serde(default)]
    pub confidence: Confidence,
    /// Why that confidence, and what would raise it (in JSON `confidence_note`, its message as
    /// `confidence_note_message`).
    #[serde(default)]
    pub confidence_note: Sentence,
    /// What the rule established, typed, for the links between findings while the rules run
    /// (`rules::EXPLANATIONS`): the summary says it in words, and words may be reworded. Emptied
    /// before the report leaves the engine, so a report is exactly what its JSON says.
    #[serde(skip)]
    pub details: Vec<Detail>,
}

/// A component of the logical architecture (DESIGN.md, "Fault boundaries", the diagram components
/// column); the ids are stable (JSON, the app's DOM).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Component {
    #[serde(rename = "client")]
    Client,
    #[serde(rename = "kube-apiserver")]
    ApiServer,
    #[serde(rename = "etcd")]
    Etcd,
    #[serde(rename = "kube-controller-manager")]
    ControllerManager,
    #[serde(rename = "kube-scheduler")]
    Scheduler,
    #[serde(rename = "cloud-controller-manager")]
    CloudControllerManager,
    #[serde(rename = "kubelet")]
    Kubelet,
    #[serde(rename = "container-runtime")]
    Runtime,
    #[serde(rename = "containers")]
    Containers,
    #[serde(rename = "kube-proxy-cni")]
    ProxyCni,
    #[serde(rename = "service-endpointslice")]
    ServiceSlice,
    #[serde(rename = "volumes")]
    Volumes,
}

impl Component {
    /// The stable id (as in JSON).
    pub fn id(self) -> &'static str {
        match self {
            Component::Client => "client",
            Component::ApiServer => "kube-apiserver",
            Component::Etcd => "etcd",
            Component::ControllerManager => "kube-controller-manager",
            Component::Scheduler => "kube-scheduler",
            Component::CloudControllerManager => "cloud-controller-manager",
            Component::Kubelet => "kubelet",
            Component::Runtime => "container-runtime",
            Component::Containers => "containers",
            Component::ProxyCni => "kube-proxy-cni",
            Component::ServiceSlice => "service-endpointslice",
            Component::Volumes => "volumes",
        }
    }
}

/// A fact a finding rests on that another finding's link reads ([`Finding::details`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Detail {
    /// The node is under pressure, so it carries this taint (`node.kubernetes.io/disk-pressure`).
    NodePressure { taint: &'static str },
    /// The scheduler refused nodes for a taint the Pod does not tolerate: the taint's key.
    UntoleratedTaint(Text),
    /// The scheduler did not consider the Pod because its PersistentVolumeClaims are not bound.
    UnboundClaim,
    /// A cluster component's failure takes this part of the architecture away (what it serves).
    Serves(Component),
    /// A cluster component's failure explains this finding (its rule and subject): the component's
    /// rule decided the link, with its evidence or its inference.
    Explains { rule: String, subject: ObjectRef },
    /// The control-plane component whose own Pod the finding is about (`kube-scheduler`).
    ControlPlaneComponent(&'static str),
}

/// The finding that explains a symptom: its rule and subject (a finding's identity in a report).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cause {
    pub rule: String,
    pub subject: ObjectRef,
}

/// One piece of evidence: where it is (input name, line, field path) and the value found there.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Evidence {
    pub source: Name,
    pub line: u32,
    pub path: String,
    pub value: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct TimelineEntry {
    /// RFC 3339, UTC; empty when only an age is known and the input has no absolute time.
    pub time: Text,
    pub subject: ObjectRef,
    /// What kind of fact this is: `event`, `created`, `condition`, `container-started`,
    /// `container-terminated`.
    pub source: Text,
    pub reason: Text,
    /// The event's message as Kubernetes wrote it, or the engine's words for a state change (in
    /// JSON `message`, and the engine's message as `structured`).
    pub message: Sentence,
    pub count: u32,
    /// A `Warning` event (what `kubectl get events --field-selector type=Warning` would list).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub warning: bool,
    /// Set when `time` was estimated from an age (tables and describe print ages, not times): says
    /// from what, e.g. "age 4m31s before 2025-02-11T09:35:36Z, the newest timestamp in the input".
    /// (In JSON `estimated_from`, and its message as `estimated_from_message`.)
    #[serde(default)]
    pub estimated_from: Option<Sentence>,
    /// Known only by age: seconds before the capture moment ([`Report::capture`]) of the last
    /// occurrence, as the table printed it (`LAST SEEN 4m31s`). `time` is placed from it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub age: Option<i64>,
    /// Seconds before the capture of the first occurrence, where the table says (`FIRST SEEN`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_age: Option<i64>,
    /// `time` is before its subject's `metadata.creationTimestamp`: an age placed against a capture
    /// moment that is too early, or an event of an earlier object of the same name. Kept where its
    /// time puts it, not moved.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub before_object_existed: bool,
    /// Where the fact was read: the input and line (a field of an object, a table row).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<SourceLine>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceLine {
    pub source: Name,
    pub line: u32,
}

/// An input's name where a report cites it line by line ([`SourceLine`]): one text shared by every
/// line of that input. A name over 24 bytes (a path: `incidents/2025-02-11/cluster-dump.yaml`) was
/// copied to the heap once per timeline entry and object; a 1,000-Pod dump's report cites it about
/// 16,000 times.
pub type Name = arcstr::ArcStr;

#[cfg(test)]
mod tests;
