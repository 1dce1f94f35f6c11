use crate::ingest::CommandOutput;
use crate::model::client_output::talks_to_api;
use crate::model::Model;
use crate::report::{Boundary, Evidence, Finding, ObjectRef, Severity};

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
    pub const RULE = { id: "http-server-errors", boundary: Boundary::Application, components: [Containers], docs_zh: DOCS_ZH, check: check };
}

/// [`crate::rules::Rule::docs_zh`]: this rule's documentation in Chinese, each line after one space as in
/// the doc comment, with the English example unchanged.
const DOCS_ZH: &str = r#"
 ## 检测内容
 粘贴的请求输出中的 HTTP 5xx 响应：`curl -i`/`-v` 的状态行（`HTTP/1.1 500 Internal Server Error`、`< HTTP/2 503`），`curl -w '%{http_code}'` 输出的状态码，`wget` 的 `ERROR 500:`，以及来自 `kubectl logs` 的访问日志行（`"GET /api HTTP/1.1" 500`）。由代理在找不到后端时返回的 502、503 和 504 页面（`no healthy upstream`、`no endpoints available for service`、`upstream connect error`）不计入：这些关乎端点，而不是应用。

 ## 为什么重要
 这是文章实验 3 中的第五个事实，即业务响应：Pod 可以是 Running 且 Ready，Service 可以有端点，而应用仍然可能让请求失败。5xx 意味着请求到达了服务器，但服务器处理失败了。

 ## 证据
 状态行及其状态码，以及产生它们的命令；如果响应体说明了原因，也一并引用。当同一份输出中后面的请求又成功了，说明失败是间歇性的，作为警告报告。

 ## 故障边界
 `application`：作出响应的程序，或它调用的某个依赖。

 ## 这些证据无法确定的内容
 5xx 是应用自身的问题，还是某个依赖（数据库、另一个服务）的问题；请求经过 Service 时，是哪个 Pod 作出的响应；其他客户端是否也看到同样的结果。

 ## 下一步应收集的证据
 失败请求前后的应用日志（`kubectl logs -l SELECTOR --since=10m`），把同样的请求直接发给某一个 Pod（`kubectl port-forward pod/NAME`），以及它的各个依赖的健康状况。

 ## 示例
 ```text
 $ kubectl exec -n shop deploy/frontend -- curl -sS -i http://checkout.shop.svc:8080/api/orders
 HTTP/1.1 500 Internal Server Error
 {"error":"upstream database connection refused"}
 ```
"#;

/// A proxy's own page for "I had nowhere to send this": not the application's answer.
const NO_BACKEND: [&str; 5] = [
    "no healthy upstream",
    "no endpoints available for service",
    "upstream connect error",
    "Service Temporarily Unavailable",
    "default backend - 404",
];

