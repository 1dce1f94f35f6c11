//! The JSON of the report's objects that hold sentences: each sentence's words under the contract's
//! key, its message beside it under the key the contract gives it (written for other tools, never
//! read back). Everything else is written as `derive(Serialize)` would write it.

use serde::ser::{Serialize, SerializeStruct, Serializer};

use crate::sentence::{Messages, Sentence};
use crate::{Decider, Finding, InputError, RuledOut, TimelineEntry, Unread};

/// Writes `key` (skipped when `skip`).
fn field<S: SerializeStruct, T: Serialize + ?Sized>(
    out: &mut S,
    key: &'static str,
    value: &T,
    skip: bool,
) -> Result<(), S::Error> {
    if skip {
        out.skip_field(key)
    } else {
        out.serialize_field(key, value)
    }
}

impl Serialize for Finding {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut out = s.serialize_struct("Finding", 16)?;
        out.serialize_field("rule", &self.rule)?;
        out.serialize_field("boundary", &self.boundary)?;
        out.serialize_field("severity", &self.severity)?;
        out.serialize_field("subject", &self.subject)?;
        out.serialize_field("summary", &self.summary)?;
        let message = self.summary.message();
        field(&mut out, "message", &message, message.is_none())?;
        out.serialize_field("evidence", &self.evidence)?;
        out.serialize_field("cannot_establish", &self.cannot_establish)?;
        let none = !self.cannot_establish.iter().any(Sentence::is_engines);
        let messages = Messages(self.cannot_establish.iter());
        field(&mut out, "cannot_establish_messages", &messages, none)?;
        out.serialize_field("next_steps", &self.next_steps)?;
        field(
            &mut out,
            "explained_by",
            &self.explained_by,
            self.explained_by.is_none(),
        )?;
        field(&mut out, "affects", &self.affects, self.affects.is_empty())?;
        field(
            &mut out,
            "components",
            &self.components,
            self.components.is_empty(),
        )?;
        field(&mut out, "node", &self.node, self.node.is_none())?;
        out.serialize_field("confidence", &self.confidence)?;
        out.serialize_field("confidence_note", &self.confidence_note)?;
        let message = self.confidence_note.message();
        field(&mut out, "confidence_note_message", &message, message.is_none())?;
        out.end()
    }
}

impl Serialize for InputError {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut out = s.serialize_struct("InputError", 5)?;
        out.serialize_field("source", &self.source)?;
        out.serialize_field("line", &self.line)?;
        out.serialize_field("column", &self.column)?;
        out.serialize_field("message", &self.message)?;
        let message = self.message.message();
        field(&mut out, "structured", &message, message.is_none())?;
        out.end()
    }
}

impl Serialize for Unread {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut out = s.serialize_struct("Unread", 6)?;
        out.serialize_field("source", &self.source)?;
        out.serialize_field("line", &self.line)?;
        out.serialize_field("end_line", &self.end_line)?;
        out.serialize_field("reason", &self.reason)?;
        let message = self.reason.message();
        field(&mut out, "reason_message", &message, message.is_none())?;
        out.serialize_field("reason_id", &self.reason_id)?;
        out.end()
    }
}

impl Serialize for TimelineEntry {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut out = s.serialize_struct("TimelineEntry", 14)?;
        out.serialize_field("time", &self.time)?;
        out.serialize_field("subject", &self.subject)?;
        out.serialize_field("source", &self.source)?;
        out.serialize_field("reason", &self.reason)?;
        out.serialize_field("message", &self.message)?;
        let structured = self.message.message();
        field(&mut out, "structured", &structured, structured.is_none())?;
        out.serialize_field("count", &self.count)?;
        field(&mut out, "warning", &self.warning, !self.warning)?;
        let estimated = self.estimated_from.as_ref();
        field(&mut out, "estimated_from", &estimated, estimated.is_none())?;
        let message = estimated.and_then(Sentence::message);
        field(&mut out, "estimated_from_message", &message, message.is_none())?;
        field(&mut out, "age", &self.age, self.age.is_none())?;
        field(&mut out, "first_age", &self.first_age, self.first_age.is_none())?;
        let before = self.before_object_existed;
        field(&mut out, "before_object_existed", &before, !before)?;
        field(&mut out, "at", &self.at, self.at.is_none())?;
        out.end()
    }
}

impl Serialize for RuledOut {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut out = s.serialize_struct("RuledOut", 5)?;
        out.serialize_field("boundary", &self.boundary)?;
        field(&mut out, "finding", &self.finding, self.finding.is_none())?;
        out.serialize_field("because", &self.because)?;
        let message = self.because.message();
        field(&mut out, "because_message", &message, message.is_none())?;
        field(&mut out, "evidence", &self.evidence, self.evidence.is_none())?;
        out.end()
    }
}

impl Serialize for Decider {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut out = s.serialize_struct("Decider", 6)?;
        out.serialize_field("between", &self.between)?;
        out.serialize_field("tested", &self.tested)?;
        out.serialize_field("command", &self.command)?;
        out.serialize_field("if_shown", &self.if_shown)?;
        let message = self.if_shown.message();
        field(&mut out, "if_shown_message", &message, message.is_none())?;
        out.serialize_field("if_not", &self.if_not)?;
        let message = self.if_not.message();
        field(&mut out, "if_not_message", &message, message.is_none())?;
        out.end()
    }
}
