//! When a log line was written, as the line says: the timestamp a logger, `kubectl logs
//! --timestamps`, klog or the journal puts at its start, or the time field of a JSON or logfmt
//! record. Lines without a year (klog's `I0830 12:01:02.123456`, syslog's `Aug 30 12:01:02`) take it
//! from the input ([`year_hint`]: the journal's `-- Logs begin at … --` header, else the newest
//! dated line); without one they have no time, never a guessed one. A time without a zone is read as
//! UTC (what containers log by default).

use faultline_report::instant::Instant;

/// The time `line` was written, if its start (or its JSON/logfmt time field) says.
pub fn line_time(line: &str, year: Option<i64>) -> Option<Instant> {
    line_time_with(line, || year)
}

/// [`line_time`], asking `year` only of a line whose prefix has no year of its own (klog's
/// `I1205 10:00:00`, syslog's `Dec  5 10:00:00`): the year of an input is read from its first
/// 20,000 lines ([`year_hint`]), which a dump's known lines, dated or not, need not pay for.
pub fn line_time_with(line: &str, year: impl Fn() -> Option<i64>) -> Option<Instant> {
    let text = line.trim_start();
    let text = text.strip_prefix('[').unwrap_or(text);
    if text.starts_with('{') {
        return json_time(text);
    }
    let b = text.as_bytes();
    let klog_like =
        b.len() >= 14 && matches!(b[0], b'I' | b'W' | b'E' | b'F') && b[1..5].iter().all(u8::is_ascii_digit);
    let syslog_like = MONTHS.iter().any(|m| text.starts_with(m));
    iso(text)
        .or_else(|| klog(text, klog_like.then(&year).flatten()?))
        .or_else(|| syslog(text, syslog_like.then(&year).flatten()?))
        .or_else(|| epoch_prefix(text))
        .or_else(|| logfmt_time(text))
}

/// The year the input's undated lines were written in: the journal's `-- Logs begin at Mon
/// 2024-08-26 10:00:00 UTC, end at … --` (or systemd 250's `-- Journal begins at …`), else the year
/// of the newest line dated in full (its start, or its JSON or logfmt time).
pub fn year_hint(text: &str) -> Option<i64> {
    let mut newest: Option<Instant> = None;
    for line in text.lines().take(20_000) {
        let l = line.trim_start();
        if let Some(rest) = l
            .strip_prefix("-- Logs begin at ")
            .or_else(|| l.strip_prefix("-- Journal begins at "))
        {
            // `Mon 2024-08-26 10:00:00 UTC`
            let date = rest
                .split_whitespace()
                .find(|w| w.len() == 10 && w.is_ascii() && w.as_bytes()[4] == b'-');
            if let Some(year) = date.and_then(|d| d[..4].parse().ok()) {
                return Some(year);
            }
        }
        // A line dated in full: at its start, or in a JSON or logfmt field (containerd's
        // `time="2021-10-24T11:07:02Z"` after a journal's `Oct 24 11:07:02` prefix).
        if let Some(t) = line_time(l, None) {
            newest = newest.max(Some(t));
        }
    }
    newest.map(|t| year_of(t.secs()))
}

fn year_of(secs: i64) -> i64 {
    // 365.2425 days a year from 1970, corrected by the date itself.
    let mut year = 1970 + secs.div_euclid(31_556_952);
    for _ in 0..2 {
        let start = Instant::parse(&format!("{year:04}-01-01T00:00:00Z")).map(|i| i.secs());
        match start {
            Some(s) if s > secs => year -= 1,
            _ => break,
        }
    }
    year
}

/// `2024-03-11T10:15:42.881Z`, `2024-03-11 10:15:42,881`, `2024-03-11T10:15:42.123456789+02:00`,
/// `2024/03/11 10:15:42` (Go's `log`), at the start of `text`.
fn iso(text: &str) -> Option<Instant> {
    let b = text.as_bytes();
    // Every byte of `YYYY-MM-DD HH:MM:SS` ASCII, so that the slices below fall on characters.
    if b.len() < 19
        || !b[..19].is_ascii()
        || !b[..4].iter().all(u8::is_ascii_digit)
        || !matches!(b[4], b'-' | b'/')
    {
        return None;
    }
    if b[7] != b[4] || !matches!(b[10], b'T' | b' ') || b[13] != b':' || b[16] != b':' {
        return None;
    }
    let mut out = String::with_capacity(35);
    out.push_str(&text[..4]);
    out.push('-');
    out.push_str(&text[5..7]);
    out.push('-');
    out.push_str(&text[8..10]);
    out.push('T');
    out.push_str(&text[11..19]);
    let mut rest = &text[19..];
    if let Some(fraction) = rest.strip_prefix(['.', ',']) {
        let digits = fraction.bytes().take_while(u8::is_ascii_digit).count();
        if (1..=9).contains(&digits) {
            out.push('.');
            out.push_str(&fraction[..digits]);
        }
        rest = &fraction[digits..];
    }
    let zone = rest.trim_start_matches(' ');
    let zone_bytes = zone.as_bytes();
    match zone_bytes {
        [b'Z' | b'z', ..] => out.push('Z'),
        [b'+' | b'-', h1, h2, b':', m1, m2, ..] if [h1, h2, m1, m2].iter().all(|d| d.is_ascii_digit()) => {
            out.push_str(&zone[..6]);
        }
        // `+0200`
        [sign @ (b'+' | b'-'), h1, h2, m1, m2, ..] if [h1, h2, m1, m2].iter().all(|d| d.is_ascii_digit()) => {
            out.push(char::from(*sign));
            out.push_str(&zone[1..3]);
            out.push(':');
            out.push_str(&zone[3..5]);
        }
        _ => out.push('Z'),
    }
    Instant::parse(&out)
}

