//! The serialisable result of an analysis: the public contract of `faultline analyze --format json`
//! and the only thing the app renders (DESIGN.md, "The report contract"). Field names are public:
//! change them only on purpose, together with the contract test.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub inputs: Vec<InputSummary>,
    /// Objects found, by kind, in kind order.
    pub counts: BTreeMap<String, usize>,
    pub errors: Vec<InputError>,
    /// Most likely root cause first.
    pub findings: Vec<Finding>,
    /// Dated facts in time order (ties keep input order).
    pub timeline: Vec<TimelineEntry>,
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
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InputError {
    pub source: String,
    pub line: u32,
    pub column: u32,
    pub message: String,
}

/// Identity of a Kubernetes object: kind + namespace + name. The uid is carried, never the key.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct ObjectRef {
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uid: Option<String>,
}

impl ObjectRef {
    /// Whether two references name the same object: kind, namespace and name equal, and the uids equal
    /// when both are known.
    pub fn same_object(&self, other: &ObjectRef) -> bool {
        self.kind == other.kind
            && self.namespace == other.namespace
            && self.name == other.name
            && match (&self.uid, &other.uid) {
                (Some(a), Some(b)) => a == b,
                _ => true,
            }
    }
}

impl fmt::Display for ObjectRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
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

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    pub rule: String,
    pub boundary: Boundary,
    pub severity: Severity,
    pub subject: ObjectRef,
    pub summary: String,
    pub evidence: Vec<Evidence>,
    pub cannot_establish: Vec<String>,
    pub next_steps: Vec<String>,
    /// Set on a symptom that another finding explains (a Deployment not progressing because its
    /// Pods cannot pull their image): names that finding, which the report lists just before it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub explained_by: Option<Cause>,
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
    pub source: String,
    pub line: u32,
    pub path: String,
    pub value: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TimelineEntry {
    /// RFC 3339, UTC; empty when only an age is known and the input has no absolute time.
    pub time: String,
    pub subject: ObjectRef,
    /// What kind of fact this is: `event`, `created`, `condition`, `container-started`,
    /// `container-terminated`.
    pub source: String,
    pub reason: String,
    pub message: String,
    pub count: u32,
    /// A `Warning` event (what `kubectl get events --field-selector type=Warning` would list).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub warning: bool,
    /// Set when `time` was estimated from an age (tables and describe print ages, not times): says
    /// from what, e.g. "age 4m31s before 2025-02-11T09:35:36Z, the newest timestamp in the input".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimated_from: Option<String>,
    /// Where the fact was read: the input and line (a field of an object, a table row).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<SourceLine>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceLine {
    pub source: String,
    pub line: u32,
}
