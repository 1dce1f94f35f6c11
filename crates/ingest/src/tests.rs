use super::sniff::looks_like_json_start;
use super::*;

#[test]
fn text_from_bytes_keeps_utf8_and_replaces_what_is_not() {
    let text = "kind: Pod # 日本語 ✓\n".to_string();
    let pointer = text.as_ptr();
    let kept = text_from_bytes(text.into_bytes());
    assert_eq!(kept, "kind: Pod # 日本語 ✓\n");
    assert_eq!(kept.as_ptr(), pointer, "valid UTF-8 is not copied");
    let bad = text_from_bytes(vec![b'a', 0xff, b'b', 0xc3, 0x28, b'c']);
    assert_eq!(bad, "a\u{FFFD}b\u{FFFD}(c");
}

/// A workload's Pod template is dropped from its tree once read (what the rest of the object
/// says, and where, is unchanged); a custom resource's is kept. (That a secret in the template's
/// `env` is still found, from the text, is the redaction's test.)
#[test]
fn a_workload_pod_template_is_pruned() {
    let rs = "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata:\n  name: web-7d4\n  namespace: shop\nspec:\n  replicas: 3\n  template:\n    spec:\n      containers:\n      - name: web\n        env:\n        - name: DB_PASSWORD\n          value: hunter2-hunter2\nstatus:\n  replicas: 1\n";
    let custom = rs.replace("apps/v1", "example.com/v1");
    let sources = [Source::new("rs.yaml", rs), Source::new("custom.yaml", custom)];
    let got = ingest(&sources);
    assert_eq!(got.errors, vec![]);
    let workload = &got.objects[0];
    assert_eq!(workload.locate("spec.template").map(|(p, _)| p.line), None);
    assert_eq!(workload.locate("spec.replicas").map(|(p, _)| p.line), Some(7));
    assert_eq!(workload.locate("status.replicas").map(|(p, _)| p.line), Some(16));
    assert_eq!(
        got.objects[1].locate("spec.template").map(|(p, _)| p.line),
        Some(8)
    );
}

#[test]
fn yaml_list_items_become_objects_with_their_own_positions() {
    let text = "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: a\n    namespace: ns\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: b\n";
    let got = ingest(&[Source::new("list.yaml", text)]);
    assert_eq!(got.errors, vec![]);
    assert_eq!(got.inputs[0].format, "yaml-list");
    assert_eq!(got.objects.len(), 2);
    assert!(matches!(got.objects[0].typed, Typed::Pod(_)));
    assert_eq!(got.objects[1].id.kind, "ConfigMap");
    assert_eq!(got.objects[1].locate("metadata.name").unwrap().0.line, 12);
}

#[test]
fn a_status_pasted_without_its_kind_is_told_by_its_fields() {
    // kubernetes/kubernetes#92245: a Job's status block alone.
    let job = "status:\n    conditions:\n    - lastProbeTime: \"2020-06-18T06:06:48Z\"\n      lastTransitionTime: \"2020-06-18T06:06:48Z\"\n      message: Job has reached the specified backoff limit\n      reason: BackoffLimitExceeded\n      status: \"True\"\n      type: Failed\n    failed: 5\n    startTime: \"2020-06-18T06:01:55Z\"\n";
    let got = ingest(&[Source::new("paste", job)]);
    assert_eq!(got.errors, vec![]);
    assert_eq!(got.objects.len(), 1);
    assert_eq!(got.objects[0].id.kind, "Job");
    assert!(got.objects[0].locate("status.conditions[0].reason").is_some());
    // Composed: container statuses are a Pod's.
    let pod = "status:\n  phase: Running\n  containerStatuses:\n  - name: app\n    ready: false\n    restartCount: 4\n    image: x\n    imageID: ''\n";
    let got = ingest(&[Source::new("paste", pod)]);
    assert!(matches!(got.objects[0].typed, Typed::Pod(_)));
    // A status of nothing in particular is still no object, and says why.
    let got = ingest(&[Source::new("paste", "status:\n  phase: Bound\n")]);
    assert!(got.objects.is_empty());
}

