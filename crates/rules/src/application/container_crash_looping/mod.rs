//! `container-crash-looping`: its docs and its check, which reads four sources of evidence from
//! the strongest to the weakest — the Pod's status ([`status`]), restarts whose status shows no
//! termination ([`restarts`]), the kubelet's back-off events alone ([`events`]) and a `kubectl get
//! pods` row ([`table_row`]) — each in its own file.

use faultline_model::Model;
use faultline_report::{Boundary, Finding, ObjectRef};

mod events;
mod messages;
mod restarts;
mod status;
mod table_row;

pub use messages::Msg;
pub use status::exit_code_meaning;

crate::declare_rule! {
    /// ## What it finds
    /// A container that started and then exited with an error, again and again: `CrashLoopBackOff`,
    /// or restarts, with a last termination that has a non-zero exit code; or a container that
    /// terminated with an error in a Pod that does not restart it. The exit code is explained (1
    /// application error, 2 usage error, 126 not executable, 127 not found, 134 abort, 137 killed,
    /// 139 segmentation fault, 143 terminated) and the termination message is cited. Containers killed
    /// for memory and containers whose process never started are left to their own rules.
    ///
    /// ## Why it matters
    /// The node, the runtime and the image did their part: the process ran and chose to exit (or
    /// crashed). The cause is in the application's code, configuration or dependencies, and its logs
    /// from the previous run are the next evidence.
    ///
    /// ## Evidence
    /// The waiting reason, the termination reason, exit code, message and times, the restart count,
    /// and the Pod's `BackOff` events. With the Pod not pasted, its `Back-off restarting failed
    /// container` events alone: a hint, which says so and cannot give the exit code. Restarts that are
    /// liveness kills are listed under `liveness-probe-failing`. When the container's log is pasted
    /// (`kubectl logs … --previous` after its prompt, a file named like a log, or a crash recognised
    /// by its shape beside the describe), the line it ended on is cited: the terminal error of a Go
    /// panic (with its first frame), a Python traceback, a Java exception's deepest `Caused by:`, a
    /// Node.js or Rust crash, or a line naming a refused connection, a DNS failure, a certificate, a
    /// missing file or key, an exhausted heap or a database refusing its credentials; the summary says
    /// which kind it is, and the dependency the line names (the Service of that name, when pasted).
    /// A `kubectl get pods` row alone: STATUS `CrashLoopBackOff` or `Error`; or STATUS `Running`
    /// with a RESTARTS cell that kubectl ≥ 1.27 dates, 3 or more restarts the last under 10 minutes
    /// ago (`5 (2m ago)`): a warning, from the weakest evidence, that says what the Pod's describe
    /// would show. A last restart long ago (`10 (43d ago)`) or a count without its age (older
    /// kubectl) proves nothing current and stays quiet.
    ///
    /// A container that runs and is ready again after earlier exits is judged against how long it
    /// has run since: when the input shows 10 minutes or more since its last restart (its
    /// `startedAt` before the newest time of the Pod's events, or the Pod's last `BackOff`,
    /// `Started`, `Created` or `Killing` event that long before the capture), the kubelet has reset
    /// its back-off and the exits are history (an info line, "failed until …, recovered"). When the
    /// input cannot tell, a warning that says so: a container running now after 5 restarts in 10
    /// minutes still crash-loops.
    ///
    /// A container whose status shows no termination at all (kubectl before 1.1 printed no `Last
    /// State`) but 3 or more restarts, running and not ready, started less than 10 minutes before
    /// the newest time of the Pod's events: a warning that it keeps restarting, with how it ended
    /// unknown.
    ///
    /// ## Fault boundary
    /// `application`: the container's own process.
    ///
    /// ## What this evidence cannot establish
    /// Why the application exited: that is in its logs. Whether a dependency it needs (a database, a
    /// config file, a service) is what failed. An exit code of 137 without `OOMKilled` can be a
    /// liveness-probe kill or an external SIGKILL. With the log pasted: that its last line is what
    /// the process said, not proof of why; and a refused connection does not say whether the
    /// dependency is down or its address wrong.
    ///
    /// ## Next evidence to collect
    /// `kubectl logs --previous` for the container, its command and configuration, and the events
    /// for liveness-probe failures.
    ///
    /// ## Example
    /// ```text
    ///     State:       Waiting
    ///       Reason:    CrashLoopBackOff
    ///     Last State:  Terminated
    ///       Reason:    Error
    ///       Message:   fatal: load config: unknown field "retry_backof"
    ///       Exit Code: 1
    /// ```
    pub const RULE = { id: "container-crash-looping", boundary: Boundary::Application, components: [Containers], check: check };
}

/// Restarts that make a Running row a crash loop: this many, the last within the kubelet's back-off
/// reset ([`crate::history::BACKOFF_RESET`]). One or two are a node reboot or a dependency that came up
/// late (every Pod of a node shows `1 (7m ago)` after a reboot); three and more in a row, the last
/// minutes ago, are the kubelet's back-off cycle between exits.
const LOOPING_RESTARTS: u32 = 3;

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    events::check(model, findings);
    restarts::check(model, findings);
    crate::table_status::check(&RULE, &table_row::TABLE, model, findings);
    table_row::check(model, findings);
    status::check(model, findings);
}

/// `kubectl get pod` of the containers' last states: how they ended.
fn last_states(id: &ObjectRef, ns: &str) -> String {
    command!(
        "kubectl get pod {} -n {} -o jsonpath='{{.status.containerStatuses[*].lastState}}'",
        id.name,
        ns
    )
}
