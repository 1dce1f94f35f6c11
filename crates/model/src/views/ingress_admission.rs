//! Whether an ingress controller admitted an Ingress, as the input shows it: the class it names
//! (`spec.ingressClassName` or the `kubernetes.io/ingress.class` annotation), the address a
//! controller publishes (`status.loadBalancer.ingress`, kubectl's ADDRESS column, describe's
//! `Address:`), and the IngressClasses pasted (with `ingressclass.kubernetes.io/is-default-class`).

use faultline_ingest::Object;
use faultline_report::{ObjectRef, Text};

use crate::Model;

/// GCE's classes, served by its cloud controller without an IngressClass object (as k8sgpt's
/// analyzer, signals.md).
pub const IMPLICIT_CLASSES: [&str; 2] = ["gce", "gce-internal"];

const CLASS_ANNOTATION: &str = "metadata.annotations[\"kubernetes.io/ingress.class\"]";

/// Where the input shows an Ingress's address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AddressShown {
    /// `kubectl get ingress`'s ADDRESS column.
    GetColumn,
    /// `kubectl describe ingress`'s `Address:`.
    Described,
    /// `status.loadBalancer`.
    LoadBalancer,
}

/// What the input says of an Ingress's address: whether it has one, and the field that says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IngressAddress {
    pub has: bool,
    pub path: &'static str,
    pub shown: AddressShown,
}

/// One Ingress and every paste of it (a `get ing` row without its namespace, its YAML).
#[derive(Debug)]
pub struct IngressPastes<'a> {
    /// The paste that says its namespace, else the first.
    pub id: &'a ObjectRef,
    pub pastes: Vec<&'a Object>,
}

impl<'a> IngressPastes<'a> {
    /// An address in any paste (a later `get ingress`): a controller admitted it.
    pub fn admitted(&self) -> bool {
        self.pastes.iter().any(|o| address(o).is_some_and(|a| a.has))
    }

    /// The first class a paste names, with that paste and the path it is written at.
    pub fn class(&self) -> Option<(&'a Object, &'a str, &'static str)> {
        self.pastes
            .iter()
            .find_map(|o| class_of(o).map(|(c, path)| (*o, c, path)))
    }

    /// The first paste that shows its address empty, and how.
    pub fn empty_address(&self) -> Option<(&'a Object, IngressAddress)> {
        self.pastes
            .iter()
            .find_map(|o| address(o).filter(|a| !a.has).map(|a| (*o, a)))
    }
}

/// The IngressClasses pasted.
#[derive(Debug)]
pub struct IngressClasses<'a> {
    pub objects: Vec<&'a Object>,
    pub names: Vec<Text>,
    /// Whether one is marked the default class.
    pub default: bool,
}

/// Why no controller claims an Ingress, as the IngressClasses pasted say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unclaimed<'c> {
    /// It names a class that is not among them (nor one of GCE's implicit classes).
    ClassMissing(&'c str),
    /// It names none, and none of them is the default.
    NoClass,
}

impl IngressClasses<'_> {
    /// Whether `class` is served: pasted, or one of GCE's implicit classes.
    pub fn serves(&self, class: &str) -> bool {
        self.names.iter().any(|n| **n == *class) || IMPLICIT_CLASSES.contains(&class)
    }

    /// Why no controller claims an Ingress that names `class` (or none); `None` when one may, or when
    /// no IngressClass was pasted to say.
    pub fn unclaimed<'c>(&self, class: Option<&'c str>) -> Option<Unclaimed<'c>> {
        match class {
            _ if self.objects.is_empty() => None,
            Some(c) if !self.serves(c) => Some(Unclaimed::ClassMissing(c)),
            None if !self.default => Some(Unclaimed::NoClass),
            _ => None,
        }
    }

    /// Their names, as evidence.
    pub fn evidence(&self, model: &Model<'_>) -> Vec<faultline_report::Evidence> {
        self.objects
            .iter()
            .filter_map(|c| model.evidence(c, "metadata.name"))
            .collect()
    }
}

fn text_at<'a>(object: &'a Object, path: &str) -> Option<&'a str> {
    object.locate(path).and_then(|(_, n)| n.as_str()).map(str::trim)
}