#[test]
fn event_rows_that_do_not_fit_their_tab_expanded_header_are_still_read() {
    // The header and row of kubernetes/kubernetes#9207 (1.4, tab-aligned) after a comment line
    // (composed; read as a root prompt): the expanded tabs of the row do not line up with the
    // header's, and the table of no rows had dropped it.
    let text = "# the events of the pod:\n  FirstSeen\tLastSeen\tCount\tFrom\t\t\tSubobjectPath\tType\t\tReason                                                                          Message\n  ---------\t--------\t-----\t----\t\t\t-------------\t--------\t------                                                                          -------\n  51m\t\t37m\t\t50\t{default-scheduler }\t\t\tWarning\t\tFailedScheduling                                                                        pod (loudmail-deployment-1671311517-s1nb9) failed to fit in any node\n";
    let got = ingest(&[Source::new("paste", text)]);
    let reasons: Vec<&str> = got.table_events.iter().map(|(_, e)| e.reason.as_str()).collect();
    let fragments: Vec<&str> = got
        .objects
        .iter()
        .filter_map(|o| o.locate("reason").and_then(|(_, r)| r.as_str()))
        .collect();
    assert!(
        reasons.contains(&"FailedScheduling") || fragments.contains(&"FailedScheduling"),
        "{reasons:?} {fragments:?}"
    );
}

#[test]
fn a_bad_object_is_reported_and_the_rest_still_ingested() {
    let text = "{\"kind\": \"PodList\", \"apiVersion\": \"v1\", \"items\": [\n{\"metadata\": {\"name\": \"ok\"}},\n{\"metadata\": {\"name\": \"bad\"}, \"spec\": {\"containers\": 7}}\n]}";
    let got = ingest(&[Source::new("pods.json", text)]);
    assert_eq!(got.inputs[0].format, "json-list");
    assert_eq!(got.objects.len(), 2, "both objects are kept");
    assert_eq!(got.errors.len(), 1);
    let err = &got.errors[0];
    assert_eq!((err.line, err.source.as_str()), (3, "pods.json"));
    assert!(err.message.contains("spec.containers"), "{}", err.message);
    assert!(
        matches!(got.objects[1].typed, Typed::Pod(_)),
        "only the bad field is lost"
    );
}

#[test]
fn redacted_values_cost_only_their_field() {
    let text = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: <redacted>\n  namespace: RELEASE-NAME\n  uid: xxxx\nspec:\n  nodeName: '*.*.*.*'\n  containers: [{name: app, image: x}]\nstatus:\n  phase: Pending\n  podIP: '***'\n  containerStatuses:\n  - name: app\n    image: x\n    imageID: ''\n    ready: false\n    restartCount: xxx\n    state:\n      waiting:\n        reason: ErrImagePull\n";
    let got = ingest(&[Source::new("pod.yaml", text)]);
    assert_eq!(got.errors.len(), 1, "{:?}", got.errors);
    assert_eq!(got.errors[0].line, 18);
    assert!(got.errors[0].message.contains("restartCount") && got.errors[0].message.contains("ignored"));
    let Typed::Pod(pod) = &got.objects[0].typed else {
        panic!("the Pod is still decoded")
    };
    assert_eq!(got.objects[0].id.name, "<redacted>");
    let status = &pod.status.as_ref().unwrap().container_statuses.as_ref().unwrap()[0];
    assert_eq!(
        status
            .state
            .as_ref()
            .unwrap()
            .waiting
            .as_ref()
            .unwrap()
            .reason
            .as_deref(),
        Some("ErrImagePull")
    );
    // The tree keeps what was pasted, for evidence.
    assert_eq!(
        got.objects[0]
            .locate("status.containerStatuses[0].restartCount")
            .unwrap()
            .1
            .as_str(),
        Some("xxx")
    );
}

#[test]
fn a_table_is_not_mistaken_for_broken_yaml() {
    let text = "LAST SEEN   TYPE      REASON   OBJECT       MESSAGE\n11s  Warning  Failed  pod/x  Failed to pull image \"a\": not found\n";
    let got = ingest(&[Source::new("events.txt", text)]);
    assert_eq!(got.inputs[0].format, "events-table");
    assert_eq!(got.errors, vec![]);
    assert_eq!(got.table_events[0].1.line, 2);
}

