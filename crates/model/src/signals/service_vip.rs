//! A connection that failed, as clients print it with the address they dialled: Go's `dial tcp
//! 10.32.0.1:443: i/o timeout` / `connect: connection refused` / `connect: no route to host` /
//! `connect: connection timed out` (net.OpError), Node.js's `connect ETIMEDOUT 10.32.0.1:443` /
//! `connect ECONNREFUSED …`, and curl's `Failed to connect to 10.96.0.10 port 80 after 3 ms:
//! Connection refused` (lib/connect.c; before 7.78 without `after … ms`), which prints the host and
//! the port apart. Read for the addresses it names, to match a Service's cluster IP.

/// The words of a failed connection.
const FAILED: [&str; 6] = [
    "i/o timeout",
    "connection refused",
    "no route to host",
    "connection timed out",
    "ETIMEDOUT",
    "ECONNREFUSED",
];

/// One `host:port` a line names, as printed (`address`) and split.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DialledAddress<'t> {
    pub address: &'t str,
    pub host: &'t str,
    pub port: &'t str,
}

/// The `host:port` addresses of a line that says a connection failed, in order (none when it does
/// not say so). The address is a token between spaces, quotes, brackets, commas, `/` or `=`.
pub fn failed_connection(text: &str) -> Vec<DialledAddress<'_>> {
    if let Some(curl) = curl_failed(text) {
        return vec![curl];
    }
    if !FAILED.iter().any(|f| text.contains(f)) {
        return Vec::new();
    }
    text.split(|c: char| c.is_whitespace() || matches!(c, '\'' | '"' | '(' | ')' | ',' | '/' | '='))
        .map(|t| t.trim_end_matches([':', '.', ';']))
        .filter_map(|address| {
            let (host, port) = address.rsplit_once(':')?;
            Some(DialledAddress { address, host, port })
        })
        .collect()
}

/// curl's failed connection: `Failed to connect to <host> port <port>[ after <n> ms]: <error>`; the
/// address as printed is `<host> port <port>`.
fn curl_failed(text: &str) -> Option<DialledAddress<'_>> {
    const PRINTED: &str = "Failed to connect to ";
    let rest = &text[text.find(PRINTED)? + PRINTED.len()..];
    let (host, after) = rest.split_once(" port ")?;
    let digits = after.find(|c: char| !c.is_ascii_digit()).unwrap_or(after.len());
    if host.is_empty() || host.contains(char::is_whitespace) || digits == 0 {
        return None;
    }
    let end = host.len() + " port ".len() + digits;
    Some(DialledAddress {
        address: &rest[..end],
        host,
        port: &after[..digits],
    })
}

#[cfg(test)]
mod tests {
    use super::failed_connection;

    #[test]
    fn reads_the_addresses_of_failed_connections() {
        let line = "plugin/kubernetes: Get \"https://10.32.0.1:443/version?timeout=32s\": dial tcp 10.32.0.1:443: i/o timeout";
        let addresses: Vec<&str> = failed_connection(line).iter().map(|a| a.address).collect();
        assert!(addresses.contains(&"10.32.0.1:443"));
        let a = failed_connection("dial tcp 10.96.0.1:443: connect: connection refused");
        assert!(a.iter().any(|a| a.host == "10.96.0.1" && a.port == "443"));
        assert!(failed_connection("GET https://10.32.0.1:443/healthz 200 OK").is_empty());
        // curl prints the host and the port apart, its error capitalised.
        let a = failed_connection(
            "curl: (28) Failed to connect to 10.96.0.10 port 80 after 129 ms: Connection timed out",
        );
        assert_eq!(a.len(), 1);
        assert_eq!(
            (a[0].address, a[0].host, a[0].port),
            ("10.96.0.10 port 80", "10.96.0.10", "80")
        );
        let a = failed_connection("curl: (7) Failed to connect to web.shop port 8080: Connection refused");
        assert_eq!((a[0].host, a[0].port), ("web.shop", "8080"));
        assert!(failed_connection("Failed to connect to the database").is_empty());
    }
}
