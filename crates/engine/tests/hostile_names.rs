//! Names that are shell code stay data in the commands a finding suggests: every rule fixture that
//! fires, with its subject's namespace renamed `<ns>; rm -rf ~` and its subject renamed
//! `<name>$(touch pwned)` wherever they occur, gives commands that have them single-quoted, so pasting the command runs kubectl and nothing else (issue 28).

// Test code: panicking on a broken fixture is the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use faultline_engine::{analyze, render, Source};

/// Whether every occurrence of `payload` in `command` is inside single quotes, as a POSIX shell
/// reads it (backslashes escape outside quotes; nothing does inside single quotes).
fn only_single_quoted(command: &str, payload: &str) -> bool {
    #[derive(Clone, Copy, PartialEq)]
    enum Q {
        None,
        Single,
        Double,
    }
    let bytes = command.as_bytes();
    let mut state = Vec::with_capacity(bytes.len());
    let mut q = Q::None;
    let mut i = 0;
    while i < bytes.len() {
        match (q, bytes[i]) {
            (Q::None, b'\'') => {
                state.push(Q::None);
                q = Q::Single;
            }
            (Q::Single, b'\'') => {
                q = Q::None;
                state.push(Q::None);
            }
            (Q::None, b'"') => {
                state.push(Q::None);
                q = Q::Double;
            }
            (Q::Double, b'"') => {
                q = Q::None;
                state.push(Q::None);
            }
            (Q::None | Q::Double, b'\\') if i + 1 < bytes.len() => {
                state.push(q);
                state.push(q);
                i += 1;
            }
            _ => state.push(q),
        }
        i += 1;
    }
    command
        .match_indices(payload)
        .all(|(at, _)| state[at..at + payload.len()].iter().all(|&s| s == Q::Single))
}

