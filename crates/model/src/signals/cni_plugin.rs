//! The kubelet's and the container runtime's words for a Pod network that is not set up: the
//! runtime's `NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns
//! error: cni plugin not initialized` (containerd), dockershim's `networkPlugin cni failed …`, `cni
//! config uninitialized`, the kubelet's `network is not ready: …`, and a CNI plugin's own error
//! naming its type (`plugin type="calico" failed (add): …`).

/// Whether a message names the CNI plugin whose call failed (`plugin type="<type>"`).
pub fn names_a_plugin_type(message: &str) -> bool {
    message.contains("plugin type=\"")
}

/// Whether a message says the node's Pod network is not set up, without naming a plugin.
pub fn network_not_ready(message: &str) -> bool {
    [
        "cni plugin not initialized",
        "NetworkPluginNotReady",
        "networkPlugin cni",
        "cni config uninitialized",
        "network is not ready",
    ]
    .iter()
    .any(|g| message.contains(g))
}

#[cfg(test)]
mod tests {
    use super::{names_a_plugin_type, network_not_ready};

    #[test]
    fn reads_the_runtimes_network_words() {
        let m = "container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized";
        assert!(network_not_ready(m) && !names_a_plugin_type(m));
        let m = "Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox \"abc\": plugin type=\"calico\" failed (add): stat /var/lib/calico/nodename: no such file or directory";
        assert!(names_a_plugin_type(m));
    }
}
