//! Label selectors and the pasted Pods indexed for them: which Pods a Service or a workload
//! selects, which Pod an endpoint's IP is.

use faultline_ingest::node::Node;
use faultline_report::hash::Map;

use super::pairs;

/// A Pod's index, namespace and labels, for selector matching.
pub(super) struct PodLabels<'a> {
    pub(super) index: usize,
    pub(super) namespace: Option<&'a str>,
    pub(super) labels: Vec<(&'a str, &'a str)>,
    pub(super) ip: Option<&'a str>,
}

/// The pasted Pods with indexes for the questions the graph asks of each Service, workload and
/// endpoint: "which Pods carry this label", "which Pod has this IP". Asking every Pod each time was
/// quadratic on a large cluster. Every list keeps the Pods' input order.
pub(super) struct Pods<'a> {
    pub(super) all: Vec<PodLabels<'a>>,
    pub(super) by_label: Map<(Option<&'a str>, &'a str, &'a str), Vec<usize>>,
    pub(super) by_namespace: Map<Option<&'a str>, Vec<usize>>,
    pub(super) by_ip: Map<&'a str, Vec<usize>>,
}

impl<'a> Pods<'a> {
    pub(super) fn new(all: Vec<PodLabels<'a>>) -> Self {
        let mut pods = Pods {
            by_label: Map::default(),
            by_namespace: Map::default(),
            by_ip: Map::default(),
            all: Vec::new(),
        };
        for (i, pod) in all.iter().enumerate() {
            for &(k, v) in &pod.labels {
                pods.by_label.entry((pod.namespace, k, v)).or_default().push(i);
            }
            pods.by_namespace.entry(pod.namespace).or_default().push(i);
            if let Some(ip) = pod.ip {
                pods.by_ip.entry(ip).or_default().push(i);
            }
        }
        pods.all = all;
        pods
    }

    /// The Pods of namespace `ns` the selector matches, in input order.
    pub(super) fn selected<'s>(
        &'s self,
        ns: Option<&'a str>,
        selector: &'s Selector<'_>,
    ) -> impl Iterator<Item = &'s PodLabels<'a>> {
        // The rarest of the selector's labels narrows the Pods to look at; expressions alone do not.
        let candidates = match selector
            .labels
            .iter()
            .map(|&(k, v)| self.by_label.get(&(ns, k, v)).map_or(0, Vec::len))
            .zip(&selector.labels)
            .min_by_key(|(n, _)| *n)
        {
            Some((_, &(k, v))) => self.by_label.get(&(ns, k, v)),
            None => self.by_namespace.get(&ns),
        };
        candidates
            .map_or(&[][..], Vec::as_slice)
            .iter()
            .map(|&i| &self.all[i])
            .filter(move |pod| pod.namespace == ns && selector.matches(&pod.labels))
    }
}

/// A label selector: `matchLabels` and `matchExpressions`, or a Service's plain map.
#[derive(Debug, Default)]
pub(super) struct Selector<'a> {
    pub(super) labels: Vec<(&'a str, &'a str)>,
    pub(super) expressions: Vec<(&'a str, &'a str, Vec<&'a str>)>,
}

impl<'a> Selector<'a> {
    pub(super) fn from_label_selector(node: &'a Node) -> Self {
        let expressions = node
            .get("matchExpressions")
            .map(|list| {
                list.items()
                    .iter()
                    .filter_map(|e| {
                        let values = e
                            .get("values")
                            .map(|v| v.items().iter().filter_map(Node::as_str).collect())
                            .unwrap_or_default();
                        Some((e.get("key")?.as_str()?, e.get("operator")?.as_str()?, values))
                    })
                    .collect()
            })
            .unwrap_or_default();
        Self {
            labels: pairs(node.get("matchLabels")),
            expressions,
        }
    }

    pub(super) fn is_empty(&self) -> bool {
        self.labels.is_empty() && self.expressions.is_empty()
    }

    pub(super) fn matches(&self, labels: &[(&str, &str)]) -> bool {
        let get = |k: &str| labels.iter().find(|(key, _)| *key == k).map(|(_, v)| *v);
        self.labels.iter().all(|(k, v)| get(k) == Some(*v))
            && self.expressions.iter().all(|(k, op, values)| match *op {
                "In" => get(k).is_some_and(|v| values.contains(&v)),
                "NotIn" => get(k).is_none_or(|v| !values.contains(&v)),
                "Exists" => get(k).is_some(),
                "DoesNotExist" => get(k).is_none(),
                _ => false,
            })
    }
}
