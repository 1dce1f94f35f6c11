//! The links between findings on whole analyses: every link names rules of the registry, and a
//! cause explains only what it is the cause of.

use faultline_engine::{analyze, Source};
use faultline_rules::{
    application, find, node_runtime, readiness_endpoints, scheduling, zone_network_storage, LATE,
};

use crate::explain::EXPLANATIONS;

#[test]
fn every_rule_the_links_name_is_in_the_registry() {
    let named = EXPLANATIONS
        .iter()
        .flat_map(|link| [Some(link.symptom), link.cause])
        .flatten()
        .chain(LATE.iter().copied());
    for id in named {
        assert!(find(id).is_some(), "{id} is linked but not in RULES");
    }
    assert!(EXPLANATIONS.iter().any(|link| link.cause.is_none()));
    // Every rule a cluster component may explain has its link.
    for id in zone_network_storage::cluster_component_failing::EXPLAINED {
        assert!(
            EXPLANATIONS.iter().any(|link| link.symptom == *id
                && link.cause == Some(zone_network_storage::cluster_component_failing::RULE.id)),
            "{id} has no link to cluster-component-failing"
        );
    }
}

/// (rule, explained by which rule about which object) for each finding.
fn links(sources: &[Source]) -> Vec<(String, Option<(String, String)>)> {
    analyze(sources)
        .findings
        .into_iter()
        .map(|f| {
            let cause = f.explained_by.map(|c| (c.rule, c.subject.to_string()));
            (f.rule, cause)
        })
        .collect()
}

/// The old link let any Service without ready endpoints "explain" every 5xx that was not
/// addressed to a Service by name: a request to a public URL, or to a Pod the Service does not
/// select, was listed as a symptom of an unrelated Service.
#[test]
fn an_unrelated_services_finding_does_not_explain_a_5xx() {
    let service = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/rules/service-endpoints-not-serving/fires-selector-matches-nothing.yaml"
    ))
    .unwrap();
    let curl = |target: &str| {
        format!("$ kubectl exec -n shop deploy/frontend -- curl -sS -i {target}\nHTTP/1.1 500 Internal Server Error\n\n{{\"error\":\"boom\"}}\n")
    };
    let http = |sources: &[Source]| -> Vec<Option<(String, String)>> {
        links(sources)
            .into_iter()
            .filter(|(rule, _)| rule == application::http_server_errors::RULE.id)
            .map(|(_, cause)| cause)
            .collect()
    };
    for unrelated in ["https://shop.example.com/api", "http://checkout.shop.svc:8080/x"] {
        let sources = [
            Source::new("svc.yaml", &service),
            Source::new("curl.txt", curl(unrelated)),
        ];
        assert_eq!(http(&sources), [None], "{unrelated}");
    }
    // The Service's own requests are still its symptoms.
    let sources = [
        Source::new("svc.yaml", &service),
        Source::new("curl.txt", curl("http://api.shop.svc:80/x")),
    ];
    assert_eq!(
        http(&sources),
        [Some((
            readiness_endpoints::service_endpoints_not_serving::RULE
                .id
                .to_string(),
            "Service shop/api".to_string()
        ))]
    );
}

/// The pressure link reads the findings' typed details: the node's pressure taint and the taint
/// the scheduler refused, not the summaries' wording.
#[test]
fn a_node_under_pressure_explains_the_pod_refused_for_that_pressure_only() {
    let input = |refused: &str| {
        format!(
                "\
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Node
  metadata: {{name: worker-7}}
  status:
    conditions:
    - {{type: DiskPressure, status: \"True\", reason: KubeletHasDiskPressure}}
- apiVersion: v1
  kind: Pod
  metadata: {{name: web-1, namespace: shop}}
  spec: {{containers: [{{name: web, image: web:1}}]}}
  status:
    phase: Pending
    conditions:
    - {{type: PodScheduled, status: \"False\", reason: Unschedulable, message: \"0/1 nodes are available: 1 node(s) had untolerated taint {{{refused}: }}. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.\"}}
"
            )
    };
    let unschedulable = |refused: &str| {
        links(&[Source::new("in.yaml", input(refused))])
            .into_iter()
            .find(|(rule, _)| rule == scheduling::pod_unschedulable::RULE.id)
            .map(|(_, cause)| cause)
    };
    assert_eq!(
        unschedulable("node.kubernetes.io/disk-pressure"),
        Some(Some((
            node_runtime::node_under_pressure::RULE.id.to_string(),
            "Node worker-7".to_string()
        )))
    );
    assert_eq!(unschedulable("node.kubernetes.io/memory-pressure"), Some(None));
}
