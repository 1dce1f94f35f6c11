//! Issue 44: an application's log tied to the cluster objects pasted beside it. Each test is one
//! tie (`dependency-failing`'s clauses): the Service of the name the log calls and its ports, its
//! endpoints, a name no pasted Service has, the dependency's own Pods, the ConfigMap that holds the
//! name, a NetworkPolicy that leaves the Pod no DNS; then the lines that are no application's (a
//! kubelet's probe, kubectl's own error, a kube-system Pod's log), and log time on the timeline.

// Test code: panicking on a broken fixture is the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use faultline_engine::{analyze, Boundary, Finding, Report, Severity, Source};

fn report(text: &str) -> Report {
    analyze(&[Source::new("paste", text)])
}

fn dependency(report: &Report) -> &Finding {
    report
        .findings
        .iter()
        .find(|f| f.rule == "dependency-failing")
        .unwrap_or_else(|| panic!("no dependency-failing finding: {:#?}", report.findings))
}

/// The message ids a finding's summary holds, nested ones included.
fn ids(finding: &Finding) -> String {
    serde_json::to_value(finding).unwrap()["message"].to_string()
}

const LOG: &str = "$ kubectl logs checkout-7d9f8b6c4-x2k9p -n shop
2026-03-02T10:01:12.004Z  INFO 1 --- [main] c.e.checkout.CheckoutApplication : Started CheckoutApplication in 7.9 seconds
2026-03-02T10:01:19.551Z ERROR 1 --- [nio-8080-exec-3] o.h.engine.jdbc.spi.SqlExceptionHelper : Connection to prod-db:3333 refused. Check that the hostname and port are correct and that the postmaster is accepting TCP/IP connections.
2026-03-02T10:01:24.553Z ERROR 1 --- [nio-8080-exec-7] o.h.engine.jdbc.spi.SqlExceptionHelper : Connection to prod-db:3333 refused. Check that the hostname and port are correct and that the postmaster is accepting TCP/IP connections.
";

#[test]
fn a_port_the_service_does_not_serve() {
    let text = format!(
        "$ kubectl get svc -n shop
NAME       TYPE        CLUSTER-IP     EXTERNAL-IP   PORT(S)    AGE
checkout   ClusterIP   10.96.81.7     <none>        8080/TCP   41d
prod-db    ClusterIP   10.96.44.12    <none>        5432/TCP   41d
{LOG}"
    );
    let r = report(&text);
    let f = dependency(&r);
    assert_eq!(f.boundary, Boundary::Application);
    assert_eq!(f.severity, Severity::Error);
    assert!(
        ids(f).contains("dependency-failing.port-not-served"),
        "{}",
        f.summary
    );
    assert!(f.summary.contains("serves port 5432, not 3333"), "{}", f.summary);
    assert_eq!(f.subject.name, "checkout-7d9f8b6c4-x2k9p");
    // The Service's PORT(S) cell is cited.
    assert!(f.evidence.iter().any(|e| e.line == 4), "{:?}", f.evidence);
    assert!(f
        .summary
        .contains("2 lines, from 2026-03-02T10:01:19.551Z to 2026-03-02T10:01:24.553Z"));
}

#[test]
fn a_name_no_pasted_service_has() {
    let text = format!(
        "$ kubectl get svc -n shop
NAME       TYPE        CLUSTER-IP     EXTERNAL-IP   PORT(S)    AGE
checkout   ClusterIP   10.96.81.7     <none>        8080/TCP   41d
postgres   ClusterIP   10.96.44.12    <none>        5432/TCP   41d
{LOG}"
    );
    let f = dependency(&report(&text)).clone();
    assert!(ids(&f).contains("dependency-failing.no-service"), "{}", f.summary);
    // The Services of shop are listed in the paste already (`$ kubectl get svc -n shop`): asking
    // for them again would send the user in a circle (issue 40). Two Services asked for by name are
    // not all of them: the step stays.
    assert!(
        f.next_steps.iter().all(|s| s != "kubectl get svc -n shop"),
        "{:?}",
        f.next_steps
    );
    let two = text.replacen("get svc -n shop\n", "get svc -n shop checkout postgres\n", 1);
    let f = dependency(&report(&two)).clone();
    assert!(
        f.next_steps.iter().any(|s| s == "kubectl get svc -n shop"),
        "{:?}",
        f.next_steps
    );
}

