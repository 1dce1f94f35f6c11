use crate::ingest::Typed;
use crate::lang::Lang;
use crate::message::Message;
use crate::model::Model;
use crate::report::{Boundary, Evidence, Finding, ObjectRef, Severity, Text};
use crate::rules::containers::containers;

crate::declare_rule! {
    /// ## What it finds
    /// A container killed by the kernel's out-of-memory killer inside its own memory limit: its
    /// current or last termination has reason `OOMKilled` (exit code 137). The container's memory
    /// limit and request are cited, and so are JVM heap settings (`-Xmx`) found in its arguments or
    /// environment, because a heap sized near the limit leaves no room for the rest of the process.
    ///
    /// ## Why it matters
    /// The application used more memory than its container allows; restarts will repeat it. It is
    /// not a node failure: a node under memory pressure evicts Pods (`Evicted`) instead.
    ///
    /// ## Evidence
    /// The termination reason and exit code, the restart count, `resources.limits.memory` and
    /// `requests.memory` from the spec, `-Xmx` in `args`, `command` or `env`, and the Pod's events.
    ///
    /// ## Fault boundary
    /// `application`: the process's memory use against the limit its own Pod spec sets.
    ///
    /// ## What this evidence cannot establish
    /// Whether the memory use is a leak, a load spike or simply a limit too small for normal work;
    /// which part of the process used it (heap, off-heap, page cache); whether the node was also short.
    ///
    /// ## Next evidence to collect
    /// The previous container's logs (`kubectl logs --previous`), memory metrics over time
    /// (`kubectl top pod --containers`), and the limit and heap settings side by side.
    ///
    /// ## Example
    /// ```yaml
    /// lastState:
    ///   terminated:
    ///     exitCode: 137
    ///     reason: OOMKilled
    /// ```
    pub const RULE = { id: "container-oom-killed", boundary: Boundary::Application, components: [Containers], docs_zh: DOCS_ZH, check: check };
}

/// [`crate::rules::Rule::docs_zh`]: this rule's documentation in Chinese, each line after one space as in
/// the doc comment, with the English example unchanged.
const DOCS_ZH: &str = r#"
 ## 检测内容
 容器在自身内存限制之内被内核的 OOM killer 杀死：它当前或上一次终止的原因是 `OOMKilled`（退出码 137）。规则会引用容器的内存限制和请求，以及在其参数或环境变量中找到的 JVM 堆设置（`-Xmx`），因为堆大小接近限制时，进程的其余部分就没有余地了。

 ## 为什么重要
 应用使用的内存超过了容器允许的上限，重启后还会重演。这不是节点故障：处于内存压力下的节点会驱逐 Pod（`Evicted`），而不是这样。

 ## 证据
 终止原因和退出码，重启次数，spec 中的 `resources.limits.memory` 和 `requests.memory`，`args`、`command` 或 `env` 中的 `-Xmx`，以及 Pod 的事件。

 ## 故障边界
 `application`：进程的内存用量与它自己的 Pod spec 所设限制之间的关系。

 ## 这些证据无法确定的内容
 内存用量是泄漏、负载尖峰，还是限制对正常工作来说本就太小；进程的哪一部分占用了内存（堆、堆外、页缓存）；节点本身是否也内存不足。

 ## 下一步应收集的证据
 上一个容器的日志（`kubectl logs --previous`），随时间变化的内存指标（`kubectl top pod --containers`），并把内存限制与堆设置放在一起对照。

 ## 示例
 ```yaml
 lastState:
   terminated:
     exitCode: 137
     reason: OOMKilled
 ```
