//! The catalog of messages Kubernetes components print, as data: what a line of text says when it is
//! all there is. Real pastes are fragments — an event row without its table, a scheduler message
//! quoted in a sentence, a controller-manager log relaying an event — and each of these still names a
//! reason that the rules know. Ingest only recognises; it decides nothing about faults.
//!
//! Each entry is a literal a component prints (signals.md lists where each comes from), the event
//! reason and type the component records with it, and the kind of object such an event is about.
//! Literals are matched case-sensitively, as printed; the first entry that matches a line wins, so
//! the more specific come first.

/// One message format: `needle` occurs in the line; the event it stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub needle: &'static str,
    pub reason: &'static str,
    pub warning: bool,
    /// The kind of the object such an event is about.
    pub kind: &'static str,
}

const fn warn(needle: &'static str, reason: &'static str, kind: &'static str) -> Entry {
    Entry {
        needle,
        reason,
        warning: true,
        kind,
    }
}

const fn normal(needle: &'static str, reason: &'static str, kind: &'static str) -> Entry {
    Entry {
        needle,
        reason,
        warning: false,
        kind,
    }
}

/// The message formats, most specific first. Sources: the scheduler (`FailedScheduling`), the
/// kubelet (image pulls, mounts, probes, sandboxes, evictions, node conditions), the controllers
/// (`FailedCreate`, `FailedBinding`, attach/detach, Jobs).
pub const ENTRIES: &[Entry] = &[
    // kube-scheduler
    warn("nodes are available:", "FailedScheduling", "Pod"),
    warn(
        "No nodes are available that match all of the",
        "FailedScheduling",
        "Pod",
    ),
    warn(
        "pod has unbound immediate PersistentVolumeClaims",
        "FailedScheduling",
        "Pod",
    ),
    // kube-scheduler 1.2–1.5: no node fits, or none is registered at all.
    warn("failed to fit in any node", "FailedScheduling", "Pod"),
    warn("no nodes available to schedule pods", "FailedScheduling", "Pod"),
    normal("Successfully assigned ", "Scheduled", "Pod"),
    // kubelet: images
    warn("Failed to pull image", "Failed", "Pod"),
    warn("Back-off pulling image", "BackOff", "Pod"),
    warn("Error: ErrImagePull", "Failed", "Pod"),
    warn("Error: ImagePullBackOff", "Failed", "Pod"),
    warn("Error: InvalidImageName", "InspectFailed", "Pod"),
    normal("Successfully pulled image", "Pulled", "Pod"),
    normal("already present on machine", "Pulled", "Pod"),
    normal("ulling image \"", "Pulling", "Pod"),
    // kubelet: container configuration and start
    warn("Error: secret \"", "Failed", "Pod"),
    warn("Error: secrets \"", "Failed", "Pod"),
    warn("Error: configmap \"", "Failed", "Pod"),
    warn("Error: configmaps \"", "Failed", "Pod"),
    warn("Error: couldn't find key", "Failed", "Pod"),
    warn("Error: container has runAsNonRoot", "Failed", "Pod"),
    warn("Back-off restarting failed container", "BackOff", "Pod"),
    // `oc status` (OpenShift's client) under `Errors:`: `pod/x is crash-looping`, `container "c" in
    // pod/x is crash-looping` — its summary of the same kubelet back-off.
    warn(" is crash-looping", "BackOff", "Pod"),
    warn("Error: failed to create containerd task", "Failed", "Pod"),
    warn("Error: failed to start container", "Failed", "Pod"),
    normal("Started container", "Started", "Pod"),
    normal("Created container", "Created", "Pod"),
    // kubelet: probes
    warn("Liveness probe failed", "Unhealthy", "Pod"),
    warn("Readiness probe failed", "Unhealthy", "Pod"),
    warn("Startup probe failed", "Unhealthy", "Pod"),
    normal("failed liveness probe, will be restarted", "Killing", "Pod"),
    normal("failed startup probe, will be restarted", "Killing", "Pod"),
    // kubelet and attach/detach controller: volumes
    warn("Multi-Attach error for volume", "FailedAttachVolume", "Pod"),
    warn("AttachVolume.Attach failed", "FailedAttachVolume", "Pod"),
    normal("AttachVolume.Attach succeeded", "SuccessfulAttachVolume", "Pod"),
    warn("MountVolume.SetUp failed", "FailedMount", "Pod"),
    warn("MountVolume.MountDevice failed", "FailedMount", "Pod"),
    warn("MountVolume.WaitForAttach failed", "FailedMount", "Pod"),
    warn("Unable to attach or mount volumes", "FailedMount", "Pod"),
    warn("Unable to mount volumes for pod", "FailedMount", "Pod"),
    // kubelet and CNI: sandboxes
    warn("Failed to create pod sandbox", "FailedCreatePodSandBox", "Pod"),
    warn(
        "failed to setup network for sandbox",
        "FailedCreatePodSandBox",
        "Pod",
    ),
    // kubelet's log when no CNI configuration is usable (`cni.go:171] Unable to update cni config:
    // No networks found in /etc/cni/net.d`; later `"Unable to update cni config" err="no networks
    // found in /etc/cni/net.d"`): every Pod's sandbox then waits with `NetworkNotReady`.
    warn("Unable to update cni config", "NetworkNotReady", "Pod"),
    normal(
        "Pod sandbox changed, it will be killed and re-created",
        "SandboxChanged",
        "Pod",
    ),
    // kubelet: evictions and node conditions
    warn("The node had condition: [", "Evicted", "Pod"),
    warn("The node was low on resource:", "Evicted", "Pod"),
    warn("Attempting to reclaim ", "EvictionThresholdMet", "Node"),
    warn("status is now: NodeNotReady", "NodeNotReady", "Node"),
    normal(
        "status is now: NodeHasDiskPressure",
        "NodeHasDiskPressure",
        "Node",
    ),
    normal(
        "status is now: NodeHasInsufficientMemory",
        "NodeHasInsufficientMemory",
        "Node",
    ),
    normal(
        "status is now: NodeHasInsufficientPID",
        "NodeHasInsufficientPID",
        "Node",
    ),
    // persistentvolume controller and provisioners
    warn(
        "no persistent volumes available for this claim",
        "FailedBinding",
        "PersistentVolumeClaim",
    ),
    warn(
        "storageclass.storage.k8s.io \"",
        "ProvisioningFailed",
        "PersistentVolumeClaim",
    ),
    normal(
        "waiting for a volume to be created",
        "ExternalProvisioning",
        "PersistentVolumeClaim",
    ),
    normal(
        "waiting for first consumer to be created before binding",
        "WaitForFirstConsumer",
        "PersistentVolumeClaim",
    ),
    // workload controllers and admission, as relayed in their events
    warn("Error creating: ", "FailedCreate", "ReplicaSet"),
    warn("is forbidden: exceeded quota", "FailedCreate", "ReplicaSet"),
    // The API server before 1.5 wrote it with a capital.
    warn("is forbidden: Exceeded quota", "FailedCreate", "ReplicaSet"),
    warn("is forbidden: failed quota", "FailedCreate", "ReplicaSet"),
    warn("violates PodSecurity", "FailedCreate", "ReplicaSet"),
    normal("Created pod: ", "SuccessfulCreate", "ReplicaSet"),
    warn(
        "Job has reached the specified backoff limit",
        "BackoffLimitExceeded",
        "Job",
    ),
    warn(
        "Job was active longer than specified deadline",
        "DeadlineExceeded",
        "Job",
    ),
];