/// A status code and where it was read.
struct Status {
    code: u16,
    offset: usize,
}

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    for output in model.outputs.iter().filter(|o| !talks_to_api(&o.command)) {
        let statuses = statuses(output);
        let failed: Vec<&Status> = statuses.iter().filter(|s| (500..600).contains(&s.code)).collect();
        if failed.is_empty() {
            continue;
        }
        let lines: Vec<&str> = output.text.lines().collect();
        // A proxy's no-backend page right after a 502–504 means the request never reached the app.
        let from_proxy = |s: &Status| {
            (502..=504).contains(&s.code)
                && lines
                    .iter()
                    .skip(s.offset)
                    .take(15)
                    .any(|l| NO_BACKEND.iter().any(|n| l.contains(n)))
        };
        let app_failed: Vec<&&Status> = failed.iter().filter(|s| !from_proxy(s)).collect();
        if app_failed.is_empty() {
            continue;
        }
        let last = statuses.last().map(|s| s.code).unwrap_or_default();
        let recovered = (200..400).contains(&last);
        let source = model.source_name(output.source);
        let path = format!("output of `{}`", output.command);
        let mut evidence: Vec<Evidence> = app_failed
            .iter()
            .take(5)
            .map(|s| Evidence {
                source: source.clone(),
                line: output.first_line + s.offset as u32,
                path: path.clone(),
                value: lines
                    .get(s.offset)
                    .map(|l| l.trim().to_string())
                    .unwrap_or_default(),
            })
            .collect();
        // The body's own explanation, if one follows the first failure.
        let body = lines
            .iter()
            .enumerate()
            .skip(app_failed[0].offset + 1)
            .take(20)
            .find(|(_, l)| {
                let l = l.to_ascii_lowercase();
                l.contains("error")
                    || l.contains("exception")
                    || l.contains("refused")
                    || l.contains("timeout")
            });
        if let Some((offset, line)) = body {
            evidence.push(Evidence {
                source: source.clone(),
                line: output.first_line + offset as u32,
                path: path.clone(),
                value: line.trim().to_string(),
            });
        }
        let mut codes: Vec<(u16, usize)> = Vec::new();
        for s in &app_failed {
            match codes.iter_mut().find(|(c, _)| *c == s.code) {
                Some((_, n)) => *n += 1,
                None => codes.push((s.code, 1)),
            }
        }
        let codes_text = codes
            .iter()
            .map(|(c, n)| {
                if *n > 1 {
                    format!("{c} ×{n}")
                } else {
                    c.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join(", ");
        let subject = subject_of(&output.command);
        let target = url_of(&output.command).unwrap_or_else(|| subject.to_string());
        let mut summary = format!(
            "{} of {} responses from {target} were server errors ({codes_text}): the request reached a \
             server that failed it.",
            app_failed.len(),
            statuses.len()
        );
        if let Some((_, line)) = body {
            let said: String = line.trim().chars().take(200).collect();
            summary.push_str(&format!(" The answer says {said:?}."));
        }
        if recovered {
            summary.push_str(" The last request succeeded: the failure is intermittent.");
        }
        let cannot_establish = vec![
            "Whether the 5xx is the application's own fault or a dependency's (a database, another service)."
                .to_string(),
            "Which Pod answered, when the request went through a Service or an ingress.".to_string(),
            "Whether other clients see the same: this is one client's requests.".to_string(),
        ];
        let ns = subject.namespace.as_deref().unwrap_or("default");
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
                    port_of(&target)
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

/// Every HTTP status in the output, in order.
fn statuses(output: &CommandOutput) -> Vec<Status> {
    let code_only = output.command.contains("http_code");
    let mut out = Vec::new();
    for (offset, line) in output.text.lines().enumerate() {
        let line = line.trim();
        let code = status_line(line)
            .or_else(|| wget_error(line))
            .or_else(|| access_log(line))
            .or_else(|| {
                (code_only && line.len() == 3)
                    .then(|| line.parse().ok())
                    .flatten()
                    .filter(|c| (100..600).contains(c))
            });
        if let Some(code) = code {
            out.push(Status { code, offset });
        }
    }
    out
}

/// `HTTP/1.1 503 Service Unavailable`, `< HTTP/2 500`.
fn status_line(line: &str) -> Option<u16> {
    let line = line.strip_prefix("< ").unwrap_or(line);
    let rest = line.strip_prefix("HTTP/")?;
    let mut words = rest.split_whitespace();
    let version = words.next()?;
    if !version.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return None;
    }
    three_digits(words.next()?)
}

/// wget: `wget: server returned error: HTTP/1.1 500 Internal Server Error`, `ERROR 503: Service Unavailable.`
fn wget_error(line: &str) -> Option<u16> {
    if let Some((_, after)) = line.split_once("server returned error: ") {
        return status_line(after);
    }
    let rest = line.split_once("ERROR ")?.1;
    three_digits(rest.split(':').next()?)
}

/// Combined log format: `… "GET /api/orders HTTP/1.1" 500 61 …`.
fn access_log(line: &str) -> Option<u16> {
    let at = line.find(" HTTP/")?;
    let close = line[at..].find("\" ")? + at;
    let request = &line[..at];
    let method_start = request.rfind('"')?;
    let method = request[method_start + 1..].split_whitespace().next()?;
    if !matches!(
        method,
        "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "HEAD" | "OPTIONS"
    ) {
        return None;
    }
    three_digits(line[close + 2..].split_whitespace().next()?)
}

fn three_digits(word: &str) -> Option<u16> {
    (word.len() == 3 && word.bytes().all(|b| b.is_ascii_digit()))
        .then(|| word.parse().ok())
        .flatten()
        .filter(|c| (100..600).contains(c))
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
    let flag_ns = words
        .windows(2)
        .find(|w| w[0] == "-n" || w[0] == "--namespace")
        .map(|w| w[1].to_string())
        .or_else(|| {
            words
                .iter()
                .find_map(|w| w.strip_prefix("--namespace=").map(str::to_string))
        });
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_codes_are_read_from_every_client_format() {
        assert_eq!(status_line("HTTP/1.1 500 Internal Server Error"), Some(500));
        assert_eq!(status_line("< HTTP/2 503 "), Some(503));
        assert_eq!(status_line("HTTP/1.1 OK"), None);
        assert_eq!(
            wget_error("wget: server returned error: HTTP/1.1 502 Bad Gateway"),
            Some(502)
        );
        assert_eq!(
            wget_error("2026-03-02 09:14:03 ERROR 503: Service Unavailable."),
            Some(503)
        );
        assert_eq!(
            access_log(
                r#"10.244.1.7 - - [02/Mar/2026:09:14:03 +0000] "GET /api/orders HTTP/1.1" 500 61 "-" "curl/8.5.0""#
            ),
            Some(500)
        );
        assert_eq!(access_log("took 500 ms for HTTP/1.1 request"), None);
    }

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
        let s = subject_of("kubectl logs -n shop web-7d9f8c6b5-x2k4q --since=10m");
        assert_eq!((s.kind.as_str(), s.name.as_str()), ("Pod", "web-7d9f8c6b5-x2k4q"));
    }
}
