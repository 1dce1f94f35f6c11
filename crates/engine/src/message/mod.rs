//! Every sentence the engine writes is a [`Message`]: a stable id and typed arguments, rendered in
//! English or Chinese at the edge ([`crate::Report::localize`], the renderings, the app's worker),
//! never formatted into words inside a rule. Rules choose what to say; this module's renderers choose
//! the words.
//!
//! The mechanism is a typed enum per rule (or per part of the engine), declared with [`messages!`]:
//! each variant names its id, its arguments with their types, and one text per language. The macro
//! generates one `match` per language, so a message without a Chinese text does not compile, and
//! every argument is bound in every language, so a text that leaves one out is an unused variable,
//! which `clippy -D warnings` refuses. Arguments keep their types into the JSON report (`{"id",
//! "args"}`): an object reference stays an object, a nested message stays a message.
//!
//! A text is a format string whose `{name}`s are the arguments, or a block that returns a `String`
//! (for a plural, or a part that depends on an argument), in which each argument is an [`In`] (its
//! value is `.0`).

pub mod common;
pub mod reading;
pub mod timeline;

use std::fmt;

use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;

use crate::lang::Lang;
use crate::report::{ObjectRef, Text};

/// Declares a rule's (or a module's) messages: an enum whose variants are `Name { field: Type, … } =
/// "id" { en: TEXT, zh: TEXT }`, with TEXT a format string over the fields or a block returning a
/// `String`. See the module's documentation.
#[macro_export]
macro_rules! messages {
    ($(#[$meta:meta])* $vis:vis enum $name:ident {
        $( $(#[$vmeta:meta])* $variant:ident { $($field:ident : $ty:ty),* $(,)? } = $id:literal {
            en: $en:tt,
            zh: $zh:tt $(,)?
        } ),* $(,)?
    }) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq, Eq)]
        $vis enum $name {
            $( $(#[$vmeta])* $variant { $($field: $ty),* } ),*
        }

        #[allow(unused_variables, clippy::redundant_locals)]
        impl $name {
            /// Every id of this enum, in declaration order.
            pub const IDS: &'static [&'static str] = &[$($id),*];

            pub fn id(&self) -> &'static str {
                match *self {
                    $( Self::$variant { .. } => $id ),*
                }
            }

            /// The message, boxed (an argument, or a field kept small).
            pub fn into_box(self) -> Box<$crate::message::Message> {
                Box::new(self.into())
            }

            /// The arguments by name, in declaration order.
            pub fn args(&self) -> Vec<(&'static str, $crate::message::ArgValue<'_>)> {
                match *self {
                    $( Self::$variant { $(ref $field),* } => vec![
                        $( (stringify!($field), $crate::message::Arg::value($field)) ),*
                    ] ),*
                }
            }

            pub fn put(&self, lang: $crate::lang::Lang, out: &mut dyn ::std::fmt::Write) -> ::std::fmt::Result {
                match *self {
                    $( Self::$variant { $(ref $field),* } => {
                        $( let $field = $crate::message::In($field, lang); )*
                        match lang {
                            $crate::lang::Lang::En => $crate::message_text!(out, $en),
                            $crate::lang::Lang::Zh => $crate::message_text!(out, $zh),
                        }
                    } ),*
                }
            }

            /// One message of each variant, its arguments made from their names
            /// ([`$crate::message::Arg::sample`]), for the tests that check every message.
            pub fn samples() -> Vec<Self> {
                vec![$( Self::$variant { $( $field: <$ty as $crate::message::Arg>::sample(stringify!($field)) ),* } ),*]
            }
        }
    };
}

/// A message's text in one language: a format string, or a block that returns a `String`.
#[doc(hidden)]
#[macro_export]
macro_rules! message_text {
    ($out:ident, $text:literal) => {
        write!($out, $text)
    };
    ($out:ident, $text:block) => {
        $out.write_str(&$text)
    };
}

