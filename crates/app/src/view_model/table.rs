//! Report -> the article's boundary table: one row per boundary, filled with this input's evidence.
//! A row without evidence stays empty ("no evidence in this input"); it never says "healthy".

use faultline_report::{Boundary, Evidence, Report, Severity};

use crate::view_model::summary::Filter;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symptom {
    /// Index of the finding in the report (its rank is index + 1).
    pub finding: usize,
    pub severity: Severity,
    pub rule: String,
    pub subject: faultline_report::ObjectRef,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub boundary: Boundary,
    /// The findings at this boundary, in report order (most likely root cause first).
    pub symptoms: Vec<Symptom>,
    /// The first evidence of the first finding at this boundary, with that finding's index.
    pub first_evidence: Option<(usize, Evidence)>,
    /// What the findings' evidence cannot establish, each statement once.
    pub cannot_establish: Vec<String>,
    /// The findings' next commands, each once.
    pub next_steps: Vec<String>,
}

impl Row {
    pub fn has_evidence(&self) -> bool {
        !self.symptoms.is_empty()
    }
}

/// Appends the items not seen yet (`seen` makes it linear: a big dump has thousands of commands).
fn push_unique<T: AsRef<str>>(
    list: &mut Vec<String>,
    seen: &mut std::collections::HashSet<String>,
    items: &[T],
) {
    for item in items.iter().map(AsRef::as_ref) {
        if seen.insert(item.to_string()) {
            list.push(item.to_string());
        }
    }
}

/// The evidence a row cites first: a finding's first evidence that is not its configuration (a
/// `spec` field says what was asked for, the status or an event what happened), else its first.
fn telling_evidence(evidence: &[Evidence]) -> Option<&Evidence> {
    evidence
        .iter()
        .find(|e| !e.path.starts_with("spec.") && !e.path.starts_with(".spec"))
        .or_else(|| evidence.first())
}

