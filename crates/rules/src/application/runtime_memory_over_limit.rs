use crate::application::runtime_memory::{self, Standing};
use crate::pod_spec::pod_specs;
use faultline_model::signals::runtime_memory::memory_limit;
use faultline_model::views::container_exit::oom_killed_by_status;
use faultline_model::Model;
use faultline_report::{Boundary, Finding, ObjectRef, Severity, Text};

crate::declare_rule! {
    /// ## What it finds
    /// A container whose runtime is allowed more memory than the container itself: the JVM's `-Xmx`
    /// or `-XX:MaxRAMPercentage`, Node.js's `--max-old-space-size` (in `args`, `command` or
    /// `NODE_OPTIONS`) or Go's `GOMEMLIMIT` at or above `resources.limits.memory`, before any
    /// `OOMKilled` (a container already killed so is `container-oom-killed`'s, which says the same).
    ///
    /// ## Why it matters
    /// A runtime collects garbage against its own ceiling, not the container's: with the ceiling above
    /// the limit the heap can grow until the kernel's OOM killer stops the process (exit 137), under
    /// load, long after the rollout looked healthy.
    ///
    /// ## Evidence
    /// The setting's field (`args[i]`, `command[i]`, `env[i].value`) and `resources.limits.memory`, by
    /// their lines, in a Pod.
    ///
    /// ## Fault boundary
    /// `application`: the container's own configuration sets two memory ceilings that disagree.
    ///
    /// ## What this evidence cannot establish
    /// How much memory the process uses now; whether the heap ever reaches its ceiling under this
    /// workload; settings the image sets itself (an entrypoint script, a `JAVA_TOOL_OPTIONS` baked in).
    ///
    /// ## Next evidence to collect
    /// `kubectl top pod --containers` over time, the container's restarts and last state, and the
    /// runtime's effective settings (`java -XshowSettings:vm`, `node -p 'v8.getHeapStatistics()'`).
    ///
    /// ## Example
    /// ```yaml
    /// args: ["--max-old-space-size=1024", "server.js"]
    /// resources:
    ///   limits:
    ///     memory: 384Mi
    /// ```
    pub const RULE = { id: "runtime-memory-over-limit", boundary: Boundary::Application, components: [Containers], check: check };
}

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    for spec in pod_specs(model) {
        let object = spec.object;
        for container in spec.containers() {
            // Read from the container's node (what `locate` of its path finds); the path is made
            // only for a finding's evidence.
            let Some(limit) = memory_limit(container.node) else {
                continue;
            };
            let Some(limit_bytes) = runtime_memory::quantity_bytes(limit) else {
                continue;
            };
            if oom_killed_by_status(object, container.name) {
                continue;
            }
            let settings = runtime_memory::settings(container.node, &container.path);
            let Some(over) = settings.iter().find(|s| s.against(limit_bytes) == Standing::Over) else {
                continue;
            };
            let id = &object.id;
            let ns = spec.command_namespace();
            let limit_path = format!("{}.resources.limits.memory", container.path);
            let evidence = [&over.path, &limit_path]
                .iter()
                .filter_map(|p| model.evidence(object, p))
                .collect();
            let summary = Msg::OverLimit {
                subject: id.clone(),
                container: container.name.into(),
                clause: runtime_memory::clause(std::slice::from_ref(over), Some((limit, limit_bytes)))
                    .map(Box::new)
                    .unwrap_or_else(|| runtime_memory::what(over)),
            };
            let next_steps = if id.kind == "Pod" {
                vec![
                    command!("kubectl top pod {} -n {} --containers", id.name, ns),
                    command!(
                        "kubectl get pod {} -n {} -o jsonpath='{{.status.containerStatuses}}'",
                        id.name,
                        ns
                    ),
                ]
            } else {
                vec![command!("kubectl get pods -n {} -o wide", ns)]
            };
            let cannot = [Msg::UseNow {}, Msg::ImageSettings {}];
            findings.push(RULE.finding(
                Severity::Warning,
                id.clone(),
                summary,
                evidence,
                cannot,
                next_steps,
            ));
        }
    }
}

faultline_report::messages! {
    /// The words of `runtime-memory-over-limit`.
    pub enum Msg {
        OverLimit { subject: ObjectRef, container: Text, clause: Box<faultline_report::message::Message> } = "runtime-memory-over-limit.over-limit" {
            en: "{subject}: in container {container}, {clause}. It has not been OOMKilled in what was pasted.",
            zh: "{subject}：容器 {container} 中，{clause}。在粘贴的内容中它还没有被 OOMKilled。",
        },
        UseNow {} = "runtime-memory-over-limit.use-now" {
            en: "How much memory the process uses now, and whether its heap ever reaches the ceiling under this workload.",
            zh: "进程现在用了多少内存，以及在这种负载下堆是否真会增长到上限。",
        },
        ImageSettings {} = "runtime-memory-over-limit.image-settings" {
            en: "Memory settings the image sets itself (an entrypoint script, options baked into the image) are not in the spec.",
            zh: "镜像自己设置的内存参数（入口脚本、镜像内置的选项）不在 spec 中。",
        },
    }
}
