//! `faultline analyze [--format text|json|markdown|html] [--fail-on error|warning] [--lang en|zh] [PATH|-]...`
//! `faultline redact [--include-network] [--list] [--out DIR] [PATH|-]...`
//! `faultline rules`
//! `faultline verify REPORT.json [PATH…]`
//! `faultline mcp [--max-bytes N]`
//!
//! A thin adapter: it reads files, folders and standard input into [`Source`]s, calls the engine, and
//! prints the report. Exit status: 0 after an analysis (with or without findings), 1 when `--fail-on`
//! is given and a finding is at least that severe, 2 when an input cannot be read or the command line
//! is wrong.

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use faultline_engine::ingest::split;
use faultline_engine::ingest::{looks_binary, text_from_bytes, BINARY_REASON};
use faultline_engine::redact::{self, ScanOptions};
use faultline_engine::render::{ExportFormat, Lang};
use faultline_engine::{
    analyze_read_prescanned, changes, ingest, model, render, sha256_hex, Digests, Join, Options, Report,
    Severity, Source,
};

mod mcp;
mod verify;

const USAGE: &str = "\
usage: faultline analyze [--format text|json|markdown|html] [--fail-on error|warning]
                         [--lang en|zh] [--redact DIR] [--captured-at TIME]
                         [--since REPORT.json] [PATH|-]...
       faultline redact [--include-network] [--list] [--out DIR] [PATH|-]...
       faultline rules [--lang en|zh]
       faultline verify REPORT.json [PATH|-]...
       faultline mcp [--max-bytes N]

analyze reads kubectl output (YAML, JSON) from files, folders and standard input (`-`, or
nothing) and prints which fault boundary the evidence points to, with the evidence.

redact prints a copy of the input with every secret value replaced by a token such as
`<redacted:secret-data:1>` (the same value always the same token, across all inputs), and lists
what it replaced on standard error (kind and line, never the value). Several inputs need --out.

rules prints every rule's documentation (Markdown), generated from the rules, in English or
Chinese.

verify re-runs the analysis of a JSON report (`analyze --format json`, or the app's export) on
the inputs given (default: the paths the report names) and says whether every input is the one
the report names (its SHA-256) and the findings are the same, or what differs. Exit status 0
when it is verified, 1 when something differs, 2 when a file cannot be read.

mcp serves the same analysis to AI agents over the Model Context Protocol (stdio): the tools
analyze, redact, rules, rule and what_to_paste. Every text it returns is made from the redacted
input. --max-bytes sets the largest input it accepts (default 64 MB).

analyze options:
  -f, --format FORMAT     text (default: evidence shown on its source line), json (the report
                          contract), markdown (for chat and tickets) or html (a self-contained page)
      --fail-on SEVERITY  exit with status 1 when a finding is at least this severe: error or
                          warning (for pipelines); default: exit 0 after any analysis
      --lang LANG         the report in English (en, default) or Chinese (zh): every sentence
                          Faultline writes; Kubernetes' own words and the commands stay as they are
      --redact DIR        replace every secret first (as `faultline redact` does), write the
                          redacted copy under DIR, and analyse the copy; the report says so
      --captured-at TIME  when the output was captured (RFC 3339, e.g. 2026-03-02T10:05:00Z), to
                          place ages like `4m31s` on the timeline; default: the newest timestamp
                          found in the input
      --since REPORT.json what changed since an earlier report of some of these inputs (its
                          `--format json`, in the same --lang): the findings the new evidence
                          confirmed, refuted or added and the `cannot establish` entries it
                          answered, printed before the report (on standard error for json and html)
  -h, --help              this help

redact options:
      --include-network   also replace IP addresses, internal host names and e-mail addresses
      --list              only list what would be replaced (on standard output), change nothing
      --out DIR           write each input's redacted copy to DIR under its own path
";

/// What `faultline redact` was asked to do.
#[derive(Debug, Default, PartialEq, Eq)]
struct RedactArgs {
    include_network: bool,
    list: bool,
    out: Option<PathBuf>,
    paths: Vec<String>,
}

fn parse_redact_args(args: &[String]) -> Result<Option<RedactArgs>, String> {
    let mut parsed = RedactArgs::default();
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        match arg.as_str() {
            "-h" | "--help" => return Ok(None),
            "--include-network" => parsed.include_network = true,
            "--list" => parsed.list = true,
            "--out" => {
                let dir = iter.next().ok_or("--out needs a folder")?;
                parsed.out = Some(PathBuf::from(dir));
            }
            other if other.starts_with("--out=") => parsed.out = Some(PathBuf::from(&other[6..])),
            other if other.starts_with('-') && other != "-" => {
                return Err(format!("unknown option `{other}`"))
            }
            path => parsed.paths.push(path.to_string()),
        }
    }
    if parsed.paths.is_empty() {
        parsed.paths.push("-".to_string());
    }
    Ok(Some(parsed))
}

