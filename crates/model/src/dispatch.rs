//! What a rule asks the model for, so that no rule loops over all events with its own dedupe: the
//! subjects of the events it reads, each once, with those events of it.

use faultline_report::ObjectRef;

use crate::{EventRecord, Model};

/// One subject of the events a rule reads, and those of its events ([`Model::events_for`], oldest
/// first) that the rule's predicate picks.
#[derive(Debug)]
pub struct EventSubject<'m> {
    pub subject: &'m ObjectRef,
    pub events: Vec<&'m EventRecord>,
}

impl EventSubject<'_> {
    /// The newest of its events.
    pub fn last(&self) -> Option<&EventRecord> {
        self.events.last().copied()
    }

    /// How many times its events were seen (each event's count, at least once).
    pub fn times(&self) -> u32 {
        self.events.iter().map(|e| e.count.max(1)).sum()
    }
}

impl<'a> Model<'a> {
    /// The subjects of kind `kind` (any kind when empty) of the events `picks` chooses, each once in
    /// the order its first such event was read, each with its picked events oldest first.
    pub fn event_subjects(&self, kind: &str, picks: impl Fn(&EventRecord) -> bool) -> Vec<EventSubject<'_>> {
        let mut subjects: Vec<EventSubject<'_>> = Vec::new();
        for event in self
            .events
            .iter()
            .filter(|e| (kind.is_empty() || e.subject.kind == kind) && picks(e))
        {
            if subjects.iter().any(|s| *s.subject == event.subject) {
                continue;
            }
            let events: Vec<&EventRecord> = self
                .events_for(&event.subject)
                .into_iter()
                .filter(|e| picks(e))
                .collect();
            // A table row matched to no subject by `events_for` (an ambiguous name) is still its own.
            let events = if events.is_empty() { vec![event] } else { events };
            subjects.push(EventSubject {
                subject: &event.subject,
                events,
            });
        }
        subjects
    }

    /// [`Model::event_subjects`] of the subjects the input holds no object of: a Pod known only from
    /// its events, whose status (and so most of what a rule reads) is not in the input.
    pub fn event_only_subjects(
        &self,
        kind: &str,
        picks: impl Fn(&EventRecord) -> bool,
    ) -> Vec<EventSubject<'_>> {
        let mut subjects = self.event_subjects(kind, picks);
        subjects.retain(|s| self.graph.find(s.subject).is_none());
        subjects
    }
}

#[cfg(test)]
mod tests {
    use faultline_ingest::{ingest, Source};

    use crate::Model;

    const EVENTS: &str = "\
LAST SEEN   TYPE      REASON      OBJECT        MESSAGE
3m          Warning   Unhealthy   pod/api-1     Liveness probe failed: HTTP probe failed with statuscode: 500
2m          Warning   Unhealthy   pod/api-1     Liveness probe failed: HTTP probe failed with statuscode: 503
2m          Normal    Pulled      pod/api-1     Container image \"api:1\" already present on machine
1m          Warning   Unhealthy   pod/web-2     Liveness probe failed: Get \"http://10.0.0.9:8080/\": dial tcp 10.0.0.9:8080: connect: connection refused
";

    #[test]
    fn each_subject_once_with_only_the_events_picked() {
        let sources = vec![Source::new("events", EVENTS)];
        let ingested = ingest(&sources);
        let model = Model::build(&sources, &ingested);
        let subjects = model.event_subjects("Pod", |e| e.reason == "Unhealthy");
        let names: Vec<&str> = subjects.iter().map(|s| s.subject.name.as_str()).collect();
        assert_eq!(names, ["api-1", "web-2"]);
        assert_eq!(subjects[0].events.len(), 2);
        assert!(subjects[0].last().is_some_and(|e| e.message.contains("503")));
        assert_eq!(subjects[0].times(), 2);
        assert!(model
            .event_subjects("Node", |e| e.reason == "Unhealthy")
            .is_empty());
        // None of them was pasted as an object: each is known only from its events.
        assert_eq!(
            model
                .event_only_subjects("Pod", |e| e.reason == "Unhealthy")
                .len(),
            2
        );
    }
}
