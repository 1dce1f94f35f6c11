//! The object a request through the API server's proxy was for
//! (`/api/v1/namespaces/NS/services/NAME:PORT/proxy/`, read by [`crate::proxy`]), as the input
//! holds it.

use faultline_report::ObjectRef;

use crate::proxy::{ProxyError, ProxyTarget};
use crate::Model;

/// The failures grouped by the object their request was for (one finding each); those whose URL
/// the input does not give go to a Service whose name is not in the input.
pub fn by_target<'e>(model: &Model<'_>, errors: &'e [ProxyError]) -> Vec<(ObjectRef, Vec<&'e ProxyError>)> {
    let known = errors.iter().find_map(|e| e.target.clone());
    let mut groups: Vec<(ObjectRef, Vec<&ProxyError>)> = Vec::new();
    for error in errors {
        // A Status pasted without its URL is the request the paste's one URL names.
        let target = error.target.clone().or_else(|| known.clone());
        let subject = subject_of(model, target.as_ref());
        match groups.iter_mut().find(|(s, _)| *s == subject) {
            Some((_, group)) => group.push(error),
            None => groups.push((subject, vec![error])),
        }
    }
    groups
}

fn subject_of(model: &Model<'_>, target: Option<&ProxyTarget>) -> ObjectRef {
    let Some(target) = target else {
        return ObjectRef {
            kind: "Service".into(),
            namespace: None,
            name: "".into(),
            uid: None,
        };
    };
    model
        .objects_of_kind(target.kind)
        .find(|o| {
            o.id.name == target.name.as_str()
                && (target.namespace.is_none() || o.id.namespace.as_deref() == target.namespace.as_deref())
        })
        .map(|o| o.id.clone())
        .unwrap_or_else(|| ObjectRef {
            kind: target.kind.into(),
            namespace: target.namespace.as_deref().map(Into::into),
            name: target.name.as_str().into(),
            uid: None,
        })
}
