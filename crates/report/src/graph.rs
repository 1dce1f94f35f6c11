//! The object graph of a report ([`crate::Report::objects`], [`crate::Report::relations`]) and the
//! facts about each object.

use serde::{Deserialize, Serialize};

use crate::{Evidence, ObjectRef, SourceLine};

/// One object of the graph: its identity (without the uid, which is not the key), where it was read,
/// and a short status. Only what a kind has is written, so 10,000 Pods stay small.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MapObject {
    #[serde(rename = "ref")]
    pub object: ObjectRef,
    /// Where the object starts in its input; absent for a missing object.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<SourceLine>,
    /// Referred to by a pasted object (an owner, a node, a Service) but not in the input.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub missing: bool,
    /// A Pod's or PersistentVolumeClaim's `status.phase`; a Node's `Ready` condition as `Ready`,
    /// `NotReady` or `Unknown`; a Job's `Complete` or `Failed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase: Option<String>,
    /// A Pod's first container that is not running: its waiting or terminated reason, as kubectl's
    /// STATUS column shows it (`CrashLoopBackOff`, `ErrImagePull`, `OOMKilled`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// A Pod's ready containers and containers, as `[ready, all]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub containers: Option<[u32; 2]>,
    /// A Pod's container restarts, summed.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub restarts: u32,
    /// A workload's replicas (Deployment, ReplicaSet, StatefulSet, DaemonSet).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replicas: Option<Replicas>,
    /// A Service's `spec.type`.
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    pub service_type: Option<String>,
    /// A Service's ports, `port→targetPort/protocol` (`80→http/TCP`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ports: Vec<String>,
    /// The endpoints of an EndpointSlice (`endpoints[]`) or of an Endpoints object (its addresses).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub endpoints: Vec<MapEndpoint>,
    /// A Service's or a Pod's five facts (the article's experiment 3), each yes, no or unknown.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub facts: Vec<Fact>,
    /// Whether the object is failing as its status above states it (`failing`, `ok`); absent when
    /// the input does not say (a missing object, a kind without a status the map reads).
    #[serde(default, skip_serializing_if = "ObjectState::is_unknown")]
    pub state: ObjectState,
}

/// An object's state as its own status states it ([`MapObject::state`]); never a guessed `ok`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ObjectState {
    /// Not running, not ready, not complete, or fewer ready than desired.
    Failing,
    Ok,
    /// The input does not state it.
    #[default]
    Unknown,
}

impl ObjectState {
    pub fn is_unknown(&self) -> bool {
        *self == ObjectState::Unknown
    }

    /// `Some(true)` failing, `Some(false)` ok, `None` unknown.
    pub fn failing(self) -> Option<bool> {
        match self {
            ObjectState::Failing => Some(true),
            ObjectState::Ok => Some(false),
            ObjectState::Unknown => None,
        }
    }
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// A workload's replicas as its status states them; a count the input does not state is absent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Replicas {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub desired: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ready: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub available: Option<u32>,
}

/// One endpoint: its addresses, its conditions as written (absent: not stated; the API reads an
/// absent `ready` or `serving` as true and an absent `terminating` as false) and the Pod it is.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MapEndpoint {
    /// The endpoint's line in the input.
    pub line: u32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub addresses: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ready: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub serving: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub terminating: Option<bool>,
    /// The object (index into [`Report::objects`]) its `targetRef` names, or the Pod with its IP.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<usize>,
    /// The target was matched by IP address, not named by a `targetRef`: a guess.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub inferred: bool,
}

/// A relation between two objects of the graph (indices into [`Report::objects`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Relation {
    pub from: usize,
    pub to: usize,
    pub kind: RelationKind,
    /// The field of `from` that states the relation (`metadata.ownerReferences[0]`, `spec.nodeName`).
    pub path: String,
    /// Guessed rather than stated (an endpoint matched to a Pod by its IP).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub inferred: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RelationKind {
    /// `metadata.ownerReferences`: a Pod to its ReplicaSet, a ReplicaSet to its Deployment.
    OwnedBy,
    /// A Service's or a workload's selector matches the Pod's labels.
    Selects,
    /// An EndpointSlice (`kubernetes.io/service-name`) or Endpoints object to its Service.
    EndpointsOf,
    /// An endpoint of an EndpointSlice or Endpoints object is this Pod.
    EndpointIs,
    /// A Pod's `spec.nodeName`.
    RunsOn,
    /// A Pod uses a PersistentVolumeClaim, ConfigMap or Secret.
    Uses,
    /// A ResourceQuota or LimitRange applies to its Namespace.
    AppliesTo,
}

/// One of the five facts about a Service or a Pod, as this input shows it. `unknown` is never a yes:
/// it says that the input does not state it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fact {
    pub fact: FactKind,
    pub state: FactState,
    /// Where the input states it (the disproving evidence first); empty when unknown.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub evidence: Vec<Evidence>,
    /// The objects the fact names (indices into [`Report::objects`]): the Services that select a
    /// Pod, the EndpointSlices that list it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub objects: Vec<usize>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FactKind {
    /// The Pod is on a node (`spec.nodeName`, the `PodScheduled` condition).
    Scheduled,
    /// Every container of the Pod (of every selected Pod, for a Service) is running.
    ContainerRunning,
    /// The Pod's `Ready` condition is `True` (every selected Pod's, for a Service).
    PodReady,
    /// A pasted Service selects the Pod.
    SelectedByService,
    /// The Pod's address is listed in its Service's EndpointSlices (every selected Pod's).
    AddressPresent,
    /// Its endpoints are `ready`, so kube-proxy routes traffic to them.
    EligibleForTraffic,
    /// Pasted request output shows the application answering (a Service's fifth fact).
    BusinessResponse,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FactState {
    Yes,
    No,
    Unknown,
}