/// `faultline redact`: the redacted copy on standard output (one input) or under `--out`.
fn run_redact(args: &RedactArgs, stderr: &mut impl Write) -> ExitCode {
    let sources = match read_sources(&args.paths) {
        Ok(sources) => sources,
        Err(message) => {
            let _ = writeln!(stderr, "faultline: {message}");
            return ExitCode::from(2);
        }
    };
    // A binary file has no text to redact: rewriting its bytes would give a "copy" that is neither
    // the file nor safe to share. Refused before anything is written, as the app refuses it.
    let binary: Vec<&Source> = sources.iter().filter(|s| looks_binary(&s.text)).collect();
    if !binary.is_empty() {
        for source in binary {
            let _ = writeln!(stderr, "faultline: {} {BINARY_REASON}", source.name);
        }
        let _ = writeln!(stderr, "faultline: nothing was redacted and no copy was written");
        return ExitCode::from(2);
    }
    let options = ScanOptions {
        include_network: args.include_network,
    };
    let redacted = redact::redact(&sources, &options);
    let mut listing = String::new();
    for hit in &redacted.hits {
        listing.push_str(&format!(
            "{}:{}:{} {} {}\n",
            sources[hit.input].name,
            hit.line,
            hit.column,
            hit.name(),
            hit.preview
        ));
    }
    if args.list {
        return write_stdout(&listing, stderr);
    }
    let _ = write!(stderr, "{listing}");
    let _ = writeln!(
        stderr,
        "faultline: {} secret(s) replaced by {} token(s)",
        redacted.hits.len(),
        redacted.tokens
    );
    match &args.out {
        None if redacted.sources.len() == 1 => write_stdout(&redacted.sources[0].text, stderr),
        None => {
            let _ = writeln!(
                stderr,
                "faultline: several inputs: name a folder for the copies with --out DIR"
            );
            ExitCode::from(2)
        }
        Some(dir) => match write_copies(dir, &redacted.sources, stderr) {
            Ok(()) => ExitCode::SUCCESS,
            Err(code) => code,
        },
    }
}

/// Writes each source under `dir` at its own relative path (`..` and roots dropped).
fn write_copies(dir: &Path, sources: &[Source], stderr: &mut impl Write) -> Result<(), ExitCode> {
    for source in sources {
        let relative: PathBuf = Path::new(&source.name)
            .components()
            .filter(|c| matches!(c, std::path::Component::Normal(_)))
            .collect();
        let target = dir.join(relative);
        let written = target
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| std::fs::write(&target, &source.text));
        if let Err(e) = written {
            let _ = writeln!(stderr, "faultline: cannot write {}: {e}", target.display());
            return Err(ExitCode::from(2));
        }
    }
    Ok(())
}

