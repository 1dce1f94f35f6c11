//! The engine's own Pod and Event types (`ingest::api`) read the same values as k8s-openapi's full
//! types, on every Pod and Event of the shared corpus, the built-in samples and the rule fixtures.
//!
//! The slim types exist to keep a big dump's memory small; this test is what lets them replace
//! k8s-openapi's without a rule seeing a different value.

// Test code: panicking on a broken fixture is the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::Path;

use faultline_engine::ingest::{api, decode::decode, ingest, Object, Typed};
use faultline_engine::Source;
use k8s_openapi::api::core::v1 as k8s;
use k8s_openapi::api::events::v1 as k8s_events;

// The values the engine reads, printed the same way for both sides: each projection is written once
// and instantiated for k8s-openapi's types and for the engine's.

macro_rules! pod_projection {
    ($name:ident, $m:ident) => {
        fn $name(p: &$m::Pod) -> String {
            let containers = |cs: Option<&Vec<$m::Container>>| -> String {
                let rows: Option<Vec<_>> = cs.map(|cs| {
                    cs.iter()
                        .map(|c| {
                            let env: Option<Vec<_>> =
                                c.env.as_ref().map(|e| e.iter().map(|v| &v.value).collect());
                            (&c.name, &c.command, &c.args, env, &c.resources)
                        })
                        .collect()
                });
                format!("{rows:?}")
            };
            let state = |s: Option<&$m::ContainerState>| -> String {
                let s = s.map(|s| {
                    (
                        s.running.as_ref().map(|r| &r.started_at),
                        s.terminated.as_ref().map(|t| {
                            (
                                &t.exit_code,
                                &t.reason,
                                &t.message,
                                &t.started_at,
                                &t.finished_at,
                            )
                        }),
                        s.waiting.as_ref().map(|w| (&w.reason, &w.message)),
                    )
                });
                format!("{s:?}")
            };
            let statuses = |cs: Option<&Vec<$m::ContainerStatus>>| -> String {
                let rows: Option<Vec<_>> = cs.map(|cs| {
                    cs.iter()
                        .map(|c| {
                            let (now, last) = (state(c.state.as_ref()), state(c.last_state.as_ref()));
                            (&c.name, &c.image, c.ready, c.restart_count, now, last)
                        })
                        .collect()
                });
                format!("{rows:?}")
            };
            let spec = p.spec.as_ref().map(|s| {
                (
                    containers(Some(&s.containers)),
                    containers(s.init_containers.as_ref()),
                    &s.node_name,
                    &s.node_selector,
                    &s.restart_policy,
                    &s.service_account_name,
                )
            });
            let status = p.status.as_ref().map(|s| {
                let conditions: Option<Vec<_>> = s.conditions.as_ref().map(|cs| {
                    cs.iter()
                        .map(|c| {
                            (
                                &c.type_,
                                &c.status,
                                &c.reason,
                                &c.message,
                                &c.last_transition_time,
                            )
                        })
                        .collect()
                });
                (
                    &s.phase,
                    conditions,
                    statuses(s.container_statuses.as_ref()),
                    statuses(s.init_container_statuses.as_ref()),
                )
            });
            format!("{spec:?} {status:?}")
        }
    };
}

macro_rules! event_projection {
    ($name:ident, $ty:ty) => {
        fn $name(e: &$ty) -> String {
            format!(
                "{:?}",
                (
                    &e.involved_object,
                    &e.type_,
                    &e.reason,
                    &e.message,
                    &e.count,
                    &e.event_time,
                    &e.first_timestamp,
                    &e.last_timestamp,
                    e.series.as_ref().map(|s| (&s.count, &s.last_observed_time)),
                    &e.reporting_component,
                    e.source.as_ref().map(|s| &s.component),
                )
            )
        }
    };
}

macro_rules! event_v1_projection {
    ($name:ident, $ty:ty) => {
        fn $name(e: &$ty) -> String {
            format!(
                "{:?}",
                (
                    &e.regarding,
                    &e.type_,
                    &e.reason,
                    &e.note,
                    &e.event_time,
                    &e.deprecated_count,
                    &e.deprecated_first_timestamp,
                    &e.deprecated_last_timestamp,
                    e.series.as_ref().map(|s| (&s.count, &s.last_observed_time)),
                    &e.reporting_controller,
                    e.deprecated_source.as_ref().map(|s| &s.component),
                )
            )
        }
    };
}

pod_projection!(k8s_pod, k8s);
pod_projection!(api_pod, api);
event_projection!(k8s_event, k8s::Event);
event_projection!(api_event, api::CoreEvent);
event_v1_projection!(k8s_event_v1, k8s_events::Event);
event_v1_projection!(api_event_v1, api::EventsV1Event);

/// Compares one object's typed value with k8s-openapi's decoding of the same tree; true if it was
/// a Pod or an Event that both decoded.
fn same_as_k8s_openapi(object: &Object, file: &Path) -> bool {
    let (ours, theirs) = match &object.typed {
        Typed::Pod(p) => match decode::<k8s::Pod>(&object.node) {
            Ok(k) => (api_pod(p), k8s_pod(&k)),
            Err(_) => return false,
        },
        Typed::Event(e) => match decode::<k8s::Event>(&object.node) {
            Ok(k) => (api_event(e), k8s_event(&k)),
            Err(_) => return false,
        },
        Typed::EventV1(e) => match decode::<k8s_events::Event>(&object.node) {
            Ok(k) => (api_event_v1(e), k8s_event_v1(&k)),
            Err(_) => return false,
        },
        Typed::Untyped => return false,
    };
    assert_eq!(ours, theirs, "{} {:?}", file.display(), object.id);
    true
}

#[test]
fn pods_and_events_read_the_same_as_with_k8s_openapi() {
    let files = common::input_files(|p| {
        p.extension()
            .is_some_and(|e| ["yaml", "yml", "json", "txt"].iter().any(|x| e == *x))
            && p.file_name().is_some_and(|n| n != "expect.json")
    });
    let (mut pods, mut events) = (0, 0);
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let got = ingest(&[Source::new(file.to_string_lossy(), text)]);
        for object in &got.objects {
            if same_as_k8s_openapi(object, file) {
                match object.typed {
                    Typed::Pod(_) => pods += 1,
                    _ => events += 1,
                }
            }
        }
    }
    // The corpus alone holds well over these; fewer means the walk found the wrong files.
    assert!(pods >= 50, "compared {pods} Pods");
    assert!(events >= 100, "compared {events} Events");
}
