//! The commands whose output the input already holds (issue 40, item 2): a next step never asks
//! for one of them again. Two places name them: the prompt line before a segment (`$ kubectl
//! describe pod web -n shop`, [`crate::segment::Command`]) and the input's own name, when the app's
//! "Paste its output" made it from the command (`kubectl describe node worker-2`).
//!
//! Both are read once, here, into a [`Key`]: the command's words as the shell passes them, with
//! what does not change its output made one form. A next step is dropped when a pasted command
//! [`Key::covers`] it. What counts as the same output, and why (conservative: a step is kept unless
//! the pasted output holds everything it would print):
//! - quoting and spacing (`'web'` and `web`), the place of `-n NS` and its spellings (`-nNS`,
//!   `--namespace NS`, `--namespace=NS`), `--flag value` and `--flag=value` of the flags below;
//! - the resource's spellings for `get` and `describe` (`po`, `pod`, `pods`; `pod/web` and `pod web`)
//!   and a `pod/` before the Pod of `kubectl logs`;
//! - `-o wide` covers no `-o` (the same table with more columns); `-o yaml` and `-o json` cover each
//!   other and `-o jsonpath=…` (every field is in them). Nothing else covers a different `-o`: a
//!   table's STATUS is computed from fields, not one;
//! - `-A` covers one namespace for a listing without a name (the other namespaces' rows are extra);
//! - a command run without `-n` lists the namespace its output states (`Namespace: shop` of a
//!   describe) and is the step that writes `-n '<namespace>'` for a namespace the input does not
//!   state: both ran in the user's context;
//! - a pasted pipeline (`| grep web`) covers only the same pipeline: its output is filtered; an
//!   unfiltered paste covers a step that filters it.
//!
//! Other programs (`etcdctl`, `kubeadm`, `ssh`) are compared word for word.

/// A command the input holds the output of: the input (its index) and the key of the command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PastedCommand {
    pub input: usize,
    /// The line of its prompt, or 0 where the input's name is the command.
    pub line: u32,
    pub key: Key,
}

/// Which namespace a kubectl command is about.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Namespace {
    /// No `-n`: the user's context namespace (or a cluster-scoped resource).
    Context,
    /// `-n NS`; the placeholder `<namespace>` of a next step is [`Namespace::Context`].
    Named(String),
    /// `-A`.
    All,
}

/// A command line in the one form that [`Key::covers`] compares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Key {
    pub program: String,
    pub namespace: Namespace,
    /// `-o`'s value, `None` for the default table.
    pub output: Option<String>,
    /// The words that are not flags, in order (verb, resource, name), then the other flags sorted,
    /// each with its value (`--tail=50`).
    pub words: Vec<String>,
    /// The commands after a `|`, word for word.
    pub filter: Vec<Vec<String>>,
}

/// The flags of kubectl that take a value, with their long spelling: `-l x` is `--selector=x`.
const VALUED: [(&str, &str); 11] = [
    ("-l", "--selector"),
    ("--selector", "--selector"),
    ("--field-selector", "--field-selector"),
    ("-c", "--container"),
    ("--container", "--container"),
    ("--tail", "--tail"),
    ("--since", "--since"),
    ("--sort-by", "--sort-by"),
    ("-L", "--label-columns"),
    ("--label-columns", "--label-columns"),
    ("--as", "--as"),
];

/// `-p` is `--previous`.
const SHORT: [(&str, &str); 2] = [("-p", "--previous"), ("-w", "--watch")];

