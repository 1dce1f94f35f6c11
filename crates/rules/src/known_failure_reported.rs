use faultline_model::known::{self, KnownLine, LineSet};
use faultline_model::EventRecord;
use faultline_model::Model;
use faultline_report::hash::Map;
use faultline_report::{Boundary, Component, Detail, Evidence, Finding, ObjectRef, Severity, Text};

crate::declare_rule! {
    /// ## What it finds
    /// A line that a Kubernetes component, a container runtime, a network or storage plugin, an
    /// add-on or a client prints when something fails — one of the catalog's entries
    /// (`catalog/*.toml`, each with its source) — where no other rule found a fault. Where the
    /// others found only generic symptoms (a crash loop, a probe failing, 5xx: `crate::GENERIC`), a
    /// network, DNS or storage line still is (`dial tcp: lookup postgres on 127.0.0.53:53: …
    /// connection refused` beside a client's crash loop: the lookup is why it crashes). The line is
    /// known whatever layout it sits in: an events-table row, a describe `Events:` section, a klog
    /// or journal line, a JSON log, a sentence of prose.
    ///
    /// ## Why it matters
    /// A paste is often one line: the error a command printed, a log line, an event quoted in a
    /// question. Said nothing about, it reads as "no fault". Each catalog entry names the fault
    /// boundary its component's failure points to, so one known line is already evidence of where
    /// to look.
    ///
    /// ## Evidence
    /// The line, with the entry it matched (component, reason, source) and the objects its
    /// placeholders named (a Pod, a Node, a claim). One finding per entry and object; several lines
    /// of the same entry are cited together. It reports only when no other rule found an error or a
    /// warning (a lint, a risk in a spec, does not count): a rule that reads the object says more
    /// than its line.
    ///
    /// ## Fault boundary
    /// The entry's: `control-plane`, `etcd`, `scheduling`, `node-runtime`, `quota-admission`,
    /// `zone-network-storage`, `readiness-endpoints` or `application`.
    ///
    /// ## What this evidence cannot establish
    /// Whether the failure still happens now, and which object it ultimately comes from: no object
    /// it names was pasted with its state. A line a component prints is its view; the cause may be
    /// another component's.
    ///
    /// ## Next evidence to collect
    /// The object the line names (`kubectl describe`), the Warning events around it
    /// (`kubectl get events -A --field-selector type=Warning`), and the command the boundary calls
    /// for: the Nodes for `node-runtime`, CoreDNS's endpoints for a DNS failure, the claims for
    /// storage, the API server's health for `control-plane`.
    ///
    /// ## Example
    /// ```text
    /// [ERROR] plugin/errors: 2 identity-3.eu-de-1.cloud.sap. A: read udp 10.244.1.6:36797->168.63.129.16:53: i/o timeout
    /// ```
    pub const RULE = { id: "known-failure-reported", boundary: Boundary::Application, components: [ApiServer if Serves, Etcd if Serves, Scheduler if Serves, ControllerManager if Serves, CloudControllerManager if Serves, Kubelet if Serves, Runtime if Serves, ProxyCni if Serves, Volumes if Serves, ServiceSlice if Serves, Containers if Serves], also_at: [Boundary::ControlPlane, Boundary::Etcd, Boundary::Scheduling, Boundary::NodeRuntime, Boundary::QuotaAdmission, Boundary::ZoneNetworkStorage, Boundary::ReadinessEndpoints], check: check };
}

/// The kinds an entry's `subject` may name, with the placeholder that carries the name.
const NAMED_BY: &[(&str, &str)] = &[
    ("Pod", "pod"),
    ("Node", "node"),
    ("PersistentVolumeClaim", "pvc"),
    ("PersistentVolume", "pv"),
    ("StorageClass", "storageclass"),
    ("Service", "service"),
    ("Secret", "secret"),
    ("ConfigMap", "configmap"),
    ("ResourceQuota", "quota"),
];

