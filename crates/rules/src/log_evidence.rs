//! Container logs as evidence on the application findings (`container-crash-looping`, `job-failed`,
//! and any rule that wants them): the log's terminal error cited by its line, what kind of error it
//! is, the dependency it names (and the Service of that name, when the input has one), and what a
//! log line cannot establish. The logs are read in `ingest::logs`, their errors by the table in
//! `ingest::log_errors`.

use faultline_ingest::log_errors::{Cause, DepKind, Form, Terminal};
use faultline_ingest::logs::{LogBlock, LogOrigin};
use faultline_model::Model;
use faultline_report::message::Message;
use faultline_report::{Evidence, ObjectRef, Text};

/// What a log adds to a finding.
pub struct LogEvidence {
    pub evidence: Vec<Evidence>,
    /// A clause for the summary: what the log ends with.
    pub said: Message,
    /// What the log cannot establish.
    pub cannot: Vec<Message>,
    /// A command for the dependency it names (its Service and endpoints).
    pub next: Option<String>,
    /// Whether the log names a terminal error (not only a last line).
    pub terminal: bool,
}

/// The log of a Pod's container (`first`: it is the Pod's first container, the one kubectl picks).
pub fn for_container(
    model: &Model<'_>,
    pod: &ObjectRef,
    container: &str,
    first: bool,
) -> Option<LogEvidence> {
    let blocks = model.logs_for(pod, container, first);
    let (block, inferred) = best(blocks)?;
    Some(build(
        model,
        block,
        inferred.then_some(pod),
        pod.namespace.as_deref(),
    ))
}

/// The log of a Job's Pods.
pub fn for_job(model: &Model<'_>, job: &ObjectRef) -> Option<LogEvidence> {
    let blocks = model.logs_for_job(job).into_iter().map(|b| (b, false)).collect();
    let (block, _) = best(blocks)?;
    Some(build(model, block, None, job.namespace.as_deref()))
}

/// A block with a terminal error first, `--previous` first among those, the last pasted first.
fn best(blocks: Vec<(&LogBlock, bool)>) -> Option<(&LogBlock, bool)> {
    blocks
        .into_iter()
        .rev()
        .max_by_key(|(b, _)| (b.terminal.is_some(), b.previous))
}

fn label(block: &LogBlock) -> String {
    if let Some(command) = &block.command {
        return command.clone();
    }
    let container = block
        .container
        .as_deref()
        .map(|c| format!(" container {c}"))
        .unwrap_or_default();
    match (&block.name, block.origin) {
        (Some(name), _) => format!("log of {}/{name}{container}", block.kind.to_ascii_lowercase()),
        (None, LogOrigin::Shape) => "log (recognised by its shape)".to_string(),
        (None, _) => "log".to_string(),
    }
}

