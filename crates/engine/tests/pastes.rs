//! Real pastes beyond the wild corpus (`tests/fixtures/pastes/`, issue 21): each quoted from a
//! public issue thread (its `expect.json` names the thread under `source`), with the diagnosis that
//! thread supports, in the wild corpus's shape. They cover what the wild corpus lacks: describe of
//! a PVC, PV, HPA, Ingress and Node, 2015–2017 tab-aligned layouts, `get events` of 1.3, `get all`,
//! `-v=6` traces, klog lines before output, `microk8s.kubectl`, bare messages in prose; and
//! (34–49) kubectl 1.0's `get nodes` with LABELS (under `watch`'s header, or rows alone), `oc get`
//! and `oc status`, `describe event`, an OpenShift console copy, the scheduler's log as `minikube
//! logs` prints it, 1.10's `get events` columns, markdown bold around describe lines; (50–53)
//! describe Events with `<unknown>` ages, a kubelet klog fragment in prose, 1.0's tab describe with
//! dated events, an `az` table before kubectl's error; (54–83) thirty collected on 2026-12-06 from
//! threads of 2016–2026 and read before any change for them (27 right; the three misses were each a
//! class: a sentence quoting the table below it, an application's fatal log line alone, `get cs`);
//! (84–113) thirty more the same day (22 right as collected, 28 after the classes they showed: busybox's
//! `bad address`, a hard-wrapped log record, a node's Taints alone, a DNS line beside a crash loop,
//! Go's JSON escapes, a later listing from a new ReplicaSet, the CronJob controller's missed starts).
//! (114–148) thirty-five application logs collected on 2026-12-06 for issue 44, one or more per
//! client library group (PostgreSQL, MySQL, Redis, MongoDB, Kafka, RabbitMQ, Elasticsearch, HTTP,
//! gRPC, DNS, TLS, pools, runtime crashes): 24 right with the catalog's dependency group and
//! `dependency-failing`.
//! Not right yet, and not in [`RIGHT`]: a k9s row with restarts and no status word (100), gVisor's
//! cgroup error inside a sandbox failure (104, read as the network's); of the logs, a MongoDB
//! server's JSON record (118), RabbitMQ's server-side refusal (119), Java's `UnknownHostException`
//! (122), a describe cut by `<snip>` (127), WordPress's own MySQL wording (132), Kibana's JSON
//! (133), gRPC Python's resolver wording (139), a NetworkPolicy told in prose (140), fluentd's
//! retry lines (146), an x509 line in prose (147), a Node error with no address (148).
//!
//! Scored as `../shared/tools/score.py --ignore-info --silent-report` scores the CLI: a faulty paste
//! is right when its first error or warning finding is at the expected boundary (or one it also
//! accepts); a healthy one (`none`) is right when no finding is an error. The score is printed.
//! [`RIGHT`] is a ratchet: every paste named there must stay right (add a paste when a change makes
//! it right). No faulty paste may get the verdict `no-fault`.

// Test code: panicking on a broken fixture is the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use faultline_engine::{analyze, Severity, Verdict};
use serde_json::Value;