"#;

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    for object in model.objects {
        let Typed::Pod(pod) = &object.typed else { continue };
        for c in containers(pod) {
            let Some((key, _)) = c
                .termination()
                .filter(|(_, t)| t.reason.as_deref() == Some("OOMKilled"))
            else {
                continue;
            };
            let id = &object.id;
            let ns = id.namespace.as_deref().unwrap_or("default");
            let name = &c.status.name;
            let base = format!("{}.{key}.terminated", c.status_path);
            let mut evidence: Vec<Evidence> = Vec::new();
            for field in ["reason", "exitCode", "finishedAt"] {
                evidence.extend(model.evidence(object, &format!("{base}.{field}")));
            }
            evidence.extend(model.evidence(object, &format!("{}.restartCount", c.status_path)));
            let limit = c
                .spec
                .and_then(|s| s.resources.as_ref()?.limits.as_ref()?.get("memory"))
                .map(|q| q.0.clone());
            let mut heap = None;
            if let Some(spec) = &c.spec_path {
                evidence.extend(model.evidence(object, &format!("{spec}.resources.limits.memory")));
                evidence.extend(model.evidence(object, &format!("{spec}.resources.requests.memory")));
                // JVM heap settings, wherever the spec puts them.
                let container = c.spec;
                let args = container
                    .map(|s| {
                        s.command
                            .iter()
                            .flatten()
                            .chain(s.args.iter().flatten())
                            .cloned()
                            .collect::<Vec<_>>()
                    })
                    .unwrap_or_default();
                for (i, arg) in args.iter().enumerate() {
                    if arg.contains("-Xmx") {
                        heap = heap.or_else(|| xmx(arg));
                        let command_len = container.and_then(|s| s.command.as_ref()).map_or(0, Vec::len);
                        let path = if i < command_len {
                            format!("{spec}.command[{i}]")
                        } else {
                            format!("{spec}.args[{}]", i - command_len)
                        };
                        evidence.extend(model.evidence(object, &path));
                    }
                }
                for (i, env) in container
                    .and_then(|s| s.env.as_ref())
                    .into_iter()
                    .flatten()
                    .enumerate()
                {
                    if env.value.as_deref().is_some_and(|v| v.contains("-Xmx")) {
                        heap = heap.or_else(|| env.value.as_deref().and_then(xmx));
                        evidence.extend(model.evidence(object, &format!("{spec}.env[{i}].value")));
                    }
                }
            }
            let restarts = c.status.restart_count;
            let heap_clause = match (
                heap.as_deref().and_then(jvm_bytes),
                limit.as_deref().and_then(quantity_bytes),
                &heap,
                &limit,
            ) {
                (Some(h), Some(l), Some(heap), Some(limit)) if h >= l => Some(Msg::HeapOverLimit {
                    heap: heap.clone(),
                    limit: limit.clone(),
                }),
                (Some(h), Some(l), Some(heap), _) if h * 4 > l * 3 => {
                    Some(Msg::HeapNearLimit { heap: heap.clone() })
                }
                (_, _, Some(heap), _) => Some(Msg::HeapOnTop { heap: heap.clone() }),
                _ => None,
            };
            let summary = Msg::OomKilled {
                subject: id.clone(),
                container: (!name.is_empty()).then(|| name.as_str().into()),
                limit: limit.clone(),
                heap: heap_clause.map(|m| Box::new(m.into())),
                restarts: u32::try_from(restarts).ok().filter(|r| *r > 0),
            };
            let mut cannot_establish: Vec<Message> =
                vec![Msg::LeakOrSpike {}.into(), Msg::WhichPart {}.into()];
            if limit.is_none() {
                cannot_establish.push(Msg::NoLimit {}.into());
            }
            let next_steps = vec![
                command!("kubectl logs {} -n {} -c {} --previous", id.name, ns, name),
                command!("kubectl top pod {} -n {} --containers", id.name, ns),
                command!("kubectl get pod {} -n {} -o jsonpath='{{.spec.containers[?(@.name==\"{}\")].resources}}'", id.name, ns, crate::rules::shell::InQuotes(name)),
            ];
            findings.push(RULE.finding(
                Severity::Error,
                id.clone(),
                summary,
                evidence,
                cannot_establish,
                next_steps,
            ));
        }
    }
}

/// A JVM size (`1536m`, `2g`, `512k`, bytes) in bytes; JVM units are binary.
fn jvm_bytes(size: &str) -> Option<u64> {
    let (number, unit) = size.split_at(size.find(|c: char| !c.is_ascii_digit()).unwrap_or(size.len()));
    let n: u64 = number.parse().ok()?;
    let factor = match unit.to_ascii_lowercase().as_str() {
        "" => 1,
        "k" => 1 << 10,
        "m" => 1 << 20,
        "g" => 1 << 30,
        "t" => 1 << 40,
        _ => return None,
    };
    n.checked_mul(factor)
}

/// A Kubernetes memory quantity (`1Gi`, `512Mi`, `1G`, `100M`, bytes) in bytes.
fn quantity_bytes(quantity: &str) -> Option<u64> {
    let (number, unit) = quantity.split_at(
        quantity
            .find(|c: char| !c.is_ascii_digit() && c != '.')
            .unwrap_or(quantity.len()),
    );
    let n: f64 = number.parse().ok()?;
    let factor: f64 = match unit {
        "" => 1.0,
        "Ki" => 1024.0,
        "Mi" => 1024.0 * 1024.0,
        "Gi" => 1024.0 * 1024.0 * 1024.0,
        "Ti" => 1024.0_f64.powi(4),
        "k" => 1e3,
        "M" => 1e6,
        "G" => 1e9,
        "T" => 1e12,
        _ => return None,
    };
    Some((n * factor) as u64)
}

/// `-Xms1g -Xmx1536m` -> "1536m".
fn xmx(text: &str) -> Option<String> {
    text.split_whitespace()
        .find_map(|w| w.strip_prefix("-Xmx"))
        .filter(|v| !v.is_empty())
        .map(str::to_string)
}

