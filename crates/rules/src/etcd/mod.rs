//! Rules at the etcd boundary: the API server's storage refuses or delays requests.

pub mod etcd_member_failing;
pub mod etcd_request_failed;
