//! A runtime's own memory settings ([`faultline_model::signals::runtime_memory`]) read against the
//! container's memory limit, in words: `container-oom-killed` puts the comparison at the core of its
//! finding, and `runtime-memory-over-limit` warns of a setting above the limit before the kernel kills
//! anything.

pub use faultline_model::signals::runtime_memory::{
    human, quantity_bytes, settings, Runtime, Setting, Standing,
};
use faultline_report::lang::Lang;
use faultline_report::message::Message;

/// The runtime's heap or limit a setting sizes, in words.
pub fn what(setting: &Setting) -> Box<Message> {
    match setting.runtime {
        Runtime::JvmHeap | Runtime::JvmPercentage => Msg::JvmHeap {},
        Runtime::NodeOldSpace => Msg::NodeHeap {},
        Runtime::GoLimit => Msg::GoLimit {},
    }
    .into_box()
}

faultline_report::messages! {
    /// The runtimes' names, in the sentences that compare their settings with a limit.
    pub enum Msg {
        JvmHeap {} = "runtime-memory.jvm-heap" {
            en: "the JVM heap",
            zh: "JVM 堆",
        },
        NodeHeap {} = "runtime-memory.node-heap" {
            en: "the Node.js (V8) heap",
            zh: "Node.js（V8）堆",
        },
        GoLimit {} = "runtime-memory.go-limit" {
            en: "the Go runtime's soft memory limit",
            zh: "Go 运行时的软内存上限",
        },
        /// A setting at or above the container's memory limit.
        OverLimit { setting: String, what: Box<Message>, size: String, limit: String } = "runtime-memory.over-limit" {
            en: { format!("{} lets {} grow to {}, as much as or more than the container's whole memory limit ({}): the runtime does not hold back before the kernel's OOM killer stops it", setting.0, what.0.render(Lang::En), size.0, limit.0) },
            zh: { format!("{} 允许 {}增长到 {}，不低于整个容器的内存限制（{}）：运行时在被内核的 OOM killer 杀死之前不会收敛", setting.0, what.0.render(Lang::Zh), size.0, limit.0) },
        },
        /// A heap setting above three quarters of the limit.
        NearLimit { setting: String, what: Box<Message>, size: String, limit: String } = "runtime-memory.near-limit" {
            en: { format!("{} lets {} grow to {}, over three quarters of the container's memory limit ({}), leaving little for the rest of the process", setting.0, what.0.render(Lang::En), size.0, limit.0) },
            zh: { format!("{} 允许 {}增长到 {}，超过了容器内存限制（{}）的四分之三，留给进程其余部分的内存所剩无几", setting.0, what.0.render(Lang::Zh), size.0, limit.0) },
        },
        /// A setting with no limit to compare it with.
        OnTop { setting: String, what: Box<Message> } = "runtime-memory.on-top" {
            en: { format!("{} lets {} grow on top of the rest of the process", setting.0, what.0.render(Lang::En)) },
            zh: { format!("{} 允许 {}增长，进程其余部分的内存还要另算", setting.0, what.0.render(Lang::Zh)) },
        },
    }
}

/// The clause comparing the first setting that matters with the limit (over first, then near).
pub fn clause(settings: &[Setting], limit: Option<(&str, u64)>) -> Option<Message> {
    let Some((limit_text, limit)) = limit else {
        let s = settings.iter().find(|s| s.is_absolute())?;
        return Some(
            Msg::OnTop {
                setting: s.text.clone(),
                what: what(s),
            }
            .into(),
        );
    };
    for standing in [Standing::Over, Standing::Near] {
        if let Some(s) = settings.iter().find(|s| s.against(limit) == standing) {
            let (setting, what, size, limit) = (
                s.text.clone(),
                what(s),
                human(s.bytes(limit)),
                limit_text.to_string(),
            );
            return Some(
                match standing {
                    Standing::Over => Msg::OverLimit {
                        setting,
                        what,
                        size,
                        limit,
                    },
                    _ => Msg::NearLimit {
                        setting,
                        what,
                        size,
                        limit,
                    },
                }
                .into(),
            );
        }
    }
    None
}
