use super::*;
use faultline_engine::{analyze, Source};

/// A calico-node Pod crash-looping on `w1`, and a Pod on `node` whose sandbox fails with the
/// runtime's generic words (no plugin named): linked only when it is on the same node, and then
/// as an inference.
fn cni_on(node: &str) -> faultline_report::Report {
    let input = format!(
            "\
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Pod
  metadata:
    name: calico-node-x7k2p
    namespace: kube-system
    ownerReferences:
    - apiVersion: apps/v1
      kind: DaemonSet
      name: calico-node
      controller: true
  spec:
    nodeName: w1
    containers:
    - name: calico-node
      image: calico/node:v3.26.1
  status:
    phase: Running
    containerStatuses:
    - name: calico-node
      ready: false
      restartCount: 9
      state:
        waiting:
          reason: CrashLoopBackOff
      lastState:
        terminated:
          exitCode: 1
          reason: Error
- apiVersion: v1
  kind: Pod
  metadata:
    name: web-0
    namespace: shop
  spec:
    nodeName: {node}
    containers:
    - name: web
      image: web:1
  status:
    phase: Pending
    containerStatuses:
    - name: web
      ready: false
      restartCount: 0
      state:
        waiting:
          reason: ContainerCreating
- apiVersion: v1
  kind: Event
  metadata:
    name: web-0.1
    namespace: shop
  involvedObject:
    kind: Pod
    name: web-0
    namespace: shop
  type: Warning
  reason: NetworkNotReady
  message: 'network is not ready: container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized'
  count: 12
"
        );
    analyze(&[Source::new("in.yaml", input)])
}

#[test]
fn a_generic_cni_error_on_the_components_node_is_an_inference_and_elsewhere_nothing() {
    let report = cni_on("w1");
    let component = report.findings.iter().find(|f| f.rule == RULE.id).unwrap();
    assert_eq!(component.subject.to_string(), "DaemonSet kube-system/calico-node");
    assert!(component.summary.contains("on node w1") && component.summary.contains("inference: same node"));
    let sandbox = report
        .findings
        .iter()
        .find(|f| f.rule == zone_network_storage::pod_sandbox_failed::RULE.id)
        .unwrap();
    assert_eq!(
        sandbox.explained_by.as_ref().map(|c| c.rule.as_str()),
        Some(RULE.id)
    );
    assert!(component.cannot_establish.iter().any(|c| c.contains("inference")));

    let report = cni_on("w2");
    let component = report.findings.iter().find(|f| f.rule == RULE.id).unwrap();
    assert!(
        component.summary.contains("No symptom of it is in the input"),
        "{}",
        component.summary
    );
    let sandbox = report
        .findings
        .iter()
        .find(|f| f.rule == zone_network_storage::pod_sandbox_failed::RULE.id)
        .unwrap();
    assert_eq!(sandbox.explained_by, None);
}

/// The plugin's spec names its driver (the registrar's registration path): a mount of that
/// driver is linked as evidence, a mount of another driver is not, whatever the plugin is called.
#[test]
fn the_driver_in_the_plugins_spec_decides_which_mounts_it_explains() {
    let input = |driver: &str| {
        format!(
                "\
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Pod
  metadata:
    name: acme-csi-node-4xk9z
    namespace: storage
    ownerReferences:
    - apiVersion: apps/v1
      kind: DaemonSet
      name: acme-csi-node
      controller: true
  spec:
    nodeName: w1
    containers:
    - name: node-driver-registrar
      image: registry.k8s.io/sig-storage/csi-node-driver-registrar:v2.9.0
      args:
      - --csi-address=/csi/csi.sock
      - --kubelet-registration-path=/var/lib/kubelet/plugins/block.acme.io/csi.sock
  status:
    phase: Running
    containerStatuses:
    - name: node-driver-registrar
      ready: false
      restartCount: 4
      state:
        waiting:
          reason: CrashLoopBackOff
- apiVersion: v1
  kind: Event
  metadata:
    name: db-0.1
    namespace: shop
  involvedObject:
    kind: Pod
    name: db-0
    namespace: shop
  type: Warning
  reason: FailedMount
  message: 'MountVolume.MountDevice failed for volume \"pvc-1\" : kubernetes.io/csi: attacher.MountDevice failed to create newCsiDriverClient: driver name {driver} not found in the list of registered CSI drivers'
  count: 3
"
            )
    };
    let run = |driver: &str| {
        let report = analyze(&[Source::new("in.yaml", input(driver))]);
        let component = report
            .findings
            .iter()
            .find(|f| f.rule == RULE.id)
            .cloned()
            .unwrap();
        let mount = report
            .findings
            .iter()
            .find(|f| f.rule == zone_network_storage::volume_mount_failed::RULE.id)
            .cloned()
            .unwrap();
        (component, mount)
    };
    let (component, mount) = run("block.acme.io");
    assert_eq!(
        mount.explained_by.map(|c| c.subject),
        Some(component.subject.clone())
    );
    assert!(component
        .summary
        .contains("names the driver block.acme.io this plugin serves (evidence)"));
    assert!(component
        .evidence
        .iter()
        .any(|e| e.value.contains("kubelet-registration-path")));
    let (component, mount) = run("ebs.csi.aws.com");
    assert_eq!(mount.explained_by, None);
    assert!(component.summary.contains("No symptom"));
}

