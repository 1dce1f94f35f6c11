use faultline_engine::{analyze, Report};

use super::*;
use crate::protocol::{decode, PART_BYTES};

const POD: &str = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  namespace: shop\nspec:\n  nodeName: n1\n  containers:\n  - name: app\n    image: shop/web:9.9\n    env:\n    - name: DB_PASSWORD\n      value: hunter2-hunter2\nstatus:\n  phase: Pending\n  containerStatuses:\n  - name: app\n    image: shop/web:9.9\n    imageID: \"\"\n    ready: false\n    restartCount: 0\n    state:\n      waiting:\n        reason: ImagePullBackOff\n";

fn job(redact: bool) -> Job {
    Job {
        id: 7,
        names: vec!["pod.yaml".into()],
        include_network: false,
        redact,
        lang: Lang::En,
    }
}

/// A report as the page holds it: decoded from JSON, without its messages.
fn shown(mut report: Report) -> Report {
    report.strip_messages();
    report
}

/// The image-pull sample (its rule speaks Chinese).
fn image_pull() -> Vec<Source> {
    vec![
        Source::new(
            "pod.yaml",
            include_str!("../../../../static/samples/image-pull/pod.yaml"),
        ),
        Source::new(
            "events.txt",
            include_str!("../../../../static/samples/image-pull/events.txt"),
        ),
    ]
}