fn build(
    model: &Model<'_>,
    block: &LogBlock,
    inferred: Option<&ObjectRef>,
    namespace: Option<&str>,
) -> LogEvidence {
    let source = model.source_name(block.source);
    let at = label(block);
    let mut evidence = Vec::new();
    let mut cannot: Vec<Message> = vec![Msg::WhatItSaid {}.into()];
    let mut next = None;
    let said = match &block.terminal {
        Some(t) => {
            if let Some((line, text)) = &t.context {
                if *line < t.line.0 {
                    evidence.push(Evidence {
                        source: source.clone(),
                        line: *line,
                        path: format!("{at}: {}", context_name(t)),
                        value: text.clone(),
                    });
                }
            }
            evidence.push(Evidence {
                source: source.clone(),
                line: t.line.0,
                path: format!("{at}: terminal error"),
                value: t.line.1.clone(),
            });
            if let Some((line, text)) = &t.context {
                if *line > t.line.0 {
                    evidence.push(Evidence {
                        source: source.clone(),
                        line: *line,
                        path: format!("{at}: {}", context_name(t)),
                        value: text.clone(),
                    });
                }
            }
            let service = t
                .dependency
                .as_ref()
                .and_then(|(kind, name)| service_named(model, *kind, name, namespace));
            if let Some(service) = service {
                evidence.extend(model.evidence(service, "metadata.name"));
                let ns = service
                    .id
                    .namespace
                    .as_deref()
                    .unwrap_or(crate::UNKNOWN_NAMESPACE);
                next = Some(command!(
                    "kubectl get endpointslices -n {} -l kubernetes.io/service-name={}",
                    ns,
                    service.id.name
                ));
            }
            if matches!(
                t.cause,
                Some(Cause::ConnectionRefused | Cause::Timeout | Cause::DbUnreachable | Cause::Dns)
            ) {
                cannot.push(
                    Msg::RefusalAmbiguous {
                        dependency: t.dependency.as_ref().map(|(_, n)| n.as_str().into()),
                    }
                    .into(),
                );
            }
            Msg::EndsWith {
                kind: classify(t).into_box(),
                line: t.line.1.clone(),
                dependency: t.dependency.as_ref().map(|(kind, name)| {
                    Msg::Names {
                        what: dep_kind(*kind).into_box(),
                        name: name.as_str().into(),
                    }
                    .into_box()
                }),
                service: service.map(|s| s.id.clone()),
            }
        }
        None => {
            let last = block.last.as_ref();
            if let Some(last) = last {
                evidence.push(Evidence {
                    source: source.clone(),
                    line: last.line,
                    path: format!("{at}: last line"),
                    value: last.text.clone(),
                });
            }
            cannot.push(Msg::NoTerminalError {}.into());
            Msg::LastLine {
                line: last.map(|l| l.text.clone()).unwrap_or_default(),
            }
        }
    };
    if !block.previous && block.origin == LogOrigin::Command && block.kind == "Pod" {
        cannot.push(Msg::NotPrevious {}.into());
    }
    if let Some(pod) = inferred {
        cannot.push(Msg::InferredPod { subject: pod.clone() }.into());
    }
    LogEvidence {
        evidence,
        said: said.into(),
        cannot,
        next,
        terminal: block.terminal.is_some(),
    }
}

fn context_name(t: &Terminal) -> &'static str {
    match t.form {
        Some(Form::GoPanic) => "first frame",
        Some(Form::JavaException) => "top of the exception chain",
        Some(Form::RustPanic) => "panic message",
        _ => "context",
    }
}

/// The Service a dependency names, when the input has it: `db:3306`, `db.shop`, `db.shop.svc.cluster.local`.
fn service_named<'a>(
    model: &Model<'a>,
    kind: DepKind,
    name: &str,
    namespace: Option<&str>,
) -> Option<&'a faultline_ingest::Object> {
    if !matches!(kind, DepKind::Address | DepKind::Host) {
        return None;
    }
    let host = match name.rsplit_once(':') {
        Some((host, port)) if port.bytes().all(|b| b.is_ascii_digit()) => host,
        _ => name,
    };
    if host.is_empty() || host.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return None;
    }
    let mut labels = host.split('.');
    let service = labels.next()?;
    let ns = labels.next().filter(|n| *n != "svc").or(namespace);
    let id = ObjectRef {
        kind: "Service".into(),
        namespace: ns.map(Into::into),
        name: service.into(),
        uid: None,
    };
    model.object(&id)
}

fn classify(t: &Terminal) -> Msg {
    let form = t.form.map(|f| {
        match f {
            Form::GoPanic => Msg::FormGoPanic {},
            Form::PythonTraceback => Msg::FormPython {},
            Form::JavaException => Msg::FormJava {},
            Form::NodeUncaught => Msg::FormNode {},
            Form::RustPanic => Msg::FormRust {},
        }
        .into_box()
    });
    let cause = t.cause.map(|c| {
        match c {
            Cause::DbAuth => Msg::CauseDbAuth {},
            Cause::DbUnreachable => Msg::CauseDbUnreachable {},
            Cause::Tls => Msg::CauseTls {},
            Cause::Dns => Msg::CauseDns {},
            Cause::AddressInUse => Msg::CauseAddressInUse {},
            Cause::ConnectionRefused => Msg::CauseConnectionRefused {},
            Cause::Timeout => Msg::CauseTimeout {},
            Cause::ExecFormat => Msg::CauseExecFormat {},
            Cause::OutOfMemory => Msg::CauseOutOfMemory {},
            Cause::MissingKey => Msg::CauseMissingKey {},
            Cause::MissingFile => Msg::CauseMissingFile {},
            Cause::PermissionDenied => Msg::CausePermissionDenied {},
        }
        .into_box()
    });
    Msg::Kind { form, cause }
}