/// An argument as it is written into the JSON report: a string, a number, an object reference, a
/// message or a list of them.
#[derive(Debug)]
pub enum ArgValue<'a> {
    Str(&'a str),
    Num(i64),
    Bool(bool),
    Object(&'a ObjectRef),
    Message(&'a Message),
    List(Vec<ArgValue<'a>>),
    None,
}

impl Serialize for ArgValue<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            ArgValue::Str(v) => s.serialize_str(v),
            ArgValue::Num(v) => s.serialize_i64(*v),
            ArgValue::Bool(v) => s.serialize_bool(*v),
            ArgValue::Object(v) => v.serialize(s),
            ArgValue::Message(v) => v.serialize(s),
            ArgValue::List(v) => v.serialize(s),
            ArgValue::None => s.serialize_none(),
        }
    }
}

/// A message's argument: how it is written in a language, and in the JSON report.
pub trait Arg {
    fn put(&self, lang: Lang, out: &mut dyn fmt::Write) -> fmt::Result;
    fn value(&self) -> ArgValue<'_>;
    /// A value made from the argument's name, recognisable in a rendering (the message tests).
    fn sample(name: &'static str) -> Self
    where
        Self: Sized;
}

/// An argument bound for a text: displays in the text's language. `.0` is the value.
pub struct In<'a, T: ?Sized>(pub &'a T, pub Lang);

impl<T: Arg + ?Sized> fmt::Display for In<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.put(self.1, f)
    }
}

impl<T: ?Sized> In<'_, T> {
    /// The text's language.
    pub fn lang(&self) -> Lang {
        self.1
    }
}

/// The sentinel a sample string argument carries (`⟦name"\⟧`). It holds a `"` and a `\`, the
/// characters a Debug format (`{x:?}`) would escape, so a text that quotes an argument with one
/// shows the sentinel escaped and the message tests fail: Kubernetes' words are quoted as they are.
pub fn sample_text(name: &str) -> String {
    format!("⟦{name}\"\\⟧")
}

impl Arg for String {
    fn put(&self, _: Lang, out: &mut dyn fmt::Write) -> fmt::Result {
        out.write_str(self)
    }
    fn value(&self) -> ArgValue<'_> {
        ArgValue::Str(self)
    }
    fn sample(name: &'static str) -> Self {
        sample_text(name)
    }
}

impl Arg for Text {
    fn put(&self, _: Lang, out: &mut dyn fmt::Write) -> fmt::Result {
        out.write_str(self)
    }
    fn value(&self) -> ArgValue<'_> {
        ArgValue::Str(self)
    }
    fn sample(name: &'static str) -> Self {
        sample_text(name).as_str().into()
    }
}

impl Arg for &'static str {
    fn put(&self, _: Lang, out: &mut dyn fmt::Write) -> fmt::Result {
        out.write_str(self)
    }
    fn value(&self) -> ArgValue<'_> {
        ArgValue::Str(self)
    }
    fn sample(name: &'static str) -> Self {
        // Leaked once per name in the tests only (samples are never made by an analysis).
        Box::leak(sample_text(name).into_boxed_str())
    }
}

macro_rules! number_arg {
    ($($t:ty),*) => {$(
        impl Arg for $t {
            fn put(&self, _: Lang, out: &mut dyn fmt::Write) -> fmt::Result {
                write!(out, "{self}")
            }
            fn value(&self) -> ArgValue<'_> {
                ArgValue::Num(i64::try_from(*self).unwrap_or(i64::MAX))
            }
            fn sample(name: &'static str) -> Self {
                // 2..=9 from the name: never 1, so an English plural is exercised.
                (name.len() % 8 + 2) as $t
            }
        }
    )*};
}
number_arg!(u8, u16, u32, u64, usize, i32, i64);

