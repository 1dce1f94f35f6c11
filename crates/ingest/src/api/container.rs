//! A container of a Pod's spec and its status: names, commands, memory limits and states.

use k8s_openapi::api::core::v1::ResourceRequirements;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use serde::Deserialize;

use faultline_report::Text;

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Container {
    #[serde(default)]
    pub name: Text,
    pub command: Option<Vec<Text>>,
    pub args: Option<Vec<Text>>,
    pub env: Option<Vec<EnvVar>>,
    pub resources: Option<ResourceRequirements>,
}

/// An environment variable's literal value (the rules look for JVM heap flags in it).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EnvVar {
    pub value: Option<Text>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ContainerStatus {
    #[serde(default)]
    pub name: Text,
    #[serde(default)]
    pub image: Text,
    #[serde(default)]
    pub ready: bool,
    #[serde(default)]
    pub restart_count: i32,
    pub state: Option<ContainerState>,
    pub last_state: Option<ContainerState>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ContainerState {
    pub running: Option<ContainerStateRunning>,
    pub terminated: Option<ContainerStateTerminated>,
    pub waiting: Option<ContainerStateWaiting>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ContainerStateRunning {
    pub started_at: Option<Time>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ContainerStateTerminated {
    #[serde(default)]
    pub exit_code: i32,
    pub reason: Option<Text>,
    pub message: Option<Text>,
    pub started_at: Option<Time>,
    pub finished_at: Option<Time>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ContainerStateWaiting {
    pub reason: Option<Text>,
    pub message: Option<Text>,
}
