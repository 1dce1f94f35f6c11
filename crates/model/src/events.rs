//! Events of both API groups normalised to one record (signals.md §7).
//!
//! core/v1 and events.k8s.io/v1 name the same facts differently, and the two recorders fill different
//! fields: the new recorder (the scheduler uses it) leaves `firstTimestamp`, `lastTimestamp`, `count`
//! and `source` empty and sets only `eventTime` and `series`. Code that sorts by `lastTimestamp` gets
//! those events wrong; everything here reads the normalised record instead.

use k8s_openapi::api::core::v1::ObjectReference;
use k8s_openapi::jiff::Timestamp;

use faultline_ingest::events_table::TableEvent;
use faultline_ingest::{Object, Typed};
use faultline_report::{ObjectRef, Text};

#[derive(Clone, Debug, PartialEq)]
pub struct EventRecord {
    /// The object the event is about (`regarding` / `involvedObject`).
    pub subject: ObjectRef,
    /// The part of the subject, e.g. `spec.containers{app}`.
    pub field_path: Option<String>,
    pub type_: Text,
    pub reason: Text,
    /// `note` / `message`.
    pub message: String,
    pub first: Option<Timestamp>,
    /// The effective last time: series, then lastTimestamp, then eventTime (how `kubectl events` sorts).
    pub last: Option<Timestamp>,
    pub count: u32,
    pub reporter: Option<String>,
    /// For table rows, which have no absolute time: seconds before the capture moment.
    pub last_age: Option<i64>,
    /// For table rows: seconds before the capture moment of the first occurrence (`FIRST SEEN`).
    pub first_age: Option<i64>,
    pub origin: EventOrigin,
}

/// Where an event was read, for citing it as evidence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EventOrigin {
    /// An Event object: its index in the ingested objects and the field holding the text
    /// (`message` for core/v1, `note` for events.k8s.io/v1).
    Object {
        index: usize,
        message_path: &'static str,
    },
    /// A row of an events table: the input's index and the row's line.
    TableRow { source: usize, line: u32 },
}

impl EventRecord {
    pub fn is_warning(&self) -> bool {
        self.type_ == "Warning"
    }

    /// The claim a `FailedScheduling` event says does not exist (the scheduler's
    /// `persistentvolumeclaim "NAME" not found`, in every release since 1.x), if it names one.
    pub fn claim_not_found(&self) -> Option<&str> {
        if self.reason != "FailedScheduling" {
            return None;
        }
        let rest = &self.message
            [self.message.find("persistentvolumeclaim \"")? + "persistentvolumeclaim \"".len()..];
        let (name, after) = rest.split_once('"')?;
        after.starts_with(" not found").then_some(name)
    }

    /// Whether this event was last seen after `other`: by time when both carry one, else by age
    /// (a table row's `LAST SEEN`, smaller is later). A later success shows an earlier failure passed.
    pub fn is_after(&self, other: &EventRecord) -> bool {
        match (self.last, other.last) {
            (Some(this), Some(that)) => this > that,
            _ => matches!((self.last_age, other.last_age), (Some(this), Some(that)) if this < that),
        }
    }
}

