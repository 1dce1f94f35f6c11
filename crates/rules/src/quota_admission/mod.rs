//! Rules at the ResourceQuota / admission boundary: the API server refused to create an object, so
//! it may not exist at all.

pub mod admission_denied_on_create;
pub mod admission_webhook_unreachable;
pub mod authorization_denied;
pub mod quota_exceeded_on_create;
pub mod rejections;
pub mod replica_creation_failed;
pub mod resource_quota_exhausted;
