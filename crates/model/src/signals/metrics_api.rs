//! The resource metrics API not answering, as the HPA controller (pkg/controller/podautoscaler:
//! replica_calculator.go's `unable to get metrics for resource cpu: …`, metrics/client.go's `unable
//! to fetch metrics from resource metrics API: …`) and kubectl top (`Metrics API not available`)
//! word it.

/// A line that says resource metrics could not be read.
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
    use super::read;

    #[test]
    fn reads_the_hpas_and_kubectls_words() {
        let f = read("unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: the server is currently unable to handle the request (get pods.metrics.k8s.io)");
        assert!(f.is_some_and(|f| f.names_api));
        assert!(read(
            "failed to get cpu utilization: did not receive metrics for targeted pods (pods might be unready)"
        )
        .is_none());
    }
}
