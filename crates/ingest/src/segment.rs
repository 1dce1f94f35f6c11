//! Splitting a paste into segments: engineers paste several commands and their output in one block,
//! with shell prompts (`$ kubectl …`, `root@host:~# …`, zsh's `❯`), markdown fences and stray
//! `kubectl …` lines. Each segment is detected on its own; the command before it is kept as a hint
//! (its namespace, for example, is the namespace of a table that has no NAMESPACE column).
//!
//! Segments are slices of the original text, so line numbers stay those of the whole input.

/// A run of output lines between prompts or fences.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segment<'a> {
    /// The 1-based line of the segment's first line in the whole input.
    pub first_line: u32,
    pub text: &'a str,
    /// The command that printed this output, when the paste shows it.
    pub command: Option<Command>,
    /// A container log block of `kubectl cluster-info dump` (`==== START logs for container …`).
    pub log: bool,
}

/// What a `kubectl` command line says about the output after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    pub line: String,
    /// `-n NS`, `--namespace NS`, `--namespace=NS`.
    pub namespace: Option<String>,
    /// `-A` / `--all-namespaces`.
    pub all_namespaces: bool,
}

impl Command {
    /// The words of the kubectl command itself: those before a pipe, also one glued to a word
    /// (`kubectl -n my-space get pods| grep mongodb`, google/kf#613).
    pub fn own_words(&self) -> Vec<&str> {
        self.line
            .split('|')
            .next()
            .unwrap_or_default()
            .split_whitespace()
            .collect()
    }

    pub fn parse(line: &str) -> Self {
        let words: Vec<&str> = line.split_whitespace().collect();
        let mut namespace = None;
        let mut all_namespaces = false;
        for (i, word) in words.iter().enumerate() {
            match *word {
                "-n" | "--namespace" => namespace = words.get(i + 1).map(|s| s.to_string()),
                "-A" | "--all-namespaces" | "--all-namespaces=true" => all_namespaces = true,
                _ => {
                    if let Some(ns) = word.strip_prefix("--namespace=") {
                        namespace = Some(ns.to_string());
                    } else if let Some(ns) = word
                        .strip_prefix("-n")
                        .filter(|ns| !ns.is_empty() && !word.starts_with("--"))
                    {
                        namespace = Some(ns.to_string());
                    }
                }
            }
        }
        Self {
            line: line.to_string(),
            namespace,
            all_namespaces,
        }
    }
}

/// The programs whose command lines start a segment. kubectl's wrappers (`microk8s kubectl`, `k3s
/// kubectl`, `minikube kubectl --`, `kubectl.exe`) are read as kubectl.
const PROGRAMS: [&str; 14] = [
    "kubectl",
    "kubectl.exe",
    "oc",
    "etcdctl",
    "kubeadm",
    "crictl",
    "journalctl",
    "systemctl",
    "docker",
    "helm",
    "microk8s",
    "k3s",
    "minikube",
    "curl",
];

/// The kubectl verbs after which a bare `k` is the usual alias of kubectl.
const VERBS: [&str; 16] = [
    "get",
    "describe",
    "logs",
    "events",
    "apply",
    "create",
    "delete",
    "top",
    "exec",
    "rollout",
    "run",
    "edit",
    "patch",
    "scale",
    "version",
    "cluster-info",
];

/// The command a line starts with, if it starts with one of [`PROGRAMS`] (or `k VERB`).
fn command_at(text: &str) -> Option<String> {
    let first = text.split_whitespace().next()?;
    let rest = text[first.len()..].trim_start();
    let known = PROGRAMS.contains(&first)
        || first == "k" && rest.split_whitespace().next().is_some_and(|v| VERBS.contains(&v));
    if !known || rest.is_empty() && first != "kubectl" {
        return None;
    }
    // Wrappers of kubectl: `microk8s kubectl get pods` -> `kubectl get pods`.
    let mut line = text.trim();
    for wrapper in ["microk8s ", "k3s ", "minikube "] {
        if let Some(after) = line.strip_prefix(wrapper) {
            if after.starts_with("kubectl ") {
                line = after;
            }
        }
    }
    let line = line
        .replacen("kubectl.exe ", "kubectl ", 1)
        .replacen("kubectl -- ", "kubectl ", 1);
    Some(line)
}

