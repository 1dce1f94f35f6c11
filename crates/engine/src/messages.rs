//! Every group of messages the engine writes, listed once: for the tests that check each message
//! (ids well formed and unique, both languages, every argument shown).

use crate::message::Message;

macro_rules! groups {
    ($($path:path),* $(,)?) => {
        /// One message of every variant of every group.
        pub fn samples() -> Vec<Message> {
            let mut all = Vec::new();
            $( all.extend(<$path>::samples().into_iter().map(Message::from)); )*
            all
        }

        /// Every id, by group.
        pub fn ids() -> Vec<&'static str> {
            let mut all = Vec::new();
            $( all.extend_from_slice(<$path>::IDS); )*
            all
        }
    };
}

groups! {
    crate::message::common::Msg,
    faultline_judge::differential::words::Msg,
    crate::changes::Msg,
    crate::render::Msg,
    crate::ingest::reading::Msg,
    crate::model::timeline_words::Msg,
    crate::rules::application::container_crash_looping::Msg,
    crate::rules::application::container_init_oom_killed::Msg,
    crate::rules::application::container_oom_killed::Msg,
    crate::rules::application::dependency_failing::Msg,
    crate::rules::application::dependency_ties::Msg,
    crate::rules::application::env_host_not_a_service::Msg,
    crate::rules::application::env_port_not_a_service_port::Msg,
    crate::rules::application::http_server_errors::Msg,
    crate::rules::readiness_endpoints::gateway_route_not_accepted::Msg,
    crate::rules::application::job_failed::Msg,
    crate::rules::known_failure_reported::Msg,
    crate::rules::log_evidence::Msg,
    crate::rules::application::liveness_probe_failing::Msg,
    crate::rules::application::probe_port_not_declared::Msg,
    crate::rules::application::readiness_probe_missing::Msg,
    crate::rules::application::runtime_memory::Msg,
    crate::rules::application::runtime_memory_over_limit::Msg,
    crate::rules::application::startup_probe_failing::Msg,
    crate::rules::control_plane::apiserver_request_failed::Msg,
    crate::rules::control_plane::component_status_unhealthy::Msg,
    crate::rules::control_plane::components::Msg,
    crate::rules::control_plane::control_plane_component_failing::Msg,
    crate::rules::control_plane::metrics_api_unavailable::Msg,
    crate::rules::control_plane::scheduler_not_running::Msg,
    crate::rules::etcd::etcd_member_failing::Msg,
    crate::rules::etcd::etcd_request_failed::Msg,
    crate::rules::node_runtime::container_config_invalid::Msg,
    crate::rules::node_runtime::container_start_failed::Msg,
    crate::rules::node_runtime::image_pull_failed::Msg,
    crate::rules::node_runtime::node_not_ready::Msg,
    crate::rules::node_runtime::node_under_pressure::Msg,
    crate::rules::node_runtime::pod_evicted::Msg,
    crate::rules::node_runtime::referenced_object_missing::Msg,
    crate::rules::quota_admission::admission_denied_on_create::Msg,
    crate::rules::quota_admission::admission_webhook_unreachable::Msg,
    crate::rules::quota_admission::authorization_denied::Msg,
    crate::rules::quota_admission::quota_exceeded_on_create::Msg,
    crate::rules::quota_admission::rejections::Msg,
    crate::rules::quota_admission::replica_creation_failed::Msg,
    crate::rules::quota_admission::resource_quota_exhausted::Msg,
    crate::rules::readiness_endpoints::ingress_not_admitted::Msg,
    crate::rules::readiness_endpoints::proxy_found_no_endpoints::Msg,
    crate::rules::readiness_endpoints::service_proxy_refused::Msg,
    crate::rules::zone_network_storage::service_proxy_unreachable::Msg,
    crate::rules::readiness_endpoints::readiness_probe_failing::Msg,
    crate::rules::readiness_endpoints::rollout_not_progressing::Msg,
    crate::rules::readiness_endpoints::service_endpoints_not_serving::Msg,
    crate::rules::readiness_endpoints::service_target_port_mismatch::Msg,
    crate::rules::scheduling::histogram::Msg,
    crate::rules::scheduling::pod_unschedulable::Msg,
    crate::rules::scheduling::node_pod_capacity_reached::Msg,
    crate::rules::zone_network_storage::cluster_component_failing::Msg,
    crate::rules::zone_network_storage::dns_policy_bypasses_cluster_dns::Msg,
    crate::rules::zone_network_storage::node_network_unavailable::Msg,
    crate::rules::zone_network_storage::pod_sandbox_failed::Msg,
    crate::rules::zone_network_storage::pvc_pending::Msg,
    crate::rules::zone_network_storage::replicas_in_one_zone::Msg,
    crate::rules::zone_network_storage::volume_mount_failed::Msg,
    crate::rules::zone_network_storage::volume_reclaim_failed::Msg,
}