fn write_stdout(text: &str, stderr: &mut impl Write) -> ExitCode {
    match io::stdout().lock().write_all(text.as_bytes()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(stderr, "faultline: cannot write: {e}");
            ExitCode::from(2)
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum OutputFormat {
    Text,
    Json,
    Markdown,
    Html,
}

#[derive(Debug)]
struct Args {
    format: OutputFormat,
    fail_on: Option<Severity>,
    lang: Lang,
    /// Redact the inputs first, write the copies here, and analyse the copies.
    redact_to: Option<PathBuf>,
    /// An earlier report (JSON) to say what changed since.
    since: Option<PathBuf>,
    options: Options,
    paths: Vec<String>,
}

fn parse_args(args: &[String]) -> Result<Option<Args>, String> {
    let mut iter = args.iter();
    match iter.next().map(String::as_str) {
        Some("analyze") => {}
        Some("-h" | "--help" | "help") | None => return Ok(None),
        Some(other) => return Err(format!("unknown command `{other}`")),
    }
    let mut format = OutputFormat::Text;
    let mut fail_on = None;
    let mut lang = Lang::En;
    let mut redact_to = None;
    let mut since = None;
    let mut options = Options::default();
    let mut paths = Vec::new();
    while let Some(arg) = iter.next() {
        let value = |iter: &mut std::slice::Iter<'_, String>| {
            iter.next().cloned().ok_or_else(|| format!("{arg} needs a value"))
        };
        let captured_at = match arg.as_str() {
            "--captured-at" => Some(value(&mut iter)?),
            _ => arg.strip_prefix("--captured-at=").map(str::to_string),
        };
        if let Some(time) = captured_at {
            let parsed = time
                .parse()
                .map_err(|e| format!("--captured-at {time:?} is not an RFC 3339 time: {e}"))?;
            options.captured_at = Some(parsed);
            continue;
        }
        let redact_dir = match arg.as_str() {
            "--redact" => Some(value(&mut iter)?),
            _ => arg.strip_prefix("--redact=").map(str::to_string),
        };
        if let Some(dir) = redact_dir {
            redact_to = Some(PathBuf::from(dir));
            continue;
        }
        let earlier = match arg.as_str() {
            "--since" => Some(value(&mut iter)?),
            _ => arg.strip_prefix("--since=").map(str::to_string),
        };
        if let Some(path) = earlier {
            since = Some(PathBuf::from(path));
            continue;
        }
        let language = match arg.as_str() {
            "--lang" => Some(value(&mut iter)?),
            _ => arg.strip_prefix("--lang=").map(str::to_string),
        };
        if let Some(tag) = language {
            lang = Lang::parse(&tag).ok_or_else(|| format!("--lang takes en or zh, not `{tag}`"))?;
            continue;
        }
        let fail = match arg.as_str() {
            "--fail-on" => Some(value(&mut iter)?),
            _ => arg.strip_prefix("--fail-on=").map(str::to_string),
        };
        if let Some(level) = fail {
            fail_on = Some(match level.as_str() {
                "error" => Severity::Error,
                "warning" => Severity::Warning,
                other => return Err(format!("--fail-on takes error or warning, not `{other}`")),
            });
            continue;
        }
        let format_name = match arg.as_str() {
            "-h" | "--help" => return Ok(None),
            "-f" | "--format" => Some(value(&mut iter)?),
            _ => arg.strip_prefix("--format=").map(str::to_string),
        };
        if let Some(name) = format_name {
            format = match name.as_str() {
                "text" => OutputFormat::Text,
                "json" => OutputFormat::Json,
                "markdown" | "md" => OutputFormat::Markdown,
                "html" => OutputFormat::Html,
                other => return Err(format!("unknown format `{other}` (text, json, markdown or html)")),
            };
        } else if arg.starts_with('-') && arg != "-" {
            return Err(format!("unknown option `{arg}`"));
        } else {
            paths.push(arg.clone());
        }
    }
    if paths.is_empty() {
        paths.push("-".to_string());
    }
    // The report's texts in the language asked for, as well as the rendering's own words.
    options.lang = lang;
    Ok(Some(Args {
        format,
        fail_on,
        lang,
        redact_to,
        since,
        options,
        paths,
    }))
}

/// Reads every path into sources; a folder contributes its files (recursively, in name order), each
/// named by its path so evidence can cite it.
fn read_sources(paths: &[String]) -> Result<Vec<Source>, String> {
    let mut sources = Vec::new();
    for path in paths {
        if path == "-" {
            let mut bytes = Vec::new();
            io::stdin()
                .read_to_end(&mut bytes)
                .map_err(|e| format!("cannot read standard input: {e}"))?;
            sources.push(Source::new("stdin", text_from_bytes(bytes)));
            continue;
        }
        let path = Path::new(path);
        if path.is_dir() {
            let mut files = Vec::new();
            faultline_mcp::tools::collect_files(path, &mut files)
                .map_err(|e| format!("cannot read folder {}: {e}", path.display()))?;
            for file in files {
                sources.push(read_file(&file)?);
            }
        } else {
            sources.push(read_file(path)?);
        }
    }
    Ok(sources)
}

fn read_file(path: &Path) -> Result<Source, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Ok(Source::new(path.display().to_string(), text_from_bytes(bytes)))
}