/// The command on a prompt line, if the line is one: `$ kubectl get pods`, `$k describe pod x`,
/// `user@host:~/x$ kubectl …`, `root@node:~# kubectl …`, `bash-4.3# etcdctl cluster-health`,
/// `❯ kubectl …`, `➜  ~ kubectl …`, `PS C:\> kubectl …`, `C:\Users\me>kubectl …`, `[user@host dir]$
/// …`, or a bare `kubectl …` line. A prompt is a marker (`$`, `#`, `%`, `>`, `❯`, `➜`, `λ`) after
/// text without spaces (or bracketed, or with an `@`), followed by a known program.
fn prompt_command(line: &str) -> Option<String> {
    let trimmed = line.trim();
    if let Some(command) = command_at(trimmed) {
        return Some(command);
    }
    // `watch kubectl get nodes` prints its own header: `Every 2.0s: kubectl get nodes`, then the
    // host and the time after a run of spaces (kubernetes/kubernetes#12269).
    let watched = trimmed
        .strip_prefix("Every ")
        .and_then(|rest| rest.split_once(": "))
        .filter(|(interval, _)| {
            interval
                .strip_suffix('s')
                .is_some_and(|s| s.parse::<f64>().is_ok())
        })
        .and_then(|(_, command)| command_at(command.split("  ").next().unwrap_or(command).trim()));
    if watched.is_some() {
        return watched;
    }
    for (at, marker) in trimmed.char_indices() {
        if !matches!(marker, '$' | '#' | '%' | '>' | '❯' | '➜' | 'λ') {
            continue;
        }
        let head = &trimmed[..at];
        let head_ok = if head.is_empty() {
            marker != '#' && marker != '>'
        } else {
            head.len() <= 100
                && (!head.trim_end().contains(' ')
                    || head.starts_with(['[', '('])
                    || head.starts_with("PS ")
                    || head.contains('@'))
        };
        if !head_ok {
            continue;
        }
        let rest = trimmed[at + marker.len_utf8()..].trim_start();
        if let Some(command) = command_at(rest) {
            return Some(command);
        }
        // zsh themes print the directory after the marker (`➜  ~ kubectl …`).
        if let Some((_, after)) = rest.split_once(char::is_whitespace) {
            if let Some(command) = command_at(after.trim_start()) {
                return Some(command);
            }
        }
        // A plain prompt at the start of the line runs any command (`$ more svc.yaml`).
        if head.is_empty() && !rest.is_empty() && trimmed[at + marker.len_utf8()..].starts_with(' ') {
            return Some(rest.to_string());
        }
    }
    None
}

/// How many spaces a line starts with. Pretty-printed JSON and deep YAML are about half indentation,
/// so runs of spaces are skipped eight bytes at a time (the YAML reader uses this too).
pub fn leading_spaces(line: &[u8]) -> usize {
    const SPACES: u64 = u64::from_ne_bytes([b' '; 8]);
    let mut at = 0;
    while let Some(Ok(word)) = line.get(at..at + 8).map(<[u8; 8]>::try_from) {
        if u64::from_ne_bytes(word) != SPACES {
            break;
        }
        at += 8;
    }
    at + line[at..].iter().take_while(|b| **b == b' ').count()
}

/// The length of a line's indentation (spaces and tabs).
fn indentation(line: &[u8]) -> usize {
    let at = leading_spaces(line);
    at + line[at..]
        .iter()
        .take_while(|b| matches!(b, b' ' | b'\t'))
        .count()
}

/// Whether a line (without its indentation) that does not mention kubectl could still be a prompt
/// line ([`prompt_command`]): it starts with a prompt marker (`$`, `%`, `❯`, `➜`, `λ`), with `k `,
/// or with a bracketed prompt (`[root@master openshift]# oc get all`, embercsi/ember-csi#28).
fn starts_like_prompt(body: &str) -> bool {
    body.starts_with(['$', '%', '❯', '➜', 'λ'])
        || body.starts_with("k ")
        || body.starts_with('[') && (body.contains("]# ") || body.contains("]$ "))
}

/// A markdown fence, given the line without its indentation.
fn is_fence(body: &str) -> bool {
    body.starts_with("```") || body.starts_with("~~~")
}

/// Where `ctl ` occurs in `text`: the end of `kubectl `, `etcdctl `, `crictl `, `systemctl `,
/// `journalctl `, the programs whose command lines may carry a prompt in front. Natively `memmem`; in
/// wasm without SIMD its fallback prefilter was 2.4 % of reading a YAML dump, so each `c` is found
/// eight bytes at a time and the word checked there. With wasm SIMD, `memmem` measured the same as this loop.
fn kubectl_positions(text: &str) -> impl Iterator<Item = usize> + '_ {
    #[cfg(not(target_arch = "wasm32"))]
    let found = memchr::memmem::find_iter(text.as_bytes(), b"ctl ");
    #[cfg(target_arch = "wasm32")]
    let found = kubectl_in_words(text.as_bytes());
    found
}

