//! The object graph the rules read: objects by identity, normalised events by subject, the timeline.

pub mod events;
pub mod timeline;

use crate::ingest::{Ingested, Object, Source};
use crate::report::{Evidence, ObjectRef};
pub use events::EventRecord;

pub struct Model<'a> {
    pub sources: &'a [Source],
    pub objects: &'a [Object],
    pub events: Vec<EventRecord>,
}

impl<'a> Model<'a> {
    pub fn build(sources: &'a [Source], ingested: &'a Ingested) -> Self {
        let events = ingested
            .objects
            .iter()
            .enumerate()
            .filter_map(|(i, o)| events::normalise(i, o))
            .collect();
        Self {
            sources,
            objects: &ingested.objects,
            events,
        }
    }

    /// The events about one object, matched by kind, namespace and name (and uid when both carry one),
    /// never by name alone; in effective-time order.
    pub fn events_for(&self, subject: &ObjectRef) -> Vec<&EventRecord> {
        let mut found: Vec<_> = self
            .events
            .iter()
            .filter(|e| e.subject.same_object(subject))
            .collect();
        found.sort_by_key(|e| e.last);
        found
    }

    /// Evidence for a field of an object, if the field is present in the input.
    pub fn evidence(&self, object: &Object, path: &str) -> Option<Evidence> {
        let (pos, node) = object.locate(path)?;
        Some(Evidence {
            source: self.source_name(object.source),
            line: pos.line,
            path: path.to_string(),
            value: node.as_str().unwrap_or_default().to_string(),
        })
    }

    /// Evidence for an event's message.
    pub fn event_evidence(&self, event: &EventRecord) -> Option<Evidence> {
        let object = self.objects.get(event.object)?;
        self.evidence(object, event.message_path)
    }

    pub fn source_name(&self, index: usize) -> String {
        self.sources
            .get(index)
            .map(|s| s.name.clone())
            .unwrap_or_default()
    }
}
