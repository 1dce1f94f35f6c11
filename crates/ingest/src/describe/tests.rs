use super::*;
use crate::api::Pod;
use crate::decode::decode;

const CRASHING: &str = "Name:             event-router-69d8c7f5b6-t8wqz
Namespace:        events-pipeline
Node:             node-pool-b-2/10.30.2.12
Start Time:       Wed, 22 May 2024 16:49:28 +0000
Labels:           app=event-router
                  pod-template-hash=69d8c7f5b6
Status:           Running
Controlled By:  ReplicaSet/event-router-69d8c7f5b6
Containers:
  router:
    Image:         registry.pipeline.example/ingest/event-router:5.0.0
    Args:
      --config=/etc/router/router.yaml
    State:       Waiting
      Reason:    CrashLoopBackOff
    Last State:  Terminated
      Reason:    Error
      Message:   fatal: load config: unknown field \"retry_backof\"

      Exit Code:    1
      Started:      Wed, 22 May 2024 17:01:56 +0000
      Finished:     Wed, 22 May 2024 17:01:57 +0000
    Ready:          False
    Restart Count:  7
Conditions:
  Type                        Status
  Ready                       False 
  PodScheduled                True 
Events:
  Type     Reason   Age                 From     Message
  ----     ------   ----                ----     -------
  Warning  BackOff  14s (x63 over 14m)  kubelet  Back-off restarting failed container router
";

#[test]
fn a_pod_becomes_a_positioned_tree_that_decodes() {
    let objects = parse(CRASHING, 1, None);
    assert_eq!(objects.len(), 1);
    let node = &objects[0].node;
    assert_eq!(node.get("kind").unwrap().as_str(), Some("Pod"));
    let (pos, reason) = node
        .locate("status.containerStatuses[0].state.waiting.reason")
        .unwrap();
    assert_eq!((pos.line, reason.as_str()), (15, Some("CrashLoopBackOff")));
    let (pos, code) = node
        .locate("status.containerStatuses[0].lastState.terminated.exitCode")
        .unwrap();
    assert_eq!((pos.line, code.as_str()), (20, Some("1")));
    assert_eq!(
        node.locate("spec.nodeName").unwrap().1.as_str(),
        Some("node-pool-b-2")
    );
    assert_eq!(
        node.locate("metadata.labels")
            .unwrap()
            .1
            .get("pod-template-hash")
            .unwrap()
            .as_str(),
        Some("69d8c7f5b6")
    );
    let pod: Pod = decode(node).unwrap();
    let status = pod.status.unwrap();
    let container = &status.container_statuses.unwrap()[0];
    assert_eq!(container.restart_count, 7);
    let last = container
        .last_state
        .as_ref()
        .unwrap()
        .terminated
        .as_ref()
        .unwrap();
    assert_eq!(last.exit_code, 1);
    assert!(last.message.as_deref().unwrap().contains("retry_backof"));
    assert_eq!(
        last.finished_at.as_ref().unwrap().0.to_string(),
        "2024-05-22T17:01:57Z"
    );
    assert_eq!(status.conditions.unwrap().len(), 2);
    assert_eq!(
        node.locate("metadata.ownerReferences[0].kind")
            .unwrap()
            .1
            .as_str(),
        Some("ReplicaSet")
    );
}

#[test]
fn the_events_section_is_about_the_described_object() {
    let objects = parse(CRASHING, 1, None);
    let events = &objects[0].events;
    assert_eq!(events.len(), 1);
    let e = &events[0];
    assert_eq!(
        (e.kind.as_str(), e.name.as_str()),
        ("Pod", "event-router-69d8c7f5b6-t8wqz")
    );
    assert_eq!(e.namespace.as_deref(), Some("events-pipeline"));
    assert_eq!((e.line, e.count, e.last_age), (32, 63, Some(14)));
    assert_eq!(e.reporter.as_deref(), Some("kubelet"));
}