/// klog's header: `E0830 12:01:02.123456   12345 file.go:42] …`.
fn klog(text: &str, year: i64) -> Option<Instant> {
    let b = text.as_bytes();
    if b.len() < 14 || !b[..14].is_ascii() || !matches!(b[0], b'I' | b'W' | b'E' | b'F') || b[5] != b' ' {
        return None;
    }
    if !b[1..5].iter().all(u8::is_ascii_digit) || b[8] != b':' || b[11] != b':' {
        return None;
    }
    let clock_end = 5 + 1 + 8;
    let fraction = text[clock_end..]
        .strip_prefix('.')
        .map(|f| &f[..f.bytes().take_while(u8::is_ascii_digit).count()])
        .filter(|f| (1..=9).contains(&f.len()));
    let stamp = format!(
        "{year:04}-{}-{}T{}{}Z",
        &text[1..3],
        &text[3..5],
        &text[6..clock_end],
        fraction.map(|f| format!(".{f}")).unwrap_or_default()
    );
    Instant::parse(&stamp)
}

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// syslog's and the journal's `Aug 30 12:01:02 host unit[pid]: …` (the day may be padded: `Aug  3`).
fn syslog(text: &str, year: i64) -> Option<Instant> {
    let month = MONTHS.iter().position(|m| text.starts_with(m))? + 1;
    let rest = text.get(3..)?.strip_prefix(' ')?.trim_start();
    let (day, rest) = rest.split_once(' ')?;
    let day: u32 = day.parse().ok()?;
    let clock = rest.get(..8)?;
    let cb = clock.as_bytes();
    if cb[2] != b':' || cb[5] != b':' {
        return None;
    }
    Instant::parse(&format!("{year:04}-{month:02}-{day:02}T{clock}Z"))
}

/// A Unix time at the start (`1717243201.234 …`, Python's `%(created)f`), in the years 2001–2286.
fn epoch_prefix(text: &str) -> Option<Instant> {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    if digits != 10 {
        return None;
    }
    let after = text.as_bytes().get(digits);
    if !matches!(after, None | Some(b'.' | b' ' | b'\t')) {
        return None;
    }
    let secs: i64 = text[..digits].parse().ok()?;
    let fraction = text[digits..]
        .strip_prefix('.')
        .map(|f| &f[..f.bytes().take_while(u8::is_ascii_digit).count().min(9)])
        .unwrap_or("");
    let nanos = if fraction.is_empty() {
        0
    } else {
        format!("{fraction:0<9}").parse().ok()?
    };
    Instant::new(secs, nanos)
}

