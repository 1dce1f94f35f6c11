//! A ResourceQuota's amounts as pasted (`status.used`, `status.hard`, else `spec.hard`) and
//! Kubernetes quantities (staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go: decimal
//! `k M G T P E`, binary `Ki … Ei`, `m u n`, exponents `1e3`), compared exactly.

use faultline_ingest::node::{Node, NodeValue};
use faultline_ingest::Object;
use faultline_report::Evidence;

use crate::signals::quota_refusal::names_quota;
use crate::Model;

/// A Kubernetes quantity (`1Gi`, `1024Mi`, `500m`, `0.5`, `1e3`, `5k`) in billionths of its unit,
/// so that quantities written differently compare exactly.
pub fn quantity_nanos(quantity: &str) -> Option<i128> {
    let q = quantity.trim();
    let split = q
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '+' || c == '-'))
        .unwrap_or(q.len());
    let (number, suffix) = q.split_at(split);
    let (negative, number) = match number.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, number.strip_prefix('+').unwrap_or(number)),
    };
    let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
    if (whole.is_empty() && fraction.is_empty())
        || !whole.chars().chain(fraction.chars()).all(|c| c.is_ascii_digit())
        || fraction.len() > 9
    {
        return None;
    }
    let digits: i128 = format!("{whole}{fraction}").parse().ok()?;
    // digits / 10^fraction.len() units, in nanos: digits * 10^(9 - fraction.len()).
    let mut nanos = digits.checked_mul(10i128.pow(9 - fraction.len() as u32))?;
    let scale = |n: i128, factor: i128| n.checked_mul(factor);
    nanos = match suffix {
        "" => nanos,
        "n" => nanos / 1_000_000_000,
        "u" => nanos / 1_000_000,
        "m" => nanos / 1_000,
        "k" => scale(nanos, 1_000)?,
        "M" => scale(nanos, 1_000_000)?,
        "G" => scale(nanos, 1_000_000_000)?,
        "T" => scale(nanos, 1_000_000_000_000)?,
        "P" => scale(nanos, 1_000_000_000_000_000)?,
        "E" => scale(nanos, 1_000_000_000_000_000_000)?,
        "Ki" => scale(nanos, 1 << 10)?,
        "Mi" => scale(nanos, 1 << 20)?,
        "Gi" => scale(nanos, 1 << 30)?,
        "Ti" => scale(nanos, 1 << 40)?,
        "Pi" => scale(nanos, 1 << 50)?,
        "Ei" => scale(nanos, 1 << 60)?,
        exponent => {
            let e: i32 = exponent.strip_prefix(['e', 'E'])?.parse().ok()?;
            if !(-9..=18).contains(&e) {
                return None;
            }
            if e >= 0 {
                scale(nanos, 10i128.pow(e as u32))?
            } else {
                nanos / 10i128.pow((-e) as u32)
            }
        }
    };
    Some(if negative { -nanos } else { nanos })
}

/// A map of resource names to quantities (`status.used`), as (name, value) pairs.
fn amounts(node: Option<&Node>) -> Vec<(String, String)> {
    let Some(NodeValue::Map(entries)) = node.map(|n| &n.value) else {
        return Vec::new();
    };
    entries
        .iter()
        .filter_map(|e| Some((e.key.to_string(), e.value.as_str()?.to_string())))
        .collect()
}

/// A resource of a quota whose use has reached its hard limit, both as printed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExhaustedResource {
    pub resource: String,
    pub used: String,
    pub hard: String,
}

/// The path of the quota's hard limits (`status.hard`, else `spec.hard`) and each resource whose
/// use is at or over a positive hard limit, in the order of the limits.
pub fn exhausted_resources(quota: &Object) -> (&'static str, Vec<ExhaustedResource>) {
    let used = amounts(quota.locate("status.used").map(|(_, n)| n));
    let (hard_path, hard) = match amounts(quota.locate("status.hard").map(|(_, n)| n)) {
        hard if !hard.is_empty() => ("status.hard", hard),
        _ => ("spec.hard", amounts(quota.locate("spec.hard").map(|(_, n)| n))),
    };
    let mut full = Vec::new();
    for (resource, limit) in hard {
        let Some((_, in_use)) = used.iter().find(|(r, _)| *r == resource) else {
            continue;
        };
        let (Some(u), Some(h)) = (quantity_nanos(in_use), quantity_nanos(&limit)) else {
            continue;
        };
        if h > 0 && u >= h {
            full.push(ExhaustedResource {
                resource,
                used: in_use.clone(),
                hard: limit,
            });
        }
    }
    (hard_path, full)
}

impl Model<'_> {
    /// Whether the input shows the API server refusing a create by the quota `quota` (a refusal
    /// whose namespace is the quota's or not stated, `exceeded quota: <name>`).
    pub fn refused_by_quota(&self, quota: &Object) -> bool {
        self.rejections().iter().any(|r| {
            (r.subject.namespace.is_none() || r.subject.namespace == quota.id.namespace)
                && names_quota(&r.reason, &quota.id.name)
        })
    }

    /// The used and hard amounts (`status.used`, `status.hard`, `spec.hard`) of each of `resources`
    /// in the ResourceQuota `quota` of namespace `namespace`, when it is pasted.
    pub fn quota_amount_evidence<'r>(
        &self,
        namespace: Option<&str>,
        quota: &str,
        resources: impl IntoIterator<Item = &'r str>,
    ) -> Vec<Evidence> {
        let Some(object) = self.objects.iter().find(|o| {
            o.id.kind == "ResourceQuota" && o.id.name == quota && o.id.namespace.as_deref() == namespace
        }) else {
            return Vec::new();
        };
        let mut evidence = Vec::new();
        for resource in resources {
            for path in [
                format!("status.used[\"{resource}\"]"),
                format!("status.hard[\"{resource}\"]"),
                format!("spec.hard[\"{resource}\"]"),
            ] {
                evidence.extend(self.evidence(object, &path));
            }
        }
        evidence
    }
}

#[cfg(test)]
mod tests {
    use super::quantity_nanos as q;

    #[test]
    fn quantities_compare_as_kubernetes_reads_them() {
        assert_eq!(q("1Gi"), q("1024Mi"));
        assert_eq!(q("500m"), q("0.5"));
        assert_eq!(q("1k"), q("1e3"));
        assert_eq!(q("10"), Some(10_000_000_000));
        assert!(q("900Mi") < q("1Gi"));
        assert_eq!(q("abc"), None);
        assert_eq!(q(""), None);
    }
}
