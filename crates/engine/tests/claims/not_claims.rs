//! The messages that mention the input without claiming an absence, with why.

/// Messages whose words mention what was or was not pasted without claiming that something is
/// absent from the input, each with why.
pub const NOT_ABSENCE_CLAIMS: &[(&str, &str)] = &[
    (
        "dependency-failing.symptom",
        "about the log lines it cites, which it read: what is not in them",
    ),
    (
        "ingress-not-admitted.controller",
        "about what an Ingress object cannot hold, whatever was pasted",
    ),
    (
        "log-evidence.no-terminal-error",
        "about the lines of the log it cites, which it read: none matched the pattern table",
    ),
    (
        "control-plane-components.other-copies",
        "a question, conditional on what was pasted",
    ),
    (
        "etcd-request-failed.every-member",
        "a question, conditional on what was pasted",
    ),
    (
        "replica-creation-failed.still-now",
        "a question, conditional on what was pasted",
    ),
    (
        "node-network-unavailable.other-nodes",
        "a question, conditional on what was pasted",
    ),
    (
        "service-endpoints-not-serving.pods-not-pasted",
        "a question: whether Pods exist beyond those pasted",
    ),
    (
        "service-target-port-mismatch.pods-not-pasted",
        "a question: whether Pods exist beyond those pasted",
    ),
    (
        "node-pod-capacity-reached.all-pods-pasted",
        "a question: whether every Pod of the node was pasted",
    ),
    (
        "startup-probe-failing.budget-known",
        "about the application's start time, which no kubectl output states",
    ),
    (
        "image-pull-failed.cause-not-said",
        "about the words of the pasted message, not about a missing object",
    ),
    (
        "container-config-invalid.key-not-in",
        "Kubernetes' own message, quoted",
    ),
    (
        "container-start-failed.not-in-image",
        "about the image, which is never input",
    ),
    (
        "pod-sandbox-failed.network-not-ready",
        "about the node's network, not the input",
    ),
    (
        "node-not-ready.not-ready",
        "lists Pods that were pasted (a presence)",
    ),
    (
        "node-network-unavailable.not-ready",
        "lists Pods that were pasted (a presence)",
    ),
    (
        "pod-unschedulable.pasted-nodes",
        "lists Nodes that were pasted (a presence)",
    ),
    (
        "replicas-in-one-zone.one-zone",
        "lists Nodes that were pasted (a presence)",
    ),
    (
        "service-target-port-mismatch.some-pods-without-ports",
        "a presence: selected Pods read without ports",
    ),
    (
        "container-config-invalid.keys-not-pasted",
        "advice that a Secret's data is not pasted (and should not be); no object is claimed missing",
    ),
    (
        "container-config-invalid.reference-not-in-spec",
        "about the rule's search of the spec it read, said with its reason (describe's text)",
    ),
    (
        "replica-creation-failed.text-not-pasted",
        "about the words of the controller's event, which carries no refusal text",
    ),
    (
        "replica-creation-failed.which-step",
        "about the words of the controller's event, which carries no refusal text",
    ),
    (
        "env-host-not-a-service.whole-listing",
        "a question: whether the pasted Services are the whole namespace",
    ),
    (
        "referenced-object-missing.whole-listing",
        "a question: whether the pasted objects are the whole namespace",
    ),
    (
        "common.table-cannot",
        "about what a `get pods` row's STATUS column can hold, not about the input",
    ),
    (
        "job-failed.why-pods-failed",
        "about the fields a Job has, not about the input",
    ),
    (
        "runtime-memory-over-limit.image-settings",
        "about the image, which is never input",
    ),
    (
        "service-endpoints-not-serving.no-request-output",
        "follows the business-response fact, computed from the pasted command output (model::facts)",
    ),
];
