//! Built-in sample incidents, compiled into the app so that opening one fetches nothing.

use crate::i18n::Lang;

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
/// 403 that leaves no Pod, an application whose log says its database refuses it, and a healthy
/// cluster. Titles are in `i18n`.
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
        id: "dependency",
        expect: Some("application"),
        files: &[sample_file!("dependency", "input.txt")],
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
include!(concat!(env!("OUT_DIR"), "/sample_reports.rs"));

/// A built-in sample's diagnosis, computed when the app was built: the first screen needs no worker.
#[derive(Clone, Debug, Default, PartialEq, serde::Deserialize)]
pub struct Precomputed {
    /// In the language asked for ([`precomputed`]).
    pub report: faultline_report::Report,
    pub secrets: Vec<faultline_render::protocol::Secret>,
    /// The report's texts in the languages other than English (the report's own).
    #[serde(default)]
    texts: Vec<faultline_render::texts::Texts>,
}

/// The precomputed diagnosis of a built-in sample in `lang` (not of the rules' samples: those go to
/// the worker).
pub fn precomputed(id: &str, lang: Lang) -> Option<Precomputed> {
    let (_, json) = SAMPLE_REPORTS.iter().find(|(sample, _)| *sample == id)?;
    let mut done: Precomputed = serde_json::from_str(json).ok()?;
    if let Some(texts) = done.texts.iter().find(|t| t.lang == lang) {
        texts.apply(&mut done.report);
    }
    done.texts = Vec::new();
    Some(done)
}

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
    use faultline_report::Severity;

    use super::*;
    use crate::state::State;

    /// Each sample's precomputed report, in each language, is what the page would show of a fresh
    /// analysis in that language: the engine's report as JSON, read back (without its messages).
    #[test]
    fn each_precomputed_diagnosis_is_a_fresh_analysis_of_the_sample() {
        use faultline_engine::redact::{scan, ScanOptions};
        assert_eq!(SAMPLE_REPORTS.len(), SAMPLES.len());
        for sample in SAMPLES {
            let sources: Vec<faultline_engine::Source> = sample
                .files
                .iter()
                .map(|(name, text)| faultline_engine::Source::new(*name, *text))
                .collect();
            for lang in Lang::ALL {
                let precomputed = precomputed(sample.id, lang).unwrap();
                let options = faultline_engine::Options {
                    lang,
                    ..Default::default()
                };
                let fresh = faultline_engine::analyze_with(&sources, &options);
                let shown: faultline_report::Report =
                    serde_json::from_str(&serde_json::to_string(&fresh).unwrap()).unwrap();
                assert_eq!(precomputed.report, shown, "{} {lang:?}", sample.id);
                let secrets = serde_json::to_value(scan(&sources, &ScanOptions::default())).unwrap();
                assert_eq!(
                    serde_json::to_value(&precomputed.secrets).unwrap(),
                    secrets,
                    "{}",
                    sample.id
                );
            }
        }
        let zh = precomputed("image-pull", Lang::Zh).unwrap().report;
        let pull = zh
            .findings
            .iter()
            .find(|f| f.rule == "image-pull-failed")
            .unwrap();
        assert!(
            pull.summary
                .chars()
                .any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
            "{}",
            pull.summary
        );
    }

    #[test]
    fn each_sample_yields_its_expected_first_boundary() {
        for sample in SAMPLES {
            let report = crate::state::tests::settled(State::with_sample(sample.id)).report;
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
            let report = crate::state::tests::settled(State::with_sample(sample.id)).report;
            assert!(
                report.findings.iter().any(|f| f.rule == rule.id),
                "{}: the sample does not make it fire",
                rule.id
            );
        }
        assert_eq!(RULE_SAMPLES.len(), faultline_engine::rules::RULES.len());
    }
}
