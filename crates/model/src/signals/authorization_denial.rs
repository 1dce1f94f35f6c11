//! The API server's refusal of a request by authorization (RBAC, a webhook authorizer):
//! `forbiddenMessage` in staging/src/k8s.io/apiserver/pkg/endpoints/handlers/responsewriters/
//! errors.go, `User "u" cannot list resource "pods" in API group "" in the namespace "prod"`, `… at
//! the cluster scope`, `cannot get path "/"`, and before 1.12 `cannot list pods in the namespace "x"`.

use faultline_report::{Evidence, ObjectRef};

use crate::client_output::{lines_containing, Scope};
use crate::{known, Model};

/// One refusal as the API server words it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Denial {
    /// The username: `system:serviceaccount:ci:deployer`, `jane@example.com`.
    pub user: String,
    pub verb: String,
    /// The resource with its subresource (`pods/exec`), or the path of a non-resource request.
    pub resource: String,
    /// The API group; `None` for a non-resource path or an old message that does not say.
    pub group: Option<String>,
    /// The namespace; `None` at the cluster scope.
    pub namespace: Option<String>,
    /// A non-resource request (`cannot get path "/healthz"`).
    pub path: bool,
}

/// The quoted word at the start of `text` (`"pods" in …` -> `pods`) and what follows it.
fn quoted(text: &str) -> Option<(&str, &str)> {
    let rest = text.strip_prefix('"')?;
    let end = rest.find('"')?;
    Some((&rest[..end], &rest[end + 1..]))
}

/// `… User "u" cannot list resource "pods" in API group "" in the namespace "prod"` (also the
/// older `cannot list pods in the namespace "prod"`, and `cannot get path "/"`).
pub fn read(text: &str) -> Option<Denial> {
    let at = text.find("User \"")?;
    let (user, rest) = quoted(&text[at + "User ".len()..])?;
    let rest = rest.strip_prefix(" cannot ")?;
    let (verb, rest) = rest.split_once(' ')?;
    let (resource, group, path, rest) = if let Some(r) = rest.strip_prefix("resource ") {
        let (resource, r) = quoted(r)?;
        let (group, r) = match r.strip_prefix(" in API group ") {
            Some(g) => {
                let (g, r) = quoted(g)?;
                (Some(g.to_string()), r)
            }
            None => (None, r),
        };
        (resource.to_string(), group, false, r)
    } else if let Some(r) = rest.strip_prefix("path ") {
        let (p, r) = quoted(r)?;
        (p.to_string(), None, true, r)
    } else {
        // Before Kubernetes 1.12: `cannot list pods in the namespace "x"` / `deployments.apps`.
        let word = rest.split(' ').next().unwrap_or(rest);
        let r = &rest[word.len()..];
        let resource = word.trim_end_matches([':', ',', '.']);
        if resource.is_empty()
            || !resource
                .chars()
                .all(|c| c.is_ascii_lowercase() || c == '.' || c == '/')
        {
            return None;
        }
        (resource.to_string(), None, false, r)
    };
    let namespace = rest
        .find(" in the namespace ")
        .and_then(|i| quoted(&rest[i + " in the namespace ".len()..]))
        .map(|(ns, _)| ns.to_string())
        // A paste that lost the closing quote: `in the namespace "istio-system`.
        .or_else(|| {
            let i = rest.find(" in the namespace \"")?;
            let ns = rest[i + " in the namespace \"".len()..]
                .split_whitespace()
                .next()?;
            Some(ns.to_string()).filter(|s| !s.is_empty())
        });
    if verb.is_empty() || user.is_empty() {
        return None;
    }
    Some(Denial {
        user: user.to_string(),
        verb: verb.to_string(),
        resource,
        group,
        namespace,
        path,
    })
}

impl Denial {
    /// The identity a username names: `system:serviceaccount:NS:NAME` is ServiceAccount NS/NAME, any
    /// other name a User.
    pub fn identity(&self) -> ObjectRef {
        let user = self.user.as_str();
        if let Some(rest) = user.strip_prefix("system:serviceaccount:") {
            if let Some((ns, name)) = rest.split_once(':') {
                return ObjectRef {
                    kind: "ServiceAccount".into(),
                    namespace: Some(ns.into()),
                    name: name.into(),
                    uid: None,
                };
            }
        }
        ObjectRef {
            kind: "User".into(),
            namespace: None,
            name: user.into(),
            uid: None,
        }
    }

    /// The resource as `kubectl auth can-i` takes it, the group after the resource:
    /// `deployments.apps`, `pods/exec`.
    pub fn qualified_resource(&self) -> String {
        match (&self.group, self.resource.split_once('/')) {
            (Some(g), Some((r, sub))) if !g.is_empty() => format!("{r}.{g}/{sub}"),
            (Some(g), None) if !g.is_empty() => format!("{}.{g}", self.resource),
            _ => self.resource.clone(),
        }
    }
}

/// The refusals of one identity, each with the line that says it.
pub type DenialsOf = (ObjectRef, Vec<(Denial, Evidence)>);

impl Model<'_> {
    /// The authorization refusals kubectl and clients printed, grouped by identity in input order.
    pub fn authorization_denials(&self) -> Vec<DenialsOf> {
        let mut groups: Vec<DenialsOf> = Vec::new();
        for evidence in lines_containing(self, &["User \""], Scope::ClientOutput) {
            // A line the catalog knows as another component's (a cloud controller's `Error syncing
            // load balancer: …`, a CSI provisioner's `failed to save volume …`) is that component's
            // failure, which it reports with the refusal as its cause: the rule
            // `known-failure-reported` reports it at its own boundary.
            if known::cites_another_component(self, &evidence) {
                continue;
            }
            let Some(d) = read(&evidence.value) else {
                continue;
            };
            let who = d.identity();
            match groups.iter_mut().find(|(w, _)| *w == who) {
                Some((_, list)) => list.push((d, evidence)),
                None => groups.push((who, vec![(d, evidence)])),
            }
        }
        groups
    }
}

#[cfg(test)]
mod tests {
    use super::read as denial;

    #[test]
    fn denials() {
        let d = denial("Error from server (Forbidden): pods is forbidden: User \"system:serviceaccount:ci:deployer\" cannot list resource \"pods\" in API group \"\" in the namespace \"prod\"").unwrap();
        assert_eq!(d.user, "system:serviceaccount:ci:deployer");
        assert_eq!(d.verb, "list");
        assert_eq!(d.resource, "pods");
        assert_eq!(d.group.as_deref(), Some(""));
        assert_eq!(d.namespace.as_deref(), Some("prod"));
        assert_eq!(d.identity().to_string(), "ServiceAccount ci/deployer");
        let d = denial("deployments.apps is forbidden: User \"jane\" cannot list resource \"deployments\" in API group \"apps\" at the cluster scope").unwrap();
        assert_eq!((d.group.as_deref(), d.namespace), (Some("apps"), None));
        let d = denial("pods is forbidden: User \"root\" cannot list pods in the namespace \"shopping\"")
            .unwrap();
        assert_eq!(
            (d.resource.as_str(), d.namespace.as_deref()),
            ("pods", Some("shopping"))
        );
        let d = denial("forbidden: User \"system:anonymous\" cannot get path \"/\"").unwrap();
        assert!(d.path);
        let d = denial("pods is forbidden: User \"x\" cannot list resource \"pods\" in API group \"\" in the namespace \"istio-system").unwrap();
        assert_eq!(d.namespace.as_deref(), Some("istio-system"));
        assert!(denial("pods \"web\" is forbidden: exceeded quota: compute").is_none());
        assert!(denial("User \"x\" logged in").is_none());
    }
}
