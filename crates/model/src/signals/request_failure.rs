//! Failed requests a client printed, in pasted command output and kubectl's own messages: curl's
//! errors (`curl: (7) Failed to connect to web port 80: Connection refused`), an HTTP/1.1 4xx or
//! 5xx or HTTP/2 5xx status line (`curl -i`, `wget -S`), and a refused connection.

use faultline_report::Evidence;

use crate::client_output::{lines_containing, Scope};
use crate::Model;

/// What each line is searched for.
const FAILED_REQUEST: [&str; 5] = [
    "curl: (",
    "HTTP/1.1 5",
    "HTTP/2 5",
    "HTTP/1.1 4",
    "Connection refused",
];

impl Model<'_> {
    /// Each line of client output that says a request failed, as evidence at its own line, in input
    /// order.
    pub fn failed_request_lines(&self) -> Vec<Evidence> {
        lines_containing(self, &FAILED_REQUEST, Scope::ClientOutput)
    }
}

#[cfg(test)]
mod tests {
    use faultline_ingest::{ingest, Source};

    use crate::Model;

    #[test]
    fn finds_the_lines_that_say_a_request_failed() {
        let text = "\
$ kubectl -n shop exec deploy/web -- curl -sS http://api:8080/
curl: (7) Failed to connect to api port 8080 after 3 ms: Couldn't connect to server
";
        let sources = vec![Source::new("paste", text)];
        let ingested = ingest(&sources);
        let model = Model::build(&sources, &ingested);
        let lines = model.failed_request_lines();
        assert_eq!(lines.len(), 1);
        assert!(lines[0].value.starts_with("curl: (7)"));
    }
}
