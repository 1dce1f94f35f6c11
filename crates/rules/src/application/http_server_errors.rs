use faultline_ingest::http::HttpStatus;
use faultline_ingest::segment::Command;
use faultline_model::client_output::{output_line, request_outputs};
use faultline_model::Model;
use faultline_report::lang::Lang;
use faultline_report::message::Message;
use faultline_report::{Boundary, Evidence, Finding, ObjectRef, Severity};

crate::declare_rule! {
    /// ## What it finds
    /// HTTP 5xx answers in pasted request output: `curl -i`/`-v` status lines (`HTTP/1.1 500 Internal
    /// Server Error`, `< HTTP/2 503`), `curl -w '%{http_code}'` codes, `wget`'s `ERROR 500:` and access
    /// log lines (`"GET /api HTTP/1.1" 500`) from `kubectl logs`. 502, 503 and 504 pages written by a
    /// proxy that found no backend (`no healthy upstream`, `no endpoints available for service`,
    /// `upstream connect error`) are not counted: those are about endpoints, not the application.
    ///
    /// ## Why it matters
    /// This is the fifth fact of the article's experiment 3, the business response: Pods can be
    /// Running and Ready, the Service can have endpoints, and the application can still fail its
    /// requests. A 5xx means a request reached a server that failed it.
    ///
    /// ## Evidence
    /// The status lines with their codes and the command that produced them; the answer's body when
    /// it says why. When some requests succeed later in the same output, the failure is intermittent
    /// and reported as a warning.
    ///
    /// ## Fault boundary
    /// `application`: the program answering, or a dependency it calls.
    ///
    /// ## What this evidence cannot establish
    /// Whether the 5xx is the application's own fault or a dependency's (a database, another
    /// service); which Pod answered, when the request went through a Service; whether other clients
    /// see the same.
    ///
    /// ## Next evidence to collect
    /// The application's logs around the failing request (`kubectl logs -l SELECTOR --since=10m`), the
    /// same request sent to one Pod directly (`kubectl port-forward pod/NAME`), and its dependencies'
    /// health.
    ///
    /// ## Example
    /// ```text
    /// $ kubectl exec -n shop deploy/frontend -- curl -sS -i http://checkout.shop.svc:8080/api/orders
    /// HTTP/1.1 500 Internal Server Error
    /// {"error":"upstream database connection refused"}
    /// ```
    pub const RULE = { id: "http-server-errors", boundary: Boundary::Application, components: [Containers], check: check };
}

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    // The statuses are ingest's records (`CommandOutput::http`), the ones the business-response
    // fact reads too; a proxy's no-backend page is the endpoints' matter, not the application's.
    for output in request_outputs(model) {
        let statuses = &output.http;
        let app_failed: Vec<&HttpStatus> = statuses
            .iter()
            .filter(|s| s.is_server_error() && !s.from_proxy)
            .collect();
        let Some(first) = app_failed.first() else {
            continue;
        };
        let recovered = statuses.last().is_some_and(HttpStatus::is_answer);
        let mut evidence: Vec<Evidence> = app_failed
            .iter()
            .take(5)
            .map(|s| output_line(model, output, s.offset))
            .collect();
        // The body's own explanation, if one follows the first failure.
        let body = output
            .text
            .lines()
            .enumerate()
            .skip(first.offset + 1)
            .take(20)
            .find(|(_, l)| {
                let l = l.to_ascii_lowercase();
                l.contains("error")
                    || l.contains("exception")
                    || l.contains("refused")
                    || l.contains("timeout")
            });
        if let Some((offset, _)) = body {
            evidence.push(output_line(model, output, offset));
        }
        let mut codes: Vec<(u16, usize)> = Vec::new();
        for s in &app_failed {
            match codes.iter_mut().find(|(c, _)| *c == s.code) {
                Some((_, n)) => *n += 1,
                None => codes.push((s.code, 1)),
            }
        }
        let codes: Vec<Message> = codes
            .iter()
            .map(|&(code, times)| {
                Msg::Code {
                    code: code.into(),
                    times: u32::try_from(times).unwrap_or(u32::MAX),
                }
                .into()
            })
            .collect();
        let subject = subject_of(&output.command);
        let url = url_of(&output.command);
        let target = match &url {
            Some(url) => Msg::FromUrl { url: url.clone() },
            None => Msg::FromObject {
                object: subject.clone(),
            },
        };
        let target_text = url.unwrap_or_else(|| subject.to_string());
        let summary = Msg::ServerErrors {
            failed: app_failed.len(),
            total: statuses.len(),
            target: Box::new(target.into()),
            codes,
            said: body.map(|(_, line)| line.trim().chars().take(200).collect()),
            recovered,
        };
        let cannot_establish: Vec<Message> = vec![
            Msg::OwnOrDependency {}.into(),
            Msg::WhichPod {}.into(),
            Msg::OtherClients {}.into(),
        ];
        let ns = subject.namespace.as_deref().unwrap_or(crate::UNKNOWN_NAMESPACE);
        let next_steps = match subject.kind.as_str() {
            "Service" => vec![
                command!(
                    "kubectl get endpointslices -n {} -l kubernetes.io/service-name={}",
                    ns,
                    subject.name
                ),
                command!("kubectl logs -n {} svc/{} --since=10m", ns, subject.name),
                command!(
                    "kubectl port-forward -n {} svc/{} 8080:{}",
                    ns,
                    subject.name,
                    port_of(&target_text)
                ),
            ],
            "Pod" => vec![
                command!("kubectl logs -n {} {} --since=10m", ns, subject.name),
                command!("kubectl describe pod -n {} {}", ns, subject.name),
            ],
            _ => vec![
                "kubectl get pods,svc,endpointslices -A -o wide".to_string(),
                "kubectl logs -l app=NAME -n NAMESPACE --since=10m".to_string(),
            ],
        };
        findings.push(RULE.finding(
            if recovered {
                Severity::Warning
            } else {
                Severity::Error
            },
            subject,
            summary,
            evidence,
            cannot_establish,
            next_steps,
        ));
    }
}

