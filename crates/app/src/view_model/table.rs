//! Report -> the article's boundary table: one row per boundary, filled with this input's evidence.
//! A row without evidence stays empty ("no evidence in this input"); it never says "healthy".

use faultline_engine::{Boundary, Evidence, Report, Severity};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symptom {
    /// Index of the finding in the report (its rank is index + 1).
    pub finding: usize,
    pub severity: Severity,
    pub rule: String,
    pub subject: faultline_engine::report::ObjectRef,
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
fn push_unique(list: &mut Vec<String>, seen: &mut std::collections::HashSet<String>, items: &[String]) {
    for item in items {
        if seen.insert(item.clone()) {
            list.push(item.clone());
        }
    }
}

/// The eight rows, in the article's order.
pub fn rows(report: &Report) -> Vec<Row> {
    Boundary::ALL
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
            for (index, finding) in report.findings.iter().enumerate() {
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
                    row.first_evidence = finding.evidence.first().map(|e| (index, e.clone()));
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
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::State;

    #[test]
    fn every_boundary_has_a_row_and_only_the_evidenced_ones_are_filled() {
        let report = State::with_sample("image-pull").report;
        let rows = rows(&report);
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
        assert_eq!(runtime.cannot_establish, report.findings[0].cannot_establish);
        assert!(rows
            .iter()
            .filter(|r| !r.has_evidence())
            .all(|r| r.first_evidence.is_none() && r.next_steps.is_empty()));
    }

    #[test]
    fn a_healthy_cluster_fills_no_row() {
        let report = State::with_sample("healthy").report;
        assert!(rows(&report).iter().all(|r| !r.has_evidence()));
    }
}
