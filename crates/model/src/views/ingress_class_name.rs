//! The IngressClass an Ingress names: `spec.ingressClassName`, else the older annotation
//! `kubernetes.io/ingress.class`.

use faultline_ingest::Object;

/// The class the Ingress names, if it names one.
pub fn ingress_class_name(ingress: &Object) -> Option<&str> {
    [
        "spec.ingressClassName",
        "metadata.annotations[\"kubernetes.io/ingress.class\"]",
    ]
    .iter()
    .find_map(|path| ingress.locate(path).and_then(|(_, v)| v.as_str()))
}
