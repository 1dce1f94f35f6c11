use super::*;

#[test]
fn nodes_with_an_extra_label_column() {
    let text = "NAME                STATUS                     ROLES           AGE   VERSION   STORAGE-TIER\nlab-control-plane   Ready                      control-plane   12d   v1.30.4   \nlab-worker2         NotReady,SchedulingDisabled   <none>       12d   v1.30.4   sata\n";
    let command = Command::parse("kubectl get nodes -L storage-tier");
    assert!(is_header(text.lines().next().unwrap(), Some(&command)));
    let nodes = parse(text, 2, Some(&command));
    assert_eq!(nodes.len(), 2);
    let (pos, status) = nodes[1].locate("status.conditions[0].status").unwrap();
    assert_eq!((pos.line, status.as_str()), (4, Some("False")));
    assert_eq!(
        nodes[1].locate("spec.unschedulable").unwrap().1.as_str(),
        Some("true")
    );
    assert_eq!(nodes[1].locate("metadata.namespace"), None);
    let (pos, tier) = nodes[1].locate(r#"metadata.labels["storage-tier"]"#).unwrap();
    assert_eq!((pos.line, tier.as_str()), (4, Some("sata")));
    assert_eq!(
        nodes[0].locate("metadata.labels"),
        None,
        "an empty cell is no label"
    );
}

#[test]
fn pods_all_namespaces_wide_with_spaces_in_cells() {
    let text = "NAMESPACE   NAME        READY   STATUS             RESTARTS      AGE   IP           NODE     NOMINATED NODE   READINESS GATES\nshop        web-1       0/1     CrashLoopBackOff   5 (17m ago)   1h    10.0.0.5     node-a   <none>           <none>\nshop        web-2       1/1     Running            0             1h    10.0.0.6     node-b   <none>           <none>\n";
    let pods = parse(text, 1, None);
    assert_eq!(pods.len(), 2);
    let (pos, printed) = pods[0].locate("kubectl.status").unwrap();
    assert_eq!((pos.line, printed.as_str()), (2, Some("CrashLoopBackOff")));
    assert_eq!(
        pods[0].locate("status.phase"),
        None,
        "CrashLoopBackOff is not a phase"
    );
    assert_eq!(
        pods[1].locate("status.phase").unwrap().1.as_str(),
        Some("Running")
    );
    assert_eq!(
        pods[0].locate("spec.nodeName").unwrap().1.as_str(),
        Some("node-a")
    );
    assert_eq!(
        pods[0].locate("metadata.namespace").unwrap().1.as_str(),
        Some("shop")
    );
}

#[test]
fn deployments_and_pvcs() {
    let deploy = parse(
        "NAME       READY   UP-TO-DATE   AVAILABLE   AGE\nfrontend   2/3     3            2           211d\n",
        1,
        Some(&Command::parse("kubectl -n web get deploy frontend")),
    );
    assert_eq!(
        deploy[0].locate("status.readyReplicas").unwrap().1.as_str(),
        Some("2")
    );
    assert_eq!(deploy[0].locate("spec.replicas").unwrap().1.as_str(), Some("3"));
    assert_eq!(
        deploy[0].locate("metadata.namespace").unwrap().1.as_str(),
        Some("web")
    );
    let pvc = parse("NAME      STATUS    VOLUME   CAPACITY   ACCESS MODES   STORAGECLASS   AGE\npgdata    Pending                                      fast-ssd       5m\n", 1, None);
    assert_eq!(pvc[0].locate("status.phase").unwrap().1.as_str(), Some("Pending"));
    assert_eq!(
        pvc[0].locate("spec.storageClassName").unwrap().1.as_str(),
        Some("fast-ssd")
    );
    assert_eq!(pvc[0].locate("spec.volumeName"), None);
}

#[test]
fn storage_class_name_without_default_marker_and_binding_mode() {
    let classes = parse(
        "NAME                   PROVISIONER             RECLAIMPOLICY   VOLUMEBINDINGMODE      ALLOWVOLUMEEXPANSION   AGE\nlocal-path (default)   rancher.io/local-path   Delete          WaitForFirstConsumer   false                  40d\n",
        1,
        None,
    );
    assert_eq!(
        classes[0].locate("metadata.name").unwrap().1.as_str(),
        Some("local-path")
    );
    assert_eq!(
        classes[0].locate("volumeBindingMode").unwrap().1.as_str(),
        Some("WaitForFirstConsumer")
    );
    assert_eq!(
        classes[0].locate("provisioner").unwrap().1.as_str(),
        Some("rancher.io/local-path")
    );
}

/// Regression: a tab before a header cell made the splitter push empty cells forever (found by
/// the no-panic property test with more rounds: it ran out of memory).
#[test]
fn a_tab_in_a_header_does_not_loop_forever() {
    assert_eq!(
        header("NAME\t\tSTATUS  AGE"),
        [(0, "NAME"), (6, "STATUS"), (14, "AGE")]
    );
    assert!(
        parse(
            "NAME\tREADY\tSTATUS\tRESTARTS\tAGE\nweb\t1/1\tRunning\t0\t1h\n",
            1,
            None
        )
        .len()
            <= 1
    );
}

#[test]
fn volumes_jobs_and_namespaces_state_what_their_columns_say() {
    // From a public issue thread (kubeflow), `kubectl get pv`.
    let pv = "NAME                                       CAPACITY   ACCESS MODES   RECLAIM POLICY   STATUS   CLAIM                          STORAGECLASS   REASON   AGE\npvc-4ab26a02-4566-4574-bed6-499f922898a1   20Gi       RWO            Delete           Bound    kubeflow/minio-pvc             local-path              110m\n";
    let rows = parse(pv, 1, None);
    assert_eq!(rows[0].get("kind").unwrap().as_str(), Some("PersistentVolume"));
    assert_eq!(rows[0].locate("status.phase").unwrap().1.as_str(), Some("Bound"));
    assert_eq!(
        rows[0].locate("spec.claimRef.name").unwrap().1.as_str(),
        Some("minio-pvc")
    );
    // kubectl 1.31 prints a Job's STATUS: the condition that holds.
    let jobs = "NAME          STATUS   COMPLETIONS   DURATION   AGE\nbackup-2891   Failed   0/1           12m        12m\n";
    let rows = parse(jobs, 1, None);
    assert_eq!(rows[0].get("kind").unwrap().as_str(), Some("Job"));
    assert_eq!(
        rows[0].locate("status.conditions[0].type").unwrap().1.as_str(),
        Some("Failed")
    );
    assert_eq!(rows[0].locate("status.succeeded").unwrap().1.as_str(), Some("0"));
    let ns = "NAME          STATUS        AGE\nold-tenant    Terminating   41d\n";
    let rows = parse(ns, 1, None);
    assert_eq!(rows[0].get("kind").unwrap().as_str(), Some("Namespace"));
    assert_eq!(
        rows[0].locate("status.phase").unwrap().1.as_str(),
        Some("Terminating")
    );
}

#[test]
fn get_all_reads_a_table_per_kind_without_the_kind_prefix() {
    let text = "NAME                       READY   STATUS             RESTARTS   AGE\npod/web-7d9f8b6c5-x2x9q    0/1     CrashLoopBackOff   7          14m\n\nNAME          TYPE        CLUSTER-IP     EXTERNAL-IP   PORT(S)   AGE\nservice/web   ClusterIP   10.96.12.40    <none>        80/TCP    14m\n\nNAME                  READY   UP-TO-DATE   AVAILABLE   AGE\ndeployment.apps/web   0/1     1            0           14m\n";
    let command = Command::parse("kubectl get all -n shop");
    let rows = parse(text, 1, Some(&command));
    let ids: Vec<(Option<&str>, Option<&str>, u32)> = rows
        .iter()
        .map(|r| {
            let (pos, name) = r.locate("metadata.name").unwrap();
            (r.get("kind").unwrap().as_str(), name.as_str(), pos.column)
        })
        .collect();
    assert_eq!(
        ids,
        [
            (Some("Pod"), Some("web-7d9f8b6c5-x2x9q"), 5),
            (Some("Service"), Some("web"), 9),
            (Some("Deployment"), Some("web"), 17)
        ]
    );
}

#[test]
fn a_custom_resource_takes_the_kind_its_command_names_and_is_text_without_it() {
    let text = "NAMESPACE   NAME                     READY   SECRET                          AGE\nkubeflow    admission-webhook-cert   True    webhook-certs                   110m\n";
    assert!(is_header(text.lines().next().unwrap(), None));
    assert!(parse(text, 1, None).is_empty());
    let command = Command::parse("kubectl get certs -A");
    let rows = parse(text, 1, Some(&command));
    assert_eq!(rows[0].get("kind").unwrap().as_str(), Some("Certificate"));
    for (word, kind) in [
        ("ing", "Ingress"),
        ("storageclasses", "StorageClass"),
        ("networkpolicies", "NetworkPolicy"),
        ("endpoints", "Endpoints"),
        ("svc/web", "Service"),
    ] {
        assert_eq!(kind_of_resource(word).as_deref(), Some(kind), "{word}");
    }
}

#[test]
fn other_tables_are_not_claimed() {
    assert!(!is_header(
        "CERTIFICATE                EXPIRES                  RESIDUAL TIME",
        None
    ));
    assert!(!is_header("LAST SEEN   TYPE   REASON   OBJECT   MESSAGE", None));
}

#[test]
fn resource_quota_request_and_limit_cells_become_used_and_hard() {
    let text = "NAME         AGE   REQUEST                             LIMIT\ncompute-ci   12d   pods: 20/20, requests.cpu: 3500m/4   limits.memory: 12Gi/16Gi\n";
    let command = Command::parse("kubectl get quota -n ci");
    let quotas = parse(text, 1, Some(&command));
    assert_eq!(quotas.len(), 1);
    let q = &quotas[0];
    assert_eq!(q.get("kind").unwrap().as_str(), Some("ResourceQuota"));
    let (pos, used) = q.locate(r#"status.used["pods"]"#).unwrap();
    assert_eq!((pos.line, used.as_str()), (2, Some("20")));
    assert_eq!(
        q.locate(r#"status.hard["requests.cpu"]"#).unwrap().1.as_str(),
        Some("4")
    );
    assert_eq!(
        q.locate(r#"status.used["limits.memory"]"#).unwrap().1.as_str(),
        Some("12Gi")
    );
}

/// `kubectl get pods | grep granulate` (the rows of https://github.com/intel/gprofiler/issues/417,
/// as a chat client shows them with the runs of spaces collapsed): rows without a header, one word
/// a cell, are still the Pods they were; a prose line among them is no row.
#[test]
fn headerless_rows_with_collapsed_spaces_are_still_rows() {
    let command = Command::parse("kubectl get pods | grep granulate");
    let text = "granulate-gprofiler-t7dwh 0/1 CrashLoopBackOff 19 (75s ago) 74m\ngranulate-maestro-6df6db74c9-t26bj 2/2 Running 0 73m\n";
    let pods = headerless(text, 4, Some(&command)).unwrap();
    assert_eq!(pods.len(), 2);
    let (pos, name) = pods[0].locate("metadata.name").unwrap();
    assert_eq!((pos.line, name.as_str()), (4, Some("granulate-gprofiler-t7dwh")));
    let (pos, printed) = pods[0].locate("kubectl.status").unwrap();
    assert_eq!((pos.line, printed.as_str()), (4, Some("CrashLoopBackOff")));
    assert_eq!(
        pods[1].locate("status.phase").unwrap().1.as_str(),
        Some("Running")
    );
    // The same rows aligned read the same.
    let aligned = "granulate-gprofiler-t7dwh                0/1     CrashLoopBackOff   19 (75s ago)   74m\n";
    let spaced = headerless(aligned, 4, Some(&command)).unwrap();
    assert_eq!(
        spaced[0].locate("kubectl.status").unwrap().1.as_str(),
        Some("CrashLoopBackOff")
    );
    let prose = "granulate-gprofiler-t7dwh 0/1 CrashLoopBackOff 19 (75s ago) 74m\nthe pods keep restarting since the install\n";
    assert!(headerless(prose, 4, Some(&command)).is_none());
}

/// kubernetes/kubernetes#10486: kubectl 1.0's `get nodes` rows (NAME LABELS STATUS), without the
/// header or the command, blank lines between them; a sentence after them is not a row.
#[test]
fn node_rows_alone_are_known_by_their_cells() {
    let rows = "10.10.103.162   kubernetes.io/hostname=10.10.103.162   NotReady\n\n10.10.103.223   kubernetes.io/hostname=10.10.103.223   Ready,SchedulingDisabled\n";
    let text = format!("{rows}\nAny pointers?\n");
    assert_eq!(node_rows_end(&text), rows.len());
    let nodes = headerless(rows, 5, None).unwrap();
    assert_eq!(nodes.len(), 2);
    let (pos, status) = nodes[0].locate("status.conditions[0].status").unwrap();
    assert_eq!((pos.line, status.as_str()), (5, Some("False")));
    assert_eq!(
        nodes[1].locate("metadata.name").unwrap().1.as_str(),
        Some("10.10.103.223")
    );
    // Later layouts are known by the kubelet's version in the last cell.
    let modern = "worker-1   NotReady   <none>   12d   v1.30.4\n";
    assert_eq!(headerless(modern, 1, None).unwrap().len(), 1);
    // Two words and a status are not sure enough without a command.
    for text in [
        "blog-mysql-2   my-space   Ready\n",
        "web   Ready   3d\n",
        "Output of Kubelet   a=b   Ready\n",
    ] {
        assert_eq!(node_rows_end(text), 0, "{text}");
        assert!(headerless(text, 1, None).is_none(), "{text}");
    }
}

/// kubernetes/kubernetes#12269: a sentence under a table whose columns it spans is not a row.
#[test]
fn a_sentence_under_a_table_is_not_a_row() {
    let text = "NAME                           LABELS                              STATUS\nip-10-20-30-45.ec2.internal    name=Minion01                       NotReady\n\nOutput of Kubelet on the Minion\n";
    let command = Command::parse("kubectl get nodes");
    let nodes = parse(text, 1, Some(&command));
    assert_eq!(nodes.len(), 1);
    assert_eq!(
        nodes[0].locate("metadata.name").unwrap().1.as_str(),
        Some("ip-10-20-30-45.ec2.internal")
    );
}
