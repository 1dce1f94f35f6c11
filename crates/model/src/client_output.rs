//! Evidence from text that is not an object: kubectl's own messages and other commands' output.
//! The weakest kind of evidence (message wording drifts between releases): rules use it when it is
//! all there is, and say so. It lives in the model, not in the rules, because the model's own facts
//! (a Service's business response) read it too.

use crate::Model;
use faultline_ingest::http::HttpStatus;
use faultline_ingest::CommandOutput;
use faultline_report::Evidence;

/// Where to look for text evidence.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// kubectl's own messages and other commands' output: what a client saw.
    ClientOutput,
    /// Those and the messages of events (controllers and kubelets relaying an error).
    WithEvents,
    /// Only what a client of the API server printed: kubectl's own messages and the output of
    /// commands that talk to the API server — not `kubectl exec`, `logs` or `port-forward`, whose
    /// output is a container's or an application's, nor `curl` to a Service.
    ApiClient,
}

/// Whether a command's output is the API server's answer (so its errors are the API server's).
pub fn talks_to_api(command: &str) -> bool {
    // `ssh cp-1 'sudo kubeadm certs check-expiration'`: the command run remotely, without sudo.
    let mut words = command
        .split_whitespace()
        .map(|w| w.trim_matches(['\'', '"']))
        .peekable();
    if words.peek() == Some(&"ssh") {
        words.next();
        while let Some(flag) = words.next_if(|w| w.starts_with('-')) {
            if matches!(flag, "-i" | "-p" | "-l" | "-o" | "-J" | "-F") {
                words.next();
            }
        }
        words.next(); // the host
    }
    while words.peek().is_some_and(|w| *w == "sudo" || w.is_empty()) {
        words.next();
    }
    let Some(program) = words.next() else {
        return false;
    };
    match program.rsplit('/').next().unwrap_or(program) {
        "kubectl" | "oc" => {
            // The first word that is not a flag (or a flag's value) is the verb.
            let mut verb = "";
            let mut takes_value = false;
            for w in words {
                if takes_value {
                    takes_value = false;
                } else if w.starts_with('-') {
                    takes_value = !w.contains('=')
                        && matches!(
                            w,
                            "-n" | "--namespace"
                                | "--context"
                                | "--kubeconfig"
                                | "-s"
                                | "--server"
                                | "--cluster"
                                | "--user"
                                | "--as"
                        );
                } else {
                    verb = w;
                    break;
                }
            }
            !matches!(
                verb,
                "exec" | "logs" | "attach" | "port-forward" | "debug" | "cp" | "run" | "proxy"
            ) && !command.contains(" -- ")
        }
        // etcdctl talks to etcd, not to the API server: its errors are etcd's (the etcd rules read them).
        "kubeadm" => true,
        _ => false,
    }
}

/// Every kubectl message and every line of other commands' output (and, with [`Scope::WithEvents`],
/// every event) that contains one of `needles`, as evidence at its own line.
pub fn lines_containing(model: &Model<'_>, needles: &[&str], scope: Scope) -> Vec<Evidence> {
    let mut found = Vec::new();
    for (source, message) in model.messages {
        for (offset, line) in message.text.lines().enumerate() {
            if needles.iter().any(|n| line.contains(n)) {
                found.push(Evidence {
                    source: model.source_name(*source),
                    line: message.line + offset as u32,
                    path: message
                        .command
                        .as_deref()
                        .map_or("kubectl".to_string(), |c| format!("output of `{c}`")),
                    value: line.trim().to_string(),
                });
                break;
            }
        }
    }
    for output in model.outputs {
        if scope == Scope::ApiClient && !talks_to_api(&output.command) {
            continue;
        }
        for (offset, line) in output.text.lines().enumerate() {
            if needles.iter().any(|n| line.contains(n)) {
                found.push(Evidence {
                    source: model.source_name(output.source),
                    line: output.first_line + offset as u32,
                    path: format!("output of `{}`", output.command),
                    value: line.trim().to_string(),
                });
            }
        }
    }
    // A kubectl message read from a command's output is that output's line too: cited once.
    let mut seen = faultline_report::hash::Set::default();
    found.retain(|e: &Evidence| seen.insert((e.source.clone(), e.line)));
    if scope == Scope::WithEvents {
        for event in &model.events {
            if needles.iter().any(|n| event.message.contains(n)) {
                found.extend(model.event_evidence(event));
            }
        }
    }
    found
}

/// The HTTP statuses a client saw or an application logged, in input order: those of every output
/// that is not the API server's answer ([`talks_to_api`]), as ingest read them
/// ([`CommandOutput::http`]). The rule `http-server-errors` and the business-response fact both
/// read these, so they cannot disagree on what a line says.
pub fn http_statuses<'m>(
    model: &'m Model<'_>,
) -> impl Iterator<Item = (&'m CommandOutput, &'m HttpStatus)> + 'm {
    request_outputs(model).flat_map(|o| o.http.iter().map(move |s| (o, s)))
}

/// The outputs whose HTTP statuses are a client's or an application's: not the API server's.
pub fn request_outputs<'m>(model: &'m Model<'_>) -> impl Iterator<Item = &'m CommandOutput> + 'm {
    model.outputs.iter().filter(|o| !talks_to_api(&o.command))
}

/// The line of `output` at `offset` as evidence, cited as the output of its command.
pub fn output_line(model: &Model<'_>, output: &CommandOutput, offset: usize) -> Evidence {
    Evidence {
        source: model.source_name(output.source),
        line: output.first_line + offset as u32,
        path: format!("output of `{}`", output.command),
        value: output
            .text
            .lines()
            .nth(offset)
            .map(|l| l.trim().to_string())
            .unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::talks_to_api;

    #[test]
    fn only_api_commands_speak_for_the_api_server() {
        assert!(talks_to_api("kubectl get pods -A"));
        assert!(talks_to_api("kubectl -n shop describe pod web"));
        assert!(talks_to_api("kubeadm certs check-expiration"));
        assert!(talks_to_api("ssh cp-a 'sudo kubeadm certs check-expiration'"));
        assert!(talks_to_api(
            "ssh -i ~/.ssh/ops -p 2222 cp-a sudo kubeadm certs check-expiration"
        ));
        assert!(!talks_to_api(
            "kubectl exec -n shop deploy/frontend -- curl -sS http://checkout:8080/"
        ));
        assert!(!talks_to_api("kubectl logs -n shop web-1 --previous"));
        assert!(!talks_to_api("kubectl -n shop logs web-1"));
        assert!(!talks_to_api("curl -i http://checkout.shop.svc:8080/healthz"));
    }
}
