//! English.

use faultline_report::{Boundary, FactKind, FactState, Severity};

use super::Texts;
use crate::view_model::diagram::{Flow, Part};

fn sample_title(id: &str) -> &'static str {
    match id {
        "node-label" => "Experiment 1: a node label no node has",
        "image-pull" => "Experiment 2: a non-existent image tag",
        "readiness" => "Experiment 3: a readiness probe always fails",
        "publish-not-ready" => "Experiment 3 variant: publishNotReadyAddresses",
        "quota-403" => "Quota 403: the Pod was never created",
        "dependency" => "Pods ready, but the log says the database refuses",
        "healthy" => "A healthy cluster",
        _ => "Sample",
    }
}

fn guide_symptom(id: &str) -> &'static str {
    faultline_render::guide::symptom(id, faultline_report::Lang::En)
}

fn guide_collects(id: &str) -> &'static str {
    faultline_render::guide::collects(id, faultline_report::Lang::En)
}

fn doc_section(title: &str) -> Option<&'static str> {
    match title {
        "What it finds" => Some("What it finds"),
        "Why it matters" => Some("Why it matters"),
        "Evidence" => Some("Evidence"),
        "Fault boundary" => Some("Fault boundary"),
        "What this evidence cannot establish" => Some("What this evidence cannot establish"),
        "Next evidence to collect" => Some("Next evidence to collect"),
        "Example" => Some("Example"),
        _ => None,
    }
}

fn severity(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "info",
    }
}

fn where_to_look(b: Boundary) -> &'static str {
    match b {
        Boundary::ControlPlane => {
            "API responses and errors (kubectl -v=6), apiserver health endpoints and logs"
        }
        Boundary::Etcd => "etcd symptoms correlated with API server errors: etcdctl endpoint status, alarms",
        Boundary::Scheduling => "spec.nodeName, the PodScheduled condition, FailedScheduling events",
        Boundary::NodeRuntime => "Node and Pod conditions, container states, kubelet and runtime events",
        Boundary::QuotaAdmission => {
            "the API error of the create, ReplicaSet FailedCreate events, the namespace's quota"
        }
        Boundary::ZoneNetworkStorage => {
            "objects grouped by node and zone, PVC and volume events, CNI sandbox events"
        }
        Boundary::ReadinessEndpoints => {
            "Pod Ready condition, probe events, Service selector, EndpointSlice conditions"
        }
        Boundary::Application => "application logs, exit codes, traces, SLOs and user checks",
    }
}

fn article_limits(b: Boundary) -> &'static str {
    match b {
        Boundary::ControlPlane => "whether latency comes from etcd, the network, admission or the client",
        Boundary::Etcd => "whether quorum, disk or the network is at fault without etcd's own signals",
        Boundary::Scheduling => "whether the image will pull or the app will run once a node is chosen",
        Boundary::NodeRuntime => {
            "whether the registry, the runtime or the host is the cause without node logs"
        }
        Boundary::QuotaAdmission => "whether a different request size or policy would have been admitted",
        Boundary::ZoneNetworkStorage => "the physical topology: which zone, path or volume backend failed",
        Boundary::ReadinessEndpoints => "whether requests succeed: an endpoint is not a correct response",
        Boundary::Application => "whether a 5xx comes from the code, a dependency or the data",
    }
}

fn component(p: Part) -> &'static str {
    match p {
        Part::Client => "client / kubectl",
        Part::ApiServer => "kube-apiserver",
        Part::Etcd => "etcd",
        Part::ControllerManager => "kube-controller-manager",
        Part::Scheduler => "kube-scheduler",
        Part::CloudControllerManager => "cloud-controller-manager",
        Part::Kubelet => "kubelet",
        Part::Runtime => "container runtime (CRI)",
        Part::Containers => "containers",
        Part::ProxyCni => "kube-proxy / CNI",
        Part::ServiceSlice => "Service / EndpointSlice",
        Part::Volumes => "volumes (CSI)",
    }
}