/// The first catalog entry whose literal occurs in `line`, with where it occurs. Every line of
/// text no whole-format reader took is searched for every entry: each literal's searcher is built
/// once (`str::find` builds one per call, which was two thirds of redacting a paste of 11,000
/// short lines).
pub fn find(line: &str) -> Option<(usize, &'static Entry)> {
    // One pass over the line for all the literals, where a search for each (57 of them) was most of
    // reading a paste of short lines: each position whose two bytes start some literal (a table of
    // all byte pairs) is compared with the literals that start so. The entry that comes first in
    // `ENTRIES` wins, at its first occurrence, as a search of each in turn gave.
    struct Index {
        pairs: Vec<u64>,
        by_pair: faultline_report::hash::Map<[u8; 2], Vec<usize>>,
    }
    static INDEX: std::sync::OnceLock<Index> = std::sync::OnceLock::new();
    let index = INDEX.get_or_init(|| {
        let mut pairs = vec![0u64; 65536 / 64];
        let mut by_pair: faultline_report::hash::Map<[u8; 2], Vec<usize>> = Default::default();
        for (i, entry) in ENTRIES.iter().enumerate() {
            let n = entry.needle.as_bytes();
            let pair = [n[0], n[1]];
            let bit = usize::from(u16::from_le_bytes(pair));
            pairs[bit / 64] |= 1 << (bit % 64);
            by_pair.entry(pair).or_default().push(i);
        }
        Index { pairs, by_pair }
    });
    let bytes = line.as_bytes();
    let mut best: Option<(usize, usize)> = None;
    for at in 0..bytes.len().saturating_sub(1) {
        let pair = [bytes[at], bytes[at + 1]];
        let bit = usize::from(u16::from_le_bytes(pair));
        if index.pairs[bit / 64] & (1 << (bit % 64)) == 0 {
            continue;
        }
        for &i in index.by_pair.get(&pair).into_iter().flatten() {
            if best.is_some_and(|(b, _)| b <= i) {
                break;
            }
            if bytes[at..].starts_with(ENTRIES[i].needle.as_bytes()) {
                best = Some((i, at));
                break;
            }
        }
    }
    best.map(|(i, at)| (at, &ENTRIES[i]))
}

