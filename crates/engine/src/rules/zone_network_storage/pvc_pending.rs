use std::collections::BTreeSet;

use crate::model::{EventRecord, Model};
use crate::report::{Boundary, Evidence, Finding, ObjectRef, Severity};

crate::declare_rule! {
    /// ## What it finds
    /// A PersistentVolumeClaim that stays `Pending` because no volume is provided: the provisioner
    /// reports `ProvisioningFailed`, or the controller keeps waiting for an external provisioner
    /// (`ExternalProvisioning`: "Waiting for a volume to be created either by the external
    /// provisioner 'x' or manually…") that never answers, or no StorageClass is set and no
    /// PersistentVolume matches (`FailedBinding`). A claim waiting for its first consumer
    /// (`WaitForFirstConsumer`) is normal and not reported.
    ///
    /// ## Why it matters
    /// Every Pod using the claim waits with it, and the scheduler reports "pod has unbound immediate
    /// PersistentVolumeClaims": the scheduling symptom is explained by storage, and fixing
    /// placement will not help.
    ///
    /// ## Evidence
    /// The claim's phase and StorageClass, then the persistentvolume-controller's and provisioner's
    /// events with their counts; an event alone is a hint that the provisioner is not acting.
    ///
    /// ## Fault boundary
    /// `zone-network-storage`: the StorageClass's provisioner (a CSI controller) and the backend.
    ///
    /// ## What this evidence cannot establish
    /// Whether the provisioner's Pods are running and registered, whether the storage backend is
    /// healthy, and whether the StorageClass exists as named.
    ///
    /// ## Next evidence to collect
    /// The StorageClass (`kubectl get storageclass NAME -o yaml`), the CSI driver and its controller
    /// Pods, and the provisioner's logs.
    ///
    /// ## Example
    /// ```text
    /// Status:        Pending
    ///   Normal  ExternalProvisioning  4s (x142 over 35m)  persistentvolume-controller  Waiting for a
    ///   volume to be created either by the external provisioner 'rbd.csi.ceph.com' …
    /// ```
    pub const RULE = { id: "pvc-pending", boundary: Boundary::ZoneNetworkStorage, check: check };
}

const SIGNALS: [&str; 3] = ["ProvisioningFailed", "ExternalProvisioning", "FailedBinding"];

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    let mut subjects: Vec<ObjectRef> = Vec::new();
    let mut seen = BTreeSet::new();
    for object in model
        .objects
        .iter()
        .filter(|o| o.id.kind == "PersistentVolumeClaim")
    {
        let phase = object.locate("status.phase").and_then(|(_, n)| n.as_str());
        if phase == Some("Pending") && seen.insert((object.id.namespace.clone(), object.id.name.clone())) {
            subjects.push(object.id.clone());
        }
    }
    for event in model
        .events
        .iter()
        .filter(|e| e.subject.kind == "PersistentVolumeClaim" && SIGNALS.contains(&e.reason.as_str()))
    {
        if seen.insert((event.subject.namespace.clone(), event.subject.name.clone())) {
            subjects.push(event.subject.clone());
        }
    }
    for id in subjects {
        let object = model.objects.iter().find(|o| o.id.same_object(&id));
        if object
            .and_then(|o| o.locate("status.phase"))
            .and_then(|(_, n)| n.as_str())
            .is_some_and(|p| p != "Pending")
        {
            continue; // bound since
        }
        let events = model.events_for(&id);
        let signals: Vec<&EventRecord> = events
            .iter()
            .copied()
            .filter(|e| SIGNALS.contains(&e.reason.as_str()))
            .collect();
        let Some(latest) = signals.last() else { continue };
        findings.push(finding(model, object, &id, &signals, latest));
    }
}

fn finding(
    model: &Model<'_>,
    object: Option<&crate::ingest::Object>,
    id: &ObjectRef,
    signals: &[&EventRecord],
    latest: &EventRecord,
) -> Finding {
    let ns = id.namespace.as_deref().unwrap_or("default");
    let mut evidence: Vec<Evidence> = Vec::new();
    if let Some(object) = object {
        evidence.extend(model.evidence(object, "status.phase"));
        evidence.extend(model.evidence(object, "spec.storageClassName"));
    }
    evidence.extend(model.event_evidence(latest));
    let class = object
        .and_then(|o| o.locate("spec.storageClassName"))
        .and_then(|(_, n)| n.as_str())
        .map(str::to_string);
    let provisioner = latest
        .message
        .split_once("external provisioner '")
        .and_then(|(_, r)| r.split('\'').next())
        .map(str::to_string);
    let repeated = match (latest.count, latest.first, latest.last) {
        (n, _, _) if n > 1 => format!(" ({n} times)"),
        _ => String::new(),
    };
    let cause = match latest.reason.as_str() {
        "ExternalProvisioning" => format!(
            "it is still waiting for the external provisioner {}{repeated} to create a volume, and nothing has answered: the provisioner looks absent, not running or not registered",
            provisioner.as_deref().map_or("of its StorageClass".to_string(), |p| format!("'{p}'"))
        ),
        "ProvisioningFailed" => format!("the provisioner failed to create a volume{repeated}: {}", latest.message),
        _ => format!("no volume can be bound{repeated}: {}", latest.message),
    };
    let summary = format!("{id} is Pending: {cause}. Every Pod that uses it waits with it.");
    let mut cannot_establish = vec![
        "Whether the provisioner's Pods (the CSI controller) are running and registered: they were not in this evidence.".to_string(),
        "Whether the storage backend itself is healthy.".to_string(),
    ];
    if !model.graph.inventory.has("StorageClass") {
        cannot_establish.push("No StorageClass was pasted, so whether it exists as named and which provisioner it names is unknown.".to_string());
    }
    if signals.iter().all(|e| e.type_ != "Warning") {
        cannot_establish.push("The evidence is a Normal event repeated, not an error: it shows the controller waiting, not why nothing answers.".to_string());
    }
    let mut next_steps = vec![format!("kubectl describe pvc {} -n {ns}", id.name)];
    if let Some(class) = &class {
        next_steps.push(format!("kubectl get storageclass {class} -o yaml"));
    }
    if let Some(p) = &provisioner {
        next_steps.push(format!("kubectl get csidriver {p}"));
    }
    next_steps.push("kubectl get pods -A -o wide | grep -i -E 'csi|provisioner'".to_string());
    RULE.finding(
        Severity::Error,
        id.clone(),
        summary,
        evidence,
        cannot_establish,
        next_steps,
    )
}
