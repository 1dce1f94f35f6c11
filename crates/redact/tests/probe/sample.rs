//! A sample of a gitleaks rule, written from the rule's own regex as gitleaks' tests write theirs
//! (`secrets.NewSecret`): each literal as it is, one character of each class (a letter or digit
//! where the class has one), a repetition a few times over its minimum, an alternation's branch at
//! random. A sample is kept only when the rule alone finds a secret in it (its words, boundaries,
//! entropy and allowlists agree).

use regex_syntax::hir::{Class, Hir, HirKind};

use super::rng::Rng;
use faultline_redact::gitleaks::{find_rule, RULES};

/// Tries of a rule's regex before it is said to have no sample.
const TRIES: usize = 400;

/// A line holding a sample of rule `i`, and the secret the rule finds in it.
pub fn for_rule(i: usize, rng: &mut Rng) -> Option<(String, String)> {
    let hir = regex_syntax::ParserBuilder::new()
        .unicode(false)
        .utf8(false)
        .build()
        .parse(RULES[i].regex)
        .ok()?;
    for _ in 0..TRIES {
        let mut bytes = Vec::new();
        write(&hir, rng, &mut bytes);
        let Ok(line) = String::from_utf8(bytes) else {
            continue;
        };
        if line.contains('\n') && !RULES[i].regex.contains("\\n") && !RULES[i].regex.contains("\\s\\S") {
            continue;
        }
        // gitleaks tries a rule only where one of its keywords is, as the scan does: a rule whose
        // regex need not hold one (Airtable's `pat…` tokens, keyword `airtable`) is sampled as
        // people write it, after its keyword (`airtable: pat…`).
        let lower = line.to_ascii_lowercase();
        let line = match RULES[i].keywords.first() {
            Some(k) if !RULES[i].keywords.iter().any(|k| lower.contains(k)) => format!("{k}: {line}"),
            _ => line,
        };
        let found = find_rule(&line, i);
        if let Some(f) = found.first() {
            let secret = line[f.start..f.end].to_string();
            if secret.trim().len() >= 6 {
                return Some((line, secret));
            }
        }
    }
    None
}

fn write(hir: &Hir, rng: &mut Rng, out: &mut Vec<u8>) {
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => {}
        HirKind::Literal(literal) => out.extend_from_slice(&literal.0),
        HirKind::Class(class) => {
            let mut allowed: Vec<u8> = Vec::new();
            match class {
                Class::Bytes(c) => {
                    for r in c.ranges() {
                        allowed.extend(r.start()..=r.end());
                    }
                }
                Class::Unicode(c) => {
                    for r in c.ranges() {
                        for ch in r.start()..=r.end() {
                            if ch.is_ascii() {
                                allowed.push(ch as u8);
                            }
                        }
                    }
                }
            }
            let alnum: Vec<u8> = allowed
                .iter()
                .copied()
                .filter(u8::is_ascii_alphanumeric)
                .collect();
            let printable: Vec<u8> = allowed
                .iter()
                .copied()
                .filter(|b| b.is_ascii_graphic() || *b == b' ')
                .collect();
            // `.` in a host name is written as any character: most often a dot again.
            let pool = if allowed.len() >= 90 && allowed.contains(&b'.') && rng.below(2) == 0 {
                vec![b'.']
            } else if !alnum.is_empty() && rng.below(10) < 9 {
                alnum
            } else if !printable.is_empty() {
                printable
            } else {
                allowed
            };
            if !pool.is_empty() {
                out.push(pool[rng.below(pool.len() as u64) as usize]);
            }
        }
        HirKind::Repetition(rep) => {
            let spread = match rep.max {
                Some(max) => (max - rep.min).min(if rep.min == 0 { 2 } else { 6 }),
                None => 6,
            };
            let n = rep.min + rng.below(u64::from(spread) + 1) as u32;
            for _ in 0..n {
                write(&rep.sub, rng, out);
            }
        }
        HirKind::Capture(capture) => write(&capture.sub, rng, out),
        HirKind::Concat(parts) => parts.iter().for_each(|p| write(p, rng, out)),
        HirKind::Alternation(branches) => {
            let branch = &branches[rng.below(branches.len() as u64) as usize];
            write(branch, rng, out);
        }
    }
}
