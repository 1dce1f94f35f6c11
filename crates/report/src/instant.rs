//! A moment as the report writes it (RFC 3339, UTC: `2026-03-02T10:00:00Z`, `…:00.25Z`), read and
//! written without jiff. [`crate::timeline::place`] runs in the page too (the app re-anchors a
//! report's timeline when the user sets the capture moment), and jiff's parser and printer with
//! their error texts were ~80 KB of the page's wasm; the worker keeps jiff for reading inputs.
//! [`Instant`]'s `Display` writes exactly what jiff's `Timestamp` writes for the same moment (a test
//! holds the two together), so a timeline placed in the page reads as one placed in the worker.

use std::fmt;

/// Seconds and nanoseconds since the Unix epoch, years 0000–9999.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Instant {
    secs: i64,
    nanos: u32,
}

/// 0000-01-01T00:00:00Z and 9999-12-31T23:59:59Z, in seconds since the epoch.
const MIN_SECS: i64 = -62_167_219_200;
const MAX_SECS: i64 = 253_402_300_799;

impl Instant {
    /// `None` for nanoseconds of a second or more, or outside the years 0000–9999.
    pub fn new(secs: i64, nanos: u32) -> Option<Self> {
        (nanos < 1_000_000_000)
            .then(|| Self::from_secs(secs))
            .flatten()
            .map(|i| Self { nanos, ..i })
    }

    pub fn from_secs(secs: i64) -> Option<Self> {
        (MIN_SECS..=MAX_SECS)
            .contains(&secs)
            .then_some(Self { secs, nanos: 0 })
    }

    pub fn from_millis(ms: i64) -> Option<Self> {
        let secs = ms.div_euclid(1000);
        let nanos = u32::try_from(ms.rem_euclid(1000)).ok()? * 1_000_000;
        Self::from_secs(secs).map(|i| Self { nanos, ..i })
    }

    /// Milliseconds since the epoch (the nanoseconds below a millisecond dropped).
    pub fn millis(self) -> i64 {
        self.secs * 1000 + i64::from(self.nanos / 1_000_000)
    }

    /// The nanoseconds within the second.
    pub fn nanos(self) -> u32 {
        self.nanos
    }

    pub fn secs(self) -> i64 {
        self.secs
    }

    /// `seconds` later (earlier when negative); `None` outside the years 0000–9999.
    pub fn add_secs(self, seconds: i64) -> Option<Self> {
        let secs = self.secs.checked_add(seconds)?;
        (MIN_SECS..=MAX_SECS)
            .contains(&secs)
            .then_some(Self { secs, ..self })
    }

    /// RFC 3339: `YYYY-MM-DDTHH:MM:SS`, an optional fraction of up to 9 digits, then `Z` or an
    /// offset `±HH:MM` (`T` may be `t` or a space, `Z` may be `z`).
    pub fn parse(text: &str) -> Option<Self> {
        let b = text.as_bytes();
        if b.len() < 20 || b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b'T' | b't' | b' ') {
            return None;
        }
        if b[13] != b':' || b[16] != b':' {
            return None;
        }
        let num = |from: usize, to: usize| -> Option<i64> {
            let digits = b.get(from..to)?;
            digits
                .iter()
                .all(u8::is_ascii_digit)
                .then(|| digits.iter().fold(0_i64, |n, d| n * 10 + i64::from(d - b'0')))
        };
        let (year, month, day) = (num(0, 4)?, num(5, 7)?, num(8, 10)?);
        let (hour, minute, second) = (num(11, 13)?, num(14, 16)?, num(17, 19)?);
        if !(1..=12).contains(&month) || day < 1 || day > days_in_month(year, month) {
            return None;
        }
        if hour > 23 || minute > 59 || second > 59 {
            return None;
        }
        let mut rest = &b[19..];
        let mut nanos = 0_u32;
        if let Some(fraction) = rest.strip_prefix(b".") {
            let digits = fraction.iter().take_while(|d| d.is_ascii_digit()).count();
            if digits == 0 || digits > 9 {
                return None;
            }
            for (i, d) in fraction[..digits].iter().enumerate() {
                nanos += u32::from(d - b'0') * 10_u32.pow(8 - i as u32);
            }
            rest = &fraction[digits..];
        }
        let offset = match rest {
            [b'Z' | b'z'] => 0,
            [sign @ (b'+' | b'-'), h1, h2, b':', m1, m2] => {
                let two = |a: u8, b: u8| -> Option<i64> {
                    (a.is_ascii_digit() && b.is_ascii_digit())
                        .then(|| i64::from(a - b'0') * 10 + i64::from(b - b'0'))
                };
                let (h, m) = (two(*h1, *h2)?, two(*m1, *m2)?);
                if h > 23 || m > 59 {
                    return None;
                }
                let seconds = h * 3600 + m * 60;
                if *sign == b'+' {
                    seconds
                } else {
                    -seconds
                }
            }
            _ => return None,
        };
        let local = days_from_civil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second;
        Self::from_secs(local - offset).map(|i| Self { nanos, ..i })
    }
}

