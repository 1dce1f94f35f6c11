//! The CSI driver a storage message names, and which side of CSI the message is from: the
//! persistentvolume controller's `ExternalProvisioning` (pkg/controller/volume/persistentvolume/
//! pv_controller.go), the CSI attacher's `timed out waiting for external-attacher of <driver> CSI
//! driver …` and the kubelet's `driver name <driver> not found in the list of registered CSI drivers`
//! (pkg/volume/csi), and the CSI sidecars' event reporters.

/// The provisioner an `ExternalProvisioning` message names, in either of the persistentvolume
/// controller's wordings: `Waiting for a volume to be created either by the external provisioner
/// 'rbd.csi.ceph.com' …` (newer) and `waiting for a volume to be created, either by external
/// provisioner "ebs.csi.aws.com" or manually created by system administrator` (older, as in
/// awslabs/cdk-eks-blueprints#561 and embercsi/ember-csi#28).
pub fn provisioner_named(message: &str) -> Option<&str> {
    let (_, rest) = message.split_once("external provisioner ")?;
    let quote = rest.chars().next().filter(|c| matches!(c, '\'' | '"'))?;
    rest[1..].split(quote).next().filter(|p| !p.is_empty())
}

/// The CSI driver a mount, attach or provisioning message names.
pub fn driver_named(message: &str) -> Option<&str> {
    if let Some(p) = provisioner_named(message) {
        return Some(p);
    }
    for marker in ["driver name ", "external-attacher of "] {
        if let Some((_, rest)) = message.split_once(marker) {
            return rest
                .split(|c: char| c.is_whitespace() || c == '\'' || c == '"')
                .next()
                .filter(|d| !d.is_empty());
        }
    }
    None
}

/// Whether a message is of a step the CSI controller plugin does (attaching: `external-attacher`,
/// `AttachVolume`; provisioning: `external provisioner`), not the node plugin (mounting).
pub fn by_the_controller(message: &str) -> bool {
    message.contains("external-attacher")
        || message.contains("AttachVolume")
        || message.contains("external provisioner")
}

/// Whether a message is the kubelet's CSI volume plugin's (`kubernetes.io/csi: …`).
pub fn by_the_csi_volume_plugin(message: &str) -> bool {
    message.contains("kubernetes.io/csi")
}

/// `<driver>` of a node-driver-registrar argument `…/plugins/<driver>/csi.sock`.
pub fn registered_driver(arg: &str) -> Option<&str> {
    let (_, rest) = arg.split_once("/plugins/")?;
    let (driver, tail) = rest.split_once('/')?;
    (tail.starts_with("csi.sock") && driver.contains('.')).then_some(driver)
}

/// A CSI sidecar's event reporter, `<driver>_<pod>_<uuid>` (external-provisioner, external-attacher:
/// `ebs.csi.aws.com_ebs-csi-controller-f5d9c9475-wh2t9_e2ee…`): the driver and the controller's Pod.
/// The driver is a domain name (it has a dot).
pub fn sidecar_reporter(reporter: &str) -> Option<(&str, &str)> {
    let (driver, rest) = reporter.split_once('_')?;
    let pod = rest.rsplit_once('_').map_or(rest, |(pod, _)| pod);
    driver.contains('.').then_some((driver, pod))
}

#[cfg(test)]
mod tests {
    use super::{driver_named, registered_driver, sidecar_reporter};

    #[test]
    fn reads_the_driver_a_message_names() {
        assert_eq!(
            registered_driver(
                "--kubelet-registration-path=/var/lib/kubelet/plugins/ebs.csi.aws.com/csi.sock"
            ),
            Some("ebs.csi.aws.com")
        );
        assert_eq!(registered_driver("--csi-address=/csi/csi.sock"), None);
        // Both wordings of the persistentvolume controller's ExternalProvisioning event.
        assert_eq!(
            driver_named("waiting for a volume to be created, either by external provisioner \"ebs.csi.aws.com\" or manually created by system administrator"),
            Some("ebs.csi.aws.com")
        );
        assert_eq!(
            driver_named("Waiting for a volume to be created either by the external provisioner 'rbd.csi.ceph.com' or manually by the system administrator."),
            Some("rbd.csi.ceph.com")
        );
        assert_eq!(
            driver_named("attacher.MountDevice failed to create newCsiDriverClient: driver name efs.csi.aws.com not found in the list of registered CSI drivers"),
            Some("efs.csi.aws.com")
        );
        assert_eq!(
            sidecar_reporter("ebs.csi.aws.com_ebs-csi-controller-f5d9c9475-wh2t9_e2ee0c41"),
            Some(("ebs.csi.aws.com", "ebs-csi-controller-f5d9c9475-wh2t9"))
        );
        assert_eq!(sidecar_reporter("kubelet_node-1"), None);
    }
}