/// The port a URL names, else its scheme's.
fn port_of(url: &str) -> String {
    let authority = url
        .split("://")
        .nth(1)
        .and_then(|r| r.split(['/', '?']).next())
        .unwrap_or_default();
    match authority.rsplit_once(':') {
        Some((_, port)) if !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit()) => port.to_string(),
        _ if url.starts_with("https://") => "443".to_string(),
        _ => "80".to_string(),
    }
}

/// The first URL on the command line.
fn url_of(command: &str) -> Option<String> {
    command
        .split_whitespace()
        .map(|w| w.trim_matches(['\'', '"']))
        .find(|w| w.starts_with("http://") || w.starts_with("https://"))
        .map(str::to_string)
}

/// What was asked: a Service named by the URL's host (`checkout.shop.svc.cluster.local`,
/// `checkout.shop`, or `checkout` with the command's `-n`), the Pod whose logs were read, or the URL.
fn subject_of(command: &str) -> ObjectRef {
    let words: Vec<&str> = command.split_whitespace().collect();
    // kubectl's namespace, in any of its spellings (`-n shop`, `-nshop`, `--namespace=shop`), read
    // by the one flag reader; not from the words after `--`, which are the program run in the
    // container's (`wget -nv` is not a namespace).
    let kubectl_part = command.split(" -- ").next().unwrap_or(command);
    let flag_ns = Command::parse(kubectl_part).namespace;
    if let Some(url) = url_of(command) {
        let host = url
            .split("://")
            .nth(1)
            .and_then(|r| r.split(['/', ':', '?']).next())
            .unwrap_or_default();
        let parts: Vec<&str> = host.split('.').collect();
        let is_ip = host.bytes().all(|b| b.is_ascii_digit() || b == b'.');
        let service = match parts.as_slice() {
            [name, ns, "svc", ..] => Some((name.to_string(), Some(ns.to_string()))),
            [name, ns]
                if !is_ip && !ns.contains("localhost") && ns.len() < 20 && !host.contains("example") =>
            {
                Some((name.to_string(), Some(ns.to_string())))
            }
            [name] if !is_ip && *name != "localhost" => Some((name.to_string(), flag_ns.clone())),
            _ => None,
        };
        if let Some((name, namespace)) = service {
            return ObjectRef {
                kind: "Service".into(),
                namespace: namespace.map(Into::into),
                name: name.into(),
                uid: None,
            };
        }
        return ObjectRef {
            kind: "URL".into(),
            namespace: None,
            name: url.into(),
            uid: None,
        };
    }
    if words.get(1) == Some(&"logs") || words.contains(&"logs") {
        if let Some(pod) = words
            .iter()
            .skip_while(|w| **w != "logs")
            .skip(1)
            .scan(false, |skip, w| {
                let out = if *skip { None } else { Some(*w) };
                *skip = matches!(
                    *w,
                    "-n" | "--namespace" | "-c" | "--container" | "--since" | "--tail"
                );
                Some(out)
            })
            .flatten()
            .find(|w| !w.starts_with('-'))
        {
            let (kind, name) = match pod.split_once('/') {
                Some(("deploy" | "deployment", n)) => ("Deployment", n),
                Some((_, n)) => ("Pod", n),
                None => ("Pod", pod),
            };
            return ObjectRef {
                kind: kind.into(),
                namespace: flag_ns.map(Into::into),
                name: name.into(),
                uid: None,
            };
        }
    }
    ObjectRef {
        kind: "Request".into(),
        namespace: None,
        name: command.into(),
        uid: None,
    }
}