/// `faultline rules [--lang en|zh]`: the language of the rules' documentation.
fn parse_rules_args(args: &[String]) -> Result<Lang, String> {
    let mut lang = Lang::En;
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        let tag = match arg.as_str() {
            "--lang" => iter
                .next()
                .cloned()
                .ok_or_else(|| "--lang needs a value".to_string())?,
            _ => match arg.strip_prefix("--lang=") {
                Some(tag) => tag.to_string(),
                None => return Err(format!("`faultline rules` takes only --lang, not `{arg}`")),
            },
        };
        lang = Lang::parse(&tag).ok_or_else(|| format!("--lang takes en or zh, not `{tag}`"))?;
    }
    Ok(lang)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // Not locked for the whole run: a thread of the analysis ([`analyze_on_two_cores`]) that panicked
    // would wait for the lock to say why, and its join for it.
    let mut stderr = io::stderr();
    // `faultline rules`: every rule's documentation, generated from the rules themselves.
    if args.first().map(String::as_str) == Some("rules") {
        let lang = match parse_rules_args(&args[1..]) {
            Ok(lang) => lang,
            Err(message) => {
                let _ = writeln!(stderr, "faultline: {message}\n\n{USAGE}");
                return ExitCode::from(2);
            }
        };
        let page = render::rules_markdown(&faultline_engine::rules::docs_all(), &|_| None, lang);
        return match io::stdout().lock().write_all(page.as_bytes()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
            Err(_) => ExitCode::from(2),
        };
    }
    if args.first().map(String::as_str) == Some("mcp") {
        return mcp::run(&args[1..], &mut stderr);
    }
    if args.first().map(String::as_str) == Some("verify") {
        return verify::run(&args[1..], &mut stderr);
    }
    if args.first().map(String::as_str) == Some("redact") {
        return match parse_redact_args(&args[1..]) {
            Ok(Some(redact_args)) => run_redact(&redact_args, &mut stderr),
            Ok(None) => write_stdout(USAGE, &mut stderr),
            Err(message) => {
                let _ = writeln!(stderr, "faultline: {message}\n\n{USAGE}");
                ExitCode::from(2)
            }
        };
    }
    let args = match parse_args(&args) {
        Ok(Some(args)) => args,
        Ok(None) => {
            let _ = io::stdout().lock().write_all(USAGE.as_bytes());
            return ExitCode::SUCCESS;
        }
        Err(message) => {
            let _ = writeln!(stderr, "faultline: {message}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let sources = match read_sources(&args.paths) {
        Ok(sources) => sources,
        Err(message) => {
            let _ = writeln!(stderr, "faultline: {message}");
            return ExitCode::from(2);
        }
    };
    // --redact: the secrets are replaced first, the copies written, and only the copies analysed.
    let redacted = args.redact_to.is_some();
    let sources = match &args.redact_to {
        Some(dir) => {
            let copy = redact::redact(&sources, &ScanOptions::default());
            if let Err(code) = write_copies(dir, &copy.sources, &mut stderr) {
                return code;
            }
            let _ = writeln!(
                stderr,
                "faultline: {} secret(s) replaced; the redacted copy is in {} and the report is made from it",
                copy.hits.len(),
                dir.display()
            );
            copy.sources
        }
        None => sources,
    };
    // Read before the analysis: a wrong path fails at once, not after a big dump's analysis.
    let earlier = match args.since.as_deref().map(read_report).transpose() {
        Ok(earlier) => earlier,
        Err(message) => {
            let _ = writeln!(stderr, "faultline: {message}");
            return ExitCode::from(2);
        }
    };
    let report = analyze_on_two_cores(&sources, &args.options);
    if let Some(earlier) = &earlier {
        let heading = match args.lang {
            Lang::Zh => "自上次报告以来的变化：",
            _ => "What changed since the earlier report:",
        };
        let lines = changes::render(&changes::compare(earlier, &report), args.lang);
        let block = format!(
            "{heading}\n{}\n\n",
            lines
                .iter()
                .map(|l| format!("  - {l}\n"))
                .collect::<String>()
                .trim_end()
        );
        let written = if matches!(args.format, OutputFormat::Json | OutputFormat::Html) {
            stderr.write_all(block.as_bytes())
        } else {
            io::stdout().lock().write_all(block.as_bytes())
        };
        if let Err(e) = written {
            if e.kind() != io::ErrorKind::BrokenPipe {
                let _ = writeln!(stderr, "faultline: cannot write what changed: {e}");
                return ExitCode::from(2);
            }
        }
    }
    let failed = args
        .fail_on
        .is_some_and(|level| report.findings.iter().any(|f| f.severity >= level));
    let status = if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    };
    // The export's moment, from this machine's clock (the engine has none).
    let now = exported_at();
    let exported = Some(now.as_str());
    let output: io::Result<String> = match args.format {
        OutputFormat::Text => {
            let mut head = String::new();
            if redacted {
                head = format!("{}\n\n", render::words(args.lang).redacted_note);
            }
            // After the report, as a footer: when the input was captured, and by which version.
            Ok(format!(
                "{head}{}\n{}\n{}\n",
                render::text(&report, &sources, args.lang).trim_end(),
                render::capture_line(&report, args.lang),
                render::stamp_line(None, args.lang),
            ))
        }
        OutputFormat::Html => render::export(&report, ExportFormat::Html, args.lang, redacted, exported)
            .map_err(io::Error::from),
        OutputFormat::Markdown => {
            render::export(&report, ExportFormat::Markdown, args.lang, redacted, exported)
                .map_err(io::Error::from)
        }
        OutputFormat::Json => {
            // Written as it is serialised: on a big dump the JSON is half the input's size, and the
            // inputs are no longer needed.
            drop(sources);
            let mut out = io::BufWriter::with_capacity(1 << 16, io::stdout().lock());
            let stamped = render::Stamped {
                redacted,
                exported_at: exported,
                faultline_version: render::VERSION,
                lang: args.lang.tag(),
                report: &report,
            };
            let written = serde_json::to_writer_pretty(&mut out, &stamped)
                .map_err(io::Error::from)
                .and_then(|()| out.write_all(b"\n"))
                .and_then(|()| out.flush());
            return written_status(written, status, &mut stderr);
        }
    };
    written_status(
        output.and_then(|output| io::stdout().lock().write_all(output.as_bytes())),
        status,
        &mut stderr,
    )
}

