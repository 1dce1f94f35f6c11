//! Report -> the summary a big incident needs first: how many independent faults, the counts by
//! boundary and by rule, the most severe root cause of each boundary, findings that share a cause and a
//! rule grouped by the workload they hurt, and the filter every view shares.
//!
//! An *independent fault* is a group of root findings (explained by no other finding) of severity error
//! or warning: 47 crash-looping Pods of one Deployment are one fault, a NotReady Node another. Info
//! notes are never counted.

use std::collections::HashMap;

use faultline_report::{Boundary, Finding, ObjectRef, Report, Severity};

/// What the user narrowed the report to; shared by every view. Empty fields match everything.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    pub boundary: Option<Boundary>,
    pub severity: Option<Severity>,
    pub namespace: Option<String>,
    pub kind: Option<String>,
    /// Words to find, case-insensitive, in a finding's rule, subject, summary or evidence values.
    pub text: String,
}

impl Filter {
    pub fn is_empty(&self) -> bool {
        *self == Filter::default()
    }

    /// Whether a finding passes every part. The namespace and kind are the subject's or those of a
    /// workload it affects (a Node's finding belongs to the namespaces whose Pods it keeps down).
    pub fn matches(&self, f: &Finding) -> bool {
        if self.boundary.is_some_and(|b| b != f.boundary) || self.severity.is_some_and(|s| s != f.severity) {
            return false;
        }
        let objects = || std::iter::once(&f.subject).chain(&f.affects);
        if let Some(ns) = self.namespace.as_deref() {
            if !objects().any(|o| o.namespace.as_deref() == Some(ns)) {
                return false;
            }
        }
        if let Some(kind) = self.kind.as_deref() {
            if !objects().any(|o| o.kind.as_str() == kind) {
                return false;
            }
        }
        self.text.trim().is_empty() || contains_words(&finding_words(f), &self.text)
    }
}

fn object_words(o: &ObjectRef) -> String {
    let mut s = format!("{} {}", o.kind, o.name);
    if let Some(ns) = &o.namespace {
        s.push(' ');
        s.push_str(ns);
    }
    s.to_lowercase()
}

fn finding_words(f: &Finding) -> String {
    let mut s = format!(
        "{} {} {} ",
        f.rule,
        object_words(&f.subject),
        f.summary.to_lowercase()
    );
    for o in &f.affects {
        s.push_str(&object_words(o));
        s.push(' ');
    }
    for e in &f.evidence {
        s.push_str(&e.value.to_lowercase());
        s.push(' ');
    }
    s
}

/// Every word of `query` is in `haystack` (already lower-cased).
fn contains_words(haystack: &str, query: &str) -> bool {
    query
        .to_lowercase()
        .split_whitespace()
        .all(|word| haystack.contains(word))
}

/// The findings at one boundary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoundaryCount {
    pub boundary: Boundary,
    /// Findings of severity error or warning at it.
    pub findings: usize,
    /// Independent faults at it.
    pub faults: usize,
    /// Its most severe root cause: the first root error or warning in report order.
    pub top: usize,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Independent faults (groups of root errors and warnings; the two causes of a deciding command
    /// are one fault read two ways).
    pub faults: usize,
    /// The boundaries with an error or warning, the most severe root first (report order).
    pub boundaries: Vec<BoundaryCount>,
    /// Errors and warnings by rule: (rule, findings), the most first, then by name.
    pub rules: Vec<(String, usize)>,
    /// The namespaces and kinds the report names (findings' subjects and affected workloads, the
    /// objects, the timeline's subjects), for the filter's menus.
    pub namespaces: Vec<String>,
    pub kinds: Vec<String>,
}

/// Findings that share a rule, a severity, a cause and the one workload they hurt: shown as one
/// card, the members a click away. A group of one is an ordinary finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// The members' indices in the report, in report order; the first is the one shown.
    pub members: Vec<usize>,
    /// The workload they all affect, when they are more than one.
    pub owner: Option<ObjectRef>,
}

impl Group {
    pub fn first(&self) -> usize {
        self.members[0]
    }
}

/// What findings must share to be grouped: rule, severity, boundary, cause, subject kind and the
/// one workload they affect. A member's symptoms keep their place after the group (a Deployment's
/// rollout stuck because its Pods crash follows the group of those Pods).
type GroupKey<'a> = (
    &'a str,
    Severity,
    Boundary,
    Option<(&'a str, &'a ObjectRef)>,
    &'a str,
    &'a ObjectRef,
);

fn group_key(f: &Finding) -> Option<GroupKey<'_>> {
    match f.affects.as_slice() {
        [owner] if owner != &f.subject => Some((
            f.rule.as_str(),
            f.severity,
            f.boundary,
            f.explained_by.as_ref().map(|c| (c.rule.as_str(), &c.subject)),
            f.subject.kind.as_str(),
            owner,
        )),
        _ => None,
    }
}