impl Arg for bool {
    fn put(&self, _: Lang, out: &mut dyn fmt::Write) -> fmt::Result {
        write!(out, "{self}")
    }
    fn value(&self) -> ArgValue<'_> {
        ArgValue::Bool(*self)
    }
    fn sample(_: &'static str) -> Self {
        true
    }
}

impl Arg for ObjectRef {
    fn put(&self, lang: Lang, out: &mut dyn fmt::Write) -> fmt::Result {
        match lang {
            Lang::En => write!(out, "{self}"),
            Lang::Zh if self.name.is_empty() => match &self.namespace {
                Some(ns) => write!(out, "命名空间 {ns} 中一个名称不详的 {}", self.kind),
                None => write!(out, "一个名称不详的 {}", self.kind),
            },
            Lang::Zh => write!(out, "{self}"),
        }
    }
    fn value(&self) -> ArgValue<'_> {
        ArgValue::Object(self)
    }
    fn sample(name: &'static str) -> Self {
        ObjectRef {
            kind: "Pod".into(),
            namespace: Some("shop".into()),
            name: sample_text(name).as_str().into(),
            uid: None,
        }
    }
}

impl Arg for Message {
    fn put(&self, lang: Lang, out: &mut dyn fmt::Write) -> fmt::Result {
        Message::put(self, lang, out)
    }
    fn value(&self) -> ArgValue<'_> {
        ArgValue::Message(self)
    }
    fn sample(name: &'static str) -> Self {
        Message::Common(common::Msg::Sample {
            name: sample_text(name),
        })
    }
}

impl Arg for Box<Message> {
    fn put(&self, lang: Lang, out: &mut dyn fmt::Write) -> fmt::Result {
        Message::put(self, lang, out)
    }
    fn value(&self) -> ArgValue<'_> {
        ArgValue::Message(self)
    }
    fn sample(name: &'static str) -> Self {
        Box::new(Message::sample(name))
    }
}

/// An optional argument writes nothing when absent: a text that says something about it is a
/// block that looks at `.0`.
impl<T: Arg> Arg for Option<T> {
    fn put(&self, lang: Lang, out: &mut dyn fmt::Write) -> fmt::Result {
        match self {
            Some(v) => v.put(lang, out),
            None => Ok(()),
        }
    }
    fn value(&self) -> ArgValue<'_> {
        self.as_ref().map_or(ArgValue::None, Arg::value)
    }
    fn sample(name: &'static str) -> Self {
        Some(T::sample(name))
    }
}

/// A list: messages joined as clauses (`; `, `；`), other values as a list (`, `, `、`).
impl<T: Arg + ListItem> Arg for Vec<T> {
    fn put(&self, lang: Lang, out: &mut dyn fmt::Write) -> fmt::Result {
        let sep = T::separator(lang);
        for (i, v) in self.iter().enumerate() {
            if i > 0 {
                out.write_str(sep)?;
            }
            v.put(lang, out)?;
        }
        Ok(())
    }
    fn value(&self) -> ArgValue<'_> {
        ArgValue::List(self.iter().map(Arg::value).collect())
    }
    fn sample(name: &'static str) -> Self {
        vec![T::sample(name)]
    }
}

/// How a list of an argument type is joined.
pub trait ListItem {
    fn separator(lang: Lang) -> &'static str;
}

impl ListItem for Message {
    fn separator(lang: Lang) -> &'static str {
        match lang {
            Lang::En => "; ",
            Lang::Zh => "；",
        }
    }
}

