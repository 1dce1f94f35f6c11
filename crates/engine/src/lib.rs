//! Faultline's engine: text that `kubectl` printed in, a [`Report`] out.
//!
//! Pure and deterministic: no I/O, no clock, no randomness; the same inputs always give the same
//! report in the same order. Data flows one way: ingest -> model -> rules -> report.

pub mod ingest;
pub mod model;
pub mod redact;
pub mod render;
pub mod report;
pub mod rules;

use std::collections::BTreeMap;

pub use ingest::Source;
pub use report::{
    Boundary, Evidence, Fact, FactKind, FactState, Finding, InputError, InputSummary, MapEndpoint, MapObject,
    ObjectRef, Relation, RelationKind, Replicas, Report, Severity, TimelineEntry,
};

/// Choices the user can make about an analysis.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// When the pasted output was captured, to place ages (`4m31s`) on the timeline. Without it, the
    /// newest absolute timestamp in the input is used, and each placed entry says so.
    pub captured_at: Option<k8s_openapi::jiff::Timestamp>,
}

/// Analyses every input together and returns the report.
pub fn analyze(sources: &[Source]) -> Report {
    analyze_with(sources, &Options::default())
}

/// [`analyze`] with options.
pub fn analyze_with(sources: &[Source], options: &Options) -> Report {
    let ingested = ingest::ingest(sources);
    let model = model::Model::build(sources, &ingested);
    let findings = rules::run(&model);
    let timeline = model::timeline::build(&model, options.captured_at);
    let (objects, relations) = model::map::build(&model);
    let mut counts = BTreeMap::new();
    for object in &ingested.objects {
        *counts.entry(object.id.kind.clone()).or_insert(0) += 1;
    }
    // Rows of event tables are events too (counted as objects in their input's summary).
    if !ingested.table_events.is_empty() {
        *counts.entry("Event".to_string()).or_insert(0) += ingested.table_events.len();
    }
    Report {
        inputs: ingested.inputs,
        counts,
        errors: ingested.errors,
        findings,
        timeline,
        objects,
        relations,
    }
}
