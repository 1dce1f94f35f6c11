//! Whether a suggested command runs as written when pasted into a POSIX shell (bash, or zsh, whose
//! interactive shells do not take `#` as a comment): the check `command_lines.rs` runs on every
//! next step and every deciding command the engine gives (issue 40, item 2).
//!
//! A command passes when, read the way the shell reads it (single quotes take everything literally,
//! double quotes all but `$`, `` ` `` and `\`, a backslash outside quotes takes the next character):
//! - its first word is one of [`PROGRAMS`];
//! - no word is empty, nor a value after `=` (`describe job ''`, `-l job-name=''`: a name the input
//!   did not give, not an argument kubectl can use);
//! - no shell operator or expansion is unquoted (`;`, `&`, `<`, `>`, `$`, `(`, `)`, `` ` ``, `#` at a
//!   word's start, a newline) and no glob (`*`, `?`, `[`: zsh stops at "no matches found"), except one documented form: `| grep …` or `| head …` after the
//!   command, each part checked in turn;
//! - a kubectl flag that takes a value ([`VALUED`]) has one, and it is not another flag;
//! - a placeholder (`<name>`, `<namespace>`, `<node>`) is written only in single quotes, alone
//!   between them (`'<name>'`, `job-name='<name>'`): quoted, a command copied unchanged fails at
//!   kubectl instead of redirecting the shell's input.

/// The programs a next step may run: kubectl; `ssh NODE …` for what only a node shows (a static
/// Pod's container through `crictl`); `etcdctl` and `kubeadm`, which run on a control-plane node
/// (the finding says so in words, `common.on-control-plane`). After a pipe, `grep` and `head`.
pub const PROGRAMS: [&str; 4] = ["kubectl", "ssh", "etcdctl", "kubeadm"];
pub const AFTER_PIPE: [&str; 2] = ["grep", "head"];

/// The kubectl flags that take a value (as `-n NS` or `--namespace=NS`).
pub const VALUED: [&str; 18] = [
    "-n",
    "--namespace",
    "-l",
    "--selector",
    "-o",
    "--output",
    "-c",
    "--container",
    "--field-selector",
    "--sort-by",
    "--tail",
    "--since",
    "--as",
    "--for",
    "--timeout",
    "--raw",
    "-f",
    "--filename",
];

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Quote {
    None,
    Single,
    Double,
}

/// One shell word: its text after quote removal, and how each of its characters was quoted.
#[derive(Debug, Default)]
pub struct Word {
    pub text: String,
    quoting: Vec<Quote>,
}

/// The words of `command`, split at unquoted blanks and at unquoted `|`: the pipeline's commands.
/// An error names the first thing the shell would not take as plain words.
pub fn pipeline(command: &str) -> Result<Vec<Vec<Word>>, String> {
    let mut commands: Vec<Vec<Word>> = vec![Vec::new()];
    let mut word: Option<Word> = None;
    let mut quote = Quote::None;
    let mut chars = command.chars().peekable();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Quote::None, ' ' | '\t') => {
                if let Some(w) = word.take() {
                    commands.last_mut().unwrap().push(w);
                }
            }
            (Quote::None, '|') => {
                if let Some(w) = word.take() {
                    commands.last_mut().unwrap().push(w);
                }
                if chars.peek() == Some(&'|') {
                    return Err("`||` runs a second command".into());
                }
                commands.push(Vec::new());
            }
            (Quote::None, '\'' | '"') => {
                word.get_or_insert_with(Word::default);
                quote = if c == '"' { Quote::Double } else { Quote::Single };
            }
            (Quote::Single, '\'') | (Quote::Double, '"') => quote = Quote::None,
            (Quote::None, '\\') => {
                let next = chars.next().ok_or("a backslash ends the command")?;
                if next == '\n' {
                    return Err("a line continuation".into());
                }
                let w = word.get_or_insert_with(Word::default);
                w.text.push(next);
                w.quoting.push(Quote::Single);
            }
            (Quote::Double, '\\') if matches!(chars.peek(), Some('$' | '`' | '"' | '\\')) => {
                let w = word.get_or_insert_with(Word::default);
                w.text.push(chars.next().unwrap());
                w.quoting.push(Quote::Double);
            }
            (Quote::None, ';' | '&' | '<' | '>' | '$' | '(' | ')' | '`' | '\n' | '\r') => {
                return Err(format!("unquoted `{}`", c.escape_default()));
            }
            // History expansion in an interactive shell, except before `=` (`status.phase!=Running`).
            (Quote::None, '!') if chars.peek() != Some(&'=') => {
                return Err("unquoted `!`: history expansion".into());
            }
            (Quote::None, '*' | '?' | '[') => {
                return Err(format!(
                    "unquoted `{c}`: a glob, which zsh refuses when no file matches"
                ));
            }
            (Quote::None, '#') if word.is_none() => {
                return Err("`#` starts a comment in bash, an argument in zsh".into());
            }
            (Quote::Double, '$' | '`') => {
                return Err(format!("`{c}` expands inside double quotes"));
            }
            (q, c) => {
                let w = word.get_or_insert_with(Word::default);
                w.text.push(c);
                w.quoting.push(q);
            }
        }
    }
    if quote != Quote::None {
        return Err("an unclosed quote".into());
    }
    if let Some(w) = word.take() {
        commands.last_mut().unwrap().push(w);
    }
    Ok(commands)
}

