//! Events of both API groups (`v1` and `events.k8s.io/v1`): what the timeline and the rules read.

use k8s_openapi::api::core::v1::{EventSource, ObjectReference};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{MicroTime, Time};
use serde::Deserialize;

use faultline_report::Text;

/// A `v1` Event, as `kubectl get events -o yaml` prints it.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CoreEvent {
    #[serde(default)]
    pub involved_object: ObjectReference,
    #[serde(rename = "type")]
    pub type_: Option<Text>,
    pub reason: Option<Text>,
    pub message: Option<Text>,
    pub count: Option<i32>,
    pub event_time: Option<MicroTime>,
    pub first_timestamp: Option<Time>,
    pub last_timestamp: Option<Time>,
    pub series: Option<EventSeries>,
    pub reporting_component: Option<Text>,
    pub source: Option<EventSource>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EventSeries {
    pub count: Option<i32>,
    pub last_observed_time: Option<MicroTime>,
}

/// An `events.k8s.io/v1` Event: `regarding` and `note` where `v1` has `involvedObject` and `message`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EventsV1Event {
    pub regarding: Option<ObjectReference>,
    #[serde(rename = "type")]
    pub type_: Option<Text>,
    pub reason: Option<Text>,
    pub note: Option<Text>,
    pub event_time: Option<MicroTime>,
    pub deprecated_count: Option<i32>,
    pub deprecated_first_timestamp: Option<Time>,
    pub deprecated_last_timestamp: Option<Time>,
    pub series: Option<EventsV1Series>,
    pub reporting_controller: Option<Text>,
    pub deprecated_source: Option<EventSource>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EventsV1Series {
    #[serde(default)]
    pub count: i32,
    pub last_observed_time: MicroTime,
}
