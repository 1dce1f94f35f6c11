//! Rules at the zone / network / storage boundary: volumes, claims and the drivers behind them.

pub mod cluster_component_failing;
pub mod dns_policy_bypasses_cluster_dns;
pub mod node_network_unavailable;
pub mod pod_sandbox_failed;
pub mod pvc_pending;
pub mod replicas_in_one_zone;
pub mod service_proxy_unreachable;
pub mod volume_mount_failed;
pub mod volume_reclaim_failed;