#[cfg(any(target_arch = "wasm32", test))]
fn kubectl_in_words(bytes: &[u8]) -> impl Iterator<Item = usize> + '_ {
    let mut from = 0;
    std::iter::from_fn(move || loop {
        let at = from + crate::lines::byte_in_words(bytes.get(from..)?, b'c')?;
        from = at + 1;
        if bytes[at..].starts_with(b"ctl ") {
            return Some(at);
        }
    })
}

/// Whether a line whose first byte after its spaces is `byte` may be a prompt without the word
/// kubectl, a fence or a log marker ([`starts_like_prompt`], [`is_fence`], `==== START logs`): the
/// first bytes of `$`, `%`, `❯`, `➜`, `λ`, `k `, `[`, `` ` ``, `~`, `=`, and a tab (indentation goes on).
fn may_start_marker(byte: u8) -> bool {
    matches!(
        byte,
        b'$' | b'%' | 0xE2 | 0xCE | b'k' | b'[' | b'`' | b'~' | b'=' | b'\t'
    )
}

/// Splits `text` into segments. Text without prompts or fences is one segment (no copy).
pub fn split(text: &str) -> Vec<Segment<'_>> {
    split_lines(text, true)
}

/// [`split`], with or without passing over the lines that cannot be markers on their first byte (the
/// tests check that it changes nothing).
fn split_lines(text: &str, pass_over: bool) -> Vec<Segment<'_>> {
    let mut segments = Vec::new();
    let mut start = 0usize;
    let mut start_line = 1u32;
    let mut command: Option<Command> = None;
    let mut offset = 0usize;
    let mut in_log = false;
    // Where the word kubectl occurs, found in one pass over the whole text: most lines of a big dump
    // cannot be prompts, and searching each one for it was a quarter of reading a JSON dump.
    let mut kubectl_at = kubectl_positions(text).peekable();
    let bytes = text.as_bytes();
    let mut line_no = 0u32;
    while offset < bytes.len() {
        line_no += 1;
        // The line's first byte after its spaces, then its end, searched from there: the spaces
        // are looked at once.
        let body_at = offset + leading_spaces(&bytes[offset..]);
        let line_end = crate::lines::next_line(text, body_at);
        let mut mentions_kubectl = false;
        while let Some(&at) = kubectl_at.peek() {
            if at >= line_end {
                break;
            }
            mentions_kubectl = true;
            kubectl_at.next();
        }
        // Most lines of a dump start with none of the bytes a prompt, a fence or a log marker starts
        // with, and do not mention kubectl: they are passed over on that one byte.
        if pass_over && !mentions_kubectl && !bytes.get(body_at).is_some_and(|b| may_start_marker(*b)) {
            offset = line_end;
            continue;
        }
        let raw = &text[offset..line_end];
        let line = raw.strip_suffix('\n').unwrap_or(raw);
        let line = line.strip_suffix('\r').unwrap_or(line);
        // `kubectl cluster-info dump` wraps container logs in START/END lines; inside, nothing is a
        // prompt or a fence.
        let log_start = line.starts_with("==== START logs for container");
        let log_end = in_log && line.starts_with("==== END logs for container");
        let body = &line[indentation(line.as_bytes())..];
        let fence = !in_log && is_fence(body);
        let prompt = if in_log || !(mentions_kubectl || starts_like_prompt(body)) {
            None
        } else if fence {
            // A fence with the prompt on its opening line: ```` ```user@vm:~$ kubectl create ns x ````.
            prompt_command(body.trim_start_matches(['`', '~']))
        } else {
            prompt_command(line)
        };
        if log_start || log_end || prompt.is_some() || fence {
            push_segment(
                text,
                start,
                offset,
                start_line,
                command.take(),
                in_log,
                &mut segments,
            );
            if let Some(cmd) = prompt {
                command = Some(Command::parse(&cmd));
            }
            in_log = log_start;
            start = offset + raw.len();
            start_line = line_no + 1;
        }
        offset += raw.len();
    }
    push_segment(
        text,
        start,
        text.len(),
        start_line,
        command,
        in_log,
        &mut segments,
    );
    segments
}

