//! A Node's conditions that say its network is not set up: `NetworkUnavailable=True` (set by the
//! cloud's route controller or the CNI agent) and `Ready=False` whose message is the runtime's
//! "network plugin not ready" as the kubelet relays it
//! ([`crate::signals::cni_plugin::runtime_network_not_ready`]).

use faultline_ingest::Object;

use crate::signals::cni_plugin::runtime_network_not_ready;

/// One such condition, its fields as printed (empty when absent).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NetworkCondition<'a> {
    /// Its index in `status.conditions`, for its evidence path.
    pub index: usize,
    pub type_: &'a str,
    pub status: &'a str,
    pub reason: &'a str,
    pub message: &'a str,
}

impl NetworkCondition<'_> {
    /// The path of the condition's field `field` (`status`, `reason`, `message`).
    pub fn path(&self, field: &str) -> String {
        format!("status.conditions[{}].{field}", self.index)
    }
}

/// The Node's conditions that say its network is not set up, in order.
pub fn network_conditions(node: &Object) -> Vec<NetworkCondition<'_>> {
    let Some((_, conditions)) = node.locate("status.conditions") else {
        return Vec::new();
    };
    conditions
        .items()
        .iter()
        .enumerate()
        .filter_map(|(index, c)| {
            let field = |k: &str| c.get(k).and_then(|n| n.as_str()).unwrap_or_default();
            let condition = NetworkCondition {
                index,
                type_: field("type"),
                status: field("status"),
                reason: field("reason"),
                message: field("message"),
            };
            let unavailable = condition.type_ == "NetworkUnavailable" && condition.status == "True";
            let not_ready = condition.type_ == "Ready"
                && condition.status == "False"
                && runtime_network_not_ready(condition.message);
            (unavailable || not_ready).then_some(condition)
        })
        .collect()
}