macro_rules! listed_as_words {
    ($($t:ty),*) => {$(
        impl ListItem for $t {
            fn separator(lang: Lang) -> &'static str {
                match lang {
                    Lang::En => ", ",
                    Lang::Zh => "、",
                }
            }
        }
    )*};
}
listed_as_words!(String, Text, &'static str, ObjectRef, u32, usize);

/// Lists every group of messages: the top-level [`Message`] has one variant per group.
macro_rules! message_groups {
    ($($(#[$meta:meta])* $group:ident => $path:path),* $(,)?) => {
        /// A sentence of the report: an id and typed arguments, rendered in a language by
        /// [`Message::render`]. Serialises as `{"id": "...", "args": {...}}`.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub enum Message {
            $( $(#[$meta])* $group($path), )*
        }

        impl Message {
            /// The stable id (`image-pull-failed.events-only`).
            pub fn id(&self) -> &'static str {
                match self {
                    $( Message::$group(m) => m.id(), )*
                }
            }

            pub fn args(&self) -> Vec<(&'static str, ArgValue<'_>)> {
                match self {
                    $( Message::$group(m) => m.args(), )*
                }
            }

            /// Writes the message in `lang`.
            pub fn put(&self, lang: Lang, out: &mut dyn fmt::Write) -> fmt::Result {
                match self {
                    $( Message::$group(m) => m.put(lang, out), )*
                }
            }

            /// One message of every variant of every group (the tests).
            pub fn samples() -> Vec<Message> {
                let mut all = Vec::new();
                $( all.extend(<$path>::samples().into_iter().map(Message::$group)); )*
                all
            }

            /// Every id, by group.
            pub fn ids() -> Vec<&'static str> {
                let mut all = Vec::new();
                $( all.extend_from_slice(<$path>::IDS); )*
                all
            }
        }

        $( impl From<$path> for Message {
            fn from(m: $path) -> Self {
                Message::$group(m)
            }
        } )*
    };
}

message_groups! {
    Common => common::Msg,
    Changes => crate::changes::Msg,
    Render => crate::render::Msg,
    Reading => reading::Msg,
    Timeline => timeline::Msg,
    ContainerCrashLooping => crate::rules::application::container_crash_looping::Msg,
    ContainerInitOomKilled => crate::rules::application::container_init_oom_killed::Msg,
    ContainerOomKilled => crate::rules::application::container_oom_killed::Msg,
    EnvHostNotAService => crate::rules::application::env_host_not_a_service::Msg,
    HttpServerErrors => crate::rules::application::http_server_errors::Msg,
    JobFailed => crate::rules::application::job_failed::Msg,
    LogEvidence => crate::rules::log_evidence::Msg,
    LivenessProbeFailing => crate::rules::application::liveness_probe_failing::Msg,
    ProbePortNotDeclared => crate::rules::application::probe_port_not_declared::Msg,
    ReadinessProbeMissing => crate::rules::application::readiness_probe_missing::Msg,
    RuntimeMemory => crate::rules::application::runtime_memory::Msg,
    RuntimeMemoryOverLimit => crate::rules::application::runtime_memory_over_limit::Msg,
    StartupProbeFailing => crate::rules::application::startup_probe_failing::Msg,
    ApiserverRequestFailed => crate::rules::control_plane::apiserver_request_failed::Msg,
    ControlPlaneComponents => crate::rules::control_plane::components::Msg,
    ControlPlaneComponentFailing => crate::rules::control_plane::control_plane_component_failing::Msg,
    MetricsApiUnavailable => crate::rules::control_plane::metrics_api_unavailable::Msg,
    SchedulerNotRunning => crate::rules::control_plane::scheduler_not_running::Msg,
    EtcdMemberFailing => crate::rules::etcd::etcd_member_failing::Msg,
    EtcdRequestFailed => crate::rules::etcd::etcd_request_failed::Msg,
    ContainerConfigInvalid => crate::rules::node_runtime::container_config_invalid::Msg,
    ContainerStartFailed => crate::rules::node_runtime::container_start_failed::Msg,
    ImagePullFailed => crate::rules::node_runtime::image_pull_failed::Msg,
    NodeNotReady => crate::rules::node_runtime::node_not_ready::Msg,
    NodeUnderPressure => crate::rules::node_runtime::node_under_pressure::Msg,
    PodEvicted => crate::rules::node_runtime::pod_evicted::Msg,
    ReferencedObjectMissing => crate::rules::node_runtime::referenced_object_missing::Msg,
    AdmissionDeniedOnCreate => crate::rules::quota_admission::admission_denied_on_create::Msg,
    AdmissionWebhookUnreachable => crate::rules::quota_admission::admission_webhook_unreachable::Msg,
    AuthorizationDenied => crate::rules::quota_admission::authorization_denied::Msg,
    QuotaExceededOnCreate => crate::rules::quota_admission::quota_exceeded_on_create::Msg,
    Rejections => crate::rules::quota_admission::rejections::Msg,
    ReplicaCreationFailed => crate::rules::quota_admission::replica_creation_failed::Msg,
    ResourceQuotaExhausted => crate::rules::quota_admission::resource_quota_exhausted::Msg,
    IngressNotAdmitted => crate::rules::readiness_endpoints::ingress_not_admitted::Msg,
    ProxyFoundNoEndpoints => crate::rules::readiness_endpoints::proxy_found_no_endpoints::Msg,
    ServiceProxyRefused => crate::rules::readiness_endpoints::service_proxy_refused::Msg,
    ServiceProxyUnreachable => crate::rules::zone_network_storage::service_proxy_unreachable::Msg,
    ReadinessProbeFailing => crate::rules::readiness_endpoints::readiness_probe_failing::Msg,
    RolloutNotProgressing => crate::rules::readiness_endpoints::rollout_not_progressing::Msg,
    ServiceEndpointsNotServing => crate::rules::readiness_endpoints::service_endpoints_not_serving::Msg,
    ServiceTargetPortMismatch => crate::rules::readiness_endpoints::service_target_port_mismatch::Msg,
    SchedulingHistogram => crate::rules::scheduling::histogram::Msg,
    PodUnschedulable => crate::rules::scheduling::pod_unschedulable::Msg,
    NodePodCapacityReached => crate::rules::scheduling::node_pod_capacity_reached::Msg,
    ClusterComponentFailing => crate::rules::zone_network_storage::cluster_component_failing::Msg,
    DnsPolicyBypassesClusterDns => crate::rules::zone_network_storage::dns_policy_bypasses_cluster_dns::Msg,
    NodeNetworkUnavailable => crate::rules::zone_network_storage::node_network_unavailable::Msg,
    PodSandboxFailed => crate::rules::zone_network_storage::pod_sandbox_failed::Msg,
    PvcPending => crate::rules::zone_network_storage::pvc_pending::Msg,
    ReplicasInOneZone => crate::rules::zone_network_storage::replicas_in_one_zone::Msg,
    VolumeMountFailed => crate::rules::zone_network_storage::volume_mount_failed::Msg,
    VolumeReclaimFailed => crate::rules::zone_network_storage::volume_reclaim_failed::Msg,
}

impl Message {
    /// The message in `lang`.
    pub fn render(&self, lang: Lang) -> String {
        let mut out = String::new();
        let _ = self.put(lang, &mut out);
        out
    }

    fn sample(name: &'static str) -> Message {
        <Message as Arg>::sample(name)
    }
}

impl Serialize for Message {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        struct Args<'a>(Vec<(&'static str, ArgValue<'a>)>);
        impl Serialize for Args<'_> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let mut map = s.serialize_map(Some(self.0.len()))?;
                for (k, v) in &self.0 {
                    map.serialize_entry(k, v)?;
                }
                map.end()
            }
        }
        let mut map = s.serialize_map(Some(2))?;
        map.serialize_entry("id", self.id())?;
        map.serialize_entry("args", &Args(self.args()))?;
        map.end()
    }
}

impl fmt::Display for Message {
    /// The English text (logs, test failures); a report's texts are rendered in its language.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.put(Lang::En, f)
    }
}

#[cfg(test)]
mod tests;
