//! Deep links: `#sample=<id>&view=<findings|diagram|timeline|table|map|rules>`, so documentation can open a
//! live example. Parsing and formatting are pure; the app reads and writes `location.hash`.

use crate::samples;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum View {
    #[default]
    Findings,
    Diagram,
    Timeline,
    Table,
    /// The object graph: owners, nodes, Services through EndpointSlices to Pods.
    Map,
    /// Every rule with its documentation and a sample that makes it fire.
    Rules,
}

impl View {
    pub const ALL: [View; 6] = [
        View::Findings,
        View::Diagram,
        View::Timeline,
        View::Table,
        View::Map,
        View::Rules,
    ];

    pub fn id(self) -> &'static str {
        match self {
            View::Findings => "findings",
            View::Diagram => "diagram",
            View::Timeline => "timeline",
            View::Table => "table",
            View::Map => "map",
            View::Rules => "rules",
        }
    }

    pub fn from_id(id: &str) -> Option<View> {
        View::ALL.into_iter().find(|v| v.id() == id)
    }
}

/// What a hash asks for; unknown samples and views are ignored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Route {
    pub sample: Option<&'static str>,
    pub view: Option<View>,
}

pub fn parse(hash: &str) -> Route {
    let mut route = Route::default();
    for pair in hash.trim_start_matches('#').split('&') {
        match pair.split_once('=') {
            Some(("sample", id)) => route.sample = samples::find(id).map(|s| s.id),
            Some(("view", id)) => route.view = View::from_id(id),
            _ => {}
        }
    }
    route
}

/// The hash for a state: the sample only while the inputs are that sample's, unchanged.
pub fn format(sample: Option<&str>, view: View) -> String {
    match sample {
        Some(id) => format!("#sample={id}&view={}", view.id()),
        None => format!("#view={}", view.id()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hash_names_a_sample_and_a_view() {
        assert_eq!(
            parse("#sample=quota-403&view=table"),
            Route {
                sample: Some("quota-403"),
                view: Some(View::Table)
            }
        );
        assert_eq!(parse("#view=timeline&sample=healthy").sample, Some("healthy"));
        assert_eq!(parse("#sample=nope&view=nope"), Route::default());
        assert_eq!(parse(""), Route::default());
        for view in View::ALL {
            assert_eq!(parse(&format(Some("image-pull"), view)).view, Some(view));
        }
        assert_eq!(format(None, View::Diagram), "#view=diagram");
        assert_eq!(parse("#sample=readiness&view=map").view, Some(View::Map));
    }
}
