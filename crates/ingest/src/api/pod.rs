//! A Pod: what the rules read of its spec and status.

use std::collections::BTreeMap;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use serde::Deserialize;

use faultline_report::Text;

use super::container::{Container, ContainerStatus};

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Pod {
    pub spec: Option<PodSpec>,
    pub status: Option<PodStatus>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodSpec {
    #[serde(default)]
    pub containers: Vec<Container>,
    pub init_containers: Option<Vec<Container>>,
    pub node_name: Option<Text>,
    pub node_selector: Option<BTreeMap<String, String>>,
    pub restart_policy: Option<Text>,
    pub service_account_name: Option<Text>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodStatus {
    pub phase: Option<Text>,
    pub conditions: Option<Vec<PodCondition>>,
    pub container_statuses: Option<Vec<ContainerStatus>>,
    pub init_container_statuses: Option<Vec<ContainerStatus>>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodCondition {
    #[serde(rename = "type", default)]
    pub type_: Text,
    #[serde(default)]
    pub status: Text,
    pub reason: Option<Text>,
    pub message: Option<Text>,
    pub last_transition_time: Option<Time>,
}
