//! The terminal errors of a crash, as data: how a process says, in its last log lines, why it is
//! about to exit. One table ([`PATTERNS`]) holds every pattern, each with a real example and the
//! public thread it was checked against; the code below only walks a log's lines and asks the table.
//!
//! Two classes of pattern:
//! - a **form** is how a language runtime prints a fatal error (Go's `panic:`, a Python traceback, a
//!   Java exception and its `Caused by:` chain, Node.js's uncaught error after `throw er;`, a Rust
//!   panic). The form decides which line is the terminal one (the traceback's last line, the
//!   deepest `Caused by:`, the `Error:` line after `throw`) and which frame to cite (Go's first
//!   frame);
//! - a **cause** is what the error says went wrong (a refused connection, a DNS failure, an expired
//!   certificate, a missing file …), found in the terminal line (or the line itself is the terminal
//!   one when no runtime form surrounds it: `level=fatal msg="… bind: address already in use"`).
//!
//! The terminal error is the last such line of the log, and only when the process said (almost)
//! nothing after it but its trace: a line announcing a successful start ([`STARTED`]) or more than
//! [`TOLERANCE`] ordinary lines after it mean the process went on, and the error was not its last
//! word. Lines at level info or debug are never errors (an `INFO` line quoting "error" in its
//! message is a message, not a failure).

/// How a language runtime prints a fatal error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    GoPanic,
    PythonTraceback,
    JavaException,
    NodeUncaught,
    RustPanic,
}

/// What the terminal error says went wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cause {
    DbAuth,
    DbUnreachable,
    Tls,
    Dns,
    AddressInUse,
    ConnectionRefused,
    Timeout,
    ExecFormat,
    OutOfMemory,
    MissingKey,
    MissingFile,
    PermissionDenied,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    Form(Form),
    Cause(Cause),
}

/// What a dependency named in the line is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DepKind {
    /// `host:port` (or `:port`, the process's own listen address).
    Address,
    /// A DNS name that did not resolve.
    Host,
    /// A database user.
    User,
    /// A key (an environment variable, when the process read it from its environment).
    Key,
    /// A file path.
    Path,
}

/// How to read the dependency out of a line that matched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dep {
    None,
    /// The first `host:port` token of the line.
    HostPort(DepKind),
    /// The token right after this literal.
    After(&'static str, DepKind),
    /// The first quoted string after the needle.
    Quoted(DepKind),
    /// The first token that starts with `/`.
    PathToken,
}

/// Where the needle must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum At {
    /// At the start of the line (after its indentation).
    Start,
    /// Anywhere in the line, ASCII case ignored.
    Anywhere,
}

/// One entry of the table.
#[derive(Clone, Copy, Debug)]
pub struct Pattern {
    /// Stable id, kebab-case (`go-panic`, `connection-refused`).
    pub id: &'static str,
    pub class: Class,
    pub needle: &'static str,
    pub at: At,
    pub dep: Dep,
    /// A line this pattern matches, verbatim from `source`.
    pub example: &'static str,
    /// The public thread the example was taken from.
    pub source: &'static str,
}

use Cause as C;
use Class::{Cause as K, Form as F};
use DepKind as D;

