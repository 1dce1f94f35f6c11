//! A connection that failed, as clients print it with the address they dialled: Go's `dial tcp
//! 10.32.0.1:443: i/o timeout` / `connect: connection refused` / `connect: no route to host` /
//! `connect: connection timed out` (net.OpError), Node.js's `connect ETIMEDOUT 10.32.0.1:443` /
//! `connect ECONNREFUSED …`. Read for the addresses it names, to match a Service's cluster IP.

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
    }
}
