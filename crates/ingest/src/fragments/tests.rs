use super::*;

fn events(text: &str) -> Vec<TableEvent> {
    read(text, 1, None).events
}

#[test]
fn rows_without_a_header_in_every_layout() {
    let describe = events("  Warning  FailedScheduling  61s (x2 over 6m23s)  default-scheduler  0/1 nodes are available: 1 node(s) had untolerated taint.\n");
    assert_eq!(describe.len(), 1);
    let e = &describe[0];
    assert_eq!(
        (e.type_.as_str(), e.reason.as_str(), e.kind.as_str()),
        ("Warning", "FailedScheduling", "Pod")
    );
    assert_eq!(
        (e.last_age, e.count, e.reporter.as_deref()),
        (Some(61), 2, Some("default-scheduler"))
    );
    assert!(e.message.starts_with("0/1 nodes are available"), "{}", e.message);

    let old = events("  2h\t\t48m\t\t7\tdefault-scheduler\t\t\tWarning\t\tFailedScheduling\tNo nodes are available that match all of the following predicates:: Insufficient cpu (9).\n");
    assert_eq!(old[0].reason, "FailedScheduling");
    assert!(
        old[0].message.starts_with("No nodes are available"),
        "{}",
        old[0].message
    );

    let console = events("3:05:26 PM  Warning  Failed   Failed to pull image \"a/b:c\": rpc error: code = 2 desc = manifest unknown\n2 times in the last minute\n");
    assert_eq!(console.len(), 1);
    assert_eq!(console[0].reason, "Failed");
    assert!(console[0].message.starts_with("Failed to pull image"));

    let collapsed = events("Warning FailedScheduling 38s (x8 over 1m) default-scheduler 0/25 nodes are available: 23 Insufficient cpu.\n");
    assert_eq!(
        (collapsed[0].count, collapsed[0].reporter.as_deref()),
        (8, Some("default-scheduler"))
    );
    assert!(collapsed[0].message.starts_with("0/25"));

    let kubelet = events(" Warning  Failed     4m11s (x6 over 4m53s)  kubelet, <redacted-address>  Error: secrets \"s\" not found\n");
    assert_eq!(kubelet[0].message, "Error: secrets \"s\" not found");
    assert_eq!(kubelet[0].reporter.as_deref(), Some("kubelet"));
}

#[test]
fn a_message_quoted_in_prose_is_read_with_its_line() {
    let text = "Hi, the pod is pending.\nThe command \"kubectl describe pods apache-7f6fddb7df-q229r\" and the output is \" Warning  FailedScheduling  61s (x2 over 6m23s)  default-scheduler  0/1 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }.\"\nThanks.\n";
    let read = read(text, 10, None);
    assert_eq!(read.events.len(), 1);
    assert_eq!(read.events[0].line, 11);
    assert!(
        read.events[0].message.ends_with("control-plane: }."),
        "{}",
        read.events[0].message
    );
    assert!(read.unread.is_empty(), "prose is not unread: {:?}", read.unread);
    assert_eq!(read.other.len(), 2);
}

#[test]
fn catalog_messages_and_relayed_events_name_their_subjects() {
    let read = read(
            "> create Pod keyval-0 in StatefulSet keyval failed error: pods \"keyval-0\" is forbidden: violates PodSecurity \"restricted:latest\": \nallowPrivilegeEscalation != false (container \"v\" must set securityContext.allowPrivilegeEscalation=false), \n",
            1,
            None,
        );
    let e = &read.events[0];
    assert_eq!(
        (e.reason.as_str(), e.kind.as_str(), e.name.as_str()),
        ("FailedCreate", "StatefulSet", "keyval")
    );
    assert!(
        e.message.contains("allowPrivilegeEscalation"),
        "the wrapped line continues it: {}",
        e.message
    );
    let relayed = events("I0105 10:24:00.334462       1 event.go:218] Event(v1.ObjectReference{Kind:\"Pod\", Namespace:\"preproduction\", Name:\"mongo-0\", UID:\"5\"}): type: 'Warning' reason: 'FailedAttachVolume' Multi-Attach error for volume \"pvc-8\" Volume is already exclusively attached to one node and can't be attached to another\n");
    assert_eq!(
        (
            relayed[0].namespace.as_deref(),
            relayed[0].name.as_str(),
            relayed[0].reason.as_str()
        ),
        (Some("preproduction"), "mongo-0", "FailedAttachVolume")
    );
    // The scheduler's own log, as `minikube logs` prints it (kubernetes/minikube#6246): the
    // Pod it names, the message without the klog header, a closing quote no part of it.
    let logged = events("* E0108 22:07:45.954949       1 factory.go:660] Error scheduling default/mini-kafka-0: pod has unbound immediate PersistentVolumeClaims; retrying\n\"\n");
    assert_eq!(
        (
            logged[0].namespace.as_deref(),
            logged[0].name.as_str(),
            logged[0].reason.as_str()
        ),
        (Some("default"), "mini-kafka-0", "FailedScheduling")
    );
    assert_eq!(
        logged[0].message,
        "Error scheduling default/mini-kafka-0: pod has unbound immediate PersistentVolumeClaims; retrying"
    );
}

