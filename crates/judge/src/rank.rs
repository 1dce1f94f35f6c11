//! The order of causes: severity, what the rest of the input shows failing, what was pasted, then
//! a named subject before an unnamed one.

use faultline_report::{Finding, ObjectRef, Severity};

pub use faultline_rules::GENERIC;

/// For each finding, whether a current finding of another rule is about the same objects: its
/// subject, or a workload either affects. A Pending claim that a Pod waits for is touched by the
/// Pod's finding; a lone warning about an object nothing else mentions is not, nor are the Pods of
/// one Deployment failing the same way (one fault, repeated).
pub(crate) fn touched_by_others(findings: &[Finding]) -> Vec<bool> {
    let names = |f: &Finding| -> Vec<ObjectRef> {
        std::iter::once(&f.subject)
            .chain(&f.affects)
            .filter(|o| !o.name.is_empty())
            .cloned()
            .collect()
    };
    // For each object, the rule of the first current (not info) finding about it, and whether
    // another rule's is about it too: enough to answer for every finding at once. Comparing each
    // finding with every other about the same workload was quadratic (a Deployment of a thousand
    // failing Pods).
    let mut by_object: faultline_report::hash::Map<ObjectRef, (&str, bool)> =
        faultline_report::hash::Map::default();
    for f in findings.iter().filter(|f| f.severity != Severity::Info) {
        for o in names(f) {
            let (first, mixed) = by_object.entry(o).or_insert((f.rule.as_str(), false));
            *mixed |= *first != f.rule;
        }
    }
    findings
        .iter()
        .map(|f| {
            names(f).iter().any(|o| {
                by_object
                    .get(o)
                    .is_some_and(|&(first, mixed)| mixed || first != f.rule)
            })
        })
        .collect()
}

/// Within a run of findings of one rule and severity, those that name their subject before those
/// about an object the input leaves unnamed (a log line's `Multi-Attach error` before the events
/// that name the Pods it is about): the same diagnosis, but one the reader can act on. Runs keep
/// their place, so the order of boundaries is unchanged.
pub(crate) fn named_first(findings: &mut [Finding]) {
    let mut start = 0;
    while start < findings.len() {
        let same = |f: &Finding| f.rule == findings[start].rule && f.severity == findings[start].severity;
        let end = start + findings[start..].iter().take_while(|f| same(f)).count();
        findings[start..end].sort_by_key(|f| f.subject.name.is_empty());
        start = end;
    }
}