/// The kind of object events of a reason are about, when a row does not say (describe's Events
/// section, rows pasted alone): the recorders that use each reason record it on one kind only.
pub fn kind_of_reason(reason: &str) -> Option<&'static str> {
    if let Some(entry) = ENTRIES.iter().find(|e| e.reason == reason) {
        return Some(entry.kind);
    }
    Some(match reason {
        "Killing"
        | "Preempting"
        | "FailedKillPod"
        | "ExceededGracePeriod"
        | "InspectFailed"
        | "ErrImageNeverPull"
        | "FailedPostStartHook"
        | "FailedPreStopHook"
        | "ProbeWarning"
        | "NetworkNotReady"
        | "FailedSync"
        | "FailedValidation"
        | "OutOfmemory"
        | "OutOfcpu"
        | "UnexpectedAdmissionError"
        | "NodeAffinity"
        | "TaintManagerEviction"
        | "AddedInterface"
        | "FailedDetachVolume"
        | "VolumeResizeFailed" => "Pod",
        "NodeReady"
        | "NodeNotSchedulable"
        | "NodeSchedulable"
        | "NodeHasSufficientMemory"
        | "NodeHasNoDiskPressure"
        | "NodeHasSufficientPID"
        | "Rebooted"
        | "RegisteredNode"
        | "RemovingNode"
        | "DeletingNode"
        | "NodeAllocatableEnforced"
        | "Starting"
        | "InvalidDiskCapacity"
        | "ContainerGCFailed"
        | "ImageGCFailed"
        | "FreeDiskSpaceFailed"
        | "SystemOOM"
        | "KubeletSetupFailed"
        | "CIDRNotAvailable" => "Node",
        "RecyclerPod" | "VolumeFailedRecycle" | "VolumeFailedDelete" | "VolumeRecycled" | "VolumeDelete" => {
            "PersistentVolume"
        }
        "ProvisioningSucceeded" | "Provisioning" | "ClaimLost" | "ClaimMisbound" | "VolumeMismatch" => {
            "PersistentVolumeClaim"
        }
        "ScalingReplicaSet" | "DeploymentRollback" | "DeploymentPaused" => "Deployment",
        "SuccessfulDelete" | "FailedDelete" | "SelectingAll" => "ReplicaSet",
        "Completed" | "SuccessfulCreatePod" => "Job",
        "SawCompletedJob" | "UnexpectedJob" | "MissSchedule" => "CronJob",
        "SuccessfulRescale"
        | "FailedGetResourceMetric"
        | "FailedComputeMetricsReplicas"
        | "FailedGetScale" => "HorizontalPodAutoscaler",
        "FailedToUpdateEndpoint" | "FailedToUpdateEndpointSlices" => "Service",
        "CreatingLoadBalancer" | "EnsuringLoadBalancer" | "SyncLoadBalancerFailed" => "Service",
        _ => return None,
    })
}