fn edge(f: Flow) -> &'static str {
    match f {
        Flow::DesiredState => "write desired state",
        Flow::Store => "store state",
        Flow::WatchWriteStatus => "watch / write status",
        Flow::WatchBind => "watch / bind",
        Flow::WatchAssignedPods => "watch assigned Pods / write status",
        Flow::CriCalls => "CRI calls",
        Flow::RunsContainers => "start / stop",
        Flow::Mounts => "mount",
        Flow::WatchServices => "watch Services, EndpointSlices",
        Flow::Traffic => "route to ready endpoints",
    }
}

fn entry_source(s: &str) -> &'static str {
    match s {
        "event" => "event",
        "created" => "created",
        "deleted" => "deleted",
        "condition" => "condition",
        "container-started" => "container started",
        "container-terminated" => "container terminated",
        "log" => "log",
        _ => "fact",
    }
}

/// The engine's own names of the kinds of secret; any other id is a token rule's (`github-pat`,
/// from gitleaks' rule set), shown beside this name.
fn secret_kind(id: &str) -> &'static str {
    faultline_report::SecretKind::ALL
        .iter()
        .find(|k| k.id() == id)
        .map_or(faultline_report::SecretKind::Token.title(), |k| k.title())
}

fn fact_name(kind: FactKind) -> &'static str {
    match kind {
        FactKind::Scheduled => "scheduled to a node",
        FactKind::ContainerRunning => "containers running",
        FactKind::PodReady => "Pod ready",
        FactKind::SelectedByService => "selected by a Service",
        FactKind::AddressPresent => "address present in its EndpointSlices",
        FactKind::EligibleForTraffic => "eligible for traffic (a ready endpoint)",
        FactKind::BusinessResponse => "business response (pasted requests)",
    }
}

fn fact_state(state: FactState) -> &'static str {
    match state {
        FactState::Yes => "yes",
        FactState::No => "no",
        FactState::Unknown => "unknown from this input",
    }
}

