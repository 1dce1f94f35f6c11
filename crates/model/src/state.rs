//! Whether an object of the graph is failing, as its own status states it ([`MapObject::state`]):
//! the map lights failing objects and orders them first, and must not judge it itself.

use faultline_report::{FactKind, FactState, MapObject, ObjectState};

/// The object's state from what the graph read of its status (phase, reason, containers, replicas,
/// endpoints, and a Pod's or Service's facts). `Unknown` when the input does not say: never a guessed
/// `Ok`.
pub fn of(o: &MapObject) -> ObjectState {
    match failing(o) {
        Some(true) => ObjectState::Failing,
        Some(false) => ObjectState::Ok,
        None => ObjectState::Unknown,
    }
}

fn failing(o: &MapObject) -> Option<bool> {
    if o.missing {
        return None;
    }
    let fact = |kind: FactKind| o.facts.iter().find(|f| f.fact == kind).map(|f| f.state);
    match o.object.kind.as_str() {
        "Pod" => {
            if o.phase.as_deref() == Some("Succeeded") {
                return Some(false);
            }
            if o.reason.is_some()
                || matches!(o.phase.as_deref(), Some("Pending" | "Failed" | "Unknown"))
                || fact(FactKind::PodReady) == Some(FactState::No)
            {
                return Some(true);
            }
            match (fact(FactKind::PodReady), o.containers) {
                (Some(FactState::Yes), _) => Some(false),
                (_, Some([ready, all])) if all > 0 => Some(ready < all),
                _ => None,
            }
        }
        "Node" => o.phase.as_deref().map(|p| p != "Ready"),
        "Job" => o.phase.as_deref().map(|p| p == "Failed"),
        "Service" => match fact(FactKind::EligibleForTraffic) {
            Some(FactState::No) => Some(true),
            Some(FactState::Yes) => Some(false),
            _ => None,
        },
        "EndpointSlice" | "Endpoints" if !o.endpoints.is_empty() => {
            Some(o.endpoints.iter().any(|e| e.ready == Some(false)))
        }
        _ => o.replicas.and_then(|r| match (r.desired, r.ready) {
            (Some(desired), Some(ready)) => Some(ready < desired),
            _ => None,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use faultline_report::{MapEndpoint, ObjectRef, Replicas};

    fn object(kind: &str) -> MapObject {
        MapObject {
            object: ObjectRef {
                kind: kind.into(),
                name: "x".into(),
                ..ObjectRef::default()
            },
            ..MapObject::default()
        }
    }

    #[test]
    fn state_is_read_from_status_and_unknown_when_not_stated() {
        let pod = |phase: &str, containers| MapObject {
            phase: Some(phase.into()),
            containers,
            ..object("Pod")
        };
        assert_eq!(of(&pod("Running", Some([1, 1]))), ObjectState::Ok);
        assert_eq!(of(&pod("Running", Some([0, 1]))), ObjectState::Failing);
        assert_eq!(of(&pod("Pending", None)), ObjectState::Failing);
        assert_eq!(of(&pod("Succeeded", Some([0, 1]))), ObjectState::Ok);
        assert_eq!(of(&pod("Running", None)), ObjectState::Unknown);
        let missing = MapObject {
            missing: true,
            ..pod("Failed", None)
        };
        assert_eq!(of(&missing), ObjectState::Unknown);
        let node = |phase: &str| MapObject {
            phase: Some(phase.into()),
            ..object("Node")
        };
        assert_eq!(of(&node("Ready")), ObjectState::Ok);
        assert_eq!(of(&node("NotReady")), ObjectState::Failing);
        assert_eq!(of(&object("Node")), ObjectState::Unknown);
        let slice = MapObject {
            endpoints: vec![MapEndpoint {
                ready: Some(false),
                ..MapEndpoint::default()
            }],
            ..object("EndpointSlice")
        };
        assert_eq!(of(&slice), ObjectState::Failing);
        let deployment = |ready| MapObject {
            replicas: Some(Replicas {
                desired: Some(3),
                ready,
                available: None,
            }),
            ..object("Deployment")
        };
        assert_eq!(of(&deployment(Some(3))), ObjectState::Ok);
        assert_eq!(of(&deployment(Some(1))), ObjectState::Failing);
        assert_eq!(of(&deployment(None)), ObjectState::Unknown);
        assert_eq!(of(&object("ConfigMap")), ObjectState::Unknown);
    }
}
