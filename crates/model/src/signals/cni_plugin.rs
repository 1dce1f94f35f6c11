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

/// The CNI plugin type a sandbox failure names (`plugin type="calico" failed (add): …`).
pub fn plugin_type(message: &str) -> Option<&str> {
    let (_, rest) = message.split_once("plugin type=\"")?;
    rest.split('"').next()
}

/// Whether a sandbox failure says the node's network is not set up yet (`cni plugin not
/// initialized`, `network is not ready`), rather than a plugin failing on this Pod.
pub fn sandbox_network_not_ready(message: &str) -> bool {
    message.contains("not initialized") || message.contains("network is not ready")
}

/// Whether a Node's `Ready=False` message is the runtime's "network plugin not ready", as the
/// kubelet relays it (`container runtime network not ready: NetworkReady=false
/// reason:NetworkPluginNotReady message:… cni plugin not initialized`).
pub fn runtime_network_not_ready(message: &str) -> bool {
    [
        "network not ready",
        "NetworkPluginNotReady",
        "cni plugin not initialized",
        "cni config uninitialized",
    ]
    .iter()
    .any(|n| message.contains(n))
}

#[cfg(test)]
mod tests {
    use super::{
        names_a_plugin_type, network_not_ready, plugin_type, runtime_network_not_ready,
        sandbox_network_not_ready,
    };

    #[test]
    fn reads_the_runtimes_network_words() {
        let m = "container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized";
        assert!(network_not_ready(m) && !names_a_plugin_type(m) && sandbox_network_not_ready(m));
        assert_eq!(plugin_type(m), None);
        assert!(runtime_network_not_ready(m));
        let m = "Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox \"abc\": plugin type=\"calico\" failed (add): stat /var/lib/calico/nodename: no such file or directory";
        assert!(names_a_plugin_type(m) && !sandbox_network_not_ready(m));
        assert_eq!(plugin_type(m), Some("calico"));
    }
}