crate::messages! {
    /// The words of `container-oom-killed`.
    pub enum Msg {
        /// A container killed by the OOM killer: its limit, what its JVM heap setting says, its
        /// restarts.
        OomKilled { subject: ObjectRef, container: Option<Text>, limit: Option<String>, heap: Option<Box<Message>>, restarts: Option<u32> } = "container-oom-killed.oom-killed" {
            en: {
                let container = container.0.as_ref().map_or_else(|| "its container".to_string(), |c| format!("container {c}"));
                let limit = limit.0.as_ref().map(|l| format!(" at its own limit of {l}")).unwrap_or_default();
                let heap = heap.0.as_ref().map(|h| format!("; {}", h.render(Lang::En))).unwrap_or_default();
                let restarts = match restarts.0 {
                    Some(1) => "; it has restarted 1 time".to_string(),
                    Some(n) => format!("; it has restarted {n} times"),
                    None => String::new(),
                };
                format!("{subject}: {container} was killed for running out of memory (OOMKilled, exit 137){limit}{heap}{restarts}.")
            },
            zh: {
                let container = container.0.as_ref().map_or_else(|| "它的容器".to_string(), |c| format!("容器 {c} "));
                let limit = limit.0.as_ref().map(|l| format!("，当时已用到它自己的内存限制 {l}")).unwrap_or_default();
                let heap = heap.0.as_ref().map(|h| format!("；{}", h.render(Lang::Zh))).unwrap_or_default();
                let restarts = restarts.0.map(|n| format!("；它已经重启了 {n} 次")).unwrap_or_default();
                format!("{subject}：{container}因内存耗尽被杀死（OOMKilled，退出码 137）{limit}{heap}{restarts}。")
            },
        },
        /// An `-Xmx` at or above the container's memory limit.
        HeapOverLimit { heap: String, limit: String } = "container-oom-killed.heap-over-limit" {
            en: "its JVM heap may grow to {heap} (-Xmx), more than the whole container may use ({limit}), so the heap alone can exceed the limit",
            zh: "它的 JVM 堆最大可以增长到 {heap}（-Xmx），超过了整个容器可用的内存（{limit}），单是堆就可能超出限制",
        },
        /// An `-Xmx` above three quarters of the limit.
        HeapNearLimit { heap: String } = "container-oom-killed.heap-near-limit" {
            en: "its JVM heap may grow to {heap} (-Xmx), over three quarters of the limit, leaving little for the rest of the process",
            zh: "它的 JVM 堆最大可以增长到 {heap}（-Xmx），超过了限制的四分之三，留给进程其余部分的内存所剩无几",
        },
        /// An `-Xmx` that cannot be compared with the limit (no limit, or a size not understood).
        HeapOnTop { heap: String } = "container-oom-killed.heap-on-top" {
            en: "its JVM heap may grow to {heap} (-Xmx) on top of the rest of the process",
            zh: "它的 JVM 堆最大可以增长到 {heap}（-Xmx），进程其余部分的内存还要另算",
        },
        LeakOrSpike {} = "container-oom-killed.leak-or-spike" {
            en: "Whether this is a leak, a load spike or a limit too small for normal work: one termination does not show the trend.",
            zh: "这是内存泄漏、负载尖峰，还是限制对正常工作来说本就太小：一次终止看不出趋势。",
        },
        WhichPart {} = "container-oom-killed.which-part" {
            en: "Which part of the process used the memory (heap, off-heap, native buffers, page cache).",
            zh: "进程的哪一部分占用了这些内存（堆、堆外内存、原生缓冲区、页缓存）。",
        },
        NoLimit {} = "container-oom-killed.no-limit" {
            en: "The container's memory limit is not in the input (no spec pasted, or no limit set, in which case a namespace LimitRange may have set one).",
            zh: "输入中没有容器的内存限制（没有粘贴 spec，或者根本没有设置限制；后一种情况下，命名空间的 LimitRange 可能已经设置了一个）。",
        },
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn sizes() {
        assert_eq!(super::jvm_bytes("1536m"), Some(1536 << 20));
        assert_eq!(super::quantity_bytes("1Gi"), Some(1 << 30));
        assert_eq!(super::quantity_bytes("100M"), Some(100_000_000));
        assert_eq!(super::quantity_bytes("1.5Gi"), Some(3 << 29));
        assert_eq!(super::jvm_bytes("1x"), None);
    }

    #[test]
    fn heap_setting() {
        assert_eq!(
            super::xmx("-Xms1g -Xmx1536m -XX:+UseG1GC").as_deref(),
            Some("1536m")
        );
        assert_eq!(super::xmx("-Xms1g"), None);
    }
}