/// The time field of a JSON record: `ts`, `time`, `timestamp`, `@timestamp`, `date`, as RFC 3339 or
/// as a Unix time in seconds (zap's `1.7172432e+09` too) or milliseconds.
fn json_time(text: &str) -> Option<Instant> {
    for key in [
        "\"ts\"",
        "\"time\"",
        "\"timestamp\"",
        "\"@timestamp\"",
        "\"date\"",
        "\"t\"",
    ] {
        let Some(at) = text.find(key) else { continue };
        let value = text[at + key.len()..]
            .trim_start()
            .strip_prefix(':')?
            .trim_start();
        if let Some(quoted) = value.strip_prefix('"') {
            let end = quoted.find('"')?;
            if let Some(t) = iso(&quoted[..end]) {
                return Some(t);
            }
            continue;
        }
        // MongoDB's `"t":{"$date":"…"}`.
        if let Some(inner) = value.strip_prefix('{') {
            if let Some(t) = json_time(&format!("{{{inner}").replacen("\"$date\"", "\"date\"", 1)) {
                return Some(t);
            }
            continue;
        }
        let number: String = value
            .chars()
            .take_while(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-'))
            .collect();
        let n: f64 = number.parse().ok()?;
        let secs = if n > 1e11 { n / 1000.0 } else { n };
        if !(1e9..1e10).contains(&secs) {
            continue;
        }
        // In range: a whole number of seconds and its fraction, each well within i64 and u32.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let (whole, nanos) = (secs.trunc() as i64, (secs.fract() * 1e9) as u32);
        return Instant::new(whole, nanos.min(999_999_999));
    }
    None
}

/// logfmt's `ts=…` or `time=…` (`time="2024-03-11T10:15:42Z" level=error msg=…`).
fn logfmt_time(text: &str) -> Option<Instant> {
    for key in ["ts=", "time=", "t="] {
        let Some(at) = text.find(key) else { continue };
        if at > 0 && !text.as_bytes()[at - 1].is_ascii_whitespace() {
            continue;
        }
        let value = text[at + key.len()..].trim_start_matches('"');
        if let Some(t) = iso(value) {
            return Some(t);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(line: &str, year: Option<i64>) -> Option<String> {
        line_time(line, year).map(|t| t.to_string())
    }

    #[test]
    fn reads_the_time_each_logger_writes() {
        let cases = [
            ("2024-03-11T10:15:42.881Z ERROR x", "2024-03-11T10:15:42.881Z"),
            ("2024-06-01 12:00:01,234 WARNING slow", "2024-06-01T12:00:01.234Z"),
            (
                "[2024-06-01 12:00:01] production.ERROR: x",
                "2024-06-01T12:00:01Z",
            ),
            ("2024/06/01 12:00:01 dial tcp", "2024-06-01T12:00:01Z"),
            ("2024-06-01T14:00:01+02:00 x", "2024-06-01T12:00:01Z"),
            ("2024-06-01 14:00:01.5 +0200 x", "2024-06-01T12:00:01.5Z"),
            (
                r#"{"level":"error","ts":"2024-05-02T08:11:03.551Z","msg":"x"}"#,
                "2024-05-02T08:11:03.551Z",
            ),
            (
                r#"{"level":"error","ts":1717243201.5,"msg":"x"}"#,
                "2024-06-01T12:00:01.5Z",
            ),
            (
                r#"{"@timestamp":1717243201500,"message":"x"}"#,
                "2024-06-01T12:00:01.5Z",
            ),
            (
                r#"{"t":{"$date":"2024-06-01T12:00:01.000+00:00"},"s":"E","msg":"x"}"#,
                "2024-06-01T12:00:01Z",
            ),
            (
                r#"time="2024-03-11T10:15:42Z" level=error msg="x""#,
                "2024-03-11T10:15:42Z",
            ),
            (
                "level=error ts=2024-03-11T10:15:42.1Z msg=x",
                "2024-03-11T10:15:42.1Z",
            ),
            ("1717243201.234 ERROR x", "2024-06-01T12:00:01.234Z"),
        ];
        for (line, want) in cases {
            assert_eq!(at(line, None).as_deref(), Some(want), "{line}");
        }
    }

    #[test]
    fn a_line_without_a_year_takes_the_inputs_or_none() {
        let klog = "E0830 12:01:02.123456    1 reflector.go:138] failed";
        let journal = "Aug  3 07:05:09 node-1 kubelet[812]: E0803 failed";
        assert_eq!(
            at(klog, Some(2024)).as_deref(),
            Some("2024-08-30T12:01:02.123456Z")
        );
        assert_eq!(at(journal, Some(2023)).as_deref(), Some("2023-08-03T07:05:09Z"));
        assert_eq!(at(klog, None), None);
        assert_eq!(at(journal, None), None);
        let header = "-- Logs begin at Mon 2022-08-22 10:00:00 UTC, end at Tue 2022-08-23 09:00:00 UTC. --\nAug 23 08:00:00 n kubelet[1]: x";
        assert_eq!(year_hint(header), Some(2022));
        assert_eq!(
            year_hint("x\n2021-12-31T23:59:59Z y\n2019-01-01T00:00:00Z z"),
            Some(2021)
        );
        assert_eq!(year_hint("no dates here"), None);
    }

    #[test]
    fn a_multibyte_character_inside_a_stamp_is_no_time_and_no_panic() {
        // From the fuzzer: a timestamp whose seconds were replaced by U+FFFD.
        for line in [
            "2019-03-26 15:01:\u{fffd}\u{fffd}40 I | x",
            "E0830 12:01:\u{fffd}.1 x",
            "Aug 30 12:\u{fffd}:02 x",
        ] {
            assert_eq!(at(line, Some(2024)), None, "{line}");
        }
    }

    #[test]
    fn no_time_is_made_up() {
        for line in [
            "NAME READY STATUS",
            "12345 connections",
            "Error: connect ECONNREFUSED 10.0.0.5:5432",
            "2024-13-45T99:00:00Z bad",
            r#"{"level":"error","msg":"no time"}"#,
            "level=error msg=\"x\" ts=never",
        ] {
            assert_eq!(at(line, Some(2024)), None, "{line}");
        }
    }
}