pub const EN: Texts = Texts {
    language_name: "English",
    language_label: "Language",
    page_title: "Faultline — Kubernetes incident diagnosis in your browser",
    tagline: "Paste kubectl output; see which fault boundary the evidence points to. Nothing leaves this page.",
    skip_to_diagnosis: "Skip to the diagnosis",
    sample_label: "Sample incident",
    sample_none: "— your own input —",
    sample_title,
    clear_all: "Clear all",
    inputs_aria: "Inputs",
    results_aria: "Diagnosis",
    paste_label: "Paste kubectl output",
    paste_reads: "Reads `kubectl describe`, `get -o yaml|json`, `get` tables, events, `kubectl` errors and logs; several commands in one paste are fine.",
    example_before: "New here? ",
    example_link: "Open an example incident",
    diagnosis_cue: |findings, boundaries, boundary| match (findings, boundaries) {
        (0, _) => "See the diagnosis".to_string(),
        (1, _) => format!("Diagnosis: 1 finding, {boundary}"),
        (n, 1) => format!("Diagnosis: {n} findings, {boundary}"),
        (n, b) => format!("Diagnosis: {n} findings at {b} boundaries"),
    },
    input_format: str::to_string,
    evidence_label: str::to_string,
    sample_note: "You are looking at a sample incident.",
    sample_note_more: "Paste, drop or pick your own output: it replaces the sample.",
    sample_removed: "Sample removed",
    restore: "restore",
    previous_incident: |n| format!("New incident: the previous one ({n} {}) is set aside.", if n == 1 { "input" } else { "inputs" }),
    restore_previous: "Restore it",
    join_previous: "Add these inputs to it",
    follow_up_badge: "next step",
    follow_up_badge_title: "The output of a next step of this incident's report",
    confirm_sample: "Open this sample? Your own input is set aside: \"Restore it\" under the paste box brings it back.",
    paste_its_output: "Paste its output",
    paste_its_output_aria: |cmd| format!("Paste the output of {cmd}"),
    output_of: "Output of ",
    follow_up_placeholder: "Run the command and paste its output here: the report updates and says what changed.",
    follow_up_done: "Done",
    what_changed: "What changed",
    guide_title: "What should I paste?",
    guide_intro: "Pick the symptom closest to yours and run its commands; replace NS, POD, SVC, DEPLOY, NODE, PVC and KEY=VALUE (the selector) with your names, and paste all the output at once.",
    guide_redact: "Everything stays in this page. Before you paste the output anywhere else (a ticket, a chat), redact it: the Secrets panel or `faultline redact` replaces secrets.",
    guide_close: "Close",
    guide_symptom,
    guide_collects,
    unread_title: "What was not read",
    unread_range: |source, line, end| {
        if line == end { format!("{source} line {line}") } else { format!("{source} lines {line}–{end}") }
    },
    inconclusive_offer: "To judge it, paste the output that shows the object itself:",
    paste_placeholder: "kubectl get pod web-7d9f -n shop -o yaml   →   paste the output here",
    drop_prefix: "…or drop files here, or ",
    choose_files: "choose files",
    or: " or ",
    a_folder: "a folder",
    choose_files_aria: "Choose files to analyse",
    choose_folder_aria: "Choose a folder to analyse (a cluster-info dump or a support bundle)",
    no_input_yet: "No input yet.",
    input_problems: "Input problems",
    remove: |name| format!("Remove {name}"),
    documents: |n| format!("{n} {}", if n == 1 { "document" } else { "documents" }),
    lines_not_read: |n| format!("{n} {} not read", if n == 1 { "line" } else { "lines" }),
    unread_line: "Not read: Faultline does not know this layout, or these lines belong to an object the input does not show",
    no_objects: "no objects",
    container_log: "container log: not analysed",
    show_input: "Input viewer",
    viewer_back: "Back to the report (Esc)",
    large_paste_kept: |name, mb| format!("Your {mb:.1} MB paste is kept as the input {name}, outside the paste box, so the page stays responsive. "),
    large_paste_show: "Show it",
    large_paste_edit: "Edit it in the paste box (slow at this size)",
    input_waiting: "not analysed yet",
    views_aria: "Views",
    view_findings: "Findings",
    view_diagram: "Architecture",
    view_timeline: "Timeline",
    view_table: "Boundary table",
    view_rules: "Rules",
    rules_title: "Every rule Faultline applies",
    rules_intro: "Each rule names one condition, the fault boundary it points to, and what its evidence cannot establish. Open a sample to see it fire on realistic input.",
    rules_index: "Index",
    rules_back_to_index: "Back to the index",
    open_rule_sample: "Open a sample that makes this rule fire",
    diagnosis: "Diagnosis",
    headline_before: "The evidence points to the ",
    headline_after: " boundary ",
    headline_end: ".",
    paste_to_start: "Paste or drop kubectl output to start.",
    no_findings: "No findings: nothing in this input points to a fault.",
    independent_faults: |n| format!("{n} independent faults."),
    paste_next_label: "The one paste most likely to decide:",
    headline_most_severe: "The most severe is at the ",
    faults_count: |faults, boundaries| {
        format!(
            "{faults} independent {} at {boundaries} {}",
            if faults == 1 { "fault" } else { "faults" },
            if boundaries == 1 { "boundary" } else { "boundaries" }
        )
    },
    boundary_faults: |faults, findings| {
        format!(
            "{faults} {} · {findings} {}",
            if faults == 1 { "fault" } else { "faults" },
            if findings == 1 { "finding" } else { "findings" }
        )
    },
    summary_aria: "Summary",
    by_rule: "By rule:",
    group_title: |n, kind, owner| format!("{n} {kind}s of {owner}"),
    group_show: |n| format!("Show the {n} {}", if n == 1 { "other" } else { "others" }),
    group_hide: "Hide the others",
    no_match: "No finding matches the filter.",
    filter_aria: "Filter the report",
    filter_severity: "Severity",
    search_label: "Search",
    search_placeholder: "Search findings, objects, messages ( / )",
    findings_shown: |shown, total| {
        if shown == total {
            format!("{total} {}", if total == 1 { "finding" } else { "findings" })
        } else {
            format!("{shown} of {total} findings")
        }
    },
    clear_filter: "Clear filters",
    evidence: "Evidence",
    cannot_establish: "What this evidence cannot establish",
    next_steps: "Next steps",
    about_rule: "About the rule",
    docs_loading: "Loading the rules' documentation…",
    secrets_aria: "Secrets in the input",
    secrets_title: "Secrets",
    secrets_none: "No secrets found in the input.",
    secrets_scanning: "Looking for secrets in the input…",
    secrets_all_redacted: "The inputs are redacted: no secret is left in them.",
    secrets_found: |n| match n {
        1 => "1 secret found in the input. Redact it before you share the input or anything made from it.".to_string(),
        n => format!("{n} secrets found in the input. Redact them before you share the input or anything made from it."),
    },
    redact: "Redact",
    undo_redaction: "Undo redaction",
    include_network: "Also redact IP addresses, internal host names and e-mail addresses",
    secret_kind,
    export_label: "Export",
    copy_markdown: "Copy Markdown",
    export_redacted: "made from the redacted input, and says so",
    symptom_of: |n| format!("A symptom of finding {n}, which explains it"),
    confidence: "Confidence",
    confidence_level: |c| match c {
        faultline_report::Confidence::Established => "Established",
        faultline_report::Confidence::Likely => "Likely",
        faultline_report::Confidence::Possible => "Possible",
    },
    decide_title: "The command that decides",
    decide_between: |a, b| format!("Findings {a} and {b} both explain what fails. One command tells them apart:"),
    decide_if_shown: |n| format!("If it confirms finding {n}:"),
    decide_if_not: "If it does not:",
    ruled_out_title: "Considered and ruled out",
    ruled_out_intro: "Loud signals that are not the cause, and what the input shows working, each with the line that says so.",
    copy: "Copy",
    copied: "Copied",
    copy_aria: |cmd| format!("Copy the command {cmd}"),
    show_in_input: |source, line| format!("Show {source} line {line}"),
    doc_section,
    severity,
    boundary: Boundary::title,
    table_caption: "The article's fault-boundary table, filled with this input's evidence",
    col_boundary: "Boundary",
    col_symptoms: "Symptoms seen in this input",
    col_first_evidence: "First evidence found",
    col_cannot: "What this evidence cannot establish",
    col_next: "What to check next",
    no_evidence: "no evidence in this input",
    finding_link: |label| format!("finding {label}"),
    where_to_look,
    article_limits,
    diagram_title: "Logical architecture",
    diagram_note: "This is Kubernetes' logical architecture, not this cluster's physical topology. Lit components are the ones the findings implicate; select one to see its findings.",
    component,
    edge,
    optional: "optional",
    more_nodes: |n, lit| match lit {
        0 => format!("{n} more"),
        _ => format!("{n} more ({lit} lit)"),
    },
    node_unnamed: "node not named",
    pick_component: "Select a component to see the findings and evidence behind it.",
    component_quiet: "No finding implicates this component in this input.",
    component_findings: |name, n| {
        format!("{name}: {n} {}", if n == 1 { "finding" } else { "findings" })
    },
    parts_list_note: "Kubernetes' logical architecture, not this cluster's physical topology: on a narrow screen, the components the findings implicate, the worst first. Select one to see its findings.",
    parts_none_lit: "No finding implicates a component.",
    parts_quiet: |parts| format!("Not implicated: {}.", parts.join(", ")),
    timeline_title: "Timeline",
    filter_namespace: "Namespace",
    filter_kind: "Kind",
    filter_boundary: "Boundary",
    filter_all: "all",
    warnings_only: "Warnings only",
    group_by_object: "Lanes by object (owner chain, node)",
    zoom_in: "Zoom in",
    zoom_out: "Zoom out",
    pan_earlier: "Earlier",
    pan_later: "Later",
    zoom_reset: "Whole range",
    shown_of: |shown, total| format!("{shown} of {total} entries"),
    no_entries: "No timeline entries match.",
    undated: "no time",
    estimated: "≈ placed by its age:",
    entry_source,
    source_line: "Source line",
    count: "count",
    timeline_help: "Arrow keys move between entries; + and − zoom, ← and → pan the time axis.",
    timeline_aria: "Timeline entries",
    lanes_note: "Lanes follow the ownerReferences in the input; ≈ marks a group guessed from the names controllers generate, where the input states no owner.",
    age_before_capture: |age| format!("{age} before capture"),
    before_created: "before its object was created",
    before_created_note: "Placed before this object's creation: the capture time is too early, or the event is about an earlier object of the same name. Kept where its time puts it.",
    zone_label: "Times in",
    zone_utc: "UTC",
    zone_local: |offset| format!("Local time (UTC{offset})"),
    order_label: "Order",
    order_newest: "Newest first",
    order_oldest: "Oldest first",
    capture_label: "Captured",
    capture_basis: [
        "set by you",
        "or later: the newest timestamp in the input",
        "or later: no event is older than its object",
        "unknown: the input has no absolute time; entries are ordered by age",
    ],
    capture_anchor: |subject, created, reason, age| {
        format!(" ({subject} was created at {created}; its {reason} event is {age} old)")
    },
    capture_input: "Capture time (UTC)",
    capture_placeholder: "2025-02-11T09:40:05Z",
    capture_set: "Place ages against it",
    capture_reset: "Use the inferred time",
    capture_invalid: "Not a time: write it as 2025-02-11T09:40:05Z (UTC).",
    view_map: "Object map",
    map_note: "The objects of this input and how it relates them: owners (ownerReferences), nodes, and Services through their EndpointSlices to Pods. Lit objects are the subjects of findings; select one to see its findings, the line it came from and, for a Service or a Pod, its five facts.",
    map_help: "Tab or the arrow keys move between objects; Enter or Space selects one or opens a group.",
    map_workloads: "Workloads: owners, Pods and their nodes",
    map_services: "Services: EndpointSlices, endpoints and Pods",
    map_col_endpoints: "endpoints",
    map_legend_lit: "lit: a finding is about it",
    map_legend_missing: "dashed: referred to, not in this input",
    map_legend_inferred: "dotted line: inferred (matched by IP address)",
    map_legend_selector: "dash-dot line: the selector (no EndpointSlice in this input)",
    map_empty: "No objects in this input to draw.",
    map_section_empty: "None in this input.",
    map_show_more: |n| format!("Show {n} more"),
    map_more_pods: |n, bad| match bad {
        0 => format!("▸ {n} more Pods"),
        bad => format!("▸ {n} more Pods, {bad} not ready"),
    },
    map_more_endpoints: |n, bad| match bad {
        0 => format!("▸ {n} more endpoints"),
        bad => format!("▸ {n} more endpoints, {bad} not ready"),
    },
    map_more_nodes: |n, bad| match bad {
        0 => format!("▸ {n} more nodes"),
        bad => format!("▸ {n} more nodes, {bad} not ready"),
    },
    map_capped: |n| format!("+{n} more: filter by namespace"),
    map_expand: "show them",
    map_no_slice: "no EndpointSlice in this input",
    map_missing: "not in this input",
    map_ready: |ready, all| format!("{ready}/{all} ready"),
    map_restarts: |n| format!("{n} {}", if n == 1 { "restart" } else { "restarts" }),
    map_replicas: |desired, ready, available| {
        let n = |v: Option<u32>| v.map_or("?".to_string(), |v| v.to_string());
        format!("{}/{} ready, {} available", n(ready), n(desired), n(available))
    },
    map_pick: "Select an object to see its findings, the line it came from and, for a Service or a Pod, its five facts.",
    map_read_at: "Read at",
    map_not_in_input: "Not in this input: another object refers to it.",
    map_findings: |n| format!("{n} {} about it", if n == 1 { "finding" } else { "findings" }),
    map_no_findings: "No finding is about this object.",
    facts_title: "Five facts",
    facts_note: "From this input alone: unknown means the input does not state it, and is never a yes.",
    fact_name,
    fact_state,
    fact_objects: "names:",
    map_endpoint_of: "Endpoint of",
    map_endpoint_is: "is",
    map_inferred: "matched by IP address (the endpoint has no targetRef): a guess",
    map_conditions_note: "A condition not written reads as: ready and serving true, terminating false.",
    map_others: |n| format!("Other objects in this input ({n})"),
    map_others_note: |n| format!("the first {n} shown, lit ones first"),
    analysis_aria: "Analysis progress",
    analysis_step: |step| match step {
        "reading" => "Reading the inputs",
        "relating" => "Relating objects",
        "diagnosing" => "Running the rules",
        "judging" => "Weighing the findings",
        "timeline" => "Building the timeline",
        "scanning" => "Looking for secrets",
        _ => "Starting the analysis",
    },
    analysis_progress: |done, total, documents| {
        format!(
            "{done:.1} of {total:.1} MB · {documents} {}",
            if documents == 1 { "document" } else { "documents" }
        )
    },
    analysed_in: |seconds, scan| match scan {
        Some(scan) => format!("Analysed in {seconds:.2} s, in this tab, then checked for secrets in {scan:.2} s"),
        None => format!("Analysed in {seconds:.2} s, in this tab"),
    },
    cancel: "Cancel",
    stale_running: "The diagnosis below is of your inputs before the last change, until this analysis is done.",
    stale_cancelled: "Analysis cancelled. The diagnosis below is of your inputs as they were before the last change.",
    reanalyse: "Analyse again",
    excerpt_loading: "Reading this part of the file…",
    excerpt_gone: "This file's lines are not at hand: its analysis was cancelled or has not finished. Analyse it again to see them.",
    show_more: |more, hidden| format!("Show {more} more ({hidden} not shown)"),
    too_large: |total, this, limit| {
        format!(
            "the input is too large to analyse in this page ({total} MB in all, this one {this} MB; the \
             page takes up to {limit} MB): nothing was analysed. Remove some files, or run the \
             `faultline` command line, which reads dumps of any size"
        )
    },
    analysis_stopped: |why| {
        format!(
            "the analysis stopped before it finished ({why}); the page may have run out of memory. The \
             `faultline` command line reads dumps of any size"
        )
    },
    worker_not_started: "the page could not start its analysis worker",
    worker_stopped: "the analysis worker stopped",
    unreadable_reason,
    object: |o| o.to_string(),
};

fn drop_failed(e: &str) -> String {
    format!("could not be read ({e}); if it is a folder, pick it with “a folder” instead of dropping it")
}

/// Why a file was not read, in English.
fn unreadable_reason(reason: &faultline_render::protocol::Unreadable) -> String {
    use faultline_render::protocol::Unreadable;
    match reason {
        Unreadable::Binary => faultline_report::input::BINARY_REASON.to_string(),
        Unreadable::TooLarge => "is too large to hold in this tab's memory".to_string(),
        Unreadable::NotAFile => "not a file".to_string(),
        Unreadable::ReadFailed(why) => format!("could not be read ({why})"),
        Unreadable::DropFailed(why) => drop_failed(why),
    }
}