/// Whether `command` runs as written: `Err` says why not.
pub fn check(command: &str) -> Result<(), String> {
    let commands = pipeline(command)?;
    for (at, words) in commands.iter().enumerate() {
        let first = words.first().ok_or("an empty command in a pipeline")?;
        let allowed: &[&str] = if at == 0 { &PROGRAMS } else { &AFTER_PIPE };
        if !allowed.contains(&first.text.as_str()) {
            return Err(format!("runs `{}`", first.text));
        }
        for word in words {
            if word.text.is_empty() {
                return Err("an empty argument".into());
            }
            if word.text.ends_with('=') {
                return Err(format!("an empty value in `{}`", word.text));
            }
            placeholders_quoted(word)?;
        }
        if first.text == "kubectl" {
            flag_values(words)?;
        }
    }
    Ok(())
}

/// Every `<…>` placeholder in a word is single-quoted and alone in its quotes.
fn placeholders_quoted(word: &Word) -> Result<(), String> {
    let chars: Vec<char> = word.text.chars().collect();
    for (at, c) in chars.iter().enumerate() {
        if *c != '<' {
            continue;
        }
        let Some(len) = chars[at + 1..].iter().position(|c| *c == '>') else {
            continue;
        };
        let inner = &chars[at + 1..at + 1 + len];
        if inner.is_empty() || !inner.iter().all(|c| c.is_ascii_lowercase() || *c == '-') {
            continue;
        }
        let end = at + len + 1;
        let single = |i: usize| word.quoting.get(i) == Some(&Quote::Single);
        let alone = (at == 0 || !single(at - 1)) && !single(end + 1);
        if !(at..=end).all(single) || !alone {
            return Err(format!(
                "the placeholder `{}` is not alone in single quotes",
                String::from_iter(&chars[at..=end])
            ));
        }
    }
    Ok(())
}

