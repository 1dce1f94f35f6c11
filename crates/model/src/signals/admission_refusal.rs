//! Which admission policy refused a create, from the API server's reason (the text after `is
//! forbidden: `): Pod Security admission's `violates PodSecurity "restricted:latest": …`
//! (staging/src/k8s.io/pod-security-admission/admission), a webhook's `admission webhook "v" denied
//! the request: …` (apiserver's webhook/errors/statuserror.go), the LimitRanger's `maximum cpu usage
//! per Container is 2, but limit is 4` (plugin/pkg/admission/limitranger).

use crate::signals::quota_refusal::is_quota;

/// What refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AdmissionPolicy {
    /// Pod Security admission, at a level (`restricted:latest`).
    PodSecurity(String),
    /// A validating or mutating webhook, by name.
    Webhook(String),
    LimitRange,
    Other,
}

impl AdmissionPolicy {
    /// The policy a refusal's reason names.
    pub fn of(reason: &str) -> Self {
        if let Some(at) = reason.find("violates PodSecurity ") {
            let rest = &reason[at + "violates PodSecurity ".len()..];
            let level = rest.trim_start_matches('"').split('"').next().unwrap_or(rest);
            return Self::PodSecurity(level.to_string());
        }
        if let Some(at) = reason.find("admission webhook \"") {
            let rest = &reason[at + "admission webhook \"".len()..];
            return Self::Webhook(rest.split('"').next().unwrap_or(rest).to_string());
        }
        if reason.contains("per Container") || reason.contains("per Pod") {
            return Self::LimitRange;
        }
        Self::Other
    }
}

/// Whether a refusal's reason is admission's: not the quota's, not authorization's (`cannot create
/// resource`, `User "…"`), and not a webhook the API server could not call (`failed calling
/// webhook`, which is the webhook's backend failing, not a policy).
pub fn is_admission(reason: &str) -> bool {
    !reason.is_empty()
        && !is_quota(reason)
        && !reason.contains("cannot create resource")
        && !reason.starts_with("User \"")
        && !reason.contains("failed calling webhook")
}

#[cfg(test)]
mod tests {
    use super::{is_admission, AdmissionPolicy};

    #[test]
    fn policies() {
        assert_eq!(
            AdmissionPolicy::of(
                "violates PodSecurity \"restricted:latest\": allowPrivilegeEscalation != false"
            ),
            AdmissionPolicy::PodSecurity("restricted:latest".into())
        );
        assert_eq!(
            AdmissionPolicy::of("admission webhook \"validate.kyverno.svc\" denied the request: nope"),
            AdmissionPolicy::Webhook("validate.kyverno.svc".into())
        );
        assert_eq!(
            AdmissionPolicy::of("maximum cpu usage per Container is 2, but limit is 4"),
            AdmissionPolicy::LimitRange
        );
        assert!(!is_admission("User \"dev\" cannot create resource \"pods\""));
        assert!(!is_admission("exceeded quota: q"));
    }
}