/// The analysis of `sources`, on two threads: they read the inputs ([`read_on_two_cores`]), then
/// run the rules and the timeline at once ([`Threads`]). The report is the one
/// [`faultline_engine::analyze_with`] makes.
fn analyze_on_two_cores(sources: &[Source], options: &Options) -> Report {
    analyze_on_two_cores_from(sources, options, split::SPLIT_FROM)
}

/// [`analyze_on_two_cores`], a List read in two from `split_from` bytes ([`read_on_two_cores`]).
fn analyze_on_two_cores_from(sources: &[Source], options: &Options, split_from: usize) -> Report {
    let options = Options {
        digests: Digests::Caller,
        ..options.clone()
    };
    let read = read_on_two_cores(sources, split_from);
    let (mut report, reading) = analyze_read_prescanned(
        sources,
        read.ingested,
        read.prescan,
        &options,
        &Threads,
        &mut |_| {},
    );
    for (input, digest) in report.inputs.iter_mut().zip(read.digests) {
        input.sha256 = digest;
    }
    // The trees are let go of on another thread while this one writes the report (not waited
    // for: the process may end first, and the system takes the memory back at once).
    std::thread::spawn(move || drop(reading));
    report
}

/// What [`read_on_two_cores`] read.
struct ReadOnTwoCores {
    ingested: ingest::Ingested,
    prescan: model::Prescan,
    digests: Vec<String>,
    /// Whether a List was read in two parts (for the tests: the report is the same either way).
    #[cfg(test)]
    in_parts: bool,
}

