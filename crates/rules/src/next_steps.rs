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

/// The Service's EndpointSlices, with the Pods and nodes behind each endpoint.
pub fn endpoint_slices(ns: &str, service: &str) -> String {
    command!(
        "kubectl get endpointslices -n {} -l kubernetes.io/service-name={} -o wide",
        ns,
        service
    )
}

/// The Service's ports, as its spec declares them.
pub fn service_ports(ns: &str, service: &str) -> String {
    command!(
        "kubectl get service {} -n {} -o jsonpath='{{.spec.ports}}'",
        service,
        ns
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

/// What to read after a request to `subject` failed: for a Service its EndpointSlices, its logs and
/// the same request through a port-forward to `port`; for a Pod its logs and describe; else the
/// Pods, Services and EndpointSlices of every namespace and a selector's logs.
pub fn request_followup(subject: &ObjectRef, port: &str) -> Vec<String> {
    let (ns, name) = (namespace(subject), &subject.name);
    match subject.kind.as_str() {
        "Service" => vec![
            command!(
                "kubectl get endpointslices -n {} -l kubernetes.io/service-name={}",
                ns,
                name
            ),
            command!("kubectl logs -n {} svc/{} --since=10m", ns, name),
            command!("kubectl port-forward -n {} svc/{} 8080:{}", ns, name, port),
        ],
        "Pod" => vec![
            command!("kubectl logs -n {} {} --since=10m", ns, name),
            command!("kubectl describe pod -n {} {}", ns, name),
        ],
        _ => vec![
            "kubectl get pods,svc,endpointslices -A -o wide".to_string(),
            "kubectl logs -l app=NAME -n NAMESPACE --since=10m".to_string(),
        ],
    }
}