/// The spellings of the resources pasted most, for `get` and `describe`: each to one name.
const RESOURCES: [(&[&str], &str); 22] = [
    (&["po", "pod", "pods"], "pods"),
    (&["no", "node", "nodes"], "nodes"),
    (&["svc", "service", "services"], "services"),
    (
        &[
            "deploy",
            "deployment",
            "deployments",
            "deployment.apps",
            "deployments.apps",
        ],
        "deployments",
    ),
    (&["rs", "replicaset", "replicasets"], "replicasets"),
    (&["sts", "statefulset", "statefulsets"], "statefulsets"),
    (&["ds", "daemonset", "daemonsets"], "daemonsets"),
    (&["job", "jobs", "job.batch", "jobs.batch"], "jobs"),
    (&["cj", "cronjob", "cronjobs"], "cronjobs"),
    (&["ev", "event", "events"], "events"),
    (
        &["pvc", "persistentvolumeclaim", "persistentvolumeclaims"],
        "persistentvolumeclaims",
    ),
    (
        &["pv", "persistentvolume", "persistentvolumes"],
        "persistentvolumes",
    ),
    (&["sc", "storageclass", "storageclasses"], "storageclasses"),
    (&["ns", "namespace", "namespaces"], "namespaces"),
    (&["ep", "endpoints"], "endpoints"),
    (&["endpointslice", "endpointslices"], "endpointslices"),
    (&["quota", "resourcequota", "resourcequotas"], "resourcequotas"),
    (&["limits", "limitrange", "limitranges"], "limitranges"),
    (&["cm", "configmap", "configmaps"], "configmaps"),
    (&["secret", "secrets"], "secrets"),
    (&["ing", "ingress", "ingresses"], "ingresses"),
    (
        &["hpa", "horizontalpodautoscaler", "horizontalpodautoscalers"],
        "horizontalpodautoscalers",
    ),
];

/// The resources above that no namespace holds: `-n` changes nothing for them.
const CLUSTER_SCOPED: [&str; 4] = ["nodes", "persistentvolumes", "storageclasses", "namespaces"];

/// The words of a command line as a POSIX shell passes them (single quotes literal, double quotes
/// and backslashes as the shell reads them), split into the commands of a pipeline; `None` for what
/// is not one command line (an unclosed quote, `;`, `&&`, a redirection, `$(…)`). A `#` at a word's
/// start ends the line (a comment, in bash).
pub fn words(line: &str) -> Option<Vec<Vec<String>>> {
    let mut commands: Vec<Vec<String>> = vec![Vec::new()];
    let mut word: Option<String> = None;
    let mut quote: Option<char> = None;
    let mut chars = line.trim().chars().peekable();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (None, ' ' | '\t') => commands.last_mut()?.extend(word.take()),
            (None, '|') => {
                commands.last_mut()?.extend(word.take());
                commands.push(Vec::new());
            }
            (None, '\'' | '"') => {
                word.get_or_insert_with(String::new);
                quote = Some(c);
            }
            (Some(q), _) if q == c => quote = None,
            (None, '\\') => word.get_or_insert_with(String::new).push(chars.next()?),
            (Some('"'), '\\') if matches!(chars.peek(), Some('$' | '`' | '"' | '\\')) => {
                word.get_or_insert_with(String::new).push(chars.next()?);
            }
            (None, '#') if word.is_none() => break,
            (None, ';' | '&' | '<' | '>' | '$' | '`' | '(' | ')') => return None,
            (Some('"'), '$' | '`') => return None,
            _ => word.get_or_insert_with(String::new).push(c),
        }
    }
    if quote.is_some() {
        return None;
    }
    commands.last_mut()?.extend(word);
    commands.retain(|c| !c.is_empty());
    (!commands.is_empty()).then_some(commands)
}

impl Key {
    /// The key of a command line, `None` when it is not one ([`words`]).
    pub fn parse(line: &str) -> Option<Key> {
        let mut commands = words(line)?.into_iter();
        let mut first = commands.next()?;
        let filter: Vec<Vec<String>> = commands.collect();
        // kubectl's wrappers and aliases, as the segmenter reads them.
        match first.first().map(String::as_str) {
            Some("k" | "kubectl.exe") => first[0] = "kubectl".into(),
            Some("microk8s" | "k3s" | "minikube") if first.get(1).is_some_and(|w| w == "kubectl") => {
                first.remove(0);
                if first.get(1).is_some_and(|w| w == "--") {
                    first.remove(1);
                }
            }
            _ => {}
        }
        let program = first.first()?.clone();
        if program != "kubectl" {
            return Some(Key {
                program,
                namespace: Namespace::Context,
                output: None,
                words: first[1..].to_vec(),
                filter,
            });
        }
        Some(kubectl_key(&first[1..], filter))
    }

