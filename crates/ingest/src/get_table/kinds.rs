//! Which kind a `kubectl get` table lists: from its header's columns, else from the resource the
//! command line names (`pods`, `po`, `deploy`, `certificates.cert-manager.io`).

use crate::events_table::kind_from_table;
use crate::segment::Command;

/// The kind a `kubectl get` command lists: `pods`, `po`, `deploy`, `svc/web`, `ingresses`,
/// `certificates.cert-manager.io` (a custom resource, by its plural).
pub fn kind_of_resource(word: &str) -> Option<String> {
    let word = word.split('/').next().unwrap_or(word);
    let word = word.split('.').next().unwrap_or(word).to_ascii_lowercase();
    let short = match word.as_str() {
        "po" => "pods",
        "no" => "nodes",
        "ns" => "namespaces",
        "svc" => "services",
        "ep" | "endpoint" => "endpoints",
        "deploy" => "deployments",
        "rs" => "replicasets",
        "sts" => "statefulsets",
        "ds" => "daemonsets",
        "rc" => "replicationcontrollers",
        "cj" => "cronjobs",
        "pv" => "persistentvolumes",
        "pvc" => "persistentvolumeclaims",
        "sc" => "storageclasses",
        "ing" => "ingresses",
        "hpa" => "horizontalpodautoscalers",
        "sa" => "serviceaccounts",
        "cm" => "configmaps",
        "netpol" => "networkpolicies",
        "quota" => "resourcequotas",
        "limits" => "limitranges",
        "pdb" => "poddisruptionbudgets",
        "csr" => "certificatesigningrequests",
        "cs" | "componentstatus" => "componentstatuses",
        // cert-manager's, seen in most clusters.
        "cert" | "certs" => "certificates",
        other => other,
    };
    if short.is_empty() || !short.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
        return None;
    }
    // A plural no rule below makes singular.
    if short == "componentstatuses" {
        return Some("ComponentStatus".to_string());
    }
    let singular = if let Some(stem) = short.strip_suffix("ies") {
        format!("{stem}y")
    } else if ["sses", "xes", "ches"].iter().any(|e| short.ends_with(e)) {
        short[..short.len() - 2].to_string()
    } else if short == "endpoints" || short.ends_with("ss") {
        // `ingress`, `ingressclass`: already singular.
        short.to_string()
    } else {
        short.strip_suffix('s').unwrap_or(short).to_string()
    };
    Some(kind_from_table(&singular))
}

/// The kind a `kubectl get` command line lists, when it names one.
pub(super) fn kind_of_command(command: Option<&Command>) -> Option<String> {
    let words: Vec<&str> = command?.own_words();
    let at = words.iter().position(|w| *w == "get")?;
    let mut rest = words[at + 1..].iter();
    // The first word that is neither a flag nor a flag's value.
    let mut target = None;
    while let Some(word) = rest.next() {
        if matches!(
            *word,
            "-n" | "--namespace" | "-o" | "--output" | "-l" | "--selector" | "-L" | "--context"
        ) {
            rest.next();
        } else if !word.starts_with('-') {
            target = Some(*word);
            break;
        }
    }
    let target = target?;
    // `kubectl get pods,svc` or `get all` list several kinds: the header says which.
    if target.contains(',') || target == "all" {
        return None;
    }
    kind_of_resource(target)
}

/// The kind a table lists, from its header (and the command, when the header is ambiguous or the
/// kind is a custom resource's).
pub(super) fn table_kind(columns: &[&str], command: Option<&Command>) -> Option<String> {
    let has = |name: &str| columns.contains(&name);
    let from_command = kind_of_command(command);
    let only = |names: &[&str]| columns.iter().all(|c| names.contains(c));
    let kind = match () {
        _ if has("RESTARTS") && has("STATUS") && has("READY") => "Pod",
        // A DaemonSet's table has UP-TO-DATE and AVAILABLE too: its NODE SELECTOR tells it apart.
        _ if has("DESIRED") && has("CURRENT") && has("NODE SELECTOR") => "DaemonSet",
        _ if has("UP-TO-DATE") && has("AVAILABLE") => "Deployment",
        _ if has("DESIRED") && has("CURRENT") && from_command.as_deref() == Some("ReplicationController") => {
            "ReplicationController"
        }
        _ if has("DESIRED") && has("CURRENT") => "ReplicaSet",
        _ if has("ROLES") && has("VERSION") => "Node",
        // kubectl before 1.8 printed no ROLES column: `NAME STATUS AGE VERSION`.
        _ if has("STATUS") && has("VERSION") && !has("READY") => "Node",
        _ if has("CLUSTER-IP") && has("PORT(S)") => "Service",
        _ if has("ENDPOINTS") && has("ADDRESSTYPE") => "EndpointSlice",
        _ if has("ENDPOINTS") => "Endpoints",
        _ if has("CAPACITY") && has("RECLAIM POLICY") && has("CLAIM") => "PersistentVolume",
        _ if has("VOLUME") && has("CAPACITY") && has("ACCESS MODES") => "PersistentVolumeClaim",
        _ if has("READY") && from_command.as_deref() == Some("StatefulSet") => "StatefulSet",
        _ if has("COMPLETIONS") && has("DURATION") => "Job",
        _ if has("SCHEDULE") && has("SUSPEND") => "CronJob",
        _ if has("HOSTS") && has("ADDRESS") && has("PORTS") => "Ingress",
        _ if has("CONTROLLER") && has("PARAMETERS") => "IngressClass",
        _ if has("PROVISIONER") && has("RECLAIMPOLICY") => "StorageClass",
        _ if has("REFERENCE") && has("TARGETS") && has("MINPODS") => "HorizontalPodAutoscaler",
        _ if has("POD-SELECTOR") => "NetworkPolicy",
        _ if has("MIN AVAILABLE") && has("MAX UNAVAILABLE") => "PodDisruptionBudget",
        _ if has("TYPE") && has("DATA") && only(&["NAMESPACE", "NAME", "TYPE", "DATA", "AGE"]) => "Secret",
        _ if has("DATA") && only(&["NAMESPACE", "NAME", "DATA", "AGE"]) => "ConfigMap",
        _ if has("SECRETS") && only(&["NAMESPACE", "NAME", "SECRETS", "AGE"]) => "ServiceAccount",
        _ if has("REQUEST") && has("LIMIT") => "ResourceQuota",
        _ if has("STATUS") && only(&["NAME", "STATUS", "AGE", "LABELS"]) && from_command.is_none() => {
            "Namespace"
        }
        // Events have their own reader (`events_table`), whatever their header looks like.
        _ => return from_command.filter(|k| k != "Event"),
    };
    Some(kind.to_string())
}

/// Whether a line has the shape of a `kubectl get` header whatever it lists: `NAME` (after
/// `NAMESPACE`) first, upper-case column names, an `AGE` among them. A custom resource's table
/// without its command line is one: its rows are kept as text, never read as another kind.
pub(super) fn is_get_shaped(names: &[&str]) -> bool {
    names.len() >= 2
        && matches!(names.first(), Some(&"NAME" | &"NAMESPACE"))
        && names.contains(&"AGE")
        && names.iter().all(|n| {
            n.chars().all(|c| {
                c.is_ascii_uppercase()
                    || matches!(c, ' ' | '-' | '(' | ')' | '_' | '.' | '/' | '%')
                    || c.is_ascii_digit()
            })
        })
}
