//! Built-in sample incidents, compiled into the app so that opening one fetches nothing.

/// A sample incident: what an engineer would have pasted or dropped, file by file.
pub struct Sample {
    pub id: &'static str,
    pub title: &'static str,
    pub files: &'static [(&'static str, &'static str)],
}

pub const SAMPLES: &[Sample] = &[Sample {
    id: "image-pull",
    title: "Experiment 2: a non-existent image tag",
    files: &[
        (
            "pod.yaml",
            include_str!("../../../static/samples/image-pull/pod.yaml"),
        ),
        (
            "events.txt",
            include_str!("../../../static/samples/image-pull/events.txt"),
        ),
    ],
}];

/// The sample the app opens with, so the first screen shows a diagnosis.
pub const DEFAULT_SAMPLE: &str = "image-pull";

pub fn find(id: &str) -> Option<&'static Sample> {
    SAMPLES.iter().find(|s| s.id == id)
}
