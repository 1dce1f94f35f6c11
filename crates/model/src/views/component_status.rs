//! A ComponentStatus (`kubectl get cs`, the API server's `componentstatuses` probe of the scheduler,
//! the controller-manager and each etcd member) whose `Healthy` condition is not `True`, with the
//! words of its `error` and `message`.

use faultline_ingest::node::Node;
use faultline_ingest::Object;
use faultline_report::Evidence;

use crate::Model;

/// The scheduler's and controller-manager's old insecure ports (10251, 10252), which the API
/// server's check still dials while current releases of both no longer serve them.
const OLD_PORTS: [&str; 4] = [
    "127.0.0.1:10251",
    "127.0.0.1:10252",
    "localhost:10251",
    "localhost:10252",
];

/// A ComponentStatus whose check fails.
#[derive(Debug)]
pub struct UnhealthyComponentStatus<'a> {
    pub object: &'a Object,
    /// Its `Healthy` condition's index in `conditions`.
    pub index: usize,
    /// The condition's `error` and `message`, joined by a space.
    pub said: String,
}

impl UnhealthyComponentStatus<'_> {
    /// An etcd member's row (`etcd-0`).
    pub fn is_etcd(&self) -> bool {
        self.object.id.name.starts_with("etcd")
    }

    /// The check refused at the scheduler's or controller-manager's old insecure port: the check is
    /// out of date, not the component down.
    pub fn dials_old_port(&self) -> bool {
        OLD_PORTS.iter().any(|a| self.said.contains(a)) && self.said.contains("connection refused")
    }

    /// The condition's status, message and error, as evidence.
    pub fn evidence(&self, model: &Model<'_>) -> Vec<Evidence> {
        ["status", "message", "error"]
            .into_iter()
            .filter_map(|key| model.evidence(self.object, &format!("conditions[{}].{key}", self.index)))
            .collect()
    }
}

/// The object's `Healthy` condition when it is not `True`, with its index.
fn unhealthy(object: &Object) -> Option<(usize, &Node)> {
    let (_, conditions) = object.locate("conditions")?;
    conditions.items().iter().enumerate().find(|(_, c)| {
        c.get("type").and_then(Node::as_str) == Some("Healthy")
            && c.get("status").and_then(Node::as_str) != Some("True")
    })
}

impl<'a> Model<'a> {
    /// Every pasted ComponentStatus whose `Healthy` condition is not `True`, in input order.
    pub fn unhealthy_component_statuses(&self) -> Vec<UnhealthyComponentStatus<'a>> {
        self.objects_of_kind("ComponentStatus")
            .filter_map(|object| {
                let (index, condition) = unhealthy(object)?;
                let said = ["error", "message"]
                    .iter()
                    .filter_map(|k| condition.get(k).and_then(Node::as_str))
                    .collect::<Vec<_>>()
                    .join(" ");
                Some(UnhealthyComponentStatus { object, index, said })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use faultline_ingest::{ingest, Source};

    use crate::Model;

    const CS: &str = "\
$ kubectl get cs
NAME                 STATUS      MESSAGE                                                                                       ERROR
scheduler            Unhealthy   Get \"http://127.0.0.1:10251/healthz\": dial tcp 127.0.0.1:10251: connect: connection refused
controller-manager   Healthy     ok
etcd-0               Healthy     {\"health\":\"true\",\"reason\":\"\"}
";

    #[test]
    fn reads_an_unhealthy_row() {
        let sources = vec![Source::new("paste", CS)];
        let ingested = ingest(&sources);
        let model = Model::build(&sources, &ingested);
        let unhealthy = model.unhealthy_component_statuses();
        let names: Vec<&str> = unhealthy.iter().map(|u| u.object.id.name.as_str()).collect();
        assert_eq!(names, ["scheduler"]);
        assert!(unhealthy[0].dials_old_port() && !unhealthy[0].is_etcd());
    }
}
