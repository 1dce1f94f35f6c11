use crate::next_steps;
use faultline_model::client_output::request_outputs;
use faultline_model::signals::http_request::{port_of, subject_of, url_of, RequestFailures};
use faultline_model::Model;
use faultline_report::lang::Lang;
use faultline_report::message::Message;
use faultline_report::{Boundary, Finding, ObjectRef, Severity};

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
        let Some(failures) = RequestFailures::of(output) else {
            continue;
        };
        // The failures, and the body's own explanation if one follows the first.
        let evidence = failures.evidence(model, output);
        let codes = failures.codes.iter().map(|&(code, times)| {
            let times = u32::try_from(times).unwrap_or(u32::MAX);
            Msg::Code {
                code: code.into(),
                times,
            }
            .into()
        });
        let subject = subject_of(&output.command);
        let url = url_of(&output.command);
        let target = match &url {
            Some(url) => Msg::FromUrl { url: url.clone() },
            None => Msg::FromObject {
                object: subject.clone(),
            },
        };
        let target_text = url.unwrap_or_else(|| subject.to_string());
        let recovered = failures.recovered;
        let summary = Msg::ServerErrors {
            failed: failures.failed.len(),
            total: output.http.len(),
            target: Box::new(target.into()),
            codes: codes.collect(),
            said: failures.said_text(),
            recovered,
        };
        let cannot = [Msg::OwnOrDependency {}, Msg::WhichPod {}, Msg::OtherClients {}];
        let steps = next_steps::request_followup(&subject, &port_of(&target_text));
        let severity = [Severity::Error, Severity::Warning][usize::from(recovered)];
        findings.push(RULE.finding(severity, subject.clone(), summary, evidence, cannot, steps));
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