/// The pastes that are read right and must stay so.
const RIGHT: &[&str] = &[
    "01-none-pvc-bound-after-provisioning-failed-2016",
    "02-pvc-pending-alpha-provisioning-tab-describe-ohmyzsh",
    "03-pvc-csi-volume-limit-events-alone",
    "04-pvc-gce-cloudprovider-bare-event-row",
    "05-pvc-digitalocean-external-provisioner-describe-cut",
    "06-hpa-describe-metrics-api-not-found-four-backtick",
    "07-hpa-describe-no-metrics-returned",
    "08-ingress-backend-service-endpoints-not-found-root-prompt",
    "09-none-ingress-healthy-default-backend-benign",
    "10-x509-expired-wrapped-current-time-vagrant",
    "11-x509-expired-quoted-in-prose-microk8s",
    "12-x509-expired-chinese-prose-clock-skew",
    "13-job-status-yaml-fragment-backofflimit-events-cut",
    "14-none-get-events-wide-2016-rollout",
    "15-crashloop-grep-row-after-kf-table",
    "16-none-get-all-pods-starting-seconds-old",
    "17-v6-trace-metrics-api-503",
    "18-klog-memcache-connection-refused-before-output",
    "19-microk8s-dot-kubectl-crashloop-exec-format",
    "20-taints-bold-event-line-in-prose",
    "21-untolerated-unreachable-taint-get-events-rows",
    "22-topology-spread-and-taints-events-fragment",
    "23-failed-to-fit-2016-tab-events",
    "24-relayed-no-nodes-available-rancher-log",
    "25-describe-node-2017-tabs-all-unknown-prompt",
    "26-node-conditions-tab-fragment-unknown-2016",
    "27-describe-node-unreachable-taints-redacted-cut",
    "28-describe-node-double-spaced-unreachable-aks",
    "29-etcd-request-timed-out-in-prose",
    "30-liveness-refused-dashboard-events-dashes",
    "31-pv-describe-recycler-failed-2016",
    "32-pv-recycler-pod-mount-timeout-2016-events",
    "33-klog-structured-unhandled-error-localhost-8080",
    "34-watch-get-nodes-labels-column-notready-kubelet-journal-2015",
    "35-bare-notready-rows-labels-blank-lines-2015",
    "36-evicted-memory-get-events-rows-redacted-ids",
    "37-evicted-get-pods-bold-describe-message-top-free-node",
    "38-unbound-pvc-event-line-in-double-quotes-prose",
    "39-minikube-logs-star-scheduler-unbound-pvc",
    "40-exceeded-quota-get-events-2019-name-kind-columns-headerless",
    "41-openshift-console-copy-exceeded-quota-times-in-the-last",
    "42-describe-rs-failedcreate-empty-webhook-message",
    "43-oc-get-pods-crashloop-hash-prompt-oc-logs-error-2015",
    "44-oc-status-v-crash-looping-errors",
    "45-get-pods-oomkilled-restarts-ago-last-state-fragment",
    "46-describe-event-object-insufficient-cpu-predicates",
    "47-unable-to-connect-io-timeout-redacted-ip-kops-prompt",
    "48-none-2015-describe-ready-pod-stale-unhealthy-cut",
    "49-2017-tab-event-row-predicates-insufficient-cpu-count",
    "50-describe-events-sandbox-cni-netplugin-unknown-age",
    "51-cni-no-networks-found-klog-fragment-in-prose",
    "52-2015-tab-describe-restart-count-memory-limit-cut",
    "53-unable-to-connect-after-az-acs-table-dashes",
    "54-pvc-no-storageclass-yaml",
    "55-pvc-pending-kubelet-journal",
    "56-k3d-x509-not-yet-valid",
    "57-dcos-taints-inline-code",
    "58-quota-must-specify-events",
    "59-readiness-503-nonleader",
    "60-multiattach-transient-resolved",
    "61-multus-sandbox-wrapped-event",
    "62-nslookup-timeout-busybox",
    "63-init-createcontainerconfig-japanese",
    "64-envconfig-missing-key-fatal",
    "65-localhost-8080-chinese",
    "66-node-notready-pleg-describe",
    "67-kubelet-journal-pleg-eks",
    "68-errimagepull-tutum-curl",
    "69-get-cs-etcd-bad-certificate",
    "70-etcdctl-cluster-unavailable",
    "71-cilium-etcd-space-exceeded",
    "72-etcd-cert-san-chinese",
    "73-oomkilled-operator-90Mi",
    "74-exec-format-error-sidecar",
    "75-endpoints-empty-selector-mismatch",
    "76-unschedulable-insufficient-pods",
    "77-insufficient-cpu-memory-aks",
    "78-rbac-forbidden-default-sa",
    "79-podsecurity-restricted-statefulset",
    "80-ingress-503-no-endpoints-object",
    "81-healthy-calico-policy-controller",
    "82-get-cs-selfhosted-false-alarm",
    "83-apiserver-6443-io-timeout",
    "84-dns-k3s-host-cidr-clash",
    "85-dns-app-log-systemd-resolved",
    "86-dns-bad-address-no-dns-addon",
    "87-webhook-istio-eks-single-event",
    "88-webhook-certmanager-ca-not-injected-ci",
    "89-webhook-istio-injector-nopods-events-watch",
    "90-scc-job-fsgroup-openshift",
    "91-podsecurity-restricted-operator",
    "92-rbac-cannot-list-pods-cut-log",
    "93-longhorn-attached-to-different-node",
    "94-ebs-nvme-partition-mount-exit32",
    "95-azuredisk-multiattach-used-by-pod",
    "96-ingress-502-service-selector-wrong-app",
    "97-ingress-502-upstream-8181-no-endpoints",
    "98-hpa-no-metrics-returned-eks",
    "99-metrics-server-kubelet-ip-sans",
    "101-diskpressure-100pct-evicted-loop",
    "102-ephemeral-storage-evictions-grep",
    "103-kubelet-cgroup-driver-systemctl-ellipsized",
    "105-containerd-cgroupspath-journal",
    "106-startup-probe-503-prometheus",
    "107-init-crashloop-waiting-for-migrations-job",
    "108-cronjob-too-many-missed-starts-snip",
    "109-kubectl-x509-cluster-certs-expired",
    "110-kubesphere-x509-expired-indented",
    "111-healthy-nodes-ready-after-wait",
    "112-history-before-after-crashloop-fixed",
    "113-coredns-hinfo-timeouts-but-resolving",
    "114-mysql-client-test-refused-naftis",
    "115-nest-ioredis-econnrefused-localhost",
    "116-mongo-sidecar-econnrefused-first-connect",
    "117-mongodb-exporter-server-selection-logfmt",
    "120-npgsql-auth-method-not-supported-worker",
    "121-kafka-exporter-sarama-panic-no-brokers",
    "123-psql-job-refused-pg-not-started",
    "124-backup-psql-headless-refused-get-svc",
    "125-python-requests-eai-again-kube-dns",
    "126-node-web-ping-eai-again-external",
    "128-weblate-redis-py-name-not-known-svc-mismatch",
    "129-zookeeper-oomkilled-logs-previous",
    "130-jlogstash-java-heap-space-in-k8s",
    "131-ml-pipeline-go-mysql-unexpected-eof-istio",
    "134-fastapi-sqlalchemy-queuepool-exhausted-logfmt",
    "135-redis-cluster-init-cri-log-peer-refused",
    "136-numaflow-sink-lookup-redis-io-timeout",
    "137-kestra-hikari-pgjdbc-refused-first-install",
    "138-grpc-go-headless-rolling-update-refused",
    "141-go-api-nil-pointer-panic-db-pending",
    "142-katib-manager-mysql-timeout-db-not-ready",
    "143-katib-metrics-collector-grpc-unavailable-db-manager",
    "144-katib-db-manager-lookup-katib-mysql-dns-timeout",
    "145-secrets-injector-x509-unknown-authority-image-ca",
];

