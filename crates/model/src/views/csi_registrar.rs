//! The CSI drivers a node plugin's Pod registers with the kubelet: node-driver-registrar's
//! `--kubelet-registration-path=/var/lib/kubelet/plugins/<driver>/csi.sock` in its containers'
//! `args` or `command`.

use faultline_ingest::Object;

use crate::signals::csi_driver::registered_driver;

/// Each driver the Pod's containers register, with the path of the argument that names it
/// (`spec.containers[1].args[2]`), in spec order.
pub fn registered_drivers(pod: &Object) -> Vec<(&str, String)> {
    let mut out = Vec::new();
    let Some((_, containers)) = pod.locate("spec.containers") else {
        return out;
    };
    for (i, container) in containers.items().iter().enumerate() {
        for key in ["args", "command"] {
            let Some(args) = container.get(key) else {
                continue;
            };
            for (j, arg) in args.items().iter().enumerate() {
                if let Some(driver) = arg.as_str().and_then(registered_driver) {
                    out.push((driver, format!("spec.containers[{i}].{key}[{j}]")));
                }
            }
        }
    }
    out
}