    /// Whether this pasted command's output holds everything `step` would print.
    pub fn covers(&self, step: &Key) -> bool {
        if self.program != step.program || self.words != step.words {
            return false;
        }
        if !self.filter.is_empty() && self.filter != step.filter {
            return false;
        }
        let output = match (self.output.as_deref(), step.output.as_deref()) {
            (a, b) if a == b => true,
            (Some("wide"), None) => true,
            (Some("yaml" | "json"), Some(o)) => matches!(o, "yaml" | "json") || o.starts_with("jsonpath"),
            _ => false,
        };
        let listing = self.words.first().is_some_and(|v| v == "get") && self.words.len() == 2;
        let namespace = self.namespace == step.namespace
            || (self.namespace == Namespace::All && step.namespace != Namespace::All && listing);
        output && namespace
    }

    /// This pasted command with the namespace its output states, where the command names none
    /// (`kubectl describe pod web` printed `Namespace: shop`).
    pub fn in_namespace(mut self, stated: Option<&str>) -> Key {
        if self.program == "kubectl" && self.namespace == Namespace::Context && !self.cluster_scoped() {
            if let Some(ns) = stated {
                self.namespace = Namespace::Named(ns.to_string());
            }
        }
        self
    }

    fn cluster_scoped(&self) -> bool {
        self.words
            .get(1)
            .is_some_and(|r| CLUSTER_SCOPED.contains(&r.as_str()))
    }
}

/// The key of kubectl's arguments (`args`: after `kubectl`).
fn kubectl_key(args: &[String], filter: Vec<Vec<String>>) -> Key {
    let mut namespace = Namespace::Context;
    let mut output = None;
    let mut positional: Vec<String> = Vec::new();
    let mut flags: Vec<String> = Vec::new();
    let mut at = 0;
    while at < args.len() {
        let word = args[at].as_str();
        at += 1;
        if word == "--" {
            // What `exec` or `debug` runs: word for word.
            positional.extend(args[at - 1..].iter().cloned());
            break;
        }
        let (flag, glued) = match word.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (word, None),
        };
        let mut value = |glued: Option<String>| glued.or_else(|| args.get(at).inspect(|_| at += 1).cloned());
        match flag {
            "-n" | "--namespace" => {
                if let Some(ns) = value(glued) {
                    namespace = namespaced(ns);
                }
            }
            "-A" | "--all-namespaces" => namespace = Namespace::All,
            "-o" | "--output" => output = value(glued),
            _ if word.starts_with("-n") && !word.starts_with("--") => {
                namespace = namespaced(word[2..].to_string());
            }
            _ if word.starts_with("-o") && !word.starts_with("--") => output = Some(word[2..].to_string()),
            _ => {
                if let Some((_, long)) = VALUED.iter().find(|(f, _)| *f == flag) {
                    let v = value(glued).unwrap_or_default();
                    flags.push(format!("{long}={v}"));
                } else if let Some((_, long)) = SHORT.iter().find(|(f, _)| *f == word) {
                    flags.push(long.to_string());
                } else if word.starts_with('-') {
                    flags.push(word.to_string());
                } else {
                    positional.push(word.to_string());
                }
            }
        }
    }
    normalise_resource(&mut positional);
    if positional
        .get(1)
        .is_some_and(|r| CLUSTER_SCOPED.contains(&r.as_str()))
    {
        namespace = Namespace::Context;
    }
    flags.sort();
    positional.extend(flags);
    Key {
        program: "kubectl".into(),
        namespace,
        output: output.map(|o| if o == "yml" { "yaml".into() } else { o }),
        words: positional,
        filter,
    }
}

/// A namespace as a command names it: the placeholder of a next step is the context's.
fn namespaced(ns: String) -> Namespace {
    if ns == "<namespace>" {
        Namespace::Context
    } else {
        Namespace::Named(ns)
    }
}

