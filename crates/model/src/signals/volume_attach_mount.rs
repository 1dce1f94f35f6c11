//! The attach/detach controller's and the kubelet's events on a Pod whose volume cannot be attached
//! or mounted (pkg/controller/volume/attachdetach, pkg/kubelet/volumemanager, pkg/volume):
//! `FailedAttachVolume` (`Multi-Attach error for volume "v" …`, `AttachVolume.Attach failed for
//! volume "v" : timed out waiting for external-attacher of <driver> CSI driver …`), `FailedMount` /
//! `FailedMapVolume` (`MountVolume.SetUp failed for volume "v" : configmap "c" not found`, `…
//! hostPath type check failed: …`, `… driver name <driver> not found in the list of registered CSI
//! drivers`, and the kubelet's generic `Unable to attach or mount volumes: … timed out waiting for
//! the condition`).

use crate::EventRecord;

/// What a volume failure says went wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VolumeFailureCause<'e> {
    /// `Multi-Attach error`: the volume is attached to another node.
    MultiAttach,
    /// The CSI driver's external-attacher did not attach it in time.
    AttacherTimedOut { driver: &'e str },
    /// The kubelet has no CSI driver of that name registered on the node.
    DriverNotRegistered { driver: &'e str },
    /// `hostPath type check failed: <detail>`.
    HostPath { detail: &'e str },
    /// A ConfigMap or Secret the volume projects is missing: the text after the last ` : `.
    SourceMissing { detail: &'e str },
    /// Anything else: the message is the kubelet's words.
    Other,
}

/// A `FailedAttachVolume`, `FailedMount` or `FailedMapVolume` event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VolumeFailure<'e> {
    /// The volume the message names (`volume "v"`).
    pub volume: Option<&'e str>,
    pub cause: VolumeFailureCause<'e>,
    /// How specific the message is, 1 to 3: the kubelet's generic timeout is the least (1), an
    /// attach failure or a `MountVolume.` step more (2), a named cause the most (3).
    pub specificity: u8,
}

impl EventRecord {
    /// What this event says of a volume's attach or mount, if it is one of those failures.
    pub fn volume_failure(&self) -> Option<VolumeFailure<'_>> {
        if !matches!(
            &*self.reason,
            "FailedAttachVolume" | "FailedMount" | "FailedMapVolume"
        ) {
            return None;
        }
        let m = self.message.as_str();
        let specificity = if m.contains("Multi-Attach")
            || m.contains("external-attacher")
            || m.contains("type check failed")
            || m.contains("not found")
        {
            3
        } else if self.reason == "FailedAttachVolume" || m.contains("MountVolume.") {
            2
        } else {
            1
        };
        let volume = m
            .split_once("volume \"")
            .and_then(|(_, rest)| rest.split('"').next());
        Some(VolumeFailure {
            volume,
            cause: cause(m),
            specificity,
        })
    }
}

fn cause(message: &str) -> VolumeFailureCause<'_> {
    if message.contains("Multi-Attach") {
        VolumeFailureCause::MultiAttach
    } else if let Some((_, rest)) = message.split_once("timed out waiting for external-attacher of ") {
        let driver = rest.split_whitespace().next().unwrap_or(rest);
        VolumeFailureCause::AttacherTimedOut { driver }
    } else if let Some((driver, _)) = message
        .split_once("driver name ")
        .and_then(|(_, rest)| rest.split_once(" not found in the list of registered CSI drivers"))
    {
        VolumeFailureCause::DriverNotRegistered { driver }
    } else if let Some((_, detail)) = message.split_once("hostPath type check failed: ") {
        VolumeFailureCause::HostPath { detail }
    } else if message.contains("not found") && (message.contains("configmap") || message.contains("secret")) {
        VolumeFailureCause::SourceMissing {
            detail: message.rsplit(" : ").next().unwrap_or(message),
        }
    } else {
        VolumeFailureCause::Other
    }
}

#[cfg(test)]
mod tests {
    use super::VolumeFailureCause;

    use crate::events::test_event as event;

    #[test]
    fn reads_the_attach_and_mount_failures() {
        let e = event("FailedAttachVolume", "Multi-Attach error for volume \"pvc-0a1b\" Volume is already exclusively attached to one node and can't be attached to another");
        let f = e.volume_failure().unwrap();
        assert_eq!(
            (f.volume, f.cause, f.specificity),
            (Some("pvc-0a1b"), VolumeFailureCause::MultiAttach, 3)
        );
        let e = event("FailedAttachVolume", "AttachVolume.Attach failed for volume \"pvc-1\" : timed out waiting for external-attacher of ebs.csi.aws.com CSI driver to attach volume vol-1");
        let f = e.volume_failure().unwrap();
        assert_eq!(
            f.cause,
            VolumeFailureCause::AttacherTimedOut {
                driver: "ebs.csi.aws.com"
            }
        );
        let e = event("FailedMount", "MountVolume.MountDevice failed for volume \"pvc-2\" : kubernetes.io/csi: attacher.MountDevice failed to create newCsiDriverClient: driver name efs.csi.aws.com not found in the list of registered CSI drivers");
        let f = e.volume_failure().unwrap();
        assert_eq!(
            f.cause,
            VolumeFailureCause::DriverNotRegistered {
                driver: "efs.csi.aws.com"
            }
        );
        let e = event(
            "FailedMount",
            "MountVolume.SetUp failed for volume \"config\" : configmap \"app-config\" not found",
        );
        let f = e.volume_failure().unwrap();
        assert_eq!(
            f.cause,
            VolumeFailureCause::SourceMissing {
                detail: "configmap \"app-config\" not found"
            }
        );
        let e = event("FailedMount", "Unable to attach or mount volumes: unmounted volumes=[data], unattached volumes=[data]: timed out waiting for the condition");
        let f = e.volume_failure().unwrap();
        assert_eq!((f.cause, f.specificity), (VolumeFailureCause::Other, 1));
        assert!(event("FailedScheduling", "0/3 nodes are available")
            .volume_failure()
            .is_none());
    }
}