fn push_segment<'a>(
    text: &'a str,
    start: usize,
    end: usize,
    first_line: u32,
    command: Option<Command>,
    log: bool,
    segments: &mut Vec<Segment<'a>>,
) {
    let body = &text[start..end];
    if !body.trim().is_empty() || command.is_some() {
        // A command whose output is empty still belongs to the paste (its hint is kept).
        segments.push(Segment {
            first_line,
            text: body,
            command,
            log,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// kubernetes/kubernetes#12269: `watch kubectl get nodes` pasted with watch's header line.
    #[test]
    fn the_header_of_watch_names_the_command() {
        assert_eq!(
            prompt_command("    Every 2.0s: kubectl get nodes                     Wed Aug  5 12:46:14 2015"),
            Some("kubectl get nodes".to_string())
        );
        assert_eq!(prompt_command("Every morning: kubectl get nodes"), None);
        assert_eq!(prompt_command("Every 2s: the nodes were checked"), None);
    }

    #[test]
    fn a_pipe_glued_to_a_word_ends_the_commands_own_words() {
        let command = Command::parse("kubectl -n my-space get pods| grep mongodb");
        assert_eq!(command.own_words(), ["kubectl", "-n", "my-space", "get", "pods"]);
        assert_eq!(command.namespace.as_deref(), Some("my-space"));
    }

    #[test]
    fn kubectl_in_words_is_memmem() {
        for text in [
            "",
            "kubectl ",
            "kubectl",
            "$ kubectl get pods\nkind: Pod\n",
            "kkubectl kubectl kubectl\nkubernetes.io/kubectl x kubectl \u{a0}kubectl k",
            "0123456kubectl get 01234567kubectl -n x0123456789abcdefkubectl ",
        ] {
            let bytes = text.as_bytes();
            for start in 0..bytes.len() {
                let slice = &bytes[start..];
                let expected: Vec<usize> = memchr::memmem::find_iter(slice, b"ctl ").collect();
                assert_eq!(
                    kubectl_in_words(slice).collect::<Vec<_>>(),
                    expected,
                    "{text:?} from {start}"
                );
            }
        }
    }

    /// Every marker, behind spaces or tabs or none, among dump lines and inside a log block, and the
    /// shared corpus's incidents: passing lines over on their first byte splits them all the same.
    #[test]
    fn passing_lines_over_on_their_first_byte_changes_no_segment() {
        let markers = [
            "$ kubectl get pods -n a",
            "% kubectl get svc",
            "$ ls -l",
            "% echo hi",
            "❯ kubectl get nodes",
            "➜  ~ kubectl describe pod x -n b",
            "❯ ls",
            "λ kubectl get ev",
            "λ true",
            "k get pods -A",
            "k describe pod web",
            "kubectl get cm",
            "user@host:~/x$ kubectl get pods --namespace=c",
            "root@node:~# kubectl logs web",
            "PS C:\\> kubectl get pods",
            "[user@host ~]$ kubectl get pods",
            "```yaml",
            "```",
            "~~~",
            "==== START logs for container app of pod a/web ====",
            "==== END logs for container app of pod a/web ====",
            "kind: Pod",
            "  \"kind\": \"Pod\",",
            "- name: web",
            "€ not a prompt",
            "\u{a0}$ kubectl get pods",
            "",
        ];
        let mut texts = Vec::new();
        for indent in ["", "  ", "\t", " \t ", "    "] {
            let mut text = String::from("apiVersion: v1\nkind: List\n");
            for marker in markers {
                text.push_str(&format!("{indent}{marker}\n  name: a\nmetadata:\r\n"));
            }
            texts.push(text);
        }
        let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/cases");
        for entry in std::fs::read_dir(&corpus).into_iter().flatten().flatten() {
            for file in std::fs::read_dir(entry.path()).into_iter().flatten().flatten() {
                if let Ok(text) = std::fs::read_to_string(file.path()) {
                    texts.push(text);
                }
            }
        }
        assert!(texts.len() > 20, "the corpus is there: {}", texts.len());
        for (i, text) in texts.iter().enumerate() {
            let fast = split_lines(text, true);
            assert_eq!(fast, split_lines(text, false), "{text}");
            if i < 5 {
                // Every marker but the log block's inside split the synthetic pastes.
                assert!(fast.len() >= 15, "{} segments: {fast:?}", fast.len());
            }
        }
    }

    #[test]
    fn plain_text_is_one_segment() {
        let segs = split("kind: Pod\nmetadata:\n  name: a\n");
        assert_eq!(segs.len(), 1);
        assert_eq!(segs[0].first_line, 1);
        assert_eq!(segs[0].command, None);
    }

    /// A bracketed root prompt before `oc` (embercsi/ember-csi#28), which names no `kubectl`.
    #[test]
    fn a_bracketed_prompt_before_oc_is_a_prompt() {
        let text = "[root@master-etcd-1 openshift]# oc get all\nNAME   READY\n[ERROR] not a prompt\n";
        let segs = split(text);
        assert_eq!(segs.len(), 1);
        assert_eq!(
            segs[0].command.as_ref().map(|c| c.line.as_str()),
            Some("oc get all")
        );
        assert_eq!(segs[0].first_line, 2);
        assert_eq!(split_lines(text, false).len(), segs.len());
    }

    #[test]
    fn prompts_and_fences_split_and_keep_line_numbers() {
        let text = "```\n$ kubectl -n shop get events\nLAST SEEN  TYPE  REASON\n1m  Normal  Pulled\n```\n\nroot@cp-1:~# kubectl get pod web -o yaml --namespace=shop\nkind: Pod\n";
        let segs = split(text);
        assert_eq!(segs.len(), 2, "{segs:?}");
        assert_eq!(segs[0].first_line, 3);
        assert!(segs[0].text.starts_with("LAST SEEN"));
        assert_eq!(
            segs[0].command.as_ref().unwrap().namespace.as_deref(),
            Some("shop")
        );
        assert_eq!(segs[1].first_line, 8);
        assert_eq!(segs[1].text, "kind: Pod\n");
        let cmd = segs[1].command.as_ref().unwrap();
        assert_eq!(cmd.line, "kubectl get pod web -o yaml --namespace=shop");
        assert_eq!(cmd.namespace.as_deref(), Some("shop"));
    }

    #[test]
    fn cluster_info_dump_log_blocks_are_their_own_segments() {
        let text = "{\"kind\": \"PodList\", \"items\": []}\n==== START logs for container app of pod shop/web-1 ====\n$ not a prompt here\n==== END logs for container app of pod shop/web-1 ====\n{\"kind\": \"EventList\", \"items\": []}\n";
        let segs = split(text);
        assert_eq!(
            segs.iter().map(|s| (s.first_line, s.log)).collect::<Vec<_>>(),
            [(1, false), (3, true), (5, false)]
        );
    }

    #[test]
    fn indentation_counts_spaces_and_tabs_at_any_length() {
        for n in [0, 1, 7, 8, 9, 16, 23] {
            let line = format!("{}\t x", " ".repeat(n));
            assert_eq!(indentation(line.as_bytes()), n + 2, "{line:?}");
            assert_eq!(indentation(" ".repeat(n).as_bytes()), n);
        }
    }

    #[test]
    fn command_hints() {
        assert!(Command::parse("kubectl get events -A --sort-by=.lastTimestamp").all_namespaces);
        assert_eq!(
            Command::parse("kubectl -nkube-system get pods")
                .namespace
                .as_deref(),
            Some("kube-system")
        );
        assert_eq!(Command::parse("kubectl get pods").namespace, None);
        let prompt = |line: &str| prompt_command(line);
        for (line, command) in [
            ("➜  ~ kubectl get pods", "kubectl get pods"),
            ("[admin@bastion ~]$ kubectl get nodes", "kubectl get nodes"),
            ("$k describe pod ob-0", "k describe pod ob-0"),
            ("bash-4.3# etcdctl cluster-health", "etcdctl cluster-health"),
            ("C:\\Users\\me>kubectl get pods", "kubectl get pods"),
            ("PS C:\\work> kubectl.exe get pods -n x", "kubectl get pods -n x"),
            ("(⎈|prod:shop)$ kubectl get events", "kubectl get events"),
            (
                "user@vm:~/tf$   kubectl run nginx --image=nginx",
                "kubectl run nginx --image=nginx",
            ),
            ("microk8s kubectl get pods -A", "kubectl get pods -A"),
            ("$ more svc.yaml", "more svc.yaml"),
            ("oc get pods", "oc get pods"),
        ] {
            assert_eq!(prompt(line).as_deref(), Some(command), "{line}");
        }
        for line in [
            "  image: kubectl-runner:1",
            "message: run kubectl apply first",
            "The command \"kubectl describe pods x\" and the output is",
            "# kubectl apply -f this.yaml",
            "see the docs > kubectl get pods",
        ] {
            assert_eq!(prompt(line), None, "{line}");
        }
    }
}