/// Each flag of [`VALUED`] has a value that is not another flag.
fn flag_values(words: &[Word]) -> Result<(), String> {
    for (at, word) in words.iter().enumerate() {
        let text = word.text.as_str();
        if text == "--" {
            break; // the command kubectl runs (`kubectl debug … -- journalctl --since -30m`)
        }
        if let Some((flag, value)) = text.split_once('=').filter(|(f, _)| f.starts_with('-')) {
            if VALUED.contains(&flag) && value.is_empty() {
                return Err(format!("`{flag}=` has no value"));
            }
            continue;
        }
        if VALUED.contains(&text) {
            match words.get(at + 1) {
                Some(next) if !next.text.starts_with('-') => {}
                _ => return Err(format!("`{text}` has no value")),
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_as_the_rules_write_them_pass() {
        for good in [
            "kubectl describe pod web-7d9f -n shop",
            "kubectl get pods -n '<namespace>' -l job-name=report",
            "kubectl describe job '<name>' -n shop",
            "kubectl get pods -n shop -l job-name='<name>'",
            "kubectl get pod 'web$(x)' -n 'shop; rm -rf ~'",
            "kubectl get pod web -n shop -o jsonpath='{.spec.containers[?(@.name==\"app\")].image}'",
            "kubectl describe nodes | grep -A 8 'Allocated resources'",
            "kubectl get --raw='/readyz?verbose'",
            "kubectl logs -n shop web --previous --tail=50",
            "ssh worker-2 'sudo crictl logs $(sudo crictl ps -a -q --name kube-apiserver | head -1)'",
            "kubectl get pod it\\'s -n shop",
            "kubectl get events -n shop --field-selector involvedObject.name=web",
            "kubectl debug node/w1 -it --image=busybox -- chroot /host journalctl -u kubelet --since -30m",
        ] {
            assert_eq!(check(good), Ok(()), "{good}");
        }
    }

    #[test]
    fn commands_that_would_not_run_as_written_fail() {
        for (bad, why) in [
            ("kubectl get pods -l job-name=''", "an empty value"),
            ("kubectl get pods -n shop -l app=\"\"", "an empty value"),
            ("kubectl describe job '' -n shop", "an empty argument"),
            ("kubectl describe job \"\" -n shop", "an empty argument"),
            ("kubectl get pods -n <namespace>", "unquoted `<`"),
            ("kubectl describe pod web; rm -rf ~", "unquoted `;`"),
            ("kubectl describe pod web$(touch x)", "unquoted `$`"),
            (
                "kubectl describe pod \"web$(touch x)\"",
                "`$` expands inside double quotes",
            ),
            ("kubectl describe pod `id`", "unquoted ```"),
            ("kubectl describe pod web && reboot", "unquoted `&`"),
            ("kubectl describe node w2   # Events: SystemOOM", "`#` starts"),
            ("kubectl get pods -n", "`-n` has no value"),
            ("kubectl get pods -n -o wide", "`-n` has no value"),
            (
                "kubectl get pods --namespace= -o wide",
                "an empty value in `--namespace=`",
            ),
            ("kubectl get pods -l", "`-l` has no value"),
            ("kubectl get pods | sh", "runs `sh`"),
            ("rm -rf ~", "runs `rm`"),
            ("kubectl get pods -n 'shop", "an unclosed quote"),
            (
                "kubectl get pods -n shop '<namespace>x'",
                "not alone in single quotes",
            ),
            (
                "kubectl get pods -n \"<namespace>\"",
                "not alone in single quotes",
            ),
            ("kubectl get pods -n shop \\", "a backslash ends"),
            (
                "kubectl get pods -o custom-columns=CPU:.spec.containers[*].resources.requests.cpu",
                "unquoted `[`",
            ),
            ("kubectl get --raw=/readyz?verbose", "unquoted `?`"),
            (
                "kubectl get pods --field-selector status.phase!Running",
                "unquoted `!`",
            ),
            ("kubectl get pods || true", "`||`"),
            (
                "ssh NODE sudo crictl logs $(sudo crictl ps -a -q | head -1)",
                "unquoted `$`",
            ),
        ] {
            let got = check(bad);
            assert!(
                got.as_ref().is_err_and(|e| e.contains(why)),
                "{bad}: {got:?}, expected an error with {why:?}"
            );
        }
    }

    #[test]
    fn words_are_what_the_shell_passes() {
        let words: Vec<Vec<String>> = pipeline("kubectl get pod 'a b'\"c\"\\ d -n x | grep -i 'y z'")
            .unwrap()
            .into_iter()
            .map(|c| c.into_iter().map(|w| w.text).collect())
            .collect();
        assert_eq!(
            words,
            [
                vec!["kubectl", "get", "pod", "a bc d", "-n", "x"],
                vec!["grep", "-i", "y z"]
            ]
        );
    }
}
