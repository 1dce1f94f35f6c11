//! The workloads each finding hurts ([`Finding::affects`]), carried from symptoms to their causes.

use faultline_model::owners::{pods_hurt_by, top_workload};
use faultline_model::Model;
use faultline_report::{Finding, ObjectRef};

/// Sets [`Finding::affects`]: the workloads of what the rule named as refused or hurt, of the
/// subject itself (a Pod's Deployment), and of the Pods the input shows the subject hurting (a
/// Node's, a claim's, a Service's: [`pods_hurt_by`]); never the subject, each once, in that order.
pub(crate) fn affected(model: &Model<'_>, finding: &mut Finding) {
    let named = std::mem::take(&mut finding.affects);
    let hurt = pods_hurt_by(model, &finding.subject);
    let mut affects = Vec::new();
    for object in named
        .iter()
        .chain(std::iter::once(&finding.subject))
        .chain(hurt.iter())
    {
        let workload = top_workload(model, object);
        if workload != finding.subject && !affects.contains(&workload) {
            affects.push(workload);
        }
    }
    finding.affects = affects;
}

/// A cause affects what its symptoms affect (a node's pressure, the Deployment of the Pod it keeps
/// from being scheduled), or a symptom's subject that is a workload itself (the Deployment whose
/// rollout a quota stops), up the chain of causes.
pub(crate) fn carry_affects(findings: &mut [Finding]) {
    // Each cause looked up by its subject, not searched for (quadratic on a 10k-Pod dump).
    let places = crate::explain::Places::of(findings);
    for i in 0..findings.len() {
        let mut carried: Vec<ObjectRef> = Vec::new();
        let symptom = &findings[i];
        if symptom.explained_by.is_none() {
            continue;
        }
        // The symptom's workloads, or its subject when it is a workload itself (a rollout).
        carried.extend(symptom.affects.iter().cloned());
        if carried.is_empty() {
            carried.push(symptom.subject.clone());
        }
        let mut cause = symptom.explained_by.clone();
        for _ in 0..findings.len() {
            let Some(c) = cause else { break };
            let Some(j) = places.get(findings, &c.rule, &c.subject) else {
                break;
            };
            for object in &carried {
                let target = &mut findings[j];
                if *object != target.subject && !target.affects.contains(object) {
                    target.affects.push(object.clone());
                }
            }
            cause = findings[j].explained_by.clone();
        }
    }
}