/// `get pod/web` and `get po web` are `get pods web`; `logs pod/web` is `logs web`.
fn normalise_resource(positional: &mut Vec<String>) {
    let verb = positional.first().map(String::as_str);
    match verb {
        Some("get" | "describe") if positional.len() >= 2 => {
            if let Some((resource, name)) = positional[1].clone().split_once('/') {
                positional[1] = resource.to_string();
                positional.insert(2, name.to_string());
            }
            let resource = positional[1].to_ascii_lowercase();
            if let Some((_, one)) = RESOURCES
                .iter()
                .find(|(spellings, _)| spellings.contains(&resource.as_str()))
            {
                positional[1] = one.to_string();
            }
        }
        Some("logs") if positional.len() >= 2 => {
            for prefix in ["pod/", "pods/", "po/"] {
                if let Some(name) = positional[1].strip_prefix(prefix) {
                    positional[1] = name.to_string();
                }
            }
        }
        _ => {}
    }
}

/// A segment's command and what was read from its output (ranges into [`crate::Ingested`]'s
/// objects and event rows).
pub(crate) struct Output {
    /// The line before the output: the prompt's.
    pub line: u32,
    pub command: String,
    pub objects: std::ops::Range<usize>,
    pub events: std::ops::Range<usize>,
}

/// Records the commands of one input (`index`): each segment's, with the namespace its output
/// states, and the input's name when it is a command line (the app names a follow-up input by the
/// command it ran), with the namespace the whole input states. Run after the input's namespaces
/// are unified, so that rows without one carry the namespace the paste states elsewhere.
pub(crate) fn record(
    index: usize,
    source: &crate::Source,
    outputs: &[Output],
    objects_before: usize,
    events_before: usize,
    out: &mut crate::Ingested,
) {
    let stated = |objects: std::ops::Range<usize>, events: std::ops::Range<usize>| -> Option<String> {
        let objects = out.objects[objects].iter().map(|o| o.id.namespace.as_deref());
        let events = out.table_events[events]
            .iter()
            .map(|(_, e)| e.namespace.as_deref());
        stated_namespace(objects.chain(events)).map(str::to_string)
    };
    let mut found: Vec<PastedCommand> = Vec::new();
    if is_command_line(&source.name) {
        if let Some(key) = Key::parse(&source.name) {
            let ns = stated(
                objects_before..out.objects.len(),
                events_before..out.table_events.len(),
            );
            found.push(PastedCommand {
                input: index,
                line: 0,
                key: key.in_namespace(ns.as_deref()),
            });
        }
    }
    for output in outputs {
        if let Some(key) = Key::parse(&output.command) {
            let ns = stated(output.objects.clone(), output.events.clone());
            found.push(PastedCommand {
                input: index,
                line: output.line,
                key: key.in_namespace(ns.as_deref()),
            });
        }
    }
    out.commands.extend(found);
}

/// The describe just read (the last object) is what `kubectl describe KIND NAME -n NS` prints,
/// whether or not the paste shows that command: recorded as pasted, so that no step asks for it.
pub(crate) fn described(index: usize, out: &mut crate::Ingested) {
    let Some(object) = out.objects.last() else {
        return;
    };
    let id = &object.id;
    if id.name.is_empty() {
        return;
    }
    let mut args = vec![
        "describe".to_string(),
        id.kind.to_ascii_lowercase().to_string(),
        id.name.to_string(),
    ];
    if let Some(ns) = &id.namespace {
        args.extend(["-n".to_string(), ns.to_string()]);
    }
    let line = object.node.pos.line;
    out.commands.push(PastedCommand {
        input: index,
        line,
        key: kubectl_key(&args, Vec::new()),
    });
}

/// Whether an input's name is a command line (`kubectl describe node worker-2`), not a file name.
fn is_command_line(name: &str) -> bool {
    let first = name.split_whitespace().next().unwrap_or_default();
    name.contains(' ') && matches!(first, "kubectl" | "k" | "etcdctl" | "kubeadm" | "ssh" | "oc")
}

/// The one namespace that objects and event rows read from an output state, if they state one.
pub fn stated_namespace<'a>(namespaces: impl Iterator<Item = Option<&'a str>>) -> Option<&'a str> {
    let mut one = None;
    for ns in namespaces.flatten() {
        match one {
            None => one = Some(ns),
            Some(seen) if seen == ns => {}
            Some(_) => return None,
        }
    }
    one
}

#[cfg(test)]
mod tests;
