//! Next steps that several rules give in the same words: a container's previous logs and memory
//! use, a Service's EndpointSlices and ports, the events of one reason. Names and namespaces are
//! shell-quoted by `command!`.

use faultline_report::ObjectRef;

/// The namespace a command for `id` names: its own, else the placeholder.
fn namespace(id: &ObjectRef) -> &str {
    id.namespace.as_deref().unwrap_or(crate::UNKNOWN_NAMESPACE)
}

/// What the container printed before its last exit.
pub fn previous_logs(pod: &ObjectRef, container: &str) -> String {
    command!(
        "kubectl logs {} -n {} -c {} --previous",
        pod.name,
        namespace(pod),
        container
    )
}

/// The memory each of the Pod's containers uses now (metrics-server's reading).
pub fn top_containers(pod: &ObjectRef) -> String {
    command!("kubectl top pod {} -n {} --containers", pod.name, namespace(pod))
}

/// The `resources` the Pod's spec gives its container `container`.
pub fn container_resources(pod: &ObjectRef, container: &str) -> String {
    command!(
        "kubectl get pod {} -n {} -o jsonpath='{{.spec.containers[?(@.name==\"{}\")].resources}}'",
        pod.name,
        namespace(pod),
        crate::shell::InQuotes(container)
    )
}

/// The events of one `reason` in `ns`: of the object `name` when it is known, else of all.
pub fn events_of_reason(ns: &str, name: Option<&str>, reason: &str) -> String {
    match name {
        Some(name) => command!(
            "kubectl get events -n {} --field-selector involvedObject.name={},reason={}",
            ns,
            name,
            reason
        ),
        None => command!("kubectl get events -n {} --field-selector reason={}", ns, reason),
    }
}