/// Every pattern, causes in the order they are preferred when one line has several (the more
/// specific first: a MySQL client's refusal is a database unreachable before it is a refusal).
pub const PATTERNS: &[Pattern] = &[
    // Forms.
    Pattern { id: "go-panic", class: F(Form::GoPanic), needle: "panic: ", at: At::Start, dep: Dep::None,
        example: "panic: failed to seek to cursor \"\": 22",
        source: "https://github.com/openshift/openshift-azure/issues/581" },
    Pattern { id: "python-traceback", class: F(Form::PythonTraceback), needle: "Traceback (most recent call last):", at: At::Start, dep: Dep::None,
        example: "Traceback (most recent call last):",
        source: "https://github.com/Uninett/nav/issues/281" },
    Pattern { id: "java-exception-in-thread", class: F(Form::JavaException), needle: "Exception in thread \"", at: At::Start, dep: Dep::None,
        example: "Exception in thread \"main\" java.lang.OutOfMemoryError: Java heap space",
        source: "https://github.com/RPiList/TarpitAn/issues/5" },
    Pattern { id: "java-caused-by", class: F(Form::JavaException), needle: "Caused by: ", at: At::Start, dep: Dep::None,
        example: "Caused by: org.postgresql.util.PSQLException: FATAL: password authentication failed for user \"keycloak\"",
        source: "https://github.com/keycloak/keycloak-community/issues/307" },
    Pattern { id: "node-throw", class: F(Form::NodeUncaught), needle: "throw er; // Unhandled 'error' event", at: At::Start, dep: Dep::None,
        example: "      throw er; // Unhandled 'error' event",
        source: "https://github.com/samejack/web-k8s-exec/issues/1" },
    Pattern { id: "node-internal", class: F(Form::NodeUncaught), needle: "node:internal/", at: At::Start, dep: Dep::None,
        example: "node:internal/process/esm_loader:108",
        source: "https://github.com/aplotor/expanse/issues/27" },
    Pattern { id: "rust-panic", class: F(Form::RustPanic), needle: "' panicked at ", at: At::Anywhere, dep: Dep::None,
        example: "thread 'main' panicked at 'component reflector cannot be created: Error(Status(403), \"https://10.0.0.1/apis/core.hydra.io/v1alpha1/namespaces/default/components?\")', src/libcore/result.rs:999:5",
        source: "https://github.com/oam-dev/rudr/issues/50" },
    // Causes.
    Pattern { id: "postgres-password-failed", class: K(C::DbAuth), needle: "password authentication failed for user", at: At::Anywhere, dep: Dep::Quoted(D::User),
        example: "2022-08-11 08:14:53.894 UTC [214] FATAL:  password authentication failed for user \"postgres\"",
        source: "https://github.com/minio/operator/issues/1220" },
    Pattern { id: "mysql-cannot-connect", class: K(C::DbUnreachable), needle: "Can't connect to MySQL server on", at: At::Anywhere, dep: Dep::Quoted(D::Address),
        example: "mysql.connector.errors.InterfaceError: 2003: Can't connect to MySQL server on 'db:3307' (-2 Name or service not known)",
        source: "https://github.com/paulpierre/informer/issues/13" },
    Pattern { id: "postgres-connection-failed", class: K(C::DbUnreachable), needle: "connection to server at", at: At::Anywhere, dep: Dep::Quoted(D::Host),
        example: "psql: error: connection to server at \"serratus-aurora-20210406.cluster-ro-ccz9y6yshbls.us-east-1.rds.amazonaws.com\" (52.55.221.10), port 5432 failed: Connection refused",
        source: "https://github.com/ababaian/serratus/issues/282" },
    Pattern { id: "x509-expired", class: K(C::Tls), needle: "certificate has expired", at: At::Anywhere, dep: Dep::HostPort(D::Address),
        example: "x509: certificate has expired or is not yet valid: current time 2021-04-26T10:18:22+02:00 is after 2021-04-07T03:12:06Z",
        source: "https://github.com/yashbhutwala/kubectl-df-pv/issues/20" },
    Pattern { id: "x509-unknown-authority", class: K(C::Tls), needle: "certificate signed by unknown authority", at: At::Anywhere, dep: Dep::HostPort(D::Address),
        example: "Error: Kubernetes cluster unreachable: Get \"https://10.43.0.1:443/version?timeout=32s\": x509: certificate signed by unknown authority",
        source: "https://github.com/k3s-io/k3s/issues/2914" },
    Pattern { id: "go-no-such-host", class: K(C::Dns), needle: "no such host", at: At::Anywhere, dep: Dep::After("lookup ", D::Host),
        example: "error: couldn't read version from server: Get https://kubernetes.default.svc.cluster.local/api: dial tcp: lookup kubernetes.default.svc.cluster.local: no such host",
        source: "https://github.com/openshift/origin-aggregated-logging/issues/11" },
    Pattern { id: "curl-could-not-resolve", class: K(C::Dns), needle: "Could not resolve host", at: At::Anywhere, dep: Dep::After("Could not resolve host: ", D::Host),
        example: "curl: (6) Could not resolve host: rabbit",
        source: "https://github.com/ergonode/docker/issues/33" },
    Pattern { id: "name-or-service-not-known", class: K(C::Dns), needle: "Name or service not known", at: At::Anywhere, dep: Dep::None,
        example: "Hyper error: failed to lookup address information: Name or service not known",
        source: "https://github.com/databricks/click/issues/43" },
    Pattern { id: "node-enotfound", class: K(C::Dns), needle: "getaddrinfo ENOTFOUND", at: At::Anywhere, dep: Dep::After("getaddrinfo ENOTFOUND ", D::Host),
        example: "Error: getaddrinfo ENOTFOUND undefined",
        source: "https://github.com/aplotor/expanse/issues/27" },
    Pattern { id: "address-in-use", class: K(C::AddressInUse), needle: "address already in use", at: At::Anywhere, dep: Dep::HostPort(D::Address),
        example: "listen tcp 127.0.0.1:10251: bind: address already in use",
        source: "https://github.com/kubernetes/kubernetes/issues/18495" },
    Pattern { id: "connection-refused", class: K(C::ConnectionRefused), needle: "connection refused", at: At::Anywhere, dep: Dep::HostPort(D::Address),
        example: "dial tcp 10.128.0.43:10250: connect: connection refused",
        source: "https://github.com/apecloud/ApeRAG/issues/407" },
    Pattern { id: "node-econnrefused", class: K(C::ConnectionRefused), needle: "ECONNREFUSED", at: At::Anywhere, dep: Dep::HostPort(D::Address),
        example: "Error: connect ECONNREFUSED 127.0.0.1:6443",
        source: "https://github.com/samejack/web-k8s-exec/issues/1" },
    Pattern { id: "io-timeout", class: K(C::Timeout), needle: "i/o timeout", at: At::Anywhere, dep: Dep::HostPort(D::Address),
        example: "failed to get pod. Get https://10.96.0.1:443/api/v1/namespaces/rook-ceph-system/pods/rook-ceph-operator-cdc686667-jt96x: dial tcp 10.96.0.1:443: i/o timeout",
        source: "https://github.com/rook/rook/issues/2895" },
    Pattern { id: "exec-format-error", class: K(C::ExecFormat), needle: "exec format error", at: At::Anywhere, dep: Dep::None,
        example: "standard_init_linux.go:211: exec user process caused \"exec format error\"",
        source: "https://github.com/jitsi-contrib/jitsi-kubernetes/issues/5" },
    Pattern { id: "java-out-of-memory", class: K(C::OutOfMemory), needle: "java.lang.OutOfMemoryError", at: At::Anywhere, dep: Dep::None,
        example: "Exception in thread \"main\" java.lang.OutOfMemoryError: Java heap space",
        source: "https://github.com/RPiList/TarpitAn/issues/5" },
    Pattern { id: "node-heap-out-of-memory", class: K(C::OutOfMemory), needle: "JavaScript heap out of memory", at: At::Anywhere, dep: Dep::None,
        example: "FATAL ERROR: CALL_AND_RETRY_LAST Allocation failed - JavaScript heap out of memory",
        source: "https://github.com/mozilla/addons-frontend/issues/3916" },
    Pattern { id: "python-key-error", class: K(C::MissingKey), needle: "KeyError: ", at: At::Start, dep: Dep::Quoted(D::Key),
        example: "KeyError: 'LINK'",
        source: "https://github.com/Uninett/nav/issues/281" },
    Pattern { id: "no-such-file", class: K(C::MissingFile), needle: "no such file or directory", at: At::Anywhere, dep: Dep::PathToken,
        example: "standard_init_linux.go:219: exec user process caused: no such file or directory",
        source: "https://github.com/red-hat-storage/odf-operator/pull/33" },
    Pattern { id: "permission-denied", class: K(C::PermissionDenied), needle: "permission denied", at: At::Anywhere, dep: Dep::PathToken,
        example: "2015/01/07 22:11:09 Get http:///var/run/docker.sock/v1.15/containers/92c364736b0f/json: dial unix /var/run/docker.sock: permission denied",
        source: "https://github.com/kubernetes/kubernetes/issues/3286" },
];