/// The object a known line is about, as far as the line says: its entry's kind, named by the
/// placeholder of that kind (and the namespace, where the line gives one).
fn subject(model: &Model<'_>, known: &KnownLine) -> Option<ObjectRef> {
    let entry = known.recognised.entry;
    let kind = entry.subject;
    let named = NAMED_BY.iter().find(|(k, _)| *k == kind);
    let named = named.filter(|(_, hole)| known.recognised.value(hole).is_some());
    let Some((_, hole)) = named else {
        // A line of `kubectl logs POD` is that Pod's.
        return model.log_block_at(known.source, known.line)?.object();
    };
    let name = known.recognised.value(hole).unwrap_or_default();
    let (namespace, name) = match name.split_once('/') {
        Some((ns, n)) if kind != "Node" => (Some(ns), n),
        _ => (known.recognised.value("namespace"), name),
    };
    // A kubelet names a Pod `name_namespace(uid)`.
    let (name, namespace) = match name.split_once('_') {
        Some((n, rest)) if kind == "Pod" && namespace.is_none() => {
            (n, Some(rest.split('(').next().unwrap_or(rest)))
        }
        _ => (name, namespace),
    };
    Some(ObjectRef {
        kind: kind.into(),
        namespace: namespace.filter(|n| !n.is_empty()).map(Text::from),
        name: name.into(),
        uid: None,
    })
}

/// The diagram component a known line points to.
fn component(known: &KnownLine) -> Component {
    let entry = known.recognised.entry;
    match (entry.boundary, entry.component) {
        (_, "kube-controller-manager" | "attachdetach-controller") => Component::ControllerManager,
        (_, c) if c.starts_with("cloud-") || c == "service-controller" || c == "route-controller" => {
            Component::CloudControllerManager
        }
        (Boundary::ControlPlane | Boundary::QuotaAdmission, _) => Component::ApiServer,
        (Boundary::Etcd, _) => Component::Etcd,
        (Boundary::Scheduling, _) => Component::Scheduler,
        (Boundary::NodeRuntime, "kubelet") => Component::Kubelet,
        (Boundary::NodeRuntime, _) => Component::Runtime,
        (Boundary::ZoneNetworkStorage, c)
            if entry.subject.starts_with("Persistent")
                || c.starts_with("external-")
                || c.contains("csi")
                || c == "persistentvolume-controller" =>
        {
            Component::Volumes
        }
        (Boundary::ZoneNetworkStorage, _) => Component::ProxyCni,
        (Boundary::ReadinessEndpoints, _) => Component::ServiceSlice,
        (Boundary::Application, _) => Component::Containers,
    }
}

/// The command that shows what the line alone cannot: the object it names, else what its boundary
/// calls for.
fn next_steps(known: &KnownLine, subject: Option<&ObjectRef>) -> Vec<String> {
    let entry = known.recognised.entry;
    let mut steps = Vec::new();
    if let Some(s) = subject.filter(|s| !s.name.is_empty()) {
        let kind = s.kind.to_lowercase();
        match (&s.namespace, kind.as_str()) {
            (_, "node") | (_, "persistentvolume") | (_, "storageclass") => {
                steps.push(command!("kubectl describe {} {}", kind, s.name));
            }
            (Some(ns), _) => steps.push(command!("kubectl describe {} {} -n {}", kind, s.name, ns)),
            (None, _) => steps.push(command!(
                "kubectl get events -A --field-selector involvedObject.name={}",
                s.name
            )),
        }
    }
    let dns = entry.component == "coredns"
        || entry.id.contains("dns")
        || entry.id.contains("lookup")
        || entry.id.contains("resolve");
    let by_boundary = match entry.boundary {
        Boundary::ControlPlane | Boundary::QuotaAdmission => "kubectl get --raw='/readyz?verbose'",
        Boundary::Etcd => "kubectl -n kube-system logs -l component=etcd --tail=200",
        Boundary::Scheduling => "kubectl get events -A --field-selector reason=FailedScheduling",
        Boundary::NodeRuntime => "kubectl get nodes -o wide",
        Boundary::ZoneNetworkStorage if dns => {
            "kubectl -n kube-system get pods,endpointslices -l k8s-app=kube-dns -o wide"
        }
        Boundary::ZoneNetworkStorage if component(known) == Component::Volumes => "kubectl get pvc,pv -A",
        Boundary::ZoneNetworkStorage => "kubectl -n kube-system get pods -o wide",
        Boundary::ReadinessEndpoints => "kubectl get endpointslices -A",
        Boundary::Application => "kubectl get pods -A --field-selector status.phase!=Running",
    };
    steps.push(by_boundary.to_string());
    steps.push("kubectl get events -A --field-selector type=Warning --sort-by=.lastTimestamp".to_string());
    steps
}

