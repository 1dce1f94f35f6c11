//! Typed readings of objects, walked once here so that no rule walks a raw tree: a rule asks the
//! model (or an object) what it states and gets a value. Each module is one kind or one part of it.

pub mod container_env_values;
pub mod csi_registrar;
pub mod ingress_class_name;
pub mod node_network_conditions;
pub mod persistent_volume_claim;
pub mod pod_dns_settings;
pub mod pod_running;
pub mod proxy_target;
pub mod replica_failure;
pub mod resource_quota;
pub mod service_cluster_ip;
pub mod workload_availability;
pub mod zone_placement;
