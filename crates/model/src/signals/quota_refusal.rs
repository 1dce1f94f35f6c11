//! The ResourceQuota admission plugin's refusals (staging/src/k8s.io/apiserver/pkg/admission/plugin/
//! resourcequota/controller.go, formerly plugin/pkg/admission/resourcequota):
//! `exceeded quota: <quota>, requested: <r>=<v>,…, used: <r>=<v>,…, limited: <r>=<v>,…` and
//! `failed quota: <quota>: must specify <resources>`. Until 1.4 the API server wrote `Exceeded quota:`
//! and `Failed quota:` with a capital (openshift/origin#10407).

/// Whether a refusal's reason is the quota's, in the words of any release.
pub fn is_quota(reason: &str) -> bool {
    let lower = reason.to_ascii_lowercase();
    lower.contains("exceeded quota") || lower.contains("must specify") || lower.contains("failed quota")
}

/// One resource of an `exceeded quota` refusal, each amount as printed (empty when not printed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuotaAmount {
    pub resource: String,
    pub requested: String,
    pub used: String,
    pub limited: String,
}

/// An `exceeded quota` refusal: the quota's name and each resource requested.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuotaExceeded {
    pub quota: String,
    pub amounts: Vec<QuotaAmount>,
}

/// The `exceeded quota` refusal in `reason`, if it is one.
pub fn exceeded(reason: &str) -> Option<QuotaExceeded> {
    let at = reason
        .find("exceeded quota: ")
        .or_else(|| reason.find("Exceeded quota: "))?;
    let rest = &reason[at + "exceeded quota: ".len()..];
    let mut parts = rest.split(", ");
    let quota = parts.next()?.trim().to_string();
    let mut fields = std::collections::BTreeMap::new();
    for part in parts {
        if let Some((k, v)) = part.split_once(": ") {
            fields.insert(k.trim(), v.trim());
        }
    }
    let pairs = |k: &str| -> Vec<(&str, &str)> {
        fields
            .get(k)
            .map(|v| v.split(',').filter_map(|p| p.split_once('=')).collect())
            .unwrap_or_default()
    };
    let (used, limited) = (pairs("used"), pairs("limited"));
    let find = |list: &[(&str, &str)], r: &str| {
        list.iter()
            .find(|(k, _)| *k == r)
            .map(|(_, v)| v.to_string())
            .unwrap_or_default()
    };
    let amounts = pairs("requested")
        .into_iter()
        .map(|(r, v)| QuotaAmount {
            resource: r.to_string(),
            requested: v.to_string(),
            used: find(&used, r),
            limited: find(&limited, r),
        })
        .collect();
    Some(QuotaExceeded { quota, amounts })
}

/// Whether a refusal's reason is quota `quota`'s: its head (up to the first `, `) is `exceeded
/// quota: <quota>` (`Exceeded quota:` until 1.4).
pub fn names_quota(reason: &str, quota: &str) -> bool {
    reason.split(", ").next().is_some_and(|head| {
        let head = head.trim();
        head.strip_prefix("exceeded quota: ")
            .or_else(|| head.strip_prefix("Exceeded quota: "))
            == Some(quota)
    })
}

#[cfg(test)]
mod tests {
    use super::{exceeded, is_quota, names_quota, QuotaAmount};

    #[test]
    fn a_refusal_names_its_quota_in_the_words_of_any_release() {
        let now = "exceeded quota: compute, requested: pods=1, used: pods=10, limited: pods=10";
        assert!(names_quota(now, "compute") && !names_quota(now, "storage"));
        // Until 1.4 (openshift/origin#10407).
        assert!(names_quota(
            "Exceeded quota: compute, requested: pods=1, used: pods=10, limited: pods=10",
            "compute"
        ));
        assert!(!names_quota(
            "failed quota: compute: must specify limits.memory",
            "compute"
        ));
    }

    #[test]
    fn exceeded_quota_amounts() {
        let q = exceeded("exceeded quota: compute, requested: limits.cpu=2,limits.memory=1Gi, used: limits.cpu=8,limits.memory=30Gi, limited: limits.cpu=8,limits.memory=32Gi").unwrap();
        assert_eq!(q.quota, "compute");
        let amount = |r: &str, q: &str, u: &str, l: &str| QuotaAmount {
            resource: r.into(),
            requested: q.into(),
            used: u.into(),
            limited: l.into(),
        };
        assert_eq!(q.amounts[0], amount("limits.cpu", "2", "8", "8"));
        assert_eq!(q.amounts[1], amount("limits.memory", "1Gi", "30Gi", "32Gi"));
        // Before 1.5, with a capital (openshift/origin#10407).
        let old = "pods \"test-1-\" is forbidden: Exceeded quota: compute-resources, requested: limits.cpu=384m, used: limits.cpu=384m, limited: limits.cpu=384m";
        assert!(is_quota(old));
        assert_eq!(exceeded(old).unwrap().quota, "compute-resources");
        assert!(is_quota("failed quota: compute: must specify limits.cpu"));
    }
}