/// The lines a structural reader read: each object but events (its whole document or describe
/// section), and each event about a pasted object. The rules judge those with the object; a known
/// line among them is theirs (a failure judged history, a mount that succeeded since).
fn read_lines(model: &Model<'_>) -> LineSet {
    let mut read = LineSet::new(model);
    known::mark_objects(model, false, &mut read);
    // An event about a pasted object is the object's rules' to judge with its state; an event
    // alone (a table row, an Events section without its object) is this rule's when none reads it.
    for event in model.events.iter().filter(|e| model.object(&e.subject).is_some()) {
        if let Some((source, line)) = known::event_at(model, event) {
            read.mark(source, line, line);
        }
    }
    read
}

/// The Normal events that say a failure before them is over: the container started, the image was
/// pulled, the Pod was created, the volume attached, the Node ready and without pressure again.
const SUCCESS: [&str; 15] = [
    "NodeHasNoDiskPressure",
    "NodeHasSufficientMemory",
    "NodeHasSufficientPID",
    "NodeHasSufficientDisk",
    "NodeSchedulable",
    "Started",
    "Pulled",
    "Created",
    "SuccessfulCreate",
    "SuccessfulAttachVolume",
    "SuccessfulMountVolume",
    "NodeReady",
    "Scheduled",
    "ProvisioningSucceeded",
    "ScalingReplicaSet",
];

/// Whether `failure` (the event a known line is) has a success event of its subject as late or
/// later (by time, or by age: ages are coarse, `6m` for both): a failure superseded, as the rules
/// judge the events of the objects they know.
fn superseded(model: &Model<'_>, failure: &EventRecord) -> bool {
    let later = |e: &EventRecord| match (e.last, failure.last, e.last_age, failure.last_age) {
        (Some(a), Some(b), _, _) => a >= b,
        (_, _, Some(a), Some(b)) => a <= b,
        _ => false,
    };
    model
        .events_for(&failure.subject)
        .iter()
        .any(|e| e.type_ == "Normal" && SUCCESS.contains(&e.reason.as_str()) && later(e))
}

/// Whether a known line inside a container log is followed, in that log, by lines that are not
/// failures (the client connected after all): the log did not end failing. `failing` marks the
/// known failure lines.
fn recovered_in_log(model: &Model<'_>, known: &KnownLine, lines: &[&str], failing: &LineSet) -> bool {
    let Some(block) = model.log_block_at(known.source, known.line) else {
        return false;
    };
    // A later record of the log that is no failure; a line that does not start as the failing
    // record does (its date, its level) continues it (a hard wrap), and shows nothing recovered.
    let shape = |l: &str| -> String {
        l.trim_start()
            .chars()
            .take(4)
            .map(|c| {
                if c.is_ascii_digit() {
                    '0'
                } else if c.is_alphabetic() {
                    'a'
                } else {
                    c
                }
            })
            .collect()
    };
    let record = lines.get(known.line as usize - 1).map(|l| shape(l));
    (known.line + 1..=block.last_line).any(|n| {
        lines.get(n as usize - 1).is_some_and(|l| {
            !l.trim().is_empty()
                && !failing.has(known.source, n)
                && record.as_deref().is_none_or(|r| shape(l) == r)
        })
    })
}

