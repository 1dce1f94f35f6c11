//! Placing a report's timeline against the capture moment ([`place`]), on the report alone, so the
//! app re-anchors a timeline when the user sets the capture time without the engine; and ages as
//! kubectl prints them ([`human`]).

use compact_str::ToCompactString;

use crate::instant::Instant;
use crate::{AgeAnchor, Capture, CaptureBasis, ObjectRef, Sentence, Text, TimelineEntry};

/// Places the entries known only by age ([`TimelineEntry::age`]) against the capture moment, puts
/// every entry in time order (stable) and flags those before their subject's creation; returns the
/// capture moment. `captured_at`: the moment the user set; without it, the earliest the entries
/// allow — the newest absolute time, or an object's creation plus the age of the oldest event about
/// it when that is later. Reads only the entries (creations are their `created` entries), so the
/// app re-anchors a report's timeline without reading the inputs again. `estimated_from` is left
/// as it was.
pub fn place(entries: &mut [TimelineEntry], captured_at: Option<Instant>) -> Option<Capture> {
    place_after(entries, captured_at, None)
}

/// [`place`], with `newest`: a time the input states that no entry carries (the last line of a
/// log, a journal's `end at`), counted with the entries' own newest time.
pub fn place_after(
    entries: &mut [TimelineEntry],
    captured_at: Option<Instant>,
    mut newest: Option<Instant>,
) -> Option<Capture> {
    let parse = |t: &str| Instant::parse(t);
    let mut created: crate::hash::Map<&ObjectRef, Instant> = crate::hash::Map::default();
    for entry in entries.iter().filter(|e| e.age.is_none()) {
        let Some(t) = parse(&entry.time) else { continue };
        newest = newest.max(Some(t));
        if entry.source == "created" {
            created.entry(&entry.subject).or_insert(t);
        }
    }
    // A table printed without a namespace (`kubectl get events` in the current namespace) names
    // `pod/web`: the one object of that kind and name, where there is exactly one.
    let mut by_name: crate::hash::Map<(Text, Text), Option<Instant>> = crate::hash::Map::default();
    for (subject, t) in &created {
        by_name
            .entry((subject.kind.clone(), subject.name.clone()))
            .and_modify(|seen| *seen = None)
            .or_insert(Some(*t));
    }
    let creation = |subject: &ObjectRef| -> Option<Instant> {
        created.get(subject).copied().or_else(|| {
            subject
                .namespace
                .is_none()
                .then(|| {
                    by_name
                        .get(&(subject.kind.clone(), subject.name.clone()))
                        .copied()
                        .flatten()
                })
                .flatten()
        })
    };
    let capture = match captured_at {
        Some(t) => Some((t, CaptureBasis::Set, None)),
        None => {
            let mut best: Option<(Instant, &TimelineEntry, i64, Instant)> = None;
            for entry in entries.iter() {
                let (Some(age), Some(c)) = (entry.age, creation(&entry.subject)) else {
                    continue;
                };
                let oldest = entry.first_age.unwrap_or(age).max(age);
                let Some(at) = c.add_secs(oldest) else {
                    continue;
                };
                if best.as_ref().is_none_or(|(b, ..)| at > *b) {
                    best = Some((at, entry, oldest, c));
                }
            }
            match (newest, best) {
                (Some(n), Some((a, ..))) if n >= a => Some((n, CaptureBasis::NewestTimestamp, None)),
                (_, Some((a, entry, age, c))) => Some((
                    a,
                    CaptureBasis::AgeAnchor,
                    Some(AgeAnchor {
                        subject: entry.subject.clone(),
                        reason: entry.reason.clone(),
                        age,
                        created: c.to_compact_string(),
                    }),
                )),
                (Some(n), None) => Some((n, CaptureBasis::NewestTimestamp, None)),
                (None, None) => None,
            }
        }
    };
    let created_at: Vec<Option<Instant>> = entries.iter().map(|e| creation(&e.subject)).collect();
    if let Some((time, ..)) = &capture {
        for entry in entries.iter_mut() {
            if let Some(age) = entry.age {
                let at = time.add_secs(-age).unwrap_or(*time);
                entry.time = at.to_compact_string();
            }
        }
    }
    // Each entry's time parsed once. At equal times, facts read with their time before those placed
    // from an age, so that placing again gives the same order; undated entries (ages without a
    // capture) by age, oldest first.
    let keys: Vec<(Option<Instant>, bool, std::cmp::Reverse<Option<i64>>)> = entries
        .iter()
        .map(|e| {
            let time = parse(&e.time);
            let undated_age = if time.is_none() { e.age } else { None };
            (time, e.age.is_some(), std::cmp::Reverse(undated_age))
        })
        .collect();
    for ((entry, (time, ..)), created) in entries.iter_mut().zip(&keys).zip(&created_at) {
        entry.before_object_existed =
            entry.source != "created" && matches!((time, created), (Some(t), Some(c)) if t < c);
    }
    let mut order: Vec<usize> = (0..entries.len()).collect();
    order.sort_by_key(|&i| keys[i]);
    if order.iter().enumerate().any(|(at, &i)| at != i) {
        let mut taken: Vec<Option<TimelineEntry>> = entries
            .iter_mut()
            .map(|e| Some(std::mem::replace(e, placeholder())))
            .collect();
        for (slot, i) in entries.iter_mut().zip(order) {
            if let Some(entry) = taken[i].take() {
                *slot = entry;
            }
        }
    }
    capture.map(|(time, basis, anchor)| Capture {
        time: time.to_compact_string(),
        basis,
        anchor,
    })
}

/// An empty entry, to move entries into their order without cloning them.
fn placeholder() -> TimelineEntry {
    TimelineEntry {
        time: Text::default(),
        subject: ObjectRef {
            kind: Text::default(),
            namespace: None,
            name: Text::default(),
            uid: None,
        },
        source: Text::default(),
        reason: Text::default(),
        message: Sentence::default(),
        count: 0,
        warning: false,
        estimated_from: None,
        age: None,
        first_age: None,
        before_object_existed: false,
        at: None,
    }
}

/// Seconds as kubectl prints ages: `4m31s`, `2h5m`, `3d4h`.
pub fn human(seconds: i64) -> String {
    let (d, h, m, s) = (
        seconds / 86_400,
        seconds % 86_400 / 3600,
        seconds % 3600 / 60,
        seconds % 60,
    );
    match (d, h, m) {
        (0, 0, 0) => format!("{s}s"),
        (0, 0, _) if s > 0 => format!("{m}m{s}s"),
        (0, 0, _) => format!("{m}m"),
        (0, _, _) if m > 0 => format!("{h}h{m}m"),
        (0, _, _) => format!("{h}h"),
        _ if h > 0 => format!("{d}d{h}h"),
        _ => format!("{d}d"),
    }
}
