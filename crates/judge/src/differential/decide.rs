//! The command that decides: when the two leading causes remain close — both faults of the same
//! severity, at different boundaries, about the same objects, neither explaining the other — the
//! one command whose output confirms one and rules out the other.

use faultline_model::owners::{runs_on, selects, uses};
use faultline_model::Model;
use faultline_report::{Cause, Confidence, Decider, Finding, ObjectRef, Sentence, Severity};

use super::words::Msg;

/// The two close causes (their indices, the diagnosis first) and the decider, if any.
pub(crate) fn decide(model: &Model<'_>, findings: &[Finding]) -> Option<((usize, usize), Decider)> {
    let mut roots = findings.iter().enumerate().filter(|(_, f)| {
        f.explained_by.is_none() && f.severity != Severity::Info && !faultline_rules::is_lint(f)
    });
    let (a, first) = roots.next()?;
    let (b, second) = roots.next()?;
    if second.severity != first.severity || second.boundary == first.boundary || !close(model, first, second)
    {
        return None;
    }
    // Test the hypothesis that rests on less (the challenger when they are as sure): its first next
    // step is the rule's most telling command, with the names the input gives.
    let (tested, other, at) = if rank(model, second) <= rank(model, first) {
        (second, first, 1)
    } else {
        (first, second, 0)
    };
    if let Some(specific) = specific(model, first, second) {
        return Some(((a, b), specific));
    }
    let command = tested.next_steps.first()?.clone();
    let args = |t: &Finding, o: &Finding| {
        (
            t.subject.clone(),
            t.rule.clone(),
            o.subject.clone(),
            o.rule.clone(),
        )
    };
    let (t, tr, o, or) = args(tested, other);
    let if_shown = Msg::IfShown {
        tested: t.clone(),
        tested_rule: tr.clone(),
        other: o.clone(),
        other_rule: or.clone(),
    };
    let if_not = Msg::IfNot {
        tested: t,
        tested_rule: tr,
        other: o,
        other_rule: or,
    };
    let decider = Decider {
        between: vec![cause(first), cause(second)],
        tested: at,
        command,
        if_shown: Sentence::new(if_shown),
        if_not: Sentence::new(if_not),
    };
    Some(((a, b), decider))
}

/// The deciders of pairs whose telling command and answers are known: a container OOM-killed on a
/// node under memory pressure — its own limit, or the node out of memory? The kubelet records a
/// `SystemOOM` event on the Node when the kernel's OOM killer acted for the whole node.
fn specific(model: &Model<'_>, first: &Finding, second: &Finding) -> Option<Decider> {
    use faultline_rules::{application, node_runtime};
    let oom = [
        application::container_oom_killed::RULE.id,
        application::container_crash_looping::RULE.id,
    ];
    let (pod, node, node_at) = match (first.rule.as_str(), second.rule.as_str()) {
        (p, n) if oom.contains(&p) && n == node_runtime::node_under_pressure::RULE.id => (first, second, 1),
        (n, p) if oom.contains(&p) && n == node_runtime::node_under_pressure::RULE.id => (second, first, 0),
        _ => return None,
    };
    let pasted = model
        .objects_of_kind("Node")
        .find(|o| o.id.name == node.subject.name)?;
    let (_, conditions) = pasted.locate("status.conditions")?;
    let memory = conditions.items().iter().any(|c| {
        c.get("type").and_then(|t| t.as_str()) == Some("MemoryPressure")
            && c.get("status").and_then(|t| t.as_str()) == Some("True")
    });
    let command = format!(
        "kubectl describe node {}",
        faultline_rules::shell::quote(&node.subject.name)
    );
    // Its output pasted already (its events are in the input, and SystemOOM is not among them, or
    // this pair would not be close): the rule's own next step decides instead.
    if !memory || model.already_pasted(&command) {
        return None;
    }
    Some(Decider {
        between: vec![cause(first), cause(second)],
        tested: node_at,
        // What to look for in its output (SystemOOM events) is said by `if_shown` and `if_not`:
        // a `# …` after the command would be passed to kubectl as arguments in zsh.
        command,
        if_shown: Sentence::new(Msg::SystemOom {
            node: node.subject.clone(),
            pod: pod.subject.clone(),
        }),
        if_not: Sentence::new(Msg::OwnLimit {
            node: node.subject.clone(),
            pod: pod.subject.clone(),
        }),
    })
}

fn cause(f: &Finding) -> Cause {
    Cause {
        rule: f.rule.clone(),
        subject: f.subject.clone(),
    }
}

/// How much a finding rests on: its confidence before any competition.
fn rank(model: &Model<'_>, f: &Finding) -> Confidence {
    super::confidence::of(model, f).0
}

/// Whether two causes could explain the same signals: they are about the same object or
/// workload, one is about the node the other's Pod runs on, a Service that selects the other's Pod
/// or a claim the other's Pod uses. Two faults of unrelated objects (two Deployments of one
/// namespace failing each its own way) are two faults, not two hypotheses.
fn close(model: &Model<'_>, a: &Finding, b: &Finding) -> bool {
    let objects =
        |f: &Finding| -> Vec<ObjectRef> { std::iter::once(&f.subject).chain(&f.affects).cloned().collect() };
    let (oa, ob) = (objects(a), objects(b));
    if oa.iter().any(|o| !o.name.is_empty() && ob.contains(o)) {
        return true;
    }
    let related = |f: &Finding, other: &Finding| {
        let (pod, o) = (&f.subject, &other.subject);
        pod.kind == "Pod"
            && !pod.name.is_empty()
            && (f
                .node
                .as_deref()
                .is_some_and(|n| o.kind == "Node" && n == o.name.as_str())
                || runs_on(model, pod, o)
                || (o.kind == "Service" && selects(model, o, pod))
                || (o.kind == "PersistentVolumeClaim" && uses(model, pod, o) == Some(true)))
    };
    related(a, b) || related(b, a)
}