#[test]
fn a_mixed_paste_reads_each_command_on_its_own_with_input_line_numbers() {
    let text = "$ kubectl -n shop get events\nLAST SEEN   TYPE      REASON   OBJECT   MESSAGE\n1m          Warning   Failed   pod/a    Error: ErrImagePull\n\n$ kubectl -n shop get pod a -o yaml\napiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n  namespace: shop\n$ kubectl top pod\nerror: Metrics API not available\n";
    let got = ingest(&[Source::new("paste", text)]);
    assert_eq!(got.inputs[0].format, "mixed");
    assert_eq!(got.table_events[0].1.line, 3);
    assert_eq!(got.table_events[0].1.namespace.as_deref(), Some("shop"));
    assert_eq!(got.objects[0].locate("metadata.name").unwrap().0.line, 9);
    assert_eq!(got.errors, vec![]);
    let (_, message) = &got.messages[0];
    assert_eq!(
        (message.line, message.text.as_str()),
        (12, "Metrics API not available")
    );
    assert_eq!(message.command.as_deref(), Some("kubectl top pod"));
}

/// wild/30: `kubectl get pods | grep …` rows (no namespace), then one Pod's describe
/// (`Namespace: default`): the described Pod is one object, and the rows share its namespace.
#[test]
fn rows_without_a_namespace_take_the_one_the_paste_states_for_them() {
    let text = "$ kubectl get pods | grep web\nweb-t7dwh   0/1   CrashLoopBackOff   19 (75s ago)   74m\nweb-t855m   0/1   CrashLoopBackOff   19 (96s ago)   74m\n\n$ kubectl describe pods web-t7dwh\nName:         web-t7dwh\nNamespace:    default\nStatus:       Running\n";
    let got = ingest(&[Source::new("paste", text)]);
    let pods: Vec<_> = got
        .objects
        .iter()
        .map(|o| (o.id.name.as_str(), o.id.namespace.as_deref()))
        .collect();
    assert_eq!(
        pods,
        vec![
            ("web-t7dwh", Some("default")),
            ("web-t855m", Some("default")),
            ("web-t7dwh", Some("default"))
        ]
    );
    // A name the paste states in two namespaces stays without one.
    let text = "$ kubectl get pods\nNAME   READY   STATUS    RESTARTS   AGE\nweb    0/1     Pending   0          1m\n\n$ kubectl describe pod web -n a\nName:         web\nNamespace:    a\n\n$ kubectl describe pod web -n b\nName:         web\nNamespace:    b\n";
    let got = ingest(&[Source::new("paste", text)]);
    assert_eq!(got.objects[0].id.namespace, None);
}

/// Composed: a sentence, a manifest as a markdown code block (four spaces), a sentence after it.
#[test]
fn a_sentence_after_an_indented_manifest_is_not_part_of_it() {
    let text = "This is what I get:\n\n    apiVersion: v1\n    kind: Service\n    metadata:\n      name: echo\n      namespace: exp-ready\n    spec:\n      selector:\n        app: echo\n\nAny idea what is wrong here?\n";
    let got = ingest(&[Source::new("paste", text)]);
    assert_eq!(got.errors, vec![]);
    assert_eq!(got.objects.len(), 1);
    assert_eq!(got.objects[0].id.kind, "Service");
    assert_eq!(got.objects[0].locate("metadata.name").unwrap().0.line, 6);
    assert_eq!(got.objects[0].locate("spec.selector.app").unwrap().0.line, 10);
}

#[test]
fn json_starts() {
    assert!(looks_like_json_start("{"));
    assert!(looks_like_json_start("{\"kind\": \"Pod\"}"));
    assert!(looks_like_json_start("[ {\"a\": 1} ]"));
    assert!(!looks_like_json_start("[check-expiration] Reading configuration"));
    assert!(!looks_like_json_start("{dedicated: ci-runners}"));
}

#[test]
fn describe_text_is_read_as_describe_not_as_yaml() {
    let text = "$ kubectl describe pod mailer-7f4d6b8c95-gd2vr -n mail\nName:             mailer-7f4d6b8c95-gd2vr\nNamespace:        mail\nStatus:           Pending\n";
    let got = ingest(&[Source::new("d.txt", text)]);
    assert_eq!(got.inputs[0].format, "describe");
    assert_eq!(got.objects[0].id.kind, "Pod");
    assert_eq!(got.objects[0].locate("status.phase").unwrap().0.line, 4);
    // Without the command line and without sections that tell, the kind is unknown: said so.
    let got = ingest(&[Source::new("d.txt", &text[text.find('\n').unwrap() + 1..])]);
    assert!(got.objects.is_empty());
    assert!(
        got.errors[0].message.contains("cannot tell which kind"),
        "{:?}",
        got.errors
    );
}