fn check(model: &Model<'_>, findings: &mut Vec<Finding>) {
    // A rule that read the objects says more than a line: only where none found a fault (a lint is
    // no fault: a risk in a spec).
    // Where the others found only generic symptoms, an infrastructure line may be their cause.
    let faults: Vec<&Finding> = findings
        .iter()
        .filter(|f| f.severity != Severity::Info && !crate::is_lint(f))
        .collect();
    let only_symptoms =
        !faults.is_empty() && faults.iter().all(|f| crate::GENERIC.contains(&f.rule.as_str()));
    if !faults.is_empty() && !only_symptoms {
        return;
    }
    // The lines the other rules cite or read are theirs to judge, and so is the same line pasted
    // again elsewhere. Each input's lines, cut once.
    let lines: Vec<Vec<&str>> = model.sources.iter().map(|s| s.text.lines().collect()).collect();
    let line_text = |source: usize, line: u32| -> Option<&str> {
        lines
            .get(source)?
            .get(line.checked_sub(1)? as usize)
            .map(|l| l.trim())
    };
    let mut cited = LineSet::new(model);
    let mut cited_texts: Vec<&str> = Vec::new();
    for e in findings.iter().flat_map(|f| &f.evidence) {
        if let Some(source) = model.sources.iter().position(|x| x.name == e.source) {
            cited.mark(source, e.line, e.line);
            cited_texts.extend(line_text(source, e.line));
        }
    }
    cited_texts.sort_unstable();
    let read = read_lines(model);
    let mut failing = LineSet::new(model);
    for k in model
        .known_lines()
        .iter()
        .filter(|k| k.recognised.entry.severity != Severity::Info)
    {
        failing.mark(k.source, k.line, k.line);
    }
    // The event each line was read as, found once.
    let mut event_at: Map<(usize, u32), &EventRecord> = Map::default();
    for event in &model.events {
        if let Some(at) = known::event_at(model, event) {
            event_at.entry(at).or_insert(event);
        }
    }
    let mut made: Vec<(&'static str, Option<ObjectRef>, usize)> = Vec::new();
    for known in model.known_lines() {
        let entry = known.recognised.entry;
        let source = model.source_name(known.source);
        if entry.severity == Severity::Info
            || (only_symptoms && entry.boundary != Boundary::ZoneNetworkStorage)
            || cited.has(known.source, known.line)
            || line_text(known.source, known.line).is_some_and(|t| cited_texts.binary_search(&t).is_ok())
            || read.has(known.source, known.line)
            || recovered_in_log(model, known, &lines[known.source], &failing)
            || event_at
                .get(&(known.source, known.line))
                .is_some_and(|e| superseded(model, e))
        {
            continue;
        }
        let subject = subject(model, known);
        let evidence = Evidence {
            source,
            line: known.line,
            path: format!("known:{}", entry.id),
            value: known.text.clone(),
        };
        if let Some((_, _, at)) = made.iter().find(|(id, s, _)| *id == entry.id && *s == subject) {
            let finding = &mut findings[*at];
            if finding.evidence.len() < 5 && !finding.evidence.contains(&evidence) {
                finding.evidence.push(evidence);
            }
            continue;
        }
        let message = Msg::Reported {
            component: entry.component.to_string(),
            reason: entry.reason.to_string(),
            subject: subject.clone().filter(|s| !s.name.is_empty()),
            line: known.text.clone(),
            boundary: entry.boundary.id(),
            source: entry.source.to_string(),
        };
        let cannot = [Msg::LineAlone {
            named: subject.as_ref().is_some_and(|s| !s.name.is_empty()),
        }];
        let steps = next_steps(known, subject.as_ref());
        // A line that names no kind of object is about the component that printed it.
        let object = subject.clone().unwrap_or_else(|| ObjectRef {
            kind: "Component".into(),
            namespace: None,
            name: entry.component.into(),
            uid: None,
        });
        let mut finding = RULE.finding(entry.severity, object, message, vec![evidence], cannot, steps);
        finding.boundary = entry.boundary;
        finding.details.push(Detail::Serves(component(known)));
        made.push((entry.id, subject, findings.len()));
        findings.push(finding);
    }
}

faultline_report::messages! {
    /// The words of `known-failure-reported`.
    pub enum Msg {
        Reported { component: String, reason: String, subject: Option<ObjectRef>, line: String, boundary: &'static str, source: String } = "known-failure-reported.reported" {
            en: {
                let about = subject.0.as_ref().map(|s| format!(" about {s}")).unwrap_or_default();
                let reason = if reason.0.is_empty() { String::new() } else { format!(" ({})", reason.0) };
                format!("{component} reported a failure{about}{reason}: `{line}`. This is a line {component} prints when the fault is at the `{boundary}` boundary (its source: {source}).")
            },
            zh: {
                let about = subject.0.as_ref().map(|s| format!("（关于 {s}）")).unwrap_or_default();
                let reason = if reason.0.is_empty() { String::new() } else { format!("（{}）", reason.0) };
                format!("{component} 报告了一个故障{about}{reason}：`{line}`。{component} 在故障位于 `{boundary}` 边界时会打印这一行（来源：{source}）。")
            },
        },
        LineAlone { named: bool } = "known-failure-reported.line-alone" {
            en: {
                if *named.0 {
                    "Whether it still fails now, and whether the object it names is the cause: a line is one moment of one component's view.".to_string()
                } else {
                    "Which object it is about, and whether it still fails now: a line is one moment of one component's view, and the cause may be another component's.".to_string()
                }
            },
            zh: {
                if *named.0 {
                    "它现在是否仍在失败，以及它提到的对象是否就是原因：一行文字只是某个组件在某一时刻的视角。".to_string()
                } else {
                    "它关于哪个对象，以及现在是否仍在失败：一行文字只是某个组件在某一时刻的视角，原因可能在另一个组件。".to_string()
                }
            },
        },
    }
}