#[test]
fn a_resource_quota_table_becomes_used_and_hard() {
    let text = "Name:            team-reports-quota\nNamespace:       team-reports\nResource         Used   Hard\n--------         ----   ----\nlimits.memory    22Gi   32Gi\nrequests.memory  11Gi   16Gi\n";
    let objects = parse(text, 1, None);
    let node = &objects[0].node;
    assert_eq!(node.get("kind").unwrap().as_str(), Some("ResourceQuota"));
    let (pos, used) = node.locate(r#"status.used["requests.memory"]"#).unwrap();
    assert_eq!((pos.line, used.as_str()), (6, Some("11Gi")));
    assert_eq!(
        node.locate(r#"status.hard["limits.memory"]"#).unwrap().1.as_str(),
        Some("32Gi")
    );
}

#[test]
fn an_events_section_alone_belongs_to_the_object_the_command_names() {
    let text = "Events:\n  Type     Reason            Age                  From               Message\n  ----     ------            ----                 ----               -------\n  Warning  FailedScheduling  5m11s (x7 over 35m)  default-scheduler  0/4 nodes are available: pod has unbound immediate PersistentVolumeClaims.\n";
    let command = Command::parse("kubectl -n warehouse describe pod warehouse-db-0 | tail -4");
    assert!(is_describe("Events:", Some(&command)));
    assert!(!is_describe("Events:", None));
    // A Go-printed `ObjectReference` that a hard wrap put at the margin.
    assert!(!is_describe("Name:\"mongo-0\", UID:\"5492929f\",", None));
    assert!(is_describe("Name: web-1", None));
    let objects = parse(text, 21, Some(&command));
    let e = &objects[0].events[0];
    assert_eq!(
        (e.kind.as_str(), e.name.as_str(), e.namespace.as_deref()),
        ("Pod", "warehouse-db-0", Some("warehouse"))
    );
    assert_eq!((e.line, e.count), (24, 7));
}

const NODE: &str = "Name:               edge-node-3
Roles:              <none>
Labels:             kubernetes.io/hostname=edge-node-3
CreationTimestamp:  Mon, 10 Feb 2025 08:00:00 +0000
Taints:             node.kubernetes.io/disk-pressure:NoSchedule
                    dedicated=ci-runners:NoSchedule
Unschedulable:      false
Conditions:
  Type             Status  LastHeartbeatTime                 LastTransitionTime                Reason                       Message
  ----             ------  -----------------                 ------------------                ------                       -------
  MemoryPressure   False   Tue, 11 Feb 2025 09:40:00 +0000   Mon, 10 Feb 2025 08:00:10 +0000   KubeletHasSufficientMemory   kubelet has sufficient memory available
  DiskPressure     True    Tue, 11 Feb 2025 09:40:00 +0000   Tue, 11 Feb 2025 09:20:41 +0000   KubelethasDiskPressure       kubelet has disk pressure
  Ready            True    Tue, 11 Feb 2025 09:40:00 +0000   Mon, 10 Feb 2025 08:00:30 +0000   KubeletReady                 kubelet is posting ready status
Capacity:
  cpu:                4
  ephemeral-storage:  102626232Ki
Allocatable:
  cpu:                3800m
System Info:
  Machine ID:                 abc
Events:                       <none>
";

#[test]
fn a_node_keeps_taints_conditions_with_times_and_capacity() {
    let objects = parse(NODE, 1, None);
    let node = &objects[0].node;
    assert_eq!(node.get("kind").unwrap().as_str(), Some("Node"));
    assert_eq!(node.locate("metadata.namespace"), None);
    assert_eq!(
        node.locate("metadata.creationTimestamp").unwrap().1.as_str(),
        Some("2025-02-10T08:00:00Z")
    );
    let (pos, key) = node.locate("spec.taints[1].key").unwrap();
    assert_eq!((pos.line, key.as_str()), (6, Some("dedicated")));
    assert_eq!(
        node.locate("spec.taints[1].effect").unwrap().1.as_str(),
        Some("NoSchedule")
    );
    assert_eq!(
        node.locate("spec.taints[0].key").unwrap().1.as_str(),
        Some("node.kubernetes.io/disk-pressure")
    );
    let (pos, status) = node.locate("status.conditions[1].status").unwrap();
    assert_eq!((pos.line, status.as_str()), (12, Some("True")));
    assert_eq!(
        node.locate("status.conditions[1].reason").unwrap().1.as_str(),
        Some("KubelethasDiskPressure")
    );
    assert_eq!(
        node.locate("status.conditions[1].lastTransitionTime")
            .unwrap()
            .1
            .as_str(),
        Some("2025-02-11T09:20:41Z")
    );
    assert_eq!(
        node.locate("status.capacity[\"ephemeral-storage\"]")
            .unwrap()
            .1
            .as_str(),
        Some("102626232Ki")
    );
    assert_eq!(
        node.locate("spec.unschedulable").unwrap().1.as_str(),
        Some("false")
    );
}

#[test]
fn workloads_and_services_keep_counts_and_selectors() {
    let text = "Name:                   web\nNamespace:              shop\nSelector:               app=web,tier=front\nReplicas:               3 desired | 1 updated | 4 total | 2 available | 2 unavailable\nStrategyType:           RollingUpdate\nConditions:\n  Type           Status  Reason\n  ----           ------  ------\n  Available      True    MinimumReplicasAvailable\n  Progressing    False   ProgressDeadlineExceeded\nEvents:          <none>\n";
    let deploy = &parse(text, 1, None)[0].node;
    assert_eq!(deploy.get("kind").unwrap().as_str(), Some("Deployment"));
    assert_eq!(deploy.locate("spec.replicas").unwrap().1.as_str(), Some("3"));
    assert_eq!(
        deploy.locate("status.availableReplicas").unwrap().1.as_str(),
        Some("2")
    );
    assert_eq!(
        deploy
            .locate("spec.selector.matchLabels.tier")
            .unwrap()
            .1
            .as_str(),
        Some("front")
    );
    assert_eq!(
        deploy.locate("status.conditions[1].reason").unwrap().1.as_str(),
        Some("ProgressDeadlineExceeded")
    );
    let rs = "Name:           web-84b6\nNamespace:      shop\nSelector:       app=web,pod-template-hash=84b6\nControlled By:  Deployment/web\nReplicas:       0 current / 3 desired\nPods Status:    0 Running / 0 Waiting / 0 Succeeded / 0 Failed\n";
    let rs = &parse(rs, 1, None)[0].node;
    assert_eq!(rs.get("kind").unwrap().as_str(), Some("ReplicaSet"));
    assert_eq!(
        (
            rs.locate("spec.replicas").unwrap().1.as_str(),
            rs.locate("status.replicas").unwrap().1.as_str()
        ),
        (Some("3"), Some("0"))
    );
    let svc = "Name:              echo\nNamespace:         exp-ready\nSelector:          app=echo\nType:              ClusterIP\nIP:                10.96.12.34\nPort:              http  80/TCP\nEndpoints:         <none>\n";
    let svc = &parse(svc, 1, None)[0].node;
    assert_eq!(svc.get("kind").unwrap().as_str(), Some("Service"));
    assert_eq!(svc.locate("spec.selector.app").unwrap().1.as_str(), Some("echo"));
    assert_eq!(svc.locate("spec.type").unwrap().1.as_str(), Some("ClusterIP"));
}

#[test]
fn several_objects_and_kinds_from_the_command() {
    let text = "Name:         a\nNamespace:    ns\nStatus:       Pending\nEvents:       <none>\n\n\nName:         b\nNamespace:    ns\nStatus:       Bound\nEvents:       <none>\n";
    let command = Command::parse("kubectl describe pvc -n ns");
    let objects = parse(text, 10, Some(&command));
    assert_eq!(objects.len(), 2);
    assert_eq!(
        objects[1].node.get("kind").unwrap().as_str(),
        Some("PersistentVolumeClaim")
    );
    assert_eq!(objects[1].node.locate("status.phase").unwrap().0.line, 18);
    assert!(objects[0].events.is_empty());
}

#[test]
fn a_node_conditions_section_pasted_alone_is_a_node_with_those_conditions() {
    // Verbatim lines (2-4, 6, 10) of a public issue thread's paste (kubernetes/kubernetes#73397).
    let text = "Conditions:\n  Type                 Status    LastHeartbeatTime                 LastTransitionTime                Reason                       Message\n  ----                 ------    -----------------                 ------------------                ------                       -------\n  OutOfDisk            Unknown   Mon, 21 Jan 2019 19:29:36 +0000   Fri, 25 Jan 2019 13:57:23 +0000   NodeStatusUnknown            Kubelet stopped posting node status.\n  Ready                True      Mon, 28 Jan 2019 10:06:08 +0000   Mon, 28 Jan 2019 09:25:31 +0000   KubeletReady                 kubelet is posting ready status. AppArmor enabled\n";
    let node = conditions_fragment(text, 4, "", None).unwrap();
    assert_eq!(node.get("kind").unwrap().as_str(), Some("Node"));
    let (pos, ready) = node.locate("status.conditions[1].status").unwrap();
    assert_eq!((pos.line, ready.as_str()), (8, Some("True")));
    assert_eq!(
        node.locate("status.conditions[0].reason").unwrap().1.as_str(),
        Some("NodeStatusUnknown")
    );
    // Another table under `Conditions:` is not a node's.
    assert!(conditions_fragment(
        "Conditions:\n  Type  Status  Reason\n  Available  True  MinimumReplicasAvailable\n",
        1,
        "",
        None
    )
    .is_none());
}

#[test]
fn a_described_job_counts_its_pods() {
    // From a public issue thread (kubernetes/kubernetes#96630), verbatim up to where it stops.
    let text = "Name:           test-job\nNamespace:      default\nSelector:       controller-uid=ef8172b2-1bbb-4a27-8b49-f96863f43920\nLabels:         controller-uid=ef8172b2-1bbb-4a27-8b49-f96863f43920\n                job-name=test-job\nAnnotations:    <none>\nParallelism:    1\nCompletions:    4\nStart Time:     Thu, 19 Nov 2020 17:47:50 +0000\nPods Statuses:  0 Running / 3 Succeeded / 5 Failed\n";
    let command = Command::parse("k describe job test-job");
    let objects = parse(text, 1, Some(&command));
    let node = &objects[0].node;
    assert_eq!(node.get("kind").unwrap().as_str(), Some("Job"));
    let (pos, failed) = node.locate("status.failed").unwrap();
    assert_eq!((pos.line, failed.as_str()), (10, Some("5")));
    assert_eq!(node.locate("status.succeeded").unwrap().1.as_str(), Some("3"));
    assert_eq!(node.locate("spec.completions").unwrap().1.as_str(), Some("4"));
}

#[test]
fn a_node_keeps_kubectls_count_of_its_non_terminated_pods() {
    let text = "Name:               n1\nRoles:              <none>\nCapacity:\n  pods:               17\nAllocatable:\n  pods:               17\nNon-terminated Pods:          (17 in total)\n  Namespace                   Name              CPU Requests  CPU Limits  Memory Requests  Memory Limits  Age\n  ---------                   ----              ------------  ----------  ---------------  -------------  ---\n  kube-system                 aws-node-7xk2p    25m (1%)      0 (0%)      0 (0%)           0 (0%)         12d\nEvents:              <none>\n";
    let objects = parse(text, 1, None);
    let node = &objects[0].node;
    let (pos, count) = node.locate("kubectl.nonTerminatedPods").unwrap();
    assert_eq!((pos.line, count.as_str()), (7, Some("17")));
    assert_eq!(
        node.locate("status.allocatable.pods").unwrap().1.as_str(),
        Some("17")
    );
}

/// A container's spec as describe prints it: `Port:`, `Command:` / `Args:` one item a line,
/// `Limits:` / `Requests:`, `Environment:` (a value, a Secret's key, a ConfigMap's key, a field
/// reference), `Environment Variables from:`, and the probes' ports; each at its line.
#[test]
fn a_containers_spec_fields_are_read_where_describe_prints_them() {
    let text = "Name:             api-0
Namespace:        shop
Node:             worker-1/10.0.0.11
Status:           Running
Containers:
  api:
    Image:         shop/api:2
    Ports:         3000/TCP, 9090/UDP
    Host Ports:    0/TCP, 0/UDP
    Command:
      node
      --max-old-space-size=1024
    Args:
      server.js
    State:          Running
      Started:      Tue, 01 Dec 2026 09:12:40 +0000
    Ready:          True
    Restart Count:  0
    Limits:
      memory:  384Mi
    Requests:
      cpu:        100m
    Liveness:   tcp-socket :3000 delay=0s timeout=1s period=10s #success=1 #failure=3
    Readiness:  http-get http://:http/ready delay=0s timeout=1s period=10s #success=1 #failure=3
    Environment Variables from:
      app-config  ConfigMap  Optional: false
      extra       Secret     Optional: true
    Environment:
      REDIS_ADDR:   redis-cart:6379
      DB_PASSWORD:  <set to the key 'password' in secret 'db'>  Optional: false
      MODE:         <set to the key 'mode' of config map 'app-config'>  Optional: true
      POD_NAME:     api-0 (v1:metadata.name)
Events:           <none>
";
    let objects = parse(text, 1, None);
    let node = &objects[0].node;
    let at = |path: &str| {
        let (pos, n) = node
            .locate(&format!("spec.containers[0].{path}"))
            .unwrap_or_else(|| panic!("{path}"));
        (pos.line, n.as_str().map(str::to_string))
    };
    assert_eq!(at("ports[0].containerPort"), (8, Some("3000".into())));
    assert_eq!(at("ports[1].protocol"), (8, Some("UDP".into())));
    assert!(
        node.locate("spec.containers[0].ports[0].name").is_none(),
        "describe prints no names"
    );
    assert_eq!(at("command[0]"), (11, Some("node".into())));
    assert_eq!(at("command[1]"), (12, Some("--max-old-space-size=1024".into())));
    assert_eq!(at("args[0]"), (14, Some("server.js".into())));
    assert_eq!(at("resources.limits.memory"), (20, Some("384Mi".into())));
    assert_eq!(at("resources.requests.cpu"), (22, Some("100m".into())));
    assert!(node.locate("spec.containers[0].resources.limits.cpu").is_none());
    assert_eq!(at("livenessProbe.tcpSocket.port"), (23, Some("3000".into())));
    assert_eq!(at("readinessProbe.httpGet.port"), (24, Some("http".into())));
    assert_eq!(
        at("envFrom[0].configMapRef.name"),
        (26, Some("app-config".into()))
    );
    assert_eq!(at("envFrom[1].secretRef.optional"), (27, Some("true".into())));
    assert_eq!(at("env[0].value"), (29, Some("redis-cart:6379".into())));
    assert_eq!(at("env[1].valueFrom.secretKeyRef.name"), (30, Some("db".into())));
    assert_eq!(
        at("env[1].valueFrom.secretKeyRef.key"),
        (30, Some("password".into()))
    );
    assert!(node
        .locate("spec.containers[0].env[1].valueFrom.secretKeyRef.optional")
        .is_none());
    assert_eq!(
        at("env[2].valueFrom.configMapKeyRef.name"),
        (31, Some("app-config".into()))
    );
    assert_eq!(
        at("env[2].valueFrom.configMapKeyRef.optional"),
        (31, Some("true".into()))
    );
    assert_eq!(at("env[3].name"), (32, Some("POD_NAME".into())));
    assert!(
        node.locate("spec.containers[0].env[3].value").is_none(),
        "a field reference has no value in the spec"
    );
    // The object still decodes, with the limit typed.
    let pod: Pod = decode(node).unwrap();
    let limits = pod.spec.unwrap().containers[0]
        .resources
        .clone()
        .unwrap()
        .limits
        .unwrap();
    assert_eq!(limits.get("memory").map(|q| q.0.as_str()), Some("384Mi"));
}

#[test]
fn the_described_name_is_not_a_flags_value() {
    use crate::segment::Command;
    let named = |line: &str| super::described_object(&Command::parse(line));
    // The flag before the name (calico's thread pastes it this way round): its value is no name.
    assert_eq!(
        named("kubectl describe pod -n kube-system calico-node-8xkqp"),
        Some(("Pod".to_string(), "calico-node-8xkqp".to_string()))
    );
    assert_eq!(
        named("kubectl -n shop describe pod web-7d9f"),
        Some(("Pod".to_string(), "web-7d9f".to_string()))
    );
    assert_eq!(
        named("kubectl describe --namespace=shop pod/web-7d9f | tail -20"),
        Some(("Pod".to_string(), "web-7d9f".to_string()))
    );
    assert_eq!(
        named("kubectl describe pod web-7d9f -n shop"),
        Some(("Pod".to_string(), "web-7d9f".to_string()))
    );
    assert_eq!(named("kubectl describe pod -n shop"), None);
}

#[test]
fn tab_aligned_condition_rows_are_split_at_their_tabs() {
    // kubectl 1.6's describe node, from vmware-archive/kubernetes-archived#113 (two rows of it).
    let text = "Name:\t\t\tnode1\nTaints:\t\t\t<none>\nConditions:\n  Type\t\t\tStatus\t\tLastHeartbeatTime\t\t\tLastTransitionTime\t\t\tReason\t\t\tMessage\n  ----\t\t\t------\t\t-----------------\t\t\t------------------\t\t\t------\t\t\t-------\n  OutOfDisk \t\tUnknown \tSat, 04 Mar 2017 07:13:28 +0000 \tSat, 04 Mar 2017 07:14:12 +0000 \tNodeStatusUnknown \tKubelet stopped posting node status.\n  Ready \t\tUnknown \tSat, 04 Mar 2017 07:13:28 +0000 \tSat, 04 Mar 2017 07:14:12 +0000 \tNodeStatusUnknown \tKubelet stopped posting node status.\n";
    let objects = parse(text, 1, None);
    let node = &objects[0].node;
    assert_eq!(node.get("kind").unwrap().as_str(), Some("Node"));
    let ready = |field: &str| {
        node.locate(&format!("status.conditions[1].{field}"))
            .and_then(|(_, v)| v.as_str().map(str::to_string))
    };
    assert_eq!(ready("type").as_deref(), Some("Ready"));
    assert_eq!(ready("status").as_deref(), Some("Unknown"));
    assert_eq!(ready("reason").as_deref(), Some("NodeStatusUnknown"));
    assert_eq!(
        ready("message").as_deref(),
        Some("Kubelet stopped posting node status.")
    );
    assert_eq!(
        ready("lastTransitionTime").as_deref(),
        Some("2017-03-04T07:14:12Z")
    );
    // Spaces alone still split only at runs of two or more.
    assert_eq!(
        super::pod::split_cells(
            "Ready  True  Sat, 04 Mar 2017 07:13:28 +0000  KubeletReady  kubelet is posting ready status",
            5
        ),
        vec![
            "Ready",
            "True",
            "Sat, 04 Mar 2017 07:13:28 +0000",
            "KubeletReady",
            "kubelet is posting ready status"
        ]
    );
}

#[test]
fn a_persistent_volume_is_not_a_node_and_an_hpa_is_told_by_its_reference() {
    // kubernetes/kubernetes#27434: a PV has a Capacity, as a Node does, and a Reclaim Policy.
    let pv = "Name:       nfs\nLabels:     <none>\nStatus:     Failed\nClaim:      default/nfs\nReclaim Policy: Recycle\nAccess Modes:   RWX\nCapacity:   1Mi\nMessage:    Recycler failed: Pod was active on the node longer than specified deadline\nSource:\n    Type:   NFS (an NFS mount that lasts the lifetime of a pod)\n";
    let node = &parse(pv, 1, None)[0].node;
    assert_eq!(node.get("kind").unwrap().as_str(), Some("PersistentVolume"));
    let (pos, phase) = node.locate("status.phase").unwrap();
    assert_eq!((pos.line, phase.as_str()), (3, Some("Failed")));
    assert!(node
        .locate("status.message")
        .unwrap()
        .1
        .as_str()
        .unwrap()
        .starts_with("Recycler failed"));
    assert_eq!(
        node.locate("spec.claimRef.namespace").unwrap().1.as_str(),
        Some("default")
    );
    assert_eq!(
        node.locate("spec.persistentVolumeReclaimPolicy")
            .unwrap()
            .1
            .as_str(),
        Some("Recycle")
    );
    // clearlinux/cloud-native-setup#5, the head of a describe hpa.
    let hpa = "Name:                                                  php-apache-test\nNamespace:                                             default\nReference:                                             Deployment/php-apache-test\nMin replicas:                                          1\nMax replicas:                                          10\nConditions:\n  Type           Status  Reason                   Message\n  ----           ------  ------                   -------\n  ScalingActive  False   FailedGetResourceMetric  the HPA was unable to compute the replica count: unable to get metrics for resource cpu: no metrics returned from resource metrics API\n";
    let node = &parse(hpa, 1, None)[0].node;
    assert_eq!(
        node.get("kind").unwrap().as_str(),
        Some("HorizontalPodAutoscaler")
    );
    assert_eq!(
        node.locate("spec.scaleTargetRef.kind").unwrap().1.as_str(),
        Some("Deployment")
    );
    assert_eq!(node.locate("spec.maxReplicas").unwrap().1.as_str(), Some("10"));
    let (pos, reason) = node.locate("status.conditions[0].reason").unwrap();
    assert_eq!((pos.line, reason.as_str()), (9, Some("FailedGetResourceMetric")));
}

/// A container's block pasted alone and flattened (the `wild/29` paste,
/// https://github.com/lsst-it/k8s-cookbook/pull/1308, quoted and collapsed): its last state is
/// still the container's last state, at the user's lines.
#[test]
fn a_flattened_container_block_keeps_its_last_state() {
    let text = "State: Running\nStarted: Fri, 16 Jan 2026 07:21:54 -0700\nLast State: Terminated\nReason: OOMKilled\nExit Code: 137\nStarted: Fri, 16 Jan 2026 03:29:44 -0700\nFinished: Fri, 16 Jan 2026 07:21:53 -0700\nReady: True\nRestart Count: 1255\nLimits:\ncpu: 1\nmemory: 1Gi\n";
    let pod = container_fragment(text, 3, "", None).unwrap();
    let (pos, reason) = pod
        .locate("status.containerStatuses[0].lastState.terminated.reason")
        .unwrap();
    assert_eq!((pos.line, reason.as_str()), (6, Some("OOMKilled")));
    let (pos, limit) = pod
        .locate(r#"spec.containers[0].resources.limits["memory"]"#)
        .unwrap();
    assert_eq!((pos.line, limit.as_str()), (14, Some("1Gi")));
    assert!(pod.locate("status.containerStatuses[0].state.running").is_some());
}

/// sapcc/helm-charts#548: `kubectl describe event`, cut off at its `Reason:`: the Event about the
/// Pod, its reason the one the catalog knows its message by.
#[test]
fn a_described_event_is_an_event_about_its_involved_object() {
    let text = "Name:             resource-test-bdfcd9f5-g8jq5.157e0a42f7ead471
Namespace:        default
Labels:           <none>
API Version:      v1
Count:            12
First Timestamp:  2019-01-28T14:43:24Z
Involved Object:
  API Version:       v1
  Kind:              Pod
  Name:              resource-test-bdfcd9f5-g8jq5
  Namespace:         default
Kind:                Event
Last Timestamp:      2019-01-28T14:45:34Z
Message:             No nodes are available that match all of the predicates: Insufficient cpu (19).
Reason:";
    let described = parse(text, 1, None);
    assert_eq!(described.len(), 1);
    let node = &described[0].node;
    assert_eq!(node.locate("kind").unwrap().1.as_str(), Some("Event"));
    assert_eq!(
        node.locate("involvedObject.name").unwrap().1.as_str(),
        Some("resource-test-bdfcd9f5-g8jq5")
    );
    let (pos, reason) = node.locate("reason").unwrap();
    assert_eq!((pos.line, reason.as_str()), (14, Some("FailedScheduling")));
    assert_eq!(node.locate("type").unwrap().1.as_str(), Some("Warning"));
    assert_eq!(node.locate("count").unwrap().1.as_str(), Some("12"));
    assert_eq!(
        node.locate("lastTimestamp").unwrap().1.as_str(),
        Some("2019-01-28T14:45:34Z")
    );
    let event: crate::api::CoreEvent = decode(node).unwrap();
    assert_eq!(event.count, Some(12));
}

/// Issue 40: a Pod's describe cut after its init containers (IP, Node, Controlled By, Init
/// Containers; no `Containers:`, no start time) was "cannot tell which kind of object". Its node
/// and own IP with its owner or namespace are a Pod's; a Service's describe (an IP, no node) is not.
#[test]
fn a_pod_head_with_its_node_and_ip_is_a_pod() {
    let pod = "Name:           db-migrate-7c9f5-x2k8d\nNamespace:      billing\nNode:           worker-3/10.0.4.17\nIP:             10.244.3.22\nControlled By:  ReplicaSet/db-migrate-7c9f5\nInit Containers:\n  wait-for-db:\n    Image:         busybox:1.36\n    State:         Running\n      Started:     Mon, 02 Mar 2026 10:01:00 +0000\n    Ready:         False\n";
    let objects = parse(pod, 1, None);
    assert_eq!(objects[0].node.get("kind").and_then(Node::as_str), Some("Pod"));
    let head = "Name:           db-migrate-7c9f5-x2k8d\nNamespace:      billing\nNode:           worker-3/10.0.4.17\nIP:             10.244.3.22\n";
    assert_eq!(
        parse(head, 1, None)[0].node.get("kind").and_then(Node::as_str),
        Some("Pod")
    );
    let service = "Name:              billing-api\nNamespace:         billing\nSelector:          app=billing-api\nType:              ClusterIP\nIP:                10.96.12.7\nPort:              http  80/TCP\nTargetPort:        8080/TCP\nEndpoints:         <none>\n";
    assert_eq!(
        parse(service, 1, None)[0].node.get("kind").and_then(Node::as_str),
        Some("Service")
    );
}
