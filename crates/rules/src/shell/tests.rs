use super::*;

#[test]
fn plain_names_stay_and_hostile_ones_are_quoted() {
    for plain in [
        "web-7d9f-abc",
        "kube-system",
        "app=web,tier=front",
        "node/ip-10-0-1-2.ec2.internal",
        "8080",
    ] {
        assert_eq!(quote(plain), plain);
    }
    for (hostile, quoted) in [
        ("shop; rm -rf ~", "'shop; rm -rf ~'"),
        ("web$(x)", "'web$(x)'"),
        ("a`id`", "'a`id`'"),
        ("it's", r"'it'\''s'"),
        ("two words", "'two words'"),
        ("line\nbreak", "'line\nbreak'"),
        ("*", "'*'"),
        ("~root", "'~root'"),
        ("x|y&z>w", "'x|y&z>w'"),
        // A name the input does not give: a placeholder, quoted (issue 38).
        ("", "'<name>'"),
        ("<namespace>", "'<namespace>'"),
    ] {
        assert_eq!(quote(hostile), quoted, "{hostile:?}");
    }
    assert_eq!(InQuotes("web$(x)").shell_arg(), "web$(x)");
    assert_eq!(InQuotes("it's").shell_arg(), r"it'\''s");
    assert_eq!(
        command!(
            "kubectl describe pod {} -n {}",
            "web$(x)",
            String::from("shop; rm -rf ~")
        ),
        "kubectl describe pod 'web$(x)' -n 'shop; rm -rf ~'"
    );
    assert_eq!(
        command!("kubectl describe pod {} -n {}", "web", "shop"),
        "kubectl describe pod web -n shop"
    );
}

/// Every command a rule suggests is built by `command!`, every value in it a `{}` argument (a name
/// captured inline, `{ns}`, is not quoted), and a value inside single quotes is `InQuotes`, one
/// outside is not; none sits inside double quotes, where `$(…)` would still run.
#[test]
fn every_rule_builds_its_commands_with_quoted_values() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    let mut dirs = vec![root];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") && !path.ends_with("shell/tests.rs") {
                files.push(path);
            }
        }
    }
    assert!(files.len() > 20, "{}", files.len());
    let commands = [
        "kubectl ",
        "ssh ",
        "etcdctl ",
        "crictl ",
        "journalctl ",
        "systemctl ",
        "curl ",
        "openssl ",
    ];
    let mut checked = 0;
    for path in &files {
        let source = std::fs::read_to_string(path).unwrap_or_default();
        for (at, _) in source.match_indices("format!(") {
            let literal = first_literal(&source[at + "format!(".len()..]).unwrap_or_default();
            assert!(
                !commands.iter().any(|c| literal.starts_with(c)) || literal.starts_with("kubectl shows"),
                "{}: a command built with format!, not command!: {literal}",
                path.display()
            );
        }
        // Every call, whether rustfmt kept its literal on the macro's line or moved it below.
        for (at, _) in source.match_indices("command!(") {
            let call = &source[at + "command!(".len()..];
            if !call.trim_start().starts_with('"') {
                continue;
            }
            let literal = first_literal(call).unwrap_or_default();
            let args = arguments(call);
            let contexts = placeholder_contexts(literal);
            assert!(
                !has_inline_capture(literal),
                "{}: a value captured inline is not quoted: {literal}",
                path.display()
            );
            assert_eq!(contexts.len(), args.len(), "{}: {literal}", path.display());
            for (context, arg) in contexts.iter().zip(&args) {
                let in_quotes = arg.contains("InQuotes(");
                match context {
                    Quote::None => assert!(!in_quotes, "{}: {arg} is outside quotes", path.display()),
                    Quote::Single => {
                        assert!(in_quotes, "{}: {arg} inside '…' must be InQuotes", path.display())
                    }
                    Quote::Double => panic!("{}: {arg} inside \"…\" in {literal}", path.display()),
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 100, "{checked}");
}

#[derive(Debug, PartialEq)]
enum Quote {
    None,
    Single,
    Double,
}

/// The text of the string literal `rest` starts with (escapes left as written).
fn first_literal(rest: &str) -> Option<&str> {
    let rest = rest.trim_start();
    let body = rest.strip_prefix('"')?;
    let bytes = body.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return Some(&body[..i]),
            _ => i += 1,
        }
    }
    None
}

/// The shell quoting in force at each `{}` of a command's format string (`\"` is a `"`).
fn placeholder_contexts(literal: &str) -> Vec<Quote> {
    let unescaped = literal.replace("\\\"", "\"").replace("\\\\", "\\");
    let bytes = unescaped.as_bytes();
    let mut quote = Quote::None;
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match (bytes[i], &quote) {
            (b'{' | b'}', _) if bytes.get(i + 1) == Some(&bytes[i]) && !unescaped[i..].starts_with("{}") => {
                i += 1
            }
            (b'{', _) if bytes.get(i + 1) == Some(&b'}') => {
                out.push(match quote {
                    Quote::None => Quote::None,
                    Quote::Single => Quote::Single,
                    Quote::Double => Quote::Double,
                });
                i += 1;
            }
            (b'\'', Quote::None) => quote = Quote::Single,
            (b'\'', Quote::Single) => quote = Quote::None,
            (b'"', Quote::None) => quote = Quote::Double,
            (b'"', Quote::Double) => quote = Quote::None,
            _ => {}
        }
        i += 1;
    }
    out
}

/// Whether a format string captures a variable inline (`{ns}`), `{{`/`}}` aside.
fn has_inline_capture(literal: &str) -> bool {
    let plain = literal.replace("{{", "").replace("}}", "");
    plain
        .match_indices('{')
        .any(|(i, _)| !plain[i..].starts_with("{}"))
}

/// The arguments after the format string of a `command!(` call's text: split at top-level commas,
/// strings and nesting respected.
fn arguments(call: &str) -> Vec<String> {
    let bytes = call.as_bytes();
    let mut args = Vec::new();
    let (mut depth, mut i, mut current) = (0usize, 0, String::new());
    let mut literal_done = false;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'"' => {
                let len = first_literal(&call[i..]).map_or(1, |l| l.len() + 2);
                current.push_str(&call[i..i + len]);
                i += len;
                continue;
            }
            b'\'' if bytes.get(i + 2) == Some(&b'\'') => {
                current.push_str(&call[i..i + 3]);
                i += 3;
                continue;
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' if depth == 0 => break,
            b')' | b']' | b'}' => depth -= 1,
            b',' if depth == 0 => {
                if literal_done {
                    args.push(current.trim().to_string());
                }
                literal_done = true;
                current.clear();
                i += 1;
                continue;
            }
            _ => {}
        }
        current.push(char::from(b));
        i += 1;
    }
    if literal_done && !current.trim().is_empty() {
        args.push(current.trim().to_string());
    }
    args
}
