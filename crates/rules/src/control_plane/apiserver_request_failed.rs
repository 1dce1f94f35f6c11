use faultline_model::signals::apiserver_request::{
    apiserver_request_failure, server_address, ApiRequestFailure,
};
use faultline_model::Model;
use faultline_report::lang::Lang;
use faultline_report::message::Message;
use faultline_report::{Boundary, Finding, ObjectRef, Severity};

crate::declare_rule! {
    /// ## What it finds
    /// Requests to the API server that fail on their way, as kubectl reports them: an expired or
    /// untrusted serving certificate (`x509: certificate has expired or is not yet valid`, with
    /// `kubeadm certs check-expiration` showing `<invalid>` when pasted), a server that cannot be
    /// reached (`Unable to connect to the server`, `connection refused`, `i/o timeout`, `no such
    /// host`), a server too slow to answer (`the server was unable to return a response in the time
    /// allotted`), throttling (429, priority and fairness), and authentication failures
    /// (`Unauthorized`). etcd's own errors are left to the etcd rule, and authorization (`User "x"
    /// cannot …`, a 403 from an API server that answered) to the rule `authorization-denied`. A
    /// request through the API server's proxy (`…/services/NAME:PORT/proxy/`, `error trying to reach
    /// service`) that fails is its backend's failure, not the API server's: the `service-proxy-*`
    /// rules report it. A line the catalog knows as another component's (a containerd registry
    /// request, a CNI plugin, CoreDNS, etcd, a kubelet probe) is that component's failure even when
    /// it follows a kubectl command or quotes `connection refused`: the rule
    /// `known-failure-reported` reports it at its own boundary; so is a line that is nothing but a
    /// library's error (`dial tcp 10.96.0.1:443: i/o timeout`), which kubectl never prints bare.
    ///
    /// ## Why it matters
    /// Nothing else can be observed while the API is unavailable: every controller, the scheduler and
    /// the kubelets depend on it. And authentication is not authorization: a 401 is about who the
    /// client is, a 403 about what it may do.
    ///
    /// ## Evidence
    /// kubectl's error lines and client-go log lines with their text, and the certificate table of
    /// `kubeadm certs check-expiration` when pasted. Message text is the weakest evidence: its
    /// wording drifts between versions.
    ///
    /// ## Fault boundary
    /// `control-plane`: kube-apiserver, its certificates and what stands in front of it.
    ///
    /// ## What this evidence cannot establish
    /// API server signals cannot tell whether a failure comes from etcd, the network, admission or the
    /// client itself; one client's failure does not show whether others fail too.
    ///
    /// ## Next evidence to collect
    /// The API server's health endpoints (`kubectl get --raw='/readyz?verbose'`), its Pod and logs on
    /// the control-plane nodes, the certificates' dates, and the same request from another client.
    ///
    /// ## Example
    /// ```text
    /// Unable to connect to the server: tls: failed to verify certificate: x509: certificate has
    /// expired or is not yet valid: current time 2025-04-02T09:14:55+02:00 is after 2025-03-30T07:21:12Z
    /// ```
    pub const RULE = { id: "apiserver-request-failed", boundary: Boundary::ControlPlane, components: [ApiServer], check: check };
}

/// What the finding says of a failure: what fails, and what the input cannot tell.
fn said(failure: ApiRequestFailure) -> (Msg, Msg) {
    use ApiRequestFailure as F;
    match failure {
        F::CertExpired => (Msg::CertExpired {}, Msg::CertExpiredCannot {}),
        F::CertUntrusted => (Msg::CertUntrusted {}, Msg::CertUntrustedCannot {}),
        F::Slow => (Msg::Slow {}, Msg::SlowCannot {}),
        F::Throttled => (Msg::Throttled {}, Msg::ThrottledCannot {}),
        F::Unreachable => (Msg::Unreachable {}, Msg::UnreachableCannot {}),
        F::Unauthenticated => (Msg::Unauthenticated {}, Msg::UnauthenticatedCannot {}),
    }
}

const READYZ: &str = "kubectl get --raw='/readyz?verbose'";
const MINIFY: &str = "kubectl config view --minify";

/// Where to look next for a failure.
fn steps(failure: ApiRequestFailure) -> [&'static str; 2] {
    use ApiRequestFailure as F;
    match failure {
        F::CertExpired => [
            "kubeadm certs check-expiration",
            "kubectl get --raw='/readyz?verbose' --insecure-skip-tls-verify",
        ],
        F::CertUntrusted => [MINIFY, READYZ],
        F::Slow => [
            READYZ,
            "kubectl get --raw='/metrics' | grep apiserver_request_duration",
        ],
        F::Throttled => [
            "kubectl get flowschemas,prioritylevelconfigurations",
            "kubectl get --raw='/metrics' | grep apiserver_flowcontrol_rejected",
        ],
        F::Unreachable => [
            "kubectl config view --minify -o jsonpath='{.clusters[0].cluster.server}'",
            "kubectl get --raw='/readyz?verbose' -v=6",
        ],
        F::Unauthenticated => [MINIFY, "kubectl auth whoami"],
    }
}

