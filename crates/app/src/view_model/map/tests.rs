use super::*;
use crate::state::State;

fn objects_in(report: &Report, layout: &Layout) -> Vec<String> {
    layout
        .placed
        .iter()
        .filter_map(|p| match p.item {
            Item::Object(i) => Some(format!(
                "{}:{} {}",
                p.column, report.objects[i].object.kind, report.objects[i].object.name
            )),
            _ => None,
        })
        .collect()
}

#[test]
fn readiness_sample_draws_service_slice_endpoints_and_pods() {
    let report = State::with_sample("readiness").report;
    let lit = lit(&report, &Default::default());
    let map = object_map(&report, &lit, &Options::default());
    assert_eq!(
        objects_in(&report, &map.services),
        [
            "0:Service echo",
            "1:EndpointSlice echo-tq8fz",
            "3:Pod echo-5f9b7d6c4-6c8d7",
            "3:Pod echo-5f9b7d6c4-k2m9x"
        ]
    );
    let endpoints = map
        .services
        .placed
        .iter()
        .filter(|p| matches!(p.item, Item::Endpoint { .. }))
        .count();
    assert_eq!(endpoints, 2);
    // Workloads: the ReplicaSet is not pasted (drawn all the same, as missing) with its Pods
    // and their nodes.
    let workloads = objects_in(&report, &map.workloads);
    assert_eq!(workloads[0], "1:ReplicaSet echo-5f9b7d6c4");
    assert!(
        workloads.contains(&"3:Node lab-worker".to_string()),
        "{workloads:?}"
    );
    let service = report
        .objects
        .iter()
        .position(|o| o.object.kind == "Service")
        .unwrap();
    assert_eq!(lit[&service].severity, Severity::Error);
    assert_eq!(failing(&report.objects[service]), Some(true));
    // Links: endpoint → Pod, stated by targetRef.
    let endpoint_links: Vec<&Link> = map
        .services
        .links
        .iter()
        .filter(|l| l.kind == LinkKind::EndpointIs)
        .collect();
    assert_eq!(endpoint_links.len(), 2);
    assert!(endpoint_links.iter().all(|l| !l.inferred));
}

/// A ReplicaSet of 500 Pods, 4 of them failing: 3 failing shown and one box for 497; expanded,
/// the cap holds.
#[test]
fn many_pods_collapse_failing_first_and_expand() {
    use std::fmt::Write;
    let mut text = String::from("apiVersion: v1\nkind: List\nitems:\n- kind: ReplicaSet\n  metadata: {name: web-7d9, namespace: shop}\n");
    for i in 0..500 {
        let ready = if i % 125 == 7 { "'False'" } else { "'True'" };
        write!(
            text,
            "- kind: Pod\n  metadata:\n    name: web-7d9-p{i:03}\n    namespace: shop\n    ownerReferences: [{{kind: ReplicaSet, name: web-7d9}}]\n  spec: {{containers: []}}\n  status:\n    phase: Running\n    conditions: [{{type: Ready, status: {ready}}}]\n"
        )
        .unwrap();
    }
    let report = faultline_engine::analyze(&[faultline_engine::Source::new("big.yaml", text)]);
    let lit = lit(&report, &Default::default());
    let map = object_map(&report, &lit, &Options::default());
    let pods: Vec<&Placed> = map.workloads.placed.iter().filter(|p| p.column == 2).collect();
    assert_eq!(pods.len(), FAILING_SHOWN + 1);
    let Item::Group {
        hidden,
        hidden_bad,
        total,
        bad,
        key,
        expanded,
    } = pods[FAILING_SHOWN].item.clone()
    else {
        panic!("a group box last: {pods:?}");
    };
    assert_eq!(
        (hidden, hidden_bad, total, bad, expanded),
        (497, 1, 500, 4, false)
    );
    for p in &pods[..FAILING_SHOWN] {
        let Item::Object(i) = p.item else { panic!() };
        assert_eq!(failing(&report.objects[i]), Some(true));
    }
    let mut options = Options::default();
    options.expanded.insert(key);
    let open = object_map(&report, &lit, &options);
    let shown = open.workloads.placed.iter().filter(|p| p.column == 2).count();
    assert_eq!(shown, EXPANDED_MAX + 1, "the cap and one box for the rest");
    assert!(open.workloads.placed.len() < 2 * EXPANDED_MAX);
}

#[test]
fn the_namespace_filter_and_paging_bound_the_bands() {
    let report = State::with_sample("healthy").report;
    let lit = lit(&report, &Default::default());
    let all = object_map(&report, &lit, &Options::default());
    assert!(all.workloads.total_bands >= 1 && all.services.total_bands >= 1);
    let none = object_map(
        &report,
        &lit,
        &Options {
            namespace: Some("no-such".into()),
            ..Options::default()
        },
    );
    assert!(none.workloads.placed.is_empty() && none.services.placed.is_empty());
    let one = object_map(
        &report,
        &lit,
        &Options {
            bands: 1,
            ..Options::default()
        },
    );
    assert_eq!(one.workloads.bands, 1);
    assert_eq!(one.workloads.total_bands, all.workloads.total_bands);
}

#[test]
fn arrow_keys_move_along_columns_and_rows() {
    let at = |column, row| Placed {
        item: Item::Object(0),
        column,
        row,
        band: 0,
    };
    let placed = [at(0, 0), at(1, 0), at(2, 0), at(2, 1), at(3, 1)];
    assert_eq!(neighbor(&placed, 2, Direction::Down), Some(3));
    assert_eq!(neighbor(&placed, 3, Direction::Up), Some(2));
    assert_eq!(neighbor(&placed, 3, Direction::Right), Some(4));
    assert_eq!(neighbor(&placed, 4, Direction::Left), Some(3));
    assert_eq!(neighbor(&placed, 0, Direction::Left), None);
    assert_eq!(neighbor(&placed, 0, Direction::Up), None);
}