fn dep_kind(kind: DepKind) -> Msg {
    match kind {
        DepKind::Address => Msg::DepAddress {},
        DepKind::Host => Msg::DepHost {},
        DepKind::User => Msg::DepUser {},
        DepKind::Key => Msg::DepKey {},
        DepKind::Path => Msg::DepPath {},
    }
}

faultline_report::messages! {
    /// The words of container logs as evidence.
    pub enum Msg {
        /// The summary's clause: the log's terminal error, what kind it is, what it names.
        EndsWith { kind: Box<Message>, line: String, dependency: Option<Box<Message>>, service: Option<ObjectRef> } = "log-evidence.ends-with" {
            en: {
                let dependency = dependency.0.as_ref().map(|d| format!("; {}", d.render(faultline_report::lang::Lang::En))).unwrap_or_default();
                let service = service.0.as_ref().map(|s| format!(", and {s} is in this input")).unwrap_or_default();
                let line = line.0;
                format!("Its log ends with {kind}: \"{line}\"{dependency}{service}.")
            },
            zh: {
                let dependency = dependency.0.as_ref().map(|d| format!("；{}", d.render(faultline_report::lang::Lang::Zh))).unwrap_or_default();
                let service = service.0.as_ref().map(|s| format!("，而输入中有 {s}")).unwrap_or_default();
                let line = line.0;
                format!("它的日志最后报出的是{kind}：“{line}”{dependency}{service}。")
            },
        },
        /// A log without a recognised terminal error: its last line.
        LastLine { line: String } = "log-evidence.last-line" {
            en: { let line = line.0; format!("Its log's last line: \"{line}\".") },
            zh: { let line = line.0; format!("它的日志最后一行：“{line}”。") },
        },
        /// What kind of terminal error: the runtime's form and the cause, either or both.
        Kind { form: Option<Box<Message>>, cause: Option<Box<Message>> } = "log-evidence.kind" {
            en: {
                match (form.0, cause.0) {
                    (Some(f), Some(c)) => format!("{} — {}", f.render(faultline_report::lang::Lang::En), c.render(faultline_report::lang::Lang::En)),
                    (Some(f), None) => f.render(faultline_report::lang::Lang::En),
                    (None, Some(c)) => c.render(faultline_report::lang::Lang::En),
                    (None, None) => "an error".to_string(),
                }
            },
            zh: {
                match (form.0, cause.0) {
                    (Some(f), Some(c)) => format!("{}，具体是{}", f.render(faultline_report::lang::Lang::Zh), c.render(faultline_report::lang::Lang::Zh)),
                    (Some(f), None) => f.render(faultline_report::lang::Lang::Zh),
                    (None, Some(c)) => c.render(faultline_report::lang::Lang::Zh),
                    (None, None) => "一个错误".to_string(),
                }
            },
        },
        FormGoPanic {} = "log-evidence.form-go-panic" { en: "a Go panic", zh: "Go 的 panic" },
        FormPython {} = "log-evidence.form-python" { en: "a Python exception (the last line of its traceback)", zh: "Python 异常（traceback 的最后一行）" },
        FormJava {} = "log-evidence.form-java" { en: "a Java exception (its deepest cause)", zh: "Java 异常（最深一层的 Caused by）" },
        FormNode {} = "log-evidence.form-node" { en: "an uncaught Node.js error", zh: "未捕获的 Node.js 错误" },
        FormRust {} = "log-evidence.form-rust" { en: "a Rust panic", zh: "Rust 的 panic" },
        CauseDbAuth {} = "log-evidence.cause-db-auth" { en: "a database refusing its credentials", zh: "数据库拒绝了它的凭据" },
        CauseDbUnreachable {} = "log-evidence.cause-db-unreachable" { en: "a database it could not connect to", zh: "无法连接数据库" },
        CauseTls {} = "log-evidence.cause-tls" { en: "a TLS certificate it does not accept (expired, or from an unknown authority)", zh: "它不接受对端的 TLS 证书（已过期，或者签发机构不受信任）" },
        CauseDns {} = "log-evidence.cause-dns" { en: "a host name that did not resolve (DNS)", zh: "主机名解析失败（DNS）" },
        CauseAddressInUse {} = "log-evidence.cause-address-in-use" { en: "an address it cannot listen on because another process holds it", zh: "它要监听的地址已被其他进程占用" },
        CauseConnectionRefused {} = "log-evidence.cause-connection-refused" { en: "a refused connection", zh: "连接被拒绝" },
        CauseTimeout {} = "log-evidence.cause-timeout" { en: "a connection that timed out", zh: "连接超时" },
        CauseExecFormat {} = "log-evidence.cause-exec-format" { en: "a binary the node cannot execute (exec format error: usually built for another CPU architecture)", zh: "节点无法执行的二进制文件（`exec format error`：通常是为另一种 CPU 架构构建的）" },
        CauseOutOfMemory {} = "log-evidence.cause-out-of-memory" { en: "its runtime running out of memory (its own heap limit, not the container's)", zh: "运行时内存耗尽（它自己的堆上限，不是容器的内存限制）" },
        CauseMissingKey {} = "log-evidence.cause-missing-key" { en: "a missing key (for os.environ, an environment variable that is not set)", zh: "缺少某个键（如果是 os.environ，就是没有设置的环境变量）" },
        CauseMissingFile {} = "log-evidence.cause-missing-file" { en: "a file or directory that does not exist", zh: "文件或目录不存在" },
        CausePermissionDenied {} = "log-evidence.cause-permission-denied" { en: "a permission denied", zh: "权限被拒绝" },
        /// The dependency the line names.
        Names { what: Box<Message>, name: Text } = "log-evidence.names" {
            en: "it names {what} {name}",
            zh: "其中提到{what} {name}",
        },
        DepAddress {} = "log-evidence.dep-address" { en: "the address", zh: "地址" },
        DepHost {} = "log-evidence.dep-host" { en: "the host", zh: "主机" },
        DepUser {} = "log-evidence.dep-user" { en: "the database user", zh: "数据库用户" },
        DepKey {} = "log-evidence.dep-key" { en: "the key", zh: "键" },
        DepPath {} = "log-evidence.dep-path" { en: "the path", zh: "路径" },
        WhatItSaid {} = "log-evidence.what-it-said" {
            en: "A log line is what the process said before it exited, not proof of why: the error it reports may itself be a consequence of something else.",
            zh: "日志行只是进程退出前自己说的话，不能证明原因：它报告的错误本身也可能是别的问题的后果。",
        },
        RefusalAmbiguous { dependency: Option<Text> } = "log-evidence.refusal-ambiguous" {
            en: {
                let dep = dependency.0.as_ref().map_or_else(|| "the dependency".to_string(), |d| d.to_string());
                format!("Whether {dep} is down, not ready yet, or the address (or name) is wrong: a refused or timed-out connection, or a name that does not resolve, does not say which.")
            },
            zh: {
                let dep = dependency.0.as_ref().map_or_else(|| "所依赖的服务".to_string(), |d| d.to_string());
                format!("{dep} 是宕机了、尚未就绪，还是地址（或名称）写错了：连接被拒绝、超时或者名称无法解析，都分辨不出是哪一种。")
            },
        },
        NoTerminalError {} = "log-evidence.no-terminal-error" {
            en: "The log does not end with an error the engine recognises: why the process exited is not in these lines.",
            zh: "日志的结尾没有可识别的错误：这些行里看不出进程为什么退出。",
        },
        NotPrevious {} = "log-evidence.not-previous" {
            en: "These logs were not taken with --previous: they may be of the run that started after the crash, not of the run that crashed.",
            zh: "这些日志不是用 --previous 取得的：它们可能属于崩溃后重新启动的那次运行，而不是崩溃的那次。",
        },
        InferredPod { subject: ObjectRef } = "log-evidence.inferred-pod" {
            en: "The log does not name its Pod: it is taken as {subject}'s because that is the only Pod in the input.",
            zh: "日志没有注明所属的 Pod：因为输入中只有 {subject} 这一个 Pod，才把它当作这个 Pod 的日志。",
        },
    }
}
