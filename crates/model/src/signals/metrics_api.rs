//! The resource, custom and external metrics APIs failing, as their clients print it: the HPA
//! controller's `ScalingActive=False` condition and `FailedGet…` events (pkg/controller/podautoscaler:
//! "unable to get metrics for resource cpu: no metrics returned from resource metrics API"), and
//! kubectl's discovery of `metrics.k8s.io` answered `503 Service Unavailable` or "the server is
//! currently unable to handle the request" (an APIService registered but not served).

use faultline_ingest::Object;
use faultline_report::{Evidence, ObjectRef};

use crate::client_output::{lines_containing, Scope};
use crate::{EventRecord, Model};

/// kubectl's words for an aggregated API that is registered but not served.
const DISCOVERY_FAILS: &[&str] = &[
    "503 Service Unavailable",
    "the server is currently unable to handle the request",
];

/// Whether an HPA's metrics message says the metrics API failed, not the Pods' metrics.
pub fn says_metrics_api_fails(message: &str) -> bool {
    [
        "resource metrics API",
        "metrics.k8s.io",
        "custom metrics API",
        "external metrics API",
    ]
    .iter()
    .any(|api| message.contains(api))
        && !message.contains("did not receive metrics for targeted pods")
}

/// An HPA whose `ScalingActive` condition is `False` with a `FailedGet…` reason that says the
/// metrics API failed: the condition's index, reason and message.
#[derive(Debug)]
pub struct HpaMetricsFailure<'a> {
    pub object: &'a Object,
    pub index: usize,
    pub reason: &'a str,
    pub message: &'a str,
}

impl HpaMetricsFailure<'_> {
    /// The condition's status, reason and message, then the first two of the HPA's events that say
    /// the metrics API failed, as evidence.
    pub fn evidence(&self, model: &Model<'_>) -> Vec<Evidence> {
        let mut evidence: Vec<Evidence> = ["status", "reason", "message"]
            .iter()
            .filter_map(|f| model.evidence(self.object, &format!("status.conditions[{}].{f}", self.index)))
            .collect();
        evidence.extend(
            model
                .events_for(&self.object.id)
                .iter()
                .filter(|e| says_metrics_api_fails(&e.message))
                .take(2)
                .filter_map(|e| model.event_evidence(e)),
        );
        evidence
    }
}

impl<'a> Model<'a> {
    /// Each pasted HPA (every paste, in input order) whose `ScalingActive` condition says the
    /// metrics API failed.
    pub fn hpas_without_metrics(&self) -> Vec<HpaMetricsFailure<'a>> {
        let mut found = Vec::new();
        for hpa in self
            .objects
            .iter()
            .filter(|o| o.id.kind == "HorizontalPodAutoscaler")
        {
            let Some((_, conditions)) = hpa.locate("status.conditions") else {
                continue;
            };
            let failing = conditions.items().iter().enumerate().find_map(|(index, c)| {
                let field = |name: &str| c.get(name).and_then(|n| n.as_str()).unwrap_or_default();
                let (reason, message) = (field("reason"), field("message"));
                (field("type") == "ScalingActive"
                    && field("status") == "False"
                    && reason.starts_with("FailedGet")
                    && says_metrics_api_fails(message))
                .then_some(HpaMetricsFailure {
                    object: hpa,
                    index,
                    reason,
                    message,
                })
            });
            found.extend(failing);
        }
        found
    }

    /// The HPA controller's `FailedGet…` events that say the metrics API failed, the first of each
    /// HPA that is not pasted as an object, in input order.
    pub fn metrics_failures_of_unpasted_hpas(&self) -> Vec<&EventRecord> {
        let mut seen: Vec<&ObjectRef> = self
            .objects
            .iter()
            .filter(|o| o.id.kind == "HorizontalPodAutoscaler")
            .map(|o| &o.id)
            .collect();
        let mut found = Vec::new();
        for event in self.events.iter().filter(|e| {
            e.subject.kind == "HorizontalPodAutoscaler"
                && e.reason.starts_with("FailedGet")
                && says_metrics_api_fails(&e.message)
        }) {
            if seen.contains(&&event.subject) {
                continue;
            }
            seen.push(&event.subject);
            found.push(event);
        }
        found
    }

    /// kubectl's discovery of the metrics API failing (a -v=6 trace's `503 Service Unavailable`,
    /// or "the server is currently unable to handle the request" for metrics.k8s.io): the first four
    /// such lines.
    pub fn metrics_discovery_failures(&self) -> Vec<Evidence> {
        let mut evidence: Vec<Evidence> = lines_containing(self, &["metrics.k8s.io"], Scope::ApiClient)
            .into_iter()
            .filter(|e| DISCOVERY_FAILS.iter().any(|d| e.value.contains(d)))
            .collect();
        evidence.truncate(4);
        evidence
    }
}

/// A line (an HPA's event or condition, kubectl top's output) that says resource metrics could not be
/// read (replica_calculator.go's `unable to get metrics for resource cpu: …`, metrics/client.go's
/// `unable to fetch metrics from resource metrics API: …`, kubectl top's `Metrics API not
/// available`): what cluster-component-failing links to a failing metrics-server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MetricsApiFailure {
    /// Whether it names the metrics API itself (`metrics.k8s.io`, `resource metrics API`, `Metrics
    /// API not available`), not only metrics that could not be had.
    pub names_api: bool,
}

/// The metrics failure `text` reports, if any.
pub fn read(text: &str) -> Option<MetricsApiFailure> {
    let names_api = text.contains("metrics.k8s.io")
        || text.contains("resource metrics API")
        || text.contains("Metrics API not available");
    let unable = text.contains("unable to get metrics") || text.contains("unable to fetch metrics");
    (names_api || unable).then_some(MetricsApiFailure { names_api })
}

#[cfg(test)]
mod tests {
    use super::{read, says_metrics_api_fails};

    #[test]
    fn reads_the_hpas_and_kubectls_words() {
        let f = read("unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: the server is currently unable to handle the request (get pods.metrics.k8s.io)");
        assert!(f.is_some_and(|f| f.names_api));
        assert!(read(
            "failed to get cpu utilization: did not receive metrics for targeted pods (pods might be unready)"
        )
        .is_none());
    }

    #[test]
    fn the_apis_failure_is_told_from_the_pods() {
        assert!(says_metrics_api_fails("the HPA was unable to compute the replica count: unable to get metrics for resource cpu: no metrics returned from resource metrics API"));
        assert!(says_metrics_api_fails("unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.k8s.io)"));
        assert!(!says_metrics_api_fails(
            "failed to get cpu utilization: did not receive metrics for targeted pods (pods might be unready)"
        ));
        assert!(!says_metrics_api_fails(
            "failed to get cpu utilization: missing request for cpu"
        ));
    }
}