#[test]
fn the_command_names_the_subject_of_rows_pasted_alone() {
    let command = Command::parse("kubectl describe pvc data-pgsql-postgresql-0 -n pgsql");
    let read = read(
            " Normal  FailedBinding  4m47s (x5903 over 24h)  persistentvolume-controller  no persistent volumes available for this claim and no storage class is set\n",
            6,
            Some(&command),
        );
    let e = &read.events[0];
    assert_eq!(
        (e.kind.as_str(), e.namespace.as_deref(), e.name.as_str(), e.count),
        (
            "PersistentVolumeClaim",
            Some("pgsql"),
            "data-pgsql-postgresql-0",
            5903
        )
    );
}

#[test]
fn a_sentence_quoting_the_describe_command_names_the_rows_subject() {
    // A row quoted on the line of the sentence that quotes the command.
    let quoted = read(
            "The command \"kubectl describe pods apache-7f6fddb7df-q229r\" and the output is \" Warning  FailedScheduling  61s (x2 over 6m23s)  default-scheduler  0/1 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }.\"\n",
            1,
            None,
        );
    let e = &quoted.events[0];
    assert_eq!(
        (e.kind.as_str(), e.name.as_str()),
        ("Pod", "apache-7f6fddb7df-q229r")
    );
    // The sentence before the rows, with the namespace its command gives.
    let before = read(
            "when I run kubectl describe pod web-1 -n shop, I see:\n  Warning  FailedScheduling  61s  default-scheduler  0/3 nodes are available: 3 Insufficient cpu.\n",
            1,
            None,
        );
    let e = &before.events[0];
    assert_eq!(
        (e.kind.as_str(), e.namespace.as_deref(), e.name.as_str()),
        ("Pod", Some("shop"), "web-1")
    );
}

#[test]
fn get_events_rows_without_a_header_keep_the_object_out_of_the_message() {
    // kubeshop/testkube#4204: `get events` rows pasted without their header.
    let rows = events("0s          Warning   DeadlineExceeded       job/64bf6c36d3bdfa9a749420b4         Job was active longer than specified deadline\n");
    assert_eq!(rows.len(), 1);
    let e = &rows[0];
    assert_eq!(
        (e.kind.as_str(), e.name.as_str(), e.message.as_str()),
        (
            "Job",
            "64bf6c36d3bdfa9a749420b4",
            "Job was active longer than specified deadline"
        )
    );
}

#[test]
fn kubectl_errors_inside_other_text_are_messages() {
    let line = "> 2020-03-28T22:24:50.2462992Z 22:24:50 INFO fatal: [vm-0]: FAILED! => {\"cmd\": \"kubectl get ds kube-flannel-ds\", \"stderr\": \"Error from server: etcdserver: leader changed\", \"stderr_lines\": [\"Error from server: etcdserver: leader changed\"]}";
    let read = read(line, 3, None);
    assert_eq!(read.messages.len(), 1, "{read:?}");
    assert_eq!(read.messages[0].text, "etcdserver: leader changed");
    assert_eq!(read.messages[0].line, 3);
}

#[test]
fn prose_is_other_text_and_describe_fields_alone_are_unread() {
    let read = read("The chunks cache pods are being killed many times per day.\n\nAllocated resources:\n  Resource           Requests     Limits\n  cpu                1655m (41%)  2 (50%)\n", 1, None);
    assert!(read.events.is_empty() && read.messages.is_empty());
    assert_eq!(
        read.unread,
        vec![
            UnreadLines {
                line: 3,
                end_line: 3,
                reason: UnreadReason::DescribeFragment
            },
            UnreadLines {
                line: 4,
                end_line: 5,
                reason: UnreadReason::UnknownLayout
            },
        ]
    );
}

#[test]
fn ordinary_words_are_not_events() {
    assert!(events("a Warning Event was raised yesterday, see the Normal Operation docs\n").is_empty());
    assert!(events("Normal\n").is_empty());
}
