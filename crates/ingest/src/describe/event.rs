//! `kubectl describe event NAME` (or `describe events`): an Event printed by kubectl's generic
//! describer, its fields title-cased (`Involved Object:`, `First Timestamp:`, `Message:`), turned
//! into the tree `kubectl get event -o yaml` gives, so the event reaches the rules as any other.

use super::{time, Item};
use crate::catalog;
use crate::node::{MapBuilder as Obj, Pos};

/// The Event's fields: its involved object, type, reason, message, count, times and source. A
/// reason the paste cut off (`Reason:` with nothing after it) is the one the catalog knows the
/// message by, as for an event row whose reason is missing.
pub(super) fn event(items: &[Item<'_>], object: &mut Obj) {
    let find = |key: &str| items.iter().find(|i| i.line.key == Some(key));
    let field = |key: &str| find(key).and_then(|i| Some((i.pos(), i.text()?)));
    if let Some(involved) = find("Involved Object") {
        let mut reference = Obj::new(involved.pos());
        for (key, name) in [
            ("API Version", "apiVersion"),
            ("Kind", "kind"),
            ("Name", "name"),
            ("Namespace", "namespace"),
            ("UID", "uid"),
            ("Field Path", "fieldPath"),
        ] {
            if let Some((at, value)) = involved.child(key).and_then(|c| Some((c.pos(), c.text()?))) {
                reference.str(name, &value, at);
            }
        }
        object.put("involvedObject", reference.node(), involved.pos());
    }
    let message = field("Message");
    if let Some((at, text)) = &message {
        object.str("message", text, *at);
    }
    let known = message
        .as_ref()
        .and_then(|(_, m)| catalog::find(m))
        .map(|(_, e)| e);
    match (field("Reason"), known) {
        (Some((at, reason)), _) => object.str("reason", &reason, at),
        (None, Some(entry)) => {
            let at = message
                .as_ref()
                .map_or(Pos::new(items[0].line.line, 1), |(at, _)| *at);
            object.str("reason", entry.reason, at);
        }
        (None, None) => {}
    }
    match (field("Type"), known) {
        (Some((at, type_)), _) => object.str("type", &type_, at),
        (None, Some(entry)) => {
            let at = message
                .as_ref()
                .map_or(Pos::new(items[0].line.line, 1), |(at, _)| *at);
            object.str("type", if entry.warning { "Warning" } else { "Normal" }, at);
        }
        (None, None) => {}
    }
    if let Some((at, count)) = field("Count").filter(|(_, c)| c.parse::<u32>().is_ok()) {
        object.plain("count", &count, at);
    }
    for (key, name) in [
        ("First Timestamp", "firstTimestamp"),
        ("Last Timestamp", "lastTimestamp"),
    ] {
        // The generic describer prints RFC 3339; older kubectl printed describe's RFC 2822 dates.
        let value = field(key).and_then(|(at, v)| {
            let rfc3339 = v
                .parse::<k8s_openapi::jiff::Timestamp>()
                .ok()
                .map(|t| t.to_string());
            Some((at, rfc3339.or_else(|| time(&v))?))
        });
        if let Some((at, value)) = value {
            object.str(name, &value, at);
        }
    }
    if let Some(source) = find("Source") {
        let mut built = Obj::new(source.pos());
        for (key, name) in [("Component", "component"), ("Host", "host")] {
            if let Some((at, value)) = source.child(key).and_then(|c| Some((c.pos(), c.text()?))) {
                built.str(name, &value, at);
            }
        }
        object.put("source", built.node(), source.pos());
    }
}
