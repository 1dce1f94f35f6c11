//! Typed readings of pasted objects, walked once here so that no rule walks a raw tree: a rule asks
//! the model (or an [`faultline_ingest::Object`]) what it states and gets a value, with the field
//! paths it cites. Each module is one reading, named after what it reads.

pub mod component_status;
pub mod container_env_values;
pub mod container_exit;
pub mod container_readiness;
pub mod csi_registrar;
pub mod dependency_host;
pub mod gateway_acceptance;
pub mod ingress_admission;
pub mod ingress_class_name;
pub mod job_failure;
pub mod node_network_conditions;
pub mod node_status;
pub mod object_edges;
pub mod oom_kill;
pub mod persistent_volume_claim;
pub mod pod_dns_settings;
pub mod pod_eviction;
pub mod pod_placement;
pub mod pod_references;
pub mod pod_row_restarts;
pub mod pod_running;
pub mod probe_port;
pub mod proxy_target;
pub mod replica_failure;
pub mod resource_quota;
pub mod service_cluster_ip;
pub mod service_endpoints;
pub mod service_ports;
pub mod startup_probe;
pub mod unprobed_ready_pod;
pub mod unscheduled_pods;
pub mod workload_availability;
pub mod workload_rollout;
pub mod zone_placement;