faultline_report::messages! {
    /// The words of `http-server-errors`.
    pub enum Msg {
        /// The 5xx answers in one command's output: how many of all, from what, which codes; the
        /// answer's own words when its body says why; whether a later request succeeded.
        ServerErrors { failed: usize, total: usize, target: Box<Message>, codes: Vec<Message>, said: Option<String>, recovered: bool } = "http-server-errors.server-errors" {
            en: {
                let codes = codes.0.iter().map(|c| c.render(Lang::En)).collect::<Vec<_>>().join(", ");
                let said = said.0.as_ref().map(|s| format!(" The answer says \"{s}\".")).unwrap_or_default();
                let recovered = if *recovered.0 { " The last request succeeded: the failure is intermittent." } else { "" };
                format!("{failed} of {total} responses from {target} were server errors ({codes}): the request reached a server that failed it.{said}{recovered}")
            },
            zh: {
                let codes = codes.0.iter().map(|c| c.render(Lang::Zh)).collect::<Vec<_>>().join("、");
                let said = said.0.as_ref().map(|s| format!("响应内容是 “{s}”。")).unwrap_or_default();
                let recovered = if *recovered.0 { "最后一个请求成功了：故障是间歇性的。" } else { "" };
                format!("{target} {total} 个响应中有 {failed} 个是服务器错误（{codes}）：请求到达了服务器，但服务器处理失败了。{said}{recovered}")
            },
        },
        /// An HTTP status code, and how many times it was answered when more than once.
        Code { code: u32, times: u32 } = "http-server-errors.code" {
            en: { if *times.0 > 1 { format!("{code} ×{times}") } else { code.to_string() } },
            zh: { if *times.0 > 1 { format!("{code} 共 {times} 次") } else { code.to_string() } },
        },
        /// Where the responses came from: the URL requested.
        FromUrl { url: String } = "http-server-errors.from-url" {
            en: "{url}",
            zh: "来自 {url} 的",
        },
        /// Where the responses came from when the command names no URL: the Pod whose logs were
        /// read, or the command.
        FromObject { object: ObjectRef } = "http-server-errors.from-object" {
            en: "{object}",
            zh: "来自 {object} 的",
        },
        OwnOrDependency {} = "http-server-errors.own-or-dependency" {
            en: "Whether the 5xx is the application's own fault or a dependency's (a database, another service).",
            zh: "5xx 是应用自身的问题，还是它的某个依赖（数据库、另一个服务）的问题。",
        },
        WhichPod {} = "http-server-errors.which-pod" {
            en: "Which Pod answered, when the request went through a Service or an ingress.",
            zh: "请求经过 Service 或 Ingress 时，究竟是哪个 Pod 作出的响应。",
        },
        OtherClients {} = "http-server-errors.other-clients" {
            en: "Whether other clients see the same: this is one client's requests.",
            zh: "其他客户端是否也看到同样的结果：这里只有一个客户端的请求。",
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_subject_is_the_service_the_url_names() {
        let s = subject_of(
            "kubectl exec -n shop deploy/frontend -- curl -sS http://checkout.shop.svc.cluster.local:8080/x",
        );
        assert_eq!(
            (s.kind.as_str(), s.namespace.as_deref(), s.name.as_str()),
            ("Service", Some("shop"), "checkout")
        );
        let s = subject_of("kubectl exec -n shop deploy/frontend -- curl http://checkout:8080/x");
        assert_eq!(
            (s.kind.as_str(), s.namespace.as_deref(), s.name.as_str()),
            ("Service", Some("shop"), "checkout")
        );
        let s = subject_of("curl -i https://shop.example.com/api");
        assert_eq!(s.kind, "URL");
        let s = subject_of("kubectl exec -nshop deploy/frontend -- wget -nv -O- http://checkout:8080/x");
        assert_eq!(
            (s.kind.as_str(), s.namespace.as_deref(), s.name.as_str()),
            ("Service", Some("shop"), "checkout"),
            "the joined -nshop is kubectl's namespace; wget's -nv is not"
        );
        let s = subject_of("kubectl logs -n shop web-7d9f8c6b5-x2k4q --since=10m");
        assert_eq!((s.kind.as_str(), s.name.as_str()), ("Pod", "web-7d9f8c6b5-x2k4q"));
    }
}
