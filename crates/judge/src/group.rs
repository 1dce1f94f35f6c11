//! Each symptom right after the finding that explains it.

use faultline_report::{Finding, ObjectRef};

/// Puts each symptom right after the finding that explains it, keeping the ranked order otherwise.
pub(crate) fn group(findings: Vec<Finding>) -> Vec<Finding> {
    // The first finding of each (rule, subject): what a symptom's `explained_by` names.
    let mut first: faultline_report::hash::Map<(&str, &ObjectRef), usize> =
        faultline_report::hash::Map::default();
    for (i, f) in findings.iter().enumerate() {
        first.entry((f.rule.as_str(), &f.subject)).or_insert(i);
    }
    let parents: Vec<Option<usize>> = findings
        .iter()
        .map(|f| {
            let c = f.explained_by.as_ref()?;
            first.get(&(c.rule.as_str(), &c.subject)).copied()
        })
        .collect();
    let mut children = vec![Vec::new(); findings.len()];
    for (j, parent) in parents.iter().enumerate() {
        if let Some(p) = parent {
            children[*p].push(j);
        }
    }
    let mut order = Vec::with_capacity(findings.len());
    let mut placed = vec![false; findings.len()];
    fn place(i: usize, children: &[Vec<usize>], placed: &mut [bool], order: &mut Vec<usize>) {
        if placed[i] {
            return;
        }
        placed[i] = true;
        order.push(i);
        for &j in &children[i] {
            place(j, children, placed, order);
        }
    }
    for (i, parent) in parents.iter().enumerate() {
        if parent.is_none() {
            place(i, &children, &mut placed, &mut order);
        }
    }
    // Anything left (a cause that is itself missing) keeps its rank.
    for i in 0..findings.len() {
        place(i, &children, &mut placed, &mut order);
    }
    let mut slots: Vec<Option<Finding>> = findings.into_iter().map(Some).collect();
    order.into_iter().filter_map(|i| slots[i].take()).collect()
}
