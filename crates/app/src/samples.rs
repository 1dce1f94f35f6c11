//! Built-in sample incidents, compiled into the app so that opening one fetches nothing.

/// A sample incident: what an engineer would have pasted or dropped, file by file.
pub struct Sample {
    pub id: &'static str,
    /// The boundary of the first finding it must produce; `None`: no error finding at all. Checked by
    /// the tests, not shown.
    #[cfg_attr(not(test), allow(dead_code))]
    pub expect: Option<&'static str>,
    pub files: &'static [(&'static str, &'static str)],
}

macro_rules! sample_file {
    ($id:literal, $name:literal) => {
        (
            $name,
            include_str!(concat!("../../../static/samples/", $id, "/", $name)),
        )
    };
}

/// The article's three experiments (and experiment 3's `publishNotReadyAddresses` variant), the quota
/// 403 that leaves no Pod, and a healthy cluster. Titles are in `i18n`.
pub const SAMPLES: &[Sample] = &[
    Sample {
        id: "node-label",
        expect: Some("scheduling"),
        files: &[
            sample_file!("node-label", "input.txt"),
            sample_file!("node-label", "nodes.txt"),
        ],
    },
    Sample {
        id: "image-pull",
        expect: Some("node-runtime"),
        files: &[
            sample_file!("image-pull", "pod.yaml"),
            sample_file!("image-pull", "events.txt"),
        ],
    },
    Sample {
        id: "readiness",
        expect: Some("readiness-endpoints"),
        files: &[
            sample_file!("readiness", "objects.yaml"),
            sample_file!("readiness", "events.txt"),
            sample_file!("readiness", "requests.txt"),
        ],
    },
    Sample {
        id: "publish-not-ready",
        expect: Some("readiness-endpoints"),
        files: &[sample_file!("publish-not-ready", "objects.json")],
    },
    Sample {
        id: "quota-403",
        expect: Some("quota-admission"),
        files: &[sample_file!("quota-403", "input.txt")],
    },
    Sample {
        id: "healthy",
        expect: None,
        files: &[
            sample_file!("healthy", "objects.yaml"),
            sample_file!("healthy", "events.txt"),
        ],
    },
];

/// The sample the app opens with, so the first screen shows a diagnosis.
pub const DEFAULT_SAMPLE: &str = "image-pull";

include!(concat!(env!("OUT_DIR"), "/rule_samples.rs"));

/// A built-in sample or a rule's sample (`rule-<rule id>`, opened from the rules page).
pub fn find(id: &str) -> Option<&'static Sample> {
    SAMPLES.iter().chain(RULE_SAMPLES).find(|s| s.id == id)
}

/// The sample that shows a rule firing, for the rules page's links.
pub fn for_rule(rule: &str) -> Option<&'static Sample> {
    RULE_SAMPLES
        .iter()
        .find(|s| s.id.strip_prefix("rule-") == Some(rule))
}

#[cfg(test)]
mod tests {
    use faultline_engine::Severity;

    use super::*;
    use crate::state::State;

    #[test]
    fn each_sample_yields_its_expected_first_boundary() {
        for sample in SAMPLES {
            let report = State::with_sample(sample.id).report;
            assert!(report.errors.is_empty(), "{}: {:?}", sample.id, report.errors);
            match sample.expect {
                Some(boundary) => {
                    let top = report.findings.first();
                    assert_eq!(top.map(|f| f.boundary.id()), Some(boundary), "{}", sample.id);
                }
                None => assert!(
                    report.findings.iter().all(|f| f.severity != Severity::Error),
                    "{}: {:?}",
                    sample.id,
                    report.findings
                ),
            }
        }
    }

    #[test]
    fn every_rule_has_a_sample_that_makes_it_fire() {
        for rule in faultline_engine::rules::RULES {
            let sample = for_rule(rule.id).unwrap_or_else(|| panic!("{} has no sample", rule.id));
            assert_eq!(find(sample.id).map(|s| s.id), Some(sample.id));
            let report = State::with_sample(sample.id).report;
            assert!(
                report.findings.iter().any(|f| f.rule == rule.id),
                "{}: the sample does not make it fire",
                rule.id
            );
        }
        assert_eq!(RULE_SAMPLES.len(), faultline_engine::rules::RULES.len());
    }
}
