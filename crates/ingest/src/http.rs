//! HTTP statuses in a command's output, read once when the output is ingested: `curl -i`/`-v` status
//! lines, `curl -w '%{http_code}'` codes, `wget`'s errors and access log lines. The rule that reports
//! server errors and the model's business-response fact both read these records
//! ([`super::CommandOutput::http`]), so the two cannot parse the same line two ways.

/// One HTTP status a client printed or a server logged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HttpStatus {
    pub code: u16,
    /// The output's line it is on, counted from 0 (`CommandOutput::text.lines().nth(offset)`).
    pub offset: usize,
    /// The input's line it is on, counted from 1 (the output's `first_line + offset`).
    pub line: u32,
    /// A 502–504 page that a proxy wrote because it had no backend to send the request to
    /// (`no healthy upstream`, `no endpoints available for service`): the request never reached
    /// the application, so the status is about endpoints, not about the program.
    pub from_proxy: bool,
}

impl HttpStatus {
    pub fn is_server_error(&self) -> bool {
        (500..600).contains(&self.code)
    }

    /// A 2xx or 3xx: the server answered the request.
    pub fn is_answer(&self) -> bool {
        (200..400).contains(&self.code)
    }
}

/// A proxy's own page for "I had nowhere to send this": not the application's answer.
const NO_BACKEND: [&str; 5] = [
    "no healthy upstream",
    "no endpoints available for service",
    "upstream connect error",
    "Service Temporarily Unavailable",
    "default backend - 404",
];

/// How many lines after a 502–504 status a proxy's page is looked for (headers come first).
const PROXY_PAGE_WITHIN: usize = 15;

/// Every HTTP status in `text`, the output of `command` whose first line is the input's `first_line`,
/// in order.
pub fn statuses(command: &str, first_line: u32, text: &str) -> Vec<HttpStatus> {
    // Cheap refusal for the usual output, which has no status at all.
    if !text.contains("HTTP/") && !text.contains("ERROR ") && !command.contains("http_code") {
        return Vec::new();
    }
    let code_only = command.contains("http_code");
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (offset, line) in lines.iter().enumerate() {
        let line = line.trim();
        let code = status_line(line)
            .or_else(|| wget_error(line))
            .or_else(|| access_log(line))
            .or_else(|| code_only.then(|| three_digits(line)).flatten());
        if let Some(code) = code {
            let from_proxy = (502..=504).contains(&code)
                && lines
                    .iter()
                    .skip(offset)
                    .take(PROXY_PAGE_WITHIN)
                    .any(|l| NO_BACKEND.iter().any(|n| l.contains(n)));
            out.push(HttpStatus {
                code,
                offset,
                line: first_line + offset as u32,
                from_proxy,
            });
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
    fn a_proxy_page_after_the_status_marks_it_from_the_proxy() {
        let text = "HTTP/2 503\ncontent-length: 19\nserver: envoy\n\nno healthy upstream\n";
        let found = statuses("curl -sS -i https://shop.example.com/", 7, text);
        assert_eq!(
            found,
            [HttpStatus {
                code: 503,
                offset: 0,
                line: 7,
                from_proxy: true
            }]
        );
        let found = statuses(
            "curl -i http://x/",
            1,
            "HTTP/1.1 500 Internal Server Error\n\nboom\n",
        );
        assert!(found[0].is_server_error() && !found[0].from_proxy);
    }

    #[test]
    fn bare_codes_count_only_after_a_write_out_of_the_code() {
        let text = "200\n503\n";
        let codes = |c| statuses(c, 1, text).iter().map(|s| s.code).collect::<Vec<_>>();
        assert_eq!(
            codes("curl -s -o /dev/null -w '%{http_code}\\n' http://x/"),
            [200, 503]
        );
        assert!(codes("cat numbers.txt").is_empty());
    }
}