/// Lines a process prints once it has started successfully: an error before one of them was not
/// its last word. Each with its source, as the patterns.
pub const STARTED: &[(&str, &str)] = &[
    (
        "database system is ready to accept connections",
        "https://github.com/bitnami/bitnami-docker-postgresql/issues/270",
    ),
    (
        "listening on IPv4 address",
        "https://github.com/bitnami/bitnami-docker-postgresql/issues/270",
    ),
];

/// How many ordinary lines may follow the terminal error (a shell's `exit 1`, a supervisor's
/// `Stopping…`).
pub const TOLERANCE: usize = 2;

/// Lines that belong to an error's trace or to the process's exit, and so do not count as the
/// process going on: frames, `goroutine`, `exit status`, npm's `npm ERR!` block…
const TRAILERS: &[&str] = &[
    "goroutine ",
    "created by ",
    "exit status ",
    "[signal ",
    "Caused by:",
    "Suppressed:",
    "... ",
    "Node.js v",
    "npm ERR!",
    "note: run with",
    "stack backtrace:",
    "During handling of the above exception",
    "The above exception was the direct cause",
    "Traceback (most recent call last):",
    "Emitted 'error' event",
    "{",
    "}",
    "^",
];

/// A dependency a line names, and what it is.
pub type Dependency = (DepKind, String);