/// The class an Ingress names, and the path it is written at.
fn class_of(object: &Object) -> Option<(&str, &'static str)> {
    text_at(object, "spec.ingressClassName")
        .filter(|c| !c.is_empty())
        .map(|c| (c, "spec.ingressClassName"))
        .or_else(|| {
            text_at(object, CLASS_ANNOTATION)
                .filter(|c| !c.is_empty())
                .map(|c| (c, CLASS_ANNOTATION))
        })
}

/// What one paste says of the Ingress's address; `None` when it does not say (a manifest without
/// status).
pub fn address(object: &Object) -> Option<IngressAddress> {
    let empty = |printed: &str| printed.is_empty() || printed == "<none>" || printed == "<pending>";
    let shown = [
        ("kubectl.address", AddressShown::GetColumn),
        ("kubectl.describedAddress", AddressShown::Described),
    ];
    for (path, shown) in shown {
        if let Some(printed) = text_at(object, path) {
            let has = !empty(printed);
            return Some(IngressAddress { has, path, shown });
        }
    }
    let (_, lb) = object.locate("status.loadBalancer")?;
    Some(IngressAddress {
        has: lb.get("ingress").is_some_and(|i| !i.items().is_empty()),
        path: "status.loadBalancer",
        shown: AddressShown::LoadBalancer,
    })
}

impl<'a> Model<'a> {
    /// The IngressClasses pasted, in input order.
    pub fn ingress_classes(&self) -> IngressClasses<'a> {
        let objects: Vec<&Object> = self.objects_of_kind("IngressClass").collect();
        let default = objects.iter().any(|c| {
            text_at(
                c,
                "metadata.annotations[\"ingressclass.kubernetes.io/is-default-class\"]",
            ) == Some("true")
        });
        IngressClasses {
            names: objects.iter().map(|c| c.id.name.clone()).collect(),
            objects,
            default,
        }
    }

    /// Each Ingress once, with every paste of it (the same name, namespaces equal or one unsaid), in
    /// the order of its first paste.
    pub fn ingresses(&self) -> Vec<IngressPastes<'a>> {
        let ingresses: Vec<&Object> = self.objects_of_kind("Ingress").collect();
        let same = |a: &ObjectRef, b: &ObjectRef| {
            a.name == b.name && (a.namespace.is_none() || b.namespace.is_none() || a.namespace == b.namespace)
        };
        let mut done: Vec<&ObjectRef> = Vec::new();
        let mut found = Vec::new();
        for object in &ingresses {
            if done.iter().any(|d| same(d, &object.id)) {
                continue;
            }
            let pastes: Vec<&Object> = ingresses
                .iter()
                .copied()
                .filter(|o| same(&o.id, &object.id))
                .collect();
            let id = &pastes
                .iter()
                .find(|o| o.id.namespace.is_some())
                .unwrap_or(object)
                .id;
            done.extend(pastes.iter().map(|o| &o.id));
            found.push(IngressPastes { id, pastes });
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use faultline_ingest::{ingest, Source};

    use super::AddressShown;
    use crate::Model;

    const INPUT: &str = "\
$ kubectl get ingress -n shop
NAME           CLASS   HOSTS   ADDRESS   PORTS   AGE
test-ingress   nginx   *                 80      59s
";

    #[test]
    fn reads_an_ingress_without_address() {
        let sources = vec![Source::new("paste", INPUT)];
        let ingested = ingest(&sources);
        let model = Model::build(&sources, &ingested);
        let ingresses = model.ingresses();
        assert_eq!(ingresses.len(), 1);
        let ingress = &ingresses[0];
        assert!(!ingress.admitted());
        assert_eq!(
            ingress.empty_address().map(|(_, a)| a.shown),
            Some(AddressShown::GetColumn)
        );
        let classes = model.ingress_classes();
        assert!(classes.names.is_empty() && !classes.default);
        assert!(classes.serves("gce") && !classes.serves("nginx"));
        assert_eq!(classes.unclaimed(Some("nginx")), None);
    }
}
