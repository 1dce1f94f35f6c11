//! The persistentvolume controller's and the provisioners' events on a claim that waits for a
//! volume (pkg/controller/volume/persistentvolume/pv_controller.go, and sig-storage-lib-external-
//! provisioner's controller): `ExternalProvisioning` (waiting for an external provisioner),
//! `ProvisioningFailed`, `FailedBinding`; and `ProvisioningSucceeded` once the volume is made.

use crate::signals::csi_driver::provisioner_named;
use crate::EventRecord;

/// What a claim's provisioning event says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClaimProvisioning<'e> {
    /// `ExternalProvisioning`: the controller waits for the provisioner the message names.
    WaitingForProvisioner { provisioner: Option<&'e str> },
    /// `ProvisioningFailed`: the provisioner tried and failed.
    Failed,
    /// `FailedBinding`: no volume to bind, and none to be provisioned.
    CannotBind,
}

impl EventRecord {
    /// What this event says of a claim's provisioning, if it is one of those events.
    pub fn claim_provisioning(&self) -> Option<ClaimProvisioning<'_>> {
        match &*self.reason {
            "ExternalProvisioning" => Some(ClaimProvisioning::WaitingForProvisioner {
                provisioner: provisioner_named(&self.message),
            }),
            "ProvisioningFailed" => Some(ClaimProvisioning::Failed),
            "FailedBinding" => Some(ClaimProvisioning::CannotBind),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ClaimProvisioning;
    use crate::events::EventRecord;

    fn event(reason: &str, message: &str) -> EventRecord {
        EventRecord {
            type_: "Normal".into(),
            ..crate::events::test_event(reason, message)
        }
    }

    #[test]
    fn reads_the_claims_provisioning_events() {
        let e = event("ExternalProvisioning", "Waiting for a volume to be created either by the external provisioner 'rbd.csi.ceph.com' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.");
        assert_eq!(
            e.claim_provisioning(),
            Some(ClaimProvisioning::WaitingForProvisioner {
                provisioner: Some("rbd.csi.ceph.com")
            })
        );
        let e = event(
            "FailedBinding",
            "no persistent volumes available for this claim and no storage class is set",
        );
        assert_eq!(e.claim_provisioning(), Some(ClaimProvisioning::CannotBind));
        assert_eq!(
            event("ProvisioningSucceeded", "Successfully provisioned volume pvc-1").claim_provisioning(),
            None
        );
    }
}