/// The terminal error of a log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Terminal {
    /// The terminal line: (line, text).
    pub line: (u32, String),
    pub form: Option<Form>,
    pub cause: Option<Cause>,
    /// The id of the pattern that decided (the cause's, else the form's).
    pub pattern: &'static str,
    /// The dependency the line names, and what it is.
    pub dependency: Option<(DepKind, String)>,
    /// A line that goes with it: Go's first frame, the top of a Java exception chain, the line a
    /// Rust panic's message is on.
    pub context: Option<(u32, String)>,
}

/// The terminal error among `lines` (line number, text), if the log ends with one.
pub fn terminal(lines: &[(u32, &str)]) -> Option<Terminal> {
    let mut candidate: Option<Terminal> = None;
    let mut after = 0usize;
    let mut pending: Option<Form> = None;
    let mut i = 0;
    while i < lines.len() {
        let (number, raw) = lines[i];
        i += 1;
        let line = raw.trim_end();
        let body = line.trim_start();
        let indented = body.len() < line.len();
        if body.is_empty() {
            continue;
        }
        if STARTED.iter().any(|(s, _)| body.contains(s)) {
            candidate = None;
            pending = None;
            after = 0;
            continue;
        }
        // The line after `Traceback` that is not indented, or after `throw` that names an error.
        match pending {
            Some(Form::PythonTraceback) if !indented && !is_trailer(body) => {
                pending = None;
                candidate = Some(found(number, body, Some(Form::PythonTraceback), None));
                after = 0;
                continue;
            }
            Some(Form::NodeUncaught) if !indented && names_js_error(body) => {
                pending = None;
                candidate = Some(found(number, body, Some(Form::NodeUncaught), None));
                after = 0;
                continue;
            }
            _ => {}
        }
        // A bare exception line is Java's only with a stack frame under it (Python's dotted
        // exceptions look the same).
        let form = form_at(body);
        let framed = lines
            .get(i)
            .is_some_and(|(_, next)| next.trim_start().starts_with("at "));
        let java = form.is_none() && !indented && framed && java_exception_line(body);
        let cause = form.is_none() && !java && !indented && cause_of(body).is_some();
        // A line at info or debug level is never an error, whatever it quotes.
        if (form.is_some() || java || cause) && quiet_level(body) {
            after += usize::from(candidate.is_some());
            continue;
        }
        if let Some(form) = form {
            match form {
                Form::PythonTraceback | Form::NodeUncaught => {
                    pending = Some(form);
                    continue;
                }
                Form::JavaException if body.starts_with("Caused by: ") => {
                    if let Some(c) = candidate.as_mut().filter(|c| c.form == Some(Form::JavaException)) {
                        // The deepest cause is the terminal line; the top of the chain its context.
                        let top = c.context.take().unwrap_or_else(|| c.line.clone());
                        *c = found(number, body, Some(Form::JavaException), Some(top));
                        after = 0;
                        continue;
                    }
                    candidate = Some(found(number, body, Some(Form::JavaException), None));
                    after = 0;
                    continue;
                }
                Form::GoPanic => {
                    let frame = go_first_frame(&lines[i..]);
                    candidate = Some(found(number, body, Some(Form::GoPanic), frame));
                    after = 0;
                    continue;
                }
                Form::RustPanic => {
                    // Since Rust 1.73 the message is on the next line: `panicked at src/main.rs:5:5:`.
                    let message = body
                        .ends_with(':')
                        .then(|| lines.get(i).map(|(n, t)| (*n, t.trim().to_string())))
                        .flatten();
                    let mut t = found(number, body, Some(Form::RustPanic), None);
                    if let Some((n, text)) = message {
                        if let Some((cause, pattern, dep)) = cause_of(&text) {
                            t.cause = Some(cause);
                            t.pattern = pattern;
                            t.dependency = dep;
                        }
                        t.context = Some((n, text));
                        i += 1;
                    }
                    candidate = Some(t);
                    after = 0;
                    continue;
                }
                Form::JavaException => {
                    candidate = Some(found(number, body, Some(Form::JavaException), None));
                    after = 0;
                    continue;
                }
            }
        }
        if java {
            candidate = Some(found(number, body, Some(Form::JavaException), None));
            after = 0;
            continue;
        }
        if cause {
            candidate = Some(found(number, body, None, None));
            after = 0;
            continue;
        }
        if candidate.is_some() && !(indented || is_trailer(body) || go_function_line(body)) {
            after += 1;
        }
    }
    candidate.filter(|c| after <= TOLERANCE && (c.cause.is_some() || c.form.is_some()))
}