const ENDPOINTS: &str = "apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Service
  metadata:
    name: prod-db
    namespace: shop
  spec:
    selector:
      app: prod-db
    ports:
    - port: 3333
- apiVersion: discovery.k8s.io/v1
  kind: EndpointSlice
  metadata:
    name: prod-db-x7q2c
    namespace: shop
    labels:
      kubernetes.io/service-name: prod-db
  addressType: IPv4
  endpoints:
  - addresses:
    - 10.244.3.19
    conditions:
      ready: false
  ports:
  - port: 5432
---
";

#[test]
fn a_service_with_no_ready_endpoint() {
    let text = format!("{ENDPOINTS}{LOG}");
    let r = report(&text);
    let f = dependency(&r);
    assert!(
        ids(f).contains("dependency-failing.no-endpoints"),
        "{}",
        f.summary
    );
    assert_eq!(f.boundary, Boundary::ReadinessEndpoints);
    assert!(f
        .next_steps
        .iter()
        .any(|s| s.contains("endpointslices -n shop -l kubernetes.io/service-name=prod-db")));
}

#[test]
fn the_dependencys_own_pods_not_ready() {
    let text = format!(
        "$ kubectl get pods -n shop
NAME                        READY   STATUS    RESTARTS   AGE
checkout-7d9f8b6c4-x2k9p    1/1     Running   0          3h
prod-db-0                   0/1     Running   0          4m
{LOG}"
    );
    let r = report(&text);
    let f = dependency(&r);
    assert!(
        ids(f).contains("dependency-failing.callee-not-ready"),
        "{}",
        f.summary
    );
    assert_eq!(f.boundary, Boundary::ReadinessEndpoints);
    // Ready, the same Pod ties nothing.
    let ready = text.replace(
        "prod-db-0                   0/1",
        "prod-db-0                   1/1",
    );
    let r = report(&ready);
    let f = dependency(&r);
    assert!(!ids(f).contains("callee-not-ready"), "{}", f.summary);
    assert_eq!(f.boundary, Boundary::Application);
}

#[test]
fn the_configmap_that_names_the_host() {
    let text = format!(
        "apiVersion: v1
kind: ConfigMap
metadata:
  name: checkout-config
  namespace: shop
data:
  SPRING_DATASOURCE_URL: jdbc:postgresql://prod-db:3333/orders
  LOG_LEVEL: info
---
{LOG}"
    );
    let r = report(&text);
    let f = dependency(&r);
    assert!(ids(f).contains("dependency-failing.named-by"), "{}", f.summary);
    assert!(
        f.summary
            .contains("ConfigMap shop/checkout-config names it (SPRING_DATASOURCE_URL)"),
        "{}",
        f.summary
    );
    assert!(f.evidence.iter().any(|e| e.line == 7), "{:?}", f.evidence);
}

const POLICY: &str = "$ kubectl get networkpolicy,pod -n shop -o yaml
apiVersion: v1
kind: List
items:
- apiVersion: networking.k8s.io/v1
  kind: NetworkPolicy
  metadata:
    name: orders-egress
    namespace: shop
  spec:
    podSelector:
      matchLabels:
        app: orders
    policyTypes:
    - Egress
    egress:
    - ports:
      - port: 5432
        protocol: TCP
- apiVersion: v1
  kind: Pod
  metadata:
    name: orders-5c7d9b8f6-q2x7w
    namespace: shop
    labels:
      app: orders
  spec:
    containers:
    - name: orders
      image: registry.example.com/orders:2.3.1
$ kubectl logs orders-5c7d9b8f6-q2x7w -n shop
2026/03/02 10:04:31 db: ping failed: dial tcp: lookup orders-db on 10.96.0.10:53: read udp 10.244.2.17:41236->10.96.0.10:53: i/o timeout
";

