//! The crash read from the Pod's status: a container's termination (exit code, reason, message),
//! its restarts and the Pod's last `BackOff` event, with its log's last line when pasted.

use super::{Msg, RULE};
use crate::containers::{containers, ContainerView};
use crate::history;
use crate::node_runtime::container_start_failed::never_started;
use faultline_ingest::api::Pod;
use faultline_ingest::{Object, Typed};
use faultline_model::views::container_exit::{restart_policy, ContainerExit};
use faultline_model::Model;
use faultline_report::message::common;
use faultline_report::{Finding, Severity};

/// What an exit code usually means for a containerised process.
pub fn exit_code_meaning(code: i32) -> Msg {
    match code {
        1 => Msg::ExitGeneralError {},
        2 => Msg::ExitUsageError {},
        126 => Msg::ExitNotExecutable {},
        127 => Msg::ExitNotFound {},
        128 => Msg::ExitInvalidArgument {},
        134 => Msg::ExitAborted {},
        137 => Msg::ExitKilled {},
        139 => Msg::ExitSegfault {},
        143 => Msg::ExitTerminated {},
        c if c > 128 => Msg::ExitSignal {},
        _ => Msg::ExitApplicationDefined {},
    }
}

pub(super) fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    for object in model.objects {
        let Typed::Pod(pod) = &object.typed else { continue };
        let views = containers(pod);
        let first_regular = views.iter().find(|v| !v.init).map(|v| v.status.name.clone());
        for c in views {
            let Some(exit) = ContainerExit::crash(c.status, restart_policy(pod)) else {
                continue;
            };
            if never_started(&c) {
                continue;
            }
            let first = first_regular.as_deref() == Some(c.status.name.as_str()) && !c.init;
            findings.push(crash(model, object, pod, &c, exit, first));
        }
    }
}

/// The finding of one container that crashed; `first` when it is the Pod's first regular
/// container, whose log a paste without `-c` shows.
fn crash(
    model: &Model<'_>,
    object: &Object,
    pod: &Pod,
    c: &ContainerView<'_>,
    exit: ContainerExit<'_>,
    first: bool,
) -> Finding {
    let (id, name, code) = (&object.id, &c.status.name, exit.terminated.exit_code);
    let ns = id.namespace.as_deref().unwrap_or(crate::UNKNOWN_NAMESPACE);
    let mut evidence = exit.evidence(model, object, &c.status_path);
    // The kubelet's restart back-off for this container (or one that names none), never an image
    // pull's "Back-off pulling image".
    let backoff = model.events_for(id).into_iter().rfind(|e| {
        e.restart_backoff()
            .is_some_and(|b| b.container.is_none_or(|c| c == name.as_str()))
    });
    evidence.extend(backoff.and_then(|e| model.event_evidence(e)));
    // The container's log, when it was pasted: its terminal error, cited by line.
    let log = crate::log_evidence::for_container(model, id, name, first);
    evidence.extend(log.iter().flat_map(|l| l.evidence.iter().cloned()));
    // Running and ready again after earlier exits: history when the input shows it has run long
    // enough since its last restart that the kubelet reset its back-off; else a warning, since a
    // container that runs now after 5 restarts in 10 minutes still loops.
    let recovered = exit.recovered(c.status);
    let stayed_up = recovered.then(|| history::stayed_up(model, object, c)).flatten();
    let summary = Msg::Crash {
        subject: id.clone(),
        container: (!name.is_empty()).then(|| name.as_str().into()),
        what: Box::new(how_it_exited(pod, &exit).into()),
        last_words: exit.last_words().map(str::to_string),
        restarts: u32::try_from(c.status.restart_count).ok().filter(|r| *r > 0),
        recovered,
        log: log.as_ref().map(|l| Box::new(l.said.clone())),
    };
    // With its log pasted, what the log cannot establish replaces "that is in its logs".
    let mut cannot = log
        .as_ref()
        .map_or_else(|| vec![Msg::WhyExited {}.into()], |l| l.cannot.clone());
    cannot.push(Msg::Dependency {}.into());
    cannot.extend((code == 137).then(|| Msg::Exit137WithoutOom {}.into()));
    if exit.last_words().is_none() && log.is_none() {
        cannot.push(Msg::NoTerminationMessage {}.into());
    }
    if recovered && stayed_up.is_none() {
        cannot.insert(0, history::restarts_may_rise(model, object, c));
    }
    let mut steps = vec![
        crate::next_steps::previous_logs(id, name),
        command!("kubectl describe pod {} -n {}", id.name, ns),
        command!("kubectl events -n {} --for pod/{}", ns, id.name),
    ];
    steps.extend(log.and_then(|l| l.next));
    let severity = [Severity::Error, Severity::Warning][usize::from(recovered)];
    let mut finding = RULE.finding(severity, id.clone(), summary, evidence, cannot, steps);
    let until = exit.terminated.finished_at.as_ref().map(|t| t.0.to_string());
    if let Some(recovery) = stayed_up {
        history::record(
            &mut finding,
            until.map(|at| common::Msg::Time { at }.into()),
            recovery,
        );
    }
    finding
}

/// How the container exited: a command that finishes under a restarting policy, a crash loop, or
/// one exit, with what its exit code usually means.
fn how_it_exited(pod: &Pod, exit: &ContainerExit<'_>) -> Msg {
    let code = exit.terminated.exit_code;
    let meaning = Box::new(exit_code_meaning(code).into());
    match (exit.completed(), exit.looping) {
        (true, _) => Msg::CompletesAndRestarts {
            reason: exit.terminated.reason.as_deref().unwrap_or("Completed").into(),
            restart_policy: restart_policy(pod).into(),
        },
        (false, true) => Msg::KeepsCrashing { code, meaning },
        (false, false) => Msg::Exited { code, meaning },
    }
}