/// A terminal error at `line`, its cause read from the line.
fn found(number: u32, body: &str, form: Option<Form>, context: Option<(u32, String)>) -> Terminal {
    let cause = cause_of(body);
    let form_id = form.and_then(|f| PATTERNS.iter().find(|p| p.class == Class::Form(f)).map(|p| p.id));
    Terminal {
        line: (number, body.to_string()),
        form,
        cause: cause.as_ref().map(|(c, _, _)| *c),
        pattern: cause.as_ref().map(|(_, p, _)| *p).or(form_id).unwrap_or_default(),
        dependency: cause.and_then(|(_, _, d)| d),
        context,
    }
}

/// The form a line starts, if it starts one (a form's needle is matched as written).
fn form_at(body: &str) -> Option<Form> {
    PATTERNS.iter().find_map(|p| match p.class {
        Class::Form(form) => {
            let hit = match p.at {
                At::Start => body.starts_with(p.needle),
                At::Anywhere => body.contains(p.needle),
            };
            hit.then_some(form)
        }
        Class::Cause(_) => None,
    })
}

/// Each needle in lower case with its searcher, built once: a log's lines are lowered once each and
/// searched with `memchr`'s substring search (a few hundred lines per log, about 20 needles each).
fn finders() -> &'static [memchr::memmem::Finder<'static>] {
    static FINDERS: std::sync::OnceLock<Vec<memchr::memmem::Finder<'static>>> = std::sync::OnceLock::new();
    FINDERS.get_or_init(|| {
        PATTERNS
            .iter()
            .map(|p| memchr::memmem::Finder::new(p.needle.to_ascii_lowercase().as_bytes()).into_owned())
            .collect()
    })
}

fn matches(p: &Pattern, finder: &memchr::memmem::Finder<'_>, body: &str, lower: &str) -> bool {
    match p.at {
        At::Start => body.starts_with(p.needle),
        At::Anywhere => finder.find(lower.as_bytes()).is_some(),
    }
}

/// The first cause the table finds in a line: (cause, pattern id, dependency).
pub fn cause_of(body: &str) -> Option<(Cause, &'static str, Option<Dependency>)> {
    let lower = body.to_ascii_lowercase();
    PATTERNS
        .iter()
        .zip(finders())
        .find_map(|(p, finder)| match p.class {
            Class::Cause(cause) if matches(p, finder, body, &lower) => {
                Some((cause, p.id, dependency(p, body)))
            }
            _ => None,
        })
}

fn dependency(p: &Pattern, body: &str) -> Option<(DepKind, String)> {
    let lower = body.to_ascii_lowercase();
    let at = lower.find(&p.needle.to_ascii_lowercase()).unwrap_or(0);
    match p.dep {
        Dep::None => None,
        Dep::HostPort(kind) => host_port(body).map(|h| (kind, h)),
        Dep::After(literal, kind) => {
            let from = body.find(literal)? + literal.len();
            let token: String = body[from..]
                .chars()
                .take_while(|c| !c.is_whitespace() && !matches!(c, '\'' | '"' | ',' | ')' | '('))
                .collect();
            let token = token.trim_end_matches([':', '.']).to_string();
            (!token.is_empty()).then_some((kind, token))
        }
        Dep::Quoted(kind) => {
            let rest = &body[at + p.needle.len().min(body.len() - at)..];
            let open = rest.find(['\'', '"'])?;
            let quote = rest[open..].chars().next()?;
            let inner = &rest[open + 1..];
            let close = inner.find(quote)?;
            let value = &inner[..close];
            (!value.is_empty() && value.len() <= 200).then(|| (kind, value.to_string()))
        }
        Dep::PathToken => body
            .split(|c: char| c.is_whitespace() || matches!(c, '\'' | '"' | '(' | ')' | ','))
            .map(|t| t.trim_end_matches(':'))
            .find(|t| t.len() > 1 && t.starts_with('/') && !t.starts_with("//"))
            .map(|t| (DepKind::Path, t.to_string())),
    }
}