/// This thread's share of a YAML List's items read in two ([`read_on_two_cores`]): more than half,
/// as the other thread prescans and hashes the inputs after its part, while this one merges both.
const FIRST_SHARE: f64 = 0.6;

/// The inputs read on two threads. This one parses them while the other finds what the model reads
/// of their text alone (where lines start, the lines the catalog knows: [`model::Prescan`]) and
/// hashes them. When the biggest input is a YAML List of at least `split_from` bytes
/// ([`split::plan`]), the other thread first parses the last part of its items, as a reader worker
/// of the app does ([`split`]), while this one checks that the input reads as it is and parses the
/// first part; this one then merges them. Any step of that failing, the input is read whole here.
///
/// A JSON List is read whole: its text is about twice a YAML List's for the same objects, and the
/// prescan and the hash, which go by the byte, leave the other thread no time to spare. On the 1k-Pod
/// dumps, alternating with the build before: YAML 0.93–0.99 of the time; JSON, cut too, 1.01–1.12
/// (README, "Benchmarks").
fn read_on_two_cores(sources: &[Source], split_from: usize) -> ReadOnTwoCores {
    let plan = sources
        .iter()
        .max_by_key(|s| s.text.len())
        .filter(|biggest| split::ListFormat::of(&biggest.text) == split::ListFormat::Yaml)
        .and_then(|_| split::plan(sources, 2, split_from, FIRST_SHARE));
    std::thread::scope(|scope| {
        let (items_to, items) = std::sync::mpsc::channel();
        let side = scope.spawn(|| {
            if let Some((text, first_line, format)) = plan.as_ref().and_then(|p| p.parts(sources).nth(1)) {
                let _ = items_to.send(split::read_part(text, first_line, format));
            }
            drop(items_to);
            let prescan = model::Prescan::of(sources);
            let digests: Vec<String> = sources.iter().map(|s| sha256_hex(s.text.as_bytes())).collect();
            (prescan, digests)
        });
        let in_parts = plan.as_ref().and_then(|plan| {
            let checked = split::check(sources, plan)?;
            let (text, first_line, format) = plan.parts(sources).next()?;
            let mut all = split::read_part(text, first_line, format)?;
            all.extend(items.recv().ok()??);
            Some(split::ingest_merged(
                sources,
                checked.merged(plan, all),
                &mut |_, _| {},
            ))
        });
        #[cfg(test)]
        let read_in_parts = in_parts.is_some();
        let ingested = in_parts.unwrap_or_else(|| ingest::ingest_observed(sources, &mut |_, _| {}));
        let (prescan, digests) = match side.join() {
            Ok(done) => done,
            Err(panic) => std::panic::resume_unwind(panic),
        };
        ReadOnTwoCores {
            ingested,
            prescan,
            digests,
            #[cfg(test)]
            in_parts: read_in_parts,
        }
    })
}

/// [`Join`] on two threads: `b` on a new one while this one runs `a`.
struct Threads;

impl Join for Threads {
    fn join<A: Send, B: Send>(&self, a: impl FnOnce() -> A + Send, b: impl FnOnce() -> B + Send) -> (A, B) {
        std::thread::scope(|scope| {
            let b = scope.spawn(b);
            let a = a();
            match b.join() {
                Ok(b) => (a, b),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        })
    }
}

/// Now, RFC 3339 UTC to the second: when an export was made.
fn exported_at() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    faultline_engine::Timestamp::from_second(i64::try_from(secs).unwrap_or(0))
        .map_or_else(|_| String::new(), |t| t.to_string())
}

/// An earlier report, as `faultline analyze --format json` wrote it.
fn read_report(path: &Path) -> Result<faultline_engine::Report, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| {
        format!(
            "{} is not a report of `faultline analyze --format json`: {e}",
            path.display()
        )
    })
}