/// The findings `shown` (indices in report order) as groups, each at its first member's place.
pub fn groups(report: &Report, shown: &[usize]) -> Vec<Group> {
    let mut out: Vec<Group> = Vec::with_capacity(shown.len());
    let mut open: HashMap<GroupKey<'_>, usize> = HashMap::new();
    for &i in shown {
        let f = &report.findings[i];
        let key = group_key(f);
        match key.and_then(|k| open.get(&k).copied()) {
            Some(g) => out[g].members.push(i),
            None => {
                if let Some(k) = key {
                    open.insert(k, out.len());
                }
                out.push(Group {
                    members: vec![i],
                    owner: None,
                });
            }
        }
    }
    for g in &mut out {
        if g.members.len() > 1 {
            g.owner = report.findings[g.first()].affects.first().cloned();
        }
    }
    out
}

fn weighty(f: &Finding) -> bool {
    matches!(f.severity, Severity::Error | Severity::Warning)
}

pub fn summary(report: &Report) -> Summary {
    let roots: Vec<usize> = report
        .findings
        .iter()
        .enumerate()
        .filter(|(_, f)| weighty(f) && f.explained_by.is_none())
        .map(|(i, _)| i)
        .collect();
    let fault_groups = groups(report, &roots);
    let mut boundaries: Vec<BoundaryCount> = Vec::new();
    for g in &fault_groups {
        let f = &report.findings[g.first()];
        match boundaries.iter_mut().find(|b| b.boundary == f.boundary) {
            Some(b) => b.faults += 1,
            None => boundaries.push(BoundaryCount {
                boundary: f.boundary,
                findings: 0,
                faults: 1,
                top: g.first(),
            }),
        }
    }
    let mut rules: Vec<(String, usize)> = Vec::new();
    let mut rule_index: HashMap<&str, usize> = HashMap::new();
    // Borrowed while collected, owned once each at the end: a 10k-Pod dump's report names 160,000
    // objects and timeline subjects, and a `String` made for each took 25 ms of the page's render.
    let mut namespaces: faultline_report::hash::Set<&str> = Default::default();
    let mut kinds: faultline_report::hash::Set<&str> = Default::default();
    for f in &report.findings {
        if !weighty(f) {
            continue;
        }
        if let Some(b) = boundaries.iter_mut().find(|b| b.boundary == f.boundary) {
            b.findings += 1;
        }
        match rule_index.get(f.rule.as_str()) {
            Some(&r) => rules[r].1 += 1,
            None => {
                rule_index.insert(f.rule.as_str(), rules.len());
                rules.push((f.rule.clone(), 1));
            }
        }
    }
    let named = report
        .findings
        .iter()
        .flat_map(|f| std::iter::once(&f.subject).chain(&f.affects));
    for o in named
        .chain(report.objects.iter().map(|o| &o.object))
        .chain(report.timeline.iter().map(|e| &e.subject))
    {
        if let Some(ns) = &o.namespace {
            namespaces.insert(ns.as_str());
        }
        kinds.insert(o.kind.as_str());
    }
    let sorted = |set: faultline_report::hash::Set<&str>| {
        let mut all: Vec<String> = set.into_iter().map(str::to_string).collect();
        all.sort_unstable();
        all
    };
    // A symptom's boundary can have no root of its own: it is counted under no boundary row.
    rules.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    // Two causes a deciding command tells apart are two readings of one fault, not two faults.
    let competing = usize::from(report.decide.is_some() && fault_groups.len() > 1);
    Summary {
        faults: fault_groups.len() - competing,
        boundaries,
        rules,
        namespaces: sorted(namespaces),
        kinds: sorted(kinds),
    }
}

