//! A client's request pasted with its output (`curl`, `wget`, `kubectl exec … -- curl`, `kubectl
//! logs`): what it asked (the Service its URL names, the Pod whose logs were read, the URL), and what
//! its output says beside the HTTP statuses ingest read (`CommandOutput::http`): the failures by
//! code, and the body's line that explains the first.

use faultline_ingest::http::HttpStatus;
use faultline_ingest::segment::Command;
use faultline_ingest::CommandOutput;
use faultline_report::{Evidence, ObjectRef};

use crate::client_output::output_line;
use crate::Model;

/// What a request's output says of it.
pub struct RequestFailures<'o> {
    /// The application's 5xx answers, in output order (a proxy's no-backend page is the endpoints'
    /// matter, not the application's).
    pub failed: Vec<&'o HttpStatus>,
    /// Each 5xx code with how many times it was answered, in the order first seen.
    pub codes: Vec<(u16, usize)>,
    /// The last status is a 2xx or 3xx: the server answers again.
    pub recovered: bool,
    /// The body's line that explains the first failure (an error, an exception, a refused
    /// connection, a timeout), within the 20 lines after it: its offset in the output and its text.
    pub said: Option<(usize, &'o str)>,
}

impl<'o> RequestFailures<'o> {
    /// The application's failures in `output`, if it has any.
    pub fn of(output: &'o CommandOutput) -> Option<Self> {
        let failed: Vec<&HttpStatus> = output
            .http
            .iter()
            .filter(|s| s.is_server_error() && !s.from_proxy)
            .collect();
        let first = failed.first()?;
        let said = output
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
        let mut codes: Vec<(u16, usize)> = Vec::new();
        for s in &failed {
            match codes.iter_mut().find(|(c, _)| *c == s.code) {
                Some((_, n)) => *n += 1,
                None => codes.push((s.code, 1)),
            }
        }
        Some(Self {
            recovered: output.http.last().is_some_and(HttpStatus::is_answer),
            failed,
            codes,
            said,
        })
    }
}

impl RequestFailures<'_> {
    /// The lines that show the failures: the first five 5xx answers, then the body's explanation.
    pub fn evidence(&self, model: &Model<'_>, output: &CommandOutput) -> Vec<Evidence> {
        let offsets = self.failed.iter().take(5).map(|s| s.offset);
        let offsets = offsets.chain(self.said.map(|(offset, _)| offset));
        offsets.map(|offset| output_line(model, output, offset)).collect()
    }

    /// The body's explanation as the summary quotes it: trimmed, at most 200 characters.
    pub fn said_text(&self) -> Option<String> {
        self.said.map(|(_, line)| line.trim().chars().take(200).collect())
    }
}

/// The port a URL names, else its scheme's.
pub fn port_of(url: &str) -> String {
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
pub fn url_of(command: &str) -> Option<String> {
    command
        .split_whitespace()
        .map(|w| w.trim_matches(['\'', '"']))
        .find(|w| w.starts_with("http://") || w.starts_with("https://"))
        .map(str::to_string)
}

/// What was asked: a Service named by the URL's host (`checkout.shop.svc.cluster.local`,
/// `checkout.shop`, or `checkout` with the command's `-n`), the Pod whose logs were read, the URL, or
/// (none of those) the command itself as a `Request`.
pub fn subject_of(command: &str) -> ObjectRef {
    let words: Vec<&str> = command.split_whitespace().collect();
    // kubectl's namespace, in any of its spellings (`-n shop`, `-nshop`, `--namespace=shop`), read
    // by the one flag reader; not from the words after `--`, which are the program run in the
    // container's (`wget -nv` is not a namespace).
    let kubectl_part = command.split(" -- ").next().unwrap_or(command);
    let flag_ns = Command::parse(kubectl_part).namespace;
    let object = |kind: &str, namespace: Option<String>, name: &str| ObjectRef {
        kind: kind.into(),
        namespace: namespace.map(Into::into),
        name: name.into(),
        uid: None,
    };
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
        return match service {
            Some((name, namespace)) => object("Service", namespace, &name),
            None => object("URL", None, &url),
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
            return object(kind, flag_ns, name);
        }
    }
    object("Request", None, command)
}

#[cfg(test)]
mod tests {
    use super::{port_of, subject_of, url_of};

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
        assert_eq!(subject_of("ab -n 100 x").kind.as_str(), "Request");
    }

    #[test]
    fn a_urls_port_is_its_own_or_its_schemes() {
        assert_eq!(
            url_of("curl 'https://a.example/x'").as_deref(),
            Some("https://a.example/x")
        );
        assert_eq!(port_of("https://a.example/x"), "443");
        assert_eq!(port_of("http://checkout:8080/pay"), "8080");
        assert_eq!(port_of("http://checkout/pay"), "80");
    }
}