/// The eight rows: those with evidence first, by their most likely root cause (report order),
/// then the quiet ones in the article's order. Only the findings `filter` keeps are counted.
pub fn rows(report: &Report, filter: &Filter) -> Vec<Row> {
    let kept = crate::view_model::summary::kept(report, filter);
    let mut rows: Vec<Row> = Boundary::ALL
        .iter()
        .map(|&boundary| {
            let mut row = Row {
                boundary,
                symptoms: Vec::new(),
                first_evidence: None,
                cannot_establish: Vec::new(),
                next_steps: Vec::new(),
            };
            let (mut seen_cannot, mut seen_next) = Default::default();
            // The first evidence: of the first root error or warning, else of the first finding.
            let root = kept.iter().copied().find(|&i| {
                let f = &report.findings[i];
                f.boundary == boundary
                    && f.explained_by.is_none()
                    && matches!(f.severity, Severity::Error | Severity::Warning)
            });
            if let Some(i) = root {
                row.first_evidence = telling_evidence(&report.findings[i].evidence).map(|e| (i, e.clone()));
            }
            for &index in &kept {
                let finding = &report.findings[index];
                if finding.boundary != boundary {
                    continue;
                }
                row.symptoms.push(Symptom {
                    finding: index,
                    severity: finding.severity,
                    rule: finding.rule.clone(),
                    subject: finding.subject.clone(),
                });
                if row.first_evidence.is_none() {
                    row.first_evidence = telling_evidence(&finding.evidence).map(|e| (index, e.clone()));
                }
                push_unique(
                    &mut row.cannot_establish,
                    &mut seen_cannot,
                    &finding.cannot_establish,
                );
                push_unique(&mut row.next_steps, &mut seen_next, &finding.next_steps);
            }
            row
        })
        .collect();
    // Stable: the quiet rows keep the article's order after the evidenced ones.
    rows.sort_by_key(|r| r.symptoms.first().map_or(usize::MAX, |s| s.finding));
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::State;

    #[test]
    fn every_boundary_has_a_row_and_only_the_evidenced_ones_are_filled() {
        let report = State::with_sample("image-pull").report;
        let rows = rows(&report, &Filter::default());
        assert_eq!(rows.len(), 8);
        let filled: Vec<&str> = rows
            .iter()
            .filter(|r| r.has_evidence())
            .map(|r| r.boundary.id())
            .collect();
        let mut expected: Vec<&str> = report.findings.iter().map(|f| f.boundary.id()).collect();
        expected.dedup();
        assert_eq!(filled, expected);
        let runtime = rows.iter().find(|r| r.boundary == Boundary::NodeRuntime).unwrap();
        let (finding, evidence) = runtime.first_evidence.clone().unwrap();
        assert_eq!(finding, 0);
        assert_eq!(evidence, report.findings[0].evidence[0]);
        let expected: Vec<String> = report.findings[0]
            .cannot_establish
            .iter()
            .map(|c| c.to_string())
            .collect();
        assert_eq!(runtime.cannot_establish, expected);
        assert!(rows
            .iter()
            .filter(|r| !r.has_evidence())
            .all(|r| r.first_evidence.is_none() && r.next_steps.is_empty()));
    }

    /// A NotReady Node and crash-looping Pods: two boundaries with evidence.
    fn two_faults() -> Report {
        let text = "\
NAMESPACE   NAME                  READY   STATUS             RESTARTS   AGE
shop        web-7d9f8c6b5-x2k4q   0/1     CrashLoopBackOff   7          12m
shop        web-7d9f8c6b5-p9s8d   0/1     CrashLoopBackOff   7          12m

NAME      STATUS     ROLES    AGE   VERSION
worker-1  NotReady   <none>   40d   v1.29.2
";
        faultline_engine::analyze(&[faultline_engine::Source::new("paste", text.to_string())])
    }

    #[test]
    fn rows_with_evidence_come_first_by_their_root_cause_and_the_filter_narrows_them() {
        let report = two_faults();
        let all = rows(&report, &Filter::default());
        assert_eq!(all.len(), 8);
        let filled: Vec<Boundary> = all
            .iter()
            .take_while(|r| r.has_evidence())
            .map(|r| r.boundary)
            .collect();
        assert!(
            filled.len() >= 2,
            "{:?}",
            report.findings.iter().map(|f| &f.rule).collect::<Vec<_>>()
        );
        assert!(all[filled.len()..].iter().all(|r| !r.has_evidence()));
        // In the order of their first finding, which is report order.
        let firsts: Vec<usize> = all[..filled.len()]
            .iter()
            .map(|r| r.symptoms[0].finding)
            .collect();
        let mut sorted = firsts.clone();
        sorted.sort_unstable();
        assert_eq!(firsts, sorted);
        // The quiet rows keep the article's order.
        let quiet: Vec<Boundary> = all[filled.len()..].iter().map(|r| r.boundary).collect();
        let article: Vec<Boundary> = Boundary::ALL
            .iter()
            .copied()
            .filter(|b| quiet.contains(b))
            .collect();
        assert_eq!(quiet, article);
        // No row cites a spec field first when its finding has status or event evidence.
        for row in &all[..filled.len()] {
            let (i, e) = row.first_evidence.clone().unwrap();
            let f = &report.findings[i];
            if f.evidence.iter().any(|e| !e.path.starts_with("spec.")) {
                assert!(!e.path.starts_with("spec."), "{}: {}", f.rule, e.path);
            }
        }
        let node_only = Filter {
            boundary: Some(filled[0]),
            ..Filter::default()
        };
        let narrowed = rows(&report, &node_only);
        assert_eq!(narrowed.iter().filter(|r| r.has_evidence()).count(), 1);
        assert_eq!(narrowed[0].boundary, filled[0]);
    }

    #[test]
    fn a_healthy_cluster_fills_no_row() {
        let report = State::with_sample("healthy").report;
        assert!(rows(&report, &Filter::default())
            .iter()
            .all(|r| !r.has_evidence()));
    }
}