impl fmt::Display for Instant {
    /// `2026-03-02T10:00:00Z`; a fraction only when there is one, without trailing zeros
    /// (`10:00:00.25Z`), as jiff writes a `Timestamp`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let days = self.secs.div_euclid(86_400);
        let of_day = self.secs.rem_euclid(86_400);
        let (year, month, day) = civil_from_days(days);
        write!(
            f,
            "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}",
            of_day / 3600,
            of_day % 3600 / 60,
            of_day % 60
        )?;
        if self.nanos > 0 {
            let digits = format!("{:09}", self.nanos);
            write!(f, ".{}", digits.trim_end_matches('0'))?;
        }
        f.write_str("Z")
    }
}

fn is_leap(year: i64) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date of a day since 1970-01-01 (Howard Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(month <= 2), month, day)
}

#[cfg(test)]
mod tests {
    use super::*;
    use k8s_openapi::jiff::Timestamp;

    /// A small deterministic generator (the engine has no `rand`).
    fn next(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    #[test]
    fn writes_and_reads_what_jiff_does() {
        let mut state = 0x9e37_79b9_7f4a_7c15;
        for n in 0..20_000 {
            let span = (MAX_SECS - MIN_SECS) as u64;
            let secs = MIN_SECS + (next(&mut state) % span) as i64;
            // Whole seconds, milliseconds, microseconds and nanoseconds.
            let nanos = match n % 4 {
                0 => 0,
                1 => (next(&mut state) % 1000) as u32 * 1_000_000,
                2 => (next(&mut state) % 1_000_000) as u32 * 1000,
                _ => (next(&mut state) % 1_000_000_000) as u32,
            };
            let ours = Instant { secs, nanos };
            let theirs = Timestamp::new(secs, nanos as i32).unwrap();
            assert_eq!(ours.to_string(), theirs.to_string(), "{secs} {nanos}");
            assert_eq!(Instant::parse(&theirs.to_string()), Some(ours));
        }
    }

    #[test]
    fn reads_offsets_and_rejects_what_is_not_a_moment() {
        let utc = Instant::parse("2025-02-11T09:40:05Z").unwrap();
        assert_eq!(Instant::parse("2025-02-11T17:40:05+08:00"), Some(utc));
        assert_eq!(Instant::parse("2025-02-11 04:40:05-05:00"), Some(utc));
        assert_eq!(
            utc.millis(),
            "2025-02-11T09:40:05Z"
                .parse::<Timestamp>()
                .unwrap()
                .as_millisecond()
        );
        assert_eq!(
            Instant::from_millis(utc.millis() + 250).unwrap().to_string(),
            "2025-02-11T09:40:05.25Z"
        );
        assert_eq!(utc.add_secs(-271).unwrap().to_string(), "2025-02-11T09:35:34Z");
        assert_eq!(
            Instant::parse("2024-02-29T00:00:00Z").unwrap().to_string(),
            "2024-02-29T00:00:00Z"
        );
        for bad in [
            "",
            "2025-02-11",
            "2025-02-11T09:40:05",
            "2025-02-30T09:40:05Z",
            "2023-02-29T00:00:00Z",
            "2025-13-01T00:00:00Z",
            "2025-02-11T24:00:00Z",
            "2025-02-11T09:40:05.Z",
            "2025-02-11T09:40:05.1234567890Z",
            "2025-02-11T09:40:05+8:00",
            "2025-02-11T09:40:05Zjunk",
            "२०२५-02-11T09:40:05Z",
        ] {
            assert_eq!(Instant::parse(bad), None, "{bad}");
        }
        assert_eq!(Instant::from_secs(MAX_SECS).unwrap().add_secs(1), None);
    }
}