/// One finding: the most specific failure.
fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    let Some((failure, evidence)) = apiserver_request_failure(model) else {
        return;
    };
    let (what, cannot) = said(failure);
    let server = evidence
        .iter()
        .find_map(|e| server_address(&e.value))
        .unwrap_or_default();
    let summary = Msg::RequestsFail {
        server: (!server.is_empty()).then(|| server.to_string()),
        what: Box::new(what.into()),
        blocked: failure
            .blocks_everything()
            .then(|| Box::new(Msg::NothingElseCollectable {}.into())),
    };
    let subject = ObjectRef {
        kind: "Cluster".into(),
        namespace: None,
        name: server.into(),
        uid: None,
    };
    let cannot_establish: Vec<Message> = vec![cannot.into(), Msg::SignalsAlone {}.into()];
    let next_steps = steps(failure).iter().map(|s| s.to_string()).collect();
    findings.push(RULE.finding(
        Severity::Error,
        subject,
        summary,
        evidence,
        cannot_establish,
        next_steps,
    ));
}

faultline_report::messages! {
    /// The words of `apiserver-request-failed`.
    pub enum Msg {
        /// Requests to the API server (at an address, when the input gives it) fail, and why.
        RequestsFail { server: Option<String>, what: Box<Message>, blocked: Option<Box<Message>> } = "apiserver-request-failed.requests-fail" {
            en: {
                let at = server.0.as_ref().map(|s| format!(" at {s}")).unwrap_or_default();
                let blocked = blocked.0.as_ref().map(|b| format!(" {}", b.render(Lang::En))).unwrap_or_default();
                format!("Requests to the API server{at} fail: {what}.{blocked}")
            },
            zh: {
                let to = server.0.as_ref().map_or_else(|| "发往 API 服务器".to_string(), |s| format!("发往 API 服务器 {s} "));
                let blocked = blocked.0.as_ref().map(|b| b.render(Lang::Zh)).unwrap_or_default();
                format!("{to}的请求失败：{what}。{blocked}")
            },
        },
        /// The failure stops every request, so no other evidence can be collected through the API.
        NothingElseCollectable {} = "apiserver-request-failed.nothing-else-collectable" {
            en: "Until this is fixed no other evidence can be collected through the API.",
            zh: "在修复之前，无法再通过 API 收集任何其他证据。",
        },
        CertExpired {} = "apiserver-request-failed.cert-expired" {
            en: "the API server's certificate has expired (or the client's clock is wrong): TLS fails before any request is made",
            zh: "API 服务器的证书已过期（或者客户端的时钟不对）：还没发出任何请求，TLS 握手就已失败",
        },
        CertUntrusted {} = "apiserver-request-failed.cert-untrusted" {
            en: "the client does not trust the API server's certificate (unknown authority or wrong name)",
            zh: "客户端不信任 API 服务器的证书（签发机构未知，或证书上的名称不符）",
        },
        Slow {} = "apiserver-request-failed.slow" {
            en: "the API server took too long to answer (it is overloaded, or waiting on etcd or a webhook)",
            zh: "API 服务器迟迟没有响应（它过载了，或者在等待 etcd 或某个 Webhook）",
        },
        Throttled {} = "apiserver-request-failed.throttled" {
            en: "the API server is throttling requests (API priority and fairness, or the client's own rate limit)",
            zh: "API 服务器正在对请求限流（API 优先级与公平性，或者客户端自身的限速）",
        },
        Unreachable {} = "apiserver-request-failed.unreachable" {
            en: "the API server cannot be reached (refused, timed out or not resolved)",
            zh: "连不上 API 服务器（连接被拒绝、超时或域名无法解析）",
        },
        Unauthenticated {} = "apiserver-request-failed.unauthenticated" {
            en: "the API server does not accept the client's credentials (401: authentication, not authorization)",
            zh: "API 服务器不接受客户端的凭据（401：是认证问题，不是鉴权问题）",
        },
        CertExpiredCannot {} = "apiserver-request-failed.cert-expired-cannot" {
            en: "Whether only the serving certificate expired or the whole control plane's (kubeadm renews them together), and whether the client's clock is right.",
            zh: "过期的只是服务端证书，还是整个控制平面的证书（kubeadm 会一起续期），以及客户端的时钟是否正确。",
        },
        CertUntrustedCannot {} = "apiserver-request-failed.cert-untrusted-cannot" {
            en: "Whether the kubeconfig points at the right server and CA, or the server presents the wrong certificate.",
            zh: "是 kubeconfig 指向的服务器或 CA 不对，还是服务器出示了错误的证书。",
        },
        SlowCannot {} = "apiserver-request-failed.slow-cannot" {
            en: "Whether the delay is in etcd, an admission webhook, or the API server itself.",
            zh: "延迟出在 etcd、某个准入 Webhook，还是 API 服务器本身。",
        },
        ThrottledCannot {} = "apiserver-request-failed.throttled-cannot" {
            en: "Which flow schema rejected it and who else is loading the API server.",
            zh: "是哪个 FlowSchema 拒绝了请求，以及还有谁在给 API 服务器施加负载。",
        },
        UnreachableCannot {} = "apiserver-request-failed.unreachable-cannot" {
            en: "Whether the API server is down, or the network, a load balancer or DNS between it and this client is.",
            zh: "是 API 服务器宕掉了，还是它与这个客户端之间的网络、负载均衡器或 DNS 出了问题。",
        },
        UnauthenticatedCannot {} = "apiserver-request-failed.unauthenticated-cannot" {
            en: "Whether the token or certificate expired, was revoked, or belongs to another cluster.",
            zh: "令牌或证书是过期了、被吊销了，还是属于另一个集群。",
        },
        SignalsAlone {} = "apiserver-request-failed.signals-alone" {
            en: "API server signals alone cannot tell whether the cause is etcd, the network, admission or the client; one client's failure does not show whether others fail too.",
            zh: "仅凭 API 服务器的信号无法判断原因在 etcd、网络、准入还是客户端；一个客户端失败，并不能说明其他客户端是否也失败。",
        },
    }
}