fn has_chinese(text: &str) -> bool {
    text.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

/// A clock that moves 1 ms each time it is read.
fn tick() -> impl Fn() -> f64 {
    let now = std::cell::Cell::new(0.0);
    move || {
        now.set(now.get() + 1.0);
        now.get()
    }
}

/// Runs a job and reassembles what the page would: the replies in order and the report.
fn replies(job: &Job, sources: Vec<Source>) -> (Vec<Reply>, Vec<Vec<String>>) {
    let mut replies = Vec::new();
    let mut texts = Vec::new();
    let clock = tick();
    let mut send = |bytes: Vec<u8>, extra| {
        replies.push(decode(&bytes).unwrap());
        texts.push(extra);
    };
    let mut analysed = run(job, sources, Vec::new(), Vec::new(), &clock, &mut send);
    scan(&mut analysed, &clock, &mut send);
    scan(&mut analysed, &clock, &mut send);
    (replies, texts)
}

fn assemble(replies: &[Reply]) -> (Report, Vec<Secret>) {
    let mut report = Report::default();
    let mut secrets = Vec::new();
    for reply in replies {
        match reply.clone() {
            Reply::Head(head) => {
                report.inputs = head.inputs;
                report.counts = head.counts;
                report.errors = head.errors;
                report.verdict = head.verdict;
                report.unread = head.unread;
                report.capture = head.capture.map(|c| *c);
                report.decide = head.decide.map(|d| *d);
            }
            Reply::Findings(f) => report.findings.extend(f),
            Reply::RuledOut(r) => report.ruled_out.extend(r),
            Reply::Workloads(w) => report.workloads.extend(w),
            Reply::Timeline(t) => report.timeline.extend(t),
            Reply::Objects(o) => report.objects.extend(o),
            Reply::Relations(r) => report.relations.extend(r),
            Reply::Secrets(s) => secrets.extend(s),
            _ => {}
        }
    }
    (report, secrets)
}

#[test]
fn the_report_sent_in_parts_is_the_engines_report_and_the_secrets_follow_it() {
    let sources = vec![Source::new("pod.yaml", POD)];
    let (replies, _) = replies(&job(false), sources.clone());
    assert!(matches!(replies.first(), Some(Reply::Progress(_))), "{replies:?}");
    let Some(Reply::Done(timings)) = replies.last() else {
        panic!("not done: {:?}", replies.last())
    };
    // Each step once, in order, each 1 ms on a clock that ticks 1 ms per reading.
    let steps: Vec<_> = timings.iter().map(|t| (t.step.as_str(), t.ms)).collect();
    assert_eq!(
        steps,
        [
            ("reading", 1.0),
            ("relating", 1.0),
            ("diagnosing", 1.0),
            ("judging", 1.0),
            ("timeline", 1.0),
            ("sending", 1.0),
            ("scanning", 1.0)
        ]
    );
    // The report is complete before the scan starts: every report part, then `Reported` with the
    // steps so far, then the scan's progress and the secrets.
    let at = |p: fn(&Reply) -> bool| replies.iter().position(p).unwrap();
    let reported = at(|r| matches!(r, Reply::Reported(_)));
    let Reply::Reported(so_far) = &replies[reported] else {
        unreachable!()
    };
    assert_eq!(so_far[..], timings[..6]);
    let report_parts = |r: &Reply| {
        matches!(
            r,
            Reply::Head(_)
                | Reply::Findings(_)
                | Reply::RuledOut(_)
                | Reply::Workloads(_)
                | Reply::Timeline(_)
                | Reply::Objects(_)
                | Reply::Relations(_)
        )
    };
    assert!(
        replies[reported..].iter().all(|r| !report_parts(r)),
        "{replies:?}"
    );
    let scanning = at(|r| matches!(r, Reply::Progress(p) if p.phase == Phase::Scanning));
    assert!(reported < scanning && scanning < at(|r| matches!(r, Reply::Secrets(_))));
    let (report, secrets) = assemble(&replies);
    assert_eq!(report, shown(analyze(&sources)));
    let done = replies.iter().filter(|r| matches!(r, Reply::Done(_))).count();
    assert_eq!(done, 1, "asked twice, scanned once");
    assert_eq!(secrets.len(), 1);
    assert_eq!((secrets[0].kind.as_str(), secrets[0].line), ("env-secret", 13));
}

#[test]
fn a_redacting_job_sends_the_copy_first_then_the_analysis_of_the_copy() {
    let (replies, texts) = replies(&job(true), vec![Source::new("pod.yaml", POD)]);
    let at = replies
        .iter()
        .position(|r| matches!(r, Reply::Redacted { tokens: 1 }))
        .unwrap();
    assert!(texts[at][0].contains("value: <redacted:env-secret:1>"));
    assert!(!texts[at][0].contains("hunter2"));
    let Some(Reply::Head(head)) = replies.iter().find(|r| matches!(r, Reply::Head(_))) else {
        panic!("no head")
    };
    assert!(head.redacted_input);
    assert!(
        !replies.iter().any(|r| matches!(r, Reply::Secrets(_))),
        "nothing left to redact"
    );
}

/// Issue 26, one ingest: the redaction the page asks for after a scan that found secrets is made
/// from that analysis's reading (kept for it), and is the same as a redaction that reads the
/// inputs again; a scan that found nothing frees its reading.
#[test]
fn a_redaction_after_a_scan_uses_its_reading_and_is_the_same() {
    let sources = vec![Source::new("pod.yaml", POD)];
    let clock = tick();
    let mut ignore = |_: Vec<u8>, _: Vec<String>| {};
    let mut analysed = run(
        &job(false),
        sources.clone(),
        Vec::new(),
        Vec::new(),
        &clock,
        &mut ignore,
    );
    scan(&mut analysed, &clock, &mut ignore);
    assert!(analysed.holds_reading(), "secrets found: kept for the redaction");
    let record = |last: Option<Analysed>| {
        let mut replies = Vec::new();
        let mut send = |bytes: Vec<u8>, texts: Vec<String>| replies.push((decode(&bytes).unwrap(), texts));
        let clock = tick();
        run_after(
            last,
            &job(true),
            sources.clone(),
            Vec::new(),
            Vec::new(),
            &clock,
            &mut send,
        );
        replies
    };
    assert_eq!(record(Some(analysed)), record(None));
    // The kept reading is what redacts: given the reading of another text (which the worker
    // never keeps for these inputs), the copy is another one.
    let other = [Source::new(
        "pod.yaml",
        "kind: Secret\nmetadata:\n  name: s\ndata:\n  a: c2VjcmV0LXZhbHVl\n",
    )];
    let (_, reading) = analyze_for_scan(&other, &Options::default(), &mut |_| {});
    let wrong = Analysed {
        id: 1,
        sources: sources.clone(),
        reading: Some(reading),
        scanned: true,
        options: ScanOptions::default(),
        timings: Vec::new(),
        kept: Kept::default(),
    };
    assert_ne!(record(Some(wrong)), record(None));
    // Other inputs than the last job's are read again; and without secrets nothing is kept (nor a
    // value redacted before: the worker would find it again, in any input).
    let quiet = vec![Source::new(
        "pod.yaml",
        POD.replace("DB_PASSWORD", "DB_HOST")
            .replace("hunter2-hunter2", "db.shop.svc"),
    )];
    let mut analysed = run(&job(false), quiet, Vec::new(), Vec::new(), &clock, &mut ignore);
    scan(&mut analysed, &clock, &mut ignore);
    assert!(!analysed.holds_reading());
}

#[test]
fn parts_stay_near_their_size_and_progress_is_throttled() {
    // Many pods: a timeline bigger than one part.
    let text: String = (0..600)
        .map(|i| POD.replace("name: web", &format!("name: web-{i}")))
        .collect::<Vec<_>>()
        .join("---\n");
    let sources = vec![Source::new("pods.yaml", text.clone())];
    let mut sizes = Vec::new();
    let mut progress = 0;
    let clock = tick();
    let mut send = |bytes: Vec<u8>, _| match decode(&bytes).unwrap() {
        Reply::Progress(_) => progress += 1,
        Reply::Findings(_)
        | Reply::RuledOut(_)
        | Reply::Workloads(_)
        | Reply::Timeline(_)
        | Reply::Secrets(_)
        | Reply::Objects(_)
        | Reply::Relations(_) => sizes.push(bytes.len()),
        _ => {}
    };
    let mut analysed = run(
        &job(false),
        sources.clone(),
        Vec::new(),
        Vec::new(),
        &clock,
        &mut send,
    );
    scan(&mut analysed, &clock, &mut send);
    assert!(sizes.len() > 2, "{sizes:?}");
    assert!(sizes.iter().all(|s| *s < PART_BYTES + 16 * 1024), "{sizes:?}");
    assert!(progress <= 210, "{progress} progress messages");
    // The texts in another language too.
    let mut texts = Vec::new();
    localize(&analysed, Lang::Zh, &mut |bytes, _| {
        if matches!(decode(&bytes), Ok(Reply::Texts(_))) {
            texts.push(bytes.len());
        }
    });
    assert!(texts.len() > 1, "{texts:?}");
    assert!(texts.iter().all(|s| *s < PART_BYTES + 16 * 1024), "{texts:?}");
}

#[test]
fn progress_goes_at_most_every_40_ms_within_a_phase_and_at_once_at_its_end_or_a_new_phase() {
    let total = 1_000_000;
    let at = |phase, bytes_done| Progress {
        phase,
        bytes_done,
        bytes_total: total,
        documents: 0,
    };
    let mut throttle = Throttle::default();
    // 1,000 documents of 1,000 bytes, one a millisecond.
    let sent: Vec<u64> = (1..=1000)
        .filter(|i| throttle.due(&at(Phase::Reading, i * 1000), &|| *i as f64))
        .collect();
    // The first; the first after half a per cent of the bytes (5 documents); then one each 40 ms;
    // the end.
    let expected: Vec<u64> = [1]
        .into_iter()
        .chain((6..=966).step_by(40))
        .chain([1000])
        .collect();
    assert_eq!(sent, expected);
    // A new phase goes at once, whatever the time; then the same rule.
    assert!(throttle.due(&at(Phase::Relating, total), &|| 1000.5));
    assert!(!throttle.due(&at(Phase::Relating, total), &|| 1001.0));
    // Bytes that hardly moved wait, however long it has been.
    let mut throttle = Throttle::default();
    assert!(throttle.due(&at(Phase::Reading, 0), &|| 0.0));
    assert!(!throttle.due(&at(Phase::Reading, 4_999), &|| 500.0));
    assert!(throttle.due(&at(Phase::Reading, 5_000), &|| 500.0));
}

#[test]
fn a_warm_up_step_is_a_whole_job_over_a_dump_in_json_then_yaml() {
    for step in 0..4 {
        let sources = warm_sources(step);
        let report = analyze(&sources);
        let format = if step % 2 == 0 { "json-list" } else { "yaml-list" };
        assert_eq!(report.inputs[0].format, format, "step {step}");
        // Every input is read: the dump's kinds, the tables and describe texts.
        assert!(report.errors.is_empty(), "step {step}: {:?}", report.errors);
        assert!(report.inputs.iter().all(|i| i.objects > 0), "{:?}", report.inputs);
        assert_eq!(report.inputs[0].kinds.len(), 7, "{:?}", report.inputs[0].kinds);
        // The dump's copies are read as it is, and their objects are others: their namespaces.
        let copies: Vec<_> = report.inputs.iter().filter(|i| i.format == format).collect();
        assert_eq!(copies.len(), WARM_COPIES, "step {step}");
        assert!(
            copies.iter().all(|c| c.objects == copies[0].objects),
            "{copies:?}"
        );
        let namespaces: std::collections::BTreeSet<_> = report
            .objects
            .iter()
            .filter_map(|o| o.object.namespace.as_deref())
            .filter(|n| n.starts_with("copy"))
            .map(|n| &n[..5])
            .collect();
        assert_eq!(namespaces.len(), WARM_COPIES - 1, "{namespaces:?}");
        let mut replies = Vec::new();
        warm(step, &mut |bytes, _| replies.push(decode(&bytes).unwrap()));
        let Some(Reply::Warmed(warmed)) = replies.pop() else {
            panic!("not ended by a warm-up reply: {replies:?}")
        };
        assert_eq!(warmed.step, step);
        assert_eq!((warmed.objects, warmed.errors), (report.objects.len(), 0));
        // Before it, the report in parts, as a job's would be sent: it is the engine's report.
        let (sent, _) = assemble(&replies);
        assert_eq!(sent, shown(report.clone()));
        assert!(replies
            .iter()
            .all(|r| !matches!(r, Reply::Reported(_) | Reply::Done(_))));
        // The parts of the report as sent: without its messages, which the worker keeps.
        let parts: usize = parts(&shown(report.clone())).map(|p| p.len()).sum();
        assert!(warmed.bytes > parts && parts > 10_000, "{} {parts}", warmed.bytes);
    }
}

/// The page's half of a switch of language: the texts' replies put together and applied to the
/// report it holds.
fn apply_texts(report: &Report, replies: &[Reply]) -> Report {
    let mut texts = Texts::default();
    for reply in replies {
        if let Reply::Texts(part) = reply {
            texts.merge(serde_json::from_str(part).unwrap());
        }
    }
    texts.applied(report)
}

#[test]
fn a_job_is_analysed_in_its_language() {
    let zh = Job {
        lang: Lang::Zh,
        ..job(false)
    };
    let (replies, _) = replies(&zh, image_pull());
    let (report, _) = assemble(&replies);
    let options = Options {
        lang: Lang::Zh,
        ..Options::default()
    };
    assert_eq!(
        report,
        shown(faultline_engine::analyze_with(&image_pull(), &options))
    );
    let pull = report
        .findings
        .iter()
        .find(|f| f.rule == "image-pull-failed")
        .unwrap();
    assert!(has_chinese(&pull.summary), "{}", pull.summary);
    assert!(
        pull.cannot_establish.iter().all(|c| has_chinese(c)),
        "{:?}",
        pull.cannot_establish
    );
    // The messages stay in the worker: the page never reads them.
    let parts: Vec<u8> = replies.iter().flat_map(protocol::encode).collect();
    assert!(!String::from_utf8_lossy(&parts).contains("\"args\""));
}

/// Issue 24: a switch of language renders the last report's messages again, with no analysis,
/// and sends its texts only; put into the report the page holds, they make the report the job
/// would have made in that language.
#[test]
fn the_last_report_is_rendered_in_another_language_without_analysing_again() {
    let sources = image_pull();
    let clock = tick();
    let mut sent = Vec::new();
    let mut send = |bytes: Vec<u8>, _: Vec<String>| sent.push(decode(&bytes).unwrap());
    let analysed = run(
        &job(false),
        sources.clone(),
        Vec::new(),
        Vec::new(),
        &clock,
        &mut send,
    );
    let (english, _) = assemble(&sent);
    let zh = Options {
        lang: Lang::Zh,
        ..Options::default()
    };
    for lang in [Lang::Zh, Lang::En, Lang::Zh] {
        let mut replies = Vec::new();
        localize(&analysed, lang, &mut |bytes, _| {
            replies.push(decode(&bytes).unwrap())
        });
        let first = match replies.first() {
            Some(Reply::Texts(json)) => serde_json::from_str::<Texts>(json).unwrap(),
            other => panic!("{other:?}"),
        };
        assert_eq!(first.lang, lang);
        assert_eq!(replies.last(), Some(&Reply::Localized));
        assert!(
            replies
                .iter()
                .all(|r| matches!(r, Reply::Texts(_) | Reply::Localized)),
            "no progress, no report: nothing analysed: {replies:?}"
        );
        let localized = apply_texts(&english, &replies);
        let expected = match lang {
            Lang::Zh => faultline_engine::analyze_with(&sources, &zh),
            Lang::En => analyze(&sources),
        };
        assert_eq!(localized, shown(expected), "{lang:?}");
        let pull = localized
            .findings
            .iter()
            .find(|f| f.rule == "image-pull-failed")
            .unwrap();
        assert_eq!(has_chinese(&pull.summary), lang == Lang::Zh, "{}", pull.summary);
    }
}

/// The texts rendered from the messages are what [`Report::localize`] makes, in every language,
/// for every built-in sample and a report with input errors.
#[test]
fn rendered_texts_are_the_localized_reports() {
    let broken = vec![Source::new("paste", "kind: Pod\nmetadata: [unclosed\n")];
    for sources in [image_pull(), warm_sources(0), warm_sources(1), broken] {
        let english = analyze(&sources);
        let mut kept = english.clone();
        let kept = Kept::take(&mut kept);
        for lang in Lang::ALL {
            let mut localized = english.clone();
            localized.localize(lang);
            let mut shown_then = shown(english.clone());
            Texts::render(&english, lang).apply(&mut shown_then);
            assert_eq!(shown_then, shown(localized.clone()), "{lang:?}");
            let mut from_kept = shown(english.clone());
            kept.texts(lang).apply(&mut from_kept);
            assert_eq!(from_kept, shown(localized), "{lang:?}");
            // The page's copy with the texts in it is the same.
            let copy = kept.texts(lang).applied(&shown(english.clone()));
            assert_eq!(copy, from_kept, "{lang:?}");
        }
    }
}

#[test]
fn an_excerpt_is_the_lines_around_one_line() {
    let sources = vec![Source::new("pod.yaml", POD)];
    let e = excerpt(&sources, "pod.yaml", 3, 1);
    assert_eq!(e.first, 2);
    assert_eq!(e.lines, ["kind: Pod", "metadata:", "  name: web"]);
    assert!(excerpt(&sources, "other", 3, 1).lines.is_empty());
}

/// Issue 42: a value the worker redacted is found, and replaced by the same token, in an input
/// added after the redaction, where nothing else says it is a secret.
#[test]
fn a_value_redacted_once_is_found_and_redacted_in_an_input_added_later() {
    let redacting = Job {
        names: vec!["pod.yaml".into()],
        ..job(true)
    };
    let (sent, texts) = replies(&redacting, vec![Source::new("pod.yaml", POD)]);
    let at = sent
        .iter()
        .position(|r| matches!(r, Reply::Redacted { .. }))
        .unwrap();
    let copy = texts[at][0].clone();
    assert!(copy.contains("value: <redacted:env-secret:1>"), "{copy}");
    // The redacted copy and a log that prints the value, with nothing around it that names a secret.
    let later = Job {
        names: vec!["pod.yaml".into(), "app.log".into()],
        ..job(false)
    };
    let sources = vec![
        Source::new("pod.yaml", copy.as_str()),
        Source::new("app.log", "connecting to db with hunter2-hunter2\n"),
    ];
    let (sent, _) = replies(&later, sources.clone());
    let (_, secrets) = assemble(&sent);
    assert_eq!(
        secrets.iter().map(|s| (s.input, s.line)).collect::<Vec<_>>(),
        [(1, 1)]
    );
    let (sent, texts) = replies(
        &Job {
            redact: true,
            ..later
        },
        sources,
    );
    let at = sent
        .iter()
        .position(|r| matches!(r, Reply::Redacted { .. }))
        .unwrap();
    assert_eq!(texts[at][1], "connecting to db with <redacted:env-secret:1>\n");
}

#[test]
fn the_docs_reply_holds_every_rule_in_both_languages() {
    let Ok(Reply::Docs(json)) = decode(&docs()) else {
        panic!("not docs")
    };
    let docs = protocol::decode_docs(&json).unwrap();
    let ids: Vec<&str> = docs.iter().map(|(id, ..)| id.as_str()).collect();
    let engine: Vec<&str> = faultline_engine::rules::RULES.iter().map(|r| r.id).collect();
    assert_eq!(ids, engine);
    for (id, _, en, zh) in &docs {
        assert!(en.contains("## What it finds") && has_chinese(zh), "{id}");
    }
}

/// A big List read by several workers ([`crate::parts`], the coordinator's steps without the
/// threads, each reader's items sent as bytes): the page gets the same report and the same
/// secrets as from the inputs read whole, and the steps' names are those of a whole reading.
#[test]
fn a_list_read_in_parts_gives_the_page_the_same_report_and_secrets() {
    use crate::parts;
    let sources = vec![
        Source::new(
            "dump.json",
            include_str!("../../../../tests/fixtures/split/dump-8.json"),
        ),
        Source::new(
            "dump.yaml",
            include_str!("../../../../tests/fixtures/ingest/gen-dump-6-pods.yaml"),
        ),
    ];
    let job = Job {
        names: vec!["dump.json".into(), "dump.yaml".into()],
        ..job(false)
    };
    let (whole, _) = replies(&job, sources.clone());
    let (whole_report, whole_secrets) = assemble(&whole);
    // Both dumps' objects (14 Pods, 42 Events, …), and findings about them.
    assert_eq!(whole_report.counts.get("Pod"), Some(&14));
    assert!(whole_report.objects.len() > 50 && !whole_report.findings.is_empty());
    for workers in [2, 3, 4] {
        let plan = parts::plan(&sources, workers, 0).expect("the JSON dump is cut");
        assert_eq!((plan.index, plan.cut.parts.len()), (0, workers));
        let own = parts::read_own(&sources, &plan).expect("the first part reads");
        let readers: Vec<Option<Vec<u8>>> = parts::for_readers(&plan, &sources)
            .map(|(text, line, format)| parts::read_for_coordinator(text, line, format))
            .collect();
        let read = parts::merge(&sources, &plan, own, &readers, &mut |_, _| {});
        assert!(read.is_some(), "{workers} workers: merged");
        let mut got = Vec::new();
        let clock = tick();
        let mut send = |bytes: Vec<u8>, _| got.push(decode(&bytes).unwrap());
        let timings = vec![Timing {
            step: "reading".into(),
            ms: 1.0,
        }];
        let mut analysed = run_read(
            None,
            &job,
            sources.clone(),
            read,
            Vec::new(),
            timings,
            &clock,
            &mut send,
        );
        scan(&mut analysed, &clock, &mut send);
        let (report, secrets) = assemble(&got);
        assert_eq!(report, whole_report, "{workers} workers");
        assert_eq!(secrets, whole_secrets, "{workers} workers");
        let Some(Reply::Done(steps)) = got.last() else {
            panic!("not done")
        };
        let steps: Vec<&str> = steps.iter().map(|t| t.step.as_str()).collect();
        assert_eq!(
            steps,
            [
                "reading",
                "relating",
                "diagnosing",
                "judging",
                "timeline",
                "sending",
                "scanning"
            ]
        );
    }
    // A reader that failed, or sent what is not items: no reading, the coordinator reads whole.
    let plan = parts::plan(&sources, 2, 0).expect("cut");
    let own = || parts::read_own(&sources, &plan).expect("own part");
    assert!(parts::merge(&sources, &plan, own(), &[None], &mut |_, _| {}).is_none());
    assert!(parts::merge(&sources, &plan, own(), &[Some(vec![3, 1])], &mut |_, _| {}).is_none());
    // Under the size it is read whole, as with one worker.
    assert!(parts::plan(&sources, 4, faultline_engine::ingest::split::SPLIT_FROM).is_none());
    assert!(parts::plan(&sources, 1, 0).is_none());
}

/// The page's worker hashes the inputs with the browser's WebCrypto while the engine reads them: the
/// report waits for those digests and names each input by its own; a digest that is not a SHA-256 in
/// hex is computed here instead; and a job that redacted its inputs names the redacted copy, which
/// the engine hashed itself (the browser hashed the texts it was sent).
#[test]
fn a_report_whose_inputs_the_caller_hashes_names_them_by_its_digests() {
    let sources = vec![Source::new("pod.yaml", POD), Source::new("b.txt", "two")];
    let engine = shown(analyze(&sources));
    let given = "ab".repeat(32);
    let clock = tick();
    let mut replies = Vec::new();
    let mut send = |bytes: Vec<u8>, _| replies.push(decode(&bytes).unwrap());
    let pending = analyse_read(
        None,
        &job(false),
        sources.clone(),
        None,
        Vec::new(),
        Vec::new(),
        &clock,
        Digests::Caller,
        &mut send,
    );
    assert!(pending.needs_digests());
    assert!(
        pending.report.inputs.iter().all(|i| i.sha256.is_empty()),
        "left to the caller"
    );
    report(pending, vec![given.clone(), "not a digest".into()], &mut send);
    let (sent, _) = assemble(&replies);
    let hashes: Vec<_> = sent.inputs.iter().map(|i| i.sha256.clone()).collect();
    assert_eq!(hashes, [given.clone(), faultline_engine::sha256_hex(b"two")]);
    // Apart from the hash the caller gave, the report is the engine's.
    let mut same = sent.clone();
    same.inputs[0].sha256 = engine.inputs[0].sha256.clone();
    assert_eq!(same, engine);
    let Some(Reply::Reported(steps)) = replies.last() else {
        panic!("not reported: {:?}", replies.last())
    };
    assert!(steps.iter().any(|s| s.step == "hashing"), "{steps:?}");

    // Redacting: the texts analysed are a copy the caller never hashed.
    let mut replies = Vec::new();
    let mut send = |bytes: Vec<u8>, _| replies.push(decode(&bytes).unwrap());
    let redacted = vec![Source::new("pod.yaml", POD)];
    let pending = analyse_read(
        None,
        &job(true),
        redacted,
        None,
        Vec::new(),
        Vec::new(),
        &clock,
        Digests::Caller,
        &mut send,
    );
    assert!(!pending.needs_digests());
    let text = pending.sources[0].text.clone();
    assert!(text.contains("<redacted:"), "{text}");
    report(pending, vec![given], &mut send);
    let (sent, _) = assemble(&replies);
    assert_eq!(
        sent.inputs[0].sha256,
        faultline_engine::sha256_hex(text.as_bytes())
    );
}