#[test]
fn hostile_names_are_single_quoted_in_every_suggested_command() {
    let root = common::repo().join("tests/fixtures/rules");
    let (mut fixtures, mut quoted_commands) = (0, 0);
    for dir in common::sorted_entries(&root) {
        for path in common::sorted_entries(&dir) {
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            if !name.starts_with("fires-") || !(name.ends_with(".yaml") || name.ends_with(".json")) {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let rule = dir.file_name().unwrap().to_string_lossy().to_string();
            let original = analyze(&[Source::new(name.as_str(), text.as_str())]);
            let Some(finding) = original.findings.iter().find(|f| f.rule == rule) else {
                continue;
            };
            let subject = finding.subject.clone();
            // Names short enough to occur inside other words are left alone.
            if subject.name.len() < 5 {
                continue;
            }
            let bad_name = format!("{}$(touch pwned)", subject.name);
            let mut hostile = text.replace(subject.name.as_str(), &bad_name);
            let bad_ns = subject.namespace.as_ref().filter(|ns| ns.len() >= 4).map(|ns| {
                let bad = format!("{ns}; rm -rf ~");
                hostile = hostile
                    .replace(&format!("namespace: {ns}\n"), &format!("namespace: {bad}\n"))
                    .replace(
                        &format!("\"namespace\": \"{ns}\""),
                        &format!("\"namespace\": \"{bad}\""),
                    );
                bad
            });
            let report = analyze(&[Source::new(name.as_str(), hostile.as_str())]);
            // A rule that reads the name itself (a static Pod's `kube-scheduler-` prefix) may
            // not fire on the renamed copy: its commands are still checked.
            let after = report.findings.iter().find(|f| f.rule == rule);
            fixtures += 1;
            for command in report.findings.iter().flat_map(|f| &f.next_steps) {
                for payload in [Some(&bad_name), bad_ns.as_ref()].into_iter().flatten() {
                    assert!(
                        only_single_quoted(command, payload),
                        "{rule}/{name}: {payload:?} is not quoted in: {command}"
                    );
                    if command.contains(&format!("'{payload}'")) {
                        quoted_commands += 1;
                    }
                }
            }
            assert!(after.is_none_or(|f| !f.next_steps.is_empty()), "{rule}/{name}");
        }
    }
    assert!(fixtures >= 15, "{fixtures}");
    assert!(quoted_commands >= 30, "{quoted_commands}");
}

#[test]
fn the_quote_checker_tells_quoted_from_unquoted() {
    assert!(only_single_quoted("kubectl get pod 'a;b' -n x", "a;b"));
    assert!(!only_single_quoted("kubectl get pod a;b -n x", "a;b"));
    assert!(!only_single_quoted("kubectl get pod \"a$(x)\"", "a$(x)"));
    assert!(!only_single_quoted("jsonpath='{.name==\"'a$(x)'\"}'", "a$(x)"));
    assert!(only_single_quoted("jsonpath='{.name==\"a$(x)\"}'", "a$(x)"));
}

/// A Pod whose name breaks out of everything it can: a line break, a backtick fence, HTML, an escape
/// sequence; its namespace shell code. The image-pull finding about it names it everywhere.
fn hostile_pod() -> String {
    let name = r#"web\n```\n<img src=x onerror=alert(1)>\n\u001b[2J``"#;
    format!(
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: \"{name}\"\n  namespace: \"shop; rm -rf ~\"\nspec:\n  nodeName: w1\n  containers:\n  - name: web\n    image: shop/web:9\nstatus:\n  phase: Pending\n  containerStatuses:\n  - name: web\n    image: shop/web:9\n    imageID: ''\n    ready: false\n    restartCount: 0\n    state:\n      waiting:\n        reason: ErrImagePull\n        message: \"manifest unknown\\n```\\n<script>x</script>\"\n"
    )
}

/// The ranges of a Markdown line that are inline code: from a run of backticks not escaped to the
/// next run of the same length (CommonMark's code spans).
fn code_spans(line: &str) -> Vec<(usize, usize)> {
    let bytes = line.as_bytes();
    let run_at = |i: usize| bytes[i..].iter().take_while(|&&b| b == b'`').count();
    let (mut spans, mut i) = (Vec::new(), 0);
    while i < bytes.len() {
        // An escaped backtick opens nothing.
        if bytes[i] == b'\\' {
            i += 2;
            continue;
        }
        if bytes[i] != b'`' {
            i += 1;
            continue;
        }
        let n = run_at(i);
        let mut j = i + n;
        let mut close = None;
        while j < bytes.len() {
            if bytes[j] == b'`' {
                let m = run_at(j);
                if m == n {
                    close = Some(j);
                    break;
                }
                j += m;
            } else {
                j += 1;
            }
        }
        match close {
            Some(c) => {
                spans.push((i, c + n));
                i = c + n;
            }
            None => i += n,
        }
    }
    spans
}

#[test]
fn hostile_names_cannot_break_out_of_markdown_html_or_text() {
    let text = hostile_pod();
    let sources = [Source::new("pod.yaml", text.as_str())];
    let report = analyze(&sources);
    let finding = report.findings.iter().find(|f| f.rule == "image-pull-failed");
    assert!(
        finding.is_some_and(|f| f.subject.name.contains("<img")),
        "{:?}",
        report.findings
    );

    // Markdown: outside the fenced blocks the renderer opens (one per finding, for its commands) no
    // line is a fence, every `<` is escaped or inside inline code, and no control character is sent.
    let md = render::markdown(&report, render::Lang::En);
    let mut fence: Option<usize> = None;
    let mut blocks = 0;
    for line in md.lines() {
        let ticks = line.bytes().take_while(|&b| b == b'`').count();
        match fence {
            Some(n) if ticks >= n && line[ticks..].trim().is_empty() => fence = None,
            // Inside, the commands, a name's line breaks and fences included: all literal.
            Some(_) => {}
            None if ticks >= 3 => {
                assert_eq!(&line[ticks..], "sh", "{line:?}:\n{md}");
                fence = Some(ticks);
                blocks += 1;
            }
            None => {
                let spans = code_spans(line);
                for (at, _) in line.match_indices('<') {
                    let escaped = at > 0 && line.as_bytes()[at - 1] == b'\\';
                    let in_code = spans.iter().any(|&(s, e)| s <= at && at < e);
                    assert!(escaped || in_code, "a raw `<` at {at} of {line:?}:\n{md}");
                }
            }
        }
    }
    assert!(fence.is_none() && blocks == report.findings.len(), "{md}");
    assert!(!md.contains('\u{1b}'), "{md}");

    // HTML: no element comes from the input.
    let html = render::html(&report, render::Lang::En);
    assert!(!html.contains("<img") && !html.contains("<script"), "{html}");
    assert!(html.contains("&lt;img src=x onerror=alert(1)&gt;"), "{html}");

    // Text: the name's line breaks and escape sequence are shown as escapes, never sent.
    let out = render::text(&report, &sources, render::Lang::En);
    assert!(!out.contains('\u{1b}'), "{out}");
    for line in out.lines() {
        assert!(
            !line.starts_with("```") && !line.starts_with("<img") && !line.starts_with("<script"),
            "{line:?}:\n{out}"
        );
    }
    assert!(
        out.contains(r"web\n```\n<img src=x onerror=alert(1)>\n\u{1b}[2J``"),
        "{out}"
    );
}