/// The first `host:port` token of a line: `10.0.0.5:5432`, `db:3306`, `[::1]:8080`, `:8080`. A
/// time (`12:00:01`) is not one: its host part has neither a letter nor a dot.
pub fn host_port(body: &str) -> Option<String> {
    body.split(|c: char| c.is_whitespace() || matches!(c, '\'' | '"' | '(' | ')' | ',' | '/' | '='))
        .map(|t| t.trim_end_matches([':', '.', ';']))
        .find(|t| {
            let Some((host, port)) = t.rsplit_once(':') else {
                return false;
            };
            let port_ok = !port.is_empty() && port.len() <= 5 && port.bytes().all(|b| b.is_ascii_digit());
            let bracketed = host.starts_with('[') && host.ends_with(']');
            let host_ok = host.is_empty()
                || bracketed
                || !host.contains(':')
                    && host
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-')
                    && host.bytes().any(|b| b.is_ascii_alphabetic() || b == b'.');
            port_ok && host_ok
        })
        .map(str::to_string)
}

/// A level below warning: `level=info`, `"level":"info"`, `INFO`, `[DEBUG]`, klog's `I0102`.
fn quiet_level(body: &str) -> bool {
    let lower = body.to_ascii_lowercase();
    let klog_info = body.starts_with('I')
        && body.len() > 5
        && body.as_bytes()[1..5].iter().all(u8::is_ascii_digit)
        && body.as_bytes()[5] == b' ';
    klog_info
        || [
            "level=info",
            "level=debug",
            "level=trace",
            "\"level\":\"info\"",
            "\"level\":\"debug\"",
            "\"level\": \"info\"",
        ]
        .iter()
        .any(|l| lower.contains(l))
        || [" INFO ", "[INFO]", " DEBUG ", "[DEBUG]", " TRACE "]
            .iter()
            .any(|l| body.contains(l))
        || body.starts_with("INFO")
        || body.starts_with("DEBUG")
}

fn is_trailer(body: &str) -> bool {
    TRAILERS.iter().any(|t| body.starts_with(t))
}

/// `main.main()`, `github.com/x/y.(*T).Run(0xc000…, …)`: a Go frame's function line.
fn go_function_line(body: &str) -> bool {
    body.ends_with(')')
        && body
            .split_once('(')
            .is_some_and(|(head, _)| !head.is_empty() && !head.contains(' ') && head.contains('.'))
}

/// A Java exception at the start of a line: `org.postgresql.util.PSQLException: …`.
fn java_exception_line(body: &str) -> bool {
    let name = body.split([':', ' ']).next().unwrap_or_default();
    name.contains('.')
        && (name.ends_with("Exception") || name.ends_with("Error"))
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '$' | '_'))
        && name.chars().next().is_some_and(|c| c.is_ascii_lowercase())
}

/// `Error: …`, `TypeError: …`, `Error [ERR_MODULE_NOT_FOUND]: …`: the error Node.js prints after
/// `throw`.
fn names_js_error(body: &str) -> bool {
    let head = body.split(':').next().unwrap_or_default();
    let name = head.split(' ').next().unwrap_or_default();
    body.contains(':')
        && name.ends_with("Error")
        && name.chars().all(|c| c.is_ascii_alphanumeric())
        && (head == name || head[name.len()..].trim_start().starts_with('['))
}