#[test]
fn a_networkpolicy_that_leaves_the_pod_no_dns() {
    let r = report(POLICY);
    let f = dependency(&r);
    assert!(ids(f).contains("dependency-failing.dns-blocked"), "{}", f.summary);
    assert_eq!(f.boundary, Boundary::ZoneNetworkStorage);
    assert!(f.summary.contains("calls to orders-db fail"), "{}", f.summary);
    assert_eq!(
        f.next_steps[0],
        "kubectl describe networkpolicy orders-egress -n shop"
    );
    // A rule open to port 53 lets DNS out: the policy is no longer the tie, and a resolver that
    // gave no answer still points to the cluster's DNS path.
    let open = POLICY.replace(
        "      - port: 5432\n        protocol: TCP\n",
        "      - port: 5432\n        protocol: TCP\n      - port: 53\n        protocol: UDP\n",
    );
    let r = report(&open);
    let f = dependency(&r);
    assert!(!ids(f).contains("dns-blocked"), "{}", f.summary);
    assert_eq!(f.boundary, Boundary::ZoneNetworkStorage);
    // Another Pod's labels: not selected.
    let other = POLICY.replace(
        "        app: orders\n    policyTypes",
        "        app: billing\n    policyTypes",
    );
    assert!(!ids(dependency(&report(&other))).contains("dns-blocked"));
}

#[test]
fn lines_a_component_or_kubectl_prints_are_no_applications() {
    for text in [
        // kubectl's own error: the API server, not a dependency.
        "$ kubectl get pods -n shop\nUnable to connect to the server: dial tcp 10.96.0.1:443: i/o timeout\n",
        // A kubelet's probe event quoting the same refusal.
        "$ kubectl get events -n shop\nLAST SEEN   TYPE      REASON      OBJECT                    MESSAGE\n2m          Warning   Unhealthy   pod/web-6d5f8c7b9-tq4lz   Liveness probe failed: Get \"http://10.244.1.5:8080/healthz\": dial tcp 10.244.1.5:8080: connect: connection refused\n",
        // A kube-system component's log.
        "$ kubectl logs -n kube-system coredns-5dd5756b68-f7v56\n[ERROR] plugin/errors: 2 orders-db.shop.svc.cluster.local. A: read udp 10.244.0.3:40511->8.8.8.8:53: i/o timeout\n",
    ] {
        let r = report(text);
        assert!(
            r.findings.iter().all(|f| f.rule != "dependency-failing"),
            "{text}: {:#?}",
            r.findings
        );
    }
}

#[test]
fn a_slow_call_once_is_a_symptom_with_its_count() {
    let text = "$ kubectl logs orders-5c7d9b8f6-q2x7w -n shop
2026-03-02T10:04:31.118Z WARN  HikariPool-1 - Connection is not available, request timed out after 30000ms.
2026-03-02T10:04:32.540Z INFO  GET /orders 200 31422ms
";
    let r = report(text);
    let f = dependency(&r);
    assert_eq!(f.severity, Severity::Warning);
    assert!(
        f.summary.contains("(1 line, at 2026-03-02T10:04:31.118Z)"),
        "{}",
        f.summary
    );
    let cannot: Vec<&str> = f.cannot_establish.iter().map(|c| c.as_str()).collect();
    assert!(
        cannot.iter().any(|c| c.contains("a symptom, not a cause")),
        "{cannot:?}"
    );
}

#[test]
fn log_times_place_the_lines_on_the_timeline_and_set_the_capture() {
    let r = report(LOG);
    let logged: Vec<(&str, &str)> = r
        .timeline
        .iter()
        .filter(|t| t.source == "log")
        .map(|t| (t.time.as_str(), t.reason.as_str()))
        .collect();
    assert_eq!(
        logged,
        [
            ("2026-03-02T10:01:19.551Z", "refused"),
            ("2026-03-02T10:01:24.553Z", "refused")
        ]
    );
    let at = r
        .timeline
        .iter()
        .find(|t| t.source == "log")
        .unwrap()
        .at
        .clone()
        .unwrap();
    assert_eq!(at.line, 3);
    assert_eq!(
        r.capture.as_ref().unwrap().time.to_string(),
        "2026-03-02T10:01:24.553Z"
    );
}