#[test]
fn events_of_both_api_groups_decode() {
    let text = "apiVersion: events.k8s.io/v1\nkind: Event\nmetadata:\n  name: e1\n  namespace: ns\neventTime: \"2025-02-11T09:35:34.000000Z\"\nreason: FailedScheduling\nregarding:\n  kind: Pod\n  name: p\n---\napiVersion: v1\nkind: Event\nmetadata:\n  name: e2\n  namespace: ns\ninvolvedObject:\n  kind: Pod\n  name: p\nreason: Failed\n";
    let got = ingest(&[Source::new("ev.yaml", text)]);
    assert_eq!(got.errors, vec![]);
    assert_eq!(got.inputs[0].format, "yaml-documents");
    assert!(matches!(got.objects[0].typed, Typed::EventV1(_)));
    assert!(matches!(got.objects[1].typed, Typed::Event(_)));
}

/// `metadata.managedFields` comes before `spec` and `status` in what kubectl prints, and is stepped
/// over without being built (YAML and JSON): everything after it keeps its exact line and column,
/// and the last-applied annotation before it is still read (the secret scan reads its value).
#[test]
fn fields_after_skipped_managed_fields_keep_their_positions() {
    let yaml = concat!(
        "apiVersion: v1\n",
        "kind: Pod\n",
        "metadata:\n",
        "  annotations:\n",
        "    kubectl.kubernetes.io/last-applied-configuration: |\n",
        "      {\"apiVersion\":\"v1\",\"kind\":\"Pod\"}\n",
        "  managedFields:\n",
        "  - apiVersion: v1\n",
        "    fieldsType: FieldsV1\n",
        "    fieldsV1:\n",
        "      f:status:\n",
        "        f:conditions:\n",
        "          k:{\"type\":\"Ready\"}:\n",
        "            .: {}\n",
        "    manager: kubelet\n",
        "  - manager: kubectl\n",
        "  name: web-0\n",
        "  namespace: shop\n",
        "spec:\n",
        "  nodeName: worker-1\n",
        "status:\n",
        "  phase: Pending\n",
    );
    let json = concat!(
        "{\n",
        "    \"apiVersion\": \"v1\",\n",
        "    \"kind\": \"Pod\",\n",
        "    \"metadata\": {\n",
        "        \"annotations\": {\n",
        "            \"kubectl.kubernetes.io/last-applied-configuration\": \"{\\\"kind\\\":\\\"Pod\\\"}\\n\"\n",
        "        },\n",
        "        \"managedFields\": [\n",
        "            {\n",
        "                \"fieldsV1\": {\"f:status\": {\"k:{\\\"type\\\":\\\"Ready\\\"}\": {}}},\n",
        "                \"manager\": \"kubelet\"\n",
        "            }\n",
        "        ],\n",
        "        \"name\": \"web-0\",\n",
        "        \"namespace\": \"shop\"\n",
        "    },\n",
        "    \"spec\": {\"nodeName\": \"worker-1\"},\n",
        "    \"status\": {\n",
        "        \"phase\": \"Pending\"\n",
        "    }\n",
        "}\n",
    );
    let at = |object: &Object, path: &str| object.locate(path).map(|(p, _)| (p.line, p.column));
    let annotation = "metadata.annotations[\"kubectl.kubernetes.io/last-applied-configuration\"]";
    let got = ingest(&[Source::new("pod.yaml", yaml), Source::new("pod.json", json)]);
    assert_eq!(got.errors, vec![]);
    let [pod_yaml, pod_json] = &got.objects[..] else {
        panic!("two Pods: {:?}", got.objects.len())
    };
    for pod in [pod_yaml, pod_json] {
        assert_eq!(at(pod, "metadata.managedFields"), None);
        assert!(pod.locate(annotation).is_some_and(|(_, n)| n.as_str().is_some()));
    }
    assert_eq!(at(pod_yaml, "metadata.name"), Some((17, 3)));
    assert_eq!(at(pod_yaml, "spec.nodeName"), Some((20, 3)));
    assert_eq!(at(pod_yaml, "status.phase"), Some((22, 3)));
    assert_eq!(at(pod_json, "metadata.name"), Some((14, 9)));
    assert_eq!(at(pod_json, "spec.nodeName"), Some((17, 14)));
    assert_eq!(at(pod_json, "status.phase"), Some((19, 9)));
}
