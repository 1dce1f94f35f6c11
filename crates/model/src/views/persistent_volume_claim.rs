//! A PersistentVolumeClaim's phase and StorageClass as pasted (`status.phase`,
//! `spec.storageClassName`), and the StorageClass's `volumeBindingMode`.

use faultline_ingest::Object;
use faultline_report::ObjectRef;

use crate::Model;

/// The claim's `status.phase` (`Pending`, `Bound`, `Lost`), when shown.
pub fn claim_phase(claim: &Object) -> Option<&str> {
    claim.locate("status.phase").and_then(|(_, n)| n.as_str())
}

/// The claim's `spec.storageClassName` as written (possibly empty: no class, static binding only).
pub fn storage_class_name(claim: &Object) -> Option<&str> {
    claim
        .locate("spec.storageClassName")
        .and_then(|(_, n)| n.as_str())
}

/// The claim's StorageClass, when it names one (not empty).
pub fn storage_class(claim: &Object) -> Option<&str> {
    storage_class_name(claim).filter(|c| !c.is_empty())
}

impl<'a> Model<'a> {
    /// The claims in the input that are `Pending`, and those that events of `picked` are about, each
    /// once (by namespace and name), in that order.
    pub fn pending_claims(&self, picked: impl Fn(&crate::EventRecord) -> bool) -> Vec<ObjectRef> {
        let mut subjects: Vec<ObjectRef> = Vec::new();
        let mut seen = std::collections::BTreeSet::new();
        let claims = self.objects_of_kind("PersistentVolumeClaim");
        for object in claims.filter(|o| claim_phase(o) == Some("Pending")) {
            if seen.insert((object.id.namespace.clone(), object.id.name.clone())) {
                subjects.push(object.id.clone());
            }
        }
        for event in self
            .events
            .iter()
            .filter(|e| e.subject.kind == "PersistentVolumeClaim" && picked(e))
        {
            if seen.insert((event.subject.namespace.clone(), event.subject.name.clone())) {
                subjects.push(event.subject.clone());
            }
        }
        subjects
    }

    /// The last copy of claim `id` in the input's order that shows its phase (a describe cut to its
    /// Events shows none; a namespace missing on either side matches any).
    pub fn newest_claim(&self, id: &ObjectRef) -> Option<&'a Object> {
        self.objects_of_kind("PersistentVolumeClaim")
            .filter(|o| {
                o.id.name == id.name
                    && (o.id.namespace.is_none() || id.namespace.is_none() || o.id.namespace == id.namespace)
                    && claim_phase(o).is_some()
            })
            .last()
    }

    /// Whether the claim's StorageClass, when pasted, binds only once a Pod uses the claim
    /// (`volumeBindingMode: WaitForFirstConsumer`).
    pub fn binds_at_first_consumer(&self, claim: &Object) -> bool {
        let Some(class) = storage_class_name(claim) else {
            return false;
        };
        self.objects_of_kind("StorageClass").any(|o| {
            o.id.name == class
                && o.locate("volumeBindingMode").and_then(|(_, n)| n.as_str()) == Some("WaitForFirstConsumer")
        })
    }

    /// The other Pending claims of the claim's StorageClass (when it names one).
    pub fn pending_claims_of_class(&self, claim: &Object) -> Vec<&'a Object> {
        let Some(class) = storage_class(claim) else {
            return Vec::new();
        };
        self.objects_of_kind("PersistentVolumeClaim")
            .filter(|o| {
                o.id != claim.id && storage_class(o) == Some(class) && claim_phase(o) == Some("Pending")
            })
            .collect()
    }
}
