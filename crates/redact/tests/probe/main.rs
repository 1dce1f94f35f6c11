//! The probe (issue 42): pastes as a security reviewer would write them, one kind of secret each,
//! generated afresh from a seed, for every usable rule of gitleaks' set and every structural
//! detector; each secret value is then looked for in the redacted copy in four forms — itself, its
//! base64, its decoding when it is base64, and every 12-character piece of it — and any form left
//! behind fails the test.
//!
//! A rule's sample is written from the rule's own regex (`sample.rs`), the way gitleaks' own tests
//! make theirs (`cmd/generate/secrets.NewSecret`), and kept only when the rule alone finds it: its
//! secret is what the rule's secret group captured. The paste puts it where people paste such
//! lines (a ConfigMap's file, a log, `kubectl describe`'s environment, a command), and a fifth of
//! the samples appear a second time in another input, stored base64-encoded in a Secret or bare in
//! a command, so that redaction across inputs is probed too.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::print_stdout)]

mod forms;
mod rng;
mod sample;
mod structural;

use faultline_ingest::Source;
use faultline_redact::gitleaks::{skipped, RULES};
use faultline_redact::{redact, ScanOptions};

use forms::{base64_encode, survivors};
use rng::Rng;

/// A rule's sample line, where people paste such a line.
fn paste_for(n: usize, line: &str) -> String {
    match n % 4 {
        0 => format!(
            "$ kubectl get configmap api-settings -n shop -o yaml\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: api-settings\n  namespace: shop\ndata:\n  app.conf: |\n    # settings of the api\n    {line}\n    log_level = info\n"
        ),
        1 => format!(
            "$ kubectl logs deploy/api -n shop --tail=4\n2026-12-01T09:14:02.118Z INFO  starting api v2.3.1\n2026-12-01T09:14:02.120Z DEBUG loaded settings: {line}\n2026-12-01T09:14:02.121Z ERROR dial tcp 10.96.0.12:5432: connect: connection refused\n"
        ),
        2 => format!(
            "$ kubectl describe pod api-7d4b9c-x2x9q -n shop\nName:             api-7d4b9c-x2x9q\nNamespace:        shop\nContainers:\n  api:\n    Image:          registry.shop.example/api:2.3.1\n    Command:\n      sh\n      -c\n      {line}\n    State:          Waiting\n      Reason:       CrashLoopBackOff\n"
        ),
        _ => format!(
            "$ kubectl exec -it deploy/api -n shop -- cat /etc/api/settings.env\n{line}\nREGION=eu-west-1\n"
        ),
    }
}

/// `text` without its redaction tokens.
fn without_tokens(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("<redacted:") {
        out.push_str(&rest[..at]);
        rest = rest[at..].split_once('>').map_or("", |(_, after)| after);
    }
    out.push_str(rest);
    out
}

#[test]
fn every_rule_of_the_set_is_redacted_in_every_form() {
    let skipped: Vec<&str> = skipped().into_iter().map(|(id, _)| id).collect();
    let mut rng = Rng::new(42);
    let mut covered = Vec::new();
    let mut no_sample = Vec::new();
    let mut failures = Vec::new();
    for (i, rule) in RULES.iter().enumerate() {
        if skipped.contains(&rule.id) {
            continue;
        }
        let Some((line, secret)) = sample::for_rule(i, &mut rng) else {
            no_sample.push(rule.id);
            continue;
        };
        let mut sources = vec![Source::new("paste", paste_for(i, &line))];
        // A fifth of the samples appear in a second input too: base64 in a Secret, or bare.
        if i % 5 == 0 {
            sources.push(Source::new(
                "secret.yaml",
                format!(
                    "apiVersion: v1\nkind: Secret\nmetadata:\n  name: api-token\n  namespace: shop\ndata:\n  token: {}\n",
                    base64_encode(secret.as_bytes())
                ),
            ));
        } else if i % 5 == 1 {
            sources.push(Source::new(
                "later.txt",
                format!("$ ./deploy.sh --verbose {secret}\nerror: upload refused\n"),
            ));
        }
        let copy = redact(&sources, &ScanOptions::default());
        // A token's name is the rule's id, which may spell a fixed head of its tokens
        // (`bedrock-api-key-`): the tokens are not looked in.
        let left: Vec<String> = copy
            .sources
            .iter()
            .flat_map(|s| survivors(&secret, &without_tokens(&s.text), &[]))
            .collect();
        if left.is_empty() {
            covered.push(rule.id);
        } else {
            failures.push(format!(
                "{} ({:?} in {:?}): {:?} survives\n{}",
                rule.id,
                secret,
                line,
                &left[..left.len().min(2)],
                copy.sources.iter().map(|s| s.text.as_str()).collect::<String>()
            ));
        }
    }
    println!(
        "probe: {} of {} rules covered; no sample for {no_sample:?}",
        covered.len(),
        RULES.len()
    );
    assert!(
        failures.is_empty(),
        "{} rules leave a form behind:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(no_sample.len() <= 5, "no sample for {no_sample:?}");
    assert!(covered.len() >= 150, "{} token kinds covered", covered.len());
}

#[test]
fn every_structural_detector_is_redacted_in_every_form() {
    let mut rng = Rng::new(7);
    let mut failures = Vec::new();
    let cases = structural::cases(&mut rng);
    assert!(cases.len() >= 30, "{}", cases.len());
    for case in &cases {
        let sources: Vec<Source> = case
            .inputs
            .iter()
            .map(|(name, text)| Source::new(*name, text.as_str()))
            .collect();
        let copy = redact(&sources, &ScanOptions::default());
        // `PROBE_SHOW=<case>` prints what was found in a case and its copy.
        if std::env::var("PROBE_SHOW").is_ok_and(|s| s == case.name) {
            for hit in &copy.hits {
                let text = &sources[hit.input].text;
                println!(
                    "{} {}:{} {:?}",
                    hit.name(),
                    hit.input,
                    hit.line,
                    &text[hit.start..hit.end]
                );
            }
            for source in &copy.sources {
                println!("--- {}\n{}", source.name, source.text);
            }
        }
        for value in &case.values {
            assert!(
                case.inputs.iter().any(|(_, t)| t.contains(value.as_str())),
                "{}: {value} is not in the paste",
                case.name
            );
            for source in &copy.sources {
                let left = survivors(value, &source.text, &case.names);
                if !left.is_empty() {
                    failures.push(format!(
                        "{}: {:?} of {value:?} survives in {}:\n{}",
                        case.name,
                        &left[..left.len().min(2)],
                        source.name,
                        source.text
                    ));
                }
            }
        }
        for name in &case.names {
            let count = |sources: &[Source]| -> usize {
                sources
                    .iter()
                    .map(|s| s.text.matches(name.as_str()).count())
                    .sum()
            };
            if count(&copy.sources) != count(&sources) {
                failures.push(format!(
                    "{}: the name {name:?} is not kept:\n{}",
                    case.name,
                    copy.sources.iter().map(|s| s.text.as_str()).collect::<String>()
                ));
            }
        }
        for (before, after) in sources.iter().zip(&copy.sources) {
            assert_eq!(
                before.text.lines().count(),
                after.text.lines().count(),
                "{}",
                case.name
            );
        }
    }
    assert!(
        failures.is_empty(),
        "{} problems:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}