/// The exit status once the report is written (or could not be).
fn written_status(written: io::Result<()>, status: ExitCode, stderr: &mut impl Write) -> ExitCode {
    match written {
        Ok(()) => status,
        // A closed pipe (`| head`) is not an error worth a message.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => status,
        Err(e) => {
            let _ = writeln!(stderr, "faultline: cannot write the report: {e}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn parses_format_and_paths() {
        let parsed = parse_args(&args(&["analyze", "--format", "json", "a.yaml", "-"]))
            .unwrap()
            .unwrap();
        assert_eq!(parsed.format, OutputFormat::Json);
        assert_eq!(parsed.paths, ["a.yaml", "-"]);
        let parsed = parse_args(&args(&["analyze", "--format=markdown"]))
            .unwrap()
            .unwrap();
        assert_eq!(parsed.format, OutputFormat::Markdown);
        assert_eq!(parsed.paths, ["-"], "no path means standard input");
    }

    #[test]
    fn rules_takes_a_language() {
        assert_eq!(parse_rules_args(&args(&[])).unwrap(), Lang::En);
        assert_eq!(parse_rules_args(&args(&["--lang", "zh"])).unwrap(), Lang::Zh);
        assert_eq!(parse_rules_args(&args(&["--lang=zh-CN"])).unwrap(), Lang::Zh);
        assert!(parse_rules_args(&args(&["--lang", "fr"])).is_err());
        assert!(parse_rules_args(&args(&["--lang"])).is_err());
        assert!(parse_rules_args(&args(&["--format", "json"])).is_err());
    }

    #[test]
    fn rejects_unknown_things() {
        assert!(parse_args(&args(&["analyse"])).is_err());
        assert!(parse_args(&args(&["analyze", "--format", "xml"])).is_err());
        assert!(parse_args(&args(&["analyze", "--colour"])).is_err());
        assert!(parse_args(&args(&["analyze", "--format"])).is_err());
        assert!(parse_args(&args(&["analyze", "--captured-at", "yesterday"])).is_err());
        assert!(parse_args(&args(&["analyze", "--fail-on", "info"])).is_err());
        assert!(parse_args(&args(&["analyze", "--lang", "fr"])).is_err());
        assert_eq!(
            parse_args(&args(&["analyze", "--lang=zh-CN"]))
                .unwrap()
                .unwrap()
                .lang,
            Lang::Zh
        );
        assert!(parse_redact_args(&args(&["--format", "json"])).is_err());
        assert!(parse_redact_args(&args(&["--out"])).is_err());
    }

    /// A YAML List read in two parts on two threads gives the report of the inputs read whole, and
    /// so does a JSON List, read whole.
    #[test]
    fn a_list_read_on_two_cores_gives_the_report_read_whole() {
        let yaml = include_str!("../../../tests/fixtures/ingest/gen-dump-6-pods.yaml");
        let json = include_str!("../../../tests/fixtures/split/dump-8.json");
        let events = "LAST SEEN   TYPE      REASON    OBJECT      MESSAGE\n\
                      2m          Warning   BackOff   pod/web-1   Back-off restarting failed container web in pod web-1_default\n";
        for (list, in_parts) in [(yaml, true), (json, false)] {
            let sources = vec![Source::new("dump", list), Source::new("events.txt", events)];
            assert_eq!(read_on_two_cores(&sources, 0).in_parts, in_parts);
            assert!(
                !read_on_two_cores(&sources, split::SPLIT_FROM).in_parts,
                "small: read whole"
            );
            let on_two_cores = analyze_on_two_cores_from(&sources, &Options::default(), 0);
            let whole = faultline_engine::analyze_with(&sources, &Options::default());
            assert!(whole.objects.len() > 20 && !whole.findings.is_empty());
            assert_eq!(
                serde_json::to_value(&on_two_cores).unwrap(),
                serde_json::to_value(&whole).unwrap()
            );
        }
    }

    #[test]
    fn parses_redact_options() {
        let parsed = parse_redact_args(&args(&["--include-network", "--out", "copy", "a.yaml"]))
            .unwrap()
            .unwrap();
        assert_eq!(
            parsed,
            RedactArgs {
                include_network: true,
                list: false,
                out: Some(PathBuf::from("copy")),
                paths: vec!["a.yaml".into()],
            }
        );
        assert_eq!(parse_redact_args(&[]).unwrap().unwrap().paths, ["-"]);
    }
}