/// The first frame of a Go panic's goroutine that is not the runtime's: the function line under
/// `goroutine N [running]:`.
fn go_first_frame(rest: &[(u32, &str)]) -> Option<(u32, String)> {
    let start = rest
        .iter()
        .take(8)
        .position(|(_, l)| l.trim_start().starts_with("goroutine "))?;
    rest[start + 1..]
        .iter()
        .take(40)
        .map(|(n, l)| (*n, l.trim()))
        .filter(|(_, l)| go_function_line(l))
        .find(|(_, l)| {
            !l.starts_with("panic(")
                && !l.starts_with("runtime.")
                && !l.starts_with("k8s.io/apimachinery/pkg/util/runtime.")
        })
        .map(|(n, l)| (n, l.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str) -> Option<Terminal> {
        let lines: Vec<(u32, &str)> = (1..).zip(text.lines()).collect();
        terminal(&lines)
    }

    /// Every example of the table is recognised as what its entry says, alone as a log's last line
    /// (a form's example with what its form needs around it).
    #[test]
    fn every_example_is_its_own_pattern() {
        for p in PATTERNS {
            match p.class {
                Class::Cause(cause) => {
                    let got = cause_of(p.example).map(|(c, _, _)| c);
                    assert_eq!(got, Some(cause), "{}: {}", p.id, p.example);
                }
                Class::Form(form) => assert!(form_at(p.example.trim_start()) == Some(form), "{}", p.id),
            }
            assert!(p.source.starts_with("https://github.com/"), "{}", p.id);
        }
    }

    #[test]
    fn forms_pick_their_terminal_line() {
        let go = "panic: dial tcp 10.0.0.7:5432: connect: connection refused\n\ngoroutine 1 [running]:\nmain.main()\n\t/app/main.go:25 +0x1d\nexit status 2\n";
        let t = run(go).unwrap();
        assert_eq!(
            (t.line.0, t.form, t.cause),
            (1, Some(Form::GoPanic), Some(Cause::ConnectionRefused))
        );
        assert_eq!(t.dependency, Some((DepKind::Address, "10.0.0.7:5432".into())));
        assert_eq!(t.context, Some((4, "main.main()".into())));

        let py = "Traceback (most recent call last):\n  File \"/app/main.py\", line 3, in <module>\n    HOST = os.environ['SMTP_HOST']\n  File \"/usr/lib/python3.11/os.py\", line 679, in __getitem__\n    raise KeyError(key) from None\nKeyError: 'SMTP_HOST'\n";
        let t = run(py).unwrap();
        assert_eq!((t.line.0, t.cause), (6, Some(Cause::MissingKey)));
        assert_eq!(t.dependency, Some((DepKind::Key, "SMTP_HOST".into())));

        let java = "Exception in thread \"main\" java.lang.RuntimeException: boot failed\n\tat a.B.c(B.java:1)\nCaused by: java.sql.SQLException: x\n\tat d.E.f(E.java:2)\nCaused by: java.net.ConnectException: Connection refused (Connection refused) db.shop.svc:5432\n\t... 3 more\n";
        let t = run(java).unwrap();
        assert_eq!((t.line.0, t.cause), (5, Some(Cause::ConnectionRefused)));
        assert_eq!(t.context.map(|c| c.0), Some(1));
        assert_eq!(t.dependency, Some((DepKind::Address, "db.shop.svc:5432".into())));

        let rust = "thread 'main' panicked at src/main.rs:5:5:\nfailed to bind: Os { code: 98, kind: AddrInUse, message: \"Address already in use\" }\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n";
        let t = run(rust).unwrap();
        assert_eq!(
            (t.line.0, t.form, t.cause),
            (1, Some(Form::RustPanic), Some(Cause::AddressInUse))
        );
    }

    #[test]
    fn an_error_followed_by_a_start_or_at_info_level_is_not_terminal() {
        assert_eq!(run("Error: connect ECONNREFUSED 10.0.0.5:5432\nretrying in 5s\nLOG:  listening on IPv4 address \"0.0.0.0\", port 5432\n"), None);
        assert_eq!(
            run("level=info msg=\"connection refused by db:5432, retrying\"\n"),
            None
        );
        assert_eq!(
            run("2024-01-01 ERROR dial tcp db:5432: connection refused\na\nb\nc\nd\n"),
            None
        );
        assert!(run("2024-01-01 ERROR dial tcp db:5432: connection refused\nexit status 1\n").is_some());
    }

    #[test]
    fn host_ports_and_times() {
        assert_eq!(
            host_port("at 12:00:01 dial tcp db:3306: refused"),
            Some("db:3306".into())
        );
        assert_eq!(host_port("listen tcp :8080: bind"), Some(":8080".into()));
        assert_eq!(host_port("10:44 nothing"), None);
    }
}
