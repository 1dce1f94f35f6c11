//! Requests to the API server that fail on their way, as its clients print them: kubectl's `Unable
//! to connect to the server: …` and `error: You must be logged in to the server (Unauthorized)`
//! (k8s.io/kubectl/pkg/cmd/util/helpers.go), client-go's `couldn't get current server API group
//! list: Get "https://…": …` (discovery) and its rate limiter's `rate limiter Wait returned an
//! error`, the API server's own `the server was unable to return a response in the time allotted`
//! and `(TooManyRequests)` statuses, and Go's TLS errors (`x509: certificate has expired or is not
//! yet valid`, `certificate signed by unknown authority`). Lines of etcd, of an admission webhook,
//! of a request through the API server's proxy, of another component the catalog knows, and bare
//! library errors are left out: those failures are not the API server's.

use faultline_report::Evidence;

use crate::client_output::{lines_containing, Scope};
use crate::{known, proxy, Model};

/// Why requests to the API server fail, most specific first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ApiRequestFailure {
    /// Its serving certificate has expired (or the client's clock is wrong).
    CertExpired,
    /// The client does not trust its certificate (unknown authority, wrong name).
    CertUntrusted,
    /// It took too long to answer.
    Slow,
    /// It throttles requests (429, priority and fairness, the client's rate limiter).
    Throttled,
    /// It cannot be reached (refused, timed out, not resolved).
    Unreachable,
    /// It does not accept the client's credentials (401).
    Unauthenticated,
}

impl ApiRequestFailure {
    /// Every failure, most specific first: the order they are looked for in.
    pub const ALL: [ApiRequestFailure; 6] = [
        ApiRequestFailure::CertExpired,
        ApiRequestFailure::CertUntrusted,
        ApiRequestFailure::Slow,
        ApiRequestFailure::Throttled,
        ApiRequestFailure::Unreachable,
        ApiRequestFailure::Unauthenticated,
    ];

    /// The words a line that says it holds.
    pub const fn needles(self) -> &'static [&'static str] {
        match self {
            ApiRequestFailure::CertExpired => &["certificate has expired or is not yet valid"],
            ApiRequestFailure::CertUntrusted => &[
                "certificate signed by unknown authority",
                "certificate is valid for",
                "certificate is not valid for",
            ],
            ApiRequestFailure::Slow => &[
                "unable to return a response in the time allotted",
                "Timeout: request did not complete",
            ],
            ApiRequestFailure::Throttled => &[
                "(TooManyRequests)",
                "429 Too Many Requests",
                "status code 429",
                "has received too many requests",
                "rate limiter Wait returned an error",
            ],
            ApiRequestFailure::Unreachable => &[
                "Unable to connect to the server",
                "connection refused",
                "i/o timeout",
                "no such host",
                "was refused - did you specify",
                // client-go's discovery cut before its cause: `couldn't get current server API
                // group list: Get "http://localhost:8080/api?timeout=32s": dial tcp [::1]:80`.
                "API group list: Get ",
            ],
            ApiRequestFailure::Unauthenticated => &["Unauthorized", "You must be logged in to the server"],
        }
    }

    /// Whether every request of the client fails (so nothing else can be collected through it).
    pub const fn blocks_everything(self) -> bool {
        !matches!(self, ApiRequestFailure::Slow | ApiRequestFailure::Throttled)
    }
}

/// Lines cited at most.
const MOST: usize = 8;

/// The most specific failure of requests to the API server that the input's client output shows,
/// with its lines (at most eight; an expired certificate's with kubeadm's certificate rows whose
/// residual time is `<invalid>`).
pub fn apiserver_request_failure(model: &Model<'_>) -> Option<(ApiRequestFailure, Vec<Evidence>)> {
    ApiRequestFailure::ALL.into_iter().find_map(|failure| {
        let mut evidence: Vec<Evidence> = lines_containing(model, failure.needles(), Scope::ApiClient)
            .into_iter()
            .filter(|e| !e.value.contains("etcdserver:"))
            // A webhook the API server calls failed: the request reached a healthy API server and
            // admission refused it (the admission rule's finding).
            .filter(|e| !e.value.contains("failed calling webhook") && !e.value.contains("admission webhook"))
            // A request through the API server's proxy: the API server answered with its
            // backend's failure (the `service-proxy-*` rules' findings).
            .filter(|e| !proxy::is_proxy_request(Some(&e.path), &e.value))
            // A line the catalog knows as another component's (containerd's registry request, a
            // CNI plugin's, CoreDNS's, etcd's) is that component's failure, reported at its own
            // boundary, even after a kubectl command or when it quotes `connection refused`.
            .filter(|e| !known::cites_another_component(model, e) && !known::bare_library_error(&e.value))
            // Eight are cited: the catalog is asked about no more lines than that.
            .take(MOST)
            .collect();
        if evidence.is_empty() {
            return None;
        }
        if failure == ApiRequestFailure::CertExpired {
            evidence.extend(
                lines_containing(model, &["<invalid>"], Scope::ApiClient)
                    .into_iter()
                    .filter(|e| e.path.contains("kubeadm")),
            );
        }
        evidence.truncate(MOST);
        Some((failure, evidence))
    })
}

/// The API server's address in a line that names its URL: `https://10.40.0.10:6443/api?timeout=32s`
/// -> `10.40.0.10:6443`.
pub fn server_address(text: &str) -> Option<&str> {
    let at = text.find("https://")?;
    let rest = &text[at + "https://".len()..];
    let end = rest.find(['/', '"', ' ', '?']).unwrap_or(rest.len());
    Some(&rest[..end]).filter(|s| !s.is_empty())
}

#[cfg(test)]
mod tests {
    use faultline_ingest::{ingest, Source};

    use super::{apiserver_request_failure, server_address, ApiRequestFailure};
    use crate::Model;

    #[test]
    fn reads_the_most_specific_failure_and_the_server() {
        let text = "\
$ kubectl get pods
Unable to connect to the server: tls: failed to verify certificate: x509: certificate has expired or is not yet valid: current time 2025-04-02T09:14:55+02:00 is after 2025-03-30T07:21:12Z
";
        let sources = vec![Source::new("paste", text)];
        let ingested = ingest(&sources);
        let model = Model::build(&sources, &ingested);
        let (failure, lines) = apiserver_request_failure(&model).unzip();
        assert_eq!(failure, Some(ApiRequestFailure::CertExpired));
        assert_eq!(lines.map(|l| l.len()), Some(1));
        assert_eq!(
            server_address("Get \"https://10.40.0.10:6443/api?timeout=32s\": dial tcp"),
            Some("10.40.0.10:6443")
        );
        assert_eq!(server_address("http://localhost:8080/api"), None);
    }
}