/// Faulty pastes that still get the verdict `no-fault`, each with why (a ratchet: none may be
/// added; remove one when it is read).
const CALLED_HEALTHY: &[(&str, &str)] = &[];

#[test]
fn real_pastes_are_read_and_judged() {
    let root = common::repo().join("tests/fixtures/pastes");
    let dirs: Vec<_> = common::sorted_entries(&root)
        .into_iter()
        .filter(|p| p.join("expect.json").is_file())
        .collect();
    assert!(dirs.len() >= 20, "the pastes are missing: {}", dirs.len());
    let (mut right, mut subjects) = (Vec::new(), 0);
    let (mut misses, mut silent, mut called_healthy) = (Vec::new(), Vec::new(), Vec::new());
    for dir in &dirs {
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        let expect: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("expect.json")).unwrap()).unwrap();
        assert!(
            expect["source"]
                .as_str()
                .is_some_and(|s| s.starts_with("https://github.com/")),
            "{name}: every paste names its thread"
        );
        let input = std::fs::read_to_string(dir.join("input.txt")).unwrap();
        for s in expect["evidence_substrings"].as_array().unwrap() {
            assert!(
                input.contains(s.as_str().unwrap()),
                "{name}: {s} is not in the paste"
            );
        }
        let report = analyze(&common::case_sources(dir));
        let want = expect["boundary"].as_str().unwrap();
        let weighty: Vec<_> = report
            .findings
            .iter()
            .filter(|f| matches!(f.severity, Severity::Error | Severity::Warning))
            .collect();
        let good = if want == "none" {
            report.findings.iter().all(|f| f.severity != Severity::Error)
        } else {
            if weighty.is_empty() {
                silent.push(name.clone());
            }
            if report.verdict == Verdict::NoFault {
                called_healthy.push(name.clone());
            }
            let accepted: Vec<&str> = std::iter::once(want)
                .chain(
                    expect["also_acceptable"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(Value::as_str),
                )
                .collect();
            let top = weighty.first();
            if let (Some(top), Some(subject)) = (top, expect["subject"].as_object()) {
                if top.subject.kind == subject["kind"].as_str().unwrap_or_default()
                    && top.subject.name == subject["name"].as_str().unwrap_or_default()
                {
                    subjects += 1;
                }
            }
            top.is_some_and(|f| accepted.contains(&f.boundary.id()))
        };
        if good {
            right.push(name);
        } else {
            let got = weighty.first().map_or("no finding".to_string(), |f| {
                format!("{} {}", f.rule, f.boundary.id())
            });
            misses.push(format!("{name}: want {want}, got {got}"));
        }
    }
    println!(
        "real pastes: {}/{} right, subject of the first finding right in {subjects}, silent faulty pastes: {}, faulty called no-fault: {}",
        right.len(),
        dirs.len(),
        silent.len(),
        called_healthy.len()
    );
    for miss in &misses {
        println!("  miss: {miss}");
    }
    let lost: Vec<_> = RIGHT.iter().filter(|n| !right.iter().any(|r| r == *n)).collect();
    assert!(
        lost.is_empty(),
        "pastes that were right are no longer: {lost:?}\n{misses:#?}"
    );
    let unlisted: Vec<_> = called_healthy
        .iter()
        .filter(|n| !CALLED_HEALTHY.iter().any(|(c, _)| c == n))
        .collect();
    assert!(
        unlisted.is_empty(),
        "faulty pastes with verdict no-fault: {unlisted:?}"
    );
}
