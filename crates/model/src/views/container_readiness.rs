//! Which of a Pod's containers are not ready (`status.containerStatuses[i].ready`, which the kubelet
//! sets from the readiness probe) and what their readiness probe asks (`spec.containers[j]`, matched
//! by name, not position).

use faultline_ingest::{Object, Typed};
use faultline_report::Evidence;

use crate::Model;

/// The fields of a readiness probe that say what it asks (a map itself has no one value to cite).
const PROBE_FIELDS: [&str; 5] = [
    "httpGet.path",
    "httpGet.port",
    "tcpSocket.port",
    "grpc.port",
    "exec.command[0]",
];

/// A Pod's containers that are not ready, and the fields that show it.
#[derive(Debug, Default)]
pub struct UnreadyContainers {
    /// Their names, in `containerStatuses` order (init containers are not counted).
    pub names: Vec<String>,
    /// For each: its `ready` field, then its readiness probe's path, port or command.
    pub evidence: Vec<Evidence>,
}

impl Model<'_> {
    /// The containers of a pasted Pod that are not ready; none for an object that is not a Pod.
    pub fn unready_containers(&self, object: &Object) -> UnreadyContainers {
        let mut unready = UnreadyContainers::default();
        let Typed::Pod(pod) = &object.typed else {
            return unready;
        };
        let statuses = pod.status.as_ref().and_then(|s| s.container_statuses.as_deref());
        let specs = pod
            .spec
            .as_ref()
            .map(|s| s.containers.as_slice())
            .unwrap_or_default();
        for (i, status) in statuses.unwrap_or_default().iter().enumerate() {
            if status.ready {
                continue;
            }
            unready.names.push(status.name.to_string());
            let ready = format!("status.containerStatuses[{i}].ready");
            unready.evidence.extend(self.evidence(object, &ready));
            if let Some(j) = specs.iter().position(|c| c.name == status.name) {
                for field in PROBE_FIELDS {
                    let path = format!("spec.containers[{j}].readinessProbe.{field}");
                    unready.evidence.extend(self.evidence(object, &path));
                }
            }
        }
        unready
    }
}

#[cfg(test)]
mod tests {
    use faultline_ingest::{ingest, Source};

    use crate::Model;

    const POD: &str = "\
apiVersion: v1
kind: Pod
metadata: {name: api-1, namespace: shop}
spec:
  containers:
  - name: sidecar
    image: proxy:1
  - name: api
    image: api:1
    readinessProbe:
      httpGet: {path: /ready, port: 8080}
status:
  phase: Running
  containerStatuses:
  - name: api
    ready: false
    restartCount: 0
    image: api:1
    imageID: ''
  - name: sidecar
    ready: true
    restartCount: 0
    image: proxy:1
    imageID: ''
";

    #[test]
    fn names_the_unready_container_and_what_its_probe_asks() {
        let sources = vec![Source::new("pod.yaml", POD)];
        let ingested = ingest(&sources);
        let model = Model::build(&sources, &ingested);
        let unready = model
            .objects_of_kind("Pod")
            .next()
            .map(|pod| model.unready_containers(pod))
            .unwrap_or_default();
        assert_eq!(unready.names, ["api"]);
        let paths: Vec<&str> = unready.evidence.iter().map(|e| e.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "status.containerStatuses[0].ready",
                "spec.containers[1].readinessProbe.httpGet.path",
                "spec.containers[1].readinessProbe.httpGet.port"
            ]
        );
    }
}