/// A failed dial to a pasted Service's cluster IP (and one of its ports) is linked to a failing
/// kube-proxy; another address, another port, or a line that does not fail is not.
#[test]
fn connections_to_a_services_cluster_ip() {
    let vips = [faultline_model::views::service_cluster_ip::ServiceClusterIp {
        ip: "10.32.0.1".into(),
        ports: vec!["443".into()],
        service: ObjectRef {
            kind: "Service".into(),
            namespace: Some("default".into()),
            name: "kubernetes".into(),
            uid: None,
        },
        endpoints: None,
    }];
    let line = "plugin/kubernetes: Get \"https://10.32.0.1:443/version?timeout=32s\": dial tcp 10.32.0.1:443: i/o timeout";
    assert!(matches!(
        vip_failure(line, &vips),
        Some(Msg::VipFails { ref address, .. }) if address == "10.32.0.1:443"
    ));
    assert!(vip_failure("dial tcp 10.32.0.1:8443: i/o timeout", &vips).is_none());
    assert!(vip_failure("dial tcp 10.96.0.1:443: connect: connection refused", &vips).is_none());
    assert!(vip_failure("GET https://10.32.0.1:443/healthz 200 OK", &vips).is_none());
}

/// A kube-proxy crash loop beside a Service whose describe shows no endpoints: the failed
/// connection to its address is not kube-proxy's to explain.
#[test]
fn a_service_without_endpoints_is_not_kube_proxys() {
    let input = |endpoints: &str| {
        format!(
                "$ kubectl get pods -n kube-system\nNAME               READY   STATUS             RESTARTS   AGE\nkube-proxy-7vpcs   0/1     CrashLoopBackOff   5          8h\n$ kubectl describe service kubernetes\nName:              kubernetes\nNamespace:         default\nSelector:          <none>\nType:              ClusterIP\nIP:                10.32.0.1\nPort:              https  443/TCP\nTargetPort:        6443/TCP\nEndpoints:         {endpoints}\nEvents:            <none>\n$ kubectl logs web-1 -n shop\ndial tcp 10.32.0.1:443: i/o timeout\n"
            )
    };
    let summary = |endpoints: &str| {
        let report = analyze(&[Source::new("in.txt", input(endpoints))]);
        report
            .findings
            .iter()
            .find(|f| f.rule == RULE.id)
            .map(|f| f.summary.clone())
            .unwrap()
    };
    assert!(summary("10.240.0.10:6443").contains("the failed connection to 10.32.0.1:443"));
    assert!(summary("<none>").contains("No symptom of it is in the input"));
}

#[test]
fn lookups_and_metrics() {
    assert!(matches!(
            dns_failure("dial tcp: lookup redis.shop.svc.cluster.local on 10.96.0.10:53: read udp 10.244.1.5:41234->10.96.0.10:53: i/o timeout", None),
            Some(Msg::LookupFails { evidence: true, .. })
        ));
    assert!(matches!(
        dns_failure(
            "dial tcp: lookup db.example.com on 10.96.0.10:53: no such host",
            None
        ),
        Some(Msg::LookupFails { evidence: false, .. })
    ));
    assert!(matches!(
        dns_failure(
            "dial tcp: lookup db.example.com on 10.96.0.10:53: no such host",
            Some("10.96.0.10")
        ),
        Some(Msg::LookupFails { evidence: true, .. })
    ));
    assert!(dns_failure("dial tcp 10.0.0.1:443: i/o timeout", None).is_none());
    assert!(metrics_failure("unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: the server is currently unable to handle the request (get pods.metrics.k8s.io)").is_some());
    assert!(metrics_failure(
        "failed to get cpu utilization: did not receive metrics for targeted pods (pods might be unready)"
    )
    .is_none());
}