/// The object a message names itself, if it does: `Successfully assigned ns/pod to node`, `Node x
/// status is now: …`, `create Pod p in StatefulSet s failed`, a relayed `Event(v1.ObjectReference{
/// Kind:"Pod", Namespace:"ns", Name:"x", …})`, the kubelet's `pod "name_ns(uid)"`. Returns (kind,
/// namespace, name).
pub fn named_subject(message: &str) -> Option<(String, Option<String>, String)> {
    if let Some(rest) = after(message, "Successfully assigned ") {
        let target = rest.split_whitespace().next()?;
        let (namespace, name) = match target.split_once('/') {
            Some((ns, name)) => (Some(ns.to_string()), name),
            None => (None, target),
        };
        return Some(("Pod".into(), namespace, name.to_string()));
    }
    // kube-scheduler 1.2–1.5: `pod (web-1671311517-s1nb9) failed to fit in any node`.
    if let Some(at) = message.find(") failed to fit in any node") {
        let name = message[..at].rsplit_once("pod (").map(|(_, n)| n)?;
        if !name.is_empty() && !name.contains(char::is_whitespace) {
            return Some(("Pod".into(), None, name.to_string()));
        }
    }
    // kube-scheduler's log before 1.17 (factory.go): `Error scheduling default/mysql-0: pod has
    // unbound immediate PersistentVolumeClaims; retrying`.
    let scheduling = after(message, "Error scheduling ")
        .and_then(|rest| rest.split_whitespace().next()?.strip_suffix(':')?.split_once('/'));
    if let Some((namespace, name)) = scheduling {
        if !namespace.is_empty() && !name.is_empty() && !name.contains('/') {
            return Some(("Pod".into(), Some(namespace.to_string()), name.to_string()));
        }
    }
    if let Some(at) = message.find(" status is now: ") {
        let head = &message[..at];
        let name = head
            .strip_prefix("Node ")
            .or_else(|| head.rsplit_once("Node ").map(|(_, n)| n))?;
        if !name.is_empty() && !name.contains(' ') {
            return Some(("Node".into(), None, name.to_string()));
        }
    }
    // StatefulSet and DaemonSet controllers: `create Pod keyval-0 in StatefulSet keyval failed`.
    if let Some(rest) = after(message, "create Pod ") {
        let mut words = rest.split_whitespace();
        let _pod = words.next()?;
        if words.next() == Some("in") {
            let kind = words.next()?;
            let name = words.next()?;
            if matches!(kind, "StatefulSet" | "DaemonSet" | "ReplicaSet" | "Job") {
                return Some((kind.to_string(), None, name.to_string()));
            }
        }
    }
    // The kubelet's `pod "web-1_shop(5f0e…)"` / `pod=web-1_shop(5f0e…)` (name, namespace, uid).
    for marker in ["pod \"", "pod="] {
        let Some(rest) = after(message, marker) else {
            continue;
        };
        let Some((token, _)) = rest.split_once('(') else {
            continue;
        };
        let token = token.trim_start_matches('"');
        if let Some((name, namespace)) = token.rsplit_once('_') {
            let plain = |s: &str| {
                !s.is_empty()
                    && s.bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'.')
            };
            if plain(name) && plain(namespace) {
                return Some(("Pod".into(), Some(namespace.to_string()), name.to_string()));
            }
        }
    }
    // Structured logs: `pod="shop/web-1"`.
    if let Some(rest) = after(message, "pod=\"") {
        if let Some((namespace, name)) = rest.split('"').next().and_then(|t| t.split_once('/')) {
            if !namespace.is_empty() && !name.is_empty() && !name.contains([' ', '/']) {
                return Some(("Pod".into(), Some(namespace.to_string()), name.to_string()));
            }
        }
    }
    if let Some(reference) = after(message, "ObjectReference{") {
        let field = |name: &str| {
            let value = after(reference, &format!("{name}:\""))?;
            Some(value[..value.find('"')?].to_string())
        };
        let kind = field("Kind")?;
        let name = field("Name")?;
        let namespace = field("Namespace").filter(|n| !n.is_empty());
        return Some((kind, namespace, name));
    }
    None
}

fn after<'a>(text: &'a str, needle: &str) -> Option<&'a str> {
    text.find(needle).map(|at| &text[at + needle.len()..])
}

