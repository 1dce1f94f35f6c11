//! The order in which the input holds a subject's events, beside [`crate::dispatch`]'s order of
//! time: a rule that cites one event (the reason, the container it names) cites the one read first.

use crate::dispatch::EventSubject;
use crate::EventRecord;

impl EventSubject<'_> {
    /// The first of its picked events in the order of [`crate::Model::events`] (objects' events,
    /// then table rows, as read), not of time.
    pub fn first_read(&self) -> Option<&EventRecord> {
        // Every event of a subject is an element of `Model::events`: their addresses are its order.
        self.events
            .iter()
            .copied()
            .min_by_key(|e| std::ptr::from_ref::<EventRecord>(e))
    }
}