/// The indices of the findings the filter keeps, in report order. A kept symptom still names its
/// cause by number ("symptom of 3"), shown or not: a boundary filter shows that boundary alone.
pub fn kept(report: &Report, filter: &Filter) -> Vec<usize> {
    if filter.is_empty() {
        return (0..report.findings.len()).collect();
    }
    (0..report.findings.len())
        .filter(|&i| filter.matches(&report.findings[i]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use faultline_engine::{analyze, Source};

    fn report(text: &str) -> Report {
        analyze(&[Source::new("paste", text.to_string())])
    }

    /// Three Pods of one Deployment crash-looping (their ReplicaSet named by the generated names),
    /// and a Node not ready: two independent faults at two boundaries.
    const INCIDENT: &str = "\
NAMESPACE     NAME                   READY   STATUS             RESTARTS   AGE
shop          web-7d9f8c6b5-x2k4q    0/1     CrashLoopBackOff   7          12m
shop          web-7d9f8c6b5-p9s8d    0/1     CrashLoopBackOff   7          12m
shop          web-7d9f8c6b5-k4j2h    0/1     CrashLoopBackOff   6          12m
billing       api-5f6d7c8b9-abcde    1/1     Running            0          3d
";

    fn nodes() -> &'static str {
        "NAME      STATUS     ROLES    AGE   VERSION\n\
         worker-1  NotReady   <none>   40d   v1.29.2\n\
         worker-2  Ready      <none>   40d   v1.29.2\n"
    }

    /// An OOM kill on a node under memory pressure: two causes a deciding command tells apart,
    /// one fault read two ways — the headline does not call them independent.
    #[test]
    fn two_causes_of_a_deciding_command_are_one_fault() {
        let text = include_str!(
            "../../../../tests/fixtures/differential/oom-killed-on-node-under-memory-pressure.yaml"
        );
        let r = report(text);
        assert!(r.decide.is_some(), "{:?}", r.findings);
        let roots = r
            .findings
            .iter()
            .filter(|f| weighty(f) && f.explained_by.is_none())
            .count();
        assert_eq!(roots, 2);
        assert_eq!(summary(&r).faults, 1);
    }

    #[test]
    fn independent_faults_count_a_workload_once_and_each_boundary_names_its_top_cause() {
        let r = report(&format!("{INCIDENT}\n{}", nodes()));
        let rules: Vec<&str> = r.findings.iter().map(|f| f.rule.as_str()).collect();
        assert!(rules.contains(&"node-not-ready"), "{rules:?}");
        let s = summary(&r);
        let crash = r
            .findings
            .iter()
            .filter(|f| f.rule == "container-crash-looping")
            .count();
        assert_eq!(crash, 3, "{rules:?}");
        // The three crash loops hurt one Deployment: one fault. The Node is another.
        assert_eq!(s.faults, 2, "{s:?}");
        assert_eq!(s.boundaries.len(), 2, "{s:?}");
        for b in &s.boundaries {
            let top = &r.findings[b.top];
            assert_eq!(top.boundary, b.boundary);
            assert!(top.explained_by.is_none() && weighty(top));
        }
        assert!(
            s.rules.contains(&("container-crash-looping".to_string(), 3)),
            "{s:?}"
        );
        assert!(s.namespaces.contains(&"shop".to_string()), "{s:?}");
    }

    #[test]
    fn findings_of_one_rule_and_workload_group_and_others_stay_apart() {
        let r = report(INCIDENT);
        let all: Vec<usize> = (0..r.findings.len()).collect();
        let g = groups(&r, &all);
        let crash: Vec<&Group> = g
            .iter()
            .filter(|g| r.findings[g.first()].rule == "container-crash-looping")
            .collect();
        assert_eq!(crash.len(), 1, "{g:?}");
        assert_eq!(crash[0].members.len(), 3);
        let owner = crash[0].owner.as_ref().unwrap();
        assert_eq!(owner.name.as_str(), "web");
        // Every finding is in exactly one group.
        let mut members: Vec<usize> = g.iter().flat_map(|g| g.members.clone()).collect();
        members.sort_unstable();
        assert_eq!(members, all);
    }

    #[test]
    fn the_filter_keeps_what_matches_every_part_it_sets() {
        let r = report(&format!("{INCIDENT}\n{}", nodes()));
        let by_ns = Filter {
            namespace: Some("shop".into()),
            ..Filter::default()
        };
        let kept_ns = kept(&r, &by_ns);
        assert!(kept_ns.len() >= 3, "{kept_ns:?}");
        assert!(kept_ns.iter().all(|&i| {
            let f = &r.findings[i];
            std::iter::once(&f.subject)
                .chain(&f.affects)
                .any(|o| o.namespace.as_deref() == Some("shop"))
        }));
        assert!(!kept_ns.iter().any(|&i| r.findings[i].rule == "node-not-ready"));
        let by_text = Filter {
            text: "WORKER-1 ready=false".into(),
            ..Filter::default()
        };
        let kept_text = kept(&r, &by_text);
        assert_eq!(kept_text.len(), 1, "{kept_text:?}");
        assert_eq!(r.findings[kept_text[0]].rule, "node-not-ready");
        let none = Filter {
            text: "no-such-thing-anywhere".into(),
            ..Filter::default()
        };
        assert!(kept(&r, &none).is_empty());
        let errors = Filter {
            severity: Some(Severity::Error),
            kind: Some("Node".into()),
            ..Filter::default()
        };
        let kept_errors = kept(&r, &errors);
        assert_eq!(kept_errors.len(), 1, "{kept_errors:?}");
        assert_eq!(r.findings[kept_errors[0]].rule, "node-not-ready");
        assert_eq!(kept(&r, &Filter::default()).len(), r.findings.len());
    }
}