/// A controller-manager or scheduler log line relaying an event: `… Event(v1.ObjectReference{…}):
/// type: 'Warning' reason: 'FailedAttachVolume' message`. Returns (type, reason, message).
pub fn relayed_event(line: &str) -> Option<(&str, &str, &str)> {
    let at = super::fragments::find_literal(line, "}): type: '")?;
    let rest = &line[at + "}): type: '".len()..];
    let (type_, rest) = rest.split_once('\'')?;
    let rest = rest.trim_start().strip_prefix("reason: '")?;
    let (reason, message) = rest.split_once('\'')?;
    Some((type_, reason, message.trim()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reason_of_the_catalog_has_a_kind() {
        for entry in ENTRIES {
            assert_eq!(kind_of_reason(entry.reason), Some(entry.kind), "{entry:?}");
            assert!(!entry.needle.trim().is_empty());
        }
        assert_eq!(kind_of_reason("NodeReady"), Some("Node"));
        assert_eq!(kind_of_reason("SomethingNew"), None);
    }

    #[test]
    fn messages_name_their_subjects() {
        assert_eq!(
            named_subject("Successfully assigned media/pod-65fd4bd946-rx8f4 to fsn-w-node-1"),
            Some(("Pod".into(), Some("media".into()), "pod-65fd4bd946-rx8f4".into()))
        );
        assert_eq!(
            named_subject("Node minikube status is now: NodeHasDiskPressure"),
            Some(("Node".into(), None, "minikube".into()))
        );
        assert_eq!(
            named_subject(
                "create Pod keyval-0 in StatefulSet keyval failed error: pods \"keyval-0\" is forbidden"
            ),
            Some(("StatefulSet".into(), None, "keyval".into()))
        );
        let relayed = "I0105 10:24:00.334462       1 event.go:218] Event(v1.ObjectReference{Kind:\"Pod\", Namespace:\"preproduction\", Name:\"mongo-0\", UID:\"5492\", APIVersion:\"v1\", ResourceVersion:\"22247369\", FieldPath:\"\"}): type: 'Warning' reason: 'FailedAttachVolume' Multi-Attach error for volume \"pvc-8743\"";
        assert_eq!(
            named_subject(relayed),
            Some(("Pod".into(), Some("preproduction".into()), "mongo-0".into()))
        );
        assert_eq!(
            relayed_event(relayed),
            Some((
                "Warning",
                "FailedAttachVolume",
                "Multi-Attach error for volume \"pvc-8743\""
            ))
        );
        assert_eq!(
            named_subject("pod (loudmail-deployment-1671311517-s1nb9) failed to fit in any node"),
            Some(("Pod".into(), None, "loudmail-deployment-1671311517-s1nb9".into()))
        );
        assert_eq!(
            named_subject(
                "E0108 22:07:45.954949       1 factory.go:660] Error scheduling default/mini-kafka-0: pod has unbound immediate PersistentVolumeClaims; retrying"
            ),
            Some(("Pod".into(), Some("default".into()), "mini-kafka-0".into()))
        );
        assert_eq!(named_subject("Back-off restarting failed container"), None);
        assert_eq!(
            named_subject("Error syncing pod, skipping: failed to \"StartContainer\" for \"web\" with CrashLoopBackOff: \"back-off 5m0s restarting failed container=web pod=web-1_shop(5f0e8a2c-1b)\""),
            Some(("Pod".into(), Some("shop".into()), "web-1".into()))
        );
        assert_eq!(
            named_subject("Error syncing pod 5f0e (\"web-1_shop(5f0e8a2c-1b)\"), skipping"),
            None,
            "no `pod \"` before it"
        );
        assert_eq!(
            named_subject("Killing unwanted pod \"web-1_shop(5f0e8a2c-1b)\""),
            Some(("Pod".into(), Some("shop".into()), "web-1".into()))
        );
        assert_eq!(
            named_subject("\"Probe failed\" probeType=\"Readiness\" pod=\"shop/web-1\" podUID=\"5f0e\""),
            Some(("Pod".into(), Some("shop".into()), "web-1".into()))
        );
    }

    #[test]
    fn the_most_specific_entry_wins() {
        let (_, entry) = find("0/3 nodes are available: 3 Insufficient cpu.").unwrap();
        assert_eq!(entry.reason, "FailedScheduling");
        let (at, entry) = find("  Warning  Failed  Failed to pull image \"x\": not found").unwrap();
        assert_eq!((entry.reason, at), ("Failed", 19));
        assert!(find("everything is fine").is_none());
        // `oc status -v` (openshift/origin#18362).
        let (_, entry) = find("  * pod/centos-1-dl5dp is crash-looping").unwrap();
        assert_eq!(entry.reason, "BackOff");
        // The kubelet's log without a CNI configuration (luxas/kubernetes-on-arm#160).
        let (_, entry) =
            find("cni.go:171] Unable to update cni config: No networks found in /etc/cni/net.d").unwrap();
        assert_eq!(entry.reason, "NetworkNotReady");
    }
}
