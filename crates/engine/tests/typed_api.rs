//! The engine's own Pod and Event types (`ingest::api`) read the same values as k8s-openapi's full
//! types, on every Pod and Event of the shared corpus, the built-in samples and the rule fixtures.
//!
//! The slim types exist to keep a big dump's memory small; this test is what lets them replace
//! k8s-openapi's without a rule seeing a different value.

// Test code: panicking on a broken fixture is the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::{Path, PathBuf};

use faultline_engine::ingest::{api, decode::decode, ingest, Object, Typed};
use faultline_engine::Source;
use k8s_openapi::api::core::v1 as k8s;
use k8s_openapi::api::events::v1 as k8s_events;

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files_under(&path, out);
        } else if path
            .extension()
            .is_some_and(|e| ["yaml", "yml", "json", "txt"].iter().any(|x| e == *x))
            && path.file_name().is_some_and(|n| n != "expect.json")
        {
            out.push(path);
        }
    }
}

fn k8s_containers(cs: Option<&Vec<k8s::Container>>) -> String {
    let rows: Option<Vec<_>> = cs.map(|cs| {
        cs.iter()
            .map(|c| {
                let env: Option<Vec<_>> = c.env.as_ref().map(|e| e.iter().map(|v| &v.value).collect());
                (&c.name, &c.command, &c.args, env, &c.resources)
            })
            .collect()
    });
    format!("{rows:?}")
}

fn api_containers(cs: Option<&Vec<api::Container>>) -> String {
    let rows: Option<Vec<_>> = cs.map(|cs| {
        cs.iter()
            .map(|c| {
                let env: Option<Vec<_>> = c.env.as_ref().map(|e| e.iter().map(|v| &v.value).collect());
                (&c.name, &c.command, &c.args, env, &c.resources)
            })
            .collect()
    });
    format!("{rows:?}")
}

fn k8s_state(s: Option<&k8s::ContainerState>) -> String {
    let s = s.map(|s| {
        (
            s.running.as_ref().map(|r| &r.started_at),
            s.terminated
                .as_ref()
                .map(|t| (&t.exit_code, &t.reason, &t.message, &t.started_at, &t.finished_at)),
            s.waiting.as_ref().map(|w| (&w.reason, &w.message)),
        )
    });
    format!("{s:?}")
}

fn api_state(s: Option<&api::ContainerState>) -> String {
    let s = s.map(|s| {
        (
            s.running.as_ref().map(|r| &r.started_at),
            s.terminated
                .as_ref()
                .map(|t| (&t.exit_code, &t.reason, &t.message, &t.started_at, &t.finished_at)),
            s.waiting.as_ref().map(|w| (&w.reason, &w.message)),
        )
    });
    format!("{s:?}")
}

fn k8s_pod(p: &k8s::Pod) -> String {
    let spec = p.spec.as_ref().map(|s| {
        (
            k8s_containers(Some(&s.containers)),
            k8s_containers(s.init_containers.as_ref()),
            &s.node_name,
            &s.node_selector,
            &s.restart_policy,
            &s.service_account_name,
        )
    });
    let statuses = |cs: Option<&Vec<k8s::ContainerStatus>>| -> String {
        let rows: Option<Vec<_>> = cs.map(|cs| {
            cs.iter()
                .map(|c| {
                    (
                        &c.name,
                        &c.image,
                        c.ready,
                        c.restart_count,
                        k8s_state(c.state.as_ref()),
                        k8s_state(c.last_state.as_ref()),
                    )
                })
                .collect()
        });
        format!("{rows:?}")
    };
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

fn api_pod(p: &api::Pod) -> String {
    let spec = p.spec.as_ref().map(|s| {
        (
            api_containers(Some(&s.containers)),
            api_containers(s.init_containers.as_ref()),
            &s.node_name,
            &s.node_selector,
            &s.restart_policy,
            &s.service_account_name,
        )
    });
    let statuses = |cs: Option<&Vec<api::ContainerStatus>>| -> String {
        let rows: Option<Vec<_>> = cs.map(|cs| {
            cs.iter()
                .map(|c| {
                    (
                        &c.name,
                        &c.image,
                        c.ready,
                        c.restart_count,
                        api_state(c.state.as_ref()),
                        api_state(c.last_state.as_ref()),
                    )
                })
                .collect()
        });
        format!("{rows:?}")
    };
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

fn k8s_event(e: &k8s::Event) -> String {
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

fn api_event(e: &api::CoreEvent) -> String {
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

fn k8s_event_v1(e: &k8s_events::Event) -> String {
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

fn api_event_v1(e: &api::EventsV1Event) -> String {
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
    let repo = common::repo();
    let mut files = Vec::new();
    files_under(&common::corpus(), &mut files);
    files_under(&repo.join("static/samples"), &mut files);
    files_under(&repo.join("tests/fixtures"), &mut files);
    files.sort();
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
