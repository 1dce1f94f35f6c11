//! A pasted Job's failure as its status states it: the `Failed` condition the Job controller sets
//! (`BackoffLimitExceeded`, `DeadlineExceeded`), and how many of its Pods failed.

use faultline_ingest::Object;
use faultline_report::Evidence;

use crate::Model;

/// A Job whose status has a `Failed` condition that is `True`.
pub struct JobFailure<'m> {
    pub job: &'m Object,
    /// The condition's index in `status.conditions`.
    pub condition: usize,
    /// Its reason as written (empty when none).
    pub reason: &'m str,
    /// `status.failed` as written.
    pub failed_pods: Option<&'m str>,
}

impl<'m> JobFailure<'m> {
    pub fn of(job: &'m Object) -> Option<Self> {
        let (_, conditions) = job.locate("status.conditions")?;
        let (condition, failed) = conditions.items().iter().enumerate().find(|(_, c)| {
            let is = |k: &str, v: &str| c.get(k).and_then(|n| n.as_str()) == Some(v);
            is("type", "Failed") && is("status", "True")
        })?;
        Some(Self {
            job,
            condition,
            reason: failed.get("reason").and_then(|n| n.as_str()).unwrap_or_default(),
            failed_pods: job.locate("status.failed").and_then(|(_, n)| n.as_str()),
        })
    }

    /// The condition's reason, message and status, then `status.failed` and `spec.backoffLimit`.
    pub fn evidence(&self, model: &Model<'_>) -> Vec<Evidence> {
        let i = self.condition;
        let mut paths: Vec<String> = ["reason", "message", "status"]
            .iter()
            .map(|f| format!("status.conditions[{i}].{f}"))
            .collect();
        paths.extend(["status.failed".to_string(), "spec.backoffLimit".to_string()]);
        paths.iter().filter_map(|p| model.evidence(self.job, p)).collect()
    }
}

impl<'m> Model<'m> {
    /// The pasted Jobs that failed, in input order.
    pub fn failed_jobs(&self) -> Vec<JobFailure<'m>> {
        self.objects_of_kind("Job").filter_map(JobFailure::of).collect()
    }
}