pub fn normalise(index: usize, object: &Object) -> Option<EventRecord> {
    match &object.typed {
        Typed::Event(e) => {
            let series = e.series.as_ref();
            let event_time = e.event_time.as_ref().map(|t| t.0);
            let first = e.first_timestamp.as_ref().map(|t| t.0).or(event_time);
            let last = series
                .and_then(|s| s.last_observed_time.as_ref().map(|t| t.0))
                .or(e.last_timestamp.as_ref().map(|t| t.0))
                .or(event_time)
                .or(first);
            let count = series
                .and_then(|s| s.count)
                .or(e.count)
                .filter(|c| *c > 0)
                .unwrap_or(1);
            Some(EventRecord {
                subject: subject(&e.involved_object, object),
                field_path: e.involved_object.field_path.clone(),
                type_: e.type_.clone().unwrap_or_default(),
                reason: e.reason.clone().unwrap_or_default(),
                message: e.message.as_deref().unwrap_or_default().to_string(),
                first,
                last,
                count: count as u32,
                reporter: e
                    .reporting_component
                    .as_deref()
                    .filter(|r| !r.is_empty())
                    .map(str::to_string)
                    .or_else(|| e.source.as_ref().and_then(|s| s.component.clone())),
                last_age: None,
                first_age: None,
                origin: EventOrigin::Object {
                    index,
                    message_path: "message",
                },
            })
        }
        Typed::EventV1(e) => {
            let series = e.series.as_ref();
            let event_time = e.event_time.as_ref().map(|t| t.0);
            let first = e.deprecated_first_timestamp.as_ref().map(|t| t.0).or(event_time);
            let last = series
                .map(|s| s.last_observed_time.0)
                .or(e.deprecated_last_timestamp.as_ref().map(|t| t.0))
                .or(event_time)
                .or(first);
            let count = series
                .map(|s| s.count)
                .or(e.deprecated_count)
                .filter(|c| *c > 0)
                .unwrap_or(1);
            let regarding = e.regarding.clone().unwrap_or_default();
            Some(EventRecord {
                subject: subject(&regarding, object),
                field_path: regarding.field_path.clone(),
                type_: e.type_.clone().unwrap_or_default(),
                reason: e.reason.clone().unwrap_or_default(),
                message: e.note.as_deref().unwrap_or_default().to_string(),
                first,
                last,
                count: count as u32,
                reporter: e
                    .reporting_controller
                    .as_deref()
                    .filter(|r| !r.is_empty())
                    .map(str::to_string)
                    .or_else(|| e.deprecated_source.as_ref().and_then(|s| s.component.clone())),
                last_age: None,
                first_age: None,
                origin: EventOrigin::Object {
                    index,
                    message_path: "note",
                },
            })
        }
        _ => None,
    }
}

/// A row of `kubectl get events` / `kubectl events`.
pub fn from_table(source: usize, row: &TableEvent) -> EventRecord {
    EventRecord {
        subject: ObjectRef {
            kind: row.kind.as_str().into(),
            namespace: row.namespace.as_deref().map(Into::into),
            name: row.name.as_str().into(),
            uid: None,
        },
        field_path: row.field_path.clone(),
        type_: row.type_.as_str().into(),
        reason: row.reason.as_str().into(),
        message: row.message.clone(),
        first: row.first_time,
        last: row.last_time,
        count: row.count,
        reporter: row.reporter.clone(),
        last_age: row.last_age,
        first_age: row.first_age,
        origin: EventOrigin::TableRow {
            source,
            line: row.line,
        },
    }
}

/// The event's subject; a missing namespace is the event's own (events live in their object's namespace).
fn subject(reference: &ObjectReference, event: &Object) -> ObjectRef {
    let kind: Text = reference.kind.as_deref().unwrap_or_default().into();
    let cluster_scoped = matches!(
        kind.as_str(),
        "Node" | "PersistentVolume" | "Namespace" | "StorageClass"
    );
    ObjectRef {
        namespace: if cluster_scoped {
            None
        } else {
            reference
                .namespace
                .as_deref()
                .filter(|n| !n.is_empty())
                .map(Into::into)
                .or_else(|| event.id.namespace.clone())
        },
        kind,
        name: reference.name.as_deref().unwrap_or_default().into(),
        uid: reference.uid.as_deref().filter(|u| !u.is_empty()).map(Into::into),
    }
}

/// A Warning event with only its reason and message, read from a table row: what the readers of
/// `signals/` are tested on.
#[cfg(test)]
pub(crate) fn test_event(reason: &str, message: &str) -> EventRecord {
    EventRecord {
        subject: Default::default(),
        field_path: None,
        type_: "Warning".into(),
        reason: reason.into(),
        message: message.to_string(),
        first: None,
        last: None,
        count: 1,
        reporter: None,
        last_age: None,
        first_age: None,
        origin: EventOrigin::TableRow { source: 0, line: 1 },
    }
}
